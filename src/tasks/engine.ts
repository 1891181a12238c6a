/**
 * TaskEngine is the one way work is billed and run, sync or async:
 *
 *   runNow(account, op, input)   hold op's minimum -> kind.run -> settle to its cost | release on failure
 *   accept(account, request)     hold + task row + stored input in one commit -> 202; the runner runs
 *                                kind.run later (leases, crash recovery) and ends the task, its charge
 *                                or release, its webhook and its feature's record in one transaction
 *
 * Routes decide sync or async and answer HTTP (tasks/routes.ts runNowOrAccept); nothing here knows
 * HTTP. The kinds come from the one table, src/operations.ts, handed in by the composition root.
 *
 * Credits: the kind's minimumCost is held at acceptance (so a key without credits gets 402 at once,
 * not a failed task later); the hold is kept with the task for as long as it waits or runs, across
 * restarts, and is settled to the real cost in the transaction that completes the task, or released
 * when it fails or is cancelled. A batch holds the minimum of every item; its cost is the sum of its
 * items' costs. A key may have at most `maxPendingPerKey` tasks waiting or running (429 past it).
 * The cap and the balance are checked by the store in the commit that writes the tasks
 * (TaskStore.accept), so both are exact however many machines accept for one key at once.
 */
import { randomBytes } from "node:crypto";
import { isUploadedFile } from "../ingest/upload";
import { insufficient, newHoldId, type Account } from "../credits/ledger";
import { metered } from "../credits/meter";
import { AppError } from "../errors";
import type { AcceptOutcome, Acceptance, NewTask, StoreTx } from "../store/backend";
import { hasStoredFiles, removeInput, storeInput } from "./files";
import { OPERATION_NAME, type TaskIdentity, type TaskKind, type TaskKinds, type TaskOutcome } from "./kinds";
import { TaskRunner, type TaskRunnerDeps, type TaskRunnerOptions } from "./runner";

/**
 * TASK_HOLD_TTL_MS: how long a task's hold reserves credits. Longer than any queue wait we expect; if
 * it runs out first, settling checks the balance again (the hold just stops reserving).
 */
export const TASK_HOLD_TTL_MS = 24 * 60 * 60 * 1000;

/** PENDING_CAP_RETRY_AFTER_S: the Retry-After of work refused by the per-key cap (tasks take seconds) */
const PENDING_CAP_RETRY_AFTER_S = 10;

export interface TaskRequest {
  /** operation: a kind of the operations table */
  operation: string;
  /** input: what the kind's `run` receives; JSON values plus top-level file values (UploadedFile, one or a list) */
  input: Record<string, unknown>;
  /** webhookUrl: receives the signed task record when the task ends (already checked by checkWebhookUrl) */
  webhookUrl?: string;
  /** source: the document's filename or URL, for listings; default: the input's file name or url */
  source?: string;
  /** id: the task's id when the feature names it (thumb_...); default task_<random> */
  id?: string;
  /** alongside writes the feature's own record of the task through `tx`, in the acceptance transaction */
  alongside?: (tx: StoreTx, taskId: string) => Promise<void>;
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

export interface TaskEngineOptions extends TaskRunnerOptions {
  /** maxPendingPerKey: tasks one key may have pending or running at once (--max-pending-tasks) */
  maxPendingPerKey: number;
}

const newId = (prefix: string) => `${prefix}_${randomBytes(10).toString("hex")}`;

function sourceOf(input: Record<string, unknown>): string | null {
  if (isUploadedFile(input.file)) return input.file.name || "upload";
  if (typeof input.url === "string") return input.url;
  return null;
}

export class TaskEngine {
  private readonly runner: TaskRunner;

  /**
   * @param kinds the operations table (OPERATIONS)
   * @param kindDeps what the kinds' run and ended receive; each kind declares the part it reads
   */
  constructor(
    private readonly deps: TaskRunnerDeps,
    private readonly kinds: TaskKinds,
    private readonly kindDeps: unknown,
    private readonly o: TaskEngineOptions,
  ) {
    for (const name of Object.keys(kinds)) if (!OPERATION_NAME.test(name)) throw new Error(`operation '${name}': use lowercase letters, digits, '_', '-' or '.' (it is stored in tasks.operation)`);
    this.runner = new TaskRunner(deps, kinds, kindDeps, o);
  }

  /** kindOf: the kind of an operation; undefined for a name the table does not hold */
  kindOf(operation: string): TaskKind | undefined {
    return Object.hasOwn(this.kinds, operation) ? this.kinds[operation] : undefined;
  }

  /**
   * runNow runs an operation at once under the ledger (the sync call): the same `run` a task runs.
   * `identity` is what `run` sees as its task; default the request id (a thumbnail job passes its own id).
   */
  async runNow<R>(account: Account, operation: string, input: object, requestId: string, signal: AbortSignal, identity: TaskIdentity = { id: requestId }): Promise<{ result: R; creditsUsed: number }> {
    const kind = this.requireKind(operation);
    return metered(this.deps.ledger, account, operation, kind.minimumCost, requestId, () => kind.run(input, this.kindDeps, signal, () => {}, identity) as Promise<TaskOutcome<R>>);
  }

  /** accept persists one task and returns the spec's acceptance record (answer it with 202). */
  async accept(account: Account, request: TaskRequest): Promise<AsyncAccepted> {
    const [id] = await this.acceptMany(account, [request], null);
    return { task_id: id!, status: "pending", poll_url: `/api/v1/jobs/${id}` };
  }

  /**
   * acceptBatch persists a batch of tasks of one operation (one request per item) and returns its
   * acceptance record; `webhookUrl` is called once, when every item has ended.
   */
  async acceptBatch(account: Account, operation: string, items: Omit<TaskRequest, "operation" | "webhookUrl">[], webhookUrl?: string): Promise<BatchAccepted> {
    const batchId = newId("batch");
    await this.acceptMany(
      account,
      items.map((item) => ({ ...item, operation })),
      { id: batchId, operation, webhookUrl: webhookUrl ?? null },
    );
    return { batch_id: batchId, status: "pending", item_count: items.length, poll_url: `/api/v1/jobs/batch/${batchId}` };
  }

  /** start, stop, wake, cancel, forget: the runner's (see runner.ts) */
  start(): void {
    this.runner.start();
  }
  stop(graceMs?: number): Promise<void> {
    return this.runner.stop(graceMs);
  }
  wake(): void {
    this.runner.wake();
  }
  cancel(taskId: string): Promise<boolean> {
    return this.runner.cancel(taskId);
  }
  forget(taskId: string): Promise<void> {
    return this.runner.forget(taskId);
  }
  get runningCount(): number {
    return this.runner.runningCount;
  }

  private requireKind(operation: string): TaskKind {
    const kind = this.kindOf(operation);
    if (!kind) throw new Error(`no operation '${operation}' in the operations table (src/operations.ts)`);
    return kind;
  }

  private async acceptMany(account: Account, requests: TaskRequest[], batch: { id: string; operation: string; webhookUrl: string | null } | null): Promise<string[]> {
    const now = new Date();
    const createdAt = now.toISOString();
    const blobs = this.deps.backend.blobs;
    const prepared: { request: TaskRequest; task: NewTask }[] = [];
    try {
      for (const [index, request] of requests.entries()) {
        const id = request.id ?? newId("task");
        const minimumCost = this.requireKind(request.operation).minimumCost;
        // the row is complete before anything is written (a file above the inline size is a blob by now)
        const input = await storeInput(request.input, blobs, id);
        prepared.push({
          request,
          task: {
            id,
            key_id: account.id,
            operation: request.operation,
            input,
            webhook_url: batch ? null : (request.webhookUrl ?? null),
            batch_id: batch?.id ?? null,
            batch_index: batch ? index : null,
            hold_id: minimumCost > 0 ? newHoldId() : null,
            hold_amount: minimumCost,
            source: request.source ?? sourceOf(request.input),
            created_at: createdAt,
          },
        });
      }
      const acceptance: Acceptance = {
        cap: this.deps.ledger.capOf(account, now),
        maxPending: this.o.maxPendingPerKey,
        holdExpiresAt: now.getTime() + TASK_HOLD_TTL_MS,
        createdAt,
        batch: batch && { id: batch.id, key_id: account.id, operation: batch.operation, webhook_url: batch.webhookUrl, item_count: prepared.length, created_at: createdAt },
        tasks: prepared.map((p) => p.task),
      };
      // one commit: the cap, the holds and the rows are checked and written together, or nothing is
      // (a 402 or 429 writes nothing). Without a feature record alongside it is one store call (on
      // PostgreSQL one round trip); with one, the record joins it in a transaction.
      const write = async (tx: StoreTx) => {
        const outcome = await tx.tasks.accept(acceptance);
        if (!outcome.ok) throw this.refusal(account, acceptance, outcome);
        for (const { request, task } of prepared) await request.alongside?.(tx, task.id);
      };
      if (prepared.some((p) => p.request.alongside)) await this.deps.backend.transaction(write);
      else await write(this.deps.backend);
    } catch (error) {
      // nothing was accepted: the transaction rolled back; what was stored as blobs goes too
      for (const { task } of prepared) if (hasStoredFiles(task.input)) await removeInput(blobs, task.id).catch(() => undefined);
      throw error;
    }
    this.runner.wake();
    return prepared.map((p) => p.task.id);
  }

  /**
   * refusal: the error of an acceptance the store refused. Past the key's cap on tasks waiting or
   * running (--max-pending-tasks): 429; a balance that cannot cover the holds: 402. Both are exact
   * across processes and machines (the store counts under the key's lock).
   */
  private refusal(account: Account, a: Acceptance, outcome: Exclude<AcceptOutcome, { ok: true }>): AppError {
    const adding = a.tasks.length;
    if (outcome.refused === "credits") {
      const error = insufficient(account, a.tasks[outcome.item]!.hold_amount, outcome.remaining, a.cap.period);
      if (adding === 1) return error;
      return new AppError("insufficient_credits", `${error.detail} A batch holds the minimum cost of every item (${adding} items) when it is accepted.`);
    }
    const cap = a.maxPending;
    return new AppError(
      "rate_limited",
      `this API key has ${outcome.unfinished} async tasks pending or running and may have at most ${cap} (the server's --max-pending-tasks); ${adding > 1 ? `this batch adds ${adding}; ` : ""}wait for some to end, then submit again`,
      { headers: { "Retry-After": String(PENDING_CAP_RETRY_AFTER_S) } },
    );
  }
}
