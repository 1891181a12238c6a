/** Markdown building blocks shared by the converters, so every family writes tables and code alike. */
import { AppError } from "../errors";

/**
 * checkMarkdownSize refuses markdown longer than the server allows (--max-markdown-mb). Converters
 * whose output can outgrow their input (nesting re-indented, inflated parts, repeated shared
 * strings) call it while they write, with the length so far, so the cap stops the work early.
 * `limits` is ConvertLimits (typed by its one field here: this file sits below types.ts, which the
 * worker pool's job table reaches through pdfText -> pdfLayout -> here).
 */
export function checkMarkdownSize(chars: number, limits: { maxMarkdownChars?: number }, what: string): void {
  const max = limits.maxMarkdownChars ?? 0;
  if (max > 0 && chars > max) {
    throw new AppError(
      "document_too_large",
      `${what} produces more than ${max / 1_000_000} million characters of markdown, the server's --max-markdown-mb; send a smaller document or ask the operator to raise the limit`,
    );
  }
}

/** cellText makes one table cell: single line, pipes escaped, whitespace collapsed. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return "";
  return String(value)
    .replace(/\r\n?|\n/g, "<br>")
    .replace(/\|/g, "\\|")
    .replace(/[ \t\u00a0]+/g, " ")
    .trim();
}

/**
 * gfmTable renders rows as a GitHub-flavoured table; the first row is the header. Short rows are
 * padded so every row has as many cells as the widest; trailing empty columns are dropped, except
 * within `gridColumns` (a table whose grid the document declares, where a merged cell spans them).
 */
export function gfmTable(rows: unknown[][], gridColumns = 0): string {
  const cells = rows.map((row) => row.map(cellText));
  let width = Math.max(0, ...cells.map((r) => r.length));
  while (width > Math.max(0, gridColumns) && cells.every((r) => (r[width - 1] ?? "") === "")) width--;
  if (width === 0 || cells.length === 0) return "";
  const line = (r: string[]) => `| ${Array.from({ length: width }, (_, i) => r[i] ?? "").join(" | ")} |`;
  const [head, ...body] = cells;
  return [line(head!), `| ${Array.from({ length: width }, () => "---").join(" | ")} |`, ...body.map(line)].join("\n");
}

/** markdownUrl keeps a URL inside `(...)` intact. */
export function markdownUrl(url: string): string {
  return url.trim().replace(/ /g, "%20").replace(/\(/g, "%28").replace(/\)/g, "%29");
}

/** fence wraps code in a fenced block long enough not to be closed by backticks inside it. */
export function fence(code: string, language = ""): string {
  const longest = Math.max(2, ...Array.from(code.matchAll(/`+/g), (m) => m[0].length));
  const ticks = "`".repeat(longest + 1);
  return `${ticks}${language}\n${code.replace(/\s+$/, "")}\n${ticks}`;
}

/** escapeText escapes characters that would start markdown syntax inside ordinary text. */
export function escapeText(text: string): string {
  return text.replace(/([\\`*_[\]<>])/g, "\\$1").replace(/^(\s*)([#>+-]|\d+\.)(\s)/gm, "$1\\$2$3");
}

/** heading renders a heading of level 1 to 6 on one line. */
export function heading(level: number, text: string): string {
  const clean = text.replace(/\s+/g, " ").trim();
  return clean ? `${"#".repeat(Math.min(6, Math.max(1, level)))} ${clean}` : "";
}

/** joinBlocks joins markdown blocks with one blank line, dropping empty ones. */
export function joinBlocks(blocks: Array<string | null | undefined | false>): string {
  return blocks
    .filter((b): b is string => typeof b === "string" && b.trim() !== "")
    .map((b) => b.replace(/^\n+/, "").trimEnd())
    .join("\n\n");
}

/** tidyMarkdown trims trailing spaces and collapses runs of blank lines. */
export function tidyMarkdown(markdown: string): string {
  return markdown
    .replace(/[ \t]+$/gm, "")
    .replace(/\n{3,}/g, "\n\n")
    .trim() + "\n";
}

/** metadataBlock renders facts as a short bullet list, skipping empty values. */
export function metadataBlock(facts: Array<[string, unknown]>): string {
  return facts
    .filter(([, v]) => v !== undefined && v !== null && v !== "")
    .map(([k, v]) => `- **${k}:** ${String(v).replace(/\s+/g, " ").trim()}`)
    .join("\n");
}

/** demoteHeadings moves every ATX heading `levels` deeper (max 6), leaving fenced code alone. */
export function demoteHeadings(markdown: string, levels: number): string {
  let fenced = false;
  return markdown
    .split("\n")
    .map((line) => {
      if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
      if (fenced) return line;
      const m = line.match(/^(#{1,6}) (.*)$/);
      return m ? `${"#".repeat(Math.min(6, m[1]!.length + levels))} ${m[2]}` : line;
    })
    .join("\n");
}

/** KEPT_SPANS: spans escapeStrayMarkup leaves alone: URLs, and the converter's own script tags and note references */
const KEPT_SPANS = /\b(?:https?:\/\/|www\.)[^\s<>]+|<\/?su[bp]>|<br>|\[\^[^\]\s]+\]/giu;
/** STRAY_TAG: text a markdown reader would take for an HTML tag ("<div>", "</b>", "<a href=x>") */
const STRAY_TAG = /<(?=\/?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?\/?>)/g;
/** STRAY_LINK: the brackets of a link or picture's text, "[text](" */
const STRAY_LINK = /\[([^[\]\n]*)\](?=\()/g;

/**
 * escapeStrayMarkup escapes the characters of a document's own text where a markdown reader would
 * take them for markup, and only there, so the text stays readable as it is printed: `*` and `_`
 * runs that open and close an emphasis by CommonMark's flanking rules ("**no** bold", "_id_"; not
 * "2*3", "snake_case", "a * b" or a lone "Total*"; nor a run inside a word or number, "2*3*4" or a
 * masked account "FR76****12****", which a reader sees as printed in the markdown's text); backtick runs that a run of the same length closes; the brackets of "[text]("; a
 * tag ("<div>"); a backslash before punctuation. URLs, `<sup>`/`<sub>`/`<br>` and `[^label]` (the
 * converter's own marks) stay as they are. Line starts are escapeLineStarts' (pdfLayout.ts).
 */
export function escapeStrayMarkup(text: string): string {
  if (!/[*_`[<\\]/.test(text)) return text;
  // one mark a character, so a long text of many runs and spans is read in linear time
  const keptMask = new Uint8Array(text.length);
  for (const m of text.matchAll(KEPT_SPANS)) keptMask.fill(1, m.index, m.index + m[0].length);
  const isKept = (at: number) => keptMask[at] === 1;
  const escapeAt = new Set<number>();
  for (const char of ["*", "_"]) {
    // a run that can close pairs with the nearest opener before it (as CommonMark's process_emphasis, without its rule of 3); runs left unpaired are literal anyway
    const openers: Array<{ start: number; end: number }> = [];
    for (const run of delimiterRuns(text, char)) {
      // inside a word or number ("FR7612345****12*******123", "2*3*4") a run is a mask or an operator, read as printed: left raw
      if (isKept(run.start) || (/[\p{L}\p{N}]/u.test(text[run.start - 1] ?? "") && /[\p{L}\p{N}]/u.test(text[run.end] ?? ""))) continue;
      const opener = run.closes ? openers.pop() : undefined;
      if (opener) for (const { start, end } of [opener, run]) for (let i = start; i < end; i++) escapeAt.add(i);
      else if (run.opens) openers.push(run);
    }
  }
  const ticks = Array.from(text.matchAll(/`+/g)).filter((m) => !isKept(m.index));
  const ofLength = new Map<number, number>();
  for (const run of ticks) ofLength.set(run[0].length, (ofLength.get(run[0].length) ?? 0) + 1);
  for (const run of ticks) {
    if (ofLength.get(run[0].length)! < 2) continue;
    for (let i = run.index; i < run.index + run[0].length; i++) escapeAt.add(i);
  }
  for (const m of text.matchAll(STRAY_LINK)) if (!isKept(m.index)) escapeAt.add(m.index).add(m.index + m[0].length - 1);
  for (const m of text.matchAll(STRAY_TAG)) if (!isKept(m.index)) escapeAt.add(m.index);
  for (const m of text.matchAll(/\\(?=[!-/:-@[-`{-~])/g)) if (!isKept(m.index)) escapeAt.add(m.index);
  if (!escapeAt.size) return text;
  let out = "";
  for (let i = 0; i < text.length; i++) out += escapeAt.has(i) ? `\\${text[i]}` : text[i];
  return out;
}

/** delimiterRuns: the runs of `char` in text, and whether each can open or close emphasis (CommonMark 6.2's flanking rules) */
function delimiterRuns(text: string, char: string): Array<{ start: number; end: number; opens: boolean; closes: boolean }> {
  const runs: Array<{ start: number; end: number; opens: boolean; closes: boolean }> = [];
  const space = (c: string) => c === "" || /\s/u.test(c);
  const punct = (c: string) => c !== "" && /[\p{P}\p{S}]/u.test(c);
  for (let i = text.indexOf(char); i >= 0; i = text.indexOf(char, i)) {
    let end = i;
    while (text[end] === char) end++;
    const before = text[i - 1] ?? "";
    const after = text[end] ?? "";
    const left = !space(after) && (!punct(after) || space(before) || punct(before));
    const right = !space(before) && (!punct(before) || space(after) || punct(after));
    const opens = char === "*" ? left : left && (!right || punct(before));
    const closes = char === "*" ? right : right && (!left || punct(after));
    runs.push({ start: i, end, opens, closes });
    i = end;
  }
  return runs;
}
