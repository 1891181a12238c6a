/**
 * Titles over scanned pages of figures (src/convert/ocrLayout.ts): a page of figures read under the
 * 0.9 layout confidence is laid out by its words' places (one size, no heading), but a line on it
 * read as surely as a clean page's that stands out by its size or its weight (a table's title)
 * keeps them, so it is a heading; a word alone over the figures (a running head) and the figures'
 * rows stay in the body's size. A bold head's footnote mark read as "®" is dropped.
 */
import { afterAll, expect, test } from "bun:test";
import { ocrItems, ocrLayoutMarkdown } from "../src/convert/ocrLayout";
import { Tesseract } from "../src/tools/tesseract";
import type { OcrWord } from "../src/tools/types";
import { COUNTY_FIGURES, readAt150 } from "./helpers/scanAt150";
import type { TypesetRun } from "./helpers/typesetPdf";

const tesseract = new Tesseract({ concurrency: 2, timeoutMs: 60_000 });
afterAll(() => tesseract.close());

const word = (text: string, left: number, top: number, line: string, confidence = 0.95, height = 20): OcrWord => ({ text, left, top, width: text.length * 9, height, confidence, line, paragraph: line.split("/").slice(0, 2).join("/") });

/** titledFigures: a statistical table under its title in a larger size, and a running head of one word above both */
function titledFigures(): TypesetRun[] {
  const runs: TypesetRun[] = [
    { font: "Times-Roman", size: 14, x: 470, y: 805, text: "Supplement" },
    { font: "Times-Roman", size: 16, x: 57, y: 770, text: "Households by County and Decade" },
  ];
  COUNTY_FIGURES.forEach((row, i) => row.forEach((cell, c) => runs.push({ font: "Times-Roman", size: 11, x: 57 + c * 110, y: 735 - i * 18, text: cell })));
  return runs;
}

test("on a page of figures read under the layout confidence, a title read surely in a larger size is a heading; its rows stay a table", async () => {
  const read = await readAt150(tesseract, titledFigures());
  const markdown = ocrLayoutMarkdown({ ...read, confidence: 0.86 }, 72 / 150);
  expect(markdown).not.toBeNull();
  expect(markdown).toMatch(/^#{1,6} Households by County and Decade$/m);
  // the running head, a word alone, is no heading
  expect(markdown).not.toMatch(/^#{1,6} Supplement/m);
  for (const row of COUNTY_FIGURES.slice(1)) expect(markdown).toContain(`| ${row.join(" | ")} |`);
}, 60_000);

test("on a page laid out by place, a sure bold line of words keeps its weight; a bold line read unsurely, a bold row of figures and a lone word do not", () => {
  const title = [word("Arrests", 20, 20, "1/0/1"), word("by", 100, 20, "1/0/1"), word("Race", 130, 20, "1/0/1")];
  const unsure = [word("Arrests", 20, 60, "1/1/1", 0.7), word("by", 100, 60, "1/1/1", 0.7), word("Age", 130, 60, "1/1/1", 0.7)];
  const figures = [word("Total", 20, 100, "1/2/1"), word("11,062", 100, 100, "1/2/1"), word("9,522", 180, 100, "1/2/1")];
  const lone = [word("Supplement", 400, 20, "1/3/1", 0.97, 28)];
  const body = Array.from({ length: 20 }, (_, i) => word(`${1000 + i},${100 + i}`, 20 + (i % 4) * 90, 140 + Math.floor(i / 4) * 30, `2/${Math.floor(i / 4)}/1`));
  const lines = [...title, ...unsure, ...figures, ...lone, ...body];
  const strokes = new Map([...title, ...unsure, ...figures].map((w) => [w, 1.6] as const));
  const items = ocrItems(lines, 0.5, strokes, true);
  const of = (text: string, top: number) => items.find((item) => item.str.trim() === text && Math.abs(item.y - (top + 20) * 0.5) < 1)!;
  expect(of("Arrests", 20).bold).toBe(true);
  expect(of("Arrests", 20).unsure).toBeUndefined();
  expect(of("Arrests", 60).bold).toBeUndefined();
  expect(of("Arrests", 60).unsure).toBe(true);
  expect(of("Total", 100).bold).toBeUndefined();
  expect(of("Total", 100).unsure).toBe(true);
  const supplement = items.find((item) => item.str.trim() === "Supplement")!;
  expect(supplement.unsure).toBe(true);
  expect(supplement.size).toBe(of("Total", 100).size);
});

test("a bold head's footnote mark read as a registered sign is dropped", () => {
  const head = [word("Units", 20, 20, "1/0/1"), word("of", 80, 20, "1/0/1"), word("Length", 110, 20, "1/0/1"), word("Measure®", 180, 20, "1/0/1")];
  const items = ocrItems(head, 0.5, new Map(head.slice(0, 3).map((w) => [w, 1.5] as const)));
  expect(items.every((item) => item.bold)).toBe(true);
  expect(items.map((item) => item.str).join("")).toBe("Units of Length Measure");
});
