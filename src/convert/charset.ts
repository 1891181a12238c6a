/**
 * decodeText is the one charset decoder of the converters (text, code, data, HTML, feeds, CSV):
 * a byte order mark, else UTF-16 recognised by its zero bytes, else valid UTF-8, else the charset
 * the sender declared, else statistical detection (chardet) among the common legacy charsets
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
