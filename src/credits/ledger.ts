/**
 * Ledger: credits per key as a list of grants and charges per calendar month (UTC).
 *
 * Work is metered in two steps so that concurrent requests can never take a balance below zero
 * and nothing is charged for failed work:
 *   hold(minimum cost) -> the operation runs -> settle(actual cost) on success | release() on failure.
 * Every move goes through the store backend (backend.credits), which never takes a capped key below
 * zero however many processes or machines move its credits at once (SQLite: BEGIN IMMEDIATE;
 * PostgreSQL: the key's row locked). Holds carry an expiry so that a process that dies mid-operation does not keep
 * credits away for ever.
 */
import { randomBytes } from "node:crypto";
import { AppError } from "../errors";
import type { Cap, CreditTotals, LedgerEntry, StoreBackend, StoreTx } from "../store/backend";
import type { LedgerKind, Plan } from "../store/states";
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

/** newHoldId: the id of a credit hold */
export const newHoldId = () => "hold_" + randomBytes(8).toString("hex");

/** insufficient is the 402 of a move the balance cannot cover (`total`: what the operation needs in all). */
export function insufficient(account: Account, total: number, remaining: number, period: string): AppError {
  return new AppError(
    "insufficient_credits",
    `This operation needs ${total} credits and ${Math.max(0, remaining)} remain for ${period} on the ${account.plan} plan. ` +
      `Free keys get ${FREE_MONTHLY_CREDITS} credits each calendar month; an operator can add more with 'docintel credits grant ${account.id} N'.`,
  );
}

export class Ledger {
  private readonly cached = new Map<string, { stamp: string; period: string; totals: CreditTotals; validUntil: number }>();

  constructor(
    private readonly backend: StoreBackend,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * balance reads what a key has this month. On SQLite the totals are cached per key until the
   * store's change stamp moves (any write here, a commit by another process), the month turns or the
   * next hold expires: a busy key's usage reads cost no SQL. On PostgreSQL credit moves are not
   * announced (docs/postgres.md), so the totals are read each time (one indexed statement). Holds and
   * charges never use this: they check the balance inside their own locked transaction.
   */
  async balance(account: Account): Promise<Balance> {
    const now = this.now();
    const period = periodOf(now);
    const nowMs = now.getTime();
    if (this.backend.kind !== "sqlite") return balanceOf(account, period, await this.backend.credits.totals(account.id, period, nowMs));
    const stamp = this.backend.changeStamp("keys");
    const hit = this.cached.get(account.id);
    if (hit && hit.stamp === stamp && hit.period === period && nowMs < hit.validUntil) return balanceOf(account, period, hit.totals);
    const totals = await this.backend.credits.totals(account.id, period, nowMs);
    if (this.cached.size >= MAX_CACHED_BALANCES) this.cached.clear();
    // the stamp read before the read: a change in between makes the next call read again
    this.cached.set(account.id, { stamp, period, totals, validUntil: totals.next_expiry ?? Number.POSITIVE_INFINITY });
    return balanceOf(account, period, totals);
  }

  /**
   * hold sets `amount` aside for an operation, or throws 402 insufficient_credits. With `tx` the hold
   * is part of the caller's transaction (task acceptance writes its holds and its task rows in one
   * commit), else a transaction of its own.
   */
  async hold(account: Account, amount: number, ttlMs = DEFAULT_HOLD_TTL_MS, tx: StoreTx = this.backend): Promise<Hold> {
    const id = newHoldId();
    const now = this.now();
    const cap = this.capOf(account, now);
    const moved = await tx.credits.hold(cap, { id, key_id: account.id, amount, period: cap.period, created_at: now.toISOString(), expires_at: now.getTime() + ttlMs });
    if (!moved.ok) throw insufficient(account, amount, moved.remaining, cap.period);
    return { id, account, amount };
  }

  /**
   * settle turns a hold into a charge of `actual` credits (which may differ from the hold; 0 releases
   * it). When the actual cost is higher than the hold still reserves (an expired hold reserves
   * nothing) and the balance cannot cover the difference, nothing is charged and 402 is thrown.
   * Without `tx` the hold is released then too (the operation is over either way). With `tx` (the
   * runner's ending: the charge and the task marked completed in one commit, so a task resumed after
   * a crash is never charged twice) the caller decides: it settles to 0 to release.
   */
  async settle(hold: Hold, actual: number, meta: ChargeMeta, tx?: StoreTx): Promise<void> {
    const now = this.now();
    const cap = this.capOf(hold.account, now);
    const moved = await (tx ?? this.backend).credits.settle(cap, hold.id, this.entryOf(hold.account.id, "charge", actual, meta, now));
    if (moved.ok) return;
    if (!tx) await this.backend.credits.release(hold.id);
    throw insufficient(hold.account, actual, moved.remaining, cap.period);
  }

  /** release gives a hold back (the work failed); `tx`: inside the caller's transaction. */
  async release(hold: Hold, tx: StoreTx = this.backend): Promise<void> {
    await tx.credits.release(hold.id);
  }

  /** charge takes `amount` at once (hold and settle in one step), or throws 402. */
  async charge(account: Account, amount: number, meta: ChargeMeta, tx: StoreTx = this.backend): Promise<void> {
    const now = this.now();
    const cap = this.capOf(account, now);
    const moved = await tx.credits.charge(cap, this.entryOf(account.id, "charge", amount, meta, now));
    if (!moved.ok) throw insufficient(account, amount, moved.remaining, cap.period);
  }

  /** grant adds credits to the current month (for free keys they lapse with the month, like the allowance). */
  async grant(accountId: string, amount: number, note?: string): Promise<void> {
    if (!Number.isInteger(amount) || amount <= 0) throw new AppError("bad_request", "a grant must be a positive whole number of credits");
    await this.backend.credits.grant(this.entryOf(accountId, "grant", amount, { operation: null, note }, this.now()));
  }

  /** housekeeping removes expired holds; safe to run from any process or machine at any time. */
  housekeeping(): Promise<number> {
    return this.backend.credits.deleteExpiredHolds(this.now().getTime());
  }

  /**
   * chargeEntry: the ledger entry settle writes for `actual` credits of a hold that covers them, for a
   * caller that writes it in its own single statement (the task runner's ending, TaskStore.finish)
   */
  chargeEntry(keyId: string, actual: number, meta: ChargeMeta): LedgerEntry {
    return this.entryOf(keyId, "charge", actual, meta, this.now());
  }

  /** capOf: what the account may spend at `now` (no cap on metered plans); task acceptance checks it in the store */
  capOf(account: Account, now: Date = this.now()): Cap {
    return { keyId: account.id, allowance: isCapped(account.plan) ? FREE_MONTHLY_CREDITS : null, period: periodOf(now), nowMs: now.getTime() };
  }

  private entryOf(keyId: string, kind: LedgerKind, amount: number, meta: { operation: string | null; requestId?: string; note?: string }, now: Date): LedgerEntry {
    return {
      key_id: keyId,
      kind,
      amount,
      period: periodOf(now),
      operation: meta.operation,
      request_id: meta.requestId ?? null,
      note: meta.note ?? null,
      created_at: now.toISOString(),
    };
  }
}
