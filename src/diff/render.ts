/**
 * The diff as a document for people: markdown (~~deleted~~ and **inserted** words) and a small
 * self-contained HTML page (<del> red, <ins> green, moved blocks marked blue; no scripts, no
 * external assets). Both follow the new document's order with deleted blocks where they stood.
 * At block granularity a replaced block shows as its whole old text deleted and new text inserted.
 */
import type { Block } from "./blocks";
import type { Comparison, Entry, Granularity } from "./compare";
import { DELETE, EQUAL, myersDiff } from "./myers";
import { diffWords, type TokenOp } from "./words";

export interface RenderOptions {
  granularity: Granularity;
  /** titleA/titleB: how the two documents are named in the HTML header (file names or URLs) */
  titleA?: string;
  titleB?: string;
  /** notes: per entry index, an annotation shown beside the block (significance and reason) */
  notes?: Map<number, string>;
  /** summary: the AI summary of the changes, shown above the blocks */
  summary?: string;
}

// Markdown ------------------------------------------------------------------------------------------

export function renderMarkdown(comparison: Comparison, options: RenderOptions): string {
  const parts: string[] = [];
  if (options.summary) parts.push(`> **Summary of changes:** ${options.summary.replace(/\s+/g, " ").trim()}`);
  let previous: Entry | undefined;
  comparison.entries.forEach((entry, index) => {
    const block = (entry.b ?? entry.a)!;
    const prevKind = previous ? (previous.b ?? previous.a)!.kind : undefined;
    let text = markdownOfEntry(entry, options.granularity);
    const note = options.notes?.get(index);
    if (note && block.kind !== "table_row" && block.kind !== "code") text += ` *[${note}]*`;
    if (block.kind === "table_row" && prevKind !== "table_row") text += `\n${separatorRow(block)}`;
    const tight = prevKind === block.kind && (block.kind === "table_row" || block.kind === "list_item");
    if (tight) parts[parts.length - 1] += `\n${text}`;
    else parts.push(text);
    previous = entry;
  });
  return parts.join("\n\n") + "\n";
}

function markdownOfEntry(entry: Entry, granularity: Granularity): string {
  const block = (entry.b ?? entry.a)!;
  if (block.kind === "code") return codeMarkdown(entry);
  switch (entry.op) {
    case "equal":
      return block.marker + block.text;
    case "move":
      return block.kind === "table_row" ? block.text : `${block.marker}${block.text} *(moved)*`;
    case "insert":
      return block.marker + wrapMarkdown(block, "**");
    case "delete":
      return block.marker + wrapMarkdown(block, "~~");
    case "replace":
      if (granularity === "block" || !entry.words) {
        if (block.kind === "table_row") return `| ${cellsOf(entry.a!).map((c, i) => changedCell(c, cellsOf(entry.b!)[i] ?? "")).join(" | ")} |`;
        return `${block.marker}~~${entry.a!.text}~~ **${entry.b!.text}**`;
      }
      return block.marker + tokensMarkdown(entry.words.tokens);
  }
}

function cellsOf(block: Block): string[] {
  return block.cells ?? [block.text];
}

function changedCell(a: string, b: string): string {
  if (a === b) return a;
  return [a && `~~${a}~~`, b && `**${b}**`].filter(Boolean).join(" ");
}

/** wrapMarkdown marks a whole block; a table row is marked cell by cell so the row stays a row. */
function wrapMarkdown(block: Block, mark: string): string {
  if (block.kind === "table_row") return `| ${cellsOf(block).map((c) => (c ? `${mark}${c}${mark}` : "")).join(" | ")} |`;
  return block.text ? `${mark}${block.text}${mark}` : "";
}

function separatorRow(block: Block): string {
  return `| ${cellsOf(block).map(() => "---").join(" | ")} |`;
}

/**
 * tokensMarkdown writes the word diff: runs of deleted tokens in ~~ ~~, inserted in ** **. A run
 * never spans a table pipe (the row would break), and the space before a run stays outside it
 * (GFM does not open emphasis before a space).
 */
function tokensMarkdown(tokens: TokenOp[]): string {
  let out = "";
  let i = 0;
  while (i < tokens.length) {
    const { op, token } = tokens[i]!;
    if (op === "equal" || token.text === "|") {
      out += (out && token.space ? " " : "") + token.text;
      i++;
      continue;
    }
    let run = "";
    const start = i;
    for (; i < tokens.length && tokens[i]!.op === op && tokens[i]!.token.text !== "|"; i++) run += (i > start && tokens[i]!.token.space ? " " : "") + tokens[i]!.token.text;
    const mark = op === "delete" ? "~~" : "**";
    out += (out && token.space ? " " : "") + mark + run + mark;
  }
  return out;
}

/** codeMarkdown: equal code as a plain fence; changed code as a ```diff fence with -/+ lines. */
function codeMarkdown(entry: Entry): string {
  const block = (entry.b ?? entry.a)!;
  const fence = "`".repeat(Math.max(3, ...Array.from(`${entry.a?.text ?? ""}${entry.b?.text ?? ""}`.matchAll(/`+/g), (m) => m[0].length + 1)));
  if (entry.op === "equal" || entry.op === "move") return `${fence}${block.language ?? ""}\n${block.text}\n${fence}${entry.op === "move" ? "\n*(moved)*" : ""}`;
  const lines = lineDiff(entry.a?.text, entry.b?.text).map(([sign, line]) => `${sign} ${line}`);
  return `${fence}diff\n${lines.join("\n")}\n${fence}`;
}

/** lineDiff: the lines of two code blocks as " " equal, "-" deleted and "+" inserted. */
function lineDiff(a: string | undefined, b: string | undefined): Array<[string, string]> {
  const la = a === undefined ? [] : a.split("\n");
  const lb = b === undefined ? [] : b.split("\n");
  const ids = new Map<string, number>();
  const idOf = (line: string) => {
    let id = ids.get(line);
    if (id === undefined) ids.set(line, (id = ids.size));
    return id;
  };
  const script = myersDiff(la.map(idOf), lb.map(idOf), 2000);
  if (!script) return [...la.map((l): [string, string] => ["-", l]), ...lb.map((l): [string, string] => ["+", l])];
  return script.ops.map((op, s): [string, string] => (op === EQUAL ? [" ", lb[script.bi[s]!]!] : op === DELETE ? ["-", la[script.ai[s]!]!] : ["+", lb[script.bi[s]!]!]));
}

// HTML ----------------------------------------------------------------------------------------------

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
header{border-bottom:1px solid #ddd;margin-bottom:1.5rem}header p{color:#555}
del{background:#ffe0e0;color:#a00000}ins{background:#dcf5dc;color:#005a00;text-decoration:none}
.block-del{background:#fff3f3}.block-ins{background:#f1fbf1}.moved{border-left:4px solid #3b6fd8;padding-left:.5rem}
.note{font-size:.8em;color:#3b6fd8;margin-left:.5em}.summary{background:#f4f6fb;padding:.5rem 1rem;border-radius:4px}
table{border-collapse:collapse;margin:1rem 0}td,th{border:1px solid #ccc;padding:.25rem .5rem}
ul{padding-left:1.5rem}li.numbered{list-style:none}pre{background:#f6f6f6;padding:.5rem;overflow:auto}
blockquote{border-left:3px solid #ccc;margin-left:0;padding-left:1rem;color:#444}`;

export function renderHtml(comparison: Comparison, options: RenderOptions): string {
  const { stats } = comparison;
  const title = `${options.titleA ?? "document A"} → ${options.titleB ?? "document B"}`;
  const facts = `similarity ${(comparison.similarity * 100).toFixed(1)} %; blocks: ${stats.blocks.changed} changed, ${stats.blocks.added} added, ${stats.blocks.removed} removed, ${stats.blocks.moved} moved; words: ${stats.words.changed} changed, ${stats.words.added} added, ${stats.words.removed} removed`;
  const body: string[] = [];
  let group: "table" | "ul" | undefined;
  const close = () => {
    if (group) body.push(`</${group}>`);
    group = undefined;
  };
  comparison.entries.forEach((entry, index) => {
    const block = (entry.b ?? entry.a)!;
    const wanted = block.kind === "table_row" ? "table" : block.kind === "list_item" ? "ul" : undefined;
    if (wanted !== group) {
      close();
      if (wanted) body.push(`<${wanted}>`);
      group = wanted;
    }
    body.push(htmlOfEntry(entry, options, options.notes?.get(index)));
  });
  close();
  const summary = options.summary ? `<p class="summary"><strong>Summary of changes:</strong> ${escapeHtml(options.summary)}</p>\n` : "";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Diff: ${escapeHtml(title)}</title>
<style>${STYLE}</style></head>
<body><header><h1>Comparison</h1><p>${escapeHtml(title)}<br>${escapeHtml(facts)}</p></header>
${summary}<main>
${body.join("\n")}
</main></body></html>
`;
}

function htmlOfEntry(entry: Entry, options: RenderOptions, note: string | undefined): string {
  const block = (entry.b ?? entry.a)!;
  const css = { equal: "", insert: "block-ins", delete: "block-del", replace: "", move: "moved" }[entry.op];
  const noteHtml = note ? `<span class="note">${escapeHtml(note)}</span>` : entry.op === "move" ? `<span class="note">moved</span>` : "";
  if (block.kind === "table_row") return tableRowHtml(entry, options.granularity, css, noteHtml);
  const content = contentHtml(entry, options.granularity) + noteHtml;
  const cls = css ? ` class="${css}"` : "";
  switch (block.kind) {
    case "heading":
      return `<h${block.level}${cls}>${content}</h${block.level}>`;
    case "list_item": {
      const numbered = block.marker.trim() === "";
      const classes = [css, numbered ? "numbered" : ""].filter(Boolean).join(" ");
      const indent = block.level > 0 ? ` style="margin-left:${block.level * 1.5}rem"` : "";
      return `<li${classes ? ` class="${classes}"` : ""}${indent}>${content}</li>`;
    }
    case "code":
      return `<pre${cls}>${content}</pre>`;
    case "quote":
      return `<blockquote${cls}>${content}</blockquote>`;
    default:
      return `<p${cls}>${content}</p>`;
  }
}

function contentHtml(entry: Entry, granularity: Granularity): string {
  if ((entry.b ?? entry.a)!.kind === "code" && entry.op !== "equal" && entry.op !== "move") return codeLinesHtml(entry);
  switch (entry.op) {
    case "equal":
    case "move":
      return escapeHtml(entry.b!.text);
    case "insert":
      return `<ins>${escapeHtml(entry.b!.text)}</ins>`;
    case "delete":
      return `<del>${escapeHtml(entry.a!.text)}</del>`;
    case "replace":
      if (granularity === "block" || !entry.words) return `<del>${escapeHtml(entry.a!.text)}</del> <ins>${escapeHtml(entry.b!.text)}</ins>`;
      return tokensHtml(entry.words.tokens);
  }
}

/** codeLinesHtml: changed code line by line, keeping its spacing (word runs would collapse it). */
function codeLinesHtml(entry: Entry): string {
  return lineDiff(entry.a?.text, entry.b?.text)
    .map(([sign, line]) => (sign === "-" ? `<del>${escapeHtml(line)}</del>` : sign === "+" ? `<ins>${escapeHtml(line)}</ins>` : escapeHtml(line)))
    .join("\n");
}

/** tokensHtml writes a token run as text with <del>/<ins> around deleted and inserted runs. */
function tokensHtml(tokens: TokenOp[]): string {
  let out = "";
  let open: "del" | "ins" | undefined;
  tokens.forEach(({ op, token }, i) => {
    const tag = op === "delete" ? "del" : op === "insert" ? "ins" : undefined;
    // a replacement reads "old new": a space between the deleted and the inserted run even when the text had none
    const space = i > 0 && (token.space || (open === "del" && tag === "ins")) ? " " : "";
    if (tag !== open) {
      if (open) out += `</${open}>`;
      out += space;
      if (tag) out += `<${tag}>`;
      open = tag;
    } else out += space;
    out += escapeHtml(token.text);
  });
  if (open) out += `</${open}>`;
  return out;
}

/** tableRowHtml: one <tr>; a replaced row shows each cell's own change when the columns line up. */
function tableRowHtml(entry: Entry, granularity: Granularity, css: string, note: string): string {
  const block = (entry.b ?? entry.a)!;
  const tag = block.header ? "th" : "td";
  const cls = css ? ` class="${css}"` : "";
  const cell = (html: string, last: boolean) => `<${tag}>${html}${last ? note : ""}</${tag}>`;
  const row = (cells: string[]) => `<tr${cls}>${cells.map((c, i) => cell(c, i === cells.length - 1)).join("")}</tr>`;
  const a = entry.a?.cells ?? [];
  const b = entry.b?.cells ?? [];
  switch (entry.op) {
    case "equal":
    case "move":
      return row(b.map(escapeHtml));
    case "insert":
      return row(b.map((c) => (c ? `<ins>${escapeHtml(c)}</ins>` : "")));
    case "delete":
      return row(a.map((c) => (c ? `<del>${escapeHtml(c)}</del>` : "")));
    case "replace": {
      const width = Math.max(a.length, b.length);
      const cells = Array.from({ length: width }, (_, i) => {
        const [x, y] = [a[i] ?? "", b[i] ?? ""];
        if (x === y) return escapeHtml(y);
        if (granularity === "block") return [x && `<del>${escapeHtml(x)}</del>`, y && `<ins>${escapeHtml(y)}</ins>`].filter(Boolean).join(" ");
        return cellWordsHtml(x, y);
      });
      return row(cells);
    }
  }
}

/** cellWordsHtml: the word diff of one cell (cells are short; their own diff keeps columns apart). */
function cellWordsHtml(x: string, y: string): string {
  return tokensHtml(diffWords(x, y).tokens);
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!);
}
