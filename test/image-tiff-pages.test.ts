/**
 * A multi-page TIFF (a fax, a scanner's batch) is read page by page, as a scanned PDF is
 * (src/convert/scanPages.ts): every page OCRed (and laid out when page-like), in order, the page
 * numbers at their feet dropped. The pages are typeset, rendered at 150 dpi
 * as a scan is, joined into one TIFF by sharp, and read by the real poppler and tesseract. Limits hold
 * as the pages are decoded: the page count and the decoded bytes.
 */
import { afterAll, expect, test } from "bun:test";
import sharp from "sharp";
import { makeConvertImage } from "../src/convert/image";
import { WorkerPool } from "../src/pool";
import { Tesseract } from "../src/tools/tesseract";
import { convertContext } from "./helpers/convert";
import { scanAt150 } from "./helpers/scanAt150";

const pool = new WorkerPool({ threads: 2, maxQueue: 64 });
const tesseract = new Tesseract({ concurrency: 2, timeoutMs: 60_000 });
afterAll(async () => {
  await pool.close();
  tesseract.close();
});

const convert = makeConvertImage({ scanLayout: true });
const context = (limits = {}) => convertContext({ tools: { pool, ocr: tesseract }, limits, timeoutMs: 180_000 });

/** BODIES: each page's own paragraph */
const BODIES = [
  ["The committee met on the third of March to review the water board's annual report.", "It found the accounts in order and the reservoirs at their usual level for the season."],
  ["The second meeting heard the engineers on the state of the pumping stations in the north.", "Two of the stations need new motors before the summer, at a cost agreed by the board."],
  ["The last meeting of the quarter approved the budget for the coming year without changes.", "The minutes were signed by the chair and sent to the members of the board the same week."],
];

/** minutesTiff: three pages of minutes, each under the same running head and over its page number */
async function minutesTiff(): Promise<Uint8Array> {
  const pages = await Promise.all(
    BODIES.map((lines, i) =>
      scanAt150([
        { font: "Helvetica", size: 9, x: 57, y: 800, text: "Water Board Review - Minutes of the Quarter" },
        ...lines.map((text, j) => ({ font: "Times-Roman" as const, size: 12, x: 57, y: 700 - j * 18, text })),
        { font: "Helvetica", size: 9, x: 290, y: 40, text: String(i + 1) },
      ]),
    ),
  );
  return new Uint8Array(await sharp(pages.map((p) => Buffer.from(p)), { join: { animated: true } }).tiff({ compression: "lzw" }).toBuffer());
}

test("every page of a multi-page TIFF is read, in order, its page numbers dropped as a scanned PDF's are", async () => {
  const result = await convert({ bytes: await minutesTiff(), filename: "minutes_fax.tiff", contentType: "image/tiff", ext: "tiff" }, context());
  expect(result.totalPages).toBe(3);
  expect(result.pages!.map((p) => p.page)).toEqual([1, 2, 3]);
  for (const page of result.pages!) expect(page.method).toBe("ocr");
  const md = result.markdown;
  const at = BODIES.map(([first]) => md.indexOf(first!.slice(0, 40)));
  for (const found of at) expect(found).toBeGreaterThan(0);
  expect(at).toEqual([...at].sort((a, b) => a - b));
  expect(md).toContain("the same week.");
  // the page numbers at the pages' feet
  expect(md).not.toMatch(/^\d$/m);
  expect(md).toContain("- **Pages/frames:** 3 (each read)");
  expect(result.warnings.join(" ")).not.toContain("only the first");
}, 240_000);

test("a TIFF of more pages than a document may have is refused before its pages are read", async () => {
  const error = await convert({ bytes: await minutesTiff(), filename: "minutes_fax.tiff", contentType: "image/tiff", ext: "tiff" }, context({ maxPages: 2 })).catch((e: unknown) => e);
  expect(error).toMatchObject({ code: "document_too_large" });
  expect(String((error as Error).message)).toContain("has 3 pages; at most 2 pages are converted");
});

test("a small TIFF of large blank pages (a bomb) is refused as its pages decode past the byte limit", async () => {
  const blank = await sharp({ create: { width: 5000, height: 5000, channels: 3, background: "white" } }).png().toBuffer();
  const bomb = new Uint8Array(await sharp([blank, blank, blank, blank], { join: { animated: true } }).tiff({ compression: "deflate" }).toBuffer());
  expect(bomb.length).toBeLessThan(1_000_000);
  const error = await convert({ bytes: bomb, filename: "blank_pages.tiff", contentType: "image/tiff", ext: "tiff" }, context({ maxDecompressedBytes: 60_000_000 })).catch((e: unknown) => e);
  expect(error).toMatchObject({ code: "document_too_large" });
  expect(String((error as Error).message)).toContain("decode to more than 60000000 bytes (page 3 of 4)");
});
