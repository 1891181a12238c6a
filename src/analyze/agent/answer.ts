/**
 * The prompts of the agent and its final, typed answers.
 *
 * Analyze and cross-analyze end with one {value, confidence, reasoning, sources, steps} object per
 * field; decide ends with the whole decision, a confidence per field, one rationale and its sources.
 * Nothing the model says is taken as is: values are coerced to the schema, confidences clamped
 * to 0..1, and every source must be text found in a document (checked, labelled with the document
 * it came from); a found value with no such source and no computation behind it is capped at 0.59,
 * the spec's "ambiguous or indirect evidence" band.
 */
import type Groq from "groq-sdk";
import type { ChatCompletionMessageParam } from "groq-sdk/resources/chat/completions";
import { coerceToSchema, strictObject, valueSchema, type JsonSchema } from "../../ai/jsonSchema";
import { askStructured } from "../../ai/structured";
import { normalizeText } from "../../extract/confidence";
import { describeFields, isMissing, selfReportOf } from "../../extract/provider";
import type { TypedSchema } from "../../schema/typed";
import type { AgentDocument } from "./documents";
import type { Step } from "./loop";
import { isPlainObject, round3 } from "../../runtime/values";

/** ContextBlock (spec "Context block"): authoritative situational data for decide (the agent reads it as a document). */
export interface ContextBlock {
  label: string;
  content: string;
}

/** UNSOURCED_CAP: the highest confidence of a value with neither a found source nor a computation. */
export const UNSOURCED_CAP = 0.59;
/** INLINE_TEXT_CHARS: documents shorter than this (all together) go into the first message whole. */
const INLINE_TEXT_CHARS = 24_000;
/** PREVIEW_CHARS: the start of each document shown when they are longer. */
const PREVIEW_CHARS = 2_500;

export type AgentMode = "analyze" | "cross" | "decide";

const BANDS =
  "Confidence bands: 0.95-1.0 directly stated or computed from unambiguous data; 0.80-0.94 clearly derivable with minor interpretation; 0.60-0.79 reasonably inferred with assumptions; 0.30-0.59 ambiguous or indirect evidence; 0.00-0.29 speculative or not found.";

const SYSTEM: Record<AgentMode, string> = {
  analyze: [
    "You answer questions about a document by investigating it with tools, like a careful analyst.",
    "Find the evidence with search, read_pages, regex_search and extract_table (and view_page_image for what only a PDF page's picture shows).",
    "Do every calculation with the compute tool (Python); never calculate in your head.",
    "When you have the evidence for every field, stop calling tools and reply with a short summary of your findings.",
  ].join("\n"),
  cross: [
    "You answer questions that span several documents, each known by a label, by investigating them with tools, like a careful analyst.",
    "Compare the documents with search, read_pages, regex_search and extract_table (each takes an optional document label); view_page_image shows PDF pages.",
    "Do every calculation with the compute tool (Python); never calculate in your head. Say which document each fact comes from.",
    "When you have the evidence for every field, stop calling tools and reply with a short summary of your findings.",
  ].join("\n"),
  decide: [
    "You make one coherent decision: every field of the decision is a facet of the same judgment and must agree with the others.",
    "Context blocks are authoritative situational data: they override general assumptions.",
    "When a document is given you may investigate it with the tools first (calculations with compute, never in your head); then stop calling tools and summarise your findings.",
  ].join("\n"),
};

export interface PromptInput {
  mode: AgentMode;
  schema: TypedSchema;
  documents: AgentDocument[];
  instructions?: string;
  context?: ContextBlock[];
}

/** openingMessages are the system prompt and the task: fields, instructions, context, documents. */
export function openingMessages(input: PromptInput): ChatCompletionMessageParam[] {
  const parts: string[] = [];
  if (input.instructions) parts.push(`Instructions:\n${input.instructions}`);
  parts.push(`${input.mode === "decide" ? "Decision fields" : "Fields to answer"}:\n${describeFields(input.schema, "")}`);
  if (input.context?.length) parts.push(`Context (authoritative):\n${input.context.map((b) => `[${b.label}]\n${b.content}`).join("\n\n")}`);
  if (input.documents.length) parts.push(documentsOverview(input.documents));
  return [
    { role: "system", content: `${SYSTEM[input.mode]}\n${BANDS}` },
    { role: "user", content: parts.join("\n\n") },
  ];
}

function documentsOverview(docs: AgentDocument[]): string {
  const whole = docs.reduce((n, d) => n + d.markdown.length, 0) <= INLINE_TEXT_CHARS;
  return docs
    .map((d) => {
      const unit = d.paginated ? "pages" : "parts of about 4000 characters";
      const head = `Document [${d.label}]: '${d.filename}' (${d.contentType}), ${d.parts.length} ${unit}, ${d.markdown.length} characters.`;
      if (whole) return `${head}\nFull text:\n<<<\n${d.markdown}\n>>>`;
      return `${head}\nBeginning (read the rest with the tools):\n<<<\n${d.markdown.slice(0, PREVIEW_CHARS)}\n>>>`;
    })
    .join("\n\n");
}

// Analyze and cross-analyze ----------------------------------------------------------------------

export interface FieldAnswer {
  value: unknown;
  confidence: number;
  reasoning: string;
  sources: string[];
  steps: number[];
}

export interface AnswerDeps {
  client: Groq;
  model: string;
  signal: AbortSignal;
}

/** fieldAnswers asks for the final per-field answer and checks it against the documents and steps. */
export async function fieldAnswers(messages: ChatCompletionMessageParam[], input: PromptInput, steps: Step[], deps: AnswerDeps): Promise<{ answers: Record<string, FieldAnswer>; tokens: number }> {
  const names = Object.keys(input.schema);
  const properties: Record<string, JsonSchema> = {};
  for (const [name, def] of Object.entries(input.schema)) {
    properties[name] = strictObject({
      value: valueSchema(def),
      confidence: { type: "number", description: "0.0 to 1.0, in the confidence bands" },
      reasoning: { type: "string", description: "step-by-step explanation of how the value was found or computed" },
      sources: { type: "array", items: { type: "string" }, description: "short verbatim quotes from the documents that support the value" },
      steps: { type: "array", items: { type: "integer" }, description: "numbers of the tool steps this answer relies on" },
    });
  }
  const ask: ChatCompletionMessageParam = {
    role: "user",
    content: [
      "Now give the final answer as one JSON object with one member per field.",
      "For each field: value (the requested type, or null when the documents do not support an answer), confidence (in the bands), reasoning (step by step, naming the numbers used), sources (exact quotes copied from the documents" +
        (input.mode === "cross" ? ", each starting with the document label in square brackets, e.g. [label] quote" : "") +
        "), steps (the [step N] numbers you relied on).",
    ].join("\n"),
  };
  const { value, tokens } = await askStructured({
    client: deps.client,
    model: deps.model,
    what: `${input.mode} (final answer)`,
    messages: [...messages, ask],
    schemaName: "analysis",
    schema: strictObject(properties),
    check: (parsed) => {
      if (!isPlainObject(parsed)) return "not a JSON object";
      const missing = names.filter((n) => !isPlainObject(parsed[n]) || !("value" in (parsed[n] as object)));
      return missing.length ? `missing the field object(s) ${missing.join(", ")}` : (parsed as Record<string, Record<string, unknown>>);
    },
    signal: deps.signal,
  });
  const grounder = new Grounder(input.documents);
  const answers: Record<string, FieldAnswer> = {};
  for (const [name, def] of Object.entries(input.schema)) {
    const raw = value[name]!;
    const fieldValue = coerceToSchema(raw.value, def);
    const usedSteps = integers(raw.steps).filter((n) => steps.some((s) => s.step === n));
    const sources = grounder.ground(strings(raw.sources), input.mode === "cross");
    const computed = usedSteps.some((n) => steps.find((s) => s.step === n)?.tool === "compute") || (usedSteps.length === 0 && steps.some((s) => s.tool === "compute" && !s.error));
    let confidence = selfReportOf(raw.confidence);
    if (isMissing(fieldValue)) confidence = 0;
    else if (sources.length === 0 && !computed) confidence = Math.min(confidence, UNSOURCED_CAP);
    answers[name] = { value: isMissing(fieldValue) ? null : fieldValue, confidence: round3(confidence), reasoning: typeof raw.reasoning === "string" ? raw.reasoning : "", sources, steps: usedSteps };
  }
  return { answers, tokens };
}

// Decide -----------------------------------------------------------------------------------------

export interface Decision {
  data: Record<string, unknown>;
  confidence: Record<string, number>;
  reasoning: string;
  sources: string[];
}

/**
 * decision asks for the whole decision in one structured answer. Every value is required and not
 * nullable in the response schema; an answer with a null (after coercion) or with every confidence
 * at zero is not a decision, so it is asked for again, and a second one is a provider_error.
 */
export async function decision(messages: ChatCompletionMessageParam[], input: PromptInput, deps: AnswerDeps): Promise<{ decision: Decision; tokens: number }> {
  const names = Object.keys(input.schema);
  const values: Record<string, JsonSchema> = {};
  for (const [name, def] of Object.entries(input.schema)) values[name] = valueSchema(def, false);
  const schema = strictObject({
    decision: strictObject(values),
    confidence: strictObject(Object.fromEntries(names.map((n) => [n, { type: "number" }]))),
    reasoning: { type: "string", description: "one rationale for the whole decision" },
    sources: { type: "array", items: { type: "string" }, description: "short verbatim quotes from the documents or context that support the decision" },
  });
  const ask: ChatCompletionMessageParam = {
    role: "user",
    content:
      "Now give the decision as one JSON object: decision (a real value for every field; no nulls), confidence (per field, in the bands), reasoning (one rationale for the whole decision), sources (exact quotes from the documents or context).",
  };
  const { value, tokens } = await askStructured({
    client: deps.client,
    model: deps.model,
    what: "decide",
    messages: [...messages, ask],
    schemaName: "decision",
    schema,
    check: (parsed) => {
      if (!isPlainObject(parsed) || !isPlainObject(parsed.decision)) return "not an object with a decision member";
      const decided = parsed.decision as Record<string, unknown>;
      const empty = Object.entries(input.schema)
        .filter(([n, def]) => isMissing(coerceToSchema(decided[n], def)))
        .map(([n]) => n);
      if (empty.length) return `not a complete decision: no value for ${empty.join(", ")}`;
      const confidence = isPlainObject(parsed.confidence) ? parsed.confidence : {};
      if (names.every((n) => selfReportOf(confidence[n]) === 0)) return "not a decision: every confidence is zero";
      return parsed as { decision: Record<string, unknown>; confidence: Record<string, unknown>; reasoning?: unknown; sources?: unknown };
    },
    signal: deps.signal,
  });
  const sourceTexts = [...input.documents, ...(input.context ?? []).map(contextDocument)];
  const sources = new Grounder(sourceTexts).ground(strings(value.sources), sourceTexts.length > 1);
  return {
    decision: {
      data: Object.fromEntries(Object.entries(input.schema).map(([n, def]) => [n, coerceToSchema(value.decision[n], def)])),
      confidence: Object.fromEntries(names.map((n) => [n, round3(selfReportOf(value.confidence[n]))])),
      reasoning: typeof value.reasoning === "string" ? value.reasoning : "",
      sources,
    },
    tokens,
  };
}

function contextDocument(block: ContextBlock): Pick<AgentDocument, "label" | "markdown"> {
  return { label: block.label, markdown: block.content };
}

// Sources ----------------------------------------------------------------------------------------

/**
 * Grounder keeps the sources that are really in a document. A source may carry a "[label]" prefix
 * (cross-analysis); it is checked against that document first, then against all of them, and the
 * label of the document where it was found is put in front when `labelled`.
 */
class Grounder {
  private readonly texts: Array<{ label: string; normalized: string }>;

  constructor(docs: Array<Pick<AgentDocument, "label" | "markdown">>) {
    this.texts = docs.map((d) => ({ label: d.label, normalized: normalizeText(d.markdown) }));
  }

  ground(sources: string[], labelled: boolean): string[] {
    const out: string[] = [];
    for (const source of sources) {
      const prefixed = /^\s*\[([^\]]+)\]\s*(.*)$/s.exec(source);
      const claimed = prefixed ? prefixed[1]!.trim() : undefined;
      const quote = (prefixed ? prefixed[2]! : source).trim().replace(/^["'\u201c]+|["'\u201d]+$/g, "").trim();
      const wanted = normalizeText(quote);
      if (wanted.length < 2) continue;
      const order = [...this.texts].sort((a, b) => Number(b.label === claimed) - Number(a.label === claimed));
      const found = order.find((t) => t.normalized.includes(wanted));
      if (!found) continue;
      const text = quote.slice(0, 500);
      const entry = labelled ? `[${found.label}] ${text}` : text;
      if (!out.includes(entry)) out.push(entry);
    }
    return out;
  }
}

// Small readers ----------------------------------------------------------------------------------

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((s): s is string => typeof s === "string") : [];
}

function integers(v: unknown): number[] {
  return Array.isArray(v) ? v.filter((n): n is number => Number.isInteger(n)) : [];
}
