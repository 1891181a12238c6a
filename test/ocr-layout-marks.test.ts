/**
 * A lower-case word whose only marks above the x-height are dots or accents ("regimens", "minimising",
 * "été") has a box nearly as tall as a word with ascenders: tesseract's box takes in the dot. Sized as
 * an x-height word, such a word alone on a line (a paragraph's last line) came out a third larger than
 * its paragraph, and the layout made it a heading ("## regimens." in a scanned paper's prose).
 */
import { afterAll, expect, test } from "bun:test";
import { makeConvertImage } from "../src/convert/image";
import { ocrItems } from "../src/convert/ocrLayout";
import type { ConvertInput } from "../src/convert/types";
import { renderPdfPage } from "../src/tools/poppler";
import { Tesseract } from "../src/tools/tesseract";
import type { OcrWord } from "../src/tools/types";
import { convertContext } from "./helpers/convert";
import { typesetPdf, type TypesetRun } from "./helpers/typesetPdf";

const tesseract = new Tesseract({ concurrency: 2, timeoutMs: 60_000 });
afterAll(() => tesseract.close());

test("a line of one dotted or accented word is sized as the body, not a third larger", () => {
  // a 40 px body face at 300 dpi, boxed as tesseract boxes Times: ascending words 28 px tall (0.71 em), x-height words 20 px, dotted or accented words 27 px, descenders 8 px more
  const words: OcrWord[] = [];
  const lineOf = (n: number, top: number, parts: [string, number][]) => {
    let left = 40;
    for (const [text, height] of parts) {
      words.push({ text, left, top: top + 28 - height, width: text.length * 20, height, confidence: 0.95, line: `1/1/${n}`, paragraph: "1/1" });
      left += text.length * 20 + 16;
    }
  };
  lineOf(1, 40, [["The", 28], ["treatment", 28], ["of", 28], ["the", 28], ["heart", 28], ["is", 27], ["complex", 37]]);
  lineOf(2, 100, [["minimising", 35]]);
  lineOf(3, 160, [["été", 27], ["une", 20], ["saison", 27]]);
  const items = ocrItems(words, 72 / 300);
  const sizeOf = (text: string) => items.find((item) => item.str.trim() === text)!.size;
  expect(sizeOf("minimising")).toBe(sizeOf("The"));
  expect(sizeOf("été")).toBe(sizeOf("The"));
});

/** PARAGRAPHS: the prose of a scanned paper, each paragraph's last line one word with dots and no ascenders */
const PARAGRAPHS = [
  [
    "Heart failure is associated with severe symptom burden, functional limitation and early death.",
    "Treatment is complex, and there are many barriers to adherence: patients often report poor",
    "quality of life, high levels of distress and difficulties in adhering to their treatment",
    "regimens.",
  ],
  [
    "All of the patients who took part in the study gave their informed consent, and the study was",
    "approved by the ethics committee of the hospital, which also reviewed the interview schedule and",
    "the letters sent to the patients' doctors, who were told of the study and whose patients gave their",
    "permission.",
  ],
];

function paperPage(): TypesetRun[] {
  const runs: TypesetRun[] = [{ font: "Times-Bold", size: 16, x: 57, y: 770, text: "Patient Experiences of Heart Failure Care" }];
  let y = 730;
  for (const paragraph of PARAGRAPHS) {
    for (const text of paragraph) {
      runs.push({ font: "Times-Roman", size: 10, x: 57, y, text });
      y -= 12.5;
    }
    y -= 12;
  }
  return runs;
}

test("a scanned paper's paragraphs that end in one dotted word keep it in the paragraph: the title alone is a heading", async () => {
  const png = await renderPdfPage(typesetPdf([paperPage()]), { page: 1, dpi: 150, gray: true, timeoutMs: 60_000, maxBytes: 50_000_000 }, AbortSignal.timeout(60_000));
  const input: ConvertInput = { bytes: png, filename: "heart_failure_paper_scan.png", contentType: "image/png", ext: "png" };
  const markdown = (await makeConvertImage({ scanLayout: true })(input, convertContext({ tools: { ocr: tesseract } }))).markdown;
  const body = markdown.replace(/\n## Image metadata\n[\s\S]*$/, "").replace(/^# heart_failure_paper_scan\.png\n/, "");
  expect(body).toMatch(/^#{1,3} Patient Experiences of Heart Failure Care$/m);
  expect(body).not.toMatch(/^#+ (regimens|permission)/m);
  expect(body).toMatch(/adhering to their treatment\s+regimens\./);
  expect(body).toMatch(/whose patients gave their\s+permission\./);
}, 60_000);
