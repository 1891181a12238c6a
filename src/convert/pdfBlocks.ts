/**
 * Blocks of one column of a PDF page: its lines -> tables (pdfTables.ts), code listings
 * (pdfCode.ts) and text blocks (`textBlocks`: a new block at a wider line gap, a size change, a
 * list item, a section title or a caption; `continuesInto` decides a wrapped line).
 */
import { codeBlock, codeRunEnd } from "./pdfCode";
import { CAPTION, isSectionTitle } from "./pdfHeadings";
import type { LayoutBlock, LayoutLine, RawLine } from "./pdfLayoutTypes";
import { dominantSize, median } from "./pdfLines";
import { isTheoremLabel, startsListItem } from "./pdfParagraphs";
import { headerBandAbove, joinStackedLabels, tableFrom, tableRunEnd } from "./pdfTables";

/** SENTENCE_END: a line that ends a sentence (its full stop, possibly inside a closing quote or bracket) */
const SENTENCE_END = /[.!?]["'”’)]?$/;

/** JUSTIFIED_GAP_EM: the widest gap between the segments of a justified line of prose, in font sizes. */
const JUSTIFIED_GAP_EM = 2.5;

/**
 * joinJustified makes one segment of each line that fills the column's width with gaps no wider
 * than a stretched word space: justified prose in a narrow column, not the cells of a table row.
 */
function joinJustified(lines: RawLine[]): RawLine[] {
  if (lines.length < 3 || lines.every((line) => line.segs.length < 2)) return lines;
  const left = Math.min(...lines.map((l) => l.segs[0]!.x));
  const right = columnRightEdge(lines);
  return lines.map((line) => {
    if (line.segs.length < 2) return line;
    const first = line.segs[0]!;
    const last = line.segs[line.segs.length - 1]!;
    if (first.x - left > line.size || right - last.x2 > line.size || last.x2 - first.x < 0.85 * (right - left)) return line;
    for (let i = 1; i < line.segs.length; i++) if (line.segs[i]!.x - line.segs[i - 1]!.x2 > JUSTIFIED_GAP_EM * line.size) return line;
    // a row of label and figures; or of figures mostly (a table of typewriter spacing fills the width too)
    const figures = line.segs.filter((seg) => !/\p{L}{2}/u.test(seg.text)).length;
    if ((line.segs.length <= 3 && figures > 0) || 2 * figures >= line.segs.length) return line;
    const text = line.segs.map((seg) => seg.text).join(" ");
    return { ...line, segs: [{ text, x: first.x, x2: last.x2, size: line.size }] };
  });
}

/**
 * columnBlocks splits the lines of one column into tables and text blocks; `boxRight`: the right
 * side of a box drawn around the column, where its lines wrap (a little inside it, for the box's
 * padding), when its own lines end short of it.
 */
export function columnBlocks(columnLines: RawLine[], pageWidth: number, boxRight?: number): LayoutBlock[] {
  const blocks: LayoutBlock[] = [];
  const lines = joinStackedLabels(joinJustified(columnLines));
  const body = dominantSize(lines.map((line) => [line.size, line.segs.reduce((sum, seg) => sum + seg.text.length, 0)]));
  const rightEdge = boxRight === undefined ? columnRightEdge(lines) : Math.max(columnRightEdge(lines), boxRight - BOX_PADDING_EMS * body);
  let pending: RawLine[] = [];
  const flushText = () => {
    blocks.push(...textBlocks(pending, rightEdge));
    pending = [];
  };
  let i = 0;
  while (i < lines.length) {
    // A listing in a monospace face is code, whatever its columns or markers (pdfCode.ts).
    const codeEnd = codeRunEnd(lines, i, body, pageWidth);
    if (codeEnd > i) {
      flushText();
      blocks.push(codeBlock(lines.slice(i, codeEnd)));
      i = codeEnd;
      continue;
    }
    const { end, wrapped } = tableRunEnd(lines, i);
    if (end - i >= 2) {
      // A header band above the table's first row (labels centred over the columns they span, in
      // one row or several, and the stub's label beside them) belongs to the table.
      const band = headerBandAbove(pending, lines.slice(i, end));
      const start = i - band;
      const table = tableFrom(lines.slice(start, end), new Set([...wrapped].map((w) => w - start)));
      if (table === "form") {
        // A form's fields are text, all of them: no table starts on one of its later lines.
        pending.push(...lines.slice(i, end));
        i = end;
        continue;
      }
      if (table) {
        pending.splice(pending.length - band, band);
        flushText();
        blocks.push(table);
        i = end;
        continue;
      }
    }
    pending.push(lines[i]!);
    i++;
  }
  flushText();
  return blocks;
}

/** BOX_PADDING_EMS: how far inside a box's right side (in the body's ems) a line that wraps may end */
const BOX_PADDING_EMS = 2;

function columnRightEdge(lines: RawLine[]): number {
  const ends = lines.map((l) => l.segs[l.segs.length - 1]!.x2).sort((a, b) => a - b);
  return ends.length ? ends[Math.floor(ends.length * 0.9)] ?? ends[ends.length - 1]! : 0;
}

/** lineSpacing is the usual distance between baselines in a column (double spacing doubles it). */
function lineSpacing(lines: RawLine[]): number {
  const gaps: number[] = [];
  for (let i = 1; i < lines.length; i++) {
    const gap = lines[i]!.y - lines[i - 1]!.y;
    if (gap > 0 && Math.abs(lines[i]!.size - lines[i - 1]!.size) < 0.5) gaps.push(gap);
  }
  return gaps.length >= 3 ? median(gaps) : 0;
}

/**
 * continuesInto says whether `line` wraps into `next`: `next` starts at the column's left edge and
 * its first word would not have fitted in the space left at the end of `line` (so a short line,
 * or a centred one, keeps its line break). A line written right to left (`rtl`) that starts at the
 * right edge ends at its left end: it wraps when that end leaves no room for the next line's first
 * word, into a line starting at either edge (a paragraph set from the right, or from the left as
 * a right-to-left text in a left-to-right paragraph is).
 */
function continuesInto(line: LayoutLine, next: LayoutLine, leftEdge: number, rightEdge: number, rtl = false): boolean {
  const firstWord = next.text.split(" ")[0] ?? "";
  const room = Math.max(line.size, (firstWord.length + 1) * 0.5 * line.size);
  if (rtl && rightEdge - line.x2 <= line.size) return line.x - leftEdge < room && (rightEdge - next.x2 <= next.size || next.x - leftEdge <= next.size);
  if (next.x - leftEdge > next.size) return false;
  return rightEdge - line.x2 < room;
}

/** FORM_ITEM_HEAD: a form's question or section number, a capital and one or two figures, before a capitalised title ("A3 Details of Individual", "B1 Type of operations") */
const FORM_ITEM_HEAD = /^\p{Lu}\d{1,2} \p{Lu}\p{Ll}/u;

/** centredIn: the line sits in the middle of the column, its two margins about equal (within two of its sizes) and each four of its sizes or more */
function centredIn(line: LayoutLine, leftEdge: number, rightEdge: number): boolean {
  return Math.abs(line.x - leftEdge - (rightEdge - line.x2)) <= 2 * line.size && line.x - leftEdge >= 4 * line.size;
}

/**
 * textBlocks groups lines into paragraphs: a new block starts at a wide vertical gap, a change of
 * font size, or a list marker; a line that reaches the column's right edge wraps into the next.
 */
function textBlocks(lines: RawLine[], rightEdge: number): LayoutBlock[] {
  const leftEdge = lines.length ? Math.min(...lines.map((l) => l.segs[0]!.x)) : 0;
  const spacing = lineSpacing(lines);
  const blocks: LayoutBlock[] = [];
  let current: LayoutLine[] = [];
  const flush = () => {
    if (!current.length) return;
    const sizes = current.map((l) => l.size);
    // a line OCR could hardly read (a plot's marks) makes its block text that is never a heading
    const unsure = current.some((line) => line.unsure);
    blocks.push({ kind: "text", lines: current, size: median(sizes), top: current[0]!.y - current[0]!.size, bottom: current[current.length - 1]!.y, ...(unsure ? { rendered: true } : {}) });
    current = [];
  };
  let prevSegs = 0;
  let prevRtl = false;
  for (const raw of lines) {
    const text = (raw.rtl ? [...raw.segs].reverse() : raw.segs).map((s) => s.text).join(" ");
    const line: LayoutLine = { text, x: raw.segs[0]!.x, x2: raw.segs[raw.segs.length - 1]!.x2, y: raw.y, size: raw.size, wraps: false, ...(raw.bold ? { bold: true } : {}), ...(raw.unsure ? { unsure: true } : {}) };
    const prev = current[current.length - 1];
    const prevCells = prevSegs >= 2 && raw.segs.length >= 2;
    prevSegs = raw.segs.length;
    const listStart = startsListItem(text);
    // A list item's wrapped lines hang at its text, right of its marker; a line left of its marker ends it.
    let leavesItem = false;
    if (prev) {
      const item = current[0]!;
      const inItem = startsListItem(item.text);
      const hanging = !listStart && inItem && line.x > item.x && line.x - item.x <= 4 * line.size;
      leavesItem = inItem && line.x < item.x - 0.5 * line.size;
      // Lines of separate cells (a form's labels over its values, left as text) keep their line break.
      const rtl = prevRtl && raw.rtl === true;
      prev.wraps = !leavesItem && !prevCells && continuesInto(prev, line, hanging && !rtl ? line.x : leftEdge, rightEdge, rtl);
    }
    prevRtl = raw.rtl === true;
    if (prev) {
      const em = Math.max(prev.size, line.size);
      const gap = line.y - prev.y;
      const sizeChange = Math.abs(prev.size - line.size) > 0.12 * em;
      // A numbered section title is a block of its own, even in the body's font and spacing.
      const sectionEdge = (!prev.wraps && isSectionTitle(text)) || (current.length === 1 && !prev.wraps && isSectionTitle(prev.text));
      // So is a line all in bold above a paragraph that is not (a heading in the body's size), and
      // a bold line a paragraph's gap below another (headings in a document of wide line spacing).
      // A bold line that is no sentence, after a paragraph's last sentence (a line that ends one and
      // does not wrap into it), starts a block too: a head at the body's spacing, no gap above it.
      // So does a bold line centred in the column, clear of both its edges, under a line that does
      // not wrap into it, whatever that line ends in (a law's article heads between its paragraphs,
      // "(المادة الأولى)" under an enacting clause that ends in "؛").
      const centred = centredIn(line, leftEdge, rightEdge);
      // And a form's bold question head led by its number ("A3 Details of Individual"), under the last field's label.
      const boldHead = !prev.wraps && !prev.bold && line.bold && raw.segs.length === 1 && (SENTENCE_END.test(prev.text) || centred || FORM_ITEM_HEAD.test(text)) && !/[.,;:]$/.test(text) && !isTheoremLabel(text);
      // A bold centred line over a bold line at the column's edge is a title over something else (a
      // law's subject under its title, over the enacting words set at the right).
      const boldTurn = prev.bold && line.bold && !prev.wraps && centredIn(prev, leftEdge, rightEdge) && !centred;
      const boldEdge = (!prev.wraps && !line.bold && current.every((l) => l.bold)) || (prev.bold && line.bold && gap > 1.6 * em) || boldHead || boldTurn;
      // A caption set in bold ("TABLE 6" over its title's lines, in another size, at line spacing:
      // a bold label further below is a figure's) is one paragraph.
      const caption = CAPTION.test(current[0]!.text) && current.every((l) => l.bold) && line.bold && gap > 0 && gap <= 1.35 * em && !listStart;
      if (caption) prev.wraps = true;
      else if (gap > Math.max(1.6 * em, 1.3 * spacing) || gap < 0 || sizeChange || listStart || sectionEdge || boldEdge || leavesItem) flush();
    }
    current.push(line);
  }
  flush();
  return blocks;
}
