/**
 * The types the PDF layout modules share: a text item as pdf.js positions it (PdfTextItem), the
 * lines built from items (RawLine of Segments, cut at cell-sized gaps), and what a page becomes
 * (PageLayout of LayoutBlocks: text of LayoutLines, tables with their ColumnEdges, code listings).
 * Coordinates are PDF points (1/72 inch) with the origin at the top left of the page; `y` of a text
 * item or line is its baseline.
 */
import type { CodeBlock, CodeRun } from "./pdfCode";

/** PdfTextItem is one run of text as pdf.js positions it. */
export interface PdfTextItem {
  str: string;
  x: number;
  /** y: baseline, from the top of the page */
  y: number;
  /** width: advance width of the run in points */
  width: number;
  /** size: font size in points after all transforms */
  size: number;
  /** rtl: pdf.js found the run right-to-left (Arabic, Hebrew) and gave it in logical order */
  rtl?: boolean;
  /** spaced: a space precedes the run in the content stream (set by analyzePage) */
  spaced?: boolean;
  /** bold: the run's font is a bold face (by its name) */
  bold?: boolean;
  /** font: the page's name for the run's font (pdf.js's id, "g_d0_f3"); absent when unknown */
  font?: string;
  /** mono: the run's font is a monospace face (code, in a page that is not set in one throughout) */
  mono?: boolean;
  /** unsure: OCR read the run's line with little confidence (a plot's marks read as words): never a heading */
  unsure?: boolean;
  /** ocr: OCR read the run (ocrLayout.ts): its baseline is its own line's, so runs of one engine line at baselines that differ are two columns' lines (Segment.y) */
  ocr?: boolean;
}

/** LayoutLine is one line of text in reading order within its block. */
export interface LayoutLine {
  text: string;
  x: number;
  x2: number;
  y: number;
  size: number;
  /** wraps: the line reaches the right edge of its column, so the next line continues it */
  wraps: boolean;
  /** bold: all of the line's letters are in a bold face */
  bold?: boolean;
  /** unsure: OCR read the line with little confidence (PdfTextItem.unsure) */
  unsure?: boolean;
}

/** LayoutBlock: text (`rendered`: what an example's source renders, or an OCR line read with little confidence, shown as text, never a heading), a table or a listing */
export type LayoutBlock =
  | { kind: "text"; lines: LayoutLine[]; size: number; top: number; bottom: number; rendered?: boolean }
  | { kind: "table"; rows: string[][]; size: number; top: number; bottom: number; columns?: ColumnEdge[] }
  | CodeBlock;

/** ColumnEdge is where a table's column lines up: its cells' left edge, or their right edge for right-aligned cells. */
export interface ColumnEdge {
  x: number;
  right: boolean;
}

/** PageLayout is one page after layout analysis, small enough to send from a worker thread. */
export interface PageLayout {
  /** page: 1-based page number */
  page: number;
  width: number;
  height: number;
  /** chars: non-whitespace characters of the text layer */
  chars: number;
  blocks: LayoutBlock[];
  /** imageTexts: text OCRed from pictures on the page that the text layer does not hold, shown after the page's text */
  imageTexts?: string[];
  /** notes: the page's footnotes (referenced as `[^label]` in its blocks), shown at the end of the document */
  notes?: Array<{ label: string; text: string }>;
  /** tabular: the page has lines of two or more cells, so its drawing may hold a table's rules (read only for such pages) */
  tabular?: boolean;
  /** filePages: how many pages the file holds (set where the page was read from its file; a page's foot that counts more is an excerpt's) */
  filePages?: number;
}

export interface Segment {
  text: string;
  x: number;
  x2: number;
  size: number;
  /** plain: the segment has letters in a face that is not bold (a line split at a gutter is bold by the segments it keeps) */
  plain?: boolean;
  /** y: the segment's own baseline when OCR read it on another line than the line's first run (a right column's line grouped with the left column's, a few points off it); absent otherwise */
  y?: number;
}

export interface RawLine {
  y: number;
  size: number;
  segs: Segment[];
  /** rtl: most of the line's text runs right to left, so its segments read from the right */
  rtl?: boolean;
  /** bold: all of the line's letters are in a bold face */
  bold?: boolean;
  /** code: the line's runs as printed, when all are in a monospace face (pdfCode.ts) */
  code?: CodeRun[];
  /** unsure: a run of the line was read by OCR with little confidence (PdfTextItem.unsure) */
  unsure?: boolean;
}
