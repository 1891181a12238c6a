/**
 * Scanned heads printed in a colour (src/convert/ocrWeight.ts inkBoxes, ocrLayout.ts): a report's
 * bold heads set in the body's size but in a light ink (NVIDIA's green note heads, grey on a grey
 * scan) are boxed short by tesseract, whose black-and-white reading of the page loses their soft
 * edges, and so measured a size under the body's: they were no heads. Their boxes are grown to their
 * ink's extent. A line with an equals sign opening a word (a figure's "INTERVAL = quantile interval",
 * a footnote's "One square mile =1.000 004 ...") is no heading, whatever its box's size.
 */
import { afterAll, expect, test } from "bun:test";
import { makeConvertImage } from "../src/convert/image";
import { ocrItems } from "../src/convert/ocrLayout";
import { inkBoxes } from "../src/convert/ocrWeight";
import type { ConvertInput } from "../src/convert/types";
import { Tesseract } from "../src/tools/tesseract";
import type { OcrWord } from "../src/tools/types";
import { convertContext } from "./helpers/convert";
import { scanAt150 } from "./helpers/scanAt150";
import type { TypesetRun } from "./helpers/typesetPdf";

const tesseract = new Tesseract({ concurrency: 2, timeoutMs: 60_000 });
afterAll(() => tesseract.close());

/** PROSE: a report's paragraph, in lines of the body's width */
const PROSE = [
  "In November 2023, the accounting standards board issued a new standard requiring",
  "disclosures of significant expenses in operating segments. We adopted this standard",
  "in our annual report for the fiscal year, and refer to the notes of the statements",
  "in the fourth part of this report for further information on the segments we use.",
];

/** reportPage: a report's page in 9 pt Helvetica: grey bold heads (gray 0.6, as a green prints grey) and a black one, each over a paragraph */
function reportPage(): TypesetRun[] {
  const runs: TypesetRun[] = [];
  let y = 780;
  const head = (text: string, gray: number) => {
    runs.push({ font: "Helvetica-Bold", size: 7, x: 57, y, text, gray });
    y -= 13;
  };
  const prose = () => {
    for (const line of PROSE) {
      runs.push({ font: "Helvetica", size: 7, x: 57, y, text: line });
      y -= 8.5;
    }
    y -= 8;
  };
  head("Recently Issued Accounting Pronouncements", 0.6);
  head("Recently Adopted Accounting Pronouncement", 0);
  prose();
  prose();
  head("Note 2 - Business Combination", 0.6);
  head("Termination of the Share Purchase Agreement", 0.6);
  prose();
  head("Note 3 - Stock-Based Compensation", 0.6);
  prose();
  return runs;
}

test("bold heads in a light ink, in the body's size, are heads as black ones are", async () => {
  const input: ConvertInput = { bytes: await scanAt150(reportPage()), filename: "report_grey_heads_scan.png", contentType: "image/png", ext: "png" };
  const markdown = (await makeConvertImage({ scanLayout: true })(input, convertContext({ tools: { ocr: tesseract } }))).markdown;
  for (const head of ["Recently Adopted Accounting Pronouncement", "Recently Issued Accounting Pronouncements", "Note 2 - Business Combination", "Termination of the Share Purchase Agreement", "Note 3 - Stock-Based Compensation"]) {
    expect(markdown).toMatch(new RegExp(`^#{1,6} ${head}$`, "m"));
  }
  expect(markdown).toContain("In November 2023, the accounting standards board");
}, 60_000);

const word = (text: string, left: number, top: number, line: string, height = 20): OcrWord => ({ text, left, top, width: text.length * 9, height, confidence: 0.95, line, paragraph: line.split("/").slice(0, 2).join("/") });

test("a line with an equals sign opening a word is no heading; an equals sign inside a word or a line without one leaves it be", () => {
  const lines = [
    ["INTERVAL", "=", "quantile", "interval"],
    ["One", "square", "mile", "=1.000", "004", "square", "miles"],
    ["x=y", "Results"],
    ["Results", "and", "Discussion"],
  ];
  const words = lines.flatMap((line, i) => line.map((text, j) => word(text, 20 + j * 90, 20 + i * 50, `1/${i}/1`, 40)));
  const unsure = (i: number) => ocrItems(words, 0.5).filter((item) => Math.abs(item.y - (20 + i * 50 + 40) * 0.5) < 2).map((item) => item.unsure === true);
  expect(unsure(0).every(Boolean)).toBe(true);
  expect(unsure(1).every(Boolean)).toBe(true);
  expect(unsure(2).some(Boolean)).toBe(false);
  expect(unsure(3).some(Boolean)).toBe(false);
});

test("a grey word's box grows to its ink, a black word's and a mark's read unsurely keep tesseract's", () => {
  // a white image: a grey (140) word drawn 20 px taller than its box says (grown by 15% of its box at most each way), and a black one the same
  const width = 200;
  const height = 100;
  const data = new Uint8Array(width * height).fill(255);
  const ink = (left: number, top: number, bottom: number, grey: number) => {
    for (let y = top; y < bottom; y++) for (let x = left; x < left + 40; x += 3) data[y * width + x] = grey;
  };
  ink(10, 15, 65, 140);
  ink(100, 20, 60, 0);
  const grey = { ...word("Note", 10, 25, "1/1/1", 30), width: 40 };
  const black = { ...word("Note", 100, 25, "1/1/2", 30), width: 40 };
  const mark = { ...grey, confidence: 0.16 };
  const [g, b, m] = inkBoxes({ data, width, height }, [grey, black, mark]);
  expect(g!.top).toBe(20);
  expect(g!.height).toBe(40);
  expect(b).toBe(black);
  expect(m).toBe(mark);
});
