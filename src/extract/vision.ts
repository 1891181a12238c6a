/**
 * pageImages prepares what use_vision sends to the vision model: the image itself (as a JPEG of at
 * most VISION_EDGE pixels a side), or the rendered pages of a PDF that have no text layer (scans,
 * at most VISION_PAGES of them). Other documents have no pictures to send, which a warning says.
 */
import sharp from "sharp";
import { AppError } from "../errors";
import type { MarkdownOutcome } from "../markdown/service";
import { renderPdfPage } from "../tools/poppler";

/** VISION_PAGES: scanned PDF pages sent to the vision model, at most (the first ones). */
export const VISION_PAGES = 5;
/** VISION_EDGE: longest side of an image sent, in pixels (enough to read print, small enough to send). */
const VISION_EDGE = 1600;
const RENDER_DPI = 110;

export interface VisionInput {
  images: Uint8Array[];
  /** textFromOcr: the text sent alongside came from OCR (extraction_method ocr+vision, else vision) */
  textFromOcr: boolean;
  warnings: string[];
}

export async function pageImages(document: MarkdownOutcome, bytes: Uint8Array, signal?: AbortSignal): Promise<VisionInput> {
  const ocrPages = (document.pages ?? []).filter((p) => p.method === "ocr");
  if (document.content_type.startsWith("image/")) {
    return { images: [await visionJpeg(bytes, `use_vision: ${document.filename}`)], textFromOcr: ocrPages.length > 0, warnings: [] };
  }
  if (document.content_type === "application/pdf") {
    const scanned = (document.pages ?? []).filter((p) => p.method !== "text").slice(0, VISION_PAGES);
    if (!scanned.length) return { images: [], textFromOcr: false, warnings: ["use_vision: every page of this PDF has a text layer, so the text was read and no page images were sent"] };
    const images: Uint8Array[] = [];
    for (const page of scanned) images.push(await pdfPageJpeg(bytes, page.page, `use_vision: ${document.filename} page ${page.page}`, signal ?? new AbortController().signal));
    const skipped = (document.pages ?? []).filter((p) => p.method !== "text").length - scanned.length;
    return { images, textFromOcr: ocrPages.length > 0, warnings: skipped > 0 ? [`use_vision: the first ${VISION_PAGES} pages without a text layer were sent as images; ${skipped} more were read by OCR only`] : [] };
  }
  return { images: [], textFromOcr: false, warnings: [`use_vision applies to images and scanned PDFs; '${document.filename}' (${document.content_type}) was read as text`] };
}

/** pdfPageJpeg renders one PDF page for the vision model (extract's use_vision, the agent's view_page_image). */
export async function pdfPageJpeg(pdf: Uint8Array, page: number, what: string, signal: AbortSignal): Promise<Uint8Array> {
  const png = await renderPdfPage(pdf, { page, dpi: RENDER_DPI, gray: false, timeoutMs: 20_000, maxBytes: 60_000_000 }, signal);
  return visionJpeg(png, what);
}

/** jpegDataUrl is how an image goes into a chat message's `image_url` part. */
export function jpegDataUrl(jpeg: Uint8Array): string {
  return `data:image/jpeg;base64,${Buffer.from(jpeg).toString("base64")}`;
}

/** visionJpeg turns an image into a JPEG of at most VISION_EDGE pixels a side; `what` names it in the error. */
export async function visionJpeg(bytes: Uint8Array, what: string): Promise<Uint8Array> {
  try {
    return await sharp(bytes, { limitInputPixels: 100_000_000 })
      .rotate()
      .resize({ width: VISION_EDGE, height: VISION_EDGE, fit: "inside", withoutEnlargement: true })
      .flatten({ background: "#ffffff" })
      .jpeg({ quality: 82 })
      .toBuffer();
  } catch (error) {
    throw new AppError("unreadable_document", `${what} could not be turned into an image for the vision model (${error instanceof Error ? error.message : String(error)})`);
  }
}
