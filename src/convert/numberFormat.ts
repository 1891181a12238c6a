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
    if (ch === '"') {
      const end = section.indexOf('"', i + 1);
      const stop = end < 0 ? section.length : end;
      closeNumber();
      literal(section.slice(i + 1, stop));
      i = stop;
    } else if (ch === "\\") {
      closeNumber();
      literal(section[i + 1] ?? "");
      i++;
    } else if (ch === "_" || ch === "*") {
      // padding to another character's width, or a fill: no characters of their own
      i++;
    } else if (ch === "[") {
      const end = section.indexOf("]", i);
      const stop = end < 0 ? section.length : end;
      const tag = section.slice(i + 1, stop);
      // [$€-407], [$USD]: a currency; [Red], [Color12], [$-409] (a locale alone): nothing shown
      const currency = /^\$([^-]*)/.exec(tag)?.[1];
      if (currency) {
        closeNumber();
        literal(currency);
      } else if (/^(h+|m+|s+)$/i.test(tag)) return null;
      i = stop;
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
