/**
 * ocrSkew straightens a page photographed or scanned askew before OCR.
 *
 * Tesseract finds lines of text well when they run level; a receipt photographed by hand or a page
 * fed crooked through a scanner runs a few degrees off, and its lines are cut into pieces: a SROIE
 * receipt turned 6 degrees read 0.533 of its words for 0.667 level, turned 10 degrees 0.387, and
 * another none at all.
 *
 * The skew is the angle at which the page's ink, projected across, piles into the sharpest rows
 * (lines of text and the gaps between them): the ink's points are projected at each angle within
 * MAX_SKEW, coarsely then finely, and the angle whose row counts have the largest sum of squares
 * wins. A skew counts only when that angle is at least MIN_SKEW and the rows it gives are clearly
 * sharper than level's (CLEARER): a photo of a scene, a chart or a page of scattered marks has no
 * such angle and is left as it is. The page is turned when the skew moves its lines' ends apart by
 * two letters' height or more (DRIFT; ocrPrep.ts measures both).
 *
 * Cost: one pass over a sample of the image (at most SAMPLE_SIDE on its longer side) for the ink's
 * points, then one pass over at most MAX_POINTS points for each of about 60 angles.
 */
import sharp from "sharp";
import { type GreyImage, otsuThreshold } from "./greyImage";

/** MAX_SKEW: the largest skew looked for, in degrees either way (a hand-held photo; more is a page turned, which ocrOrientation.ts reads) */
const MAX_SKEW = 15;
/** COARSE_STEP, FINE_STEP: the angles tried, in degrees: every COARSE_STEP, then every FINE_STEP round the best */
const COARSE_STEP = 0.5;
const FINE_STEP = 0.1;
/** MIN_SKEW: a skew under this many degrees is left to tesseract, which reads a page a degree off as well as a level one */
const MIN_SKEW = 0.8;
/** CLEARER: the skew's rows must be this much sharper (sum of squared row counts) than level's; text lines askew by 1 degree give 1.3-3 on a receipt */
const CLEARER = 1.15;
/** SAMPLE_SIDE: the ink is sampled on a grid that puts at most this many points along the image's longer side */
const SAMPLE_SIDE = 1200;
/** MAX_POINTS: at most this many ink points are projected (every k-th beyond it) */
const MAX_POINTS = 150_000;
/** MIN_POINTS: fewer ink points than this are no page of text */
const MIN_POINTS = 200;

/**
 * skewOf returns the page's clockwise skew in degrees (turning the image by its negative levels it),
 * or 0 when the page is level, has too little ink, or has no clear skew.
 */
export function skewOf(image: GreyImage): number {
  const { data, width: W, height: H } = image;
  const step = Math.max(1, Math.ceil(Math.max(W, H) / SAMPLE_SIDE));
  const threshold = otsuThreshold(image);
  const xs: number[] = [];
  const ys: number[] = [];
  for (let y = 0; y < H; y += step) {
    for (let x = 0; x < W; x += step) {
      if (data[y * W + x]! <= threshold) {
        xs.push(x / step);
        ys.push(y / step);
      }
    }
  }
  // mostly dark: a negative, a night photo, or the threshold fell in the paper; no rows to find
  if (xs.length < MIN_POINTS || xs.length > 0.5 * (W / step) * (H / step)) return 0;
  const every = Math.max(1, Math.ceil(xs.length / MAX_POINTS));
  const points = { xs: xs.filter((_, i) => i % every === 0), ys: ys.filter((_, i) => i % every === 0) };
  const rows = Math.ceil(Math.hypot(W, H) / step) * 2 + 2;
  const counts = new Float64Array(rows);
  const sharpness = (degrees: number) => {
    const radians = (degrees * Math.PI) / 180;
    const [cos, sin] = [Math.cos(radians), Math.sin(radians)];
    counts.fill(0);
    for (let i = 0; i < points.xs.length; i++) counts[Math.floor(points.ys[i]! * cos - points.xs[i]! * sin) + (rows >> 1)]!++;
    let sum = 0;
    for (let r = 0; r < rows; r++) sum += counts[r]! * counts[r]!;
    return sum;
  };
  let best = 0;
  let bestScore = sharpness(0);
  const level = bestScore;
  const tryAngle = (degrees: number) => {
    const score = sharpness(degrees);
    if (score > bestScore) [best, bestScore] = [degrees, score];
  };
  for (let degrees = -MAX_SKEW; degrees <= MAX_SKEW; degrees += COARSE_STEP) tryAngle(degrees);
  const coarse = best;
  for (let degrees = coarse - COARSE_STEP; degrees <= coarse + COARSE_STEP; degrees += FINE_STEP) tryAngle(Math.round(degrees * 10) / 10);
  return Math.abs(best) >= MIN_SKEW && bestScore >= CLEARER * level ? best : 0;
}

/**
 * levelled returns the image turned by -skew degrees (its skew undone, corners filled with white)
 * and cut back to its own size round its centre, so that a scanned PDF page's words keep the page's
 * frame; the page askew filled its frame, so level it fits in it.
 */
export async function levelled(image: GreyImage, skew: number): Promise<GreyImage> {
  const { width: W, height: H } = image;
  const turned = await sharp(image.data, { raw: { width: W, height: H, channels: 1 } })
    .rotate(-skew, { background: { r: 255, g: 255, b: 255 } })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { data, info } = await sharp(turned.data, { raw: { width: turned.info.width, height: turned.info.height, channels: turned.info.channels } })
    .extract({ left: Math.max(0, Math.floor((turned.info.width - W) / 2)), top: Math.max(0, Math.floor((turned.info.height - H) / 2)), width: W, height: H })
    .toColourspace("b-w")
    .raw({ depth: "uchar" })
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
}

/**
 * DRIFT: a page is turned level when its skew moves a line's far end this many letter heights off
 * its near end across the width of its text. Less, and tesseract reads the line whole, and turning
 * the page costs its thin print a resampling: of nine SROIE receipts 0.8-2.2 degrees off (drifting
 * 0.4-1.6 letters), turned level, four read better and five worse (-0.12 to +0.09 of their words;
 * the four drifting 1.2-1.6 letters: -0.085 together). A receipt turned 3 degrees (2 letters) reads
 * within a few hundredths of level; 6 degrees (4 letters) 0.06-0.13 less, 10 degrees up to all
 * of it. A table page at 150 dpi (text 1100 px wide, letters 14 px) drifts 2 letters at 1.5 degrees,
 * and its rows fall into each other: a census table turned 3 degrees kept 76 of its 247 cells (215
 * level).
 */
export const DRIFT = 2;

/** driftsOff: a line of text `width` px wide, askew by `skew` degrees, drifts DRIFT letter heights or more across it */
export function driftsOff(skew: number, width: number, letterHeight: number): boolean {
  return skew !== 0 && width * Math.tan((Math.abs(skew) * Math.PI) / 180) >= DRIFT * letterHeight;
}
