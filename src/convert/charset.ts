/**
 * decodeText is the one charset decoder of the converters (text, code, data, HTML, feeds, CSV):
 * a byte order mark, else UTF-16 recognised by its zero bytes, else valid UTF-8, else UTF-8 with a
 * few broken sequences (a truncated teaser, a legacy include; the bytes' own evidence outweighs any
 * declaration), else the charset the sender declared, else statistical detection (chardet) among the common legacy charsets
 * (Shift_JIS, EUC-JP, GB18030, Big5, EUC-KR, Windows and ISO-8859 code pages), checked against the
 * byte structure, else windows-1252, which decodes anything.
 */
import chardet from "chardet";

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
  const evidence = utf8Evidence(bytes);
  if (evidence.valid >= MOSTLY_UTF8_MIN_SEQUENCES && evidence.valid >= MOSTLY_UTF8_SHARE * (evidence.valid + evidence.invalid)) {
    // Text written in UTF-8 with a few stray bytes: a legacy decoder would garble every letter.
    const stray = declared && !/^(?:utf-|shift_jis|euc-|gb|big5|iso-2022)/.test(declared.encoding) ? declared : new TextDecoder("windows-1252");
    return { text: decodeMixedUtf8(bytes, stray), charset: "utf-8" };
  }
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

/**
 * MOSTLY_UTF8_MIN_SEQUENCES, MOSTLY_UTF8_SHARE: bytes that are not valid UTF-8 are still read as
 * UTF-8 when they hold this many well-formed multi-byte sequences and these are this share of all
 * non-ASCII runs. Legacy text rarely forms a valid sequence by chance (a letter byte 0xC0-0xF4 must
 * be followed by exactly the right number of bytes 0x80-0xBF); a UTF-8 page with one truncated
 * character ("papieros\xC3...") has hundreds against one.
 */
const MOSTLY_UTF8_MIN_SEQUENCES = 3;
const MOSTLY_UTF8_SHARE = 0.9;

/** utf8SequenceLength: the length of the well-formed UTF-8 sequence at `i` (1 for ASCII), or 0 when the bytes there are not one. */
function utf8SequenceLength(bytes: Uint8Array, i: number): number {
  const b = bytes[i]!;
  if (b < 0x80) return 1;
  let n: number;
  let min = 0x80;
  let max = 0xbf;
  if (b >= 0xc2 && b <= 0xdf) n = 2;
  else if (b >= 0xe0 && b <= 0xef) {
    n = 3;
    if (b === 0xe0) min = 0xa0;
    if (b === 0xed) max = 0x9f;
  } else if (b >= 0xf0 && b <= 0xf4) {
    n = 4;
    if (b === 0xf0) min = 0x90;
    if (b === 0xf4) max = 0x8f;
  } else return 0;
  if (i + n > bytes.length) return 0;
  const second = bytes[i + 1]!;
  if (second < min || second > max) return 0;
  for (let k = 2; k < n; k++) if ((bytes[i + k]! & 0xc0) !== 0x80) return 0;
  return n;
}

/** utf8Evidence counts the well-formed multi-byte UTF-8 sequences of the bytes and the non-ASCII bytes that start none. */
function utf8Evidence(bytes: Uint8Array): { valid: number; invalid: number } {
  let valid = 0;
  let invalid = 0;
  for (let i = 0; i < bytes.length; ) {
    if (bytes[i]! < 0x80) {
      i++;
      continue;
    }
    const n = utf8SequenceLength(bytes, i);
    if (n === 0) {
      invalid++;
      i++;
    } else {
      valid++;
      i += n;
    }
  }
  return { valid, invalid };
}

/** decodeMixedUtf8 decodes the UTF-8 runs of the bytes as UTF-8 and each byte outside them with `stray` (the declared legacy charset, or windows-1252). */
function decodeMixedUtf8(bytes: Uint8Array, stray: TextDecoder): string {
  const utf8 = new TextDecoder("utf-8");
  const parts: string[] = [];
  let start = 0;
  for (let i = 0; i < bytes.length; ) {
    const n = bytes[i]! < 0x80 ? 1 : utf8SequenceLength(bytes, i);
    if (n > 0) {
      i += n;
      continue;
    }
    let end = i + 1;
    while (end < bytes.length && bytes[end]! >= 0x80 && utf8SequenceLength(bytes, end) === 0) end++;
    parts.push(utf8.decode(bytes.subarray(start, i)), stray.decode(bytes.subarray(i, end)));
    start = i = end;
  }
  parts.push(utf8.decode(bytes.subarray(start)));
  return parts.join("");
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
