/**
 * RateLimiter: fixed one-minute windows per key, counted in the counters store so that every
 * process on the data dir sees the same count. Every authenticated request counts, refused ones included.
 *
 * Group commit: the requests that arrive in one event-loop turn are counted in one immediate
 * transaction, so a busy server pays one commit per turn rather than one per request, while every
 * decision still comes from the shared count (nothing is counted only in memory). Waiting longer
 * than one turn to fill bigger batches was measured and rejected: it adds latency to every request
 * and, with many concurrent clients, lowers throughput.
 */
import type { Store } from "../store";
import { counterQueries } from "./queries";

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** seconds until the window resets */
  resetSeconds: number;
}

interface Waiting {
  keyId: string;
  limit: number;
  resolve(decision: RateDecision): void;
  reject(error: unknown): void;
}

export class RateLimiter {
  private readonly q: ReturnType<typeof counterQueries>;
  private waiting: Waiting[] = [];

  constructor(
    /** counters: the store of the windows, openCounters() */
    private readonly counters: Store,
    private readonly nowMs: () => number = Date.now,
  ) {
    this.q = counterQueries(counters);
  }

  /** consume counts one request of `keyId` and says whether it is within `limit` per minute. */
  consume(keyId: string, limit: number): Promise<RateDecision> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ keyId, limit, resolve, reject });
      if (this.waiting.length === 1) setImmediate(() => this.commitWaiting());
    });
  }

  /** housekeeping drops windows older than the previous minute. */
  housekeeping(): number {
    return this.q.deleteWindowsBefore(Math.floor(this.nowMs() / 60_000) - 1);
  }

  private commitWaiting(): void {
    const batch = this.waiting;
    this.waiting = [];
    const now = this.nowMs();
    const minute = Math.floor(now / 60_000);
    const resetSeconds = Math.max(1, Math.ceil(((minute + 1) * 60_000 - now) / 1000));
    let counts: number[];
    try {
      counts = this.counters.immediate(() => batch.map((w) => this.q.bumpWindow(w.keyId, minute)));
    } catch (error) {
      for (const w of batch) w.reject(error);
      return;
    }
    batch.forEach((w, i) => {
      const count = counts[i]!;
      w.resolve({ allowed: count <= w.limit, limit: w.limit, remaining: Math.max(0, w.limit - count), resetSeconds });
    });
  }
}
