/** Markdown building blocks shared by the converters, so every family writes tables and code alike. */
import { AppError } from "../errors";

/**
 * checkMarkdownSize refuses markdown longer than the server allows (--max-markdown-mb). Converters
 * whose output can outgrow their input (nesting re-indented, inflated parts, repeated shared
 * strings) call it while they write, with the length so far, so the cap stops the work early.
 * `limits` is ConvertLimits (typed by its one field here: this file sits below types.ts, which the
 * worker pool's job table reaches through pdfText -> the PDF layout modules -> here).
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
  return `${ticks}${language}\n${code.trimEnd()}\n${ticks}`;
}

/** escapeText escapes characters that would start markdown syntax inside ordinary text. */
export function escapeText(text: string): string {
  return text.replace(/([\\`*_[\]<>])/g, "\\$1").replace(/^(\s*)([#>+-]|\d+\.)(\s)/gm, "$1\\$2$3");
}

/**
 * heading renders a heading of level 1 to 6 on one line, without bold marks when bold covers all of
 * its text (withoutWholeBold).
 */
export function heading(level: number, text: string): string {
  const clean = withoutWholeBold(text.replace(/\s+/g, " ").trim()).trim();
  return clean ? `${"#".repeat(Math.min(6, Math.max(1, level)))} ${clean}` : "";
}

/**
 * textHeading renders a heading whose text is plain text, not markdown (a file name, a subject, a
 * page or metadata title): its own markup characters are escaped where a reader would take them for
 * markup (escapeStrayMarkup), so `__main__` or `**URGENT** offer` reads as written rather than bold,
 * and heading()'s bold rule cannot drop characters that were never marks.
 */
export function textHeading(level: number, text: string): string {
  return heading(level, escapeStrayMarkup(text));
}

/**
 * withoutWholeBold drops the strong marks (`**`, `__`) of an inline markdown text whose every visible
 * character is bold: a heading is set apart already, and people type titles in bold runs (Word's
 * "**Data Validation**", a slide's "**New** **Contracts**", a page's `<h2><b>`), so the marks say
 * nothing a reader of the heading does not see. Bold over part of the text stays ("The **new** rule"):
 * it marks a word against the rest, as CommonMark renders it and MarkItDown keeps it; other marks
 * (italic, strike, links, code) stay. Spans pair as CommonMark's delimiter runs do; escaped
 * characters, code spans, link destinations and inline tags are not emphasis.
 */
export function withoutWholeBold(text: string): string {
  if (!/\*\*|__/.test(text)) return text;
  /** hidden: characters a reader does not see as text (link syntax, inline tags, emphasis marks) */
  const hidden = new Uint8Array(text.length);
  /** literal: characters that are never emphasis marks (escaped, in code spans, in destinations and tags) */
  const literal = new Uint8Array(text.length);
  // a backtick run opens a code span closed by the next run of its length (the runs' next of a length found right to left, in linear time)
  const ticks = Array.from(text.matchAll(/`+/g), (m) => ({ start: m.index, end: m.index + m[0].length }));
  const nextOfLength = new Array<number>(ticks.length).fill(-1);
  const latest = new Map<number, number>();
  for (let k = ticks.length - 1; k >= 0; k--) {
    const length = ticks[k]!.end - ticks[k]!.start;
    nextOfLength[k] = latest.get(length) ?? -1;
    latest.set(length, k);
  }
  for (let i = 0, k = 0; i < text.length; i++) {
    while (k < ticks.length && ticks[k]!.start < i) k++;
    if (text[i] === "\\" && i + 1 < text.length) {
      literal.fill(1, i, i + 2);
      hidden[i] = 1;
      i++;
    } else if (k < ticks.length && ticks[k]!.start === i) {
      const closing = nextOfLength[k]!;
      if (closing >= 0) {
        literal.fill(1, i, ticks[closing]!.end);
        i = ticks[closing]!.end - 1;
      } else i = ticks[k]!.end - 1;
    }
  }
  for (const m of text.matchAll(/!?\[|\]\([^()\s]*\)|<\/?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?\/?>/g)) {
    if (literal[m.index]) continue;
    hidden.fill(1, m.index, m.index + m[0].length);
    if (m[0] !== "[" && m[0] !== "![") literal.fill(1, m.index, m.index + m[0].length);
  }
  const pairs = emphasisPairs(text, literal);
  const strong = pairs.filter((p) => p.width === 2);
  if (!strong.length) return text;
  const bold = new Uint8Array(text.length);
  for (const p of pairs) hidden.fill(1, p.open, p.open + p.width).fill(1, p.close, p.close + p.width);
  for (const p of strong) bold.fill(1, p.open, p.close + 2);
  for (let i = 0; i < text.length; i++) if (!hidden[i] && !bold[i] && !/\s/.test(text[i]!)) return text;
  const drop = new Uint8Array(text.length);
  for (const p of strong) drop.fill(1, p.open, p.open + 2).fill(1, p.close, p.close + 2);
  let out = "";
  for (let i = 0; i < text.length; i++) if (!drop[i]) out += text[i];
  return out;
}

/**
 * flanking says whether the delimiter run text[start, end) of `*` or `_` can open and can close
 * emphasis, by CommonMark's left- and right-flanking rules (an `_` run inside a word does neither).
 */
function flanking(text: string, start: number, end: number, char: string): { opens: boolean; closes: boolean } {
  const space = (c: string) => c === "" || /\s/u.test(c);
  const punct = (c: string) => c !== "" && /[\p{P}\p{S}]/u.test(c);
  const before = text[start - 1] ?? "";
  const after = text[end] ?? "";
  const left = !space(after) && (!punct(after) || space(before) || punct(before));
  const right = !space(before) && (!punct(before) || space(after) || punct(after));
  return {
    opens: char === "*" ? left : left && (!right || punct(before)),
    closes: char === "*" ? right : right && (!left || punct(after)),
  };
}

/** MAX_OPENER_LOOKBACK: openers a closing run looks back over for one it may pair with (CommonMark's rule of three skips some) */
const MAX_OPENER_LOOKBACK = 16;

/**
 * emphasisPairs pairs the `*` and `_` delimiter runs of inline markdown as CommonMark's
 * process_emphasis does (the nearest opener of the same character; strong when both sides have two
 * left, else emphasis; the rule of three), each pair by the index of its opening and closing marks
 * and their width (2 strong, 1 emphasis). Characters marked `literal` are never marks.
 */
function emphasisPairs(text: string, literal: Uint8Array): Array<{ open: number; close: number; width: 1 | 2 }> {
  /** Run: a delimiter run; left..right are its marks not yet paired */
  type Run = { char: string; start: number; left: number; right: number; length: number; opens: boolean; closes: boolean };
  const runs: Run[] = [];
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if ((char !== "*" && char !== "_") || literal[i]) continue;
    let end = i;
    while (text[end] === char && !literal[end]) end++;
    runs.push({ char, start: i, left: i, right: end, length: end - i, ...flanking(text, i, end, char) });
    i = end - 1;
  }
  const pairs: Array<{ open: number; close: number; width: 1 | 2 }> = [];
  // an opener stack per character; pairing drops the openers of both between the pair, as CommonMark does
  const openers: Record<string, Run[]> = { "*": [], _: [] };
  for (const run of runs) {
    const own = openers[run.char]!;
    while (run.closes && run.right > run.left) {
      // the rule of three can skip openers; the look-back is bounded so a long text stays linear
      let at = own.length - 1;
      for (; at >= Math.max(0, own.length - MAX_OPENER_LOOKBACK); at--) {
        const o = own[at]!;
        if (!((o.closes || run.opens) && (o.length + run.length) % 3 === 0 && !(o.length % 3 === 0 && run.length % 3 === 0))) break;
      }
      if (at < Math.max(0, own.length - MAX_OPENER_LOOKBACK)) break;
      const opener = own[at]!;
      own.length = at + 1;
      const other = openers[run.char === "*" ? "_" : "*"]!;
      while (other.length && other[other.length - 1]!.start > opener.start) other.pop();
      const width = opener.right - opener.left >= 2 && run.right - run.left >= 2 ? 2 : 1;
      opener.right -= width;
      pairs.push({ open: opener.right, close: run.left, width });
      run.left += width;
      if (opener.right === opener.left) own.pop();
    }
    if (run.opens && run.right > run.left) own.push(run);
  }
  return pairs;
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
    .split(LINE_ENDS)
    .map((part, i) => (i % 2 ? part : withoutTrailingSpaces(part)))
    .join("")
    .replace(/\n{3,}/g, "\n\n")
    .trim() + "\n";
}

/** LINE_ENDS: the line terminators a multiline `$` stops at, kept by split (odd indices) */
const LINE_ENDS = /(\r\n|[\n\r\u2028\u2029])/;

/**
 * withoutTrailingSpaces drops the spaces and tabs that end a line, read from the end by hand: the pattern
 * `[ \t]+$` retries from every space of a long run of spaces before a word (quadratic on such a line).
 */
function withoutTrailingSpaces(line: string): string {
  let end = line.length;
  while (end > 0 && (line[end - 1] === " " || line[end - 1] === "\t")) end--;
  return end === line.length ? line : line.slice(0, end);
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
 * converter's own marks) stay as they are. Line starts are escapeLineStarts' (pdfParagraphs.ts).
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
  for (let i = text.indexOf(char); i >= 0; i = text.indexOf(char, i)) {
    let end = i;
    while (text[end] === char) end++;
    runs.push({ start: i, end, ...flanking(text, i, end, char) });
    i = end;
  }
  return runs;
}
