import { Type } from "@sinclair/typebox";
import { FileField, StringEnum, Fields } from "../app/fields";
import { commonFields } from "../app/fieldsCommon";

export const DiffBody = Fields({
  file_a: FileField({ description: "the first (older) document; or url_a" }),
  file_b: FileField({ description: "the second (newer) document; or url_b" }),
  url_a: commonFields.url(),
  url_b: commonFields.url(),
  url_headers: commonFields.urlHeaders(),
  granularity: StringEnum(["block", "word"] as const, { default: "word", description: "block: aligned blocks only; word: also word-level operations inside replaced blocks" }),
  format: StringEnum(["json", "markdown", "html"] as const, { default: "json", description: "json, markdown (~~deleted~~ **inserted**) or html (coloured)" }),
  annotate: Type.Boolean({ default: false, description: "AI summary and per-change significance (needs the AI provider)" }),
  sync: commonFields.sync(),
  webhook_url: commonFields.webhookUrl(),
});
