import type { Route } from "../app/route";
import { notBuiltYet } from "../app/route";
import { checkBatchInputs, checkWebhookUrl, requireOneDocument } from "../app/inputs";
import { AsyncAcceptedSchema, BatchAcceptedSchema } from "../app/common";
import { parseTypedSchema } from "../schema/typed";
import { metered } from "../credits/meter";
import { costs, MINIMUM_COST } from "../credits/costs";
import { extractDocument } from "./service";
import { EXTRACT_BATCH_MAX_ITEMS, ExtractBatchBody, ExtractBody, ExtractionResult } from "./schema";

const tag = "Extract";

export const extractRoutes: Route[] = [
  {
    op: {
      method: "POST",
      path: "/api/v1/extract",
      tag,
      summary: "Typed extraction of values stated in the source",
      description:
        "Multipart: `schema` (typed schema JSON) and `file` or `url`. The document is converted as by POST /api/v1/markdown/convert, then each field is read by the AI provider (with GROQ_API_KEY; `model` fast, accurate or auto) or, without one, by the local engine (labels, tables and typed patterns; `engine: local`). Per field: value, confidence and a verbatim citation; `field_status` for every field; `missing_required_fields` when success=false. Not yet available: `use_vision`, `follow_links` and `sync=false` (answered 501). Credits: 1 per page (minimum 3); 5 for a website.",
      body: ExtractBody,
      responses: {
        200: { description: "Extraction result", schema: ExtractionResult },
        202: { description: "Accepted (sync=false)", schema: AsyncAcceptedSchema },
        400: "Invalid schema, neither file nor url, or a refused/unreachable URL",
        402: "Not enough credits",
        413: "File over 50 MB",
        501: "Not available in this version yet",
        503: "AI service unavailable or overloaded",
      },
    },
    handler: async ({ body, services, ctx, request }) => {
      const schema = parseTypedSchema(body.schema);
      const document = await requireOneDocument(body, services);
      await checkWebhookUrl(body, services);
      if (body.sync === false) notBuiltYet("POST /api/v1/extract with sync=false (asynchronous tasks)");
      if (body.use_vision === true) notBuiltYet("use_vision (page images to the vision model)");
      if (body.follow_links === true) notBuiltYet("follow_links (reading same-site links of a URL)");
      const model = (body.model as "fast" | "accurate" | "auto" | undefined) ?? "auto";
      const { result, creditsUsed } = await metered(services.ledger, ctx.key!, "extract", MINIMUM_COST.extract, ctx.id, async () => {
        const outcome = await extractDocument(
          { file: document.file, url: document.url, urlHeaders: document.urlHeaders },
          { schema, model },
          { markdown: services.markdown, provider: services.provider },
          request.signal,
        );
        return { result: outcome, credits: costs.extract({ pages: outcome.total_pages, website: outcome.website }) };
      });
      const { website: _website, ...fields } = result;
      return { ...fields, credits_used: creditsUsed };
    },
  },
  {
    op: {
      method: "POST",
      path: "/api/v1/extract/batch",
      tag,
      summary: "Batch extraction (up to 20 documents)",
      description: "One schema for every item; `files` (repeatable) and/or `urls`. Poll GET /api/v1/jobs/batch/{batch_id}. Credits: the sum of the items.",
      body: ExtractBatchBody,
      maxRequestBytes: 200_000_000,
      responses: {
        202: { description: "Batch accepted", schema: BatchAcceptedSchema },
        400: "Invalid schema, no items, or a refused URL",
        402: "Not enough credits",
        413: "A file over 50 MB, or the request over 200 MB",
        501: "Not available in this version yet",
      },
    },
    handler: async ({ body, services }) => {
      parseTypedSchema(body.schema);
      await checkBatchInputs(body, services, EXTRACT_BATCH_MAX_ITEMS);
      notBuiltYet("POST /api/v1/extract/batch");
    },
  },
];
