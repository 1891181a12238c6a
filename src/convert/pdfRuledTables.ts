/**
 * Ruled tables in PDF pages: the page's text placed in the cells of a grid of drawn rules
 * (pdfRules.ts `ruledGrids`): runs cut where a rule crosses them (`splitAtRules`), items inside the
 * grid (`inGrid`) placed in its cells (`gridTable`; a grid of fewer than two rows or columns with
 * text is a frame around a paragraph, laid out as text).
 */
import type { ColumnEdge, LayoutBlock, PdfTextItem, RawLine } from "./pdfLayoutTypes";
import { buildLines, median } from "./pdfLines";
import { joinWrapped } from "./pdfParagraphs";
import { hasRule, type RuledGrid } from "./pdfRules";
import { isFormField, lineText, looksTabular } from "./pdfTables";

/** MAX_CELL_LINES: a ruled cell of more lines than this is a frame around part of a page */
const MAX_CELL_LINES = 12;

/** middleOf: the point of an item that decides its ruled cell (horizontal middle, a third up from the baseline) */
function middleOf(item: PdfTextItem): { x: number; y: number } {
  return { x: item.x + item.width / 2, y: item.y - 0.3 * item.size };
}

/** inGrid: the item's middle lies within the grid's outer rules */
export function inGrid(item: PdfTextItem, grid: RuledGrid): boolean {
  const { x, y } = middleOf(item);
  return x > grid.xs[0]! && x < grid.xs[grid.xs.length - 1]! && y > grid.ys[0]! && y < grid.ys[grid.ys.length - 1]!;
}

/**
 * splitAtRules cuts each text item that runs across one of the grid's vertical rules into one item
 * a cell. pdf.js joins runs that sit close on one baseline, so a right-aligned amount that ends at
 * its rule and the next cell's text just after it come as one item ("1,250.00 EUR"). The cut is
 * at the character the rule falls on (positions taken in proportion to the item's width), moved
 * to a space within two characters of it, where the two cells' texts meet.
 */
export function splitAtRules(items: PdfTextItem[], grid: RuledGrid): PdfTextItem[] {
  const inner = grid.xs.slice(1, -1);
  const out: PdfTextItem[] = [];
  for (const item of items) {
    let rest = item;
    for (const x of inner) {
      const chars = rest.str.length;
      if (chars < 2 || x <= rest.x + 1 || x >= rest.x + rest.width - 1) continue;
      const { y } = middleOf(rest);
      if (y <= grid.ys[0]! || y >= grid.ys[grid.ys.length - 1]!) continue;
      if (!hasRule(grid.vertical, false, x, rest.y - 0.8 * rest.size, rest.y)) continue;
      const perChar = rest.width / chars;
      const at = Math.round((x - rest.x) / perChar);
      let cut = at;
      for (let d = 0; d <= 2; d++) {
        if (/\s/.test(rest.str[at - d] ?? "")) cut = at - d;
        else if (/\s/.test(rest.str[at + d] ?? "")) cut = at + d;
        else continue;
        break;
      }
      const head = rest.str.slice(0, cut).trimEnd();
      const tail = rest.str.slice(cut).trimStart();
      if (!head || !tail) continue;
      const tailStart = chars - tail.length;
      out.push({ ...rest, str: head, width: head.length * perChar });
      rest = { ...rest, str: tail, x: rest.x + tailStart * perChar, width: tail.length * perChar, spaced: tailStart > head.length };
    }
    out.push(rest);
  }
  return out;
}

/**
 * gridTable places text in the cells of a ruled grid. A cell spans to its right where no
 * vertical rule separates it from the next, and down where no horizontal rule does (its text
 * goes in its first row and column; the cells it covers stay empty, so a spanning header is
 * counted once). A band between two rules that holds several lines, each with text in the first
 * column, is a row a line (tables ruled only around and between columns). Returns null for a
 * grid of fewer than two rows or columns with text (a frame around a paragraph).
 */
export function gridTable(grid: RuledGrid, items: PdfTextItem[]): LayoutBlock | null {
  if (!items.length) return null;
  const { xs, ys } = grid;
  const rows = ys.length - 1;
  const cols = xs.length - 1;
  // Each base cell's owner: the top-left base cell of the merged cell it belongs to.
  const owner: number[] = Array.from({ length: rows * cols }, (_, i) => i);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const i = r * cols + c;
      if (c + 1 < cols && !hasRule(grid.vertical, false, xs[c + 1]!, ys[r]!, ys[r + 1]!)) owner[i + 1] = owner[i]!;
      if (r + 1 < rows && !hasRule(grid.horizontal, true, ys[r + 1]!, xs[c]!, xs[c + 1]!)) owner[i + cols] = owner[i]!;
    }
  }
  const cellItems = new Map<number, PdfTextItem[]>();
  for (const item of items) {
    const { x, y } = middleOf(item);
    const c = Math.max(0, xs.findIndex((edge, k) => k + 1 < xs.length && x >= edge && x < xs[k + 1]!));
    const r = Math.max(0, ys.findIndex((edge, k) => k + 1 < ys.length && y >= edge && y < ys[k + 1]!));
    const o = owner[r * cols + c]!;
    const list = cellItems.get(o);
    if (list) list.push(item);
    else cellItems.set(o, [item]);
  }
  const table: string[][] = [];
  /** boldRows: per row of `table`, all its text is in a bold face */
  const boldRows: boolean[] = [];
  const size = median(items.map((item) => item.size));
  // Boxes of a form (a label over its value, or "Label: value") are counted to tell a form from a table.
  let filled = 0;
  let fields = 0;
  for (let r = 0; r < rows; r++) {
    // Lines of the band: split into rows when each line has text in the first column and no cell of the band spans rows.
    const band: Array<{ c: number; lines: RawLine[] }> = [];
    for (let c = 0; c < cols; c++) {
      const i = r * cols + c;
      if (owner[i] !== i) continue;
      const list = cellItems.get(i);
      if (list) band.push({ c, lines: buildLines(list) });
    }
    if (!band.length) continue;
    // A frame around a page's parts, not a table: a cell that holds columns of its own, or a page of lines.
    if (band.some((cell) => cell.lines.length > MAX_CELL_LINES || cell.lines.some((line) => line.segs.length >= 2))) return null;
    for (const cell of band) {
      filled++;
      if (isFormField(cell.lines.map(lineText))) fields++;
    }
    const firstCol = band.find((cell) => cell.c === 0);
    const spansDown = band.some((cell) => r + 1 < rows && owner[(r + 1) * cols + cell.c] === r * cols + cell.c);
    if (firstCol && band.length >= 2 && firstCol.lines.length >= 2 && !spansDown && band.every((cell) => cell.lines.length === firstCol.lines.length)) {
      firstCol.lines.forEach((_, k) => {
        const row = Array.from({ length: cols }, () => "");
        for (const cell of band) row[cell.c] = lineText(cell.lines[k]!);
        table.push(row);
        boldRows.push(band.every((cell) => cell.lines[k]!.bold));
      });
      continue;
    }
    const parts = firstCol && band.length >= 2 && !spansDown ? bandRows(band, firstCol, size) : null;
    if (parts) {
      for (const part of parts) {
        const row = Array.from({ length: cols }, () => "");
        for (const cell of part) row[cell.c] = cellText(cell.lines, xs[cell.c]!, xs[cell.c + 1]!);
        table.push(row);
        boldRows.push(part.every((cell) => cell.lines.every((line) => line.bold)));
      }
      continue;
    }
    const row = Array.from({ length: cols }, () => "");
    for (const cell of band) {
      let end = cell.c + 1;
      while (end < cols && owner[r * cols + end] === r * cols + cell.c) end++;
      row[cell.c] = cellText(cell.lines, xs[cell.c]!, xs[end]!);
    }
    table.push(row);
    boldRows.push(band.every((cell) => cell.lines.every((line) => line.bold)));
  }
  const used = Array.from({ length: cols }, (_, c) => table.some((row) => row[c]));
  const compact = table.map((row) => row.filter((_, c) => used[c]));
  if (cols === 1 && isListGrid(grid, compact, cellItems)) return { kind: "table", rows: compact, size, top: ys[0]!, bottom: ys[ys.length - 1]!, columns: [{ x: xs[0]!, right: false }] };
  if (compact.length < 2 || used.filter(Boolean).length < 2) return null;
  // A header row set in bold over rows that are not is a table's, however few or wordy its rows.
  // (Rows of one bold cell below it are group labels: "Stationary:" over its rows.)
  const filledCells = (row: string[]) => row.filter((cell) => cell.trim()).length;
  const boldHeader =
    boldRows[0] === true && filledCells(compact[0]!) >= 2 && boldRows.slice(1).every((bold, i) => !bold || filledCells(compact[i + 1]!) === 1) && boldRows.slice(1).some((bold) => !bold);
  if (2 * fields >= filled || !(boldHeader || looksTabular(compact))) return null;
  const columns: ColumnEdge[] = xs.slice(0, -1).filter((_, c) => used[c]).map((x) => ({ x, right: false }));
  return { kind: "table", rows: compact, size, top: ys[0]!, bottom: ys[ys.length - 1]!, columns };
}

/** LIST_GRID_ROWS, LIST_CELL_CHARS: how many ruled rows a one-column table has at least, and how long its cells are at most */
const LIST_GRID_ROWS = 4;
const LIST_CELL_CHARS = 60;

/**
 * isListGrid: a one-column table, a manual's list of requirements each in a ruled row of its own
 * ("Table 2-1: Minimum PC Configuration": "Windows 98, Windows 2000 or later", "32 MB RAM", ...): four
 * rows or more, every row between two rules and holding one short line (no sentence), none empty. A
 * box around a paragraph, or a note's frame, has one band.
 */
function isListGrid(grid: RuledGrid, rows: string[][], cellItems: Map<number, PdfTextItem[]>): boolean {
  const bands = grid.ys.length - 1;
  if (bands < LIST_GRID_ROWS || rows.length !== bands || cellItems.size !== bands) return false;
  for (const items of cellItems.values()) if (buildLines(items).length !== 1) return false;
  return rows.every((row) => row.length === 1 && row[0]!.trim() !== "" && row[0]!.length <= LIST_CELL_CHARS && !/[.:;]$/.test(row[0]!.trim()));
}

/**
 * cellText joins the lines of a ruled cell between `left` and `right`: as wrapped lines, except
 * after a line of one code (a token with digits) that runs to the cell's text edge (the cell's
 * width less the padding its text shows on the left, within a character) over a line starting at
 * the same x: a code too long for the cell, broken where it met the edge ("…2167576f39" / "a1"),
 * joined without a space. Words are left alone: a column sized to its longest word (and centred
 * text, whose padding is even) brings a word to the edge without breaking it.
 */
/**
 * bandRows splits a ruled band that holds several rows with no rule between them (a group label,
 * then rows whose cells hold paragraphs: "Stationary:" / "Major" / "Area"): each further line of
 * the first column starts a row when another cell starts a paragraph on its baseline (its first
 * line, or a line a paragraph's gap below the one before); every cell's lines go to the row they
 * start in. Null when the first column's lines are one wrapped label (beside lines that go on).
 */
function bandRows(band: Array<{ c: number; lines: RawLine[] }>, firstCol: { c: number; lines: RawLine[] }, size: number): Array<Array<{ c: number; lines: RawLine[] }>> | null {
  if (firstCol.lines.length < 2 || firstCol.lines.length > 12) return null;
  const gaps: number[] = [];
  for (const cell of band) for (let k = 1; k < cell.lines.length; k++) gaps.push(cell.lines[k]!.y - cell.lines[k - 1]!.y);
  const pitch = gaps.length ? Math.min(...gaps) : size;
  const near = 0.3 * size;
  const starts = firstCol.lines.map((line) => line.y);
  const others = band.filter((cell) => cell !== firstCol);
  const startsParagraph = (y: number) =>
    others.some((cell) => cell.lines.some((line, k) => Math.abs(line.y - y) <= near && (k === 0 || line.y - cell.lines[k - 1]!.y > 1.3 * pitch)));
  if (!starts.slice(1).every(startsParagraph)) return alignedRows(band, firstCol, others, near);
  const parts: Array<Array<{ c: number; lines: RawLine[] }>> = starts.map(() => []);
  for (const cell of band) {
    const byPart = starts.map(() => [] as RawLine[]);
    for (const line of cell.lines) {
      let k = 0;
      while (k + 1 < starts.length && starts[k + 1]! <= line.y + near) k++;
      byPart[k]!.push(line);
    }
    byPart.forEach((lines, k) => lines.length && parts[k]!.push({ c: cell.c, lines }));
  }
  return parts;
}

/**
 * alignedRows splits a ruled band whose other cells' lines each stand on the baseline of a line of
 * the first column, on two baselines at least in two of those cells, the first column holding more
 * lines (three at least) than any other: rows with no rule between them, some of them group
 * labels with no figures ("All Randomly Assigned (N=4,667):" / "3-Year-Old Cohort" over "Head
 * Start Group | 85.1% | ..."). Each line of the first column is a row, but a line with nothing
 * beside it over a line that starts in lower case (a label's first line, its figures beside the
 * next). Null otherwise.
 */
function alignedRows(band: Array<{ c: number; lines: RawLine[] }>, firstCol: { c: number; lines: RawLine[] }, others: Array<{ c: number; lines: RawLine[] }>, near: number): Array<Array<{ c: number; lines: RawLine[] }>> | null {
  const lineAt = (y: number) => firstCol.lines.findIndex((line) => Math.abs(line.y - y) <= near);
  const rowsWithFigures = new Set<number>();
  for (const cell of others) {
    for (const line of cell.lines) {
      const k = lineAt(line.y);
      if (k < 0) return null;
      rowsWithFigures.add(k);
    }
  }
  // rows of figures in two columns at least (one cell's wrapped lines beside a code broken over two
  // lines are one row), and a stub of three lines or more, more than any other cell's (group labels
  // among its rows; a form's boxes hold a label over a value in every column)
  if (rowsWithFigures.size < 2 || others.filter((cell) => cell.lines.length >= 2).length < 2) return null;
  if (firstCol.lines.length < 3 || others.some((cell) => cell.lines.length >= firstCol.lines.length)) return null;
  // the row each line of the first column goes to: a bare line over a line in lower case joins it
  const rowOf: number[] = [];
  let row = -1;
  firstCol.lines.forEach((line, k) => {
    const joinsAbove = k > 0 && !rowsWithFigures.has(k - 1) && /^\p{Ll}/u.test(lineText(line)) && rowOf[k - 1] === row;
    if (!joinsAbove) row++;
    rowOf.push(row);
  });
  const parts: Array<Array<{ c: number; lines: RawLine[] }>> = Array.from({ length: row + 1 }, () => []);
  for (const cell of band) {
    const byPart = parts.map(() => [] as RawLine[]);
    for (const line of cell.lines) byPart[rowOf[lineAt(line.y)]!]!.push(line);
    byPart.forEach((lines, k) => lines.length && parts[k]!.push({ c: cell.c, lines }));
  }
  return parts;
}

function cellText(lines: RawLine[], left: number, right: number): string {
  let text = "";
  let before: RawLine | null = null;
  for (const line of lines) {
    const next = lineText(line);
    const seg = before?.segs.length === 1 ? before.segs[0]! : null;
    const perChar = seg ? (seg.x2 - seg.x) / Math.max(1, seg.text.length) : 0;
    const code = seg !== null && !/\s/.test(seg.text) && seg.text.length >= 4 && /\p{N}/u.test(seg.text);
    const broken = code && Math.abs(line.segs[0]!.x - seg.x) <= 0.5 && seg.x2 >= right - (seg.x - left) - perChar && /^[\p{L}\p{N}]/u.test(next);
    text = !text ? next : broken ? text + next : joinWrapped(text, next);
    before = line;
  }
  return text;
}
