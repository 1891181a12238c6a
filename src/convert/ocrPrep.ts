/**
 * OCR preparation for scans and photos (receipts, photocopies at 70-150 dpi, thermal paper): the
 * text is measured on the image itself, then the image is scaled so its letters reach the size
 * tesseract reads best, and the page segmentation is chosen from the shape of the text.
 *
 * Measuring: a global (Otsu) threshold, then the connected components of the dark pixels; the
 * letter-shaped ones (not specks, rules, barcodes or pictures) give the median glyph height and
 * the box around the text; large sparse ones are counted as grids (ruled tables, frames). This costs one pass over the pixels (tens of ms on a receipt), far less
 * than a first tesseract pass would.
 *
 * Why these choices (word recall on the first 30 SROIE receipts, plain `tesseract IMG stdout` 0.725;
 * the whole set is in bench/ocr-sroie.ts): a median glyph height of 16 px read best (13 px 0.744,
 * 16 px 0.759, 20 px 0.755, 24 px 0.747, 32 px 0.727, 40 px 0.717), and scaling large scans down
 * to it also saves tesseract time; reading a narrow text column as one block (--psm 6, 0.747) beat
 * --psm 4 (0.744) and automatic layout (--psm 3, 0.740); tesseract's Sauvola threshold lost (0.697)
 * and a contrast stretch changed nothing, so tesseract gets the grey image and thresholds it itself.
 *
 * Rules: a receipt's dashed (`-------`) and solid separators touch the lines above and below, and
 * tesseract then reads a rule and a line of text as one garbled line ("RM 15.00" read "Tea"). The
 * flat components chained along one height are painted in the paper's grey: on all 100 SROIE
 * receipts recall went from 0.775 to 0.788 (plain tesseract 0.733), on the first 30 from 0.756 to
 * 0.767. Tried and not kept: tessdata's larger integer model (npm @tesseract.js-data/eng,
 * 4.0.0_best_int) 0.753 vs 0.756 on the first 30 and a third slower; a Gaussian blur (sigma 0.8)
 * of enlarged text +0.018 on the 100, but it turned the name or the total of both receipts in
 * test/image-receipts.test.ts wrong (see Smoothing below); a Mitchell kernel for scaling 0.786 on the 100; no
 * dictionary, --psm 4 for narrow columns: no change.
 *
 * Smoothing, tried 2026-11-27 and not kept: a Gaussian blur after scaling raises word recall but
 * turns digits of the fields that matter. Blurring enlarged scans by half a source pixel: all 100
 * SROIE receipts 0.788 -> 0.800 (also scans read as is, max(0.6, 0.5 x scale) px: 0.804), misread
 * letters 0.053 -> 0.048 and digits 0.044 -> 0.039 of the words; yet bench/extract-real.ts on the
 * first 20 receipts fell from 0.850 to 0.783 field accuracy with one confident-wrong value (a date
 * `25/12/2018` read `26/12/2018`, a total lost, a date and a name misread), all on enlarged scans.
 * First 40 receipts (0.763 without): 0.8 px on enlarged scans 0.777, 1.0 px 0.779, 0.6 px on all
 * 0.778. Also tried: a 20 or 24 px glyph target with smoothing 0.775, 0.776; a 2 px minimum filter
 * (thicker strokes) 0.747; leptonica's adaptive Otsu in tesseract (thresholding_method=1) 0.635; a
 * background division (flat-field) left block shading on receipts; load_system_dawg=0
 * load_freq_dawg=0 changed no count (the installed eng model is tessdata_fast's LSTM, with no legacy
 * model for --oem 0/2).
 *
 * Second pass, tried 2026-11-27 and not kept (bench/README.md, ocr-sroie): lines whose lowest word
 * confidence is low, cropped, stacked into one image and read again, the more confident reading
 * kept per line. On the 50 even-numbered SROIE receipts (0.797): re-reading 54-74% of lines at the
 * same scale gave 0.800 for 0.8-0.9x more tesseract CPU; crops enlarged 1.5x gave 0.792-0.794.
 * Debian's Latin script model (tesseract-ocr-script-latn) read 0.797 vs 0.780 on 20 of them, at 3.8x
 * the CPU time of the installed eng model.
 *
 * Tried 2026-11-27 (third round) and not kept, on the 50 even-numbered SROIE receipts' prepared
 * images read by the tesseract program as the service reads them (0.7969 there; bench/README.md,
 * ocr-sroie, has where the misses are): the glyph height as the height-weighted mode of the letter
 * components instead of their median (a faded or dot-matrix letter breaks into 5-7 px pieces that
 * pull the median down: receipt 089 measures 9 px for letters of 23, 037 8 px for 11-12, and is
 * enlarged twice too much) with a 16 px target 0.7985 (receipts read as one block +0.008, the 15
 * read with --psm 3 -0.014; single receipts moved -0.11 to +0.10 both ways), 19 px 0.7880, 13 px
 * 0.7840; --psm 6 for every receipt: the 15 --psm 3 ones 0.8069 vs 0.8087; no resolution passed or
 * 300 dpi: --psm 6 output unchanged, --psm 3 worse; textord_noise_rejwords=0 and
 * textord_noise_rejrows=0: 0.7971. Several scales per receipt, the reading with the higher mean
 * word confidence kept: 0.8011 for two scales (choosing the better one knowing the transcript:
 * 0.8078; of four: 0.8167), for twice the tesseract time. A sparse pass (--psm 11) over the image
 * with every word tesseract found painted out, its words added: +0.0022 at confidence >= 70 (12
 * of 32 added words right), +0.0036 with every word (20 of 936 right), for a second tesseract pass.
 * Widening (the width scaled 1.25x the height's scale: receipt fonts are condensed) read best of
 * all: even half 0.7969 -> 0.8154 (one-block receipts 0.792 -> 0.815, --psm 3 ones 0.809 -> 0.817;
 * 1.5x 0.741 on 36 of them), all 100 through the
 * service 0.799 (0.788 as shipped; held-out odd half 0.783 vs 0.777); but, like the blur, it turns fields: the thermal
 * receipt of test/image-receipts.test.ts lost its total `60.30` (read `66.30` and `60.31`) at 1.25x
 * and at 1.12x (and `DECO` read `BECO`), so it is not kept. Worth trying again with a check that
 * keeps digits (e.g. a widened reading kept per line only where it agrees on the digits).
 *
 * Backdrops (measureScan, maskBackdrop): a small document scanned on a big page lies on what was
 * under it (a scanner's open lid, black; grey card beside it). That black takes the dark side of
 * the global threshold and the print falls with the paper, so it is painted in the paper's grey
 * first; a grey backdrop alone (a wooden table under a photo) is left to the threshold.
 *
 * Scanned PDF pages go through the same prepareScan as image files (rendered at 150 dpi).
 */

import sharp from "sharp";
import { type GreyImage, otsuThreshold } from "./greyImage";
import { driftsOff, levelled, skewOf } from "./ocrSkew";
import type { Rule } from "./pdfRules";

/** GreyImage and otsuThreshold live in greyImage.ts (ocrSkew and ocrLight use them without this module); they are exported here too for this module's callers */
export { type GreyImage, otsuThreshold };

/** TextBox is the bounding box of the letter-shaped components, in pixels. */
export interface TextBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** TextMeasure is what measureText finds in an image. */
export interface TextMeasure {
  /** glyphHeight: median height of the letter-shaped components (px); 0 when fewer than MIN_GLYPHS were found */
  glyphHeight: number;
  /** glyphs: how many letter-shaped components were found */
  glyphs: number;
  /** box: where they are; null when none */
  box: TextBox | null;
  /** grids: components at least GRID_MIN_WIDTH glyph heights wide and GRID_MIN_HEIGHT high, with little ink (ruled tables, framed forms) */
  grids: number;
  /** rules: dashed or solid horizontal rules found (a receipt's `-------` separators) */
  rules: number;
  /** withoutRules: the image with those rules painted white; null when there were none */
  withoutRules: GreyImage | null;
  /** gridRules: the horizontal and vertical lines of grids (shaded ones too, up to LINED_MAX_INK) in the image's own px, for the layout's ruled tables; empty without grids */
  gridRules: Rule[];
}

/** OcrPlan is how one image is given to tesseract. */
export interface OcrPlan {
  /** scale: factor applied to the image before OCR (1 = as is) */
  scale: number;
  /** segmentation: "block" for one narrow column of text (receipts), else "auto" */
  segmentation: "auto" | "block";
}

/** OCR_MAX_SIDE: longest side (px) of an image given to OCR; larger images are scaled down */
export const OCR_MAX_SIDE = 4000;
/** TARGET_GLYPH_HEIGHT: median glyph height (px) the image is scaled to (a receipt's glyphs are mostly capitals and digits) */
export const TARGET_GLYPH_HEIGHT = 16;
/** MIN_SCALE, MAX_SCALE: bounds of the text-driven scale; beyond 4x upscaling invents nothing, below 0.5 thin strokes vanish */
const MIN_SCALE = 0.5;
const MAX_SCALE = 4;
/** KEEP_SIZE_WITHIN: a scale between 1/this and this is not applied (glyphs of 13-20 px for a 16 px target) */
const KEEP_SIZE_WITHIN = 1.25;
/** MIN_GLYPHS: fewer letter-shaped components than this is no evidence of text size (a photo, an icon) */
const MIN_GLYPHS = 20;
/** MIN_GLYPH_PX: components shorter than this (px) are specks, dots of a dot-matrix print, or punctuation */
const MIN_GLYPH_PX = 5;
/** MAX_GLYPH_PX: components taller than this (px) are pictures, logos or frames, not letters */
const MAX_GLYPH_PX = 250;
/**
 * GRID_MIN_WIDTH, GRID_MIN_HEIGHT: a component this many glyph heights wide and high is a table grid
 * or a form's frame; a receipt's rules are flat (a few px high) and its scan edges narrow
 */
const GRID_MIN_WIDTH = 10;
const GRID_MIN_HEIGHT = 3;
/** RULE_MAX_HEIGHT: a rule or a dash is at most this many glyph heights high */
const RULE_MAX_HEIGHT = 0.4;
/** RULE_MIN_LENGTH: a solid rule is at least this many glyph heights long */
const RULE_MIN_LENGTH = 8;
/** DASH_MIN_ASPECT: a dash is at least this many times as wide as it is high (dot-matrix dots are round) */
const DASH_MIN_ASPECT = 1.5;
/** DASH_MIN_COUNT: a dashed rule has at least this many dashes */
const DASH_MIN_COUNT = 8;
/** DASH_MAX_GAP: the gap between two dashes of a rule is at most this many glyph heights */
const DASH_MAX_GAP = 1.5;
/** DASH_MAX_DRIFT: the centres of neighbouring dashes differ by at most this many glyph heights (skewed scans) */
const DASH_MAX_DRIFT = 0.25;
/** GRID_MAX_INK: largest share of a grid's box that is ink (a stamp, a logo or a photo has more) */
const GRID_MAX_INK = 0.1;
/**
 * LINED_MAX_INK: largest share of ink in a grid whose lines are given to the layout: a table with a
 * shaded header row or cell has more than GRID_MAX_INK, a photo or a logo more still (its lines are
 * checked one by one: a filled band is no line)
 */
const LINED_MAX_INK = 0.35;
/**
 * BLOCK_MAX_WIDTH_IN_GLYPHS: a text box at most this many glyph heights wide is one column (a
 * receipt's 30-48 characters a line measure 30-45); an A4 page of body text measures well over 80
 */
const BLOCK_MAX_WIDTH_IN_GLYPHS = 60;

/**
 * measureText finds the letter-shaped connected components of the ink (8-bit grey, dark text on a
 * light ground) and returns their median height and bounding box. Pages that are mostly dark
 * (negatives, photos) give no measure.
 */
export function measureText(image: GreyImage): TextMeasure {
  const none: TextMeasure = { glyphHeight: 0, glyphs: 0, box: null, grids: 0, rules: 0, withoutRules: null, gridRules: [] };
  const { data, width: W, height: H } = image;
  if (W < MIN_GLYPH_PX || H < MIN_GLYPH_PX) return none;
  const threshold = otsuThreshold(image);
  let ink = 0;
  for (let i = 0; i < data.length; i++) if (data[i]! <= threshold) ink++;
  if (ink === 0 || ink > data.length / 2) return none;

  // Two-pass labelling with union-find over 4-connected ink pixels.
  // (typed arrays and one root lookup per label, not per pixel: this runs over every pixel of a scan)
  const labels = new Int32Array(W * H);
  let parent = new Int32Array(1024);
  let count = 1;
  const root = (label: number): number => {
    while (parent[label] !== label) {
      parent[label] = parent[parent[label]!]!;
      label = parent[label]!;
    }
    return label;
  };
  for (let y = 0, i = 0; y < H; y++) {
    for (let x = 0; x < W; x++, i++) {
      if (data[i]! > threshold) continue;
      const up = y > 0 ? labels[i - W]! : 0;
      const left = x > 0 ? labels[i - 1]! : 0;
      if (up === 0 && left === 0) {
        if (count === parent.length) {
          const grown = new Int32Array(parent.length * 2);
          grown.set(parent);
          parent = grown;
        }
        parent[count] = count;
        labels[i] = count++;
      } else if (up !== 0 && left !== 0) {
        const a = root(up);
        const b = root(left);
        labels[i] = a < b ? a : b;
        if (a !== b) parent[a < b ? b : a] = a < b ? a : b;
      } else labels[i] = up || left;
    }
  }
  const rootOf = new Int32Array(count);
  for (let label = 1; label < count; label++) rootOf[label] = root(label);
  const x0 = new Int32Array(count).fill(W);
  const y0 = new Int32Array(count).fill(H);
  const x1 = new Int32Array(count).fill(-1);
  const y1 = new Int32Array(count).fill(-1);
  const area = new Int32Array(count);
  for (let y = 0, i = 0; y < H; y++) {
    for (let x = 0; x < W; x++, i++) {
      if (labels[i] === 0) continue;
      const r = rootOf[labels[i]!]!;
      if (x < x0[r]!) x0[r] = x;
      if (x > x1[r]!) x1[r] = x;
      if (y < y0[r]!) y0[r] = y;
      if (y > y1[r]!) y1[r] = y;
      area[r]!++;
    }
  }

  const heights: number[] = [];
  const large: Array<[number, number, number, number]> = [];
  let left = W;
  let top = H;
  let right = -1;
  let bottom = -1;
  for (let r = 1; r < count; r++) {
    if (parent[r] !== r) continue;
    const h = y1[r]! - y0[r]! + 1;
    const w = x1[r]! - x0[r]! + 1;
    // a grid is thin lines around cells: a little ink spread over the whole box, crossing it both ways
    if (w >= GRID_MIN_WIDTH * MIN_GLYPH_PX && h >= GRID_MIN_HEIGHT * MIN_GLYPH_PX && area[r]! <= LINED_MAX_INK * w * h) large.push([w, h, area[r]! / (w * h), r]);
    // letters: not specks, not rules or underlines (wide), not slivers (tall and thin), not outlines (little ink)
    if (h < MIN_GLYPH_PX || h > MAX_GLYPH_PX || w > 3 * h || w * 8 < h || area[r]! < h) continue;
    heights.push(h);
    if (x0[r]! < left) left = x0[r]!;
    if (y0[r]! < top) top = y0[r]!;
    if (x1[r]! > right) right = x1[r]!;
    if (y1[r]! > bottom) bottom = y1[r]!;
  }
  if (heights.length < MIN_GLYPHS) return { ...none, glyphs: heights.length };
  heights.sort((a, b) => a - b);
  const glyphHeight = heights[heights.length >> 1]!;

  const rules = findRules(glyphHeight, count, parent, x0, y0, x1, y1);
  let withoutRules: GreyImage | null = null;
  if (rules.size) {
    // painted in the paper's own grey (the mean above the threshold), so no white streak is left to read
    const paper = paperGrey(data, threshold)!;
    const clean = new Uint8Array(data);
    for (let i = 0; i < clean.length; i++) if (labels[i] && rules.has(rootOf[labels[i]!]!)) clean[i] = paper;
    withoutRules = { data: clean, width: W, height: H };
  }
  const lined = large.filter(([w, h]) => w >= GRID_MIN_WIDTH * glyphHeight && h >= GRID_MIN_HEIGHT * glyphHeight);
  const grids = lined.filter(([, , ink]) => ink <= GRID_MAX_INK);
  const gridRules: Rule[] = [];
  for (const [, , , r] of lined) {
    const box = { left: x0[r]!, top: y0[r]!, width: x1[r]! - x0[r]! + 1, height: y1[r]! - y0[r]! + 1 };
    const lines = lineRules(image, threshold, box, (i) => labels[i] !== 0 && rootOf[labels[i]!] === r, glyphHeight);
    if (isFramed(lines, box)) gridRules.push(...lines);
  }
  return {
    glyphHeight,
    glyphs: heights.length,
    box: { left, top, width: right - left + 1, height: bottom - top + 1 },
    grids: grids.length,
    rules: rules.chains,
    withoutRules,
    gridRules,
  };
}

/**
 * BACKDROP_MIN_SHARE: a dark region touching the image's edge that covers at least this share of
 * the image is what the document lay on (a scanner's open lid, a table under a photographed
 * receipt, grey card beside it), not ink. Below it, the region is no more than a page's ink (a
 * receipt's print is 3-5 % of its image) and barely moves the threshold: the shadows along a
 * cropped scan's edge (0.6-1.4 % on seven SROIE receipts) stay as they are, as do letters and
 * rules cut by the edge.
 */
const BACKDROP_MIN_SHARE = 0.02;
/**
 * BACKDROP_CORE_DEPTH, BACKDROP_MIN_CORE: a backdrop is solid: at least BACKDROP_MIN_CORE of its
 * pixels have dark pixels BACKDROP_CORE_DEPTH of the image's shorter side away in all four
 * directions (13 px on an A4 scan at 300 dpi). Strokes, rules and a ruled frame cut by the edge
 * have almost none; a black margin of the scanner lid, an L round two sides, has most.
 */
const BACKDROP_CORE_DEPTH = 0.005;
const BACKDROP_MIN_CORE = 0.3;
/** BACKDROP_RUN: a straight run of a backdrop this share of the image's shorter side long is backdrop, however thin (a letter is far shorter) */
const BACKDROP_RUN = 0.1;
/** BACKDROP_ROUNDS: a backdrop in two shades (black lid, then grey card) is taken off one shade per round */
const BACKDROP_ROUNDS = 3;
/** BLACK_BACKDROP: the lightest mean grey of a first backdrop (a black lid, a dark cloth: 10-40; a wooden table 100-140 is left to the threshold) */
const BLACK_BACKDROP = 64;

/**
 * maskBackdrop paints what a small document lay on when it was scanned or photographed in the
 * paper's grey: black regions (BLACK_BACKDROP) that touch the image's edge, are large
 * (BACKDROP_MIN_SHARE) and solid (BACKDROP_MIN_CORE). Left in, they take the dark side of the
 * global threshold (ours and tesseract's), and a receipt's faint print falls on the paper side: a
 * filling-station receipt on an A4 scan with a black margin read as no text at all, its letters
 * measured 6 px for 30. After a black backdrop is painted, the threshold is taken again for a
 * lighter one beside it (grey card), up to BACKDROP_ROUNDS times; never after a grey one (a
 * receipt photographed on a wooden table lost its shaded lower half and its total that way).
 * Returns null when there is none. Cost: per round, a histogram and a flood over the dark pixels
 * joined to the edge; for a backdrop found, a few passes over the image (typed arrays).
 */
export function maskBackdrop(image: GreyImage): GreyImage | null {
  const { width: W, height: H } = image;
  const depth = Math.max(3, Math.round(BACKDROP_CORE_DEPTH * Math.min(W, H)));
  let data: Uint8Array | null = null;
  for (let round = 0; round < BACKDROP_ROUNDS; round++) {
    const current: GreyImage = data ? { data, width: W, height: H } : image;
    const pixels = current.data;
    const threshold = otsuThreshold(current);
    const dark = (x: number, y: number) => x >= 0 && y >= 0 && x < W && y < H && pixels[y * W + x]! <= threshold;
    const solid = (i: number) => {
      const x = i % W;
      const y = (i - x) / W;
      return dark(x - depth, y) && dark(x + depth, y) && dark(x, y - depth) && dark(x, y + depth);
    };
    const core = new Uint8Array(W * H);
    const { pixels: flooded, regions } = edgeRegions(current, threshold);
    const meanOf = ({ start, end }: { start: number; end: number }) => {
      let sum = 0;
      for (let k = start; k < end; k++) sum += pixels[flooded[k]!]!;
      return sum / Math.max(1, end - start);
    };
    const backdrop = regions.flatMap((region) => {
      const size = region.end - region.start;
      if (size < BACKDROP_MIN_SHARE * W * H) return [];
      const mean = meanOf(region);
      // the first backdrop is black (a lid, a dark cloth); a grey one (a wooden table under a photo) shares the threshold with the paper's shadows
      if (round === 0 && mean > BLACK_BACKDROP) return [];
      // its solid pixels go into the core as they are found, and out again when there are too few
      let solidCount = 0;
      for (let k = region.start; k < region.end; k++) {
        if (solid(flooded[k]!)) {
          core[flooded[k]!] = 1;
          solidCount++;
        }
      }
      if (solidCount >= BACKDROP_MIN_CORE * size) return [{ ...region, mean }];
      for (let k = region.start; k < region.end; k++) core[flooded[k]!] = 0;
      return [];
    });
    if (backdrop.length === 0) break;
    // only the backdrop's body goes: its core grown back by the depth, and its long straight runs (a
    // margin too thin for a core, the 12 px along a scan's foot, left in, still garbles tesseract's
    // page layout); letters printed touching it stay
    const regionMask = new Uint8Array(W * H);
    for (const { start, end } of backdrop) for (let k = start; k < end; k++) regionMask[flooded[k]!] = 1;
    const body = dilate(core, W, H, depth);
    markLongRuns(regionMask, body, W, H, Math.round(BACKDROP_RUN * Math.min(W, H)));
    const paper = paperGrey(pixels, threshold);
    // nothing lighter left: the whole image is the dark side (a negative, a night photo)
    if (paper === null) break;
    const black = backdrop.every((region) => region.mean <= BLACK_BACKDROP);
    data ??= new Uint8Array(image.data);
    for (let i = 0; i < regionMask.length; i++) if (regionMask[i] && body[i]) data[i] = paper;
    // only a black backdrop can hide a lighter one beside it; after a grey one, the next shade
    // down is the document's own (paper in shadow, with its print)
    if (!black) break;
  }
  return data ? { data, width: W, height: H } : null;
}

/** paperGrey is the mean grey of the pixels lighter than the threshold (the paper's own), or null when there are none. */
function paperGrey(data: Uint8Array, threshold: number): number | null {
  let sum = 0;
  let count = 0;
  for (let i = 0; i < data.length; i++) {
    if (data[i]! > threshold) {
      sum += data[i]!;
      count++;
    }
  }
  return count ? Math.round(sum / count) : null;
}

/** markLongRuns sets `out` on the pixels of `mask` in a row or column run of at least `length` of them. */
function markLongRuns(mask: Uint8Array, out: Uint8Array, W: number, H: number, length: number): void {
  markRunsAlong(mask, out, H, W, (row, x) => row * W + x, length);
  markRunsAlong(mask, out, W, H, (column, y) => y * W + column, length);
}

/** markRunsAlong walks `lines` lines of `span` pixels each (`at` gives a pixel's index) and marks the runs of `mask` at least `length` long. */
function markRunsAlong(mask: Uint8Array, out: Uint8Array, lines: number, span: number, at: (line: number, k: number) => number, length: number): void {
  for (let line = 0; line < lines; line++) {
    let start = -1;
    for (let k = 0; k <= span; k++) {
      const on = k < span && mask[at(line, k)] === 1;
      if (on && start < 0) start = k;
      if (!on && start >= 0) {
        if (k - start >= length) for (let j = start; j < k; j++) out[at(line, j)] = 1;
        start = -1;
      }
    }
  }
}

/** dilate grows a mask by `radius` pixels (a square), as two sliding-window passes: along the rows, then down the columns. */
function dilate(mask: Uint8Array, W: number, H: number, radius: number): Uint8Array {
  const across = new Uint8Array(W * H);
  for (let y = 0; y < H; y++) {
    const row = y * W;
    let inWindow = 0;
    for (let x = 0; x < Math.min(radius, W); x++) inWindow += mask[row + x]!;
    for (let x = 0; x < W; x++) {
      if (x + radius < W) inWindow += mask[row + x + radius]!;
      if (x - radius - 1 >= 0) inWindow -= mask[row + x - radius - 1]!;
      across[row + x] = inWindow > 0 ? 1 : 0;
    }
  }
  const out = new Uint8Array(W * H);
  for (let x = 0; x < W; x++) {
    let inWindow = 0;
    for (let y = 0; y < Math.min(radius, H); y++) inWindow += across[y * W + x]!;
    for (let y = 0; y < H; y++) {
      if (y + radius < H) inWindow += across[(y + radius) * W + x]!;
      if (y - radius - 1 >= 0) inWindow -= across[(y - radius - 1) * W + x]!;
      out[y * W + x] = inWindow > 0 ? 1 : 0;
    }
  }
  return out;
}

/**
 * edgeRegions floods the dark pixels (<= threshold) joined to the image's edge, region by region
 * (4-connected). The regions are spans of one index array (`pixels`, a typed array as large as the
 * image at most, as measureText's labels): region k is pixels[start] to pixels[end - 1].
 */
function edgeRegions(image: GreyImage, threshold: number): { pixels: Int32Array; regions: Array<{ start: number; end: number }> } {
  const { data, width: W, height: H } = image;
  const seen = new Uint8Array(W * H);
  const pixels = new Int32Array(W * H);
  const regions: Array<{ start: number; end: number }> = [];
  // the flood's queue and the region's pixels share the array: those before `read` are taken, `read` to `count` wait
  let count = 0;
  const push = (i: number) => {
    if (!seen[i] && data[i]! <= threshold) {
      seen[i] = 1;
      pixels[count++] = i;
    }
  };
  const flood = (first: number) => {
    if (seen[first] || data[first]! > threshold) return;
    const start = count;
    push(first);
    for (let read = start; read < count; read++) {
      const i = pixels[read]!;
      const x = i % W;
      if (x > 0) push(i - 1);
      if (x < W - 1) push(i + 1);
      if (i >= W) push(i - W);
      if (i < (H - 1) * W) push(i + W);
    }
    regions.push({ start, end: count });
  };
  for (let x = 0; x < W; x++) {
    flood(x);
    flood((H - 1) * W + x);
  }
  for (let y = 0; y < H; y++) {
    flood(y * W);
    flood(y * W + W - 1);
  }
  return { pixels, regions };
}

/**
 * LINE_MIN_LENGTH, VERTICAL_MIN_LENGTH: a grid's horizontal (vertical) line is at least this many
 * glyph heights long: a cell's side, and a letter touching the grid is shorter; a vertical line
 * spans a row of text and the room around it, while the strokes between the white letters of a
 * black title bar do not
 */
const LINE_MIN_LENGTH = 1.5;
const VERTICAL_MIN_LENGTH = 3;
/** LINE_SIDE_MAX_INK: the most ink (share of its length) a line has beside it, two pixels off, on its paper side */
const LINE_SIDE_MAX_INK = 0.2;

/**
 * lineRules finds the straight lines drawn with the pixels `isLine` picks within `box` (one grid
 * component): runs of them at least LINE_MIN_LENGTH (VERTICAL_MIN_LENGTH) glyph heights long,
 * row by row for horizontal lines and column by column for vertical ones, joined across
 * neighbouring rows (columns) when they start and end at the same place, into one line as thick as a
 * rule may be (RULE_MAX_HEIGHT glyph heights, at least 3 px). A thicker band is a filled area (a
 * shaded cell or header row, often touching its rules): its two edges are lines. A line has paper
 * (ink <= threshold is none) beside it on at least one side (LINE_SIDE_MAX_INK): the strokes between
 * the white letters of a black title bar have ink on both. Returns the lines at their middles, in
 * the image's pixels.
 */
function lineRules(image: GreyImage, threshold: number, box: TextBox, isLine: (index: number) => boolean, glyphHeight: number): Rule[] {
  const { data, width: W, height: H } = image;
  const maxThickness = Math.max(3, Math.round(RULE_MAX_HEIGHT * glyphHeight));
  const rules: Rule[] = [];
  // along: 0 for rows (horizontal lines), 1 for columns (vertical ones)
  for (const along of [0, 1] as const) {
    const [laneFrom, lanes] = along === 0 ? [box.top, box.top + box.height] : [box.left, box.left + box.width];
    const [start, end] = along === 0 ? [box.left, box.left + box.width] : [box.top, box.top + box.height];
    const at = along === 0 ? (lane: number, k: number) => lane * W + k : (lane: number, k: number) => k * W + lane;
    const minLength = Math.max(MIN_GLYPH_PX, (along === 0 ? LINE_MIN_LENGTH : VERTICAL_MIN_LENGTH) * glyphHeight);
    const lastLane = (along === 0 ? H : W) - 1;
    /** inkBeside: the share of ink pixels along [from, to] in `lane` (0 outside the image) */
    const inkBeside = (from: number, to: number, lane: number) => {
      if (lane < 0 || lane > lastLane) return 0;
      let ink = 0;
      for (let k = from; k <= to; k++) if (data[at(lane, k)]! <= threshold) ink++;
      return ink / (to - from + 1);
    };
    const line = (from: number, to: number, lane: number, first = lane, last = lane) => {
      if (Math.min(inkBeside(from, to, Math.floor(first) - 2), inkBeside(from, to, Math.ceil(last) + 2)) > LINE_SIDE_MAX_INK) return;
      rules.push(along === 0 ? { x1: from, x2: to, y1: lane, y2: lane } : { x1: lane, x2: lane, y1: from, y2: to });
    };
    /** open bands: runs joined across lanes so far, [from, to, first lane, last lane], in the order of their runs */
    let open: Array<[number, number, number, number]> = [];
    const close = ([from, to, first, last]: [number, number, number, number]) => {
      if (last - first + 1 <= maxThickness) line(from, to, (first + last) / 2, first, last);
      else {
        line(from, to, first);
        line(from, to, last);
      }
    };
    for (let lane = laneFrom; lane <= lanes; lane++) {
      const next: Array<[number, number, number, number]> = [];
      let p = 0;
      for (let k = start; lane < lanes && k < end; k++) {
        if (!isLine(at(lane, k))) continue;
        const from = k;
        while (k + 1 < end && isLine(at(lane, k + 1))) k++;
        if (k - from + 1 < minLength) continue;
        // the band of the lane before that starts and ends where this run does (within a rule's thickness)
        while (p < open.length && open[p]![0] < from - maxThickness) close(open[p++]!);
        const band = p < open.length && Math.abs(open[p]![0] - from) <= maxThickness && Math.abs(open[p]![1] - k) <= maxThickness ? open[p++]! : null;
        next.push(band ? [Math.min(band[0], from), Math.max(band[1], k), band[2], lane] : [from, k, lane, lane]);
      }
      while (p < open.length) close(open[p++]!);
      open = next;
    }
  }
  return rules;
}

/** FRAME_SPAN: the share of a grid's width (height) that its outer lines span */
const FRAME_SPAN = 0.8;

/**
 * isFramed: the lines make a table's grid, two horizontal lines spanning the component's width
 * and two vertical ones its height (FRAME_SPAN): a photo or a logo, whose straight strokes are
 * short, does not.
 */
function isFramed(lines: Rule[], box: TextBox): boolean {
  const across = lines.filter((rule) => rule.y1 === rule.y2 && rule.x2 - rule.x1 + 1 >= FRAME_SPAN * box.width).length;
  const down = lines.filter((rule) => rule.x1 === rule.x2 && rule.y2 - rule.y1 + 1 >= FRAME_SPAN * box.height).length;
  return across >= 2 && down >= 2;
}

/**
 * findRules picks the components that make horizontal rules: solid ones (flat and at least
 * RULE_MIN_LENGTH glyph heights long) and dashed ones (chains of at least DASH_MIN_COUNT flat
 * dashes on one height, each close to the next). Returns the component labels and the number of rules.
 */
function findRules(glyphHeight: number, count: number, parent: Int32Array, x0: Int32Array, y0: Int32Array, x1: Int32Array, y1: Int32Array): Set<number> & { chains: number } {
  const found = Object.assign(new Set<number>(), { chains: 0 });
  const flat = Math.max(2, Math.round(RULE_MAX_HEIGHT * glyphHeight));
  const dashes: number[] = [];
  for (let r = 1; r < count; r++) {
    if (parent[r] !== r) continue;
    const h = y1[r]! - y0[r]! + 1;
    const w = x1[r]! - x0[r]! + 1;
    if (h > flat) continue;
    if (w >= RULE_MIN_LENGTH * glyphHeight) {
      found.add(r);
      found.chains++;
    } else if (w >= DASH_MIN_ASPECT * h && w >= 2) dashes.push(r);
  }
  // chain dashes left to right: each joins the chain whose last dash ends nearest before it, on the same
  // height (the first made of equals). Chains still open are kept in bands of maxDrift by the height of
  // their last dash, so a dash looks at three bands, not at every chain: a page of specks (a noisy scan,
  // a halftone) has hundreds of thousands of dash-shaped ones, and comparing each with every chain took
  // minutes. A chain whose last dash ends more than maxGap before a dash's start is closed for good.
  dashes.sort((a, b) => x0[a]! - x0[b]!);
  const chains: number[][] = [];
  const maxGap = DASH_MAX_GAP * glyphHeight;
  const maxDrift = Math.max(2, DASH_MAX_DRIFT * glyphHeight);
  const centre = (d: number): number => (y0[d]! + y1[d]!) / 2;
  const bandOf = (d: number): number => Math.floor(centre(d) / maxDrift);
  const open = new Map<number, number[]>(); // band -> indexes into chains, of chains still open
  for (const d of dashes) {
    const cy = centre(d);
    const band = bandOf(d);
    let best = -1;
    let bestGap = Infinity;
    for (let b = band - 1; b <= band + 1; b++) {
      const members = open.get(b);
      if (!members) continue;
      let kept = 0;
      for (const c of members) {
        const last = chains[c]![chains[c]!.length - 1]!;
        const gap = x0[d]! - x1[last]!;
        if (gap > maxGap) continue; // closed: later dashes start further right still
        members[kept++] = c;
        if (gap < 0 || Math.abs(centre(last) - cy) > maxDrift) continue;
        if (gap < bestGap || (gap === bestGap && c < best)) {
          bestGap = gap;
          best = c;
        }
      }
      members.length = kept;
    }
    if (best >= 0) {
      const chain = chains[best]!;
      const from = bandOf(chain[chain.length - 1]!);
      chain.push(d);
      if (from !== band) {
        const members = open.get(from)!;
        members.splice(members.indexOf(best), 1);
        bandMembers(open, band).push(best);
      }
    } else {
      chains.push([d]);
      bandMembers(open, band).push(chains.length - 1);
    }
  }
  for (const chain of chains) {
    if (chain.length < DASH_MIN_COUNT) continue;
    found.chains++;
    for (const d of chain) found.add(d);
  }
  return found;
}

/** bandMembers: the list of open chains in one band of findRules, made when first asked for */
function bandMembers(open: Map<number, number[]>, band: number): number[] {
  let members = open.get(band);
  if (!members) open.set(band, (members = []));
  return members;
}

/**
 * planOcr chooses the scale and the page segmentation from the measured text; `fallbackScale` is
 * used when the image gave no measure of its text.
 */
export function planOcr(measure: TextMeasure, fallbackScale: number): OcrPlan {
  if (!measure.glyphHeight || !measure.box) return { scale: fallbackScale, segmentation: "auto" };
  const scale = Math.min(MAX_SCALE, Math.max(MIN_SCALE, TARGET_GLYPH_HEIGHT / measure.glyphHeight));
  // a ruled table or a framed form needs tesseract's own layout analysis to read cell by cell
  const narrow = measure.box.width <= BLOCK_MAX_WIDTH_IN_GLYPHS * measure.glyphHeight && measure.grids === 0;
  // glyphs already near the target are left alone: resampling a clean render by a few percent only blurs it
  return { scale: scale >= 1 / KEEP_SIZE_WITHIN && scale <= KEEP_SIZE_WITHIN ? 1 : scale, segmentation: narrow ? "block" : "auto" };
}

/** fromPgm reads back a binary greymap as toPgm writes it ("P5", width, height, 255, one byte a pixel); null for any other */
export function fromPgm(bytes: Uint8Array): GreyImage | null {
  const head = new TextDecoder().decode(bytes.subarray(0, 40)).match(/^P5\n(\d+) (\d+)\n255\n/);
  if (!head) return null;
  const [width, height] = [Number(head[1]), Number(head[2])];
  const start = head[0].length;
  return bytes.length - start === width * height ? { data: bytes.subarray(start), width, height } : null;
}

/** toPgm wraps grey pixels in a binary PGM header, which tesseract reads without any decompression. */
export function toPgm(image: GreyImage): Uint8Array {
  const header = new TextEncoder().encode(`P5\n${image.width} ${image.height}\n255\n`);
  const out = new Uint8Array(header.length + image.data.length);
  out.set(header);
  out.set(image.data, header.length);
  return out;
}

/**
 * MASKED_MIN_LETTERS: the share of the letters measured as taken that must still measure with the
 * backdrop painted out for the painted scan to be read (a bookshop receipt beside a black lid:
 * 1750 of 1758, but measured at 18 px, not 7)
 */
const MASKED_MIN_LETTERS = 0.8;

/**
 * measureScan measures the text of a scan or photo, with its black backdrop painted out
 * (maskBackdrop) unless the page then measures far fewer letters (MASKED_MIN_LETTERS): a receipt
 * photographed on a wooden table whose edges are in shadow lost them all that way (89 -> 0: the
 * lighter table fell on the ink side of the threshold), and is read as taken.
 */
export function measureScan(image: GreyImage): { grey: GreyImage; measure: TextMeasure } {
  const measure = measureText(image);
  const masked = maskBackdrop(image);
  if (!masked) return { grey: image, measure };
  const maskedMeasure = measureText(masked);
  return maskedMeasure.glyphs >= MASKED_MIN_LETTERS * measure.glyphs ? { grey: masked, measure: maskedMeasure } : { grey: image, measure };
}

/**
 * measureLevel is measureScan of the image turned level when it is askew (ocrSkew.ts): when its
 * skew moves its lines' ends apart by two letters' height across its text (driftsOff; tesseract cuts
 * such lines into pieces and a table's rows fall into each other), or when no letters measure.
 * A page of small print is enlarged to the size it will be read at before it is turned (`enlarged`,
 * the factor): turned at its own size and enlarged after, each letter is resampled twice, and a
 * census table's small figures read 165 fewer words (772 against 937 level, 920 turned enlarged).
 */
async function measureLevel(image: GreyImage, bounds: { maxSide: number; maxPixels: number }): Promise<{ grey: GreyImage; measure: TextMeasure; enlarged: number }> {
  const first = measureScan(image);
  const skew = skewOf(image);
  const { box, glyphHeight } = first.measure;
  const askew = box && glyphHeight ? driftsOff(skew, box.width, glyphHeight) : skew !== 0;
  if (!askew) return { ...first, enlarged: 1 };
  const wanted = glyphHeight ? Math.min(MAX_SCALE, TARGET_GLYPH_HEIGHT / glyphHeight, scaleWithin(image, bounds)) : 1;
  const enlarged = wanted >= KEEP_SIZE_WITHIN ? wanted : 1;
  const source = enlarged > 1 ? await resizedGrey(image, enlarged) : image;
  return { ...measureScan(await levelled(source, skew)), enlarged };
}

/** scaleWithin: the largest scale that keeps the image within maxSide and maxPixels (0 = no pixel limit) */
function scaleWithin(image: GreyImage, { maxSide, maxPixels }: { maxSide: number; maxPixels: number }): number {
  return Math.min(maxSide / Math.max(image.width, image.height), maxPixels > 0 ? Math.sqrt(maxPixels / (image.width * image.height)) : Infinity);
}

/** resizedGrey: the grey image scaled by `scale` (sharp's default Lanczos kernel) */
async function resizedGrey(image: GreyImage, scale: number): Promise<GreyImage> {
  const width = Math.max(1, Math.round(image.width * scale));
  const height = Math.max(1, Math.round(image.height * scale));
  const out = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 1 } }).resize(width, height).toColourspace("b-w").raw({ depth: "uchar" }).toBuffer();
  return { data: new Uint8Array(out.buffer, out.byteOffset, out.length), width, height };
}

/** ScanOptions bound prepareScan. */
export interface ScanOptions {
  /** density: the image's resolution (dpi) when known; passed on to tesseract times the scale */
  density?: number;
  /** fallbackScale: the scale used when no text could be measured (a photo, an icon) */
  fallbackScale: number;
  /** measure: false keeps the image as drawn (an SVG rendered at its OCR size) */
  measure?: boolean;
  /** maxSide: longest side (px) of the image given to tesseract */
  maxSide: number;
  /** maxPixels: pixel limit of the scaled image; 0 = unlimited */
  maxPixels: number;
}

/** PreparedScan is an image ready for tesseract: PGM bytes, the segmentation and the resolution to pass. */
export interface PreparedScan {
  image: Uint8Array;
  segmentation: OcrPlan["segmentation"];
  /** rules: the lines of the scan's ruled tables (measureText's gridRules), in the prepared image's pixels */
  rules: Rule[];
  /** dpi: the source's resolution times the scale; undefined when it is not known */
  dpi?: number;
}

/**
 * prepareScan turns a grey image (a decoded photo or scan, a rendered PDF page) into what tesseract
 * reads best: turned level when askew (ocrSkew.ts), its text measured, separator rules painted out,
 * scaled to the target glyph height (within maxSide and maxPixels), as PGM.
 */
export async function prepareScan(image: GreyImage, options: ScanOptions): Promise<PreparedScan> {
  const scan = options.measure === false ? null : await measureLevel(image, options);
  let grey = scan?.grey ?? image;
  const measure = scan?.measure ?? null;
  const plan: OcrPlan = measure ? planOcr(measure, options.fallbackScale) : { scale: 1, segmentation: "auto" };
  // a receipt's dashed separators, read as part of the lines they touch, garble them: they go
  if (measure?.withoutRules) grey = measure.withoutRules;
  const scale = Math.min(plan.scale, scaleWithin(grey, options));
  // a page turned level was enlarged first (measureLevel): its resolution is the source's times both scales
  const dpi = options.density ? options.density * (scan?.enlarged ?? 1) * scale : undefined;
  const rules = (measure?.gridRules ?? []).map((rule) => (Math.abs(scale - 1) < 0.01 ? rule : { x1: rule.x1 * scale, y1: rule.y1 * scale, x2: rule.x2 * scale, y2: rule.y2 * scale }));
  if (Math.abs(scale - 1) < 0.01) return { image: toPgm(grey), segmentation: plan.segmentation, dpi, rules };
  const scaled = await resizedGrey(grey, scale);
  return { image: toPgm(scaled), segmentation: plan.segmentation, dpi, rules };
}
