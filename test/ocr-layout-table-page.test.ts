/**
 * A page of a paper whose tables of scores read under the 0.9 layout confidence (src/convert/ocrLayout.ts
 * tableAround): its prose reads surely, its table's figures less so, and few of its words are figures,
 * so it is no page of figures. It is laid out by its words' places for its table, as olmOCR 2's page of
 * tables is (0.893: twelve rows of figures read at 0.79, its other words at 0.94). An invoice read as
 * unsurely throughout, or the same page with its prose read as unsurely as its figures, stays
 * tesseract's text.
 */
import { afterAll, expect, test } from "bun:test";
import { figureShare, ocrLayoutMarkdown } from "../src/convert/ocrLayout";
import { Tesseract } from "../src/tools/tesseract";
import type { OcrResult } from "../src/tools/types";
import { readAt150 } from "./helpers/scanAt150";
import type { TypesetRun } from "./helpers/typesetPdf";

const tesseract = new Tesseract({ concurrency: 2, timeoutMs: 60_000 });
afterAll(() => tesseract.close());

const PROSE = [
  "We compare the systems on the benchmark's six categories of documents, each scored by the share of",
  "its unit tests that pass. The scores below are the mean over three runs with different random seeds,",
  "and the last column is the overall score with its confidence interval over the documents.",
];
const AFTER = [
  "The finetuned model improves most on the old scans and on the tables, where the earlier release",
  "dropped rows of figures. Headers and footers change little: every system already removes most of",
  "them, and the remaining errors are page numbers set inside the body of the text.",
  "Long tiny text remains the hardest category for all of the systems we measured in this section.",
];
const SYSTEMS = ["Baseline", "Marker", "MinerU", "DeepSeek", "Nanonets", "Paddle", "Infinity", "Chandra", "Mistral", "Gemini"];

/** scores: a row's six scores, different on every row */
const scores = (row: number) => Array.from({ length: 6 }, (_, c) => (40 + ((row * 7 + c * 13) % 59) + ((row + c) % 10) / 10).toFixed(1));

function paperPage(): TypesetRun[] {
  const runs: TypesetRun[] = [];
  const line = (x: number, y: number, text: string) => runs.push({ font: "Times-Roman", size: 10, x, y, text });
  PROSE.forEach((text, i) => line(57, 780 - i * 14, text));
  ["System", "ArXiv", "Scans", "Tables", "Headers", "Columns", "Overall"].forEach((text, c) => line(57 + c * 70, 720, text));
  SYSTEMS.forEach((name, r) => [name, ...scores(r)].forEach((text, c) => line(57 + c * 70, 700 - r * 16, text)));
  AFTER.forEach((text, i) => line(57, 520 - i * 14, text));
  return runs;
}

const FIGURE = /^[\d.,]+$/;

/** readAs: the reading with its figures read at `figures` and its other words at `words` (as tesseract gave them when null), the page's confidence their mean */
function readAs(ocr: OcrResult, figures: number, words: number | null): OcrResult {
  const read = ocr.words!.map((word) => ({ ...word, confidence: FIGURE.test(word.text) ? figures : (words ?? word.confidence) }));
  return { ...ocr, words: read, confidence: read.reduce((sum, word) => sum + word.confidence, 0) / read.length };
}

test("a paper's page whose table's figures read unsurely and its prose surely is laid out for its table; read unsurely throughout it stays text", async () => {
  const page = await readAt150(tesseract, paperPage());
  // no page of figures: its prose outweighs its table
  expect(figureShare(page.words!)).toBeLessThan(0.5);
  const tableUnsure = readAs(page, 0.75, null);
  expect(tableUnsure.confidence).toBeLessThan(0.9);
  const markdown = ocrLayoutMarkdown(tableUnsure, 72 / 150);
  expect(markdown).not.toBeNull();
  // every row in its seven columns (tesseract misreads a figure now and then: "74.4" as "744")
  const rows = markdown!.split("\n").filter((line) => SYSTEMS.some((name) => line.startsWith(`| ${name} |`)));
  expect(rows.length).toBe(SYSTEMS.length);
  for (const row of rows) expect(row.split("|").length).toBe(9);
  const whole = SYSTEMS.filter((name, r) => markdown!.includes(`| ${name} | ${scores(r).join(" | ")} |`));
  expect(whole.length).toBeGreaterThanOrEqual(SYSTEMS.length - 2);
  // laid out by place: no heading
  expect(markdown).not.toMatch(/^#/m);
  // the prose read as unsurely as the figures: a noisy scan, kept flat
  expect(ocrLayoutMarkdown(readAs(page, 0.75, 0.86), 72 / 150)).toBeNull();
}, 60_000);

/** invoicePage: an invoice whose items are each a description over a line of figures (an item's rows are never many one under another) */
function invoicePage(): TypesetRun[] {
  const runs: TypesetRun[] = [];
  const line = (x: number, y: number, text: string) => runs.push({ font: "Times-Roman", size: 10, x, y, text });
  line(57, 780, "Northwind Office Supplies Limited, Harbour Road, Portsmouth");
  line(380, 760, "Invoice number: NW-2041");
  line(380, 746, "Invoice date: 12 March 2024");
  line(380, 732, "Due date: 11 April 2024");
  ["Item", "Quantity", "Price", "Tax", "Amount"].forEach((text, c) => line(57 + c * 100, 700, text));
  SYSTEMS.forEach((name, r) => {
    line(57, 680 - r * 30, `${name} office chair with armrests`);
    ["4", "120.00", "96.00", "576.00"].forEach((text, c) => line(157 + c * 100, 666 - r * 30, text));
  });
  line(357, 360, "Total due: 5,760.00 GBP");
  return runs;
}

test("an invoice's item rows read unsurely, its other words as unsurely, stay tesseract's text", async () => {
  const invoice = await readAt150(tesseract, invoicePage());
  expect(ocrLayoutMarkdown(readAs(invoice, 0.8, 0.88), 72 / 150)).toBeNull();
  // its labels read surely and its figures not: still no table page, its item rows are not one under another
  expect(ocrLayoutMarkdown(readAs(invoice, 0.8, null), 72 / 150)).toBeNull();
}, 60_000);
