/**
 * Running headers and footers in PDF text: blocks repeated at the same place on many pages, page
 * numbers alone (PAGE_NUMBER) and one-line headers at a page's top or foot whose words change from
 * page to page or that are split in parts (`numberedRunningLines`), found across the whole document (`runningBlocks`) so renderPages drops them.
 */
import type { LayoutBlock, LayoutLine, PageLayout } from "./pdfLayoutTypes";
import { blockText } from "./pdfParagraphs";

/** PAGE_NUMBER: a line that is a page number alone ("12", "Page 3 of 10", "- iv -") */
export const PAGE_NUMBER = /^(?:page\s*)?[-–—(]?\s*(?:\d{1,4}|[ivxlcdm]{1,6})\s*[-–—)]?(?:\s*(?:of|\/)\s*\d{1,4})?$/i;

/**
 * PERIODICAL_VOLUME: a periodical's running head, its page number at one end and its volume and
 * issue between slashes or commas ("47702 Federal Register / Vol. 85, No. 152 / Thursday, August
 * 6, 2020 / Proposed Rules", "Journal of X, Vol. 3, No. 2, 2020 17"): known by its form on a
 * page of its own, where nothing repeats yet (a two-page notice)
 */
const PERIODICAL_VOLUME = /\bVol(?:\.|ume)\s*\d+\s*[,/]\s*(?:No\.|Issue)\s*\d+/i;

/** isPeriodicalHead: the page's top line is a periodical's running head (PERIODICAL_VOLUME with a page number at an end) */
function isPeriodicalHead(text: string): boolean {
  return text.length <= 160 && PERIODICAL_VOLUME.test(text) && /^\d{1,6}\s|\s\d{1,6}$/.test(text);
}

/**
 * PRINTER_SLUG: the Government Publishing Office's production line at the foot of a Federal
 * Register or CFR page ("VerDate Sep<11>2014 16:21 Aug 05, 2020 Jkt 250001 PO 00000 Frm 00001 Fmt
 * 4702 Sfmt 4702 E:\FR\FM\06AUP1.SGM 06AUP1"): its job, page and format codes, one after the
 * other, say what it is on any page, the first of a notice too
 */
const PRINTER_SLUG = /\bJkt\s+\d+\s+PO\s+\d+\s+Frm\s+\d+\s+Fmt\s+\d+\s+Sfmt\s+\d+/;

/** LINE_SHARE: blocks whose tops (or bottoms) are this close (points) sit on one line of the page */
const LINE_SHARE = 2;

/**
 * edgeLineBlocks: the page's blocks to drop by their form alone, on its top-most or bottom-most
 * line: a page number alone in a block ("2" at the right of a preprint's running head, not only
 * the first block the page lists), the running head beside a bare folio on a page after the
 * first (one line of text in the number's size, not bold: "Preprint – Short Title Here"; a header
 * on one page of two repeats nowhere, the number beside it says what it is; an invoice's first
 * page keeps its letterhead beside "Page 1 of 2"), a periodical's head (top line), a book's head
 * spread from its folio to its title on a page after the first (spreadFolioLine) and a printer's
 * slug (PRINTER_SLUG).
 */
function edgeLineBlocks(page: PageLayout, byTop: LayoutBlock[]): LayoutBlock[] {
  if (!byTop.length) return [];
  const found: LayoutBlock[] = [];
  const top = byTop[0]!.top;
  const bottom = Math.max(...byTop.map((block) => block.bottom));
  for (const atTop of [true, false]) {
    const edge = atTop ? byTop[0] : byTop[byTop.length - 1];
    const line = byTop.filter((block) => block.kind === "text" && block.lines.length === 1 && (block === edge || (atTop ? block.top - top <= LINE_SHARE : bottom - block.bottom <= LINE_SHARE)));
    const inMargin = (block: LayoutBlock) => page.height > 0 && (atTop ? block.bottom < page.height / 8 : block.top > (page.height * 7) / 8);
    // beside the edge block, a number is the page's in its margin after the first page (a first page's may be an invoice's number)
    const numbers = line.filter((block) => PAGE_NUMBER.test(blockText(block).trim()) && (block === edge || (page.page > 1 && inMargin(block))));
    found.push(...numbers);
    if (atTop) found.push(...line.filter((block) => isPeriodicalHead(blockText(block).trim())));
    // not on a first page, where a letterhead sits beside "Page 1 of 2" (an invoice's), and beside a bare folio only
    if (page.page > 1 && numbers.length === 1 && line.length === 2 && inMargin(numbers[0]!) && /^\d{1,4}$/.test(blockText(numbers[0]!).trim())) {
      const [number, head] = [numbers[0]!, line.find((block) => block !== numbers[0])!];
      const text = blockText(head).trim();
      if (head.kind === "text" && inMargin(head) && !head.lines[0]!.bold && Math.abs(head.size - number.size) <= 0.5 && text.length <= 100 && /\p{L}/u.test(text)) found.push(head);
    }
  }
  found.push(...excerptBands(page, byTop));
  const head = byTop[0]!;
  if (page.page > 1 && head.kind === "text" && head.lines.length === 1 && spreadFolioLine(head.lines[0]!) && byTop[1] && head.size <= byTop[1].size + 0.5 && head.bottom < page.height / 5) found.push(head);
  for (const block of [...byTop.slice(0, 2), ...byTop.slice(-2)]) if (block.kind === "text" && block.lines.length === 1 && PRINTER_SLUG.test(blockText(block))) found.push(block);
  return found;
}

/** PAGE_LABEL: a folio after "Page" at a line's end, set letter-spaced or after a bar or colon ("P a g e |23", "Page: 7") */
const PAGE_LABEL = /(?:^|\s)P ?a ?g ?e ?[|:]? ?(\d{1,4})$/i;
/** OF_PAGES: a line that ends in a page count ("Page 1 of 3", "1/3"): its last number is no folio */
const OF_PAGES = /(?:\bof|\/)\s*\d{1,4}$/i;

/**
 * printedFolio: the page number a line of a page's head or foot prints: after "Page" (PAGE_LABEL), or
 * at an edge of a line spread wider than its characters take (SPREAD_EM: the folio set apart at the
 * page's edge, "3HE 19220 AAAB TQZZA 01 ... 93", "48 ... Bureau Veritas ... January 2020"), never a
 * page count's; null when there is none.
 */
function printedFolio(line: LayoutLine): number | null {
  const text = line.text.trim();
  if (text.length > 160 || OF_PAGES.test(text)) return null;
  const label = PAGE_LABEL.exec(text);
  if (label) return Number(label[1]);
  const edge = EDGE_NUMBER.exec(text);
  return edge && line.x2 - line.x > SPREAD_EM * line.size * text.length ? Number(edge[1] ?? edge[2]) : null;
}

/**
 * excerptBands: the head and foot of a page cut from a longer work, which a file of one or two pages
 * repeats nowhere: when a line in the page's foot band (the text blocks wholly in its bottom eighth,
 * under all the rest) prints a folio past the page's place in the file (page 93 as the file's first:
 * the page is an excerpt, and that line its running foot), the band's blocks in that line's size or
 * smaller go, and so does the page's top block when it is one line in its top eighth, set apart from
 * the rest (two of its sizes), in that size or smaller and not bold ("Interface Configuration Guide
 * Release 23.7.R1 ... Port Cross-Connect"). A document's own pages number from its first, and a
 * page count is no folio, so an invoice's "Page 1 of 2" never counts.
 */
function excerptBands(page: PageLayout, byTop: LayoutBlock[]): LayoutBlock[] {
  if (page.height <= 0 || byTop.length < 2) return [];
  const text = (block: LayoutBlock): block is LayoutBlock & { kind: "text" } => block.kind === "text";
  const lowest = Math.max(...byTop.filter((block) => block.top <= (page.height * 7) / 8).map((block) => block.bottom), 0);
  const foot = byTop.filter((block) => block.top > (page.height * 7) / 8 && block.top > lowest);
  if (!foot.length || !foot.every(text)) return [];
  const folio = foot.flatMap((block) => (block as LayoutBlock & { kind: "text" }).lines).find((line) => (printedFolio(line) ?? 0) > page.page || (page.filePages !== undefined && (pageCount(line) ?? 0) > page.filePages));
  if (!folio) return [];
  const found = foot.filter((block) => block.size <= folio.size + 1);
  const [head, next] = byTop;
  if (text(head!) && head.bottom < page.height / 8 && head.lines.length === 1 && !head.lines[0]!.bold && head.size <= folio.size + 1 && next!.top - head.bottom >= 2 * head.size) found.push(head);
  return found;
}

/** PAGE_COUNT: a page's place and the count of the pages at a line's end, "of" between ("Page 1 of 6", "Page i of iii", "3 of 7") */
const PAGE_COUNT = /(?:^|\s)(?:page\s+)?(\d{1,4}|[ivxlc]{1,7})\s+of\s+(\d{1,4}|[ivxlc]{1,7})$/i;
/** ROMAN: each roman numeral's value */
const ROMAN: Record<string, number> = { i: 1, v: 5, x: 10, l: 50, c: 100 };

/**
 * pageCount: the count of pages a line of a page's foot gives ("Page 1 of 6": 6; "Page i of iii": 3),
 * when its page's place is no more than it; null otherwise. A file that holds fewer pages than its
 * pages count is cut from a longer document (a certificate's first page of six, a form's guidelines
 * and one of its pages): the line is its running foot.
 */
function pageCount(line: LayoutLine): number | null {
  const text = line.text.trim();
  const m = text.length <= 160 ? PAGE_COUNT.exec(text) : null;
  if (!m) return null;
  const [place, count] = [numeral(m[1]!), numeral(m[2]!)];
  return place !== null && count !== null && place >= 1 && place <= count ? count : null;
}

/** numeral: the value of a number written in digits or in roman numerals (in one case; null for a malformed one) */
function numeral(text: string): number | null {
  if (/^\d+$/.test(text)) return Number(text);
  if (!/^(?:[ivxlc]+|[IVXLC]+)$/.test(text)) return null;
  const values = [...text.toLowerCase()].map((c) => ROMAN[c]!);
  let value = 0;
  for (let k = 0; k < values.length; k++) value += values[k]! < (values[k + 1] ?? 0) ? -values[k]! : values[k]!;
  return value;
}

/** SPREAD_EM: the width a line's characters take at most, in ems a character: running text sets about half an em, capitals under 0.8 */
const SPREAD_EM = 0.8;

/**
 * spreadFolioLine: a book's running head on a page's top line: the folio at one edge and the chapter's
 * or section's title at the other ("102          CHAPTER 2. MATHEMATICAL INDUCTION"), not bold, the
 * line spread wider than its characters could take (SPREAD_EM), which a section's numbered heading
 * at a page's top ("3 Results") never is. A book of two pages repeats nothing to find it by.
 */
function spreadFolioLine(line: LayoutLine): boolean {
  const text = line.text.trim();
  return !line.bold && text.length <= 100 && EDGE_NUMBER.test(text) && line.x2 - line.x > SPREAD_EM * line.size * text.length;
}

/** RUNNING_SHARE: a block repeating at the same place on this share of the pages is running (odd and even pages may differ) */
const RUNNING_SHARE = 0.4;

/**
 * runningBlocks finds the blocks to drop: the two top-most and two bottom-most blocks of each page
 * that repeat (digits ignored) within 4 pt of the same position on at least 40 % of the pages and
 * two of them (running headers and footers; books alternate theirs between odd and even pages);
 * in a two-page document, a one-line block in the top or bottom eighth of both pages; and
 * single-line page numbers at the top or bottom. None when they are all the document holds.
 */
export function runningBlocks(pages: PageLayout[]): Set<LayoutBlock> {
  const removed = new Set<LayoutBlock>();
  const seen = new Map<string, Array<{ block: LayoutBlock; page: number; top: number; margin: boolean }>>();
  for (const page of pages) {
    const byTop = [...page.blocks].sort((a, b) => a.top - b.top);
    const edges = new Set([...byTop.slice(0, 2), ...byTop.slice(-2)]);
    // what its form says is running goes whatever repeats; the rest is weighed by repetition below
    const byForm = edgeLineBlocks(page, byTop);
    for (const block of byForm) removed.add(block);
    for (const block of edges) {
      const text = blockText(block).trim();
      if (removed.has(block)) continue;
      const key = text.toLowerCase().replace(/\d+/g, "#").replace(/\s+/g, " ");
      const margin = block.kind === "text" && block.lines.length === 1 && text.length <= 100 && page.height > 0 && (block.bottom < page.height / 8 || block.top > (page.height * 7) / 8);
      const list = seen.get(key) ?? [];
      list.push({ block, page: page.page, top: block.top, margin });
      seen.set(key, list);
    }
  }
  const textPages = pages.filter((p) => p.blocks.length > 0).length;
  for (const list of seen.values()) {
    // the same text at the same height (within 4 pt), counted once per page
    const byTop = [...list].sort((a, b) => a.top - b.top);
    let group: typeof list = [];
    const flush = () => {
      const onPages = new Set(group.map((entry) => entry.page)).size;
      const running = textPages >= 3 ? onPages >= Math.max(2, Math.ceil(textPages * RUNNING_SHARE)) : textPages === 2 && onPages === 2 && group.every((entry) => entry.margin);
      if (running) for (const entry of group) removed.add(entry.block);
      group = [];
    };
    for (const entry of byTop) {
      if (group.length && entry.top - group[group.length - 1]!.top > 4) flush();
      group.push(entry);
    }
    flush();
  }
  for (const block of numberedRunningLines(pages, textPages)) removed.add(block);
  // Furniture is furniture beside content: a document whose only text is its page numbers (a deck
  // of pictures printed with slide numbers) or its repeated lines would come out empty, and an empty
  // result reads as a failure; what a page holds alone is its content, so nothing is dropped.
  if (removed.size && !pages.some((page) => page.notes?.length || page.blocks.some((block) => !removed.has(block)))) return new Set();
  return removed;
}

/** EDGE_NUMBER: a page number leading or ending a running header's line ("6 1.1. TOPOLOGISCHE RÄUME", "Rehabilitation Research and Practice 3") */
const EDGE_NUMBER = /^(\d{1,4})\s+\S|\S\s+(\d{1,4})$/;

/**
 * numberedRunningLines finds running headers and footers whose words change from page to page
 * (the section a book's page is in) or that are split in parts (the page number apart from the
 * journal's name): the one-line blocks on the top-most or bottom-most line of a page that are, or
 * lead or end with, a number that runs with the page (the number less the page's index the same)
 * at the same height (within 4 pt) on at least 40 % of the pages and three of them.
 */
function numberedRunningLines(pages: PageLayout[], textPages: number): LayoutBlock[] {
  if (textPages < 3) return [];
  const found: Array<{ block: LayoutBlock; page: number; top: number; offset: number }> = [];
  for (const page of pages) {
    if (!page.blocks.length) continue;
    const top = Math.min(...page.blocks.map((block) => block.top));
    const bottom = Math.max(...page.blocks.map((block) => block.bottom));
    for (const block of page.blocks) {
      if (block.kind !== "text" || block.lines.length !== 1 || (block.top - top > 2 && bottom - block.bottom > 2)) continue;
      const text = block.lines[0]!.text.trim();
      const m = /^\d{1,4}$/.exec(text) ?? EDGE_NUMBER.exec(text);
      if (m) found.push({ block, page: page.page, top: block.top, offset: Number(m[1] ?? m[2] ?? m[0]) - page.page });
    }
  }
  const removed: LayoutBlock[] = [];
  const groups = new Map<number, typeof found>();
  for (const entry of found) {
    const list = groups.get(entry.offset);
    if (list) list.push(entry);
    else groups.set(entry.offset, [entry]);
  }
  for (const list of groups.values()) {
    const byTop = [...list].sort((a, b) => a.top - b.top);
    let group: typeof list = [];
    const flush = () => {
      if (new Set(group.map((entry) => entry.page)).size >= Math.max(3, Math.ceil(textPages * RUNNING_SHARE))) removed.push(...group.map((entry) => entry.block));
      group = [];
    };
    for (const entry of byTop) {
      if (group.length && entry.top - group[group.length - 1]!.top > 4) flush();
      group.push(entry);
    }
    flush();
  }
  return removed;
}
