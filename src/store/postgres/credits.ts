/**
 * Credits on PostgreSQL: the statements of src/store/sqlite/credits.ts, and the hold, settle and charge
 * transactions that SQLite gets from BEGIN IMMEDIATE (one writer at a time).
 *
 * PostgreSQL runs writers side by side, so each credit move of a key first locks the key's row
 * (`SELECT ... FOR NO KEY UPDATE`): moves of one key queue on that lock, on every machine; moves
 * of different keys never wait for each other. The balance is read by the NEXT statement: under
 * READ COMMITTED each statement sees what was committed when it started, so it sees every hold of
 * the transactions that held the lock before. (One statement that both locked and summed would sum
 * from the snapshot taken before it waited, and let two holds through on the last credits.)
 * NO KEY UPDATE rather than UPDATE: inserting a row that references the key (a task, a ledger entry)
 * takes KEY SHARE on it, which NO KEY UPDATE does not block.
 */
import type { Cap, CreditTotals, LedgerEntry, Moved, NewHold, Shortfall } from "../backend";

/** Sql: the pool, or the client of a transaction (statements of an `...In` function need the latter) */
type Sql = Bun.SQL;

export const pgCreditQueries = (sql: Sql) => ({
  /** totals: granted and used this period, and what active holds set aside (one read) */
  async totals(keyId: string, period: string, nowMs: number): Promise<CreditTotals> {
    const [row] = await sql`
      SELECT COALESCE(t.granted, 0)::float8 AS granted, COALESCE(t.used, 0)::float8 AS used,
             h.held::float8 AS held, h.next_expiry::float8 AS next_expiry
      FROM (SELECT COALESCE(SUM(amount), 0) AS held, MIN(expires_at) AS next_expiry
            FROM credit_holds WHERE key_id = ${keyId} AND expires_at > ${nowMs}) h
      LEFT JOIN credit_totals t ON t.key_id = ${keyId} AND t.period = ${period}`;
    return row as CreditTotals;
  },
  /** lockKey: inside a transaction, queue behind the other credit moves of this key; false when the key does not exist */
  async lockKey(keyId: string): Promise<boolean> {
    const rows = await sql`SELECT id FROM api_keys WHERE id = ${keyId} FOR NO KEY UPDATE`;
    return rows.length === 1;
  },
  insertEntry: (e: LedgerEntry) =>
    sql`INSERT INTO credit_ledger (key_id, kind, amount, period, operation, request_id, note, created_at)
        VALUES (${e.key_id}, ${e.kind}, ${e.amount}, ${e.period}, ${e.operation}, ${e.request_id}, ${e.note}, ${e.created_at})`.then(() => undefined),
  insertHold: (h: NewHold) =>
    sql`INSERT INTO credit_holds (id, key_id, amount, period, created_at, expires_at)
        VALUES (${h.id}, ${h.key_id}, ${h.amount}, ${h.period}, ${h.created_at}, ${h.expires_at})`.then(() => undefined),
  /** deleteHold removes a hold; returns its amount, or null when it was gone (released, or swept after expiry) */
  async deleteHold(id: string): Promise<number | null> {
    const [row] = await sql`DELETE FROM credit_holds WHERE id = ${id} RETURNING amount`;
    return row ? (row.amount as number) : null;
  },
  async deleteExpiredHolds(nowMs: number): Promise<number> {
    return (await sql`DELETE FROM credit_holds WHERE expires_at <= ${nowMs}`).count;
  },
});

/** remainingIn: what the key can still spend, read inside the transaction that holds its lock */
async function remainingIn(tx: Sql, cap: Cap): Promise<number> {
  const t = await pgCreditQueries(tx).totals(cap.keyId, cap.period, cap.nowMs);
  return cap.allowance! + t.granted - t.used - t.held;
}

/**
 * holdIn sets `hold.amount` aside inside the caller's transaction (task acceptance writes its holds
 * and its task rows in one commit), or returns the shortfall and writes nothing.
 */
export function holdIn(tx: Sql, cap: Cap, hold: NewHold): Promise<Moved> {
  return spendIn(tx, cap, hold.amount, "hold", (q) => q.insertHold(hold));
}

/**
 * spendIn: what holdIn and chargeIn share. It locks the key (which must exist), checks that the
 * balance covers `amount` when the key has an allowance, and only then runs `write`.
 */
async function spendIn(
  tx: Sql,
  cap: Cap,
  amount: number,
  what: "hold" | "charge",
  write: (q: ReturnType<typeof pgCreditQueries>) => Promise<void>,
): Promise<Moved> {
  const q = pgCreditQueries(tx);
  if (!(await q.lockKey(cap.keyId))) throw new Error(`credit ${what} for unknown key ${cap.keyId}`);
  if (cap.allowance !== null) {
    const remaining = await remainingIn(tx, cap);
    if (remaining < amount) return { ok: false, remaining };
  }
  await write(q);
  return { ok: true };
}

/** holdCredits is holdIn in a transaction of its own. */
export function holdCredits(sql: Sql, cap: Cap, hold: NewHold): Promise<Moved> {
  return sql.begin((tx) => holdIn(tx, cap, hold));
}

/**
 * settleIn turns a hold into a charge of `charge.amount` inside the caller's transaction (the task
 * runner ends a task, charges it and queues its webhook in one commit). An amount of 0 releases the
 * hold. When the charge is more than the hold still reserves (a hold that expired reserves nothing)
 * and the balance cannot cover the difference, it returns the shortfall: the caller rolls back.
 */
export async function settleIn(tx: Sql, cap: Cap, holdId: string, charge: LedgerEntry): Promise<Moved> {
  const q = pgCreditQueries(tx);
  // A charge the hold covers needs no lock: it gives back what the hold reserved beyond it, and
  // another move reads the hold or the charge, never neither. Only a charge past the hold takes the
  // key's lock for its balance check. (The task runner settles in a transaction of several statements;
  // holding the key's lock through it made acceptances of the same key wait for every ending.)
  const reserved = (await q.deleteHold(holdId)) ?? 0;
  if (charge.amount <= 0) return { ok: true };
  if (cap.allowance !== null && charge.amount > reserved) {
    await q.lockKey(cap.keyId);
    const remaining = await remainingIn(tx, cap);
    if (remaining < charge.amount - reserved) return { ok: false, remaining };
  }
  await q.insertEntry(charge);
  return { ok: true };
}

/** settleHold is settleIn in a transaction of its own; on a shortfall it rolls back (the hold stays). */
export async function settleHold(sql: Sql, cap: Cap, holdId: string, charge: LedgerEntry): Promise<Moved> {
  try {
    return await sql.begin(async (tx) => {
      const outcome = await settleIn(tx, cap, holdId, charge);
      if (!outcome.ok) throw new RolledBack(outcome);
      return outcome;
    });
  } catch (error) {
    if (error instanceof RolledBack) return error.shortfall;
    throw error;
  }
}

/** RolledBack carries a shortfall out of a transaction that it rolls back. */
class RolledBack extends Error {
  constructor(readonly shortfall: Shortfall) {
    super("credit move refused: balance too low");
  }
}

/** chargeIn takes `charge.amount` at once (hold and settle in one step) inside the caller's transaction, or returns the shortfall. */
export function chargeIn(tx: Sql, cap: Cap, charge: LedgerEntry): Promise<Moved> {
  return spendIn(tx, cap, charge.amount, "charge", (q) => q.insertEntry(charge));
}

/** chargeCredits is chargeIn in a transaction of its own. */
export function chargeCredits(sql: Sql, cap: Cap, charge: LedgerEntry): Promise<Moved> {
  return sql.begin((tx) => chargeIn(tx, cap, charge));
}
