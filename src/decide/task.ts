/**
 * decideTask: a decision as an operation of the table (src/operations.ts), run now by the sync route or
 * as a task (sync=false). Priced by the pages the conversion actually read.
 */
import { costs, MINIMUM_COST } from "../credits/costs";
import type { UploadedFile } from "../ingest/upload";
import type { RenderMode } from "../convert/types";
import type { TaskKind } from "../tasks/kinds";
import type { AgentDeps } from "../analyze/service";
import { decide, type DecideInput, type DecisionOutcome } from "./service";

/** DecideTaskInput is DecideInput with the document's file top-level, as the task store keeps files. */
export interface DecideTaskInput extends Omit<DecideInput, "source"> {
  file?: UploadedFile;
  url?: string;
  urlHeaders: Record<string, string>;
  /** render: how a web page URL becomes text; absent (older tasks) = auto */
  render?: RenderMode;
}

export const decideTask: TaskKind<DecideTaskInput, Omit<DecisionOutcome, "document"> & { credits_used: number }, AgentDeps> = {
  minimumCost: MINIMUM_COST.decide,
  run: async (input, deps, signal) => {
    const { file, url, urlHeaders, render, ...rest } = input;
    const outcome = await decide({ ...rest, ...(file || url ? { source: { file, url, urlHeaders, render } } : {}) }, deps, signal);
    const credits = costs.decide(outcome.document);
    const { document: _document, ...fields } = outcome;
    return { result: { ...fields, credits_used: credits }, credits };
  },
};
