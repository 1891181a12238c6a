/**
 * ocrGround evens a page's shaded ground before OCR: a table whose cells are filled in greys (a heat map
 * of scores, a banded header) keeps its figures black on a grey that one threshold for the whole page
 * (tesseract's Otsu) takes for ink, so the figures in the darker cells are read as noise or not at all.
 *
 * The ground under each pixel is estimated by a closing (the brightest grey within REACH px, then the
 * darkest of those within REACH px): strokes thinner than the window are closed over by the ground round
 * them, and a cell's edge stays where it is. Each pixel on a grey ground is divided by it: the cell's
 * ground turns white and its figures keep their contrast with it. Paper, and ink too wide to close over
 * (under INK_GROUND), are left as they are.
 *
 * Cost: four passes of a sliding maximum or minimum (each linear in the pixels, whatever REACH), one to divide.
 */
import { type GreyImage, slideExtreme } from "./greyImage";

/** REACH: half the closing's window (px); a text stroke at OCR size is 1-4 px wide, a table cell's ground 12 px tall and more */
const REACH = 4;
/** PAPER: a ground this light or lighter is paper, left as it is */
const PAPER = 215;
/** INK_GROUND: a ground this dark or darker is ink too wide to close over (a bold block, a logo), left as it is */
const INK_GROUND = 64;
/**
 * MIN_SHADED: the share of the page on a shaded ground (between INK_GROUND and PAPER) for a second
 * reading to be worth it: a table of shaded cells covers several percent of its page (discoveryworld's
 * heat map 0.068); a receipt's grey smudges and a scan's dark edges 0.01 or so (SROIE's 052.jpg 0.0100,
 * whose evened reading lost its merchant's name).
 */
const MIN_SHADED = 0.03;
/**
 * MAX_SHADED: a page more than this share on a grey ground is grey paper (a thermal receipt: 0.44-0.75 of
 * SROIE's receipts that are not white), which one threshold reads well, not shaded cells: no second reading.
 */
const MAX_SHADED = 0.35;

/**
 * evenedGround returns the image with its shaded ground divided away, or null when less than MIN_SHADED
 * of it, or more than MAX_SHADED, lies on a shaded ground.
 */
export function evenedGround(image: GreyImage): GreyImage | null {
  const { data, width: W, height: H } = image;
  if (W < 2 * REACH + 1 || H < 2 * REACH + 1) return null;
  if (groundBound(image) < MIN_SHADED * data.length) return null;
  const ground = slideExtreme(slideExtreme(data, W, H, REACH, true), W, H, REACH, false);
  let shaded = 0;
  for (let i = 0; i < ground.length; i++) if (ground[i]! > INK_GROUND && ground[i]! < PAPER) shaded++;
  if (shaded < MIN_SHADED * ground.length || shaded > MAX_SHADED * ground.length) return null;
  const out = new Uint8Array(data.length);
  for (let i = 0; i < data.length; i++) {
    const g = ground[i]!;
    out[i] = g > INK_GROUND && g < PAPER ? Math.min(255, Math.round((data[i]! * 255) / g)) : data[i]!;
  }
  return { data: out, width: W, height: H };
}

/**
 * groundBound: at least as many pixels as the closing puts on a ground under PAPER, counted in one pass
 * along the rows with no window, so that a page of text, whose closing is paper all over, is let go for
 * a fraction of the closing's cost. The closing is never darker than the page, and a pixel's ground is
 * under PAPER only when some square of side 2 REACH + 1 round it (clipped at the image's edges) holds no
 * pixel of PAPER or lighter; that square's row and column through the pixel are runs of such dark
 * pixels, 2 REACH + 1 long or cut by an edge. So every pixel the closing shades lies in such a run
 * along its row and along its column, and those are what is counted.
 */
export function groundBound(image: GreyImage): number {
  const { data, width: W, height: H } = image;
  const side = 2 * REACH + 1;
  const inRow = new Uint8Array(W); // this row's pixels in a long dark run along the row
  const runFrom = new Int32Array(W).fill(-1); // the row each column's dark run started on
  const inRuns = new Int32Array(W); // of each column's dark run, its pixels in a long run along their row
  let count = 0;
  for (let y = 0; y < H; y++) {
    const row = y * W;
    inRow.fill(0);
    for (let x = 0, from = -1; x <= W; x++) {
      const dark = x < W && data[row + x]! < PAPER;
      if (dark) {
        if (from < 0) from = x;
        continue;
      }
      if (from >= 0 && (x - from >= side || from === 0 || x === W)) inRow.fill(1, from, x);
      from = -1;
    }
    for (let x = 0; x < W; x++) {
      if (data[row + x]! < PAPER) {
        if (runFrom[x]! < 0) {
          runFrom[x] = y;
          inRuns[x] = 0;
        }
        inRuns[x] = inRuns[x]! + inRow[x]!;
      } else if (runFrom[x]! >= 0) {
        if (y - runFrom[x]! >= side || runFrom[x] === 0) count += inRuns[x]!;
        runFrom[x] = -1;
      }
    }
  }
  for (let x = 0; x < W; x++) if (runFrom[x]! >= 0) count += inRuns[x]!; // runs cut by the foot
  return count;
}
