import type { Route } from "../app/route";
import { notBuiltYet } from "../app/route";
import { checkBatchInputs, checkWebhookUrl, parseJsonField, parseUrlList, requireOneDocument } from "../app/inputs";
import { AsyncAcceptedSchema, BatchAcceptedSchema } from "../app/common";
import { parseTypedSchema } from "../schema/typed";
import { AppError } from "../errors";
import { assertFetchableUrl } from "../security/ssrf";
import { ANALYZE_BATCH_MAX_ITEMS, AnalysisResult, AnalyzeBatchBody, AnalyzeBody, CROSS_MAX_DOCUMENTS, CROSS_MAX_FIELDS, CrossAnalysisResult, CrossAnalyzeBody } from "./schema";

const tag = "Analyze";

/** crossUrls reads the urls field of cross-analyze: a JSON array, or an object label -> URL. */
function crossUrls(body: Record<string, unknown>): { label?: string; url: string }[] {
  const value = parseJsonField(body, "urls", '["https://a.example/x.pdf"] or {"2024": "https://a.example/x.pdf"}');
  if (value === undefined) return [];
  if (Array.isArray(value)) return parseUrlList(body).map((url) => ({ url }));
  if (value && typeof value === "object" && Object.values(value).every((u) => typeof u === "string"))
    return Object.entries(value as Record<string, string>).map(([label, url]) => ({ label, url }));
  throw new AppError("bad_request", "urls: must be a JSON array of URLs or a JSON object mapping labels to URLs");
}

export const analyzeRoutes: Route[] = [
  {
    op: {
      method: "POST",
      path: "/api/v1/analyze",
      tag,
      summary: "Computed, reasoned or derived answers (multi-step agent)",
      description:
        "The agent uses the tools search, read_pages, regex_search, compute (Python, argument `code`), extract_table and view_page_image (PDFs). Credits: 2 per page (minimum 5); 10 for a website.",
      body: AnalyzeBody,
      responses: {
        200: { description: "Analysis result", schema: AnalysisResult },
        202: { description: "Accepted (sync=false)", schema: AsyncAcceptedSchema },
        400: "Invalid schema, neither file nor url, or a refused/unreachable URL",
        402: "Not enough credits",
        413: "File over 50 MB",
        501: "Not available in this version yet",
        502: "The AI provider failed",
        503: "AI provider not configured (ai_unavailable) or overloaded",
      },
    },
    handler: async ({ body, services }) => {
      parseTypedSchema(body.schema);
      await requireOneDocument(body, services);
      await checkWebhookUrl(body, services);
      notBuiltYet("POST /api/v1/analyze");
    },
  },
  {
    op: {
      method: "POST",
      path: "/api/v1/analyze/batch",
      tag,
      summary: "Batch analysis (up to 10 documents)",
      description: "One schema for every item; `files` and/or `urls`. Poll GET /api/v1/jobs/batch/{batch_id}. Credits: the sum of the items.",
      body: AnalyzeBatchBody,
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
      await checkBatchInputs(body, services, ANALYZE_BATCH_MAX_ITEMS);
      notBuiltYet("POST /api/v1/analyze/batch");
    },
  },
  {
    op: {
      method: "POST",
      path: "/api/v1/analyze/cross",
      tag,
      summary: "Cross-document analysis (2 to 5 documents)",
      description:
        "Uploaded `files` (labels from `document_labels` or file names) and/or `urls` (array, or object label -> URL). At most 10 schema fields, 100 MB combined, 5 minutes synchronous. Credits: 5 per document plus 3 per page (minimum 10).",
      body: CrossAnalyzeBody,
      maxRequestBytes: 101_000_000,
      responses: {
        200: { description: "Cross-analysis result", schema: CrossAnalysisResult },
        202: { description: "Accepted (sync=false)", schema: AsyncAcceptedSchema },
        400: "Invalid schema, fewer than 2 or more than 5 documents, or a refused URL",
        402: "Not enough credits",
        413: "Over 100 MB combined",
        501: "Not available in this version yet",
        502: "The AI provider failed",
        503: "AI provider not configured (ai_unavailable) or overloaded",
      },
    },
    handler: async ({ body, services }) => {
      parseTypedSchema(body.schema, { maxTopLevelFields: CROSS_MAX_FIELDS });
      const files = (body.files as File[] | undefined) ?? [];
      const urls = crossUrls(body);
      const labels = parseJsonField(body, "document_labels", '["2023", "2024"]');
      if (labels !== undefined && (!Array.isArray(labels) || !labels.every((l) => typeof l === "string") || labels.length !== files.length))
        throw new AppError("bad_request", `document_labels: must be a JSON array of ${files.length} strings, one per uploaded file`);
      const count = files.length + urls.length;
      if (count < 2 || count > CROSS_MAX_DOCUMENTS) throw new AppError("bad_request", `Cross-analysis takes 2 to ${CROSS_MAX_DOCUMENTS} documents (files and urls together), got ${count}.`);
      const totalBytes = files.reduce((n, f) => n + f.size, 0);
      if (totalBytes > 100_000_000) throw new AppError("payload_too_large", "files: the uploaded documents total more than 100 MB, the combined limit");
      for (const { url } of urls) await assertFetchableUrl(url, { allowPrivate: services.config.allowPrivateUrls, field: "urls" });
      await checkWebhookUrl(body, services);
      notBuiltYet("POST /api/v1/analyze/cross");
    },
  },
];
