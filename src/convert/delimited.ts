/**
 * CSV and TSV -> one GFM table. The charset is found by decodeText (charset.ts); fields follow
 * RFC 4180 (quoted delimiters, quotes and newlines).
 */
import { AppError } from "../errors";
import { gfmTable, tidyMarkdown } from "./markdown";
import type { Converter } from "./types";
import { decodeText } from "./charset";

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
