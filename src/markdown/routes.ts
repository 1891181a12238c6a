import { priceText } from "../credits/costs";
import { Fields } from "../http/fields";
import { Type } from "@sinclair/typebox";
import type { Route } from "../http/route";
import type { HandlerInput } from "../http/operation";
import { NOT_ENOUGH_CREDITS } from "../http/responses";
import { targetUrlOf } from "../http/context";
import { renderModeOf, requireOneDocument, type UrlPolicy } from "../documents/inputs";
import type { EngineDeps } from "../tasks/routes";
import { assertFetchableUrl } from "../security/ssrf";
import { supportedFormats } from "../convert/formats";
import type { PageOptions } from "../convert/types";
import { resultFields, type MarkdownOutcome, type MarkdownSource } from "./service";
import { MarkdownConvertBody, MarkdownConvertQuery, MarkdownResponse, MarkdownUrlQuery, SupportedResponse } from "./schema";

/** MarkdownRouteDeps: what the markdown routes use of the services. */
export type MarkdownRouteDeps = UrlPolicy & EngineDeps;

/** SUPPORTED is built once: the formats table does not change while the service runs. */
const SUPPORTED = (() => {
  const families = supportedFormats();
  return { success: true as const, total_extensions: families.reduce((n, f) => n + f.extensions.length, 0), families };
})();

/** convertMetered runs one markdown conversion through the engine (markdown/task.ts), priced by PRICES.markdown. */
async function convertMetered({ ctx, services, request }: HandlerInput<MarkdownRouteDeps>, source: MarkdownSource, page: PageOptions) {
  const { result, creditsUsed } = await services.tasks.runNow<MarkdownOutcome>(ctx.key!, "markdown", { source, page }, ctx.id, request.signal);
  return responseBody(result, creditsUsed);
}

function responseBody(outcome: MarkdownOutcome, creditsUsed: number) {
  return { success: true as const, ...resultFields(outcome), credits_used: creditsUsed };
}

function pageOptionsOf(fields: Record<string, unknown>): PageOptions {
  return {
    mainContent: fields.main_content !== false,
    waitMs: typeof fields.wait_ms === "number" ? fields.wait_ms : 0,
    selector: typeof fields.selector === "string" && fields.selector.trim() ? fields.selector.trim() : undefined,
  };
}

/** wantsJson: `Accept: application/json` selects the JSON result on GET /md/{url}. */
function wantsJson(request: Request): boolean {
  return /\bapplication\/json\b/i.test(request.headers.get("accept") ?? "");
}

/** wantsMarkdown: `?format=markdown`, or an Accept that names text/markdown (and not JSON first), selects the markdown alone on POST /api/v1/markdown/convert. */
function wantsMarkdown(request: Request, query: Record<string, unknown>): boolean {
  if (query.format) return query.format === "markdown";
  const accept = request.headers.get("accept") ?? "";
  return /\btext\/markdown\b/i.test(accept) && !/^\s*application\/json\b/i.test(accept);
}

/** headerSafe keeps a header value to printable ASCII on one line. */
function headerSafe(text: string): string {
  return encodeURIComponent(text).replace(/%20/g, " ").slice(0, 1000);
}

/**
 * asMarkdownText answers the markdown alone as text/markdown, with the result's facts in headers
 * (X-Title, X-Total-Pages, X-Extraction-Method, X-Credits-Used, one X-Warning per warning; percent-encoded).
 */
function asMarkdownText(body: ReturnType<typeof responseBody>, set: HandlerInput["set"]): Response {
  const headers = new Headers({
    "content-type": "text/markdown; charset=utf-8",
    "x-title": headerSafe(body.title ?? ""),
    "x-total-pages": String(body.total_pages),
    "x-extraction-method": body.extraction_method,
    "x-credits-used": String(body.credits_used),
  });
  for (const [name, value] of Object.entries(set.headers)) headers.set(name, String(value));
  for (const warning of body.warnings) headers.append("x-warning", headerSafe(warning));
  return new Response(body.markdown, { headers });
}

export const markdownRoutes: Route<MarkdownRouteDeps>[] = [
  {
    op: {
      method: "GET",
      path: "/md/*",
      docPath: "/md/{url}",
      anonymous: true,
      tag: "Markdown",
      summary: "URL to markdown",
      description:
        "Everything after `/md/` is the target URL; percent-encode the target's own query string (`/md/https%3A%2F%2Fexample.com%2Fa%3Fb%3D1`), because the query of this request holds the options. Web pages are rendered with JavaScript and boilerplate is stripped (`main_content=false` keeps it); `render` chooses the source of a web page: `auto` (default) also reads the HTML as served and keeps the more complete article, `never` skips the browser, `always` takes only the rendered page. Documents (PDF, DOCX, ...) behind the URL are converted like uploads. Answers `text/markdown` with the facts in headers (`X-Title`, `X-Total-Pages`, `X-Extraction-Method`, `X-Credits-Used`, one `X-Warning` per warning, percent-encoded), or the JSON result with `Accept: application/json`. " + priceText("markdown"),
      params: Fields({ url: Type.String({ description: "target URL" }) }),
      query: MarkdownUrlQuery,
      responses: {
        200: { description: "The markdown (text/markdown; JSON with Accept: application/json)", schema: MarkdownResponse },
        400: "The URL is invalid, refused (private address) or unreachable; or the document is unreadable or encrypted",
        402: NOT_ENOUGH_CREDITS,
        413: "The document is over 50 MB, or past the page, pixel or decompressed-size limit",
        415: "The URL serves a type markdown conversion does not support",
        503: "A tool (Chromium, LibreOffice, ...) is unavailable or the AI provider is overloaded",
        504: "The conversion did not finish within the deadline",
      },
    },
    handler: async (input) => {
      const { request, services, query, set } = input;
      const url = targetUrlOf(request, "/md/");
      await assertFetchableUrl(url, { allowPrivate: services.config.allowPrivateUrls, field: "url" });
      const body = await convertMetered(input, { url, render: renderModeOf(query) }, pageOptionsOf(query));
      return wantsJson(request) ? body : asMarkdownText(body, set);
    },
  },
  {
    op: {
      method: "POST",
      path: "/api/v1/markdown/convert",
      tag: "Markdown",
      summary: "File or URL to markdown",
      description:
        "Multipart: `file` or `url` (with optional `url_headers`). Web pages are rendered in a headless browser first; `render` chooses the source of a web page (`auto`: the rendered page or the HTML as served, whichever holds the more complete article; `never`: the served HTML, no browser; `always`: the rendered page only); `main_content`, `wait_ms` and `selector` shape web pages and HTML (an uploaded HTML file is taken as a document: `main_content` leaves out only the site's menus, banner and footer). PDF pages without a text layer are OCRed (see `pages[].ocr_quality`); audio and video get metadata and, when the server has a speech-to-text provider, a transcript. See GET /api/v1/markdown/supported for the formats. Answers the JSON result, or with `Accept: text/markdown` or `?format=markdown` the markdown alone as `text/markdown; charset=utf-8` with the facts in headers (`X-Title`, `X-Total-Pages`, `X-Extraction-Method`, `X-Credits-Used`, one `X-Warning` per warning, percent-encoded). " + priceText("markdown"),
      body: MarkdownConvertBody,
      query: MarkdownConvertQuery,
      responses: {
        200: { description: "Markdown result (text/markdown with Accept: text/markdown or format=markdown)", schema: MarkdownResponse },
        400: "Neither file nor url; the URL is refused or unreachable; the document is unreadable (unreadable_document), password-protected (encrypted_document) or has no text (empty_document)",
        402: NOT_ENOUGH_CREDITS,
        413: "File over 50 MB, or past the page, pixel or decompressed-size limit (document_too_large)",
        415: "Unsupported file type",
        503: "A tool (Chromium, LibreOffice, ...) is unavailable, the workers are overloaded, or the AI provider is unavailable",
        504: "The conversion did not finish within the deadline",
      },
    },
    handler: async (input) => {
      const { body, services, request, query, set } = input;
      const document = await requireOneDocument(body, services);
      const result = await convertMetered(input, { file: document.file, url: document.url, urlHeaders: document.urlHeaders, render: document.render }, pageOptionsOf(body));
      return wantsMarkdown(request, query) ? asMarkdownText(result, set) : result;
    },
  },
  {
    op: {
      method: "GET",
      path: "/api/v1/markdown/supported",
      tag: "Markdown",
      summary: "Formats supported for markdown conversion",
      description: "Families with their extensions and MIME types. Free of charge.",
      responses: { 200: { description: "Supported formats", schema: SupportedResponse } },
    },
    handler: () => SUPPORTED,
  },
];
