/**
 * markdownTask: one conversion to markdown as an operation of the table (src/operations.ts); sync only
 * (GET /md/{url}, POST /api/v1/markdown/convert), priced by PRICES.markdown (credits/costs.ts).
 */
import { costs, MINIMUM_COST } from "../credits/costs";
import type { PageOptions } from "../convert/types";
import type { TaskKind } from "../tasks/kinds";
import { markdownOf, type MarkdownDeps, type MarkdownOutcome, type MarkdownSource } from "./service";

export interface MarkdownInput {
  source: MarkdownSource;
  page: PageOptions;
}

export const markdownTask: TaskKind<MarkdownInput, MarkdownOutcome, { markdown: MarkdownDeps }> = {
  minimumCost: MINIMUM_COST.markdown,
  run: async (input, deps, signal) => {
    const outcome = await markdownOf(input.source, input.page, deps.markdown, signal);
    return { result: outcome, credits: costs.markdown(outcome.transcribedSeconds) };
  },
};
