/**
 * annotateChanges asks the AI provider what the changes of a comparison mean: one summary, and per
 * changed block its significance: material (amounts, dates, deadlines, parties, obligations, scope),
 * wording (same meaning, other words) or structural (moved or reordered, meaning kept).
 *
 * Steps: [list the changes within a text budget, ask (strict json_schema; a model that refuses
 * json_schema is asked again with json_object and the schema in the prompt), check the answer (one
 * more try when it is not the schema, then provider_error), attach by block id].
 * Documents without changes are not sent: the summary says so.
 */
import type Groq from "groq-sdk";
import { APIError } from "groq-sdk";
import type { ChatCompletionCreateParamsNonStreaming } from "groq-sdk/resources/chat/completions";
import { AppError } from "../errors";
import { withProviderPolicy } from "../ai/groq";
import type { ModelNames } from "../ai/models";
import type { Comparison, Entry } from "./compare";
import { textOf } from "./words";

export const SIGNIFICANCES = ["material", "wording", "structural"] as const;
export type Significance = (typeof SIGNIFICANCES)[number];

export interface ChangeNote {
  significance: Significance;
  reason: string;
}

export interface Annotations {
  summary: string;
  /** model: the provider's model id that answered; "" when nothing was sent */
  model: string;
  /** notes: by entry index (= index in blocks[]) */
  notes: Map<number, ChangeNote>;
  /** changesSent: how many changed blocks the model saw (the rest did not fit the text budget) */
  changesSent: number;
  changesTotal: number;
}

export interface AnnotateProvider {
  client: Groq;
  models: ModelNames;
}

/** MAX_CHANGE_CHARS: longest text of one side of one change sent to the model, in characters. */
const MAX_CHANGE_CHARS = 800;
/** MAX_PROMPT_CHARS: budget of the listed changes, in characters (about 10k tokens). */
const MAX_PROMPT_CHARS = 40_000;

const SYSTEM_PROMPT = [
  "You compare two versions of a document. You get the list of changed blocks, each with an id, the operation",
  "(replace, insert, delete, move), the old text (A) and the new text (B), and for replacements the changed words.",
  "Answer in JSON with:",
  "- summary: two to four sentences on what changed, naming the changed amounts, dates, deadlines and parties.",
  "- changes: one entry per listed id with significance and a short reason:",
  "  material = the meaning changes: an amount, price, date, deadline, duration, party, name, obligation, right or scope;",
  "  wording = the same meaning in other words, spelling or punctuation;",
  "  structural = moved or reordered without a change of meaning.",
  "Judge only from the texts given; do not invent changes.",
].join("\n");

const RESPONSE_SCHEMA = {
  type: "object",
  properties: {
    summary: { type: "string", description: "what changed, in two to four sentences" },
    changes: {
      type: "array",
      items: {
        type: "object",
        properties: {
          id: { type: "integer", description: "the id of the changed block" },
          significance: { type: "string", enum: [...SIGNIFICANCES] },
          reason: { type: "string", description: "why, in one short sentence" },
        },
        required: ["id", "significance", "reason"],
        additionalProperties: false,
      },
    },
  },
  required: ["summary", "changes"],
  additionalProperties: false,
};

export async function annotateChanges(comparison: Comparison, provider: AnnotateProvider, signal: AbortSignal): Promise<Annotations> {
  const changed = comparison.entries.flatMap((entry, index) => (entry.op === "equal" ? [] : [{ entry, index }]));
  if (changed.length === 0) return { summary: "The two documents have the same text; nothing changed.", model: "", notes: new Map(), changesSent: 0, changesTotal: 0 };
  const listing = listChanges(changed);
  const model = provider.models.accurate;
  const answer = await ask(provider.client, model, listing.text, signal);
  const sent = new Set(listing.ids);
  const notes = new Map<number, ChangeNote>();
  for (const change of answer.changes) if (sent.has(change.id)) notes.set(change.id, { significance: change.significance, reason: change.reason });
  return { summary: answer.summary, model, notes, changesSent: listing.ids.length, changesTotal: changed.length };
}

/** listChanges writes the changes as the model reads them, until the text budget is spent. */
function listChanges(changed: Array<{ entry: Entry; index: number }>): { text: string; ids: number[] } {
  const lines: string[] = [];
  const ids: number[] = [];
  let used = 0;
  for (const { entry, index } of changed) {
    const item = describeChange(entry, index);
    if (used + item.length > MAX_PROMPT_CHARS && ids.length > 0) break;
    lines.push(item);
    ids.push(index);
    used += item.length;
  }
  const omitted = changed.length - ids.length;
  if (omitted > 0) lines.push(`(${omitted} more changed blocks are not listed: the list was too long)`);
  return { text: lines.join("\n\n"), ids };
}

function describeChange(entry: Entry, index: number): string {
  const kind = (entry.b ?? entry.a)!.kind.replace("_", " ");
  const parts = [`id ${index}: ${entry.op} (${kind})`];
  if (entry.a && entry.op !== "move") parts.push(`A: ${clip(entry.a.text)}`);
  if (entry.b) parts.push(`B: ${clip(entry.b.text)}`);
  if (entry.op === "move") parts.push(`moved from block ${entry.aIndex} of A to block ${entry.bIndex} of B`);
  if (entry.words) {
    const changes = changedWords(entry);
    if (changes.length) parts.push(`changed words: ${clip(changes.join("; "))}`);
  }
  return parts.join("\n");
}

/** changedWords lists a replaced block's word changes as "old -> new", "-old" and "+new". */
function changedWords(entry: Entry): string[] {
  const out: string[] = [];
  const tokens = entry.words!.tokens;
  for (let i = 0; i < tokens.length; ) {
    if (tokens[i]!.op === "equal") {
      i++;
      continue;
    }
    let end = i;
    while (end < tokens.length && tokens[end]!.op !== "equal") end++;
    const run = tokens.slice(i, end);
    const a = textOf(run.filter((t) => t.op === "delete"), false);
    const b = textOf(run.filter((t) => t.op === "insert"), false);
    out.push(a && b ? `"${a}" -> "${b}"` : a ? `-"${a}"` : `+"${b}"`);
    i = end;
  }
  return out;
}

function clip(text: string): string {
  return text.length <= MAX_CHANGE_CHARS ? text : `${text.slice(0, MAX_CHANGE_CHARS)} [...]`;
}

// The request and the answer ------------------------------------------------------------------------

interface Answer {
  summary: string;
  changes: Array<{ id: number; significance: Significance; reason: string }>;
}

async function ask(client: Groq, model: string, listing: string, signal: AbortSignal): Promise<Answer> {
  let schemaInPrompt = false;
  let badAnswers = 0;
  for (;;) {
    signal.throwIfAborted();
    let completion: Groq.Chat.ChatCompletion;
    try {
      completion = await withProviderPolicy(`annotate the diff with model ${model}`, (s) => client.chat.completions.create(buildRequest(model, listing, schemaInPrompt), { signal: s }), { signal });
    } catch (error) {
      if (!schemaInPrompt && isBadRequest(error)) {
        schemaInPrompt = true;
        continue;
      }
      throw error;
    }
    const parsed = parseAnswer(completion.choices[0]?.message?.content ?? "");
    if (parsed.answer) return parsed.answer;
    if (++badAnswers >= 2) throw new AppError("provider_error", `annotate the diff with model ${model}: the AI provider's answer was ${parsed.problem} (twice); retry, or send annotate=false.`);
  }
}

export function buildRequest(model: string, listing: string, schemaInPrompt: boolean): ChatCompletionCreateParamsNonStreaming {
  const system = schemaInPrompt ? `${SYSTEM_PROMPT}\nAnswer with one JSON object that follows this JSON schema:\n${JSON.stringify(RESPONSE_SCHEMA)}` : SYSTEM_PROMPT;
  return {
    model,
    temperature: 0,
    messages: [
      { role: "system", content: system },
      { role: "user", content: `Changed blocks:\n\n${listing}` },
    ],
    response_format: schemaInPrompt ? { type: "json_object" } : { type: "json_schema", json_schema: { name: "diff_annotations", schema: RESPONSE_SCHEMA, strict: true } },
  };
}

/** isBadRequest: the provider refused the request itself (HTTP 400), e.g. json_schema unsupported by the model. */
function isBadRequest(error: unknown): boolean {
  return error instanceof AppError && error.code === "provider_error" && error.cause instanceof APIError && error.cause.status === 400;
}

/** parseAnswer checks the answer's shape; change entries that do not fit are dropped, not fatal. */
function parseAnswer(content: string): { answer?: Answer; problem: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content.replace(/^\s*```(?:json)?\s*|\s*```\s*$/g, ""));
  } catch {
    return { problem: "not valid JSON" };
  }
  if (!isObject(parsed) || typeof parsed.summary !== "string" || !Array.isArray(parsed.changes)) return { problem: "not the requested schema ({summary, changes[]})" };
  const changes: Answer["changes"] = [];
  for (const change of parsed.changes) {
    if (!isObject(change) || !Number.isInteger(change.id)) continue;
    const significance = String(change.significance ?? "").toLowerCase() as Significance;
    if (!SIGNIFICANCES.includes(significance)) continue;
    changes.push({ id: change.id as number, significance, reason: typeof change.reason === "string" ? change.reason.trim() : "" });
  }
  return { answer: { summary: parsed.summary.trim(), changes }, problem: "" };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
