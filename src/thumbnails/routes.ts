import type { Route } from "../app/route";
import { notBuiltYet } from "../app/route";
import { checkWebhookUrl } from "../app/inputs";
import { AsyncAcceptedSchema } from "../app/common";
import { assertFetchableUrl, parseUrlHeaders } from "../security/ssrf";
import { ThumbnailGenerateBody, ThumbnailGenerateJsonBody, ThumbnailJobParams, ThumbnailPreviewQuery, ThumbnailResponse } from "./schema";

const tag = "Thumbnails";

export const thumbnailRoutes: Route[] = [
  {
    op: {
      method: "POST",
      path: "/api/v1/thumbnails/generate",
      tag,
      summary: "Thumbnail of an uploaded file",
      description: "Multipart `file` plus options. Images, PDF, office and iWork documents, video, audio, web pages, text and code. 1 credit.",
      body: ThumbnailGenerateBody,
      responses: {
        200: { description: "Thumbnail (sync)", schema: ThumbnailResponse },
        202: { description: "Job created (sync=false)", schema: AsyncAcceptedSchema },
        400: "Invalid request",
        402: "Not enough credits",
        413: "File over 50 MB",
        415: "Unsupported file type",
        501: "Not available in this version yet",
      },
    },
    handler: async ({ body, services }) => {
      await checkWebhookUrl(body, services);
      notBuiltYet("POST /api/v1/thumbnails/generate");
    },
  },
  {
    op: {
      method: "POST",
      path: "/api/v1/thumbnails/generate/json",
      tag,
      summary: "Thumbnail of a URL",
      description: "JSON body with `url` and the thumbnail options; `url_headers` for authenticated URLs. 1 credit.",
      body: ThumbnailGenerateJsonBody,
      bodyType: "json",
      responses: {
        200: { description: "Thumbnail (sync)", schema: ThumbnailResponse },
        202: { description: "Job created (sync=false)", schema: AsyncAcceptedSchema },
        400: "Invalid request, or the URL is refused or unreachable",
        402: "Not enough credits",
        501: "Not available in this version yet",
      },
    },
    handler: async ({ body, services }) => {
      parseUrlHeaders(body.url_headers as string | undefined);
      await assertFetchableUrl(body.url as string, { allowPrivate: services.config.allowPrivateUrls, field: "url" });
      await checkWebhookUrl(body, services);
      notBuiltYet("POST /api/v1/thumbnails/generate/json");
    },
  },
  {
    op: {
      method: "GET",
      path: "/api/v1/thumbnails/jobs/:job_id",
      tag,
      summary: "Thumbnail job status",
      description: "Status of an asynchronous thumbnail job.",
      params: ThumbnailJobParams,
      responses: { 200: "Job status", 404: "Job not found", 501: "Not available in this version yet" },
    },
    handler: () => notBuiltYet("GET /api/v1/thumbnails/jobs/{job_id}"),
  },
  {
    op: {
      method: "DELETE",
      path: "/api/v1/thumbnails/jobs/:job_id",
      tag,
      summary: "Delete a thumbnail job and its image",
      description: "Deletes the job and its thumbnail.",
      params: ThumbnailJobParams,
      responses: { 200: "Deleted", 404: "Job not found", 501: "Not available in this version yet" },
    },
    handler: () => notBuiltYet("DELETE /api/v1/thumbnails/jobs/{job_id}"),
  },
  {
    op: {
      method: "GET",
      path: "/api/v1/thumbnails/jobs/:job_id/image",
      tag,
      summary: "Thumbnail job image",
      description: "The JPEG of a completed job; 409 until the job is completed.",
      params: ThumbnailJobParams,
      responses: {
        200: { description: "The thumbnail", contentType: "image/jpeg" },
        404: "Job not found",
        409: "Job not completed yet",
        501: "Not available in this version yet",
      },
    },
    handler: () => notBuiltYet("GET /api/v1/thumbnails/jobs/{job_id}/image"),
  },
  {
    op: {
      method: "GET",
      path: "/api/v1/thumbnails/supported-types",
      tag,
      summary: "Supported thumbnail types, grouped by handler",
      description: "Extensions and MIME types per handler (image, pdf, office, video, audio, web, text).",
      responses: { 200: "Supported types", 501: "Not available in this version yet" },
    },
    handler: () => notBuiltYet("GET /api/v1/thumbnails/supported-types"),
  },
  {
    op: {
      method: "GET",
      path: "/api/v1/thumbnails/preview",
      tag,
      summary: "JPEG preview of a URL for an <img> tag",
      description: "Returns the JPEG directly; cached unless nocache=true. 1 credit (cache hits included).",
      query: ThumbnailPreviewQuery,
      responses: {
        200: { description: "The preview", contentType: "image/jpeg" },
        400: "Invalid, refused or unreachable URL",
        402: "Not enough credits",
        413: "Target over 50 MB",
        415: "Unsupported file type",
        501: "Not available in this version yet",
      },
    },
    handler: async ({ query, services }) => {
      await assertFetchableUrl(query.url as string, { allowPrivate: services.config.allowPrivateUrls, field: "url" });
      notBuiltYet("GET /api/v1/thumbnails/preview");
    },
  },
];
