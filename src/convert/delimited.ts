/**
 * CSV and TSV -> one GFM table. The text's charset is found the way a careful reader would: a byte
 * order mark, else valid UTF-8, else the charset the sender declared, else statistical detection
 * (chardet) among the common legacy charsets (Shift_JIS, EUC-JP, GB18030, Big5, EUC-KR, Windows and
 * ISO-8859 code pages, UTF-16). Fields follow RFC 4180 (quoted delimiters, quotes and newlines).
 */
import chardet from "chardet";
import { AppError } from "../errors";
import { gfmTable, tidyMarkdown } from "./markdown";
import type { Converter } from "./types";

/** MAX_ROWS: data rows rendered; the rest is dropped with a warning. */
export const MAX_ROWS = 10_000;

/** DELIMITERS are the candidates the sniffer chooses from, in order of preference on a tie. */
const DELIMITERS = [",", ";", "\t", "|"] as const;

/** convertDelimited turns a CSV or TSV file into one markdown table, the first row as header. */
export const convertDelimited: Converter = async (input, ctx) => {
  ctx.signal.throwIfAborted();
  const what = `${input.ext ? input.ext.toUpperCase() : "CSV"} '${input.filename}'`;
  const { text } = decodeText(input.bytes, input.declaredCharset);
  const delimiter = input.ext === "tsv" || input.ext === "tab" ? "\t" : sniffDelimiter(text);
  ctx.signal.throwIfAborted();
  const { rows, dropped } = parseDelimited(text, delimiter, MAX_ROWS + 1);
  const nonEmpty = rows.filter((r) => r.some((cell) => cell.trim() !== ""));
  if (nonEmpty.length === 0) throw new AppError("empty_document", `${what} has no values`);
  const warnings = dropped > 0 ? [`${what}: ${dropped} rows past the first ${MAX_ROWS} were not converted`] : [];
  return {
    markdown: tidyMarkdown(gfmTable(nonEmpty)),
    title: null,
    totalPages: 0,
    method: "text",
    warnings,
  };
};

const DETECTABLE = new Set([
  "Shift_JIS", "EUC-JP", "GB18030", "Big5", "EUC-KR", "UTF-16LE", "UTF-16BE", "KOI8-R",
  "windows-1250", "windows-1251", "windows-1252", "windows-1253", "windows-1254", "windows-1255", "windows-1256",
  "windows-1257", "windows-1258", "windows-874",
  "ISO-8859-1", "ISO-8859-2", "ISO-8859-5", "ISO-8859-6", "ISO-8859-7", "ISO-8859-8", "ISO-8859-9",
]);

const MULTI_BYTE = new Set(["Shift_JIS", "EUC-JP", "GB18030", "Big5", "EUC-KR"]);

/** DETECTION_SAMPLE: bytes given to chardet; enough for a reliable guess, cheap on large files. */
const DETECTION_SAMPLE = 64 * 1024;

/**
 * decodeText decodes bytes of unknown charset: BOM, then valid UTF-8, then the declared charset,
 * then chardet's candidates (multi-byte CJK ones first when the byte structure says so; the first
 * that decodes without error wins), then windows-1252, which decodes anything. Returns the text
 * and the charset's canonical name.
 */
export function decodeText(bytes: Uint8Array, declaredCharset?: string): { text: string; charset: string } {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { text: new TextDecoder("utf-8").decode(bytes.subarray(3)), charset: "utf-8" };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { text: new TextDecoder("utf-16le").decode(bytes.subarray(2)), charset: "utf-16le" };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { text: new TextDecoder("utf-16be").decode(bytes.subarray(2)), charset: "utf-16be" };
  const utf16 = guessUtf16(bytes);
  if (utf16) return { text: new TextDecoder(utf16).decode(bytes), charset: utf16 };
  const utf8 = tryDecode(bytes, "utf-8");
  if (utf8 !== null) return { text: utf8, charset: "utf-8" };
  const declared = declaredCharset ? decoderFor(declaredCharset) : null;
  if (declared && declared.encoding !== "utf-8") return { text: declared.decode(bytes), charset: declared.encoding };
  const sample = bytes.subarray(0, DETECTION_SAMPLE);
  // chardet ranks single-byte code pages high on short CJK samples, so the byte structure decides the
  // family first: in multi-byte text most high bytes sit next to another high byte; in Latin text
  // they are isolated letters inside ASCII words.
  const multiByte = pairedHighByteRatio(sample) >= 0.6;
  const candidates = chardet.analyse(sample).filter((m) => DETECTABLE.has(m.name));
  const ordered = [...candidates.filter((m) => MULTI_BYTE.has(m.name) === multiByte), ...candidates.filter((m) => MULTI_BYTE.has(m.name) !== multiByte)];
  for (const match of ordered) {
    const decoder = decoderFor(match.name);
    if (!decoder) continue;
    // A sample cut inside a multi-byte character would fail the strict check: test its complete part.
    const checked = tryDecode(bytes.length > DETECTION_SAMPLE ? sample.subarray(0, DETECTION_SAMPLE - 4) : bytes, decoder.encoding);
    if (checked === null) continue;
    if (MULTI_BYTE.has(match.name) && cjkRatio(checked) < 0.5) continue;
    return { text: decoder.decode(bytes), charset: decoder.encoding };
  }
  return { text: new TextDecoder("windows-1252").decode(bytes), charset: "windows-1252" };
}

/** pairedHighByteRatio is the share of bytes >= 0x80 that have another such byte as a neighbour. */
function pairedHighByteRatio(bytes: Uint8Array): number {
  let high = 0;
  let paired = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i]! < 0x80) continue;
    high++;
    if ((bytes[i - 1] ?? 0) >= 0x80 || (bytes[i + 1] ?? 0) >= 0x80) paired++;
  }
  return high ? paired / high : 0;
}

/** cjkRatio is the share of non-ASCII characters that are CJK ideographs, kana, Hangul or full-width forms. */
function cjkRatio(text: string): number {
  let nonAscii = 0;
  let cjk = 0;
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (code < 0x80) continue;
    nonAscii++;
    if ((code >= 0x3000 && code <= 0x9fff) || (code >= 0xac00 && code <= 0xd7af) || (code >= 0xf900 && code <= 0xfaff) || (code >= 0xff00 && code <= 0xffef) || (code >= 0x20000 && code <= 0x3ffff)) cjk++;
  }
  return nonAscii ? cjk / nonAscii : 0;
}

function decoderFor(label: string): TextDecoder | null {
  try {
    return new TextDecoder(label.trim().toLowerCase());
  } catch {
    return null;
  }
}

function tryDecode(bytes: Uint8Array, label: string): string | null {
  try {
    return new TextDecoder(label, { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** guessUtf16 recognises UTF-16 without a BOM: mostly-ASCII text has a NUL in every other byte. */
function guessUtf16(bytes: Uint8Array): "utf-16le" | "utf-16be" | null {
  const n = Math.min(bytes.length, 4096) & ~1;
  if (n < 4) return null;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) evenZeros++;
    if (bytes[i + 1] === 0) oddZeros++;
  }
  const pairs = n / 2;
  if (oddZeros > pairs * 0.4 && evenZeros < pairs * 0.05) return "utf-16le";
  if (evenZeros > pairs * 0.4 && oddZeros < pairs * 0.05) return "utf-16be";
  return null;
}

/**
 * sniffDelimiter picks the delimiter that splits the first lines most consistently: the candidate
 * whose per-line count (outside quotes) is most often equal to its most common non-zero count.
 */
export function sniffDelimiter(text: string): string {
  const lines = sampleLines(text, 30);
  let best: string = ",";
  let bestScore = 0;
  for (const delimiter of DELIMITERS) {
    const counts = lines.map((line) => countOutsideQuotes(line, delimiter));
    const frequency = new Map<number, number>();
    for (const c of counts) if (c > 0) frequency.set(c, (frequency.get(c) ?? 0) + 1);
    if (frequency.size === 0) continue;
    const [mode, modeLines] = [...frequency].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]!;
    // Consistency dominates; more columns break ties between equally consistent candidates.
    const score = (modeLines / lines.length) * 1000 + Math.min(mode, 999) / 1000;
    if (score > bestScore) {
      best = delimiter;
      bestScore = score;
    }
  }
  return best;
}

/** sampleLines returns up to `max` logical lines (a quoted newline does not end a line). */
function sampleLines(text: string, max: number): string[] {
  const lines: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length && lines.length < max; i++) {
    const ch = text[i];
    if (ch === '"') quoted = !quoted;
    else if (ch === "\n" && !quoted) {
      const line = text.slice(start, i).replace(/\r$/, "");
      if (line.trim()) lines.push(line);
      start = i + 1;
    }
  }
  if (lines.length < max && start < text.length) {
    const line = text.slice(start).replace(/\r$/, "");
    if (line.trim()) lines.push(line);
  }
  return lines;
}

function countOutsideQuotes(line: string, delimiter: string): number {
  let count = 0;
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (ch === delimiter && !quoted) count++;
  }
  return count;
}

/**
 * parseDelimited splits text into rows of fields per RFC 4180: a field in double quotes may hold
 * the delimiter, newlines and doubled quotes. Stops after `maxRows` rows and counts the rest.
 */
export function parseDelimited(text: string, delimiter: string, maxRows = Number.POSITIVE_INFINITY): { rows: string[][]; dropped: number } {
  const rows: string[][] = [];
  let dropped = 0;
  let row: string[] = [];
  let field = "";
  let quoted = false;
  let fieldStarted = false;
  const endRow = () => {
    row.push(field);
    field = "";
    fieldStarted = false;
    const empty = row.length === 1 && row[0] === "";
    if (!empty) {
      if (rows.length < maxRows) rows.push(row);
      else dropped++;
    }
    row = [];
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += ch;
      continue;
    }
    if (ch === '"' && !fieldStarted) {
      quoted = true;
      fieldStarted = true;
    } else if (ch === delimiter) {
      row.push(field);
      field = "";
      fieldStarted = false;
    } else if (ch === "\n") {
      endRow();
    } else if (ch === "\r") {
      if (text[i + 1] !== "\n") endRow();
    } else {
      field += ch;
      fieldStarted = true;
    }
  }
  if (field !== "" || row.length > 0) endRow();
  return { rows, dropped };
}
