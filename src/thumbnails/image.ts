/**
 * fitJpeg is the last step of every handler: a picture in (any format sharp reads), a JPEG out that
 * fits inside width x height with its aspect ratio kept and never enlarged. The pixel cap is checked
 * on the dimensions sharp reads from the header, before anything is decoded, so a 50000x50000 PNG
 * of a few kilobytes (a decompression bomb) is refused without allocating its pixels.
 */
import sharp, { type Metadata } from "sharp";
import { AppError } from "../errors";

export interface FitOptions {
  /** width, height: the box the thumbnail must fit inside, in pixels */
  width: number;
  height: number;
  /** quality: JPEG quality from 1 to 100 */
  quality: number;
  /** maxPixels: largest source image (width x height) that is decoded; larger: 413 document_too_large */
  maxPixels: number;
}

export interface Thumbnail {
  jpeg: Uint8Array;
  width: number;
  height: number;
}

/** fitJpeg resizes `picture` into the box as JPEG; `name` names the input in errors. */
export async function fitJpeg(picture: Uint8Array, opts: FitOptions, name: string): Promise<Thumbnail> {
  const { width, height } = await headerOf(picture, name);
  assertPixels(width, height, opts.maxPixels, name);
  try {
    const { data, info } = await sharp(picture, { limitInputPixels: opts.maxPixels, failOn: "error", pages: 1, animated: false })
      .rotate() // apply EXIF orientation, so the box applies to the picture as it is seen
      .resize({ width: opts.width, height: opts.height, fit: "inside", withoutEnlargement: true })
      .flatten({ background: "#ffffff" }) // JPEG has no alpha: transparent areas become white, not black
      .jpeg({ quality: opts.quality })
      .toBuffer({ resolveWithObject: true });
    return { jpeg: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
  } catch (cause) {
    throw new AppError("unreadable_document", `${name}: the image could not be decoded (corrupt, truncated or not an image); re-export it as PNG or JPEG`, { cause });
  }
}

/** headerOf reads the picture's dimensions from its header without decoding pixels. */
async function headerOf(picture: Uint8Array, name: string): Promise<{ width: number; height: number }> {
  let meta: Metadata;
  try {
    meta = await sharp(picture, { limitInputPixels: false }).metadata();
  } catch (cause) {
    throw new AppError("unreadable_document", `${name}: not a readable image (the header is corrupt or the format is unknown)`, { cause });
  }
  if (!meta.width || !meta.height) throw new AppError("unreadable_document", `${name}: the image header states no dimensions`);
  // For multi-page images sharp reports the height of all pages stacked; one page is drawn.
  const pageHeight = meta.pageHeight ?? Math.ceil(meta.height / (meta.pages ?? 1));
  return { width: meta.width, height: pageHeight };
}

/** assertPixels refuses a picture over the pixel cap with 413 document_too_large. */
export function assertPixels(width: number, height: number, maxPixels: number, name: string): void {
  if (width * height > maxPixels) {
    throw new AppError(
      "document_too_large",
      `${name}: the image is ${width}x${height} pixels (${Math.round((width * height) / 1e6)} megapixels), more than the server's limit of ${Math.round(maxPixels / 1e6)} megapixels (--max-megapixels)`,
    );
  }
}
