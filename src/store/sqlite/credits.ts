/**
 * SQL of the credit ledger and holds (the store) and of the rate-limit windows (the counters store)
 * on SQLite (PostgreSQL: ../postgres/credits.ts), behind the backend's CreditStore and CounterStore
 * (../sqliteBackend.ts).
 */
import type { CreditTotals } from "../backend";
import type { Store } from "../index";
import type { LedgerKind } from "../states";

export const creditQueries = (store: Store) => ({
  /** totals: granted and used this period, and what is held by operations in flight (one read) */
  totals: (keyId: string, period: string, nowMs: number) =>
    store.db
      .query<CreditTotals, [string, string, string, number]>(
        `SELECT COALESCE(t.granted, 0) AS granted, COALESCE(t.used, 0) AS used, h.held, h.next_expiry
         FROM (SELECT COALESCE(SUM(amount), 0) AS held, MIN(expires_at) AS next_expiry
               FROM credit_holds WHERE key_id = ?3 AND expires_at > ?4) h
         LEFT JOIN credit_totals t ON t.key_id = ?1 AND t.period = ?2`,
      )
      .get(keyId, period, keyId, nowMs)!,
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
});

/** SQL of the rate-limit windows, which live in the disposable counters store (openCounters). */
export const counterQueries = (counters: Store) => ({
  /** reserveInWindow adds `n` requests to a key's window and returns the new count (which may pass the limit: the caller grants only what is under it) */
  reserveInWindow: (keyId: string, windowStart: number, n: number) =>
    counters.db
      .query<{ count: number }, [string, number, number]>(
        `INSERT INTO rate_limit_windows (key_id, window_start, count) VALUES (?1, ?2, ?3)
         ON CONFLICT (key_id, window_start) DO UPDATE SET count = count + ?3
         RETURNING count`,
      )
      .get(keyId, windowStart, n)!.count,
  deleteWindowsBefore: (windowStart: number) =>
    counters.db.query("DELETE FROM rate_limit_windows WHERE window_start < ?").run(windowStart).changes,
});
