/**
 * Plain text and lightweight markup (txt, log, md, rst, adoc, tex): decode the bytes to a string
 * whatever the charset, keep markdown as written and plain text with its paragraphs.
 */
import { AppError } from "../errors";
import { tidyMarkdown } from "./markdown";
import type { ConvertInput, Converter } from "./types";
import { decodeText } from "./charset";

/** MARKDOWN_EXTENSIONS are the extensions whose text already is markdown. */
const MARKDOWN_EXTENSIONS = new Set(["md", "markdown", "mdown", "mkd", "mdx"]);

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

/**
 * decodedText is a text format's input decoded (declared charset, else detected), refused with 400
 * `unreadable_document` when it is binary data: "<file> <notText>" says what was expected.
 */
export function decodedText(input: ConvertInput, notText: string): string {
  const text = decodeText(input.bytes, input.declaredCharset).text;
  if (looksBinary(text)) throw new AppError("unreadable_document", `${input.filename} ${notText}`);
  return text;
}

/** convertText decodes the text; markdown passes through as is, other text keeps its paragraphs. */
export const convertText: Converter = async (input) => {
  const text = decodedText(input, "is not text (it contains binary data); send a text file or the document in its own format.");
  const clean = plainParagraphs(text);
  if (!clean.trim()) throw new AppError("empty_document", `${input.filename} contains no text; send a file with content.`);
  const isMarkdown = MARKDOWN_EXTENSIONS.has(input.ext) || input.contentType === "text/markdown";
  const markdown = isMarkdown ? `${clean.replace(/^\n+|\s+$/g, "")}\n` : tidyMarkdown(clean);
  return { markdown, title: isMarkdown ? markdownTitle(clean) : null, totalPages: 0, method: "text", warnings: [] };
};
