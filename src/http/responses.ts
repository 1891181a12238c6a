/** Response schemas shared by every capability (error bodies, the async acceptance record) and the answers operations share. */
import { Type, type TSchema } from "@sinclair/typebox";

/** ResponseDoc documents one answer of an operation (Operation.responses: status -> ResponseDoc or its description). */
export interface ResponseDoc {
  description: string;
  /** JSON schema of the body; omitted for error statuses (the shared error bodies are used) */
  schema?: TSchema;
  /** content type when not JSON, e.g. image/jpeg */
  contentType?: string;
}


export const ErrorBodySchema = Type.Object(
  {
    success: Type.Literal(false),
    error: Type.String({ description: "machine code, e.g. invalid_schema, unauthorized, insufficient_credits, rate_limited, payload_too_large, overloaded, not_implemented" }),
    detail: Type.String({ description: "what went wrong and how to fix it" }),
  },
  { title: "OperationalError" },
);

export const ValidationErrorSchema = Type.Object(
  {
    detail: Type.Array(
      Type.Object({
        loc: Type.Array(Type.String(), { description: "where: ['body', 'quality'], ['query', 'width'], ['path', 'task_id']" }),
        msg: Type.String(),
        type: Type.String({ description: "missing, enum, int_parsing, bool_parsing, float_parsing, greater_than_equal, less_than_equal, string_too_long, string_pattern_mismatch, file_type, too_long, multiple_values, json_invalid" }),
        input: Type.Any(),
        ctx: Type.Record(Type.String(), Type.Any()),
      }),
    ),
  },
  { title: "ValidationError" },
);

export const AsyncAcceptedSchema = Type.Object(
  {
    task_id: Type.String({ pattern: "^task_[A-Za-z0-9]+$", examples: ["task_01j9xk2m7q"] }),
    status: Type.Literal("pending"),
    poll_url: Type.String({ examples: ["/api/v1/jobs/task_01j9xk2m7q"] }),
  },
  { title: "AsyncAccepted" },
);

export const BatchAcceptedSchema = Type.Object(
  {
    batch_id: Type.String({ pattern: "^batch_[A-Za-z0-9]+$" }),
    status: Type.Literal("pending"),
    item_count: Type.Integer(),
    poll_url: Type.String({ examples: ["/api/v1/jobs/batch/batch_01j9xk2m7q"] }),
  },
  { title: "BatchAccepted" },
);

/** Responses: an operation's documented answers by status (Operation.responses). */
export type Responses = Record<number, ResponseDoc | string>;

/** NOT_ENOUGH_CREDITS: the 402 of every priced operation. */
export const NOT_ENOUGH_CREDITS = "Not enough credits";

/** AI_PROVIDER_ERRORS: the 502 and 503 of the operations that need the AI provider (analyze, cross-analyze). */
export const AI_PROVIDER_ERRORS: Responses = {
  502: "The AI provider failed",
  503: "AI provider not configured (ai_unavailable) or overloaded",
};

/** SCHEMA_DOCUMENT_ERRORS: the 400 and 413 of the operations that read one document with a typed schema (extract, analyze). */
export const SCHEMA_DOCUMENT_ERRORS: Responses = {
  400: "Invalid schema, neither file nor url, or a refused/unreachable URL",
  413: "File over 50 MB",
};

/**
 * taskResponses: the answers of an operation that runs now or, with sync=false, as a task: `result`
 * (200), the acceptance record (202), 402 without enough credits, then the operation's own `errors`.
 */
export function taskResponses(result: ResponseDoc, errors: Responses): Responses {
  return { 200: result, 202: { description: "Accepted (sync=false)", schema: AsyncAcceptedSchema }, 402: NOT_ENOUGH_CREDITS, ...errors };
}

/** BATCH_RESPONSES: the answers of the batch operations (extract/batch, analyze/batch). */
export const BATCH_RESPONSES: Responses = {
  202: { description: "Batch accepted", schema: BatchAcceptedSchema },
  400: "Invalid schema, no items, or a refused URL",
  402: NOT_ENOUGH_CREDITS,
  413: "A file over 50 MB, or the request over 200 MB",
};
