import { Type } from "@sinclair/typebox";
import { commonFields, documentFields, taskFields } from "../documents/fields";
import { Fields } from "../http/fields";

export const EXTRACT_BATCH_MAX_ITEMS = 20;

const options = {
  model: commonFields.model(),
  use_vision: Type.Boolean({ default: false, description: "send page images to the vision model (images and scanned documents)" }),
  render: commonFields.render(),
  follow_links: Type.Boolean({ default: false, description: "URL inputs: also read relevant same-site links (about, contact) and aggregate" }),
};

export const ExtractBody = Fields(
  {
    schema: commonFields.schema(),
    ...documentFields(),
    ...options,
    ...taskFields(),
  },
  { required: ["schema"] },
);

export const ExtractBatchBody = Fields(
  {
    schema: commonFields.schema(),
    files: commonFields.files(EXTRACT_BATCH_MAX_ITEMS),
    urls: commonFields.urls(EXTRACT_BATCH_MAX_ITEMS),
    ...options,
    webhook_url: commonFields.batchWebhookUrl(),
  },
  { required: ["schema"] },
);

const perField = (value: ReturnType<typeof Type.Number> | ReturnType<typeof Type.String>) => Type.Record(Type.String(), value);

export const ExtractionResult = Type.Object(
  {
    success: Type.Boolean({ description: "true when every required field was found" }),
    data: Type.Record(Type.String(), Type.Any()),
    confidence: perField(Type.Number({ minimum: 0, maximum: 1 })),
    citations: perField(Type.String()),
    field_status: Type.Record(
      Type.String(),
      Type.Object({ confidence: Type.Number(), required: Type.Boolean(), status: Type.Union([Type.Literal("found"), Type.Literal("not_found")]), type: Type.String() }),
    ),
    filename: Type.String(),
    model_used: Type.Union([Type.Literal("fast"), Type.Literal("accurate")]),
    engine: Type.String({ description: "local, or the provider model that answered" }),
    warnings: Type.Array(Type.String(), { description: "how the input was read where it matters: use_vision or follow_links notes, linked pages that failed" }),
    extraction_method: Type.Union(["text", "ocr", "ocr+vision", "vision", "dom+text"].map((m) => Type.Literal(m))),
    text_length: Type.Integer(),
    content_type: Type.String(),
    pages_processed: Type.Integer(),
    total_pages: Type.Integer(),
    credits_used: Type.Integer(),
    schema_format: Type.Literal("typed"),
    missing_required_fields: Type.Optional(Type.Array(Type.String(), { description: "present only when success=false" })),
    quality_signals: Type.Object({
      ocr_quality: Type.Optional(Type.Number({ description: "0.7 x mean + 0.3 x 10th percentile of OCR word confidence; absent for non-OCR input" })),
      doc_quality: Type.Optional(Type.Number({ description: "geometric mean of model token probabilities" })),
      signal_disagreement: Type.Optional(Type.Number({ description: "mean |self-report - token probability| across fields; above 0.3 the signals disagree" })),
    }),
  },
  { title: "ExtractionResult" },
);
