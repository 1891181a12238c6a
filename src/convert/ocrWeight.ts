/**
 * Bold lines on a scanned page, from the pixels tesseract read: a bold face's strokes are thicker
 * for its size than the body's. A word's stroke is the usual width (the ink) of the dark runs across the rows
 * of its box's middle third (where the letters' stems are, not the bars of "T" or "E"), over its
 * size in pixels, against the page's median; a line is bold when its words' strokes are thicker by
 * BOLD_LINE on average. The layout engine then sees bold lines as on a born-digital page
 * (boldHeadings: a bold head in the body's size, which a scan shows by its weight only).
 */
import type { OcrWord } from "../tools/types";
import type { GreyImage } from "./ocrPrep";

/** BOLD_LINE: how much thicker for its size than the page's usual stroke a line's words are on average to be bold */
const BOLD_LINE = 1.35;
/** BOLD_WORD: the least any measured word of a bold line has (a regular word among bold ones makes a line of mixed weight) */
const BOLD_WORD = 1.2;
/** MIN_MEASURED: the fewest words measured for the page's usual stroke to be trusted */
const MIN_MEASURED = 20;
/** MIN_STROKE_RUNS: the fewest dark runs in a word's band for its stroke to be measured */
const MIN_STROKE_RUNS = 6;

/**
 * RAISED_MARK: a word ending in a mark set above its letters: a footnote's number or sign, a closing
 * quote. Its box reaches up to the mark, so the box's middle third (where the stems are measured)
 * is not the letters' middle third: NIST HB44's bold table titles "Units of Area - International
 * Measure”" (a footnote number read as a quote) measured 1.35-1.44 in their other words and 1.03 in
 * "Measure”", and the line was no bold. Such a word is not measured (it goes with its line).
 */
const RAISED_MARK = /(?:[”’"'®°*†‡¹²³⁴⁵⁶⁷⁸⁹⁰]|\p{Ll}\d{1,2})$/u;

/**
 * strokeRatios: each word's stroke for its size over the page's usual one (the median), for the words
 * of three letters or more that can be measured in `image` (the pixels the boxes are in); `sizeOf`
 * gives a word's font size in pixels (0: not sized). Empty when too few words are measured.
 */
export function strokeRatios(image: GreyImage, words: OcrWord[], sizeOf: (word: OcrWord) => number): Map<OcrWord, number> {
  const strokes = new Map<OcrWord, number>();
  for (const word of words) {
    const size = sizeOf(word);
    if (size <= 0 || !/\p{L}{3}/u.test(word.text) || RAISED_MARK.test(word.text)) continue;
    const stroke = strokeOf(image, word);
    if (stroke > 0) strokes.set(word, stroke / size);
  }
  if (strokes.size < MIN_MEASURED) return new Map();
  const usual = median([...strokes.values()]);
  for (const [word, stroke] of strokes) strokes.set(word, stroke / usual);
  return strokes;
}

/** isBoldLine: a line's measured words are thicker than the page's usual on average by BOLD_LINE, none under BOLD_WORD (words too short to measure go with them) */
export function isBoldLine(line: OcrWord[], ratios: Map<OcrWord, number>): boolean {
  const measured = line.flatMap((word) => (ratios.has(word) ? [ratios.get(word)!] : []));
  return measured.length > 0 && measured.every((r) => r >= BOLD_WORD) && measured.reduce((sum, r) => sum + r, 0) / measured.length >= BOLD_LINE;
}

/**
 * GREY_INK: the least grey (0 black, 255 white) of a word's darkest pixel for its ink to be grey or
 * coloured rather than black: a report's heads printed in a colour (NVIDIA's green note heads, rendered
 * grey: darkest 125-137 at 150 dpi, its black text 0-18).
 */
const GREY_INK = 96;

/** SURE_INK: the least confidence of a word whose box is grown: marks read as a word ("Peer" for a journal's logo, 0.16) keep tesseract's box, their place on the page unchanged */
const SURE_INK = 0.6;

/** INK_GROWTH: how far past its box, up and down, a grey word's ink is followed (a share of the box's height) */
const INK_GROWTH = 0.15;

/**
 * inkBoxes: the words with the box of a grey word (GREY_INK) grown up and down to its ink's extent.
 * Tesseract sizes its boxes on its own black-and-white reading of the page, in which light letters
 * lose their soft edges: NVIDIA's green bold heads, printed in the body's size, read in boxes 3 px
 * shorter than black text's at 218 dpi ("Termination of the Arm Share Purchase Agreement" 6 pt
 * against a 6.8 pt body, so no head). The ink is what is darker than the midpoint between the word's
 * darkest pixel and the lightest in its box, over the box's columns; rows are taken while they hold
 * such ink, up to INK_GROWTH of the box's height. Black words keep tesseract's boxes.
 */
export function inkBoxes(image: GreyImage, words: OcrWord[]): OcrWord[] {
  return words.map((word) => {
    const left = Math.max(0, Math.floor(word.left));
    const right = Math.min(image.width, Math.ceil(word.left + word.width));
    const top = Math.max(0, Math.floor(word.top));
    const bottom = Math.min(image.height, Math.ceil(word.top + word.height));
    if (right - left < 2 || bottom - top < 2 || word.confidence < SURE_INK) return word;
    const { dark, light } = greyRange(image, left, right, top, bottom);
    if (dark < GREY_INK || light - dark < 64) return word;
    const threshold = (dark + light) / 2;
    const inked = (y: number) => {
      for (let x = left; x < right; x++) if (image.data[y * image.width + x]! < threshold) return true;
      return false;
    };
    const reach = Math.round(INK_GROWTH * (bottom - top));
    let up = top;
    while (up > 0 && top - up < reach && inked(up - 1)) up--;
    let down = bottom;
    while (down < image.height && down - bottom < reach && inked(down)) down++;
    return up === top && down === bottom ? word : { ...word, top: up, height: word.height + (top - up) + (down - bottom) };
  });
}

/** greyRange: the darkest and the lightest grey of the pixels in columns left..right-1 of rows top..bottom-1 */
function greyRange(image: GreyImage, left: number, right: number, top: number, bottom: number): { dark: number; light: number } {
  let dark = 255;
  let light = 0;
  for (let y = top; y < bottom; y++) {
    for (let x = left; x < right; x++) {
      const v = image.data[y * image.width + x]!;
      if (v < dark) dark = v;
      if (v > light) light = v;
    }
  }
  return { dark, light };
}

/**
 * strokeOf: the usual width in pixels (the mean of the middle half) of the dark runs along the rows
 * of the middle third of the word's box (0 when there are too few to tell). Dark is below the
 * midpoint between the box's darkest and lightest grey, so a faint scan and a crisp one are
 * measured alike. A run's width is the ink it holds, not its count of whole pixels: each pixel's
 * share of the way from the box's lightest grey to its darkest, summed over the run and the paler
 * pixel at each of its ends (a stem's edges, which cover parts of pixels). At the resolution a page
 * stored as a 150 dpi JPEG is read at, stems are two to four pixels wide and whole pixels are too
 * coarse to weigh them: a stem 2.6 px wide counts 3 and a bold one 4.2 px wide counts 4, 1.33 for a
 * true 1.62 (the Federal Register's stored scan read at 240 dpi: its bold heads measured 1.32-1.44
 * times the body's stroke, under BOLD_LINE, against 1.45-1.65 on its rendering at 267; 1.39-1.48 as ink).
 */
function strokeOf(image: GreyImage, word: OcrWord): number {
  const left = Math.max(0, Math.floor(word.left));
  const right = Math.min(image.width, Math.ceil(word.left + word.width));
  const top = Math.max(0, Math.floor(word.top + word.height / 3));
  const bottom = Math.min(image.height, Math.ceil(word.top + (2 * word.height) / 3));
  if (right - left < 2 || bottom <= top) return 0;
  const { dark, light } = greyRange(image, left, right, top, bottom);
  if (light - dark < 64) return 0;
  const threshold = (dark + light) / 2;
  const runs: number[] = [];
  for (let y = top; y < bottom; y++) {
    const row = y * image.width;
    // the ink at x of this row: 0 for the paper (or outside the box), 1 for the darkest grey
    const ink = (x: number) => (x < left || x >= right ? 0 : Math.min(1, Math.max(0, (light - image.data[row + x]!) / (light - dark))));
    let run = 0;
    for (let x = left; x <= right; x++) {
      if (x < right && image.data[row + x]! < threshold) run += ink(x) + (run ? 0 : ink(x - 1));
      else if (run) {
        runs.push(run + ink(x));
        run = 0;
      }
    }
  }
  return runs.length >= MIN_STROKE_RUNS ? middleMean(runs) : 0;
}

/** middleMean: the mean of the middle half of the values (whole pixels are too coarse a median for a stroke of three or four) */
function middleMean(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.slice(Math.floor(sorted.length / 4), Math.ceil((3 * sorted.length) / 4));
  return middle.reduce((sum, v) => sum + v, 0) / middle.length;
}

/** median: the middle value, or the mean of the two middle ones (ocrLayout sizes lines with it too) */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
