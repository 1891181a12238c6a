import { Type } from "@sinclair/typebox";
import { TASK_STATES, DELIVERY_STATES, BATCH_STATES } from "../store/states";
import { StringEnum, Fields } from "../http/fields";

export const TaskParams = Fields({ task_id: Type.String({ pattern: "^task_[A-Za-z0-9]+$", maxLength: 64, description: "task id from the acceptance record" }) }, { required: ["task_id"] });
export const BatchParams = Fields({ batch_id: Type.String({ pattern: "^batch_[A-Za-z0-9]+$", maxLength: 64, description: "batch id" }) }, { required: ["batch_id"] });
export const DeliveryParams = Fields(
  {
    task_id: Type.String({ pattern: "^(task|batch|thumb)_[A-Za-z0-9]+$", maxLength: 64, description: "the task (or batch) the delivery belongs to" }),
    delivery_id: Type.String({ pattern: "^whd_[A-Za-z0-9]+$", maxLength: 64 }),
  },
  { required: ["task_id", "delivery_id"] },
);

const TaskError = Type.Object({ error: Type.String({ description: "machine code, as in error bodies" }), detail: Type.String() });
const Timestamp = (description: string) => Type.String({ description: `${description} (ISO 8601 UTC)` });
const NullableTimestamp = (description: string) => Type.Union([Timestamp(description), Type.Null()]);

export const TaskRecord = Type.Object(
  {
    task_id: Type.String(),
    operation: Type.String({ description: "extract, analyze, ..." }),
    status: StringEnum(TASK_STATES),
    created_at: Timestamp("accepted at"),
    started_at: NullableTimestamp("first started at"),
    completed_at: NullableTimestamp("ended at (completed, failed or cancelled)"),
    credits_used: Type.Integer({ description: "0 until completed; failed and cancelled tasks cost nothing" }),
    progress: Type.Union([Type.Object({ done: Type.Integer(), total: Type.Integer() }), Type.Null()], { description: "how far the work is, as the operation counts it (e.g. documents or pages)" }),
    queue_position: Type.Optional(Type.Integer({ description: "while pending: tasks ahead of this one (0 = next)" })),
    batch_id: Type.Optional(Type.String({ description: "the batch this task is an item of" })),
    result: Type.Optional(Type.Any({ description: "when completed: the same object the synchronous call returns" })),
    error: Type.Optional(TaskError),
  },
  { title: "TaskRecord" },
);

export const BatchRecord = Type.Object(
  {
    batch_id: Type.String(),
    operation: Type.String(),
    status: StringEnum(BATCH_STATES),
    created_at: Timestamp("accepted at"),
    completed_at: NullableTimestamp("when the last item ended"),
    item_count: Type.Integer(),
    credits_used: Type.Integer({ description: "the sum of the items' credits" }),
    counts: Type.Object(Object.fromEntries(TASK_STATES.map((s) => [s, Type.Integer()])), { description: "items by state" }),
    items: Type.Array(
      Type.Object({
        index: Type.Integer({ description: "position in the request: files first, then urls" }),
        task_id: Type.String(),
        source: Type.Union([Type.String(), Type.Null()], { description: "filename or URL" }),
        status: StringEnum(TASK_STATES),
        credits_used: Type.Integer(),
        result: Type.Optional(Type.Any()),
        error: Type.Optional(TaskError),
      }),
    ),
  },
  { title: "BatchRecord" },
);

export const DeliveryRecord = Type.Object(
  {
    id: Type.String({ description: "whd_<id>, the X-SVC-Delivery-ID of every request of this delivery" }),
    status: StringEnum(DELIVERY_STATES, { description: "pending (not yet attempted), delivered (2xx), failed (will retry), dead (4xx, or retries used up)" }),
    status_code: Type.Union([Type.Integer(), Type.Null()], { description: "HTTP status of the last attempt; null when it got no answer (timeout, connection refused)" }),
    attempts: Type.Integer({ description: "HTTP requests made: at most 10 (3 inline, 7 scheduled)" }),
    created_at: Timestamp("created at"),
    delivered_at: NullableTimestamp("first 2xx at"),
    next_attempt_at: NullableTimestamp("when the next scheduled request is due; null when none is"),
    last_error: Type.Union([Type.String(), Type.Null()], { description: "why the last attempt failed" }),
    url: Type.String({ description: "the webhook_url" }),
  },
  { title: "WebhookDelivery" },
);

export const DeliveryLog = Type.Object(
  {
    task_id: Type.String(),
    deliveries: Type.Array(DeliveryRecord),
  },
  { title: "DeliveryLog" },
);
