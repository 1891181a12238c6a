/**
 * A scanned PDF's laid-out pages (src/convert/ocrLayout.ts) are rendered together, as a born-digital
 * PDF's pages are, so a running header and the page numbers, repeated on every page, are dropped as
 * they are on a born-digital PDF. The pages are drawn in SVG, made JPEGs, put in an image-only PDF,
 * and read by the real pdftoppm and tesseract.
 */
import { afterAll, expect, test } from "bun:test";
import sharp from "sharp";
import { makeConvertPdf } from "../src/convert/pdf";
import { WorkerPool } from "../src/pool";
import { Tesseract } from "../src/tools/tesseract";
import { convertContext } from "./helpers/convert";
import { imageOnlyPdf } from "./helpers/imageOnlyPdf";

const pool = new WorkerPool({ threads: 2, maxQueue: 64 });
const tesseract = new Tesseract({ concurrency: 2, timeoutMs: 60_000 });
afterAll(async () => {
  await pool.close();
  tesseract.close();
});

/** SECTIONS: each page's section title and its prose, one string per printed line */
const SECTIONS: Array<[string, string[]]> = [
  ["Water Sources", ["The valley draws its water from two rivers and from the wells on the northern slopes of the", "hills, and the board measures the flow of each source at the start of every month of the year."]],
  ["Treatment Works", ["Both treatment works were rebuilt in the spring, and their filters now take out more of the", "sediment that the rivers carry down after the heavy rains in the autumn and in the winter."]],
  ["Customer Service", ["The board answered most letters within five working days, and the new telephone line took", "calls about leaks and about bills from early in the morning until late in the evening."]],
];

/** reportPage: an A4 page at 150 dpi: the running header, a section title over prose, the page number at the foot */
async function reportPage(index: number): Promise<Uint8Array> {
  const [title, prose] = SECTIONS[index]!;
  const parts = ['<rect width="1240" height="1754" fill="white"/>'];
  const text = (x: number, y: number, size: number, line: string, weight = "normal") => parts.push(`<text x="${x}" y="${y}" font-family="DejaVu Serif" font-size="${size}" font-weight="${weight}">${line}</text>`);
  text(120, 100, 20, "Valley Water Board Annual Review");
  text(120, 220, 40, title, "bold");
  prose.forEach((line, i) => text(120, 300 + i * 36, 23, line));
  text(580, 1650, 20, `Page ${index + 1} of ${SECTIONS.length}`);
  const svg = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="1240" height="1754">${parts.join("")}</svg>`);
  return new Uint8Array(await sharp(svg).greyscale().jpeg({ quality: 90 }).toBuffer());
}

test("a scanned PDF's running header and page numbers are dropped by their repetition across the laid-out pages", async () => {
  const pdf = await imageOnlyPdf(await Promise.all(SECTIONS.map((_, i) => reportPage(i))), 150);
  const ctx = convertContext({ tools: { pool, ocr: tesseract }, timeoutMs: 120_000 });
  const result = await makeConvertPdf({ outline: false })({ bytes: pdf, filename: "water_board_review_scan.pdf", contentType: "application/pdf", ext: "pdf" }, ctx);
  expect(result.method).toBe("ocr");
  const markdown = result.markdown;
  for (const [title, prose] of SECTIONS) {
    expect(markdown).toMatch(new RegExp(`^#{1,3} ${title}$`, "m"));
    expect(markdown).toContain(prose[0]!.split(" ").slice(0, 8).join(" "));
  }
  expect(markdown).not.toContain("Valley Water Board Annual Review");
  expect(markdown).not.toMatch(/Page \d of 3/);
}, 120_000);
