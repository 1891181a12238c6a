/**
 * diffTask: a comparison of two documents as an operation of the table (src/operations.ts), run now by
 * the sync route or as a task (sync=false).
 */
import { costs, MINIMUM_COST } from "../credits/costs";
import type { UploadedFile } from "../ingest/upload";
import type { RenderMode } from "../convert/types";
import type { TaskKind } from "../tasks/kinds";
import { diffDocuments, type DiffDeps, type DiffOptions, type DiffOutcome } from "./service";

/**
 * DiffInput is one comparison, as the sync route runs it and as a task stores it: flat, because a
 * task keeps top-level UploadedFile values only (src/tasks/files.ts).
 */
export interface DiffInput extends DiffOptions {
  fileA?: UploadedFile;
  urlA?: string;
  fileB?: UploadedFile;
  urlB?: string;
  urlHeaders: Record<string, string>;
  /** render: how url_a and url_b become text when they are web pages; absent (older tasks) = auto */
  render?: RenderMode;
}

export const diffTask: TaskKind<DiffInput, DiffOutcome & { credits_used: number }, DiffDeps> = {
  minimumCost: MINIMUM_COST.diff,
  run: async (input, deps, signal) => {
    const sources = {
      a: { file: input.fileA, url: input.urlA, urlHeaders: input.urlHeaders, render: input.render },
      b: { file: input.fileB, url: input.urlB, urlHeaders: input.urlHeaders, render: input.render },
    };
    const options = { granularity: input.granularity, format: input.format, annotate: input.annotate };
    const outcome = await diffDocuments(sources, options, { markdown: deps.markdown, provider: deps.provider }, signal);
    const credits = costs.diff();
    return { result: { ...outcome, credits_used: credits }, credits };
  },
};
