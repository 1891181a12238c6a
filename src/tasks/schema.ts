import { Type } from "@sinclair/typebox";
import { TASK_STATES, DELIVERY_STATES } from "../store/states";
import { StringEnum, Fields } from "../app/fields";

export const TaskParams = Fields({ task_id: Type.String({ pattern: "^task_[A-Za-z0-9]+$", maxLength: 64, description: "task id from the acceptance record" }) }, { required: ["task_id"] });
export const BatchParams = Fields({ batch_id: Type.String({ pattern: "^batch_[A-Za-z0-9]+$", maxLength: 64, description: "batch id" }) }, { required: ["batch_id"] });
export const DeliveryParams = Fields(
  {
    task_id: Type.String({ pattern: "^(task|batch|thumb)_[A-Za-z0-9]+$", maxLength: 64 }),
    delivery_id: Type.String({ pattern: "^whd_[A-Za-z0-9]+$", maxLength: 64 }),
  },
  { required: ["task_id", "delivery_id"] },
);

export const TaskRecord = Type.Object(
  {
    task_id: Type.String(),
    operation: Type.String(),
    status: StringEnum(TASK_STATES),
    created_at: Type.String(),
    started_at: Type.Union([Type.String(), Type.Null()]),
    completed_at: Type.Union([Type.String(), Type.Null()]),
    credits_used: Type.Integer(),
    progress: Type.Union([Type.Object({ done: Type.Integer(), total: Type.Integer() }), Type.Null()]),
    queue_position: Type.Optional(Type.Integer({ description: "while pending: tasks ahead of this one" })),
    result: Type.Optional(Type.Any({ description: "the same object the synchronous call returns" })),
    error: Type.Optional(Type.Object({ error: Type.String(), detail: Type.String() })),
  },
  { title: "TaskRecord" },
);

export const DeliveryLog = Type.Object(
  {
    task_id: Type.String(),
    deliveries: Type.Array(
      Type.Object({
        id: Type.String(),
        status: StringEnum(DELIVERY_STATES),
        status_code: Type.Union([Type.Integer(), Type.Null()]),
        attempts: Type.Integer(),
        created_at: Type.String(),
        delivered_at: Type.Union([Type.String(), Type.Null()]),
      }),
    ),
  },
  { title: "DeliveryLog" },
);
