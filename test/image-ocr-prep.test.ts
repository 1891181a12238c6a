/**
 * OCR preparation (src/convert/ocrPrep.ts) on small drawn pages: a receipt's dashed separator is
 * found and painted in the paper's grey while letters and a dot-matrix row stay. The effect on real
 * scans is measured by bench/ocr-sroie.ts and shown through the server in image-receipts.test.ts.
 */
import { expect, test } from "bun:test";
import { measureText, type GreyImage } from "../src/convert/ocrPrep";

const PAPER = 230;
const INK = 20;

/** page draws filled boxes [x, y, w, h] in ink on a paper-grey page. */
function page(width: number, height: number, boxes: Array<[number, number, number, number]>): GreyImage {
  const data = new Uint8Array(width * height).fill(PAPER);
  for (const [x, y, w, h] of boxes) for (let j = y; j < y + h; j++) data.fill(INK, j * width + x, j * width + x + w);
  return { data, width, height };
}

/** letters: one line of `count` letter-sized boxes (10 x 16 px) starting at (x, y). */
function letters(x: number, y: number, count: number): Array<[number, number, number, number]> {
  return Array.from({ length: count }, (_, i) => [x + i * 14, y, 10, 16] as [number, number, number, number]);
}

test("a dashed separator between two lines of letters is found and painted in the paper's grey", () => {
  const dashes = Array.from({ length: 30 }, (_, i) => [20 + i * 12, 60, 8, 3] as [number, number, number, number]);
  const image = page(420, 120, [...letters(20, 30, 25), ...dashes, ...letters(20, 75, 25)]);
  const measure = measureText(image);
  expect(measure.glyphHeight).toBe(16);
  expect(measure.rules).toBe(1);
  const clean = measure.withoutRules!;
  expect(clean.data[61 * 420 + 21]).toBe(PAPER); // a dash
  expect(clean.data[35 * 420 + 21]).toBe(INK); // a letter above
  expect(clean.data[80 * 420 + 21]).toBe(INK); // a letter below
  expect(image.data[61 * 420 + 21]).toBe(INK); // the input is not changed
});

test("a row of round dot-matrix dots and a line of letters are not rules", () => {
  const dots = Array.from({ length: 30 }, (_, i) => [20 + i * 6, 60, 3, 3] as [number, number, number, number]);
  const measure = measureText(page(420, 120, [...letters(20, 30, 25), ...dots, ...letters(20, 75, 25)]));
  expect(measure.rules).toBe(0);
  expect(measure.withoutRules).toBeNull();
});

test("a dashed rule is found among thousands of dash-shaped specks, and such a page is measured in seconds", () => {
  // Specks as a noisy scan or a halftone has them: dash-shaped (4 x 1 px), scattered over a large page.
  // Chaining compared every speck with every chain before, which took 21 s for this page (about 1 s now).
  const width = 4000;
  const height = 4000;
  const boxes: Array<[number, number, number, number]> = [];
  let seed = 7; // xorshift32: fixed specks on every run
  const next = (n: number): number => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) % n;
  };
  for (let i = 0; i < 200_000; i++) boxes.push([next(width - 10), 1100 + next(height - 1110), 4, 1]);
  for (let line = 0; line < 10; line++) boxes.push(...letters(20, 20 + line * 100, 200));
  boxes.push(...Array.from({ length: 60 }, (_, i) => [20 + i * 12, 80, 8, 3] as [number, number, number, number]));
  const measure = measureText(page(width, height, boxes));
  expect(measure.glyphHeight).toBe(16);
  expect(measure.rules).toBeGreaterThanOrEqual(1);
  expect(measure.withoutRules!.data[81 * width + 21]).toBe(PAPER); // the dashed rule above the specks
}, 10_000);

test("a ruled table's grid gives its lines at their middles (a 3 px rule one line), a shaded cell touching its rules neither hides them nor adds lines, letters give none", () => {
  // 3 rows x 2 columns between 4 horizontal and 3 vertical rules 3 px thick, letters in the cells, one cell shaded solid
  const rows = [40, 80, 120, 160];
  const columns = [20, 220, 400];
  const rules: Array<[number, number, number, number]> = [...rows.map((y) => [20, y, 383, 3] as [number, number, number, number]), ...columns.map((x) => [x, 40, 3, 123] as [number, number, number, number])];
  const cells = rows.slice(0, 3).flatMap((y) => [...letters(30, y + 12, 10), ...letters(230, y + 12, 8)]);
  const shaded: [number, number, number, number] = [223, 123, 177, 37];
  const measure = measureText(page(440, 200, [...rules, ...cells, shaded]));
  expect(measure.glyphHeight).toBe(16);
  const horizontal = measure.gridRules.filter((rule) => rule.y1 === rule.y2).map((rule) => [rule.x1, rule.y1, rule.x2]);
  const vertical = measure.gridRules.filter((rule) => rule.x1 === rule.x2).map((rule) => [rule.x1, rule.y1, rule.y2]);
  expect(horizontal).toEqual(rows.map((y) => [20, y + 1, 402]));
  expect(vertical).toEqual(columns.map((x) => [x + 1, 40, 162]));
  // a page of letters and a receipt's separator rule has no grid
  expect(measureText(page(420, 120, [...letters(20, 30, 25), [20, 60, 300, 3], ...letters(20, 75, 25)])).gridRules).toEqual([]);
});
