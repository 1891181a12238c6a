/**
 * Notes in PDF text: a page's footnotes taken out of its blocks (`takeFootnotes`: a small block at
 * the foot led by a number that a raised mark in the text refers to) and the marks resolved to
 * `[^label]` (`resolveNoteMarks`); a document's endnotes, numbered in roman and gathered at its end
 * (`takeEndnotes`), and notes renamed where pages reuse labels (`relabelNotes`).
 */
import type { LayoutBlock, LayoutLine, PageLayout } from "./pdfLayoutTypes";
import { median, NOTE_MARK, NOTE_MARK_START, SCRIPT_BASE, tidyScripts } from "./pdfLines";
import { joinWrapped } from "./pdfParagraphs";

/** FOOTNOTE_TEXT: a footnote at the foot of a page: its label (raised or not), then its text */
const FOOTNOTE_TEXT = /^(?:\u0002(\S+?)\u0003|(\d{1,3}|[*†‡§∗⋆]))\s*(\S.*)$/s;
/** NOTE_WORDS: a note's text says something in words; a line of figures after a number ("3 4 5", "0") is a chart's tick labels or a table's row */
const NOTE_WORDS = /\p{L}/u;
/** STAR_LABEL: the asterisk operator (TeX's math star, U+2217) or the star operator (U+22C6, LNCS's title note) that some fonts give for the "*" of a note's label or mark */
const STAR_LABEL = /[∗⋆]/g;

/** noteLabel: a label as the page's marks and notes are compared ("∗" and "⋆" as "*") */
const noteLabel = (label: string) => label.replace(STAR_LABEL, "*");

/**
 * takeFootnotes finds the footnotes of a page: blocks in the lower part of the page, in a smaller
 * font than the page's text, whose lines start with a label that a raised reference on the page
 * uses, followed by words (a number over figures is a chart's axis). A block may hold several
 * notes; lines without a label continue the note above. A block whose first lines are body text
 * and whose last are notes (a column's last lines run into its notes with no more room between
 * them than between lines) keeps the body's lines, in place, and gives up the rest: each note's
 * `block` is then the part taken, not in `blocks`. Blocks the notes were broken into are taken
 * with them (`also`): a note's label alone on a line above its first line (raised too far to be
 * grouped with it: labelLines), and a block right under a note's that goes on with it (a note's
 * hanging indent read as a new paragraph, its next note in the body's size).
 */
export function takeFootnotes(blocks: LayoutBlock[], height: number): Array<{ label: string; text: string; block: LayoutBlock; also?: LayoutBlock[] }> {
  const referenced = new Set<string>();
  const sizes = new Map<number, number>();
  for (const block of blocks) {
    if (block.kind === "code") continue;
    if (block.kind !== "text") {
      for (const cell of block.rows.flat()) for (const match of cell.matchAll(NOTE_MARK)) if (match.index! > 0) referenced.add(noteLabel(match[1]!));
      continue;
    }
    for (const line of block.lines) {
      if (line.text.includes(NOTE_MARK_START)) for (const match of line.text.matchAll(NOTE_MARK)) if (match.index! > 0) referenced.add(noteLabel(match[1]!));
      const key = Math.round(line.size * 2) / 2;
      sizes.set(key, (sizes.get(key) ?? 0) + line.text.length);
    }
  }
  // a page of tables only (its note marks in cells, no line of text) has no body size and no notes to take
  if (!referenced.size || !sizes.size) return [];
  const body = [...sizes.entries()].sort((a, b) => b[1] - a[1])[0]![0];
  // noteStart: the line opens a note (a referenced label, then words)
  const noteStart = (text: string) => {
    const match = FOOTNOTE_TEXT.exec(text);
    const label = match ? noteLabel((match[1] ?? match[2])!) : "";
    return match && referenced.has(label) && NOTE_WORDS.test(match[3]!) ? { label, text: match[3]! } : null;
  };
  const small = (line: LayoutLine) => line.size < 0.92 * body;
  // a label alone on a line above its note's first line: that line is led by the label while the notes are sought
  const labels = labelLines(blocks, height, referenced);
  const unlabelled = new Map([...labels.keys()].map((noteBlock) => [noteBlock, noteBlock.lines[0]!.text]));
  for (const [noteBlock, { label }] of labels) noteBlock.lines[0]!.text = `${NOTE_MARK_START}${label}\u0003${noteBlock.lines[0]!.text}`;
  const notes: Array<{ label: string; text: string; block: LayoutBlock; also?: LayoutBlock[] }> = [];
  // the last text block whose lines were all taken as notes: a block right under it, in its size, goes on with them
  // when it opens a note or is indented from the note's label (the note's hanging indent read as a new paragraph)
  let last: Extract<LayoutBlock, { kind: "text" }> | null = null;
  for (const block of blocks) {
    if (block.kind !== "text" || block.top < height * 0.5) continue;
    const previous = last;
    last = null;
    if (previous && notes.length && (noteStart(block.lines[0]!.text) || block.lines[0]!.x > previous.lines[0]!.x + 1) && block.top - previous.bottom <= 1.6 * block.size && Math.abs(block.size - previous.size) <= 0.5 && Math.abs(block.lines[0]!.x - previous.lines[0]!.x) <= 2 * block.size) {
      const owner = notes[notes.length - 1]!;
      for (const line of block.lines) {
        const note = noteStart(line.text);
        if (note) notes.push({ ...note, block: owner.block });
        else notes[notes.length - 1]!.text = joinWrapped(notes[notes.length - 1]!.text, line.text);
      }
      owner.also = [...(owner.also ?? []), block];
      last = block;
      continue;
    }
    // Notes are set smaller than the body, or in its size with a raised label ("⁹One international foot = ..."); body lines may come first
    const whole = block.size < 0.92 * body || block.lines[0]!.text.startsWith(NOTE_MARK_START);
    const first = whole && noteStart(block.lines[0]!.text) ? 0 : block.lines.findIndex(small);
    if (first < 0 || (first === 0 && !whole) || (first > 0 && (block.lines.slice(first).some((line) => !small(line)) || !noteStart(block.lines[first]!.text)))) continue;
    const taken = first ? { ...block, lines: block.lines.slice(first), top: block.lines[first]!.y - block.lines[first]!.size } : block;
    const found: Array<{ label: string; text: string; block: LayoutBlock; also?: LayoutBlock[] }> = [];
    let read = 0;
    for (const line of block.lines.slice(first)) {
      const note = noteStart(line.text);
      if (note) found.push({ ...note, block: taken });
      else if (found.length) found[found.length - 1]!.text = joinWrapped(found[found.length - 1]!.text, line.text);
      else break;
      read++;
    }
    if (first && found.length) {
      const kept = block.lines.slice(0, first);
      kept[kept.length - 1]!.wraps = false;
      block.lines = kept;
      block.bottom = kept[kept.length - 1]!.y;
      block.size = median(kept.map((line) => line.size));
    }
    if (found.length) {
      const label = labels.get(block);
      if (label && !first) found[0]!.also = [label.block];
      if (!first && read === block.lines.length) last = block;
    }
    notes.push(...found);
  }
  // a label line whose note was not taken stays as it was
  for (const [noteBlock, text] of unlabelled) if (!notes.some((note) => note.block === noteBlock && note.also?.length)) noteBlock.lines[0]!.text = text;
  for (const note of notes) note.text = note.text.replace(NOTE_MARK, "$1").trim();
  return notes;
}

/** LABEL_ALONE: a line that is a note's label alone ("3", "*"), raised or not */
const LABEL_ALONE = /^\u0002?(\d{1,3}|[*†‡§∗⋆])\u0003?$/;

/**
 * labelLines finds, in the lower half of the page, one-line blocks that are a label alone which a
 * raised mark of the page uses, set smaller than the line directly after and below them (within
 * one and a half of its size down, starting where the label ends): a footnote's label raised so
 * far above its first line that the lines were not grouped (a note at the foot of a right column,
 * "³" over "The ideal size ..."). Keyed by the block of that first line. Only label blocks are
 * compared with the page's blocks (few).
 */
function labelLines(blocks: LayoutBlock[], height: number, referenced: Set<string>): Map<LayoutBlock & { kind: "text" }, { block: LayoutBlock; label: string }> {
  const found = new Map<LayoutBlock & { kind: "text" }, { block: LayoutBlock; label: string }>();
  for (const block of blocks) {
    if (block.kind !== "text" || block.lines.length !== 1 || block.top < height * 0.5) continue;
    const line = block.lines[0]!;
    const label = LABEL_ALONE.exec(line.text.trim())?.[1];
    if (!label || !referenced.has(noteLabel(label))) continue;
    const next = blocks.find((other): other is LayoutBlock & { kind: "text" } => {
      if (other === block || other.kind !== "text" || found.has(other as LayoutBlock & { kind: "text" })) return false;
      const first = other.lines[0]!;
      return line.size < 0.8 * first.size && first.x - line.x2 >= -0.5 && first.x - line.x2 <= 0.5 * first.size && first.y > line.y && first.y - line.y <= 1.5 * first.size;
    });
    if (next) found.set(next, { block, label });
  }
  return found;
}

/**
 * resolveNoteMarks turns raised numbers into `[^label]` where the page has that footnote; else a
 * number set directly after a character is a superscript ("10<sup>22</sup>", "m<sup>2</sup>", or a
 * note whose text the page does not show), and one after a space is plain. A raised number opening
 * a line refers to nothing (a mark follows its word): it labels the line, as an affiliation's
 * number leads its address ("²Departamento de ..."), and is written plain with a space after it
 * (a table cell's leading mark may refer to the cell beside it, so cells keep the rule before).
 */
export function resolveNoteMarks(blocks: LayoutBlock[], labels: Set<string>): void {
  mapBlockTexts(blocks, (text, cell) =>
    text.includes(NOTE_MARK_START)
      ? tidyScripts(text.replace(NOTE_MARK, (_, label: string, offset: number, whole: string) => {
          const folded = noteLabel(label);
          if (offset === 0 && !cell) return LABEL_FOLLOWS.test(whole.slice(offset + label.length + 2)) ? `${label} ` : label;
          return labels.has(folded) ? `[^${folded}]` : SCRIPT_BASE.test(whole.slice(Math.max(0, offset - 6), offset)) ? `<sup>${label}</sup>` : label;
        }))
      : text,
  );
}
/** LABEL_FOLLOWS: the text after a line's leading label starts with a letter or figure directly (no space between) */
const LABEL_FOLLOWS = /^[\p{L}\p{N}(]/u;

/** mapBlockTexts rewrites, in place, the text of every line and table cell of the blocks (`cell`: the text is a table cell's). */
function mapBlockTexts(blocks: LayoutBlock[], map: (text: string, cell: boolean) => string): void {
  for (const block of blocks) {
    if (block.kind === "text") for (const line of block.lines) line.text = map(line.text, false);
    else if (block.kind === "table") block.rows = block.rows.map((row) => row.map((text) => map(text, true)));
  }
}

/** ENDNOTE_MARK: a raised roman numeral, as LibreOffice and Word number endnotes (i, ii, ...), set after a character */
const ENDNOTE_MARK = /<sup>([ivxlcdm]{1,6})<\/sup>/g;
/** ENDNOTE_TEXT: an endnote's line: its roman label, then its text from a letter ("i   Les apparences sont trompeuses !") */
const ENDNOTE_TEXT = /^([ivxlcdm]{1,6})\s+(\p{L}.*)$/su;

/**
 * takeEndnotes finds the endnotes of a document, which are printed after its text (on a page of
 * their own), not at the foot of the page that refers to them: a text block, after a block that
 * raises a roman mark (ENDNOTE_MARK) and in its size or smaller, whose lines start with such a
 * mark's label unraised, each note's further lines continuing it. The blocks are taken out and
 * their notes added to their page's (shown at the end like its footnotes); the marks become
 * `[^label]`. In place on `pages`' blocks and notes.
 */
export function takeEndnotes(pages: PageLayout[]): void {
  // each raised roman label, with the size of the text it is raised in (the first time)
  const marks = new Map<string, number>();
  const found = new Set<string>();
  for (const page of pages) {
    const notes: Array<{ label: string; text: string }> = [];
    page.blocks = page.blocks.filter((block) => {
      if (block.kind !== "text") return true;
      const first = ENDNOTE_TEXT.exec(block.lines[0]!.text)?.[1];
      const size = first === undefined ? undefined : marks.get(first);
      if (size !== undefined && block.size <= size + 0.5 && !found.has(first!)) {
        const taken: Array<{ label: string; text: string }> = [];
        for (const line of block.lines) {
          const match = ENDNOTE_TEXT.exec(line.text);
          if (match && marks.has(match[1]!) && !found.has(match[1]!)) {
            taken.push({ label: match[1]!, text: match[2]!.trim() });
            found.add(match[1]!);
          } else {
            taken[taken.length - 1]!.text = joinWrapped(taken[taken.length - 1]!.text, line.text);
          }
        }
        notes.push(...taken);
        return false;
      }
      for (const line of block.lines) for (const match of line.text.matchAll(ENDNOTE_MARK)) if (!marks.has(match[1]!)) marks.set(match[1]!, block.size);
      return true;
    });
    if (notes.length) page.notes = [...(page.notes ?? []), ...notes];
  }
  if (found.size) mapBlockTexts(pages.flatMap((page) => page.blocks), (text) => text.replace(ENDNOTE_MARK, (whole, label: string) => (found.has(label) ? `[^${label}]` : whole)));
}

export function relabelNotes(blocks: LayoutBlock[], renamed: Map<string, string>): void {
  mapBlockTexts(blocks, (text) => text.replace(/\[\^([^\]\s]+)\]/g, (whole, label: string) => (renamed.has(label) ? `[^${renamed.get(label)}]` : whole)));
}
