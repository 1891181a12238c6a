/**
 * ChangeFeed tells this machine's caches that rows another machine wrote have changed: the
 * PostgreSQL counterpart of SQLite's `PRAGMA data_version`. Triggers on the cached tables (see
 * migrations.ts) send `pg_notify('docintel_changes', topic)` in the writing transaction, delivered
 * to every listener when it commits; each topic has a local version that a notification moves.
 * changeStamp(topic) is a synchronous read of memory, so a cache check costs no round trip.
 *
 * Notifications are lost while the listening connection is down. Two things cover that:
 * - every (re)subscription moves `epoch`, which is part of every stamp: after a reconnect every
 *   cache reloads;
 * - a poll of the `store_changes` sequence (which the same triggers advance) every `pollMs`: a
 *   connection that died without Bun noticing yet cannot hide a change for longer than that. The
 *   sequence moves before the writer commits, so a poll that sees it move bumps the epoch again at
 *   the next poll too (a cache that reloaded in between may have read the rows before the commit).
 */
import type { ChangeTopic } from "../backend";
import { CHANGES_CHANNEL, CHANGES_SEQUENCE } from "./migrations";

export interface ChangeFeedOptions {
  /** pollMs: how often the change sequence is read as a fallback; 0 = never (tests of NOTIFY alone) */
  pollMs: number;
}

export class ChangeFeed {
  private readonly versions = new Map<string, number>();
  private readonly listeners = new Set<(topic: string) => void>();
  private epoch = 0;
  private lastSequence: string | null = null;
  private bumpAtNextPoll = false;
  private subscription: Bun.SQL.ListenSubscription | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(
    private readonly sql: Bun.SQL,
    private readonly o: ChangeFeedOptions,
  ) {}

  /** start subscribes to the channel; resolves when the server has acknowledged the LISTEN. */
  async start(): Promise<void> {
    this.subscription = await this.sql.listen(
      CHANGES_CHANNEL,
      (topic) => this.bump(topic),
      () => this.bumpAll(),
    );
    if (this.o.pollMs > 0) {
      this.timer = setInterval(() => void this.poll().catch(() => this.bumpAll()), this.o.pollMs);
      this.timer.unref?.();
    }
  }

  /** changeStamp: a value that differs once a change of `topic` by any machine has been seen here */
  changeStamp(topic: ChangeTopic): string {
    return `${this.epoch}:${this.versions.get(topic) ?? 0}`;
  }

  /** onChange calls `fn` with the topic of each change seen (every topic after a reconnect: "*"); returns the unsubscribe function */
  onChange(fn: (topic: string) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.subscription?.unlisten();
    this.subscription = null;
  }

  private bump(topic: string): void {
    this.versions.set(topic, (this.versions.get(topic) ?? 0) + 1);
    for (const fn of this.listeners) fn(topic);
  }

  private bumpAll(): void {
    this.epoch++;
    for (const fn of this.listeners) fn("*");
  }

  private async poll(): Promise<void> {
    const [row] = await this.sql.unsafe<{ v: string }[]>(`SELECT last_value::text || ':' || is_called::text AS v FROM ${CHANGES_SEQUENCE}`);
    const seen = row?.v ?? null;
    if (this.bumpAtNextPoll) {
      this.bumpAtNextPoll = false;
      this.bumpAll();
    }
    if (this.lastSequence !== null && seen !== this.lastSequence) {
      this.bumpAll();
      this.bumpAtNextPoll = true;
    }
    this.lastSequence = seen;
  }
}
