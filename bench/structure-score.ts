/**
 * The corpus and scoring of document structure shared by bench/pdf-structure.ts and bench/scan-structure.ts: the
 * headings and table cells a reference markdown shows, looked for in a converted markdown.
 */
import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import type { ConvertContext } from "../src/convert/types";
import type { WorkerPool } from "../src/pool";
import { runProcess } from "../src/tools/process";
import type { OcrEngine } from "../src/tools/types";

/** DATA: the office files printed to PDF by both benches (licences beside them) */
export const DATA = join(import.meta.dir, "corpus/pdf-structure");
export const FIXTURES = resolve(import.meta.dir, "../test/fixtures");
/** EXPECTED: MarkItDown's reference markdown of PDFs in test/fixtures (MIT, see its LICENSE) */
export const EXPECTED = join(DATA, "markitdown-expected");
/** BORN_DIGITAL: born-digital PDFs (NAME.pdf) and their headings and tables written down once by reading them (NAME.md, its source and licence at its top; licence texts beside them) */
export const BORN_DIGITAL = join(import.meta.dir, "expected/pdf-born-digital");

/** officeSources: the office files both benches print to PDF, those whose name contains `filter` */
export function officeSources(filter: string): string[] {
  return [
    ...readdirSync(DATA).filter((f) => /\.(docx|odt|pptx|odp)$/.test(f)).map((f) => join(DATA, f)),
    ...["test.docx", "test_with_comment.docx", "rlink.docx", "equations.docx", "test.pptx"].map((f) => join(FIXTURES, f)),
  ].filter((f) => f.slice(f.lastIndexOf("/") + 1).includes(filter));
}

/** soffice converts `files` to `target` into `dir`/out with LibreOffice (its profile in `dir`). */
export async function soffice(dir: string, target: string, files: string[]): Promise<void> {
  if (!files.length) return;
  await runProcess("soffice", ["--headless", "--norestore", `-env:UserInstallation=file://${join(dir, "profile")}`, "--convert-to", target, "--outdir", join(dir, "out"), ...files], {
    timeoutMs: 600_000,
    what: `print the bench documents to ${target}`,
    sandbox: { dirs: [dir] },
  });
}

/** benchContext: a converter's context for the benches, with this OCR engine and deadline */
export function benchContext(pool: WorkerPool, ocr: OcrEngine, timeoutMs: number): ConvertContext {
  return {
    signal: AbortSignal.timeout(timeoutMs),
    limits: { maxDecompressedBytes: 200e6, maxPixels: 100e6, maxPages: 5000 },
    page: { mainContent: true, waitMs: 0 },
    tools: { pool, ocr } as unknown as ConvertContext["tools"],
  };
}

/** fold makes text comparable: a horizontal list's " · " between items (a separator, not text), inline markdown (`<sup>`/`<sub>` too: the PDF's raised text is plain), numbering and escapes removed, case, spaces and compatibility forms folded (the micro sign µ and Greek μ, one glyph, are one letter). */
export function fold(text: string): string {
  return text
    .normalize("NFKC")
    .replace(/<br\s*\/?>/gi, " ")
    .replace(/\s·(?=\s)/g, " ")
    .replace(/<\/?su[bp]>/gi, "")
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[\^[^\]]*\]/g, "")
    .replace(/\\([\\`*_{}[\]()#+\-.!|>])/g, "$1")
    .replace(/[*_`]+/g, "")
    .replace(/^\s*slide \d+:\s*/i, "")
    .replace(/^\s*(?:\d+(?:\.\d+)*\.?|[a-z](?:\.\d+)*[.)]|[ivx]+[.)])\s+(?=\S)/i, "")
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase();
}

/**
 * sourceStructure drops what the source's converter adds that a printed page cannot show: the
 * "### Chart" section of a native chart (its cached data; the PDF has a drawing), the
 * "## Comments" section (LibreOffice does not print comments) and "## Slide N", the placeholder
 * of a slide without a title.
 */
export function sourceStructure(markdown: string): string {
  return markdown
    .replace(/^## Slide \d+$/gm, "")
    .replace(/^#{1,6} Chart\b.*\n+(?:\|.*\n?)*/gm, "")
    .replace(/^## Comments\n[\s\S]*?(?=^#{1,2} |(?![\s\S]))/m, "");
}

/** FENCE: the opening or closing line of a fenced code block (three or more backticks or tildes) */
const FENCE = /^\s{0,3}(`{3,}|~{3,})/;

/** splitFences: the markdown's lines outside fenced code blocks, and the lines inside them (trimmed, blank ones left out) */
export function splitFences(markdown: string): { prose: string[]; code: string[] } {
  const prose: string[] = [];
  const code: string[] = [];
  let fence = "";
  for (const line of markdown.split("\n")) {
    const m = FENCE.exec(line);
    if (fence) {
      if (m && m[1]![0] === fence[0] && m[1]!.length >= fence.length && !line.slice(m[0].length).trim()) fence = "";
      else if (line.trim()) code.push(line.trim());
    } else if (m) fence = m[1]!;
    else prose.push(line);
  }
  return { prose, code };
}

/** codeLinesOf lists the lines of the fenced code blocks, whitespace trimmed: a listing's line is found when the PDF's markdown has it in a fence too. */
export function codeLinesOf(markdown: string): string[] {
  return splitFences(markdown).code;
}

/** headingsOf lists the headings outside fenced code ("# comment" in a shell listing is none), folded */
export function headingsOf(markdown: string): string[] {
  const found: string[] = [];
  for (const line of splitFences(markdown).prose) {
    const m = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (m && fold(m[1]!)) found.push(fold(m[1]!));
  }
  return found;
}

/**
 * tableCellsOf lists the non-empty cells of every GFM table, a run of equal cells in a row once (a PDF's
 * or a scan's table repeats a merged cell across its span). `keepRuns` lists every cell, for converters
 * that write a merged cell once and references that list equal neighbours apart (`19 | 19`).
 */
export function tableCellsOf(markdown: string, { keepRuns = false } = {}): string[] {
  const cells: string[] = [];
  for (const line of splitFences(markdown).prose) {
    if (!/^\s*\|.*\|\s*$/.test(line) || /^\s*\|(?:\s*:?-{3,}:?\s*\|)+\s*$/.test(line)) continue;
    const row = line.trim().slice(1, -1).split(/(?<!\\)\|/).map(fold);
    let previous: string | null = null;
    for (const cell of row) {
      if (cell && (keepRuns || cell !== previous)) cells.push(cell);
      previous = cell;
    }
  }
  return cells;
}

/** tableRowsOf lists each GFM table row as its non-empty cells (a run of equal cells once), joined: a row is found when the PDF's markdown has the same cells in the same order. */
export function tableRowsOf(markdown: string): string[] {
  return splitFences(markdown)
    .prose.filter((line) => /^\s*\|.*\|\s*$/.test(line) && !/^\s*\|(?:\s*:?-{3,}:?\s*\|)+\s*$/.test(line))
    .map((line) => tableCellsOf(line).join(" | "))
    .filter(Boolean);
}

/** found counts the wanted items present in `have`, each item of `have` used once. */
export function found(wanted: string[], have: string[]): { hits: number; misses: string[] } {
  const pool = new Map<string, number>();
  for (const item of have) pool.set(item, (pool.get(item) ?? 0) + 1);
  let hits = 0;
  const misses: string[] = [];
  for (const item of wanted) {
    const left = pool.get(item) ?? 0;
    if (left > 0) {
      hits++;
      pool.set(item, left - 1);
    } else misses.push(item);
  }
  return { hits, misses };
}

/**
 * textWords: a markdown's words for text agreement, in reading order. Markdown marks go (`#`, `*`,
 * `_`, backticks, table pipes and rule rows, fence lines, `<br>` and other tags, HTML comments,
 * escapes, a hard break's backslash, `~~`, link targets: a link keeps its text), pictures go whole
 * (`![alt](target)`: a printed page shows the picture, not its alt text), and case is folded. A
 * heading loses its numbering ("1.1. Title": LibreOffice prints the outline numbers, the DOCX
 * reader writes none) and the slide converter's "Slide N:" before a slide's title. A lone "·" (a horizontal list's separator) is no word. Words are what is left between
 * spaces; punctuation stays on its word, so "end." and "end" differ as a reader would not mind but
 * both sides are folded the same way. Emphasis marks go without a space ("**bold**." is "bold."); an
 * underscore inside a word is text ("MSO_AUTO_SIZE", which the PDF's markdown need not escape).
 */
export function textWords(markdown: string): string[] {
  return markdown
    .replace(/<!--[\s\S]*?-->/g, " ")
    .replace(/!\[[^\]]*\]\([^)]*\)/g, " ")
    .replace(/\[\^[^\]]*\]:?/g, " ")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<br\s*\/?>/gi, " ")
    .replace(/<\/?[a-z][^>]*>/gi, "")
    .split("\n")
    .filter((line) => !/^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$/.test(line) && !FENCE.test(line) && !/^\s*(?:-{3,}|\*{3,}|_{3,})\s*$/.test(line))
    .join("\n")
    .replace(/^\s{0,3}#{1,6}\s+(?:slide \d+:\s*)?(?:(?:\d+(?:\.\d+)*\.?|[a-z](?:\.\d+)*[.)]|[ivx]+[.)])\s+(?=\S))?/gim, "")
    .replace(/(?<!\\)\\$/gm, "")
    .replace(/~~/g, "")
    .replace(/^\s*>\s?/gm, "")
    .replace(/^\s*[-+*•◦▪]\s+/gm, "")
    .replace(/(?<!\\)\|/g, " ")
    .replace(/(?<![\\\p{L}\p{N}])_+|(?<!\\)_+(?![\p{L}\p{N}])|(?<!\\)[*`]+/gu, "")
    .replace(/\\([\\`*_{}[\]()#+\-.!|>])/g, "$1")
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word && word !== "·");
}

/** wordEditDistance: the fewest words inserted, deleted or replaced to turn `a` into `b` (Levenshtein over words; two rows, O(|a|·|b|) time). */
export function wordEditDistance(a: string[], b: string[]): number {
  if (!a.length || !b.length) return a.length + b.length;
  const ids = new Map<string, number>();
  const id = (w: string) => ids.get(w) ?? (ids.set(w, ids.size), ids.size - 1);
  const x = Int32Array.from(a, id);
  const y = Int32Array.from(b, id);
  let previous = Int32Array.from({ length: y.length + 1 }, (_, j) => j);
  let current = new Int32Array(y.length + 1);
  for (let i = 1; i <= x.length; i++) {
    current[0] = i;
    const xi = x[i - 1]!;
    for (let j = 1; j <= y.length; j++) {
      const replace = previous[j - 1]! + (xi === y[j - 1] ? 0 : 1);
      current[j] = Math.min(replace, previous[j]! + 1, current[j - 1]! + 1);
    }
    [previous, current] = [current, previous];
  }
  return previous[y.length]!;
}

/** TextAgreement: how much of a reference's text a converted markdown gives, in order (`ordered`) and as a bag of words (`bagF1`); both 0..1, 1 = the same words */
export interface TextAgreement {
  /** ordered: 1 - word edit distance / the longer side's word count (0 when one side is empty and the other not) */
  ordered: number;
  /** bagF1: F1 of the two sides' words as multisets (order ignored) */
  bagF1: number;
  /** referenceWords, words: the word counts of the reference and of the converted markdown */
  referenceWords: number;
  words: number;
  /** distance: the word edit distance (for a figure over all files' words: the sum of distances over the sum of the longer sides) */
  distance: number;
}

/** textAgreement scores `markdown` against `reference` on the words of textWords. Two empty sides agree fully. */
export function textAgreement(reference: string, markdown: string): TextAgreement {
  const want = textWords(reference);
  const have = textWords(markdown);
  const longer = Math.max(want.length, have.length);
  const distance = wordEditDistance(want, have);
  const ordered = longer ? 1 - distance / longer : 1;
  const common = found(want, have).hits;
  const bagF1 = want.length + have.length ? (2 * common) / (want.length + have.length) : 1;
  return { ordered, bagF1, referenceWords: want.length, words: have.length, distance };
}
