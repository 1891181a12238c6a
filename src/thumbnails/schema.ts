import { Type } from "@sinclair/typebox";
import { FileField, JsonText, StringEnum, Fields } from "../http/fields";
import { commonFields } from "../documents/fields";

const size = {
  width: Type.Integer({ minimum: 1, maximum: 4000, default: 600, description: "maximum width in pixels (fit inside, aspect ratio kept, never upscaled)" }),
  height: Type.Integer({ minimum: 1, maximum: 4000, default: 400, description: "maximum height in pixels" }),
  quality: Type.Integer({ minimum: 1, maximum: 100, default: 95, description: "JPEG quality" }),
};

const delivery = {
  sync: Type.Boolean({ default: true, description: "false: answer 202 with a job_id at once and draw in the background (poll /api/v1/thumbnails/jobs/{job_id})" }),
  webhook_url: Type.String({ maxLength: 2048, description: "sync=false only: receives the job record when the job ends" }),
  response_type: StringEnum(["url", "base64"] as const, { default: "url", description: "url: a signed, expiring URL served by this service; base64: the JPEG inline" }),
};

export const ThumbnailGenerateBody = Fields({ file: FileField({ description: "the file to preview (max 50 MB)" }), ...size, ...delivery }, { required: ["file"] });

export const ThumbnailGenerateJsonBody = Fields(
  {
    url: commonFields.url(),
    url_headers: JsonText({ description: "headers for an authenticated URL (a JSON object, or its JSON text)" }),
    ...size,
    ...delivery,
  },
  { required: ["url"] },
);

export const ThumbnailPreviewQuery = Fields(
  { url: Type.String({ minLength: 1, maxLength: 8192, description: "URL of the file or page to preview" }), ...size, nocache: Type.Boolean({ default: false, description: "bypass the preview cache" }) },
  { required: ["url"] },
);

export const ThumbnailJobParams = Fields({ job_id: Type.String({ minLength: 1, maxLength: 64, pattern: "^thumb_[A-Za-z0-9]+$", description: "thumbnail job id (thumb_...)" }) }, { required: ["job_id"] });

/** ThumbnailResponse is the sync answer and the job status: one record, fields present as the state allows. */
export const ThumbnailResponse = Type.Object(
  {
    success: Type.Literal(true),
    job_id: Type.String({ description: "thumb_...: every thumbnail is kept as a job (7 days), so its image and signed URL can be fetched again" }),
    status: Type.String({ description: "pending, processing, completed or failed" }),
    handler: Type.Optional(Type.String({ description: "what drew it: image, pdf, office, spreadsheet, presentation, video, audio, web or text" })),
    width: Type.Optional(Type.Integer({ description: "width of the JPEG in pixels (at most the requested width; never larger than the source)" })),
    height: Type.Optional(Type.Integer({ description: "height of the JPEG in pixels" })),
    content_type: Type.Literal("image/jpeg"),
    credits_used: Type.Integer({ description: "1 once completed; 0 while pending and when failed" }),
    url: Type.Optional(Type.String({ description: "response_type=url: a signed URL of the JPEG, served by this service without an API key until expires_at" })),
    expires_at: Type.Optional(Type.String({ description: "when `url` stops working (ISO 8601); a job status read gives a fresh URL" })),
    image_base64: Type.Optional(Type.String({ description: "response_type=base64: the JPEG, base64-encoded" })),
    image_url: Type.String({ description: "path of GET /api/v1/thumbnails/jobs/{job_id}/image (needs X-API-Key; 409 until completed)" }),
    filename: Type.Optional(Type.String({ description: "sync answers: the input's file name" })),
    source_content_type: Type.Optional(Type.String({ description: "sync answers: the detected type of the input" })),
    created_at: Type.String(),
    completed_at: Type.Optional(Type.String()),
    error: Type.Optional(Type.Object({ error: Type.String(), detail: Type.String() }, { description: "failed jobs: the error code and what went wrong" })),
  },
  { title: "ThumbnailResult" },
);

export const ThumbnailAccepted = Type.Object(
  {
    success: Type.Literal(true),
    job_id: Type.String({ pattern: "^thumb_[A-Za-z0-9]+$" }),
    status: Type.Literal("pending"),
    poll_url: Type.String({ examples: ["/api/v1/thumbnails/jobs/thumb_0f3c9a"] }),
    image_url: Type.String({ examples: ["/api/v1/thumbnails/jobs/thumb_0f3c9a/image"] }),
    created_at: Type.String(),
  },
  { title: "ThumbnailJobAccepted" },
);

export const ThumbnailSupportedTypes = Type.Object(
  {
    success: Type.Literal(true),
    total_extensions: Type.Integer(),
    handlers: Type.Array(
      Type.Object({ handler: Type.String(), description: Type.String(), extensions: Type.Array(Type.String()), mime_types: Type.Array(Type.String()) }),
    ),
  },
  { title: "ThumbnailSupportedTypes" },
);

export const SignedFileQuery = Fields(
  {
    expires: Type.Integer({ minimum: 0, description: "expiry, in seconds since 1970 (part of the signed URL)" }),
    signature: Type.String({ maxLength: 128, description: "HMAC-SHA256 signature (part of the signed URL)" }),
  },
  { required: ["expires", "signature"] },
);
