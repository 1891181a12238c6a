import type { Route } from "../app/route";
import { notBuiltYet } from "../app/route";
import { checkBatchInputs, checkWebhookUrl, requireOneDocument } from "../app/inputs";
import { AsyncAcceptedSchema, BatchAcceptedSchema } from "../app/common";
import { parseTypedSchema } from "../schema/typed";
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
        "Multipart: `schema` (typed schema JSON) and `file` or `url`. Per field: value, calibrated confidence and a citation. Credits: 1 per page (minimum 3); 5 for a website.",
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
    handler: async ({ body, services }) => {
      parseTypedSchema(body.schema);
      await requireOneDocument(body, services);
      await checkWebhookUrl(body, services);
      notBuiltYet("POST /api/v1/extract");
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
