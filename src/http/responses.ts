/** Response schemas shared by every capability: error bodies and the async acceptance record. */
import { Type } from "@sinclair/typebox";

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
