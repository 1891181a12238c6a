/**
 * Acceptance of async work: the task (or batch of tasks) is in SQLite, its files are on disk and its
 * minimum cost is held BEFORE the route answers 202, so nothing accepted is lost by a crash.
 *
 * A route whose work is a registered task kind runs it with:
 *
 *   return (await runNowOrAccept(call, "analyze", { file, url, urlHeaders, schema })).body;
 *
 * which answers `sync=false` with 202 and the acceptance record (acceptTask), and otherwise runs the
 * kind's own `run` at once under `metered`: the sync call and the task do the same work by construction.
 *
 * Credits: the kind's minimumCost is held at acceptance (so a key without credits gets 402 at once,
 * not a failed task later); the hold is kept with the task for as long as it waits or runs, across
 * restarts, and is settled to the real cost in the transaction that completes the task, or released
 * when it fails or is cancelled. A batch holds the minimum of every item; its cost is the sum of its
 * items' costs.
 */
import { randomBytes } from "node:crypto";
import type { RequestContext } from "../app/context";
import type { Services } from "../app/services";
import type { HandlerInput } from "../app/operation";
import { metered } from "../credits/meter";
import { AppError } from "../errors";
import { hasFilesOnDisk, inputDirOf, removeInput, storeInput } from "./files";
import { taskKindOf } from "./kinds";
import { taskQueries } from "./queries";

/**
 * TASK_HOLD_TTL_MS: how long a task's hold reserves credits. Longer than any queue wait we expect; if
 * it runs out first, settling checks the balance again (the hold just stops reserving).
 */
export const TASK_HOLD_TTL_MS = 24 * 60 * 60 * 1000;

export interface TaskRequest {
  /** operation: a kind registered with registerTaskKind */
  operation: string;
  /** input: what the kind's `run` receives; JSON values plus top-level File / File[] values */
  input: Record<string, unknown>;
  /** webhookUrl: receives the signed task record when the task ends (already checked by checkWebhookUrl) */
  webhookUrl?: string;
  /** source: the document's filename or URL, for listings; default: the input's file name or url */
  source?: string;
  /** id: the task's id when the feature names it (thumb_...); default task_<random> */
  id?: string;
  /** alongside writes the feature's own record of the task, in the acceptance transaction */
  alongside?: (taskId: string) => void;
}

export interface AsyncAccepted {
  task_id: string;
  status: "pending";
  poll_url: string;
}

export interface BatchAccepted {
  batch_id: string;
  status: "pending";
  item_count: number;
  poll_url: string;
}

/** PENDING_CAP_RETRY_AFTER_S: the Retry-After of work refused by the per-key cap (tasks take seconds) */
const PENDING_CAP_RETRY_AFTER_S = 10;

const newId = (prefix: string) => `${prefix}_${randomBytes(10).toString("hex")}`;

function sourceOf(input: Record<string, unknown>): string | null {
  if (input.file instanceof File) return input.file.name || "upload";
  if (typeof input.url === "string") return input.url;
  return null;
}

function kindOf(operation: string) {
  const kind = taskKindOf(operation);
  if (!kind) throw new Error(`no task kind '${operation}' is registered (registerTaskKind)`);
  return kind;
}

/** RunOrAccept: the finished work's result, or (sync=false) the acceptance record the route answers with 202. */
export type RunOrAccept<R> = { accepted: true; body: AsyncAccepted } | { accepted: false; body: R };

/** runNowOrAccept is a route's one way to run registered work: a task with sync=false, else now, metered (see the header). */
export async function runNowOrAccept<R = unknown>(call: HandlerInput, operation: string, input: object): Promise<RunOrAccept<R>> {
  const { body, services, ctx, request, set } = call;
  if (body.sync === false) {
    set.status = 202;
    const accepted = await acceptTask(services, ctx, { operation, input: { ...input }, webhookUrl: body.webhook_url as string | undefined });
    return { accepted: true, body: accepted };
  }
  const kind = kindOf(operation);
  const { result } = await metered(services.ledger, ctx.key!, operation, kind.minimumCost, ctx.id, () => kind.run(input, services, request.signal, () => {}, { id: ctx.id }));
  return { accepted: false, body: result as R };
}

/** acceptTask persists one task and returns the spec's acceptance record (answer it with 202). */
export async function acceptTask(services: Services, ctx: RequestContext, request: TaskRequest): Promise<AsyncAccepted> {
  const [id] = await acceptMany(services, ctx, [request], null);
  return { task_id: id!, status: "pending", poll_url: `/api/v1/jobs/${id}` };
}

/**
 * acceptBatch persists a batch of tasks of one operation (one request per item) and returns its
 * acceptance record; `webhookUrl` is called once, when every item has ended.
 */
export async function acceptBatch(services: Services, ctx: RequestContext, operation: string, items: Omit<TaskRequest, "operation" | "webhookUrl">[], webhookUrl?: string): Promise<BatchAccepted> {
  const batchId = newId("batch");
  await acceptMany(
    services,
    ctx,
    items.map((item) => ({ ...item, operation })),
    { id: batchId, operation, webhookUrl: webhookUrl ?? null },
  );
  return { batch_id: batchId, status: "pending", item_count: items.length, poll_url: `/api/v1/jobs/batch/${batchId}` };
}

async function acceptMany(services: Services, ctx: RequestContext, requests: TaskRequest[], batch: { id: string; operation: string; webhookUrl: string | null } | null): Promise<string[]> {
  const account = ctx.key!;
  const q = taskQueries(services.store);
  const createdAt = new Date().toISOString();
  const prepared: { request: TaskRequest; id: string; input: string; minimumCost: number }[] = [];
  try {
    for (const request of requests) {
      const id = request.id ?? newId("task");
      prepared.push({ request, id, input: await storeInput(request.input, inputDirOf(services.config.dataDir, id)), minimumCost: kindOf(request.operation).minimumCost });
    }
    // one commit: the holds and the rows are written together, or nothing is (a 402 rolls all back)
    services.store.immediate(() => {
      checkPendingCap(q, account.id, prepared.length, services.config.tasks.maxPendingPerKey);
      if (batch) q.insertBatch({ id: batch.id, key_id: account.id, operation: batch.operation, webhook_url: batch.webhookUrl, item_count: prepared.length, created_at: createdAt });
      for (const [index, { request, id, input, minimumCost }] of prepared.entries()) {
        const hold = minimumCost > 0 ? services.ledger.holdNow(account, minimumCost, TASK_HOLD_TTL_MS) : null;
        q.insertTask({
          id,
          key_id: account.id,
          operation: request.operation,
          input,
          webhook_url: batch ? null : (request.webhookUrl ?? null),
          batch_id: batch?.id ?? null,
          batch_index: batch ? index : null,
          hold_id: hold?.id ?? null,
          hold_amount: hold?.amount ?? 0,
          source: request.source ?? sourceOf(request.input),
          created_at: createdAt,
        });
        request.alongside?.(id);
      }
    });
  } catch (error) {
    // nothing was accepted: the transaction rolled back; what was written to disk goes too
    for (const { id, input } of prepared) if (hasFilesOnDisk(input)) removeInput(inputDirOf(services.config.dataDir, id));
    if (error instanceof AppError && error.code === "insufficient_credits" && requests.length > 1)
      throw new AppError("insufficient_credits", `${error.detail} A batch holds the minimum cost of every item (${requests.length} items) when it is accepted.`);
    throw error;
  }
  services.tasks.wake();
  return prepared.map((p) => p.id);
}

/** checkPendingCap refuses work past the key's cap on tasks waiting or running (--max-pending-tasks): 429. */
function checkPendingCap(q: ReturnType<typeof taskQueries>, keyId: string, adding: number, cap: number): void {
  const unfinished = q.unfinishedOfKey(keyId);
  if (unfinished + adding <= cap) return;
  throw new AppError(
    "rate_limited",
    `this API key has ${unfinished} async tasks pending or running and may have at most ${cap} (the server's --max-pending-tasks); ${adding > 1 ? `this batch adds ${adding}; ` : ""}wait for some to end, then submit again`,
    { headers: { "Retry-After": String(PENDING_CAP_RETRY_AFTER_S) } },
  );
}
