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

  test("a receipt photographed on a wooden table, its edges in shadow, is measured and read as taken", async () => {
    // Azure's French receipt sample (test/fixtures/photos): painting the table's dark edges leaves
    // the lighter table on the ink side of the threshold, and no letter measures (89 -> 0)
    const bytes = await Bun.file(join(import.meta.dir, "fixtures/photos/azure-receipt-french.jpg")).bytes();
    const { data, info } = await sharp(bytes).greyscale().raw().toBuffer({ resolveWithObject: true });
    const photo: GreyImage = { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
    expect(maskBackdrop(photo)).not.toBeNull();
    expect(measureScan(photo).grey).toBe(photo);
    const result = await read(bytes);
    expect(result.markdown).toContain("Contoso");
    expect(result.markdown).toMatch(/TOTAL\s+21[.,]00/);
  }, 120_000);

  test("a scan's black margin painted out is kept when its letters still measure", () => {
    // a white flatbed page, faint print: the black takes the dark side, and the letters fall with the paper
    const [W, H, band] = [600, 500, 48];
    const data = new Uint8Array(W * H);
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) data[y * W + x] = x < band || x >= W - band ? 30 : 245;
    for (let row = 0; row < 20; row++) {
      for (let k = 0; k < 14; k++) for (let y = 65 + row * 22; y < 77 + row * 22; y++) for (let x = 220 + k * 12; x < 228 + k * 12; x++) data[y * W + x] = 150;
    }
    const scan: GreyImage = { data, width: W, height: H };
    const masked = maskBackdrop(scan)!;
    expect(measureText(masked).glyphs).toBeGreaterThan(measureText(scan).glyphs);
    expect(measureScan(scan).grey).not.toBe(scan);
  });

  test("a margin's thin arm along the foot goes with its body; a letter printed touching the margin keeps all but the depth next to it", () => {
    // a white page 800 x 1000, black down the left (40 px) and along the foot (6 px: thinner than
    // the core's depth, 4 px), and an "L" in 3 px strokes touching the left margin's edge
    const [W, H] = [800, 1000];
    const data = new Uint8Array(W * H).fill(240);
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) if (x < 40 || y >= H - 6) data[y * W + x] = 15;
    for (let y = 300; y < 331; y++) for (let x = 40; x < 43; x++) data[y * W + x] = 15;
    for (let y = 328; y < 331; y++) for (let x = 40; x < 56; x++) data[y * W + x] = 15;
    const masked = maskBackdrop({ data, width: W, height: H })!;
    expect(masked.data[(H - 3) * W + 400]).toBeGreaterThan(200); // the foot's arm, 400 px along (before: left black)
    expect(masked.data[500 * W + 10]).toBeGreaterThan(200); // the margin's body
    // the letter keeps what lies beyond the core's depth from the margin (its stem, 3 px against it, may go)
    expect(masked.data[329 * W + 52]).toBe(15);
    expect(masked.data[329 * W + 48]).toBe(15);
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
