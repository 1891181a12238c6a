/** SQL of the credit ledger, holds and rate-limit windows. */
import type { Store } from "../store";
import type { LedgerKind } from "../store/states";

export const creditQueries = (store: Store) => ({
  sumByKind: (keyId: string, period: string) =>
    store.db
      .query<{ kind: LedgerKind; total: number }, [string, string]>(
        "SELECT kind, COALESCE(SUM(amount), 0) AS total FROM credit_ledger WHERE key_id = ? AND period = ? GROUP BY kind",
      )
      .all(keyId, period),
  heldAmount: (keyId: string, nowMs: number) =>
    store.db
      .query<{ total: number }, [string, number]>(
        "SELECT COALESCE(SUM(amount), 0) AS total FROM credit_holds WHERE key_id = ? AND expires_at > ?",
      )
      .get(keyId, nowMs)!.total,
  insertEntry: (e: { key_id: string; kind: LedgerKind; amount: number; period: string; operation: string | null; request_id: string | null; note: string | null; created_at: string }) =>
    store.db
      .query(
        `INSERT INTO credit_ledger (key_id, kind, amount, period, operation, request_id, note, created_at)
         VALUES ($key_id, $kind, $amount, $period, $operation, $request_id, $note, $created_at)`,
      )
      .run(e),
  insertHold: (h: { id: string; key_id: string; amount: number; period: string; created_at: string; expires_at: number }) =>
    store.db
      .query(
        `INSERT INTO credit_holds (id, key_id, amount, period, created_at, expires_at)
         VALUES ($id, $key_id, $amount, $period, $created_at, $expires_at)`,
      )
      .run(h),
  deleteHold: (id: string) => store.db.query("DELETE FROM credit_holds WHERE id = ?").run(id).changes,
  deleteExpiredHolds: (nowMs: number) => store.db.query("DELETE FROM credit_holds WHERE expires_at <= ?").run(nowMs).changes,
  bumpWindow: (keyId: string, windowStart: number) =>
    store.db
      .query<{ count: number }, [string, number]>(
        `INSERT INTO rate_limit_windows (key_id, window_start, count) VALUES (?, ?, 1)
         ON CONFLICT (key_id, window_start) DO UPDATE SET count = count + 1
         RETURNING count`,
      )
      .get(keyId, windowStart)!.count,
  deleteWindowsBefore: (windowStart: number) =>
    store.db.query("DELETE FROM rate_limit_windows WHERE window_start < ?").run(windowStart).changes,
});
