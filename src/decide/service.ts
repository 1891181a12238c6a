/**
 * decide is the decide operation without HTTP: convert the document when there is one, let the
 * agent investigate it (a small step budget; with context only there are no tools and the answer is
 * one call), then ask for the whole decision in one structured answer (src/analyze/agent/answer.ts
 * `decision`: every field required, non-null, one rationale). A 200 always holds a real decision.
 */
import { requireProvider } from "../ai/groq";
import type { MarkdownSource } from "../markdown/service";
import type { TypedSchema } from "../schema/typed";
import { decision, openingMessages, type PromptInput } from "../analyze/agent/answer";
import { loadDocument, type AgentDocument } from "../analyze/agent/documents";
import { runAgent, type Step } from "../analyze/agent/loop";
import { BUDGETS, warmCompute, withDeadline, type AgentDeps } from "../analyze/service";
import type { ContextBlock } from "./schema";

export interface DecideInput {
  instructions: string;
  schema: TypedSchema;
  context: ContextBlock[];
  /** source: the document, when a file or url was sent */
  source?: MarkdownSource;
  includeSteps: boolean;
}

/** DecisionOutcome is the spec's Decision result without credits_used, plus what metering needs. */
export interface DecisionOutcome {
  success: true;
  data: Record<string, unknown>;
  confidence: Record<string, number>;
  reasoning: string;
  sources: string[];
  steps?: Step[];
  model_used: string;
  schema_format: "typed";
  warnings: string[];
  /** document: pages and kind of the document read, null for context only (credits) */
  document: { pages: number; website: boolean } | null;
}

export async function decide(input: DecideInput, deps: AgentDeps, signal?: AbortSignal): Promise<DecisionOutcome> {
  const provider = requireProvider(deps.provider, "decide");
  if (input.source) warmCompute(deps);
  return withDeadline(signal, async (deadline) => {
    const documents: AgentDocument[] = input.source ? [await loadDocument(input.source, "document", deps.markdown, deadline)] : [];
    const prompt: PromptInput = { mode: "decide", schema: input.schema, documents, instructions: input.instructions, context: input.context };
    const model = provider.models.accurate;
    const tools = { documents, pool: deps.pool, compute: deps.compute, vision: { client: provider.client, model: provider.models.vision }, signal: deadline };
    const budget = documents.length ? BUDGETS.decide : { ...BUDGETS.decide, maxSteps: 0 };
    const run = await runAgent(provider.client, model, openingMessages(prompt), tools, budget);
    const answer = await decision(run.messages, prompt, { client: provider.client, model, signal: deadline });
    const warnings = documents.flatMap((d) => d.warnings);
    if (run.stopped) warnings.push(`the agent stopped early: ${run.stopped}; the decision uses what it had found`);
    const document = documents[0];
    return {
      success: true,
      ...answer.decision,
      ...(input.includeSteps ? { steps: run.steps } : {}),
      model_used: model,
      schema_format: "typed",
      warnings,
      document: document ? { pages: document.billedPages, website: document.website } : null,
    };
  });
}
