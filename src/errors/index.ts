/**
 * AppError is the one error class of the service. Every operational failure is raised as
 * `new AppError(code, detail)`; `statusOf` is the only place that decides an HTTP status.
 */

/** ERROR_STATUS maps each machine code (the `error` field of the body) to its HTTP status. */
export const ERROR_STATUS = {
  bad_request: 400,
  invalid_schema: 400,
  invalid_json: 400,
  missing_input: 400,
  url_refused: 400,
  url_unreachable: 400,
  invalid_document: 400,
  unreadable_document: 400,
  encrypted_document: 400,
  empty_document: 400,
  unauthorized: 401,
  /** key_revoked: the error of a task or job whose API key was revoked before it could end */
  key_revoked: 401,
  insufficient_credits: 402,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  job_not_completed: 409,
  payload_too_large: 413,
  document_too_large: 413,
  unsupported_media_type: 415,
  validation_error: 422,
  rate_limited: 429,
  internal_error: 500,
  not_implemented: 501,
  provider_error: 502,
  ai_unavailable: 503,
  overloaded: 503,
  shutting_down: 503,
  tool_unavailable: 503,
  timeout: 504,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/**
 * ERROR_MEANING says, for each code, when a client gets it: the README's error table is generated
 * from this and ERROR_STATUS (scripts/error-table.ts; test/readme-errors.test.ts keeps them equal).
 */
export const ERROR_MEANING: Record<ErrorCode, string> = {
  bad_request: "a semantic error in the request: fields that exclude each other, a JSON field that is not valid JSON, a selector that matches nothing (the detail names the field and the fix)",
  invalid_schema: "a typed schema that is not valid (the detail names the field inside the schema)",
  invalid_json: "reserved for JSON that cannot be parsed; this version answers bad_request for a JSON form field and 422 for a JSON body",
  missing_input: "neither a file nor a URL (or none of the inputs the operation needs)",
  url_refused: "a URL that is not http(s), carries credentials, or resolves to a private, loopback, link-local or metadata address (unless the server runs with --allow-private-urls)",
  url_unreachable: "a URL whose host does not resolve, refuses the connection, or answers with an error",
  invalid_document: "an empty upload or an empty document behind a URL",
  unreadable_document: "a corrupt or truncated file, or one nested far deeper than documents nest (an office part past 2000 elements)",
  encrypted_document: "a password-protected document",
  empty_document: "a document with no text at all, not even after OCR (or an extraction that found no field)",
  unauthorized: "a missing, invalid or revoked API key",
  key_revoked: "the error of a task or job whose API key was revoked before it could end",
  insufficient_credits: "not enough credits this month for the operation's minimum cost (the detail says what is needed and what remains)",
  forbidden: "a signed URL that was altered or has expired",
  not_found: "an unknown path, or a task, batch, job or delivery that does not exist or belongs to another key",
  method_not_allowed: "a known path with a method it does not serve (the Allow header lists the methods)",
  conflict: "a task that has already ended was asked to be cancelled",
  job_not_completed: "a thumbnail image asked for before its job completed",
  payload_too_large: "a request body or file over the limit (50 MB a file by default), refused from Content-Length before reading or while a chunked body streams in",
  document_too_large: "a document past the page, pixel, decompressed-size, markdown-size or conversion-memory limit",
  unsupported_media_type: "a type the operation does not read",
  validation_error: "request validation: the body is {detail: [{loc, msg, type, input, ctx}]}, one item per problem",
  rate_limited: "over the plan's requests per minute, or too many chunked uploads of the key at once (with Retry-After)",
  internal_error: "anything unexpected: a generic detail with the request id to quote; the cause goes to the log",
  not_implemented: "an operation that is part of the interface but not built in this version",
  provider_error: "the AI provider failed in a way that retrying will not fix",
  ai_unavailable: "the operation needs the AI provider and none is configured (GROQ_API_KEY), or it is busy (with Retry-After)",
  overloaded: "the worker queue or the upload spools are full (with Retry-After)",
  shutting_down: "the service is stopping (with Retry-After)",
  tool_unavailable: "a program the work needs (Chromium, LibreOffice, tesseract, ffmpeg) is missing or crashed; docintel doctor says which",
  timeout: "the work passed its deadline (--convert-timeout-ms, --screenshot-timeout-ms, the analyze limit)",
};

/** RETRY_AFTER_OVERLOADED_S: the Retry-After (seconds) sent with 503 overloaded (a full worker queue or conversion processes) */
export const RETRY_AFTER_OVERLOADED_S = 2;

export interface AppErrorOptions {
  cause?: unknown;
  /** headers added to the error response, e.g. Retry-After */
  headers?: Record<string, string>;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly detail: string;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, detail: string, options: AppErrorOptions = {}) {
    super(`${code}: ${detail}`, { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.detail = detail;
    this.headers = options.headers ?? {};
  }

  get status(): number {
    return statusOf(this.code);
  }
}

export function statusOf(code: ErrorCode): number {
  return ERROR_STATUS[code];
}

/** ValidationIssue is one item of the spec's 422 `detail[]` list. */
export interface ValidationIssue {
  loc: string[];
  msg: string;
  type: string;
  input: unknown;
  ctx: Record<string, unknown>;
}

/** RequestValidationError carries the 422 list; the mapper renders it as `{detail: [...]}`. */
export class RequestValidationError extends Error {
  readonly issues: ValidationIssue[];
  constructor(issues: ValidationIssue[]) {
    super(`validation_error: ${issues.map((i) => `${i.loc.join(".")}: ${i.msg}`).join("; ")}`);
    this.name = "RequestValidationError";
    this.issues = issues;
  }
}

export interface ErrorBody {
  status: number;
  body: unknown;
  headers: Record<string, string>;
  /** the cause to log, only for unexpected errors */
  logCause?: unknown;
}

/** errorBody turns any thrown value into the spec's error body; unknown errors become a generic 500. */
export function errorBody(error: unknown, requestId: string): ErrorBody {
  if (error instanceof AppError) {
    return {
      status: error.status,
      body: { success: false, error: error.code, detail: error.detail },
      headers: error.headers,
      logCause: error.status >= 500 && error.cause ? error.cause : undefined,
    };
  }
  if (error instanceof RequestValidationError) {
    return { status: 422, body: { detail: error.issues }, headers: {} };
  }
  return {
    status: 500,
    body: {
      success: false,
      error: "internal_error",
      detail: `An unexpected error occurred; quote request id ${requestId} when reporting it.`,
    },
    headers: {},
    logCause: error,
  };
}

export function errorResponse(error: unknown, requestId: string, extraHeaders: Record<string, string> = {}): { response: Response; logCause?: unknown; status: number } {
  const { status, body, headers, logCause } = errorBody(error, requestId);
  const response = new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...extraHeaders, ...headers },
  });
  return { response, logCause, status };
}
