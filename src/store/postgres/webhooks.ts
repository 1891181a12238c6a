/**
 * Webhook deliveries on PostgreSQL: the statements of src/store/sqlite/webhooks.ts. The delivery row is
 * the outbox, written in the transaction that ends the task. claimDue takes due rows with
 * `FOR UPDATE SKIP LOCKED` and pushes their next_attempt_at past the request's timeout in the same
 * statement: dispatchers on every machine take different rows, and a row whose dispatcher died
 * mid-request is due again after that time, with the same id (receivers de-duplicate by it).
 */
import type { DeliveryRow, NewDelivery } from "../backend";
import { DELIVERY_INT8, numbersIn } from "./rows";

type Sql = Bun.SQL;

function deliveryRow(row: Record<string, unknown>): DeliveryRow {
  delete row.seq;
  return numbersIn<DeliveryRow>(row, DELIVERY_INT8);
}

export const pgWebhookQueries = (sql: Sql) => ({
  insert: (d: NewDelivery) =>
    sql`INSERT INTO webhook_deliveries (id, task_id, key_id, url, payload, status, attempts, next_attempt_at, created_at)
        VALUES (${d.id}, ${d.task_id}, ${d.key_id}, ${d.url}, ${d.payload}, 'pending', 0, ${d.next_attempt_at}, ${d.created_at})`.then(() => undefined),

  async get(id: string): Promise<DeliveryRow | null> {
    const [row] = await sql`SELECT * FROM webhook_deliveries WHERE id = ${id}`;
    return row ? deliveryRow(row) : null;
  },

  async ofTask(taskId: string): Promise<DeliveryRow[]> {
    return [...(await sql`SELECT * FROM webhook_deliveries WHERE task_id = ${taskId} ORDER BY created_at, seq`)].map(deliveryRow);
  },

  /** claimDue takes up to `limit` due deliveries, oldest first, until `claimUntil` (unix ms); rows come back with that next_attempt_at */
  async claimDue(nowMs: number, limit: number, claimUntil: number): Promise<DeliveryRow[]> {
    const rows = await sql`
      WITH due AS (
        SELECT id FROM webhook_deliveries
        WHERE status IN ('pending', 'failed') AND next_attempt_at <= ${nowMs}
        ORDER BY next_attempt_at
        LIMIT ${limit}
        FOR UPDATE SKIP LOCKED
      )
      UPDATE webhook_deliveries d SET next_attempt_at = ${claimUntil}
      FROM due WHERE d.id = due.id
      RETURNING d.*`;
    return [...rows].map(deliveryRow).sort((a, b) => a.created_at.localeCompare(b.created_at));
  },

  /** nextDueAt: when the earliest scheduled request is due (unix ms), or null */
  async nextDueAt(): Promise<number | null> {
    const [row] = await sql`SELECT MIN(next_attempt_at)::float8 AS at FROM webhook_deliveries WHERE status IN ('pending', 'failed')`;
    return (row?.at as number | null) ?? null;
  },

  record: (r: Pick<DeliveryRow, "id" | "status" | "status_code" | "next_attempt_at" | "last_error" | "delivered_at">) =>
    sql`UPDATE webhook_deliveries SET status = ${r.status}, status_code = ${r.status_code}, attempts = attempts + 1,
               next_attempt_at = ${r.next_attempt_at}, last_error = ${r.last_error}, delivered_at = COALESCE(${r.delivered_at}, delivered_at)
        WHERE id = ${r.id}`.then(() => undefined),
});
