/**
 * Layout analysis for PDF text: pure functions, no pdf.js. The worker side (pdfText.ts) turns each
 * page's positioned text items into a PageLayout (lines -> columns -> blocks and tables) with
 * `analyzePage`; the converter (pdf.ts) then renders all pages at once with `renderPages`, because
 * running headers, the body font size and the heading ranks are facts of the whole document. This
 * file is the entry: each stage lives in its own module (src/convert/README.md has the table).
 *
 *   analyzePage: items -> text in ruled grids (pdfRuledTables.ts) -> lines (pdfLines.ts: segments
 *                split at cell-sized gaps; raised small numbers marked as footnote references)
 *                -> parts (pdfReadingOrder.ts: a drawn rule dividing two parts of the page: Form
 *                4868's Part I | Part II) -> columns (a gutter) -> tables (pdfTables.ts: aligned
 *                cells, wrapped cells) and text blocks (pdfBlocks.ts) -> the page's footnotes taken
 *                out (pdfNotes.ts)
 *   renderPages: running headers/footers dropped (pdfRunningHeaders.ts) -> body size from prose
 *                -> headings (pdfHeadings.ts: size rank, then section numbering, then bold in the
 *                body's size; not a page's main size, bullets or a paper's front matter)
 *                -> paragraphs (pdfParagraphs.ts) and tables joined across pages, nested lists
 *                -> footnotes at the end
 *
 * Coordinates are PDF points (1/72 inch) with the origin at the top left of the page; `y` of a text
 * item or line is its baseline.
 */
import { escapeStrayMarkup, gfmTable, heading, joinBlocks } from "./markdown";
import { columnBlocks } from "./pdfBlocks";
import { type CodeBlock, codeMarkdown, continuesCode, joinCode, typewrittenPage } from "./pdfCode";
import { boldHeadings, brokenLabels, CAPTION, fieldValues, headingLevel, headingLevels, headingText, joinSplitTitles, SECTION_NUMBER } from "./pdfHeadings";
import type { LayoutBlock, LayoutLine, PageLayout, PdfTextItem } from "./pdfLayoutTypes";
import { ARABIC, joinLetterSpaced, median, repairArabic, SCRIPT_TAG } from "./pdfLines";
import { relabelNotes, resolveNoteMarks, takeEndnotes, takeFootnotes } from "./pdfNotes";
import { blockText, hyphenatedCompounds, joinWrapped, paragraphMarkdown } from "./pdfParagraphs";
import { columnDividers, exampleDividers, type PageDivider, pageParts, readingOrder, splitGrids } from "./pdfReadingOrder";
import { gridTable, inGrid, splitAtRules } from "./pdfRuledTables";
import { type Rule, ruledGrids, ruleDividers } from "./pdfRules";
import { runningBlocks } from "./pdfRunningHeaders";
import { clusterPositions } from "./pdfTables";

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
  visible = joinLetterSpaced(visible);
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
    // a box's lines wrap at its right side (short lines in a box, a name over an address, keep their breaks)
    const columns = readingOrder(part.lines, width);
    const boxRight = part.box && columns.length === 1 ? part.box[1] : undefined;
    const blocks = columns.flatMap((column) => (column.length ? columnBlocks(column, width, boxRight) : []));
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
  if (notes.length) blocks = blocks.filter((block) => !notes.some((note) => note.block === block || note.also?.includes(block)));
  resolveNoteMarks(blocks, new Set(notes.map((note) => note.label)));
  const layout: PageLayout = { page, width, height, chars, blocks };
  if (notes.length) layout.notes = notes.map(({ label, text }) => ({ label, text }));
  if (ruled.length || lines.filter((line) => line.segs.length >= 2).length >= 2) layout.tabular = true;
  return layout;
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
  /** removedText: the text of those dropped */
  removedText: string[];
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
  const pages = laidOut.map((page) => ({ ...page, blocks: joinSplitTitles(splitBoldLeads(bookmarks.size ? splitAtBookmarks(page.blocks, bookmarks) : page.blocks)) }));
  takeEndnotes(pages);
  const removed = runningBlocks(pages);
  const charts = chartText(pages, removed);
  const body = bodySize(pages, new Set([...removed, ...charts.labels]));
  const values = new Set([...fieldValues(pages, removed, body), ...brokenLabels(pages, removed, body)]);
  const levels = headingLevels(pages, removed, body, new Set([...charts.titles, ...values]));
  const bold = boldHeadings(pages, removed, body, values);
  // the pairs of words the document hyphenates inside its lines: the same pair broken at a line end keeps its hyphen
  const compounds = hyphenatedCompounds(pages.flatMap((page) => page.blocks.flatMap((block) => (block.kind === "text" && !removed.has(block) ? block.lines.map((line) => line.text) : []))));
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
      let paragraph = paragraphMarkdown(block.lines, compounds);
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
        out[openAt] = joinWrapped(out[openAt]!, paragraph, compounds);
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
  return { markdown: joinBlocks(out), firstHeading, removedLines: removed.size, removedText: [...removed].map(blockText) };
}

/**
 * tableMarkdown renders a table's rows, each cell's own markup characters escaped (escapeStrayMarkup).
 * The rows come in page order, left to right; a table whose text reads right to left (Arabic,
 * Hebrew) starts at its right edge, so its columns are turned to the order its writer typed them.
 */
function tableMarkdown(rows: string[][]): string {
  const ordered = rowsReadRightToLeft(rows) ? rows.map((row) => [...row].reverse()) : rows;
  return gfmTable(joinCurrencyColumns(ordered).map((row) => row.map(escapeStrayMarkup)));
}

/** CURRENCY_SIGN: a cell that is a currency sign alone; FIGURE_START: a cell that starts as an amount does ("178", "(4,737)", ".5") */
const CURRENCY_SIGN = /^[$€£¥]$/u;
const FIGURE_START = /^\(?[\d.]/;

/**
 * joinCurrencyColumns: a financial statement sets its dollar signs flush at the left of the figures'
 * cells, far from the figures, which makes a column of them ("$ | 178"). A column whose every filled
 * cell is a currency sign alone, each followed by a figure, is joined to the column after it ("$ 178").
 */
function joinCurrencyColumns(rows: string[][]): string[][] {
  const width = Math.max(0, ...rows.map((row) => row.length));
  const signs = new Set<number>();
  for (let c = 0; c < width - 1; c++) {
    const filled = rows.filter((row) => (row[c] ?? "").trim() !== "");
    if (filled.length && filled.every((row) => CURRENCY_SIGN.test(row[c]!.trim()) && FIGURE_START.test((row[c + 1] ?? "").trim()))) signs.add(c);
  }
  if (!signs.size) return rows;
  return rows.map((row) => {
    const cells = [...row];
    const out: string[] = [];
    for (let c = 0; c < cells.length; c++) {
      if (!signs.has(c)) out.push(cells[c]!);
      else if (cells[c]!.trim()) cells[c + 1] = `${cells[c]!.trim()} ${(cells[c + 1] ?? "").trim()}`;
    }
    return out;
  });
}

/** RTL_LETTER: a letter of a script written right to left (Hebrew, Arabic, Syriac, Thaana, NKo, and their presentation forms); the OCR layout reads it too */
export const RTL_LETTER = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/u;
/** RIGHT_TO_LEFT_LETTERS, LEFT_TO_RIGHT_LETTERS: every letter of those scripts, and of those written left to right */
const RIGHT_TO_LEFT_LETTERS = new RegExp(RTL_LETTER.source, "gu");
const LEFT_TO_RIGHT_LETTERS = new RegExp(`(?!${RTL_LETTER.source})\\p{L}`, "gu");

/** rowsReadRightToLeft: most of a table's letters are of a script written right to left (figures count for neither) */
function rowsReadRightToLeft(rows: string[][]): boolean {
  const text = rows.flat().join(" ");
  const rtl = text.match(RIGHT_TO_LEFT_LETTERS)?.length ?? 0;
  return rtl > 0 && rtl > (text.match(LEFT_TO_RIGHT_LETTERS)?.length ?? 0);
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
