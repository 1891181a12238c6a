/**
 * The engine's parts on both store backends (SQLite in a data dir, PostgreSQL in a throwaway
 * cluster, test/helpers/postgres.ts): the Ledger through StoreBackend, the TaskEngine end to end
 * in-process (accept -> claim -> run -> end -> webhook outbox row), settings and blobs, thumbnail job
 * records. The same test, the same expectations, on each backend.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { createLogger } from "../src/runtime/log";
import { Ledger } from "../src/credits/ledger";
import { FREE_MONTHLY_CREDITS } from "../src/credits/plans";
import { AppError } from "../src/errors";
import type { StoreBackend } from "../src/store/backend";
import { openPostgres } from "../src/store/postgres";
import { openSqliteBackend } from "../src/store/sqliteBackend";
import { TaskEngine } from "../src/tasks/engine";
import { INLINE_MAX_BYTES } from "../src/tasks/files";
import type { TaskKinds } from "../src/tasks/kinds";
import { WebhookDispatcher } from "../src/webhooks/dispatcher";
import { startPostgres, type TestPostgres } from "./helpers/postgres";
import { tempDir } from "./helpers/server";

let pg: TestPostgres;
const opened: StoreBackend[] = [];
const stops: (() => Promise<void>)[] = [];
const quiet = createLogger("error", () => {});

beforeAll(async () => {
  pg = await startPostgres();
});

afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
  await Promise.all(opened.splice(0).map((s) => s.close().catch(() => undefined)));
});

afterAll(async () => {
  await pg.stop();
});

type Kind = StoreBackend["kind"];

/** machinesOn opens `n` backends of a kind on one fresh store: processes (SQLite) or machines (PostgreSQL) */
async function machinesOn(kind: Kind, n: number, o: { warm?: boolean } = {}): Promise<StoreBackend[]> {
  let backends: StoreBackend[];
  if (kind === "postgres") {
    const url = await pg.newDatabase();
    // warm: every connection open before the test (so that concurrent statements really run at once)
    const options = { poolSize: 8, statementTimeoutMs: 10_000, changePollMs: 0, warm: o.warm };
    const first = await openPostgres(url, options);
    backends = [first, ...(await Promise.all(Array.from({ length: n - 1 }, () => openPostgres(url, options))))];
  } else {
    const dir = tempDir();
    backends = Array.from({ length: n }, () => openSqliteBackend(dir));
  }
  opened.push(...backends);
  return backends;
}

const nowIso = () => new Date().toISOString();
const id = (prefix: string) => `${prefix}_${randomBytes(6).toString("hex")}`;

async function makeKey(store: StoreBackend, plan: "free" | "pro" = "free"): Promise<{ id: string; plan: "free" | "pro" }> {
  const keyId = id("key");
  await store.keys.insert({ id: keyId, name: "test", plan, prefix: "dk_test", key_hash: randomBytes(16).toString("hex"), created_at: nowIso(), webhook_secret: null, webhook_secret_at: null });
  return { id: keyId, plan };
}

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return "ok";
  } catch (e) {
    return e instanceof AppError ? e.code : String(e);
  }
}

async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out; last value ${JSON.stringify(v)}`);
    await Bun.sleep(20);
  }
}

/** ECHO_KINDS: a trivial operation that returns what it read (the size of its file) and costs 2 */
const ECHO_KINDS: TaskKinds = {
  echo: {
    minimumCost: 1,
    run: async (input: { file?: File; word?: string }) => ({ result: { word: input.word ?? null, bytes: input.file?.size ?? 0 }, credits: 2 }),
  },
  /** cheap: costs what it holds, so the runner ends it through TaskStore.finish (one store call) */
  cheap: {
    minimumCost: 1,
    run: async (input: { word?: string }) => {
      if (input.word === "fail") throw new AppError("bad_request", "asked to fail");
      return { result: { word: input.word ?? null }, credits: 1 };
    },
  },
};

function engineOn(backend: StoreBackend, options: { concurrency?: number; maxPendingPerKey?: number } = {}) {
  const ledger = new Ledger(backend);
  // not started: deliveries stay due in the store, as the outbox of a process that has not sent them yet
  const webhooks = new WebhookDispatcher({ backend, sharedSecret: "whsec_test", allowPrivate: true, logger: quiet });
  const engine = new TaskEngine({ backend, ledger, webhooks, logger: quiet }, ECHO_KINDS, {}, { concurrency: options.concurrency ?? 4, leaseMs: 5_000, pollMs: 50, maxPendingPerKey: options.maxPendingPerKey ?? 1000 });
  stops.push(() => engine.stop(1_000));
  return { engine, ledger };
}

for (const kind of ["sqlite", "postgres"] as const) {
  describe(kind, () => {
    describe("Ledger", () => {
      test("hold, settle, release, charge and grant move the balance; 402 past it, with the detail of today", async () => {
        const [store] = await machinesOn(kind, 1);
        const account = await makeKey(store!);
        const ledger = new Ledger(store!);
        expect(await ledger.balance(account)).toMatchObject({ allowance: FREE_MONTHLY_CREDITS, used: 0, held: 0, remaining: FREE_MONTHLY_CREDITS });
        const a = await ledger.hold(account, 3);
        expect(await ledger.balance(account)).toMatchObject({ held: 3, remaining: 97 });
        await ledger.settle(a, 12, { operation: "extract", requestId: "r1" });
        const b = await ledger.hold(account, 5);
        await ledger.release(b);
        await ledger.grant(account.id, 10);
        expect(await ledger.balance(account)).toMatchObject({ granted: 10, used: 12, held: 0, remaining: 98 });
        await ledger.charge(account, 97, { operation: "x" });
        const error = await ledger.charge(account, 3, { operation: "extract" }).catch((e) => e);
        expect(error).toBeInstanceOf(AppError);
        expect(error.status).toBe(402);
        expect(error.detail).toContain("needs 3 credits and 1 remain");
        expect(error.detail).toContain(`credits grant ${account.id}`);
        expect(await ledger.housekeeping()).toBe(0);
      });

      test("a settle past the balance charges nothing, releases the hold and says 402; metered keys have no cap", async () => {
        const [store] = await machinesOn(kind, 1);
        const account = await makeKey(store!);
        const ledger = new Ledger(store!);
        await ledger.charge(account, 95, { operation: "setup" });
        const hold = await ledger.hold(account, 3);
        expect(await codeOf(ledger.settle(hold, 40, { operation: "extract" }))).toBe("insufficient_credits");
        expect(await ledger.balance(account)).toMatchObject({ used: 95, held: 0, remaining: 5 });
        const pro = await makeKey(store!, "pro");
        await ledger.charge(pro, 5000, { operation: "analyze" });
        expect(await ledger.balance(pro)).toMatchObject({ allowance: null, used: 5000, remaining: null });
      });

      test("100 concurrent holds through Ledgers on three machines against 50 credits: exactly 50 succeed", async () => {
        const stores = await machinesOn(kind, 3);
        const account = await makeKey(stores[0]!);
        const ledgers = stores.map((s) => new Ledger(s));
        await ledgers[0]!.charge(account, FREE_MONTHLY_CREDITS - 50, { operation: "setup" });
        const outcomes = await Promise.all(Array.from({ length: 100 }, (_, i) => codeOf(ledgers[i % 3]!.hold(account, 1))));
        expect(outcomes.filter((o) => o === "ok")).toHaveLength(50);
        expect(outcomes.filter((o) => o === "insufficient_credits")).toHaveLength(50);
        expect(await ledgers[1]!.balance(account)).toMatchObject({ used: 50, held: 50, remaining: 0 });
      });

      test("a hold inside a transaction that rolls back leaves nothing", async () => {
        const [store] = await machinesOn(kind, 1);
        const account = await makeKey(store!);
        const ledger = new Ledger(store!);
        await expect(
          store!.transaction(async (tx) => {
            await ledger.hold(account, 30, undefined, tx);
            throw new Error("roll back");
          }),
        ).rejects.toThrow("roll back");
        expect(await ledger.balance(account)).toMatchObject({ held: 0, remaining: FREE_MONTHLY_CREDITS });
      });
    });

    describe("TaskEngine", () => {
      test("accept -> claim -> run -> end: result, charge, webhook outbox row, input blob gone", async () => {
        const [store] = await machinesOn(kind, 1);
        const account = await makeKey(store!);
        const { engine, ledger } = engineOn(store!);
        const big = new File([new Uint8Array(INLINE_MAX_BYTES + 10).fill(7)], "big.bin", { type: "application/octet-stream" });
        const accepted = await engine.accept(account, { operation: "echo", input: { file: big, word: "hi" }, webhookUrl: "http://127.0.0.1:9/hook" });
        expect(accepted).toMatchObject({ status: "pending", poll_url: `/api/v1/jobs/${accepted.task_id}` });
        expect((await store!.blobs.list(`inputs/${accepted.task_id}`)).map((b) => b.name)).toEqual([`inputs/${accepted.task_id}/0`]);
        expect(await ledger.balance(account)).toMatchObject({ held: 1 });
        engine.start();
        const row = await until(() => store!.tasks.get(accepted.task_id), (r) => r?.status === "completed");
        expect(JSON.parse(row!.result!)).toEqual({ word: "hi", bytes: INLINE_MAX_BYTES + 10 });
        expect(row).toMatchObject({ credits_used: 2, attempts: 1, lease_owner: null, input: "{}" });
        expect(await ledger.balance(account)).toMatchObject({ used: 2, held: 0 });
        const [delivery] = await store!.deliveries.ofTask(accepted.task_id);
        expect(delivery).toMatchObject({ task_id: accepted.task_id, key_id: account.id, url: "http://127.0.0.1:9/hook", status: "pending", attempts: 0 });
        expect(JSON.parse(delivery!.payload)).toMatchObject({ task_id: accepted.task_id, status: "completed", credits_used: 2, result: { word: "hi" } });
        await until(() => store!.blobs.list(`inputs/${accepted.task_id}`), (l) => l.length === 0);
      });

      test("an ending the hold covers is one store call: result, charge, webhook row; a failure releases the hold", async () => {
        const [store] = await machinesOn(kind, 1);
        const account = await makeKey(store!);
        const { engine, ledger } = engineOn(store!);
        const ok = await engine.accept(account, { operation: "cheap", input: { word: "hi" }, webhookUrl: "http://127.0.0.1:9/hook" });
        const bad = await engine.accept(account, { operation: "cheap", input: { word: "fail" }, webhookUrl: "http://127.0.0.1:9/hook" });
        engine.start();
        const done = await until(() => store!.tasks.get(ok.task_id), (r) => r?.status === "completed");
        expect(JSON.parse(done!.result!)).toEqual({ word: "hi" });
        expect(done).toMatchObject({ credits_used: 1, attempts: 1, lease_owner: null, lease_expires_at: null, input: "{}", error: null });
        const failed = await until(() => store!.tasks.get(bad.task_id), (r) => r?.status === "failed");
        expect(JSON.parse(failed!.error!)).toEqual({ error: "bad_request", detail: "asked to fail" });
        expect(failed).toMatchObject({ credits_used: 0, lease_owner: null, input: "{}", result: null });
        expect(await ledger.balance(account)).toMatchObject({ used: 1, held: 0 });
        const [delivered] = await store!.deliveries.ofTask(ok.task_id);
        expect(JSON.parse(delivered!.payload)).toEqual({ task_id: ok.task_id, status: "completed", created_at: done!.created_at, completed_at: done!.completed_at, credits_used: 1, result: { word: "hi" } });
        const [refused] = await store!.deliveries.ofTask(bad.task_id);
        expect(JSON.parse(refused!.payload)).toEqual({ task_id: bad.task_id, status: "failed", created_at: failed!.created_at, completed_at: failed!.completed_at, credits_used: 0, error: { error: "bad_request", detail: "asked to fail" } });
      });

      test("claimNext reads the key's revocation with the claim (the runner then fails the task without running it)", async () => {
        const [store] = await machinesOn(kind, 1);
        const live = await makeKey(store!);
        const revoked = await makeKey(store!);
        const { engine } = engineOn(store!);
        const first = await engine.accept(live, { operation: "cheap", input: { word: "a" } });
        const second = await engine.accept(revoked, { operation: "cheap", input: { word: "b" } });
        expect(await store!.keys.revoke(revoked.id, nowIso())).toBe(1);
        const claim = (owner: string) => {
          const now = Date.now();
          return store!.tasks.claimNext({ operations: ["cheap"], owner, leaseUntil: now + 60_000, nowMs: now, perBatch: 4, startedAt: nowIso() });
        };
        const a = (await claim("me"))!;
        const b = (await claim("me"))!;
        expect([a.id, a.keyRevoked, a.status, a.lease_owner]).toEqual([first.task_id, false, "processing", "me"]);
        expect([b.id, b.keyRevoked, b.status, b.attempts]).toEqual([second.task_id, true, "processing", 1]);
        expect(await claim("me")).toBeNull();
      });

      test("TaskStore.finish writes nothing for another owner, for a charge past the hold or past the hold's TTL", async () => {
        const [store] = await machinesOn(kind, 1);
        const account = await makeKey(store!);
        const { engine, ledger } = engineOn(store!);
        const { task_id } = await engine.accept(account, { operation: "cheap", input: { word: "x" } });
        const now = Date.now();
        const claimed = (await store!.tasks.claimNext({ operations: ["cheap"], owner: "me", leaseUntil: now + 60_000, nowMs: now, perBatch: 4, startedAt: nowIso() }))!;
        expect(claimed.id).toBe(task_id);
        const charge = (amount: number) => ledger.chargeEntry(account.id, amount, { operation: "cheap", requestId: task_id });
        const delivery = { id: id("whd"), task_id, key_id: account.id, url: "http://127.0.0.1:9/hook", payload: "{}", next_attempt_at: now, created_at: nowIso() };
        const finish = { id: task_id, owner: "me", status: "completed" as const, result: '{"a":1}', error: null, credits: 1, completedAt: nowIso(), progress: [3, 3] as [number, number], holdId: claimed.hold_id, charge: charge(1), delivery };
        expect(await store!.tasks.finish({ ...finish, owner: "someone else" })).toBe("lease_lost");
        expect(await store!.tasks.finish({ ...finish, credits: 2, charge: charge(2) })).toBe("not_covered");
        // a hold whose TTL (24 h) has passed by the ending reserves nothing: the ledger's balance check decides
        expect(await store!.tasks.finish({ ...finish, completedAt: new Date(now + 25 * 3_600_000).toISOString() })).toBe("not_covered");
        expect(await store!.tasks.get(task_id)).toMatchObject({ status: "processing", lease_owner: "me", result: null, progress_total: null });
        expect(await ledger.balance(account)).toMatchObject({ used: 0, held: 1 });
        expect(await store!.deliveries.ofTask(task_id)).toEqual([]);
        expect(await store!.tasks.finish(finish)).toBe("ended");
        expect(await store!.tasks.get(task_id)).toMatchObject({ status: "completed", result: '{"a":1}', credits_used: 1, progress_done: 3, progress_total: 3, lease_owner: null, input: "{}" });
        expect(await ledger.balance(account)).toMatchObject({ used: 1, held: 0 });
        expect((await store!.deliveries.ofTask(task_id)).map((d) => d.id)).toEqual([delivery.id]);
        expect(await store!.tasks.finish(finish)).toBe("lease_lost"); // ended once
      });

      test("two engines on one store run 40 tasks of a batch, each exactly once, and end the batch once", async () => {
        // PostgreSQL: two machines. SQLite: two runners on the process's one backend (a process opens
        // one; two handles in one process would block each other's BEGIN IMMEDIATE on the event loop)
        const stores = kind === "postgres" ? await machinesOn(kind, 2) : await machinesOn(kind, 1).then(([one]) => [one!, one!]);
        const account = await makeKey(stores[0]!, "pro");
        const engines = stores.map((s) => engineOn(s, { concurrency: 3 }).engine);
        const items = Array.from({ length: 40 }, (_, i) => ({ input: { word: `w${i}` } }));
        const batch = await engines[0]!.acceptBatch(account, "echo", items, "http://127.0.0.1:9/batch");
        for (const e of engines) e.start();
        const done = await until(() => stores[1]!.tasks.getBatch(batch.batch_id), (b) => b?.status === "completed", 30_000);
        expect(done).toMatchObject({ item_count: 40, credits_used: 80 });
        const tasks = await stores[0]!.tasks.batchItems(batch.batch_id);
        expect(tasks.map((t) => [t.status, t.attempts])).toEqual(tasks.map(() => ["completed", 1]));
        expect(new Set(tasks.map((t) => JSON.parse(t.result!).word)).size).toBe(40);
        // one webhook for the batch, none per item
        expect(await stores[0]!.deliveries.ofTask(batch.batch_id)).toHaveLength(1);
        expect(await stores[0]!.deliveries.ofTask(tasks[0]!.id)).toHaveLength(0);
        const charges = await new Ledger(stores[0]!).balance(account);
        expect(charges).toMatchObject({ used: 80, held: 0 });
      });

      test("cancel releases the hold and writes no webhook; 402 at acceptance rolls every row back", async () => {
        const [store] = await machinesOn(kind, 1);
        const account = await makeKey(store!);
        const { engine, ledger } = engineOn(store!);
        const { task_id } = await engine.accept(account, { operation: "echo", input: { word: "x" }, webhookUrl: "http://127.0.0.1:9/hook" });
        expect(await engine.cancel(task_id)).toBe(true);
        expect(await engine.cancel(task_id)).toBe(false);
        expect((await store!.tasks.get(task_id))!.status).toBe("cancelled");
        expect(await store!.deliveries.ofTask(task_id)).toHaveLength(0);
        expect(await ledger.balance(account)).toMatchObject({ held: 0, used: 0 });
        await ledger.charge(account, FREE_MONTHLY_CREDITS - 1, { operation: "setup" });
        const refused = await engine.acceptBatch(account, "echo", [{ input: { word: "a" } }, { input: { word: "b" } }]).catch((e) => e);
        expect(refused.code).toBe("insufficient_credits");
        expect(await store!.tasks.unfinishedOfKey(account.id)).toBe(0);
      });

      test("the per-key cap on pending tasks holds when two machines accept for one key at once", async () => {
        const stores = await machinesOn(kind, 2, { warm: true });
        const account = await makeKey(stores[0]!, "pro");
        const engines = stores.map((s) => engineOn(s, { maxPendingPerKey: 5 }).engine); // not started: every accepted task stays pending
        const outcomes = await Promise.all(Array.from({ length: 40 }, (_, i) => codeOf(engines[i % 2]!.accept(account, { operation: "echo", input: { word: `w${i}` } }))));
        expect(outcomes.filter((o) => o === "ok")).toHaveLength(5);
        expect(outcomes.filter((o) => o === "rate_limited")).toHaveLength(35);
        expect(await stores[1]!.tasks.unfinishedOfKey(account.id)).toBe(5);
        // a batch is counted whole: 1 free slot left after a cancel, a batch of 2 is refused, 1 item fits
        const [first] = (await stores[0]!.tasks.unfinishedIds()).values();
        expect(await engines[0]!.cancel(first!)).toBe(true);
        expect(await codeOf(engines[1]!.acceptBatch(account, "echo", [{ input: { word: "a" } }, { input: { word: "b" } }]))).toBe("rate_limited");
        expect(await codeOf(engines[1]!.acceptBatch(account, "echo", [{ input: { word: "a" } }]))).toBe("ok");
        expect(await stores[0]!.tasks.unfinishedOfKey(account.id)).toBe(5);
        expect(await new Ledger(stores[0]!).balance(account)).toMatchObject({ held: 5 });
      });

      test("acceptances arriving together each get their own outcome: the cap, the balance, a duplicate id", async () => {
        // many acceptances of several keys at once on one machine: each outcome is that of
        // acceptances made one after the other (the cap and the balance counted exactly)
        const [store] = await machinesOn(kind, 1, { warm: true });
        const { engine, ledger } = engineOn(store!, { maxPendingPerKey: 7 }); // not started: accepted tasks stay pending
        const short = await makeKey(store!); // free: 5 credits left, each task holds 1
        await ledger.charge(short, FREE_MONTHLY_CREDITS - 5, { operation: "setup" });
        const capped = await makeKey(store!, "pro"); // 7 may wait at once
        const plain = await makeKey(store!, "pro");
        const fresh = await makeKey(store!, "pro");
        type Arrival = { account: typeof plain; word: string; id?: string };
        const acceptAll = (wave: Arrival[]) => Promise.all(wave.map((w) => codeOf(engine.accept(w.account, { operation: "echo", input: { word: w.word }, id: w.id }))));
        const wave: Arrival[] = [
          ...Array.from({ length: 10 }, (_, i) => ({ account: short, word: `s${i}` })),
          ...Array.from({ length: 10 }, (_, i) => ({ account: capped, word: `c${i}` })),
          ...Array.from({ length: 4 }, (_, i) => ({ account: plain, word: `p${i}` })),
        ].sort((a, b) => a.word.slice(1).localeCompare(b.word.slice(1))); // the keys interleaved
        const outcomes = await acceptAll(wave);
        const of = (account: Arrival["account"]) => outcomes.filter((_, i) => wave[i]!.account === account);
        expect(of(short).filter((o) => o === "ok")).toHaveLength(5);
        expect(of(short).filter((o) => o === "insufficient_credits")).toHaveLength(5);
        expect(of(capped).filter((o) => o === "ok")).toHaveLength(7);
        expect(of(capped).filter((o) => o === "rate_limited")).toHaveLength(3);
        expect(of(plain)).toEqual(["ok", "ok", "ok", "ok"]);
        expect(await store!.tasks.unfinishedOfKey(short.id)).toBe(5);
        expect(await store!.tasks.unfinishedOfKey(capped.id)).toBe(7);
        expect(await ledger.balance(short)).toMatchObject({ held: 5, remaining: 0 });
        // an error of one (an id taken) is its own: the others arriving with it are accepted
        const taken = (await store!.tasks.unfinishedIds()).values().next().value as string;
        const second: Arrival[] = [...Array.from({ length: 6 }, (_, i) => ({ account: fresh, word: `q${i}` })), { account: fresh, word: "again", id: taken }];
        const secondOutcomes = await acceptAll(second);
        expect(secondOutcomes.slice(0, 6)).toEqual(Array(6).fill("ok"));
        expect(secondOutcomes[6]).toMatch(/unique|constraint|duplicate/i); // the store's own error, not a refusal
        expect(await store!.tasks.unfinishedOfKey(fresh.id)).toBe(6);
        expect(JSON.parse((await store!.tasks.get(taken))!.input).word).not.toBe("again");
      });

      test("two items of a batch that end at the same moment end the batch exactly once", async () => {
        // the race of 3e87b01/cf8d626: under READ COMMITTED each ending saw the other item still
        // running and neither ended the batch, unless the ending locks the batch's row first. Here
        // each item's ending transaction has written its task row, then waits (in the kind's `ended`)
        // for the other's to get there too, so both count the batch's items at once.
        const stores = kind === "postgres" ? await machinesOn(kind, 2, { warm: true }) : await machinesOn(kind, 1).then(([one]) => [one!, one!]);
        const account = await makeKey(stores[0]!, "pro");
        const meetings = new Map<string, { count: number; all: PromiseWithResolvers<void>; met: boolean[] }>();
        const kinds: TaskKinds = {
          meet: {
            minimumCost: 0,
            // free: a charge's ledger entry would update the key's credit totals row, on which the second ending would wait
            run: async (input: { batch: string }) => ({ result: { batch: input.batch }, credits: 0 }),
            ended: async (task) => {
              const meeting = meetings.get(task.batch_id!) ?? { count: 0, all: Promise.withResolvers<void>(), met: [] };
              meetings.set(task.batch_id!, meeting);
              if (++meeting.count === 2) meeting.all.resolve();
              // SQLite runs one transaction at a time (the second waits for the first's commit): it stops waiting
              const met = await Promise.race([meeting.all.promise.then(() => true), Bun.sleep(kind === "sqlite" ? 200 : 5_000).then(() => false)]);
              meeting.met.push(met);
              return {};
            },
          },
        };
        const engines = stores.map((backend) => {
          const webhooks = new WebhookDispatcher({ backend, sharedSecret: "whsec_test", allowPrivate: true, logger: quiet });
          const engine = new TaskEngine({ backend, ledger: new Ledger(backend), webhooks, logger: quiet }, kinds, {}, { concurrency: 1, leaseMs: 10_000, pollMs: 20, maxPendingPerKey: 1000 });
          stops.push(() => engine.stop(1_000));
          return engine;
        });
        for (const e of engines) e.start();
        for (let round = 0; round < 4; round++) {
          const batch = await engines[0]!.acceptBatch(account, "meet", [0, 1].map(() => ({ input: { batch: `b${round}` } })), "http://127.0.0.1:9/batch");
          for (const e of engines) e.wake();
          const ended = await until(() => stores[1]!.tasks.getBatch(batch.batch_id), (b) => b?.status !== "pending" && b?.status !== "processing", 10_000);
          expect(ended).toMatchObject({ status: "completed", item_count: 2, credits_used: 0 });
          expect(await stores[0]!.deliveries.ofTask(batch.batch_id)).toHaveLength(1);
          if (kind === "postgres") expect(meetings.get(batch.batch_id)!.met).toEqual([true, true]); // both endings were open at once
        }
      });

      test("claims on two machines never run more than perBatch items of one batch at once", async () => {
        const stores = await machinesOn(kind, 2, { warm: true });
        const account = await makeKey(stores[0]!, "pro");
        const { engine } = engineOn(stores[0]!); // accepts only
        const batch = await engine.acceptBatch(account, "echo", Array.from({ length: 12 }, (_, i) => ({ input: { word: `w${i}` } })));
        const single = await engine.accept(account, { operation: "echo", input: { word: "alone" } });
        const nowMs = Date.now();
        const claims = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            stores[i % 2]!.tasks.claimNext({ operations: ["echo"], owner: `claimer${i}`, leaseUntil: nowMs + 60_000, nowMs, perBatch: 3, startedAt: nowIso() }),
          ),
        );
        const taken = claims.filter((c) => c !== null);
        expect(taken.filter((t) => t!.batch_id === batch.batch_id)).toHaveLength(3);
        expect(taken.filter((t) => t!.id === single.task_id)).toHaveLength(1); // the task outside the batch is not held up
        expect(new Set(taken.map((t) => t!.id)).size).toBe(taken.length);
        expect((await stores[1]!.tasks.batchCounts(batch.batch_id)).processing).toBe(3);
      });

      test("retention: ended tasks and batches go, with their delivered or dead deliveries; pending deliveries stay", async () => {
        const [store] = await machinesOn(kind, 1);
        const account = await makeKey(store!, "pro");
        const { engine } = engineOn(store!);
        const a = await engine.accept(account, { operation: "echo", input: { word: "a" }, webhookUrl: "http://127.0.0.1:9/a" });
        const b = await engine.accept(account, { operation: "echo", input: { word: "b" }, webhookUrl: "http://127.0.0.1:9/b" });
        const plain = await engine.accept(account, { operation: "echo", input: { word: "c" } });
        engine.start();
        // all three end before the sweep (on a loaded machine the third may still be running at the first two's end)
        for (const { task_id } of [a, b, plain]) await until(() => store!.tasks.get(task_id), (r) => r?.status === "completed");
        await engine.stop(1_000);
        const [delivered] = await store!.deliveries.ofTask(a.task_id);
        await store!.deliveries.record({ id: delivered!.id, status: "delivered", status_code: 200, next_attempt_at: null, last_error: null, delivered_at: nowIso() });
        const later = new Date(Date.now() + 60_000).toISOString();
        const swept = await store!.tasks.removeEndedBefore(later);
        expect(swept).toEqual({ tasks: 3, batches: 0, deliveries: 1 });
        expect(await store!.tasks.get(a.task_id)).toBeNull();
        expect(await store!.deliveries.ofTask(a.task_id)).toHaveLength(0);
        expect(await store!.deliveries.ofTask(b.task_id)).toHaveLength(1); // still pending: its schedule goes on
        expect(await store!.tasks.get(plain.task_id)).toBeNull(); // no webhook: nothing keeps it
      });
    });

    describe("settings and blobs", () => {
      test("two concurrent getOrCreate return the same value, made once", async () => {
        const stores = await machinesOn(kind, 2);
        let made = 0;
        const make = () => `value-${++made}-${randomBytes(4).toString("hex")}`;
        const values = await Promise.all([stores[0]!.settings.getOrCreate("url-signing-key", make), stores[1]!.settings.getOrCreate("url-signing-key", make)]);
        expect(values[0]).toBe(values[1]!);
        expect(await stores[1]!.settings.getOrCreate("url-signing-key", () => "other")).toBe(values[0]!);
      });

      test("put, get, size, info, list and remove; another machine reads what one wrote", async () => {
        const stores = await machinesOn(kind, 2);
        const bytes = new Uint8Array(100_000).map((_, i) => i % 251);
        const before = Date.now() - 1_000;
        await stores[0]!.blobs.put("inputs/task_a/0", bytes);
        await stores[0]!.blobs.put("inputs/task_a/1", new Blob(["hello"]));
        await stores[0]!.blobs.put("inputs/task_b/0", new Uint8Array([1, 2, 3]));
        expect(await stores[1]!.blobs.get("inputs/task_a/0")).toEqual(bytes);
        expect(await stores[1]!.blobs.size("inputs/task_a/1")).toBe(5);
        const info = await stores[1]!.blobs.info("inputs/task_a/0");
        expect(info!.size).toBe(100_000);
        expect(info!.createdAt).toBeGreaterThan(before);
        expect(await stores[1]!.blobs.get("inputs/task_c/0")).toBeNull();
        expect(await stores[1]!.blobs.info("inputs/task_c/0")).toBeNull();
        expect((await stores[1]!.blobs.list("inputs")).map((b) => b.name).sort()).toEqual(["inputs/task_a/0", "inputs/task_a/1", "inputs/task_b/0"]);
        await stores[0]!.blobs.put("inputs/task_b/0", new Uint8Array([9]));
        expect(await stores[1]!.blobs.get("inputs/task_b/0")).toEqual(new Uint8Array([9]));
        expect(await stores[1]!.blobs.remove("inputs/task_a")).toBe(2);
        expect((await stores[0]!.blobs.list("inputs")).map((b) => b.name)).toEqual(["inputs/task_b/0"]);
        expect(() => stores[0]!.blobs.get("../etc/passwd")).toThrow();
      });
    });

    describe("thumbnail job records", () => {
      test("insert, byId (processing while its task runs), complete, fail, endedBefore, failWithoutTask, remove", async () => {
        const [store] = await machinesOn(kind, 1);
        const account = await makeKey(store!);
        const t = store!.thumbnails;
        const job = (jobId: string, input = JSON.stringify({ size: { width: 10, height: 10, quality: 90 }, responseType: "url" })) => ({ id: jobId, key_id: account.id, status: "pending" as const, input, webhook_url: null, created_at: nowIso() });
        await store!.transaction(async (tx) => {
          await tx.thumbnails.insert(job("thumb_a"));
          await tx.tasks.insertTask({ id: "thumb_a", key_id: account.id, operation: "thumbnail", input: "{}", webhook_url: null, batch_id: null, batch_index: null, hold_id: null, hold_amount: 0, source: null, created_at: nowIso() });
        });
        expect((await t.byId("thumb_a"))!.status).toBe("pending");
        const claimed = await store!.tasks.claimNext({ operations: ["thumbnail"], owner: "me", leaseUntil: Date.now() + 10_000, nowMs: Date.now(), perBatch: 4, startedAt: nowIso() });
        expect(claimed!.id).toBe("thumb_a");
        expect((await t.byId("thumb_a"))!.status).toBe("processing");
        expect(await t.complete({ id: "thumb_a", image_path: "thumbnails/images/thumb_a.jpg", width: 10, height: 8, handler: "image", credits_used: 1, completed_at: nowIso() })).toBe(1);
        expect(await t.byId("thumb_a")).toMatchObject({ status: "completed", image_path: "thumbnails/images/thumb_a.jpg", width: 10, height: 8, handler: "image", credits_used: 1 });

        await t.insert(job("thumb_b"));
        expect(await t.fail("thumb_b", JSON.stringify({ error: "x", detail: "y" }), null, nowIso())).toBe(1);
        expect((await t.byId("thumb_b"))!.status).toBe("failed");

        // a job of an older version (its input names where it was stored) and no task: failed at start
        await t.insert(job("thumb_old", JSON.stringify({ source: { kind: "url", url: "http://x" } })));
        await t.insert(job("thumb_new"));
        expect(await t.failWithoutTask(JSON.stringify({ error: "internal_error", detail: "upgrade" }), nowIso())).toBe(1);
        expect((await t.byId("thumb_old"))!.status).toBe("failed");
        expect((await t.byId("thumb_new"))!.status).toBe("pending");

        await t.insertCompleted({ id: "thumb_sync", key_id: account.id, input: "{}", image_path: "thumbnails/images/thumb_sync.jpg", width: 1, height: 1, handler: "image", credits_used: 1, created_at: nowIso(), completed_at: nowIso() });
        const ended = await t.endedBefore(new Date(Date.now() + 60_000).toISOString());
        expect(ended.map((r) => r.id).sort()).toEqual(["thumb_a", "thumb_b", "thumb_old", "thumb_sync"]);
        expect(await t.remove("thumb_sync")).toBe(1);
        expect(await t.byId("thumb_sync")).toBeNull();
      });
    });
  });
}
