/**
 * RateLimiter: fixed one-minute windows per key, counted in the store's counters (SQLite: the data
 * dir's counters.sqlite; PostgreSQL: an UNLOGGED table) so that every process and every machine on
 * the store shares one count per key and window.
 *
 * Reservations: a process does not write the shared count once per request. It reserves a few
 * requests of a key's window at a time (one upsert: the count grows by the reservation, and only
 * what is still under the limit is granted) and hands them out from memory. The shared count is the
 * sum of what every process reserved, so all processes together never let more than the limit
 * through; with one process the limit and RateLimit-Remaining are exact. With several, a process
 * can refuse a little early while another still holds requests it reserved (at most one
 * reservation per process: a tenth of the limit).
 *
 * A reservation starts at what the key needs now (the requests waiting in this event-loop turn)
 * and doubles while the key keeps coming back, up to a tenth of the limit. The waiting requests of
 * one turn are counted together: one upsert per key, the keys' upserts at once, one round of them at
 * a time (requests that arrive meanwhile wait for the next round). Once a window is known to be
 * full, requests are refused without a write: the count cannot go down until the next window.
 */
import type { CounterStore } from "../store/backend";
import type { RateDecision } from "../http/context";

interface Waiting {
  keyId: string;
  limit: number;
  resolve(decision: RateDecision): void;
  reject(error: unknown): void;
}

/** Reserved: what this process holds of one key's current window. */
interface Reserved {
  minute: number;
  /** requests this process reserved and was granted in the window */
  granted: number;
  /** of those, handed out */
  used: number;
  /** the shared count after this process's last reservation, capped at the limit */
  counted: number;
  /** size of the next reservation */
  next: number;
}

/** largest reservation: a tenth of the limit, so another process refuses at most that much early */
const reservationCap = (limit: number) => Math.max(1, Math.floor(limit / 10));

export class RateLimiter {
  private waiting: Waiting[] = [];
  /** committing: a round of reservations is on its way to the store */
  private committing = false;
  private readonly reserved = new Map<string, Reserved>();

  constructor(
    /** counters: the store's rate-limit windows (backend.counters) */
    private readonly counters: CounterStore,
    private readonly nowMs: () => number = Date.now,
  ) {}

  /**
   * consume counts one request of `keyId` and says whether it is within `limit` per minute: at once
   * when this process holds a reserved request of the key, otherwise after this turn's reservation.
   */
  consume(keyId: string, limit: number): RateDecision | Promise<RateDecision> {
    const now = this.nowMs();
    const minute = Math.floor(now / 60_000);
    const r = this.reserved.get(keyId);
    if (r && r.minute === minute) {
      if (r.used < r.granted) {
        r.used++;
        return decision(true, limit, r, now);
      }
      // the shared count only grows within a window: once it reached the limit, nothing more is granted anywhere
      if (r.counted >= limit) return decision(false, limit, r, now);
    }
    return new Promise((resolve, reject) => {
      this.waiting.push({ keyId, limit, resolve, reject });
      if (this.waiting.length === 1 && !this.committing) setImmediate(() => void this.commitWaiting());
    });
  }

  /** housekeeping drops windows older than the previous minute, here and in the store. */
  housekeeping(): Promise<number> {
    const minute = Math.floor(this.nowMs() / 60_000);
    for (const [keyId, r] of this.reserved) if (r.minute < minute) this.reserved.delete(keyId);
    return this.counters.deleteWindowsBefore(minute - 1);
  }

  /** commitWaiting reserves for this turn's waiting requests, then starts the next round if more came meanwhile */
  private async commitWaiting(): Promise<void> {
    this.committing = true;
    try {
      await this.reserveFor(this.takeWaiting());
    } finally {
      this.committing = false;
      if (this.waiting.length > 0) setImmediate(() => void this.commitWaiting());
    }
  }

  private takeWaiting(): Waiting[] {
    const batch = this.waiting;
    this.waiting = [];
    return batch;
  }

  private async reserveFor(batch: Waiting[]): Promise<void> {
    const now = this.nowMs();
    const minute = Math.floor(now / 60_000);
    const byKey = new Map<string, Waiting[]>();
    for (const w of batch) {
      const same = byKey.get(w.keyId);
      if (same) same.push(w);
      else byKey.set(w.keyId, [w]);
    }
    const plans: { keyId: string; waiting: Waiting[]; r: Reserved; ask: number }[] = [];
    for (const [keyId, waiting] of byKey) {
      let r = this.reserved.get(keyId);
      if (!r || r.minute !== minute) this.reserved.set(keyId, (r = { minute, granted: 0, used: 0, counted: 0, next: 1 }));
      const limit = waiting[0]!.limit;
      // what is still unused (requests that raced the previous reservation) is handed out first
      const ask = Math.max(0, waiting.length - (r.granted - r.used), Math.min(r.next, reservationCap(limit)));
      plans.push({ keyId, waiting, r, ask });
    }
    const counts = await Promise.allSettled(plans.map((p) => (p.ask > 0 ? this.counters.reserveInWindow(p.keyId, minute, p.ask) : Promise.resolve(p.r.counted))));
    plans.forEach(({ waiting, r, ask }, i) => {
      const outcome = counts[i]!;
      if (outcome.status === "rejected") {
        for (const w of waiting) w.reject(outcome.reason);
        return;
      }
      const limit = waiting[0]!.limit;
      const count = outcome.value;
      const granted = Math.max(0, Math.min(ask, limit - (count - ask)));
      r.granted += granted;
      r.counted = Math.min(count, limit);
      r.next = Math.min(reservationCap(limit), Math.max(1, granted * 2));
      for (const w of waiting) {
        if (r.used < r.granted) {
          r.used++;
          w.resolve(decision(true, w.limit, r, now));
        } else if (r.counted < w.limit) {
          // requests on the fast path took the unused reservations this round counted on while it
          // was on its way to the store: the window still has room, so this one waits for the next round
          this.waiting.push(w);
        } else {
          w.resolve(decision(false, w.limit, r, now));
        }
      }
    });
  }
}

function decision(allowed: boolean, limit: number, r: Reserved, now: number): RateDecision {
  const resetSeconds = Math.max(1, Math.ceil(((r.minute + 1) * 60_000 - now) / 1000));
  // counted includes what this process reserved but has not handed out yet: that is still available here
  const remaining = allowed ? Math.max(0, limit - r.counted + (r.granted - r.used)) : 0;
  return { allowed, limit, remaining, resetSeconds };
}
