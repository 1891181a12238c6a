/**
 * Typed value parsing for the local extractor: numbers with currency and separators, dates in common
 * formats (read as a calendar date, returned as written), booleans, emails, phones, URLs, IDs and
 * currency codes. Every function is pure and returns null when the text holds no such value.
 */

/**
 * MONTH_NAMES: month names and their usual abbreviations in English, German, French, Dutch, Spanish,
 * Italian, Portuguese and Polish (Polish in the genitive, as dates write it), by month number.
 */
const MONTH_NAMES: string[][] = [
  ["january", "jan", "januar", "janvier", "janv", "januari", "enero", "gennaio", "janeiro", "stycznia", "styczen"],
  ["february", "feb", "februar", "fevrier", "février", "févr", "fevr", "februari", "febrero", "febbraio", "fevereiro", "lutego", "luty"],
  ["march", "mar", "märz", "maerz", "marz", "mär", "mars", "maart", "mrt", "marzo", "março", "marco", "marca", "marzec"],
  ["april", "apr", "avril", "avr", "abril", "aprile", "kwietnia", "kwiecien"],
  ["may", "mai", "mei", "mayo", "maggio", "maio", "maja"],
  ["june", "jun", "juni", "juin", "junio", "giugno", "junho", "czerwca", "czerwiec"],
  ["july", "jul", "juli", "juillet", "juil", "julio", "luglio", "julho", "lipca", "lipiec"],
  ["august", "aug", "août", "aout", "augustus", "agosto", "sierpnia", "sierpien"],
  ["september", "sep", "sept", "septembre", "septiembre", "settembre", "setembro", "września", "wrzesnia", "wrzesien"],
  ["october", "oct", "oktober", "okt", "octobre", "octubre", "ottobre", "outubro", "października", "pazdziernika"],
  ["november", "nov", "novembre", "noviembre", "novembro", "listopada", "listopad"],
  ["december", "dec", "dezember", "dez", "décembre", "decembre", "déc", "diciembre", "dicembre", "dezembro", "grudnia", "grudzien"],
];
const MONTHS: Record<string, number> = Object.fromEntries(MONTH_NAMES.flatMap((names, k) => names.map((n) => [n, k + 1])));
/** MONTH_RE: any month name, longest first, optionally followed by a dot; matched case-insensitively with the u flag. */
const MONTH_RE = `(${Object.keys(MONTHS).sort((a, b) => b.length - a.length).join("|")})\\.?`;
const monthOf = (name: string) => MONTHS[name.toLowerCase().replace(".", "")]!;

/** DOLLAR_SIGN: a dollar sign with the letters of the currency it belongs to ("US$", "R$", "NZ$"), or a bare "$". */
export const DOLLAR_SIGN = /(?<![A-Za-z])(?:US|R|CA?|AU?|NZ|HK|SG?|MX)\$|\$/i;

/** NUMBER_RE: one numeric token with optional sign, currency symbol (DOLLAR_SIGN and others) or code, parentheses and percent. */
const NUMBER_RE = new RegExp(
  String.raw`(\()?(-|−)?\s?(?:(${DOLLAR_SIGN.source}|[€£¥₹]|(?:USD|EUR|GBP|CAD|AUD|JPY|CHF|INR)\s?))?\s?(-|−)?(\d{1,2}(?:,\d{2})+,\d{3}(?:\.\d+)?(?![\d,])|\d{1,3}(?:[,.'’ ]\d{3})+(?:[.,]\d+)?|\d+[.,] \d{2}(?![\d.,])|\d+(?:[.,]\d+)?)(\))?\s?(%|(?:USD|EUR|GBP|CAD|AUD|JPY|CHF|INR|PLN)\b|[€£]|z[łl](?![a-ząćęłńóśźż]))?`,
  "i",
);

export interface ParsedNumber {
  value: number;
  /** the matched text, verbatim */
  text: string;
  percent: boolean;
  currency: string | null;
  /** index of the match in the input */
  index: number;
  /** index just past the match */
  end: number;
}

const SYMBOL_CURRENCY: Record<string, string> = {
  $: "USD", "us$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY", "₹": "INR", "zł": "PLN", zl: "PLN",
  // dollar signs of other currencies: the "$" of "R$ 1.234,56" is not a US dollar
  "r$": "BRL", "c$": "CAD", "ca$": "CAD", "a$": "AUD", "au$": "AUD", "nz$": "NZD", "hk$": "HKD", "s$": "SGD", "sg$": "SGD", "mx$": "MXN",
};

/**
 * DecimalMark: the character a document writes before its decimals, when its amounts settle it
 * ("1.234,56" and "12,50" write ","); null = not settled, read each number on its own.
 */
export type DecimalMark = "." | "," | null;

/** decimalMarkOf reads the document's decimal mark from its amounts with two decimals ("12,50", "1,234.50"). */
export function decimalMarkOf(text: string): DecimalMark {
  let comma = 0;
  let dot = 0;
  for (const m of text.matchAll(/(?<![\d.,])\d{1,3}(?:([.,'’ ])\d{3})*([.,])\d{2}(?![\d.,])/g)) {
    if (m[1] && m[1] === m[2]) continue;
    if (m[2] === ",") comma++;
    else dot++;
  }
  // "Kč 12.100,-", "50,-": a whole amount closed by its decimal mark and a dash settles the mark by itself
  const wholeComma = /(?<![\d.,])\d{1,3}(?:\.\d{3})*,-(?![\d-])/.test(text);
  const wholeDot = /(?<![\d.,])\d{1,3}(?:,\d{3})*\.-(?![\d-])/.test(text);
  if (wholeComma && !wholeDot && dot === 0) return ",";
  if (wholeDot && !wholeComma && comma === 0) return ".";
  if (comma >= 2 && comma >= 3 * dot) return ",";
  if (dot >= 2 && dot >= 3 * comma) return ".";
  return null;
}

/**
 * normaliseDigits reads "1,234.50", "1.234,50", "1 234,50" and "1'234.50" / "1’234.50" (Swiss) as 1234.5; a
 * space may be a no-break one. A lone separator before three digits ("1.234", "1,234") is read by the
 * document's decimal mark when it has one (a thousands separator unless it is the mark), else "," as
 * thousands and "." as decimals.
 */
export function normaliseDigits(raw: string, mark: DecimalMark = null): number | null {
  let s = raw.replace(/['’ \u00a0\u202f]/g, "");
  const lastComma = s.lastIndexOf(",");
  const lastDot = s.lastIndexOf(".");
  if (lastComma >= 0 && lastDot >= 0) {
    s = lastComma > lastDot ? s.replace(/\./g, "").replace(",", ".") : s.replace(/,/g, "");
  } else if (lastComma >= 0) {
    // "1,234" and "12,345,678" are thousands; "12,5" and "1234,56" are decimals
    const thousands = /^\d{1,3}(,\d{3}){2,}$/.test(s) || (/^\d{1,3}(,\d{3})$/.test(s) && mark !== ",");
    s = thousands ? s.replace(/,/g, "") : s.replace(",", ".");
  } else if (lastDot >= 0 && (/^\d{1,3}(\.\d{3}){2,}$/.test(s) || (/^\d{1,3}\.\d{3}$/.test(s) && mark === ","))) {
    s = s.replace(/\./g, "");
  }
  const n = Number(s);
  return Number.isFinite(n) ? n : null;
}

/** parseNumber finds the first number in text ("$1,234.50" -> 1234.5, "(12.00)" -> -12, "-$5" -> -5). */
export function parseNumber(text: string, mark: DecimalMark = null): ParsedNumber | null {
  const re = new RegExp(NUMBER_RE.source, "gi");
  for (const m of text.matchAll(re)) {
    const value = normaliseDigits(m[5]!, mark);
    if (value === null) continue;
    // skip digits glued to letters, as in "A-12" or "SKU8847" (they are codes, not quantities)
    const before = text.slice(0, m.index!).trimEnd();
    const start = m.index! + m[0].search(/\S/);
    if (start > 0 && /[A-Za-z]$/.test(text.slice(0, start)) && !m[3]) continue;
    if (/[A-Za-z]-$/.test(before) && !m[3] && !m[2]) continue;
    const negative = Boolean(m[2] || m[4] || (m[1] && m[6]));
    const cur = m[3]?.trim() ?? (m[7] && m[7] !== "%" ? m[7] : undefined);
    return {
      value: negative ? -value : value,
      text: m[0].trim(),
      percent: m[7] === "%",
      currency: cur ? (SYMBOL_CURRENCY[cur.toLowerCase()] ?? cur.toUpperCase()) : null,
      index: m.index!,
      end: m.index! + m[0].length,
    };
  }
  return null;
}

/** allNumbers lists every number in text, in order. */
export function allNumbers(text: string): ParsedNumber[] {
  const out: ParsedNumber[] = [];
  let offset = 0;
  while (offset < text.length) {
    const n = parseNumber(text.slice(offset));
    if (!n) break;
    out.push({ ...n, index: n.index + offset, end: n.end + offset });
    offset += n.end;
  }
  return out;
}

function iso(y: number, m: number, d: number): string | null {
  if (y < 100) y += y < 70 ? 2000 : 1900;
  if (m < 1 || m > 12 || d < 1 || d > 31 || y < 1900 || y > 2200) return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCMonth() !== m - 1) return null;
  return `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
}

/** DATE_PATTERNS: each finds a date and turns its groups into [year, month, day]; `ambiguous` says whether the day/month order is a guess. */
const DATE_PATTERNS: { re: RegExp; ymd: (m: RegExpMatchArray) => [number, number, number]; ambiguous?: (m: RegExpMatchArray) => boolean }[] = [
  { re: /\b(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})\b/, ymd: (m) => [+m[1]!, +m[2]!, +m[3]!] },
  {
    // "02/12/2017": both parts could be the month; a dot ("02.12.2017") is written day first
    ambiguous: (m) => m[2] !== "." && +m[1]! <= 12 && +m[3]! <= 12 && +m[1]! !== +m[3]!,
    // numeric day-month order: US month-first unless the first part cannot be a month
    re: /\b(\d{1,2})([/.-])(\d{1,2})\2(\d{4}|\d{2})\b/,
    ymd: (m) => {
      const a = +m[1]!, b = +m[3]!;
      const dayFirst = m[2] === "." || a > 12;
      return dayFirst ? [+m[4]!, b, a] : [+m[4]!, a, b];
    },
  },
  // "January 17, 2024", "Mai 7 2014"
  { re: new RegExp(`(?<![\\p{L}\\d])${MONTH_RE}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})(?!\\d)`, "iu"), ymd: (m) => [+m[3]!, monthOf(m[1]!), +m[2]!] },
  // "17 January 2024", "7. Mai 2014", "28 MAR 18", "3 de marzo de 2024", "17-Jan-2024"
  {
    re: new RegExp(`(?<![\\p{L}\\d])(\\d{1,2})(?:st|nd|rd|th|\\.)?[\\s-]*(?:of\\s+|de\\s+)?${MONTH_RE}(?!\\p{L})[\\s,.-]+(?:de\\s+)?(\\d{4}|\\d{2})(?![\\d.,:])`, "iu"),
    ymd: (m) => [+m[3]!, monthOf(m[2]!), +m[1]!],
  },
  // "20180304": a compact year-month-day
  { re: /(?<![\d.,])(19[5-9]\d|20[0-4]\d)(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])(?![\d.,])/, ymd: (m) => [+m[1]!, +m[2]!, +m[3]!] },
];

/** DATE_SCANS: DATE_PATTERNS with global regexes, to walk every match of a pattern. */
const DATE_SCANS = DATE_PATTERNS.map((p) => ({ ...p, re: new RegExp(p.re.source, `${p.re.flags}g`) }));

export interface ParsedDate {
  /** iso: the date read as YYYY-MM-DD (a numeric date with an open day/month order is read month first) */
  iso: string;
  /** text: the date as the document writes it */
  text: string;
  index: number;
  /** ambiguous: a numeric date whose day and month could be swapped ("02/12/2017") */
  ambiguous: boolean;
}

/**
 * parseDate finds the earliest date in text and returns it as ISO YYYY-MM-DD. A date-shaped string
 * that is no calendar date ("30/83/2018", a misread digit on a scan) is passed over, so a later
 * reading of the same pattern is still found.
 */
export function parseDate(text: string): ParsedDate | null {
  let best: ParsedDate | null = null;
  for (const { re, ymd, ambiguous } of DATE_SCANS) {
    for (const m of text.matchAll(re)) {
      if (m.index === undefined || (best && m.index >= best.index)) break;
      const value = iso(...ymd(m));
      if (!value) continue;
      best = { iso: value, text: m[0], index: m.index, ambiguous: ambiguous?.(m) ?? false };
      break;
    }
  }
  return best;
}

/**
 * dateReadings lists the calendar dates a written date can mean: its reading, and for a numeric
 * day/month/year date whose first two parts could both be a month, the swapped one as well.
 */
export function dateReadings(date: ParsedDate): string[] {
  const m = date.text.match(/^(\d{1,2})([/.-])(\d{1,2})\2(\d{4}|\d{2})$/);
  if (!m) return [date.iso];
  const readings = [iso(+m[4]!, +m[1]!, +m[3]!), iso(+m[4]!, +m[3]!, +m[1]!)].filter((r): r is string => r !== null);
  return [date.iso, ...readings.filter((r) => r !== date.iso)];
}

/** allDates lists every date in text, in order. */
export function allDates(text: string): ParsedDate[] {
  const out: ParsedDate[] = [];
  let offset = 0;
  for (;;) {
    const d = parseDate(text.slice(offset));
    if (!d) return out;
    out.push({ ...d, index: d.index + offset });
    offset += d.index + d.text.length;
  }
}

/**
 * DAY_FIRST_SIGNALS: words of documents from places that write the day first (Malaysia, Singapore,
 * the UK, Europe: company forms, taxes, date labels in their languages, Malaysian street and state
 * names and their abbreviation "JLN", amounts in ringgit "RM 12.50", "RM 65. 20" as OCR spaces them),
 * Malay words of receipts ("TERIMA KASIH", "TUNAI", "TAMAN", "BANDAR", "DARUL EHSAN") and the other
 * Malaysian states, and a "GST ID" or "GST Reg No" as Malaysia, Singapore, India, Australia and New
 * Zealand print it (Canada, which writes either order, prints "GST/HST").
 */
const DAY_FIRST_SIGNALS =
  /\b(sdn\.? ?bhd|bhd|malaysia|singapore|pte\.? ltd|gmbh|mwst|ust-?id|rechnung|datum|facture|tva|factuur|btw|fecha|factura|fattura|faktura|vat reg(istration)?|ltd|myr|jalan|jln|selangor|johor|kuala lumpur|rm ?\d+[.,] ?\d{2}|terima kasih|tunai|taman|bandar|darul|kedah|perak|pahang|melaka|negeri sembilan|terengganu|kelantan|sabah|sarawak|perlis|putrajaya|pulau pinang|(?<!hst[\s/]?)gst\s?(id|reg(istration)?\.?\s?(no|number)))\b/i;

/**
 * dayMonthOrderKnown says whether the document settles the order of day and month in its numeric
 * dates: another numeric date with a part above 12 (all in the same order), or a signal that it
 * comes from a place that writes the day first. A document with dates in both orders settles nothing.
 */
export function dayMonthOrderKnown(text: string): boolean {
  let dayFirst = false;
  let monthFirst = false;
  for (const m of text.matchAll(/\b(\d{1,2})([/-])(\d{1,2})\2(?:\d{4}|\d{2})\b/g)) {
    if (+m[1]! > 12 && +m[1]! <= 31 && +m[3]! <= 12) dayFirst = true;
    if (+m[3]! > 12 && +m[3]! <= 31 && +m[1]! <= 12) monthFirst = true;
  }
  if (dayFirst !== monthFirst) return true;
  return !monthFirst && DAY_FIRST_SIGNALS.test(text);
}

const TRUE_WORDS = new Set(["yes", "y", "true", "checked", "x", "[x]", "☑", "☒", "✓", "✔", "on", "1", "approved", "paid"]);
const FALSE_WORDS = new Set(["no", "n", "false", "unchecked", "[ ]", "☐", "off", "0", "none", "unpaid", "not paid"]);

/** parseBoolean reads yes/no, true/false, checked/unchecked and check-box marks. */
export function parseBoolean(text: string): boolean | null {
  const t = text.trim().toLowerCase().replace(/[.!]+$/, "");
  if (TRUE_WORDS.has(t)) return true;
  if (FALSE_WORDS.has(t)) return false;
  const first = t.split(/\s+/)[0] ?? "";
  if (first === "[x]" || first === "☑" || first === "☒" || first === "yes" || first === "true") return true;
  if (first === "[" || first === "[ ]" || first === "☐" || first === "no" || first === "false") return false;
  return null;
}

/** EMAIL_RE: an e-mail address; it starts where its local part starts (tried from every letter of a long word it took quadratic time) */
export const EMAIL_RE = /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/;
export const URL_RE = /\b(?:https?:\/\/[^\s)|>\]]+|www\.[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+(?:\/[^\s)|>\]]*)?)/;
export const PHONE_RE = /(?:\+\d{1,3}[\s.-]?)?(?:\(\d{2,4}\)\s?|\b\d{2,4}[\s.-])\d{3,4}[\s.-]?\d{3,4}\b/;
/** ID_RE: codes such as INV-2024-001, PO-7781, TXN98765, A12-B (a letter and a digit within the first 40 characters: a look from every word start of "A-A-A-..." over the whole run took quadratic time). */
export const ID_RE = /\b(?=[A-Z0-9/-]{0,40}\d)(?=[A-Z0-9/-]{0,40}[A-Z])[A-Z0-9]+(?:[-/#][A-Z0-9]+)*\b|\b\d[\d/-]{2,}\d\b/;
/** CURRENCY_CODES: the ISO 4217 codes the engine reads. */
export const CURRENCY_CODES = ["USD", "EUR", "GBP", "CAD", "AUD", "JPY", "CHF", "INR", "CNY", "MXN", "SEK", "NOK", "DKK", "NZD", "SGD", "HKD", "ZAR", "BRL", "PLN", "CZK", "HUF", "MYR"];
const CURRENCY_WORDS: Record<string, string> = { dollar: "USD", dollars: "USD", euro: "EUR", euros: "EUR", pound: "GBP", pounds: "GBP", yen: "JPY" };

const CURRENCY_CODE_RE = new RegExp(`\\b(${CURRENCY_CODES.join("|")})\\b`, "i");
const CURRENCY_SYMBOL_RE = new RegExp(`${DOLLAR_SIGN.source}|[€£¥₹]`, "i");

/** parseCurrency returns an ISO 4217 code named or implied (by symbol) in text. */
export function parseCurrency(text: string): string | null {
  const code = text.match(CURRENCY_CODE_RE);
  if (code) return code[1]!.toUpperCase();
  const word = text.toLowerCase().match(/\b(dollars?|euros?|pounds?|yen)\b/);
  if (word) return CURRENCY_WORDS[word[1]!]!;
  // "Kč 12.100,-", "500 Kč": the Czech koruna's sign, before or after an amount
  if (/(?<!\p{L})Kč(?!\p{L})/u.test(text)) return "CZK";
  // "3500,00 zł": the Polish złoty's sign after an amount
  if (/\d\s?zł(?!\p{L})|(?<!\p{L})zł(?!\p{L})/iu.test(text)) return "PLN";
  const symbol = text.match(CURRENCY_SYMBOL_RE);
  return symbol ? SYMBOL_CURRENCY[symbol[0].toLowerCase()]! : null;
}

/** firstMatch returns the first match of re in text, trimmed of trailing punctuation. */
export function firstMatch(re: RegExp, text: string): string | null {
  const m = text.match(re);
  return m ? m[0].replace(/[.,;:]+$/, "") : null;
}

/** allMatches returns every match of re in text, in order. */
export function allMatches(re: RegExp, text: string): string[] {
  return [...text.matchAll(new RegExp(re.source, re.flags.includes("g") ? re.flags : re.flags + "g"))].map((m) => m[0].replace(/[.,;:]+$/, ""));
}

/** escapeRe escapes text for use as a literal inside a RegExp. */
export const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** cleanText strips markdown emphasis, links, `<sup>`/`<sub>` tags and surrounding punctuation from a value. */
export function cleanText(text: string): string {
  return text
    .replace(/!\[[^\]]*\]\([^)]*\)/g, "")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<\/?su[bp]>/g, "")
    .replace(/\*\*|__|`/g, "")
    .replace(/(^|\s)[*_]+|[*_]+(\s|$)/g, "$1$2")
    .replace(/\s+/g, " ")
    .trim()
    // a leading dash is punctuation, unless it is a minus sign ("-233,47 €")
    .replace(/^(?:[:|,;]|[-–—](?!\s?[\d$€£¥]))+\s*/, "")
    .replace(/\s*[|,;]+$/, "")
    .trim();
}

/** RepairedDate: a date OCR misread in a known way, as the document writes it once the misread characters are put back. */
export interface RepairedDate {
  /** text: the date with the misread characters put back ("27/03/2018" for "27:03/2018") */
  text: string;
  /** raw: the characters as OCR read them */
  raw: string;
  index: number;
  iso: string;
}

/** DIGIT_LOOKALIKES: letters OCR reads for digits inside a number (O for 0, I and l for 1). */
const DIGIT_LOOKALIKES: Record<string, string> = { O: "0", o: "0", I: "1", l: "1" };

/**
 * OCR_DATE_SHAPES: numeric dates with one of the misreads tesseract makes on thermal paper: a letter
 * for a digit ("O7/01/18"), a colon for one separator ("27:03/2018"), a lost separator between day
 * and month before a four-digit year ("2703/2018"). Each yields [day-or-month, month-or-day, year, separator].
 */
const OCR_DATE_SHAPES: { re: RegExp; parts: (m: RegExpMatchArray) => [string, string, string, string] }[] = [
  {
    re: /(?<![\p{L}\d:])([\dOoIl]{1,2})([/.:-])([\dOoIl]{1,2})([/.:-])(\d{4}|\d{2})(?![\d:])/gu,
    parts: (m) => [m[1]!, m[3]!, m[5]!, m[2] === ":" ? m[4]! : m[2]!],
  },
  { re: /(?<![\p{L}\d])(\d{2})(\d{2})([/.-])(\d{4})(?![\d])/gu, parts: (m) => [m[1]!, m[2]!, m[4]!, m[3]!] },
];

/**
 * ocrRepairedDates lists the dates of OCR text that read as a date only once a known misread is put
 * back: the shapes of OCR_DATE_SHAPES, and a year years ahead whose 1 was read as a 7 ("10/03/2078",
 * "18 Mar 2078": `thisYear` says which years are ahead). Dates that parse as written are not listed.
 */
export function ocrRepairedDates(text: string, thisYear: number): RepairedDate[] {
  const out: RepairedDate[] = [];
  for (const { re, parts } of OCR_DATE_SHAPES) {
    for (const m of text.matchAll(re)) {
      const [a, b, year, sep] = parts(m);
      if (sep === ":") continue;
      const digits = (s: string) => s.replace(/[OoIl]/g, (c) => DIGIT_LOOKALIKES[c]!);
      const repaired = `${digits(a)}${sep}${digits(b)}${sep}${year}`;
      if (repaired === m[0]) continue;
      const d = parseDate(repaired);
      if (d && d.text === repaired && +d.iso.slice(0, 4) <= thisYear + 1) out.push({ text: repaired, raw: m[0], index: m.index!, iso: d.iso });
    }
  }
  for (const d of allDates(text)) {
    const year = d.text.match(/(?<!\d)20(7)(\d)(?!\d)/);
    if (!year || +d.iso.slice(0, 4) <= thisYear + 1) continue;
    const fixed = d.text.replace(/(?<!\d)207(\d)(?!\d)/, "201$1");
    const r = parseDate(fixed);
    if (r && +r.iso.slice(0, 4) <= thisYear) out.push({ text: fixed, raw: d.text, index: d.index, iso: r.iso });
  }
  return out.sort((x, y) => x.index - y.index);
}
