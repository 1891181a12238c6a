/**
 * Task leases on PostgreSQL: the statements of src/store/sqlite/tasks.ts that decide who runs a task.
 *
 * claimNext finds and takes a task in one statement. `FOR UPDATE SKIP LOCKED` makes claimers on
 * every machine pass over the rows another claimer is taking instead of queueing behind it, so N
 * machines claim N different tasks at once and none is claimed twice. A claim is a lease: the
 * owner renews it while it works; a task whose lease ran out (its machine died) is claimable again,
 * and every write that ends a running task names the owner (and empties the input, as on SQLite), so a worker that lost its lease (and
 * wakes up later) changes nothing.
 */
import type { AcceptOutcome, Acceptance, BatchRow, ClaimRequest, ClaimedTask, FinishOutcome, NewBatch, NewTask, TaskFinish, TaskRow, TaskStore } from "../backend";
import { BATCH_STATES, TASK_STATES, type BatchState, type Plan, type TaskState } from "../states";
import { TASK_INT8, numbersIn } from "./rows";

type Sql = Bun.SQL;

function taskRow(row: Record<string, unknown>): TaskRow {
  delete row.seq;
  return numbersIn<TaskRow>(row, TASK_INT8);
}

export const pgTaskQueries = (sql: Sql, inTransaction = false): TaskStore => ({
  async countByState(): Promise<Record<TaskState, number>> {
    const counts = Object.fromEntries(TASK_STATES.map((s) => [s, 0])) as Record<TaskState, number>;
    for (const row of await sql`SELECT status, count(*)::int AS n FROM tasks GROUP BY status`) counts[row.status as TaskState] = row.n;
    return counts;
  },

  /** accept: one statement, docintel_accept (migration 7), which writes everything or raises what it refused (and writes nothing) */
  async accept(a: Acceptance): Promise<AcceptOutcome> {
    const tasks = a.tasks.map((t) => ({
      id: t.id,
      operation: t.operation,
      input: t.input,
      webhook_url: t.webhook_url,
      batch_index: t.batch_index,
      hold_id: t.hold_id,
      hold_amount: t.hold_amount,
      source: t.source,
    }));
    const batch = a.batch && { id: a.batch.id, operation: a.batch.operation, webhook_url: a.batch.webhook_url, item_count: a.batch.item_count };
    try {
      await sql`
        SELECT docintel_accept(
          ${a.cap.keyId}, ${a.maxPending}, ${a.cap.allowance}::float8, ${a.cap.period}, ${a.cap.nowMs}, ${a.holdExpiresAt},
          ${a.createdAt}, ${batch ? JSON.stringify(batch) : null}::text::jsonb, ${JSON.stringify(tasks)}::text::jsonb)`;
    } catch (error) {
      const { errno, detail } = error as { errno?: string; detail?: string };
      if (errno === "DIPND") return { ok: false, refused: "pending_cap", unfinished: Number(detail) };
      if (errno === "DICRD") {
        const [item, remaining] = String(detail).split(" ").map(Number);
        return { ok: false, refused: "credits", item: item!, remaining: remaining! };
      }
      throw error;
    }
    return { ok: true };
  },

  /** finish: one statement, docintel_finish_task (migration 8); DINCV = a charge the hold does not cover (nothing written) */
  async finish(f: TaskFinish): Promise<FinishOutcome> {
    try {
      const [row] = await sql`
        SELECT docintel_finish_task(
          ${f.id}, ${f.owner}, ${f.status}, ${f.result}, ${f.error}, ${f.credits}::int, ${f.completedAt},
          ${f.progress?.[0] ?? null}::int, ${f.progress?.[1] ?? null}::int, ${f.holdId},
          ${f.charge ? JSON.stringify(f.charge) : null}::text::jsonb, ${f.delivery ? JSON.stringify(f.delivery) : null}::text::jsonb) AS outcome`;
      return row!.outcome as FinishOutcome;
    } catch (error) {
      if ((error as { errno?: string }).errno === "DINCV") return "not_covered";
      throw error;
    }
  },

  insertTask: (t: NewTask) =>
    sql`INSERT INTO tasks (id, key_id, operation, status, input, webhook_url, batch_id, batch_index, hold_id, hold_amount, source, created_at)
        VALUES (${t.id}, ${t.key_id}, ${t.operation}, 'pending', ${t.input}, ${t.webhook_url}, ${t.batch_id}, ${t.batch_index},
                ${t.hold_id}, ${t.hold_amount}, ${t.source}, ${t.created_at})`.then(() => undefined),

  async get(id: string): Promise<TaskRow | null> {
    const [row] = await sql`SELECT * FROM tasks WHERE id = ${id}`;
    return row ? taskRow(row) : null;
  },

  /**
   * claimNext takes the oldest claimable task (pending, or processing past its lease) of a known
   * operation and returns it with the lease taken and attempts counted, or null when there is none
   * that no other claimer is taking right now. One statement, docintel_claim_next (migration 7):
   * `FOR UPDATE SKIP LOCKED`, and a batch item only under its batch's advisory lock, so that no
   * batch ever runs more than `perBatch` items over all machines.
   */
  async claimNext(c: ClaimRequest): Promise<ClaimedTask | null> {
    if (c.operations.length === 0) return null;
    // the claim runs once (a MATERIALIZED CTE); the key's revocation is read in the same statement
    const [row] = await sql`
      WITH claimed AS MATERIALIZED (
        SELECT * FROM docintel_claim_next(${sql.array(c.operations, "TEXT")}, ${c.owner}, ${c.leaseUntil}, ${c.nowMs}, ${c.perBatch}, ${c.startedAt})
      )
      SELECT claimed.*, EXISTS (SELECT 1 FROM api_keys k WHERE k.id = claimed.key_id AND k.revoked_at IS NOT NULL) AS key_revoked
      FROM claimed`;
    if (!row) return null;
    const keyRevoked = row.key_revoked === true;
    delete row.key_revoked;
    return { ...taskRow(row), keyRevoked };
  },

  /** renewLease extends the owner's lease; false when the task is no longer this owner's (the worker must stop) */
  async renewLease(id: string, owner: string, leaseUntil: number): Promise<boolean> {
    const r = await sql`UPDATE tasks SET lease_expires_at = ${leaseUntil} WHERE id = ${id} AND lease_owner = ${owner} AND status = 'processing'`;
    return r.count === 1;
  },

  async complete(id: string, owner: string, result: string, credits: number, completedAt: string): Promise<boolean> {
    const r = await sql`
      UPDATE tasks SET status = 'completed', result = ${result}, credits_used = ${credits}, completed_at = ${completedAt},
             lease_owner = NULL, lease_expires_at = NULL, input = '{}'
      WHERE id = ${id} AND lease_owner = ${owner} AND status = 'processing'`;
    return r.count === 1;
  },

  async fail(id: string, owner: string, error: string, completedAt: string): Promise<boolean> {
    const r = await sql`
      UPDATE tasks SET status = 'failed', error = ${error}, completed_at = ${completedAt},
             lease_owner = NULL, lease_expires_at = NULL, input = '{}'
      WHERE id = ${id} AND lease_owner = ${owner} AND status = 'processing'`;
    return r.count === 1;
  },

  /** requeue hands a task back (the machine is stopping): the next claimer starts it without waiting for the lease */
  async requeue(id: string, owner: string): Promise<boolean> {
    const r = await sql`
      UPDATE tasks SET status = 'pending', lease_owner = NULL, lease_expires_at = NULL, attempts = GREATEST(attempts - 1, 0)
      WHERE id = ${id} AND lease_owner = ${owner} AND status = 'processing'`;
    return r.count === 1;
  },

  async cancel(id: string, completedAt: string): Promise<boolean> {
    const r = await sql`
      UPDATE tasks SET status = 'cancelled', completed_at = ${completedAt}, lease_owner = NULL, lease_expires_at = NULL,
             input = '{}'
      WHERE id = ${id} AND status IN ('pending', 'processing')`;
    return r.count === 1;
  },

  /** queuePosition: pending tasks accepted before this one (0 = next to start) */
  async queuePosition(id: string): Promise<number> {
    const [row] = await sql`SELECT count(*)::int AS n FROM tasks WHERE status = 'pending' AND seq < (SELECT seq FROM tasks WHERE id = ${id})`;
    return row!.n as number;
  },

  // the rest of sqlite/tasks.ts: reads for routes, progress, revoked keys, batches
  /** getOwned: the task when it belongs to the key, else null (the route answers 404 either way) */
  async getOwned(id: string, keyId: string): Promise<TaskRow | null> {
    const [row] = await sql`SELECT * FROM tasks WHERE id = ${id} AND key_id = ${keyId}`;
    return row ? taskRow(row) : null;
  },

  async setProgress(id: string, owner: string, done: number, total: number): Promise<boolean> {
    const r = await sql`UPDATE tasks SET progress_done = ${done}, progress_total = ${total} WHERE id = ${id} AND lease_owner = ${owner} AND status = 'processing'`;
    return r.count === 1;
  },

  /** failUnclaimed ends a task no worker holds (pending, or processing past its lease) without running it */
  async failUnclaimed(id: string, error: string, completedAt: string, nowMs: number): Promise<boolean> {
    const r = await sql`
      UPDATE tasks SET status = 'failed', error = ${error}, completed_at = ${completedAt}, lease_owner = NULL, lease_expires_at = NULL, input = '{}'
      WHERE id = ${id} AND (status = 'pending' OR (status = 'processing' AND lease_expires_at < ${nowMs}))`;
    return r.count === 1;
  },

  /** unfinishedIds: tasks whose inputs must be kept */
  async unfinishedIds(): Promise<Set<string>> {
    return new Set([...(await sql`SELECT id FROM tasks WHERE status IN ('pending', 'processing')`)].map((r) => r.id as string));
  },

  /** unclaimedOfRevokedKeys: tasks no worker holds whose key has been revoked (they must not start) */
  async unclaimedOfRevokedKeys(nowMs: number): Promise<TaskRow[]> {
    const rows = await sql`
      SELECT t.* FROM api_keys k JOIN tasks t ON t.key_id = k.id
      WHERE k.revoked_at IS NOT NULL AND t.status IN ('pending', 'processing')
        AND (t.status = 'pending' OR t.lease_expires_at < ${nowMs})`;
    return [...rows].map(taskRow);
  },

  /** revokedKeys: which of `keyIds` have been revoked */
  async revokedKeys(keyIds: string[]): Promise<Set<string>> {
    if (keyIds.length === 0) return new Set();
    const rows = await sql`SELECT id FROM api_keys WHERE revoked_at IS NOT NULL AND id = ANY(${sql.array(keyIds, "TEXT")})`;
    return new Set([...rows].map((r) => r.id as string));
  },

  async planOf(keyId: string): Promise<Plan> {
    const [row] = await sql`SELECT plan FROM api_keys WHERE id = ${keyId}`;
    return (row?.plan as Plan) ?? "free";
  },

  // -- batches

  insertBatch: (b: NewBatch) =>
    sql`INSERT INTO batches (id, key_id, operation, status, webhook_url, item_count, created_at)
        VALUES (${b.id}, ${b.key_id}, ${b.operation}, 'pending', ${b.webhook_url}, ${b.item_count}, ${b.created_at})`.then(() => undefined),

  async getBatch(id: string): Promise<BatchRow | null> {
    const [row] = await sql`SELECT * FROM batches WHERE id = ${id}`;
    return (row as BatchRow) ?? null;
  },

  async getBatchOwned(id: string, keyId: string): Promise<BatchRow | null> {
    const [row] = await sql`SELECT * FROM batches WHERE id = ${id} AND key_id = ${keyId}`;
    return (row as BatchRow) ?? null;
  },

  async batchItems(batchId: string): Promise<TaskRow[]> {
    return [...(await sql`SELECT * FROM tasks WHERE batch_id = ${batchId} ORDER BY batch_index`)].map(taskRow);
  },

  /**
   * batchCounts counts a batch's items by state. In a transaction (a task's ending) it first locks
   * the batch's row, so the last items to end count one after the other: under READ COMMITTED two
   * endings at once each saw the other item still running, and neither ended the batch. The lock is
   * FOR NO KEY UPDATE, the one endBatch's UPDATE takes anyway: FOR UPDATE also conflicts with the KEY
   * SHARE locks the endings' writes to the batch's items hold on its row, and two endings waiting
   * for each other there were a deadlock (seen in 3 of 8 runs of the batch test on PostgreSQL).
   */
  async batchCounts(batchId: string): Promise<Record<TaskState, number> & { credits: number }> {
    if (inTransaction) await sql`SELECT 1 FROM batches WHERE id = ${batchId} FOR NO KEY UPDATE`;
    const counts = { ...(Object.fromEntries(TASK_STATES.map((s) => [s, 0])) as Record<TaskState, number>), credits: 0 };
    const rows = await sql`SELECT status, count(*)::int AS n, SUM(credits_used)::int AS credits FROM tasks WHERE batch_id = ${batchId} GROUP BY status`;
    for (const row of rows) {
      counts[row.status as TaskState] = row.n;
      counts.credits += row.credits;
    }
    return counts;
  },

  async markBatchStarted(id: string): Promise<void> {
    await sql`UPDATE batches SET status = 'processing' WHERE id = ${id} AND status = 'pending'`;
  },

  /** endBatch ends a batch once; false when it had already ended */
  async endBatch(id: string, status: BatchState, credits: number, completedAt: string): Promise<boolean> {
    if (!BATCH_STATES.includes(status)) throw new Error(`not a batch state: ${status}`);
    const r = await sql`
      UPDATE batches SET status = ${status}, credits_used = ${credits}, completed_at = ${completedAt}
      WHERE id = ${id} AND status IN ('pending', 'processing')`;
    return r.count === 1;
  },

  async unfinishedOfKey(keyId: string): Promise<number> {
    const [row] = await sql`SELECT count(*)::int AS n FROM tasks WHERE key_id = ${keyId} AND status IN ('pending', 'processing')`;
    return row!.n as number;
  },

  async removeEnded(id: string): Promise<boolean> {
    const r = await sql`DELETE FROM tasks WHERE id = ${id} AND status IN ('completed', 'failed', 'cancelled')`;
    return r.count === 1;
  },

  /** removeEndedBefore: retention, as sqlite/tasks.ts on SQLite; one transaction (or the caller's) */
  async removeEndedBefore(at: string): Promise<{ tasks: number; batches: number; deliveries: number }> {
    const sweep = async (tx: Sql) => {
      const single = await tx`DELETE FROM tasks WHERE batch_id IS NULL AND status IN ('completed', 'failed', 'cancelled') AND completed_at < ${at}`;
      const items = await tx`DELETE FROM tasks WHERE batch_id IN (SELECT id FROM batches WHERE status IN ('completed', 'failed', 'cancelled') AND completed_at < ${at})`;
      const batches = await tx`DELETE FROM batches WHERE id IN (SELECT id FROM batches WHERE status IN ('completed', 'failed', 'cancelled') AND completed_at < ${at})`;
      const deliveries = await tx`
        DELETE FROM webhook_deliveries d WHERE d.status IN ('delivered', 'dead') AND d.task_id IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM tasks t WHERE t.id = d.task_id)
          AND NOT EXISTS (SELECT 1 FROM batches b WHERE b.id = d.task_id)`;
      return { tasks: single.count + items.count, batches: batches.count, deliveries: deliveries.count };
    };
    return inTransaction ? sweep(sql) : (sql.begin((tx) => sweep(tx)) as Promise<{ tasks: number; batches: number; deliveries: number }>);
  },
});
