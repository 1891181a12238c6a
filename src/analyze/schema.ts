import { Type } from "@sinclair/typebox";
import { commonFields, documentFields, taskFields } from "../documents/fields";
import { FilesField, JsonText, Fields } from "../http/fields";

export const ANALYZE_BATCH_MAX_ITEMS = 10;
export const CROSS_MAX_DOCUMENTS = 5;
export const CROSS_MAX_FIELDS = 10;

export const AnalyzeBody = Fields(
  {
    schema: commonFields.schema(),
    ...documentFields(),
    render: commonFields.render(),
    include_steps: commonFields.includeSteps(),
    ...taskFields(),
  },
  { required: ["schema"] },
);

export const AnalyzeBatchBody = Fields(
  {
    schema: commonFields.schema(),
    files: commonFields.files(ANALYZE_BATCH_MAX_ITEMS),
    urls: commonFields.urls(ANALYZE_BATCH_MAX_ITEMS),
    render: commonFields.render(),
    include_steps: commonFields.includeSteps(),
    webhook_url: commonFields.batchWebhookUrl(),
  },
  { required: ["schema"] },
);

export const CrossAnalyzeBody = Fields(
  {
    schema: JsonText({ description: `JSON typed schema, at most ${CROSS_MAX_FIELDS} fields` }),
    files: FilesField({ maxItems: CROSS_MAX_DOCUMENTS, description: "uploaded documents (2 to 5 documents in all, 100 MB combined)" }),
    urls: JsonText({ description: 'JSON array of URLs (labels from file names) or JSON object label -> URL, e.g. {"2023": "https://...", "2024": "https://..."}' }),
    document_labels: JsonText({ description: "JSON array of labels for the uploaded files, in order" }),
    url_headers: commonFields.urlHeaders(),
    render: commonFields.render(),
    include_steps: commonFields.includeSteps(),
    ...taskFields(),
  },
  { required: ["schema"] },
);

const stepTrace = Type.Object(
  {
    step: Type.Integer({ description: "1-based number of the tool call in the run" }),
    tool: Type.String({ description: "search, read_pages, regex_search, compute, extract_table or view_page_image" }),
    arguments: Type.Any({ description: "the arguments the model passed" }),
    result: Type.String({ description: "the start of the tool's result (600 characters)" }),
    ms: Type.Integer(),
    error: Type.Optional(Type.String({ description: "why the call failed (the model saw the same message)" })),
  },
  { additionalProperties: true },
);

const analysisFields = {
  success: Type.Boolean({ description: "true when every required field has a value; false lists them in missing_required_fields" }),
  data: Type.Record(Type.String(), Type.Any(), { description: "answers keyed by schema field, coerced to the schema's types; null when the documents do not support an answer" }),
  confidence: Type.Record(Type.String(), Type.Number({ minimum: 0, maximum: 1 }), {
    description: "the model's confidence in the spec's bands (0.95+ stated or computed from unambiguous data ... below 0.3 speculative); 0 for null; at most 0.59 for a value with no verifiable source and no computation",
  }),
  reasoning: Type.Record(Type.String(), Type.String(), { description: "step-by-step explanation per field" }),
  sources: Type.Record(Type.String(), Type.Array(Type.String()), { description: "verbatim snippets per field; each was checked to occur in the document (others are dropped)" }),
  steps: Type.Record(Type.String(), Type.Array(stepTrace), { description: "per field, the tool calls its answer relies on (all calls when the model named none); {} unless include_steps=true" }),
  filename: Type.String(),
  model_used: Type.String({ description: "the provider's model id that ran the agent (the accurate model)" }),
  text_length: Type.Integer(),
  content_type: Type.String(),
  total_pages: Type.Integer(),
  credits_used: Type.Integer(),
  schema_format: Type.Literal("typed"),
  missing_required_fields: Type.Optional(Type.Array(Type.String(), { description: "present only when success=false" })),
  warnings: Type.Array(Type.String(), { description: "conversion warnings and budget notes (e.g. the agent's step budget ran out)" }),
};

export const AnalysisResult = Type.Object(analysisFields, { title: "AnalysisResult" });

export const CrossAnalysisResult = Type.Object(
  {
    ...analysisFields,
    documents: Type.Array(Type.Object({ label: Type.String(), filename: Type.String(), content_type: Type.String(), total_pages: Type.Integer(), text_length: Type.Integer() })),
  },
  { title: "CrossAnalysisResult" },
);
