/**
 * PDF -> markdown. Steps: extract the text layout of page batches in worker threads (pdfText.ts, at
 * most two batches at once; the first two jobs count the pages themselves, the first also reads the
 * title and outline) -> check the page limit when the first returns -> OCR the pages without a
 * text layer (pdftoppm at 150 dpi, then tesseract, all such pages started together; the engine
 * bounds its own concurrency) and the pictures on text pages (listed by pdfimages while the pages
 * are extracted) -> render all pages (pdfLayout.ts).
 *
 * Only the per-page layouts (blocks of text, no text items) are kept until the end, so memory grows
 * with the text of the document, not with pdf.js's objects.
 */
import sharp from "sharp";
import { AppError } from "../errors";
import { extractPageImages, listPdfImages, renderPdfPage, type PdfImageInfo } from "../tools/poppler";
import { Semaphore } from "../tools/semaphore";
import type { OcrResult } from "../tools/types";
import { joinBlocks, tidyMarkdown } from "./markdown";
import { evenedGround } from "./ocrGround";
import { ocrLaysOut, ocrLayoutPage } from "./ocrLayout";
import { evenedReadsMore } from "./ocrLight";
import { type Turn, turnGrey, turnWarning, uprightTurn } from "./ocrOrientation";
import { fromPgm, OCR_MAX_SIDE, prepareScan, toPgm, type GreyImage, type PreparedScan } from "./ocrPrep";
import { metadataOnly } from "./ooxml";
import { renderPages, type OutlineEntry } from "./pdfLayout";
import type { PageLayout } from "./pdfLayoutTypes";
import { formatOcrText } from "./pdfParagraphs";
import { pageBatches } from "./pdfBatches";
import type { PdfFailure, PdfPagesResult } from "./pdfText";
import type { ConvertContext, ConvertInput, Conversion, Converter, PageReport } from "./types";

/** MIN_TEXT_CHARS: a page with fewer non-whitespace characters in its text layer is OCRed. */
const MIN_TEXT_CHARS = 16;
/** OCR_DPI: resolution pages are rendered at for OCR (as accurate as 300 dpi here, 3-5x faster). */
const OCR_DPI = 150;
/** BATCHES_IN_FLIGHT: page batches extracted at once (each is one worker job). */
const BATCHES_IN_FLIGHT = 2;
/** RENDERS_IN_FLIGHT: pages rendered or OCRed at once, which bounds the PNGs held in memory. */
const RENDERS_IN_FLIGHT = 3;
/** RENDER_TIMEOUT_MS: deadline for pdftoppm on one page. */
const RENDER_TIMEOUT_MS = 60_000;
/** Pictures on text pages are OCRed when they are at least this large (pixels and inches on the page)... */
const PICTURE_MIN_WIDTH_PX = 100;
const PICTURE_MIN_HEIGHT_PX = 30;
const PICTURE_MIN_AREA_IN2 = 0.75;
/** ...and cover less than this share of the page (a page-sized picture under a text layer is a scan already read). */
const PICTURE_MAX_PAGE_SHARE = 0.8;
/** MAX_PICTURES_OCR: pictures OCRed per document; the rest are counted in a warning. */
const MAX_PICTURES_OCR = 40;
/** PICTURE_MIN_CONFIDENCE: OCR text of a picture below this confidence is not shown (photos give noise). */
const PICTURE_MIN_CONFIDENCE = 0.5;

/** PdfOptions: how convertPdf reads a PDF. */
export interface PdfOptions {
  /** outline: headings from the PDF's bookmarks where it has them (benchmarks of the layout alone turn it off) */
  outline: boolean;
  /** scanLayout: lay out page-like scanned pages like text pages (ocrLayout.ts); false writes tesseract's text (benchmarks compare both); default true */
  scanLayout?: boolean;
}

/** makeConvertPdf returns the PDF converter with these options; convertPdf is the service's. */
export function makeConvertPdf(options: PdfOptions): Converter {
  return (input, ctx) => convertPdfWith(input, ctx, options);
}

export const convertPdf: Converter = makeConvertPdf({ outline: true });

async function convertPdfWith(input: ConvertInput, ctx: ConvertContext, options: PdfOptions): Promise<Conversion> {
  const { signal } = ctx;
  const name = input.filename || "the PDF";
  // The pictures' list (pdfimages) is read while the pages are extracted; stopped if the PDF is refused.
  const listing = new AbortController();
  const images = listPdfImages(input.bytes, RENDER_TIMEOUT_MS, AbortSignal.any([signal, listing.signal]));
  images.catch(() => {}); // read only when the PDF has text pages; its errors are reported there
  try {
    const { total, facts, pages, failedPages } = await extractAllPages(input, ctx, name);
    signal.throwIfAborted();

    const ocrPages = pages.filter((p) => p.chars < MIN_TEXT_CHARS);
    const [ocr, pictures] = await Promise.all([ocrAll(input.bytes, ocrPages, images, ctx, options.scanLayout ?? true), readPictures(input.bytes, images, pages, ctx)]);
    signal.throwIfAborted();

    const outline = options.outline ? facts.outline : [];
    const conversion = assemble(pages, ocr, { total, title: facts.title, author: facts.author, name, failedPages, outline });
    if (ctx.keepPageTexts) conversion.pageTexts = pageTextsOf(pages, ocr, outline);
    conversion.warnings.push(...pictures.warnings);
    if (pictures.found > 0 && conversion.method === "text") conversion.method = "text+ocr";
    return conversion;
  } finally {
    listing.abort();
  }
}

function pdfError(failure: PdfFailure, name: string): AppError {
  if (failure.reason === "encrypted") {
    return new AppError("encrypted_document", `${name} is password-protected; remove the password (or send an unencrypted copy) and try again`);
  }
  return new AppError("unreadable_document", `${name} could not be read as a PDF (${failure.message}); the file is damaged or truncated`);
}

/**
 * extractAllPages runs the page batches (pageBatches) through the worker pool, at most
 * BATCHES_IN_FLIGHT at once. The first two start before the page count is known: each job opens
 * the PDF, counts its pages and takes its own batch, and the first also reads the title, author and
 * outline; the count is checked against the page limit when the first returns (jobs over the limit
 * extract nothing), and any further batches follow.
 */
async function extractAllPages(input: ConvertInput, ctx: ConvertContext, name: string) {
  const { signal, limits } = ctx;
  const opening = Array.from({ length: BATCHES_IN_FLIGHT }, (_, batch) => ctx.tools.pool.run("pdfBatch", { bytes: input.bytes, batch, maxPages: limits.maxPages, facts: batch === 0 }, signal));
  for (const job of opening) job.catch(() => {}); // awaited below, unless the first refuses the PDF
  const first = await opening[0]!;
  if (!first.ok) throw pdfError(first, name);
  const total = first.numPages;
  if (total === 0) throw new AppError("unreadable_document", `${name} has no pages; the PDF is damaged`);
  if (limits.maxPages > 0 && total > limits.maxPages) {
    throw new AppError("document_too_large", `${name} has ${total} pages; at most ${limits.maxPages} pages are converted. Split the PDF and convert the parts.`);
  }
  signal.throwIfAborted();

  const batches = pageBatches(total);
  const results: PageLayout[][] = new Array(batches.length);
  const failedPages: Array<{ page: number; message: string }> = [];
  let next = opening.length;
  const runBatches = async (index: number, job: Promise<PdfPagesResult | PdfFailure>) => {
    for (;;) {
      const result = await job;
      if (!result.ok) throw pdfError(result, name);
      if (index < batches.length) results[index] = result.pages;
      failedPages.push(...result.failedPages);
      if (next >= batches.length) return;
      signal.throwIfAborted();
      index = next++;
      const [from, to] = batches[index]!;
      job = ctx.tools.pool.run("pdfPages", { bytes: input.bytes, first: from, last: to }, signal);
    }
  };
  await Promise.all(opening.map((job, index) => runBatches(index, job)));
  failedPages.sort((a, b) => a.page - b.page);
  return { total, facts: first.facts ?? { title: null, author: null, outline: [] }, pages: results.flat(), failedPages };
}

/**
 * ScannedPage is a page read by OCR: tesseract's result and the page's markdown (laid out like a
 * text page when it is page-like, see ocrLayout.ts); `layout`: the laid-out page, rendered with its
 * neighbours as text pages are, so running headers and page numbers go by repetition across pages.
 */
interface ScannedPage {
  ocr: OcrResult;
  markdown: string;
  layout?: PageLayout;
  /** turned: the page's text ran sideways or upside down and was read turned (ocrOrientation.ts) */
  turned?: Turn;
}

/**
 * ocrAll renders and OCRs every page in `pages` concurrently (bounded), keyed by page number. A page
 * that shows one stored image filling it (storedImageOf) is also read from the image's own pixels,
 * which pdftoppm's rendering resamples (letters a pixel wider, tesseract less sure): when those
 * pixels show the page as rendered, upright and unflipped (showsPage), both are OCRed and the
 * reading with the higher mean word confidence is kept. `images` is the PDF's image list
 * (pdfimages -list, read while the pages were extracted); without it every page is rendered only.
 */
async function ocrAll(pdf: Uint8Array, pages: PageLayout[], images: Promise<PdfImageInfo[]>, ctx: ConvertContext, scanLayout: boolean): Promise<Map<number, ScannedPage | Error>> {
  const results = new Map<number, ScannedPage | Error>();
  if (pages.length === 0) return results;
  const listed = await images.catch((error: unknown) => {
    if (ctx.signal.aborted || (error instanceof AppError && error.code === "tool_unavailable")) throw error;
    return [] as PdfImageInfo[]; // the pages are rendered, as they were before stored images were read
  });
  const slots = new Semaphore(RENDERS_IN_FLIGHT);
  const read = async (scan: PreparedScan, page: PageLayout, turned?: Turn, sameAs?: string): Promise<ScannedPage> => {
    const ocr = await ctx.tools.ocr.recognize(scan.image, ctx.signal, { segmentation: scan.segmentation, dpi: scan.dpi, sameAs });
    // a page read turned a quarter shows its height across
    const across = turned === 90 || turned === 270 ? page.height : page.width;
    const laidOut = scanLayout && ocrLaysOut(scan.segmentation, ocr) && ocr.width ? ocrLayoutPage(ocr, across / ocr.width, page.page, scan.rules, fromPgm(scan.image)) : null;
    return { ...(laidOut ? { ocr, ...laidOut } : { ocr, markdown: formatOcrText(ocr.text.trim()) }), turned };
  };
  await Promise.all(
    pages.map((page) =>
      slots.run(async () => {
        try {
          const dpi = ocrDpi(page, ctx.limits.maxPixels);
          const png = await renderPdfPage(pdf, { page: page.page, dpi, gray: true, timeoutMs: RENDER_TIMEOUT_MS, maxBytes: 200_000_000 }, ctx.signal);
          ctx.signal.throwIfAborted();
          const rendered = await greyOf(png, 0);
          const stored = await storedScanOf(pdf, page, listed, rendered, ctx).catch((error: unknown) => {
            if (ctx.signal.aborted || (error instanceof AppError && error.code === "tool_unavailable")) throw error;
            return null; // the stored image could not be written or decoded: the rendered page is read alone
          });
          ctx.signal.throwIfAborted();
          const prepared = await prepareScan(rendered, { density: dpi, fallbackScale: 1, maxSide: OCR_MAX_SIDE, maxPixels: ctx.limits.maxPixels });
          let best = await read(prepared, page);
          if (stored) {
            // the same page: in the language its rendering was found in (English is asked first only when it read as English)
            const fromStored = await read(stored, page, undefined, best.ocr.language);
            if (betterReading(fromStored.ocr, best.ocr, { other: fromStored.layout !== undefined, best: best.layout !== undefined })) best = fromStored;
          }
          // text that runs sideways or upside down reads poorly: the rendered page turned upright and read again
          const turn = await uprightTurn(ctx.tools.ocr, best.ocr, prepared.image, ctx.signal);
          if (turn) {
            const turned = await read(await prepareScan(await turnGrey(rendered, turn), { density: dpi, fallbackScale: 1, maxSide: OCR_MAX_SIDE, maxPixels: ctx.limits.maxPixels }), page, turn);
            if (turned.ocr.confidence > best.ocr.confidence) best = turned;
          }
          // a page of shaded table cells is read again with its ground evened (ocrGround.ts), kept when it reads more words surely
          const ground = best.turned ? null : evenedGround(rendered);
          if (ground) {
            const evened = await read(await prepareScan(ground, { density: dpi, fallbackScale: 1, maxSide: OCR_MAX_SIDE, maxPixels: ctx.limits.maxPixels }), page, undefined, best.ocr.language);
            if (evenedReadsMore(evened.ocr, best.ocr)) best = evened;
          }
          results.set(page.page, best);
        } catch (error) {
          if (ctx.signal.aborted) throw error;
          if (error instanceof AppError && (error.code === "tool_unavailable" || error.code === "timeout")) throw error;
          results.set(page.page, error instanceof Error ? error : new Error(String(error)));
        }
      }, ctx.signal),
    ),
  );
  return results;
}

/**
 * FEWER_WORDS: of a page's two readings (its rendering, its stored image), one that read under this
 * share of the other's words is not kept for being surer: tesseract left a part of the page unread, and
 * what it did read it read surely (a scanned table of figures rendered: 112 words at 0.912, most
 * figures never read; its stored image 286 words at 0.824, every column; a Hebrew table of figures
 * rendered: 193 words at 0.921, whole columns of figures unread; its stored image 276 at 0.913).
 */
const FEWER_WORDS = 0.75;

/** readWords: a reading's words with a letter or a digit */
const readWords = (ocr: OcrResult) => ocr.words?.filter((word) => /[\p{L}\p{N}]/u.test(word.text)).length ?? 0;

/**
 * betterReading: `other` is kept over `best`, two readings of one page: it is surer, unless it read
 * under FEWER_WORDS of best's words; or best read under FEWER_WORDS of its words. `laidOut`: which of
 * the two was laid out as a page (ocrLayout.ts, when the page is laid out at all): of two readings
 * with words enough, one that lays out is kept over one that does not, whichever is surer: the other
 * would be the page's flat text, and its layout lost or joined a word, or found no heading and no
 * table, or it read under the layout's gates (a Federal Register page's stored JPEG read at 0.951,
 * a stray "a" by its page number joined to it, "47698a"; its rendering at 0.951 too, its eight bold
 * heads laid out).
 */
export function betterReading(other: OcrResult, best: OcrResult, laidOut?: { other: boolean; best: boolean }): boolean {
  const [mine, theirs] = [readWords(other), readWords(best)];
  if (mine < FEWER_WORDS * theirs) return false;
  if (theirs < FEWER_WORDS * mine) return true;
  if (laidOut && laidOut.other !== laidOut.best) return laidOut.other;
  return other.confidence > best.confidence;
}

/** STORED_FIT: a stored image fills its page when each side is within this share of the page's. */
const STORED_FIT = 0.03;
/** STORED_PPI: stored images read from their own pixels are at least MIN and at most MAX pixels per inch. */
const STORED_MIN_PPI = 100;
const STORED_MAX_PPI = 1200;

/**
 * storedImageOf is the one image drawn on `page` when it fills the page (each side within STORED_FIT),
 * is stored at STORED_MIN_PPI-STORED_MAX_PPI and has at most maxPixels pixels (0 = no limit), the
 * limit a rendered page is held to; null when the page has other images (masks, overlays) or none.
 */
export function storedImageOf(page: PageLayout, listed: PdfImageInfo[], maxPixels: number): PdfImageInfo | null {
  const onPage = listed.filter((image) => image.page === page.page);
  if (onPage.length !== 1 || onPage[0]!.type !== "image") return null;
  const image = onPage[0]!;
  const [pageW, pageH] = [page.width / 72, page.height / 72];
  if (pageW <= 0 || pageH <= 0 || Math.abs(image.widthInches / pageW - 1) > STORED_FIT || Math.abs(image.heightInches / pageH - 1) > STORED_FIT) return null;
  const ppi = Math.min(image.width / image.widthInches, image.height / image.heightInches);
  if (!(ppi >= STORED_MIN_PPI && Math.max(image.width / image.widthInches, image.height / image.heightInches) <= STORED_MAX_PPI)) return null;
  if (maxPixels > 0 && image.width * image.height > maxPixels) return null;
  return image;
}

/**
 * storedScanOf prepares the page's stored image (storedImageOf, written by pdfimages in its sandbox,
 * with pdftoppm's timeout) for tesseract at its own ppi, or null when the page has no such image or
 * its pixels do not show the page as rendered (a /Rotate page, an image drawn turned or mirrored).
 */
async function storedScanOf(pdf: Uint8Array, page: PageLayout, listed: PdfImageInfo[], rendered: GreyImage, ctx: ConvertContext): Promise<PreparedScan | null> {
  const image = storedImageOf(page, listed, ctx.limits.maxPixels);
  if (!image) return null;
  // pdfimages writes every image of the page, not only the stored scan
  if (ctx.limits.maxPixels > 0 && pixelsOf(listed.filter((other) => other.page === page.page)) > ctx.limits.maxPixels) return null;
  const files = await extractPageImages(pdf, page.page, RENDER_TIMEOUT_MS, ctx.signal);
  if (files.length !== 1) return null;
  const grey = await greyOf(files[0]!, ctx.limits.maxPixels);
  if (grey.width !== image.width || grey.height !== image.height || !(await showsPage(grey, rendered))) return null;
  const ppi = image.width / image.widthInches;
  return prepareScan(grey, { density: ppi, fallbackScale: 1, maxSide: OCR_MAX_SIDE, maxPixels: ctx.limits.maxPixels });
}

/** COMPARE_WIDTH: images are compared at this width (pixels), enough to place lines of text. */
const COMPARE_WIDTH = 300;

/**
 * showsPage: the stored image, scaled to the rendered page, matches it as drawn, upright and
 * unflipped: its shape is the page's (within STORED_FIT, so a page turned 90 degrees is not), and it
 * differs from the page at most half as much as it does turned 180 degrees, mirrored or flipped (a
 * page with /Rotate 180, an image drawn upside down or mirrored, matches one of those better).
 */
export async function showsPage(stored: GreyImage, rendered: GreyImage): Promise<boolean> {
  if (Math.abs((stored.width / stored.height) / (rendered.width / rendered.height) - 1) > STORED_FIT) return false;
  const width = Math.min(COMPARE_WIDTH, rendered.width);
  const height = Math.max(1, Math.round((rendered.height * width) / rendered.width));
  const small = (image: GreyImage) => sharp(image.data, { raw: { width: image.width, height: image.height, channels: 1 } }).resize(width, height, { fit: "fill" }).raw().toBuffer();
  const [page, shown] = await Promise.all([small(rendered), small(stored)]);
  // the stored image compared as it is, turned 180 degrees, mirrored and flipped: one scaled copy, read four ways
  const differs = (at: (x: number, y: number) => number) => {
    let sum = 0;
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) sum += Math.abs(page[y * width + x]! - shown[at(x, y)]!);
    return sum / page.length;
  };
  const same = differs((x, y) => y * width + x);
  const turned = differs((x, y) => (height - 1 - y) * width + (width - 1 - x));
  const mirrored = differs((x, y) => y * width + (width - 1 - x));
  const flipped = differs((x, y) => (height - 1 - y) * width + x);
  return same <= 0.5 * Math.min(turned, mirrored, flipped);
}

/**
 * readPictures OCRs the pictures on pages that have a text layer (charts, screenshots, scanned
 * inserts) and puts on each page the text that its text layer does not already hold. Pages without
 * a text layer are OCRed whole instead. Returns how many pictures gave text, and warnings.
 */
async function readPictures(pdf: Uint8Array, images: Promise<PdfImageInfo[]>, pages: PageLayout[], ctx: ConvertContext): Promise<{ found: number; warnings: string[] }> {
  const warnings: string[] = [];
  const textPages = new Map(pages.filter((p) => p.chars >= MIN_TEXT_CHARS).map((p) => [p.page, p]));
  if (textPages.size === 0) return { found: 0, warnings };
  let listed: PdfImageInfo[];
  try {
    listed = await images;
  } catch (error) {
    if (ctx.signal.aborted || (error instanceof AppError && error.code === "tool_unavailable")) throw error;
    warnings.push(`pictures were not checked for text (${error instanceof AppError ? error.detail : String(error)})`);
    return { found: 0, warnings };
  }
  const byPage = new Map<number, PdfImageInfo[]>();
  for (const image of listed) byPage.set(image.page, [...(byPage.get(image.page) ?? []), image]);
  const candidates = [...byPage.entries()].filter(([page, images]) => textPages.has(page) && images.some((image) => isPicture(image, textPages.get(page)!)));
  let budget = MAX_PICTURES_OCR;
  let skipped = 0;
  let found = 0;
  const slots = new Semaphore(RENDERS_IN_FLIGHT);
  await Promise.all(
    candidates.map(([page, images]) =>
      slots.run(async () => {
        const layout = textPages.get(page)!;
        const wanted = images.map((image) => isPicture(image, layout));
        const count = wanted.filter(Boolean).length;
        if (budget < count) {
          skipped += count;
          return;
        }
        budget -= count;
        // pdfimages writes every image of the page (masks, repeats): a page whose images together pass the pixel limit is not read
        const pixels = pixelsOf(images);
        if (ctx.limits.maxPixels > 0 && pixels > ctx.limits.maxPixels) {
          warnings.push(`page ${page}: its pictures were not checked for text (${megapixels(pixels)} million pixels together, over the limit of ${megapixels(ctx.limits.maxPixels)} million)`);
          return;
        }
        let extracted: Uint8Array[];
        try {
          extracted = await extractPageImages(pdf, page, RENDER_TIMEOUT_MS, ctx.signal);
        } catch (error) {
          // the page's text stands without its pictures' (a picture that cannot be written in time, a broken image stream)
          if (ctx.signal.aborted || (error instanceof AppError && error.code === "tool_unavailable")) throw error;
          warnings.push(`page ${page}: its pictures were not checked for text (${error instanceof AppError ? error.detail : String(error)})`);
          return;
        }
        const pageWords = new Set(wordsOf(layout.blocks.map((b) => (b.kind === "table" ? b.rows.flat().join(" ") : b.lines.map((l) => l.text).join(" "))).join(" ")));
        for (let i = 0; i < extracted.length && i < images.length; i++) {
          if (!wanted[i]) continue;
          // a picture drawn through its soft mask (a logo on a transparent ground) is read as drawn, on the white page
          const masked = images[i + 1]?.type === "smask" && extracted[i + 1] ? await onWhite(extracted[i]!, extracted[i + 1]!).catch(() => null) : null;
          const result = await ctx.tools.ocr.recognize(masked ?? extracted[i]!, ctx.signal).catch((error: unknown) => {
            if (ctx.signal.aborted || (error instanceof AppError && error.code === "tool_unavailable")) throw error;
            warnings.push(`page ${page}: a picture could not be OCRed (${error instanceof AppError ? error.detail : String(error)})`);
            return null;
          });
          if (!result || result.confidence < PICTURE_MIN_CONFIDENCE) continue;
          const words = wordsOf(result.text);
          const novel = words.filter((w) => !pageWords.has(w)).length;
          if (words.length === 0 || novel === 0 || novel < words.length * 0.3) continue; // the text layer already says it
          (layout.imageTexts ??= []).push(result.text.trim());
          found++;
        }
      }, ctx.signal),
    ),
  );
  if (skipped > 0) warnings.push(`${skipped} more picture(s) were not OCRed: at most ${MAX_PICTURES_OCR} are read per document`);
  return { found, warnings };
}

/**
 * onWhite lays a picture over white through its soft mask (pdfimages writes the mask as the next image):
 * the colour under a transparent ground is whatever its maker left there, black as often as not, so the
 * picture alone shows a logo's dark letters on black (De Vinci FabLab's quote and invoice: no word read).
 * The mask is scaled to the picture when their sizes differ. Returns the grey image as toPgm writes it for tesseract.
 */
async function onWhite(picture: Uint8Array, mask: Uint8Array): Promise<Uint8Array> {
  const colour = await greyOf(picture, 0);
  const alpha = await sharp(mask).toColourspace("b-w").resize(colour.width, colour.height, { fit: "fill" }).raw({ depth: "uchar" }).toBuffer();
  const data = colour.data.map((grey, i) => Math.round((grey * alpha[i]! + 255 * (255 - alpha[i]!)) / 255));
  return toPgm({ data, width: colour.width, height: colour.height });
}

/** pixelsOf counts the pixels of images together (what pdfimages writes for them). */
function pixelsOf(images: PdfImageInfo[]): number {
  return images.reduce((sum, image) => sum + image.width * image.height, 0);
}

function megapixels(pixels: number): string {
  return String(Math.round(pixels / 100_000) / 10);
}

/** isPicture: an image large enough to hold readable text, and not a full-page scan under a text layer. */
function isPicture(image: PdfImageInfo, page: PageLayout): boolean {
  if (image.type !== "image" || image.width < PICTURE_MIN_WIDTH_PX || image.height < PICTURE_MIN_HEIGHT_PX) return false;
  const area = image.widthInches * image.heightInches;
  const pageArea = (page.width / 72) * (page.height / 72);
  return area >= PICTURE_MIN_AREA_IN2 && (pageArea <= 0 || area < pageArea * PICTURE_MAX_PAGE_SHARE);
}

/** wordsOf lists the lower-case words of two or more letters or digits. */
function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]{2,}/gu) ?? [];
}

/** greyOf decodes a PNG (a rendered page, a stored image) to 8-bit grey, refusing more than maxPixels (0 = no limit). */
async function greyOf(png: Uint8Array, maxPixels: number): Promise<GreyImage> {
  const decoded = await sharp(png, { limitInputPixels: maxPixels > 0 ? maxPixels : false }).toColourspace("b-w").raw({ depth: "uchar" }).toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(decoded.data.buffer, decoded.data.byteOffset, decoded.data.length), width: decoded.info.width, height: decoded.info.height };
}

/** ocrDpi is OCR_DPI, lowered so the rendered page stays within maxPixels (0 = no limit). */
function ocrDpi(page: PageLayout, maxPixels: number): number {
  const inches = (page.width / 72) * (page.height / 72);
  if (maxPixels <= 0 || inches <= 0) return OCR_DPI;
  return Math.max(30, Math.min(OCR_DPI, Math.floor(Math.sqrt(maxPixels / inches))));
}

interface AssembleFacts {
  total: number;
  title: string | null;
  author: string | null;
  name: string;
  failedPages: Array<{ page: number; message: string }>;
  outline: OutlineEntry[];
}

/**
 * assemble renders the text pages, puts each OCRed page's text in its place, and reports per page
 * how its text was obtained.
 */
function assemble(pages: PageLayout[], ocr: Map<number, ScannedPage | Error>, facts: AssembleFacts): Conversion {
  const warnings: string[] = [];
  const reports: PageReport[] = [];
  const parts: string[] = [];
  let firstHeading: string | null = null;
  let run: PageLayout[] = [];
  const flushRun = () => {
    if (!run.length) return;
    const rendered = renderPages(run, facts.outline);
    firstHeading ??= rendered.firstHeading;
    parts.push(rendered.markdown);
    run = [];
  };
  for (const page of pages) {
    const result = ocr.get(page.page);
    const ocrText = result && !(result instanceof Error) ? result.ocr.text.trim() : "";
    if (result instanceof Error) warnings.push(`page ${page.page}: OCR failed (${result.message})`);
    const ocrChars = ocrText.replace(/\s+/g, "").length;
    if (result && !(result instanceof Error) && ocrChars > page.chars) {
      // a laid-out scan joins the run of pages rendered together; tesseract's flat text stands alone
      if (result.layout) run.push(result.layout);
      else {
        flushRun();
        parts.push(result.markdown);
      }
      reports.push({ page: page.page, method: "ocr", ocrQuality: result.ocr.confidence, chars: ocrChars });
      if (result.turned) warnings.push(`page ${page.page}: ${turnWarning(result.turned)}`);
      if (result.ocr.confidence < 0.6) warnings.push(`page ${page.page}: OCR confidence is low (${Math.round(result.ocr.confidence * 100)} %); check the text`);
      continue;
    }
    run.push(page);
    reports.push({ page: page.page, method: page.chars > 0 ? "text" : "empty", chars: page.chars });
  }
  flushRun();
  for (const failed of facts.failedPages) warnings.push(`page ${failed.page}: text layer unreadable (${failed.message})`);

  const textPages = reports.filter((r) => r.method === "text").length;
  const ocrPages = reports.filter((r) => r.method === "ocr").length;
  if (textPages + ocrPages === 0) {
    const metadata = metadataOnly({ title: facts.title, author: facts.author, pages: facts.total }, facts.name, `has ${facts.total} page(s) but no text (no text layer, and OCR found none)`);
    if (metadata) return { ...metadata, warnings: [...warnings, ...metadata.warnings], pages: reports };
    throw new AppError("empty_document", `${facts.name} has ${facts.total} page(s) but no text: there is no text layer and OCR found no text on any page`);
  }
  const method = ocrPages === 0 ? "text" : textPages === 0 ? "ocr" : "text+ocr";
  const markdown = tidyMarkdown(joinBlocks(parts));
  const title = facts.title ?? firstHeading ?? firstOcrHeading(markdown);
  return { markdown, title, totalPages: facts.total, method, warnings, pages: reports };
}

/**
 * pageTextsOf renders every page on its own (OCR text where OCR read more than the text layer). The
 * document's markdown is rendered in runs of pages instead, so paragraphs can continue across pages.
 */
function pageTextsOf(pages: PageLayout[], ocr: Map<number, ScannedPage | Error>, outline: OutlineEntry[]): string[] {
  return pages.map((page) => {
    const result = ocr.get(page.page);
    const ocrText = result && !(result instanceof Error) ? result.ocr.text.trim() : "";
    if (result && !(result instanceof Error) && ocrText.replace(/\s+/g, "").length > page.chars) return result.markdown;
    return tidyMarkdown(renderPages([page], outline).markdown);
  });
}

function firstOcrHeading(markdown: string): string | null {
  const match = /^#{1,6} (.+)$/m.exec(markdown);
  return match ? match[1]!.trim() : null;
}
