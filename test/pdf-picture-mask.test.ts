/**
 * A picture on a text page drawn through a soft mask (a logo or a chart saved with a transparent ground):
 * the colour under its transparent pixels is whatever its maker left there, here black, so the picture's
 * own pixels show black letters on black. It is read as the page shows it, laid over white through its mask.
 */
import { afterAll, expect, test } from "bun:test";
import sharp from "sharp";
import { deflateSync } from "node:zlib";
import { convertPdf } from "../src/convert/pdf";
import { WorkerPool } from "../src/pool";
import { Tesseract } from "../src/tools/tesseract";
import { convertContext } from "./helpers/convert";
import { pdfObjects } from "./helpers/pdfObjects";

const pool = new WorkerPool({ threads: 2, maxQueue: 16 });
const ocr = new Tesseract({ concurrency: 2, timeoutMs: 60_000 });
afterAll(async () => {
  await pool.close();
  await ocr.close();
});

/** hexStream: a stream object of `bytes`, deflated and written as hex so the PDF stays text */
const hexStream = (dict: string, bytes: Uint8Array) => {
  const hex = Buffer.from(deflateSync(bytes)).toString("hex");
  return `<< ${dict} /Filter [/ASCIIHexDecode /FlateDecode] /Length ${hex.length + 1} >>\nstream\n${hex}>\nendstream`;
};

test("a picture with a transparent ground over black is read as drawn: its words reach the page", async () => {
  const [width, height] = [900, 200];
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><text x="30" y="130" font-family="DejaVu Sans" font-size="96">HARBOUR WORKS</text></svg>`;
  // the letters' coverage is the mask; the colour everywhere is black, as its maker left it
  const alpha = await sharp(Buffer.from(svg)).ensureAlpha().extractChannel(3).raw().toBuffer();
  expect(alpha.length).toBe(width * height);
  const colour = new Uint8Array(width * height * 3);
  const content = "BT /F1 12 Tf 72 720 Td (Quarterly report of the harbour authority, second quarter.) Tj 0 -16 Td (The harbour handled more ships this quarter than last.) Tj ET\nq 288 0 0 64 72 560 cm /Im0 Do Q";
  const pdf = pdfObjects([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> /XObject << /Im0 6 0 R >> >> /Contents 4 0 R >>",
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    hexStream(`/Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceRGB /BitsPerComponent 8 /SMask 7 0 R`, colour),
    hexStream(`/Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceGray /BitsPerComponent 8`, new Uint8Array(alpha)),
  ]);
  const result = await convertPdf({ bytes: pdf, filename: "harbour.pdf", contentType: "application/pdf", ext: "pdf" }, convertContext({ tools: { pool, ocr }, timeoutMs: 120_000 }));
  expect(result.markdown).toContain("The harbour handled more ships this quarter than last.");
  expect(result.markdown).toMatch(/\[Image text\] HARBOUR WORKS/);
  expect(result.method).toBe("text+ocr");
}, 120_000);
