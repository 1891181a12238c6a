/**
 * TaskRunner runs accepted tasks in the background, at most `concurrency` at once, under a lease.
 *
 *   pending --claim (lease: owner + expiry)--> processing --run--> completed | failed
 *      ^                                        |  heartbeat renews the lease every leaseMs/3
 *      '-- lease expired (the process died) ----'  DELETE: cancelled (the signal aborts)
 *   key revoked: pending -> failed (key_revoked, never started, hold released) at the next look at
 *                the store; processing -> aborted at the next heartbeat -> failed (key_revoked)
 *
 * An ended task keeps no input: the row's input (inline files, url_headers) is emptied by the
 * statement that ends it, and its input blobs are removed. Its row (its result) is deleted
 * `retentionMs` after it ended (a batch's items with the batch), by a sweep at start and every hour.
 *
 * Nothing that decides what runs next lives in memory: a task's state, input, lease, credit hold and
 * webhook are rows of the store backend (SQLite, or PostgreSQL shared by several machines); claims
 * go through backend.tasks.claimNext (FOR UPDATE SKIP LOCKED on PostgreSQL). The running map of this
 * process only says what to abort here. A process that is killed leaves `processing` rows whose lease runs out;
 * whichever process looks next (this one after a restart, or another on the same store, any machine) claims them
 * again, at most `maxAttempts` times in all (a task that kills its process every time fails instead of
 * looping). Ending a task is one transaction: the result or error, the credit charge or release, the
 * webhook delivery (an outbox row) and the batch's end, so a crash never charges twice or loses a
 * webhook. Every write that ends a running task names the lease owner: a worker that lost its lease
 * cannot overwrite the task (its charge rolls back with it).
 */
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { Logger } from "../runtime/log";
import { AppError } from "../errors";
import type { Hold, Ledger } from "../credits/ledger";
import type { FinishOutcome, NewDelivery, StoreBackend, StoreTx, TaskRow } from "../store/backend";
import { ENDED_TASK_STATES } from "../store/states";
import type { WebhookDispatcher } from "../webhooks/dispatcher";
import { coalesced, singleFlight } from "../runtime/coalesce";
import { hasStoredFiles, loadInput, removeInput, sweepInputs } from "./files";
import type { TaskKinds, TaskOutcome } from "./kinds";
import { batchRecord, taskWebhookBody, type TaskError } from "./records";

/** TaskRunnerDeps: what the runner itself uses (the kinds get their own dependencies, see TaskKind) */
export interface TaskRunnerDeps {
  backend: StoreBackend;
  ledger: Ledger;
  webhooks: Pick<WebhookDispatcher, "enqueue" | "delivery" | "written" | "wake">;
  logger: Logger;
}

export interface TaskRunnerOptions {
  /** concurrency: tasks running at once in this process */
  concurrency: number;
  /** leaseMs: how long a claim holds without a heartbeat; a dead worker's task is picked up after it */
  leaseMs: number;
  /** perBatch: items of one batch running at once (in this process and others); default 4 */
  perBatch?: number;
  /** pollMs: how often the store is looked at without a wake-up (expired leases, other processes); default 1 s */
  pollMs?: number;
  /** maxAttempts: claims of one task before it fails as lost (its worker kept dying); default 3 */
  maxAttempts?: number;
  /** retentionMs: how long an ended task (its result) is kept; default TASK_RETENTION_MS */
  retentionMs?: number;
}

/** TASK_RETENTION_MS: an ended task and its result are deleted this long after it ended (thumbnail jobs too) */
export const TASK_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
/** RETENTION_SWEEP_MS: how often ended tasks past their retention are looked for */
const RETENTION_SWEEP_MS = 60 * 60 * 1000;

type AbortReason = "cancelled" | "shutdown" | "lease_lost" | "revoked";
type Ending = { kind: "completed"; result: unknown; credits: number } | { kind: "failed"; error: TaskError };

/** PROGRESS_WRITE_MS: a running task writes its progress at most this often (each write is a commit) */
const PROGRESS_WRITE_MS = 1_000;

const REVOKED_BEFORE_START: TaskError = { error: "key_revoked", detail: "the API key that created this task was revoked before the task started; it was not run and nothing was charged" };
const REVOKED_WHILE_RUNNING: TaskError = { error: "key_revoked", detail: "the API key that created this task was revoked while the task ran; it was stopped and nothing was charged" };

/** LeaseLost rolls back an ending whose task is no longer ours. */
class LeaseLost extends Error {}

export class TaskRunner {
  /** owner names this process in lease_owner (host, pid and a random part, unique per start) */
  readonly owner = `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
  private readonly running = new Map<string, { controller: AbortController; done: Promise<void>; keyId: string }>();
  /**
   * working: the running tasks whose work has not ended yet. A slot (`concurrency`) is the work's: it
   * is free again once the work has ended, while the ending is written (a round trip on PostgreSQL),
   * so the next claim overlaps that write. The task stays in `running` (its lease renewed, awaited by
   * stop) until its ending is written.
   */
  private readonly working = new Set<string>();
  private readonly perBatch: number;
  private readonly pollMs: number;
  private readonly maxAttempts: number;
  private active = false;
  /** revokedLookedAt: when fill last looked for the waiting tasks of revoked keys (unix ms) */
  private revokedLookedAt = 0;
  /** keysStampLooked: the keys' change stamp (backend.changeStamp) at that look */
  private keysStampLooked = "";
  private timers: ReturnType<typeof setInterval>[] = [];

  /**
   * @param kinds the operations this runner claims and runs (OPERATIONS, src/operations.ts)
   * @param kindDeps the dependencies handed to every kind's run and ended (each kind reads its part)
   */
  constructor(
    private readonly deps: TaskRunnerDeps,
    private readonly kinds: TaskKinds,
    private readonly kindDeps: unknown,
    private readonly o: TaskRunnerOptions,
  ) {
    this.perBatch = o.perBatch ?? 4;
    this.pollMs = o.pollMs ?? 1_000;
    this.maxAttempts = o.maxAttempts ?? 3;
  }

  private get tasks() {
    return this.deps.backend.tasks;
  }

  /** start resumes what the store holds (pending tasks, expired leases) and keeps looking. */
  start(): void {
    if (this.active) return;
    this.active = true;
    void this.tasks
      .unfinishedIds()
      .then((unfinished) => sweepInputs(this.deps.backend.blobs, unfinished, async (id) => {
        const row = await this.tasks.get(id);
        return row !== null && ENDED_TASK_STATES.includes(row.status);
      }))
      .catch((error) => this.deps.logger.error("-", "task input sweep failed", error));
    const poll = setInterval(() => this.fill(), this.pollMs);
    const heartbeat = setInterval(() => void this.heartbeat(), Math.max(100, Math.floor(this.o.leaseMs / 3)));
    const retention = setInterval(() => void this.sweepEnded(), RETENTION_SWEEP_MS);
    for (const t of [poll, heartbeat, retention]) t.unref?.();
    this.timers = [poll, heartbeat, retention];
    void this.sweepEnded();
    this.fill();
  }

  /** sweepEnded deletes the tasks and batches that ended more than retentionMs ago (and their finished deliveries). */
  private async sweepEnded(): Promise<void> {
    try {
      const swept = await this.tasks.removeEndedBefore(new Date(Date.now() - (this.o.retentionMs ?? TASK_RETENTION_MS)).toISOString());
      if (swept.tasks || swept.batches || swept.deliveries) this.deps.logger.info("ended tasks past their retention deleted", swept);
    } catch (error) {
      this.deps.logger.error("-", "task retention sweep failed", error);
    }
  }

  /** wake starts waiting tasks now (after an acceptance commits) instead of at the next poll. */
  wake(): void {
    if (this.active) this.fillSoon();
  }

  /** fillSoon: many wakes in one turn (acceptances, endings) make one look at the store */
  private readonly fillSoon = coalesced(() => this.fill());

  /** runningCount: tasks this process runs now */
  get runningCount(): number {
    return this.running.size;
  }

  /**
   * stop claims nothing more, lets running tasks finish for up to `graceMs`, then aborts the rest and
   * hands them back as pending, so the next start runs them at once (their credit hold stays).
   */
  async stop(graceMs = 10_000): Promise<void> {
    if (!this.active) return;
    this.active = false;
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    await this.fill.idle();
    const all = () => Promise.allSettled([...this.running.values()].map((r) => r.done));
    await Promise.race([all(), Bun.sleep(graceMs)]);
    if (this.running.size === 0) return;
    for (const r of this.running.values()) r.controller.abort("shutdown" satisfies AbortReason);
    await Promise.race([all(), Bun.sleep(5_000)]);
    // work that ignores its signal: hand the task back anyway; its late ending fails on the lease
    for (const id of this.running.keys()) await this.tasks.requeue(id, this.owner).catch(() => false);
  }

  /**
   * cancel moves a pending or running task to cancelled and releases its credit hold; a task running
   * here is aborted at once, one running elsewhere (another process or machine) at that process's
   * next heartbeat. False when the task had already ended.
   */
  async cancel(taskId: string): Promise<boolean> {
    const row = await this.tasks.get(taskId);
    if (!row) return false;
    const cancelled = await this.deps.backend.transaction(async (tx) => {
      if (!(await tx.tasks.cancel(taskId, new Date().toISOString()))) return false;
      await this.deps.ledger.settle(await this.holdOf(tx, row), 0, { operation: row.operation, requestId: row.id }, tx);
      await this.afterTaskEnded(tx, taskId);
      return true;
    });
    if (!cancelled) return false;
    this.deps.webhooks.wake();
    const local = this.running.get(taskId);
    if (local) local.controller.abort("cancelled" satisfies AbortReason);
    else if (hasStoredFiles(row.input)) await removeInput(this.deps.backend.blobs, taskId);
    return true;
  }

  /**
   * forget cancels a task that has not ended (its hold is released) and deletes its row: for a feature
   * that deletes its own record of the task (DELETE of a thumbnail job), and for retention.
   */
  async forget(taskId: string): Promise<void> {
    await this.cancel(taskId);
    await this.tasks.removeEnded(taskId);
  }

  /**
   * fill ends the waiting tasks of revoked keys, then claims waiting tasks while there is room; one
   * fill at a time (claims are awaited), and a wake during one makes it look once more.
   */
  private readonly fill = singleFlight(
    () => this.fillOnce(),
    (error) => this.deps.logger.error("-", "task runner could not claim work", error), // a busy store: the next poll tries again
  );

  private async fillOnce(): Promise<void> {
    if (!this.active) return;
    const operations = Object.keys(this.kinds);
    // The waiting tasks of revoked keys are looked for once a poll, and at a wake when the keys have
    // changed since the last look (the change stamp: on PostgreSQL a NOTIFY from any machine), not at
    // every wake: each acceptance and each ending wakes the runner, and a look is a round trip on
    // PostgreSQL. With every slot taken there is nothing to claim, so only the poll looks then.
    // A claimed task's key is checked by the claim itself (keyRevoked), so no revoked key's task starts.
    const full = this.working.size >= this.o.concurrency;
    const keysStamp = this.deps.backend.changeStamp("keys");
    const pollDue = Date.now() - this.revokedLookedAt >= this.pollMs;
    if (full && !pollDue) return;
    if (pollDue || keysStamp !== this.keysStampLooked) {
      this.revokedLookedAt = Date.now();
      this.keysStampLooked = keysStamp;
      await this.endRevoked();
    }
    while (this.active && this.working.size < this.o.concurrency) {
      const now = Date.now();
      const claimed = await this.tasks.claimNext({ operations, owner: this.owner, leaseUntil: now + this.o.leaseMs, nowMs: now, perBatch: this.perBatch, startedAt: new Date(now).toISOString() });
      if (!claimed) return;
      const { keyRevoked, ...row } = claimed;
      if (!this.active) {
        await this.tasks.requeue(row.id, this.owner); // stopped while claiming: hand it back
        return;
      }
      this.launch(row, keyRevoked);
      if (row.batch_id) await this.tasks.markBatchStarted(row.batch_id);
    }
  }

  private launch(row: TaskRow, keyRevoked: boolean): void {
    const controller = new AbortController();
    this.working.add(row.id);
    const done = this.execute(row, keyRevoked, controller).catch((error) => this.deps.logger.error(row.id, "task runner failed", error));
    this.running.set(row.id, { controller, done, keyId: row.key_id });
  }

  private async execute(row: TaskRow, keyRevoked: boolean, controller: AbortController): Promise<void> {
    const blobs = this.deps.backend.blobs;
    let ending: Ending | null = null;
    let reported: [number, number] | null = null;
    try {
      if (row.attempts > this.maxAttempts) {
        ending = { kind: "failed", error: { error: "internal_error", detail: `the worker running this task stopped ${row.attempts - 1} times (its process died); it is not tried again` } };
      } else if (keyRevoked) {
        ending = { kind: "failed", error: REVOKED_BEFORE_START }; // revoked before the claim, not yet swept
      } else {
        const kind = this.kinds[row.operation]!; // claimed only when known
        const input = await loadInput(row.input, blobs, row.id);
        // the first write a PROGRESS_WRITE_MS after the start: a short task's progress is written with its ending alone
        let written = Date.now();
        const progress = (done: number, total: number) => {
          reported = [Math.max(0, Math.floor(done)), Math.max(0, Math.floor(total))];
          // a write (a commit) at most every PROGRESS_WRITE_MS; the last report is written with the ending
          if (reported[0] >= reported[1] || Date.now() - written < PROGRESS_WRITE_MS) return;
          written = Date.now();
          // progress is bookkeeping; a busy store must not fail the task
          void this.tasks.setProgress(row.id, this.owner, reported[0], reported[1]).catch(() => false);
        };
        const outcome: TaskOutcome = await kind.run(input, this.kindDeps, controller.signal, progress, { id: row.id });
        controller.signal.throwIfAborted();
        ending = { kind: "completed", result: outcome.result, credits: Math.max(0, Math.round(outcome.credits)) };
      }
    } catch (error) {
      if (controller.signal.aborted) {
        if (controller.signal.reason === ("shutdown" satisfies AbortReason)) await this.tasks.requeue(row.id, this.owner);
        if (controller.signal.reason === ("revoked" satisfies AbortReason)) ending = { kind: "failed", error: REVOKED_WHILE_RUNNING };
      } else ending = { kind: "failed", error: this.errorOf(row, error) };
    }
    this.working.delete(row.id);
    this.wake(); // the slot is free: the next claim overlaps this task's ending
    try {
      if (ending) await this.end(row, ending, reported);
      if (hasStoredFiles(row.input)) {
        const after = await this.tasks.get(row.id);
        if (!after || ENDED_TASK_STATES.includes(after.status)) await removeInput(blobs, row.id); // no row: deleted by forget
      }
    } finally {
      this.working.delete(row.id);
      this.running.delete(row.id);
    }
  }

  /** end writes the task's ending in one transaction; nothing when the lease was lost meanwhile. */
  private async end(row: TaskRow, ending: Ending, progress: [number, number] | null): Promise<void> {
    const meta = { operation: row.operation, requestId: row.id };
    if (!this.kinds[row.operation]?.ended && !row.batch_id) {
      const { outcome, delivery } = await this.finish(row, ending, progress);
      if (outcome === "lease_lost") return;
      if (outcome === "ended") {
        if (!delivery) this.deps.webhooks.wake(); // written() woke it
        return;
      }
      // not_covered: the cost outgrew what the hold still reserves; the ledger checks the balance below
    }
    try {
      await this.deps.backend.transaction(async (tx) => {
        const hold = await this.holdOf(tx, row);
        let final = ending;
        if (final.kind === "completed") {
          try {
            await this.deps.ledger.settle(hold, final.credits, meta, tx);
          } catch (error) {
            if (!(error instanceof AppError)) throw error;
            final = { kind: "failed", error: { error: error.code, detail: error.detail } }; // e.g. 402 when the cost outgrew the hold
          }
        }
        if (final.kind === "failed") await this.deps.ledger.settle(hold, 0, meta, tx);
        const now = new Date().toISOString();
        if (progress) await tx.tasks.setProgress(row.id, this.owner, progress[0], progress[1]);
        const written =
          final.kind === "completed"
            ? await tx.tasks.complete(row.id, this.owner, JSON.stringify(final.result), final.credits, now)
            : await tx.tasks.fail(row.id, this.owner, JSON.stringify(final.error), now);
        if (!written) throw new LeaseLost();
        await this.afterTaskEnded(tx, row.id);
      });
    } catch (error) {
      if (error instanceof LeaseLost) return;
      throw error;
    }
    this.deps.webhooks.wake();
  }

  /**
   * finish: the common ending (no batch, no kind record, a charge the hold covers) as one store call,
   * TaskStore.finish (on PostgreSQL one round trip): the same writes as the transaction of `end`,
   * whose webhook body is built here from the row as the ending leaves it.
   */
  private async finish(row: TaskRow, ending: Ending, progress: [number, number] | null): Promise<{ outcome: FinishOutcome; delivery: NewDelivery | null }> {
    const completedAt = new Date().toISOString();
    const completed = ending.kind === "completed";
    const result = completed ? JSON.stringify(ending.result) : null;
    const error = completed ? null : JSON.stringify(ending.error);
    const credits = completed ? ending.credits : row.credits_used;
    const ended: TaskRow = { ...row, status: ending.kind, result: result ?? row.result, error: error ?? row.error, credits_used: credits, completed_at: completedAt };
    // reported: the dispatcher learns from written() whether the row was committed, and sends it from here
    const delivery = row.webhook_url ? this.deps.webhooks.delivery(row.id, row.key_id, row.webhook_url, taskWebhookBody(ended), true) : null;
    let outcome: FinishOutcome | null = null;
    try {
      outcome = await this.tasks.finish({
        id: row.id,
        owner: this.owner,
        status: ending.kind,
        result,
        error,
        credits,
        completedAt,
        progress,
        holdId: row.hold_id,
        charge: completed && ending.credits > 0 ? this.deps.ledger.chargeEntry(row.key_id, ending.credits, { operation: row.operation, requestId: row.id }) : null,
        delivery,
      });
    } finally {
      if (delivery) this.deps.webhooks.written(delivery, outcome === "ended");
    }
    return { outcome: outcome!, delivery };
  }

  /** afterTaskEnded (inside the ending transaction): the kind's record, the task's webhook and the end of its batch. */
  private async afterTaskEnded(tx: StoreTx, taskId: string): Promise<void> {
    const row = (await tx.tasks.get(taskId))!;
    const ended = this.kinds[row.operation]?.ended;
    const body = ended ? await ended(row, this.kindDeps, tx) : taskWebhookBody(row);
    if (row.webhook_url && row.status !== "cancelled") await this.deps.webhooks.enqueue(tx, row.id, row.key_id, row.webhook_url, body);
    if (row.batch_id) await this.endBatchIfDone(tx, row.batch_id);
  }

  private async endBatchIfDone(tx: StoreTx, batchId: string): Promise<void> {
    const counts = await tx.tasks.batchCounts(batchId);
    if (counts.pending + counts.processing > 0) return;
    const status = counts.completed > 0 ? "completed" : counts.failed > 0 ? "failed" : "cancelled";
    if (!(await tx.tasks.endBatch(batchId, status, counts.credits, new Date().toISOString()))) return;
    const batch = (await tx.tasks.getBatch(batchId))!;
    if (batch.webhook_url) await this.deps.webhooks.enqueue(tx, batch.id, batch.key_id, batch.webhook_url, await batchRecord(batch, tx.tasks));
  }

  /**
   * heartbeat renews the leases of running tasks; a task that is no longer ours (cancelled, taken
   * over) is aborted, and so is one whose key has been revoked (it then ends failed).
   */
  private async heartbeat(): Promise<void> {
    if (this.running.size === 0) return;
    const until = Date.now() + this.o.leaseMs;
    let revoked = new Set<string>();
    try {
      revoked = await this.tasks.revokedKeys([...new Set([...this.running.values()].map((r) => r.keyId))]);
    } catch (error) {
      this.deps.logger.error("-", "task runner could not look up revoked keys", error);
    }
    for (const [id, { controller, keyId }] of this.running) {
      // the lease is still renewed: this process writes the task's failure once its work has stopped
      if (revoked.has(keyId)) controller.abort("revoked" satisfies AbortReason);
      try {
        if (!(await this.tasks.renewLease(id, this.owner, until))) {
          const now = await this.tasks.get(id);
          controller.abort(now?.status === "cancelled" ? "cancelled" : ("lease_lost" satisfies AbortReason));
        }
      } catch (error) {
        this.deps.logger.error(id, "task lease renewal failed", error);
      }
    }
  }

  /**
   * endRevoked fails the tasks of revoked keys that no worker holds, without running them: each in
   * one transaction with the release of its credit hold, its webhook and its batch's end.
   */
  private async endRevoked(): Promise<void> {
    const now = Date.now();
    const rows = await this.tasks.unclaimedOfRevokedKeys(now);
    for (const row of rows) {
      const ended = await this.deps.backend.transaction(async (tx) => {
        if (!(await tx.tasks.failUnclaimed(row.id, JSON.stringify(REVOKED_BEFORE_START), new Date(now).toISOString(), now))) return false;
        await this.deps.ledger.settle(await this.holdOf(tx, row), 0, { operation: row.operation, requestId: row.id }, tx);
        await this.afterTaskEnded(tx, row.id);
        return true;
      });
      if (ended && hasStoredFiles(row.input)) await removeInput(this.deps.backend.blobs, row.id);
    }
    if (rows.length) this.deps.webhooks.wake();
  }

  /** holdOf rebuilds the task's credit hold from its row (the hold outlives the process that took it). */
  private async holdOf(tx: StoreTx, row: TaskRow): Promise<Hold> {
    return { id: row.hold_id ?? "", account: { id: row.key_id, plan: await tx.tasks.planOf(row.key_id) }, amount: row.hold_amount };
  }

  private errorOf(row: TaskRow, error: unknown): TaskError {
    if (error instanceof AppError) return { error: error.code, detail: error.detail };
    this.deps.logger.error(row.id, `task ${row.operation} failed`, error);
    return { error: "internal_error", detail: `An unexpected error occurred; quote task id ${row.id} when reporting it.` };
  }
}
