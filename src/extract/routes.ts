import type { Route } from "../http/route";
import { requireProvider } from "../ai/groq";
import { checkBatchDocuments, checkWebhookUrl, renderModeOf, requireOneDocument, type UrlPolicy } from "../documents/inputs";
import { BATCH_RESPONSES, SCHEMA_DOCUMENT_ERRORS, taskResponses } from "../http/responses";
import { parseTypedSchema } from "../schema/typed";
import { MINIMUM_COST, priceText } from "../credits/costs";
import { acceptBatch, runNowOrAccept, type EngineDeps } from "../tasks/routes";
import type { ExtractDeps } from "./service";
import type { ExtractInput } from "./task";
import { EXTRACT_BATCH_MAX_ITEMS, ExtractBatchBody, ExtractBody, ExtractionResult } from "./schema";

/** optionsOf reads the extraction options a request may carry (the batch shares them across items). */
function optionsOf(body: Record<string, unknown>): Pick<ExtractInput, "model" | "useVision" | "followLinks" | "render"> {
  return { model: (body.model as ExtractInput["model"] | undefined) ?? "auto", useVision: body.use_vision === true, followLinks: body.follow_links === true, render: renderModeOf(body) };
}

const tag = "Extract";

/** ExtractRouteDeps: what the extract routes use of the services. */
export type ExtractRouteDeps = UrlPolicy & EngineDeps & Pick<ExtractDeps, "provider">;

export const extractRoutes: Route<ExtractRouteDeps>[] = [
  {
    op: {
      method: "POST",
      path: "/api/v1/extract",
      tag,
      summary: "Typed extraction of values stated in the source",
      description:
        "Multipart: `schema` (typed schema JSON, or a standard JSON Schema object, converted to the typed form) and `file` or `url`. The document is converted as by POST /api/v1/markdown/convert, then each field is read by the AI provider (with GROQ_API_KEY; `model` fast, accurate or auto) or, without one, by the local engine (labels, tables and typed patterns; `engine: local`). Per field: value, confidence and a verbatim citation; `field_status` for every field; `missing_required_fields` when success=false. `sync=false` answers 202 with a task_id at once (poll GET /api/v1/jobs/{task_id}; `webhook_url` receives the signed task record). `use_vision=true` (needs the provider; 503 ai_unavailable without one) sends the image, or the PDF pages without a text layer (the first 5), to the vision model with the text: extraction_method ocr+vision (vision when OCR found no text). `render` chooses how a web page URL becomes text, as in markdown/convert (auto, never, always). `follow_links=true` on a web page URL also reads up to 5 same-site links about the owner (about, contact, team, company, imprint, ...) and appends their text; a link that fails is named in `warnings`. " + priceText("extract") + " The minimum is held when a task is accepted.",
      body: ExtractBody,
      responses: taskResponses({ description: "Extraction result", schema: ExtractionResult }, { ...SCHEMA_DOCUMENT_ERRORS, 503: "AI service unavailable or overloaded" }),
    },
    handler: async (call) => {
      const { body, services } = call;
      const schema = parseTypedSchema(body.schema);
      const document = await requireOneDocument(body, services);
      await checkWebhookUrl(body, services);
      if (body.use_vision === true) requireProvider(services.provider, "use_vision");
      const input: ExtractInput = { ...document, schema, ...optionsOf(body) };
      return (await runNowOrAccept(call, "extract", input)).body;
    },
  },
  {
    op: {
      method: "POST",
      path: "/api/v1/extract/batch",
      tag,
      summary: "Batch extraction (up to 20 documents)",
      description:
        "One schema for every item; `files` (repeatable) and/or `urls` (JSON array), at most 20 together (more: 422). Answers 202 with a batch_id at once; items run concurrently (a few at a time) as tasks. Poll GET /api/v1/jobs/batch/{batch_id}; `webhook_url` receives the signed batch record once, when every item has ended. Credits: the sum of the items' costs (the minimum of every item, " + MINIMUM_COST.extract + " each, is held at acceptance; 402 when the balance cannot cover it).",
      body: ExtractBatchBody,
      maxRequestBytes: 200_000_000,
      responses: BATCH_RESPONSES,
    },
    handler: async (call) => {
      const { body, services } = call;
      const schema = parseTypedSchema(body.schema);
      const documents = await checkBatchDocuments(body, services, EXTRACT_BATCH_MAX_ITEMS);
      if (body.use_vision === true) requireProvider(services.provider, "use_vision");
      // render goes with the URL items only (checkBatchDocuments), as in analyze/batch: an upload in a batch is not told it was ignored
      const { render: _render, ...options } = optionsOf(body);
      const items: ExtractInput[] = documents.map((document) => ({ ...options, ...document, schema }));
      return acceptBatch(call, "extract", items);
    },
  },
];
