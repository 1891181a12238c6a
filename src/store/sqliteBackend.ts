/**
 * sqliteBackend puts today's SQLite store (index.ts) and its statements (sqlite/*.ts) behind
 * StoreBackend, so that the engine can be written once against the interface and the same tests
 * run on both backends. Nothing here is new SQL: each operation is the existing statements in one
 * BEGIN IMMEDIATE, as the Ledger and the TaskRunner do today.
 *
 * A transaction whose callback awaits: bun:sqlite has one connection per store, and any statement
 * run on it while the transaction is open would join the transaction. So a transaction holds a
 * process-wide gate: every operation of this backend that starts meanwhile waits for the commit.
 * An operation that starts when no transaction is open runs at once (its promise is already
 * settled), which keeps the SQLite fast path free of queueing.
 */
import type { AcceptOutcome, Acceptance, Cap, CounterStore, CreditStore, DeliveryStore, FinishOutcome, KeyStore, Moved, StoreBackend, StoreTx, TaskFinish, TaskStore, ThumbnailStore } from "./backend";
import { fileBlobs, fileSettings } from "./files";
import { appliedMigrations, openCounters, openStore, type Store } from "./index";
import { counterQueries, creditQueries } from "./sqlite/credits";
import { keyQueries } from "./sqlite/keys";
import { taskQueries } from "./sqlite/tasks";
import { thumbnailQueries } from "./sqlite/thumbnails";
import { webhookQueries } from "./sqlite/webhooks";

export interface SqliteBackend extends StoreBackend {
  readonly kind: "sqlite";
  /** store: the synchronous store, for the code that has not moved to the interface yet */
  readonly store: Store;
  /** counterStore: the synchronous counters store (rate-limit windows), likewise */
  readonly counterStore: Store;
  /** dataDir: where the store, its settings and blobs are */
  readonly dataDir: string;
}

export function openSqliteBackend(dataDir: string): SqliteBackend {
  const store = openStore(dataDir);
  const counters = openCounters(dataDir);
  let gate: Promise<void> | null = null;
  /** outside: run `fn` once no transaction of this backend is open */
  const outside = async <T>(fn: () => T): Promise<T> => {
    while (gate) await gate;
    return fn();
  };
  const direct = async <T>(fn: () => T): Promise<T> => fn();
  const c = counterQueries(counters);
  return {
    kind: "sqlite",
    location: store.path,
    store,
    counterStore: counters,
    dataDir,
    ...storeTx(store, outside),
    counters: {
      reserveInWindow: async (keyId, windowStart, n) => c.reserveInWindow(keyId, windowStart, n),
      deleteWindowsBefore: async (windowStart) => c.deleteWindowsBefore(windowStart),
    } satisfies CounterStore,
    settings: fileSettings(dataDir),
    blobs: fileBlobs(dataDir),
    async transaction<T>(fn: (tx: StoreTx) => Promise<T>): Promise<T> {
      while (gate) await gate;
      let open!: () => void;
      gate = new Promise<void>((resolve) => (open = resolve));
      try {
        store.db.exec("BEGIN IMMEDIATE");
        try {
          const result = await fn(storeTx(store, direct));
          store.db.exec("COMMIT");
          return result;
        } catch (error) {
          store.db.exec("ROLLBACK");
          throw error;
        }
      } finally {
        gate = null;
        open();
      }
    },
    ping: async () => store.ping(),
    appliedMigrations: async () => appliedMigrations(store),
    changeStamp: () => store.changeStamp(),
    async close() {
      while (gate) await gate;
      store.close();
      counters.close();
    },
  };
}

type Runner = <T>(fn: () => T) => Promise<T>;

function storeTx(store: Store, run: Runner): StoreTx {
  return {
    keys: keyStore(store, run),
    credits: creditStore(store, run),
    tasks: taskStore(store, run),
    deliveries: deliveryStore(store, run),
    thumbnails: thumbnailStore(store, run),
  };
}

function keyStore(store: Store, run: Runner): KeyStore {
  const q = keyQueries(store);
  return {
    insert: (row) => run(() => void q.insert(row)),
    byHash: (hash) => run(() => q.byHash(hash) ?? null),
    byId: (id) => run(() => q.byId(id) ?? null),
    list: () => run(() => q.list()),
    touch: (id, at) => run(() => void q.touch(id, at)),
    webhookSecret: (id) => run(() => q.webhookSecret(id) ?? null),
    setWebhookSecret: (id, secret, at) => run(() => q.setWebhookSecret(id, secret, at)),
    revoke: (id, at) => run(() => q.revoke(id, at)),
  };
}

function creditStore(store: Store, run: Runner): CreditStore {
  const q = creditQueries(store);
  // the amount a hold still reserves (0: released, or swept after expiry); moves to sqlite/credits.ts with the wiring
  const takeHold = (id: string) =>
    store.db.query<{ amount: number }, [string]>("DELETE FROM credit_holds WHERE id = ? RETURNING amount").get(id)?.amount ?? null;
  const remaining = (cap: Cap) => remainingOf(q, cap);
  /** covered: null when `amount` fits the cap (or there is none), else the shortfall */
  const covered = (cap: Cap, amount: number): Moved | null => {
    if (cap.allowance === null) return null;
    const left = remaining(cap);
    return left < amount ? { ok: false, remaining: left } : null;
  };
  /** move runs `fn` in BEGIN IMMEDIATE (a savepoint inside a transaction); a shortfall rolls it back */
  const move = (fn: () => Moved): Promise<Moved> =>
    run(() => {
      let outcome: Moved = { ok: true };
      try {
        store.immediate(() => {
          outcome = fn();
          if (!outcome.ok) throw new ShortfallRollback();
        });
      } catch (error) {
        if (!(error instanceof ShortfallRollback)) throw error;
      }
      return outcome;
    });
  return {
    totals: (keyId, period, nowMs) => run(() => q.totals(keyId, period, nowMs)),
    hold: (cap, hold) => move(() => covered(cap, hold.amount) ?? (q.insertHold(hold), { ok: true })),
    settle: (cap, holdId, charge) =>
      move(() => {
        const reserved = takeHold(holdId) ?? 0;
        if (charge.amount <= 0) return { ok: true };
        return (charge.amount > reserved ? covered(cap, charge.amount - reserved) : null) ?? (q.insertEntry(charge), { ok: true });
      }),
    charge: (cap, charge) => move(() => covered(cap, charge.amount) ?? (q.insertEntry(charge), { ok: true })),
    grant: (entry) => run(() => void q.insertEntry(entry)),
    release: (holdId) => run(() => takeHold(holdId)),
    deleteExpiredHolds: (nowMs) => run(() => q.deleteExpiredHolds(nowMs)),
  };
}

class ShortfallRollback extends Error {}
/** FinishRollback rolls back a task's ending that wrote nothing after all */
class FinishRollback extends Error {
  constructor(readonly outcome: FinishOutcome) {
    super(outcome);
  }
}

/** remainingOf: what a capped key may still spend this period (its allowance and grants less use and holds) */
function remainingOf(credits: ReturnType<typeof creditQueries>, cap: Cap): number {
  const t = credits.totals(cap.keyId, cap.period, cap.nowMs);
  return cap.allowance! + t.granted - t.used - t.held;
}

function taskStore(store: Store, run: Runner): TaskStore {
  const q = taskQueries(store);
  const credits = creditQueries(store);
  /** acceptIn: the checks, then every write; inside BEGIN IMMEDIATE, so the counts stay true until the commit */
  const acceptIn = (a: Acceptance): AcceptOutcome => {
    const unfinished = q.unfinishedOfKey(a.cap.keyId);
    if (unfinished + a.tasks.length > a.maxPending) return { ok: false, refused: "pending_cap", unfinished };
    if (a.cap.allowance !== null) {
      let remaining = remainingOf(credits, a.cap);
      for (const [item, task] of a.tasks.entries()) {
        if (task.hold_amount <= 0) continue;
        if (remaining < task.hold_amount) return { ok: false, refused: "credits", item, remaining };
        remaining -= task.hold_amount;
      }
    }
    if (a.batch) q.insertBatch(a.batch);
    for (const task of a.tasks) {
      if (task.hold_id) credits.insertHold({ id: task.hold_id, key_id: a.cap.keyId, amount: task.hold_amount, period: a.cap.period, created_at: a.createdAt, expires_at: a.holdExpiresAt });
      q.insertTask(task);
    }
    return { ok: true };
  };
  const deliveries = webhookQueries(store);
  /** finishIn: the ending's statements (the runner's transaction before TaskStore.finish); a rollback when the lease was lost or the charge is not covered */
  const finishIn = (f: TaskFinish): FinishOutcome => {
    if (f.progress && !q.setProgress(f.id, f.owner, f.progress[0], f.progress[1])) throw new FinishRollback("lease_lost");
    const written = f.status === "completed" ? q.complete(f.id, f.owner, f.result!, f.credits, f.completedAt) : q.fail(f.id, f.owner, f.error!, f.completedAt);
    if (!written) throw new FinishRollback("lease_lost");
    const hold = f.holdId ? store.db.query<{ amount: number; expires_at: number }, [string]>("DELETE FROM credit_holds WHERE id = ? RETURNING amount, expires_at").get(f.holdId) : null;
    // a hold past its TTL reserves nothing any more: the charge then takes the ledger's balance check
    const reserved = hold && hold.expires_at > Date.parse(f.completedAt) ? hold.amount : 0;
    if (f.charge && f.charge.amount > 0) {
      if (f.charge.amount > reserved) throw new FinishRollback("not_covered");
      credits.insertEntry(f.charge);
    }
    if (f.delivery) deliveries.insert(f.delivery);
    return "ended";
  };
  return {
    accept: (a) => run(() => store.immediate(() => acceptIn(a))),
    finish: (f) =>
      run(() => {
        try {
          return store.immediate(() => finishIn(f));
        } catch (error) {
          if (error instanceof FinishRollback) return error.outcome;
          throw error;
        }
      }),
    insertTask: (t) => run(() => void q.insertTask(t)),
    get: (id) => run(() => q.get(id) ?? null),
    countByState: () => run(() => q.countByState()),
    claimNext: (c) =>
      run(() =>
        store.immediate(() => {
          const next = q.nextClaimable(c.operations, c.nowMs, c.perBatch);
          if (!next || !q.claim(next.id, c.owner, c.leaseUntil, c.nowMs, c.startedAt)) return null;
          const row = q.get(next.id);
          return row ? { ...row, keyRevoked: q.revokedKeys([row.key_id]).size > 0 } : null;
        }),
      ),
    renewLease: (id, owner, until) => run(() => q.renewLease(id, owner, until)),
    complete: (id, owner, result, credits, at) => run(() => q.complete(id, owner, result, credits, at)),
    fail: (id, owner, error, at) => run(() => q.fail(id, owner, error, at)),
    requeue: (id, owner) => run(() => q.requeue(id, owner)),
    cancel: (id, at) => run(() => q.cancel(id, at)),
    queuePosition: (id) => run(() => q.queuePosition(id)),
    getOwned: (id, keyId) => run(() => q.getOwned(id, keyId) ?? null),
    setProgress: (id, owner, done, total) => run(() => q.setProgress(id, owner, done, total)),
    failUnclaimed: (id, error, at, nowMs) => run(() => q.failUnclaimed(id, error, at, nowMs)),
    unfinishedIds: () => run(() => q.unfinishedIds()),
    unclaimedOfRevokedKeys: (nowMs) => run(() => q.unclaimedOfRevokedKeys(nowMs)),
    revokedKeys: (keyIds) => run(() => q.revokedKeys(keyIds)),
    planOf: (keyId) => run(() => q.planOf(keyId)),
    insertBatch: (b) => run(() => void q.insertBatch(b)),
    getBatch: (id) => run(() => q.getBatch(id) ?? null),
    getBatchOwned: (id, keyId) => run(() => q.getBatchOwned(id, keyId) ?? null),
    batchItems: (batchId) => run(() => q.batchItems(batchId)),
    batchCounts: (batchId) => run(() => q.batchCounts(batchId)),
    markBatchStarted: (id) => run(() => void q.markBatchStarted(id)),
    endBatch: (id, status, credits, at) => run(() => q.endBatch(id, status, credits, at)),
    unfinishedOfKey: (keyId) => run(() => q.unfinishedOfKey(keyId)),
    removeEnded: (id) => run(() => q.removeEnded(id)),
    removeEndedBefore: (at) => run(() => store.immediate(() => q.removeEndedBefore(at))),
  };
}

function deliveryStore(store: Store, run: Runner): DeliveryStore {
  const q = webhookQueries(store);
  return {
    insert: (d) => run(() => void q.insert(d)),
    get: (id) => run(() => q.get(id) ?? null),
    ofTask: (taskId) => run(() => q.ofTask(taskId)),
    claimDue: (nowMs, limit, claimUntil) =>
      run(() =>
        store.immediate(() =>
          q
            .due(nowMs, limit)
            .filter((d) => q.claim(d.id, d.next_attempt_at!, claimUntil))
            .map((d) => ({ ...d, next_attempt_at: claimUntil })),
        ),
      ),
    nextDueAt: () => run(() => q.nextDueAt()),
    record: (r) => run(() => void q.record(r)),
  };
}

function thumbnailStore(store: Store, run: Runner): ThumbnailStore {
  const q = thumbnailQueries(store);
  return {
    insert: (row) => run(() => void q.insert(row)),
    insertCompleted: (row) => run(() => void q.insertCompleted(row)),
    byId: (id) => run(() => q.byId(id) ?? null),
    complete: (row) => run(() => q.complete(row)),
    fail: (id, error, handler, at) => run(() => q.fail(id, error, handler, at)),
    remove: (id) => run(() => q.remove(id)),
    failWithoutTask: (error, at) => run(() => q.failWithoutTask(error, at)),
    endedBefore: (at) => run(() => q.endedBefore(at)),
  };
}
