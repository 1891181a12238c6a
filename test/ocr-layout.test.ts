/**
 * Scanned pages laid out like born-digital ones (src/convert/ocrLayout.ts): a typeset page (a title
 * over prose, a table of figures without rules) rendered to a 150 dpi grey PNG by pdftoppm, read by
 * the real tesseract. The image's markdown must show the title as a heading and the table's rows as
 * table rows, which tesseract's flat text does not, and hold exactly the words tesseract read.
 */
import { afterAll, expect, test } from "bun:test";
import { makeConvertImage } from "../src/convert/image";
import { ocrItems, wordChanges } from "../src/convert/ocrLayout";
import type { ConvertInput } from "../src/convert/types";
import { renderPdfPage } from "../src/tools/poppler";
import { Tesseract } from "../src/tools/tesseract";
import type { OcrEngine, OcrResult } from "../src/tools/types";
import { convertContext } from "./helpers/convert";
import { typesetPdf, type TypesetRun } from "./helpers/typesetPdf";

const tesseract = new Tesseract({ concurrency: 2, timeoutMs: 60_000 });
afterAll(() => tesseract.close());

/** PROSE: a paragraph of the report, one string per printed line */
const PROSE = [
  "Water samples were taken at each of the stations below in the spring and in the autumn of the year.",
  "Every sample was tested for nitrate and for lead by the regional laboratory within two days of the",
  "visit, and the figures are the mean of the samples taken at the station during the season.",
];
/** TABLE: the report's figures, header first; printed in three columns without rules */
const TABLE = [
  ["Station", "Nitrate mg/l", "Lead ug/l"],
  ["Riverside", "12.4", "3.1"],
  ["Hill Farm", "8.7", "1.9"],
  ["Old Mill", "15.2", "4.6"],
  ["Lakeview", "6.3", "0.8"],
];

function reportPage(): TypesetRun[] {
  const runs: TypesetRun[] = [{ font: "Helvetica-Bold", size: 20, x: 57, y: 770, text: "Annual Water Quality Report" }];
  PROSE.forEach((text, i) => runs.push({ font: "Times-Roman", size: 11, x: 57, y: 730 - i * 14, text }));
  TABLE.forEach((row, i) => {
    const y = 660 - i * 18;
    runs.push({ font: "Times-Roman", size: 11, x: 57, y, text: row[0]! });
    runs.push({ font: "Times-Roman", size: 11, x: 260, y, text: row[1]! });
    runs.push({ font: "Times-Roman", size: 11, x: 420, y, text: row[2]! });
  });
  runs.push({ font: "Times-Roman", size: 11, x: 57, y: 550, text: "The stations on the river show more nitrate than those on the lake and the hills." });
  return runs;
}

/** onceRead: the engine's reading of each image kept, so that both converters see the same OCR */
function onceRead(engine: OcrEngine): OcrEngine & { last?: OcrResult } {
  const seen = new Map<number | bigint, Promise<OcrResult>>();
  const memo: OcrEngine & { last?: OcrResult } = {
    async recognize(image, signal, options) {
      const key = Bun.hash(image);
      if (!seen.has(key)) seen.set(key, engine.recognize(image, signal, options));
      memo.last = await seen.get(key)!;
      return memo.last;
    },
  };
  return memo;
}

test("a scanned report page gets its title as a heading and its figures as table rows, with every word tesseract read", async () => {
  const png = await renderPdfPage(typesetPdf([reportPage()]), { page: 1, dpi: 150, gray: true, timeoutMs: 60_000, maxBytes: 50_000_000 }, AbortSignal.timeout(60_000));
  const input: ConvertInput = { bytes: png, filename: "water_report_scan.png", contentType: "image/png", ext: "png" };
  const ocr = onceRead(tesseract);
  const flat = (await makeConvertImage({ scanLayout: false })(input, convertContext({ tools: { ocr } }))).markdown;
  const laidOut = await makeConvertImage({ scanLayout: true })(input, convertContext({ tools: { ocr } }));
  const markdown = laidOut.markdown;

  // the flat text has neither (the title is not in capitals, the figures run on as words of a line)
  expect(flat).not.toMatch(/^#{1,3} Annual Water Quality Report$/m);
  expect(flat).not.toMatch(/^\| *Hill Farm *\| *8\.7 *\| *1\.9 *\|$/m);

  expect(markdown).toMatch(/^#{1,3} Annual Water Quality Report$/m);
  expect(markdown).toMatch(/^\| *Station *\| *Nitrate mg\/l *\| *Lead ug\/l *\|$/m);
  for (const row of TABLE.slice(1)) expect(markdown).toContain(`| ${row.join(" | ")} |`);
  expect(markdown).toContain("Water samples were taken at each of the stations below");
  // never lose words: the layout holds the set of words tesseract read (the page's markdown only: the metadata section is the converter's)
  const body = markdown.replace(/\n## Image metadata\n[\s\S]*$/, "").replace(/^# water_report_scan\.png\n/, "");
  expect(wordChanges(body, ocr.last!.text)).toEqual({ lost: [], added: [] });
  // OCR quality is reported as before
  expect(laidOut.pages![0]!.method).toBe("ocr");
  expect(laidOut.pages![0]!.ocrQuality).toBe(ocr.last!.confidence);
}, 60_000);

test("a bullet tesseract read as '*' or '«' before a line's words is a bullet item, not a word; a lone '*' line and an inner '*' stay", () => {
  const word = (text: string, left: number, line: string) => ({ text, left, top: line === "1/1/1" ? 100 : 140, width: 10 * text.length, height: 20, confidence: 0.95, line, paragraph: "1/1" });
  const items = ocrItems([word("*", 10, "1/1/1"), word("Hypertension", 40, "1/1/1"), word("«", 10, "1/1/2"), word("Diabetes", 40, "1/1/2"), word("5", 200, "1/1/2"), word("*", 230, "1/1/2")], 0.5);
  expect(items.map((item) => item.str)).toEqual(["•", " Hypertension", "•", " Diabetes", " 5", " *"]);
  expect(ocrItems([word("*", 10, "1/1/1")], 0.5).map((item) => item.str)).toEqual(["*"]);
  // a Portuguese or Italian line may start with the word "o"
  expect(ocrItems([word("o", 10, "1/1/1"), word("contrato", 40, "1/1/1")], 0.5).map((item) => item.str)).toEqual(["o", " contrato"]);
});
