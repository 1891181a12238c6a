/**
 * Plain text and lightweight markup (txt, log, md, rst, adoc, tex): decode the bytes to a string
 * whatever the charset, keep markdown as written and plain text with its paragraphs.
 */
import chardet from "chardet";
import { AppError } from "../errors";
import { tidyMarkdown } from "./markdown";
import type { Converter } from "./types";

/** MARKDOWN_EXTENSIONS are the extensions whose text already is markdown. */
const MARKDOWN_EXTENSIONS = new Set(["md", "markdown", "mdown", "mkd", "mdx"]);

/** BOMS are the byte order marks we honour, longest first. */
const BOMS: Array<[number[], string]> = [
  [[0xef, 0xbb, 0xbf], "utf-8"],
  [[0xff, 0xfe], "utf-16le"],
  [[0xfe, 0xff], "utf-16be"],
];

/**
 * decodeText turns bytes into text: a byte order mark wins, then the declared charset, then strict
 * UTF-8, then chardet's best guess that TextDecoder knows, and windows-1252 as the last resort
 * (it maps every byte, so decoding never fails). The BOM itself is dropped.
 */
export function decodeText(bytes: Uint8Array, declaredCharset?: string): string {
  for (const [mark, encoding] of BOMS) {
    if (mark.every((b, i) => bytes[i] === b)) return new TextDecoder(encoding).decode(bytes.subarray(mark.length));
  }
  const declared = declaredCharset ? decoderFor(declaredCharset) : null;
  if (declared && !/^utf-?8$/i.test(declared.encoding)) return declared.decode(bytes);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    // not UTF-8: guess below
  }
  const guesses = chardet.analyse(bytes).filter((g) => !/^(ascii|utf-8)$/i.test(g.name));
  const top = guesses[0];
  // chardet's statistics need long texts: on a short CJK text (a CSV of names) a Latin charset
  // often wins with a low score, so a strict multi-byte decode that yields mostly CJK comes first.
  if (!top || top.confidence < CONFIDENT || CJK_ENCODINGS.includes(top.name.toLowerCase())) {
    const cjk = cjkDecode(bytes, guesses.map((g) => g.name.toLowerCase()));
    if (cjk !== null) return cjk;
  }
  for (const guess of guesses) {
    if (guess.confidence < 10) continue;
    const decoder = decoderFor(guess.name);
    if (decoder) return decoder.decode(bytes);
  }
  return new TextDecoder("windows-1252").decode(bytes);
}

/** CONFIDENT: chardet confidence (0-100) above which its single-byte guess is trusted as is */
const CONFIDENT = 50;

/** CJK_ENCODINGS are the multi-byte charsets tried by cjkDecode, in default order. */
const CJK_ENCODINGS = ["shift_jis", "euc-jp", "euc-kr", "big5", "gb18030"];

/**
 * cjkDecode decodes strictly with each CJK charset (chardet's ranking first) and returns the first
 * text in which ideographs, kana or hangul make at least 20 % of the visible characters; null when
 * none does. Latin text in a single-byte charset almost never decodes strictly as one of these.
 */
function cjkDecode(bytes: Uint8Array, ranked: string[]): string | null {
  const order = [...ranked.filter((name) => CJK_ENCODINGS.includes(name)), ...CJK_ENCODINGS.filter((name) => !ranked.includes(name))];
  for (const encoding of order) {
    let text: string;
    try {
      text = new TextDecoder(encoding, { fatal: true }).decode(bytes);
    } catch {
      continue;
    }
    const visible = text.replace(/\s/g, "").length;
    const cjk = text.match(/[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]/g)?.length ?? 0;
    if (cjk >= 2 && cjk >= visible * 0.2) return text;
  }
  return null;
}

/** decoderFor returns a TextDecoder for a charset label, or null when the runtime does not know it. */
function decoderFor(label: string): TextDecoder | null {
  try {
    return new TextDecoder(label.trim().toLowerCase());
  } catch {
    return null;
  }
}

/**
 * looksBinary says whether decoded text is really binary data: NUL and other control characters
 * that no text file carries, more than 1 % of the first 64 KB.
 */
export function looksBinary(text: string): boolean {
  const sample = text.slice(0, 65536);
  if (!sample) return false;
  const controls = sample.match(/[\u0000-\u0008\u000e-\u001a\u001c-\u001f]/g)?.length ?? 0;
  return controls / sample.length > 0.01;
}

/** markdownTitle finds the first ATX (`# x`) or setext (`x` over `===`) level 1 or 2 heading. */
function markdownTitle(markdown: string): string | null {
  const body = markdown.replace(/^---\n[\s\S]*?\n---\n/, ""); // skip YAML front matter
  const lines = body.split("\n");
  let inFence = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^\s{0,3}(```|~~~)/.test(line)) inFence = !inFence;
    if (inFence) continue;
    const atx = /^\s{0,3}#{1,2}\s+(.+?)\s*#*\s*$/.exec(line);
    if (atx) return atx[1]!.trim();
    if (line.trim() && /^\s{0,3}(=+|-+)\s*$/.test(lines[i + 1] ?? "") && !/^\s*$/.test(line)) return line.trim();
  }
  return null;
}

/** plainParagraphs normalises plain text: LF line ends, no control characters, tabs kept, paragraphs kept. */
function plainParagraphs(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .replace(/\f/g, "\n\n")
    .replace(/[\u0000-\u0008\u000b\u000e-\u001f\u007f]/g, "");
}

/** convertText decodes the text; markdown passes through as is, other text keeps its paragraphs. */
export const convertText: Converter = async (input) => {
  const text = decodeText(input.bytes, input.declaredCharset);
  if (looksBinary(text)) {
    throw new AppError("unreadable_document", `${input.filename} is not text (it contains binary data); send a text file or the document in its own format.`);
  }
  const clean = plainParagraphs(text);
  if (!clean.trim()) throw new AppError("empty_document", `${input.filename} contains no text; send a file with content.`);
  const isMarkdown = MARKDOWN_EXTENSIONS.has(input.ext) || input.contentType === "text/markdown";
  const markdown = isMarkdown ? `${clean.replace(/^\n+|\s+$/g, "")}\n` : tidyMarkdown(clean);
  return { markdown, title: isMarkdown ? markdownTitle(clean) : null, totalPages: 0, method: "text", warnings: [] };
};
