/**
 * SQL of webhook deliveries on SQLite (PostgreSQL: ../postgres/webhooks.ts), behind the backend's
 * DeliveryStore (../sqliteBackend.ts): an outbox written in the transaction that ends the task or batch.
 */
import type { DeliveryRow } from "../backend";
import type { Store } from "../index";
import type { DeliveryState } from "../states";

export const webhookQueries = (store: Store) => ({
  insert: (d: { id: string; task_id: string; key_id: string; url: string; payload: string; next_attempt_at: number; created_at: string }) =>
    store.db
      .query(
        `INSERT INTO webhook_deliveries (id, task_id, key_id, url, payload, status, attempts, next_attempt_at, created_at)
         VALUES ($id, $task_id, $key_id, $url, $payload, 'pending', 0, $next_attempt_at, $created_at)`,
      )
      .run(d),

  get: (id: string) => store.db.query<DeliveryRow, [string]>("SELECT * FROM webhook_deliveries WHERE id = ?").get(id),

  ofTask: (taskId: string) => store.db.query<DeliveryRow, [string]>("SELECT * FROM webhook_deliveries WHERE task_id = ? ORDER BY created_at, rowid").all(taskId),

  /** due: deliveries whose next request is due, oldest first */
  due: (nowMs: number, limit: number) =>
    store.db
      .query<DeliveryRow, [number, number]>(
        "SELECT * FROM webhook_deliveries WHERE status IN ('pending', 'failed') AND next_attempt_at <= ? ORDER BY next_attempt_at LIMIT ?",
      )
      .all(nowMs, limit),

  /**
   * claim moves next_attempt_at past the request's timeout, so no other process (or tick) sends the
   * same delivery meanwhile; if this process dies mid-request, the delivery is due again after it.
   */
  claim: (id: string, seenNextAttempt: number, claimUntil: number) =>
    store.db
      .query("UPDATE webhook_deliveries SET next_attempt_at = ? WHERE id = ? AND next_attempt_at = ? AND status IN ('pending', 'failed')")
      .run(claimUntil, id, seenNextAttempt).changes === 1,

  /** nextDueAt: when the earliest scheduled request is due (unix ms), or null */
  nextDueAt: () =>
    store.db.query<{ at: number | null }, []>("SELECT MIN(next_attempt_at) AS at FROM webhook_deliveries WHERE status IN ('pending', 'failed')").get()?.at ?? null,

  record: (r: { id: string; status: DeliveryState; status_code: number | null; next_attempt_at: number | null; last_error: string | null; delivered_at: string | null }) =>
    store.db
      .query(
        `UPDATE webhook_deliveries SET status = $status, status_code = $status_code, attempts = attempts + 1,
                next_attempt_at = $next_attempt_at, last_error = $last_error, delivered_at = COALESCE($delivered_at, delivered_at)
         WHERE id = $id`,
      )
      .run(r),
});
