/**
 * Line building for the PDF layout engine (pdfLayout.ts): a page's text items -> lines
 * (`buildLines`), each cut into segments at cell-sized gaps, runs joined with the spaces a reader
 * sees (`joinRuns`, `spaceKept`, `fontChangeSpace`), small raised or lowered runs written as
 * `<sup>`/`<sub>` and a raised note number marked as a footnote reference (NOTE_MARK, resolved by
 * pdfNotes.ts once the page's footnotes are known). Also the measures every stage reads (`median`,
 * `dominantSize`) and Arabic text that pdf.js gives in presentation forms (`repairArabic`).
 */
import { codeRunsOf } from "./pdfCode";
import type { PdfTextItem, RawLine, Segment } from "./pdfLayoutTypes";

/** NOTE_MARK_START/END: delimit a superscript number in line text until the page's footnotes are known */
export const NOTE_MARK_START = "\u0002";
const NOTE_MARK_END = "\u0003";
export const NOTE_MARK = /\u0002(\S+?)\u0003/g;
/** SUPERSCRIPT_NOTE: what a footnote reference printed as a raised small run looks like (TeX's asterisk operator "∗", U+2217, or star operator "⋆", U+22C6, for the "*" of an author's or a title's note) */
const SUPERSCRIPT_NOTE = /^\s*(\d{1,3}|[*†‡§∗⋆])\s*$/;
/**
 * SCRIPT_TEXT: what a superscript or subscript run holds: a few characters without a space ("2",
 * "−3", "st", "TM", "n+1"); longer small runs off the baseline are labels or cells, not scripts.
 */
const SCRIPT_TEXT = /^\S{1,6}$/u;
/**
 * SCRIPT_BASE: what a script is set directly after: a letter, digit or closing bracket ("m²",
 * "10⁻³", "H₂O", "1st", "f(x)²"); not a slash, so a fraction's raised and lowered digits ("¹⁄₂")
 * stay plain. After a script, a script goes on ("10⁻³" as "−" and "3").
 */
export const SCRIPT_BASE = /(?:[\p{L}\p{N})\]]|<\/su[bp]>)$/u;
/** SUB_DROP_EM: a small run whose baseline is this many of its line's font sizes below the line's is lowered (a subscript) */
const SUB_DROP_EM = 0.1;
/** SUP_RISE_EM: a small run whose baseline is this many of its line's font sizes above the line's is raised */
const SUP_RISE_EM = 0.15;

/** SEGMENT_GAP_EM: a horizontal gap wider than this many font sizes separates cells (or columns). */
const SEGMENT_GAP_EM = 0.9;
/**
 * TIGHT_GAP_EM: a gap wider than this between two runs with no space between them in the content
 * stream separates cells: table cells with little padding sit closer than SEGMENT_GAP_EM, and
 * words of prose in separate runs have a space at their boundary.
 */
const TIGHT_GAP_EM = 0.5;
/** WORD_GAP_EM: a gap wider than this between two runs is a space. */
const WORD_GAP_EM = 0.12;
/**
 * OVERLAP_EM: a run that starts more than this far back inside the one before is no continuation of
 * its word (kerning moves back a fraction of an em): two visual lines drawn into one ("Medicare Tax"
 * over "on Unreported Tip Income" beside a large form number) are spaced, not run together.
 */
const OVERLAP_EM = 1;
/** BULLET: a list marker alone; when it is its own segment it is glued to the text after it. */
const BULLET_ONLY = /^(?:[•◦▪▫‣●○■□➢►▸–—*·-]|\(?\d{1,3}[.)]|\(?[a-zA-Z][.)])$/;

/**
 * SYMBOL_BULLET: one private-use character, which is how symbol fonts (OpenSymbol, Wingdings, Symbol)
 * draw bullets, or a control character or U+FFFD alone before the text, which is what a symbol font
 * without a Unicode map gives for its bullet (not U+0002/U+0003, which mark notes here)
 */
export const SYMBOL_BULLET = /^[\u{E000}-\u{F8FF}\u{1}\u{4}-\u{8}\u{E}-\u{1F}\u{FFFD}](?=\s|$)/u;

/** GLUED_NUMBER: numbering printed without a space before its text ("1.2.Features", "1.A numbered list", "1.FIXME Should"), which gets one */
const GLUED_NUMBER = /^((?:\d{1,3}\.)+)(?=\p{Lu}\s?\p{Ll}|\p{Lu}{2,}\s)/u;
/** GLUED_BULLET: a bullet printed without a space before its text ("•A list", "–Another list": a list style with no indent), which gets one */
const GLUED_BULLET = /^([•◦▪▫‣●○■□➢►▸–])(?=\p{Lu}\p{L}*\s)/u;

export const ARABIC = /[\u0600-\u06ff\ufb50-\ufdff\ufe70-\ufefe]/;

/**
 * repairArabic puts Arabic text as a reader types it: presentation forms (the shaped letters and
 * ligatures some PDFs map their glyphs to, and pdf.js leaves some of) become the letters (NFKC),
 * and what reading a lam-alef ligature in visual order does is undone: the ligature's glyph maps
 * to two letters, which the right-to-left reordering swaps ("اإلنتاجية" for "الإنتاجية"). An alef
 * never follows an alef in Arabic spelling, so "ا" + alef + "ل" is the article before a word that
 * starts with an alef, with its lam-alef ligature read backwards.
 */
export function repairArabic(text: string): string {
  return text.replace(/[\ufb50-\ufdff\ufe70-\ufefe]+/g, (forms) => forms.normalize("NFKC")).replace(/ا([اأإآ])ل/g, "ال$1").replace(TATWEEL, "");
}

/**
 * TATWEEL: the kashida (U+0640) between two Arabic letters, which stretches a word to justify its line
 * ("الــبــاب", "أحكـــام" in a gazette's heads): a glyph of the typesetting, not a letter; a reader
 * types "الباب", "أحكام". (Next to a character that is no Arabic letter it is kept: a sign of its own.)
 */
export const TATWEEL = /(?<=[\u0620-\u063f\u0641-\u064a][\u064b-\u0652]*)\u0640+(?=[\u0620-\u063f\u0641-\u064a])/g;

/** buildLines groups items sharing a baseline into lines, top to bottom, each split into segments. */
export function buildLines(items: PdfTextItem[]): RawLine[] {
  const sorted = [...items].sort((a, b) => a.y - b.y || a.x - b.x);
  const groups: PdfTextItem[][] = [];
  let current: PdfTextItem[] = [];
  let baseline = -Infinity;
  let lineSize = 0;
  for (const item of sorted) {
    if (current.length && Math.abs(item.y - baseline) <= 0.4 * Math.max(lineSize, item.size)) {
      current.push(item);
      // the line's baseline is its main text's, not that of a raised run sorted before it
      if (item.size >= 1.25 * lineSize) baseline = item.y;
      lineSize = Math.max(lineSize, item.size);
      continue;
    }
    // Raised small runs (superscripts: "m2", "10-3", a note number) sorted before their line, their
    // baseline higher than the line's tolerance: they belong to the line whose upper part they sit in.
    if (current.length && item.y > baseline && item.y - baseline <= 0.6 * item.size && current.every((run) => isRaisedRun(run, item))) {
      current.push(item);
      baseline = item.y;
      lineSize = item.size;
      continue;
    }
    if (current.length) groups.push(current);
    current = [item];
    baseline = item.y;
    lineSize = item.size;
  }
  if (current.length) groups.push(current);
  placeStrayScripts(groups);
  return groups.map(lineFromItems);
}

/**
 * placeStrayScripts moves a raised small run that the sort by baseline put in another column's line
 * to the line it belongs to. Two columns' lines interleave: the exponent of "(∼ 10−22 eV)" in the left
 * column shares the baseline of the right column's line above it and was grouped with it, away from
 * every run of that line, and then read as a line of its own. Such a run (a script's few characters,
 * under 0.8 of its line's size, three sizes or more from every full-size run of its line) goes to one of the next
 * two lines when it sits raised above that line's baseline (by up to 0.6 of its size) directly after
 * one of its runs (within 0.3 of that run's size; "22" after the "−" moved before it); a lowered one
 * (the "B" of "mB" grouped with the other column's next line) to one of the two lines before, up to
 * half its size below that line's baseline.
 */
function placeStrayScripts(groups: PdfTextItem[][]): void {
  for (let i = 0; i + 1 < groups.length; i++) {
    const group = groups[i]!;
    if (group.length > MAX_STRAY_LINE_RUNS) continue;
    const size = group.reduce((max, item) => Math.max(max, item.size), 0);
    const full = group.filter((item) => item.size >= 0.8 * size);
    const stray = group
      .filter((run) => run.size < 0.8 * size && SCRIPT_TEXT.test(run.str.trim()) && !full.some((item) => near(item, run, STRAY_DISTANCE * size)))
      .sort((a, b) => a.x - b.x);
    for (const run of stray) {
      // raised: one of the next two lines; lowered (a subscript sorted after its line): one of the two before
      for (const offset of [1, 2, -1, -2]) {
        const other = groups[i + offset];
        if (!other) continue;
        const main = other.reduce((max, item) => Math.max(max, item.size), 0);
        const baseline = other.find((item) => item.size === main)!.y;
        const placed = offset > 0 ? baseline - run.y > 0 && baseline - run.y <= 0.6 * main : run.y - baseline > 0 && run.y - baseline <= 0.5 * main;
        if (!placed || !other.some((item) => Math.abs(item.x + item.width - run.x) <= 0.3 * item.size)) continue;
        group.splice(group.indexOf(run), 1);
        other.push(run);
        break;
      }
    }
  }
}

/** MAX_STRAY_LINE_RUNS: the most runs a line may have for its small runs to be looked at (each against all the line's runs) */
const MAX_STRAY_LINE_RUNS = 400;

/** STRAY_DISTANCE: how far, in its line's size, a small run stands from every full-size run of its line to be another column's (a formula's scripts stand nearer their bases) */
const STRAY_DISTANCE = 3;

/** near: two runs within `gap` of each other across the page (overlapping, or the space between them at most `gap`) */
function near(a: PdfTextItem, b: PdfTextItem, gap: number): boolean {
  return a.x - (b.x + b.width) <= gap && b.x - (a.x + a.width) <= gap;
}

/**
 * SPACE_BEFORE_COMMA: a space inside one run between a word and a comma ("amount concentration ,
 * concentration"): no Latin-script typography sets one there (French spaces before ; : ! ? but not
 * before a comma), so it is the producer's or the text layer's, as spaceKept decides between runs.
 * A form's blank before a comma ("ending ____, 20") leaves a gap between runs, not a space in one.
 */
const SPACE_BEFORE_COMMA = /(?<=\p{L}{2}) (?=,(?: |$))/gu;

/** isRaisedRun: a run small beside `item` (under 0.8 of its size) and short (a superscript: a few characters) */
function isRaisedRun(run: PdfTextItem, item: PdfTextItem): boolean {
  return run.size < 0.8 * item.size && run.str.trim().length <= 4;
}

function lineFromItems(items: PdfTextItem[]): RawLine {
  const byX = items.sort((a, b) => a.x - b.x);
  const size = smallCapsSize(byX) ?? dominantSize(byX.map((item) => [Math.round(item.size * 2) / 2, item.str.length]));
  // The baseline of the line's main text, needed only when a smaller run may be raised.
  const baseline = byX.some((item) => item.size < 0.8 * size) ? median(byX.filter((item) => Math.abs(item.size - size) < 0.5).map((item) => item.y)) : 0;
  const rtlChars = byX.reduce((sum, item) => sum + (item.rtl ? item.str.length : 0), 0);
  const rtl = rtlChars * 2 > byX.reduce((sum, item) => sum + item.str.length, 0);
  // Each segment's runs in x order, with whether a space precedes each; joined at the end, from
  // the right in a right-to-left line.
  const runs: Array<Array<{ text: string; space: boolean }>> = [];
  // Each segment's characters in right-to-left runs, and all its characters: a segment reads from
  // the right when most of its own text does (a Hebrew stub cell on a row of figures).
  const segChars: Array<[rtl: number, all: number]> = [];
  const segs: Segment[] = [];
  let seg: Segment | null = null;
  let prevItem: PdfTextItem | undefined;
  for (const [i, item] of byX.entries()) {
    let text = item.str.replace(/\s+/g, " ").replace(SPACE_BEFORE_COMMA, "");
    const script = baseline > 0 && item.size < 0.8 * size ? scriptOfRun(item, prevItem, byX[i + 1], baseline, size) : "";
    // A small raised number is a footnote reference until the page says otherwise (resolveNoteMarks).
    if (script === "sup" && SUPERSCRIPT_NOTE.test(text)) text = `${NOTE_MARK_START}${text.trim()}${NOTE_MARK_END}`;
    if (seg) {
      const gap = item.x - seg.x2;
      const em = Math.max(seg.size, item.size);
      const last = runs[runs.length - 1]!;
      const before = last[last.length - 1]!.text;
      if (gap < 0 && item.x - seg.x < 1 && before.endsWith(text)) continue; // overprinted (fake bold)
      const spaced = item.spaced || /\s$/.test(before);
      if (gap <= (spaced ? SEGMENT_GAP_EM : TIGHT_GAP_EM) * em) {
        const space = gap > WORD_GAP_EM * em || gap < -OVERLAP_EM * em || (item.spaced === true && spaceKept(before, text)) || fontChangeSpace(prevItem!, item, before, text, gap);
        // Other small text off the baseline set directly after a character (or raised after a note mark: "∗+", "1,2" of
        // two affiliations; not a stacked fraction's denominator) is a superscript or subscript (not in a right-to-left
        // line, where the run before in x order is the one after).
        if (script && !rtl && !space && !spaced && !text.startsWith(NOTE_MARK_START) && SCRIPT_TEXT.test(text.trimEnd()) && (SCRIPT_BASE.test(before) || (script === "sup" && before.endsWith(NOTE_MARK_END)))) text = wrapScript(text, script);
        last.push({ text, space });
        countChars(segChars[segChars.length - 1]!, item);
        prevItem = item;
        seg.x2 = Math.max(seg.x2, item.x + item.width);
        seg.size = Math.max(seg.size, item.size);
        if (!item.bold && /\p{L}/u.test(item.str)) seg.plain = true;
        continue;
      }
      segs.push(seg);
    }
    prevItem = item;
    // an OCR run off the line's first run's baseline starts another column's line: the segment keeps its own baseline (pdfReadingOrder's sideOf reads it)
    const own = item.ocr === true && item.y !== byX[0]!.y;
    seg = { text: "", x: item.x, x2: item.x + item.width, size: item.size, ...(!item.bold && /\p{L}/u.test(item.str) ? { plain: true } : {}), ...(own ? { y: item.y } : {}) };
    runs.push([{ text, space: false }]);
    segChars.push(countChars([0, 0], item));
  }
  if (seg) segs.push(seg);
  segs.forEach((s, i) => (s.text = tidyScripts(joinRuns(runs[i]!, segChars[i]![0] * 2 > segChars[i]![1]).trim().replace(SYMBOL_BULLET, "•"))));
  if (segs.length) segs[0]!.text = segs[0]!.text.replace(GLUED_NUMBER, "$1 ").replace(GLUED_BULLET, "$1 ");
  if (segs.length > 1 && BULLET_ONLY.test(segs[0]!.text)) {
    const [marker, next] = segs.splice(0, 2) as [Segment, Segment];
    segs.unshift({ text: `${marker.text} ${next.text}`, x: marker.x, x2: next.x2, size: next.size, ...(marker.plain || next.plain ? { plain: true } : {}) });
  }
  const bold = byX.some((item) => item.bold) && byX.every((item) => item.bold || !/\p{L}/u.test(item.str));
  const code = rtl ? null : codeRunsOf(byX);
  const unsure = byX.some((item) => item.unsure);
  return { y: byX[0]!.y, size, segs, rtl, ...(bold ? { bold } : {}), ...(code ? { code } : {}), ...(unsure ? { unsure } : {}) };
}

/**
 * glueLeadingBullet: segments whose first is a list marker alone, its item's text the next segment
 * (set a cell's gap after it, as a Google Docs list sets "●"), with the marker glued to that text, as
 * lineFromItems glues a line's; used on the part of a line on one side of a column's gutter, whose
 * marker was no line's first segment before the line was split.
 */
export function glueLeadingBullet(segs: Segment[]): Segment[] {
  if (segs.length < 2 || !BULLET_ONLY.test(segs[0]!.text)) return segs;
  const [marker, next] = segs as [Segment, Segment];
  return [{ text: `${marker.text} ${next.text}`, x: marker.x, x2: next.x2, size: next.size, ...(marker.plain || next.plain ? { plain: true } : {}) }, ...segs.slice(2)];
}

/** countChars adds a run's characters to a segment's count: [in right-to-left runs, all] */
function countChars(count: [number, number], item: PdfTextItem): [number, number] {
  if (item.rtl) count[0] += item.str.length;
  count[1] += item.str.length;
  return count;
}

/**
 * scriptOfRun: scriptOf for a small run, measured from the run it is set directly against (the run
 * before it, in about the line's size, no script itself, ending within 0.3 of its size of the small run's start) when there is
 * one, else from the line's baseline: a line grouped across two columns whose baselines differ by a
 * few points takes the baseline of the column with more runs, and a note mark raised 3.6 pt after
 * "benchmarks." in the other column sat on that baseline and was read as a plain "1". With no run
 * against it before, the run after it (starting within 0.3 of its size of the small run's end) is
 * the one: a footnote's raised label set before the note's text at the foot of the right column
 * ("⁴Exceptions include ...") grouped with the left column's last line.
 */
function scriptOfRun(item: PdfTextItem, before: PdfTextItem | undefined, after: PdfTextItem | undefined, baseline: number, size: number): "sup" | "sub" | "" {
  const against = (run: PdfTextItem | undefined, gap: (run: PdfTextItem) => number) => run && run.size >= 0.8 * size && item.size < 0.8 * run.size && Math.abs(gap(run)) <= 0.3 * run.size;
  const offBaseline = (run: PdfTextItem) => Math.abs(run.y - baseline) > SUB_DROP_EM * size;
  if (against(before, (run) => item.x - (run.x + run.width))) return offBaseline(before!) ? scriptOf(item, before!.y, before!.size) : scriptOf(item, baseline, size);
  if (against(after, (run) => run.x - (item.x + item.width)) && offBaseline(after!)) return scriptOf(item, after!.y, after!.size);
  return scriptOf(item, baseline, size);
}

/** scriptOf: whether a small run is raised ("sup") or lowered ("sub") off the line's baseline, or "" (on it) */
function scriptOf(item: PdfTextItem, baseline: number, size: number): "sup" | "sub" | "" {
  if (item.y < baseline - SUP_RISE_EM * size) return "sup";
  if (item.y > baseline + SUB_DROP_EM * size) return "sub";
  return "";
}

/** ADJACENT_SCRIPTS: the seam between two scripts of one kind in a row (pdf.js gives "−" and "3" of "10⁻³" as two runs) */
const ADJACENT_SCRIPTS = /<\/(su[bp])><\1>/g;
/** FRACTION_NUMERATOR: a raised run before a slash and a digit is a fraction's numerator ("3¹/₄"), not a superscript ("m³/kg" is) */
const FRACTION_NUMERATOR = /<sup>([^<]*)<\/sup>(?=[/⁄](?:<sub>)?\p{N})/gu;

/** wrapScript puts `<sup>`/`<sub>` around a run's text, with a slash it ends in ("³/" of "m³/kg") and a trailing space outside. */
function wrapScript(text: string, script: "sup" | "sub"): string {
  const [, inner, after] = /^(.+?)([/⁄]?\s*)$/su.exec(text)!;
  return `<${script}>${inner}</${script}>${after}`;
}

/** tidyScripts joins scripts of one kind in a row into one and leaves fractions' numerators plain. */
export function tidyScripts(text: string): string {
  return text.includes("</su") ? text.replace(ADJACENT_SCRIPTS, "").replace(FRACTION_NUMERATOR, "$1") : text;
}

/**
 * spaceKept: the text layer's space between two runs set close together stands, unless it would
 * stand before a closing mark ("www.irs.gov/form4137" "." is a link and its full stop) or after an
 * opening one. pdf.js keeps a space as a run of its own (or the next run's first character), and
 * forms edited after typesetting place the next run a fraction of a point after the space's tiny
 * advance: "See the" " " "Distance Test" sits 0.06 em apart, under WORD_GAP_EM.
 */
function spaceKept(before: string, text: string): boolean {
  return !CLOSING_START.test(text) && !OPENING_END.test(before);
}
const CLOSING_START = /^[.,;:!?)\]}%’”]/u;
const OPENING_END = /[(\[{/‘“]$/u;

/**
 * fontChangeSpace: two runs of one size in different fonts, a word on each side, with no space
 * between them in the text layer, are two words when the second starts off the first's end: it
 * overlaps it or leaves a gap, by FONT_CHANGE_GAP_EM or more. A font change inside a word (a bold
 * stem, a Greek letter from a symbol font before a unit) is set at the first's advance to a
 * hundredth of an em; forms whose bold words were placed by hand after typesetting (the IRS's "Enter
 * the" "smaller", in a face pdf.js measures wider or narrower than the form's author did) are off it
 * by 0.03 to 0.9 em. Runs of one font set in pieces (kerned "T" "able", ligatures) never count here,
 * nor a drop cap (larger than its line).
 */
function fontChangeSpace(prev: PdfTextItem, item: PdfTextItem, before: string, text: string, gap: number): boolean {
  if (prev.font === undefined || item.font === undefined || prev.font === item.font) return false;
  // a capital and the small capitals of its word, kerned together ("Y" "our" in a small-caps face: "Your")
  if (/(?:^|\s)\p{Lu}$/u.test(before) && /^\p{Ll}/u.test(text) && gap <= WORD_GAP_EM * Math.max(prev.size, item.size)) return false;
  if (Math.abs(prev.size - item.size) > 0.1 * Math.max(prev.size, item.size)) return false;
  return Math.abs(gap) >= FONT_CHANGE_GAP_EM * Math.max(prev.size, item.size) && WORD_END.test(before) && WORD_START.test(text) && !(/\p{N}$/u.test(before) && /^\p{N}/u.test(text));
}
/**
 * WORD_END, WORD_START: a word's last character (a letter, digit or the punctuation after it:
 * "interest." "Do not") and a word's first; digits on both sides stay one number (a form's year
 * "20" "13" in two faces)
 */
const WORD_END = /[\p{L}\p{N}.,;:!?)]$/u;
const WORD_START = /^[\p{L}\p{N}]/u;
/**
 * smallCapsSize: the size of a line set in capitals and small capitals ("1 INTRODUCTION": "I" in
 * 9 pt, "NTRODUCTION" in 7.2), which is its capitals' (a section title set so reads as one in its
 * capitals' size, not as small print): no lowercase letter, each run in the capitals' size holds
 * one letter at most, each run of small capitals (0.65 to 0.9 of that size) follows one directly
 * (within a word's gap), and no run starts over two capitals' sizes after the one before. Otherwise null.
 */
function smallCapsSize(items: PdfTextItem[]): number | null {
  const lettered = items.filter((item) => /\p{L}/u.test(item.str));
  if (lettered.length < 2 || lettered.some((item) => /\p{Ll}/u.test(item.str))) return null;
  const caps = Math.max(...lettered.map((item) => item.size));
  let small = 0;
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    // one title: a chart's label far along the line is no part of it
    if (i > 0 && item.x - (items[i - 1]!.x + items[i - 1]!.width) > 2 * caps) return null;
    const letters = item.str.replace(/[^\p{L}]/gu, "").length;
    if (item.size >= 0.9 * caps) {
      if (letters > 1) return null;
      continue;
    }
    if (!letters) continue;
    const prev = items[i - 1];
    if (item.size < 0.65 * caps || !prev || prev.size < 0.9 * caps || item.x - (prev.x + prev.width) > WORD_GAP_EM * caps) return null;
    small++;
  }
  return small ? caps : null;
}

/** FONT_CHANGE_GAP_EM: how far (in font sizes) a run in another font starts off the previous run's end to be a new word (see fontChangeSpace). */
const FONT_CHANGE_GAP_EM = 0.02;

/** BRACKETS_ONLY, MIRRORED: a run of brackets alone, and each bracket's mirror image */
const BRACKETS_ONLY = /^[()[\]{}\s]+$/;
const MIRRORED: Record<string, string> = { "(": ")", ")": "(", "[": "]", "]": "[", "{": "}", "}": "{" };

/** NEUTRAL_RUN: a run of a bracket and punctuation only, two characters or more (": )"): with no letter to order it by, pdf.js gives it as drawn, left to right */
const NEUTRAL_RUN = /^(?=.*[()[\]{}])(?=(?:\s*[^\s]){2})[()[\]{}:;.,،؛!?\s-]+$/u;

/**
 * joinRuns joins a segment's runs, in x order or, right to left, from the last; a space where the gap
 * was one. Right to left, a run of brackets alone is mirrored: the page draws the bracket that closes
 * "(ללא יהלומים)" at its left end as "(", and pdf.js, seeing no letter in the run, leaves it as drawn;
 * a run of a bracket and other punctuation (NEUTRAL_RUN) is read from its right end (": )" after
 * "مادة ( 1" is ") :").
 */
function joinRuns(runs: Array<{ text: string; space: boolean }>, rtl: boolean): string {
  let text = "";
  const order = rtl ? [...runs.keys()].reverse() : [...runs.keys()];
  for (let k = 0; k < order.length; k++) {
    const i = order[k]!;
    if (k > 0) {
      const spaced = rtl ? runs[order[k - 1]!]!.space : runs[i]!.space;
      if (spaced && !text.endsWith(" ") && !runs[i]!.text.startsWith(" ")) text += " ";
    }
    const run = runs[i]!.text;
    text += rtl && BRACKETS_ONLY.test(run) ? run.replace(/[()[\]{}]/g, (c) => MIRRORED[c]!) : rtl && NEUTRAL_RUN.test(run) ? [...run].reverse().join("") : run;
  }
  // a kashida set as runs of its own between a word's pieces ("تســ" "ـــ" "ـرى") goes as one inside a run does (repairArabic)
  return text.includes("\u0640") ? text.replace(TATWEEL, "") : text;
}

/** dominantSize is the font size that carries most characters, from [size, characters] pairs (the first such size on a tie; 0 when there are none). */
export function dominantSize(sized: Array<[size: number, chars: number]>): number {
  const weight = new Map<number, number>();
  for (const [size, chars] of sized) weight.set(size, (weight.get(size) ?? 0) + chars);
  let best = 0;
  let bestWeight = -1;
  for (const [size, w] of weight) if (w > bestWeight) [best, bestWeight] = [size, w];
  return best;
}

export function median(values: number[]): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** SCRIPT_TAG: a `<sup>`/`<sub>` tag that lineFromItems or resolveNoteMarks wrote */
export const SCRIPT_TAG = /<\/?su[bp]>/g;

/**
 * LETTER_UNIT: one character of a letter-spaced word as the text layer gives it, a run of its own: a
 * letter or digit, alone or with the bracket or stop set against it ("(2", "6)", "S."), or a stop alone
 */
const LETTER_UNIT = /^(?:[(\[]?[\p{L}\p{N}][)\].,:;]?|[.,:;/&–-])$/u;
/** LETTER_SPACED_MIN: how many runs of one character a letter-spaced stretch holds at least ("a b s t r a c t", "T I T L E"; not "a b" of a list) */
const LETTER_SPACED_MIN = 4;
/** LETTER_GAP_MIN_EM, LETTER_GAP_MAX_EM: the tracking between a letter-spaced word's letters, in its size: wider than kerning, narrower than a cell's gap */
const LETTER_GAP_MIN_EM = 0.08;
const LETTER_GAP_MAX_EM = 0.9;
/** LETTER_WORD_EXTRA_EM: how much wider than the letters' tracking a gap is, in the size, to be a word's space ("brazilian journal": 0.14 em between letters, 0.56 em between words) */
const LETTER_WORD_EXTRA_EM = 0.15;

/**
 * joinLetterSpaced: a word set letter-spaced ("a r t i c l e  i n f o", a journal's running head in
 * spaced small capitals) comes from the text layer one letter a run, a space run between each: read
 * as it is, each letter is a word. A stretch of LETTER_SPACED_MIN runs of one character or more, in
 * content order, on one baseline, in one font and size, each set after the one before with a gap of
 * LETTER_GAP_MIN_EM to LETTER_GAP_MAX_EM, is one run: its letters joined, a space only where the gap
 * is wider than the stretch's usual gap (its median: most gaps are inside words) by
 * LETTER_WORD_EXTRA_EM and by half of it. Runs of a glyph each set at their advance (gaps under
 * LETTER_GAP_MIN_EM) are no letter-spacing and are left as they are; so are lone letters spaced as
 * words between longer ones. Returns the items with each stretch in one run (its first run's place).
 */
export function joinLetterSpaced(items: PdfTextItem[]): PdfTextItem[] {
  const out: PdfTextItem[] = [];
  let i = 0;
  while (i < items.length) {
    let j = i + 1;
    if (LETTER_UNIT.test(items[i]!.str.trim())) {
      while (j < items.length && letterFollows(items[j - 1]!, items[j]!, items[i]!)) j++;
    }
    if (j === i + 1 && SPACED_CHARS.test(items[i]!.str.trim())) {
      while (j < items.length && SPACED_CHARS.test(items[j]!.str.trim()) && letterFollows(items[j - 1]!, items[j]!, items[i]!, true)) j++;
    }
    const run = items.slice(i, j);
    const joined = run.length >= LETTER_SPACED_MIN && run.filter((item) => /\p{L}/u.test(item.str)).length >= LETTER_SPACED_MIN - 1 ? letterSpacedRun(run) : spacedAddress(run);
    if (joined) out.push(joined);
    else out.push(...run);
    i = j;
  }
  return out;
}

/** letterFollows: `item` goes on a letter-spaced stretch after `prev` (the stretch's first run `first` gives its font, size and baseline); `inRun`: the runs hold their spaced letters themselves, so the gap between them may be a kerning's */
function letterFollows(prev: PdfTextItem, item: PdfTextItem, first: PdfTextItem, inRun = false): boolean {
  const size = first.size;
  // (a letter before a comma or a colon ends a word: OCR's "(e," "i," "n," of a list are words, never tracked letters)
  if ((!inRun && (!LETTER_UNIT.test(item.str.trim()) || /[,;:]$/.test(prev.str.trim()))) || item.font !== first.font || Math.abs(item.size - size) > 0.05 * size || Math.abs(item.y - first.y) > 0.1 * size) return false;
  const gap = item.x - (prev.x + prev.width);
  return gap >= (inRun ? -LETTER_GAP_MIN_EM : LETTER_GAP_MIN_EM) * size && gap <= LETTER_GAP_MAX_EM * size;
}

/**
 * SPACED_CHARS: a run whose characters each stand alone between single spaces ("t p : / / w w w .
 * b j m"): pdf.js writes a letter-spaced run's tracking as spaces, and a word's spaces are then lost
 * among them
 */
const SPACED_CHARS = /^\S(?: \S)+$/u;
/** SPACED_ADDRESS: what a letter-spaced run reads as with its spaces taken out when it is an address, which holds no space: a web address or an e-mail address */
const SPACED_ADDRESS = /^(?:(?:https?:\/\/|www\.)[\w.~%/?#=&+:-]+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+)$/u;

/**
 * spacedAddress: runs of letter-spaced characters (SPACED_CHARS) on one baseline, in one font, that
 * read as an address once their spaces are out ("h t" "t p : / / w w w . b j m i c r o b i o l .
 * c o m . b r /" is http://www.bjmicrobiol.com.br/) are one run holding the address; otherwise null
 * (a letter-spaced phrase's word spaces cannot be told from its tracking inside a run).
 */
function spacedAddress(run: PdfTextItem[]): PdfTextItem | null {
  if (!SPACED_CHARS.test(run[0]!.str.trim())) return null;
  const str = run.map((item) => item.str.replace(/\s+/g, "")).join("");
  if (str.length < 8 || !SPACED_ADDRESS.test(str)) return null;
  const last = run[run.length - 1]!;
  return { ...run[0]!, str, width: last.x + last.width - run[0]!.x };
}

/** letterSpacedRun: a letter-spaced stretch as one run, spaced where its gaps are words' (see joinLetterSpaced) */
function letterSpacedRun(run: PdfTextItem[]): PdfTextItem {
  const size = run[0]!.size;
  const gaps = run.slice(1).map((item, k) => item.x - (run[k]!.x + run[k]!.width));
  const usual = median(gaps);
  const wordGap = Math.max(usual + LETTER_WORD_EXTRA_EM * size, 1.5 * usual);
  let str = run[0]!.str.trim();
  for (const [k, item] of run.slice(1).entries()) str += (gaps[k]! > wordGap ? " " : "") + item.str.trim();
  const last = run[run.length - 1]!;
  return { ...run[0]!, str, width: last.x + last.width - run[0]!.x };
}
