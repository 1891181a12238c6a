/**
 * Two columns of a scan (src/convert/ocrLayout.ts, pdfLines.ts, pdfReadingOrder.ts): the layout
 * engine groups runs whose baselines are within 0.4 of a size into one line, whose baseline is its
 * first run's; on a scan the right column's lines sit a few points off the left column's, so they
 * took the left column's baselines, their gaps jittered, and a head's lines parted (the Federal
 * Register's "Alternative Methods of Compliance" / "(AMOCs)" a paragraph's gap apart). An OCR
 * line's side of the gutter keeps its own baseline; a born-digital page's lines are as before.
 */
import { expect, test } from "bun:test";
import { analyzePage } from "../src/convert/pdfLayout";
import type { PdfTextItem } from "../src/convert/pdfLayoutTypes";

const PROSE = ["the", "operator", "must", "show", "that", "each", "airplane", "meets", "this"];

/** lineOf: a line's words as ocrItems gives them: one baseline and size, each word after the last */
function lineOf(words: string[], x: number, y: number, ocr: boolean): PdfTextItem[] {
  let at = x;
  return words.map((word, i) => {
    const item: PdfTextItem = { str: i === 0 ? word : ` ${word}`, x: at, y, width: word.length * 4.5, size: 9, ...(ocr ? { ocr: true } : {}) };
    at += (word.length + 1) * 4.5;
    return item;
  });
}

/** twoColumns: 20 lines of prose in a left column at every 11 pt, and a right column's 20 lines 3 pt lower each */
function twoColumns(ocr: boolean): PdfTextItem[] {
  const items: PdfTextItem[] = [];
  for (let i = 0; i < 20; i++) {
    items.push(...lineOf(PROSE, 40, 100 + 11 * i, ocr));
    items.push(...lineOf([...PROSE].reverse(), 320, 103 + 11 * i, ocr));
  }
  return items;
}

/** baselines: the laid-out lines' baselines on the right half of the page */
function rightBaselines(items: PdfTextItem[]): number[] {
  const layout = analyzePage(items, 1, 612, 792, []);
  return layout.blocks.flatMap((block) => (block.kind === "text" ? block.lines.filter((line) => line.x >= 300).map((line) => line.y) : []));
}

test("a scan's right column keeps its own baselines, a few points off the left column's", () => {
  const ys = rightBaselines(twoColumns(true));
  expect(ys.length).toBe(20);
  expect(ys).toEqual(Array.from({ length: 20 }, (_, i) => 103 + 11 * i));
});

test("a born-digital page's line keeps its first run's baseline across the gutter", () => {
  const ys = rightBaselines(twoColumns(false));
  expect(ys.length).toBe(20);
  expect(ys).toEqual(Array.from({ length: 20 }, (_, i) => 100 + 11 * i));
});
