/**
 * Scanned heads (src/convert/ocrLayout.ts, ocrWeight.ts): a bold head whose last word carries a
 * footnote's raised mark (read as "”") is measured by its other words and shown without the mark;
 * a displayed formula with its number at the right is no heading (unsure).
 */
import { expect, test } from "bun:test";
import { ocrItems } from "../src/convert/ocrLayout";
import { strokeRatios } from "../src/convert/ocrWeight";
import type { GreyImage } from "../src/convert/ocrPrep";
import type { OcrWord } from "../src/tools/types";

const word = (text: string, left: number, top: number, line: string, confidence = 0.95, width = text.length * 9, height = 20): OcrWord => ({ text, left, top, width, height, confidence, line, paragraph: line.split("/").slice(0, 2).join("/") });

/** stems: a white image with each word's box filled with upright stems `stroke` pixels wide every 6 pixels, over the box's full height */
function stems(words: Array<{ word: OcrWord; stroke: number }>, width: number, height: number): GreyImage {
  const data = new Uint8Array(width * height).fill(255);
  for (const { word, stroke } of words) {
    for (let y = word.top; y < word.top + word.height; y++) {
      for (let x = word.left; x < word.left + word.width; x++) if ((x - word.left) % 6 < stroke) data[y * width + x] = 0;
    }
  }
  return { data, width, height };
}

test("a word ending in a raised mark is not measured for its stroke: its box is not its letters'", () => {
  const body = Array.from({ length: 24 }, (_, i) => ({ word: word("regular", 20 + (i % 6) * 80, 100 + Math.floor(i / 6) * 30, `1/1/${Math.floor(i / 6) + 1}`), stroke: 2 }));
  const head = [word("Units", 20, 20, "1/0/1"), word("Survey", 80, 20, "1/0/1"), word("Measure”", 150, 20, "1/0/1")];
  const image = stems([...body, ...head.map((w) => ({ word: w, stroke: 3 }))], 600, 260);
  const ratios = strokeRatios(image, [...body.map((b) => b.word), ...head], () => 20);
  expect(ratios.get(head[1]!)!).toBeGreaterThan(1.35);
  expect(ratios.has(head[2]!)).toBe(false);
});

test("a bold head's closing footnote mark is dropped", () => {
  const head = [word("Units", 20, 20, "1/0/1"), word("of", 80, 20, "1/0/1"), word("Area", 110, 20, "1/0/1"), word("Measure”", 160, 20, "1/0/1")];
  const strokes = new Map(head.map((w) => [w, 1.5] as const));
  const items = ocrItems(head, 0.5, strokes);
  expect(items.every((item) => item.bold)).toBe(true);
  expect(items.map((item) => item.str).join("")).toBe("Units of Area Measure");
  // a quote the line opened is the text's
  const quoted = [word("“Units", 20, 20, "1/0/1"), word("Measure”", 90, 20, "1/0/1")];
  expect(ocrItems(quoted, 0.5, new Map(quoted.map((w) => [w, 1.5] as const))).map((item) => item.str).join("")).toBe("“Units Measure”");
});

test("a displayed formula with its number is no heading, however large its box and sure its reading", () => {
  const formula = ["dy", "=", "—ctm'(kag", "+", "f).", "(12)"].map((text, i) => word(text, 20 + i * 60, 20, "1/0/1", 0.95, 50, 40));
  const prose = ["Z&T", "give", "no", "guidance", "on", "how"].map((text, i) => word(text, 20 + i * 60, 80, "1/1/1", 0.95, 50, 20));
  const items = ocrItems([...formula, ...prose], 0.5);
  expect(items.filter((item) => item.y < 40).every((item) => item.unsure)).toBe(true);
  expect(items.filter((item) => item.y > 40).some((item) => item.unsure)).toBe(false);
});
