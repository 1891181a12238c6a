/**
 * The PostgreSQL store against a real PostgreSQL (a throwaway cluster, test/helpers/postgres.ts):
 * migrations by machines starting at once, credit holds under concurrency from several pools
 * (each pool stands for a machine), task claims and leases, the change feed, shared rate-limit
 * windows, the pool's statement timeout. Each test gets its own database.
 *
 * The semantics that the engine relies on (credits, leases, key changes, counters) are tested
 * through StoreBackend on both backends, SQLite (several handles on one data dir) and PostgreSQL
 * (several pools on one database): the same test, the same expectations.
 */
import { describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import type { Cap, LedgerEntry, NewHold, StoreBackend } from "../src/store/backend";
import { openSqliteBackend } from "../src/store/sqliteBackend";
import { exportSqlite, importPostgres } from "../src/store/transfer";
import { openPostgres, redactUrl, type PostgresOptions, type PostgresStore } from "../src/store/postgres";
import { ChangeFeed } from "../src/store/postgres/changes";
import { migratePostgres, PG_MIGRATIONS } from "../src/store/postgres/migrations";
import { retryTransient, TRANSIENT_ATTEMPTS } from "../src/store/postgres/retry";
import { TASK_STATES } from "../src/store/states";
import { FREE_MONTHLY_CREDITS } from "../src/credits/plans";
import { clusterPerFile } from "./helpers/postgres";
import { tempDir } from "./helpers/server";

const { cluster, opened } = clusterPerFile();

const OPTIONS: PostgresOptions = { poolSize: 10, statementTimeoutMs: 10_000, changePollMs: 0 };

async function open(url: string, options: Partial<PostgresOptions> = {}): Promise<PostgresStore> {
  const store = await openPostgres(url, { ...OPTIONS, ...options });
  opened.push(store);
  return store;
}

/** machines opens `n` stores on one database, as `n` docintel processes on different machines would */
async function machines(n: number, options: Partial<PostgresOptions> = {}): Promise<PostgresStore[]> {
  const url = await cluster().newDatabase();
  const first = await open(url, options);
  const rest = await Promise.all(Array.from({ length: n - 1 }, () => open(url, options)));
  return [first, ...rest];
}

type Kind = StoreBackend["kind"];

/** machinesOn opens `n` backends of a kind on one fresh store: processes (SQLite) or machines (PostgreSQL) */
async function machinesOn(kind: Kind, n: number): Promise<StoreBackend[]> {
  if (kind === "postgres") return machines(n);
  const dir = tempDir();
  const backends = Array.from({ length: n }, () => openSqliteBackend(dir));
  opened.push(...backends);
  return backends;
}

const PERIOD = new Date().toISOString().slice(0, 7);
const nowIso = () => new Date().toISOString();
const id = (prefix: string) => `${prefix}_${randomBytes(6).toString("hex")}`;

async function makeKey(store: StoreBackend, plan: "free" | "pro" = "free"): Promise<string> {
  const keyId = id("key");
  await store.keys.insert({ id: keyId, name: "test", plan, prefix: "dk_test", key_hash: randomBytes(16).toString("hex"), created_at: nowIso(), webhook_secret: null, webhook_secret_at: null });
  return keyId;
}

const capOf = (keyId: string): Cap => ({ keyId, allowance: FREE_MONTHLY_CREDITS, period: PERIOD, nowMs: Date.now() });
const holdOf = (keyId: string, amount: number): NewHold => ({ id: id("hold"), key_id: keyId, amount, period: PERIOD, created_at: nowIso(), expires_at: Date.now() + 60_000 });
const chargeOf = (keyId: string, amount: number): LedgerEntry => ({ key_id: keyId, kind: "charge", amount, period: PERIOD, operation: "test", request_id: null, note: null, created_at: nowIso() });

describe("migrations", () => {
  test("three machines starting at once on an empty database apply each migration exactly once", async () => {
    const url = await cluster().newDatabase();
    const pools = [0, 1, 2].map(() => new Bun.SQL(url, { max: 2 }));
    try {
      const reports = await Promise.all(pools.map((sql) => migratePostgres(sql)));
      const applied = reports.flatMap((r) => r.applied);
      // one migrator did everything, the other two found it done
      expect(reports.filter((r) => r.applied.length > 0)).toHaveLength(1);
      expect(applied.filter((a) => a.table === "schema_migrations").map((a) => a.version)).toEqual(PG_MIGRATIONS.map((m) => m.version));
      expect(applied.filter((a) => a.table === "counter_migrations").map((a) => a.version)).toEqual([1]);
      const rows = await pools[0]!`SELECT version, count(*)::int AS n FROM schema_migrations GROUP BY version ORDER BY version`;
      expect(rows.map((r: { version: number; n: number }) => [r.version, r.n])).toEqual(PG_MIGRATIONS.map((m) => [m.version, 1]));
      // a later start finds nothing to do
      expect((await migratePostgres(pools[1]!)).applied).toEqual([]);
    } finally {
      await Promise.all(pools.map((sql) => sql.close()));
    }
  });

  test("state columns carry the CHECK generated from src/store/states.ts and rate-limit windows are UNLOGGED", async () => {
    const [store] = await machines(1);
    const keyId = await makeKey(store!);
    const task = { id: id("task"), key_id: keyId, operation: "markdown", input: "{}", webhook_url: null, batch_id: null, batch_index: null, hold_id: null, hold_amount: 0, source: null, created_at: nowIso() };
    await store!.tasks.insertTask(task);
    expect((await store!.tasks.get(task.id))!.status).toBe("pending");
    for (const state of TASK_STATES) await store!.sql`UPDATE tasks SET status = ${state} WHERE id = ${task.id}`;
    await expect(store!.sql`UPDATE tasks SET status = 'exploded' WHERE id = ${task.id}`).rejects.toThrow(/tasks_status_check/);
    await expect(store!.sql`UPDATE api_keys SET plan = 'platinum' WHERE id = ${keyId}`).rejects.toThrow(/api_keys_plan_check/);
    const [rel] = await store!.sql`SELECT relpersistence FROM pg_class WHERE relname = 'rate_limit_windows'`;
    expect(rel.relpersistence).toBe("u");
    expect(await store!.appliedMigrations()).toEqual(PG_MIGRATIONS.map((m) => m.version));
  });
});

for (const kind of ["sqlite", "postgres"] as const) {
  describe(kind, () => {
    describe("credits", () => {
      test("100 concurrent holds against 50 credits from three machines: exactly 50 succeed, never below zero", async () => {
        const stores = await machinesOn(kind, 3);
        const keyId = await makeKey(stores[0]!);
        // the free allowance is 100 a month: spend 50 first, so 50 remain
        expect(await stores[0]!.credits.charge(capOf(keyId), chargeOf(keyId, FREE_MONTHLY_CREDITS - 50))).toEqual({ ok: true });

        const outcomes = await Promise.all(Array.from({ length: 100 }, (_, i) => stores[i % 3]!.credits.hold(capOf(keyId), holdOf(keyId, 1))));
        expect(outcomes.filter((o) => o.ok)).toHaveLength(50);
        for (const refused of outcomes.filter((o) => !o.ok)) expect(refused).toEqual({ ok: false, remaining: 0 });

        const t = await stores[1]!.credits.totals(keyId, PERIOD, Date.now());
        expect(t).toMatchObject({ granted: 0, used: 50, held: 50 });
        expect(FREE_MONTHLY_CREDITS + t.granted - t.used - t.held).toBe(0);
      });

      test("settling holds charges once; a charge past the balance is refused and writes nothing", async () => {
        const stores = await machinesOn(kind, 2);
        const keyId = await makeKey(stores[0]!);
        const holds = Array.from({ length: 10 }, () => holdOf(keyId, 10));
        for (const h of holds) expect(await stores[0]!.credits.hold(capOf(keyId), h)).toEqual({ ok: true });
        expect(await stores[1]!.credits.hold(capOf(keyId), holdOf(keyId, 1))).toEqual({ ok: false, remaining: 0 });

        // settle each hold twice at once from both machines: the second finds the hold gone and charges
        // again only if the balance covers it; here it cannot, so the total stays at 100
        const settles = await Promise.all(holds.flatMap((h) => [stores[0]!.credits.settle(capOf(keyId), h.id, chargeOf(keyId, 10)), stores[1]!.credits.settle(capOf(keyId), h.id, chargeOf(keyId, 10))]));
        expect(settles.filter((s) => s.ok)).toHaveLength(10);
        const t = await stores[0]!.credits.totals(keyId, PERIOD, Date.now());
        // ten charges of 10: each hold charged once
        expect(t).toMatchObject({ used: 100, held: 0 });
      });

      test("a hold written inside a transaction that rolls back leaves nothing held", async () => {
        const [store] = await machinesOn(kind, 1);
        const keyId = await makeKey(store!);
        await expect(
          store!.transaction(async (tx) => {
            expect(await tx.credits.hold(capOf(keyId), holdOf(keyId, 30))).toEqual({ ok: true });
            throw new Error("the task row could not be written");
          }),
        ).rejects.toThrow(/task row/);
        expect((await store!.credits.totals(keyId, PERIOD, Date.now())).held).toBe(0);
      });

      test("a write started elsewhere while a transaction awaits is not part of it and survives its rollback", async () => {
        const [store] = await machinesOn(kind, 1);
        const inside = await makeKey(store!);
        const outside = await makeKey(store!);
        let grantDone: Promise<void> | null = null;
        await expect(
          store!.transaction(async (tx) => {
            expect(await tx.credits.hold(capOf(inside), holdOf(inside, 30))).toEqual({ ok: true });
            grantDone = store!.credits.grant({ ...chargeOf(outside, 10), kind: "grant" });
            await Bun.sleep(50);
            throw new Error("rolled back on purpose");
          }),
        ).rejects.toThrow(/on purpose/);
        await grantDone;
        expect((await store!.credits.totals(inside, PERIOD, Date.now())).held).toBe(0);
        expect((await store!.credits.totals(outside, PERIOD, Date.now())).granted).toBe(10);
      });

      test("metered plans are not capped; expired holds stop counting", async () => {
        const [store] = await machinesOn(kind, 1);
        const keyId = await makeKey(store!, "pro");
        const metered: Cap = { ...capOf(keyId), allowance: null };
        expect(await store!.credits.charge(metered, chargeOf(keyId, 5_000))).toEqual({ ok: true });
        const free = await makeKey(store!);
        expect(await store!.credits.hold(capOf(free), { ...holdOf(free, 100), expires_at: Date.now() + 400 })).toEqual({ ok: true });
        expect((await store!.credits.hold(capOf(free), holdOf(free, 1))).ok).toBe(false);
        await Bun.sleep(450);
        expect(await store!.credits.hold(capOf(free), holdOf(free, 1))).toEqual({ ok: true });
        expect(await store!.credits.deleteExpiredHolds(Date.now())).toBe(1);
      });
    });

    describe("task claims and leases", () => {
      async function acceptTasks(store: StoreBackend, n: number): Promise<string[]> {
        const keyId = await makeKey(store);
        const ids: string[] = [];
        for (let i = 0; i < n; i++) {
          const taskId = id("task");
          await store.tasks.insertTask({ id: taskId, key_id: keyId, operation: "markdown", input: `{"i":${i}}`, webhook_url: null, batch_id: null, batch_index: null, hold_id: null, hold_amount: 0, source: null, created_at: nowIso() });
          ids.push(taskId);
        }
        return ids;
      }

      const claimOf = (owner: string, leaseMs: number) => ({ operations: ["markdown"], owner, leaseUntil: Date.now() + leaseMs, nowMs: Date.now(), perBatch: 4, startedAt: nowIso() });

      test("three machines with ten claimers each take 90 tasks: every task claimed exactly once, in acceptance order per claimer", async () => {
        const stores = await machinesOn(kind, 3);
        const ids = await acceptTasks(stores[0]!, 90);
        const claimed: string[] = [];
        const claimer = async (store: StoreBackend, owner: string) => {
          const mine: number[] = [];
          for (;;) {
            const row = await store.tasks.claimNext(claimOf(owner, 30_000));
            if (!row) return mine;
            expect(row).toMatchObject({ status: "processing", lease_owner: owner, attempts: 1 });
            expect(typeof row.lease_expires_at).toBe("number");
            claimed.push(row.id);
            mine.push(ids.indexOf(row.id));
            expect(await store.tasks.complete(row.id, owner, "{}", 0, nowIso())).toBe(true);
          }
        };
        const perClaimer = await Promise.all(stores.flatMap((s, m) => Array.from({ length: 10 }, (_, c) => claimer(s, `m${m}:c${c}`))));
        expect(claimed.length).toBe(90);
        expect(new Set(claimed).size).toBe(90);
        for (const order of perClaimer) expect(order).toEqual([...order].sort((a, b) => a - b));
        expect(await stores[2]!.tasks.countByState()).toMatchObject({ completed: 90, pending: 0, processing: 0 });
      });

      test("an owner that renews keeps its task; when it dies the lease runs out and another machine takes the task; the dead owner's late write changes nothing", async () => {
        const [a, b] = await machinesOn(kind, 2);
        const [taskId] = await acceptTasks(a!, 1);
        // leases long enough that a stall of this shared machine between a renewal and a claim does not end one
        const LEASE_MS = 1_000;
        const claimed = await a!.tasks.claimNext(claimOf("machine-a", LEASE_MS));
        expect(claimed!.id).toBe(taskId!);

        // A renews every 100 ms for two leases' time: B never gets the task meanwhile
        const until = Date.now() + 2 * LEASE_MS;
        while (Date.now() < until) {
          expect(await a!.tasks.renewLease(taskId!, "machine-a", Date.now() + LEASE_MS)).toBe(true);
          expect(await b!.tasks.claimNext(claimOf("machine-b", LEASE_MS))).toBeNull();
          await Bun.sleep(100);
        }

        // A dies (stops renewing): B takes the task once the lease has run out, as a second attempt
        let taken = null;
        const diedAt = Date.now();
        while (!taken && Date.now() - diedAt < 5 * LEASE_MS) {
          taken = await b!.tasks.claimNext(claimOf("machine-b", 30_000));
          if (!taken) await Bun.sleep(25);
        }
        expect(taken).toMatchObject({ id: taskId, lease_owner: "machine-b", attempts: 2, status: "processing" });
        // the last renewal was at most one sleep (100 ms) and two round trips before A died
        expect(Date.now() - diedAt).toBeGreaterThanOrEqual(LEASE_MS - 250);

        // A wakes up: its renewal and its ending are refused; B's ending stands
        expect(await a!.tasks.renewLease(taskId!, "machine-a", Date.now() + LEASE_MS)).toBe(false);
        expect(await a!.tasks.complete(taskId!, "machine-a", '{"from":"a"}', 1, nowIso())).toBe(false);
        expect(await b!.tasks.complete(taskId!, "machine-b", '{"from":"b"}', 1, nowIso())).toBe(true);
        expect(await a!.tasks.get(taskId!)).toMatchObject({ status: "completed", result: '{"from":"b"}', lease_owner: null, input: "{}" });
      });

      test("a task ends in one transaction (charge, result, webhook outbox): a worker that lost its lease charges nothing", async () => {
        const [a, b] = await machinesOn(kind, 2);
        const [taskId] = await acceptTasks(a!, 1);
        const keyId = (await a!.tasks.get(taskId!))!.key_id;
        const hold = holdOf(keyId, 5);
        expect(await a!.credits.hold(capOf(keyId), hold)).toEqual({ ok: true });
        await a!.tasks.claimNext(claimOf("dead-worker", 50));
        await Bun.sleep(80);
        expect((await b!.tasks.claimNext(claimOf("new-worker", 30_000)))!.id).toBe(taskId!);

        class LeaseLost extends Error {}
        const end = (store: StoreBackend, owner: string) =>
          store.transaction(async (tx) => {
            expect(await tx.credits.settle(capOf(keyId), hold.id, chargeOf(keyId, 5))).toEqual({ ok: true });
            if (!(await tx.tasks.complete(taskId!, owner, '{"pages":1}', 5, nowIso()))) throw new LeaseLost();
            await tx.deliveries.insert({ id: id("whd"), task_id: taskId!, key_id: keyId, url: "https://hooks.example/x", payload: "{}", next_attempt_at: Date.now(), created_at: nowIso() });
          });
        await expect(end(a!, "dead-worker")).rejects.toBeInstanceOf(LeaseLost);
        expect(await a!.credits.totals(keyId, PERIOD, Date.now())).toMatchObject({ used: 0, held: 5 });
        expect(await a!.deliveries.ofTask(taskId!)).toEqual([]);

        await end(b!, "new-worker");
        expect(await a!.credits.totals(keyId, PERIOD, Date.now())).toMatchObject({ used: 5, held: 0 });
        expect(await a!.tasks.get(taskId!)).toMatchObject({ status: "completed", credits_used: 5 });
        expect(await a!.deliveries.ofTask(taskId!)).toHaveLength(1);
      });

      test("a batch: items run at most perBatch at once, counts add up, the batch ends once; only the owner writes progress", async () => {
        const [a, b] = await machinesOn(kind, 2);
        const keyId = await makeKey(a!);
        const batchId = id("batch");
        await a!.transaction(async (tx) => {
          await tx.tasks.insertBatch({ id: batchId, key_id: keyId, operation: "markdown", webhook_url: null, item_count: 3, created_at: nowIso() });
          for (let i = 0; i < 3; i++) {
            await tx.tasks.insertTask({ id: `${batchId}_${i}`, key_id: keyId, operation: "markdown", input: "{}", webhook_url: null, batch_id: batchId, batch_index: i, hold_id: null, hold_amount: 0, source: `doc${i}.pdf`, created_at: nowIso() });
          }
        });
        expect(await b!.tasks.getBatchOwned(batchId, "key_other")).toBeNull();
        await b!.tasks.markBatchStarted(batchId);
        const perBatch2 = (owner: string) => ({ ...claimOf(owner, 30_000), perBatch: 2 });
        const first = await a!.tasks.claimNext(perBatch2("a"));
        const second = await b!.tasks.claimNext(perBatch2("b"));
        expect([first!.batch_index, second!.batch_index]).toEqual([0, 1]);
        expect(await a!.tasks.claimNext(perBatch2("a"))).toBeNull();
        expect(await b!.tasks.setProgress(first!.id, "b", 1, 2)).toBe(false);
        expect(await a!.tasks.setProgress(first!.id, "a", 1, 2)).toBe(true);
        expect(await a!.tasks.complete(first!.id, "a", "{}", 3, nowIso())).toBe(true);
        const third = await b!.tasks.claimNext(perBatch2("b"));
        expect(third!.batch_index).toBe(2);
        expect(await b!.tasks.complete(second!.id, "b", "{}", 2, nowIso())).toBe(true);
        expect(await b!.tasks.fail(third!.id, "b", '{"error":"conversion_failed"}', nowIso())).toBe(true);
        expect(await a!.tasks.batchCounts(batchId)).toMatchObject({ completed: 2, failed: 1, pending: 0, credits: 5 });
        expect((await a!.tasks.batchItems(batchId)).map((t) => [t.batch_index, t.status, t.progress_done])).toEqual([
          [0, "completed", 1],
          [1, "completed", null],
          [2, "failed", null],
        ]);
        const ends = await Promise.all([a!.tasks.endBatch(batchId, "completed", 5, nowIso()), b!.tasks.endBatch(batchId, "completed", 5, nowIso())]);
        expect(ends.filter(Boolean)).toHaveLength(1);
        expect(await a!.tasks.getBatch(batchId)).toMatchObject({ status: "completed", credits_used: 5 });
        await expect(a!.tasks.endBatch(batchId, "exploded" as never, 0, nowIso())).rejects.toThrow(/not a batch state/);
      });

      test("a revoked key's unclaimed tasks are found and failed without running; its running task is seen as revoked", async () => {
        const [a, b] = await machinesOn(kind, 2);
        const ids = await acceptTasks(a!, 3);
        const keyId = (await a!.tasks.get(ids[0]!))!.key_id;
        const [otherTask] = await acceptTasks(a!, 1);
        const other = (await a!.tasks.get(otherTask!))!.key_id;
        const running = await a!.tasks.claimNext(claimOf("a", 30_000));
        expect(running!.id).toBe(ids[0]!);
        expect(await b!.tasks.planOf(keyId)).toBe("free");
        expect(await b!.keys.revoke(keyId, nowIso())).toBe(1);
        expect(await a!.tasks.revokedKeys([keyId, other])).toEqual(new Set([keyId]));
        const unclaimed = await b!.tasks.unclaimedOfRevokedKeys(Date.now());
        expect(unclaimed.map((t) => t.id).sort()).toEqual([ids[1]!, ids[2]!].sort());
        for (const t of unclaimed) expect(await b!.tasks.failUnclaimed(t.id, '{"error":"key_revoked"}', nowIso(), Date.now())).toBe(true);
        expect(await b!.tasks.failUnclaimed(running!.id, '{"error":"key_revoked"}', nowIso(), Date.now())).toBe(false);
        expect(await a!.tasks.unfinishedIds()).toEqual(new Set([running!.id, otherTask!]));
        expect(await a!.tasks.getOwned(ids[0]!, other)).toBeNull();
        expect((await a!.tasks.getOwned(ids[0]!, keyId))!.status).toBe("processing");
      });

      test("a requeued task is claimable at once; queue positions follow acceptance order", async () => {
        const [store] = await machinesOn(kind, 1);
        const ids = await acceptTasks(store!, 3);
        expect(await Promise.all(ids.map((t) => store!.tasks.queuePosition(t)))).toEqual([0, 1, 2]);
        const row = await store!.tasks.claimNext(claimOf("stopping", 60_000));
        expect(row!.id).toBe(ids[0]!);
        expect(await store!.tasks.requeue(row!.id, "stopping")).toBe(true);
        expect(await store!.tasks.claimNext(claimOf("next", 60_000))).toMatchObject({ id: ids[0], attempts: 1 });
        expect(await store!.tasks.cancel(ids[1]!, nowIso())).toBe(true);
        expect(await store!.tasks.queuePosition(ids[2]!)).toBe(0);
      });
    });

    describe("webhook deliveries", () => {
      test("dispatchers on three machines claim 45 due deliveries: each once; a dead dispatcher's claim runs out and the same delivery id is due again", async () => {
        const stores = await machinesOn(kind, 3);
        const keyId = await makeKey(stores[0]!);
        const now = Date.now();
        const ids = Array.from({ length: 45 }, () => id("whd"));
        for (const [i, deliveryId] of ids.entries()) {
          await stores[0]!.deliveries.insert({ id: deliveryId, task_id: id("task"), key_id: keyId, url: "https://hooks.example/x", payload: `{"i":${i}}`, next_attempt_at: now - 1_000 + i, created_at: nowIso() });
        }
        const claimed: string[] = [];
        const dispatcher = async (store: StoreBackend) => {
          for (;;) {
            const rows = await store.deliveries.claimDue(Date.now(), 4, Date.now() + 60_000);
            if (rows.length === 0) return;
            for (const row of rows) {
              claimed.push(row.id);
              await store.deliveries.record({ id: row.id, status: "delivered", status_code: 200, next_attempt_at: null, last_error: null, delivered_at: nowIso() });
            }
          }
        };
        await Promise.all(stores.flatMap((s) => [dispatcher(s), dispatcher(s), dispatcher(s), dispatcher(s)]));
        expect(claimed.length).toBe(45);
        expect(new Set(claimed)).toEqual(new Set(ids));
        expect(await stores[1]!.deliveries.nextDueAt()).toBeNull();

        // a dispatcher claims a delivery for 500 ms and dies before recording anything
        const lonely = id("whd");
        await stores[0]!.deliveries.insert({ id: lonely, task_id: id("task"), key_id: keyId, url: "https://hooks.example/x", payload: "{}", next_attempt_at: Date.now(), created_at: nowIso() });
        expect((await stores[0]!.deliveries.claimDue(Date.now(), 10, Date.now() + 500)).map((d) => d.id)).toEqual([lonely]);
        expect(await stores[1]!.deliveries.claimDue(Date.now(), 10, Date.now() + 60_000)).toEqual([]);
        await Bun.sleep(600);
        const again = await stores[2]!.deliveries.claimDue(Date.now(), 10, Date.now() + 60_000);
        expect(again.map((d) => [d.id, d.attempts, d.status])).toEqual([[lonely, 0, "pending"]]);
      });
    });

    describe("key changes and counters", () => {
      test("a key revoked on one machine moves the other machines' key stamp within a second", async () => {
        const [a, b, c] = await machinesOn(kind, 3);
        const keyId = await makeKey(a!);
        await Bun.sleep(100); // the insert's own notification
        const before = [b!.changeStamp("keys"), c!.changeStamp("keys")];
        const revokedAt = performance.now();
        expect(await a!.keys.revoke(keyId, nowIso())).toBe(1);
        const seenIn = await Promise.all(
          [b!, c!].map(async (s, i) => {
            while (s.changeStamp("keys") === before[i]) {
              if (performance.now() - revokedAt > 1_000) throw new Error("revocation not seen within a second");
              await Bun.sleep(5);
            }
            return performance.now() - revokedAt;
          }),
        );
        for (const ms of seenIn) expect(ms).toBeLessThan(1_000);
        expect((await b!.keys.byId(keyId))!.revoked_at).not.toBeNull();
      });

      test("rate-limit windows are shared: 60 reservations from three machines count to 60", async () => {
        const stores = await machinesOn(kind, 3);
        const counts = await Promise.all(Array.from({ length: 60 }, (_, i) => stores[i % 3]!.counters.reserveInWindow("key_x", 29_000_000, 1)));
        expect([...counts].sort((x, y) => x - y)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
        expect(await stores[0]!.counters.deleteWindowsBefore(29_000_001)).toBe(1);
      });
    });

  });
}

describe("postgres change feed", () => {
  test("last_used_at, which moves on every request, announces nothing", async () => {
    const [a, b] = await machines(2);
    const initial = b!.changeStamp("keys");
    const keyId = await makeKey(a!);
    // the insert's own notification must have arrived first (a fixed sleep was too short under load)
    for (const until = Date.now() + 5_000; b!.changeStamp("keys") === initial && Date.now() < until; ) await Bun.sleep(10);
    expect(b!.changeStamp("keys")).not.toBe(initial);
    const before = b!.changeStamp("keys");
    await a!.keys.touch(keyId, nowIso());
    await Bun.sleep(200);
    expect(b!.changeStamp("keys")).toBe(before);
  });

  test("without a notification, the poll of the change sequence still moves the stamp", async () => {
    const [a] = await machines(1);
    const feed = new ChangeFeed(a!.sql, { pollMs: 100 });
    await feed.start();
    try {
      await Bun.sleep(250); // the first poll records where the sequence stands
      const before = feed.changeStamp("keys");
      await a!.sql`SELECT nextval('store_changes')`; // a change whose NOTIFY was lost
      const start = performance.now();
      while (feed.changeStamp("keys") === before && performance.now() - start < 1_000) await Bun.sleep(10);
      expect(feed.changeStamp("keys")).not.toBe(before);
    } finally {
      await feed.stop();
    }
  });
});

describe("postgres transactions: deadlocks and serialization failures", () => {
  test("two transactions that deadlock both commit: the victim runs again, once logged", async () => {
    const retries: string[] = [];
    const [store] = await machines(1, { onRetry: (what) => retries.push(what) });
    const [k1, k2] = [await makeKey(store!, "pro"), await makeKey(store!, "pro")];
    let runs = 0;
    const firstLocks = Promise.withResolvers<void>();
    let locked = 0;
    const bothLocked = () => ++locked === 2 && firstLocks.resolve();
    // each takes one key's row (a charge locks it), waits until the other holds its first key, then takes the other's
    const crossed = (first: string, second: string) =>
      store!.transaction(async (tx) => {
        runs++;
        await tx.credits.charge(capOf(first), chargeOf(first, 1));
        bothLocked();
        await firstLocks.promise;
        await tx.credits.charge(capOf(second), chargeOf(second, 1));
      });
    await Promise.all([crossed(k1!, k2!), crossed(k2!, k1!)]);
    expect(runs).toBe(3); // PostgreSQL aborted one of the two (40P01); it ran again after the other committed
    expect(retries).toEqual(["deadlock (40P01)"]);
    for (const key of [k1!, k2!]) expect((await store!.credits.totals(key, PERIOD, Date.now())).used).toBe(2); // each charge once
  });

  test("a serialization failure is retried a bounded number of times; other errors are not retried", async () => {
    const retries: string[] = [];
    let runs = 0;
    const failing = Object.assign(new Error("could not serialize access"), { errno: "40001" });
    const error = await retryTransient(async () => {
      runs++;
      throw failing;
    }, (what) => retries.push(what)).catch((e) => e);
    expect(error).toBe(failing);
    expect(runs).toBe(TRANSIENT_ATTEMPTS);
    expect(retries).toEqual(["serialization failure (40001)"]);
    runs = 0;
    const other = Object.assign(new Error("duplicate key"), { errno: "23505" });
    expect(await retryTransient(async () => {
      runs++;
      throw other;
    }, () => retries.push("never")).catch((e) => e)).toBe(other);
    expect(runs).toBe(1);
    runs = 0;
    expect(await retryTransient(async () => (++runs < 2 ? Promise.reject(failing) : "done"), () => {})).toBe("done");
  });
});

describe("postgres pool", () => {
  test("the pool opens at most poolSize connections: 8 statements of 0.2 s on a pool of 2 take four rounds", async () => {
    const [store] = await machines(1, { poolSize: 2 });
    const started = performance.now();
    const backends = await Promise.all(Array.from({ length: 8 }, () => store!.sql`SELECT pg_backend_pid() AS pid, pg_sleep(0.2)`));
    expect(performance.now() - started).toBeGreaterThanOrEqual(790);
    expect(new Set(backends.map(([row]) => row.pid)).size).toBe(2);
  });

  test("the statement timeout is the pool's, and the URL's password never reaches a message", async () => {
    const [store] = await machines(1, { statementTimeoutMs: 200 });
    const started = performance.now();
    await expect(store!.sql`SELECT pg_sleep(2)`).rejects.toThrow(/statement timeout/);
    expect(performance.now() - started).toBeLessThan(1_500);
    expect(redactUrl("postgres://docintel:s3cret@db.internal:5432/docintel")).toBe("postgres://docintel:***@db.internal:5432/docintel");
    await expect(openPostgres("postgres://docintel:s3cret@127.0.0.1:1/nowhere", { ...OPTIONS, connectTimeoutS: 2 })).rejects.toThrow(/^open the PostgreSQL store at postgres:\/\/docintel:\*\*\*@127\.0\.0\.1:1\/nowhere: /);
  });
});

describe("postgres across processes", () => {
  const MACHINE = new URL("./helpers/pgMachine.ts", import.meta.url).pathname;

  async function firstLine(proc: Bun.Subprocess<"ignore", "pipe", "pipe">): Promise<string> {
    const reader = proc.stdout.getReader();
    let text = "";
    while (!text.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`machine exited without output: ${await new Response(proc.stderr).text()}`);
      text += new TextDecoder().decode(value);
    }
    reader.releaseLock();
    return text.split("\n")[0]!;
  }

  test("100 concurrent holds against 50 credits from three processes: exactly 50 succeed", async () => {
    const url = await cluster().newDatabase();
    const store = await open(url);
    const keyId = await makeKey(store!);
    expect(await store!.credits.charge(capOf(keyId), chargeOf(keyId, FREE_MONTHLY_CREDITS - 50))).toEqual({ ok: true });
    const startMs = Date.now() + 2_000; // every process connected by then: they fire together
    const procs = [34, 33, 33].map((n) =>
      Bun.spawn([process.execPath, MACHINE, "hold", url, keyId, String(n), String(FREE_MONTHLY_CREDITS), String(startMs)], { stdin: "ignore", stdout: "pipe", stderr: "pipe" }),
    );
    const results = await Promise.all(procs.map(async (p) => JSON.parse(await firstLine(p)) as { ok: number; refused: number }));
    await Promise.all(procs.map((p) => p.exited));
    expect(results.reduce((s, r) => s + r.ok, 0)).toBe(50);
    expect(results.reduce((s, r) => s + r.refused, 0)).toBe(50);
    const t = await store!.credits.totals(keyId, PERIOD, Date.now());
    expect(FREE_MONTHLY_CREDITS + t.granted - t.used - t.held).toBe(0);
  });

  test("a process killed with SIGKILL while it holds a task: another takes the task once the lease runs out", async () => {
    const url = await cluster().newDatabase();
    const store = await open(url);
    const keyId = await makeKey(store!);
    const taskId = id("task");
    await store!.tasks.insertTask({ id: taskId, key_id: keyId, operation: "markdown", input: "{}", webhook_url: null, batch_id: null, batch_index: null, hold_id: null, hold_amount: 0, source: null, created_at: nowIso() });
    const proc = Bun.spawn([process.execPath, MACHINE, "claim", url, "doomed", "2000"], { stdin: "ignore", stdout: "pipe", stderr: "pipe" });
    expect(JSON.parse(await firstLine(proc))).toEqual({ claimed: taskId });
    proc.kill("SIGKILL");
    await proc.exited;
    const claim = () => store!.tasks.claimNext({ operations: ["markdown"], owner: "survivor", leaseUntil: Date.now() + 30_000, nowMs: Date.now(), perBatch: 4, startedAt: nowIso() });
    expect(await claim()).toBeNull();
    const killedAt = Date.now();
    let taken = null;
    while (!taken && Date.now() - killedAt < 6_000) {
      taken = await claim();
      if (!taken) await Bun.sleep(25);
    }
    expect(taken).toMatchObject({ id: taskId, lease_owner: "survivor", attempts: 2 });
  });
});

describe("moving a SQLite data dir to PostgreSQL", () => {
  /** aSqliteStoreInUse fills a SQLite data dir the way a running service would */
  async function aSqliteStoreInUse(): Promise<{ sqlite: ReturnType<typeof openSqliteBackend>; keyId: string }> {
    const sqlite = openSqliteBackend(tempDir());
    opened.push(sqlite);
    const keyId = await makeKey(sqlite);
    await sqlite.keys.setWebhookSecret(keyId, "whsec_" + "x".repeat(20), nowIso());
    await makeKey(sqlite, "pro");
    await sqlite.credits.grant({ ...chargeOf(keyId, 40), kind: "grant", note: "welcome" });
    for (let i = 0; i < 3; i++) expect(await sqlite.credits.charge(capOf(keyId), chargeOf(keyId, 7))).toEqual({ ok: true });
    expect(await sqlite.credits.hold(capOf(keyId), holdOf(keyId, 5))).toEqual({ ok: true });
    await sqlite.tasks.insertBatch({ id: "batch_1", key_id: keyId, operation: "markdown", webhook_url: "https://hooks.example/b", item_count: 2, created_at: nowIso() });
    for (let i = 0; i < 1_200; i++) {
      await sqlite.tasks.insertTask({ id: `task_${String(i).padStart(4, "0")}`, key_id: keyId, operation: "markdown", input: `{"url":"https://example.com/${i}"}`, webhook_url: null, batch_id: i < 2 ? "batch_1" : null, batch_index: i < 2 ? i : null, hold_id: null, hold_amount: 0, source: null, created_at: nowIso() });
    }
    const done = await sqlite.tasks.claimNext(claimOfOwner("old-machine"));
    await sqlite.tasks.complete(done!.id, "old-machine", '{"markdown":"# hi"}', 7, nowIso());
    await sqlite.deliveries.insert({ id: "whd_1", task_id: done!.id, key_id: keyId, url: "https://hooks.example/t", payload: '{"task":1}', next_attempt_at: Date.now(), created_at: nowIso() });
    return { sqlite, keyId };
  }

  const claimOfOwner = (owner: string) => ({ operations: ["markdown"], owner, leaseUntil: Date.now() + 60_000, nowMs: Date.now(), perBatch: 4, startedAt: nowIso() });

  test("export then import: every row, the balance and the queue order arrive; a second import into the same database is refused", async () => {
    const { sqlite, keyId } = await aSqliteStoreInUse();
    const lines = await Array.fromAsync(exportSqlite(sqlite.store));
    const url = await cluster().newDatabase();
    const target = await open(url);
    const report = await importPostgres(target.sql, lines);
    expect(report).toEqual({ api_keys: 2, credit_ledger: 4, credit_holds: 1, batches: 1, tasks: 1_200, webhook_deliveries: 1, thumbnail_jobs: 0, settings: 0, blobs: 0 });

    const period = PERIOD;
    expect(await target.credits.totals(keyId, period, Date.now())).toEqual(await sqlite.credits.totals(keyId, period, Date.now()));
    expect(await target.keys.list()).toEqual(await sqlite.keys.list());
    expect(await target.tasks.batchItems("batch_1")).toEqual(await sqlite.tasks.batchItems("batch_1"));
    expect(await target.deliveries.get("whd_1")).toEqual(await sqlite.deliveries.get("whd_1"));
    expect(await target.tasks.queuePosition("task_0777")).toBe(await sqlite.tasks.queuePosition("task_0777"));
    // the next claim on PostgreSQL takes the task SQLite would have taken
    expect((await target.tasks.claimNext(claimOfOwner("new-machine")))!.id).toBe((await sqlite.tasks.claimNext(claimOfOwner("old-machine")))!.id);

    await expect(importPostgres(target.sql, lines)).rejects.toThrow(/already has rows; import into an empty database/);
  });

  test("a truncated or foreign file imports nothing and says why", async () => {
    const { sqlite } = await aSqliteStoreInUse();
    const lines = await Array.fromAsync(exportSqlite(sqlite.store));
    const target = await open(await cluster().newDatabase());
    await expect(importPostgres(target.sql, lines.filter((l) => !l.includes('"id":"task_119')))).rejects.toThrow(/tasks has 1190 rows in the file but the export counted 1200; the file is truncated/);
    const tampered = lines.map((l) => (l.includes('"table":"credit_ledger"') && l.includes('"kind":"charge"') ? l.replace('"amount":7', '"amount":1') : l));
    await expect(importPostgres(target.sql, tampered)).rejects.toThrow(/credit totals rebuilt from the ledger \(granted 40, used 3\) differ from the export's \(granted 40, used 21\)/);
    await expect(importPostgres(target.sql, ['{"hello":1}'])).rejects.toThrow(/line 1 is not a docintel export header/);
    await expect(importPostgres(target.sql, [lines[0]!, "not json"])).rejects.toThrow(/line 2 is not JSON/);
    const [n] = await target.sql`SELECT (SELECT count(*) FROM tasks)::int + (SELECT count(*) FROM api_keys)::int AS n`;
    expect(n.n).toBe(0);
  });
});
