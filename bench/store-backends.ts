/**
 * store-backends: the two StoreBackend implementations under the same load, in this process (no
 * HTTP): SQLite (three handles on one data dir, as three processes would share it) against
 * PostgreSQL (three pools of 10 on one database in a throwaway local cluster, as three machines;
 * fsync off, as in the tests, so this is the cost of round trips and locks, not of a disk).
 *
 *   credit moves: BENCH_CONCURRENCY loops of hold + settle on one of 30 capped keys (the key lock)
 *   task claims:  600 accepted tasks, 8 claimers per handle: claimNext + complete until none is left
 *
 * No goal: PostgreSQL is not wired into the service yet (docs/postgres.md); the numbers say what
 * the wiring starts from. The last line, `RESULT ...`, is what bench/run.ts collects.
 */
import { randomBytes } from "node:crypto";
import { openPostgres } from "../src/store/postgres";
import { openSqliteBackend } from "../src/store/sqliteBackend";
import type { StoreBackend } from "../src/store/backend";
import { startPostgres } from "../test/helpers/postgres";
import { tempDir } from "../test/helpers/server";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const TASKS = 600;
const KEYS = 30;

const period = new Date().toISOString().slice(0, 7);
const rid = (p: string) => `${p}_${randomBytes(6).toString("hex")}`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

async function makeKeys(b: StoreBackend): Promise<string[]> {
  const ids = Array.from({ length: KEYS }, () => rid("key"));
  for (const id of ids) await b.keys.insert({ id, name: "bench", plan: "free", prefix: "dk_bench", key_hash: randomBytes(16).toString("hex"), created_at: new Date().toISOString(), webhook_secret: null, webhook_secret_at: null });
  return ids;
}

async function creditMoves(handles: StoreBackend[], keys: string[]): Promise<{ perSecond: number; p50: number; p99: number }> {
  const latencies: number[] = [];
  const until = performance.now() + SECONDS * 1000;
  const loop = async (i: number) => {
    const b = handles[i % handles.length]!;
    while (performance.now() < until) {
      const keyId = keys[Math.floor(Math.random() * keys.length)]!;
      const cap = { keyId, allowance: 1_000_000_000, period, nowMs: Date.now() };
      const t0 = performance.now();
      const hold = { id: rid("hold"), key_id: keyId, amount: 1, period, created_at: new Date().toISOString(), expires_at: Date.now() + 60_000 };
      if (!(await b.credits.hold(cap, hold)).ok) throw new Error("hold refused");
      await b.credits.settle(cap, hold.id, { key_id: keyId, kind: "charge", amount: 1, period, operation: "bench", request_id: null, note: null, created_at: new Date().toISOString() });
      latencies.push(performance.now() - t0);
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, (_, i) => loop(i)));
  return { perSecond: latencies.length / ((performance.now() - start) / 1000), p50: pct(latencies, 0.5), p99: pct(latencies, 0.99) };
}

async function taskClaims(handles: StoreBackend[], keyId: string): Promise<number> {
  for (let i = 0; i < TASKS; i++) {
    await handles[0]!.tasks.insertTask({ id: rid("task"), key_id: keyId, operation: "bench", input: "{}", webhook_url: null, batch_id: null, batch_index: null, hold_id: null, hold_amount: 0, source: null, created_at: new Date().toISOString() });
  }
  let done = 0;
  const claimer = async (b: StoreBackend, owner: string) => {
    for (;;) {
      const row = await b.tasks.claimNext({ operations: ["bench"], owner, leaseUntil: Date.now() + 60_000, nowMs: Date.now(), perBatch: 4, startedAt: new Date().toISOString() });
      if (!row) return;
      if (!(await b.tasks.complete(row.id, owner, "{}", 0, new Date().toISOString()))) throw new Error("lost a lease");
      done++;
    }
  };
  const start = performance.now();
  await Promise.all(handles.flatMap((b, h) => Array.from({ length: 8 }, (_, c) => claimer(b, `h${h}c${c}`))));
  if (done !== TASKS) throw new Error(`${done} of ${TASKS} tasks completed`);
  return done / ((performance.now() - start) / 1000);
}

const pg = await startPostgres();
try {
  const url = await pg.newDatabase();
  const pgHandles: StoreBackend[] = [];
  for (let i = 0; i < 3; i++) pgHandles.push(await openPostgres(url, { poolSize: 10, statementTimeoutMs: 30_000 }));
  const dir = tempDir();
  const sqliteHandles: StoreBackend[] = [0, 1, 2].map(() => openSqliteBackend(dir));
  const backends = { sqlite: sqliteHandles, postgres: pgHandles };
  const results: Record<string, { moves: number[]; p99: number[]; claims: number[] }> = { sqlite: { moves: [], p99: [], claims: [] }, postgres: { moves: [], p99: [], claims: [] } };
  const keys = { sqlite: await makeKeys(sqliteHandles[0]!), postgres: await makeKeys(pgHandles[0]!) };
  for (let round = 1; round <= ROUNDS; round++) {
    for (const kind of ["sqlite", "postgres"] as const) {
      const m = await creditMoves(backends[kind], keys[kind]);
      const c = await taskClaims(backends[kind], keys[kind][0]!);
      results[kind]!.moves.push(m.perSecond);
      results[kind]!.p99.push(m.p99);
      results[kind]!.claims.push(c);
      console.log(`round ${round} ${kind.padEnd(8)} hold+settle ${m.perSecond.toFixed(0)}/s (p50 ${m.p50.toFixed(1)} ms, p99 ${m.p99.toFixed(1)} ms)  claim+complete ${c.toFixed(0)} tasks/s`);
    }
  }
  await Promise.all([...pgHandles, ...sqliteHandles].map((b) => b.close()));
  const s = results.sqlite!;
  const p = results.postgres!;
  console.log(
    `RESULT store-backends postgres/sqlite: hold+settle ${(median(p.moves) / median(s.moves)).toFixed(2)} (${median(p.moves).toFixed(0)} / ${median(s.moves).toFixed(0)} per s, p99 ${median(p.p99).toFixed(1)} / ${median(s.p99).toFixed(1)} ms), ` +
      `claim+complete ${(median(p.claims) / median(s.claims)).toFixed(2)} (${median(p.claims).toFixed(0)} / ${median(s.claims).toFixed(0)} tasks/s), medians of ${ROUNDS}; no goal (not wired yet)`,
  );
} finally {
  await pg.stop();
}
