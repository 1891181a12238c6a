/**
 * Paragraph text for the PDF layout engine: the lines of a block joined into one paragraph
 * (`joinWrapped` joins a word broken at a line end, `joinLines`), a block written as markdown
 * (`paragraphMarkdown`: list items, contents entries one a line, a theorem's label kept on its
 * line, line starts escaped) and tesseract's flat text tidied the same way (`formatOcrText`,
 * `ocrLineWraps`). Pure functions on strings and LayoutLines; every other layout module may use them.
 */
import { escapeStrayMarkup, heading, joinBlocks } from "./markdown";
import type { LayoutBlock, LayoutLine } from "./pdfLayoutTypes";
import { NOTE_MARK, SCRIPT_TAG } from "./pdfLines";

/** BULLET_START, NUMBER_START: a bullet or an item number opening a text, then the item's text */
const BULLET_START = /^([•◦▪▫‣●○■□➢►▸*+·–-])\s+(.*)$/s;
const NUMBER_START = /^(\d{1,3})[.)]\s+(.*)$/s;
/** startsListItem: the text opens with a bullet or an item number */
export const startsListItem = (text: string) => BULLET_START.test(text) || NUMBER_START.test(text);

/** LEADER_RUN: four or more dots in a row, spaced or not: a leader to a form's box or a contents entry's page, never in a title */
export const LEADER_RUN = /(?:\.\s?){4,}/;

/** blockText: a block's text on one line (a table's cells spaced, a listing's lines apart) */
export function blockText(block: LayoutBlock): string {
  if (block.kind === "code") return block.lines.map((l) => l.text).join("\n");
  return block.kind === "table" ? block.rows.map((r) => r.join(" ")).join(" ") : joinLines(block.lines.map((l) => l.text));
}

/**
 * THEOREM_LABEL: the label of a numbered theorem-like environment as LaTeX papers, lecture notes and
 * manuals set it in bold at the start of its paragraph, on the paragraph's first line or on a line of
 * its own ("Definition 8", "Beispiel 9 (diskrete Metrik)", "Lemma 2.1.", "Proof."): part of the
 * paragraph, not a section heading. The environments' names in English, German, French, Spanish and
 * Italian; a number is needed but for a proof (unnumbered by custom), so that a title "Example" or
 * "Remarks" over a manual's section stays one.
 */
const THEOREM_LABEL = new RegExp(
  String.raw`^(?:(?:definition|theorem|lemma|proposition|corollary|remark|example|claim|conjecture|exercise|observation|notation|assumption|axiom|fact|problem|` +
    String.raw`satz|beispiel|bemerkung|folgerung|korollar|hilfssatz|aufgabe|beobachtung|` +
    String.raw`définition|théorème|lemme|corollaire|exemple|remarque|` +
    String.raw`definición|teorema|lema|corolario|ejemplo|observación|definizione|esempio|osservazione)\s+(?:[A-Z]\.)?\d{1,3}(?:\.\d{1,3})*|proof|beweis|preuve|démonstration|demostración|dimostrazione)` +
    String.raw`\.?(?:\s*\([^()]{1,80}\))?[.:]?$`,
  "iu",
);

/** isTheoremLabel: a line that is a theorem-like environment's label (see THEOREM_LABEL), footnote marks and scripts aside */
export function isTheoremLabel(text: string): boolean {
  return THEOREM_LABEL.test(text.replace(NOTE_MARK, "").replace(/\[\^[^\]]+\]/g, "").replace(SCRIPT_TAG, "").trim());
}

/**
 * BROKEN_AT_END: a line ending in a word or code broken at a hyphen ("Nonpharma-", "a3f6004b-6f4f-"):
 * it goes on in the next line even when it stops short of its column's edge (a narrow text box, a
 * reference list's hanging indent), which no line a writer ends on purpose does.
 */
const BROKEN_AT_END = /[\p{L}\p{N}]-$/u;

/**
 * paragraphMarkdown joins a block's lines: wrapped lines with a space (or without the hyphen of a
 * word broken at the line end), lines that end early on a line of their own, and a theorem-like
 * label in bold (see THEOREM_LABEL) on its own line in bold. A leading bullet or number makes it a
 * list item. `compounds`: the document's hyphenated pairs (hyphenatedCompounds), for joinWrapped.
 */
export function paragraphMarkdown(lines: LayoutLine[], compounds?: ReadonlySet<string>): string {
  // the document's own markup characters escaped over the whole paragraph (an emphasis may span lines), before the label's
  const texts = escapeStrayMarkup(lines.map((line) => line.text).join("\n")).split("\n");
  const ends = contentsEntryEnds(texts);
  if (ends) {
    // each entry apart, its lines joined as a paragraph's, its leader one separator
    return ends.map((end, k) => escapeLineStarts(joinBlockLines(lines.slice((ends[k - 1] ?? -1) + 1, end + 1), texts.slice((ends[k - 1] ?? -1) + 1, end + 1), compounds).replace(CONTENTS_ENTRY_LEADER, " ... "))).join("\n\n");
  }
  const text = joinBlockLines(lines, texts, compounds);
  const bullet = BULLET_START.exec(text);
  if (bullet && !bracketPieces(bullet[1]!, texts[0]!)) return `- ${bullet[2]}`;
  const numbered = NUMBER_START.exec(text);
  if (numbered) return `${numbered[1]}. ${numbered[2]}`;
  return escapeLineStarts(text);
}

/**
 * bracketPieces: a line opened by a bullet glyph that comes again alone further on ("• σ12 σ22 σ23
 * •", "• •") holds the pieces of a tall bracket around a matrix, drawn by a symbol font whose
 * glyphs map to no character (pdfLines reads a lone unmapped glyph as "•"), or is a formula's line
 * ("+ [(θ2 − θ3)Kn + θ3Kn+1] ∆t"): no list item. Dashes, stars and middle dots may come again in
 * an item's text.
 */
function bracketPieces(bullet: string, first: string): boolean {
  return !/[-–*·]/.test(bullet) && first.slice(1).split(/\s+/).includes(bullet);
}

/** ADDRESS_END: a line that ends in a web address, not at a sentence's end */
const ADDRESS_END = /(?:^|\s)(?:[a-z][a-z+.-]*:\/\/|www\.)\S*[\p{L}\p{N}/_-]$/iu;

/**
 * continuesAddress: the line is the rest of the web address that ends the line before, broken
 * where that line ran out (LaTeX's \url breaks anywhere, with no hyphen): one word with a "/" or
 * a "." in it ("http://mirrors.ctan.org/macros/latex/contrib/na" / "tbib/natnotes.pdf").
 */
function continuesAddress(before: string, line: string): boolean {
  return !/\s/.test(line) && /[/.]/.test(line) && ADDRESS_END.test(before.slice(-200));
}

/**
 * hangingEntries: the block's lines are entries set with a hanging indent (a reference list):
 * every line starts at the first line's edge or at one indent right of it (the second line's),
 * as many at the indent as at the edge or more, and each indented line goes on from a line that
 * reaches the column's edge. A block of paragraphs indented on their first line has its indented
 * lines after a paragraph's short last line.
 */
function hangingEntries(lines: LayoutLine[]): boolean {
  if (lines.length < 3) return false;
  const size = lines[0]!.size;
  const [edge, indent] = [lines[0]!.x, lines[1]!.x];
  if (!(size > 0) || indent - edge < 0.5 * size) return false;
  let indented = 0;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (Math.abs(line.x - indent) <= 0.3 * size) {
      if (!lines[i - 1]!.wraps && !BROKEN_AT_END.test(lines[i - 1]!.text)) return false;
      indented++;
    } else if (Math.abs(line.x - edge) > 0.3 * size) return false;
  }
  return 2 * indented >= lines.length;
}

/** joinBlockLines joins lines (their `texts` as escaped) as paragraphMarkdown says: wrapped ones by joinWrapped, others on lines of their own */
function joinBlockLines(lines: LayoutLine[], texts: string[], compounds?: ReadonlySet<string>): string {
  let text = "";
  // a theorem-like label in bold on a line of its own keeps its weight and its line: "**Definition 8**" over its text
  const isLabel = (line: LayoutLine | undefined) => line?.bold === true && isTheoremLabel(line.text);
  // a hanging indent (each entry's first line out to the left of its others, as a reference list sets them): a line back at the first's edge after an indented one starts an entry
  const hanging = hangingEntries(lines);
  const startsEntry = (i: number) => hanging && i >= 2 && Math.abs(lines[i]!.x - lines[0]!.x) <= 0.3 * lines[0]!.size && lines[i - 1]!.x - lines[0]!.x >= 0.5 * lines[0]!.size;
  for (let i = 0; i < lines.length; i++) {
    const line = isLabel(lines[i]) ? `**${texts[i]}**` : texts[i]!;
    if (i === 0) text = line;
    else if ((lines[i - 1]!.wraps || BROKEN_AT_END.test(texts[i - 1]!)) && !isLabel(lines[i]) && !isLabel(lines[i - 1]) && !startsEntry(i)) text = joinWrapped(text, line, compounds);
    else if (continuesAddress(texts[i - 1]!, texts[i]!)) text += line;
    else text += `\n${line}`;
  }
  return text;
}

/** CONTENTS_ENTRY_LEADER: the leader that ends a contents entry's line, to its page number ("1.1. Title Two........3", "Preface ..... vii") */
const CONTENTS_ENTRY_LEADER = new RegExp(String.raw`\s*${LEADER_RUN.source}\s*(?=(?:\d{1,4}|[ivxlcdm]{1,6})$)`, "u");

/**
 * contentsEntryEnds: where the entries of a table of contents' block end (line indices), each at a
 * leader to its page number (an entry's title may wrap over lines before it): the lines of entries,
 * which reach the column's edge as wrapped prose does, are not one paragraph. Null when the block
 * holds no entry or lines after the last one.
 */
function contentsEntryEnds(texts: string[]): number[] | null {
  const ends = texts.flatMap((text, i) => (CONTENTS_ENTRY_LEADER.test(text) ? [i] : []));
  return ends.length && ends[ends.length - 1] === texts.length - 1 ? ends : null;
}

/**
 * COMPOUND_PREFIX: words English writes with a hyphen before the word they qualify ("well-known",
 * "well-represented", "self-report"), which a word broken at a line end never ends in: hyphenation
 * breaks "wellness" or "selfish" there too, but far more rarely than compounds break at their hyphen.
 */
const COMPOUND_PREFIX = /^(?:well|self)$/i;
/**
 * SUSPENDED_BEFORE: a conjunction after a line-end hyphen: the hyphen is suspended ("pre-" / "and
 * post-operative", "Vor-" / "und Nachteile"), never a word's break (hyphenation leaves three letters
 * or more after the break, and "and" or "und" is a syllable of few words)
 */
const SUSPENDED_BEFORE = /^(?:and|or|to|nor|und|oder|bis|et|ou|y|o|e|en)$/u;
/** WEB_ADDRESS: a text's last word is a web address (a scheme's "//" or "www."), where a hyphen at a line end is the address's own */
const WEB_ADDRESS = /(?:^|\s)\S*(?:\/\/|www\.)\S*$/u;
/** FILE_NAME: a text's last word is a file's name, a dot between letters in it ("toto.header-" before "references.xml"), where a hyphen at a line end is the name's own */
const FILE_NAME = /(?:^|\s)\S*\p{L}\.\p{L}\S*$/u;

/**
 * joinWrapped appends a wrapped line: a word hyphenated at the line end is joined ("lever-" + "age"
 * -> "leverage"); a hyphen before a capital or a digit is a real one and stays, without a space
 * ("Next-" + "Gen" -> "Next-Gen"), as does one after a compound's first word ("well-" +
 * "represented", COMPOUND_PREFIX) or inside a web address ("https://github.com/x/ggdist-" +
 * "paper") or a file's name ("toto.header-" + "references.xml", FILE_NAME), and a suspended one
 * before a conjunction keeps its space ("pre- and post-", SUSPENDED_BEFORE); otherwise the lines
 * are joined with a space. A hyphen after one letter stays ("d-" + "dimensional": hyphenation
 * leaves two letters or more before its break), as does one the document writes inside a line
 * (`compounds`, from hyphenatedCompounds: "dual-" + "encoder" where "dual-encoder" is printed
 * whole elsewhere).
 */
export function joinWrapped(text: string, next: string, compounds?: ReadonlySet<string>): string {
  // Only the tail is searched: `text` is the paragraph so far, and a regex over all of it per line is quadratic.
  const tail = text.endsWith("-") ? text.slice(-64) : "";
  const before = tail ? /([\p{L}\p{N}]+)-$/u.exec(tail)?.[1] : undefined;
  if (before === undefined) return `${text} ${next}`;
  const after = /^[\p{L}\p{N}]+/u.exec(next)?.[0] ?? "";
  // codes and identifiers ("49e168b7-d2ae", "COVID-19") keep their hyphens
  if (/\p{N}/u.test(before) || /\p{N}/u.test(after)) return after ? text + next : `${text} ${next}`;
  if (after && (COMPOUND_PREFIX.test(before) || WEB_ADDRESS.test(tail) || FILE_NAME.test(tail))) return text + next;
  if (SUSPENDED_BEFORE.test(after)) return `${text} ${next}`;
  if (/\p{Ll}$/u.test(before) && /^\p{Ll}/u.test(after)) return before.length === 1 || compounds?.has(`${before}-${after}`.toLowerCase()) ? text + next : text.slice(0, -1) + next;
  if (/^\p{Lu}/u.test(after)) return text + next;
  return `${text} ${next}`;
}

/**
 * hyphenatedCompounds: the pairs of words a document joins with a hyphen inside a line ("dual-encoder",
 * "state-of" and "of-the" of "state-of-the-art"), lower-cased: a hyphen there is the writer's, never
 * a break, so the same pair broken at a line end keeps it (joinWrapped). A line's last word, when
 * it ends in a hyphen, is a break and is not read.
 */
export function hyphenatedCompounds(lines: Iterable<string>): Set<string> {
  const pairs = new Set<string>();
  for (const line of lines) {
    if (!line.includes("-")) continue;
    const words = line.split(/\s+/);
    if (words[words.length - 1]!.endsWith("-")) words.pop();
    for (const word of words) {
      if (!word.includes("-")) continue;
      // each pair of parts of letters only: "(dual-encoder)," counts, "x2-y" and "-ly" do not
      const parts = trimPunctuation(word).split("-");
      for (let i = 1; i < parts.length; i++) if (LETTERS.test(parts[i - 1]!) && LETTERS.test(parts[i]!)) pairs.add(`${parts[i - 1]}-${parts[i]}`.toLowerCase());
    }
  }
  return pairs;
}
/** WORD_PUNCTUATION: what opens or closes a word in running text (brackets, quotes, stops) */
const WORD_PUNCTUATION = new Set("([{\"'“‘)]}”’.,;:!?");
/** trimPunctuation: a word without the brackets, quotes and stops around it (a loop: a suffix regex is quadratic on a long run of them) */
function trimPunctuation(word: string): string {
  let start = 0;
  let end = word.length;
  while (start < end && WORD_PUNCTUATION.has(word[start]!)) start++;
  while (end > start && WORD_PUNCTUATION.has(word[end - 1]!)) end--;
  return word.slice(start, end);
}
/** LETTERS: a part of a compound: letters only */
const LETTERS = /^\p{L}+$/u;

/** JOIN_TAIL: characters of the text so far that joinLines hands joinWrapped (it reads the last 64). */
const JOIN_TAIL = 128;

/**
 * joinLines joins lines one after the other as joinWrapped does, giving joinWrapped only the tail of
 * the text so far: on a block of hundreds of lines, reading the whole text at each line was quadratic.
 */
export function joinLines(lines: readonly string[]): string {
  const done: string[] = [];
  let tail = "";
  for (const line of lines) {
    tail = tail ? joinWrapped(tail, line) : line;
    if (tail.length > 4 * JOIN_TAIL) {
      done.push(tail.slice(0, -JOIN_TAIL));
      tail = tail.slice(-JOIN_TAIL);
    }
  }
  return done.join("") + tail;
}

/** escapeLineStarts keeps text that merely looks like markdown syntax at a line start literal. */
function escapeLineStarts(text: string): string {
  // an item number's escape goes before its dot ("1\. Title": a backslash before a digit is no escape)
  return text.replace(/^(\s*)([#>]|[-+*](?=\s)|\|)/gm, "$1\\$2").replace(/^(\s*\d+)([.)])(?=\s)/gm, "$1\\$2");
}

/**
 * ocrLineWraps: whether a line of tesseract's text (which gives no column edge) wraps on to the next:
 * it reaches 0.7 of its paragraph's longest line, itself 40 characters or more.
 */
export function ocrLineWraps(length: number, longest: number): boolean {
  return longest >= 40 && length >= longest * 0.7;
}

/**
 * formatOcrText shapes tesseract's text (paragraphs separated by blank lines) like the text layer:
 * wrapped lines joined, short all-caps lines as headings, bullets as list items.
 */
export function formatOcrText(text: string): string {
  const blocks: string[] = [];
  for (const para of text.split(/\n\s*\n/)) {
    const lines = para.split("\n").map((l) => l.trim()).filter(Boolean);
    if (!lines.length) continue;
    const first = lines[0]!;
    const letters = first.replace(/[^\p{L}]/gu, "");
    if (lines.length === 1 && first.length <= 60 && letters.length >= 4 && letters === letters.toUpperCase() && !/[.,;]$/.test(first)) {
      blocks.push(heading(2, first.replace(/^[#\s]+/, "")));
      continue;
    }
    const longest = lines.reduce((most, l) => Math.max(most, l.length), 0);
    const asLines: LayoutLine[] = lines.map((l) => ({ text: l, x: 0, x2: l.length, y: 0, size: 0, wraps: ocrLineWraps(l.length, longest) }));
    let item: LayoutLine[] = [];
    const flushItem = () => {
      if (item.length) blocks.push(paragraphMarkdown(item));
      item = [];
    };
    for (const line of asLines) {
      if (startsListItem(line.text)) flushItem();
      item.push(line);
    }
    flushItem();
  }
  return joinBlocks(blocks);
}
