import { Type } from "@sinclair/typebox";
import { FileField, JsonText, StringEnum, Fields } from "../app/fields";
import { commonFields } from "../app/fieldsCommon";

const size = {
  width: Type.Integer({ minimum: 1, maximum: 4000, default: 600, description: "maximum width in pixels (fit inside, aspect ratio kept, never upscaled)" }),
  height: Type.Integer({ minimum: 1, maximum: 4000, default: 400, description: "maximum height in pixels" }),
  quality: Type.Integer({ minimum: 1, maximum: 100, default: 95, description: "JPEG quality" }),
};

const delivery = {
  sync: commonFields.sync(),
  webhook_url: commonFields.webhookUrl(),
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

export const ThumbnailResponse = Type.Object(
  {
    success: Type.Literal(true),
    job_id: Type.String(),
    status: Type.String(),
    url: Type.Optional(Type.String({ description: "signed, expiring URL of the JPEG (response_type=url)" })),
    expires_at: Type.Optional(Type.String()),
    image_base64: Type.Optional(Type.String({ description: "the JPEG, base64 (response_type=base64)" })),
    width: Type.Integer(),
    height: Type.Integer(),
    content_type: Type.Literal("image/jpeg"),
    handler: Type.String({ description: "image, pdf, office, video, audio, web, text" }),
    credits_used: Type.Integer(),
  },
  { title: "ThumbnailResult" },
);
