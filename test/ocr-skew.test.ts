/**
 * A page photographed or scanned askew (src/convert/ocrSkew.ts): tesseract cuts lines of text
 * running a few degrees off level into pieces (a receipt turned 10 degrees read 0.39 of its words
 * for 0.67 level, another none). The skew is found from the ink's rows and the page turned level
 * before it is read when its lines' ends drift two letters' height apart. A real receipt (ICDAR 2019 SROIE, in test/fixtures/sroie) is
 * turned; the real tesseract reads it.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import sharp from "sharp";
import { convertImage } from "../src/convert/image";
import type { GreyImage } from "../src/convert/ocrPrep";
import { driftsOff, levelled, skewOf } from "../src/convert/ocrSkew";
import { renderPdfPage } from "../src/tools/poppler";
import { Tesseract } from "../src/tools/tesseract";
import { convertContext } from "./helpers/convert";
import { typesetPdf, type TypesetRun } from "./helpers/typesetPdf";

const tesseract = new Tesseract({ concurrency: 2, timeoutMs: 60_000 });
afterAll(() => tesseract.close());

const RECEIPT = join(import.meta.dir, "fixtures/sroie/receipt_restaurant_gst.jpg");

/** turned: the receipt turned clockwise by `degrees` on white, as grey pixels */
async function turned(degrees: number): Promise<GreyImage> {
  const { data, info } = await sharp(RECEIPT).rotate(degrees, { background: "#ffffff" }).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
}

describe("a page askew", () => {
  test("a page is turned when its skew moves a line's ends two letters' height apart across its text", () => {
    // a receipt's 420 px of text in 16 px letters: 3 degrees drift 22 px, 5 degrees 37 px; a table page's 1100 px in 14 px letters: 1.5 degrees drift 29 px
    expect(driftsOff(3, 420, 16)).toBe(false);
    expect(driftsOff(-5, 420, 16)).toBe(true);
    expect(driftsOff(1.5, 1100, 14)).toBe(true);
    expect(driftsOff(0, 1100, 14)).toBe(false);
  });

  test("a receipt turned 10 degrees is read as its level self is", async () => {
    const bytes = new Uint8Array(await sharp(RECEIPT).rotate(10, { background: "#ffffff" }).jpeg({ quality: 92 }).toBuffer());
    const result = await convertImage({ bytes, filename: "askew.jpg", contentType: "image/jpeg", ext: "jpg" }, convertContext({ tools: { ocr: tesseract }, timeoutMs: 120_000 }));
    expect(result.markdown).toContain("Gerbang Alaf Restaurants");
    expect(result.markdown).toMatch(/TOTAL INCLUDES 6% GST/i);
    expect(result.markdown).toContain("18/01/2018");
  }, 120_000);

  test("its skew is found either way within half a degree; level, it is 0", async () => {
    const level = skewOf(await turned(0));
    for (const degrees of [-12, -4, 3, 7]) expect(Math.abs(skewOf(await turned(degrees)) - level - degrees)).toBeLessThanOrEqual(0.5);
    expect(level).toBe(0);
  });

  test("turned level, the image keeps its size; a page of noise, a blank page and a page of vertical strokes are left as they are", async () => {
    const askew = await turned(6);
    const level = await levelled(askew, skewOf(askew));
    expect([level.width, level.height]).toEqual([askew.width, askew.height]);
    expect(skewOf(level)).toBe(0);
    const [W, H] = [500, 700];
    let seed = 3;
    const noise = Uint8Array.from({ length: W * H }, () => ((seed = (seed * 1103515245 + 12345) % 2147483648) >> 20) & 255);
    expect(skewOf({ data: noise, width: W, height: H })).toBe(0);
    expect(skewOf({ data: new Uint8Array(W * H).fill(250), width: W, height: H })).toBe(0);
    const strokes = new Uint8Array(W * H).fill(250);
    for (let y = 0; y < H; y++) for (let x = 20; x < W; x += 40) strokes[y * W + x] = 10;
    expect(skewOf({ data: strokes, width: W, height: H })).toBe(0);
  });
});

describe("a page of small print askew", () => {
  test("a table of 5.5 pt figures scanned 2 degrees off level reads its figures as level (enlarged before it is turned)", async () => {
    // 45 rows of six figures; turned at its own 150 dpi and enlarged after, tesseract read 92 of the 270
    let seed = 11;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const runs: TypesetRun[] = [];
    const figures: string[] = [];
    for (let row = 0; row < 45; row++) {
      const y = 780 - row * 8.8;
      runs.push({ font: "Helvetica", size: 5.5, x: 60, y, text: `Item ${row + 1}` });
      for (let column = 0; column < 6; column++) {
        const figure = `${Math.floor(next() * 900 + 100)}.${Math.floor(next() * 10)}`;
        figures.push(figure);
        runs.push({ font: "Helvetica", size: 5.5, x: 160 + column * 65, y, text: figure });
      }
    }
    // a scanner samples the crooked page once: rendered at 300 dpi, turned, brought down to 150
    const page = await renderPdfPage(typesetPdf([runs]), { page: 1, dpi: 300, gray: true, timeoutMs: 60_000, maxBytes: 80_000_000 }, AbortSignal.timeout(60_000));
    const turned = await sharp(page).rotate(2, { background: "#ffffff" }).toBuffer({ resolveWithObject: true });
    const bytes = new Uint8Array(await sharp(turned.data).resize({ width: Math.round(turned.info.width / 2) }).withMetadata({ density: 150 }).png().toBuffer());
    const result = await convertImage({ bytes, filename: "askew.png", contentType: "image/png", ext: "png" }, convertContext({ tools: { ocr: tesseract }, timeoutMs: 120_000 }));
    const words = new Set(result.markdown.split(/[\s|]+/));
    expect(figures.filter((figure) => words.has(figure)).length).toBeGreaterThanOrEqual(250);
  }, 120_000);
});
