import type { Route } from "../http/route";
import { checkBatchDocuments, checkWebhookUrl, parseJsonField, parseUrlList, renderModeOf, requireOneDocument, type UrlPolicy } from "../documents/inputs";
import type { UploadedFile } from "../ingest/upload";
import { AI_PROVIDER_ERRORS, BATCH_RESPONSES, SCHEMA_DOCUMENT_ERRORS, taskResponses } from "../http/responses";
import { parseTypedSchema } from "../schema/typed";
import { AppError } from "../errors";
import { assertFetchableUrl, parseUrlHeaders } from "../security/ssrf";
import { requireProvider } from "../ai/groq";
import { priceText } from "../credits/costs";
import { acceptBatch, runNowOrAccept, type EngineDeps } from "../tasks/routes";
import type { AgentDeps } from "./service";
import type { AnalyzeInput, CrossInput } from "./task";
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

/** labelOfUrl is the auto-generated label of a URL: its file name, else its host. */
function labelOfUrl(url: string): string {
  const parsed = new URL(url);
  const name = decodeURIComponent(parsed.pathname.split("/").filter(Boolean).pop() ?? "");
  return name || parsed.hostname;
}

/** AnalyzeRouteDeps: what the analyze routes use of the services. */
export type AnalyzeRouteDeps = UrlPolicy & EngineDeps & Pick<AgentDeps, "provider">;

export const analyzeRoutes: Route<AnalyzeRouteDeps>[] = [
  {
    op: {
      method: "POST",
      path: "/api/v1/analyze",
      tag,
      summary: "Computed, reasoned or derived answers (multi-step agent)",
      description:
        [
          "Needs the AI provider (GROQ_API_KEY; else 503 ai_unavailable). A multi-step agent investigates the converted document with these tools (names as they appear in `steps`):",
          "- `search(query, max_results?=5, document?)`: paragraphs ranked by the query's terms, with their page;",
          "- `read_pages(pages, document?)`: whole pages, e.g. \"2\", \"2-4\", \"1,3,7\" (documents without pages: parts of about 4,000 characters);",
          "- `regex_search(pattern, flags?, max_matches?=30, document?)`: matches with groups, page and line (stopped after 2 s, or when one page backtracks over 250 ms);",
          "- `compute(code)`: Python 3 in a sandbox (standard library, no files, no network, time and memory limits): every calculation;",
          "- `extract_table(page?, index?, document?)`: tables as rows of {column: value};",
          "- `view_page_image(page, question, document?)`: PDFs only; the rendered page and the question go to the vision model.",
          "Budgets: 12 tool calls and 150,000 tokens, then the final answer (a strict json_schema call). Sources are kept only when found in the document; a value with no found source and no computation is capped at 0.59 confidence. `steps` per field with include_steps=true. Limit: 5 minutes (504; use sync=false). `render` chooses how a web page URL becomes text, as in markdown/convert (auto, never, always). " + priceText("analyze"),
        ].join("\n"),
      body: AnalyzeBody,
      responses: taskResponses({ description: "Analysis result", schema: AnalysisResult }, { ...SCHEMA_DOCUMENT_ERRORS, ...AI_PROVIDER_ERRORS }),
    },
    handler: async (call) => {
      const { body, services } = call;
      const schema = parseTypedSchema(body.schema);
      const document = await requireOneDocument(body, services);
      await checkWebhookUrl(body, services);
      requireProvider(services.provider, "analyze");
      const input: AnalyzeInput = { ...document, schema, includeSteps: body.include_steps === true };
      return (await runNowOrAccept(call, "analyze", input)).body;
    },
  },
  {
    op: {
      method: "POST",
      path: "/api/v1/analyze/batch",
      tag,
      summary: "Batch analysis (up to 10 documents)",
      description: "One schema for every item; `files` and/or `urls` (`render` for the web pages among them, as in markdown/convert). Poll GET /api/v1/jobs/batch/{batch_id}. Credits: the sum of the items.",
      body: AnalyzeBatchBody,
      maxRequestBytes: 200_000_000,
      responses: BATCH_RESPONSES,
    },
    handler: async (call) => {
      const { body, services } = call;
      const schema = parseTypedSchema(body.schema);
      const documents = await checkBatchDocuments(body, services, ANALYZE_BATCH_MAX_ITEMS);
      requireProvider(services.provider, "analyze");
      const includeSteps = body.include_steps === true;
      const items: AnalyzeInput[] = documents.map((document) => ({ ...document, schema, includeSteps }));
      return acceptBatch(call, "analyze", items);
    },
  },
  {
    op: {
      method: "POST",
      path: "/api/v1/analyze/cross",
      tag,
      summary: "Cross-document analysis (2 to 5 documents)",
      description:
        "Uploaded `files` (labels from `document_labels` or file names) and/or `urls` (array, or object label -> URL). `render` chooses how web page URLs become text, as in markdown/convert. At most 10 schema fields, 100 MB combined, 5 minutes synchronous. " + priceText("cross"),
      body: CrossAnalyzeBody,
      maxRequestBytes: 101_000_000,
      responses: taskResponses(
        { description: "Cross-analysis result", schema: CrossAnalysisResult },
        { 400: "Invalid schema, fewer than 2 or more than 5 documents, or a refused URL", 413: "Over 100 MB combined", ...AI_PROVIDER_ERRORS },
      ),
    },
    handler: async (call) => {
      const { body, services } = call;
      const schema = parseTypedSchema(body.schema, { maxTopLevelFields: CROSS_MAX_FIELDS });
      const files = (body.files as UploadedFile[] | undefined) ?? [];
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
      requireProvider(services.provider, "cross-analyze");
      const input: CrossInput = {
        files,
        fileLabels: files.map((file, i) => (labels as string[] | undefined)?.[i] ?? file.name),
        urls: urls.map(({ label, url }) => ({ label: label ?? labelOfUrl(url), url })),
        urlHeaders: parseUrlHeaders(body.url_headers as string | undefined),
        render: renderModeOf(body),
        schema,
        includeSteps: body.include_steps === true,
      };
      return (await runNowOrAccept(call, "cross", input)).body;
    },
  },
];
