import type { Route } from "../http/route";
import { priceText } from "../credits/costs";
import type { UploadedFile } from "../ingest/upload";
import type { HandlerInput } from "../http/operation";
import { NOT_ENOUGH_CREDITS, type Responses } from "../http/responses";
import { checkWebhookUrl, type UrlPolicy } from "../documents/inputs";
import { assertFetchableUrl, parseUrlHeaders } from "../security/ssrf";
import type { ThumbnailJobRow } from "../store/backend";
import { PREVIEW_OPERATION, THUMBNAIL_OPERATION, type JobInput, type Preview, type ResponseType, type ThumbnailTaskInput, type ThumbnailTaskResult, type ThumbnailJobs } from "./jobs";
import { acceptTask, type EngineDeps } from "../tasks/routes";
import type { Account } from "../credits/ledger";
import type { ThumbnailSize, ThumbnailSource } from "./service";
import { supportedThumbnailTypes } from "./handlers";
import {
  SignedFileQuery,
  ThumbnailAccepted,
  ThumbnailGenerateBody,
  ThumbnailGenerateJsonBody,
  ThumbnailJobParams,
  ThumbnailPreviewQuery,
  ThumbnailResponse,
  ThumbnailSupportedTypes,
} from "./schema";

/** ThumbnailRouteDeps: what the thumbnail routes use of the services. */
export type ThumbnailRouteDeps = UrlPolicy &
  EngineDeps & {
    config: { publicUrl?: string };
    thumbnails: ThumbnailJobs;
  };

const tag = "Thumbnails";
const JOBS_PATH = "/api/v1/thumbnails/jobs";

/** SUPPORTED is built once: the handler table does not change while the service runs. */
const SUPPORTED = supportedThumbnailTypes();

const RESPONSE_FIELDS_DOC =
  "The answer (and the job status) carries `job_id`, `status`, `handler` (image, pdf, office, spreadsheet, presentation, video, audio, web, text), `width` and `height` of the JPEG, `content_type` (image/jpeg), `credits_used`, and either `url` + `expires_at` (response_type=url: a signed URL served by this service without an API key, valid 24 h; absolute under the server's --public-url, else relative to this service, e.g. /api/v1/thumbnails/files/...) or `image_base64`. " +
  "`width` and `height` are maximums: the thumbnail fits inside them with its aspect ratio kept and is never enlarged. Every thumbnail is kept as a job for 7 days.";

/** generateResponses: the answers of both generate operations, which differ in how the document came (`errors`: 400, 413). */
function generateResponses(errors: Responses): Responses {
  return {
    200: { description: "Thumbnail (sync)", schema: ThumbnailResponse },
    202: { description: "Job created (sync=false)", schema: ThumbnailAccepted },
    402: NOT_ENOUGH_CREDITS,
    415: "Unsupported file type",
    503: "A tool (Chromium, LibreOffice, ffmpeg) is unavailable",
    504: "The thumbnail did not finish within the deadline",
    ...errors,
  };
}

/** sizeOf reads width, height and quality (defaults 600, 400, 95) from a body or query. */
export function sizeOf(fields: Record<string, unknown>): ThumbnailSize {
  return { width: Number(fields.width ?? 600), height: Number(fields.height ?? 400), quality: Number(fields.quality ?? 95) };
}

function responseTypeOf(fields: Record<string, unknown>): ResponseType {
  return fields.response_type === "base64" ? "base64" : "url";
}

/** jobBody renders a job as the client sees it. */
async function jobBody({ services }: HandlerInput<ThumbnailRouteDeps>, row: ThumbnailJobRow) {
  const input = JSON.parse(row.input) as JobInput;
  const completed = row.status === "completed";
  const body: Record<string, unknown> = {
    success: true,
    job_id: row.id,
    status: row.status,
    ...(row.handler ? { handler: row.handler } : {}),
    ...(completed ? { width: row.width, height: row.height } : {}),
    content_type: "image/jpeg",
    credits_used: row.credits_used,
  };
  if (completed && input.responseType === "url") {
    const { url, expiresAt } = services.thumbnails.signer.signedUrl(services.config.publicUrl ?? "", row.id);
    Object.assign(body, { url, expires_at: expiresAt });
  }
  if (completed && input.responseType === "base64") body.image_base64 = Buffer.from(await services.thumbnails.image(row)).toString("base64");
  Object.assign(body, { image_url: `${JOBS_PATH}/${row.id}/image`, created_at: row.created_at });
  if (row.completed_at) body.completed_at = row.completed_at;
  if (row.error) body.error = JSON.parse(row.error);
  return body;
}

/** generate answers one generate request: sync (200, the thumbnail) or async (202, the job). */
async function generate(input: HandlerInput<ThumbnailRouteDeps>, source: ThumbnailSource, fields: Record<string, unknown>) {
  const { services, ctx, request } = input;
  const size = sizeOf(fields);
  const responseType = responseTypeOf(fields);
  if (fields.sync === false) {
    const request = services.thumbnails.taskRequest(ctx.key!, source, size, responseType, fields.webhook_url as string | undefined);
    await acceptTask(input, request);
    const row = await services.thumbnails.job(ctx.key!.id, request.id);
    return { success: true, job_id: row.id, status: "pending", poll_url: `${JOBS_PATH}/${row.id}`, image_url: `${JOBS_PATH}/${row.id}/image`, created_at: row.created_at };
  }
  // sync: the engine draws it under the job's id, then the job is kept as completed
  const id = services.thumbnails.newJobId();
  const taskInput: ThumbnailTaskInput = { size, ...source };
  const { result, creditsUsed } = await services.tasks.runNow<ThumbnailTaskResult>(ctx.key!, THUMBNAIL_OPERATION, taskInput, ctx.id, request.signal, { id });
  const job = await services.thumbnails.recordDrawn(ctx.key!, id, { size, responseType }, result, creditsUsed);
  return { ...(await jobBody(input, job)), filename: result.filename, source_content_type: result.source_content_type };
}

/**
 * previewOf serves a preview through the engine (operation "thumbnail.preview", billed to `account`).
 * With cacheHitsFree (signed preview links) a cached preview is served before the engine, at no cost.
 */
export async function previewOf(
  { services, ctx, request }: HandlerInput<ThumbnailRouteDeps>,
  account: Account,
  url: string,
  size: ThumbnailSize,
  nocache: boolean,
  options: { cacheHitsFree?: boolean } = {},
): Promise<Preview & { creditsUsed: number }> {
  const free = options.cacheHitsFree && !nocache ? await services.thumbnails.cachedPreview(url, size) : null;
  if (free) return { jpeg: free, cached: true, creditsUsed: 0 };
  const { result, creditsUsed } = await services.tasks.runNow<Preview>(account, PREVIEW_OPERATION, { url, size, nocache }, ctx.id, request.signal);
  return { ...result, creditsUsed };
}

/** PRIVATE_CACHE: a served thumbnail may be kept by the client that asked for it (not by shared caches) for an hour. */
const PRIVATE_CACHE = { "cache-control": "private, max-age=3600" };

/** jpegResponse answers the JPEG itself, with `extra` headers and those the handler set. */
export function jpegResponse(jpeg: Uint8Array, set: HandlerInput["set"], extra: Record<string, string> = {}): Response {
  const headers = new Headers({ "content-type": "image/jpeg", ...extra });
  for (const [name, value] of Object.entries(set.headers)) headers.set(name, String(value));
  return new Response(jpeg as Uint8Array<ArrayBuffer>, { headers });
}

export const thumbnailRoutes: Route<ThumbnailRouteDeps>[] = [
  {
    op: {
      method: "POST",
      path: "/api/v1/thumbnails/generate",
      tag,
      summary: "Thumbnail of an uploaded file",
      description: `Multipart \`file\` plus options. Images, PDF, office and iWork documents, spreadsheets, presentations, video, audio, HTML, text, markdown and code (GET /api/v1/thumbnails/supported-types). ${RESPONSE_FIELDS_DOC} sync=false answers 202 with a job to poll. ${priceText("thumbnail")}`,
      body: ThumbnailGenerateBody,
      responses: generateResponses({ 400: "Invalid request, or the file is corrupt or unreadable", 413: "File over 50 MB, or an image over the pixel limit (a decompression bomb)" }),
    },
    handler: async (input) => {
      const { body, services } = input;
      await checkWebhookUrl(body, services);
      return generate(input, { file: body.file as UploadedFile }, body);
    },
  },
  {
    op: {
      method: "POST",
      path: "/api/v1/thumbnails/generate/json",
      tag,
      summary: "Thumbnail of a URL",
      description: `JSON body with \`url\` and the thumbnail options; \`url_headers\` for authenticated URLs. A web page is drawn as a 1280x800 screenshot; a document behind the URL like an upload. ${RESPONSE_FIELDS_DOC} ${priceText("thumbnail")}`,
      body: ThumbnailGenerateJsonBody,
      bodyType: "json",
      responses: generateResponses({ 400: "Invalid request, or the URL is refused or unreachable", 413: "The document is over 50 MB, or an image over the pixel limit" }),
    },
    handler: async (input) => {
      const { body, services } = input;
      const urlHeaders = parseUrlHeaders(body.url_headers as string | undefined);
      const url = (body.url as string).trim();
      await assertFetchableUrl(url, { allowPrivate: services.config.allowPrivateUrls, field: "url" });
      await checkWebhookUrl(body, services);
      return generate(input, { url, urlHeaders }, body);
    },
  },
  {
    op: {
      method: "GET",
      path: "/api/v1/thumbnails/jobs/:job_id",
      tag,
      summary: "Thumbnail job status",
      description: "The job record: status (pending, processing, completed, failed); once completed the thumbnail's fields and a fresh signed `url` (or `image_base64`); when failed, `error`.",
      params: ThumbnailJobParams,
      responses: { 200: { description: "Job status", schema: ThumbnailResponse }, 404: "Job not found" },
    },
    handler: async (input) => jobBody(input, await input.services.thumbnails.job(input.ctx.key!.id, input.params.job_id as string)),
  },
  {
    op: {
      method: "DELETE",
      path: "/api/v1/thumbnails/jobs/:job_id",
      tag,
      summary: "Delete a thumbnail job and its image",
      description: "Deletes the job, its image and its stored input; its signed URLs stop working. A job still running is abandoned.",
      params: ThumbnailJobParams,
      responses: { 200: "Deleted: {success, job_id, deleted: true}", 404: "Job not found" },
    },
    handler: async ({ services, ctx, params }) => {
      const row = await services.thumbnails.job(ctx.key!.id, params.job_id as string);
      await services.thumbnails.remove(row);
      return { success: true, job_id: row.id, deleted: true };
    },
  },
  {
    op: {
      method: "GET",
      path: "/api/v1/thumbnails/jobs/:job_id/image",
      tag,
      summary: "Thumbnail job image",
      description: "The JPEG of a completed job; 409 job_not_completed while it is pending or processing, or when it failed.",
      params: ThumbnailJobParams,
      responses: {
        200: { description: "The thumbnail", contentType: "image/jpeg" },
        404: "Job not found",
        409: "Job not completed",
      },
    },
    handler: async ({ services, ctx, params, set }) => {
      const row = await services.thumbnails.job(ctx.key!.id, params.job_id as string);
      return jpegResponse(await services.thumbnails.image(row), set, PRIVATE_CACHE);
    },
  },
  {
    op: {
      method: "GET",
      path: "/api/v1/thumbnails/files/:job_id",
      tag,
      summary: "Thumbnail by signed URL",
      description: "Serves the `url` of a thumbnail answer without an API key while its signature is valid and it has not expired (24 h); 403 forbidden for an altered or expired URL. Free of charge.",
      params: ThumbnailJobParams,
      query: SignedFileQuery,
      public: true,
      responses: {
        200: { description: "The thumbnail", contentType: "image/jpeg" },
        403: "The signature is wrong or the URL expired",
        404: "The thumbnail was deleted",
      },
    },
    handler: async ({ services, params, query, set }) => {
      const jpeg = await services.thumbnails.imageBySignedUrl(params.job_id as string, Number(query.expires), String(query.signature));
      return jpegResponse(jpeg, set, PRIVATE_CACHE);
    },
  },
  {
    op: {
      method: "GET",
      path: "/api/v1/thumbnails/supported-types",
      tag,
      summary: "Supported thumbnail types, grouped by handler",
      description: "Extensions and MIME types per handler (image, pdf, office, spreadsheet, presentation, video, audio, web, text). Free of charge.",
      responses: { 200: { description: "Supported types", schema: ThumbnailSupportedTypes } },
    },
    handler: () => SUPPORTED,
  },
  {
    op: {
      method: "GET",
      path: "/api/v1/thumbnails/preview",
      tag,
      summary: "JPEG preview of a URL for an <img> tag",
      description:
        "Returns the JPEG itself (a web page as a screenshot, a document or image behind the URL like an upload). Previews are cached for an hour per URL and size (`X-Cache: hit` or `miss`); `nocache=true` draws afresh. " + priceText("thumbnail") + " Cache hits cost the same.",
      query: ThumbnailPreviewQuery,
      responses: {
        200: { description: "The preview", contentType: "image/jpeg" },
        400: "Invalid, refused or unreachable URL, or an unreadable document",
        402: NOT_ENOUGH_CREDITS,
        413: "Target over 50 MB, or an image over the pixel limit",
        415: "Unsupported file type",
        504: "The preview did not finish within the deadline",
      },
    },
    handler: async (input) => {
      const { query, services, ctx, set } = input;
      const url = (query.url as string).trim();
      await assertFetchableUrl(url, { allowPrivate: services.config.allowPrivateUrls, field: "url" });
      const { jpeg, cached } = await previewOf(input, ctx.key!, url, sizeOf(query), query.nocache === true);
      return jpegResponse(jpeg, set, { "x-cache": cached ? "hit" : "miss", ...PRIVATE_CACHE });
    },
  },
];

