/**
 * The agent's tools, with exactly the names the spec gives them: search, read_pages, regex_search,
 * compute, extract_table and view_page_image (offered only when a document is a PDF). Each tool
 * takes the model's JSON arguments and returns a text result for the next model turn; a bad
 * argument or a failing tool comes back as {"error": ...} text the model can act on, never as a
 * thrown error that ends the request.
 *
 * Every result is cut to MAX_RESULT_CHARS so one tool call cannot fill the model's context.
 */
import type Groq from "groq-sdk";
import type { ChatCompletionTool } from "groq-sdk/resources/chat/completions";
import { withProviderPolicy } from "../../ai/groq";
import type { SandboxResult } from "../../ai/sandbox";
import type { WorkerPool } from "../../pool";
import { jpegDataUrl, pdfPageJpeg } from "../../extract/vision";
import type { AgentDocument } from "./documents";
import type { RegexOutcome } from "../../pool/regex";

/** MAX_RESULT_CHARS: the longest tool result handed back to the model, in characters. */
export const MAX_RESULT_CHARS = 12_000;
/** REGEX_TIMEOUT_MS: a regex_search running longer is stopped (its worker thread is terminated). */
export const REGEX_TIMEOUT_MS = 2_000;

export type ToolName = "search" | "read_pages" | "regex_search" | "compute" | "extract_table" | "view_page_image";

/** Compute hands out the compute tool's Python interpreters (src/ai/sandbox PythonSandbox in the service). */
export interface Compute {
  /** session opens one agent run's own interpreter: nothing carries over from one session to another; close it when the run ends */
  session(): ComputeSession;
  /** warm starts interpreters ahead of need (a cold start takes seconds) */
  warm(): Promise<void>;
}

/** ComputeSession runs one agent run's compute calls in its own interpreter. */
export interface ComputeSession {
  run(code: string, signal?: AbortSignal): Promise<SandboxResult>;
  close(): Promise<void>;
}

export interface ToolContext {
  documents: AgentDocument[];
  pool: WorkerPool;
  /** compute: this agent run's own interpreter (runAgent opens and closes it) */
  compute: ComputeSession;
  /** vision: the provider client and vision model, for view_page_image */
  vision: { client: Groq; model: string };
  signal: AbortSignal;
}

/** ToolOutput is what one call produced: the text for the model and, when it failed, why. */
export interface ToolOutput {
  text: string;
  error?: string;
}

const documentArg = (docs: AgentDocument[]) =>
  docs.length > 1
    ? { document: { type: "string", enum: docs.map((d) => d.label), description: "label of the document to use; omit to use every document" } }
    : {};

/** toolSpecs lists the tools offered for these documents, in the provider's function format. */
export function toolSpecs(docs: AgentDocument[]): ChatCompletionTool[] {
  const doc = documentArg(docs);
  const specs: Array<[ToolName, string, Record<string, unknown>, string[]]> = [
    ["search", "Find passages by keywords (ranked). Returns snippets with their document label and page.", { query: { type: "string", description: "keywords or a phrase" }, max_results: { type: "integer", minimum: 1, maximum: 10, description: "default 5" }, ...doc }, ["query"]],
    ["read_pages", "Read whole pages (parts of about 4000 characters for documents without pages).", { pages: { type: "string", description: 'page numbers and ranges, e.g. "1", "2-4" or "1,3,7"' }, ...doc }, ["pages"]],
    ["regex_search", "Find every match of a JavaScript regular expression; returns each match, its groups, page and line.", { pattern: { type: "string" }, flags: { type: "string", description: "any of i, m, s (g is implied)" }, max_matches: { type: "integer", minimum: 1, maximum: 100, description: "default 30" }, ...doc }, ["pattern"]],
    ["compute", "Run Python 3 (standard library only, no files, no network) for every calculation. Print the results or end with an expression.", { code: { type: "string", description: "Python source" } }, ["code"]],
    ["extract_table", "Return the tables of the document (or of one page) as rows of {column: value}.", { page: { type: "integer", minimum: 1, description: "only tables on this page" }, index: { type: "integer", minimum: 1, description: "only the n-th table (in document order)" }, ...doc }, []],
  ];
  if (docs.some((d) => d.pdf)) {
    specs.push(["view_page_image", "Look at a rendered PDF page (charts, stamps, handwriting, layout) and answer a question about it.", { page: { type: "integer", minimum: 1 }, question: { type: "string" }, ...doc }, ["page", "question"]]);
  }
  return specs.map(([name, description, properties, required]) => ({
    type: "function",
    function: { name, description, parameters: { type: "object", properties, required, additionalProperties: false } },
  }));
}

/** runTool executes one tool call; the arguments are the model's JSON text. */
export async function runTool(name: string, argsText: string, ctx: ToolContext): Promise<ToolOutput> {
  let args: Record<string, unknown>;
  try {
    const parsed = JSON.parse(argsText || "{}");
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("not a JSON object");
    args = parsed;
  } catch (error) {
    return failed(`the arguments are not a JSON object (${messageOf(error)})`);
  }
  try {
    switch (name) {
      case "search":
        return ok(search(args, ctx));
      case "read_pages":
        return ok(readPages(args, ctx));
      case "regex_search":
        return await regexSearch(args, ctx);
      case "compute":
        return await compute(args, ctx);
      case "extract_table":
        return ok(extractTable(args, ctx));
      case "view_page_image":
        return await viewPageImage(args, ctx);
      default:
        return failed(`there is no tool named '${name}'`);
    }
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    if (error instanceof ToolArgumentError) return failed(error.message);
    throw error;
  }
}

class ToolArgumentError extends Error {}

function ok(value: unknown): ToolOutput {
  return { text: cut(typeof value === "string" ? value : JSON.stringify(value)) };
}

function failed(error: string): ToolOutput {
  return { text: JSON.stringify({ error }), error };
}

function cut(text: string): string {
  return text.length <= MAX_RESULT_CHARS ? text : `${text.slice(0, MAX_RESULT_CHARS)}\n[... ${text.length - MAX_RESULT_CHARS} more characters cut; ask for less]`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** documentsOf picks the documents a call names (all of them when it names none). */
function documentsOf(args: Record<string, unknown>, ctx: ToolContext): AgentDocument[] {
  if (args.document === undefined || args.document === null || args.document === "") return ctx.documents;
  const found = ctx.documents.find((d) => d.label === args.document);
  if (!found) throw new ToolArgumentError(`no document labelled '${String(args.document)}'; the labels are ${ctx.documents.map((d) => JSON.stringify(d.label)).join(", ")}`);
  return [found];
}

function intArg(args: Record<string, unknown>, name: string, fallback: number, min: number, max: number): number {
  const value = args[name];
  if (value === undefined || value === null) return fallback;
  const n = typeof value === "number" ? value : Number(value);
  if (!Number.isInteger(n)) throw new ToolArgumentError(`${name} must be an integer`);
  return Math.min(max, Math.max(min, n));
}

function stringArg(args: Record<string, unknown>, name: string): string {
  const value = args[name];
  if (typeof value !== "string" || value.trim() === "") throw new ToolArgumentError(`${name} is required and must be a non-empty string`);
  return value;
}

const pageName = (d: AgentDocument) => (d.paginated ? "page" : "part");
const where = (d: AgentDocument, page: number, many: boolean) => `${many ? `[${d.label}] ` : ""}${pageName(d)} ${page}`;

// search -----------------------------------------------------------------------------------------

interface Passage {
  doc: AgentDocument;
  page: number;
  text: string;
  words: string[];
}

/** search ranks paragraphs by the query's terms (weighted by rarity, with a bonus for the exact phrase). */
function search(args: Record<string, unknown>, ctx: ToolContext) {
  const query = stringArg(args, "query");
  const max = intArg(args, "max_results", 5, 1, 10);
  const docs = documentsOf(args, ctx);
  const terms = [...new Set(tokens(query))];
  if (!terms.length) throw new ToolArgumentError("query has no words to search for");
  const passages = docs.flatMap(passagesOf);
  const df = new Map(terms.map((t) => [t, passages.filter((p) => p.words.includes(t)).length]));
  const phrase = query.toLowerCase().trim();
  const scored = passages
    .map((p) => {
      let score = 0;
      for (const t of terms) {
        const tf = p.words.filter((w) => w === t).length;
        if (tf) score += (1 + Math.log(tf)) * Math.log(1 + passages.length / (df.get(t) || 1));
      }
      if (terms.length > 1 && p.text.toLowerCase().includes(phrase)) score *= 1.5;
      return { p, score };
    })
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, max);
  const many = ctx.documents.length > 1;
  if (!scored.length) return { results: [], note: `no passage contains any of: ${terms.join(", ")}` };
  return { results: scored.map(({ p }) => ({ where: where(p.doc, p.page, many), text: p.text.slice(0, 1200) })) };
}

/** passageCache: each document is split and tokenised once per run, not once per search call. */
const passageCache = new WeakMap<AgentDocument, Passage[]>();

function passagesOf(doc: AgentDocument): Passage[] {
  let passages = passageCache.get(doc);
  if (!passages) {
    passages = doc.parts.flatMap((text, i) => paragraphs(text).map((p) => ({ doc, page: i + 1, text: p, words: tokens(p) })));
    passageCache.set(doc, passages);
  }
  return passages;
}

function tokens(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** paragraphs splits a page into blank-line separated passages; long ones are cut near 1000 characters. */
function paragraphs(text: string): string[] {
  return text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean)
    .flatMap((p) => (p.length <= 1200 ? [p] : p.match(/[\s\S]{1,1000}(?:\s|$)/g) ?? [p]));
}

// read_pages -------------------------------------------------------------------------------------

function readPages(args: Record<string, unknown>, ctx: ToolContext) {
  const spec = typeof args.pages === "number" ? String(args.pages) : Array.isArray(args.pages) ? args.pages.join(",") : stringArg(args, "pages");
  const docs = documentsOf(args, ctx);
  const many = ctx.documents.length > 1;
  const out: string[] = [];
  for (const doc of docs) {
    const pages = pageList(spec, doc.parts.length);
    if (!pages.length) {
      out.push(`${many ? `[${doc.label}] ` : ""}has ${doc.parts.length} ${pageName(doc)}(s); '${spec}' names none of them`);
      continue;
    }
    for (const page of pages) out.push(`=== ${where(doc, page, many)} of ${doc.parts.length} ===\n${doc.parts[page - 1]}`);
  }
  return out.join("\n\n");
}

/** pageList reads "1", "2-4", "1,3,7" into page numbers within 1..count (at most 20 pages). */
export function pageList(spec: string, count: number): number[] {
  const pages: number[] = [];
  for (const piece of spec.split(/[,\s]+/).filter(Boolean)) {
    const range = /^(\d+)\s*(?:-\s*(\d+))?$/.exec(piece);
    if (!range) throw new ToolArgumentError(`pages: '${piece}' is not a page number or range such as 2-4`);
    const from = Number(range[1]);
    const to = Math.min(count, Number(range[2] ?? range[1]), from + 19);
    for (let p = Math.max(1, from); p <= to; p++) if (!pages.includes(p)) pages.push(p);
  }
  return pages.slice(0, 20);
}

// regex_search -----------------------------------------------------------------------------------

async function regexSearch(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolOutput> {
  const pattern = stringArg(args, "pattern");
  if (pattern.length > 1000) return failed("pattern: at most 1000 characters");
  const flags = typeof args.flags === "string" ? args.flags : "";
  const maxMatches = intArg(args, "max_matches", 30, 1, 100);
  const docs = documentsOf(args, ctx);
  const parts = docs.flatMap((doc) => doc.parts.map((text, i) => ({ label: doc.label, page: i + 1, text })));
  const deadline = AbortSignal.timeout(REGEX_TIMEOUT_MS);
  let outcome: RegexOutcome;
  try {
    outcome = await ctx.pool.run("regexSearch", { pattern, flags, parts, maxMatches }, AbortSignal.any([deadline, ctx.signal]));
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    if (deadline.aborted) return failed(`the pattern ran longer than ${REGEX_TIMEOUT_MS / 1000} s and was stopped (catastrophic backtracking?); use a simpler pattern`);
    throw error;
  }
  if (!outcome.ok) return failed(outcome.error);
  const many = ctx.documents.length > 1;
  const byLabel = new Map(docs.map((d) => [d.label, d]));
  return ok({
    matches: outcome.matches.map((m) => ({ where: where(byLabel.get(m.label)!, m.page, many), match: m.match, ...(m.groups.length ? { groups: m.groups } : {}), line: m.line })),
    ...(outcome.truncated ? { note: `only the first ${maxMatches} matches are listed` } : {}),
  });
}

// compute ----------------------------------------------------------------------------------------

async function compute(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolOutput> {
  const code = stringArg(args, "code");
  if (code.length > 20_000) return failed("code: at most 20,000 characters");
  const run = await ctx.compute.run(code, ctx.signal);
  ctx.signal.throwIfAborted();
  const text = JSON.stringify({ ok: run.ok, stdout: run.stdout, result: run.result, ...(run.error ? { error: run.error } : {}) });
  return run.ok ? ok(text) : { text: cut(text), error: run.error ?? "the code failed" };
}

// extract_table ----------------------------------------------------------------------------------

interface FoundTable {
  where: string;
  columns: string[];
  rows: Array<Record<string, string>>;
}

function extractTable(args: Record<string, unknown>, ctx: ToolContext) {
  const docs = documentsOf(args, ctx);
  const onlyPage = args.page === undefined ? undefined : intArg(args, "page", 1, 1, 1_000_000);
  const onlyIndex = args.index === undefined ? undefined : intArg(args, "index", 1, 1, 1_000_000);
  const many = ctx.documents.length > 1;
  const tables: FoundTable[] = [];
  for (const doc of docs) {
    doc.parts.forEach((text, i) => {
      if (onlyPage !== undefined && i + 1 !== onlyPage) return;
      for (const table of markdownTables(text)) tables.push({ where: where(doc, i + 1, many), ...table });
    });
  }
  if (!tables.length) return { tables: [], note: onlyPage ? `no table on ${pageName(docs[0]!)} ${onlyPage}` : "the document has no tables (as GFM tables in its text); try read_pages or regex_search" };
  if (onlyIndex !== undefined) {
    const table = tables[onlyIndex - 1];
    return table ? { tables: [table] } : { tables: [], note: `there are ${tables.length} table(s); index ${onlyIndex} is past the last` };
  }
  return { count: tables.length, tables };
}

/** markdownTables reads the GFM tables of a text: header row, separator, body rows. */
export function markdownTables(text: string): Array<{ columns: string[]; rows: Array<Record<string, string>> }> {
  const lines = text.split("\n");
  const tables: Array<{ columns: string[]; rows: Array<Record<string, string>> }> = [];
  for (let i = 0; i + 1 < lines.length; i++) {
    if (!isRow(lines[i]!) || !/^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/.test(lines[i + 1]!)) continue;
    const columns = cells(lines[i]!).map((c, n) => c || `column ${n + 1}`);
    const rows: Array<Record<string, string>> = [];
    let j = i + 2;
    for (; j < lines.length && isRow(lines[j]!); j++) {
      const values = cells(lines[j]!);
      rows.push(Object.fromEntries(columns.map((c, n) => [c, values[n] ?? ""])));
    }
    tables.push({ columns, rows });
    i = j - 1;
  }
  return tables;
}

function isRow(line: string): boolean {
  return /^\s*\|.*\|\s*$/.test(line);
}

function cells(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, "")
    .replace(/\|$/, "")
    .split(/(?<!\\)\|/)
    .map((c) => c.trim().replace(/\\\|/g, "|"));
}

// view_page_image --------------------------------------------------------------------------------

async function viewPageImage(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolOutput> {
  const question = stringArg(args, "question");
  const docs = documentsOf(args, ctx).filter((d) => d.pdf);
  const doc = docs[0];
  if (!doc) return failed("view_page_image reads PDF pages only, and this document is not a PDF");
  const page = intArg(args, "page", 1, 1, 1_000_000);
  if (page > doc.totalPages) return failed(`the PDF has ${doc.totalPages} page(s); there is no page ${page}`);
  const jpeg = await pdfPageJpeg(doc.pdf!, page, `view_page_image: page ${page} of ${doc.filename}`, ctx.signal);
  const completion = await withProviderPolicy(
    `view_page_image with model ${ctx.vision.model}`,
    (signal) =>
      ctx.vision.client.chat.completions.create(
        {
          model: ctx.vision.model,
          temperature: 0,
          messages: [
            {
              role: "user",
              content: [
                { type: "text", text: `This is page ${page} of '${doc.filename}'. ${question}\nDescribe only what the image shows; say so when it does not show the answer.` },
                { type: "image_url", image_url: { url: jpegDataUrl(jpeg) } },
              ],
            },
          ],
        },
        { signal },
      ),
    { signal: ctx.signal },
  );
  const answer = completion.choices[0]?.message?.content?.trim();
  if (!answer) return failed("the vision model gave no answer for this page");
  return ok({ where: where(doc, page, ctx.documents.length > 1), answer });
}
