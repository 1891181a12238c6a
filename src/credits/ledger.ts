/**
 * Ledger: credits per key as a list of grants and charges per calendar month (UTC).
 *
 * Work is metered in two steps so that concurrent requests can never take a balance below zero
 * and nothing is charged for failed work:
 *   hold(minimum cost) -> the operation runs -> settle(actual cost) on success | release() on failure.
 * A hold and a settle each run in one immediate transaction (one writer at a time, across
 * processes too). Holds carry an expiry so that a process that dies mid-operation does not keep
 * credits away for ever.
 */
import { randomBytes } from "node:crypto";
import { AppError } from "../errors";
import type { Store } from "../store";
import type { Plan } from "../store/states";
import { creditQueries, type CreditTotals } from "./queries";
import { FREE_MONTHLY_CREDITS, isCapped } from "./plans";

export interface Account {
  id: string;
  plan: Plan;
}

export interface Balance {
  plan: Plan;
  /** calendar month in UTC, YYYY-MM */
  period: string;
  /** the plan's monthly allowance; null for metered plans */
  allowance: number | null;
  granted: number;
  used: number;
  held: number;
  /** credits that can still be spent this month; null for metered plans (no cap) */
  remaining: number | null;
}

export interface Hold {
  id: string;
  account: Account;
  amount: number;
}

export interface ChargeMeta {
  operation: string;
  requestId?: string;
  note?: string;
}

/** DEFAULT_HOLD_TTL_MS bounds how long credits of an operation in flight stay set aside. */
export const DEFAULT_HOLD_TTL_MS = 60 * 60 * 1000;

export function periodOf(date: Date): string {
  return date.toISOString().slice(0, 7);
}

/** balanceOf shapes a key's totals of `period` into its Balance (the plan decides the cap); any backend's totals. */
export function balanceOf(account: Account, period: string, totals: CreditTotals): Balance {
  const { granted, used, held } = totals;
  const capped = isCapped(account.plan);
  return {
    plan: account.plan,
    period,
    allowance: capped ? FREE_MONTHLY_CREDITS : null,
    granted,
    used,
    held,
    remaining: capped ? FREE_MONTHLY_CREDITS + granted - used - held : null,
  };
}

/** MAX_CACHED_BALANCES bounds the balance cache (one entry per key seen since the last change) */
const MAX_CACHED_BALANCES = 10_000;

export class Ledger {
  private readonly q: ReturnType<typeof creditQueries>;
  private readonly cached = new Map<string, { stamp: string; period: string; totals: CreditTotals; validUntil: number }>();

  constructor(
    private readonly store: Store,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.q = creditQueries(store);
  }

  /**
   * balance reads what a key has this month. Outside a transaction the totals are cached per key
   * until the store's change stamp moves (any credit write here, a commit elsewhere), the month
   * turns or the next hold expires: a busy key's usage reads cost no SQL. Inside a transaction (the
   * checks of hold and settle) it always reads what the transaction sees, and caches nothing.
   */
  balance(account: Account): Balance {
    const now = this.now();
    const period = periodOf(now);
    const nowMs = now.getTime();
    let totals: CreditTotals;
    if (this.store.inTransaction()) totals = this.q.totals(account.id, period, nowMs);
    else {
      const stamp = this.store.changeStamp();
      const hit = this.cached.get(account.id);
      if (hit && hit.stamp === stamp && hit.period === period && nowMs < hit.validUntil) totals = hit.totals;
      else {
        totals = this.q.totals(account.id, period, nowMs);
        if (this.cached.size >= MAX_CACHED_BALANCES) this.cached.clear();
        this.cached.set(account.id, { stamp, period, totals, validUntil: totals.next_expiry ?? Number.POSITIVE_INFINITY });
      }
    }
    return balanceOf(account, period, totals);
  }

  /** hold sets `amount` aside for an operation, or throws 402 insufficient_credits. */
  async hold(account: Account, amount: number, ttlMs = DEFAULT_HOLD_TTL_MS): Promise<Hold> {
    return this.holdNow(account, amount, ttlMs);
  }

  /**
   * holdNow is hold, synchronous: called inside the caller's transaction (a savepoint) the hold is
   * written with the caller's own rows or not at all. Task acceptance writes the holds and the
   * task rows in one commit this way.
   */
  holdNow(account: Account, amount: number, ttlMs = DEFAULT_HOLD_TTL_MS): Hold {
    const id = "hold_" + randomBytes(8).toString("hex");
    this.store.immediate(() => {
      this.assertCovers(account, amount);
      const now = this.now();
      this.q.insertHold({
        id,
        key_id: account.id,
        amount,
        period: periodOf(now),
        created_at: now.toISOString(),
        expires_at: now.getTime() + ttlMs,
      });
    });
    return { id, account, amount };
  }

  /**
   * settle turns a hold into a charge of `actual` credits (which may differ from the hold). When the
   * actual cost is higher than the hold and the balance cannot cover the difference, nothing is
   * charged and 402 is thrown.
   */
  async settle(hold: Hold, actual: number, meta: ChargeMeta): Promise<void> {
    try {
      this.settleNow(hold, actual, meta);
    } catch (error) {
      // the rollback restored the hold: the operation is over either way, so release it
      this.q.deleteHold(hold.id);
      throw error;
    }
  }

  /**
   * settleNow is settle without the release on failure, and synchronous: called inside the caller's
   * transaction (nested, a savepoint) it commits or rolls back with the caller's own writes. The task
   * runner uses it so that the charge and the task marked completed are written together: a task
   * resumed after a crash is never charged twice. `actual` 0 releases the hold.
   */
  settleNow(hold: Hold, actual: number, meta: ChargeMeta): void {
    this.store.immediate(() => {
      const removed = this.q.deleteHold(hold.id);
      if (actual > 0) {
        // an expired hold no longer reserves anything: check the whole amount again
        const reserved = removed ? hold.amount : 0;
        if (actual > reserved) this.assertCovers(hold.account, actual - reserved, actual);
        this.insertCharge(hold.account.id, actual, meta);
      }
    });
  }

  async release(hold: Hold): Promise<void> {
    this.q.deleteHold(hold.id);
  }

  /** charge takes `amount` at once (hold and settle in one step), or throws 402. */
  async charge(account: Account, amount: number, meta: ChargeMeta): Promise<void> {
    this.store.immediate(() => {
      this.assertCovers(account, amount);
      this.insertCharge(account.id, amount, meta);
    });
  }

  /** grant adds credits to the current month (for free keys they lapse with the month, like the allowance). */
  async grant(accountId: string, amount: number, note?: string): Promise<void> {
    if (!Number.isInteger(amount) || amount <= 0) throw new AppError("bad_request", "a grant must be a positive whole number of credits");
    const now = this.now();
    this.q.insertEntry({
      key_id: accountId,
      kind: "grant",
      amount,
      period: periodOf(now),
      operation: null,
      request_id: null,
      note: note ?? null,
      created_at: now.toISOString(),
    });
  }

  /** housekeeping removes expired holds; safe to run from any instance at any time. */
  housekeeping(): number {
    return this.q.deleteExpiredHolds(this.now().getTime());
  }

  private insertCharge(keyId: string, amount: number, meta: ChargeMeta): void {
    const now = this.now();
    this.q.insertEntry({
      key_id: keyId,
      kind: "charge",
      amount,
      period: periodOf(now),
      operation: meta.operation,
      request_id: meta.requestId ?? null,
      note: meta.note ?? null,
      created_at: now.toISOString(),
    });
  }

  private assertCovers(account: Account, amount: number, total = amount): void {
    if (!isCapped(account.plan)) return;
    const { remaining, period } = this.balance(account);
    if (remaining! < amount) {
      throw new AppError(
        "insufficient_credits",
        `This operation needs ${total} credits and ${Math.max(0, remaining!)} remain for ${period} on the ${account.plan} plan. ` +
          `Free keys get ${FREE_MONTHLY_CREDITS} credits each calendar month; an operator can add more with 'docintel credits grant ${account.id} N'.`,
      );
    }
  }
}
