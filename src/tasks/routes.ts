import type { Route } from "../app/route";
import { notBuiltYet } from "../app/route";
import { BatchParams, DeliveryLog, DeliveryParams, TaskParams, TaskRecord } from "./schema";

const tag = "Jobs";

export const taskRoutes: Route[] = [
  {
    op: {
      method: "GET",
      path: "/api/v1/jobs/:task_id",
      tag,
      summary: "Poll an async task",
      description: "Status, timestamps, credits, progress and queue position; `result` when completed, `error` when failed. A key sees only its own tasks.",
      params: TaskParams,
      responses: { 200: { description: "Task record", schema: TaskRecord }, 404: "Task not found", 501: "Not available in this version yet" },
    },
    handler: () => notBuiltYet("GET /api/v1/jobs/{task_id}"),
  },
  {
    op: {
      method: "DELETE",
      path: "/api/v1/jobs/:task_id",
      tag,
      summary: "Cancel a pending or running task",
      description: "Moves the task to cancelled; nothing is charged for cancelled work.",
      params: TaskParams,
      responses: { 200: { description: "Task record", schema: TaskRecord }, 404: "Task not found", 409: "Task already ended", 501: "Not available in this version yet" },
    },
    handler: () => notBuiltYet("DELETE /api/v1/jobs/{task_id}"),
  },
  {
    op: {
      method: "GET",
      path: "/api/v1/jobs/batch/:batch_id",
      tag,
      summary: "Poll a batch",
      description: "Status, counts by state, and per item its filename or URL, status, result or error.",
      params: BatchParams,
      responses: { 200: "Batch record", 404: "Batch not found", 501: "Not available in this version yet" },
    },
    handler: () => notBuiltYet("GET /api/v1/jobs/batch/{batch_id}"),
  },
  {
    op: {
      method: "GET",
      path: "/api/v1/jobs/:task_id/deliveries",
      tag,
      summary: "Webhook delivery log of a task",
      description: "Every delivery with its status (pending, delivered, failed, dead), last status code, attempts and timestamps.",
      params: TaskParams,
      responses: { 200: { description: "Delivery log", schema: DeliveryLog }, 404: "Task not found", 501: "Not available in this version yet" },
    },
    handler: () => notBuiltYet("GET /api/v1/jobs/{task_id}/deliveries"),
  },
  {
    op: {
      method: "POST",
      path: "/api/v1/jobs/:task_id/deliveries/:delivery_id/retry",
      tag,
      summary: "Re-deliver a webhook now",
      description: "Beyond the spec: sends the same delivery (same X-SVC-Delivery-ID) again at once.",
      params: DeliveryParams,
      responses: { 200: "Delivery record after the attempt", 404: "Task or delivery not found", 501: "Not available in this version yet" },
    },
    handler: () => notBuiltYet("POST /api/v1/jobs/{task_id}/deliveries/{delivery_id}/retry"),
  },
];
