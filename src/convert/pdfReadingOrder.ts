/**
 * Reading order of a PDF page: parts of the page divided by a drawn rule (`columnDividers`,
 * `pageParts`: Form 4868's Part I | Part II), read one after the other; within a part, columns
 * apart by a gutter (`findGutter`) and a sidebar beside the main text (`findSidebar`), each read
 * top to bottom (`readingOrder`).
 */
import type { PdfTextItem, RawLine, Segment } from "./pdfLayoutTypes";
import { buildLines, glueLeadingBullet, median } from "./pdfLines";
import type { RuledGrid, RuleDivider } from "./pdfRules";

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
export function columnDividers(candidates: RuleDivider[], items: PdfTextItem[], pageWidth: number, pageHeight: number): PageDivider[] {
  const cutLines = new Set<RuleDivider>();
  const boxGaps = boxGapsOf(candidates, items, pageWidth);
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
    // the left side of two boxes drawn side by side, a narrow gap apart (an invoice's seller and buyer): each box is read whole
    if (boxGaps.has(divider)) return left.length > 0 && right.length > 0;
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
  return kept.map((divider) => ({ ...divider, top: divider.reachTop, bottom: divider.reachBottom, ...(cutLines.has(divider) ? { cut: true } : {}), ...(boxGaps.has(divider) ? { boxes: boxGaps.get(divider)! } : {}) }));
}

/** BOX_GAP: the widest gap (pt) between two boxes drawn side by side that reads as one gap, not as a column between them */
const BOX_GAP = 24;

/**
 * boxGapsOf: of two rules that stand a narrow gap apart (BOX_GAP at most), over the same stretch
 * of the page with no text between them, the left one: the right side of one box and the left side
 * of the next, drawn side by side (an invoice's seller and buyer, each in a box with rounded
 * corners). Each box is closed by its outer side over the same stretch and is DIVIDER_SIDE_WIDTH
 * of the page wide (its text may be short: a name and an address). A table ruled between its
 * columns draws one rule there, not two.
 */
function boxGapsOf(candidates: RuleDivider[], items: PdfTextItem[], pageWidth: number): Map<RuleDivider, BoxSides> {
  const gaps = new Map<RuleDivider, BoxSides>();
  const alongside = (a: RuleDivider, b: RuleDivider) => Math.abs(a.top - b.top) <= 2 && Math.abs(a.bottom - b.bottom) <= 2;
  const minWidth = DIVIDER_SIDE_WIDTH * pageWidth;
  for (const left of candidates) {
    const right = candidates.find((other) => other.x > left.x + 1 && other.x - left.x <= BOX_GAP && alongside(left, other));
    if (!right) continue;
    // each box's outer side: the nearest rule along the same stretch a box's width away
    const leftBox = Math.max(...candidates.filter((other) => left.x - other.x >= minWidth && alongside(left, other)).map((other) => other.x));
    const rightBox = Math.min(...candidates.filter((other) => other.x - right.x >= minWidth && alongside(right, other)).map((other) => other.x));
    const between = items.some((item) => item.y >= left.top && item.y <= left.bottom && item.x + item.width > left.x + 1 && item.x < right.x - 1);
    if (Number.isFinite(leftBox) && Number.isFinite(rightBox) && !between) gaps.set(left, { leftBox: [leftBox, left.x], rightBox: [right.x, rightBox] });
  }
  return gaps;
}

/**
 * exampleDividers: a manual's examples set as a ruled grid of two columns, the source in a monospace
 * face in the left cell of each row and what it renders in the right (typst's package manuals):
 * each row's middle rule divides the source from its output, so the source reads as a listing and
 * the output after it (text, never a heading: it shows what the source does), not line across
 * line. None for a grid of any other kind.
 */
export function exampleDividers(grid: RuledGrid, items: PdfTextItem[]): PageDivider[] {
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

/** BoxSides: the left and right sides (x) of two boxes drawn side by side, the divider the first one's right side (boxGapsOf) */
interface BoxSides {
  leftBox: [number, number];
  rightBox: [number, number];
}

/** PageDivider: a rule that divides the page's text into parts; `example`: a ruled example's rule between its source and what the source renders (exampleDividers); `cut`: a cut line to the page's edge (see columnDividers); `boxes`: the sides of the two boxes it stands between */
export type PageDivider = RuleDivider & { example?: boolean; cut?: boolean; boxes?: BoxSides };

/** PagePart: lines of a page read on their own, and the part of the page they lie in (x from x1 up to x2, baselines from y1 up to y2); `rendered`: an example's output; `box`: the left and right sides of the box drawn around it */
interface PagePart {
  lines: RawLine[];
  x1: number;
  x2: number;
  y1: number;
  y2: number;
  rendered?: boolean;
  box?: [number, number];
}

/**
 * pageParts cuts a page's text runs at its dividers: the runs above a divider, those left of it,
 * those right of it and those below, each part cut again at the dividers inside it, and builds
 * each part's lines apart (two parts' runs on one baseline make no line together). A page without
 * dividers is one part.
 */
export function pageParts(items: PdfTextItem[], dividers: PageDivider[], bounds: Omit<PagePart, "lines"> = { x1: -Infinity, x2: Infinity, y1: -Infinity, y2: Infinity }): PagePart[] {
  const k = dividers.findIndex((d) => d.x > bounds.x1 && d.x < bounds.x2 && d.top >= bounds.y1 && d.bottom <= bounds.y2);
  if (k < 0) return [{ lines: buildLines(items), ...bounds }];
  const divider = columnReach(dividers[k]!, items);
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
    ...pageParts(left, rest, { ...bounds, x2: divider.x, y1: divider.top, y2: divider.bottom, ...(divider.boxes ? { box: divider.boxes.leftBox } : {}) }),
    ...pageParts(right, rest, { ...bounds, x1: divider.x, y1: divider.top, y2: divider.bottom, ...(divider.example || bounds.rendered ? { rendered: true } : {}), ...(divider.boxes ? { box: divider.boxes.rightBox } : {}) }),
    ...pageParts(below, rest, { ...bounds, y1: divider.bottom }),
  ];
}

/** REACH_GAP_EM: the widest gap between two lines, in their size, that a column beside a divider goes on over (a paragraph's gap, a head's; not a region apart) */
const REACH_GAP_EM = 2;
/** NEAR_END_EM: how near a rule's end, in its size, a line is to go on past it (a line's pitch; a box's margin and a paragraph's gap are wider) */
const NEAR_END_EM = 1.5;

/**
 * columnReach: a divider with the column beside it: a box drawn at the top of a page's right column
 * (a form's note) divides the page from its top to its bottom, but the left column's text goes on
 * past both: its lines above and below the box, none of them across the divider's line, each within
 * REACH_GAP_EM of the one before, are the left part's and the right's, so the column is read whole
 * before the box and not cut into three. Only when the text on one side only goes on past the rule's
 * ends (within NEAR_END_EM): text going on past them on both sides is two columns. The reach stops at
 * a run across the line or at a wider gap. An example's rule and a cut line are as drawn.
 */
function columnReach(divider: PageDivider, items: PdfTextItem[]): PageDivider {
  if (divider.example || divider.cut) return divider;
  const crosses = (item: PdfTextItem) => item.x < divider.x - 1 && item.x + item.width > divider.x + 1;
  const inside = items.filter((item) => item.y >= divider.top && item.y <= divider.bottom);
  if (!inside.length || inside.some(crosses)) return divider;
  // a box's side: the text on one side goes on past the rule's ends (the column), the other side's stops at them (the box);
  // two columns whose text goes on past both ends (a rule beside a figure in a paper's column) are as drawn
  const goesOn = (left: boolean) =>
    items.some((item) => (item.x + item.width / 2 < divider.x) === left && !crosses(item) && ((item.y < divider.top && divider.top - item.y <= NEAR_END_EM * item.size) || (item.y > divider.bottom && item.y - divider.bottom <= NEAR_END_EM * item.size)));
  if (goesOn(true) === goesOn(false)) return divider;
  let bottom = Math.max(...inside.map((item) => item.y));
  for (const item of items.filter((run) => run.y > divider.bottom).sort((a, b) => a.y - b.y)) {
    if (crosses(item) || item.y - bottom > REACH_GAP_EM * item.size) break;
    bottom = item.y;
  }
  let top = Math.min(...inside.map((item) => item.y));
  for (const item of items.filter((run) => run.y < divider.top).sort((a, b) => b.y - a.y)) {
    if (crosses(item) || top - item.y > REACH_GAP_EM * item.size) break;
    top = item.y;
  }
  // (the stretch's own ends stay where the rule is: a reach only adds lines)
  return { ...divider, top: Math.min(divider.top, top - 0.5), bottom: Math.max(divider.bottom, bottom + 0.5) };
}

/**
 * splitGrids cuts a ruled grid that a divider runs through into the rows above the divider, the
 * part left of it, the part right of it and the rows below (in that order), each read as a grid
 * of its own: two parts of a form side by side share their outer rules, so ruledGrids joins them.
 */
export function splitGrids(grids: RuledGrid[], dividers: RuleDivider[]): RuledGrid[] {
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
 * readingOrder finds a two-column layout (a vertical gutter in the middle half of the page that
 * almost no line crosses, with wide text on both sides) and returns groups of lines to read in
 * order: between lines that span the gutter, the left column and then the right column. Pages
 * without a gutter are one group.
 */
/**
 * sideOf: the part of a line on one side of a gutter, bold when its own letters all are (a heading
 * beside the other column's prose), in the size of its own text (a title a size below the body
 * beside the other column's body text), at its own baseline when OCR read it on a line of its own (Segment.y)
 */
function sideOf(line: RawLine, sideSegs: Segment[]): RawLine {
  const { bold: _bold, code, ...whole } = line;
  const part = sideSegs.length < line.segs.length;
  // a list item's marker on this side, apart from its text by a cell's gap, goes with it (it led no line before the split)
  const segs = part ? glueLeadingBullet(sideSegs) : sideSegs;
  // a listing's runs on this side (a listing beside its output, both in the face, splits at the gutter)
  const runs = part ? code?.filter((run) => segs.some((seg) => run.x >= seg.x - 1 && run.x < seg.x2)) : code;
  // an OCR line's side at its own baseline (Segment.y: the right column's line grouped with the left's)
  const rest = { ...(part ? { ...whole, size: segmentsSize(segs), y: segs[0]!.y ?? line.y } : whole), ...(runs?.length ? { code: runs } : {}) };
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

/** MIN_COLUMN_PAGE_SHARE, MIN_COLUMN_TEXT_SHARE: the narrowest a column's lines are (their median), as a share of the page's width and of the text's */
const MIN_COLUMN_PAGE_SHARE = 0.2;
const MIN_COLUMN_TEXT_SHARE = 0.25;
/** MAX_COLUMN_SPLITS: how many times a page is split at a gutter, one side within the other (2: up to three or four columns) */
const MAX_COLUMN_SPLITS = 2;

/**
 * readingOrder splits a page part's lines into the groups read one after the other: lines across
 * the gutter (a banner, an abstract, a figure spanning the columns) in place, the columns between
 * them left then right (right then left on a page written right to left), each column split again where it is two columns itself; a page with no
 * gutter is one group, or a sidebar and the text beside it.
 */
export function readingOrder(lines: RawLine[], pageWidth: number, depth = 0): RawLine[][] {
  const gutter = findGutter(lines, pageWidth);
  if (gutter === null) {
    if (depth > 0) return [lines];
    const sidebar = findSidebar(lines, pageWidth);
    return sidebar === null ? [lines] : besideSidebar(lines, sidebar);
  }
  const groups: RawLine[][] = [];
  let left: RawLine[] = [];
  let right: RawLine[] = [];
  let spanning: RawLine[] = [];
  // a side may be two columns itself (three columns under a full-width banner: the Federal
  // Register's), held to findGutter's tests again (each column a fifth of the page wide at least)
  const columnsOf = (side: RawLine[]) => (depth < MAX_COLUMN_SPLITS - 1 ? readingOrder(side, pageWidth, depth + 1) : [side]);
  // a page written right to left (Arabic, Hebrew) starts at its right column
  const rightFirst = readsRightToLeft(lines);
  const flushColumns = () => {
    for (const side of rightFirst ? [right, left] : [left, right]) if (side.length) groups.push(...columnsOf(side));
    left = [];
    right = [];
  };
  const across = spanningLines(lines, gutter);
  for (const line of lines) {
    if (across.has(line)) {
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

/** readsRightToLeft: most of the lines' text runs right to left (RawLine.rtl, weighed by characters) */
function readsRightToLeft(lines: RawLine[]): boolean {
  let rtl = 0;
  let all = 0;
  for (const line of lines) {
    const chars = line.segs.reduce((sum, seg) => sum + seg.text.length, 0);
    all += chars;
    if (line.rtl) rtl += chars;
  }
  return rtl * 2 > all;
}

/** EDGE_SHARE: a column's left edge is where at least this share of the lines beside the gutter start a segment */
const EDGE_SHARE = 0.15;
/** EDGE_SLACK: a segment starting this near (pt) a column's edge starts at it (a paragraph's first-line indent) */
const EDGE_SLACK = 12;
/** SANDWICH_LINES: the most lines beside the gutter between two table rows across it that are read with them (a row's wrapped cell) */
const SANDWICH_LINES = 2;
/** LISTING_GAP: the widest baseline gap (in sizes) between two lines of one listing (a blank line of code between) */
const LISTING_GAP = 3.3;
/** LINE_PITCH: the widest baseline gap (in sizes) between two lines of one paragraph */
const LINE_PITCH = 1.4;
/** PROSE_EDGE_LINES: the fewest lines of prose beside the gutter for the columns' edges to be read from prose alone */
const PROSE_EDGE_LINES = 8;
/** ROW_CELLS: the fewest segments of a line that, with no prose on either side of the gutter, is a table's row */
const ROW_CELLS = 4;
/** TABLE_RUN_ROWS: the fewest rows of cells in a run beside the gutter, with no line at a column's edge, for it to be a table across the page */
const TABLE_RUN_ROWS = 3;

/**
 * spanningLines gives the lines read across the gutter: those with a segment over it, and the
 * lines of a table or figure spanning the columns that happen to leave the gutter free: the lines
 * right above such a block, below the columns' last lines, that start no segment at a column's
 * edge (its caption, its header row: "ESTIMATED COSTS", "Action | Labor cost | Parts cost" under
 * the Federal Register's three columns), and a line or two between two table rows across it (a
 * row's wrapped first cell).
 */
function spanningLines(lines: RawLine[], gutter: number): Set<RawLine> {
  const crosses = lines.map((line) => line.segs.some((s) => s.x < gutter && s.x2 > gutter));
  // The columns' edges are where their prose starts: a wide table over the columns (a paper's table
  // across the page) starts its cells at the same x in every row, and would make its own edges.
  const sideIsProse = (segs: Segment[]) => hasThreeWords(sideText(segs));
  const proseSides = (line: RawLine) => [line.segs.filter((s) => s.x2 <= gutter), line.segs.filter((s) => s.x >= gutter)].filter((segs) => segs.length && sideIsProse(segs));
  const proseLines = lines.filter((line, i) => !crosses[i] && proseSides(line).length).length;
  const byProse = proseLines >= PROSE_EDGE_LINES;
  const starts = new Map<number, number>();
  let beside = 0;
  for (let i = 0; i < lines.length; i++) {
    if (crosses[i]) continue;
    const segs = byProse ? proseSides(lines[i]!).flat() : lines[i]!.segs;
    if (!segs.length) continue;
    beside++;
    for (const x of new Set(segs.map((s) => Math.round(s.x / 2) * 2))) starts.set(x, (starts.get(x) ?? 0) + 1);
  }
  const edges = [...starts].filter(([, n]) => n >= EDGE_SHARE * beside).map(([x]) => x);
  // a row of cells (four or more, no prose on either side) is no column's line, whatever x a cell starts at
  const isRow = (line: RawLine) => byProse && line.segs.length >= ROW_CELLS && !proseSides(line).length;
  const atEdge = (line: RawLine) => !isRow(line) && line.segs.some((s) => edges.some((x) => Math.abs(s.x - x) <= EDGE_SLACK));
  const across = new Set(lines.filter((_, i) => crosses[i]));
  for (let i = 0; i < lines.length; i++) {
    if (!crosses[i] || i === 0 || crosses[i - 1]) continue;
    // the run of lines beside the gutter that ends here
    let start = i;
    while (start > 0 && !crosses[start - 1]) start--;
    // between two table rows (three cells or more each), a row's wrapped cell
    if (start > 0 && i - start <= SANDWICH_LINES && lines[start - 1]!.segs.length >= 3 && lines[i]!.segs.length >= 3) {
      for (let k = start; k < i; k++) across.add(lines[k]!);
      continue;
    }
    // only the foot of columns: a run that has no line at a column's edge is a block of its own (a title page's affiliation lines),
    // unless it is a table's rows (a table across the page at its top, its caption under it)
    let top = i;
    while (top > start && !atEdge(lines[top - 1]!)) top--;
    const rows = top === start ? lines.slice(start, i).filter(isRow).length : 0;
    if (top > start || (rows >= TABLE_RUN_ROWS && rows * 4 >= (i - start) * 3)) for (let k = top; k < i; k++) across.add(lines[k]!);
  }
  // the last line of a paragraph across the gutter (a caption under a figure over both columns) that ends short of it:
  // right under it at the line spacing, in its size, from its left edge, and set off from the line after it
  for (let i = 0; i + 1 < lines.length; i++) {
    const [above, last, next] = [lines[i]!, lines[i + 1]!, lines[i + 2]];
    if (!crosses[i] || crosses[i + 1] || !last.segs.length || !above.segs.length) continue;
    const pitch = last.y - above.y;
    const under = pitch > 0 && pitch <= LINE_PITCH * above.size && Math.abs(last.size - above.size) < 0.5 && Math.abs(last.segs[0]!.x - above.segs[0]!.x) <= 2;
    if (under && last.segs.every((seg) => seg.x2 <= gutter) && (!next || next.y - last.y >= 1.5 * pitch)) across.add(last);
  }
  // a listing across the page: its short lines (that leave the gutter free) go with the lines that cross it, above and below
  const listingLine = (k: number, from: number) =>
    !crosses[k] && lines[k]!.code !== undefined && Math.abs(lines[k]!.size - lines[from]!.size) < 0.5 && Math.abs(lines[k]!.y - lines[from]!.y) <= LISTING_GAP * lines[from]!.size;
  for (let i = 0; i < lines.length; i++) {
    if (!crosses[i] || lines[i]!.code === undefined) continue;
    for (let k = i + 1; k < lines.length && listingLine(k, k - 1); k++) across.add(lines[k]!);
    for (let k = i - 1; k >= 0 && listingLine(k, k + 1); k--) across.add(lines[k]!);
  }
  return across;
}

/**
 * findGutter gives the x of a two-column page's gutter, or null. Columns may start below a
 * full-width head (a paper's title, authors and abstract) or end above a full-width foot, whose
 * lines cross the gutter: when too many lines cross it for the page to be two columns, the longest
 * run of lines that do not (COLUMN_RUN_SHARE of the page's lines at least) is held to the same tests.
 */
function findGutter(lines: RawLine[], pageWidth: number, whole = true): number | null {
  if (lines.length < 10) return null;
  // Candidate gutters every 2 pt in the middle of the page (gutterCounts).
  const from = Math.round(pageWidth * 0.3);
  const count = Math.floor((pageWidth * 0.7 - from) / 2) + 1;
  if (count <= 0) return null;
  const all = gutterCounts(lines, from, count);
  // the text's own lines (no listing's): for columns under full-width listings that outnumber them
  const text = gutterCounts(lines.filter((line) => line.code === undefined), from, count);
  let best: { x: number; crossing: number } | null = null;
  // fallback: the gutter that the fewest lines of text cross, with text on each side of it in COLUMN_RUN_LINES lines of text at least
  let fallback: { x: number; crossing: number } | null = null;
  for (let k = 0; k < count; k++) {
    if (text.left[k]! >= COLUMN_RUN_LINES && text.right[k]! >= COLUMN_RUN_LINES && (!fallback || text.crossing[k]! < fallback.crossing)) fallback = { x: from + 2 * k, crossing: text.crossing[k]! };
    if (all.left[k]! < lines.length * 0.3 || all.right[k]! < lines.length * 0.3) continue;
    if (!best || all.crossing[k]! < best.crossing) best = { x: from + 2 * k, crossing: all.crossing[k]! };
  }
  if (!best || best.crossing > lines.length * 0.15) {
    if (!whole) return null;
    // the longest run of lines beside the gutter: columns when it is a good share of the page, or
    // when nearly all its lines are prose on both sides (two columns of text under full-width
    // listings or figures, at the gutter that the fewest lines of text cross)
    const columnsBeside = (at: number, share: boolean): number | null => {
      const run = longestRunBeside(lines, at);
      if (run.length < COLUMN_RUN_LINES) return null;
      const proseBoth = run.filter((l) => hasThreeWords(sideText(l.segs.filter((seg) => seg.x2 <= at))) && hasThreeWords(sideText(l.segs.filter((seg) => seg.x >= at)))).length;
      return (share && run.length >= COLUMN_RUN_SHARE * lines.length) || proseBoth >= PROSE_RUN_SHARE * run.length ? findGutter(run, pageWidth, false) : null;
    };
    return (best ? columnsBeside(best.x, true) : null) ?? (fallback && fallback.x !== best?.x ? columnsBeside(fallback.x, false) : null);
  }
  const x = best.x;
  // The width each line covers on a side: justified lines in narrow columns split into many
  // segments at their wide word gaps, so single segments would look narrow.
  const sideWidth = (segs: Segment[]) => (segs.length ? Math.max(...segs.map((s) => s.x2)) - Math.min(...segs.map((s) => s.x)) : 0);
  const leftWidths = lines.map((l) => sideWidth(l.segs.filter((s) => s.x2 <= x))).filter((w) => w > 0);
  const rightWidths = lines.map((l) => sideWidth(l.segs.filter((s) => s.x >= x))).filter((w) => w > 0);
  // a column is a fifth of the page wide at least, and a quarter of the text's width: two
  // columns fill 0.4 of a page each, three (the Federal Register's 154 pt on 612) 0.25
  let textLeft = Infinity;
  let textRight = -Infinity;
  for (const line of lines) for (const seg of line.segs) [textLeft, textRight] = [Math.min(textLeft, seg.x), Math.max(textRight, seg.x2)];
  const narrowest = Math.max(pageWidth * MIN_COLUMN_PAGE_SHARE, (textRight - textLeft) * MIN_COLUMN_TEXT_SHARE);
  const wide = (widths: number[]) => median(widths) >= narrowest;
  if (!wide(leftWidths) || !wide(rightWidths)) return null;
  // Columns of prose have words on both sides of most lines; a wide table whose column groups
  // leave a gap (figures on both sides, words only in its header) is not two columns of text,
  // when its rows are split into cells already (three or more a line) for the table to be found
  // across the page. A line whose one side is a line of prose (one segment of words) is no such
  // row: it is a table in one column beside the text of the other.
  const isProse = (segs: Segment[]) => segs.length === 1 && hasThreeWords(segs[0]!.text);
  const both = lines.filter((l) => l.segs.some((seg) => seg.x2 <= x) && l.segs.some((seg) => seg.x >= x));
  const rows = both.filter((l) => {
    const [left, right] = [l.segs.filter((seg) => seg.x2 <= x), l.segs.filter((seg) => seg.x >= x)];
    return (!hasThreeWords(sideText(left)) || !hasThreeWords(sideText(right))) && !isProse(left) && !isProse(right);
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
  if (mainSegs.filter((segs) => hasThreeWords(sideText(segs))).length < 0.6 * main.length) return null;
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

/**
 * gutterCounts: for each candidate gutter (x = from + 2k, k < count), the lines crossing it and the
 * lines with text left and right of it, counted with difference arrays over the candidates (one
 * pass over the segments instead of one per candidate).
 */
function gutterCounts(lines: RawLine[], from: number, count: number): { crossing: Int32Array; left: Int32Array; right: Int32Array } {
  const crossing = new Int32Array(count + 1);
  const left = new Int32Array(count + 1);
  const right = new Int32Array(count + 1);
  const index = (x: number) => (x - from) / 2;
  for (const line of lines) {
    let minX2 = Infinity;
    let maxX = -Infinity;
    for (const seg of line.segs) {
      // candidates strictly inside the segment: seg.x < x < seg.x2 (segments of a line do not overlap)
      const first = Math.max(0, Math.floor(index(seg.x)) + 1);
      const last = Math.min(count - 1, Math.ceil(index(seg.x2)) - 1);
      if (first <= last) {
        crossing[first]!++;
        crossing[last + 1]!--;
      }
      minX2 = Math.min(minX2, seg.x2);
      maxX = Math.max(maxX, seg.x);
    }
    const leftFrom = Math.max(0, Math.ceil(index(minX2))); // x >= minX2
    if (leftFrom < count) {
      left[leftFrom]!++;
      left[count]!--;
    }
    const rightTo = Math.min(count - 1, Math.floor(index(maxX))); // x <= maxX
    if (rightTo >= 0) {
      right[0]!++;
      right[rightTo + 1]!--;
    }
  }
  for (let k = 1; k < count; k++) {
    crossing[k]! += crossing[k - 1]!;
    left[k]! += left[k - 1]!;
    right[k]! += right[k - 1]!;
  }
  return { crossing, left, right };
}

/** COLUMN_RUN_LINES, COLUMN_RUN_SHARE: the fewest lines, and the smallest share of a page's lines, of a run of columns between full-width lines */
const COLUMN_RUN_LINES = 12;
const COLUMN_RUN_SHARE = 0.4;
/** PROSE_RUN_SHARE: the share of a shorter run's lines with prose on both sides of the gutter for it to be columns all the same */
const PROSE_RUN_SHARE = 0.75;

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

/** sideText: the text of a line's segments on one side of a gutter */
function sideText(segs: Segment[]): string {
  return segs.map((seg) => seg.text).join(" ");
}

/**
 * WORDS: three words of letters in a row, as a line of prose has and a row of figures does not. Tried from a run of
 * letters' start, and each word's letters counted to two (the rest of the word is any non-space): the same lines
 * as "two letters or more" says, in linear time (that form backtracked cubically: a 4000-letter run took 11 s).
 */
const WORDS = /(?<!\p{L})\p{L}{2}\S*\s+\p{L}{2}\S*\s+\p{L}{2}/u;

/** hasThreeWords: text holds three words of letters in a row (WORDS) */
export function hasThreeWords(text: string): boolean {
  return WORDS.test(text);
}
