/**
 * Code listings in PDF text: pure functions beside the PDF layout modules (pdfLayout.ts and the files it names), no pdf.js. Manuals, papers and
 * reports set code, shell commands and configuration files in a monospace face (Courier, TeX's CMTT
 * and SFTT, DejaVu Sans Mono, Consolas, Inconsolata, Latin Modern Mono); a block of lines set wholly
 * in one is written as fenced code, each line as it is printed: its indentation and the spaces
 * inside it from the runs' x offsets in character widths, no hyphen joined, no heading, no table, no
 * list. A monospace word inside a prose line stays prose.
 *
 *   pdfText.ts:  item.mono from the font (the FontDescriptor's fixed-pitch flag, or its name)
 *   analyzePage: a page set in a monospace face throughout (a typewriter report, a receipt, a printed
 *                text file) has no code: its monospace is its body (typewrittenPage)
 *   lineFromItems: a line whose every run is monospace keeps its runs' text and x (codeRunsOf)
 *   columnBlocks: consecutive such lines in the body's size are one code block (codeRunEnd, codeBlock)
 *   renderPages:  a fence (codeMarkdown); a listing cut by a page break is joined again
 */
import { fence } from "./markdown";
import { isMonoFontName } from "./monoFont";

/** isMonoFont: the font's CSS family (pdf.js gives "monospace" for the FontDescriptor's fixed-pitch flag) or, for a font without the flag, its name says monospace */
export function isMonoFont(name: string, family: string | undefined): boolean {
  return family === "monospace" || isMonoFontName(name);
}

/** CodeItem: the fields of a text item (pdfLayoutTypes' PdfTextItem) the code rules read */
interface CodeItem {
  str: string;
  x: number;
  width: number;
  size: number;
  mono?: boolean;
}

/** CodeRun: a run of a monospace line: its text as printed (spaces kept), where it starts and ends, and its character width (points) */
export interface CodeRun {
  text: string;
  x: number;
  x2: number;
  charWidth: number;
  /** lineNumber: the run is the listing's line number, set in the text face before the code (not part of the line's code) */
  lineNumber?: number;
}

/** CodeLine: the fields of a laid-out line (pdfLayoutTypes' RawLine) the code rules read */
interface CodeLine {
  y: number;
  size: number;
  bold?: boolean;
  code?: CodeRun[];
}

/** CodeBlock: a listing of one column of one page: each line's text and left edge, the character width to indent by */
export interface CodeBlock {
  kind: "code";
  lines: Array<{ text: string; x: number }>;
  charWidth: number;
  size: number;
  top: number;
  bottom: number;
}

/** BULLET_GLYPHS: list markers that word processors set in a symbol face flagged fixed-pitch (LibreOffice's OpenSymbol bullets): no code by themselves */
const BULLET_GLYPHS = /^[\s•◦▪▫‣●○■□➢►▸\u{E000}-\u{F8FF}\u{1}-\u{1F}\u{FFFD}-]*$/u;
/** DASH_RULE: three hyphens or more in a row: a listing's separator line typed in its face ("A:node-2>config# info" over "------"), no bullet */
const DASH_RULE = /-{3}/;

/** LINE_NUMBER: a listing's line number as its own run ("1", "12"; not "1." of a numbered list) */
const LINE_NUMBER = /^\s*(\d{1,4})\s*$/;

/**
 * codeRunsOf: the runs of a line whose every visible run is set in a monospace face (a list marker
 * in a fixed-pitch symbol face alone is none), in x order; null for any other line. A listing's
 * line number set in the text face before the code (LaTeX listings' and minted's numbers, grey,
 * in the body's face) is kept as a run of its own marked `lineNumber`: the listing's, not the code's.
 */
export function codeRunsOf(byX: CodeItem[]): CodeRun[] | null {
  const visible = byX.filter((item) => item.str.trim() !== "");
  const number = visible.length > 1 && !visible[0]!.mono ? LINE_NUMBER.exec(visible[0]!.str) : null;
  const rest = number ? byX.slice(byX.indexOf(visible[0]!) + 1) : byX;
  if (!rest.length || !rest.every((item) => item.mono || item.str.trim() === "")) return null;
  const shown = rest.map((item) => item.str).join("");
  if (BULLET_GLYPHS.test(shown) && !DASH_RULE.test(shown)) return null;
  const runs: CodeRun[] = rest.filter((item) => item.str.length > 0).map((item) => ({ text: item.str, x: item.x, x2: item.x + item.width, charWidth: item.width / [...item.str].length }));
  if (!number) return runs;
  const n = visible[0]!;
  return [{ text: number[1]!, x: n.x, x2: n.x + n.width, charWidth: 0, lineNumber: Number(number[1]) }, ...runs];
}

/** codeOf: a code line's runs of code, its line number left out */
function codeOf(line: CodeLine): CodeRun[] {
  return (line.code ?? []).filter((run) => run.lineNumber === undefined);
}

/** lineNumberOf: the listing's line number a code line starts with, or undefined */
function lineNumberOf(line: CodeLine): number | undefined {
  return line.code?.[0]?.lineNumber;
}

/** TYPEWRITTEN_SHARE: a page whose letters and digits are this share or more in a monospace face is set in one throughout */
const TYPEWRITTEN_SHARE = 0.85;

/**
 * typewrittenPage: the page is set in a monospace face throughout (a typewriter-style report, a
 * receipt, a text file printed to PDF): its monospace lines are its body, prose and tables, not
 * code. A manual's page of code has its headings, captions and prose in another face.
 */
export function typewrittenPage(items: CodeItem[]): boolean {
  let mono = 0;
  let all = 0;
  for (const item of items) {
    const n = item.str.replace(/[^\p{L}\p{N}]/gu, "").length;
    all += n;
    if (item.mono) mono += n;
  }
  return all > 0 && mono >= TYPEWRITTEN_SHARE * all;
}

/** CODE_SIZE_ABOVE_BODY: a monospace line larger than the column's body by this factor is a title set in the face ("wordometer"), not code */
const CODE_SIZE_ABOVE_BODY = 1.15;
/** CODE_LINE_GAP: the widest baseline gap (in line heights of the listing) inside one listing; a blank line of code leaves two */
const CODE_LINE_GAP = 2.6;

/**
 * codeRunEnd: the end (exclusive) of the listing that starts at `lines[start]`: consecutive lines
 * set wholly in a monospace face, none larger than the column's body size `body`, each at most
 * CODE_LINE_GAP line heights below the one before. `start` itself when no listing starts there. A
 * line alone is no listing when it is bold (a heading set in the face: "word-count()") or short and
 * centred on the page of width `pageWidth` (a title page's web address); lines that are mostly
 * figures are a table typed in the face, not code (figureRows).
 */
export function codeRunEnd(lines: CodeLine[], start: number, body: number, pageWidth: number): number {
  // a numbered line is code when the line above or below counts on from it (a numbered listing), not alone
  const inSequence = (k: number) => {
    const n = lineNumberOf(lines[k]!);
    return n === undefined || (k > 0 && lineNumberOf(lines[k - 1]!) === n - 1) || (k + 1 < lines.length && lineNumberOf(lines[k + 1]!) === n + 1);
  };
  const isCodeAt = (k: number) => {
    const line = lines[k];
    return line?.code !== undefined && line.size <= CODE_SIZE_ABOVE_BODY * body && inSequence(k);
  };
  if (!isCodeAt(start)) return start;
  const follows = (k: number) => isCodeAt(k) && lines[k]!.y - lines[k - 1]!.y > 0 && lines[k]!.y - lines[k - 1]!.y <= CODE_LINE_GAP * 1.25 * lines[k - 1]!.size;
  let end = start + 1;
  while (end < lines.length && follows(end)) end++;
  // the run's first line, when lines before `start` went to text (a web address's first piece)
  let first = start;
  while (first > Math.max(0, start - 2) && isCodeAt(first - 1) && follows(first)) first--;
  if (brokenAddress(lines.slice(first, end))) return start;
  if (end - start === 1) {
    const line = lines[start]!;
    const runs = codeOf(line);
    const [x, x2] = [runs[0]!.x, runs[runs.length - 1]!.x2];
    const centred = x2 - x < 0.6 * pageWidth && Math.abs((x + x2) / 2 - pageWidth / 2) < 2 * line.size;
    if (line.bold || centred) return start;
  }
  return figureRows(lines.slice(start, end)) ? start : end;
}

/** ADDRESS_START: a web address's start ("http://", "https://", "ftp://", "www.") */
const ADDRESS_START = /^(?:[a-z][a-z+.-]*:\/\/|www\.)\S/i;

/**
 * brokenAddress: the lines are one web address set in a typewriter face (LaTeX's \url) and broken
 * where the line ran out ("http://mirrors.ctan.org/macros/latex/contrib/na" / "tbib/natnotes.pdf"):
 * two or three lines of one word each, the first an address's start. Text, not a listing.
 */
function brokenAddress(lines: CodeLine[]): boolean {
  if (lines.length < 2 || lines.length > 3) return false;
  const texts = lines.map((line) => codeOf(line).map((run) => run.text).join("").trim());
  return ADDRESS_START.test(texts[0]!) && texts.every((text) => text.length > 0 && !/\s/.test(text));
}

/** FIGURE: a number as a table cell gives it ("1,287,028", "12.4", "(3.5)", "-7%", "$120") */
const FIGURE = /^[(\[]?[-+−–]?[$€£]?\d[\d,.]*%?[)\]]?$/;

/**
 * figureRows: most lines (three in five) are half figures or more: a table typed in a monospace
 * face (counts by age group in fixed-width fields), which the table rules read, not a listing.
 */
function figureRows(lines: CodeLine[]): boolean {
  const rows = lines.filter((line) => {
    const words = codeOf(line).flatMap((run) => run.text.split(/\s+/)).filter(Boolean);
    return words.length >= 2 && 2 * words.filter((word) => FIGURE.test(word)).length >= words.length;
  });
  return lines.length >= 2 && 5 * rows.length >= 3 * lines.length;
}

/** codeBlock makes a listing of code lines: each line's runs placed at their character columns, so the spaces inside a line are kept. */
export function codeBlock(lines: CodeLine[]): CodeBlock {
  const runs = lines.flatMap(codeOf);
  const widths = runs.filter((run) => run.text.trim().length > 0 && run.charWidth > 0).map((run) => run.charWidth).sort((a, b) => a - b);
  const charWidth = widths.length ? widths[Math.floor(widths.length / 2)]! : 0.6 * lines[0]!.size;
  const out: CodeBlock["lines"] = [];
  // a blank line of code leaves a baseline gap of two line heights or more
  const pitch = smallestGap(lines) || 1.2 * lines[0]!.size;
  lines.forEach((line, i) => {
    if (i > 0 && line.y - lines[i - 1]!.y >= 1.7 * pitch) out.push({ text: "", x: 0 });
    out.push(placeRuns(codeOf(line), charWidth));
  });
  const sizes = lines.map((line) => line.size).sort((a, b) => a - b);
  return { kind: "code", lines: out, charWidth, size: sizes[Math.floor(sizes.length / 2)]!, top: lines[0]!.y - lines[0]!.size, bottom: lines[lines.length - 1]!.y };
}

function smallestGap(lines: CodeLine[]): number {
  let gap = 0;
  for (let i = 1; i < lines.length; i++) {
    const d = lines[i]!.y - lines[i - 1]!.y;
    if (d > 0 && (!gap || d < gap)) gap = d;
  }
  return gap;
}

/** placeRuns: a line's text with each run at its character column from the line's first run (gaps between runs become spaces) */
function placeRuns(runs: CodeRun[], charWidth: number): { text: string; x: number } {
  const visible = runs.filter((run) => run.text.trim() !== "");
  if (!visible.length) return { text: "", x: 0 };
  const x = visible[0]!.x + (visible[0]!.text.length - visible[0]!.text.trimStart().length) * charWidth;
  let text = "";
  for (const run of runs) {
    const column = Math.round((run.x - x) / charWidth);
    if (column > text.length) text += " ".repeat(column - text.length);
    text += run.text;
  }
  return { text: text.trim().length ? text.replace(/^\s+/, "").trimEnd() : "", x };
}

/** codeMarkdown: the listing as a fenced code block, each line indented by its left edge's distance from the listing's in character widths. */
export function codeMarkdown(block: CodeBlock): string {
  const left = leftEdge(block);
  const text = block.lines.map((line) => (line.text ? " ".repeat(Math.max(0, Math.round((line.x - left) / block.charWidth))) + line.text : "")).join("\n");
  return fence(text.replace(/^\n+|\n+$/g, ""));
}

/** joinCode: a listing that a page break cut, as one (the second page's lines after the first's) */
export function joinCode(before: CodeBlock, after: CodeBlock): CodeBlock {
  return { ...before, lines: [...before.lines, ...after.lines], bottom: after.bottom };
}

/** continuesCode: a listing at the top of a page goes on from the one that ended the page before when it is set in the same size and starts within a few characters of its left edge */
export function continuesCode(before: CodeBlock, after: CodeBlock): boolean {
  return Math.abs(before.size - after.size) <= 0.5 && Math.abs(before.charWidth - after.charWidth) <= 0.1 * before.charWidth && Math.abs(leftEdge(before) - leftEdge(after)) <= 8 * before.charWidth;
}

/** leftEdge: the left edge of the listing's lines that have text (a blank line has none) */
function leftEdge(block: CodeBlock): number {
  return Math.min(...block.lines.filter((line) => line.text).map((line) => line.x));
}
