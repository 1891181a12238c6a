/**
 * A scan of several pages in one image file (a multi-page TIFF: a fax, a scanner's batch, an archive's
 * scanned letter) is read as a scanned PDF is (pdf.ts): every page OCRed in its language, its page
 * number dropped, and a page-like page laid out with its neighbours (running heads found by their
 * repetition across laid-out pages). The pages are written, as the scanner gave
 * them, into an image-only PDF that the PDF converter then reads: one page per frame, its pixels grey
 * and lossless (Flate), the page the frame's size at its resolution.
 *
 * Limits hold as the pages are decoded: the page count (limits.maxPages, as for a PDF), each page's
 * pixels (limits.maxPixels) and the decoded bytes of all pages together (limits.maxDecompressedBytes:
 * a small file of many large blank pages is a bomb).
 */
import { deflateSync } from "node:zlib";
import sharp from "sharp";
import { AppError } from "../errors";
import type { ConvertContext, ConvertInput } from "./types";

/** DEFAULT_DPI: the resolution of a page whose file declares none or an implausible one (a fax's fine mode is 196-204, an office scan's 200-300) */
const DEFAULT_DPI = 200;

/** ScanPage: one decoded page: grey pixels, one byte each, row by row */
interface ScanPage {
  grey: Uint8Array;
  width: number;
  height: number;
}

/**
 * scanPagesPdf decodes every page of a multi-page image (`pages` of them, from its header) and writes
 * them as an image-only PDF. `density`: the file's resolution, when it declares one.
 */
export async function scanPagesPdf(input: ConvertInput, pages: number, density: number | undefined, ctx: ConvertContext): Promise<Uint8Array> {
  const { limits, signal } = ctx;
  const name = input.filename || "the image";
  if (limits.maxPages > 0 && pages > limits.maxPages) {
    throw new AppError("document_too_large", `${name} has ${pages} pages; at most ${limits.maxPages} pages are converted. Split the file and convert the parts.`);
  }
  const dpi = density && density >= 50 && density <= 1200 ? density : DEFAULT_DPI;
  const written: ImagePage[] = [];
  let decoded = 0;
  for (let page = 0; page < pages; page++) {
    signal.throwIfAborted();
    const scan = await decodePage(input, page, limits.maxPixels);
    decoded += scan.grey.length;
    if (limits.maxDecompressedBytes > 0 && decoded > limits.maxDecompressedBytes) {
      throw new AppError("document_too_large", `${name}'s pages decode to more than ${limits.maxDecompressedBytes} bytes (page ${page + 1} of ${pages}); split the file and convert the parts.`);
    }
    written.push({ width: scan.width, height: scan.height, dpi, data: deflateSync(scan.grey), filter: "FlateDecode", grey: true });
  }
  return imageOnlyPdf(written);
}

/** decodePage decodes one page of the file to grey on white, refusing one of more than `maxPixels` pixels. */
async function decodePage(input: ConvertInput, page: number, maxPixels: number): Promise<ScanPage> {
  try {
    const { data, info } = await sharp(input.bytes, { page, pages: 1, limitInputPixels: maxPixels > 0 ? maxPixels : false })
      .flatten({ background: "#ffffff" })
      .toColourspace("b-w")
      .raw({ depth: "uchar" })
      .toBuffer({ resolveWithObject: true });
    return { grey: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
  } catch (cause) {
    if (cause instanceof Error && /pixel limit/i.test(cause.message)) {
      throw new AppError("document_too_large", `page ${page + 1} of ${input.filename || "the image"} has more than ${maxPixels} pixels`, { cause });
    }
    throw new AppError("unreadable_document", `page ${page + 1} of ${input.filename || "the image"} could not be decoded (corrupt or unsupported image data)`, { cause });
  }
}

/**
 * ImagePage: one page of an image-only PDF: its image's pixels as the PDF stores them (`filter`: JPEG
 * bytes as they are, or Flate-compressed raw samples), the page its image's size at `dpi`. `rotate`:
 * the page's /Rotate; `flip`: the image drawn upside down by its matrix (the scanned-PDF tests' pages).
 */
export interface ImagePage {
  width: number;
  height: number;
  dpi: number;
  data: Uint8Array;
  filter: "FlateDecode" | "DCTDecode";
  grey: boolean;
  rotate?: number;
  flip?: boolean;
}

/** imageOnlyPdf writes a PDF of one image per page and nothing else (no text layer), each page its image's size at its resolution. */
export function imageOnlyPdf(pages: ImagePage[]): Uint8Array {
  const encoder = new TextEncoder();
  const parts: Uint8Array[] = [];
  const offsets: number[] = [];
  let length = 0;
  const push = (chunk: string | Uint8Array) => {
    const bytes = typeof chunk === "string" ? encoder.encode(chunk) : chunk;
    parts.push(bytes);
    length += bytes.length;
  };
  const object = (id: number, body: string, stream?: Uint8Array) => {
    offsets[id] = length;
    push(`${id} 0 obj\n${body}\n`);
    if (stream) {
      push("stream\n");
      push(stream);
      push("\nendstream\n");
    }
    push("endobj\n");
  };
  push("%PDF-1.4\n");
  const pageIds = pages.map((_, i) => 3 + i * 3);
  object(1, "<< /Type /Catalog /Pages 2 0 R >>");
  object(2, `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(" ")}] /Count ${pages.length} >>`);
  pages.forEach((page, i) => {
    const id = pageIds[i]!;
    const [w, h] = [((page.width * 72) / page.dpi).toFixed(2), ((page.height * 72) / page.dpi).toFixed(2)];
    const content = encoder.encode(page.flip ? `q ${w} 0 0 -${h} 0 ${h} cm /Im0 Do Q` : `q ${w} 0 0 ${h} 0 0 cm /Im0 Do Q`);
    object(id, `<< /Type /Page /Parent 2 0 R${page.rotate ? ` /Rotate ${page.rotate}` : ""} /MediaBox [0 0 ${w} ${h}] /Resources << /XObject << /Im0 ${id + 1} 0 R >> >> /Contents ${id + 2} 0 R >>`);
    object(id + 1, `<< /Type /XObject /Subtype /Image /Width ${page.width} /Height ${page.height} /ColorSpace /${page.grey ? "DeviceGray" : "DeviceRGB"} /BitsPerComponent 8 /Filter /${page.filter} /Length ${page.data.length} >>`, page.data);
    object(id + 2, `<< /Length ${content.length} >>`, content);
  });
  const xref = length;
  const count = 3 + pages.length * 3;
  push(`xref\n0 ${count}\n0000000000 65535 f \n${Array.from({ length: count - 1 }, (_, i) => `${String(offsets[i + 1]).padStart(10, "0")} 00000 n \n`).join("")}`);
  push(`trailer\n<< /Size ${count} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  const joined = Buffer.concat(parts, length);
  return new Uint8Array(joined.buffer, joined.byteOffset, joined.length);
}
