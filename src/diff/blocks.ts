/**
 * splitBlocks cuts markdown (as the converters write it) into the blocks a diff aligns: headings,
 * paragraphs, list items, table rows (each row its own block, with its cells), fenced code and
 * block quotes. Each block carries its display text (markdown markers and inline markup removed)
 * and a comparison key (the display text further normalised), so that formatting-only differences
 * (heading level, bold, list marker, curly quotes, spacing) compare equal.
 *
 * Paragraph lines: a line break after sentence-final punctuation starts a new block, because the PDF
 * converter writes one line per laid-out paragraph with no blank line between them, while DOCX and
 * HTML write a blank line; lines broken mid-sentence (hard-wrapped text) stay one block.
 */

export const BLOCK_KINDS = ["heading", "paragraph", "list_item", "table_row", "code", "quote"] as const;
export type BlockKind = (typeof BLOCK_KINDS)[number];

export interface Block {
  kind: BlockKind;
  /** text: what a reader sees, without markdown markers; table rows as "| a | b |", code as is */
  text: string;
  /** key: the comparison form of text (see normaliseKey); equal keys = equal blocks */
  key: string;
  /** level: heading level 1..6, list nesting depth from 0; 0 for other kinds */
  level: number;
  /** marker: the markdown that starts the block when rendered ("## ", "- ", "1. ", "> "); "" for none */
  marker: string;
  /** cells: the cells of a table row */
  cells?: string[];
  /** header: the table row is a header row (followed by a --- separator) */
  header?: boolean;
  /** language: the info string of a fenced code block */
  language?: string;
}

const HEADING = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const LIST_ITEM = /^(\s*)([-*+•◦▪]|\d{1,9}[.)])\s+(.*)$/;
const FENCE = /^\s{0,3}(`{3,}|~{3,})\s*([^`\s]*)/;
const QUOTE = /^\s{0,3}>\s?(.*)$/;
const TABLE_ROW = /^\s*\|.*\|\s*$/;
const TABLE_SEPARATOR = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;
const RULE = /^\s{0,3}([-*_])(\s*\1){2,}\s*$/;
const HTML_COMMENT = /^\s*<!--.*-->\s*$/;
/** SENTENCE_END: a line ending here ends a paragraph block (see the header) */
const SENTENCE_END = /[.!?:;]["'”’)\]*_]*\s*$/;

export function splitBlocks(markdown: string): Block[] {
  const lines = markdown.replace(/\r\n?/g, "\n").split("\n");
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  const flushParagraph = () => {
    if (paragraph.length) blocks.push(textBlock("paragraph", paragraph.join(" "), 0, ""));
    paragraph = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === "" || RULE.test(line) || HTML_COMMENT.test(line)) {
      flushParagraph();
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      flushParagraph();
      i = readCode(lines, i, fence[1]!, fence[2] ?? "", blocks);
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      flushParagraph();
      blocks.push(textBlock("heading", heading[2]!, heading[1]!.length, `${heading[1]} `));
      continue;
    }
    if (TABLE_ROW.test(line)) {
      flushParagraph();
      if (TABLE_SEPARATOR.test(line)) continue;
      const header = TABLE_SEPARATOR.test(lines[i + 1] ?? "");
      blocks.push(tableRow(line, header));
      continue;
    }
    const quote = QUOTE.exec(line);
    if (quote) {
      flushParagraph();
      i = readQuote(lines, i, blocks);
      continue;
    }
    const item = LIST_ITEM.exec(line);
    if (item) {
      flushParagraph();
      i = readListItem(lines, i, item, blocks);
      continue;
    }
    paragraph.push(line.trim());
    if (SENTENCE_END.test(line)) flushParagraph();
  }
  flushParagraph();
  return blocks;
}

/** readCode collects a fenced code block up to its closing fence (or the end); returns the last line read. */
function readCode(lines: string[], start: number, fence: string, language: string, blocks: Block[]): number {
  const body: string[] = [];
  let i = start + 1;
  for (; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim().startsWith(fence[0]!.repeat(fence.length)) && line.trim().replace(/[`~]/g, "") === "") break;
    body.push(line);
  }
  const code = body.join("\n").replace(/\s+$/, "");
  blocks.push({ kind: "code", text: code, key: `code:${code.replace(/[ \t]+$/gm, "")}`, level: 0, marker: "", ...(language ? { language } : {}) });
  return i;
}

/** readQuote collects consecutive quote lines; a blank quote line (">") separates quote blocks. */
function readQuote(lines: string[], start: number, blocks: Block[]): number {
  let text: string[] = [];
  const flush = () => {
    if (text.length) blocks.push(textBlock("quote", text.join(" "), 0, "> "));
    text = [];
  };
  let i = start;
  for (; i < lines.length; i++) {
    const quote = QUOTE.exec(lines[i]!);
    if (!quote) break;
    const inner = quote[1]!.replace(/^>\s?/, "").trim();
    if (inner === "") flush();
    else text.push(inner);
  }
  flush();
  return i - 1;
}

/** readListItem takes an item and its indented continuation lines (not nested items); returns the last line read. */
function readListItem(lines: string[], start: number, item: RegExpExecArray, blocks: Block[]): number {
  const indent = item[1]!.replace(/\t/g, "    ").length;
  const text = [item[3]!.trim()];
  let i = start + 1;
  for (; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === "" || LIST_ITEM.test(line) || !/^\s/.test(line)) break;
    text.push(line.trim());
  }
  // an ordered item keeps its number in the text: "3. Term" is the same words as a PDF line "3. Term"
  const ordered = /\d/.test(item[2]!);
  const body = ordered ? `${item[2]} ${text.join(" ")}` : text.join(" ");
  blocks.push(textBlock("list_item", body, Math.floor(indent / 2), ordered ? " ".repeat(indent) : `${" ".repeat(indent)}- `));
  return i - 1;
}

function tableRow(line: string, header: boolean): Block {
  const cells = splitCells(line).map(inlineText);
  const text = `| ${cells.join(" | ")} |`;
  return { kind: "table_row", text, key: `row:${cells.map(normaliseKey).join(" | ")}`, level: 0, marker: "", cells, ...(header ? { header } : {}) };
}

/** splitCells splits "| a | b \| c |" at unescaped pipes. */
function splitCells(line: string): string[] {
  const inner = line.trim().replace(/^\|/, "").replace(/\|$/, "");
  const cells: string[] = [];
  let current = "";
  for (let i = 0; i < inner.length; i++) {
    const ch = inner[i]!;
    if (ch === "\\" && inner[i + 1] === "|") {
      current += "\\|";
      i++;
    } else if (ch === "|") {
      cells.push(current);
      current = "";
    } else current += ch;
  }
  cells.push(current);
  return cells.map((c) => c.replace(/<br\s*\/?>/gi, " "));
}

function textBlock(kind: BlockKind, raw: string, level: number, marker: string): Block {
  const text = inlineText(raw);
  // headings, paragraphs, list items and quotes compare by text alone: converters of different
  // formats disagree on them (a PDF's heading level or bullet detection), the words do not
  return { kind, text, key: normaliseKey(text), level, marker };
}

/**
 * inlineText removes inline markdown: images and links keep their text, emphasis and code markers
 * go, HTML line breaks become spaces, backslash escapes are undone, whitespace is collapsed.
 */
export function inlineText(raw: string): string {
  return raw
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<br\s*\/?>/gi, " ")
    .replace(/(\*\*|__|~~)(?=\S)([\s\S]*?\S)\1/g, "$2")
    .replace(/(^|[^\w*])[*_](?=\S)([^*_]*?\S)[*_](?![\w*])/g, "$1$2")
    .replace(/`+([^`]*)`+/g, "$1")
    .replace(/\\([\\`*_{}[\]()#+\-.!|<>~])/g, "$1")
    .replace(/\s+/g, " ")
    .trim();
}

/** normaliseKey: NFKC, typographic quotes and dashes made plain, spaces around punctuation unified. */
export function normaliseKey(text: string): string {
  return text
    .normalize("NFKC")
    .replace(/[\u2018\u2019\u201a\u201b\u2032]/g, "'")
    .replace(/[\u201c\u201d\u201e\u201f\u2033]/g, '"')
    .replace(/[\u2010-\u2015\u2212]/g, "-")
    .replace(/\u2026/g, "...")
    .replace(/\s+([.,;:!?)])/g, "$1")
    .replace(/\s+/g, " ")
    .trim();
}
