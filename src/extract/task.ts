/**
 * extractTask: typed extraction as an operation of the table (src/operations.ts), run now by the sync
 * route or as a task (sync=false, batches). Priced by the pages the conversion actually read.
 */
import { costs, MINIMUM_COST } from "../credits/costs";
import type { UploadedFile } from "../ingest/upload";
import type { RenderMode } from "../convert/types";
import type { TypedSchema } from "../schema/typed";
import type { TaskKind } from "../tasks/kinds";
import { extractDocument, type ExtractDeps, type ExtractOptions, type ExtractionOutcome } from "./service";

/** ExtractInput is one extraction, as the sync route runs it and as a task stores it. */
export interface ExtractInput {
  file?: UploadedFile;
  url?: string;
  urlHeaders: Record<string, string>;
  /** render: how a web page URL becomes text; absent (older tasks) = auto */
  render?: RenderMode;
  schema: TypedSchema;
  model: ExtractOptions["model"];
  useVision?: boolean;
  followLinks?: boolean;
}

export type ExtractResult = Omit<ExtractionOutcome, "website" | "billedPages"> & { credits_used: number };

export const extractTask: TaskKind<ExtractInput, ExtractResult, ExtractDeps> = {
  minimumCost: MINIMUM_COST.extract,
  run: async (input, deps, signal, progress) => {
    progress(0, 1);
    const outcome = await extractDocument(
      { file: input.file, url: input.url, urlHeaders: input.urlHeaders, render: input.render },
      { schema: input.schema, model: input.model, useVision: input.useVision, followLinks: input.followLinks },
      { markdown: deps.markdown, provider: deps.provider, pool: deps.pool },
      signal,
    );
    progress(1, 1);
    const credits = costs.extract({ pages: outcome.billedPages, website: outcome.website });
    const { website: _website, billedPages: _billed, ...fields } = outcome;
    return { result: { ...fields, credits_used: credits }, credits };
  },
};
