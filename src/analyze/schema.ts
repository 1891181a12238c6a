import { Type } from "@sinclair/typebox";
import { commonFields } from "../app/fieldsCommon";
import { FilesField, JsonText, Fields } from "../app/fields";

export const ANALYZE_BATCH_MAX_ITEMS = 10;
export const CROSS_MAX_DOCUMENTS = 5;
export const CROSS_MAX_FIELDS = 10;

export const AnalyzeBody = Fields(
  {
    schema: commonFields.schema(),
    file: commonFields.file(),
    url: commonFields.url(),
    url_headers: commonFields.urlHeaders(),
    include_steps: commonFields.includeSteps(),
    sync: commonFields.sync(),
    webhook_url: commonFields.webhookUrl(),
  },
  { required: ["schema"] },
);

export const AnalyzeBatchBody = Fields(
  {
    schema: commonFields.schema(),
    files: FilesField({ maxItems: ANALYZE_BATCH_MAX_ITEMS, description: `documents, repeatable (files and urls together at most ${ANALYZE_BATCH_MAX_ITEMS})` }),
    urls: commonFields.urls(ANALYZE_BATCH_MAX_ITEMS),
    webhook_url: Type.String({ maxLength: 2048, description: "called once when the whole batch completes" }),
  },
  { required: ["schema"] },
);

export const CrossAnalyzeBody = Fields(
  {
    schema: JsonText({ description: `JSON typed schema, at most ${CROSS_MAX_FIELDS} fields` }),
    files: FilesField({ maxItems: CROSS_MAX_DOCUMENTS, description: "uploaded documents (2 to 5 documents in all, 100 MB combined)" }),
    urls: JsonText({ description: 'JSON array of URLs (labels from file names) or JSON object label -> URL, e.g. {"2023": "https://...", "2024": "https://..."}' }),
    document_labels: JsonText({ description: "JSON array of labels for the uploaded files, in order" }),
    include_steps: commonFields.includeSteps(),
    sync: commonFields.sync(),
    webhook_url: commonFields.webhookUrl(),
  },
  { required: ["schema"] },
);

const analysisFields = {
  success: Type.Boolean(),
  data: Type.Record(Type.String(), Type.Any()),
  confidence: Type.Record(Type.String(), Type.Number({ minimum: 0, maximum: 1 })),
  reasoning: Type.Record(Type.String(), Type.String()),
  sources: Type.Record(Type.String(), Type.Array(Type.String())),
  steps: Type.Record(Type.String(), Type.Array(Type.Object({ tool: Type.String() }, { additionalProperties: true }))),
  filename: Type.String(),
  model_used: Type.String(),
  text_length: Type.Integer(),
  content_type: Type.String(),
  total_pages: Type.Integer(),
  credits_used: Type.Integer(),
  schema_format: Type.Literal("typed"),
};

export const AnalysisResult = Type.Object(analysisFields, { title: "AnalysisResult" });

export const CrossAnalysisResult = Type.Object(
  {
    ...analysisFields,
    documents: Type.Array(Type.Object({ label: Type.String(), filename: Type.String(), content_type: Type.String(), total_pages: Type.Integer(), text_length: Type.Integer() })),
  },
  { title: "CrossAnalysisResult" },
);
