/**
 * numberFormat renders a spreadsheet number the way its cell's number format code shows it
 * (ECMA-376 Part 1, 18.8.31: the codes Excel, LibreOffice and Google Sheets write): fixed
 * decimals, thousands separators, percentages, scaling by trailing commas, currency symbols
 * (quoted, escaped, or a `[$€-407]` locale tag), and a negative or zero section of its own
 * (`#,##0.00;(#,##0.00)`). Separators are written the invariant way ("1,234.50"): a reader's
 * locale is not in the file. Colours and padding (`[Red]`, `_)`, `*-`) take no characters.
 *
 * What is beyond it returns null, and the caller writes the plain number: dates and times (the
 * caller renders those as ISO text first), scientific notation, fractions, conditional sections
 * (`[>=1000]`), and text-only formats.
 */

/** renderNumberFormat returns n as `code` shows it, or null where the code is beyond this renderer (see above). */
export function renderNumberFormat(n: number, code: string): string | null {
  if (!Number.isFinite(n) || code === "" || /^general$/i.test(code.trim())) return null;
  const sections = splitSections(code);
  if (sections.some((section) => /\[[<>=]/.test(section))) return null;
  const [positive = "", negative, zero] = sections;
  let section = positive;
  let value = n;
  let sign = "";
  if (n < 0) {
    if (negative !== undefined) {
      section = negative;
      value = -n;
    } else {
      value = -n;
      sign = "-";
    }
  } else if (n === 0 && zero !== undefined) section = zero;
  const parsed = parseSection(section);
  if (!parsed) return null;
  if (!parsed.number) return parsed.before + parsed.after;
  const digits = renderDigits(value, parsed.number);
  if (digits === null) return null;
  // a value that rounds to zero shows no minus sign ("-0.00" is not what a sheet shows)
  if (!/[1-9]/.test(digits)) sign = "";
  return `${sign}${parsed.before}${digits}${parsed.after}`.trim();
}

/** NumberPart is the digits' shape: how many digits at least before the point, how many after (at least, at most), grouping, scaling, percent. */
interface NumberPart {
  minInteger: number;
  minDecimals: number;
  maxDecimals: number;
  grouping: boolean;
  /** scale: the value is divided by 1000 per comma right after the last digit placeholder */
  scale: number;
  /** percents: the value is multiplied by 100 per % sign */
  percents: number;
}

/** splitSections splits a format code at `;` outside quotes, brackets and escapes. */
function splitSections(code: string): string[] {
  const sections: string[] = [];
  let current = "";
  for (let i = 0; i < code.length; i++) {
    const ch = code[i]!;
    if (ch === '"') {
      const end = code.indexOf('"', i + 1);
      const stop = end < 0 ? code.length : end + 1;
      current += code.slice(i, stop);
      i = stop - 1;
    } else if (ch === "\\" || ch === "_" || ch === "*") {
      current += code.slice(i, i + 2);
      i++;
    } else if (ch === "[") {
      const end = code.indexOf("]", i);
      const stop = end < 0 ? code.length : end + 1;
      current += code.slice(i, stop);
      i = stop - 1;
    } else if (ch === ";") {
      sections.push(current);
      current = "";
    } else current += ch;
  }
  sections.push(current);
  return sections;
}

/**
 * FormatPiece is what a format's character opens that reads the same in number and date formats: a
 * quoted run or a backslash's character (text shown as written), a padding or fill pair (`_)`,
 * `* `: no characters of its own), a bracketed tag (`[Red]`, `[$€-407]`, `[h]`). `last` is the
 * index of its last character.
 */
type FormatPiece = { kind: "text"; text: string; last: number } | { kind: "padding"; last: number } | { kind: "tag"; tag: string; last: number };

/** pieceAt reads the FormatPiece section[i] opens, or null when it opens none (a placeholder, a letter, a sign). */
function pieceAt(section: string, i: number): FormatPiece | null {
  const ch = section[i];
  if (ch === '"') {
    const end = section.indexOf('"', i + 1);
    const stop = end < 0 ? section.length : end;
    return { kind: "text", text: section.slice(i + 1, stop), last: stop };
  }
  if (ch === "\\") return { kind: "text", text: section[i + 1] ?? "", last: i + 1 };
  if (ch === "_" || ch === "*") return { kind: "padding", last: i + 1 };
  if (ch === "[") {
    const end = section.indexOf("]", i);
    const stop = end < 0 ? section.length : end;
    return { kind: "tag", tag: section.slice(i + 1, stop), last: stop };
  }
  return null;
}

const PLACEHOLDER = /[0#?]/;
/**
 * parseSection reads one section into the text before the digits, the digits' shape and the text
 * after, or null when the section holds what this renderer does not draw (exponents, fractions,
 * date or time letters, text placeholders).
 */
function parseSection(section: string): { before: string; number: NumberPart | null; after: string } | null {
  let before = "";
  let after = "";
  let number: NumberPart | null = null;
  let inNumber = false;
  let afterPoint = false;
  let pendingCommas = 0;
  let percents = 0;
  const part: NumberPart = { minInteger: 0, minDecimals: 0, maxDecimals: 0, grouping: false, scale: 0, percents: 0 };
  // every caller ends the digits first (closeNumber), so text after them is the number's suffix
  const literal = (text: string) => {
    if (number) after += text;
    else before += text;
  };
  for (let i = 0; i < section.length; i++) {
    const ch = section[i]!;
    const piece = pieceAt(section, i);
    if (piece) {
      // padding and fills show no characters of their own and leave the digits open
      if (piece.kind === "text") {
        closeNumber();
        literal(piece.text);
      } else if (piece.kind === "tag") {
        // [$€-407], [$USD]: a currency; [Red], [Color12], [$-409] (a locale alone): nothing shown
        const currency = /^\$([^-]*)/.exec(piece.tag)?.[1];
        if (currency) {
          closeNumber();
          literal(currency);
        } else if (/^(h+|m+|s+)$/i.test(piece.tag)) return null;
      }
      i = piece.last;
    } else if (PLACEHOLDER.test(ch)) {
      if (number && !inNumber) return null; // a second number (a fraction's parts, digits after text)
      if (!number) number = part;
      inNumber = true;
      if (pendingCommas > 0) {
        part.grouping = true;
        pendingCommas = 0;
      }
      if (afterPoint) {
        part.maxDecimals++;
        if (ch === "0") part.minDecimals = part.maxDecimals;
      } else if (ch === "0") part.minInteger++;
    } else if (ch === "." && (inNumber || PLACEHOLDER.test(section[i + 1] ?? ""))) {
      if (afterPoint) return null;
      if (!number) number = part;
      inNumber = true;
      afterPoint = true;
    } else if (ch === "," && inNumber) {
      pendingCommas++;
    } else if (ch === "%") {
      closeNumber();
      percents++;
      literal("%");
    } else if (/[eE]/.test(ch) && inNumber) {
      return null; // scientific notation
    } else if (ch === "@" || /[a-zA-Z]/.test(ch)) {
      return null; // a text placeholder, or date/time letters
    } else {
      // anything else is shown as it is ($, -, +, (, ), :, a space, a bare currency sign, a comma outside the digits)
      if (ch === "/" && inNumber) return null; // a fraction
      closeNumber();
      literal(ch);
    }
  }
  closeNumber();
  part.percents = percents;
  return { before, number, after };

  /** closeNumber ends the digits: commas right after the last placeholder scale the value */
  function closeNumber(): void {
    if (inNumber && pendingCommas > 0) part.scale += pendingCommas;
    pendingCommas = 0;
    inNumber = false;
  }
}

/** renderDigits writes a non-negative value in the digits' shape, or null past 15 digits (where a sheet shows its plain number too). */
function renderDigits(value: number, part: NumberPart): string | null {
  let v = value * 100 ** part.percents / 1000 ** part.scale;
  if (v >= 1e15) return null;
  // 15 significant digits, as a sheet shows them: 1.005 is 1.00499999999999989 in binary
  v = Number.parseFloat(v.toPrecision(15));
  const fixed = roundHalfUp(v, part.maxDecimals);
  let [integer = "0", decimals = ""] = fixed.split(".");
  while (decimals.length > part.minDecimals && decimals.endsWith("0")) decimals = decimals.slice(0, -1);
  if (integer === "0" && part.minInteger === 0) integer = "";
  integer = integer.padStart(part.minInteger, "0");
  if (part.grouping) integer = integer.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  // "#" and "?" show nothing for a zero digit: an accounting zero "_-* \"-\"??_-" reads "-"
  return decimals ? `${integer}.${decimals}` : integer;
}

/** roundHalfUp is toFixed with halves rounded away from zero on the decimal value (toFixed rounds the binary one) */
function roundHalfUp(v: number, decimals: number): string {
  const shifted = Number.parseFloat((v * 10 ** decimals).toPrecision(15));
  const rounded = Math.round(shifted);
  return (rounded / 10 ** decimals).toFixed(decimals);
}

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/** Names: the month names (January first) and day names (Sunday first) a language writes in full */
type Names = { months: string[]; days: string[] };
const ENGLISH: Names = { months: MONTHS, days: DAYS };

/**
 * LANGUAGE_NAMES: full month and day names by a locale tag's primary language (its LCID's low ten
 * bits: `[$-407]` German, `[$-40C]` French), as the language writes them. Only full names
 * (`mmmm`, `dddd`) and first letters (`mmmmm`): the short forms vary by system (`Mrz` or `Mär`,
 * `janv.` or `jan`), so a format of short names in these languages stays the caller's ISO text, as
 * does any other language's names.
 */
const LANGUAGE_NAMES: Record<number, Names> = {
  0x07: {
    months: ["Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November", "Dezember"],
    days: ["Sonntag", "Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag"],
  },
  0x0c: {
    months: ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"],
    days: ["dimanche", "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi"],
  },
  0x0a: {
    months: ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre"],
    days: ["domingo", "lunes", "martes", "miércoles", "jueves", "viernes", "sábado"],
  },
  0x10: {
    months: ["gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre", "ottobre", "novembre", "dicembre"],
    days: ["domenica", "lunedì", "martedì", "mercoledì", "giovedì", "venerdì", "sabato"],
  },
  0x13: {
    months: ["januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus", "september", "oktober", "november", "december"],
    days: ["zondag", "maandag", "dinsdag", "woensdag", "donderdag", "vrijdag", "zaterdag"],
  },
  0x16: {
    months: ["janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro", "novembro", "dezembro"],
    days: ["domingo", "segunda-feira", "terça-feira", "quarta-feira", "quinta-feira", "sexta-feira", "sábado"],
  },
};

/** AUSTRIAN: German as Austria writes it (`[$-C07]`): Jänner for January */
const AUSTRIAN: Names = { months: ["Jänner", ...LANGUAGE_NAMES[0x07]!.months.slice(1)], days: LANGUAGE_NAMES[0x07]!.days };

/** namesOf: the names a locale tag's LCID (hex digits) writes; null for a language without full names here */
function namesOf(lcid: number): Names | null {
  const language = lcid & 0x3ff;
  if (language === 0x09) return ENGLISH;
  if ((lcid & 0xffff) === 0x0c07) return AUSTRIAN;
  return LANGUAGE_NAMES[language] ?? null;
}
/** MAX_DATE_CODE: characters of a date format read; a longer one (no sheet writes one) is left to the caller's ISO text */
const MAX_DATE_CODE = 256;

/** DateToken is one piece of a date or time format: a field (`yyyy`, `mmm`, `h`, `ss`, `AM/PM`, `[h]`, `.00`) or literal text. */
type DateToken = { kind: "field"; code: string } | { kind: "text"; text: string };

/**
 * renderDateFormat returns a date serial (days since the workbook's epoch, the fraction the time
 * of day) as the date format `code` shows it: `dd/mm/yyyy` 15/03/2023, `mmm-yy` Mar-23, `mmmm d, yyyy`
 * March 15, 2023, `d-mmm-yy`, `dddd`, `h:mm AM/PM`, `[h]:mm:ss`, `ss.00`. Month and day names are
 * English, or the language of the code's locale tag in full (`[$-407]dd. mmmm yyyy` 15. März 2023;
 * LANGUAGE_NAMES). Null (the caller writes ISO) where the code shows names of another language, or
 * short names of a language other than English, where it asks for the system's long date or time
 * (`[$-F800]`, `[$-F400]`: the reader's settings), for letters it does not know (eras, Buddhist
 * years), and past MAX_DATE_CODE characters.
 */
export function renderDateFormat(serial: number, code: string, date1904: boolean): string | null {
  if (!Number.isFinite(serial) || serial < 0 || serial >= 2_958_466 || code.length > MAX_DATE_CODE) return null;
  const section = splitSections(code)[0] ?? "";
  const read = dateTokens(section);
  if (!read) return null;
  const { tokens, names } = read;
  const fields = tokens.flatMap((t) => (t.kind === "field" ? [t.code.toLowerCase()] : []));
  if (!fields.length) return null;
  const twelveHour = fields.some((f) => f === "am/pm" || f === "a/p");
  const decimals = Math.max(0, ...fields.filter((f) => f.startsWith(".")).map((f) => f.length - 1));
  // the time shown is rounded to the smallest unit the code shows, as a sheet rounds it
  const unit = 10 ** -decimals;
  const totalSeconds = Math.round((serial * 86_400) / unit) * unit;
  const days = Math.floor(totalSeconds / 86_400 + 1e-9);
  const ms = (date1904 ? Date.UTC(1904, 0, 1) : days < 60 ? Date.UTC(1899, 11, 31) : Date.UTC(1899, 11, 30)) + days * 86_400_000;
  const date = new Date(ms);
  const secondsOfDay = totalSeconds - days * 86_400;
  const hours = Math.floor(secondsOfDay / 3600 + 1e-9);
  const minutes = Math.floor((secondsOfDay - hours * 3600) / 60 + 1e-9);
  const seconds = secondsOfDay - hours * 3600 - minutes * 60;
  const pad = (v: number, width: number) => String(v).padStart(width, "0");
  let out = "";
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.kind === "text") {
      out += token.text;
      continue;
    }
    const f = token.code.toLowerCase();
    if (f[0] === "y") out += f.length <= 2 ? pad(date.getUTCFullYear() % 100, 2) : String(date.getUTCFullYear());
    else if (f[0] === "d") {
      if (f.length <= 2) out += pad(date.getUTCDate(), f.length);
      else out += f.length === 3 ? names.days[date.getUTCDay()]!.slice(0, 3) : names.days[date.getUTCDay()]!;
    } else if (f[0] === "m" && !isMinute(tokens, i)) {
      const month = date.getUTCMonth();
      if (f.length <= 2) out += pad(month + 1, f.length);
      else out += f.length === 3 ? names.months[month]!.slice(0, 3) : f.length === 4 ? names.months[month]! : names.months[month]![0]!;
    } else if (f[0] === "m") out += pad(minutes, f.length);
    else if (f[0] === "h") out += pad(twelveHour ? ((hours + 11) % 12) + 1 : hours, f.length);
    else if (f[0] === "s") out += pad(Math.floor(seconds + 1e-9), f.length);
    else if (f[0] === ".") out += (seconds % 1).toFixed(f.length - 1).slice(1);
    else if (f === "am/pm" || f === "a/p") {
      const pm = hours >= 12;
      const word = f === "am/pm" ? (pm ? "PM" : "AM") : pm ? "P" : "A";
      // a/p keeps the case the code was typed in
      out += token.code === "a/p" ? word.toLowerCase() : word;
    } else if (f.startsWith("[")) {
      const inner = f.slice(1, -1);
      const whole = inner[0] === "h" ? Math.floor(totalSeconds / 3600 + 1e-9) : inner[0] === "m" ? Math.floor(totalSeconds / 60 + 1e-9) : Math.floor(totalSeconds + 1e-9);
      out += pad(whole, inner.length);
    }
  }
  return out.trim();
}

/** isMinute: an `m`/`mm` field right after an hour field or right before a seconds field is minutes, not the month */
function isMinute(tokens: DateToken[], at: number): boolean {
  const code = (tokens[at] as { code: string }).code;
  if (code.length > 2) return false;
  const fieldAt = (step: number): string | null => {
    for (let i = at + step; i >= 0 && i < tokens.length; i += step) {
      const t = tokens[i]!;
      if (t.kind === "field") return t.code.toLowerCase();
    }
    return null;
  };
  const before = fieldAt(-1);
  const after = fieldAt(1);
  return (before !== null && (before[0] === "h" || before.startsWith("[h"))) || (after !== null && (after[0] === "s" || after.startsWith("[s")));
}

/**
 * dateTokens splits one section of a date format into fields and literal text, or null where it
 * holds what renderDateFormat does not draw (see there). Runs of one letter are one field.
 */
function dateTokens(section: string): { tokens: DateToken[]; names: Names } | null {
  const tokens: DateToken[] = [];
  const text = (t: string) => {
    const last = tokens[tokens.length - 1];
    if (last?.kind === "text") last.text += t;
    else if (t) tokens.push({ kind: "text", text: t });
  };
  let named = false;
  let short = false;
  let names: Names | null = ENGLISH;
  for (let i = 0; i < section.length; i++) {
    const ch = section[i]!;
    const lower = ch.toLowerCase();
    const piece = pieceAt(section, i);
    if (piece?.kind === "tag") {
      const tag = piece.tag;
      if (/^(?:h+|m+|s+)$/i.test(tag)) tokens.push({ kind: "field", code: `[${tag}]` });
      else if (tag.startsWith("$")) {
        // a locale: [$-409] (English, US), [$-F800] the system's long date, [$-x-sysdate]; [$€-407] a currency
        const locale = /-([0-9a-f]{1,8})$/i.exec(tag)?.[1];
        if (/^\$-(?:x-sys|f800|f400)/i.test(tag) || (locale && /^f[48]00$/i.test(locale.slice(-4)))) return null;
        if (locale) names = namesOf(Number.parseInt(locale.slice(-4), 16));
        const symbol = /^\$([^-]*)/.exec(tag)?.[1];
        if (symbol) text(symbol);
      }
      // [Red], [Color12]: no characters
      i = piece.last;
    } else if (piece) {
      // padding and fills show no characters of their own
      if (piece.kind === "text") text(piece.text);
      i = piece.last;
    } else if (lower === "a" && /^a\/p/i.test(section.slice(i, i + 3))) {
      tokens.push({ kind: "field", code: section.slice(i, i + 3) });
      i += 2;
    } else if (lower === "a" && /^am\/pm/i.test(section.slice(i, i + 5))) {
      tokens.push({ kind: "field", code: section.slice(i, i + 5) });
      i += 4;
    } else if ("ymdhs".includes(lower)) {
      let end = i + 1;
      while (end < section.length && section[end]!.toLowerCase() === lower) end++;
      const run = section.slice(i, end);
      if ((lower === "d" || lower === "m") && run.length >= 3) named = true;
      if ((lower === "d" || lower === "m") && run.length === 3) short = true;
      tokens.push({ kind: "field", code: run });
      i = end - 1;
    } else if (ch === "." && /^0/.test(section.slice(i + 1)) && tokens.some((t) => t.kind === "field" && /^\[?s/i.test(t.code))) {
      let end = i + 1;
      while (end < section.length && section[end] === "0" && end - i <= 3) end++;
      tokens.push({ kind: "field", code: section.slice(i, end) });
      i = end - 1;
    } else if (/[a-z@#?0]/i.test(ch)) {
      return null; // eras (e, g), Buddhist years (b), text or digit placeholders: not a date format drawn here
    } else text(ch);
  }
  // names of a language without them here, or short names of a language other than English: the caller's ISO text
  if (named && (!names || (short && names !== ENGLISH))) return null;
  return { tokens, names: names ?? ENGLISH };
}
