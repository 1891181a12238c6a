/** Request fields shared by several operations, so each is described once. */
import { Type } from "@sinclair/typebox";
import { FileField, FilesField, JsonText, StringEnum } from "../http/fields";
import { RENDER_MODES } from "../convert/types";

export const commonFields = {
  schema: () =>
    JsonText({
      description: 'JSON typed schema: each key is an output field, each value {type, description, required, enum, items, properties}. Example: {"total": {"type": "number", "description": "invoice total", "required": true}}. A standard JSON Schema is accepted too: {"type": "object", "properties": {"total": {"type": "number"}}, "required": ["total"]}',
      examples: ['{"total": {"type": "number", "description": "amount due", "required": true}}'],
    }),
  file: () => FileField({ description: "The document (max 50 MB). Send either file or url." }),
  url: () => Type.String({ maxLength: 8192, description: "URL of the document or web page. Send either file or url. Private and loopback addresses are refused unless the server allows them." }),
  urlHeaders: () => JsonText({ description: 'JSON object of headers for fetching an authenticated URL, e.g. {"Authorization": "Bearer ..."}. Sent only to the exact origin (scheme, host, port) of the URL given: never after a redirect to another origin, nor to linked pages elsewhere.' }),
  render: () =>
    StringEnum(RENDER_MODES, {
      default: "auto",
      description:
        "URL inputs that are web pages: auto renders the page with JavaScript and also reads the HTML as served, and keeps the one that holds the more complete article (a rendered shell such as 'page not available' loses to the served HTML; content added by scripts wins); never converts the served HTML without a browser (fastest, for static pages; a page whose content only scripts add is refused as empty_document); always takes only the rendered page",
    }),
  sync: () => Type.Boolean({ default: true, description: "false: answer 202 with a task_id at once and run in the background (poll /api/v1/jobs/{task_id})" }),
  webhookUrl: () => Type.String({ maxLength: 2048, description: "Async only: receives the signed task record (X-SVC-Signature, X-SVC-Delivery-ID) when the task ends." }),
  includeSteps: () => Type.Boolean({ default: false, description: "Include the agent's tool-call trace" }),
  model: () => StringEnum(["fast", "accurate", "auto"] as const, { default: "auto", description: "fast, accurate, or auto (fast first, accurate when required fields are missing or confidence is low)" }),
  // a batch's documents: `files` and `urls`, at most `max` items together
  files: (max: number) => FilesField({ maxItems: max, description: `documents, repeatable (files and urls together at most ${max})` }),
  urls: (max: number) => JsonText({ description: `JSON array of up to ${max} URLs, e.g. ["https://a.example/x.pdf"]` }),
  batchWebhookUrl: () => Type.String({ maxLength: 2048, description: "called once when the whole batch completes" }),
};

/** documentFields: one document, uploaded as `file` or fetched from `url` (with `url_headers` when it needs them). */
export function documentFields() {
  return { file: commonFields.file(), url: commonFields.url(), url_headers: commonFields.urlHeaders() };
}

/** taskFields: `sync` and `webhook_url`, of the operations that may run as a task. */
export function taskFields() {
  return { sync: commonFields.sync(), webhook_url: commonFields.webhookUrl() };
}
