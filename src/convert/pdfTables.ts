/**
 * Tables from aligned text in PDF pages (no rules drawn): where a run of lines with two or more
 * segments ends (`tableRunEnd`: group labels, wrapped cells, a header band in mixed sizes), the
 * header band above it (`headerBandAbove`), and the rows and columns (`tableFrom`: positions
 * clustered into columns, figure columns split apart, a header wrapped over lines joined). Form
 * fields (a label and its value) are told apart from tables here (`isFormField`, `isFormRows`,
 * `looksTabular`), also for ruled grids (pdfRuledTables.ts).
 */
import { CAPTION, SECTION_NUMBER } from "./pdfHeadings";
import type { ColumnEdge, LayoutBlock, RawLine, Segment } from "./pdfLayoutTypes";
import { median } from "./pdfLines";
import { joinWrapped } from "./pdfParagraphs";

/** FIELD_LABEL: the label of a form's field on its own line: words, no digits ("NOME/RAZÃO SOCIAL", "Date of birth") */
const FIELD_LABEL = /^[^\d:]{2,60}:?$/u;
/** LABEL_VALUE: "Label: value" in one line, as forms and invoice headers print their fields */
const LABEL_VALUE = /^[^\d:]{2,40}\s?:\s*\S/u;
/** NUMERIC_CELL: an amount, quantity, date, percentage or code: what a table's data columns hold */
const NUMERIC_CELL = /^[^\p{L}]*\d[^\p{L}]*$|^\p{L}{0,4}\s?[\d.,\s/%-]*\d[\d.,\s/%-]*\s?\p{L}{0,4}$/u;

/**
 * isFormField: a ruled box that reads as a form's field, not a table's cell: a label on its first
 * line with its value on the lines below (the label without digits, the value with some), or each
 * line a "Label: value".
 */
export function isFormField(lines: string[]): boolean {
  if (lines.length >= 2 && FIELD_LABEL.test(lines[0]!.trim()) && lines.slice(1).some((line) => /\d/.test(line))) return true;
  return lines.length > 0 && lines.every((line) => LABEL_VALUE.test(line.trim()));
}

/**
 * isFormRows: aligned rows that are a form's fields rather than a table: rows taken in pairs (from
 * the first or the second row), a pair's cells of one column read as the lines of one field by
 * isFormField (a label over its value, "Label: value"), and half the cells or more are fields,
 * in two pairs or more (a table's header over its first row of figures is one such pair), or
 * every cell is a "Label: value". The same evidence gridTable counts in ruled boxes.
 */
function isFormRows(rows: string[][]): boolean {
  const cells = rows.flat().filter((cell) => cell.trim());
  if (cells.length && cells.every((cell) => LABEL_VALUE.test(cell.trim()))) return true;
  if (rows.length < 4) return false;
  for (const offset of [0, 1]) {
    let filled = 0;
    let fields = 0;
    let pairs = 0;
    for (let r = offset; r + 1 < rows.length; r += 2) {
      let pairFields = 0;
      for (let c = 0; c < rows[r]!.length; c++) {
        const lines = [rows[r]![c]!, rows[r + 1]![c]!].map((cell) => cell.trim()).filter(Boolean);
        if (!lines.length) continue;
        filled++;
        if (isFormField(lines)) pairFields++;
      }
      fields += pairFields;
      if (pairFields) pairs++;
    }
    if (pairs >= 2 && 2 * fields >= filled) return true;
  }
  return false;
}

/**
 * looksTabular: the evidence that a ruled grid holds a table rather than a form's boxes or a framed
 * title: two rows or more with two or more cells filled, and either a column of numbers under a
 * header of words (the same type down the rows), or rows that fill the same two or more columns
 * (at least two, and half the rows) with short cells (a list of records), in three columns or more,
 * or a grid of three rows and three columns or more that holds figures only.
 * A title box over one number, a form's rows each of its own shape, or labels beside their values
 * in two columns, give neither.
 */
export function looksTabular(rows: string[][]): boolean {
  if (rows.filter((row) => row.filter((cell) => cell.trim()).length >= 2).length < 2) return false;
  const body = rows.slice(1);
  for (let c = 0; c < rows[0]!.length; c++) {
    const cells = body.map((row) => row[c]!.trim()).filter(Boolean);
    const head = rows[0]![c]!.trim();
    if (cells.length >= 1 && head && !NUMERIC_CELL.test(head) && cells.every((cell) => NUMERIC_CELL.test(cell))) return true;
  }
  const patterns = new Map<string, number>();
  for (const row of rows) {
    if (row.filter((cell) => cell.trim()).length < 2) continue;
    const key = row.map((cell) => (cell.trim() ? 1 : 0)).join("");
    patterns.set(key, (patterns.get(key) ?? 0) + 1);
  }
  const common = Math.max(0, ...patterns.values());
  const cells = rows.flat().filter((cell) => cell.trim());
  // A grid of figures only, three by three or more, is a table of numbers: a form's box has a label.
  if (rows.length >= 3 && rows[0]!.length >= 3 && cells.every((cell) => NUMERIC_CELL.test(cell.trim()))) return true;
  const short = cells.filter((cell) => cell.length <= 60).length;
  // Two columns of words are a form's labels beside their values as often as a table: only numbers tell.
  if (rows[0]!.length < 3) return false;
  return common >= 2 && 2 * common >= rows.length && 4 * short >= 3 * cells.length;
}

export function lineText(line: RawLine): string {
  return line.segs.map((seg) => seg.text).join(" ");
}

/** STACKED_GAP: the most a line's baseline is off a row's, in the row's size, to be part of it (the next line of a paragraph or a table is a size or more away) */
const STACKED_GAP = 0.6;

/**
 * joinStackedLabels makes one row of a header line and the labels stacked beside it: a header row
 * of three cells or more whose one-line labels sit on its baseline, and a column's label of two
 * lines centred on it, half a line above and half below ("Cost on U.S." / "operators" beside
 * "Action", "Labor cost", "Parts cost"). The two lines are closer to the row than a next line is,
 * in its size, with words, in a column the row leaves free, the one over the other (a group label
 * over columns, above the row only, is a header band's: headerBandAbove).
 */
export function joinStackedLabels(lines: RawLine[]): RawLine[] {
  const out: RawLine[] = [];
  const taken = new Set<number>();
  const near = (row: RawLine, k: number) => {
    const line = lines[k];
    if (!line || taken.has(k) || line.segs.length >= row.segs.length || Math.abs(line.y - row.y) > STACKED_GAP * row.size || Math.abs(line.size - row.size) > 0.25 * row.size) return false;
    return line.segs.every((seg) => /\p{L}{3}/u.test(seg.text) && row.segs.every((cell) => seg.x2 < cell.x - 0.5 * row.size || seg.x > cell.x2 + 0.5 * row.size));
  };
  for (let i = 0; i < lines.length; i++) {
    const [above, row, below] = [lines[i - 1], lines[i]!, lines[i + 1]];
    if (taken.has(i)) continue;
    if (row.segs.length < 3 || !above || !below || !near(row, i - 1) || !near(row, i + 1) || !stackedOn(row, above, below)) {
      out.push(row);
      continue;
    }
    // the row takes the place of the line above it, which is out already
    out.pop();
    taken.add(i + 1);
    const labels = above.segs.map((seg) => {
      const parts = below.segs.filter((part) => sharesWidth(seg, part));
      return { ...seg, text: [seg.text, ...parts.map((part) => part.text)].join(" "), x: Math.min(seg.x, ...parts.map((p) => p.x)), x2: Math.max(seg.x2, ...parts.map((p) => p.x2)) };
    });
    const { bold: _, ...plain } = row;
    const joined = { ...plain, segs: [...row.segs, ...labels].sort((a, b) => a.x - b.x) };
    out.push(row.bold && above.bold && below.bold ? { ...joined, bold: true } : joined);
  }
  return out;
}

/** sharesWidth: two segments share some of their width */
function sharesWidth(a: Segment, b: Segment): boolean {
  return a.x < b.x2 && a.x2 > b.x;
}

/** stackedOn: `row`'s baseline runs about midway between `above` and `below`, each part of the one over or under a part of the other (one label's two lines) */
function stackedOn(row: RawLine, above: RawLine, below: RawLine): boolean {
  if (Math.abs(row.y - above.y - (below.y - row.y)) > 0.3 * (below.y - above.y)) return false;
  return above.segs.every((seg) => below.segs.some((part) => sharesWidth(seg, part))) && below.segs.every((seg) => above.segs.some((part) => sharesWidth(seg, part)));
}

/**
 * headerBandAbove counts the last lines of `pending` that are a header band over the table `rows`:
 * rows of group labels (isGroupHeader), each at line spacing above the line under it, with the
 * lines of the stub's label between them (a short label alone at the rows' left edge: "Age group"
 * over "(yrs)", set between the group row and the column titles). The band's top line is a row of
 * group labels; the second line of a caption that wraps above the table is none.
 */
export function headerBandAbove(pending: RawLine[], rows: RawLine[]): number {
  const left = Math.min(...rows.map((row) => row.segs[0]!.x));
  const second = Math.min(...rows.flatMap((row) => row.segs.slice(1).map((seg) => seg.x)));
  let below = rows[0]!;
  let count = 0;
  for (let k = pending.length - 1; k >= 0; k--) {
    const line = pending[k]!;
    const em = Math.max(line.size, below.size);
    if (below.y <= line.y || below.y - line.y > 1.8 * em || Math.abs(line.size - rows[0]!.size) > 0.25 * rows[0]!.size) break;
    // (not the second line of a caption that wraps above the table: "Table 14. ... School years 2003–04" / "through 2021–22")
    const caption = pending[k - 1];
    if (caption !== undefined && CAPTION.test(lineText(caption)) && line.y - caption.y <= 1.5 * Math.max(line.size, caption.size)) break;
    if (isGroupHeader(line, rows, below)) count = pending.length - k;
    else if (!isStubLine(line, left, second)) break;
    below = line;
  }
  return count;
}

/** isStubLine: a line of one short label at the rows' left edge that ends before the second column starts */
function isStubLine(line: RawLine, left: number, second: number): boolean {
  const seg = line.segs[0]!;
  return line.segs.length === 1 && Math.abs(seg.x - left) <= 0.5 * seg.size && seg.x2 < second && seg.text.length <= 40 && /\p{L}/u.test(seg.text) && !/[.!?:;]$/.test(seg.text) && !CAPTION.test(seg.text);
}

/**
 * isGroupHeader says whether `line`, above a table's rows (at line spacing above the line `below`
 * it, the first row or another header line), is a header row of labels that span columns: fewer
 * cells than the first row, short labels within the table's width, none at the first column (where
 * a caption or the text before the table starts), each starting at a column or centred over two or
 * more (a title is centred over the table).
 */
function isGroupHeader(line: RawLine, rows: RawLine[], below: RawLine = rows[0]!): boolean {
  const first = rows[0]!;
  if (line.segs.length >= first.segs.length || below.y - line.y > 1.8 * Math.max(line.size, below.size) || below.y <= line.y) return false;
  if (Math.abs(line.size - first.size) > 0.25 * first.size) return false;
  const left = Math.min(...rows.map((r) => r.segs[0]!.x));
  const right = Math.max(...rows.map((r) => r.segs[r.segs.length - 1]!.x2));
  // The columns below: starts shared by two rows, each with the right end of its cells.
  const counts = new Map<number, { rows: number; end: number }>();
  for (const row of rows) {
    for (const seg of row.segs) {
      const key = Math.round(seg.x);
      const column = counts.get(key) ?? { rows: 0, end: seg.x2 };
      counts.set(key, { rows: column.rows + 1, end: Math.max(column.end, seg.x2) });
    }
  }
  const columns = [...counts.entries()].filter(([, c]) => c.rows >= 2).map(([start, c]) => ({ start, end: c.end })).sort((a, b) => a.start - b.start);
  // A label starts at a column, or is centred over two or more (a title centred over the table is neither).
  const overColumns = (seg: Segment) => {
    const centre = (seg.x + seg.x2) / 2;
    if (columns.some((c) => Math.abs(seg.x - c.start) <= 0.5 * first.size)) return true;
    for (let a = 0; a < columns.length; a++) {
      for (let b = a + 1; b < columns.length; b++) if (Math.abs(centre - (columns[a]!.start + columns[b]!.end) / 2) <= first.size) return true;
    }
    return false;
  };
  return line.segs.every(
    (seg) =>
      seg.x > left + first.size &&
      seg.x2 <= right + first.size &&
      seg.text.length <= 40 &&
      seg.x2 - seg.x <= 0.6 * (right - left) &&
      !/^(?:table|tab\.|figure|fig\.)\s/i.test(seg.text) &&
      overColumns(seg),
  );
}

/** TableRun: lines [start, end) of a table; `wrapped` holds the indexes of lines that continue cells of the row above. */
interface TableRun {
  end: number;
  wrapped: Set<number>;
}

/**
 * tableRunEnd finds the run of table-like lines starting at `start`: lines of two or more cells in
 * the same font size, closely spaced, and the lines of cells that wrap (fewer cells, at line
 * spacing below, each starting where a cell of the rows above starts). Any other line of one
 * cell (a caption, a section title) ends the run.
 */
export function tableRunEnd(lines: RawLine[], start: number): TableRun {
  const first = lines[start]!;
  const wrapped = new Set<number>();
  if (first.segs.length < 2) return { end: start, wrapped };
  let end = start + 1;
  let lastRow = start;
  let widest = first.segs.length;
  // Cell starts rounded to whole points, with how many rows have a cell there (a title spanning
  // columns starts where no column does).
  const starts = new Map<number, number>();
  const addStarts = (line: RawLine) => {
    for (const seg of line.segs) starts.set(Math.round(seg.x), (starts.get(Math.round(seg.x)) ?? 0) + 1);
  };
  addStarts(first);
  let cellStarts = [...starts.keys()];
  let rightEdge = Math.max(...first.segs.map((seg) => seg.x2));
  while (end < lines.length) {
    const prev = lines[end - 1]!;
    const line = lines[end]!;
    if (line.y - prev.y > 3 * Math.max(prev.size, line.size)) break;
    if (Math.abs(line.size - first.size) > 0.25 * first.size) break;
    if (isNumberedTitleLine(line, prev)) break;
    const below = lines[end + 1];
    if (below !== undefined && labelWrapsIntoRow(line, below, cellStarts) && line.y - prev.y <= 1.8 * Math.max(prev.size, line.size)) {
      // the label's first line and the row it wraps into: one row
      wrapped.add(end + 1);
      lastRow = end + 1;
      for (const seg of below.segs) rightEdge = Math.max(rightEdge, seg.x2);
      end += 2;
      continue;
    }
    const wraps = line.segs.length < widest && line.y - prev.y <= 1.35 * Math.max(prev.size, line.size) && line.segs.every((seg) => wrapsCellAbove(seg, line, prev, wrapped.has(end - 1), cellStarts, rightEdge));
    if (wraps) {
      wrapped.add(end);
    } else if (line.segs.length >= 2) {
      lastRow = end;
      widest = Math.max(widest, line.segs.length);
      addStarts(line);
      const shared = [...starts.entries()].filter(([, rows]) => rows >= 2).map(([x]) => x);
      cellStarts = shared.length >= 2 ? shared : [...starts.keys()];
    } else if (isGroupLabelRow(line, prev, lines[end + 1], Math.min(...cellStarts)) || isSpanningGroupRow(line, prev, lines[end + 1], cellStarts, rightEdge)) {
      lastRow = end;
    } else {
      break;
    }
    for (const seg of line.segs) rightEdge = Math.max(rightEdge, seg.x2);
    end++;
  }
  // Wrapped lines after the last row are kept only off the first column: in the first column they
  // are as likely the paragraph after the table.
  const leftmost = Math.min(...cellStarts);
  while (end - 1 > lastRow && lines[end - 1]!.segs.some((seg) => Math.abs(seg.x - leftmost) <= 0.5 * seg.size)) wrapped.delete(--end);
  for (const i of [...wrapped]) if (i >= end) wrapped.delete(i);
  // The run's last line, set apart below the rows and words two of which sit in one column of
  // them, is the note or paragraph under the table; its first, so over the rows, the caption's or
  // paragraph's last line above it.
  const apart = (a: number, b: number, c: number) => Math.abs(lines[b]!.y - lines[a]!.y) > APART_LINE * Math.abs(lines[c]!.y - lines[b]!.y);
  if (end - start >= 4 && !wrapped.has(end - 1) && apart(end - 1, end - 2, end - 3) && isProseBesideRows(lines[end - 1]!, lines.slice(start, end - 1))) end--;
  if (end - start >= 4 && apart(start, start + 1, start + 2) && isProseBesideRows(first, lines.slice(start + 1, end))) return { end: start, wrapped: new Set() };
  // A line with a cell in display type is a header band's: no table holds it or the rows above it.
  if (lines.slice(start, end).some(hasDisplayCell)) return { end: start, wrapped: new Set() };
  // Nor do the header band's lines under it that mix type sizes (a form's boxes beside its title).
  if (inHeaderBand(lines, start)) return { end: start, wrapped: new Set() };
  return { end, wrapped };
}

/** APART_LINE: how many times the rows' spacing a line under or over them is off the nearest, to be set apart */
const APART_LINE = 1.4;

/**
 * isProseBesideRows: a line of words just under or over a table's rows, two of its words side by
 * side in one column of the rows (a column of single figures, or the stub: the labels of the rows
 * of figures): a source note, a caption's last line or a paragraph set in a face whose word gaps
 * measure as cell gaps ("Source: The NHANES III data file, 1988-94" in a typewriter face, or read
 * by OCR), which no row of the table is: a row's cells keep to their columns.
 */
function isProseBesideRows(line: RawLine, rows: RawLine[]): boolean {
  if (line.segs.length < 3 || line.segs.filter((seg) => /\p{L}/u.test(seg.text)).length < 2) return false;
  const spans = figureSpans(rows);
  if (spans.length < 2) return false;
  const figureRows = rows.filter((row) => row.segs.length >= 3 && row.segs.slice(1).filter((seg) => FIGURE_TOKEN.test(seg.text)).length >= 2);
  const labels = figureRows.map((row) => row.segs[0]!);
  // (one column of labels, left of every such row's second cell)
  if (labels.length >= 2 && Math.max(...labels.map((seg) => seg.x2)) < Math.min(...figureRows.map((row) => row.segs[1]!.x))) {
    // (the labels that are figures, age bands "12-19", made a span of their own: the stub takes it in, if it ends within the stub)
    const stub = { x: Math.min(...labels.map((seg) => seg.x)), x2: Math.max(...labels.map((seg) => seg.x2)) };
    const over = spans.filter((span) => span.x < stub.x2 && span.x2 > stub.x);
    if (over.every((span) => span.x2 <= stub.x2 + 0.01)) {
      for (const span of over) spans.splice(spans.indexOf(span), 1);
      spans.push({ x: Math.min(stub.x, ...over.map((span) => span.x)), x2: stub.x2 });
    }
  }
  return line.segs.some((seg, k) => {
    const next = line.segs[k + 1];
    if (!next || !/\p{L}/u.test(seg.text) || !/\p{L}/u.test(next.text)) return false;
    return spans.some((span) => seg.x < span.x2 && seg.x2 > span.x && next.x < span.x2 && next.x2 > span.x);
  });
}

/** DISPLAY_TYPE: how many times its line's text size a cell is set at to be display type */
const DISPLAY_TYPE = 2;

/**
 * hasDisplayCell: a line of cells one of which is set in display type (twice the line's text size
 * or more): a form's header band, its large form number or year beside its title and small print
 * ("Form 3903" in 24 pt, "Moving Expenses", "OMB No. 1545-0074" in 7 pt), whose boxes side by side
 * only happen to share baselines. A table sets a row in one size, so such a line is no row of one.
 */
function hasDisplayCell(line: RawLine): boolean {
  return line.segs.length >= 2 && line.segs.some((seg) => seg.size >= DISPLAY_TYPE * line.size);
}

/** MIXED_SIZES: how many times its smallest cell's size a line's largest cell is set at to mix type sizes */
const MIXED_SIZES = 1.4;
/** LARGER_CELL: how many times its line's text size (the size most of its characters have) that largest cell is set at */
const LARGER_CELL = 1.25;

/**
 * inHeaderBand: line `start` mixes type sizes, as do the lines between it and a line with a display
 * cell right above them (each within three line heights of the next): the boxes of a form's header
 * band go on under its display-type line ("Department of the Treasury" in 7 pt beside an 8 pt
 * instruction, an icon's 11 pt "2441" and "Attachment", then "Sequence No. 21" in 10 pt, under
 * IRS Form 2441's 20 pt year). A table's rows under a title are each set in one size; away from a
 * display line, a larger amount in a totals row ("300,00 EUR") does not end its table.
 */
function inHeaderBand(lines: RawLine[], start: number): boolean {
  for (let i = start; i > 0; i--) {
    const [above, line] = [lines[i - 1]!, lines[i]!];
    if (!mixesTypeSizes(line) || line.y - above.y > 3 * Math.max(above.size, line.size)) return false;
    if (hasDisplayCell(above)) return true;
  }
  return false;
}

/**
 * mixesTypeSizes: a line with a cell set larger than its text (LARGER_CELL) and MIXED_SIZES times
 * its smallest cell or more. A smaller cell alone (a raised note letter, 6 pt in an 8 pt table
 * note) does not count.
 */
function mixesTypeSizes(line: RawLine): boolean {
  const sizes = line.segs.map((seg) => seg.size);
  const largest = Math.max(...sizes);
  return sizes.length >= 2 && largest >= MIXED_SIZES * Math.min(...sizes) && largest >= LARGER_CELL * line.size;
}

/**
 * isGroupLabelRow: a short label alone in the first column between rows of cells, the rows under
 * it indented ("Sex" under a header row, over "  Female 200,915 103.1 ..."), which is a row of the
 * table, not the end of it.
 */
function isGroupLabelRow(line: RawLine, prev: RawLine, next: RawLine | undefined, firstColumn: number): boolean {
  if (!next || line.segs.length !== 1 || next.segs.length < 2) return false;
  const seg = line.segs[0]!;
  const em = Math.max(line.size, next.size);
  if (Math.abs(seg.x - firstColumn) > 0.5 * em || seg.text.length > 40 || !/\p{L}/u.test(seg.text) || CAPTION.test(seg.text)) return false;
  if (Math.abs(next.size - line.size) > 0.25 * line.size || next.y - line.y > 1.8 * em || line.y - prev.y > 2.5 * em) return false;
  // the rows under it are indented under the label (a line of the first column over rows that are
  // not is a caption's second line or the title of the next table)
  return next.segs[0]!.x >= seg.x + 0.25 * em && next.segs[0]!.x <= seg.x + 2 * em;
}

/**
 * isSpanningGroupRow: a group's label across the columns between rows ("Pretraining ✦ OLMo 2 1124
 * Mix" centred over a paper's table under its header, over the first group's rows): one cell inside
 * the table's width, off its first column, over at least one column's start, with a word in it,
 * between rows of three cells or more at row spacing. A caption is none, nor is a line as wide as
 * the table, nor a displayed formula's middle line ("• 0 MD" between a matrix's rows).
 */
function isSpanningGroupRow(line: RawLine, prev: RawLine, next: RawLine | undefined, cellStarts: number[], rightEdge: number): boolean {
  if (!next || line.segs.length !== 1 || next.segs.length < 3 || prev.segs.length < 3) return false;
  const seg = line.segs[0]!;
  const em = Math.max(line.size, next.size);
  const left = Math.min(...cellStarts);
  if (seg.x - left <= em || seg.x2 > rightEdge + 0.5 * em || seg.x2 - seg.x > 0.8 * (rightEdge - left) || !/\p{L}{3}/u.test(seg.text) || CAPTION.test(seg.text)) return false;
  if (Math.abs(next.size - line.size) > 0.25 * line.size || next.y - line.y > 1.8 * em || line.y - prev.y > 1.8 * em) return false;
  return cellStarts.some((x) => x > seg.x + 0.5 * em && x < seg.x2 - 0.5 * em);
}

/**
 * labelWrapsIntoRow: a row label of two lines whose row's cells are on the second ("amount-of-substance
 * concentration" alone, then "amount concentration, concentration" beside "mole per cubic meter"):
 * a line of one cell at the first column, the next line at line spacing starting there too with
 * cells in other columns, and the next line's first word would not have fitted after the label's
 * first line before the second column (the way a paragraph wraps, within the cell). A short group
 * label over its rows leaves that room.
 */
function labelWrapsIntoRow(line: RawLine, next: RawLine, cellStarts: number[]): boolean {
  if (line.segs.length !== 1 || next.segs.length < 2) return false;
  const seg = line.segs[0]!;
  const first = next.segs[0]!;
  const em = Math.max(line.size, next.size);
  const leftmost = Math.min(...cellStarts);
  // (at the first column, or indented under a group's row as its items are: "Murder and nonnegligent" under
  // "Violent crime"; an indented label that ends in a colon introduces the rows below: "Basisartikel:")
  const indented = Math.abs(seg.x - leftmost) > 0.5 * em;
  if (seg.x < leftmost - 0.5 * em || seg.x > leftmost + 2 * em || (indented && /:$/.test(seg.text)) || Math.abs(first.x - seg.x) > 0.5 * em || next.y - line.y > 1.6 * em || Math.abs(next.size - line.size) > 0.25 * line.size) return false;
  // (words wrap into words: a figure under a label is a row of its own)
  if (!/\p{L}/u.test(seg.text) || !/\p{L}/u.test(first.text) || CAPTION.test(seg.text) || SECTION_NUMBER.test(seg.text)) return false;
  const secondColumn = Math.min(next.segs[1]!.x, ...cellStarts.filter((x) => x > seg.x2));
  const firstWord = first.text.split(" ")[0] ?? "";
  const wordWidth = ((first.x2 - first.x) * firstWord.length) / Math.max(1, first.text.length);
  return seg.x2 < secondColumn && secondColumn - seg.x2 < wordWidth + 0.8 * em;
}

/**
 * isNumberedTitleLine: a bold section title after rows that are not bold, its number apart from
 * its words ("4.2" + "SI derived units", a tab between them), which would otherwise read as a row
 * of two cells under the table before it.
 */
function isNumberedTitleLine(line: RawLine, prev: RawLine): boolean {
  if (!line.bold || prev.bold || line.segs.length !== 2 || !/^\d{1,2}(?:\.\d{1,2})*\.?$/.test(line.segs[0]!.text)) return false;
  return SECTION_NUMBER.test(`${line.segs[0]!.text} ${line.segs[1]!.text}`);
}

/**
 * wrapsCellAbove says whether `seg` continues the cell above it in `prev`: it starts within that
 * cell, is not a figure, and is the one cell of its line off the first column, or off the first
 * column starts in lower case or after a comma, semicolon or open bracket, or its first word
 * would not have fitted in the room left between that cell's end and the next column (the way a
 * paragraph's line wraps, within a cell).
 */
function wrapsCellAbove(seg: Segment, line: RawLine, prev: RawLine, prevWrapped: boolean, cellStarts: number[], rightEdge: number): boolean {
  const above = prev.segs.find((cell) => seg.x >= cell.x - 0.5 * seg.size && seg.x <= cell.x2);
  if (!above) return false;
  // A figure under a cell is a row of its own, unless a code broken at a hyphen or a cell already wrapping goes on.
  if (/^[\d\s.,%$€£¥()+\-–]+$/.test(seg.text) && !prevWrapped && !above.text.endsWith("-")) return false;
  // Nor does a capitalised word go on from a cell that is a bare number (a row's number "3" over
  // the next group's name "Chemistry": the group row of a numbered table).
  if (/^\d{1,4}\.?$/.test(above.text) && /^\p{Lu}/u.test(seg.text)) return false;
  // The one cell of a line off the first column: the next line or paragraph of a cell above.
  const offFirst = seg.x - Math.min(...cellStarts) > seg.size;
  if (line.segs.length === 1 && offFirst) return true;
  // A note in smaller type under a cell's name, the next line of a note started above (a paper's
  // "filtered version" / "from OLMoE Mix" under "StarCoder"): set where the note's first line starts.
  if (line.segs.length === 1 && seg.size < 0.85 * prev.size && Math.abs(above.size - seg.size) < 0.5 && Math.abs(seg.x - above.x) <= 0.5 * seg.size) return true;
  // Off the first column, a cell's next line in a column of fixed width: it starts in lower case,
  // or the line above breaks off after a comma, semicolon or open bracket (a new item in the
  // column starts in capitals, or with a figure).
  if (offFirst && (/^\p{Ll}/u.test(seg.text) || /[,;(]$/.test(above.text))) return true;
  const nextColumn = Math.min(rightEdge, ...cellStarts.filter((x) => x > above.x2));
  // the first word's width, from the segment's own width per character, plus a space and the cell padding
  const firstWord = seg.text.split(" ")[0] ?? "";
  const wordWidth = ((seg.x2 - seg.x) * firstWord.length) / Math.max(1, seg.text.length);
  return nextColumn - above.x2 < wordWidth + 0.8 * seg.size;
}

/** clusterPositions groups sorted positions closer than `tolerance` to their neighbour. */
export function clusterPositions(values: number[], tolerance: number): number[][] {
  const clusters: number[][] = [];
  for (const v of [...values].sort((a, b) => a - b)) {
    const last = clusters[clusters.length - 1];
    if (last && v - last[last.length - 1]! <= tolerance) last.push(v);
    else clusters.push([v]);
  }
  return clusters;
}

/**
 * tableFrom makes a table of lines whose cells share x-positions. Columns are the left edges shared
 * by two or more cells, plus the right edges shared by cells that start elsewhere (right-aligned
 * numbers); or, when those split the table into more columns than the x-ranges its cells cover
 * (columnSpans: figures of different widths under one header), the ranges. It returns null unless at least three lines have cells in two or more columns, or the
 * run is a header and one row of three or more cells that all share left edges; "form" when the
 * rows are a form's fields (isFormRows). A header of several rows over figures (group labels
 * over the column titles) is laid out by headerBand, titles set too close to be apart first cut
 * by splitHeaderAtFigureColumns.
 */
export function tableFrom(lines: RawLine[], wrapped: Set<number> = new Set()): LayoutBlock | "form" | null {
  const size = median(lines.map((l) => l.size));
  lines = splitHeaderAtFigureColumns(splitAtFigureColumns(lines.map(withoutLeader), size), size);
  const tolerance = 0.5 * size;
  const segs = lines.flatMap((l) => l.segs);
  const starts = clusterPositions(segs.map((s) => s.x), tolerance).filter((c) => c.length >= 2);
  const startAt = (s: Segment) => starts.findIndex((c) => s.x >= c[0]! - 0.01 && s.x <= c[c.length - 1]! + 0.01);
  // A column whose cells also share their right edge (right-aligned numbers of one width) takes
  // the right-aligned cells that start elsewhere: a longer number, its header.
  const rightEdges = starts.map((_, i) => {
    const x2s = segs.filter((s) => startAt(s) === i).map((s) => s.x2);
    return Math.max(...x2s) - Math.min(...x2s) <= 0.2 * size ? median(x2s) : NaN;
  });
  const startOf = (s: Segment) => {
    const at = startAt(s);
    return at >= 0 ? at : rightEdges.findIndex((x2) => Math.abs(s.x2 - x2) <= 0.2 * size);
  };
  const loose = segs.filter((s) => startOf(s) < 0);
  const ends = clusterPositions(loose.map((s) => s.x2), tolerance).filter((c) => c.length >= 2);
  const endOf = (s: Segment) => ends.findIndex((c) => s.x2 >= c[0]! - 0.01 && s.x2 <= c[c.length - 1]! + 0.01);
  const anchors = [
    ...starts.map((c) => c[0]!),
    ...ends.map((c) => Math.min(...loose.filter((s) => s.x2 >= c[0]! - 0.01 && s.x2 <= c[c.length - 1]! + 0.01).map((s) => s.x))),
  ];
  const order = anchors.map((x, i) => ({ x, i })).sort((a, b) => a.x - b.x);
  if (order.length < 2) return null;
  function columnOfAnchors(s: Segment): number {
    const si = startOf(s);
    if (si >= 0) return order.findIndex((o) => o.i === si);
    const ei = endOf(s);
    if (ei >= 0) return order.findIndex((o) => o.i === starts.length + ei);
    let column = 0;
    order.forEach((o, k) => {
      if (o.x <= s.x + tolerance) column = k;
    });
    return column;
  }
  // Two rows are a table when every cell of both starts at a shared left edge: three or more
  // cells a row, or two a row with the second column clear of the first by more than a word gap.
  const headerAndRow =
    lines.length === 2 &&
    wrapped.size === 0 &&
    lines.every((l) => l.segs.length === lines[0]!.segs.length && l.segs.length >= 2 && l.segs.every((seg) => startOf(seg) >= 0)) &&
    (lines[0]!.segs.length >= 3 || lines.every((l) => l.segs[1]!.x - l.segs[0]!.x2 > 2 * size));
  const tableOf = (rows: string[][], columns: ColumnEdge[], columnOf: (s: Segment) => number) => {
    const multiCell = rows.filter((r) => r.filter(Boolean).length >= 2).length;
    if (multiCell < 3 && !headerAndRow) return null;
    const banded = headerBand(lines, wrapped, rows, columnOf, size);
    return tableOfRows(lines, banded ?? rows, size, columns, isFormRows, wrapped, banded === null);
  };
  const anchorRows = order.length <= 15 ? fillRows(lines, wrapped, order.length, columnOfAnchors) : [];
  const anchorColumns = order.filter((_, c) => anchorRows.some((r) => r[c])).length;
  // Edges that split the columns further than the cells' extents do (right-aligned figures of
  // different widths, a header centred over them) give way to the extents, when those keep each
  // line's cells apart and make a table.
  const spans = columnSpans(lines, wrapped);
  // So do they when the edges put two cells of one line in one column (a header cell that starts left of its column's figures).
  const collides = order.length <= 15 && lines.some((line, i) => !wrapped.has(i) && new Set(line.segs.map(columnOfAnchors)).size < line.segs.length);
  if (spans !== null && spans.used.length >= 2 && spans.used.length <= 15 && (order.length > 15 || spans.used.length < anchorColumns || (collides && spans.used.length <= anchorColumns))) {
    const table = tableOf(spans.rows, spans.columns, spans.columnOf);
    if (table && table !== "form") return table;
  }
  if (order.length > 15) return null;
  return tableOf(
    anchorRows,
    order.map((o) => (o.i < starts.length ? { x: o.x, right: false } : { x: ends[o.i - starts.length]![0]!, right: true })),
    columnOfAnchors,
  );
}

/**
 * headerBand lays out a header of several rows over a table of figures, the way a reader takes
 * it: rows of group labels, each centred over the columns it spans ("Coronary heart disease" over
 * No., Rate and CI; "Race" over four groups of three), then the row of column titles. A group
 * label goes in every column it spans (markdown has no colspan); the stub's label, on one or more
 * lines of the first column ("Age group" / "(yrs)"), is one cell, in the header row nearest its
 * first line below the top row (whose first cell is the corner over the stub). The columns'
 * extents are those of the rows with two figures or more. Null when the table's first lines are
 * no such band (no group label over two columns or more), and the rows stay as they are.
 */
function headerBand(lines: RawLine[], wrapped: Set<number>, rows: string[][], columnOf: (s: Segment) => number, size: number): string[][] | null {
  const rowLines = lines.filter((_, i) => !wrapped.has(i));
  if (rowLines.length !== rows.length) return null;
  const figures = (line: RawLine) => line.segs.filter((seg) => FIGURE_TOKEN.test(seg.text)).length;
  const extents: Array<{ x: number; x2: number } | undefined> = rows[0]!.map(() => undefined);
  const figureRows = rowLines.filter((line) => figures(line) >= 2);
  if (figureRows.length < 2) return null;
  for (const seg of figureRows.flatMap((line) => line.segs)) {
    const c = columnOf(seg);
    const e = extents[c];
    extents[c] = e ? { x: Math.min(e.x, seg.x), x2: Math.max(e.x2, seg.x2) } : { x: seg.x, x2: seg.x2 };
  }
  const stub = extents.findIndex((e) => e !== undefined);
  const data = extents.flatMap((e, c) => (e && c > stub ? [c] : []));
  if (stub < 0 || data.length < 2) return null;
  const dataLeft = extents[data[0]!]!.x;
  const inStub = (seg: Segment) => seg.x < dataLeft && seg.x2 <= dataLeft + 0.5 * size;
  // Each label's columns, left to right: the run of data columns that holds the columns it overlaps,
  // none overlapped by the next label, whose middle is nearest the label's (within an em, unless it
  // overlaps two columns or more; a wider run when two are about as near). A label that starts
  // where a column starts (set flush left in its cell) starts its run there.
  const spansOf = (labels: Segment[]): Array<[number, number] | null> => {
    let from = 0;
    return labels.map((label, k) => {
      const overlaps = (seg: Segment) => data.map((c, i) => (seg.x < extents[c]!.x2 && seg.x2 > extents[c]!.x ? i : -1)).filter((i) => i >= 0);
      const own = overlaps(label);
      const next = labels[k + 1] ? overlaps(labels[k + 1]!) : [];
      const to = next.length ? next[0]! - 1 : data.length - 1;
      const centre = (label.x + label.x2) / 2;
      const flush = data.findIndex((c) => Math.abs(label.x - extents[c]!.x) <= 0.5 * size);
      let best: { a: number; b: number; off: number } | null = null;
      for (let a = flush >= from ? flush : from; a <= (flush >= from ? flush : to); a++) {
        for (let b = a; b <= to; b++) {
          if (own.length && (a > own[0]! || b < own[own.length - 1]!)) continue;
          const off = Math.abs((extents[data[a]!]!.x + extents[data[b]!]!.x2) / 2 - centre);
          if (!best || off < best.off - 0.5 * size || (off <= best.off + 0.5 * size && b - a > best.b - best.a)) best = { a, b, off };
        }
      }
      if (!best || (best.off > size && own.length < 2 && flush < 0)) return null;
      from = best.b + 1;
      return [data[best.a]!, data[best.b]!];
    });
  };
  // The band: rows of group labels and lines of the stub's label alone, then the column titles.
  const groups: Array<Array<{ label: Segment; span: [number, number] | null }>> = [];
  let titles = 0;
  for (; titles < rowLines.length; titles++) {
    const line = rowLines[titles]!;
    if (titles > 0 && line.y - rowLines[titles - 1]!.y > 1.8 * size) return null;
    if (line.segs.every(inStub)) continue;
    const labels = line.segs.filter((seg) => !inStub(seg));
    if (figures(line) > 0 || !labels.every((seg) => /\p{L}/u.test(seg.text))) break;
    const spans = spansOf(labels);
    if (!spans.some((span) => span !== null && span[1] > span[0])) break;
    groups[titles] = labels.map((label, k) => ({ label, span: spans[k]! }));
  }
  if (!groups.some(Boolean) || titles >= rowLines.length - 1) return null;
  // Column titles may be figures (years), under an empty stub; a row of figures with its label is data.
  if (figures(rowLines[titles]!) > 0 && rowLines[titles]!.segs.some((seg) => inStub(seg) && !FIGURE_TOKEN.test(seg.text))) return null;
  const band = rowLines.slice(0, titles + 1);
  const stubSegs = band.flatMap((line, i) => line.segs.filter((seg) => inStub(seg) && !(i === titles && FIGURE_TOKEN.test(seg.text))).map((seg) => ({ text: seg.text, y: line.y })));
  const headerRows = band.flatMap((line, i) => (groups[i] || i === titles ? [i] : []));
  const out = headerRows.map((i) => {
    if (i === titles) return rows[i]!.map((cell, c) => (c === stub && stubSegs.length ? "" : cell));
    const row = rows[i]!.map(() => "");
    for (const { label, span } of groups[i]!) {
      if (!span) row[columnOf(label)] = label.text;
      else for (let c = span[0]; c <= span[1]; c++) if (extents[c]) row[c] = label.text;
    }
    return row;
  });
  if (stubSegs.length) {
    const y = stubSegs[0]!.y;
    let at = out.length > 1 ? 1 : 0;
    for (let k = at; k < out.length; k++) if (Math.abs(band[headerRows[k]!]!.y - y) < Math.abs(band[headerRows[at]!]!.y - y)) at = k;
    out[at]![stub] = stubSegs.map((seg) => seg.text).reduce((text, next) => joinWrapped(text, next));
  }
  return [...out, ...rows.slice(titles + 1)];
}

/** LEADER_SEGMENT: a segment of leader dots alone, four or more (LEADER_DOTS), as OCR reads a leader apart from its label: "....", ".... ...." */
export const LEADER_SEGMENT = /^(?:\.\s?){4,}$/;

/**
 * withoutLeader drops the segments of leader dots between a row's label and its cells: furniture
 * that the table leaves out (LEADER_DOTS) and that, read apart from the label, reaches into the
 * stub's extent from a longer label and would share its column with the label's (census's
 * "Robbery" then "....", read by OCR, under "Murder and nonnegligent").
 */
function withoutLeader(line: RawLine): RawLine {
  let k = 1;
  while (k < line.segs.length - 1 && LEADER_SEGMENT.test(line.segs[k]!.text)) k++;
  return k === 1 ? line : { ...line, segs: [line.segs[0]!, ...line.segs.slice(k)] };
}

/** FIGURE_TOKEN: one figure of a table's cell: an amount, a count, a range, a percentage, a flagged value ("31.6**") */
const FIGURE_TOKEN = /^[(\[]?[-+−–]?[$€£]?\d[\d,.\u2009]*(?:[-–]\d[\d,.]*)?%?[)\]]?\**$/;

/**
 * splitAtFigureColumns splits segments that hold the cells of neighbouring columns, set one space
 * apart (typewriter tables: "2,218,406 1,180,160"). The columns are the x-ranges that the run's
 * single figures cover, overlapping ranges merged; each figure of a segment is placed by its share
 * of the segment's characters, and the segment is split where its figures fall in different
 * columns. Only a segment of figures is split, and only when each piece stays within its own
 * column's range.
 */
function splitAtFigureColumns(lines: RawLine[], size: number): RawLine[] {
  const spans = figureSpans(lines);
  if (spans.length < 2) return lines;
  const slack = 0.3 * size;
  return lines.map((line) => {
    if (!line.segs.some((seg) => seg.text.includes(" "))) return line;
    const segs = line.segs.flatMap((seg) => {
      const words = seg.text.split(" ");
      if (words.length < 2 || !words.every((word) => FIGURE_TOKEN.test(word))) return [seg];
      if (spans.filter((span) => seg.x < span.x2 && seg.x2 > span.x).length < 2) return [seg];
      const perChar = (seg.x2 - seg.x) / Math.max(1, seg.text.length);
      // Each word's estimated range and the column it overlaps most (-1: none, it goes with the word before).
      let offset = 0;
      const placed = words.map((word) => {
        const x = seg.x + offset * perChar;
        const x2 = x + word.length * perChar;
        offset += word.length + 1;
        let column = -1;
        let best = 0;
        spans.forEach((span, c) => {
          const overlap = Math.min(x2, span.x2) - Math.max(x, span.x);
          if (overlap > best) [column, best] = [c, overlap];
        });
        return { word, x, x2, column };
      });
      const pieces: Array<{ words: string[]; x: number; x2: number; column: number }> = [];
      for (const p of placed) {
        const last = pieces[pieces.length - 1];
        if (last && (p.column < 0 || p.column === last.column)) {
          last.words.push(p.word);
          last.x2 = p.x2;
        } else if (!last || p.column > last.column) pieces.push({ words: [p.word], x: p.x, x2: p.x2, column: p.column });
        else return [seg];
      }
      if (pieces.length < 2 || pieces[0]!.column < 0) return [seg];
      // Each piece within its column's range: no part of it over another column.
      const apart = pieces.every((piece) => spans.every((span, c) => c === piece.column || piece.x2 <= span.x + slack || piece.x >= span.x2 - slack));
      if (!apart) return [seg];
      // Placed by estimate, each piece is kept within its column, where its figures are printed, and
      // half a character off the inner boundaries (an estimate a little off must not touch the next column).
      return pieces.map((piece, k) => {
        const span = spans[piece.column]!;
        const x = Math.max(k > 0 ? piece.x + 0.5 * perChar : piece.x, span.x);
        const x2 = Math.min(k < pieces.length - 1 ? piece.x2 - 0.5 * perChar : piece.x2, span.x2);
        return { text: piece.words.join(" "), ...(x2 > x ? { x, x2 } : span), size: seg.size };
      });
    });
    return segs.length === line.segs.length ? line : { ...line, segs };
  });
}

/** figureSpans: the x-ranges that the single figures of `lines` cover, overlapping ranges merged, left to right */
function figureSpans(lines: RawLine[]): Array<{ x: number; x2: number }> {
  const spans: Array<{ x: number; x2: number }> = [];
  for (const seg of lines.flatMap((line) => line.segs)) {
    if (!FIGURE_TOKEN.test(seg.text)) continue;
    const over = spans.filter((span) => seg.x < span.x2 && seg.x2 > span.x);
    const merged = { x: Math.min(seg.x, ...over.map((span) => span.x)), x2: Math.max(seg.x2, ...over.map((span) => span.x2)) };
    for (const span of over) spans.splice(spans.indexOf(span), 1);
    spans.push(merged);
  }
  return spans.sort((a, b) => a.x - b.x);
}

/**
 * splitHeaderAtFigureColumns splits a header cell that holds the titles of neighbouring columns
 * of figures, set closer than a cell gap ("Yes (%) No (%) Respondents" over three columns): in
 * the line just above a row of figures, a segment of words over two or more figure columns is
 * cut between words, each word going to the column whose middle is nearest its own (placed by its
 * share of the segment's characters), when each piece is then centred over its column or ends
 * at its right edge, within an em. A label over two columns with a line of titles under it (words,
 * or years) is no such cell.
 */
function splitHeaderAtFigureColumns(lines: RawLine[], size: number): RawLine[] {
  const spans = figureSpans(lines);
  if (spans.length < 2) return lines;
  return lines.map((line, i) => {
    const next = lines[i + 1];
    // the line under it a row of data: its label and figures (not a line of years that title the columns)
    const dataRow = next !== undefined && next.segs.some((seg) => FIGURE_TOKEN.test(seg.text)) && next.segs.some((seg) => /\p{L}/u.test(seg.text));
    if (!dataRow || line.segs.some((seg) => FIGURE_TOKEN.test(seg.text))) return line;
    const segs = line.segs.flatMap((seg) => {
      const words = seg.text.split(" ");
      const under = spans.filter((span) => seg.x < span.x2 && seg.x2 > span.x);
      if (words.length < 2 || under.length < 2) return [seg];
      const perChar = (seg.x2 - seg.x) / Math.max(1, seg.text.length);
      let offset = 0;
      const pieces: Array<{ words: string[]; x: number; x2: number; span: { x: number; x2: number } }> = [];
      for (const word of words) {
        const x = seg.x + offset * perChar;
        const x2 = x + word.length * perChar;
        offset += word.length + 1;
        const centre = (x + x2) / 2;
        const span = under.reduce((best, s) => (Math.abs((s.x + s.x2) / 2 - centre) < Math.abs((best.x + best.x2) / 2 - centre) ? s : best));
        const last = pieces[pieces.length - 1];
        if (last?.span === span) {
          last.words.push(word);
          last.x2 = x2;
        } else pieces.push({ words: [word], x, x2, span });
      }
      const placed = pieces.every((p) => Math.abs((p.x + p.x2) / 2 - (p.span.x + p.span.x2) / 2) <= size || Math.abs(p.x2 - p.span.x2) <= size);
      if (pieces.length < 2 || new Set(pieces.map((p) => p.span)).size < pieces.length || !placed) return [seg];
      return pieces.map((p) => ({ ...seg, text: p.words.join(" "), x: p.x, x2: p.x2 }));
    });
    return segs.length === line.segs.length ? line : { ...line, segs };
  });
}

/** tableOfRows drops the empty columns of `rows` and makes the table block ("form" when the rows are a form's fields). */
function tableOfRows(lines: RawLine[], rows: string[][], size: number, columns: ColumnEdge[], isForm: (rows: string[][]) => boolean, wrapped: Set<number> = new Set(), joinHeader = true): LayoutBlock | "form" {
  if (isForm(rows)) return "form";
  // Leader dots lead the eye from a label to its figures; they are not the label's text.
  rows = rows.map((row) => row.map((cell) => cell.replace(LEADER_DOTS, "").trim()));
  if (joinHeader) rows = joinWrappedHeader(rows, lines.filter((_, i) => !wrapped.has(i)).map((line) => line.y), size);
  const used = columns.map((_, c) => rows.some((r) => r[c]));
  const compact = rows.map((r) => r.filter((_, c) => used[c]));
  return { kind: "table", rows: compact, size, top: lines[0]!.y - size, bottom: lines[lines.length - 1]!.y, columns: columns.filter((_, c) => used[c]) };
}

/**
 * joinWrappedHeader makes one row of a header whose cells wrap over several lines ("Body" /
 * "Weight" / "(g)" over a column of figures): the rows above the first row with a figure (all
 * rows when none has one), from the lowest start that gives two rows or more, each of two cells
 * or more, at line spacing (no wider apart than 1.35 font sizes, where rows of cells have
 * padding), with every column's text in consecutive rows that all end at the last header row
 * (bottom-aligned cells) or all start at the first (top-aligned), and not all of one height (a
 * grid of equal rows is rows). A header of two real rows has a cell that neither ends nor starts
 * there: a label spanning two rows beside two over one. Without a row of figures below, only
 * bottom-aligned cells over three lines or more: words in rows with gaps are as often rows.
 * Over figures, cells may also be centred on the header's middle, each column's lines one row
 * apart or, where cells of two and three lines interleave at half a line, two ("Old" / "scans" /
 * "math" beside "Old" / "scans" beside "ArXiv" on the middle line, as a paper's table sets them).
 * `ys` holds each row's baseline.
 */
function joinWrappedHeader(rows: string[][], ys: number[], size: number): string[][] {
  const numeric = rows.findIndex((row) => row.some((cell) => cell && NUMERIC_CELL.test(cell)));
  const end = numeric < 0 ? rows.length : numeric;
  if (end < 2 || ys.length !== rows.length) return rows;
  const fits = (start: number) => {
    for (let r = start; r < end; r++) {
      if (rows[r]!.filter(Boolean).length < 2) return false;
      if (r > start && ys[r]! - ys[r - 1]! > 1.35 * size) return false;
    }
    let bottom = true;
    let top = true;
    let consecutive = true;
    let stepped = true;
    const heights = new Set<number>();
    const middles: number[] = [];
    for (let c = 0; c < rows[0]!.length; c++) {
      const filled = rows.slice(start, end).flatMap((row, k) => (row[c] ? [start + k] : []));
      if (!filled.length) continue;
      const [first, last] = [filled[0]!, filled[filled.length - 1]!];
      consecutive &&= last - first === filled.length - 1;
      // (a centred cell's lines every other row: the lines of cells of two and three lines fall half a line apart)
      const step = filled.length > 1 ? (last - first) / (filled.length - 1) : 1;
      stepped &&= (step === 1 || step === 2) && filled.every((r, k) => r === first + k * step);
      bottom &&= last === end - 1;
      top &&= first === start;
      heights.add(filled.length);
      middles.push((first + last) / 2);
    }
    // Cells of different heights (a grid of equal rows is rows); with no figures below to end the
    // header, only a bottom-aligned one of three lines or more.
    if (heights.size < 2) return false;
    if (numeric < 0) return consecutive && bottom && end - start >= 3;
    // Over figures: cells aligned at the top or the bottom, or each centred on the header's middle.
    const centred = stepped && Math.max(...middles) - Math.min(...middles) <= 0.5;
    return (consecutive && (bottom || top)) || centred;
  };
  for (let start = 0; start + 2 <= end; start++) {
    if (!fits(start)) continue;
    const header = rows[start]!.map((_, c) => rows.slice(start, end).reduce((text, row) => (!row[c] ? text : text ? joinWrapped(text, row[c]!) : row[c]!), ""));
    return [...rows.slice(0, start), header, ...rows.slice(end)];
  }
  return rows;
}

/**
 * LEADER_DOTS: a run of four or more dots (spaced or not) at a cell's end, or the whole cell; or
 * the two dots a leader leaves in its cell when the rest runs on under the next column's text, set
 * apart from the words (" .."; an ellipsis has three)
 */
const LEADER_DOTS = /\s*(?:\.\s?){4,}$|(?<=\S)\s+\.\s?\.$/;

/** fillRows places each line's segments in their columns; a wrapped line's go on the cells of the row above. */
function fillRows(lines: RawLine[], wrapped: Set<number>, count: number, columnOf: (s: Segment) => number): string[][] {
  const rows: string[][] = [];
  lines.forEach((line, i) => {
    const continues = wrapped.has(i) && rows.length > 0;
    const row: string[] = continues ? rows[rows.length - 1]! : Array.from({ length: count }, () => "");
    for (const s of line.segs) {
      const c = columnOf(s);
      row[c] = !row[c] ? s.text : continues ? joinWrapped(row[c]!, s.text) : `${row[c]} ${s.text}`;
    }
    if (!continues) rows.push(row);
  });
  return rows;
}

/**
 * columnSpans finds a table's columns as the x-ranges its cells cover, the way a reader sees a
 * column of right-aligned figures of different widths, or of centred words: narrow cells first,
 * each joins the one column it overlaps or starts a new one; a cell over two or more columns (a
 * group label, a title) spans them and goes in the first. Null when two cells of one line would
 * share a column (the ranges do not keep the cells apart).
 */
function columnSpans(lines: RawLine[], wrapped: Set<number>): { columns: ColumnEdge[]; rows: string[][]; used: number[]; columnOf: (seg: Segment) => number } | null {
  const spans: Array<{ x: number; x2: number }> = [];
  // Figures before words: a header word over a column of figures must not bridge two columns before their figures are placed.
  const words = (seg: Segment) => (/\p{L}/u.test(seg.text) ? 1 : 0);
  const bySize = lines.flatMap((l) => l.segs).sort((a, b) => words(a) - words(b) || a.x2 - a.x - (b.x2 - b.x));
  for (const seg of bySize) {
    const over = spans.filter((c) => seg.x < c.x2 && seg.x2 > c.x);
    if (over.length === 0) spans.push({ x: seg.x, x2: seg.x2 });
    else if (over.length === 1) {
      over[0]!.x = Math.min(over[0]!.x, seg.x);
      over[0]!.x2 = Math.max(over[0]!.x2, seg.x2);
    }
  }
  spans.sort((a, b) => a.x - b.x);
  const columnOf = (seg: Segment) => spans.findIndex((c) => seg.x < c.x2 && seg.x2 > c.x);
  for (let i = 0; i < lines.length; i++) {
    if (wrapped.has(i)) continue;
    const taken = lines[i]!.segs.map(columnOf);
    if (new Set(taken).size < taken.length) return null;
  }
  const rows = fillRows(lines, wrapped, spans.length, columnOf);
  const used = spans.map((_, c) => c).filter((c) => rows.some((r) => r[c]));
  // A column is right-aligned when its cells' right edges line up closer than their left edges.
  const columns = spans.map((span, c) => {
    const cells = lines.flatMap((l) => l.segs).filter((seg) => columnOf(seg) === c && seg.x >= span.x && seg.x2 <= span.x2);
    const spread = (values: number[]) => Math.max(...values) - Math.min(...values);
    const right = cells.length >= 2 && spread(cells.map((seg) => seg.x2)) < spread(cells.map((seg) => seg.x));
    return { x: right ? span.x2 : span.x, right };
  });
  return { columns, rows, used, columnOf };
}
