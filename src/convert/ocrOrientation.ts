/**
 * Pages stored turned. A photo or scan whose text runs sideways or upside down (a receipt
 * photographed across, a page fed into the scanner the wrong way, with no EXIF rotation to honour)
 * reads as noise: a receipt turned a quarter reads at a mean word confidence of 0.33, where the 100
 * upright SROIE receipts read 0.49 to 0.95. Such a poor reading, and only such, asks tesseract which
 * way the text runs (its orientation detection, about half a second); when it is sure of a turn the
 * image is turned and read again, and the caller keeps the turned reading only when tesseract is
 * surer of its words. An upright page that reads well pays nothing.
 */
import sharp from "sharp";
import type { OcrEngine, OcrResult } from "../tools/types";
import type { GreyImage } from "./ocrPrep";

/** POOR_READING: a mean word confidence below which the text may run sideways (see the module's comment) */
export const POOR_READING = 0.5;
/** SURE_TURN: tesseract's orientation confidence from which its turn is taken (the sideways receipt: 8.1; a clear reading is above 2) */
export const SURE_TURN = 2;

/** Turn: a clockwise turn in degrees that makes a page's text upright. */
export type Turn = 90 | 180 | 270;

/**
 * uprightTurn is the turn that makes a poorly read image's text upright, when tesseract is sure of
 * one; null for a reading that is not poor, an upright image, an unsure detector, or an engine that
 * cannot tell. `image` is what was read (PGM or PNG bytes).
 */
export async function uprightTurn(ocr: OcrEngine, reading: OcrResult, image: Uint8Array, signal: AbortSignal): Promise<Turn | null> {
  if (!ocr.orientation || reading.confidence >= POOR_READING) return null;
  const found = await ocr.orientation(image, signal);
  return found && found.rotate !== 0 && found.confidence >= SURE_TURN ? found.rotate : null;
}

/** turnGrey turns a grey image clockwise by `turn` degrees. */
export async function turnGrey(image: GreyImage, turn: Turn): Promise<GreyImage> {
  const out = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 1 } }).rotate(turn).toColourspace("b-w").raw({ depth: "uchar" }).toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(out.data.buffer, out.data.byteOffset, out.data.length), width: out.info.width, height: out.info.height };
}

/** turnWarning tells the caller that a page was read turned. */
export function turnWarning(turn: Turn): string {
  return `the text ran ${turn === 180 ? "upside down" : "sideways"}: it was read turned ${turn}° clockwise`;
}
