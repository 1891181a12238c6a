/**
 * A stroke's width measured as the ink it holds (src/convert/ocrWeight.ts strokeOf): counted in whole
 * pixels past the midpoint grey, a stem 2.6 px wide counts 3 and a bold one 4.2 px wide counts 4, so a
 * bold head measured 1.33 times the body's stroke (under BOLD_LINE, 1.35) for a true 1.62. At the
 * resolution a page stored as a 150 dpi JPEG is read at (the Federal Register's stored scan, 240 dpi:
 * its bold heads 1.32-1.44 so, against 1.45-1.65 on its rendering at 267) the stems are two to four
 * pixels wide, and whole pixels are too coarse to weigh them.
 */
import { afterAll, expect, test } from "bun:test";
import sharp from "sharp";
import { makeConvertImage } from "../src/convert/image";
import { isBoldLine, strokeRatios } from "../src/convert/ocrWeight";
import type { ConvertInput } from "../src/convert/types";
import { Tesseract } from "../src/tools/tesseract";
import type { OcrWord } from "../src/tools/types";
import { convertContext } from "./helpers/convert";
import { scanAt150 } from "./helpers/scanAt150";
import type { TypesetRun } from "./helpers/typesetPdf";

const tesseract = new Tesseract({ concurrency: 2, timeoutMs: 60_000 });
afterAll(() => tesseract.close());

/** PROSE: a notice's paragraph, in lines of the body's width */
const PROSE = [
  "The agency will consider all comments received by the closing date for comments, and",
  "it will consider comments filed after the comment period has closed if it is possible",
  "to do so without incurring expense or delay. The agency may change this proposal in",
  "light of those comments, and it will post every comment it receives to the docket.",
];

const HEADS = ["Comments Invited", "Flightcrew Training", "Explanation of Change", "Costs of Compliance"];

/** noticePage: a notice's page in 8.5 pt Times: bold heads in the body's size, each over a paragraph */
function noticePage(): TypesetRun[] {
  const runs: TypesetRun[] = [];
  let y = 780;
  for (const head of HEADS) {
    runs.push({ font: "Times-Bold", size: 8.5, x: 60, y, text: head });
    y -= 13;
    for (const line of PROSE) {
      runs.push({ font: "Times-Roman", size: 8.5, x: 60, y, text: line });
      y -= 11;
    }
    y -= 10;
  }
  return runs;
}

test("bold heads in the body's size on a page stored as a 150 dpi JPEG are heads", async () => {
  const jpeg = await sharp(await scanAt150(noticePage())).jpeg({ quality: 50 }).toBuffer();
  const input: ConvertInput = { bytes: new Uint8Array(jpeg), filename: "notice_scan.jpg", contentType: "image/jpeg", ext: "jpg" };
  const markdown = (await makeConvertImage({ scanLayout: true })(input, convertContext({ tools: { ocr: tesseract } }))).markdown;
  for (const head of HEADS) expect(markdown).toMatch(new RegExp(`^#{1,6} ${head}$`, "m"));
  expect(markdown).toContain("The agency will consider all comments received");
}, 60_000);

/**
 * stemsPage: one word a line, each drawn as eight upright stems `widths[i]` px wide (their edges
 * covering parts of pixels, as a rendering's do) and softened a little (a gaussian of 0.6 px), black
 * on white: the stems of a word in a regular face and of one in a bold face at a scan's resolution.
 */
function stemsPage(widths: number[]): { image: { data: Uint8Array; width: number; height: number }; words: OcrWord[] } {
  const width = 160;
  const height = widths.length * 40 + 20;
  const ink = new Float64Array(width * height);
  const words = widths.map((stem, i): OcrWord => {
    const top = 10 + i * 40;
    for (let k = 0; k < 8; k++) {
      const x0 = 20 + k * 12;
      for (let x = Math.floor(x0); x <= Math.ceil(x0 + stem); x++) {
        const cover = Math.max(0, Math.min(x + 1, x0 + stem) - Math.max(x, x0));
        for (let y = top; y < top + 24; y++) ink[y * width + x] = cover;
      }
    }
    return { text: "mmm", left: 15, top, width: 110, height: 24, confidence: 0.95, line: `1/${i}/1`, paragraph: `1/${i}` };
  });
  const sigma = 0.6;
  const kernel = [-2, -1, 0, 1, 2].map((j) => Math.exp(-(j * j) / (2 * sigma * sigma)));
  const total = kernel.reduce((sum, k) => sum + k, 0);
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const dark = kernel.reduce((sum, k, j) => sum + k * ink[y * width + Math.min(width - 1, Math.max(0, x + j - 2))]!, 0) / total;
      data[y * width + x] = Math.round(255 * (1 - Math.min(1, dark)));
    }
  }
  return { image: { data, width, height }, words };
}

test("a bold word's stems 1.6 times the body's, at two to four pixels wide, make a bold line; the body's do not", () => {
  const { image, words } = stemsPage([...Array<number>(24).fill(2.6), 4.2, 4.2, 4.2]);
  const ratios = strokeRatios(image, words, () => 1);
  for (const word of words.slice(24)) {
    expect(ratios.get(word)!).toBeGreaterThan(1.4);
    expect(isBoldLine([word], ratios)).toBe(true);
  }
  for (const word of words.slice(0, 24)) expect(isBoldLine([word], ratios)).toBe(false);
});
