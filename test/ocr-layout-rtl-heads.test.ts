/**
 * A right-to-left page's heads (src/convert/ocrLayout.ts standsOut): such a page is laid out by its
 * words' places from MIN_FIGURES_CONFIDENCE (0.8), its model reading a clean page less surely than
 * English's; a centred bold line stands out when its words read as surely as that, not only from a
 * clean English page's 0.9 (the Egyptian gazette's "(المادة الثالثة)" read 0.86, kept as body text).
 * A line read under it, or not centred, or not bold, stays text.
 */
import { expect, test } from "bun:test";
import { ocrItems } from "../src/convert/ocrLayout";
import type { OcrWord } from "../src/tools/types";

const word = (text: string, left: number, top: number, line: string, confidence: number): OcrWord => ({ text, left, top, width: 60, height: 30, confidence, line, paragraph: line.split("/").slice(0, 2).join("/") });

/** page: ten lines of body text across a column 100-900 px, and a two-word line at y 20 centred (or at the right edge) read at `confidence` */
function page(confidence: number, left: number): { words: OcrWord[]; head: OcrWord[] } {
  const body = Array.from({ length: 10 }, (_, row) => Array.from({ length: 10 }, (_, i) => word("المنشآت", 100 + i * 80, 100 + row * 40, `1/1/${row}`, 0.9))).flat();
  const head = [word("(المادة", left, 20, "1/0/1", confidence), word("الثالثة)", left + 70, 20, "1/0/1", confidence)];
  return { words: [...head, ...body], head };
}

/** headItems: the head's items as ocrItems lays out a right-to-left page by place, the head's strokes twice the body's */
function headItems(confidence: number, left: number) {
  const { words, head } = page(confidence, left);
  const strokes = new Map(words.map((w) => [w, head.includes(w) ? 1.9 : 1] as const));
  return ocrItems(words, 0.5, strokes, true, true).filter((item) => item.y < 30);
}

test("a centred bold line read at 0.86 on a right-to-left page stands out: bold, not unsure", () => {
  const items = headItems(0.86, 435);
  expect(items.length).toBe(2);
  expect(items.every((item) => item.bold && !item.unsure)).toBe(true);
});

test("read under 0.8, or at the column's right edge, it stays text", () => {
  expect(headItems(0.75, 435).every((item) => item.unsure && !item.bold)).toBe(true);
  expect(headItems(0.86, 770).every((item) => item.unsure && !item.bold)).toBe(true);
});
