/**
 * Images: the header is read first (sharp's metadata() does not decode pixels) so oversized images
 * are refused before any work; then the first frame is decoded, prepared for OCR (alpha flattened
 * on white, greyscale, scaled so its letters reach tesseract's best size, see ocrPrep.ts) and read
 * by tesseract. The output is the OCR text plus a metadata block (format, size, colour, DPI, EXIF
 * and XMP facts, pages).
 *
 * sharp decodes JPEG, PNG, WebP, GIF, TIFF, AVIF and SVG. It cannot decode HEIC (HEVC is not built
 * in), so HEIC goes through `heif-convert` to PNG; nor BMP, which is decoded here (uncompressed 1/4/8
 * bit palettes, 24 and 32 bit) into raw pixels for sharp.
 */
import { Parser } from "htmlparser2";
import sharp, { type Metadata } from "sharp";
import { AppError } from "../errors";
import { heifToPng } from "../tools/heif";
import { heading, textHeading, joinBlocks, metadataBlock, tidyMarkdown } from "./markdown";
import { joinLineEndHyphens, ocrLaysOut, ocrLayoutMarkdown } from "./ocrLayout";
import { evenedGround } from "./ocrGround";
import { evenedLight, evenedReadsMore } from "./ocrLight";
import { turnGrey, turnWarning, uprightTurn } from "./ocrOrientation";
import { fromPgm, OCR_MAX_SIDE, prepareScan, type GreyImage, type PreparedScan } from "./ocrPrep";
import { makeConvertPdf } from "./pdf";
import { scanPagesPdf } from "./scanPages";
import type { Conversion, ConvertContext, Converter, ConvertInput, PageReport } from "./types";

/** OCR_MIN_WIDTH: images narrower than this (px) are upscaled so small text reaches tesseract's range */
const OCR_MIN_WIDTH = 1000;
/** OCR_MAX_UPSCALE: the largest upscaling factor; tiny icons gain nothing from more */
const OCR_MAX_UPSCALE = 4;
/** ASSUMED_DPI: the resolution taken for an image that states none, to size its text in points for the layout (sizes are compared, not read) */
const ASSUMED_DPI = 150;
/** HEIF_TIMEOUT_MS: deadline for heif-convert on one image */
const HEIF_TIMEOUT_MS = 60_000;

/** DecodableImage is what sharp can open: the original bytes, a PNG made by heif-convert, or raw BMP pixels. */
interface DecodableImage {
  input: Uint8Array;
  raw?: { width: number; height: number; channels: 3 | 4 };
  /** svgDensity: DPI at which an SVG is rasterised (72 = its nominal size) */
  svgDensity?: number;
}

/** ImageFacts are the header facts shown in the metadata block. */
interface ImageFacts {
  format: string;
  width: number;
  height: number;
  space?: string;
  channels?: number;
  density?: number;
  pages: number;
  exif?: Uint8Array;
  xmp?: string;
}

/** imageError is the unreadable_document error for a corrupt or unsupported image. */
function imageError(input: ConvertInput, what: string, cause?: unknown): AppError {
  return new AppError("unreadable_document", `${input.filename}: ${what}; the image is corrupt, truncated or not an image: re-export it as PNG or JPEG.`, { cause });
}

/** isBmp checks the BMP file signature. */
function isBmp(bytes: Uint8Array): boolean {
  return bytes[0] === 0x42 && bytes[1] === 0x4d && bytes.length >= 26;
}

/** refuseOversize throws document_too_large when width x height exceeds the pixel limit (0 = no limit). */
function refuseOversize(input: ConvertInput, width: number, height: number, maxPixels: number): void {
  const pixels = width * height;
  if (maxPixels > 0 && pixels > maxPixels) {
    throw new AppError("document_too_large", `${input.filename} is ${width} x ${height} = ${pixels} pixels, more than the limit of ${maxPixels} pixels; scale the image down before converting it.`);
  }
}

// ---------------------------------------------------------------------------------------------
// BMP

/** BmpHeader is the part of a BMP header needed to decode its pixels. */
interface BmpHeader {
  width: number;
  height: number;
  topDown: boolean;
  bitsPerPixel: number;
  compression: number;
  pixelOffset: number;
  palette: Array<[number, number, number]>;
  /** masks: red, green, blue, alpha bit masks for 32-bit BI_BITFIELDS; null = BGRX order */
  masks: [number, number, number, number] | null;
}

/** readBmpHeader parses the file and DIB headers (BITMAPCOREHEADER to BITMAPV5HEADER). */
function readBmpHeader(input: ConvertInput): BmpHeader {
  const b = input.bytes;
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const dibSize = view.getUint32(14, true);
  const core = dibSize === 12;
  if (!core && (dibSize < 40 || b.length < 14 + dibSize)) throw imageError(input, "BMP header is truncated");
  const width = core ? view.getUint16(18, true) : view.getInt32(18, true);
  const rawHeight = core ? view.getInt16(20, true) : view.getInt32(22, true);
  const bitsPerPixel = core ? view.getUint16(24, true) : view.getUint16(28, true);
  const compression = core ? 0 : view.getUint32(30, true);
  const pixelOffset = view.getUint32(10, true);
  if (width <= 0 || rawHeight === 0) throw imageError(input, `BMP declares an invalid size ${width} x ${rawHeight}`);
  let masks: BmpHeader["masks"] = null;
  if (compression === 3 || compression === 6) {
    const at = dibSize >= 52 ? 54 : 14 + dibSize; // masks sit in V2+ headers or right after a 40-byte header
    if (b.length < at + 12) throw imageError(input, "BMP bit masks are truncated");
    masks = [view.getUint32(at, true), view.getUint32(at + 4, true), view.getUint32(at + 8, true), dibSize >= 56 || compression === 6 ? view.getUint32(at + 12, true) : 0];
  }
  const palette: BmpHeader["palette"] = [];
  if (bitsPerPixel <= 8) {
    const entrySize = core ? 3 : 4;
    const declared = core ? 0 : view.getUint32(46, true);
    const count = declared || 1 << bitsPerPixel;
    const start = 14 + dibSize + (compression === 3 && dibSize === 40 ? 12 : 0);
    for (let i = 0; i < count && start + i * entrySize + 2 < b.length; i++) {
      const at = start + i * entrySize;
      palette.push([b[at + 2]!, b[at + 1]!, b[at]!]);
    }
  }
  return { width, height: Math.abs(rawHeight), topDown: rawHeight < 0, bitsPerPixel, compression, pixelOffset, palette, masks };
}

/** maskedChannel extracts one channel scaled to 0..255 from a pixel value and its bit mask. */
function maskedChannel(value: number, mask: number): number {
  if (!mask) return 255;
  const shift = 31 - Math.clz32(mask & -mask); // index of the lowest set bit
  const max = mask >>> shift;
  return Math.round((((value & mask) >>> shift) / max) * 255);
}

/** decodeBmp turns an uncompressed BMP into RGBA pixels (row 0 at the top). */
function decodeBmp(input: ConvertInput, header: BmpHeader): DecodableImage {
  const { width, height, bitsPerPixel: bpp, compression } = header;
  const supported = (compression === 0 && [1, 4, 8, 24, 32].includes(bpp)) || ((compression === 3 || compression === 6) && bpp === 32);
  if (!supported) {
    throw new AppError("unreadable_document", `${input.filename} is a BMP variant that is not supported (${bpp} bits per pixel, compression ${compression}); re-export it as PNG.`);
  }
  if (bpp <= 8 && header.palette.length === 0) throw imageError(input, "BMP palette is missing");
  const b = input.bytes;
  const rowSize = Math.ceil((width * bpp) / 32) * 4;
  if (header.pixelOffset + rowSize * height > b.length) throw imageError(input, `BMP pixel data is truncated (${b.length} bytes, ${header.pixelOffset + rowSize * height} needed)`);
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const out = new Uint8Array(width * height * 4);
  let sawAlpha = false;
  for (let y = 0; y < height; y++) {
    const row = header.pixelOffset + (header.topDown ? y : height - 1 - y) * rowSize;
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      let r: number, g: number, bl: number, a = 255;
      if (bpp <= 8) {
        const bit = x * bpp;
        const index = (b[row + (bit >> 3)]! >> (8 - bpp - (bit & 7))) & ((1 << bpp) - 1);
        [r, g, bl] = header.palette[index] ?? [0, 0, 0];
      } else if (bpp === 24) {
        const p = row + x * 3;
        [bl, g, r] = [b[p]!, b[p + 1]!, b[p + 2]!];
      } else if (header.masks) {
        const value = view.getUint32(row + x * 4, true);
        const [rm, gm, bm, am] = header.masks;
        [r, g, bl] = [maskedChannel(value, rm), maskedChannel(value, gm), maskedChannel(value, bm)];
        if (am) {
          a = maskedChannel(value, am);
          if (a !== 0) sawAlpha = true;
        }
      } else {
        const p = row + x * 4;
        [bl, g, r, a] = [b[p]!, b[p + 1]!, b[p + 2]!, b[p + 3]!];
        if (a !== 0) sawAlpha = true;
      }
      out[o] = r;
      out[o + 1] = g;
      out[o + 2] = bl;
      out[o + 3] = a;
    }
  }
  // Many 32-bit BMPs leave the fourth byte at 0 although they are opaque: then it is no alpha.
  if (bpp === 32 && !sawAlpha) for (let i = 3; i < out.length; i += 4) out[i] = 255;
  return { input: out, raw: { width, height, channels: 4 } };
}

// ---------------------------------------------------------------------------------------------
// HEIC


// ---------------------------------------------------------------------------------------------
// Metadata: EXIF, XMP, SVG text

/** ExifFacts are the EXIF fields shown to users. */
interface ExifFacts {
  dateTaken?: string;
  make?: string;
  model?: string;
}

/**
 * readExif reads Make, Model and the date taken (DateTimeOriginal, else DateTime) from an EXIF
 * block (TIFF structure, with or without the "Exif\0\0" prefix). Malformed data yields what was read.
 */
export function readExif(exif: Uint8Array): ExifFacts {
  const facts: ExifFacts = {};
  let base = 0;
  if (exif.length >= 6 && String.fromCharCode(...exif.subarray(0, 4)) === "Exif") base = 6;
  const view = new DataView(exif.buffer, exif.byteOffset, exif.byteLength);
  if (exif.length < base + 8) return facts;
  const little = exif[base] === 0x49; // "II" little endian, "MM" big endian
  const u16 = (at: number) => view.getUint16(base + at, little);
  const u32 = (at: number) => view.getUint32(base + at, little);
  const ascii = (entry: number): string => {
    const count = u32(entry + 4);
    const at = count <= 4 ? entry + 8 : u32(entry + 8);
    if (base + at + count > exif.length) return "";
    return new TextDecoder("latin1").decode(exif.subarray(base + at, base + at + count)).replace(/\0[\s\S]*$/, "").trim();
  };
  const readIfd = (offset: number, visit: (tag: number, entry: number) => void) => {
    if (base + offset + 2 > exif.length) return;
    const count = u16(offset);
    for (let i = 0; i < count && base + offset + 2 + i * 12 + 12 <= exif.length; i++) visit(u16(offset + 2 + i * 12), offset + 2 + i * 12);
  };
  try {
    let exifIfd = 0;
    let dateTime = "";
    readIfd(u32(4), (tag, entry) => {
      if (tag === 0x010f) facts.make = ascii(entry);
      else if (tag === 0x0110) facts.model = ascii(entry);
      else if (tag === 0x0132) dateTime = ascii(entry);
      else if (tag === 0x8769) exifIfd = u32(entry + 8);
    });
    if (exifIfd) readIfd(exifIfd, (tag, entry) => {
      if (tag === 0x9003) facts.dateTaken = ascii(entry);
    });
    facts.dateTaken ||= dateTime || undefined;
  } catch {
    // a truncated EXIF block: keep what was read
  }
  if (facts.dateTaken) facts.dateTaken = facts.dateTaken.replace(/^(\d{4}):(\d{2}):(\d{2})/, "$1-$2-$3");
  return facts;
}

/** decodeXmlEntities resolves the predefined XML entities and numeric references. */
function decodeXmlEntities(text: string): string {
  const named: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
  return text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, name: string) => {
    if (name[0] === "#") return String.fromCodePoint(name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : Number(name.slice(1)));
    return named[name] ?? whole;
  });
}

/** readXmp picks title, description and author out of an XMP packet (Dublin Core and PDF schema). */
export function readXmp(xmp: string): { title?: string; description?: string; author?: string } {
  const field = (name: string): string | undefined => {
    const element = new RegExp(`<${name}[^>]*>([\\s\\S]*?)</${name}>`).exec(xmp)?.[1];
    if (element === undefined) return undefined;
    const items = Array.from(element.matchAll(/<rdf:li[^>]*>([\s\S]*?)<\/rdf:li>/g), (m) => m[1]!);
    const text = (items.length ? items.join(", ") : element).replace(/<[^>]+>/g, "").trim();
    return text ? decodeXmlEntities(text) : undefined;
  };
  return { title: field("dc:title"), description: field("dc:description"), author: field("dc:creator") ?? field("pdf:Author") };
}

/** SVG_TEXT_ELEMENTS hold the human-readable text of an SVG. */
const SVG_TEXT_ELEMENTS = new Set(["title", "desc", "text"]);

/** svgText collects the text of <title>, <desc> and <text> elements (tspans included), one per line. */
export function svgText(svg: string): string[] {
  const found: string[] = [];
  let depth = 0;
  let current = "";
  const parser = new Parser(
    {
      onopentagname(name) {
        const local = name.toLowerCase().replace(/^.*:/, "");
        if (SVG_TEXT_ELEMENTS.has(local) || depth > 0) depth++;
      },
      ontext(text) {
        if (depth > 0) current += text;
      },
      onclosetag() {
        if (depth === 0) return;
        depth--;
        if (depth === 0) {
          const clean = decodeXmlEntities(current).replace(/\s+/g, " ").trim();
          if (clean && !found.includes(clean)) found.push(clean);
          current = "";
        } else current += " ";
      },
    },
    { xmlMode: true },
  );
  parser.write(svg);
  parser.end();
  return found;
}

// ---------------------------------------------------------------------------------------------
// Steps

/** readFacts reads the header with sharp without decoding pixels. */
async function readFacts(input: ConvertInput, source: Uint8Array): Promise<ImageFacts> {
  let meta: Metadata;
  try {
    meta = await sharp(source, { limitInputPixels: false }).metadata(); // header only: our own limit applies next
  } catch (cause) {
    throw imageError(input, "the image header could not be read", cause);
  }
  if (!meta.width || !meta.height) throw imageError(input, "the image declares no width or height");
  return {
    format: meta.format === "heif" ? (meta.compression === "av1" ? "avif" : "heic") : meta.format ?? "unknown",
    width: meta.width,
    height: meta.height,
    space: meta.space,
    channels: meta.channels,
    density: meta.density,
    pages: meta.pages ?? 1,
    exif: meta.exif,
    xmp: meta.xmpAsString,
  };
}

/** ocrScale is the factor that brings the image into tesseract's comfortable size range. */
function ocrScale(width: number, height: number): number {
  let scale = width < OCR_MIN_WIDTH ? Math.min(OCR_MAX_UPSCALE, OCR_MIN_WIDTH / width) : 1;
  const longest = Math.max(width, height) * scale;
  if (longest > OCR_MAX_SIDE) scale = OCR_MAX_SIDE / Math.max(width, height);
  return scale;
}

/** toDecodable gives sharp something it can decode: HEIC via heif-convert, BMP via decodeBmp, SVG at a useful density. */
async function toDecodable(input: ConvertInput, facts: ImageFacts, signal: AbortSignal): Promise<DecodableImage> {
  if (facts.format === "heic") return { input: await heifToPng(input.bytes, input.filename, HEIF_TIMEOUT_MS, signal) };
  if (facts.format === "svg") {
    // Render the vector image directly at the OCR size instead of upscaling a 72 dpi bitmap.
    const scale = ocrScale(facts.width, facts.height);
    return { input: input.bytes, svgDensity: Math.max(1, Math.round(72 * scale)) };
  }
  return { input: input.bytes };
}

/**
 * decodeUpright decodes the first frame to grey on white, oriented by EXIF; once per image, the
 * readings below (turned, evened) start from it. An SVG is rendered at its OCR size.
 * `limitInputPixels` stays as a second guard behind refuseOversize.
 */
async function decodeUpright(input: ConvertInput, image: DecodableImage, facts: ImageFacts, maxPixels: number): Promise<GreyImage> {
  const limitInputPixels = maxPixels > 0 ? Math.ceil(maxPixels * (image.svgDensity ? (image.svgDensity / 72) ** 2 : 1)) + 1 : false;
  return decoding(input, facts, async () => {
    const pipeline = sharp(image.input, { limitInputPixels, page: 0, pages: 1, density: image.svgDensity, raw: image.raw });
    const decoded = await pipeline.autoOrient().flatten({ background: "#ffffff" }).toColourspace("b-w").raw({ depth: "uchar" }).toBuffer({ resolveWithObject: true });
    return { data: new Uint8Array(decoded.data.buffer, decoded.data.byteOffset, decoded.data.length), width: decoded.info.width, height: decoded.info.height };
  });
}

/**
 * prepareForOcr prepares a decoded grey image for tesseract (ocrPrep.ts: text measured, rules
 * painted out, scaled so the letters reach tesseract's best size); images without measurable text
 * are scaled by ocrScale, and an SVG rendered at its OCR size is kept as it is.
 */
async function prepareForOcr(input: ConvertInput, grey: GreyImage, image: DecodableImage, facts: ImageFacts, maxPixels: number): Promise<PreparedScan> {
  // PGM carries no resolution: pass the file's own (sane ones only; JFIF often says 1 x 1), scaled
  const density = image.svgDensity ?? (facts.density && facts.density >= 50 && facts.density <= 1200 ? facts.density : undefined);
  return decoding(input, facts, () => prepareScan(grey, { density, fallbackScale: ocrScale(grey.width, grey.height), measure: !image.svgDensity, maxSide: OCR_MAX_SIDE, maxPixels }));
}

/** decoding runs `work` on the image's pixels; a failure other than the service's own errors is the image's data that could not be decoded */
async function decoding<T>(input: ConvertInput, facts: ImageFacts, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (cause) {
    if (cause instanceof AppError) throw cause;
    throw imageError(input, `the ${facts.format.toUpperCase()} image data could not be decoded`, cause);
  }
}

/** metadataFacts lists the facts of the metadata block. */
function metadataFacts(facts: ImageFacts): Array<[string, unknown]> {
  const exif = facts.exif ? readExif(facts.exif) : {};
  const xmp = facts.xmp ? readXmp(facts.xmp) : {};
  // Many cameras repeat the make in the model ("Canon" + "Canon EOS 5D"): show it once.
  const camera = exif.make && exif.model?.startsWith(exif.make) ? exif.model : [exif.make, exif.model].filter(Boolean).join(" ");
  return [
    ["Format", facts.format.toUpperCase()],
    ["Dimensions", `${facts.width} x ${facts.height} px`],
    ["Color space", [facts.space, facts.channels ? `${facts.channels} channel${facts.channels === 1 ? "" : "s"}` : ""].filter(Boolean).join(", ")],
    ["DPI", facts.density && facts.format !== "svg" ? Math.round(facts.density) : undefined],
    ["Date taken", exif.dateTaken],
    ["Camera", camera],
    ["Title", xmp.title],
    ["Description", xmp.description],
    ["Author", xmp.author],
    ["Pages/frames", facts.pages > 1 ? (facts.format === "tiff" ? `${facts.pages} (each read)` : `${facts.pages} (the first was read)`) : undefined],
  ];
}

/** ImageOptions: how convertImage writes what OCR read. */
export interface ImageOptions {
  /** scanLayout: lay out a page-like scan's words like a born-digital page (headings, tables; ocrLayout.ts); false writes tesseract's text as is (benchmarks compare both) */
  scanLayout: boolean;
}

/** makeConvertImage returns the image converter with these options; convertImage is the service's. */
export function makeConvertImage(options: ImageOptions): Converter {
  return (input, ctx) => convertImageWith(input, ctx, options);
}

/** convertImage OCRs an image (the first frame of an animation; every page of a multi-page TIFF) and adds its metadata. */
export const convertImage: Converter = makeConvertImage({ scanLayout: true });

async function convertImageWith(input: ConvertInput, ctx: ConvertContext, options: ImageOptions): Promise<Conversion> {
  const { signal, limits } = ctx;
  const warnings: string[] = [];

  // 1. header: size check before any pixel is decoded
  let facts: ImageFacts;
  let decodable: DecodableImage | null = null;
  if (isBmp(input.bytes)) {
    const header = readBmpHeader(input);
    refuseOversize(input, header.width, header.height, limits.maxPixels);
    decodable = decodeBmp(input, header);
    facts = { format: "bmp", width: header.width, height: header.height, space: "srgb", channels: header.bitsPerPixel === 32 ? 4 : 3, density: bmpDensity(input.bytes), pages: 1 };
  } else {
    facts = await readFacts(input, input.bytes);
    refuseOversize(input, facts.width, facts.height, limits.maxPixels);
  }
  signal.throwIfAborted();

  // a scan of several pages (a multi-page TIFF) is read page by page, as a scanned PDF is (scanPages.ts)
  if (facts.format === "tiff" && facts.pages > 1) return convertPages(input, facts, ctx, options);

  // 2. decode to something sharp can read
  decodable ??= await toDecodable(input, facts, signal);
  signal.throwIfAborted();

  // 3. OCR
  const upright = await decodeUpright(input, decodable, facts, limits.maxPixels);
  let prepared = await prepareForOcr(input, upright, decodable, facts, limits.maxPixels);
  signal.throwIfAborted();
  let ocr = await ctx.tools.ocr.recognize(prepared.image, signal, { segmentation: prepared.segmentation, dpi: prepared.dpi });
  signal.throwIfAborted();
  // text that runs sideways or upside down reads poorly: turned upright and read again (ocrOrientation.ts)
  const turn = await uprightTurn(ctx.tools.ocr, ocr, prepared.image, signal);
  let shown = upright;
  if (turn) {
    const turnedGrey = await turnGrey(upright, turn);
    const turned = await prepareForOcr(input, turnedGrey, decodable, facts, limits.maxPixels);
    const again = await ctx.tools.ocr.recognize(turned.image, signal, { segmentation: turned.segmentation, dpi: turned.dpi });
    signal.throwIfAborted();
    if (again.confidence > ocr.confidence) {
      [prepared, ocr, shown] = [turned, again, turnedGrey];
      warnings.push(turnWarning(turn));
    }
  }
  // a photo lit unevenly (a receipt on a table, half in the phone's shadow) is read again with its light evened (ocrLight.ts), kept when it reads more (evenedReadsMore)
  // (and a page's shaded table cells, ocrGround.ts: a page read as one, not a receipt's column, which is spared the cost of looking)
  const evenLit = decodable.svgDensity ? null : (evenedLight(shown) ?? (prepared.segmentation === "auto" ? evenedGround(shown) : null));
  const evened = evenLit ? await prepareForOcr(input, evenLit, decodable, facts, limits.maxPixels) : null;
  if (evened) {
    const again = await ctx.tools.ocr.recognize(evened.image, signal, { segmentation: evened.segmentation, dpi: evened.dpi });
    signal.throwIfAborted();
    if (evenedReadsMore(again, ocr)) [prepared, ocr] = [evened, again];
  }

  // 4. markdown
  const embedded = facts.format === "svg" ? svgText(new TextDecoder().decode(input.bytes)) : [];
  const ocrText = ocr.text.trim();
  // A page-like scan is laid out like a born-digital page (headings, tables); a receipt read as one column keeps tesseract's text.
  const laidOut = options.scanLayout && ocrLaysOut(prepared.segmentation, ocr) && ocrText ? ocrLayoutMarkdown(ocr, 72 / (prepared.dpi ?? ASSUMED_DPI), 1, prepared.rules, fromPgm(prepared.image)) : null;
  if (!ocrText && embedded.length === 0) warnings.push("no text found in the image");
  if (facts.pages > 1) warnings.push(`only the first of ${facts.pages} frames was read`);
  const xmpTitle = facts.xmp ? readXmp(facts.xmp).title : undefined;
  const title = xmpTitle ?? (input.filename || null);
  const markdown = tidyMarkdown(
    joinBlocks([
      textHeading(1, input.filename || "image"),
      embedded.length ? joinBlocks([heading(2, "Text in the SVG"), embedded.join("\n\n"), ocrText ? heading(2, "OCR of the rendered SVG") : ""]) : "",
      // a page's words broken at line ends are joined as a reader reads them; a receipt's column (block) is left as read
      laidOut ?? (prepared.segmentation === "auto" ? joinLineEndHyphens(ocrText) : ocrText),
      heading(2, "Image metadata"),
      metadataBlock(metadataFacts(facts)),
    ]),
  );
  const page: PageReport = ocrText ? { page: 1, method: "ocr", ocrQuality: ocr.confidence, chars: ocrText.length } : { page: 1, method: "empty", chars: 0 };
  return { markdown, title, totalPages: facts.pages > 1 ? facts.pages : 0, method: embedded.length ? "text+ocr" : "ocr", warnings, pages: [page] };
}

/**
 * convertPages reads every page of a multi-page TIFF: the pages, written into an image-only PDF, go
 * through the scanned-PDF path (each OCRed and laid out, running heads and page numbers dropped by
 * their repetition), under the file's name and with its metadata.
 */
async function convertPages(input: ConvertInput, facts: ImageFacts, ctx: ConvertContext, options: ImageOptions): Promise<Conversion> {
  const pdf = await scanPagesPdf(input, facts.pages, facts.density, ctx);
  const read = await makeConvertPdf({ outline: false, scanLayout: options.scanLayout })({ bytes: pdf, filename: input.filename, contentType: "application/pdf", ext: "pdf" }, ctx);
  const xmpTitle = facts.xmp ? readXmp(facts.xmp).title : undefined;
  const markdown = tidyMarkdown(joinBlocks([textHeading(1, input.filename || "image"), read.markdown, heading(2, "Image metadata"), metadataBlock(metadataFacts(facts))]));
  return { markdown, title: xmpTitle ?? (input.filename || null), totalPages: facts.pages, method: "ocr", warnings: read.warnings, pages: read.pages };
}

/** bmpDensity reads the horizontal resolution of a BMP (pixels per metre) as DPI; undefined when absent. */
function bmpDensity(bytes: Uint8Array): number | undefined {
  if (bytes.length < 42 || new DataView(bytes.buffer, bytes.byteOffset).getUint32(14, true) < 40) return undefined;
  const perMetre = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getInt32(38, true);
  return perMetre > 0 ? Math.round(perMetre * 0.0254) : undefined;
}
