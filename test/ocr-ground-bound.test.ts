/**
 * ocrGround's groundBound: the count that lets a page of print go before the closing is run. It must
 * never count fewer pixels than the closing shades (else a page of shaded cells would lose its second
 * reading), and on print, whose closing is paper all over, it must stay under the share that starts one.
 */
import { expect, test } from "bun:test";
import { slideExtreme } from "../src/convert/greyImage";
import { evenedGround, groundBound } from "../src/convert/ocrGround";

/** shadedByClosing: the pixels whose closing (reach 4, ocrGround's) is darker than paper (215) */
function shadedByClosing(data: Uint8Array, width: number, height: number): number {
  const ground = slideExtreme(slideExtreme(data, width, height, 4, true), width, height, 4, false);
  return ground.filter((g) => g < 215).length;
}

/** seeded: a small linear congruential generator, so a failure repeats */
function seeded(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
}

test("groundBound counts at least every pixel the closing shades, on blocks, strokes, noise and edges", () => {
  const random = seeded(7);
  for (let trial = 0; trial < 2000; trial++) {
    const width = 1 + Math.floor(random() * 70);
    const height = 1 + Math.floor(random() * 70);
    const data = new Uint8Array(width * height).fill(255);
    for (let block = Math.floor(random() * 12); block > 0; block--) {
      const [x0, y0] = [Math.floor(random() * width), Math.floor(random() * height)];
      const [w, h, grey] = [1 + Math.floor(random() * 25), 1 + Math.floor(random() * 25), Math.floor(random() * 256)];
      for (let y = y0; y < Math.min(height, y0 + h); y++) for (let x = x0; x < Math.min(width, x0 + w); x++) data[y * width + x] = grey;
    }
    for (let i = 0; i < data.length; i++) if (random() < 0.05) data[i] = Math.floor(random() * 256);
    expect(groundBound({ data, width, height })).toBeGreaterThanOrEqual(shadedByClosing(data, width, height));
  }
});

test("groundBound lets a page of print go and keeps a shaded cell", () => {
  const width = 1200;
  const height = 1600;
  const page = new Uint8Array(width * height).fill(250);
  // lines of "print": strokes 3 px wide, 30 px tall, bars 20 px long, and a rule 2 px thick across
  for (let line = 0; line < 40; line++) {
    const top = 60 + line * 38;
    for (let x = 80; x < 1100; x += 9) for (let y = top; y < top + 30; y++) for (let dx = 0; dx < 3; dx++) page[y * width + x + dx] = 15;
    for (let x = 80; x < 1100; x += 60) for (let y = top; y < top + 3; y++) for (let dx = 0; dx < 20; dx++) page[y * width + x + dx] = 15;
  }
  for (let y = 1560; y < 1562; y++) page.fill(15, y * width + 40, y * width + 1160);
  expect(groundBound({ data: page, width, height })).toBeLessThan(0.03 * page.length);
  expect(evenedGround({ data: page, width, height })).toBeNull();
  // a cell of grey ground a tenth of the page: counted, and evened
  const shaded = new Uint8Array(page);
  for (let y = 400; y < 800; y++) for (let x = 100; x < 600; x++) shaded[y * width + x] = shaded[y * width + x] === 15 ? 15 : 120;
  expect(groundBound({ data: shaded, width, height })).toBeGreaterThanOrEqual(shadedByClosing(shaded, width, height));
  expect(evenedGround({ data: shaded, width, height })).not.toBeNull();
});
