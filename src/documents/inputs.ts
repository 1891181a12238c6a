/**
 * Semantic checks shared by the document operations, run after the 422 validation: the typed
 * schema parses, exactly one of file or url is given, a URL is one the server may fetch.
 */
import { AppError, RequestValidationError } from "../errors";
import type { UploadedFile } from "../ingest/upload";
import { assertFetchableUrl, parseUrlHeaders } from "../security/ssrf";
import type { RenderMode } from "../convert/types";

/** UrlPolicy: what the checks use of the services: whether private and loopback addresses may be fetched. */
export interface UrlPolicy {
  config: { allowPrivateUrls: boolean };
}

export interface DocumentInput {
  file?: UploadedFile;
  url?: string;
  urlHeaders: Record<string, string>;
  /** render: how a web page URL becomes text (the `render` field; validated to one of RENDER_MODES) */
  render: RenderMode;
}

/** renderModeOf reads the `render` field of a request; absent means "auto". */
export function renderModeOf(fields: Record<string, unknown>): RenderMode {
  return (fields.render as RenderMode | undefined) ?? "auto";
}

/** requireOneDocument checks the file/url pair of a request (`suffix` for diff's file_a/url_a). */
export async function requireOneDocument(body: Record<string, unknown>, services: UrlPolicy, suffix = ""): Promise<DocumentInput> {
  const fileField = `file${suffix}`;
  const urlField = `url${suffix}`;
  const file = body[fileField] as UploadedFile | undefined;
  const url = typeof body[urlField] === "string" ? (body[urlField] as string).trim() : undefined;
  if (!file && !url) throw new AppError("missing_input", `Send the document as the '${fileField}' form field (a file upload) or as '${urlField}'.`);
  if (file && url) throw new AppError("bad_request", `Send either '${fileField}' or '${urlField}', not both.`);
  const urlHeaders = parseUrlHeaders(body.url_headers as string | undefined);
  if (url) await assertFetchableUrl(url, { allowPrivate: services.config.allowPrivateUrls, field: urlField });
  return { file, url, urlHeaders, render: renderModeOf(body) };
}

/** checkWebhookUrl applies the SSRF guard to webhook_url, which is only valid with sync=false. */
export async function checkWebhookUrl(body: Record<string, unknown>, services: UrlPolicy): Promise<void> {
  const webhook = body.webhook_url as string | undefined;
  if (!webhook) return;
  if (body.sync !== false && "sync" in body) throw new AppError("bad_request", "webhook_url is used only with sync=false (asynchronous processing).");
  await assertFetchableUrl(webhook, { allowPrivate: services.config.allowPrivateUrls, field: "webhook_url" });
}

/** parseJsonField parses a JSON-text form field, or throws a 400 naming it. */
export function parseJsonField(body: Record<string, unknown>, name: string, example: string): unknown {
  const text = body[name];
  if (text === undefined) return undefined;
  try {
    return JSON.parse(String(text));
  } catch (error) {
    throw new AppError("bad_request", `${name}: not valid JSON (${(error as Error).message}); expected e.g. ${example}`);
  }
}

/** parseUrlList reads a JSON array of URL strings from a form field. */
export function parseUrlList(body: Record<string, unknown>, name = "urls"): string[] {
  const value = parseJsonField(body, name, '["https://example.com/a.pdf"]');
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((u) => typeof u === "string" && u.trim() !== ""))
    throw new AppError("bad_request", `${name}: must be a JSON array of URL strings, e.g. ["https://example.com/a.pdf"]`);
  return value.map((u: string) => u.trim());
}

/** BatchDocument: one item of a batch, an upload or a URL; `render` goes with URLs only (it applies to web pages). */
export type BatchDocument = Pick<DocumentInput, "file" | "url" | "urlHeaders"> & { render?: RenderMode };

/**
 * checkBatchDocuments checks the items of a batch (uploaded `files` and a JSON array of `urls`): at
 * least one, at most `maxItems` together, every URL fetchable, and the webhook URL if given. It
 * returns them as documents, the uploads first, then the URLs in their order.
 */
export async function checkBatchDocuments(body: Record<string, unknown>, services: UrlPolicy, maxItems: number): Promise<BatchDocument[]> {
  const files = (body.files as UploadedFile[] | undefined) ?? [];
  const urls = parseUrlList(body);
  const count = files.length + urls.length;
  if (count === 0) throw new AppError("missing_input", "Send at least one document: 'files' (repeatable) and/or 'urls' (a JSON array).");
  if (count > maxItems) {
    // the spec answers a batch over its limit with the 422 validation list, as for too many files alone
    const msg = `A batch holds at most ${maxItems} items (files and urls together), got ${count}`;
    throw new RequestValidationError([{ loc: ["body", urls.length > 0 ? "urls" : "files"], msg, type: "too_long", input: null, ctx: { max_length: maxItems, actual_length: count } }]);
  }
  for (const url of urls) await assertFetchableUrl(url, { allowPrivate: services.config.allowPrivateUrls, field: "urls" });
  if (body.webhook_url) await assertFetchableUrl(body.webhook_url as string, { allowPrivate: services.config.allowPrivateUrls, field: "webhook_url" });
  const render = renderModeOf(body);
  return [...files.map((file) => ({ file, urlHeaders: {} })), ...urls.map((url) => ({ url, urlHeaders: {}, render }))];
}
