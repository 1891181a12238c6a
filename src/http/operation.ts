/**
 * An Operation declares one HTTP operation: its route, request contract (TypeBox), documented
 * responses and body limit. `mountOperation` registers it on Elysia with validation in front of the
 * handler and the OpenAPI `detail` built from the same schemas, so docs and checks cannot drift.
 */
import type { Elysia } from "elysia";
import type { TObject, TSchema } from "@sinclair/typebox";
import { AppError, RequestValidationError } from "../errors";
import { ErrorBodySchema, ValidationErrorSchema, type ResponseDoc, type Responses } from "./responses";
import { validateFields } from "./validate";
import { contextOf, type RequestContext } from "./context";
import type { BodySpool } from "./bodySpool";
import { boundaryOf, MultipartError, parseMultipart, type FormPart } from "./multipart";

export type HttpMethod = "GET" | "POST" | "DELETE";

export interface Operation {
  method: HttpMethod;
  /** Elysia path, e.g. /api/v1/jobs/:task_id or /md/* */
  path: string;
  /** OpenAPI path when it differs, e.g. /md/{url} */
  docPath?: string;
  summary: string;
  description: string;
  tag: string;
  body?: TObject;
  bodyType?: "multipart" | "json";
  query?: TObject;
  params?: TObject;
  responses: Responses;
  /**
   * public: true for operations that need no key (/healthz, the signed thumbnail URL, which carries
   * its own signature). Every other operation needs one; the check is made for the route that
   * matched, before its body is read.
   */
  public?: boolean;
  /**
   * anonymous: true for operations a request without a key may use when the operator sets
   * --anonymous-plan free (GET /md/{url}, GET /{url}); a request that sends a key is checked as usual.
   */
  anonymous?: boolean;
  /** maxRequestBytes: whole request body limit; 0 = the default (max upload + 1 MB of form fields) */
  maxRequestBytes?: number;
  /**
   * example: the request body the explorer's snippets send. Default (requestExampleOf): the required
   * fields and the document, nothing else, so a snippet copied as shown runs.
   */
  example?: Record<string, unknown>;
}

/** EXAMPLE_FILE: what a snippet sends for a file part; curl reads `@name` as "upload this file". */
const EXAMPLE_FILE = "@document.pdf";

/** exampleValueOf: one field's example: its declared example or default, a file, or a placeholder of its type. */
function exampleValueOf(schema: TSchema): unknown {
  if (schema.format === "binary") return EXAMPLE_FILE;
  if (schema.type === "array" && schema.items?.format === "binary") return [EXAMPLE_FILE];
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  return { integer: 1, number: 1, boolean: true }[schema.type as string] ?? "...";
}

/**
 * requestExampleOf builds the smallest body that runs: required fields and, for operations that take
 * "file or url", the file. Empty optional fields are what made copied snippets fail with 422.
 */
export function requestExampleOf(op: Operation): Record<string, unknown> | undefined {
  if (op.example) return op.example;
  if (!op.body) return undefined;
  const required = new Set(op.body.required ?? []);
  const properties = op.body.properties as Record<string, TSchema>;
  // the document of a "file or url" form: file (file_a and file_b for diff), files for batches
  const documents = op.bodyType === "json" ? [] : "file" in properties ? ["file"] : "file_a" in properties ? ["file_a", "file_b"] : ["files"];
  const out: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(properties)) {
    if (required.has(name) || documents.includes(name)) out[name] = exampleValueOf(schema);
  }
  return out;
}

/**
 * HandlerInput is what a handler gets. `services`: the dependencies its routes declare (`D`, an
 * interface in the feature); the composition root (src/app/services.ts) passes its Services, which
 * has them all, so no feature imports the composition root.
 */
export interface HandlerInput<D = unknown> {
  body: Record<string, unknown>;
  query: Record<string, unknown>;
  params: Record<string, unknown>;
  request: Request;
  ctx: RequestContext;
  services: D;
  set: { headers: Record<string, string | number>; status?: number | string };
}

export type Handler<D = unknown> = (input: HandlerInput<D>) => unknown | Promise<unknown>;

const STANDARD_ERRORS: Record<number, string> = {
  401: "Missing, invalid or revoked API key.",
  422: "Request validation error: a field is missing, of the wrong type or out of range.",
  429: "Rate limit of the key's plan exceeded; see Retry-After.",
  500: "Unexpected error; the detail carries a request id to quote.",
};

function responseEntry(status: number, doc: ResponseDoc | string) {
  const d = typeof doc === "string" ? { description: doc } : doc;
  const schema = d.schema ?? (status === 422 ? ValidationErrorSchema : status >= 400 ? ErrorBodySchema : undefined);
  const contentType = d.contentType ?? "application/json";
  const content = schema
    ? { [contentType]: { schema } }
    : contentType !== "application/json"
      ? { [contentType]: { schema: { type: "string", format: "binary" } } }
      : undefined;
  return { description: d.description, ...(content ? { content } : {}) };
}

function parametersOf(schema: TObject | undefined, where: "query" | "path") {
  if (!schema) return [];
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties).map(([name, s]) => {
    const { description, ...rest } = s as TSchema;
    return { name, in: where, required: where === "path" || required.has(name), description, schema: rest };
  });
}

/**
 * openApiOperation renders the OpenAPI operation object of an Operation. `keylessAllowed`: the server
 * runs with --anonymous-plan free, so operations marked `anonymous` take requests without a key too.
 */
export function openApiOperation(op: Operation, keylessAllowed = false): Record<string, unknown> {
  const responses: Record<string, unknown> = {};
  const all: Responses = { ...op.responses };
  if (!op.public) for (const status of [401, 429]) all[status] ??= STANDARD_ERRORS[status]!;
  if (op.body || op.query || op.params) all[422] ??= STANDARD_ERRORS[422]!;
  all[500] ??= STANDARD_ERRORS[500]!;
  for (const [status, doc] of Object.entries(all).sort(([a], [b]) => Number(a) - Number(b))) responses[status] = responseEntry(Number(status), doc);
  const detail: Record<string, unknown> = {
    summary: op.summary,
    description: op.description,
    tags: [op.tag],
    operationId: `${op.method.toLowerCase()}${(op.docPath ?? op.path).replace(/[{}:*]/g, "").replace(/[^a-zA-Z0-9]+(.)?/g, (_, c) => (c ? c.toUpperCase() : ""))}`,
    parameters: [...parametersOf(op.params, "path"), ...parametersOf(op.query, "query")],
    responses,
  };
  if (op.public) detail.security = [];
  else if (op.anonymous && keylessAllowed) detail.security = [{ ApiKey: [] }, { Bearer: [] }, {}];
  if (op.body) {
    const contentType = op.bodyType === "json" ? "application/json" : "multipart/form-data";
    detail.requestBody = { required: true, content: { [contentType]: { schema: op.body, example: requestExampleOf(op) } } };
  }
  return detail;
}

/** collect turns repeated names into arrays, keeping single values as they are. */
function collect(entries: Iterable<[string, unknown]>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of entries) {
    const prev = out[name];
    out[name] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return out;
}

/** FORM_UNREADABLE: the 400 detail of a form body that cannot be parsed */
const FORM_UNREADABLE = "Could not read the multipart/form-data body; send fields with curl -F name=value and files with -F file=@path.";

/**
 * readBody reads the request body as sent: form fields stay text (Elysia's own parser would
 * JSON-decode values that look like JSON, which breaks JSON-text fields such as `urls`). A multipart
 * body is read once into one buffer and its file parts are views of it (multipart.ts).
 */
async function readBody(request: Request, op: Operation): Promise<unknown> {
  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  if (!request.body) return {};
  if (type.startsWith("multipart/form-data")) {
    let parts: FormPart[];
    try {
      const boundary = boundaryOf(request.headers.get("content-type")!);
      if (!boundary) throw new MultipartError("the Content-Type has no boundary parameter");
      parts = parseMultipart(await request.bytes(), boundary);
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw new AppError("bad_request", FORM_UNREADABLE, { cause: error });
    }
    return collect(parts.map((part) => [part.name, part.value]));
  }
  if (type.startsWith("application/x-www-form-urlencoded")) {
    let data: FormData;
    try {
      data = await request.formData();
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw new AppError("bad_request", FORM_UNREADABLE, { cause: error });
    }
    return collect(data.entries());
  }
  if (type.includes("json")) {
    const text = await request.text();
    if (text.trim() === "") return {};
    try {
      return JSON.parse(text);
    } catch {
      throw new RequestValidationError([{ loc: ["body"], msg: "JSON decode error: the body is not valid JSON", type: "json_invalid", input: null, ctx: {} }]);
    }
  }
  const expected = op.bodyType === "json" ? "application/json" : "multipart/form-data";
  throw new AppError("bad_request", `Send the request body as ${expected}${type ? `, not ${type.split(";")[0]}` : ""}.`);
}

/** bodyLimitOf is the largest request body the operation accepts: its own limit, or one upload plus form fields. */
export function bodyLimitOf(op: Operation, maxUploadBytes: number): number {
  return op.maxRequestBytes || maxUploadBytes + 1_000_000;
}

/** MountOptions: what mounting an operation takes from the configuration. */
export interface MountOptions {
  /** keylessAllowed: --anonymous-plan free (operations marked `anonymous` are documented as keyless) */
  keylessAllowed: boolean;
  /** maxUploadBytes: the upload limit, from which the default body limit follows (bodyLimitOf) */
  maxUploadBytes: number;
}

/**
 * mountOperation registers the operation on the app: read the body under its limit (the key was
 * checked before, see createApp), validate path, query and body, then run the handler with `services`.
 */
export function mountOperation<D>(app: Elysia<any, any, any, any, any, any, any>, services: D, bodies: BodySpool, op: Operation, handler: Handler<D>, options: MountOptions): void {
  const detail = openApiOperation(op, options.keylessAllowed);
  const bodyLimit = bodyLimitOf(op, options.maxUploadBytes);
  const run = async function handleOperation({ params, request: received, set }: any) {
    const ctx = contextOf(received);
    ctx.route = op.path;
    // operations without a body never read one: whatever was sent is dropped unread
    const request: Request = op.body ? await bodies.bounded(received, ctx, bodyLimit) : received;
    const rawQuery = op.query ? collect(ctx.url.searchParams.entries()) : {};
    const rawBody = op.body ? await readBody(request, op) : {};
    const input: HandlerInput<D> = {
      params: op.params ? validateFields(op.params, op.path.endsWith("*") ? { url: params?.["*"] || undefined } : params, "path") : {},
      query: op.query ? validateFields(op.query, rawQuery, "query") : {},
      body: op.body ? validateFields(op.body, rawBody, "body") : {},
      request,
      ctx,
      services,
      set,
    };
    return handler(input);
  };
  const hook = { detail: op.docPath ? { ...detail, hide: true } : detail, parse: "none" as const };
  switch (op.method) {
    case "GET":
      app.get(op.path, run, hook);
      break;
    case "POST":
      app.post(op.path, run, hook);
      break;
    case "DELETE":
      app.delete(op.path, run, hook);
      break;
  }
}
