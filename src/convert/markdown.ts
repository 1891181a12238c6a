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
