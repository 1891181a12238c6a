/**
 * A small document scanned on a big page: a receipt on an A4 flatbed scan whose open lid left a
 * black margin round two sides, or photographed on a dark table. The margin took the dark side of
 * the global threshold (ours and tesseract's) and the receipt's print fell on the paper side, so
 * the page read as no text (src/convert/ocrPrep.ts, maskBackdrop). A real receipt (ICDAR 2019
 * SROIE, in test/fixtures/sroie), its print made faint as thermal paper fades, is laid on such a
 * page; the real tesseract reads it.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import sharp from "sharp";
import { convertImage } from "../src/convert/image";
import { type GreyImage, maskBackdrop, measureScan, measureText } from "../src/convert/ocrPrep";
import { Tesseract } from "../src/tools/tesseract";
import { convertContext } from "./helpers/convert";

const tesseract = new Tesseract({ concurrency: 2, timeoutMs: 60_000 });
afterAll(() => tesseract.close());

const RECEIPT = join(import.meta.dir, "fixtures/sroie/receipt_restaurant_gst.jpg");

/**
 * onScannerPage lays the receipt, its print faded, on a page 2.2 times its width with a black L
 * margin (left and bottom); with `card`, the black reaches a third of the page, and grey card lies
 * between it and the receipt
 */
async function onScannerPage(card: boolean): Promise<Uint8Array> {
  const meta = await sharp(RECEIPT).metadata();
  const width = Math.round(meta.width! * 2.2);
  const height = Math.round(meta.height! * 1.3);
  const margin = Math.round(width * (card ? 0.3 : 0.035));
  const faded = await sharp(RECEIPT).greyscale().linear(0.45, 140).toBuffer();
  const layers: Parameters<ReturnType<typeof sharp>["composite"]>[0] = [
    { input: { create: { width: margin, height, channels: 3, background: { r: 8, g: 8, b: 8 } } }, left: 0, top: 0 },
    { input: { create: { width, height: Math.round(width * 0.012), channels: 3, background: { r: 8, g: 8, b: 8 } } }, left: 0, top: height - Math.round(width * 0.012) },
  ];
  if (card) layers.push({ input: { create: { width: Math.round(width * 0.12), height: height - Math.round(width * 0.012), channels: 3, background: { r: 170, g: 166, b: 160 } } }, left: margin, top: 0 });
  layers.push({ input: faded, left: Math.round(width * 0.45), top: Math.round(height * 0.08) });
  return new Uint8Array(await sharp({ create: { width, height, channels: 3, background: { r: 246, g: 246, b: 244 } } }).composite(layers).jpeg({ quality: 92 }).toBuffer());
}

async function read(bytes: Uint8Array) {
  return convertImage({ bytes, filename: "scan.jpg", contentType: "image/jpeg", ext: "jpg" }, convertContext({ tools: { ocr: tesseract }, timeoutMs: 120_000 }));
}

describe("a small document on a big scan", () => {
  test("a faded receipt beside the scanner lid's black margin is read", async () => {
    const result = await read(await onScannerPage(false));
    expect(result.markdown).toContain("Gerbang Alaf Restaurants");
    expect(result.markdown).toMatch(/TOTAL/i);
  }, 120_000);

  test("with grey card between the margin and the receipt, it is read too", async () => {
    const result = await read(await onScannerPage(true));
    expect(result.markdown).toContain("Gerbang Alaf Restaurants");
  }, 120_000);

  test("a receipt photographed on a table darkening towards the edges is read as taken", async () => {
    // a wooden table's grey (130) in the middle, near black (30) in bands at the sides: painting
    // the bands out leaves the lighter table on the ink side of the threshold, and no letter measured
    const meta = await sharp(RECEIPT).metadata();
    const width = Math.round(meta.width! * 2.4);
    const height = Math.round(meta.height! * 1.25);
    const band = Math.round(width * 0.06);
    const layers = [
      { input: { create: { width: band, height, channels: 3 as const, background: { r: 30, g: 28, b: 26 } } }, left: 0, top: 0 },
      { input: { create: { width: band, height, channels: 3 as const, background: { r: 30, g: 28, b: 26 } } }, left: width - band, top: 0 },
      { input: await sharp(RECEIPT).toBuffer(), left: Math.round(width * 0.3), top: Math.round(height * 0.1) },
    ];
    const photo = new Uint8Array(await sharp({ create: { width, height, channels: 3, background: { r: 140, g: 125, b: 105 } } }).composite(layers).jpeg({ quality: 92 }).toBuffer());
    const result = await read(photo);
    expect(result.markdown).toContain("Gerbang Alaf Restaurants");
  }, 120_000);

  test("a photo's dark edges painted out are kept only when more letters then measure: a lid's black yes, a table's vignette no", () => {
    /** a page `ground` grey with black bands at the sides, and a sheet (paper 235) of 20 rows of letter blocks in ink `ink` */
    const page = (ground: number, ink: number): GreyImage => {
      const [W, H, band] = [600, 500, 48];
      const data = new Uint8Array(W * H);
      for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) data[y * W + x] = x < band || x >= W - band ? 30 : ground;
      for (let y = 50; y < 450; y++) for (let x = 210; x < 390; x++) data[y * W + x] = 235;
      for (let row = 0; row < 20; row++) {
        for (let k = 0; k < 14; k++) for (let y = 65 + row * 22; y < 77 + row * 22; y++) for (let x = 220 + k * 12; x < 228 + k * 12 && x < 385; x++) data[y * W + x] = ink;
      }
      return { data, width: W, height: H };
    };
    // a white flatbed page, faint print: the black takes the dark side, and the letters fall with the paper
    const scan = page(245, 150);
    const masked = maskBackdrop(scan)!;
    expect(measureText(masked).glyphs).toBeGreaterThan(measureText(scan).glyphs);
    expect(measureScan(scan).grey).not.toBe(scan);
    // a grey table, its edges in shadow: painting the shadow leaves the table on the ink side
    const photo = page(130, 40);
    expect(maskBackdrop(photo)).not.toBeNull();
    expect(measureText(maskBackdrop(photo)!).glyphs).toBeLessThan(measureText(photo).glyphs);
    expect(measureScan(photo).grey).toBe(photo);
  });

  test("strokes, rules and a ruled frame cut by the image's edge are not a backdrop; a white page has none", () => {
    const W = 400;
    const H = 300;
    const data = new Uint8Array(W * H).fill(240);
    // a ruled frame 2 px thick touching every edge, and letters' strokes cut by the left edge
    for (let x = 0; x < W; x++) for (const y of [0, 1, H - 2, H - 1, 150]) data[y * W + x] = 20;
    for (let y = 0; y < H; y++) for (const x of [0, 1, W - 2, W - 1, 200]) data[y * W + x] = 20;
    for (let y = 40; y < 60; y++) for (let x = 0; x < 6; x++) data[y * W + x] = 20;
    expect(maskBackdrop({ data, width: W, height: H })).toBeNull();
    expect(maskBackdrop({ data: new Uint8Array(W * H).fill(250), width: W, height: H })).toBeNull();
  });
});
