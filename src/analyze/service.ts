/**
 * analyzeDocument and crossAnalyze are the analyze operations without HTTP: convert the document(s),
 * run the agent's tool loop, ask for the typed final answer, and shape the spec's Analysis result
 * (or Cross-analysis result). Sync routes, the task runner and tests call them.
 *
 *   [require provider, convert (concurrently), agent loop, final answer, shape]   under one deadline
 */
import { AppError } from "../errors";
import { requireProvider } from "../ai/groq";
import { underDeadline } from "../runtime/deadline";
import type { Provider } from "../ai/models";
import type { WorkerPool } from "../pool";
import type { MarkdownDeps, MarkdownSource } from "../markdown/service";
import type { TypedSchema } from "../schema/typed";
import { fieldAnswers, openingMessages, type FieldAnswer, type PromptInput } from "./agent/answer";
import { loadDocument, type AgentDocument } from "./agent/documents";
import { runAgent, type AgentBudget, type Step } from "./agent/loop";
import type { Compute } from "./agent/tools";

export interface AgentDeps {
  markdown: MarkdownDeps;
  provider?: Provider;
  pool: WorkerPool;
  compute: Compute;
}

/** AGENT_DEADLINE_MS: the limit on one analyze, cross-analyze or decide run, conversion included (spec: 5 minutes for cross). */
export const AGENT_DEADLINE_MS = 300_000;

/** BUDGETS: tool calls and tokens per operation (see src/analyze/agent/loop.ts). */
export const BUDGETS = {
  analyze: { maxSteps: 12, maxTokens: 150_000 },
  cross: { maxSteps: 16, maxTokens: 200_000 },
  decide: { maxSteps: 6, maxTokens: 80_000 },
} as const satisfies Record<string, AgentBudget>;

export interface AnalyzeOptions {
  schema: TypedSchema;
  includeSteps: boolean;
}

/** AnalysisOutcome is the spec's Analysis result without credits_used, plus what metering needs. */
export interface AnalysisOutcome {
  success: boolean;
  data: Record<string, unknown>;
  confidence: Record<string, number>;
  reasoning: Record<string, string>;
  sources: Record<string, string[]>;
  steps: Record<string, Step[]>;
  filename: string;
  model_used: string;
  text_length: number;
  content_type: string;
  total_pages: number;
  schema_format: "typed";
  missing_required_fields?: string[];
  warnings: string[];
  /** website: the input was a web page rendered in the browser (credits: 10) */
  website: boolean;
  /** billedPages: pages the conversion actually read (credits/costs.ts pagesRead) */
  billedPages: number;
}

export interface CrossOutcome extends Omit<AnalysisOutcome, "website" | "billedPages"> {
  documents: Array<{ label: string; filename: string; content_type: string; total_pages: number; text_length: number }>;
  /** sizes: each document's pages and kind, for the credit cost */
  sizes: Array<{ pages: number; website: boolean }>;
}

export interface LabelledSource {
  source: MarkdownSource;
  label: string;
}

export async function analyzeDocument(source: MarkdownSource, options: AnalyzeOptions, deps: AgentDeps, signal?: AbortSignal): Promise<AnalysisOutcome> {
  const provider = requireProvider(deps.provider, "analyze");
  warmCompute(deps);
  return withDeadline(signal, async (deadline) => {
    const document = await loadDocument(source, "document", deps.markdown, deadline);
    const run = await investigate({ mode: "analyze", schema: options.schema, documents: [document] }, provider, deps, BUDGETS.analyze, deadline);
    const { website: _website, ...common } = shape(run, options, [document], provider.models.accurate);
    return { ...common, filename: document.filename, text_length: document.textLength, content_type: document.contentType, total_pages: document.totalPages, website: document.website, billedPages: document.billedPages };
  });
}

export async function crossAnalyze(sources: LabelledSource[], options: AnalyzeOptions, deps: AgentDeps, signal?: AbortSignal): Promise<CrossOutcome> {
  const provider = requireProvider(deps.provider, "cross-analyze");
  warmCompute(deps);
  return withDeadline(signal, async (deadline) => {
    const documents = await Promise.all(sources.map(({ source, label }) => loadDocument(source, label, deps.markdown, deadline)));
    const run = await investigate({ mode: "cross", schema: options.schema, documents }, provider, deps, BUDGETS.cross, deadline);
    const { website: _website, ...common } = shape(run, options, documents, provider.models.accurate);
    return {
      ...common,
      filename: documents.map((d) => d.filename).join(", "),
      text_length: documents.reduce((n, d) => n + d.textLength, 0),
      content_type: [...new Set(documents.map((d) => d.contentType))].join(", "),
      total_pages: documents.reduce((n, d) => n + d.totalPages, 0),
      documents: documents.map((d) => ({ label: d.label, filename: d.filename, content_type: d.contentType, total_pages: d.totalPages, text_length: d.textLength })),
      sizes: documents.map((d) => ({ pages: d.billedPages, website: d.website })),
    };
  });
}

/**
 * warmCompute starts the Python interpreter while the documents convert, so the agent's first
 * compute call does not pay its 4-5 s cold start; a failed start is reported by the compute call itself.
 */
export function warmCompute(deps: AgentDeps): void {
  deps.compute.warm().catch(() => undefined);
}

interface Investigation {
  answers: Record<string, FieldAnswer>;
  steps: Step[];
  notes: string[];
}

/** investigate runs the tool loop and the final answer for analyze and cross-analyze. */
async function investigate(prompt: PromptInput, provider: Provider, deps: AgentDeps, budget: AgentBudget, signal: AbortSignal): Promise<Investigation> {
  const model = provider.models.accurate;
  const tools = { documents: prompt.documents, pool: deps.pool, compute: deps.compute, vision: { client: provider.client, model: provider.models.vision }, signal };
  const run = await runAgent(provider.client, model, openingMessages(prompt), tools, budget);
  const { answers } = await fieldAnswers(run.messages, prompt, run.steps, { client: provider.client, model, signal });
  const notes = prompt.documents.flatMap((d) => d.warnings.map((w) => (prompt.documents.length > 1 ? `[${d.label}] ${w}` : w)));
  if (run.stopped) notes.push(`the agent stopped early: ${run.stopped}; the answers use what it had found`);
  return { answers, steps: run.steps, notes };
}

/** shape builds the fields analyze and cross-analyze share; an answer with no value at all is an error. */
function shape(run: Investigation, options: AnalyzeOptions, documents: AgentDocument[], model: string): Omit<AnalysisOutcome, "filename" | "text_length" | "content_type" | "total_pages" | "billedPages"> {
  const out = { data: {} as Record<string, unknown>, confidence: {} as Record<string, number>, reasoning: {} as Record<string, string>, sources: {} as Record<string, string[]>, steps: {} as Record<string, Step[]> };
  const missing: string[] = [];
  for (const [name, def] of Object.entries(options.schema)) {
    const answer = run.answers[name]!;
    out.data[name] = answer.value;
    out.confidence[name] = answer.confidence;
    out.reasoning[name] = answer.reasoning;
    out.sources[name] = answer.sources;
    if (options.includeSteps) out.steps[name] = answer.steps.length ? run.steps.filter((s) => answer.steps.includes(s.step)) : run.steps;
    if (answer.value === null && def.required) missing.push(name);
  }
  if (Object.values(out.data).every((v) => v === null)) {
    const why = Object.values(out.reasoning).find((r) => r.trim()) ?? "the agent found no evidence";
    throw new AppError("empty_document", `no field of the schema could be answered from ${documents.map((d) => `'${d.filename}'`).join(", ")}: ${why.slice(0, 500)}`);
  }
  return {
    success: missing.length === 0,
    ...out,
    model_used: model,
    schema_format: "typed",
    ...(missing.length ? { missing_required_fields: missing } : {}),
    warnings: run.notes,
    website: documents.some((d) => d.website),
  };
}

/** withDeadline runs `work` under AGENT_DEADLINE_MS and the caller's signal (504 timeout past it). */
export function withDeadline<T>(signal: AbortSignal | undefined, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  return underDeadline(AGENT_DEADLINE_MS, signal, () => `the operation took longer than ${AGENT_DEADLINE_MS / 60_000} minutes; send it with sync=false to run it as a task`, work);
}
