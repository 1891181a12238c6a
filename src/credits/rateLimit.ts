/**
 * RateLimiter: fixed one-minute windows per key, counted in the store so that every instance
 * sharing it sees the same count. Every authenticated request counts, refused ones included.
 */
import type { Store } from "../store";
import { creditQueries } from "./queries";

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** seconds until the window resets */
  resetSeconds: number;
}

export class RateLimiter {
  private readonly q: ReturnType<typeof creditQueries>;

  constructor(store: Store, private readonly nowMs: () => number = Date.now) {
    this.q = creditQueries(store);
  }

  consume(keyId: string, limit: number): RateDecision {
    const now = this.nowMs();
    const minute = Math.floor(now / 60_000);
    const count = this.q.bumpWindow(keyId, minute);
    const resetSeconds = Math.max(1, Math.ceil(((minute + 1) * 60_000 - now) / 1000));
    return { allowed: count <= limit, limit, remaining: Math.max(0, limit - count), resetSeconds };
  }

  /** housekeeping drops windows older than the previous minute. */
  housekeeping(): number {
    return this.q.deleteWindowsBefore(Math.floor(this.nowMs() / 60_000) - 1);
  }
}
