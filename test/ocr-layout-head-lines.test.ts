/**
 * A bold head over two or three lines on a scan is measured line by line from its words' boxes, and
 * its lines came out half a point to a point apart (TVCG's "2.2 Uncertainty visualization in the
 * grammar of graphics," 9.5 pt over "as she is spoke" 10 pt, which the layout made a head of its own;
 * the Federal Register's "Explanation of Certain Provisions for" 9.5, "Alternative Methods of
 * Compliance" 10, "(AMOCs)" 9). evenHeadLines (ocrLayout.ts) gives such a line the size of the bold
 * line above it; two heads of their own, a tenth or more apart in size (BMC's "Methods" 10.5 over
 * "Setting" 9), keep theirs.
 */
import { expect, test } from "bun:test";
import { evenHeadLines } from "../src/convert/ocrLayout";
import type { PdfTextItem } from "../src/convert/pdfLayoutTypes";

/** lineOf: a line's words as ocrItems gives them: one baseline and size, each word after the last */
function lineOf(words: string[], x: number, y: number, size: number, bold: boolean): PdfTextItem[] {
  let at = x;
  return words.map((word, i) => {
    const item: PdfTextItem = { str: i === 0 ? word : ` ${word}`, x: at, y, width: word.length * size * 0.5, size, ...(bold ? { bold: true } : {}) };
    at += (word.length + 1) * size * 0.5;
    return item;
  });
}

const sizes = (items: PdfTextItem[]) => [...new Set(items.map((item) => `${item.y}:${item.size}`))];

test("a bold head's lines measured half a point to a point apart are given the first line's size", () => {
  const items = [
    ...lineOf(["2.2", "Uncertainty", "visualization", "in", "the", "grammar", "of", "graphics,"], 308, 271, 9.5, true),
    ...lineOf(["as", "she", "is", "spoke"], 329, 281, 10, true),
    ...lineOf(["Explanation", "of", "Certain", "Provisions", "for"], 40, 285, 9.5, true),
    ...lineOf(["Alternative", "Methods", "of", "Compliance"], 40, 294, 10, true),
    ...lineOf(["(AMOCs)"], 40, 304, 9, true),
    ...lineOf(["Because", "some", "operators", "may", "use", "a"], 40, 321, 8.5, false),
  ];
  expect(sizes(evenHeadLines(items))).toEqual(["271:9.5", "281:9.5", "285:9.5", "294:9.5", "304:9.5", "321:8.5"]);
});

test("two heads a tenth or more apart in size, a regular line, a line across the page or far below keep their sizes", () => {
  const items = [
    ...lineOf(["Methods"], 57, 661, 10.5, true),
    ...lineOf(["Setting"], 57, 673, 9, true),
    ...lineOf(["Results"], 57, 700, 10.5, true),
    ...lineOf(["The", "department", "serves", "a", "region"], 57, 711, 10, false),
    ...lineOf(["Discussion"], 57, 740, 10.5, true),
    ...lineOf(["Limitations"], 320, 750, 10, true),
    ...lineOf(["Conclusions"], 57, 770, 10, true),
  ];
  const before = sizes(items);
  expect(sizes(evenHeadLines(items))).toEqual(before);
});
