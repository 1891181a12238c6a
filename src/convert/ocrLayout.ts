/**
 * Structure of scanned pages: the words tesseract found (each with its box) become text items of
 * the PDF layout engine (pdfLayout.ts), so a scanned report, paper or invoice gets the headings,
 * tables and paragraphs its born-digital twin gets. Used for page-like scans only (tesseract's
 * `auto` segmentation); receipts read as one column keep tesseract's text as it is.
 *
 *   words -> lines (tesseract's own line ids) -> font size of each line from its words' heights,
 *   measured against the letters each word has (x-height, ascenders, descenders) -> one item per
 *   word on the line's baseline, in points, bold where the line's strokes are thick (ocrWeight.ts)
 *   -> analyzePage + renderPages -> markdown, kept only when it holds exactly the OCR's words (less
 *   the running heads and page numbers it drops) and shows a heading or a table the flat text does not.
 *
 * A table's rule read into a figure is taken out of it first (withoutRuleMarks), a row's dot leader read
 * as words ("eee", "Arson...") made dots again (withoutLeaders: the words it was read as are no words
 * the layout loses), and a page read with
 * less confidence than sizes can be trusted at is laid out only when it is a page of figures, or its
 * shortfall is a table's figures (tableAround), by its words' places alone but for its surely read
 * titles (MIN_FIGURES_CONFIDENCE, standsOut). A page read
 * in a right-to-left script is laid out by place too, its centred bold lines standing out (RTL_LANGUAGE).
 */
import type { OcrResult, OcrWord } from "../tools/types";
import type { GreyImage } from "./ocrPrep";
import { inkBoxes, isBoldLine, median, strokeRatios } from "./ocrWeight";
import { analyzePage, renderPages, RTL_LETTER } from "./pdfLayout";
import type { PageLayout, PdfTextItem } from "./pdfLayoutTypes";
import { ocrLineWraps } from "./pdfParagraphs";
import type { Rule } from "./pdfRules";

/**
 * Heights of a word's box in font sizes (em), by the letters it has: lower-case letters without
 * ascenders are an x-height tall, capitals, digits and ascenders reach the cap height, descenders add
 * their depth. Typical of text faces (Helvetica x 0.52 / cap 0.72 / descender 0.21; Times 0.45 / 0.66 / 0.22).
 * A dot or an accent over a lower-case letter ("regimens", "été") reaches nearly the cap height: in
 * tesseract's boxes of five scanned papers and manuals (Times, Helvetica-like and typst's faces, 300
 * dpi) such words are 0.93-0.97 of an ascending word's height against 0.63-0.67 for x-height words.
 */
const X_HEIGHT_EM = 0.5;
const MARKED_EM = 0.67;
const ASCENDER_EM = 0.71;
const DESCENDER_EM = 0.21;
const ASCENDING = /[\p{Lu}\p{N}bdfhklt!?%&@#$()[\]{}/\\|'"]/u;
const DESCENDING = /[gjpqyýÿ(),;[\]{}|]/u;
const X_LETTERS = /[acemnorsuvwxz]/;
/** MARKED: lower-case letters with a dot or an accent above their x-height */
const MARKED = /[ij\u00e0-\u00e5\u00e8-\u00ef\u00f1-\u00f6\u00f9-\u00fd\u00ff]/u;

/**
 * RTL_EMS: the height of a right-to-left script's word's box in font sizes: tesseract's Arabic model
 * boxes many words of a line with the line's whole height, ascenders to descenders (the Egyptian
 * gazette's body, 15 pt or 31 px at 150 dpi: its words' boxes 11-51 px, median 34-39 px). Only a
 * page's body size comes of it: such a page is laid out in one size (RTL_LANGUAGE).
 */
const RTL_EMS = 1.2;

/** wordEms: the height of the word's box in font sizes, from its letters; 0 when they say nothing (punctuation alone) */
function wordEms(text: string): number {
  if (RTL_LETTER.test(text)) return RTL_EMS;
  const ascends = ASCENDING.test(text);
  if (!ascends && !X_LETTERS.test(text) && !/\p{L}/u.test(text)) return 0;
  const top = ascends ? ASCENDER_EM : MARKED.test(text) ? MARKED_EM : X_HEIGHT_EM;
  return top + (DESCENDING.test(text) ? DESCENDER_EM : 0);
}

/**
 * HEAD_NOTE_MARK: a footnote's raised number or sign at the end of a bold head, as tesseract reads
 * it: a closing quote with none opened on the line, a degree sign, an asterisk, a dagger or a
 * registered sign after the last letter (NIST HB44's table titles "Units of Area - Survey Measure”",
 * "Units of Length - International Measure®", whose born-digital page sets the footnote's number raised). It is dropped from the head, as a raised number is on a text page.
 */
const HEAD_NOTE_MARK = /(?<=\p{L})[”°*†‡®]$/u;

/** OCR_BULLET: how tesseract writes a round bullet (a word of one mark) */
const OCR_BULLET = /^[*«»°•·●]$/;

/**
 * SHARED_BOX_RATIO: how much larger than a line's least size estimate a word's estimate may be and
 * still be its own box. Letters measured against the wrong face err by a tenth or two (Times' x-height
 * is 0.45 em, counted as 0.5); tesseract sometimes gives several words of a line one box as tall as
 * two lines (MarkItDown's MEDRPT scan: "once" 28 px where "2." of the same size is 8 px), which sizes
 * them two to five times over, and a numbered item of such words came out as a heading.
 */
const SHARED_BOX_RATIO = 1.5;

/**
 * ownBoxes: the words of a line (those with a letter or a digit) whose box is their own (see
 * SHARED_BOX_RATIO): those sized within SHARED_BOX_RATIO of the line's least estimate. A shared box
 * is always too tall, never too short, so the least estimate is the one to trust. `bodyPx`: the
 * page's body size in pixels.
 */
function ownBoxes(line: OcrWord[], bodyPx: number): OcrWord[] {
  const sized = line.filter(isSized);
  // A speck read as a letter, or a piece of a word read as a word ("presents" as "p' its"), has a box
  // smaller than any text's: the least is taken over words read with some confidence and sized at
  // least the page's body size / SHARED_BOX_RATIO; none such (a line in small print): all its words.
  const candidates = sized.filter((word) => word.confidence >= 0.5 && sizeEstimate(word) >= bodyPx / SHARED_BOX_RATIO);
  if (!candidates.length) return sized;
  const least = Math.min(...candidates.map(sizeEstimate));
  return sized.filter((word) => sizeEstimate(word) >= least && sizeEstimate(word) <= least * SHARED_BOX_RATIO);
}

/** isSized: a word whose letters or digits say how tall its box is */
const isSized = (word: OcrWord) => /[\p{L}\p{N}]/u.test(word.text) && word.height > 0;

/** sizeEstimate: the font size a word's box says, in pixels (its height over the ems its letters span) */
const sizeEstimate = (word: OcrWord) => word.height / wordEms(word.text);

/**
 * UPRIGHT_MARK_SIZES: how many body sizes tall a word's box is, at least, for a lone word read
 * unsurely to be a mark rather than text: a vertical rule, a stamp's edge or a bar code read as a
 * word ("I611-d" in a box 37 x 156 px beside a Senate report's 17 px text), or a figure's drawing
 * read as one ("any" in a box 600 x 217 px at 0.34 over the right column of an ACM paper's 38 px
 * text). Sized by its box, it made a line as tall as ten of a table's rows, or of the column's
 * lines, and every line within its reach was taken into one line with it (the paper's column
 * lost its page to the flat text: "composed of adata [4]. large There It ...").
 */
const UPRIGHT_MARK_SIZES = 3;

/** isUprightMark: a tesseract line of one word read under UNSURE_LINE whose box is UPRIGHT_MARK_SIZES body sizes tall, whatever its width (a rule, a figure's drawing): set in the body's size */
function isUprightMark(line: OcrWord[], bodyPx: number): boolean {
  const word = line[0]!;
  return (line.length === 1 && bodyPx > 0 && word.confidence < UNSURE_LINE && word.height > UPRIGHT_MARK_SIZES * bodyPx) || sideways(line);
}

/**
 * SIDEWAYS_RATIO: how many times taller than wide the box of a word of three letters or digits is,
 * at least, for its letters to run up or down the page rather than across it. A word set across is
 * about as tall as wide at most from three letters on (its narrowest, "ill" or "[1]", 0.85-1 em wide
 * in a box 0.7-1 em tall); set up the page, "Sep" is 62 px tall in a box 32 px wide (1.9) at 150
 * dpi, longer words more.
 */
const SIDEWAYS_RATIO = 1.5;

/**
 * sideways: a line whose words of three letters or digits all have boxes SIDEWAYS_RATIO times taller
 * than wide: set turned a quarter, as arXiv's stamp up a preprint's left margin ("arXiv:2004.04906v3
 * [cs.CL] 30 Sep 2020", read by tesseract as words 40 px wide and 66-382 px tall beside 26 px
 * text). Sized by its boxes' heights, it made a line of 30-68 pt that took every line of the
 * column within its reach into one with it ("ofthen"); its size is the body's.
 */
function sideways(line: OcrWord[]): boolean {
  const long = line.filter((word) => /[\p{L}\p{N}]{3}/u.test(word.text));
  return long.length > 0 && long.every((word) => word.height >= SIDEWAYS_RATIO * word.width);
}

/**
 * UNSURE_LINE: the mean word confidence under which a line is no heading (PdfTextItem.unsure). In a
 * scanned paper's figures tesseract reads plot marks and formula pieces as words at 0.0-0.57 ("os
 * 20", "ux", "Fo! > Xyay en"), sized 10-15 pt over a 9 pt body; its section heads read at 0.63-0.97.
 */
const UNSURE_LINE = 0.6;

/** lineConfidence: the mean confidence of a line's words */
const lineConfidence = (line: OcrWord[]) => line.reduce((sum, word) => sum + word.confidence, 0) / line.length;

/**
 * DISPLAYED_FORMULA: a displayed formula with its number at the right, as tesseract reads it ("dy =
 * —ctm'(kag + f). (12)", "a = C : b (1.4)"): an equals sign and a closing number in brackets. Its
 * marks are sized by letters they are not (a fraction's bar, a sum's sign), so its size says
 * nothing: it is no heading, however sure tesseract is of its pieces. So too a line with an equals
 * sign opening a word, an equation or an assignment set apart: a figure's labels ("INTERVAL =
 * quantile interval", "GEOM = pointinterval" in TVCG's diagrams, sized over the body) and a table's
 * footnote of equivalences ("One square survey mile =1.000 004 square international miles", NIST
 * HB44, 17.5 pt over a 9.5 pt body). None of the 826 headings of the bench's references has one.
 */
const DISPLAYED_FORMULA = /^[^=]*=(?=.*\(\d+(?:\.\d+)*\)$)|(?:^|\s)=/u;

/**
 * ocrItems turns the words into layout items in points (`pointsPerPixel`: 72 / the read image's
 * dpi). Every word of a tesseract line gets the line's size (the median of the estimates of the words
 * with their own box, rounded to half a point, as a font's size is) and baseline (the bottom of those
 * words without descenders), so the engine sees one line of one font rather than words off each other's baseline.
 * `strokes`: the words' stroke weights (ocrWeight.ts): a line thick enough is bold. A line read with
 * little confidence (UNSURE_LINE), or a displayed formula (DISPLAYED_FORMULA), is marked unsure:
 * never a heading, nor bold; a bold line's closing footnote mark is dropped (HEAD_NOTE_MARK). `plain`:
 * the boxes' sizes are not trusted (a page read under MIN_LAYOUT_CONFIDENCE): every line gets the page's body
 * size and is unsure, so only the words' places (columns, rows) shape the layout, but for a line read
 * surely that stands out by its size or weight (standsOut: a table's title), which keeps them.
 */
export function ocrItems(words: OcrWord[], pointsPerPixel: number, strokes: Map<OcrWord, number> = new Map(), plain = false, rightToLeft = false): PdfTextItem[] {
  const lines = new Map<string, OcrWord[]>();
  for (const word of words) {
    const line = lines.get(word.line);
    if (line) line.push(word);
    else lines.set(word.line, [word]);
  }
  // the page's body size: the median estimate over its words, most of which have their own box and are body text
  const sized = words.filter(isSized);
  const bodyPx = sized.length ? median(sized.map(sizeEstimate)) : 0;
  const column = rightToLeft ? textColumn(words) : null;
  const items: PdfTextItem[] = [];
  for (const line of lines.values()) {
    const own = ownBoxes(line, bodyPx);
    const sizes = own.map(sizeEstimate);
    const sizePx = sizes.length ? median(sizes) : median(line.map((word) => word.height)) / ASCENDER_EM;
    // on a page laid out by place, a line read surely that stands out by its size or its weight keeps them (a table's title)
    const shown = plain && standsOut(line, sizePx, bodyPx, strokes, rightToLeft) && (!column || centred(line, column));
    const placed = plain && !shown;
    // (a right-to-left line that stands out does so by its weight: its size is the body's, see RTL_LANGUAGE)
    const size = Math.max(1, Math.round((placed || (shown && rightToLeft) || isUprightMark(line, bodyPx) ? bodyPx : sizePx) * pointsPerPixel * 2) / 2);
    const flat = own.filter((word) => !DESCENDING.test(word.text));
    const baselinePx = flat.length ? median(flat.map((word) => word.top + word.height)) : median(line.map((word) => word.top + word.height)) - DESCENDER_EM * sizePx;
    line.sort((a, b) => a.left - b.left);
    // a line tesseract could hardly read (a chart's or a formula's marks read as words) is no heading, whatever its boxes' size or weight
    const unsure = placed || lineConfidence(line) < UNSURE_LINE || DISPLAYED_FORMULA.test(line.map((word) => word.text).join(" "));
    const bold = !unsure && isBoldLine(line, strokes);
    const marked = bold && !line.some((word) => word.text.includes("“")) ? line.length - 1 : -1;
    line.forEach((word, i) => {
      // tesseract reads a round bullet as "*", "«", "°" or "»" (not "o": a word in Portuguese and Italian): one such mark before a line's words is the bullet
      const text = i === 0 && line.length > 1 && OCR_BULLET.test(word.text) ? "•" : i === marked ? word.text.replace(HEAD_NOTE_MARK, "") : rangeDash(word.text);
      // a word in a right-to-left script is given in logical order (tesseract's Arabic and Hebrew models write it so): its line reads from the right, as pdf.js's right-to-left runs do
      const rtl = rightToLeft && RTL_LETTER.test(word.text);
      items.push({ str: i === 0 ? text : ` ${text}`, x: word.left * pointsPerPixel, y: baselinePx * pointsPerPixel, width: word.width * pointsPerPixel, size, ...(bold ? { bold: true } : {}), ...(unsure ? { unsure: true } : {}), ...(rtl ? { rtl: true } : {}), ocr: true });
    });
  }
  return items;
}

/**
 * FIGURE_RANGE: a range of two decimal figures, bracketed or not ("(160.1-163.1)", "2.5-3.0"): a
 * statistical table's confidence interval, which is printed with an en dash and which tesseract reads
 * with a hyphen (CDC MMWR's rates, "(102.7–103.6)", read "(102.7-103.6)" in every cell). No
 * reference of the benches has a hyphen between two decimal figures.
 */
const FIGURE_RANGE = /^(\(?)(\d{1,7}\.\d{1,4})-(\d{1,7}\.\d{1,4})(\)?[,;]?)$/;

/** rangeDash: a word that is a range of two decimal figures (FIGURE_RANGE, the second no smaller than the first, its brackets paired) with its hyphen made the en dash it was printed with */
export function rangeDash(text: string): string {
  const match = FIGURE_RANGE.exec(text);
  if (!match) return text;
  const [, open, low, high, close] = match as unknown as [string, string, string, string, string];
  if (Number(high) < Number(low) || (open === "(") !== close.startsWith(")")) return text;
  return `${open}${low}\u2013${high}${close}`;
}

/**
 * textColumn: the left and right edges of a page's text (5th and 95th percentiles of its words' edges,
 * over words read with some confidence, as textSpan measures); null without such words.
 */
function textColumn(words: OcrWord[]): { left: number; right: number } | null {
  const read = words.filter((word) => word.confidence > 0.6 && /[\p{L}\p{N}]{2}/u.test(word.text));
  if (!read.length) return null;
  const at = (values: number[], share: number) => values.sort((a, b) => a - b)[Math.floor(share * (values.length - 1))]!;
  return { left: at(read.map((word) => word.left), 0.05), right: at(read.map((word) => word.left + word.width), 0.95) };
}

/** CENTRED_WITHIN: how far (a share of the column's width) a centred line's middle may be from the column's */
const CENTRED_WITHIN = 0.05;

/**
 * centred: a line set in the middle of the text column, clear of both its edges (the middle within
 * CENTRED_WITHIN of the column's, and a fifth of the column free). On a right-to-left page laid out
 * by place a bold line at the body's size stands out only so (RTL_LANGUAGE): the Egyptian gazette's
 * article heads and titles are centred, while its bold enacting words ("باسم الشعب" over "رئيس
 * الجمهورية") start at the column's right edge as a paragraph does, and are no heading.
 */
function centred(line: OcrWord[], column: { left: number; right: number }): boolean {
  const left = Math.min(...line.map((word) => word.left));
  const right = Math.max(...line.map((word) => word.left + word.width));
  const width = column.right - column.left;
  return width > 0 && Math.abs((left + right) / 2 - (column.left + column.right) / 2) <= CENTRED_WITHIN * width && right - left <= 0.8 * width;
}

/** STANDS_OUT: how much larger than the page's body a line's size is to stand out on a page laid out by place (standsOut) */
const STANDS_OUT = 1.2;

/** readWords: the words of a line with two letters or digits (a dash or a mark read at 0 says nothing of how surely its words were read) */
const readWords = (line: OcrWord[]) => line.filter((word) => /[\p{L}\p{N}]{2}/u.test(word.text));

/**
 * standsOut: on a page laid out by its words' places (ocrItems' `plain`), a line whose words
 * tesseract read as surely as a clean page's (MIN_LAYOUT_CONFIDENCE over its words of two letters
 * or more, no figure among them) and that is STANDS_OUT times the body's size or bold: a table's
 * title over a page of figures (a statistical abstract's "Table 324. Arrests by Sex and Age: 2009"
 * in bold at 8.5 pt over 6.4 pt figures, read at 0.97 on a page read at 0.86), of two words or more
 * (a word alone over the figures is a running head or a label as often: CDC MMWR's "Supplement" at
 * 10 pt over 7.9). It keeps its size and weight; every other line is set in the body's size, unsure.
 * A right-to-left line needs only MIN_FIGURES_CONFIDENCE, the confidence such a page is laid out
 * from (RTL_LANGUAGE: its model reads a clean page less surely than English's), being bold and
 * centred besides: the gazette's centred bold article heads read 0.69-0.93, most 0.86-0.93
 * ("(المادة الثالثة)" 0.86), its body lines 0.82-0.93; lower, a part's head read unsurely ("(الباب
 * الأول (" 0.73) stood out over its chapter's head under it, and the two were taken as one head.
 */
function standsOut(line: OcrWord[], sizePx: number, bodyPx: number, strokes: Map<OcrWord, number>, rightToLeft = false): boolean {
  const read = readWords(line);
  if (read.length < 2 || read.some((word) => FIGURE.test(word.text)) || lineConfidence(read) < (rightToLeft ? MIN_FIGURES_CONFIDENCE : MIN_LAYOUT_CONFIDENCE)) return false;
  // a right-to-left page's boxes say no size (see RTL_LANGUAGE): only its weight stands out
  return (!rightToLeft && sizePx >= STANDS_OUT * bodyPx) || isBoldLine(line, strokes);
}

/**
 * RTL_LANGUAGE: the language data of a right-to-left script (tesseract's Arabic and Hebrew models;
 * OcrResult.language). Its words' boxes say nothing of the text's size: the letters are not Latin's
 * x-height, ascender and descender classes (wordEms), and tesseract's Arabic model gives most words of a
 * line the line's whole height (the Egyptian gazette at 150 dpi: body words 18-46 px on one line, its
 * bold article heads 40-43 px), and its letters' strokes are measured in pixels, not against a size
 * (ocrWeight.ts; the gazette's bold heads 1.7-1.9 times the page's usual stroke, its body lines' words
 * mostly 0.6-1.3). Such a page is laid out by its words' places (ocrItems' `plain`), its lines reading
 * from the right, and a line read surely, bold and centred stands out (standsOut, centred). The
 * confidence its model gives a clean page is lower than English's (a page of DejaVu Sans drawn at 150
 * dpi reads 0.924-0.926 in Arabic, 0.928-0.930 in Hebrew, 0.963-0.965 in English; the gazette's pages
 * 0.852-0.880), so the page needs MIN_FIGURES_CONFIDENCE, as a page laid out by place does, and it is
 * laid out whatever tesseract's page segmentation (see ocrLaysOut).
 */
const RTL_LANGUAGE = /^(?:ara|heb)\b/;


/** rightToLeft: the reading was made with a right-to-left script's language data (RTL_LANGUAGE) */
export const rightToLeft = (ocr: OcrResult) => RTL_LANGUAGE.test(ocr.language ?? "");

/**
 * ocrLaysOut: whether a reading is one to lay out (ocrLayoutPage): a page tesseract segmented itself
 * (`auto`); a narrow column read as one block (a receipt) keeps tesseract's text, but for a page in a
 * right-to-left script, whose tall joined letters make a page's column measure narrow (ocrPrep.ts
 * planOcr: the gazette's 25 em lines) and which is laid out by place only (RTL_LANGUAGE).
 */
export const ocrLaysOut = (segmentation: "auto" | "block", ocr: OcrResult) => segmentation === "auto" || rightToLeft(ocr);

/**
 * FIGURE_BY_RULE: a figure with a table's vertical rule read into its word: tesseract reads a thin
 * rule touching a figure as a closing bracket or a bar ("255,744]", "7,401,349)", and between two
 * columns "2,218,406]1,180,160": one word across the rule). The figure has a digit group or decimals
 * (so a list's "1)" is none of it).
 */
const FIGURE_BY_RULE = /^([-+]?[$€£]?\d{1,3}(?:[.,]\d+)+%?)([\]}|)])((?:\d{1,3}(?:[.,]\d+)+%?)?)$/u;
const OPENING: Record<string, string> = { "]": "[", "}": "{", ")": "(", "|": "|" };

/**
 * withoutRuleMarks: the words with a table rule read into a figure (FIGURE_BY_RULE) taken out: the
 * mark dropped, and two figures it joined made two words, the first at the box's left and the
 * second ending at its right (the two columns' figures the rule stood between), each as wide as
 * its digits at the page's usual width of a figure's character. A closing mark that closes
 * something opened earlier on the line ("(n = 1,234)") is the text's and stays.
 */
export function withoutRuleMarks(words: OcrWord[]): OcrWord[] {
  const figures = words.filter((word) => word.text.length >= 3 && FIGURE.test(word.text) && word.width > 0);
  const charWidth = figures.length ? median(figures.map((word) => word.width / word.text.length)) : Infinity;
  const opened = new Map<string, string>();
  return words.flatMap((word) => {
    // only the opening marks read so far on the line matter (kept alone: a long line is not copied word by word)
    const seen = opened.get(word.line) ?? "";
    const opening = word.text.replace(/[^[{(|]/g, "");
    if (opening) opened.set(word.line, seen + opening);
    const match = FIGURE_BY_RULE.exec(word.text);
    if (!match || seen.includes(OPENING[match[2]!]!)) return [word];
    const [, first, , second] = match as unknown as [string, string, string, string];
    const perChar = Math.min(charWidth, word.width / word.text.length);
    if (!second) return [{ ...word, text: first, width: Math.min(word.width, first.length * perChar) }];
    const secondWidth = second.length * perChar;
    return [
      { ...word, text: first, width: first.length * perChar },
      { ...word, text: second, left: word.left + word.width - secondWidth, width: secondWidth },
    ];
  });
}

/**
 * LEADER_READ: how tesseract reads a table's dot leader from a row's label to its figures, a word of
 * its own ("eee", "wesc.", "ow", "Levee", "cece", "..") or dots before a misread figure
 * ("............22.005"): the letters a row of dots is read as, with dots and marks, or four dots or
 * more first, or dots after a digit ("2...").
 */
const LEADER_READ = /^[-.,:;'‘’`_=~–—]*(?:[ecosvwaL]+[-.,:;'‘’`_=~–—]*)?$|^(?:\.\s?){4}|^\d?\.{2,}$/u;
/** UNREAD: a confidence under which a word is not read at all (a leader's dots read as "20.202" or "0e" at 0.00); such a word of leader letters, dots and digits in a leader's place is part of it */
const UNREAD = 0.1;
const UNREAD_LEADER = /^[\d.,:;'`ecosvwaL-]+$/u;
/** LEADER_CONFIDENCE: a leader is read under this confidence (tesseract is unsure of dots read as letters; the label's words read 0.8 and over) */
const LEADER_CONFIDENCE = 0.6;
/** LEADER_GAP: the least room, in the line's word heights, from a label's last word to the row's first figure for a leader to run in it */
const LEADER_GAP = 2;

/**
 * withoutLeaders: a table row's dot leader read as words (LEADER_READ, read under
 * LEADER_CONFIDENCE, between the row's label and its first figure read surely, in room of
 * LEADER_GAP word heights or more) made a leader of dots, which the table drops as a born-digital
 * row's dots are (pdfTables.ts LEADER_DOTS); the dots the leader left on the label's last word read
 * as unsurely ("Robbery.", "Larceny-theft..") are taken off. `leaders`: the letters-and-digits words
 * the leaders were read as (no word of the page's text).
 */
export function withoutLeaders(words: OcrWord[]): { words: OcrWord[]; leaders: Set<string> } {
  const changed = new Map<OcrWord, OcrWord>();
  const leaders = new Set<string>();
  for (const row of visualRows(words)) {
    if (row.length < 3) continue;
    const label = row.findIndex((word) => /\p{L}{2}/u.test(word.text));
    const figure = row.findIndex((word, i) => i > label && word.confidence >= LEADER_CONFIDENCE && FIGURE.test(word.text));
    if (label < 0 || figure < 0) continue;
    const height = median(row.map((word) => word.height));
    // dots alone, however surely read; a leader's letters read unsurely (a word with a dash is a table's empty cell, "—" or "_—", or a minus, not a leader)
    const isLeader = (word: OcrWord) =>
      /^\.+$/.test(word.text) || (word.confidence < LEADER_CONFIDENCE && word.text.length >= 2 && !/[-–—]/.test(word.text) && (LEADER_READ.test(word.text) || (word.confidence < UNREAD && UNREAD_LEADER.test(word.text))));
    // the label's last word: the last one before the leader's words
    let first = figure;
    while (first - 1 > label && isLeader(row[first - 1]!)) first--;
    const last = row[first - 1]!;
    if (row[figure]!.left - (last.left + last.width) < LEADER_GAP * height) continue;
    for (let i = first; i < figure; i++) {
      const word = row[i]!;
      for (const part of word.text.match(/[\p{L}\p{N}]+/gu) ?? []) leaders.add(part);
      changed.set(word, { ...word, text: "...." });
    }
    // the dots the leader left on the label's last word ("Robbery..."), or one dot or a comma read unsurely before the leader's words ("Burglary," "eee")
    const glued = /\p{L}\.{2,}[-–—]*$/u.test(last.text) || (last.confidence < LEADER_CONFIDENCE && first < figure && /\p{L}[.,]+[-–—]*$/u.test(last.text));
    if (glued) changed.set(last, { ...last, text: last.text.replace(/(?<![.,])[.,]+[-–—]*$/, "") });
  }
  return { words: changed.size ? words.map((word) => changed.get(word) ?? word) : words, leaders };
}

/**
 * visualRows: the words in rows by their boxes' middles (a word joins the row above when its middle
 * is within half a word height of the row's first word's), each row left to right. tesseract may read
 * a table's columns as blocks of their own, so a row's label and figures are on lines of different blocks.
 */
function visualRows(words: OcrWord[]): OcrWord[][] {
  const height = median(words.map((word) => word.height));
  const middle = (word: OcrWord) => word.top + word.height / 2;
  const rows: OcrWord[][] = [];
  for (const word of [...words].sort((a, b) => middle(a) - middle(b))) {
    const row = rows[rows.length - 1];
    if (row && middle(word) - middle(row[0]!) <= height / 2) row.push(word);
    else rows.push([word]);
  }
  return rows.map((row) => row.sort((a, b) => a.left - b.left));
}

/** wordsOf: the set of letters-and-digits words of a text (markdown's escapes and marks drop out) */
function wordsOf(text: string): Set<string> {
  return new Set(text.match(/[\p{L}\p{N}]+/gu) ?? []);
}

/**
 * LINE_END_HYPHEN: a word broken at the end of a line with a hyphen, and the rest of it opening the
 * next line, or the line after a blank one (tesseract ends a paragraph where a table or a figure
 * beside it begins: "first-", a blank line, "professional"). The word's start is a whole word (not
 * one tried at every letter of a long run of them).
 */
const LINE_END_HYPHEN = /(?<![\p{L}\p{N}])([\p{L}\p{N}]+)-[ \t]*\n(?:[ \t]*\n)?[ \t]*([\p{L}\p{N}]+)/gu;

/**
 * wordChanges: the words of `ocrText` that `markdown` lacks, and those it adds. Compared as sets: a
 * table repeats a spanning header in each column it covers. A word tesseract read broken at a line's
 * end ("expec-" over "tations") is the layout's to join, as a born-digital paragraph's is
 * (pdfLayout.ts joinWrapped): the joined word is no word added, and its two parts are not lost
 * where the markdown holds it joined.
 */
export function wordChanges(markdown: string, ocrText: string): { lost: string[]; added: string[] } {
  const have = wordsOf(markdown);
  const want = wordsOf(ocrText);
  const joined = new Set<string>();
  const excused = new Set<string>();
  for (const [, before, after] of ocrText.matchAll(LINE_END_HYPHEN)) {
    const word = before! + after!;
    joined.add(word);
    if (have.has(word)) excused.add(before!).add(after!);
  }
  return {
    lost: [...want].filter((word) => !have.has(word) && !excused.has(word)),
    added: [...have].filter((word) => !want.has(word) && !joined.has(word)),
  };
}

/**
 * joinLineEndHyphens joins, in tesseract's text of a page, the words broken at a line's end with a
 * hyphen the way a reader reads them: the rest of the word moves up to the line the word starts on
 * ("took measure-" over "ments of the" -> "took measurements" over "of the"), lines kept. Only where
 * a line wraps (pdfLayout.ts ocrLineWraps, as formatOcrText reads wrapping) and lower-case letters
 * are on both sides; a hyphen before a capital or a digit ("Jean-" "Paul", "COVID-" "19") is not
 * touched. A real hyphenated
 * compound broken at its own hyphen ("well-" "known") keeps its hyphen when the page prints it
 * whole with the hyphen elsewhere ("well-known" inside a line): the one signal the text gives.
 */
export function joinLineEndHyphens(text: string): string {
  const compounds = new Set((text.match(/[\p{L}]+-[\p{L}]+/gu) ?? []).map((word) => word.toLowerCase()));
  return text
    .split(/(\n[ \t]*\n)/)
    .map((para) => {
      const lines: (string | null)[] = para.split("\n");
      const longest = lines.reduce((most, line) => Math.max(most, line!.trim().length), 0);
      for (let i = 0; i + 1 < lines.length; i++) {
        const line = lines[i]?.trimEnd();
        if (line === undefined) continue;
        const before = /(\p{Ll}+)-$/u.exec(line)?.[1];
        const next = /^([ \t]*)(\p{Ll}+\S*)[ \t]*(.*)$/u.exec(lines[i + 1] ?? "");
        if (!before || !next || !ocrLineWraps(line.trim().length, longest)) continue;
        const after = /^\p{Ll}+/u.exec(next[2]!)![0];
        const keep = compounds.has(`${before}-${after}`.toLowerCase());
        lines[i] = (keep ? line : line.slice(0, -1)) + next[2];
        // a line that was the word's rest alone is gone
        lines[i + 1] = next[3] ? next[1] + next[3] : null;
      }
      return lines.filter((line) => line !== null).join("\n");
    })
    .join("");
}

/**
 * PAGE_SPAN_HEIGHTS: the least width of a page-like text, in word heights (the median height of the
 * words' boxes) from its left edge to its right (5th and 95th percentiles of the words read with
 * confidence). A narrow column of short lines (a receipt, a slip) reads best as tesseract's lines,
 * and the layout's tables and headings there cost the extraction of receipts: the SROIE receipts that
 * tesseract reads with its page segmentation span 17-34, rendered report and invoice pages 54-86.
 */
const PAGE_SPAN_HEIGHTS = 40;

/** textSpan: the width of the words' extent in word heights (see PAGE_SPAN_HEIGHTS); 0 without confident words */
export function textSpan(words: OcrWord[]): number {
  const read = words.filter((word) => word.confidence > 0.6 && /[\p{L}\p{N}]{2}/u.test(word.text));
  if (!read.length) return 0;
  const at = (values: number[], share: number) => values.sort((a, b) => a - b)[Math.floor(share * (values.length - 1))]!;
  const height = at(read.map((word) => word.height), 0.5);
  return height > 0 ? (at(read.map((word) => word.left + word.width), 0.95) - at(read.map((word) => word.left), 0.05)) / height : 0;
}

/**
 * MIN_LAYOUT_CONFIDENCE: the least mean word confidence of a scan whose boxes are laid out. Font
 * sizes are estimated from the boxes, and on a noisy scan (a photocopied invoice at 0.88) they are
 * noisy too: rows of a table come out as headings and labels part from their values, and the
 * extraction took a wrong date at 0.85 from such a page. Clean scans read at 0.9 and above.
 */
const MIN_LAYOUT_CONFIDENCE = 0.9;

/**
 * MIN_FIGURES_CONFIDENCE, FIGURE_WORDS: a page read under MIN_LAYOUT_CONFIDENCE, down to
 * MIN_FIGURES_CONFIDENCE, is laid out when it is a page of figures: at least FIGURE_WORDS of its
 * words are figures (figureShare). Such a page reads under 0.9 for its figures, not for a noisy
 * scan: tesseract reads a table's rule beside a figure as part of it ("255,744]") and spaced digit
 * groups ("0.000 000 386") with less confidence than words. It is laid out by its words' places
 * alone (ocrItems' `plain`: one size, no heading, no bold), and kept only for its tables. In
 * scan-structure's statistical tables read under 0.9 (NCHS 0.82-0.85, NIST HB44 0.86-0.885, CDC
 * MMWR and NTP 0.86-0.87) 0.54-0.77 of the words are figures; on the invoices and forms read under
 * 0.9 (extract-real's intl scans 0.81-0.896, scan-structure's Mustang invoices and booking order)
 * 0.15-0.39: their labels and values are what the extraction reads, and laid out by place the
 * photocopied warehouse invoice (0.881) gave a confident-wrong date (its due date's label and value
 * parted into two paragraphs).
 */
const MIN_FIGURES_CONFIDENCE = 0.8;
const FIGURE_WORDS = 0.5;

/**
 * MIN_UNSURE_LINES, MAX_UNSURE_LINES: a page read under MIN_LAYOUT_CONFIDENCE whose shortfall is in
 * lines tesseract could not read at all (each under UNSURE_LINE: a paper's or a manual's displayed
 * formulas, read as "Ou O12 013" and "V2C2213.- V2C 2212") is laid out with its sizes when those
 * lines are at least MIN_UNSURE_LINES of its lines (and at most MAX_UNSURE_LINES: most of the page
 * is read) and its other lines read at MIN_LAYOUT_CONFIDENCE or better (sureLines): the lines that
 * can be heads or body are read as cleanly as a clean page's, and the unsure ones are no heading
 * nor bold (ocrItems). A noisy scan is noisy throughout: extract-real's invoice scans have 0-0.074
 * of their lines under UNSURE_LINE (the photocopied warehouse invoice 0.074, its other lines at
 * 0.908), scan-structure's Mustang invoices and booking order 0.02-0.03; NEML's theory manual's
 * pages of formulas 0.22-0.35, their other lines at 0.93-0.95.
 */
const MIN_UNSURE_LINES = 0.15;
const MAX_UNSURE_LINES = 0.5;

/** sureLines: the share of the page's lines read under UNSURE_LINE (lineConfidence), and the mean confidence of the other lines' words (0 without such) */
export function sureLines(words: OcrWord[]): { unsureShare: number; confidence: number } {
  const lines = new Map<string, OcrWord[]>();
  for (const word of words) {
    const line = lines.get(word.line);
    if (line) line.push(word);
    else lines.set(word.line, [word]);
  }
  let unsure = 0;
  let sum = 0;
  let count = 0;
  for (const line of lines.values()) {
    if (lineConfidence(line) < UNSURE_LINE) unsure++;
    else {
      sum += line.reduce((acc, word) => acc + word.confidence, 0);
      count += line.length;
    }
  }
  return { unsureShare: lines.size ? unsure / lines.size : 0, confidence: count ? sum / count : 0 };
}

/** readAround: a page under MIN_LAYOUT_CONFIDENCE whose shortfall is its unreadable lines alone (MIN_UNSURE_LINES) */
function readAround(words: OcrWord[]): boolean {
  const { unsureShare, confidence } = sureLines(words);
  return unsureShare >= MIN_UNSURE_LINES && unsureShare <= MAX_UNSURE_LINES && confidence >= MIN_LAYOUT_CONFIDENCE;
}

/** FIGURE: a word that is a figure (digits with their separators, signs, units marks, and a rule read into it) */
const FIGURE = /^(?=.*\d)[\d.,%()$€£+\-–/:*\]}|]+$/u;

/** figureShare: the share of the words with a letter or a digit that are figures (FIGURE); 0 without such words */
export function figureShare(words: OcrWord[]): number {
  const read = words.filter((word) => /[\p{L}\p{N}]/u.test(word.text));
  return read.length ? read.filter((word) => FIGURE.test(word.text)).length / read.length : 0;
}

/**
 * TABLE_ROWS, ROW_FIGURES: a page read under MIN_LAYOUT_CONFIDENCE, down to MIN_FIGURES_CONFIDENCE,
 * whose shortfall is a table's figures (tableAround): TABLE_ROWS rows or more one under the other
 * (visualRows), each with ROW_FIGURES figures or more (FIGURE), and the page's other words read at
 * MIN_LAYOUT_CONFIDENCE or better. A paper's tables of scores read so: olmOCR 2's page of tables at
 * 0.893-0.896, twelve rows of figures one under another read at 0.79-0.82, its other words at
 * 0.936-0.944. An invoice's or an order's item rows are two at most one under the other (their
 * descriptions and totals between them: the Mustang invoices, the booking order, extract-real's
 * intl scans), and its other words read as its figures do (0.85-0.91), so it stays flat: the lesson
 * of the warehouse invoice (see MIN_FIGURES_CONFIDENCE). Laid out as a page of figures is, by its
 * words' places (ocrItems' `plain`).
 */
const TABLE_ROWS = 8;
const ROW_FIGURES = 3;

/**
 * GROUP_BLOCK: a run of rows of figures may hold single rows without a figure (a group's label,
 * "Proteomics  Clustering") between blocks of at least this many rows of figures: a table in groups
 * (discoveryworld's table 4: groups of three rows under a label row). An invoice's or an order's item
 * rows come one or two at a time between their descriptions, so its runs stay short.
 */
const GROUP_BLOCK = 3;

/**
 * MIN_TABLE_CONFIDENCE: a page read under MIN_FIGURES_CONFIDENCE, down to this, is laid out when its
 * shortfall is its table's figures (tableAround): the page's other words read at MIN_LAYOUT_CONFIDENCE
 * or better. A table of shaded cells read again with its ground evened (ocrGround.ts) reads its
 * figures at 0.4-0.9 and the page at 0.79, its caption and prose at 0.96.
 */
const MIN_TABLE_CONFIDENCE = 0.75;

/**
 * tableAround: a page whose shortfall is its table's figures (TABLE_ROWS rows of ROW_FIGURES figures
 * one under another, with single label rows between blocks of GROUP_BLOCK); the page's other words,
 * but for the lines tesseract could not read at all (under UNSURE_LINE: a table's slanted column
 * heads read as marks, no more than MAX_UNSURE_LINES of the other lines), read at MIN_LAYOUT_CONFIDENCE or better.
 */
function tableAround(words: OcrWord[]): boolean {
  const read = words.filter((word) => /[\p{L}\p{N}]/u.test(word.text));
  const table = new Set<OcrWord>();
  let run: OcrWord[][] = [];
  let figureRows = 0;
  let block = 0;
  let label: OcrWord[] | null = null;
  const close = () => {
    if (figureRows >= TABLE_ROWS) for (const row of run) for (const word of row) table.add(word);
    [run, figureRows, block, label] = [[], 0, 0, null];
  };
  for (const row of visualRows(read)) {
    const figures = row.filter((word) => FIGURE.test(word.text)).length;
    if (figures >= ROW_FIGURES) {
      if (label) run.push(label);
      run.push(row);
      [figureRows, block, label] = [figureRows + 1, block + 1, null];
    } else if (!label && !figures && block >= GROUP_BLOCK) [label, block] = [row, 0];
    else close();
  }
  close();
  const lines = new Map<string, OcrWord[]>();
  for (const word of read) {
    if (table.has(word)) continue;
    const line = lines.get(word.line);
    if (line) line.push(word);
    else lines.set(word.line, [word]);
  }
  const sure = [...lines.values()].filter((line) => lineConfidence(line) >= UNSURE_LINE);
  const rest = sure.flat();
  return table.size > 0 && rest.length > 0 && lines.size - sure.length <= MAX_UNSURE_LINES * lines.size && lineConfidence(rest) >= MIN_LAYOUT_CONFIDENCE;
}

/** PAGE_NUMBER_WORD: a word a dropped page number is made of */
const PAGE_NUMBER_WORD = /^(?:\d{1,4}|[ivxlcdm]{1,6}|page|of)$/i;

/** pageLike: a reading in a left-to-right script passes the gates of ocrLayoutPage (confidence, or a page of figures or of formulas under it; a page's width) */
function pageLike(words: OcrWord[], confidence: number): boolean {
  const plain = confidence < MIN_LAYOUT_CONFIDENCE && !readAround(words);
  const table = plain && confidence >= MIN_TABLE_CONFIDENCE && tableAround(words);
  return !(plain && confidence < MIN_FIGURES_CONFIDENCE && !table) && !(plain && figureShare(words) < FIGURE_WORDS && !table) && textSpan(words) >= PAGE_SPAN_HEIGHTS;
}

/** hasStructure: the markdown shows a heading or a table */
const hasStructure = (markdown: string) => /^#{1,6} \S/m.test(markdown) || /^\|.*\|\s*$/m.test(markdown);

/**
 * HEAD_LINE_SIZES: how far apart, as a share of the larger, the measured sizes of two bold lines one
 * under the other may be and still be one head's lines set in one size. A head over two or three
 * lines is measured line by line from its words' boxes, and its lines came out half a point to a
 * point apart (TVCG's "2.2 Uncertainty visualization in the grammar of graphics," 9.5 pt over "as
 * she is spoke" 10 pt; "3 UNCERTAINTY VISUALIZATION AS" 8.5 over "DISTRIBUTIONAL VISUALIZATION" 7.5;
 * the Federal Register's "Explanation of Certain Provisions for" 9.5, "Alternative Methods of
 * Compliance" 10, "(AMOCs)" 9): the layout took each size for a head of its own, or the last
 * line for the body's.
 */
const HEAD_LINE_SIZES = 0.1;
/** HEAD_LINE_PITCH: the most a head's next line is below its line, in the larger size (a head's lines are set solid or a little apart; a head and a paragraph under it further) */
const HEAD_LINE_PITCH = 1.5;

/**
 * evenHeadLines gives a bold line the size of the bold line just above it (baselines HEAD_LINE_PITCH
 * sizes apart at most, their extents overlapping across, both read surely) when their sizes are
 * within HEAD_LINE_SIZES: one head's lines. `items`: ocrItems', a tesseract line's words one after
 * another with one baseline and size. Lines are taken top down, each compared with the lines just
 * above it (those within the pitch), so the work grows with the lines, not their pairs.
 */
export function evenHeadLines(items: PdfTextItem[]): PdfTextItem[] {
  interface Run {
    first: number;
    end: number;
    y: number;
    size: number;
    left: number;
    right: number;
    bold: boolean;
  }
  const runs: Run[] = [];
  items.forEach((item, i) => {
    const run = runs[runs.length - 1];
    if (run && run.end === i && run.y === item.y && run.size === item.size) {
      run.end = i + 1;
      run.left = Math.min(run.left, item.x);
      run.right = Math.max(run.right, item.x + item.width);
      run.bold &&= item.bold === true && !item.unsure;
    } else runs.push({ first: i, end: i + 1, y: item.y, size: item.size, left: item.x, right: item.x + item.width, bold: item.bold === true && !item.unsure });
  });
  const byY = runs.filter((run) => run.bold).sort((a, b) => a.y - b.y);
  const sized = new Map<Run, number>();
  for (let i = 0; i < byY.length; i++) {
    const line = byY[i]!;
    for (let j = i - 1; j >= 0; j--) {
      const above = byY[j]!;
      const size = sized.get(above) ?? above.size;
      const larger = Math.max(size, line.size);
      if (line.y - above.y > HEAD_LINE_PITCH * larger) break;
      if (line.y - above.y < 0.5 * larger || above.right < line.left || line.right < above.left) continue;
      if (size !== line.size && Math.abs(size - line.size) <= HEAD_LINE_SIZES * larger) sized.set(line, size);
      break;
    }
  }
  if (!sized.size) return items;
  const out = [...items];
  for (const [run, size] of sized) for (let i = run.first; i < run.end; i++) out[i] = { ...out[i]!, size };
  return out;
}

/**
 * ocrLayoutMarkdown lays out a page-like scan's words as a born-digital page's text is laid out and
 * returns its markdown; null when the words have no boxes, when they make a narrow column rather than
 * a page (PAGE_SPAN_HEIGHTS), when tesseract read the scan with too little confidence for its boxes
 * to size the text (MIN_LAYOUT_CONFIDENCE; a page of figures down to MIN_FIGURES_CONFIDENCE is laid
 * out without sizes; a page in a right-to-left script is laid out so from that confidence, RTL_LANGUAGE), when the layout lost or changed a word
 * (never lose words; a page number it drops as on any page excepted), or when it finds no heading
 * and no table (then the flat text is as good).
 * `pointsPerPixel` sizes the page: 72 / the read image's dpi. `rules`: the lines of the scan's ruled
 * tables in the read image's pixels (ocrPrep.ts finds them), whose cells the engine fills as a
 * born-digital page's drawn rules.
 */
export function ocrLayoutMarkdown(ocr: OcrResult, pointsPerPixel: number, page = 1, rules: Rule[] = [], image: GreyImage | null = null): string | null {
  return ocrLayoutPage(ocr, pointsPerPixel, page, rules, image)?.markdown ?? null;
}

/**
 * ocrLayoutPage is ocrLayoutMarkdown with the page's layout beside its markdown, for a scanned PDF
 * whose laid-out pages are rendered together (running headers and page numbers are seen by their
 * repetition across pages, as on a born-digital PDF); null when ocrLayoutMarkdown's is.
 */
export function ocrLayoutPage(ocr: OcrResult, pointsPerPixel: number, page = 1, rules: Rule[] = [], image: GreyImage | null = null): { markdown: string; layout: PageLayout } | null {
  if (!ocr.words?.length || !ocr.width || !ocr.height || !(pointsPerPixel > 0)) return null;
  const rtl = rightToLeft(ocr);
  if (rtl ? ocr.confidence < MIN_FIGURES_CONFIDENCE : !pageLike(ocr.words, ocr.confidence)) return null;
  const plain = rtl || (ocr.confidence < MIN_LAYOUT_CONFIDENCE && !readAround(ocr.words));
  const { words, leaders } = withoutLeaders(image ? inkBoxes(image, withoutRuleMarks(ocr.words)) : withoutRuleMarks(ocr.words));
  const items = evenHeadLines(ocrItems(words, pointsPerPixel, image ? strokeRatios(image, words, (word) => (!isSized(word) ? 0 : rtl ? 1 : sizeEstimate(word))) : new Map(), plain, rtl));
  const ruleLines = rules.map((rule) => ({ x1: rule.x1 * pointsPerPixel, y1: rule.y1 * pointsPerPixel, x2: rule.x2 * pointsPerPixel, y2: rule.y2 * pointsPerPixel }));
  const layout = analyzePage(items, page, ocr.width * pointsPerPixel, ocr.height * pointsPerPixel, ruleLines);
  const rendered = renderPages([layout]);
  const markdown = rendered.markdown.trim();
  if (!markdown || !hasStructure(markdown)) return null;
  const changes = wordChanges(markdown, ocr.text);
  // The one thing the layout may drop is what it drops on a born-digital page: the page number and a running head.
  const dropped = wordsOf(rendered.removedText.join(" "));
  const lost = (rendered.removedLines > 0 ? changes.lost.filter((word) => !PAGE_NUMBER_WORD.test(word) && !dropped.has(word)) : changes.lost).filter((word) => !leaders.has(word));
  if (lost.length || changes.added.length) return null;
  return { markdown, layout };
}
