/**
 * analyzeTask and crossTask: the analyze agent on one document, and on several, as operations of the
 * table (src/operations.ts), run now by their sync routes or as tasks (sync=false, batches). Priced by
 * the pages the conversions actually read.
 */
import { costs, MINIMUM_COST } from "../credits/costs";
import type { UploadedFile } from "../ingest/upload";
import type { RenderMode } from "../convert/types";
import type { TypedSchema } from "../schema/typed";
import type { TaskKind } from "../tasks/kinds";
import { analyzeDocument, crossAnalyze, type AgentDeps, type AnalysisOutcome, type CrossOutcome, type LabelledSource } from "./service";

/** AnalyzeInput is one analysis, as the sync route runs it and as a task stores it. */
export interface AnalyzeInput {
  file?: UploadedFile;
  url?: string;
  urlHeaders: Record<string, string>;
  /** render: how web page URLs become text; absent (older tasks) = auto */
  render?: RenderMode;
  schema: TypedSchema;
  includeSteps: boolean;
}

/** CrossInput keeps files top-level (the task store saves top-level files) with their labels beside them. */
export interface CrossInput {
  files: UploadedFile[];
  fileLabels: string[];
  urls: { label: string; url: string }[];
  urlHeaders: Record<string, string>;
  /** render: how web page URLs become text; absent (older tasks) = auto */
  render?: RenderMode;
  schema: TypedSchema;
  includeSteps: boolean;
}

/** labelled makes the labels unique ("a.pdf", "a.pdf (2)") so tools and sources can name each document. */
function labelled(items: LabelledSource[]): LabelledSource[] {
  const seen = new Map<string, number>();
  return items.map((item) => {
    const base = item.label.trim() || "document";
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return { ...item, label: n === 1 ? base : `${base} (${n})` };
  });
}

export const analyzeTask: TaskKind<AnalyzeInput, Omit<AnalysisOutcome, "website" | "billedPages"> & { credits_used: number }, AgentDeps> = {
  minimumCost: MINIMUM_COST.analyze,
  run: async (input, deps, signal) => {
    const outcome = await analyzeDocument({ file: input.file, url: input.url, urlHeaders: input.urlHeaders, render: input.render }, { schema: input.schema, includeSteps: input.includeSteps }, deps, signal);
    const credits = costs.analyze({ pages: outcome.billedPages, website: outcome.website });
    const { website: _website, billedPages: _billed, ...fields } = outcome;
    return { result: { ...fields, credits_used: credits }, credits };
  },
};

export const crossTask: TaskKind<CrossInput, Omit<CrossOutcome, "sizes"> & { credits_used: number }, AgentDeps> = {
  minimumCost: MINIMUM_COST.cross,
  run: async (input, deps, signal) => {
    const sources = labelled([
      ...input.files.map((file, i) => ({ label: input.fileLabels[i] ?? file.name, source: { file } })),
      ...input.urls.map(({ label, url }) => ({ label, source: { url, urlHeaders: input.urlHeaders, render: input.render } })),
    ]);
    const outcome = await crossAnalyze(sources, { schema: input.schema, includeSteps: input.includeSteps }, deps, signal);
    const credits = costs.cross(outcome.sizes);
    const { sizes: _sizes, ...fields } = outcome;
    return { result: { ...fields, credits_used: credits }, credits };
  },
};
