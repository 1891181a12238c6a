/**
 * Layout analysis for PDF text: pure functions, no pdf.js. The worker side (pdfText.ts) turns each
 * page's positioned text items into a PageLayout (lines -> columns -> blocks and tables) with
 * `analyzePage`; the converter (pdf.ts) then renders all pages at once with `renderPages`, because
 * running headers, the body font size and the heading ranks are facts of the whole document.
 *
 *   analyzePage: items -> lines (segments split at cell-sized gaps; raised small numbers marked as
 *                footnote references) -> parts (a drawn rule dividing two parts of the page: Form
 *                4868's Part I | Part II) -> columns (a gutter) -> tables (aligned cells, wrapped cells)
 *                and text blocks -> the page's footnotes taken out
 *   renderPages: running headers/footers dropped -> body size from prose -> headings (size rank,
 *                then section numbering, then bold in the body's size; not a page's main size,
 *                bullets or a paper's front matter) -> paragraphs and tables
 *                joined across pages, nested lists -> footnotes at the end
 *
 * Coordinates are PDF points (1/72 inch) with the origin at the top left of the page; `y` of a text
 * item or line is its baseline.
 */
import { escapeStrayMarkup, gfmTable, heading, joinBlocks } from "./markdown";
import { type CodeBlock, codeBlock, codeMarkdown, codeRunEnd, continuesCode, joinCode, typewrittenPage } from "./pdfCode";
import { boldHeadings, brokenLabels, CAPTION, fieldValues, headingLevel, headingLevels, headingText, isSectionTitle, SECTION_NUMBER } from "./pdfHeadings";
import type { ColumnEdge, LayoutBlock, LayoutLine, PageLayout, PdfTextItem, RawLine, Segment } from "./pdfLayoutTypes";
import { ARABIC, buildLines, dominantSize, median, repairArabic, SCRIPT_TAG } from "./pdfLines";
import { relabelNotes, resolveNoteMarks, takeEndnotes, takeFootnotes } from "./pdfNotes";
import { blockText, joinWrapped, paragraphMarkdown, startsListItem } from "./pdfParagraphs";
import { hasRule, type Rule, type RuledGrid, ruledGrids, type RuleDivider, ruleDividers } from "./pdfRules";
import { runningBlocks } from "./pdfRunningHeaders";

/** analyzePage turns the text items of one page into blocks in reading order (the items are annotated in place). */
export function analyzePage(items: PdfTextItem[], page: number, width: number, height: number, rules: Rule[] = []): PageLayout {
  let visible: PdfTextItem[] = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    if (item.size <= 0 || item.str.trim() === "") continue;
    const before = items[i - 1];
    item.spaced = /^\s/.test(item.str) || (before !== undefined && Math.abs(before.y - item.y) < 0.4 * item.size && /\s$/.test(before.str));
    if (ARABIC.test(item.str)) item.str = repairArabic(item.str);
    visible.push(item);
  }
  const chars = visible.reduce((sum, item) => sum + item.str.replace(/\s+/g, "").length, 0);
  if (typewrittenPage(visible)) for (const item of visible) delete item.mono;
  // Tables drawn with rules: their text is placed in the grid's cells, the rest laid out as text.
  const ruled: Array<{ table: LayoutBlock; x: number }> = [];
  const dividers: PageDivider[] = rules.length ? columnDividers(ruleDividers(rules), visible, width, height) : [];
  for (const grid of rules.length ? splitGrids(ruledGrids(rules), dividers) : []) {
    visible = splitAtRules(visible, grid);
    const inside = visible.filter((item) => inGrid(item, grid));
    const table = gridTable(grid, inside);
    if (!table) {
      dividers.push(...exampleDividers(grid, inside));
      continue;
    }
    ruled.push({ table, x: (grid.xs[0]! + grid.xs[grid.xs.length - 1]!) / 2 });
    const taken = new Set(inside);
    visible = visible.filter((item) => !taken.has(item));
  }
  // Each part of the page (one part unless a ruled divider cuts it) is read on its own, its ruled tables placed among its blocks.
  const parts = pageParts(visible, dividers);
  const lines = parts.flatMap((part) => part.lines);
  const partBlocks = parts.map((part) => {
    const blocks = readingOrder(part.lines, width).flatMap((column) => (column.length ? columnBlocks(column, width) : []));
    if (part.rendered) for (const block of blocks) if (block.kind === "text") block.rendered = true;
    return blocks;
  });
  for (const { table, x } of ruled) {
    const middle = (table.top + table.bottom) / 2;
    const k = Math.max(0, parts.findIndex((part) => x >= part.x1 && x < part.x2 && middle >= part.y1 && middle < part.y2));
    const list = partBlocks[k]!.flatMap((block) => splitAtTable(block, table));
    const at = list.findIndex((block) => block.top >= table.top);
    list.splice(at < 0 ? list.length : at, 0, table);
    partBlocks[k] = list;
  }
  let blocks = joinGroupRows(partBlocks.flat());
  const notes = takeFootnotes(blocks, height);
  if (notes.length) blocks = blocks.filter((block) => !notes.some((note) => note.block === block));
  resolveNoteMarks(blocks, new Set(notes.map((note) => note.label)));
  const layout: PageLayout = { page, width, height, chars, blocks };
  if (notes.length) layout.notes = notes.map(({ label, text }) => ({ label, text }));
  if (ruled.length || lines.filter((line) => line.segs.length >= 2).length >= 2) layout.tabular = true;
  return layout;
}

/** DIVIDER_SIDE_LINES: the fewest lines on each side of a ruled divider for it to divide two parts of the page */
const DIVIDER_SIDE_LINES = 3;
/** DIVIDER_SIDE_WIDTH: the narrowest a side's text may be, as a share of the page's width (a part of the page, as findGutter's columns) */
const DIVIDER_SIDE_WIDTH = 0.25;
/** DIVIDER_SHARED: the largest share of the baselines beside a lone rule (no row ruled up to it) that both sides may share: a table's rows share nearly all */
const DIVIDER_SHARED = 0.5;

/**
 * columnDividers keeps the stretches of vertical rules (pdfRules.ts ruleDividers) that divide the
 * page into two parts read one after the other, by the text beside them: no run crosses the rule,
 * DIVIDER_SIDE_LINES lines or more lie on each side, and the sides are not rows of one table:
 * - rows ruled up to the rule from both sides (Form 4868's Part I and Part II, each with its own
 *   boxes, the rules between them ending at it) are two parts; rows ruled from one side only are
 *   a cell that spans the other side's rows, one table;
 * - a lone rule (no row ruled up to it, and not closed by rules across it above and below: a tall
 *   row of a ruled table, its cells set at their tops, middles and bottoms) stands between two
 *   columns when the columns' baselines are their own: no more than DIVIDER_SHARED of them shared
 *   across it (a table ruled only between its columns has its cells side by side, row by row).
 * Each side's text must be DIVIDER_SIDE_WIDTH of the page wide (a form's head boxes are narrower).
 * A form set on a grid of one line pitch shares baselines across its parts too, which is why the
 * rows ruled on both sides decide there, not the baselines.
 */
function columnDividers(candidates: RuleDivider[], items: PdfTextItem[], pageWidth: number, pageHeight: number): PageDivider[] {
  const cutLines = new Set<RuleDivider>();
  const kept = candidates.filter((divider) => {
    const left: number[] = [];
    const right: number[] = [];
    const extent = { left: [Infinity, -Infinity], right: [Infinity, -Infinity] };
    for (const item of items) {
      if (item.y < divider.reachTop || item.y > divider.reachBottom) continue;
      const side = item.x + item.width <= divider.x + 1 ? "left" : item.x >= divider.x - 1 ? "right" : null;
      if (!side) return false;
      if (item.y < divider.top || item.y > divider.bottom) continue;
      (side === "left" ? left : right).push(item.y);
      extent[side] = [Math.min(extent[side][0]!, item.x), Math.max(extent[side][1]!, item.x + item.width)];
    }
    // each side a part of the page, not a box in a form's head (its number beside its title)
    // a rule that runs to the page's edge is a cut line (a payment slip's perforation): each side is a slip as wide as from the rule to its text's far edge
    const cutLine = divider.top <= 1 || divider.bottom >= pageHeight - 1;
    const [leftWidth, rightWidth] = cutLine ? [divider.x - extent.left[0]!, extent.right[1]! - divider.x] : [extent.left[1]! - extent.left[0]!, extent.right[1]! - extent.right[0]!];
    if (leftWidth < DIVIDER_SIDE_WIDTH * pageWidth || rightWidth < DIVIDER_SIDE_WIDTH * pageWidth) return false;
    if (cutLine) cutLines.add(divider);
    const leftLines = baselines(left);
    const rightLines = baselines(right);
    if (leftLines.length < DIVIDER_SIDE_LINES || rightLines.length < DIVIDER_SIDE_LINES) return false;
    if (divider.endsLeft > 0 || divider.endsRight > 0) return divider.endsLeft > 0 && divider.endsRight > 0;
    // a lone rule between rules across above and below it is a column edge of one ruled row (cells anchored at their tops, middles, bottoms)
    if (divider.boxed) return false;
    const shared = leftLines.filter((y) => rightLines.some((other) => Math.abs(other - y) <= 1)).length;
    return shared <= DIVIDER_SHARED * (leftLines.length + rightLines.length - shared);
  });
  // each part's head row, ruled across both parts above them, is read with its part
  return kept.map((divider) => ({ ...divider, top: divider.reachTop, bottom: divider.reachBottom, ...(cutLines.has(divider) ? { cut: true } : {}) }));
}

/**
 * exampleDividers: a manual's examples set as a ruled grid of two columns, the source in a monospace
 * face in the left cell of each row and what it renders in the right (typst's package manuals):
 * each row's middle rule divides the source from its output, so the source reads as a listing and
 * the output after it (text, never a heading: it shows what the source does), not line across
 * line. None for a grid of any other kind.
 */
function exampleDividers(grid: RuledGrid, items: PdfTextItem[]): PageDivider[] {
  if (grid.xs.length !== 3) return [];
  const middle = grid.xs[1]!;
  const dividers: PageDivider[] = [];
  for (let r = 0; r + 1 < grid.ys.length; r++) {
    const [top, bottom] = [grid.ys[r]!, grid.ys[r + 1]!];
    const row = items.filter((item) => item.y > top && item.y <= bottom);
    const source = row.filter((item) => item.x + item.width <= middle + 1);
    const output = row.filter((item) => item.x >= middle - 1);
    if (source.length + output.length < row.length || !source.length || !source.every((item) => item.mono)) return [];
    if (output.length) dividers.push({ x: middle, top, bottom, endsLeft: 0, endsRight: 0, boxed: true, reachTop: top, reachBottom: bottom, example: true });
  }
  return dividers;
}

/** baselines: the distinct values of `ys`, ascending, those within a point of the one before taken as one */
function baselines(ys: number[]): number[] {
  const out: number[] = [];
  for (const y of [...ys].sort((a, b) => a - b)) if (!out.length || y - out[out.length - 1]! > 1) out.push(y);
  return out;
}

/** PageDivider: a rule that divides the page's text into parts; `example`: a ruled example's rule between its source and what the source renders (exampleDividers); `cut`: a cut line to the page's edge (see columnDividers) */
type PageDivider = RuleDivider & { example?: boolean; cut?: boolean };

/** PagePart: lines of a page read on their own, and the part of the page they lie in (x from x1 up to x2, baselines from y1 up to y2); `rendered`: an example's output */
interface PagePart {
  lines: RawLine[];
  x1: number;
  x2: number;
  y1: number;
  y2: number;
  rendered?: boolean;
}

/**
 * pageParts cuts a page's text runs at its dividers: the runs above a divider, those left of it,
 * those right of it and those below, each part cut again at the dividers inside it, and builds
 * each part's lines apart (two parts' runs on one baseline make no line together). A page without
 * dividers is one part.
 */
function pageParts(items: PdfTextItem[], dividers: PageDivider[], bounds: Omit<PagePart, "lines"> = { x1: -Infinity, x2: Infinity, y1: -Infinity, y2: Infinity }): PagePart[] {
  const k = dividers.findIndex((d) => d.x > bounds.x1 && d.x < bounds.x2 && d.top >= bounds.y1 && d.bottom <= bounds.y2);
  if (k < 0) return [{ lines: buildLines(items), ...bounds }];
  const divider = dividers[k]!;
  const rest = dividers.filter((_, j) => j !== k);
  const above: PdfTextItem[] = [];
  const left: PdfTextItem[] = [];
  const right: PdfTextItem[] = [];
  const below: PdfTextItem[] = [];
  for (const item of items) {
    // a slip's first line may sit a little above its cut line's top (a label beside the slip's larger title, on its cap line): a run is above when half its height is
    if (item.y < divider.top - (divider.cut ? item.size / 2 : 0)) above.push(item);
    else if (item.y > divider.bottom) below.push(item);
    else if (item.x + item.width / 2 < divider.x) left.push(item);
    else right.push(item);
  }
  return [
    ...pageParts(above, rest, { ...bounds, y2: divider.top }),
    ...pageParts(left, rest, { ...bounds, x2: divider.x, y1: divider.top, y2: divider.bottom }),
    ...pageParts(right, rest, { ...bounds, x1: divider.x, y1: divider.top, y2: divider.bottom, ...(divider.example || bounds.rendered ? { rendered: true } : {}) }),
    ...pageParts(below, rest, { ...bounds, y1: divider.bottom }),
  ];
}

/**
 * splitGrids cuts a ruled grid that a divider runs through into the rows above the divider, the
 * part left of it, the part right of it and the rows below (in that order), each read as a grid
 * of its own: two parts of a form side by side share their outer rules, so ruledGrids joins them.
 */
function splitGrids(grids: RuledGrid[], dividers: RuleDivider[]): RuledGrid[] {
  const SNAP = 2;
  const out: RuledGrid[] = [];
  // a part's column edges are the rules drawn in it (a column edge of the rows above is none of its own)
  const part = (grid: RuledGrid, x1: number, x2: number, y1: number, y2: number): RuledGrid | null => {
    const drawn = (x: number) => grid.vertical.some((v) => Math.abs(v.x1 - x) <= SNAP && v.y2 > y1 + SNAP && v.y1 < y2 - SNAP);
    const xs = grid.xs.filter((x) => x >= x1 - SNAP && x <= x2 + SNAP && (Math.abs(x - x1) <= SNAP || Math.abs(x - x2) <= SNAP || drawn(x)));
    const ys = grid.ys.filter((y) => y >= y1 - SNAP && y <= y2 + SNAP);
    return xs.length >= 2 && ys.length >= 2 ? { ...grid, xs, ys } : null;
  };
  for (const grid of grids) {
    const [left, right, top, bottom] = [grid.xs[0]!, grid.xs[grid.xs.length - 1]!, grid.ys[0]!, grid.ys[grid.ys.length - 1]!];
    const divider = dividers.find((d) => d.x > left + SNAP && d.x < right - SNAP && d.bottom > top + SNAP && d.top < bottom - SNAP);
    if (!divider) {
      out.push(grid);
      continue;
    }
    const parts = [
      part(grid, left, right, top, divider.top),
      part(grid, left, divider.x, divider.top, divider.bottom),
      part(grid, divider.x, right, divider.top, divider.bottom),
      part(grid, left, right, divider.bottom, bottom),
    ];
    for (const p of parts) if (p) out.push(p);
  }
  return out;
}

/**
 * joinGroupRows makes one table of tables split by group labels: a table, a line of one short
 * label in its first column ("Male", "Female"; no sentence, no caption), and a table of as many
 * columns, each within three and a half lines of the next. The label is a row of its own.
 */
function joinGroupRows(blocks: LayoutBlock[]): LayoutBlock[] {
  const out: LayoutBlock[] = [];
  for (let i = 0; i < blocks.length; i++) {
    const before = out[out.length - 1];
    const label = blocks[i]!;
    const after = blocks[i + 1];
    if (before?.kind === "table" && after?.kind === "table" && label.kind === "text" && label.lines.length === 1 && before.columns && after.columns && before.columns.length === after.columns.length) {
      const line = label.lines[0]!;
      const size = Math.max(before.size, after.size);
      // in the first column: starting at its edge or left of it (right-aligned figures), ending before the second
      const second = Math.min(before.columns[1]?.x ?? Infinity, after.columns[1]?.x ?? Infinity);
      const atFirst = line.x <= Math.min(before.columns[0]!.x, after.columns[0]!.x) + size && line.x2 <= second + size;
      const close = line.y - before.bottom <= 3.5 * size && after.top + after.size - line.y <= 3.5 * size;
      if (atFirst && close && line.text.length <= 40 && !/[.!?:;]$/.test(line.text) && !CAPTION.test(line.text) && !SECTION_NUMBER.test(line.text)) {
        const row = before.rows[0]!.map((_, c) => (c === 0 ? line.text : ""));
        out[out.length - 1] = { ...before, rows: [...before.rows, row, ...after.rows], bottom: after.bottom };
        i++;
        continue;
      }
    }
    out.push(label);
  }
  return out;
}

/**
 * splitAtTable cuts a text block that runs from above a ruled table to below it (its lines were
 * joined across the room the table took, once the table's text was taken out) into the lines
 * above the table and those below, so the table goes between them.
 */
function splitAtTable(block: LayoutBlock, table: LayoutBlock): LayoutBlock[] {
  if (block.kind !== "text" || block.top >= table.top || block.bottom <= table.bottom) return [block];
  const above = block.lines.filter((line) => line.y < table.top);
  const below = block.lines.filter((line) => line.y >= table.top);
  if (!above.length || !below.length) return [block];
  above[above.length - 1]!.wraps = false;
  const part = (lines: LayoutLine[]): LayoutBlock => ({ kind: "text", lines, size: median(lines.map((l) => l.size)), top: lines[0]!.y - lines[0]!.size, bottom: lines[lines.length - 1]!.y });
  return [part(above), ...splitAtTable(part(below), table)];
}

/** MAX_CELL_LINES: a ruled cell of more lines than this is a frame around part of a page */
const MAX_CELL_LINES = 12;

/** middleOf: the point of an item that decides its ruled cell (horizontal middle, a third up from the baseline) */
function middleOf(item: PdfTextItem): { x: number; y: number } {
  return { x: item.x + item.width / 2, y: item.y - 0.3 * item.size };
}

/** inGrid: the item's middle lies within the grid's outer rules */
function inGrid(item: PdfTextItem, grid: RuledGrid): boolean {
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
function splitAtRules(items: PdfTextItem[], grid: RuledGrid): PdfTextItem[] {
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
function gridTable(grid: RuledGrid, items: PdfTextItem[]): LayoutBlock | null {
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
  if (!starts.slice(1).every(startsParagraph)) return null;
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
function isFormField(lines: string[]): boolean {
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
function looksTabular(rows: string[][]): boolean {
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

function lineText(line: RawLine): string {
  return line.segs.map((seg) => seg.text).join(" ");
}

/**
 * readingOrder finds a two-column layout (a vertical gutter in the middle half of the page that
 * almost no line crosses, with wide text on both sides) and returns groups of lines to read in
 * order: between lines that span the gutter, the left column and then the right column. Pages
 * without a gutter are one group.
 */
/**
 * sideOf: the part of a line on one side of a gutter, bold when its own letters all are (a heading
 * beside the other column's prose), in the size of its own text (a title a size below the body
 * beside the other column's body text)
 */
function sideOf(line: RawLine, segs: Segment[]): RawLine {
  const { bold: _bold, code, ...whole } = line;
  const part = segs.length < line.segs.length;
  // a listing's runs on this side (a listing beside its output, both in the face, splits at the gutter)
  const runs = part ? code?.filter((run) => segs.some((seg) => run.x >= seg.x - 1 && run.x < seg.x2)) : code;
  const rest = { ...(part ? { ...whole, size: segmentsSize(segs) } : whole), ...(runs?.length ? { code: runs } : {}) };
  const hasLetters = segs.some((seg) => /\p{L}/u.test(seg.text));
  return hasLetters && segs.every((seg) => !seg.plain) && (line.bold || segs.length < line.segs.length) ? { ...rest, segs, bold: true } : { ...rest, segs };
}

/** segmentsSize: the size, in half points as dominantSize gives it, that carries most of the segments' characters */
function segmentsSize(segs: Segment[]): number {
  const weight = new Map<number, number>();
  for (const seg of segs) {
    const key = Math.round(seg.size * 2) / 2;
    weight.set(key, (weight.get(key) ?? 0) + seg.text.length);
  }
  return [...weight].reduce((a, b) => (b[1] > a[1] ? b : a))[0];
}

function readingOrder(lines: RawLine[], pageWidth: number): RawLine[][] {
  const gutter = findGutter(lines, pageWidth);
  if (gutter === null) {
    const sidebar = findSidebar(lines, pageWidth);
    return sidebar === null ? [lines] : besideSidebar(lines, sidebar);
  }
  const groups: RawLine[][] = [];
  let left: RawLine[] = [];
  let right: RawLine[] = [];
  let spanning: RawLine[] = [];
  const flushColumns = () => {
    if (left.length) groups.push(left);
    if (right.length) groups.push(right);
    left = [];
    right = [];
  };
  for (const line of lines) {
    const crosses = line.segs.some((s) => s.x < gutter && s.x2 > gutter);
    if (crosses) {
      flushColumns();
      spanning.push(line);
      continue;
    }
    if (spanning.length) groups.push(spanning);
    spanning = [];
    const l = line.segs.filter((s) => s.x2 <= gutter);
    const r = line.segs.filter((s) => s.x >= gutter);
    if (l.length) left.push(sideOf(line, l));
    if (r.length) right.push(sideOf(line, r));
  }
  if (spanning.length) groups.push(spanning);
  flushColumns();
  return groups;
}

/**
 * findGutter gives the x of a two-column page's gutter, or null. Columns may start below a
 * full-width head (a paper's title, authors and abstract) or end above a full-width foot, whose
 * lines cross the gutter: when too many lines cross it for the page to be two columns, the longest
 * run of lines that do not (COLUMN_RUN_SHARE of the page's lines at least) is held to the same tests.
 */
function findGutter(lines: RawLine[], pageWidth: number, whole = true): number | null {
  if (lines.length < 10) return null;
  // Candidate gutters every 2 pt in the middle of the page. For each, the lines crossing it, and
  // the lines with text left and right of it, counted with difference arrays over the candidates
  // (one pass over the segments instead of one per candidate).
  const from = Math.round(pageWidth * 0.3);
  const count = Math.floor((pageWidth * 0.7 - from) / 2) + 1;
  if (count <= 0) return null;
  const crossingDiff = new Int32Array(count + 1);
  const leftDiff = new Int32Array(count + 1);
  const rightDiff = new Int32Array(count + 1);
  const index = (x: number) => (x - from) / 2;
  for (const line of lines) {
    let minX2 = Infinity;
    let maxX = -Infinity;
    for (const seg of line.segs) {
      // candidates strictly inside the segment: seg.x < x < seg.x2 (segments of a line do not overlap)
      const first = Math.max(0, Math.floor(index(seg.x)) + 1);
      const last = Math.min(count - 1, Math.ceil(index(seg.x2)) - 1);
      if (first <= last) {
        crossingDiff[first]!++;
        crossingDiff[last + 1]!--;
      }
      minX2 = Math.min(minX2, seg.x2);
      maxX = Math.max(maxX, seg.x);
    }
    const leftFrom = Math.max(0, Math.ceil(index(minX2))); // x >= minX2
    if (leftFrom < count) {
      leftDiff[leftFrom]!++;
      leftDiff[count]!--;
    }
    const rightTo = Math.min(count - 1, Math.floor(index(maxX))); // x <= maxX
    if (rightTo >= 0) {
      rightDiff[0]!++;
      rightDiff[rightTo + 1]!--;
    }
  }
  let best: { x: number; crossing: number } | null = null;
  let crossing = 0;
  let leftCount = 0;
  let rightCount = 0;
  for (let k = 0; k < count; k++) {
    crossing += crossingDiff[k]!;
    leftCount += leftDiff[k]!;
    rightCount += rightDiff[k]!;
    if (leftCount < lines.length * 0.3 || rightCount < lines.length * 0.3) continue;
    if (!best || crossing < best.crossing) best = { x: from + 2 * k, crossing };
  }
  if (!best) return null;
  if (best.crossing > lines.length * 0.15) {
    if (!whole) return null;
    const run = longestRunBeside(lines, best.x);
    return run.length >= COLUMN_RUN_LINES && run.length >= COLUMN_RUN_SHARE * lines.length ? findGutter(run, pageWidth, false) : null;
  }
  const x = best.x;
  // The width each line covers on a side: justified lines in narrow columns split into many
  // segments at their wide word gaps, so single segments would look narrow.
  const sideWidth = (segs: Segment[]) => (segs.length ? Math.max(...segs.map((s) => s.x2)) - Math.min(...segs.map((s) => s.x)) : 0);
  const leftWidths = lines.map((l) => sideWidth(l.segs.filter((s) => s.x2 <= x))).filter((w) => w > 0);
  const rightWidths = lines.map((l) => sideWidth(l.segs.filter((s) => s.x >= x))).filter((w) => w > 0);
  const wide = (widths: number[]) => median(widths) >= pageWidth * 0.25;
  if (!wide(leftWidths) || !wide(rightWidths)) return null;
  // Columns of prose have words on both sides of most lines; a wide table whose column groups
  // leave a gap (figures on both sides, words only in its header) is not two columns of text,
  // when its rows are split into cells already (three or more a line) for the table to be found
  // across the page. A line whose one side is a line of prose (one segment of words) is no such
  // row: it is a table in one column beside the text of the other.
  const sideText = (segs: Segment[]) => segs.map((seg) => seg.text).join(" ");
  const isProse = (segs: Segment[]) => segs.length === 1 && WORDS.test(segs[0]!.text);
  const both = lines.filter((l) => l.segs.some((seg) => seg.x2 <= x) && l.segs.some((seg) => seg.x >= x));
  const rows = both.filter((l) => {
    const [left, right] = [l.segs.filter((seg) => seg.x2 <= x), l.segs.filter((seg) => seg.x >= x)];
    return (!WORDS.test(sideText(left)) || !WORDS.test(sideText(right))) && !isProse(left) && !isProse(right);
  });
  const cells = rows.filter((l) => l.segs.length >= 3);
  return both.length >= 4 && 2 * rows.length > both.length && 2 * cells.length >= rows.length ? null : x;
}

/** SIDEBAR_WIDTH: the widest a margin sidebar's lines are, as a share of the page's width */
const SIDEBAR_WIDTH = 0.3;
/** SIDEBAR_LINES: the fewest lines of a sidebar, and (MAIN_LINES) of the column beside it */
const SIDEBAR_LINES = 4;
const MAIN_LINES = 10;
/** SIDEBAR_SHARED: the largest share of a sidebar's lines that may share a baseline with the main column's */
const SIDEBAR_SHARED = 0.6;

/**
 * findSidebar gives the right edge of a narrow column at the left margin beside a page's main
 * column (a journal's first page: dates, editor, licence beside the title and introduction), or
 * null. Its gutter is left of findGutter's middle of the page, so only its own evidence tells it
 * from a form's labels beside their values: no line crosses the gap; the main column is prose (half
 * the page wide, most lines words); the sidebar has SIDEBAR_LINES lines or more, none wider than
 * SIDEBAR_WIDTH of the page, in print no larger than the main column's and no more than a third of
 * them bold (side heads in bold beside the paragraphs they head are no sidebar: IRS instructions'
 * "Use this form if", "Filling in your return"); and its baselines are its own: at most SIDEBAR_SHARED of its lines
 * share one with the main column (PeerJ's: 8 of 17, where a form's label sits on its value's
 * baseline row by row).
 */
function findSidebar(lines: RawLine[], pageWidth: number): number | null {
  if (lines.length < MAIN_LINES + SIDEBAR_LINES) return null;
  let x = -1;
  for (let candidate = Math.round(0.12 * pageWidth); candidate <= SIDEBAR_WIDTH * pageWidth + 2 && x < 0; candidate += 2) {
    if (lines.every((line) => line.segs.every((seg) => seg.x2 <= candidate || seg.x >= candidate))) x = candidate;
  }
  if (x < 0) return null;
  // the middle of the gap the page leaves at x
  let left = -Infinity;
  let right = Infinity;
  for (const line of lines) {
    for (const seg of line.segs) {
      if (seg.x2 <= x) left = Math.max(left, seg.x2);
      else right = Math.min(right, seg.x);
    }
  }
  if (!Number.isFinite(left) || !Number.isFinite(right)) return null;
  const gutter = (left + right) / 2;
  const side = lines.filter((line) => line.segs[0]!.x2 <= gutter);
  const main = lines.filter((line) => line.segs[line.segs.length - 1]!.x >= gutter);
  if (side.length < SIDEBAR_LINES || main.length < MAIN_LINES) return null;
  const width = (segs: Segment[]) => (segs.length ? segs[segs.length - 1]!.x2 - segs[0]!.x : 0);
  if (side.some((line) => width(line.segs.filter((seg) => seg.x2 <= gutter)) > SIDEBAR_WIDTH * pageWidth)) return null;
  const mainSegs = main.map((line) => line.segs.filter((seg) => seg.x >= gutter));
  if (median(mainSegs.map(width)) < 0.5 * pageWidth) return null;
  if (mainSegs.filter((segs) => WORDS.test(segs.map((seg) => seg.text).join(" "))).length < 0.6 * main.length) return null;
  // side heads (a form's instructions: "Use this form if", "Filling in your return" in bold beside their paragraphs) head the text beside them
  // (weighed on its lines of their own, whose weight the line's tells)
  const own = side.filter((line) => line.segs[line.segs.length - 1]!.x2 <= gutter);
  if (3 * own.filter((line) => line.bold).length > own.length) return null;
  if (median(side.map((line) => line.size)) > median(main.map((line) => line.size)) + 0.5) return null;
  const shared = side.filter((line) => line.segs[line.segs.length - 1]!.x >= gutter).length;
  return shared <= SIDEBAR_SHARED * side.length ? gutter : null;
}

/**
 * besideSidebar: the groups to read for a sidebar left of `gutter`: the main column down to the
 * sidebar's top, the sidebar, then the rest of the main column. The main column is cut at its first
 * paragraph break (a wider gap between baselines than its lines', after a short line or a full
 * stop) at or below the sidebar's top, so
 * that no paragraph is cut, and above the title over that paragraph; without one, the sidebar
 * follows the whole column.
 */
function besideSidebar(lines: RawLine[], gutter: number): RawLine[][] {
  const side: RawLine[] = [];
  const main: RawLine[] = [];
  for (const line of lines) {
    const l = line.segs.filter((seg) => seg.x2 <= gutter);
    const r = line.segs.filter((seg) => seg.x >= gutter);
    if (l.length) side.push(sideOf(line, l));
    if (r.length) main.push(sideOf(line, r));
  }
  const top = side[0]!.y - side[0]!.size;
  const spacing = median(main.slice(1).map((line, i) => line.y - main[i]!.y));
  // a paragraph ends in a short line or a full stop (a line that runs to the column's edge and ends in a colon goes on: "at the following website:")
  const right = Math.max(...main.map((line) => line.segs[line.segs.length - 1]!.x2));
  const ends = (line: RawLine) => line.segs[line.segs.length - 1]!.x2 < right - 2 * line.size || /[.!?]$/.test(line.segs[line.segs.length - 1]!.text);
  let cut = main.findIndex((line, i) => i > 0 && line.y >= top && line.y - main[i - 1]!.y > 1.3 * spacing && ends(main[i - 1]!));
  if (cut < 0) cut = main.length;
  // a title over the paragraph there (larger or bold, apart from the line above it) stays with it
  const title = (i: number) => (main[i]!.size > main[i + 1]!.size + 0.5 || (main[i]!.bold && !main[i + 1]!.bold)) && main[i]!.y - main[i - 1]!.y > 1.3 * spacing;
  while (cut > 1 && cut < main.length && title(cut - 1)) cut--;
  return [main.slice(0, cut), side, main.slice(cut)].filter((group) => group.length);
}

/** COLUMN_RUN_LINES, COLUMN_RUN_SHARE: the fewest lines, and the smallest share of a page's lines, of a run of columns between full-width lines */
const COLUMN_RUN_LINES = 12;
const COLUMN_RUN_SHARE = 0.4;

/** longestRunBeside: the longest run of consecutive lines (top to bottom) that no segment of crosses x */
function longestRunBeside(lines: RawLine[], x: number): RawLine[] {
  let best = { start: 0, end: 0 };
  let start = 0;
  lines.forEach((line, i) => {
    if (line.segs.some((seg) => seg.x < x && seg.x2 > x)) start = i + 1;
    else if (i + 1 - start > best.end - best.start) best = { start, end: i + 1 };
  });
  return lines.slice(best.start, best.end);
}

/** WORDS: three words of letters in a row, as a line of prose has and a row of figures does not */
const WORDS = /\p{L}{2,}\S*\s+\p{L}{2,}\S*\s+\p{L}{2,}/u;

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

/** columnBlocks splits the lines of one column into tables and text blocks. */
function columnBlocks(columnLines: RawLine[], pageWidth: number): LayoutBlock[] {
  const blocks: LayoutBlock[] = [];
  const lines = joinJustified(columnLines);
  const rightEdge = columnRightEdge(lines);
  const body = dominantSize(lines.map((line) => [line.size, line.segs.reduce((sum, seg) => sum + seg.text.length, 0)]));
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

/**
 * headerBandAbove counts the last lines of `pending` that are a header band over the table `rows`:
 * rows of group labels (isGroupHeader), each at line spacing above the line under it, with the
 * lines of the stub's label between them (a short label alone at the rows' left edge: "Age group"
 * over "(yrs)", set between the group row and the column titles). The band's top line is a row of
 * group labels; the second line of a caption that wraps above the table is none.
 */
function headerBandAbove(pending: RawLine[], rows: RawLine[]): number {
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
function tableRunEnd(lines: RawLine[], start: number): TableRun {
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
    } else if (isGroupLabelRow(line, prev, lines[end + 1], Math.min(...cellStarts))) {
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
  // A line with a cell in display type is a header band's: no table holds it or the rows above it.
  if (lines.slice(start, end).some(hasDisplayCell)) return { end: start, wrapped: new Set() };
  // Nor do the header band's lines under it that mix type sizes (a form's boxes beside its title).
  if (inHeaderBand(lines, start)) return { end: start, wrapped: new Set() };
  return { end, wrapped };
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
  if (Math.abs(seg.x - leftmost) > 0.5 * em || Math.abs(first.x - seg.x) > 0.5 * em || next.y - line.y > 1.6 * em || Math.abs(next.size - line.size) > 0.25 * line.size) return false;
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
  // The one cell of a line off the first column: the next line or paragraph of a cell above.
  const offFirst = seg.x - Math.min(...cellStarts) > seg.size;
  if (line.segs.length === 1 && offFirst) return true;
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
function clusterPositions(values: number[], tolerance: number): number[][] {
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
function tableFrom(lines: RawLine[], wrapped: Set<number> = new Set()): LayoutBlock | "form" | null {
  const size = median(lines.map((l) => l.size));
  lines = splitHeaderAtFigureColumns(splitAtFigureColumns(lines, size), size);
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
    const heights = new Set<number>();
    for (let c = 0; c < rows[0]!.length; c++) {
      const filled = rows.slice(start, end).flatMap((row, k) => (row[c] ? [start + k] : []));
      if (!filled.length) continue;
      if (filled[filled.length - 1]! - filled[0]! !== filled.length - 1) return false;
      bottom &&= filled[filled.length - 1] === end - 1;
      top &&= filled[0] === start;
      heights.add(filled.length);
    }
    // Cells of different heights (a grid of equal rows is rows); with no figures below to end the
    // header, only a bottom-aligned one of three lines or more.
    if (heights.size < 2) return false;
    return numeric < 0 ? bottom && end - start >= 3 : bottom || top;
  };
  for (let start = 0; start + 2 <= end; start++) {
    if (!fits(start)) continue;
    const header = rows[start]!.map((_, c) => rows.slice(start, end).reduce((text, row) => (!row[c] ? text : text ? joinWrapped(text, row[c]!) : row[c]!), ""));
    return [...rows.slice(0, start), header, ...rows.slice(end)];
  }
  return rows;
}

/** LEADER_DOTS: a run of four or more dots (spaced or not) at a cell's end, or the whole cell */
const LEADER_DOTS = /\s*(?:\.\s?){4,}$/;

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
 * or a centred one, keeps its line break).
 */
function continuesInto(line: LayoutLine, next: LayoutLine, leftEdge: number, rightEdge: number): boolean {
  if (next.x - leftEdge > next.size) return false;
  const firstWord = next.text.split(" ")[0] ?? "";
  const slack = rightEdge - line.x2;
  return slack < Math.max(line.size, (firstWord.length + 1) * 0.5 * line.size);
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
    blocks.push({ kind: "text", lines: current, size: median(sizes), top: current[0]!.y - current[0]!.size, bottom: current[current.length - 1]!.y });
    current = [];
  };
  let prevSegs = 0;
  for (const raw of lines) {
    const text = (raw.rtl ? [...raw.segs].reverse() : raw.segs).map((s) => s.text).join(" ");
    const line: LayoutLine = { text, x: raw.segs[0]!.x, x2: raw.segs[raw.segs.length - 1]!.x2, y: raw.y, size: raw.size, wraps: false, ...(raw.bold ? { bold: true } : {}) };
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
      prev.wraps = !leavesItem && !prevCells && continuesInto(prev, line, hanging ? line.x : leftEdge, rightEdge);
    }
    if (prev) {
      const em = Math.max(prev.size, line.size);
      const gap = line.y - prev.y;
      const sizeChange = Math.abs(prev.size - line.size) > 0.12 * em;
      // A numbered section title is a block of its own, even in the body's font and spacing.
      const sectionEdge = (!prev.wraps && isSectionTitle(text)) || (current.length === 1 && !prev.wraps && isSectionTitle(prev.text));
      // So is a line all in bold above a paragraph that is not (a heading in the body's size), and
      // a bold line a paragraph's gap below another (headings in a document of wide line spacing).
      const boldEdge = (!prev.wraps && !line.bold && current.every((l) => l.bold)) || (prev.bold && line.bold && gap > 1.6 * em);
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

/** OutlineEntry is one bookmark of the PDF's outline: its title and depth (1 = top level). */
export interface OutlineEntry {
  title: string;
  level: number;
}

/** outlineKey folds a title for matching against a block's text: letters and digits only, lower case. */
function outlineKey(text: string): string {
  return text.toLowerCase().replace(SCRIPT_TAG, "").replace(/[^\p{L}\p{N}]+/gu, "");
}

/** RenderedDocument is the markdown of all pages and the first heading (a fallback title). */
export interface RenderedDocument {
  markdown: string;
  firstHeading: string | null;
  /** removedLines: running headers, footers and page numbers dropped */
  removedLines: number;
}

/**
 * renderPages renders the pages in order: running headers and footers (the same text at the same
 * place on many pages) and page numbers are dropped, blocks in a font larger than the body become
 * headings ranked by size (#, ##, ###) and numbered section titles in the body's font rank below
 * them, lists (nested by indent) and tables are rendered, a paragraph cut by a page break is joined
 * again, and the pages' footnotes follow at the end as `[^label]: text`. A block whose text is a
 * bookmark of the PDF's `outline` is a heading at the bookmark's depth.
 */
export function renderPages(laidOut: PageLayout[], outline: OutlineEntry[] = []): RenderedDocument {
  // Bookmarks say which blocks are headings and how deep, whatever their font: each title once.
  const bookmarks = new Map<string, number[]>();
  for (const entry of outline) {
    const key = outlineKey(entry.title);
    if (key) bookmarks.set(key, [...(bookmarks.get(key) ?? []), entry.level]);
  }
  // Split before the analyses below: they remember blocks by identity (running, bold), so the
  // blocks they see must be the ones rendered.
  const pages = laidOut.map((page) => ({ ...page, blocks: splitBoldLeads(bookmarks.size ? splitAtBookmarks(page.blocks, bookmarks) : page.blocks) }));
  takeEndnotes(pages);
  const removed = runningBlocks(pages);
  const charts = chartText(pages, removed);
  const body = bodySize(pages, new Set([...removed, ...charts.labels]));
  const values = new Set([...fieldValues(pages, removed, body), ...brokenLabels(pages, removed, body)]);
  const levels = headingLevels(pages, removed, body, new Set([...charts.titles, ...values]));
  const bold = boldHeadings(pages, removed, body, values);
  const bookmarkLevel = (block: LayoutBlock): number => {
    if (!bookmarks.size || block.kind !== "text" || block.lines.length > 3) return 0;
    const list = bookmarks.get(outlineKey(blockText(block)));
    return list?.shift() ?? 0;
  };
  const out: string[] = [];
  let firstHeading: string | null = null;
  let openParagraph = false;
  // openAt: the place in `out` of the paragraph that ended the last text block (the one a paragraph at the top of the next page goes on)
  let openAt = 0;
  const notes: string[] = [];
  const usedLabels = new Set<string>();
  // The open list's levels: each item's left edge and the width of its marker, for nesting by indent.
  let listLevels: Array<{ x: number; marker: number }> = [];
  // The table that ended the last page, with its rows so far and its place in `out`, for a table that goes on at the top of the next.
  type OpenTable = { block: Extract<LayoutBlock, { kind: "table" }>; rows: string[][]; at: number; page: number };
  let openTable: OpenTable | null = null;
  // Tables joined across pages, rendered again once at the end (not per page: a table may run for hundreds).
  const joined = new Set<OpenTable>();
  // The listing that ended the last page and its place in `out`, for one that goes on at the top of the next.
  let openCode: { block: CodeBlock; at: number; page: number } | null = null;
  for (const page of pages) {
    let firstOnPage = true;
    // Footnote labels restart on some documents' pages: a label used before gets the page number.
    const renamed = new Map<string, string>();
    for (const note of page.notes ?? []) {
      const label = usedLabels.has(note.label) ? `${note.label}-p${page.page}` : note.label;
      usedLabels.add(label);
      if (label !== note.label) renamed.set(note.label, label);
      notes.push(`[^${label}]: ${escapeStrayMarkup(note.text)}`);
    }
    if (renamed.size) relabelNotes(page.blocks, renamed);
    for (const block of page.blocks) {
      if (removed.has(block)) continue;
      if (block.kind === "table") {
        if (firstOnPage && openTable && openTable.page === page.page - 1 && continuesTable(openTable.block, block)) {
          openTable.rows.push(...(sameRow(block.rows[0]!, openTable.rows[0]!) ? block.rows.slice(1) : block.rows));
          joined.add(openTable);
          openTable.page = page.page;
        } else {
          out.push(tableMarkdown(block.rows));
          openTable = { block, rows: [...block.rows], at: out.length - 1, page: page.page };
        }
        openParagraph = false;
        firstOnPage = false;
        listLevels = [];
        openCode = null;
        continue;
      }
      openTable = null;
      if (block.kind === "code") {
        if (firstOnPage && openCode && openCode.page === page.page - 1 && continuesCode(openCode.block, block)) openCode.block = joinCode(openCode.block, block);
        else openCode = { block, at: out.push("") - 1, page: page.page };
        out[openCode.at] = codeMarkdown(openCode.block);
        openCode.page = page.page;
        openParagraph = false;
        firstOnPage = false;
        listLevels = [];
        continue;
      }
      openCode = null;
      const level = bookmarkLevel(block) || headingLevel(block, body, levels, bold.has(block));
      if (level) listLevels = [];
      if (level) {
        const text = headingText(blockText(block));
        firstHeading ??= text.replace(SCRIPT_TAG, "");
        out.push(heading(level, escapeStrayMarkup(text)));
        openParagraph = false;
        firstOnPage = false;
        continue;
      }
      let paragraph = paragraphMarkdown(block.lines);
      if (isListItem(paragraph)) {
        const x = block.lines[0]!.x;
        const tolerance = 0.5 * block.size;
        while (listLevels.length && x < listLevels[listLevels.length - 1]!.x - tolerance) listLevels.pop();
        const last = listLevels[listLevels.length - 1];
        const marker = paragraph.indexOf(" ") + 1;
        if (!last || x > last.x + tolerance) listLevels.push({ x, marker });
        else listLevels[listLevels.length - 1] = { x: last.x, marker };
        const indent = " ".repeat(listLevels.slice(0, -1).reduce((sum, l) => sum + l.marker, 0));
        if (indent) paragraph = paragraph.split("\n").map((line, i) => (i === 0 ? indent : indent + " ".repeat(marker)) + line).join("\n");
      } else {
        listLevels = [];
      }
      if (firstOnPage && openParagraph && /^[a-z]/.test(paragraph) && out.length) {
        out[openAt] = joinWrapped(out[openAt]!, paragraph);
      } else if (openParagraph && isFootPrint(block, page, body)) {
        // the page's small print at its foot (a first page's citation line, a licence) is set after the paragraph that runs on to the next page
        out.push(paragraph);
        continue;
      } else {
        out.push(paragraph);
        openAt = out.length - 1;
      }
      openParagraph = !/[.!?:;"”)]$/.test(paragraph) && !isListItem(paragraph);
      firstOnPage = false;
    }
    for (const text of page.imageTexts ?? []) {
      out.push(imageTextQuote(text));
      openParagraph = false;
      openTable = null;
      openCode = null;
    }
  }
  for (const table of joined) out[table.at] = tableMarkdown(table.rows);
  if (notes.length) out.push(notes.join("\n"));
  return { markdown: joinBlocks(out), firstHeading, removedLines: removed.size };
}

/** tableMarkdown renders a table's rows, each cell's own markup characters escaped (escapeStrayMarkup). */
function tableMarkdown(rows: string[][]): string {
  return gfmTable(rows.map((row) => row.map(escapeStrayMarkup)));
}

/** FOOT_PRINT_SIZE, FOOT_PRINT_TOP: small print is under this share of the body size, at a page's foot below this share of its height */
const FOOT_PRINT_SIZE = 0.8;
const FOOT_PRINT_TOP = 0.85;

/**
 * isFootPrint: a text block is the page's small print at its foot (PeerJ's first page's "How to
 * cite this article ...", a licence or copyright line): the page's last block, in print under
 * FOOT_PRINT_SIZE of the body's, below FOOT_PRINT_TOP of the page's height. The paragraph above it
 * may go on at the top of the next page; the small print is not part of it.
 */
function isFootPrint(block: Extract<LayoutBlock, { kind: "text" }>, page: PageLayout, body: number): boolean {
  return page.blocks[page.blocks.length - 1] === block && block.size < FOOT_PRINT_SIZE * body && block.top > FOOT_PRINT_TOP * page.height;
}

/**
 * continuesTable: a table at the top of a page goes on from the one that ended the page before
 * (nothing but running headers between them) when its columns line up with that table's: as
 * many, each at the same edge within half a character.
 */
function continuesTable(before: Extract<LayoutBlock, { kind: "table" }>, table: Extract<LayoutBlock, { kind: "table" }>): boolean {
  const a = before.columns;
  const b = table.columns;
  if (!a || !b || a.length !== b.length || Math.abs(before.size - table.size) > 0.5) return false;
  const tolerance = 0.5 * Math.max(before.size, table.size);
  return a.every((edge, i) => edge.right === b[i]!.right && Math.abs(edge.x - b[i]!.x) <= tolerance);
}

/** sameRow: two rows with the same cells (a header repeated on each page) */
function sameRow(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((cell, i) => cell.trim() === b[i]!.trim());
}

/**
 * splitAtBookmarks gives a bookmark's title its own block when it opens a block of text (a heading
 * in the body's font, set as close to its paragraph as the paragraph's own lines).
 */
/**
 * splitBoldLeads takes the bold title lines at the top of a text block off it ("Methods" /
 * "Setting" / "The Medical Department of ..." at line spacing, as journals set them): each
 * title its own block (a bold line that wraps goes on with the next bold line of its size), so
 * that boldHeadings can weigh them. Only when lines that are not bold follow, and no title line
 * ends as a sentence or a label does.
 */
function splitBoldLeads(blocks: LayoutBlock[]): LayoutBlock[] {
  const out: LayoutBlock[] = [];
  for (const block of blocks) {
    if (block.kind !== "text" || block.lines.length < 2 || !block.lines[0]!.bold) {
      out.push(block);
      continue;
    }
    const lines = block.lines;
    let lead = 0;
    while (lead < lines.length && lines[lead]!.bold && lead < 4) lead++;
    const titles = lines.slice(0, lead);
    if (lead === lines.length || lines[lead]!.bold || titles.some((line) => /[.,;:!?]$/.test(line.text) || line.text.length > 120) || lines[lead - 1]!.wraps) {
      out.push(block);
      continue;
    }
    let group: LayoutLine[] = [];
    const close = () => {
      out.push({ kind: "text", lines: group, size: median(group.map((l) => l.size)), top: group[0]!.y - group[0]!.size, bottom: group[group.length - 1]!.y });
      group = [];
    };
    for (const line of titles) {
      if (group.length && Math.abs(line.size - group[0]!.size) > 0.6) close();
      group.push(line);
      if (!line.wraps) close();
    }
    const rest = lines.slice(lead);
    out.push({ ...block, lines: rest, size: median(rest.map((l) => l.size)), top: rest[0]!.y - rest[0]!.size });
  }
  return out;
}

function splitAtBookmarks(blocks: LayoutBlock[], bookmarks: Map<string, number[]>): LayoutBlock[] {
  const out: LayoutBlock[] = [];
  for (const block of blocks) {
    const first = block.kind === "text" ? block.lines[0]! : null;
    if (block.kind !== "text" || block.lines.length < 2 || first!.wraps || !bookmarks.get(outlineKey(first!.text))?.length) {
      out.push(block);
      continue;
    }
    const rest = block.lines.slice(1);
    out.push({ ...block, lines: [first!], size: first!.size, bottom: first!.y });
    out.push({ ...block, lines: rest, size: median(rest.map((l) => l.size)), top: rest[0]!.y - rest[0]!.size });
  }
  return out;
}

/** imageTextQuote shows OCR text of a picture as a quote, marked so readers know where it came from. */
function imageTextQuote(text: string): string {
  const lines = text.split("\n").map((l) => l.trim()).filter(Boolean);
  return lines.map((line, i) => `> ${i === 0 ? "[Image text] " : ""}${line}`).join("\n");
}

/** bodySize is the font size (rounded to 0.5 pt) that carries the most characters. */
function bodySize(pages: PageLayout[], removed: Set<LayoutBlock>): number {
  // Prose first (blocks of several lines, or a line of 40 characters or more): table cells and
  // captions are often set smaller than the text, titles larger. Without prose, all text counts.
  const isProse = (block: LayoutBlock) => block.kind === "text" && (block.lines.length >= 2 || block.lines.some((line) => line.text.length >= 40));
  for (const counts of [isProse, (_: LayoutBlock) => true]) {
    const weight = new Map<number, number>();
    for (const page of pages) {
      for (const block of page.blocks) {
        if (removed.has(block) || !counts(block)) continue;
        const sized = block.kind === "text" ? block.lines.map((line) => [line.size, line.text.length] as const) : [[block.size, blockText(block).length] as const];
        for (const [size, chars] of sized) {
          const key = Math.round(size * 2) / 2;
          weight.set(key, (weight.get(key) ?? 0) + chars);
        }
      }
    }
    let best = 0;
    let bestWeight = -1;
    for (const [size, w] of weight) if (w > bestWeight) [best, bestWeight] = [size, w];
    if (bestWeight > 0) return best;
  }
  return 0;
}

/** AXIS_TICK: a line that is a number alone, as a chart's value axis labels its ticks ("2003.5", "1,000", "-50", "25 %") */
const AXIS_TICK = /^[-−]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?\s?%?$/;
/** AXIS_TICKS: the fewest ticks that make a value axis (three numbers evenly stepped are as often a list's or a form's) */
const AXIS_TICKS = 4;

/**
 * chartText finds the text of charts drawn on the pages, by their value axes: four lines or more
 * on a page, each a number alone, right-aligned on one edge (within half their size), whose values
 * change in proportion to their height on the page (evenly stepped ticks; a label set between two
 * of them aside). `labels` are the blocks holding an axis's ticks: a drawing's labels, whose size
 * says nothing of the body's. `titles` are the charts' titles: the block just before an axis's
 * first block, up to three lines, no more than three of its lines' heights above it and starting
 * past the axis's labels by an em or more (over the plot, not at the margin as a section heading
 * over a chart is): a caption of the drawing, not a section of the document.
 */
function chartText(pages: PageLayout[], removed: Set<LayoutBlock>): { labels: Set<LayoutBlock>; titles: Set<LayoutBlock> } {
  const labels = new Set<LayoutBlock>();
  const titles = new Set<LayoutBlock>();
  for (const page of pages) {
    const blocks = page.blocks.filter((block) => !removed.has(block));
    const ticks: Array<{ value: number; line: LayoutLine; block: LayoutBlock }> = [];
    for (const block of blocks) {
      if (block.kind !== "text") continue;
      for (const line of block.lines) {
        const text = line.text.trim();
        if (AXIS_TICK.test(text)) ticks.push({ value: Number(text.replace(/[,%\s]/g, "").replace("−", "-")), line, block });
      }
    }
    if (ticks.length < AXIS_TICKS) continue;
    const edges = clusterPositions(ticks.map((tick) => tick.line.x2), 0.5 * Math.min(...ticks.map((tick) => tick.line.size)));
    for (const edge of edges) {
      const axis = ticks.filter((tick) => edge.includes(tick.line.x2)).sort((a, b) => a.line.y - b.line.y);
      if (axis.length < AXIS_TICKS) continue;
      const first = axis[0]!;
      const last = axis[axis.length - 1]!;
      const slope = (last.value - first.value) / (last.line.y - first.line.y);
      if (!Number.isFinite(slope) || slope === 0) continue;
      // a fifth of the smallest step between neighbouring ticks
      const step = Math.min(...axis.slice(1).map((tick, i) => Math.abs(tick.value - axis[i]!.value)));
      if (!(step > 0) || axis.some((tick) => Math.abs(first.value + slope * (tick.line.y - first.line.y) - tick.value) > 0.2 * step)) continue;
      for (const tick of axis) labels.add(tick.block);
      const at = blocks.indexOf(first.block);
      const title = blocks[at - 1];
      const left = Math.min(...axis.map((tick) => tick.line.x));
      if (title?.kind === "text" && title.lines.length <= 3 && first.block.top >= title.bottom && first.block.top - title.bottom <= 3 * title.size && Math.min(...title.lines.map((line) => line.x)) >= left + title.size) titles.add(title);
    }
  }
  return { labels, titles };
}

function isListItem(markdown: string): boolean {
  return /^\s*(?:- |\d+\. )/.test(markdown);
}
