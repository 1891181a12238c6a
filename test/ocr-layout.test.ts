/**
 * Scanned pages laid out like born-digital ones (src/convert/ocrLayout.ts): a typeset page (a title
 * over prose, a table of figures without rules) rendered to a 150 dpi grey PNG by pdftoppm, read by
 * the real tesseract. The image's markdown must show the title as a heading and the table's rows as
 * table rows, which tesseract's flat text does not, and hold exactly the words tesseract read.
 */
import { afterAll, expect, test } from "bun:test";
import sharp from "sharp";
import { makeConvertImage } from "../src/convert/image";
import { ocrItems, ocrLayoutMarkdown, wordChanges } from "../src/convert/ocrLayout";
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

/** scannedPage: a typeset page rendered as a scan is (a 150 dpi grey PNG, by pdftoppm), as an upload named `filename` */
async function scannedPage(runs: TypesetRun[], filename: string): Promise<ConvertInput> {
  const png = await renderPdfPage(typesetPdf([runs]), { page: 1, dpi: 150, gray: true, timeoutMs: 60_000, maxBytes: 50_000_000 }, AbortSignal.timeout(60_000));
  return { bytes: png, filename, contentType: "image/png", ext: "png" };
}

test("a scanned report page gets its title as a heading and its figures as table rows, with every word tesseract read", async () => {
  const input = await scannedPage(reportPage(), "water_report_scan.png");
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

/** RAIN_TABLE: a ruled table's rows, header first; a note that wraps to a second line in its cell is split at "|" */
const RAIN_TABLE = [
  ["Station", "Rain mm", "Notes"],
  ["Northgate", "112.4", "gauge moved to the|north field in May"],
  ["Eastbrook", "87.9", "read by the school"],
  ["Southmoor", "140.2", "two days missed in|the April floods"],
  ["Westfield", "95.5", "new gauge fitted"],
];

/** ruledTablePage: an A4 page at 150 dpi drawn in SVG: a title, prose, RAIN_TABLE inside 2 px rules, a closing line */
function ruledTablePage(): Buffer {
  const parts = ['<rect width="1240" height="1754" fill="white"/>'];
  const text = (x: number, y: number, size: number, line: string, weight = "normal") => parts.push(`<text x="${x}" y="${y}" font-family="DejaVu Serif" font-size="${size}" font-weight="${weight}">${line}</text>`);
  text(120, 200, 40, "Regional Rainfall Summary", "bold");
  text(120, 280, 23, "Rain gauges were read every morning at the stations listed in the table below, and the");
  text(120, 316, 23, "totals are the sums of the daily readings over each month of the wet season in the valley.");
  const xs = [120, 450, 680, 1120];
  const top = 400;
  const rowHeight = 80;
  RAIN_TABLE.forEach((row, r) => row.forEach((cell, c) => cell.split("|").forEach((line, k) => text(xs[c]! + 14, top + r * rowHeight + 34 + k * 32, 23, line))));
  const bottom = top + RAIN_TABLE.length * rowHeight;
  for (let r = 0; r <= RAIN_TABLE.length; r++) parts.push(`<line x1="${xs[0]}" y1="${top + r * rowHeight}" x2="${xs[3]}" y2="${top + r * rowHeight}" stroke="black" stroke-width="2"/>`);
  for (const x of xs) parts.push(`<line x1="${x}" y1="${top}" x2="${x}" y2="${bottom}" stroke="black" stroke-width="2"/>`);
  text(120, bottom + 70, 23, "The southern stations had the most rain in each month, as in every year since records began.");
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="1240" height="1754">${parts.join("")}</svg>`);
}

test("a scanned page's ruled table, whose notes wrap in their cells, is a table of its ruled cells", async () => {
  const png = new Uint8Array(await sharp(ruledTablePage()).greyscale().png().withMetadata({ density: 150 }).toBuffer());
  const input: ConvertInput = { bytes: png, filename: "rainfall_ruled_table_scan.png", contentType: "image/png", ext: "png" };
  const ocr = onceRead(tesseract);
  const markdown = (await makeConvertImage({ scanLayout: true })(input, convertContext({ tools: { ocr } }))).markdown;
  // without the rules the wrapped notes part the rows into lines of words (no table)
  expect(markdown).toMatch(/^#{1,3} Regional Rainfall Summary$/m);
  expect(markdown).toMatch(/^\| *Station *\| *Rain mm *\| *Notes *\|$/m);
  for (const row of RAIN_TABLE.slice(1)) expect(markdown).toContain(`| ${row.map((cell) => cell.replace("|", " ")).join(" | ")} |`);
  expect(markdown).toContain("The southern stations had the most rain in each month");
  const body = markdown.replace(/\n## Image metadata\n[\s\S]*$/, "").replace(/^# rainfall_ruled_table_scan\.png\n/, "");
  expect(wordChanges(body, ocr.last!.text)).toEqual({ lost: [], added: [] });
}, 60_000);

/**
 * medicationPage: the words of a scanned report page as tesseract gives them at 150 dpi: a section
 * title in 14 px capitals, body lines in a 14 px face (capitals 10 px tall), and a numbered list where, as on
 * MarkItDown's MEDRPT scan, tesseract gave most words of each item one box 28 px tall (two lines'
 * height) and only the number and a word or two their own.
 */
function medicationPage(): OcrResult {
  const words: OcrResult["words"] = [];
  const lineOf = (n: number, top: number, parts: [string, number][]) => {
    let left = 60;
    for (const [text, height] of parts) {
      // a shared box starts above the line: its bottom is a line further down
      words.push({ text, left, top: height > 20 ? top - 10 : top + (10 - height), width: text.length * 6, height, confidence: 0.95, line: `1/1/${n}`, paragraph: "1/1" });
      left += text.length * 6 + 5;
    }
  };
  // a 14 px body face: x-height 7 px, ascenders 10, descenders 3 more
  const body = (text: string) => text.split(" ").map((word): [string, number] => [word, (/[A-Z0-9bdfhklt]/.test(word) ? 10 : 7) + (/[gjpqy]/.test(word) ? 3 : 0)]);
  lineOf(1, 40, [["CURRENT", 14], ["MEDICATIONS", 14]]);
  lineOf(2, 80, body("The patient takes the following medicines every day as prescribed by the clinic doctor at the last visit in March of this year"));
  lineOf(3, 97, body("and reports no side effects from any of them since the doses were changed at the start of the winter season last year"));
  lineOf(4, 130, [["1.", 10], ["Lisinopril", 13], ["10mg", 28], ["once", 28], ["daily", 28], ["for", 28], ["hypertension", 13]]);
  lineOf(5, 150, [["2.", 10], ["Metformin", 10], ["500mg", 28], ["twice", 28], ["daily", 28], ["for", 28], ["diabetes", 28]]);
  lineOf(6, 170, [["3.", 10], ["Aspirin", 13], ["81mg", 13], ["once", 28], ["daily", 28], ["for", 10], ["protection", 13]]);
  // tesseract read "presents" as "p' its", "its" in a box of its own 6 px tall: a piece of a word, not the line's size
  lineOf(7, 185, [...body("Patient"), ["its", 6], ...body("with persistent headaches occurring three or four times per week for the past six weeks")]);
  lineOf(8, 200, body("Blood pressure and blood sugar are to be checked again at the next visit in three months from the date of this report"));
  const text = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => words.filter((word) => word.line === `1/1/${n}`).map((word) => word.text).join(" ")).join("\n");
  return { text, confidence: 0.95, words, width: 1240, height: 600 };
}

test("numbered items whose words tesseract gave one tall shared box are list items at the body's size, not headings; a piece of a word read as a word does not size its line", () => {
  const items = ocrItems(medicationPage().words!, 72 / 150);
  const sizeOf = (text: string) => items.find((item) => item.str.trim() === text)!.size;
  expect(sizeOf("Metformin")).toBe(sizeOf("patient"));
  expect(sizeOf("Lisinopril")).toBe(sizeOf("patient"));
  expect(sizeOf("MEDICATIONS")).toBeGreaterThan(sizeOf("patient"));
  expect(sizeOf("headaches")).toBe(sizeOf("patient"));

  const markdown = ocrLayoutMarkdown(medicationPage(), 72 / 150)!;
  expect(markdown).toMatch(/^#{1,3} CURRENT MEDICATIONS$/m);
  expect(markdown).not.toMatch(/^#+ .*(Lisinopril|Metformin|Aspirin)/m);
  expect(markdown).toMatch(/^2\. Metformin 500mg twice daily for diabetes$/m);
});

/** noticePage: a periodical's running head over a notice whose sections have bold heads in the body's size (as the Federal Register sets them) */
function noticePage(): TypesetRun[] {
  const runs: TypesetRun[] = [{ font: "Helvetica", size: 9, x: 57, y: 800, text: "47702 Federal Register / Vol. 85, No. 152 / Thursday, August 6, 2020 / Proposed Rules" }];
  let y = 770;
  const section = (head: string, lines: string[]) => {
    runs.push({ font: "Times-Bold", size: 11, x: 57, y, text: head });
    y -= 14;
    for (const text of lines) {
      runs.push({ font: "Times-Roman", size: 11, x: 57, y, text });
      y -= 14;
    }
    y -= 10;
  };
  section("Sampling Methods", PROSE);
  section("Laboratory Costs", [PROSE[1]!, PROSE[0]!, PROSE[2]!]);
  section("Comments Invited", [PROSE[2]!, PROSE[1]!, PROSE[0]!]);
  return runs;
}

test("a scanned page's bold heads in the body's size are headings (told by their thicker strokes); a periodical's running head is dropped as on a born-digital page", async () => {
  const input = await scannedPage(noticePage(), "notice_scan.png");
  const ocr = onceRead(tesseract);
  const markdown = (await makeConvertImage({ scanLayout: true })(input, convertContext({ tools: { ocr } }))).markdown;
  // before: the flat text (the layout lost the running head's words, so it was not kept), no heading
  for (const head of ["Sampling Methods", "Laboratory Costs", "Comments Invited"]) expect(markdown).toMatch(new RegExp(`^#{1,4} ${head}$`, "m"));
  expect(markdown).not.toMatch(/^#+ (Water|Every|visit)/m);
  expect(markdown).not.toContain("Federal Register / Vol");
  expect(markdown).toContain("Water samples were taken at each of the stations below");
}, 60_000);

/** figuresPage: tesseract's words of a page that is one table of figures (tall words: digits reach the cap height), its columns `step` px apart, 20 px words */
function figuresPage(step: number): OcrResult {
  const rows = [
    ["Units", "Inches", "Feet", "Meters"],
    ["inch", "1", "0.0833", "0.0254"],
    ["foot", "12", "1", "0.3048"],
    ["yard", "36", "3", "0.9144"],
    ["meter", "39.37", "3.2808", "1"],
    ["link", "7.92", "0.66", "0.2012"],
  ];
  const words: OcrResult["words"] = [];
  rows.forEach((row, r) => row.forEach((text, c) => words.push({ text, left: 50 + c * step, top: 100 + 40 * r, width: 14 * text.length, height: 20, confidence: 0.95, line: `1/1/${r + 1}`, paragraph: "1/1" })));
  return { text: rows.map((row) => row.join(" ")).join("\n"), confidence: 0.95, words, width: 1240, height: 1754 };
}

test("a page that is one table of figures, 42 word heights across, is laid out as a table; a receipt's narrow column (30) keeps tesseract's lines", () => {
  // the figures' words are as tall as capitals, so a full page of them spans fewer word heights than prose does (NIST HB44's tables: 44)
  const wide = figuresPage(258);
  // before: a page under 45 word heights across was never laid out
  expect(ocrLayoutMarkdown(wide, 72 / 150)).toMatch(/^\| *yard *\| *36 *\| *3 *\| *0\.9144 *\|$/m);
  expect(ocrLayoutMarkdown(figuresPage(175), 72 / 150)).toBeNull();
});

test("a line tesseract read with little confidence (a chart's marks read as words) is no heading, whatever its boxes' size", () => {
  const words: OcrResult["words"] = [];
  const lineOf = (n: number, top: number, height: number, confidence: number, text: string) => {
    let left = 60;
    for (const part of text.split(" ")) {
      words.push({ text: part, left, top, width: part.length * 9, height, confidence, line: `1/1/${n}`, paragraph: "1/1" });
      left += part.length * 9 + 6;
    }
  };
  // a title in 28 px boxes, a 14 px body (ascending words 10 px tall), and plot marks read as "os 20" in 28 px boxes
  lineOf(1, 20, 28, 0.95, "Results");
  for (let n = 2; n <= 9; n++) lineOf(n, 40 + 20 * n, 10, 0.95, "The dots show each sample drawn from the fitted model and its interval");
  lineOf(10, 260, 28, 0.45, "os 20");
  for (let n = 11; n <= 14; n++) lineOf(n, 100 + 20 * n, 10, 0.95, "The dots show each sample drawn from the fitted model and its interval");
  const text = [...new Set(words.map((word) => word.line))].map((line) => words.filter((word) => word.line === line).map((word) => word.text).join(" ")).join("\n");
  const markdown = ocrLayoutMarkdown({ text, confidence: 0.93, words, width: 1240, height: 1754 }, 72 / 150)!;
  expect(markdown).toMatch(/^#{1,3} Results$/m);
  // before: "## os 20", a heading as large as the title
  expect(markdown).not.toMatch(/^#+ os 20/m);
  expect(markdown).toMatch(/^os 20$/m);
});
