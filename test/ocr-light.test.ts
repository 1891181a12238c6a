/**
 * A receipt photographed on a table, lit unevenly (src/convert/ocrLight.ts): the paper's top in the
 * light, its foot in the phone's shadow, a grained table round it darker than the paper but lighter
 * than the print. One threshold for the whole image cannot hold the three: the shaded paper falls on
 * the ink side with the table, and the grain reads as lines of noise. The paper's light is evened
 * (each pixel divided by the paper's brightness round it) and the table painted out; the image is
 * read again so, and the surer reading kept. A real receipt (ICDAR 2019 SROIE, in
 * test/fixtures/sroie) is laid on a generated table and shaded; the real tesseract reads it.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import sharp from "sharp";
import { convertImage } from "../src/convert/image";
import { evenedLight } from "../src/convert/ocrLight";
import type { GreyImage } from "../src/convert/ocrPrep";
import { Tesseract } from "../src/tools/tesseract";
import { convertContext } from "./helpers/convert";

const tesseract = new Tesseract({ concurrency: 2, timeoutMs: 60_000 });
afterAll(() => tesseract.close());

const RECEIPT = join(import.meta.dir, "fixtures/sroie/receipt_restaurant_gst.jpg");

/** grain: a table's wood, streaks along x in greys 150-215 that change every few rows, seeded so the test is the same each run */
function grain(width: number, height: number): Uint8Array {
  const data = new Uint8Array(width * height * 3);
  let seed = 7;
  const next = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  let shade = 185;
  for (let y = 0; y < height; y++) {
    if (next() < 0.3) shade = 150 + Math.floor(next() * 65);
    for (let x = 0; x < width; x++) {
      const v = Math.max(0, Math.min(255, shade + Math.floor(next() * 30) - 15));
      data.set([v, Math.round(v * 0.85), Math.round(v * 0.68)], (y * width + x) * 3);
    }
  }
  return data;
}

/** onTable lays the receipt on a grained table 1.8 times its width and shades the photo from full light at the top to `foot` of it at the bottom */
async function onTable(foot: number): Promise<Uint8Array> {
  const meta = await sharp(RECEIPT).metadata();
  const width = Math.round(meta.width! * 1.8);
  const height = Math.round(meta.height! * 1.15);
  const table = await sharp(grain(width, height), { raw: { width, height, channels: 3 } })
    .composite([{ input: RECEIPT, left: Math.round(meta.width! * 0.4), top: Math.round(meta.height! * 0.07) }])
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { data, info } = table;
  const row = width * info.channels;
  for (let y = 0; y < height; y++) {
    const light = 1 - (1 - foot) * (y / height);
    for (let i = y * row; i < (y + 1) * row; i++) data[i] = Math.round(data[i]! * light);
  }
  return new Uint8Array(await sharp(data, { raw: { width, height, channels: info.channels } }).jpeg({ quality: 90 }).toBuffer());
}

async function grey(bytes: Uint8Array): Promise<GreyImage> {
  const { data, info } = await sharp(bytes).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
}

describe("a receipt photographed on a table, lit unevenly", () => {
  test("its shaded foot and its name are read; the table is no text", async () => {
    const bytes = await onTable(0.5);
    const result = await convertImage({ bytes, filename: "photo.jpg", contentType: "image/jpeg", ext: "jpg" }, convertContext({ tools: { ocr: tesseract }, timeoutMs: 120_000 }));
    expect(result.markdown).toContain("Gerbang Alaf Restaurants");
    // the receipt's foot, in the deepest shadow
    expect(result.markdown).toMatch(/TOTAL/i);
    expect(result.markdown).toMatch(/THANK YOU/i);
    expect(result.pages?.[0]?.ocrQuality).toBeGreaterThan(0.7);
  }, 120_000);

  test("the paper is white at its lit top and its shaded foot; the table round it is painted out", async () => {
    const photo = await grey(await onTable(0.5));
    const evened = evenedLight(photo)!;
    expect(evened).not.toBeNull();
    const at = (image: GreyImage, x: number, y: number) => image.data[Math.round(y) * image.width + Math.round(x)]!;
    const meta = await sharp(RECEIPT).metadata();
    // the receipt's right margin (paper, no print) near its top and near its foot; the table left of the receipt
    const paperX = meta.width! * 0.4 + meta.width! * 0.97;
    const [top, foot] = [meta.height! * 0.1, meta.height! * 1.05];
    expect(at(photo, paperX, foot)).toBeLessThan(at(photo, paperX, top) - 60);
    expect(at(evened, paperX, top)).toBeGreaterThan(235);
    expect(at(evened, paperX, foot)).toBeGreaterThan(235);
    expect(at(evened, meta.width! * 0.1, foot)).toBe(255);
  });

  test("an evenly lit scan, a blank image and a tiny one are left as they are", () => {
    const [W, H] = [600, 800];
    const page = new Uint8Array(W * H).fill(245);
    for (let row = 0; row < 30; row++) for (let y = 40 + row * 24; y < 52 + row * 24; y++) for (let x = 60; x < 540; x += 3) page[y * W + x] = 30;
    expect(evenedLight({ data: page, width: W, height: H })).toBeNull();
    expect(evenedLight({ data: new Uint8Array(W * H).fill(255), width: W, height: H })).toBeNull();
    expect(evenedLight({ data: new Uint8Array(40 * 40).fill(90), width: 40, height: 40 })).toBeNull();
  });
});
