/**
 * A scanned manual's page whose displayed formulas tesseract cannot read (src/convert/ocrLayout.ts
 * sureLines): its mean word confidence falls under the 0.9 layout gate for those lines alone, while
 * its heads and prose read cleanly. Such a page is laid out with its sizes, so its section heads are
 * headings; a page whose shortfall is spread over its lines (a noisy invoice) stays tesseract's text.
 * A typeset page rendered at 150 dpi and read by the real tesseract; the formula lines' words are
 * given the confidence tesseract gives a LaTeX formula's marks (NEML's scan: 0.0-0.5).
 */
import { afterAll, expect, test } from "bun:test";
import { ocrLayoutMarkdown, sureLines } from "../src/convert/ocrLayout";
import { Tesseract } from "../src/tools/tesseract";
import type { OcrResult } from "../src/tools/types";
import { readAt150 } from "./helpers/scanAt150";
import type { TypesetRun } from "./helpers/typesetPdf";

const tesseract = new Tesseract({ concurrency: 2, timeoutMs: 60_000 });
afterAll(() => tesseract.close());

const PROSE = [
  "The yield surface bounds the elastic region of the material in stress space, and the flow",
  "rule gives the direction of the plastic strain rate once the stress reaches the surface.",
  "Every model in the library is written in terms of these two functions and its hardening.",
];
const MORE = [
  "Isotropic hardening grows the surface evenly in every direction as plastic work is done,",
  "while kinematic hardening moves its centre with the back stress of the loading history.",
  "Both kinds may be combined in one model, and the library sums their contributions.",
];

/** manualPage: two numbered section heads in a bold sans over serif prose, each section with two displayed formulas numbered at the right */
function manualPage(): TypesetRun[] {
  const runs: TypesetRun[] = [];
  let y = 780;
  for (const [head, prose, formulas] of [
    ["2.1 Yield surfaces", PROSE, ["f = J2 s + sy ep T", "s = o - tr o I"]],
    ["2.2 Hardening rules", MORE, ["q = Q1 ep + Q2 ep", "b = C ep - g b"]],
  ] as const) {
    runs.push({ font: "Helvetica-Bold", size: 14, x: 57, y, text: head });
    y -= 26;
    for (const text of prose) {
      runs.push({ font: "Times-Roman", size: 11, x: 57, y, text });
      y -= 14;
    }
    y -= 10;
    formulas.forEach((text, i) => {
      runs.push({ font: "Times-Roman", size: 11, x: 220, y, text });
      runs.push({ font: "Times-Roman", size: 11, x: 500, y, text: `(${head.slice(0, 3)}${i + 1})` });
      y -= 22;
    });
    y -= 14;
  }
  return runs;
}

/** withFormulasUnread: the reading with every word of a formula's line (the one numbered "(2.x)") at `formula` confidence, the others at `rest`, and the page's mean as given */
function withFormulasUnread(ocr: OcrResult, formula: number, rest: number, page: number): OcrResult {
  const formulaLines = new Set(ocr.words!.filter((word) => /^\(2\.\d+\)$/.test(word.text)).map((word) => word.line));
  const words = ocr.words!.map((word) => ({ ...word, confidence: formulaLines.has(word.line) ? formula : rest }));
  return { ...ocr, words, confidence: page };
}

test("a page read under the gate for its formulas alone is laid out with its heads; spread unsureness keeps it flat", async () => {
  const ocr = await readAt150(tesseract, manualPage());
  const unread = withFormulasUnread(ocr, 0.3, 0.95, 0.75);
  const { unsureShare, confidence } = sureLines(unread.words!);
  expect(unsureShare).toBeGreaterThanOrEqual(0.15);
  expect(confidence).toBeGreaterThanOrEqual(0.9);
  const markdown = ocrLayoutMarkdown(unread, 72 / 150);
  expect(markdown).not.toBeNull();
  expect(markdown).toMatch(/^#{1,6} 2\.1 Yield surfaces$/m);
  expect(markdown).toMatch(/^#{1,6} 2\.2 Hardening rules$/m);
  // a formula's line is no heading
  expect(markdown).not.toMatch(/^#{1,6} .*\(2\.\d\)/m);

  // the other lines read as unsurely as a noisy scan's: flat
  expect(ocrLayoutMarkdown(withFormulasUnread(ocr, 0.3, 0.88, 0.72), 72 / 150)).toBeNull();
  // every line read alike under the gate (no line unreadable): flat
  expect(ocrLayoutMarkdown(withFormulasUnread(ocr, 0.85, 0.85, 0.85), 72 / 150)).toBeNull();
}, 60_000);
