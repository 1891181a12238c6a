import type { Route } from "../http/route";
import type { HandlerInput } from "../http/operation";
import { AppError } from "../errors";
import type { StoreBackend } from "../store/backend";
import type { WebhookDispatcher } from "../webhooks/dispatcher";
import type { AsyncAccepted, BatchAccepted, TaskEngine, TaskRequest } from "./engine";
import { batchRecord, deliveryRecord, taskRecord } from "./records";
import { BatchParams, BatchRecord, DeliveryLog, DeliveryParams, DeliveryRecord, TaskParams, TaskRecord } from "./schema";

const tag = "Jobs";

/** EngineDeps: what a route needs to run an operation of the table (runNowOrAccept, acceptTask, acceptBatch). */
export interface EngineDeps {
  tasks: TaskEngine;
}

/** TaskRouteDeps: what the /api/v1/jobs routes use of the services. */
export interface TaskRouteDeps extends EngineDeps {
  backend: Pick<StoreBackend, "tasks">;
  webhooks: Pick<WebhookDispatcher, "deliveriesOf" | "retryNow">;
}

/** RunOrAccept: the finished work's result, or (sync=false) the acceptance record the route answers with 202. */
export type RunOrAccept<R> = { accepted: true; body: AsyncAccepted } | { accepted: false; body: R };

/**
 * runNowOrAccept is a route's one way to run an operation of the table: with sync=false a task (202
 * and its acceptance record), else now under the ledger; the same kind.run either way (tasks/engine.ts).
 */
export async function runNowOrAccept<R = unknown>(call: HandlerInput<EngineDeps>, operation: string, input: object): Promise<RunOrAccept<R>> {
  const { body, services, ctx, request } = call;
  if (body.sync === false) {
    const accepted = await acceptTask(call, { operation, input: { ...input }, webhookUrl: body.webhook_url as string | undefined });
    return { accepted: true, body: accepted };
  }
  const { result } = await services.tasks.runNow<R>(ctx.key!, operation, input, ctx.id, request.signal);
  return { accepted: false, body: result };
}

/** acceptTask accepts one task for the calling key and sets the answer's status to 202. */
export async function acceptTask(call: HandlerInput<EngineDeps>, request: TaskRequest): Promise<AsyncAccepted> {
  const accepted = await call.services.tasks.accept(call.ctx.key!, request);
  call.set.status = 202;
  return accepted;
}

/**
 * acceptBatch accepts a batch of tasks of one operation for the calling key, one per input (the
 * request's webhook_url receives the batch record), and sets the answer's status to 202.
 */
export async function acceptBatch(call: HandlerInput<EngineDeps>, operation: string, inputs: object[]): Promise<BatchAccepted> {
  const items = inputs.map((input) => ({ input: { ...input } }));
  const accepted = await call.services.tasks.acceptBatch(call.ctx.key!, operation, items, call.body.webhook_url as string | undefined);
  call.set.status = 202;
  return accepted;
}

/** ownedTaskOrBatch finds a task or batch of the key; anything else, another key's included, is 404. */
async function ownedTaskOrBatch(services: TaskRouteDeps, id: string, keyId: string): Promise<void> {
  const q = services.backend.tasks;
  const found = id.startsWith("batch_") ? await q.getBatchOwned(id, keyId) : await q.getOwned(id, keyId);
  if (!found || ("operation" in found && !id.startsWith("batch_") && services.tasks.kindOf(found.operation)?.ownRoutes)) throw new AppError("not_found", `No task or batch ${id} for this API key.`);
}

/** ownedTask finds a task of the key; tasks of kinds with their own endpoints (thumbnail jobs) are not shown here. */
async function ownedTask(services: TaskRouteDeps, id: string, keyId: string) {
  const row = await services.backend.tasks.getOwned(id, keyId);
  if (!row || services.tasks.kindOf(row.operation)?.ownRoutes) throw new AppError("not_found", `No task ${id} for this API key; tasks are visible only to the key that created them.`);
  return row;
}

const deliveriesOf = async (services: TaskRouteDeps, id: string) => ({ task_id: id, deliveries: (await services.webhooks.deliveriesOf(id)).map(deliveryRecord) });

export const taskRoutes: Route<TaskRouteDeps>[] = [
  {
    op: {
      method: "GET",
      path: "/api/v1/jobs/:task_id",
      tag,
      summary: "Poll an async task",
      description:
        "Status (pending, processing, completed, failed, cancelled), timestamps (ISO 8601 UTC), credits, progress and, while pending, `queue_position` (tasks ahead of this one). `result` when completed (the same object the synchronous call returns), `error` ({error, detail}) when failed. A key sees only its own tasks.",
      params: TaskParams,
      responses: { 200: { description: "Task record", schema: TaskRecord }, 404: "Task not found" },
    },
    handler: async ({ params, services, ctx }) => taskRecord(await ownedTask(services, params.task_id as string, ctx.key!.id), services.backend.tasks),
  },
  {
    op: {
      method: "DELETE",
      path: "/api/v1/jobs/:task_id",
      tag,
      summary: "Cancel a pending or running task",
      description: "Moves the task to cancelled; a running task is stopped. Nothing is charged for cancelled work and no webhook is sent for it.",
      params: TaskParams,
      responses: { 200: { description: "Task record", schema: TaskRecord }, 404: "Task not found", 409: "Task already ended" },
    },
    handler: async ({ params, services, ctx }) => {
      const row = await ownedTask(services, params.task_id as string, ctx.key!.id);
      const tasks = services.backend.tasks;
      if (!(await services.tasks.cancel(row.id))) {
        const now = (await tasks.get(row.id)) ?? row;
        throw new AppError("conflict", `Task ${row.id} has already ended (${now.status}); only pending or processing tasks can be cancelled.`);
      }
      return taskRecord((await tasks.get(row.id))!, tasks);
    },
  },
  {
    op: {
      method: "GET",
      path: "/api/v1/jobs/batch/:batch_id",
      tag,
      summary: "Poll a batch",
      description:
        "Status (pending, processing, then completed when every item has ended and at least one completed, failed when all failed, cancelled when all were cancelled), counts by state, credits (the sum of the items) and per item its index, task_id, filename or URL (`source`), status, and result or error.",
      params: BatchParams,
      responses: { 200: { description: "Batch record", schema: BatchRecord }, 404: "Batch not found" },
    },
    handler: async ({ params, services, ctx }) => {
      const batch = await services.backend.tasks.getBatchOwned(params.batch_id as string, ctx.key!.id);
      if (!batch) throw new AppError("not_found", `No batch ${params.batch_id} for this API key.`);
      return batchRecord(batch, services.backend.tasks);
    },
  },
  {
    op: {
      method: "GET",
      path: "/api/v1/jobs/:task_id/deliveries",
      tag,
      summary: "Webhook delivery log of a task",
      description:
        "Every delivery with its status (pending, delivered, failed, dead), the status code of its last attempt, `attempts` (HTTP requests made, at most 10: 3 inline and 7 scheduled) and timestamps; beyond the spec, `next_attempt_at`, `last_error` and `url`. A batch's log is at /api/v1/jobs/batch/{batch_id}/deliveries.",
      params: TaskParams,
      responses: { 200: { description: "Delivery log", schema: DeliveryLog }, 404: "Task not found" },
    },
    handler: async ({ params, services, ctx }) => deliveriesOf(services, (await ownedTask(services, params.task_id as string, ctx.key!.id)).id),
  },
  {
    op: {
      method: "GET",
      path: "/api/v1/jobs/batch/:batch_id/deliveries",
      tag,
      summary: "Webhook delivery log of a batch",
      description: "Beyond the spec: the log of the batch-completed webhook, in the shape of the task delivery log (`task_id` holds the batch id).",
      params: BatchParams,
      responses: { 200: { description: "Delivery log", schema: DeliveryLog }, 404: "Batch not found" },
    },
    handler: async ({ params, services, ctx }) => {
      await ownedTaskOrBatch(services, params.batch_id as string, ctx.key!.id);
      return deliveriesOf(services, params.batch_id as string);
    },
  },
  {
    op: {
      method: "POST",
      path: "/api/v1/jobs/:task_id/deliveries/:delivery_id/retry",
      tag,
      summary: "Re-deliver a webhook now",
      description:
        "Beyond the spec: sends the same delivery (same body, same X-SVC-Delivery-ID) once more at once and answers with its record after that request; works for delivered and dead deliveries too. A batch's delivery is addressed with its batch id in place of task_id.",
      params: DeliveryParams,
      responses: { 200: { description: "Delivery record after the attempt", schema: DeliveryRecord }, 404: "Task or delivery not found" },
    },
    handler: async ({ params, services, ctx }) => {
      const owner = params.task_id as string;
      await ownedTaskOrBatch(services, owner, ctx.key!.id);
      const delivery = (await services.webhooks.deliveriesOf(owner)).find((d) => d.id === params.delivery_id);
      if (!delivery) throw new AppError("not_found", `No webhook delivery ${params.delivery_id} for ${owner}.`);
      return deliveryRecord(await services.webhooks.retryNow(delivery.id));
    },
  },
];
