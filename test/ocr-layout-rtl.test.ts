/**
 * Scanned pages in a right-to-left script (src/convert/ocrLayout.ts, RTL_LANGUAGE): tesseract's Arabic
 * model boxes most words of a line with the line's height, so the boxes say no size, and it reads a
 * clean page with less confidence than the English model does (DejaVu Sans at 150 dpi: 0.92-0.93
 * against 0.96). Such a page is laid out by its words' places, its lines reading from the right, and
 * a centred bold line read surely is a heading; a bold line at the column's right edge (a law's
 * enacting words) and the body are not. A page read as one block is laid out too (ocrLaysOut).
 * Real tesseract on a page drawn by sharp with DejaVu Sans (Debian's fonts-dejavu-core), as
 * test/ocr-language.test.ts draws its Arabic page.
 */
import { afterAll, expect, test } from "bun:test";
import sharp from "sharp";
import { ocrLaysOut, ocrLayoutMarkdown } from "../src/convert/ocrLayout";
import { Tesseract } from "../src/tools/tesseract";

const tesseract = new Tesseract({ concurrency: 2, timeoutMs: 60_000 });
afterAll(() => tesseract.close());

const PROSE = [
  "تسرى أحكام هذا القانون والقانون المرافق على جميع المنشآت الفندقية والسياحية",
  "المنصوص عليها فى المادة من القانون المرافق عدا تلك التى تملكها أو تديرها الدولة",
  "وزارة الدفاع أو وزارة الداخلية أو الجهات التابعة لهما فى جميع الأحوال وغيرها",
];

/** a law's page: bold enacting words at the right edge, then articles each under a centred bold head */
function lawPage(): { svg: string; height: number } {
  const lines: string[] = [];
  let y = 90;
  // body lines about as long as each other (a justified column, 410-1150 px), heads centred on it, the enacting words at its right edge
  const line = (text: string, bold: boolean, place: "centred" | "right" | "justified") => {
    const x = place === "centred" ? 780 : 1150;
    lines.push(`<text x="${x}" y="${y}" font-family="DejaVu Sans" font-size="22"${bold ? ' font-weight="bold"' : ""} text-anchor="${place === "centred" ? "middle" : "end"}">${text}</text>`);
    y += 46;
  };
  line("باسم الشعب", true, "right");
  line("رئيس الجمهورية", true, "right");
  line("قرر مجلس النواب القانون الآتى نصه وقد أصدرناه", false, "right");
  for (const head of ["(المادة الأولى)", "(المادة الثانية)", "(المادة الثالثة)"]) {
    y += 30;
    line(head, true, "centred");
    for (const text of PROSE) line(text, false, "justified");
  }
  const height = 1754;
  return { svg: `<svg xmlns="http://www.w3.org/2000/svg" width="1240" height="${height}"><rect width="100%" height="100%" fill="white"/>${lines.join("")}</svg>`, height };
}

test("an Arabic page read under 0.9 is laid out by place: its centred bold heads are headings, read from the right; its enacting words and body are not", async () => {
  const { svg } = lawPage();
  const png = new Uint8Array(await sharp(Buffer.from(svg)).grayscale().png().toBuffer());
  const raw = await sharp(png).grayscale().raw().toBuffer({ resolveWithObject: true });
  const read = await tesseract.recognize(png, AbortSignal.timeout(60_000), { segmentation: "block", dpi: 150 });
  expect(read.language).toBe("ara");
  // the gazette's pages read 0.85-0.88 with the Arabic model
  const ocr = { ...read, confidence: 0.86 };
  expect(ocrLaysOut("block", ocr)).toBe(true);
  const markdown = ocrLayoutMarkdown(ocr, 72 / 150, 1, [], { data: new Uint8Array(raw.data), width: raw.info.width, height: raw.info.height });
  expect(markdown).not.toBeNull();
  for (const head of ["(المادة الأولى)", "(المادة الثانية)", "(المادة الثالثة)"]) expect(markdown).toMatch(new RegExp(`^#{1,6} ${head.replace(/[()]/g, "\\$&")}$`, "m"));
  expect(markdown).not.toMatch(/^#{1,6} .*(?:باسم الشعب|رئيس الجمهورية)/m);
  expect(markdown!.match(/^#/gm)).toHaveLength(3);
  // the words of a line in reading order
  expect(markdown).toContain("تسرى أحكام هذا القانون");
}, 120_000);

test("a reading in a left-to-right script segmented as one block (a receipt) is not laid out", () => {
  expect(ocrLaysOut("block", { text: "TOTAL 12.00", confidence: 0.95 })).toBe(false);
  expect(ocrLaysOut("auto", { text: "TOTAL 12.00", confidence: 0.95 })).toBe(true);
  expect(ocrLaysOut("block", { text: "שלום", confidence: 0.9, language: "heb" })).toBe(true);
});
