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
