import { priceText } from "../credits/costs";
import type { Route } from "../http/route";
import { runNowOrAccept, type EngineDeps } from "../tasks/routes";
import type { DiffInput } from "./task";
import { checkWebhookUrl, requireOneDocument, type UrlPolicy } from "../documents/inputs";
import { taskResponses } from "../http/responses";
import { providerFor, type DiffDeps, type DiffFormat, type DiffOptions, type DiffOutcome } from "./service";
import type { Granularity } from "./compare";
import { DiffBody, DiffResult } from "./schema";

/** wantsJson: `Accept: application/json` asks for the JSON result with format=markdown or html. */
function wantsJson(request: Request): boolean {
  return /\bapplication\/json\b/i.test(request.headers.get("accept") ?? "");
}

/** renderedResponse: format=markdown/html as the document itself, the facts in headers. */
function renderedResponse(result: DiffOutcome & { credits_used: number }, format: "markdown" | "html", extraHeaders: Record<string, string | number>): Response {
  const headers = new Headers({
    "content-type": format === "html" ? "text/html; charset=utf-8" : "text/markdown; charset=utf-8",
    "x-similarity": String(result.similarity),
    "x-blocks-changed": String(result.stats.blocks.changed),
    "x-blocks-added": String(result.stats.blocks.added),
    "x-blocks-removed": String(result.stats.blocks.removed),
    "x-blocks-moved": String(result.stats.blocks.moved),
    "x-credits-used": String(result.credits_used),
  });
  for (const [name, value] of Object.entries(extraHeaders)) headers.set(name, String(value));
  return new Response(format === "html" ? result.html : result.markdown, { headers });
}

/** DiffRouteDeps: what the diff route uses of the services. */
export type DiffRouteDeps = UrlPolicy & EngineDeps & Pick<DiffDeps, "provider">;

export const diffRoutes: Route<DiffRouteDeps>[] = [
  {
    op: {
      method: "POST",
      path: "/api/v1/diff",
      tag: "Diff",
      summary: "Compare two documents",
      description: [
        "Multipart: `file_a`/`url_a` (the older document) and `file_b`/`url_b` (the newer one), mixed allowed, any format POST /api/v1/markdown/convert reads (`render` chooses how web page URLs become text, as there). Both are converted concurrently, cut into blocks (headings, paragraphs, list items, table rows, code blocks, quotes) and aligned: each block is equal, insert, delete, replace (edited) or move (the same text elsewhere). Formatting-only differences (heading level, bold, list marker, line wrapping) count as equal, so a PDF compares with its DOCX source.",
        "`granularity=word` (default) adds the word-level operations inside replaced blocks (`blocks[].words`); `block` gives the aligned blocks only. `stats` counts blocks and words added, removed, changed and moved; `similarity` is the share of words in common (1 = the same text).",
        "`format=json` (default) answers the DiffResult. `format=markdown` answers the diff as a `text/markdown` document (~~deleted~~ and **inserted** words, moved blocks marked *(moved)*); `format=html` as a self-contained `text/html` page (<del> red, <ins> green). Both carry the facts in headers (`X-Similarity`, `X-Blocks-Changed`, `X-Blocks-Added`, `X-Blocks-Removed`, `X-Blocks-Moved`, `X-Credits-Used`); with `Accept: application/json` they answer the DiffResult with a `markdown` or `html` field instead.",
        "`annotate=true` adds an AI summary (`annotations.summary`) and per changed block its `significance` (material: an amount, date, deadline, party or obligation changed; wording; structural: moved); it needs the server's AI provider (GROQ_API_KEY), else 503 ai_unavailable. `sync=false` answers 202 with a task_id (poll GET /api/v1/jobs/{task_id}); a task's result is always the JSON DiffResult, with the `markdown` or `html` field for those formats. " + priceText("diff"),
      ].join("\n\n"),
      body: DiffBody,
      maxRequestBytes: 101_000_000,
      responses: taskResponses(
        { description: "Diff result (format=json, or Accept: application/json); text/markdown or text/html for format=markdown/html", schema: DiffResult },
        {
          400: "A document is missing, a URL is refused or unreachable, or a document is unreadable, encrypted or empty (the detail names file_a, url_b, ...)",
          413: "File over 50 MB, or past the page, pixel or decompressed-size limit",
          415: "A document type markdown conversion does not support",
          502: "The AI provider failed (annotate=true)",
          503: "annotate=true without an AI provider (ai_unavailable), the provider is busy, or a conversion tool is unavailable",
          504: "A conversion did not finish within the deadline",
        },
      ),
    },
    handler: async (call) => {
      const { body, services } = call;
      const a = await requireOneDocument(body, services, "_a");
      const b = await requireOneDocument(body, services, "_b");
      await checkWebhookUrl(body, services);
      const options: DiffOptions = {
        granularity: (body.granularity as Granularity | undefined) ?? "word",
        format: (body.format as DiffFormat | undefined) ?? "json",
        annotate: body.annotate === true,
      };
      providerFor(options, services);
      const input: DiffInput = { fileA: a.file, urlA: a.url, fileB: b.file, urlB: b.url, urlHeaders: a.urlHeaders, render: a.render, ...options };
      const outcome = await runNowOrAccept<DiffOutcome & { credits_used: number }>(call, "diff", input);
      if (outcome.accepted || options.format === "json" || wantsJson(call.request)) return outcome.body;
      return renderedResponse(outcome.body, options.format, call.set.headers);
    },
  },
];
