/**
 * A scanned PDF page that shows one stored image filling it is read from the image's own pixels as
 * well as rendered by pdftoppm (src/convert/pdf.ts, ocrAll): rendering resamples the scan, and small
 * print loses letters and columns. The stored pixels are read only when they show the page as drawn
 * (no /Rotate, the image not turned or mirrored by its matrix). The pages are drawn in SVG, made
 * JPEGs, put in an image-only PDF, and read by the real pdfimages, pdftoppm and tesseract.
 */
import { afterAll, expect, test } from "bun:test";
import sharp from "sharp";
import { betterReading, makeConvertPdf, showsPage } from "../src/convert/pdf";
import { WorkerPool } from "../src/pool";
import { Tesseract } from "../src/tools/tesseract";
import type { OcrEngine, OcrResult, OcrWord } from "../src/tools/types";
import { convertContext } from "./helpers/convert";
import { imageOnlyPdf } from "./helpers/imageOnlyPdf";
import { COUNTY_FIGURES, scanAt150 } from "./helpers/scanAt150";
import type { TypesetRun } from "./helpers/typesetPdf";

const pool = new WorkerPool({ threads: 2, maxQueue: 64 });
const tesseract = new Tesseract({ concurrency: 2, timeoutMs: 60_000 });
afterAll(async () => {
  await pool.close();
  tesseract.close();
});

const DPI = 300;
const ROWS = [["Station", "Rainfall", "Days", "Peak"], ["Ashford", "412 mm", "61", "38 mm"], ["Bexley", "389 mm", "58", "41 mm"], ["Carlton", "455 mm", "66", "35 mm"], ["Dunmore", "371 mm", "52", "44 mm"], ["Elmwood", "428 mm", "63", "39 mm"], ["Fairview", "402 mm", "60", "36 mm"]];

/** rainfallPage: a half-letter-high page scanned at 300 dpi: a title, a sentence and a table of stations in 3.5 pt print */
async function rainfallSvg(): Promise<Buffer> {
  const [width, height] = [Math.round(8.5 * DPI), Math.round(5 * DPI)];
  const px = (pt: number) => (pt * DPI) / 72;
  const size = 3.5;
  const parts = [`<rect width="${width}" height="${height}" fill="white"/>`];
  const text = (x: number, y: number, s: number, line: string, weight = "normal") => parts.push(`<text x="${x}" y="${y}" font-family="DejaVu Sans" font-size="${s}" font-weight="${weight}">${line}</text>`);
  text(px(72), px(60), px(14), "Rainfall by Station", "bold");
  text(px(72), px(84), px(size), "The stations below were read at the end of each month of the wet season of the year.");
  ROWS.forEach((row, i) => row.forEach((cell, j) => text(px(72 + j * 110), px(110 + i * size * 1.8), px(size), cell, i === 0 ? "bold" : "normal")));
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${parts.join("")}</svg>`);
}

async function jpegOf(turn: "upright" | "turned" | "flipped"): Promise<Uint8Array> {
  let image = sharp(await rainfallSvg()).greyscale();
  if (turn === "turned") image = image.rotate(180);
  if (turn === "flipped") image = image.flip();
  return new Uint8Array(await image.jpeg({ quality: 85 }).toBuffer());
}

async function convert(pdf: Uint8Array, filename: string) {
  const ctx = convertContext({ tools: { pool, ocr: tesseract }, timeoutMs: 120_000 });
  return makeConvertPdf({ outline: false })({ bytes: pdf, filename, contentType: "application/pdf", ext: "pdf" }, ctx);
}

test("a table in small print on a 300 dpi scan is read from the page's stored pixels, with all its columns", async () => {
  const result = await convert(await imageOnlyPdf([await jpegOf("upright")], DPI), "rainfall_table_scan_300dpi.pdf");
  expect(result.method).toBe("ocr");
  expect(result.markdown).toMatch(/^\| Station \| Rainfall \| Days \| Peak \|$/m);
  expect(result.markdown).toMatch(/^\| Carlton \| 455 ?mm \| 66 \| 35 ?mm \|$/m);
}, 120_000);

test("a page with /Rotate 180 or an image drawn upside down is read the way the page shows it", async () => {
  for (const [pdf, name] of [
    [await imageOnlyPdf([await jpegOf("turned")], DPI, { rotate: 180 }), "rainfall_table_scan_rotate180.pdf"],
    [await imageOnlyPdf([await jpegOf("flipped")], DPI, { flip: true }), "rainfall_table_scan_flipped_matrix.pdf"],
  ] as const) {
    const result = await convert(pdf, name);
    expect(result.markdown).toContain("Rainfall by Station");
    expect(result.markdown).toContain("The stations below were read at the end of each month");
  }
}, 180_000);

test("showsPage accepts the stored pixels only when they show the page upright and unflipped", async () => {
  const grey = async (jpeg: Uint8Array, scale = 1) => {
    const meta = await sharp(jpeg).metadata();
    const { data, info } = await sharp(jpeg).resize(Math.round(meta.width! * scale)).toColourspace("b-w").raw().toBuffer({ resolveWithObject: true });
    return { data: new Uint8Array(data), width: info.width, height: info.height };
  };
  const page = await grey(await jpegOf("upright"), 0.5); // the page as pdftoppm renders it at 150 dpi
  expect(await showsPage(await grey(await jpegOf("upright")), page)).toBe(true);
  expect(await showsPage(await grey(await jpegOf("turned")), page)).toBe(false);
  expect(await showsPage(await grey(await jpegOf("flipped")), page)).toBe(false);
  const sideways = await sharp(await jpegOf("upright")).rotate(90).jpeg().toBuffer();
  expect(await showsPage(await grey(new Uint8Array(sideways)), page)).toBe(false);
}, 60_000);

/** wordsRead: n words of a reading, each at `confidence` */
const wordsRead = (n: number, confidence: number): OcrWord[] => Array.from({ length: n }, (_, i) => ({ text: `w${i}`, left: 0, top: 0, width: 10, height: 10, confidence, line: "1/1/1", paragraph: "1/1" }));
const reading = (n: number, confidence: number): OcrResult => ({ text: "", confidence, words: wordsRead(n, confidence) });

test("betterReading keeps the surer of a page's two readings, unless it read under three quarters of the other's words", () => {
  expect(betterReading(reading(300, 0.93), reading(290, 0.9))).toBe(true);
  expect(betterReading(reading(290, 0.9), reading(300, 0.93))).toBe(false);
  // a scanned table rendered: 112 words at 0.912 (most figures never read); its stored image: 286 words at 0.824
  expect(betterReading(reading(286, 0.824), reading(112, 0.912))).toBe(true);
  expect(betterReading(reading(112, 0.912), reading(286, 0.824))).toBe(false);
  // a Hebrew table of figures rendered: 193 words at 0.921 (whole columns unread); its stored image: 276 words at 0.913
  expect(betterReading(reading(276, 0.913), reading(193, 0.921))).toBe(true);
  expect(betterReading(reading(193, 0.921), reading(276, 0.913))).toBe(false);
});

test("betterReading keeps a reading that lays out as a page over a surer one that does not, the words' count first", () => {
  // a Federal Register page: its stored JPEG read a little surer, but a stray mark joined to its page number ("47698a") kept it from laying out
  expect(betterReading(reading(900, 0.9512), reading(905, 0.9508), { other: false, best: true })).toBe(false);
  expect(betterReading(reading(905, 0.9508), reading(900, 0.9512), { other: true, best: false })).toBe(true);
  // both laid out, or neither: the surer
  expect(betterReading(reading(900, 0.9512), reading(905, 0.9508), { other: true, best: true })).toBe(true);
  expect(betterReading(reading(900, 0.9512), reading(905, 0.9508), { other: false, best: false })).toBe(true);
  // a reading of under half the other's words is not kept for laying out
  expect(betterReading(reading(112, 0.912), reading(286, 0.824), { other: true, best: false })).toBe(false);
});

test("a scanned table whose rendering tesseract reads surely but without its figures is read from the page's stored pixels, every figure in its column", async () => {
  // a table of figures across the page, read with tesseract's page segmentation
  const runs: TypesetRun[] = [{ font: "Times-Roman", size: 11, x: 57, y: 780, text: "Table 4. Households by county, 1990-2020" }];
  COUNTY_FIGURES.forEach((row, i) => row.forEach((cell, c) => runs.push({ font: "Times-Roman", size: 11, x: 57 + c * 125, y: 750 - i * 18, text: cell })));
  const jpeg = new Uint8Array(await sharp(await scanAt150(runs)).jpeg({ quality: 90 }).toBuffer());
  // the page's rendering (read first) read as tesseract sometimes reads a resampled table: its words of letters
  // alone, surely; the stored pixels read as they are
  let calls = 0;
  const engine: OcrEngine = {
    async recognize(image, signal, options) {
      const result = await tesseract.recognize(image, signal, options);
      if (calls++ > 0) return result;
      const words = result.words!.filter((word) => !/\d/.test(word.text));
      return { ...result, words, confidence: 0.97, text: words.map((word) => word.text).join(" ") };
    },
  };
  const ctx = convertContext({ tools: { pool, ocr: engine }, timeoutMs: 120_000 });
  const result = await makeConvertPdf({ outline: false })({ bytes: await imageOnlyPdf([jpeg], 150), filename: "county_households_scan.pdf", contentType: "application/pdf", ext: "pdf" }, ctx);
  expect(calls).toBe(2);
  for (const row of COUNTY_FIGURES.slice(1)) expect(result.markdown).toContain(`| ${row.join(" | ")} |`);
}, 120_000);
