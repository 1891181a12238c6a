/**
 * ocrLight evens the light of a photographed page before OCR.
 *
 * A receipt photographed on a table is lit unevenly: its top in the light, its foot in the
 * shadow of the phone, the table beside it darker than the paper but lighter than the ink. One
 * threshold for the whole image (tesseract's Otsu) cannot hold all three: the shaded half of the
 * paper falls on the ink side with the table, and its print is read as noise or not at all (a
 * Spanish restaurant receipt on a wooden table read `Sea Tele: 914 ...`, `Se RSS cee aye se`, no
 * name and no total).
 *
 * The paper's own brightness is estimated at each place (the brightest grey near it, on a coarse
 * grid, with the ink closed over and the result smoothed) and each pixel divided by it: paper is
 * white wherever it lies, print keeps its contrast with the paper round it. A scanner lights a page
 * evenly, so scans are left as they are (LIGHT_EVEN, MIN_TABLE); the caller reads the evened image as a
 * second reading and keeps the surer of the two, as it does for a page turned upright.
 *
 * Cost: one pass over the image for the grid, a few over the grid (a 1/CELL of each side), one
 * pass to divide.
 */
import type { OcrResult } from "../tools/types";
import { type GreyImage, slideExtreme } from "./greyImage";

/** CELL: the side (px) of the grid's squares over which the paper's brightness is taken; a letter at OCR size is 10-60 px, a shadow's edge hundreds */
const CELL = 8;
/** REACH: how many squares the closing reaches each way: ink up to 2 x REACH x CELL px wide (a bold headline, a logo's block) is closed over by the paper round it */
const REACH = 3;
/** SMOOTH: the squares each way of the mean taken after the closing, so the estimate has no steps */
const SMOOTH = 2;
/**
 * LIGHT_EVEN: the paper counts as evenly lit when the darker tenth of its estimate is at least this
 * share of its lighter tenth. A flatbed scan's paper varies a few percent; a photo's paper in the
 * phone's shadow is a third darker than in the light (135 against 200 on the restaurant receipt),
 * and a table beside the receipt darker still.
 */
const LIGHT_EVEN = 0.85;
/**
 * MIN_TABLE: what lies round the paper is painted out when it covers at least this share of the
 * image (a receipt photographed on a table: 0.4-0.8); a scan's dark corner or a shadow along its
 * edge (0.1-1.5 % on the SROIE scans) is no table and is not worth a second reading.
 */
const MIN_TABLE = 0.05;
/** MIN_SIDE: an image narrower than this many squares has no room for a shadow to be told from a page's print (an icon, a cropped word) */
const MIN_SIDE = 16;

/**
 * evenedLight returns the grey image with its paper's light evened (each pixel divided by the
 * paper's brightness round it) and what lies round the paper painted white, or null when the image
 * is evenly lit with no table round it (LIGHT_EVEN, MIN_TABLE), holds no print, or is too small to
 * tell.
 */
export function evenedLight(image: GreyImage): GreyImage | null {
  const { data, width: W, height: H } = image;
  const w = Math.ceil(W / CELL);
  const h = Math.ceil(H / CELL);
  if (w < MIN_SIDE || h < MIN_SIDE) return null;
  // the brightest and darkest grey of each square: paper wherever a square holds any, and its print
  const brightest = new Uint8Array(w * h);
  const darkest = new Uint8Array(w * h).fill(255);
  for (let y = 0; y < H; y++) {
    const row = Math.floor(y / CELL) * w;
    for (let cx = 0, i = y * W; cx < w; cx++) {
      let high = brightest[row + cx]!;
      let low = darkest[row + cx]!;
      for (const end = Math.min((y + 1) * W, i + CELL); i < end; i++) {
        const v = data[i]!;
        if (v > high) high = v;
        if (v < low) low = v;
      }
      brightest[row + cx] = high;
      darkest[row + cx] = low;
    }
  }
  // closing (max then min) takes squares wholly inside dark print up to their paper's level without raising the paper
  const closed = slideExtreme(slideExtreme(brightest, w, h, REACH, true), w, h, REACH, false);
  const paper = paperSquares(closed, brightest, darkest, w, h);
  if (!paper) return null;
  const level = meanOver(closed, paper, w, h, SMOOTH);
  const levels = level.filter((_, k) => paper[k]).sort();
  const dark = levels[Math.floor(0.1 * levels.length)]!;
  const light = levels[Math.floor(0.9 * levels.length)]!;
  let outside = 0;
  for (let k = 0; k < paper.length; k++) outside += 1 - paper[k]!;
  const cropped = outside >= MIN_TABLE * paper.length;
  if (light <= 0 || (!cropped && dark >= LIGHT_EVEN * light)) return null;
  const out = new Uint8Array(W * H).fill(255);
  for (let y = 0; y < H; y++) {
    const row = Math.floor(y / CELL) * w;
    for (let cx = 0, x = 0; cx < w; cx++, x += CELL) {
      if (!paper[row + cx]) continue;
      const scale = 255 / Math.max(1, level[row + cx]!);
      for (let i = y * W + x, end = y * W + Math.min(W, x + CELL); i < end; i++) out[i] = Math.min(255, Math.round(data[i]! * scale));
    }
  }
  return { data: out, width: W, height: H };
}

/** STEP: neighbouring squares are one sheet of paper when their light differs by at most this share: a shadow darkens paper by a percent or two a square, a table's edge beside a receipt by a fifth at once */
const STEP = 0.06;
/** INK_CONTRAST: a square holds print when its darkest grey is this much under its brightest (a wooden table's grain: 30-60) */
const INK_CONTRAST = 90;
/**
 * GRAIN: a square whose darkest grey is this much under its brightest, but less than print, is
 * grain: a wooden table under a receipt photographed at 1200 px measures 20-50 in 97 % of its
 * squares, the paper beside it under 20 in 80 % (the rest is print and its edges, which the paper
 * encloses).
 */
const GRAIN = 20;
/** MIN_PAPER: the paper found must cover this share of the image, or the image is read as it is */
const MIN_PAPER = 0.05;

/**
 * paperSquares marks the squares of the sheet the print is on: the squares joined by small steps of
 * light (STEP), grain joining none (GRAIN), form regions; the region holding the most squares of print (INK_CONTRAST) is the
 * paper (white padding round a photo holds none; a table holds its grain), with what it encloses (a
 * black logo). Null when that paper is under MIN_PAPER of the image or holds no print.
 */
function paperSquares(closed: Uint8Array, brightest: Uint8Array, darkest: Uint8Array, w: number, h: number): Uint8Array | null {
  const region = new Int32Array(w * h).fill(-1);
  const inked: number[] = [];
  const stack: number[] = [];
  // a square of grain (a table's wood, cloth) joins nothing: paper is quiet between its print
  const grained = (k: number) => brightest[k]! - darkest[k]! >= GRAIN && brightest[k]! - darkest[k]! < INK_CONTRAST;
  const joined = (a: number, b: number) => !grained(a) && !grained(b) && Math.abs(closed[a]! - closed[b]!) <= STEP * Math.max(closed[a]!, closed[b]!, 1);
  for (let start = 0; start < w * h; start++) {
    if (region[start]! >= 0) continue;
    const id = inked.length;
    let ink = 0;
    region[start] = id;
    stack.push(start);
    while (stack.length) {
      const k = stack.pop()!;
      if (brightest[k]! - darkest[k]! >= INK_CONTRAST) ink++;
      forNeighbours(k, w, h, (n) => {
        if (region[n]! < 0 && joined(k, n)) {
          region[n] = id;
          stack.push(n);
        }
      });
    }
    inked.push(ink);
  }
  let best = 0;
  for (let id = 1; id < inked.length; id++) if (inked[id]! > inked[best]!) best = id;
  if (inked[best]! === 0) return null;
  // the paper and what it encloses: every square the image's edge cannot reach without crossing it
  const outside = new Uint8Array(w * h);
  for (let k = 0; k < w * h; k++) {
    const x = k % w;
    const y = (k - x) / w;
    if ((x === 0 || y === 0 || x === w - 1 || y === h - 1) && region[k] !== best) {
      outside[k] = 1;
      stack.push(k);
    }
  }
  while (stack.length) {
    const k = stack.pop()!;
    forNeighbours(k, w, h, (n) => {
      if (!outside[n] && region[n] !== best) {
        outside[n] = 1;
        stack.push(n);
      }
    });
  }
  const paper = new Uint8Array(w * h);
  let count = 0;
  for (let k = 0; k < w * h; k++) if (!outside[k]) (paper[k] = 1), count++;
  return count >= MIN_PAPER * w * h ? paper : null;
}

/** forNeighbours calls `visit` with each of square k's four neighbours inside the grid. */
function forNeighbours(k: number, w: number, h: number, visit: (n: number) => void): void {
  const x = k % w;
  if (x > 0) visit(k - 1);
  if (x < w - 1) visit(k + 1);
  if (k >= w) visit(k - w);
  if (k + w < w * h) visit(k + w);
}

/** meanOver is the mean over a window of `reach` squares each way of the squares marked in `mask` (rows then columns), so the light of a table beside the paper does not darken the paper's edge. */
function meanOver(grid: Uint8Array, mask: Uint8Array, w: number, h: number, reach: number): Float32Array {
  const sums = new Float32Array(w * h);
  const counts = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      for (let d = Math.max(0, x - reach); d <= Math.min(w - 1, x + reach); d++) {
        if (mask[y * w + d]) {
          sums[y * w + x]! += grid[y * w + d]!;
          counts[y * w + x]!++;
        }
      }
    }
  }
  const out = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let sum = 0;
      let n = 0;
      for (let d = Math.max(0, y - reach); d <= Math.min(h - 1, y + reach); d++) {
        sum += sums[d * w + x]!;
        n += counts[d * w + x]!;
      }
      out[y * w + x] = n ? sum / n : grid[y * w + x]!;
    }
  }
  return out;
}

/** SURE_WORD: a word read at this confidence or more counts as read (tesseract's noise on a table's grain reads 0.2-0.6) */
const SURE_WORD = 0.8;
/** MORE_WORDS: an evened reading is kept when it reads this share more sure words than the first */
const MORE_WORDS = 1.05;

/** sureWords counts a reading's words with a letter or a digit read at SURE_WORD or more. */
const sureWords = (ocr: OcrResult) => ocr.words?.filter((word) => word.confidence >= SURE_WORD && /[\p{L}\p{N}]/u.test(word.text)).length ?? 0;

/**
 * evenedReadsMore: the reading of an evened image (its light here, its shaded ground in ocrGround.ts)
 * is kept when it reads MORE_WORDS more words surely. Not the surer mean: evened, a shaded receipt's
 * foot is read too, a little less surely than its lit top, and lowers the mean (0.842 -> 0.783 on a
 * receipt photographed half in shadow, for its total and closing lines read); discoveryworld's table of
 * shaded cells reads 466 sure words against 404 (a page without shading reads the same words either way).
 */
export function evenedReadsMore(evened: OcrResult, first: OcrResult): boolean {
  const [mine, theirs] = [sureWords(evened), sureWords(first)];
  return mine > theirs && mine >= MORE_WORDS * theirs;
}
