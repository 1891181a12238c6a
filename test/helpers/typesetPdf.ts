/**
 * typesetPdf writes a small PDF by hand: text runs placed at points on A4 pages, in the standard
 * fonts (not embedded: a reader's own Times and Helvetica), for layouts that LibreOffice cannot
 * print with the fonts of this machine (DejaVu only), such as a sans-serif title over a serif body
 * in fonts whose names give no weight.
 */
import { pdfObjects } from "./pdfObjects";

/** TypesetRun: one run of text, its baseline's left end at (x, y) in PDF points from the page's bottom left */
export interface TypesetRun {
  font: TypesetFont;
  size: number;
  x: number;
  y: number;
  text: string;
  /** gray: the run's fill colour, a gray level from 0 (black, the default) to 1 (white) */
  gray?: number;
  /** up: the run set turned a quarter anticlockwise, reading up the page from (x, y) (arXiv's stamp in a preprint's margin) */
  up?: boolean;
}

/** TypesetFill: a rectangle filled in a gray level (0 black to 1 white), its bottom left corner at (x, y), in PDF points from the page's bottom left, drawn before the text */
export interface TypesetFill {
  x: number;
  y: number;
  width: number;
  height: number;
  gray: number;
}

/**
 * FONTS: the standard fonts a run may use (bold faces named so, and a monospace one for code), and
 * one by name only: LaTeX's eurosym font (TeX-feymr10), whose "e" a reader's fallback shows as a letter
 */
const FONTS = ["Times-Roman", "Helvetica", "Helvetica-Bold", "Times-Bold", "Courier", "TeX-feymr10"] as const;
export type TypesetFont = (typeof FONTS)[number];

/** TypesetRule: a ruling line stroked 0.5 pt wide from (x1, y1) to (x2, y2), in PDF points from the page's bottom left */
export interface TypesetRule {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/** TypesetBox: a box stroked 0.5 pt wide with rounded corners (radius `r`), its bottom left corner at (x, y), in PDF points from the page's bottom left */
export interface TypesetBox {
  x: number;
  y: number;
  width: number;
  height: number;
  r: number;
}

/** KAPPA: the distance of a quarter circle's Bézier control points from its ends, as a share of its radius */
const KAPPA = 0.5523;

/** boxPath: the path of a box with rounded corners, its four sides straight and its corners curves */
function boxPath({ x, y, width: w, height: h, r }: TypesetBox): string {
  const k = r * KAPPA;
  return [
    `${x + r} ${y} m ${x + w - r} ${y} l`,
    `${x + w - r + k} ${y} ${x + w} ${y + r - k} ${x + w} ${y + r} c ${x + w} ${y + h - r} l`,
    `${x + w} ${y + h - r + k} ${x + w - r + k} ${y + h} ${x + w - r} ${y + h} c ${x + r} ${y + h} l`,
    `${x + r - k} ${y + h} ${x} ${y + h - r + k} ${x} ${y + h - r} c ${x} ${y + r} l`,
    `${x} ${y + r - k} ${x + r - k} ${y} ${x + r} ${y} c h 0.5 w S`,
  ].join(" ");
}

/** typesetPdf returns the bytes of a PDF of A4 pages (595 x 842 pt), one list of runs per page (and of rules and rounded boxes, drawn before the text); text is Latin-1. */
export function typesetPdf(pages: TypesetRun[][], rules: TypesetRule[][] = [], boxes: TypesetBox[][] = [], fills: TypesetFill[][] = []): Uint8Array {
  const objects: string[] = [];
  const add = (body: string) => objects.push(body) - 1 + 1; // object numbers start at 1
  const catalog = add("");
  const pageTree = add("");
  const fontRefs = FONTS.map((name) => add(`<< /Type /Font /Subtype /Type1 /BaseFont /${name} /Encoding /WinAnsiEncoding >>`));
  const fontDict = FONTS.map((_, i) => `/F${i + 1} ${fontRefs[i]} 0 R`).join(" ");
  const kids: number[] = [];
  for (const [p, runs] of pages.entries()) {
    const escape = (text: string) => text.replace(/[\\()]/g, (c) => `\\${c}`);
    const drawn = (rules[p] ?? []).map((r) => `0.5 w ${r.x1} ${r.y1} m ${r.x2} ${r.y2} l S`);
    const filled = (fills[p] ?? []).map((f) => `q ${f.gray} g ${f.x} ${f.y} ${f.width} ${f.height} re f Q`);
    const shown = (run: TypesetRun) => `BT /F${FONTS.indexOf(run.font) + 1} ${run.size} Tf ${run.up ? "0 1 -1 0" : "1 0 0 1"} ${run.x} ${run.y} Tm (${escape(run.text)}) Tj ET`;
    const content = [...filled, ...drawn, ...(boxes[p] ?? []).map(boxPath), ...runs.map((run) => (run.gray === undefined ? shown(run) : `q ${run.gray} g ${shown(run)} Q`))].join("\n");
    const stream = add(`<< /Length ${Buffer.byteLength(content, "latin1")} >>\nstream\n${content}\nendstream`);
    kids.push(add(`<< /Type /Page /Parent ${pageTree} 0 R /MediaBox [0 0 595 842] /Resources << /Font << ${fontDict} >> >> /Contents ${stream} 0 R >>`));
  }
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pageTree} 0 R >>`;
  objects[pageTree - 1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(" ")}] /Count ${kids.length} >>`;
  return pdfObjects(objects, { root: catalog });
}

/** AFM_WIDTHS: advance widths (thousandths of the size) from the Adobe Core 14 AFM files, for the space, a to z and a few capitals (Times-Roman: the characters the tests set in it) */
const AFM_WIDTHS: Partial<Record<TypesetFont, Record<string, number>>> = {
  Helvetica: {
    ...afmRow(" abcdefghijklmnopqrstuvwxyz", [278, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500]),
    ...afmRow("DESTY", [722, 667, 667, 611, 667]),
  },
  "Times-Roman": afmRow(" !,-./0123456ACHLMOPRSTabcdefghijklmnoprstuvwxyz", [250, 333, 250, 333, 250, 278, 500, 500, 500, 500, 500, 500, 500, 722, 667, 722, 611, 889, 722, 556, 667, 556, 611, 444, 500, 444, 500, 444, 333, 500, 500, 278, 278, 500, 278, 778, 500, 500, 500, 333, 389, 278, 500, 500, 722, 500, 500, 444]),
  "Helvetica-Bold": {
    ...afmRow(" abcdefghijklmnopqrstuvwxyz", [278, 556, 611, 556, 611, 556, 333, 611, 611, 278, 278, 556, 278, 889, 611, 611, 611, 611, 389, 556, 333, 611, 556, 778, 556, 556, 500]),
    ...afmRow("DESTY", [722, 667, 667, 611, 667]),
  },
};

function afmRow(chars: string, widths: number[]): Record<string, number> {
  return Object.fromEntries([...chars].map((c, i) => [c, widths[i]!]));
}

/** textWidth: the advance (points) of `text` set in `font` at `size`, as a reader measures it; throws for a character the table lacks */
export function textWidth(font: TypesetFont, size: number, text: string): number {
  const widths = AFM_WIDTHS[font];
  let sum = 0;
  for (const c of text) {
    const w = widths?.[c];
    if (w === undefined) throw new Error(`textWidth: no width of ${JSON.stringify(c)} in ${font}`);
    sum += w;
  }
  return (sum * size) / 1000;
}

/** A4_HEIGHT: an A4 page's height in points */
export const A4_HEIGHT = 842;

/** fromTop places a run by its baseline's distance from an A4 page's top, as a reader measures it. */
export function fromTop(font: TypesetFont, size: number, x: number, top: number, text: string): TypesetRun {
  return { font, size, x, y: A4_HEIGHT - top, text };
}

/** runsInLine sets Times-Roman runs one after the other on a baseline from x = 72, each (text, size, rise) directly after the one before. */
export function runsInLine(y: number, parts: Array<[text: string, size: number, rise?: number]>): TypesetRun[] {
  let x = 72;
  return parts.map(([text, size, rise = 0]) => {
    const run: TypesetRun = { font: "Times-Roman", size, x, y: y + rise, text };
    x += textWidth("Times-Roman", size, text);
    return run;
  });
}

/** PROSE_WORDS: the words typesetProse writes unless given others */
const PROSE_WORDS = "the grammar of graphics is ubiquitous and provides the foundation for a variety of popular tools so that a figure may be described by the mappings from data to what is drawn and how it is scaled";

/**
 * typesetProse: `n` lines of a paragraph in Times at `size` pt from baseline `y` down, from `x` to about `chars`
 * characters wide, its first word capitalised and its last line half as long and closed by a period; lines
 * `leading` times the size apart, of `text`'s words in turn from the `seed`th
 */
export function typesetProse(n: number, y: number, size = 9, x = 54, seed = 0, chars = 48, { leading = 1.15, text = PROSE_WORDS } = {}): TypesetRun[] {
  const words = text.split(" ");
  const runs: TypesetRun[] = [];
  for (let i = 0, k = seed; i < n; i++) {
    let line = "";
    while (line.length < (i === n - 1 ? chars / 2 : chars)) line += (line ? " " : "") + words[k++ % words.length];
    if (i === 0) line = line[0]!.toUpperCase() + line.slice(1);
    runs.push({ font: "Times-Roman", size, x, y: y - i * leading * size, text: i === n - 1 ? `${line}.` : line });
  }
  return runs;
}
