/**
 * Markdown to extraction candidates: label/value pairs from "Label: value" lines, "LABEL $12.00"
 * lines, label lines followed by their value, and table rows (label | value cells); GFM tables as
 * header + rows. Every candidate keeps the offsets of the source line(s) in the markdown, so its
 * citation is always a verbatim slice of the input.
 */
import { conceptOf, normaliseLabel } from "./labels";
import { cleanText, dayMonthOrderKnown, decimalMarkOf, escapeRe, parseNumber, type DecimalMark } from "./values";

/** CandidateKind says how a pair was found; it sets the confidence of an exact label match. */
export type CandidateKind = "colon" | "cell" | "cell-last" | "column" | "column-sum" | "inline" | "next-line" | "prefix" | "phrase" | "title" | "header-row";

export interface Candidate {
  label: string;
  value: string;
  kind: CandidateKind;
  /** offsets of the cited source in the markdown */
  start: number;
  end: number;
  /** the heading or block label the candidate sits under ("" at the top) */
  section: string;
  /** for next-line blocks: every line of the block (a name, then its address lines) */
  block?: string[];
  /** for column candidates: how many distinct non-empty values the column holds */
  columnValues?: number;
  /** for column candidates: how many named columns the table has */
  tableWidth?: number;
  order: number;
}

export interface Table {
  header: string[];
  rows: string[][];
  /** offsets of each data row line */
  rowSpans: [number, number][];
  start: number;
  end: number;
  /** end offset of the header line */
  headerEnd: number;
  section: string;
}

export interface Line {
  text: string;
  /** the line without markdown decoration (heading marks, quote marks, list bullets, emphasis) */
  plain: string;
  start: number;
  end: number;
  isTable: boolean;
  isHeading: boolean;
}

export interface ParsedDocument {
  markdown: string;
  lines: Line[];
  tables: Table[];
  candidates: Candidate[];
  /** dateOrderKnown: the document settles the day/month order of its numeric dates (values.ts dayMonthOrderKnown) */
  dateOrderKnown: boolean;
  /** ocrQuality: the document's OCR quality (0..1) when its text came from OCR, else null */
  ocrQuality: number | null;
  /** decimalMark: the decimal mark the document's amounts settle (values.ts decimalMarkOf) */
  decimalMark: DecimalMark;
}

/**
 * splitLines cuts the markdown into lines with their offsets. A hard line break's mark (a `\` at
 * the line's end, as the office converters write a break inside a paragraph) is no part of the
 * line: its offsets end before it, so values and citations never carry it.
 */
function splitLines(markdown: string): Line[] {
  const out: Line[] = [];
  let start = 0;
  for (const raw of markdown.split("\n")) {
    const text = raw.replace(/(?<!\\)\\$/, "");
    const end = start + text.length;
    const trimmed = text.trim();
    const isTable = trimmed.startsWith("|") && trimmed.length > 1;
    const isHeading = /^#{1,6}\s/.test(trimmed);
    const plain = cleanText(trimmed.replace(/^#{1,6}\s+/, "").replace(/^(>\s*)+/, "").replace(/^[-*+]\s+/, "").replace(/^\[Image text\]\s*/i, ""));
    out.push({ text, plain, start, end, isTable, isHeading });
    start += raw.length + 1;
  }
  return out;
}

/** splitCells reads the cells of a table line, honouring escaped pipes. */
function splitCells(line: string): string[] {
  const body = line.trim().replace(/^\|/, "").replace(/\|$/, "");
  return body.split(/(?<!\\)\|/).map((c) => cleanText(c.replace(/\\\|/g, "|")));
}

const isSeparator = (line: string) => /^\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/.test(line.trim());

/** isLabelLike says whether a cell or line reads as a label (words, not a number or amount). */
export function isLabelLike(text: string): boolean {
  const t = text.trim();
  if (!t || t.length > 60) return false;
  // a label's words in any script ("Σύνολο", "ΗΜΕΡΟΜΗΝΙΑ"), not only Latin letters
  if (!/\p{L}/u.test(t)) return false;
  if (/^[-+$€£¥(]?\s?\d/.test(t)) return false;
  return !/@|https?:|www\./.test(t);
}

/** isAllCapsLabel says whether a line is a short block title such as "BILL TO" or "PAYMENT METHOD". */
function isAllCapsLabel(text: string): boolean {
  const words = text.split(/\s+/);
  return words.length <= 4 && /^[A-Z][A-Z &/'.-]+:?$/.test(text) && !/\d/.test(text);
}

/** parseTables reads GFM tables: a header line, a separator line, data lines. */
function parseTables(lines: Line[], sections: string[]): Table[] {
  const tables: Table[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]!.isTable) continue;
    let j = i;
    while (j < lines.length && lines[j]!.isTable) j++;
    const block = lines.slice(i, j);
    const hasSeparator = block.length > 1 && isSeparator(block[1]!.text);
    const header = splitCells(block[0]!.text);
    const dataLines = hasSeparator ? block.slice(2) : block.slice(1);
    tables.push({
      header,
      rows: dataLines.map((l) => splitCells(l.text)),
      rowSpans: dataLines.map((l) => [l.start, l.end]),
      start: block[0]!.start,
      end: block.at(-1)!.end,
      headerEnd: block[0]!.end,
      section: sections[i] ?? "",
    });
    i = j - 1;
  }
  return tables;
}

/** tableCandidates turns table rows into label/value pairs, row-wise and column-wise. */
function tableCandidates(table: Table, mark: DecimalMark, add: (c: Omit<Candidate, "order">) => void): void {
  const width = table.header.length;
  const allRows: { cells: string[]; span: [number, number]; isHeader: boolean }[] = [
    { cells: table.header, span: [table.start, table.headerEnd], isHeader: true },
    ...table.rows.map((cells, k) => ({ cells, span: table.rowSpans[k]!, isHeader: false })),
  ];
  for (const row of allRows) {
    const { cells, span } = row;
    const nonEmpty = cells.map((c, i) => ({ c, i })).filter((x) => x.c);
    for (let k = 0; k < nonEmpty.length - 1; k++) {
      const label = { ...nonEmpty[k]! };
      const next = nonEmpty[k + 1]!;
      if (!isLabelLike(label.c)) continue;
      // "FROM: Company ABC" | "TO: John Doe", "NOM : PAYEE NAME" | "COMPTE : ...": a cell that holds its own label and
      // value (cellPairs reads it) labels nothing after it, and a cell that opens with its own label is no value
      if ((PAIR_CELL.test(label.c) && !label.c.trim().endsWith(":")) || PAIR_CELL.test(next.c)) continue;
      // "Sprzedawca | Nabywca": a row of party titles, the second names a concept of its own, not the first's value
      if (!/\d/.test(next.c) && conceptOf(normaliseLabel(next.c)) !== null) continue;
      // "Kunden-Nr.: 10000 Belegdatum:" | "26.10.22": the cell's last label names the next cell
      const inner = label.c.replace(/:$/, "").split(/:\s+/);
      if (inner.length > 1) label.c = inner.at(-1)!.split(/\s+/).filter((w) => !/\d/.test(w)).join(" ");
      if (!label.c) continue;
      // a header row such as "Product Code | Location" is column names, not a label and its value
      if (row.isHeader && !label.c.trim().endsWith(":") && !/\d/.test(next.c) && width > 2) continue;
      add({ label: label.c, value: next.c, kind: "cell", start: span[0], end: span[1], section: table.section });
      const last = nonEmpty.at(-1)!;
      if (k === 0 && last.i !== next.i) add({ label: label.c, value: last.c, kind: "cell-last", start: span[0], end: span[1], section: table.section });
    }
  }
  // column-wise: header -> the cells under it
  if (table.rows.length === 0) return;
  for (let col = 0; col < width; col++) {
    const label = table.header[col]!;
    // "INVOICE: INV-100" over "INVOICE DATE: 11/15/2019": a header cell that holds a pair is no column name
    if (!isLabelLike(label) || PAIR_CELL.test(label)) continue;
    const values = table.rows.map((r) => r[col] ?? "").filter(Boolean);
    if (values.length === 0) continue;
    const distinct = new Set(values).size;
    const k = table.rows.findIndex((r) => r[col]);
    const [s, e] = table.rowSpans[k]!;
    add({ label, value: values[0]!, kind: "column", start: k === 0 ? table.start : s, end: e, section: table.section, columnValues: distinct, tableWidth: table.header.filter(Boolean).length });
    const sum = sumRow(table, col, mark);
    if (sum !== null) add({ label, value: table.rows[sum]![col]!, kind: "column-sum", start: table.rowSpans[sum]![0], end: table.rowSpans[sum]![1], section: table.section });
  }
}

/** AMOUNT_CELL: a cell that is one amount, with at most a currency sign or code about it */
const AMOUNT_CELL = /^\D{0,4}-?\d[\d.,' ]*\D{0,4}$/;

/**
 * sumRow finds the row that closes a column of amounts with their sum ("Endbetrag" over 382,47 / 136,52 / 518,99,
 * a total split by tax rate): that row's cell is the column's total, whatever the rows above are. A sum row that
 * names itself ("Subtotal | | 518,99") is read row-wise by its own label, so it is left to that. Rows of text under
 * the amounts (a footer read into the table) end the column.
 */
function sumRow(table: Table, col: number, mark: DecimalMark): number | null {
  const filled = table.rows.map((r, k) => ({ cell: r[col] ?? "", k })).filter((x) => x.cell);
  const values: number[] = [];
  for (const { cell } of filled) {
    const text = cleanText(cell).trim();
    const n = AMOUNT_CELL.test(text) ? parseNumber(text, mark) : null;
    // the column's amounts end where the rows below it are text (a footer the converter read into the table)
    if (!n || n.percent) {
      if (values.length >= 3) break;
      return null;
    }
    values.push(n.value);
  }
  // the last amount that sums all those above it ("HRB 1234" of a footer row under it is none)
  let at = -1;
  let parts = values[0]! + values[1]!;
  for (let k = 2; k < values.length; k++) {
    if (values[k] !== 0 && Math.abs(parts - values[k]!) <= 0.005) at = k;
    parts += values[k]!;
  }
  if (at < 0) return null;
  const row = filled[at]!.k;
  if (table.rows[row]!.some((c, i) => i !== col && c && !/\d/.test(c) && conceptOf(normaliseLabel(c)) !== null)) return null;
  return row;
}

/**
 * afterSeparator cuts a label at the separator the raw line prints before it ("DESTINATÁRIO: X Ltda *
 * EMITIDA EM: 18/10/2013 * VALOR ...", where the plain text has lost the "*"): the words after it.
 */
function afterSeparator(label: string, raw: string): string {
  const words = label.split(/\s+/);
  for (let n = words.length - 1; n >= 1; n--) {
    const suffix = words.slice(-n).join(" ");
    if (new RegExp(`\\s[*•·]\\s+${escapeRe(suffix)}\\s*:`).test(raw)) return suffix;
  }
  return label;
}

/** NAME_BEFORE_LABEL: a company name up to its legal form with a capitalised word after it, opening a label ("CONTOSO LTD. Factuurdatum"). */
const NAME_BEFORE_LABEL = /^\p{Lu}[\p{L}&'’. -]{1,50}?\s(?:LTD|Ltd|INC|Inc|LLC|GmbH|SARL|PLC|B\.V|N\.V|S\.A|Corp|CORP)\.?,?\s+(?=\p{Lu}\p{L}+)/u;

/** COLON_RE: a label's colon, followed by a space or the end (not "14:32" nor "https:"). */
const COLON_RE = /:(?=\s|$)/g;

/**
 * colonPairs reads the "A: x  B: y" pairs of one line's text (or of one table cell's, where the converter joined a
 * cell's lines), adds each as a "colon" candidate and returns how many label colons the text holds. A last label
 * with no value after it goes to onEmptyLast (the line's next line may hold it).
 */
function colonPairs(text: string, line: Line, section: string, vocab: Set<string>, add: (c: Omit<Candidate, "order">) => void, onEmptyLast: (label: string) => void): number {
  const colons = [...text.matchAll(COLON_RE)].map((m) => m.index!).filter((i) => !/https?$/i.test(text.slice(0, i)));
  let labelStart = 0;
  for (let k = 0; k < colons.length; k++) {
    const c = colons[k]!;
    let label = afterSeparator(text.slice(labelStart, c).trim(), line.text);
    // a label run into the text before it ("... 3,25 EUR Net amount: 870,00"): keep its label words
    if (!isLabelLike(label) || label.split(/\s+/).length > 6) label = trailingLabel(label.split(/\s+/), vocab);
    // "CONTOSO LTD. Factuurdatum: 02.01.2020": OCR read the letterhead's name and a label beside it as one line; the
    // label opens after the name's legal form
    const afterName = label.match(NAME_BEFORE_LABEL);
    if (afterName) label = label.slice(afterName[0].length);
    const valueEnd = k + 1 < colons.length ? colons[k + 1]! : text.length;
    let value = text.slice(c + 1, valueEnd);
    let nextLabelStart = valueEnd;
    if (k + 1 < colons.length) {
      const split = splitValueAndNextLabel(value, vocab);
      value = split.value;
      nextLabelStart = c + 1 + split.labelOffset;
    }
    value = cleanText(value);
    if (isLabelLike(label) && label.split(/\s+/).length <= 8) {
      if (value) add({ label, value, kind: "colon", start: line.start, end: line.end, section });
      else if (k === colons.length - 1) onEmptyLast(label);
    }
    labelStart = nextLabelStart;
  }
  return colons.length;
}

/** lineCandidates reads "A: x  B: y", "LABEL $12.00" and "LABEL:" + next line pairs from a line. */
function lineCandidates(lines: Line[], index: number, section: string, vocab: Set<string>, add: (c: Omit<Candidate, "order">) => void): void {
  const line = lines[index]!;
  // "Total Incl. GST@6% RM 5.90": a rate written into the label is a note, not the value
  // "GST 6X 538.00": OCR reads a tax rate's "%" as "X"
  // "Total %7,08,000.00": a percent sign opening an amount is OCR's reading of a currency sign (₹), not a percent
  const text = line.plain.replace(/\b(GST|SST|VAT|TAX)\s(\d{1,2})[Xx](?=\s+\d)/g, "$1 $2%").replace(/(?<=\s)%(?=\d{1,3}[,.]\d)/g, "").replace(/\s?@\s?\d+(?:[.,]\d+)?\s?%/g, "").replace(/([A-Z]{2})\.([A-Z]{2,})/g, "$1. $2");
  if (!text) return;
  const colons = colonPairs(text, line, section, vocab, add, (label) => nextLineCandidate(lines, index, label, section, add));
  const blockTitle = isAllCapsLabel(text) || line.isHeading || (text.split(/\s+/).length <= 4 && conceptOf(normaliseLabel(text)) !== null);
  if (colons === 0 && blockTitle && !line.isTable) nextLineCandidate(lines, index, text, section, add);
  // "SUBTOTAL $863.91", "Sales Tax (8.5%) $66.23": a label then an amount, without a colon; "Att betala 1 250,00 kr":
  // an amount grouped by spaces with a decimal comma is one amount (not its first group)
  // a label starts where a word does (the lookbehind): tried from inside a long word too, a line of one 100 000-letter word took seconds
  const INLINE = /((?<![A-Za-z#&/'.])[A-Za-z][A-Za-z#&/'.]*(?:-[A-Za-z]+)?(?:\s+[A-Za-z#&/'.]+(?:-[A-Za-z]+)?){0,5})(?:\s*(\([^)]*\)|\d+(?:\.\d+)?\s?%)\s*|\s+|\s*=\s*)(\d{1,4}[/.-]\d{1,2}[/.-]\d{2,4}|(?:[-−]\s?)?(?:US\$|[$€£¥₹])\s?[-−]?\d[\d,.' ]*\d|\d{1,3}(?:[ \u00a0\u202f]\d{3})+,\d{2}(?:\s?(?:EUR|€|kr))?|\d+[.,] \d{2}|(?:[-−]\s?)?\d[\d,.]*\d?\s?(?:%|USD|EUR|GBP|€|£)?)(?=\s|$)/g;
  // "Subtotale | 110,00€": on a line of text (OCR), a bar between a label and its amount is a ruled line read as a character
  const inlineText = line.isTable ? text : text.replace(/(?<=\p{L})\s+\|\s+(?=(?:[$€£]\s?)?\d)/gu, " ");
  for (const m of inlineText.matchAll(INLINE)) {
    // "SUB-TOTAL (EX) 26.00": a label starts at a word, not inside "SUB-TOTAL"
    if (m.index! > 0 && /[\p{L}\d-]/u.test(inlineText[m.index! - 1]!)) continue;
    // "Total 1 000.00": a group of one to three digits before a space and three more is the first group of an amount
    // grouped by spaces (read whole above only with a decimal comma; "2 100.00" may be a count and a price): no value
    if (/^\d{1,3}$/.test(m[3]!.trim()) && SPACE_GROUP_NEXT.test(inlineText.slice(m.index! + m[0].length))) continue;
    const words = m[1]!.trim().split(/\s+/);
    // every vocabulary-word suffix is a possible label ("BOOKING ORDER Print Date" -> "Print Date", "ORDER Print Date")
    const longest = trailingLabel(words, vocab).split(" ").length;
    for (let n = 1; n <= longest; n++) {
      const label = words.slice(-n).join(" ");
      if (/:$/.test(label)) break;
      const note = m[2] ? (m[2].startsWith("(") ? ` ${m[2]}` : ` (${m[2]})`) : "";
      add({ label: `${label}${note}`, value: m[3]!.trim(), kind: "inline", start: line.start, end: line.end, section });
    }
  }
}

/** SPACE_GROUP_NEXT: the text after a number goes on with a space and a group of three digits (" 000.00") */
const SPACE_GROUP_NEXT = /^[ \u00a0\u202f]\d{3}(?:[.,]\d{1,2})?(?![\d,.])/;

/** CELL_PAIR: a table cell that holds a label and its amount together ("NET A PAYER 100,00 EUR"). */
const CELL_PAIR = /^(\p{L}[\p{L}'’. ]{1,40}?)\s+((?:[-−]\s?)?(?:[$€£]\s?)?\d[\d.,' ]*\d(?:\s?(?:EUR|USD|GBP|CHF|€|\$|£))?)$/u;

/** cellPairs reads the cells of a table row that hold a label with its amount, as the converter laid them into one cell. */
function cellPairs(line: Line, section: string, vocab: Set<string>, add: (c: Omit<Candidate, "order">) => void): void {
  for (const cell of line.plain.split("|").map((c) => c.trim())) {
    const m = cell.match(CELL_PAIR);
    if (m && /\p{L}{2,}/u.test(m[1]!)) add({ label: m[1]!.trim(), value: m[2]!, kind: "inline", start: line.start, end: line.end, section });
    // "INVOICE DATE: 11/15/2019", "FROM: Company ABC": a cell that holds one label, its colon and its value
    const p = cell.match(PAIR_CELL);
    if (p && isLabelLike(p[1]!) && !/:(?=\s|$)/.test(p[2]!)) add({ label: p[1]!.trim(), value: cleanText(p[2]!), kind: "colon", start: line.start, end: line.end, section });
    // "Invoice #: 123 Created: January 1, 2023 Due: February 1, 2023": a cell whose lines the converter joined holds
    // several labels, each with its value, read as the pairs of a line
    else if ((cell.match(COLON_RE) ?? []).length >= 2) colonPairs(cell, line, section, vocab, add, () => {});
  }
}

/** PAIR_CELL: a cell that opens with a short label and its colon, a value after it ("TO: John Doe", "NOM : PAYEE NAME"). */
const PAIR_CELL = /^(\p{L}[\p{L}'’. #°º/-]{0,40}?)\s?:\s+(\S.*)$/u;

/** trailingLabel keeps the words before a value that read as a label (vocabulary words), at least one. */
function trailingLabel(words: string[], vocab: Set<string>): string {
  let k = words.length - 1;
  while (k > 0 && vocab.has(words[k - 1]!.toLowerCase().replace(/[^a-z#]/g, "")) && words.length - k < 4) k--;
  return words.slice(k).join(" ");
}

/** splitValueAndNextLabel finds where a value ends and the next label begins in "x y Next Label". */
function splitValueAndNextLabel(segment: string, vocab: Set<string>): { value: string; labelOffset: number } {
  const wide = segment.search(/\s{2,}\S[^]*$/);
  if (wide > 0) {
    const rest = segment.slice(wide).trimStart();
    if (!/\s{2,}/.test(rest.trim())) return { value: segment.slice(0, wide), labelOffset: segment.length - rest.length };
  }
  const words = [...segment.matchAll(/\S+/g)];
  if (words.length <= 1) return { value: "", labelOffset: 0 };
  let k = words.length - 1;
  while (k > 1 && vocab.has(words[k - 1]![0].toLowerCase().replace(/[^a-z#]/g, "")) && words.length - k < 4) k--;
  return { value: segment.slice(0, words[k]!.index), labelOffset: words[k]!.index! };
}

/** nextLineCandidate pairs a label that ends its line ("BILL TO:") with the lines below it. */
function nextLineCandidate(lines: Line[], index: number, label: string, section: string, add: (c: Omit<Candidate, "order">) => void): void {
  const block: Line[] = [];
  let blanks = 0;
  for (let j = index + 1; j < lines.length && block.length < 5; j++) {
    const l = lines[j]!;
    if (!l.plain || /^[-=_*~.\s]+$/.test(l.plain)) {
      if (block.length && ++blanks > 1) break;
      continue;
    }
    if (l.isTable || l.isHeading || (block.length > 0 && (/:(\s|$)/.test(l.plain) || isAllCapsLabel(l.plain)))) break;
    if (block.length === 0 && (/:(\s|$)/.test(l.plain) || isAllCapsLabel(l.plain))) return;
    block.push(l);
  }
  if (!block.length) return;
  add({
    label: label.replace(/:$/, ""),
    value: block[0]!.plain,
    kind: "next-line",
    start: lines[index]!.start,
    end: block[0]!.end,
    section,
  });
  // the cited span of a block with more lines reaches its last line
  const extended = block.at(-1)!.end;
  if (block.length > 1) add({ label: label.replace(/:$/, ""), value: block.map((l) => l.plain).join(", "), kind: "next-line", start: lines[index]!.start, end: extended, section, block: block.map((l) => l.plain) });
}

/** sectionsOf gives each line the nearest heading or block label above it. */
function sectionsOf(lines: Line[]): string[] {
  const out: string[] = [];
  let current = "";
  for (const l of lines) {
    if (l.isHeading || (isAllCapsLabel(l.plain) && !l.isTable) || /^[A-Za-z][A-Za-z ]{1,30}:$/.test(l.plain)) current = l.plain.replace(/:$/, "");
    out.push(current);
  }
  return out;
}

/**
 * TITLE_RE: a document title that carries its number (and often its date): "Invoice 103767",
 * "Rechnung RE1001", "Handelsrechnung (380) Nr. 471102 vom 15.11.2024", "Avoir AV-2017-0005",
 * "Faktura VAT nr 12/2024 z dnia 3.05.2024". The title word starts the line; the number holds a digit.
 */
const TITLE_RE =
  /^(?:tax invoice|commercial invoice|invoice|credit note|[a-zäöü]*rechnung|gutschrift|facture|avoir|factuur|creditnota|factura|fattura|fatura|faktura(?: vat)?|lasku|nota de cr[eé]dito)\s*(?:\(\d+\)\s*)?(?:(?:no|nr|n[°º]|num(?:ber|[eé]ro)?|#)\.?\s*)?[:.]?\s*([A-Z0-9][A-Z0-9/_.-]*\d[A-Z0-9/_-]*|\d[A-Z0-9/_.-]*)\s*(?:(?:vom|du|del|dated|of|from|van|z dnia|de|dd\.?)\s+(.{6,24}))?$/i;

/** TITLE_WORD_END: a line that ends with a document title word ("Go gle INVOICE", "Rechnung"). */
const TITLE_WORD_END = /(?<!\p{L})(invoice|tax invoice|rechnung|facture|factuur|factura|fattura|fatura|faktura(?: vat)?|lasku)\s*$/iu;

/**
 * QUOTE_TITLE_RE: a quote's title with its number, opening a line ("Angebot 2024-023 Angebotsdatum: ...", "Quotation
 * No. Q-17", "Devis n° 2021-001-D", "Preventivo 12/2024"); what follows the number is read by the line's own pairs.
 */
const QUOTE_TITLE_RE =
  /^(?:quotation|quote|estimate|offer|angebot|kostenvoranschlag|offerte|devis|presupuesto|preventivo|or[cç]amento|oferta|tilbud|offert)\s*(?:(?:no|nr|n[°º]|num(?:ber|[eé]ro)?|#)\.?\s*)?[:.]?\s*([A-Z0-9][A-Z0-9/_.-]*\d[A-Z0-9/_-]*|\d[A-Z0-9/_.-]*)(?=\s|$)/i;
/** INVOICE_TITLE_START: a line that opens with an invoice's title word: the page is an invoice, whatever quote it names. */
const INVOICE_TITLE_START = /^(?:tax invoice|commercial invoice|invoice|credit note|[a-zäöü]*rechnung|gutschrift|facture|avoir|factuur|creditnota|factura|fattura|fatura|faktura|lasku|nota de cr[eé]dito)(?!\p{L})/iu;

/**
 * quoteTitle: a quote read with an invoice's schema gives its own number as the document's number, from its title
 * line, when no line of the page opens with an invoice's title (an invoice that names the quote it follows keeps its
 * own number).
 */
function quoteTitle(lines: Line[], add: (c: Omit<Candidate, "order">) => void): void {
  const text = lines.filter((l) => !l.isTable && l.plain.length <= 80);
  if (text.some((l) => INVOICE_TITLE_START.test(l.plain))) return;
  for (const line of text) {
    const id = line.plain.match(QUOTE_TITLE_RE)?.[1]!.replace(/[.]$/, "");
    // three characters at least: "Estimate 2 hours" names no quote
    if (!id || id.length < 3 || /^\d{1,2}[./-]\d{1,2}[./-]\d{2,4}$/.test(id) || /^\d{4}-\d{2}-\d{2}$/.test(id)) continue;
    add({ label: "invoice number", value: id, kind: "title", start: line.start, end: line.end, section: "" });
    return;
  }
}

/** titleCandidates reads a document title's number and date as the invoice's number and date. */
function titleCandidates(lines: Line[], add: (c: Omit<Candidate, "order">) => void): void {
  let previous = "";
  for (const line of lines) {
    // "INVOICE" over "# 23413561D": the number printed under the title, after a number sign
    const under = line.plain.match(/^\\?#\s*([A-Z0-9][A-Z0-9/_.-]*\d[A-Z0-9/_-]*)$/i);
    if (under && TITLE_WORD_END.test(previous)) add({ label: "invoice number", value: under[1]!, kind: "title", start: line.start, end: line.end, section: "" });
    if (line.plain) previous = line.plain;
    if (line.isTable || line.plain.length > 80) continue;
    titleOf(line, line.plain, add);
  }
  // "| Rechnung #2023-001 | Potsdam, 03.09.2024 |": the converter laid the title's line out as a table row, its first
  // cell the title with its number; only when one row of the page opens so (a list of invoices is no title)
  const rows = lines.filter((l) => l.isTable && TITLE_RE.test(firstCell(l)));
  if (rows.length === 1) titleOf(rows[0]!, firstCell(rows[0]!), add);
  quoteTitle(lines, add);
}

/** firstCell is a table line's first non-empty cell. */
function firstCell(line: Line): string {
  return line.plain.split("|").map((c) => c.trim()).find(Boolean) ?? "";
}

/** titleOf adds the number and date a title (a line, or a table row's first cell) carries. */
function titleOf(line: Line, title: string, add: (c: Omit<Candidate, "order">) => void): void {
  const m = title.length <= 80 ? title.match(TITLE_RE) : null;
  if (!m) return;
  const id = m[1]!.replace(/[.]$/, "");
  if (/^\d{1,2}[./-]\d{1,2}[./-]\d{2,4}$/.test(id)) return;
  add({ label: "invoice number", value: id, kind: "title", start: line.start, end: line.end, section: "" });
  if (m[2]) add({ label: "invoice date", value: m[2], kind: "title", start: line.start, end: line.end, section: "" });
}

/**
 * headerRowCandidates reads a row of column titles over a row of values, as OCR prints a table without
 * its rules ("Codice Cliente Partita IVA Termini di Pagamento Data Documento Numero Documento" over
 * "1234A8C 1234567890 50 GG DF 10-02-2022 54321"): the title that ends the first row names the value
 * that ends the second, the next line or the line after one blank line, and the title that opens the first
 * names the value that opens the second. Only the outer columns are paired: the words of the others cannot be
 * told apart.
 */
function headerRowCandidates(lines: Line[], add: (c: Omit<Candidate, "order">) => void): void {
  for (let i = 0; i + 1 < lines.length; i++) {
    const head = lines[i]!;
    // the two rows may be set as two paragraphs (a laid-out scan): one blank line between them
    const row = !lines[i + 1]!.text.trim() && i + 2 < lines.length ? lines[i + 2]! : lines[i + 1]!;
    if (head.isTable || row.isTable || head.isHeading || !head.plain || !row.plain || /\d|:/.test(head.plain)) continue;
    const words = head.plain.replace(/\|/g, " ").split(/\s+/).filter(Boolean);
    if (words.length < 3 || words.length > 14) continue;
    const tokens = row.plain.split(/[\s|]+/).filter(Boolean);
    const value = tokens.at(-1)!.replace(/[.,;:]+$/, "");
    if (tokens.length < 2) continue;
    if (/\d/.test(value)) {
      for (let n = Math.min(3, words.length - 1); n >= 2; n--) {
        const label = words.slice(-n).join(" ");
        if (conceptOf(normaliseLabel(label)) === null) continue;
        add({ label, value, kind: "header-row", start: head.start, end: row.end, section: "" });
        break;
      }
    }
    // the first column too: the title that opens the first row names the value that opens the second, when that
    // value is one word with a digit and the next word is another value ("34278587 6/18/2017 ..."), not its second word
    const first = tokens[0]!.replace(/[.,;:]+$/, "");
    if (!/\d/.test(first) || !/\d/.test(tokens[1]!)) continue;
    for (let n = Math.min(3, words.length - 1); n >= 2; n--) {
      const label = words.slice(0, n).join(" ");
      if (conceptOf(normaliseLabel(label)) === null) continue;
      add({ label, value: first, kind: "header-row", start: head.start, end: row.end, section: "" });
      break;
    }
  }
}

/**
 * CONVERTER_METADATA: the section the image converter appends after the text it read (`## Image metadata`,
 * then `- **Date taken:** ...` lines): the photo's format, size and camera date, not the document's content.
 */
const CONVERTER_METADATA = /\n#{1,6}\s+image metadata\s*\n(?:\s*\n|\s*- \*\*[^*\n]+:\*\*[^\n]*\n?)*$/i;

/** documentText is the markdown without the image converter's metadata section (a prefix, so offsets hold). */
export function documentText(markdown: string): string {
  const m = markdown.match(CONVERTER_METADATA);
  return m && m.index !== undefined ? markdown.slice(0, m.index) : markdown;
}

/**
 * parseDocument reads the markdown into lines, tables and label/value candidates. The image converter's
 * metadata section is left out: a photo's camera date is not the purchase's (a receipt photographed weeks later).
 */
export function parseDocument(source: string, vocab: Set<string>): ParsedDocument {
  const markdown = documentText(source);
  const lines = splitLines(markdown);
  const sections = sectionsOf(lines);
  const tables = parseTables(lines, sections);
  const candidates: Candidate[] = [];
  const add = (c: Omit<Candidate, "order">) => candidates.push({ ...c, order: candidates.length });
  const mark = decimalMarkOf(markdown);
  let t = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.isTable) {
      const table = tables[t];
      if (table && table.start === line.start) {
        tableCandidates(table, mark, add);
        t++;
      }
      cellPairs(line, table?.section ?? "", vocab, add);
      continue;
    }
    // a line's own section is the one above it (a heading is not its own section)
    lineCandidates(lines, i, i > 0 ? sections[i - 1]! : "", vocab, add);
  }
  titleCandidates(lines, add);
  headerRowCandidates(lines, add);
  return { markdown, lines, tables, candidates, dateOrderKnown: dayMonthOrderKnown(markdown), ocrQuality: null, decimalMark: mark };
}
