/**
 * Headings in PDF text, decided over the whole document (renderPages calls these once the running
 * headers are dropped and the body's size is known):
 *
 *   joinSplitTitles (a numbered title broken by hand over two blocks made one; renderPages calls it first)
 *   isHeadingCandidate (one short title line; not a caption, a bullet, a leader line, a labelled
 *     figure, a formula's line or a picture font's labels)
 *     -> headingLevels (ranks by size larger than the body; numbered sections in the body's size
 *        ranked by depth, `sectionDepth`; not a page's main size, `pageBodyBlocks`; not a paper's
 *        front matter, `frontMatter`, nor a chapter's label over its name, `partLabels`)
 *     -> boldHeadings (bold in about the body's size), fieldValues and brokenLabels (a form's values
 *        and labels: no headings), contentsTitles (entries of a table of contents)
 *     -> headingLevel (the level of one block), headingText (note marks made plain)
 *
 * SECTION_NUMBER, PAPER_SECTION and CAPTION are read by the table and block stages too: a numbered
 * title or a caption is no row of a table and starts a new block.
 */
import type { LayoutBlock, LayoutLine, PageLayout } from "./pdfLayoutTypes";
import { SCRIPT_TAG, SYMBOL_BULLET } from "./pdfLines";
import { blockText, isTheoremLabel, LEADER_RUN, startsListItem } from "./pdfParagraphs";
import { PAGE_NUMBER } from "./pdfRunningHeaders";

/**
 * SECTION_NUMBER: a numbered section title ("5.1 Hyper Parameter Optimization", "3 Results"): a
 * number of two or more levels, or one level without a dot (which "1. Buy milk" list items have).
 */
export const SECTION_NUMBER = /^(?:\d{1,2}(?:\.\d{1,2})+\.?|\d{1,2}|[A-Z](?:\.\d{1,2})+\.?)\s+\p{Lu}/u;
/**
 * PAPER_SECTION: the unnumbered sections of papers and reports, which are often set in the body's
 * size, alone on their line (in bold, which only a font's name tells, and not every font's does).
 */
const PAPER_SECTION = /^(?:abstract|summary|introduction|related work|background|conclusions?|discussion|acknowledge?ments?|references|bibliography|appendix(?: [A-Z])?)$/i;
/** isSectionTitle: a line that reads as a section title in the body's font */
export const isSectionTitle = (text: string) => SECTION_NUMBER.test(text) || PAPER_SECTION.test(text);

/** NOTE_LIKE_SUP: a superscript that reads as a note or affiliation mark ("1", "2,3", "1*", "a", "†") */
const NOTE_LIKE_SUP = /<sup>((?:\d{1,3}|[a-z]|[*†‡§])(?:[,–-](?:\d{1,3}|[a-z]))*[*†‡§]?)<\/sup>/g;

/** TRAILING_MARK: a note symbol at a heading's end ("... on Cluster Platforms ∗", "Title†"): a footnote's mark on the title, not its words */
const TRAILING_MARK = /(?<=\S)\s*[∗†‡]+$/u;

/**
 * headingText: a heading's note and affiliation marks without a page footnote (an article title's
 * authors "Duah¹*, Theurer²,³") are plain, spaced from their word, so the heading reads as a title;
 * other scripts ("CO₂", "m²") stay. A note symbol at its end, set on the line rather than raised
 * (the star of an ACM title's "authors are members of ..." note), is left out.
 */
export function headingText(text: string): string {
  const plain = text.includes("<sup>") ? text.replace(NOTE_LIKE_SUP, " $1").replace(/ {2,}/g, " ") : text;
  return plain.replace(TRAILING_MARK, "");
}

/**
 * sectionDepth is the numbering depth of a one-line block in the body's font that reads as a
 * numbered section title ("5.1 Hyper Parameter Optimization" -> 2), or 0: short, no sentence
 * punctuation at the end, no page number at the end (a table of contents line).
 */
function sectionDepth(block: LayoutBlock, body: number): number {
  if (block.kind !== "text" || block.rendered || block.lines.length !== 1 || body <= 0 || block.size < body - 0.6) return 0;
  const text = block.lines[0]!.text;
  if (PAPER_SECTION.test(text)) return 1;
  if (!SECTION_NUMBER.test(text) || text.length > 100 || /[.,;:]$|\d$/.test(text) || isFormulaPiece(text) || garbled(text)) return 0;
  const number = text.split(" ")[0]!;
  const words = text.split(" ").length - 1;
  if (words < 1 || words > 12 || (!number.includes(".") && words > 8)) return 0;
  return number.replace(/\.$/, "").split(".").length;
}

/** CAPTION: a table's or figure's caption label ("Table 2.3:", "TABLE 6", "Figure 1.", "Exhibit B.4"), which is not a section heading */
export const CAPTION = /^(?:table|tab\.|figure|fig\.|exhibit|chart)\s+[A-Z]?[\dIVXL]+(?:[.-]\d+)*\b/i;
/** SECTION_LABEL: a line that names a part of a document, whose title follows on the next line ("SECTION III", "Chapter 2", "Appendix A") */
const SECTION_LABEL = /^(?:section|chapter|part|appendix|annex|article|book)\s+(?:\d{1,3}|[IVXLC]{1,6}|[A-Z])\.?$/i;

/** centreOf: the middle of a line across the page */
const centreOf = (line: { x: number; x2: number }) => (line.x + line.x2) / 2;

/**
 * oneTitle: the block's lines read as one title: each wraps into the next; or two or three lines
 * broken by hand, centred on one axis (not starting at one left edge), or a section label over
 * its title ("SECTION III" / "Age-adjustment and trends analyses").
 */
function oneTitle(block: Extract<LayoutBlock, { kind: "text" }>): boolean {
  const lines = block.lines;
  if (lines.slice(0, -1).every((line) => line.wraps)) return true;
  if (lines.length > 3) return false;
  if (lines.length === 2 && SECTION_LABEL.test(lines[0]!.text.trim())) return !PAGE_NUMBER.test(lines[1]!.text.trim());
  // a title set ragged, broken by hand short of the column's edge (beside a badge), at one left edge: each line after the
  // first goes on with the phrase, in lower case ("Current applications and different approaches for" / "microbial ...")
  // (words only, a capital first, no stop at the end: an amount's label over its note, "Nettobetrag: 496,00 €" over
  // "zuzüglich Umsatzsteuer", and a form's instruction over two lines, "To claim the ... care" / "credit, complete lines 27
  // through 31 below.", are no titles)
  const words = lines.map((line) => line.text).join(" ");
  if (/^\p{Lu}/u.test(words) && !/[\d:]/.test(words) && !/[.,;:]$/.test(words) && lines.slice(1).every((line) => Math.abs(line.x - lines[0]!.x) <= 0.5 * line.size && /^\p{Ll}/u.test(line.text) && line.size === lines[0]!.size)) return true;
  // (two centred lines of about one length start a fraction of their size apart: a ragged-right paragraph's start at one edge;
  // nor do they end at one edge, as right-aligned lines do: "باسم الشعب" over "رئيس الجمهورية")
  const apart = (edge: (line: LayoutLine) => number) => lines.some((line) => Math.abs(edge(line) - edge(lines[0]!)) > 0.15 * line.size);
  return lines.every((line) => Math.abs(centreOf(line) - centreOf(lines[0]!)) <= line.size) && apart((line) => line.x) && apart((line) => line.x2);
}

/** NOTE_LEAD: a note's run-in label and its sentence ("Note: This EZ-KIT Lite does not run under Windows 95", led by a symbol font's arrow read as "¾"), a note set in bold, not a title ("IMPORTANT: Identifying Information ..." over a form's part is a title: no "Important", no "Attention") */
const NOTE_LEAD = /^(?:\S\s+)?(?:notes?|warning|caution|tip|hint)\s?:\s*\S+\s+\S+\s+\S/iu;

/** SYMBOL_BULLET_START: a line led by a bullet symbol ("• Body text"), which is a list item in any size */
const SYMBOL_BULLET_START = /^[•◦▪▫‣●○■□➢►▸]\s/u;

/** LABELLED_FIGURE: a label in words, a colon and a figure (an amount with its currency), as an invoice's total in large print is ("Total Amount Without VAT: 300,00 EUR", "Gesamtbetrag: 571,04 €"): a value, not a title (a time of day, "14:30:22", is no label) */
const LABELLED_FIGURE = /^[^:]*\p{L}\)?\s?:\s*[-+−]?(?:[$€£]\s?)?\d[\d.,\u00a0\u2009 ]*(?:\s?(?:[A-Z]{3}|[$€£%]))?$/u;

/** LABELLED_CODE: a label, a colon and one code of capitals and figures ("REFERENCE AVIS DE PAIEMENT : F20180023BUYER", "Invoice No: INV-2024-001"): a field, not a title ("Step 1: Install" names no code) */
const LABELLED_CODE = /^[^:]*\p{L}\)?\s?:\s*(?=[\p{Lu}\d/.-]*\d)[\p{Lu}\d][\p{Lu}\d/.-]+$/u;

/**
 * isHeadingCandidate: a block in a size larger than the body's that reads as one title: up to three
 * lines, or up to six short ones that each wrap into the next (a paper's long title), and not a
 * caption, a bulleted item or a labelled figure.
 */
function isHeadingCandidate(block: LayoutBlock, body: number): block is Extract<LayoutBlock, { kind: "text" }> {
  if (block.kind !== "text" || body <= 0 || block.rendered) return false;
  // 1.1: a slide title over its bullets (36 over 32 pt), Word's Heading 3 over its body (12 over 11 pt)
  if (block.size < body * 1.1 || block.size < body + 1) return false;
  const text = blockText(block);
  const letters = text.replace(/[^\p{L}]/gu, "").length;
  const wrapped = block.lines.slice(0, -1).every((line) => line.wraps);
  // a long title in display type has short lines (60 characters a line at most; a form's line that wraps is longer)
  const long = wrapped && block.lines.length <= 6 && text.length <= 60 * block.lines.length;
  if ((block.lines.length > 3 || text.length > 200) && !long) return false;
  if (SYMBOL_BULLET_START.test(text) || SYMBOL_BULLET.test(text) || LEADER_RUN.test(text) || LABELLED_FIGURE.test(text) || NOTE_LEAD.test(text) || mastheadLine(text)) return false;
  return oneTitle(block) && letters >= 2 && letters >= 0.3 * text.replace(/\s/g, "").length && !CAPTION.test(text) && !isFormulaPiece(text) && !garbled(text);
}

/** CONTACT_DETAILS: an e-mail address, a web address, or a telephone or fax number's label ("Tel:", "Fax:", "Tele:") */
const CONTACT_DETAILS = /\S@[\p{L}\p{N}-]+\.\p{L}|\b(?:https?:\/\/|www\.)|\b(?:tel|tele|phone|fax)\s?[:.]/iu;
/** ISSUE_LINE: a periodical's volume and issue ("Vol. 52 No. 36", "Volume 3, Issue 2") */
const ISSUE_LINE = /\bvol(?:\.|ume)\s?\d+\s?[,/]?\s?(?:no|issue)\s?\.?\s?\d+/iu;

/**
 * mastheadLine: a line of a periodical's masthead or running band, or of a letterhead, that no
 * title is, whatever its size or weight: contact details (CONTACT_DETAILS), a volume and issue
 * (ISSUE_LINE), or a page number ("Page 2.", the weekly's foot on a page of two, where nothing
 * repeats to drop it by).
 */
function mastheadLine(text: string): boolean {
  return CONTACT_DETAILS.test(text) || ISSUE_LINE.test(text) || PAGE_NUMBER.test(text.replace(/\.$/, ""));
}

/**
 * garbled: every word of three letters or more changes from lowercase to uppercase twice or more
 * inside it ("TqPBfhjRg", "GHmrycLyBccqFPp"): a chart's labels in a picture font whose glyphs have
 * no letters behind them, not words ("iPhone", "McDonald" change once).
 */
function garbled(text: string): boolean {
  const words = text.match(/\p{L}{3,}/gu) ?? [];
  return words.length > 0 && words.every((word) => (word.match(/\p{Ll}\p{Lu}/gu) ?? []).length >= 2);
}

/**
 * FORMULA_PIECE: a line of a displayed formula (a fraction's denominator "0 W (τ) dτ" set large by its
 * integral sign): no word of three letters, and a bracket, an operator or a Greek letter. A title has a word.
 */
const FORMULA_PIECE = /^(?!.*\p{L}{3})(?=.*[()[\]=+−∫∑∏√\u0370-\u03ff])/su;
/** isFormulaPiece: FORMULA_PIECE on the line's letters without its script tags ("0 W (τ)τ<sup>k</sup> dτ": the tag's "sup" is no word) */
const isFormulaPiece = (text: string) => FORMULA_PIECE.test(text.includes("</su") ? text.replace(SCRIPT_TAG, "") : text);

/**
 * pageBodyBlocks: the text blocks set in the size that carries most of their page's text, on pages
 * of text only (no table), none of it in the document's body size, and two blocks or more in that
 * size (a slide whose words are all in 18 pt, in a deck whose notes are in 9): they are the page's
 * body, not headings over it. A page of one large line (a title slide) keeps it; a page with tables
 * or text in the body's size (an invoice's labels beside its tables) is ranked by the document's body.
 */
function pageBodyBlocks(pages: PageLayout[], removed: Set<LayoutBlock>, body: number): Set<LayoutBlock> {
  const found = new Set<LayoutBlock>();
  for (const page of pages) {
    const blocks = page.blocks.filter((block) => !removed.has(block));
    if (blocks.some((block) => block.kind === "table" || Math.abs(block.size - body) <= 0.6)) continue;
    const weight = new Map<number, number>();
    for (const block of blocks) {
      const key = Math.round(block.size * 2) / 2;
      weight.set(key, (weight.get(key) ?? 0) + blockText(block).replace(/\s/g, "").length);
    }
    let main = 0;
    let mainWeight = -1;
    for (const [size, w] of weight) if (w > mainWeight) [main, mainWeight] = [size, w];
    const atMain = blocks.filter((block) => block.kind === "text" && Math.abs(block.size - main) <= 0.6);
    if (atMain.length >= 2) for (const block of atMain) found.add(block);
  }
  return found;
}

/** FIELD_LABEL_CHARS: the longest a form's field label is */
const FIELD_LABEL_CHARS = 40;

/**
 * fieldValues: the values of a form's fields set larger than the body under their labels (a
 * payment slip's "Payable by" in 8 pt bold over the payer's name in 10 pt, "Currency Amount" over
 * "CHF 99.50"): a block in a heading's size whose block just before is its label: one short line,
 * bold, in a smaller size, starting at the value's left edge (within half the value's size) and
 * no more than half the value's size above it. A section's title sits further from what is above it.
 */
export function fieldValues(pages: PageLayout[], removed: Set<LayoutBlock>, body: number): Set<LayoutBlock> {
  const found = new Set<LayoutBlock>();
  for (const page of pages) {
    const blocks = page.blocks.filter((block) => !removed.has(block));
    const onPage: LayoutBlock[] = [];
    for (let i = 1; i < blocks.length; i++) {
      const [label, value] = [blocks[i - 1]!, blocks[i]!];
      if (label.kind !== "text" || value.kind !== "text" || label.lines.length !== 1 || !isHeadingCandidate(value, body)) continue;
      const line = label.lines[0]!;
      if (!line.bold || label.size > value.size - 0.6 || line.text.length > FIELD_LABEL_CHARS) continue;
      if (Math.abs(line.x - value.lines[0]!.x) <= 0.5 * value.size && value.top >= label.bottom - 1 && value.top - label.bottom <= 0.5 * value.size) onPage.push(value);
    }
    // a form has fields: one such pair alone is a chapter's label over its title ("CHAPTER 3" over "Methods")
    if (onPage.length >= FIELD_MIN_PAIRS) for (const value of onPage) found.add(value);
  }
  return found;
}

/** FIELD_MIN_PAIRS: a page shows a form's fields when it has at least this many labels over values */
const FIELD_MIN_PAIRS = 2;

/**
 * brokenLabels: a label set larger than the body and broken over lines, each line a block of its own
 * (a tax form's margin "Payments," / "Credits," / "and Tax" beside its numbered lines, which come between
 * them in reading order): a one-line candidate ending in a comma goes on, so it is no title, nor is the
 * candidate that goes on from it: the same size, at its left edge, on the next line (within half its
 * size under it).
 */
export function brokenLabels(pages: PageLayout[], removed: Set<LayoutBlock>, body: number): Set<LayoutBlock> {
  const found = new Set<LayoutBlock>();
  for (const page of pages) {
    const candidates = page.blocks.filter((block) => !removed.has(block) && isHeadingCandidate(block, body));
    for (const first of candidates) {
      let part = first;
      while (part.kind === "text" && part.lines.length === 1 && blockText(part).trimEnd().endsWith(",")) {
        found.add(part);
        const above = part;
        const next = candidates.find(
          (block) =>
            block.kind === "text" &&
            !found.has(block) &&
            Math.abs(block.size - above.size) <= 0.6 &&
            Math.abs(block.lines[0]!.x - above.lines[0]!.x) <= 0.5 * above.size &&
            block.top >= above.bottom - 1 &&
            block.top - above.bottom <= 0.5 * above.size,
        );
        if (!next) break;
        found.add(next);
        part = next;
      }
    }
  }
  return found;
}

/**
 * joinSplitTitles joins a numbered title broken by hand over two lines, each a block of one line:
 * the second hangs under the title's words (right of the number, within four of its sizes), in its
 * size and weight, directly under it (within half its size), and the first goes on into it (it ends
 * in a comma, or the second starts in lowercase): "3 Examples of citations, figures, tables," over
 * "references", "2.2 Uncertainty visualization in the grammar of graphics," over "as she is spoke".
 * The first is set as a title: bold, or larger than what follows the pair. The two become one block
 * of one line (new blocks: the page's are not changed). Before the analyses that remember blocks.
 */
export function joinSplitTitles(blocks: LayoutBlock[]): LayoutBlock[] {
  const out: LayoutBlock[] = [];
  for (let i = 0; i < blocks.length; i++) {
    const [first, next] = [blocks[i]!, blocks[i + 1]];
    const stacked = centredTitleEnd(blocks, i);
    if (stacked > i + 1 && first.kind === "text") {
      const parts = blocks.slice(i, stacked) as Array<Extract<LayoutBlock, { kind: "text" }>>;
      out.push({ ...first, lines: parts.flatMap((part) => part.lines), bottom: parts[parts.length - 1]!.bottom });
      i = stacked - 1;
    } else if (first.kind === "text" && next?.kind === "text" && splitTitle(first, next, blocks[i + 2])) {
      const [a, b] = [first.lines[0]!, next.lines[0]!];
      out.push({ ...first, lines: [{ ...a, text: `${a.text} ${b.text}`, x2: Math.max(a.x2, b.x2) }], bottom: next.bottom });
      i++;
    } else out.push(first);
  }
  return out;
}

/** STACKED_TITLE_LINES: the most lines a title broken by hand over centred lines has */
const STACKED_TITLE_LINES = 4;

/**
 * centredTitleEnd: where a title broken by hand over centred lines ends, each line a block of its own
 * (a Word title page's "- Guidelines -" / "Encoding of Header" / "training data for Grobid" in 20 pt
 * bold, set 1.75 of its size apart): from block `i`, blocks of one short line in one size and weight,
 * centred on one axis but not starting at one left edge, each within twice its size under the one
 * before, set larger than what follows them (a fifth or more) or with nothing after. Returns `i + 1`
 * when there is no such run of two lines or more. Not a part's label ("Chapter 3") nor numbered titles.
 */
function centredTitleEnd(blocks: LayoutBlock[], i: number): number {
  const first = blocks[i]!;
  const one = (block: LayoutBlock | undefined): block is Extract<LayoutBlock, { kind: "text" }> => block?.kind === "text" && !block.rendered && block.lines.length === 1 && block.lines[0]!.text.length <= 60;
  if (!one(first) || SECTION_LABEL.test(first.lines[0]!.text.trim())) return i + 1;
  const centre = (block: Extract<LayoutBlock, { kind: "text" }>) => centreOf(block.lines[0]!);
  let end = i + 1;
  while (end - i < STACKED_TITLE_LINES) {
    const [above, next] = [blocks[end - 1]!, blocks[end]];
    if (!one(next) || !one(above)) break;
    const [a, b] = [above.lines[0]!, next.lines[0]!];
    if (Math.abs(next.size - first.size) > 0.05 * first.size || Boolean(b.bold) !== Boolean(first.lines[0]!.bold)) break;
    if (Math.abs(centre(next) - centre(first)) > first.size || b.y - a.y > 2 * first.size || b.y <= a.y) break;
    end++;
  }
  if (end === i + 1) return i + 1;
  const run = blocks.slice(i, end) as Array<Extract<LayoutBlock, { kind: "text" }>>;
  const after = blocks[end];
  const centred = run.some((block) => Math.abs(block.lines[0]!.x - first.lines[0]!.x) > 0.15 * first.size);
  const display = !after || first.size >= 1.2 * after.size;
  const plain = run.every((block) => !SECTION_NUMBER.test(block.lines[0]!.text) && !CAPTION.test(block.lines[0]!.text));
  return centred && display && plain ? end : i + 1;
}

/** splitTitle: `next` carries on the numbered title `first` (see joinSplitTitles); `after` is the block under them */
function splitTitle(first: Extract<LayoutBlock, { kind: "text" }>, next: Extract<LayoutBlock, { kind: "text" }>, after: LayoutBlock | undefined): boolean {
  if (first.rendered || next.rendered || first.lines.length !== 1 || next.lines.length !== 1) return false;
  const [a, b] = [first.lines[0]!, next.lines[0]!];
  if (!SECTION_NUMBER.test(a.text) || a.text.length > 100 || b.text.length > 60 || /[.;:!?]$/.test(a.text)) return false;
  if (!(a.text.endsWith(",") || /^\p{Ll}/u.test(b.text)) || Boolean(a.bold) !== Boolean(b.bold)) return false;
  if (!a.bold && !(after && first.size >= 1.1 * after.size)) return false;
  if (Math.abs(first.size - next.size) > 0.05 * first.size || next.top < first.bottom - 1 || next.top - first.bottom > 0.5 * first.size) return false;
  return b.x > a.x + 0.5 * a.size && b.x - a.x <= 4 * a.size && b.x2 <= a.x2 + a.size;
}

/** headingLevels ranks the distinct heading sizes, largest first (sizes within 0.6 pt are one); `notHeadings` are none in any size (a chart's title). */
export function headingLevels(pages: PageLayout[], removed: Set<LayoutBlock>, body: number, notHeadings: Set<LayoutBlock> = new Set()): HeadingRanks {
  const sizes: number[] = [];
  let minDepth = Infinity;
  const pageBody = pageBodyBlocks(pages, removed, body);
  const front = new Set([...frontMatter(pages, removed, body), ...contentsTitles(pages, removed), ...partLabels(pages, removed, body), ...tableTitles(pages, removed), ...listingTitles(pages, removed), ...notHeadings]);
  for (const page of pages) {
    for (const block of page.blocks) {
      if (removed.has(block) || front.has(block)) continue;
      if (isHeadingCandidate(block, body) && !pageBody.has(block)) sizes.push(block.size);
      else if (sectionDepth(block, body)) minDepth = Math.min(minDepth, sectionDepth(block, body));
    }
  }
  const distinct: number[] = [];
  for (const size of sizes.sort((a, b) => b - a)) {
    if (!distinct.length || distinct[distinct.length - 1]! - size > 0.6) distinct.push(size);
  }
  return { sizes: distinct, sectionDepth: Number.isFinite(minDepth) ? minDepth : 1, pageBody, frontMatter: front };
}

/** LISTING_LABEL: a listing's labelled title ("Example: Multiple PXCs on ...", "Listing 3: ...", "Example 2-1. ..."): a label for code, as a caption is for a figure */
const LISTING_LABEL = /^(?:example|listing|sample|snippet)(?: [\dA-Z]{1,4}(?:[.-]\d{1,3})*)? ?[:.] ?\S/i;

/**
 * listingTitles: a listing's title over it: one line led by a listing's label (LISTING_LABEL), the next
 * block of its page a listing. It names the code under it, as a caption names a figure; a manual's
 * bold "Example: ..." over its CLI listing is no section of the manual.
 */
function listingTitles(pages: PageLayout[], removed: Set<LayoutBlock>): Set<LayoutBlock> {
  const found = new Set<LayoutBlock>();
  for (const page of pages) {
    const blocks = page.blocks.filter((block) => !removed.has(block));
    blocks.forEach((block, i) => {
      if (block.kind === "text" && block.lines.length === 1 && blocks[i + 1]?.kind === "code" && LISTING_LABEL.test(block.lines[0]!.text)) found.add(block);
    });
  }
  return found;
}

/**
 * tableTitles: a table's title in capitals over it ("ESTIMATED COSTS", as government prints set a
 * table's name): one line, no sentence and no number, centred over the table's columns, the table
 * starting within four of its sizes under it (past a header band left as text). It names the table,
 * as a caption does; a section over a table is set at the text's left edge.
 */
function tableTitles(pages: PageLayout[], removed: Set<LayoutBlock>): Set<LayoutBlock> {
  const found = new Set<LayoutBlock>();
  for (const page of pages) {
    const blocks = page.blocks.filter((block) => !removed.has(block));
    blocks.forEach((block, i) => {
      if (block.kind !== "text" || block.lines.length !== 1) return;
      const line = block.lines[0]!;
      const letters = line.text.replace(/[^\p{L}]/gu, "");
      if (letters.length < 4 || letters !== letters.toUpperCase() || /\d|[.:;]$/.test(line.text)) return;
      const table = [blocks[i + 1], blocks[i + 2]].find((next) => next?.kind === "table");
      if (table?.kind !== "table" || !table.columns || table.columns.length < 3 || table.top - block.bottom > 4 * block.size) return;
      const [left, right] = [table.columns[0]!.x, table.columns[table.columns.length - 1]!.x];
      const centre = centreOf(line);
      if (line.x > left + block.size && centre > left && centre < right && Math.abs(centre - (left + right) / 2) < 0.25 * (right - left)) found.add(block);
    });
  }
  return found;
}

/**
 * partLabels: a part's label alone on its line ("Chapter 1", "Part II") set as large as a title, the
 * next block on its page being its title (a heading candidate at least as large, within its size
 * under it): the label names the title's number, it is no heading of its own (LaTeX's \\chapter
 * sets "Chapter 1" over "Conventions").
 */
function partLabels(pages: PageLayout[], removed: Set<LayoutBlock>, body: number): Set<LayoutBlock> {
  const found = new Set<LayoutBlock>();
  for (const page of pages) {
    const blocks = page.blocks.filter((block) => !removed.has(block));
    for (let i = 0; i + 1 < blocks.length; i++) {
      const [label, title] = [blocks[i]!, blocks[i + 1]!];
      if (label.kind !== "text" || label.lines.length !== 1 || !SECTION_LABEL.test(label.lines[0]!.text.trim())) continue;
      if (!isHeadingCandidate(label, body) || !isHeadingCandidate(title, body) || title.size < label.size - 0.6) continue;
      if (title.top >= label.bottom - 1 && title.top - label.bottom <= 2 * title.size) found.add(label);
    }
  }
  return found;
}

/** CONTENTS_LEADER: the end of a table of contents' entry: a leader of dots to its page number ("1.1. Title Two........3", "Preface ..... vii") */
const CONTENTS_LEADER = new RegExp(String.raw`${LEADER_RUN.source}\s*(?:\d{1,4}|[ivxlcdm]{1,6})(?=\s|$)`, "gu");

/**
 * contentsTitles: the titles over a table of contents (words only, and the next blocks on the page
 * hold two entries or more with leaders to their page numbers): navigation, which the source
 * document sets as a styled paragraph ("Table of Contents" in bold), not a section of the document.
 * (A form's numbered line over its leader to a box, "7 Maximum amount of wages ... 7 113,700", is
 * one entry; its lettered lines end in letters, "C. Enter the larger ... C .")
 */
function contentsTitles(pages: PageLayout[], removed: Set<LayoutBlock>): Set<LayoutBlock> {
  const found = new Set<LayoutBlock>();
  for (const page of pages) {
    const blocks = page.blocks.filter((block) => !removed.has(block));
    blocks.forEach((block, i) => {
      const next = blocks[i + 1];
      if (block.kind !== "text" || block.lines.length > 2 || /\d/.test(blockText(block)) || next?.kind !== "text") return;
      // the entries: in the next block, or one a block in the blocks that follow it
      let entries = 0;
      for (let k = i + 1; k < blocks.length && blocks[k]!.kind === "text"; k++) {
        const count = (blockText(blocks[k]!).match(CONTENTS_LEADER) ?? []).length;
        if (!count) break;
        entries += count;
      }
      if (entries >= 2) found.add(block);
    });
  }
  return found;
}

/** PERSON: a name as a byline writes it, two to four words in capitals or initials ("Hannah M. McGee", "Jean-Luc O'Neil") */
const PERSON = String.raw`\p{Lu}[\p{L}'’.-]*(?:\s+\p{Lu}[\p{L}'’.-]*){1,3}`;
/** BYLINE: two names or more, with commas, "and" or "&" between them */
const BYLINE = new RegExp(String.raw`^${PERSON}(?:\s*(?:,\s*(?:and\s+)?|\s+and\s+|\s*&\s*)${PERSON})+$`, "u");
/** ONE_PERSON: one name alone ("Your Name", "Hannah M. McGee") */
const ONE_PERSON = new RegExp(`^${PERSON}$`, "u");
/** TITLE_DATE: a date alone, as LaTeX's \today and most title pages set it in English ("January 3, 2024", "3 January 2024") */
const TITLE_DATE = /^(?:\d{1,2}\s+)?(?:January|February|March|April|May|June|July|August|September|October|November|December)(?:\s+\d{1,2},)?\s+\d{4}$/;

/** ABSTRACT_START: a paper's abstract, its label set at the start of its paragraph ("Abstract—The grammar…", "Abstract. We…", "ABSTRACT") */
const ABSTRACT_START = /^Abstract(?:$|\s*[—–:.-])/i;

/** AFFILIATION_MARK: a name's affiliation numbers or star, glued to it ("Agyeman-Duah1*", "Theurer2,3") */
const AFFILIATION_MARK = /\p{Ll}(?:\d{1,2}(?:,\d{1,2})*\*?|\*)(?=[,\s]|$)/gu;

/**
 * frontMatter: the lines of a paper's first page that are set like titles but are none: the
 * article type over the title ("RESEARCH ARTICLE Open Access": the one line just above the page's
 * largest title, smaller than it, or as large but not bold under a bold title, and larger or bolder
 * than the body), bylines anywhere (names with commas between them, two or more carrying
 * affiliation marks), and in the two blocks under the title a byline without marks (two names or
 * more) or a date alone.
 */
function frontMatter(pages: PageLayout[], removed: Set<LayoutBlock>, body: number): Set<LayoutBlock> {
  const found = new Set<LayoutBlock>();
  for (const page of pages) {
    for (const block of page.blocks) {
      if (removed.has(block) || block.kind !== "text") continue;
      // (marks set raised are superscripts by now: "Duah<sup>1*</sup>" is read as "Duah1*")
      const text = blockText(block).replace(SCRIPT_TAG, "");
      if ((text.match(/,/g) ?? []).length >= 2 && (text.match(AFFILIATION_MARK) ?? []).length >= 2) found.add(block);
    }
  }
  const first = pages.map((page) => page.blocks.filter((block) => !removed.has(block))).find((blocks) => blocks.length > 0) ?? [];
  // The title: the largest candidate; of two in one size, the bold one ("Research Article" in 18 pt over the title in 18 pt bold)
  const bold = (block: LayoutBlock) => block.kind === "text" && block.lines.every((line) => line.bold);
  let title = -1;
  first.forEach((block, i) => {
    if (!isHeadingCandidate(block, body)) return;
    const current = first[title];
    if (!current || block.size > current.size + 0.6 || (block.size >= current.size - 0.6 && bold(block) && !bold(current))) title = i;
  });
  const abstractAt = first.findIndex((block) => block.kind === "text" && ABSTRACT_START.test(blockText(block)));
  // Under the title, its byline (names, with commas or "and" between them) and a date: no headings in any size.
  for (let i = title + 1; title >= 0 && i <= title + 2; i++) {
    const block = first[i];
    const text = block?.kind === "text" && block.lines.length <= 2 ? blockText(block).replace(SCRIPT_TAG, "").trim() : "";
    if (BYLINE.test(text) || TITLE_DATE.test(text)) found.add(block!);
    // one name alone is told from a subtitle by the date under it (LaTeX's \maketitle: title, author, date)
    const next = first[i + 1];
    if (ONE_PERSON.test(text) && next?.kind === "text" && TITLE_DATE.test(blockText(next).trim())) found.add(block!);
    // or by the abstract further down the first page (a journal's title page: title, author, figure, abstract)
    if (ONE_PERSON.test(text) && abstractAt > i) found.add(block!);
  }
  // Between the title and the abstract's label on the page (above it, in either column): the authors'
  // names, affiliations, addresses and e-mails, whatever their size (an ACM paper sets a grid of author
  // blocks in 12 and 10 pt over a 9 pt body): no headings, unless numbered as a section.
  const abstract = first[abstractAt];
  const titleBlock = first[title];
  // A subtitle: one line right under a bold title (within its size), centred on the title's axis,
  // smaller and not bold ("Acme Technology Solutions" in 14 pt grey under "ANNUAL REPORT 2024" in 20
  // pt bold): it names what the title is about, it heads no part of the document.
  // So is the subtitle of a title slide, the page's only other block, however far under the title and whatever the title's weight.
  const subtitle = first[title + 1];
  const titleSlide = first.length === 2 && title === 0;
  if (titleBlock && (bold(titleBlock) || titleSlide) && subtitle?.kind === "text" && subtitle.lines.length === 1 && !subtitle.lines[0]!.bold && subtitle.size < titleBlock.size - 0.6) {
    const [line, last] = [subtitle.lines[0]!, titleBlock.kind === "text" ? titleBlock.lines[titleBlock.lines.length - 1]! : undefined];
    if (last && Math.abs(centreOf(line) - centreOf(last)) <= line.size && (line.y - last.y <= 1.5 * titleBlock.size || titleSlide) && line.y > last.y) found.add(subtitle);
  }
  if (titleBlock && abstract && abstract.top > titleBlock.bottom) {
    for (const block of first) {
      if (block === titleBlock || block.kind !== "text" || block.top < titleBlock.bottom - 1 || block.bottom >= abstract.top || SECTION_NUMBER.test(blockText(block))) continue;
      found.add(block);
    }
  }
  const above = first[title - 1];
  // (words only: a label with its value, "FACTURE N° : F20180027", "BUYER: BUYER_NAME", heads a document's part)
  const words = above?.kind === "text" && !/[\d:]/.test(blockText(above));
  const smaller = above !== undefined && (above.size < first[title]!.size - 0.6 || (above.size <= first[title]!.size + 0.6 && bold(first[title]!) && !bold(above)));
  if (words && above?.kind === "text" && above.lines.length === 1 && smaller && (above.lines[0]!.bold || isHeadingCandidate(above, body))) found.add(above);
  return found;
}

/** HeadingRanks: the distinct heading sizes, largest first, the smallest depth of numbered titles in the body's font, the blocks in their page's main size (see pageBodyBlocks) and the front matter. */
interface HeadingRanks {
  sizes: number[];
  sectionDepth: number;
  pageBody: Set<LayoutBlock>;
  /** frontMatter: blocks that are no heading in any size or weight (see frontMatter) */
  frontMatter: Set<LayoutBlock>;
}

/** NARROW_HEAD_CHARS: the longest a bold head wrapped over three lines is (a narrow column's; three lines of a page's width are a paragraph) */
const NARROW_HEAD_CHARS = 100;

/**
 * boldHeadings finds the headings set in bold in about the body's size, which only their weight
 * tells from the text: a block of one short logical line, all bold, that does not read as a
 * sentence, a label ("Total:") or a list item, followed by prose that is not bold, by a table
 * (unless it sits as close as the table's rows: a header row) or by another heading.
 */
export function boldHeadings(pages: PageLayout[], removed: Set<LayoutBlock>, body: number, values: Set<LayoutBlock> = new Set()): Set<LayoutBlock> {
  const found = new Set<LayoutBlock>();
  if (body <= 0) return found;
  const blocks = pages.flatMap((page) => page.blocks.filter((block) => !removed.has(block)));
  const shaped = (block: LayoutBlock): block is Extract<LayoutBlock, { kind: "text" }> => {
    // three lines where each wraps into the next and the whole is short: a head in a narrow column
    const lines = block.kind === "text" ? block.lines : [];
    const narrowWrap = lines.length === 3 && lines.slice(0, -1).every((line) => line.wraps) && blockText(block).length <= NARROW_HEAD_CHARS;
    if (block.kind !== "text" || block.rendered || (lines.length > 2 && !narrowWrap) || !lines.every((line) => line.bold)) return false;
    // a title a size below the body's is one still (a sans face over a serif body looks as large at 9.2 as the body at 9.8 pt)
    if (block.size < Math.min(body - 0.6, 0.9 * body) || !oneTitle(block)) return false;
    const text = blockText(block);
    const letters = text.replace(/[^\p{L}]/gu, "").length;
    if (LETTER_HEAD.test(text)) return true;
    if (letters < 2 || letters < 0.5 * text.replace(/\s/g, "").length || CAPTION.test(text) || isTheoremLabel(text) || NOTE_LEAD.test(text) || garbled(text) || mastheadLine(text)) return false;
    if (numberedTitle(text)) return true;
    if (text.length > 120 || /[.,;:!?]$/.test(text) || LABELLED_FIGURE.test(text) || LABELLED_CODE.test(text)) return false;
    return !startsListItem(text) || SECTION_NUMBER.test(text);
  };
  // From the end, so that a heading over a subheading is seen to be followed by a heading. A
  // second pass takes the titles at the end of the document, with nothing after them, in the size
  // of bold headings found in the first.
  const headingSizes: number[] = [];
  for (const pass of [1, 2]) {
    for (let i = blocks.length - 1; i >= 0; i--) {
      const block = blocks[i]!;
      // a note in brackets under a title ("(all underlined figures are exact)") is read past to what it is over
      const noted = isBracketedNote(blocks[i + 1]);
      const next = blocks[noted ? i + 2 : i + 1];
      if (found.has(block) || !shaped(block)) continue;
      // a letter alone heads a glossary's or an index's entries only when the entries under it start with it
      if (LETTER_HEAD.test(blockText(block)) && !lettered(blocks, i)) continue;
      // the second bold line of emphasis that began inside the paragraph before is not a heading (a
      // block all in bold before it is a title over two lines, "PROCÈS-VERBAL" over its session's line)
      const before = blocks[i - 1];
      if (before?.kind === "text" && before.lines.length > 1 && before.lines[before.lines.length - 1]!.bold && !boldTitleLines(before)) continue;
      // Body text is prose (a short line under a bold one may be a row of a table not found as one)
      // a bold phrase in about the body's size right over a listing is the listing's title ("Add an item to a hash", DocBook's example titles), not a heading ("Parameters" over a signature is)
      if (next?.kind === "code" && (LISTING_TITLE.test(blockText(block)) || LISTING_LABEL.test(blockText(block)))) continue;
      const nextIsBody =
        next !== undefined &&
        (next.kind === "code" ||
          (next.kind === "table"
          ? !isHeaderRowOf(block, next)
          : (!next.lines[0]!.bold && next.size < Math.max(block.size, body) + 0.6 && next.size >= 0.75 * body && (next.lines.length >= 2 || next.lines[0]!.text.length >= 40 || isShortSentence(next.lines[0]!.text))) ||
            smallerLinesFollow(blocks, i + 1, block.size, body) ||
            (numberedTitle(blockText(block)) && next.kind === "text" && next.lines.length === 1 && !next.lines[0]!.bold && MINUTE_SENTENCE.test(next.lines[0]!.text)) ||
            boldProse(next)));
      // a numbered title ("1. Estimation of ... basis.") reads as one only over prose or over a heading not numbered (a minute's
      // item over its resolution's head): bold numbered items over each other are a list
      const numbered = numberedTitle(blockText(block));
      const nextIsHeading = next !== undefined && !values.has(next) && (numbered ? next.kind === "text" && found.has(next) && !numberedTitle(blockText(next)) : found.has(next) || isHeadingCandidate(next, body));
      const atEnd = pass === 2 && next === undefined && headingSizes.some((size) => Math.abs(size - block.size) <= 0.6);
      if (nextIsBody || nextIsHeading || atEnd) found.add(block);
    }
    for (const block of found) headingSizes.push(block.size);
  }
  return found;
}

/** boldTitleLines: a block of two or three lines all in bold, none a label with its value (no colon): a title set over lines ("PROCÈS-VERBAL" over its session's line, a form's name over its edition), not emphasis begun in a paragraph */
function boldTitleLines(block: Extract<LayoutBlock, { kind: "text" }>): boolean {
  return block.lines.length <= 3 && block.lines.every((line) => line.bold && !line.text.includes(":"));
}

/** boldProse: a paragraph set in bold, a sentence of eight words or more that ends in a full stop ("Complete this form if you are applying for ... (ReOC).": a lead paragraph under a head), which is body text in its weight */
function boldProse(block: LayoutBlock): boolean {
  if (block.kind !== "text" || !block.lines.every((line) => line.bold)) return false;
  const text = blockText(block).trim();
  return /^\p{Lu}/u.test(text) && /[.!?]$/.test(text) && text.split(/\s+/).length >= 8;
}

/** MINUTE_SENTENCE: a sentence of two words or more, a capital first and a full stop last ("Aucune question.", "None received."): the body under a numbered title, however short */
const MINUTE_SENTENCE = /^\p{Lu}\p{Ll}*(?: \S+)+[.!?]$/u;

/** LISTING_TITLE: a phrase of four words or more, a capital first and the rest in lower case, no numbering and no colon ("Add an item to a hash", "Count of items in the hash table") */
const LISTING_TITLE = /^\p{Lu}\p{Ll}*(?: [\p{Ll}\d_'’-]+){3,}$/u;

/** LETTER_HEAD: a capital letter alone on its line, a glossary's or an index's letter head ("A" over "Abradable strip. ...") */
const LETTER_HEAD = /^\p{Lu}$/u;

/** lettered: the two text blocks after the letter head at `i` both start with its letter (the entries it heads; a figure panel's "A" has none) */
function lettered(blocks: LayoutBlock[], i: number): boolean {
  const letter = blockText(blocks[i]!).trim();
  const after = blocks.slice(i + 1, i + 3);
  return after.length === 2 && after.every((block) => block.kind === "text" && !block.lines[0]!.bold && block.lines[0]!.text.startsWith(letter));
}

/** isBracketedNote: a block of one line, not bold, all in brackets ("(all underlined figures are exact)", "[in thousands]") */
function isBracketedNote(block: LayoutBlock | undefined): boolean {
  if (block?.kind !== "text" || block.lines.length !== 1 || block.lines[0]!.bold) return false;
  return /^(?:\(.*\)|\[.*\])$/s.test(block.lines[0]!.text.trim());
}

/**
 * smallerLinesFollow: three lines or more, not bold, follow from block `from` on, each in a size a
 * point or more below `size` and below the body's (not small print, under 0.6 of the body's): code
 * or a signature set in a smaller monospace face, its lines split into blocks of one at each change
 * of size, under a bold title in the body's size.
 */
function smallerLinesFollow(blocks: LayoutBlock[], from: number, size: number, body: number): boolean {
  let lines = 0;
  for (let k = from; k < blocks.length && lines < 3; k++) {
    const block = blocks[k]!;
    if (block.kind !== "text" || block.lines.some((line) => line.bold) || block.size > Math.min(size - 1, body - 0.5) || block.size < 0.6 * body) break;
    lines += block.lines.length;
  }
  return lines >= 3;
}

/**
 * isShortSentence: a line of prose too short to tell by its length: three words or more, a capital
 * first, a full stop last ("Perform a word count on content."); or five words or more in lowercase
 * after a capitalised first, which leads into a displayed formula or list ("The equation to be solved is").
 */
function isShortSentence(text: string): boolean {
  return /^\p{Lu}\p{Ll}*(?: \S+){2,}[.!?]$/u.test(text) || /^\p{Lu}\p{Ll}+(?: \p{Ll}+){4,}$/u.test(text);
}

/**
 * numberedTitle: a bold line numbered like a list item ("1. Estimation of current exposure on a
 * nationwide basis.", "4. Tables of Units of Measurement"): reports number their sections so,
 * sometimes with a full stop at the end and over two lines. It is a title only when it is bold
 * throughout and prose that is not bold follows (see boldHeadings).
 */
function numberedTitle(text: string): boolean {
  return /^\d{1,2}\.\s+\p{Lu}/u.test(text) && text.length <= 200 && !/[,;:!?]$/.test(text);
}

/**
 * isHeaderRowOf: a bold line in the table's size that sits above it at no more than the table's own
 * row pitch is its header row (which the table did not take in), not a heading over it.
 */
function isHeaderRowOf(line: LayoutBlock, table: Extract<LayoutBlock, { kind: "table" }>): boolean {
  // a title in a larger size than the table's text ("Units of Length" in 10 pt over rows in 8) is not a row of it
  if (line.size >= 1.15 * table.size) return false;
  const firstBaseline = table.top + table.size;
  const pitch = table.rows.length >= 2 ? (table.bottom - firstBaseline) / (table.rows.length - 1) : 2 * table.size;
  return firstBaseline - line.bottom <= 1.3 * pitch;
}

export function headingLevel(block: LayoutBlock, body: number, ranks: HeadingRanks, bold = false): number {
  const levels = ranks.sizes;
  if (ranks.frontMatter.has(block)) return 0;
  if (!isHeadingCandidate(block, body) || ranks.pageBody.has(block)) {
    // Numbered titles in the body's font rank below every larger heading, deeper numbers lower;
    // unnumbered bold ones below them all.
    const depth = sectionDepth(block, body);
    if (depth) return Math.min(6, levels.length + 1 + depth - ranks.sectionDepth);
    return bold ? Math.min(4, levels.length + 1) : 0;
  }
  const rank = levels.findIndex((size) => block.size >= size - 0.6);
  // a numbered title in a fourth size or smaller ranks by it (2.1.1 under 2.1), others at ### at most
  return Math.min(SECTION_NUMBER.test(blockText(block)) ? 6 : 3, (rank < 0 ? levels.length - 1 : rank) + 1);
}
