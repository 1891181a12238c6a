import { Fields } from "../app/fields";
import { Type } from "@sinclair/typebox";
import type { Route } from "../app/route";
import { notBuiltYet } from "../app/route";
import { requireOneDocument } from "../app/inputs";
import { assertFetchableUrl } from "../security/ssrf";
import { targetUrlOf } from "../screenshots/routes";
import { MarkdownConvertBody, MarkdownResponse, MarkdownUrlQuery } from "./schema";

export const markdownRoutes: Route[] = [
  {
    op: {
      method: "GET",
      path: "/md/*",
      docPath: "/md/{url}",
      tag: "Markdown",
      summary: "URL to markdown",
      description:
        "Everything after `/md/` is the target URL (percent-encode its own query string). Pages are rendered with JavaScript and boilerplate is stripped. Answers text/markdown, or the JSON result with `Accept: application/json`. 1 credit.",
      params: Fields({ url: Type.String({ description: "target URL" }) }),
      query: MarkdownUrlQuery,
      responses: {
        200: { description: "The markdown (text/markdown), or the JSON result", schema: MarkdownResponse },
        400: "The URL is invalid, refused or unreachable",
        402: "Not enough credits",
        501: "Not available in this version yet",
      },
    },
    handler: async ({ request, services }) => {
      const url = targetUrlOf(request, "/md/");
      await assertFetchableUrl(url, { allowPrivate: services.config.allowPrivateUrls, field: "url" });
      notBuiltYet("GET /md/{url}");
    },
  },
  {
    op: {
      method: "POST",
      path: "/api/v1/markdown/convert",
      tag: "Markdown",
      summary: "File or URL to markdown",
      description: "Multipart: `file` or `url`. Web pages are rendered in a headless browser first. 1 credit, plus 1 per minute of transcribed audio or video.",
      body: MarkdownConvertBody,
      responses: {
        200: { description: "Markdown result", schema: MarkdownResponse },
        400: "Neither file nor url, or the URL is refused or unreachable",
        402: "Not enough credits",
        413: "File over 50 MB",
        501: "Not available in this version yet",
      },
    },
    handler: async ({ body, services }) => {
      await requireOneDocument(body, services);
      notBuiltYet("POST /api/v1/markdown/convert");
    },
  },
  {
    op: {
      method: "GET",
      path: "/api/v1/markdown/supported",
      tag: "Markdown",
      summary: "Formats supported for markdown conversion",
      description: "Families with their extensions and MIME types.",
      responses: { 200: "Supported formats", 501: "Not available in this version yet" },
    },
    handler: () => notBuiltYet("GET /api/v1/markdown/supported"),
  },
];
