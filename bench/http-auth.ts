/**
 * http-auth: requests/s of an authenticated, rate-limited cheap request (GET /api/v1/usage with
 * X-API-Key: key lookup + per-key rate-limit upsert + a small JSON answer) against a bare
 * `Bun.serve` that answers "hello", both separate processes on this machine, driven by the same
 * load generator in this process. Goal: docintel/baseline >= 0.5 (medians over the rounds).
 *
 *   bun bench/http-auth.ts                          5 rounds x 5 s, 32 connections
 *   BENCH_ROUNDS=3 BENCH_SECONDS=3 bun bench/http-auth.ts
 *
 * Other knobs: BENCH_WARMUP_SECONDS (1), BENCH_CONCURRENCY (32), BENCH_PATH (/api/v1/usage; set
 * /healthz to see the server without auth, for profiling only).
 *
 * Enterprise keys allow 600 requests per minute each, so the load generator rotates through as many
 * keys as it needs (made directly in the server's store) and never sends more than `cap` requests
 * with one key in one minute; every measured docintel response should be a 200.
 * The last line, `RESULT ...`, is what bench/run.ts collects.
 */
import { freePort, startServer, type TestServer } from "../test/helpers/server";
import { RATE_LIMIT_PER_MINUTE } from "../src/credits/plans";
import { readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const GOAL = 0.5;
const ROUNDS = intEnv("BENCH_ROUNDS", 5);
const SECONDS = numEnv("BENCH_SECONDS", 5);
const WARMUP_SECONDS = numEnv("BENCH_WARMUP_SECONDS", 1);
const CONCURRENCY = intEnv("BENCH_CONCURRENCY", 32);
const PATH = process.env.BENCH_PATH || "/api/v1/usage";

const PER_KEY_LIMIT = RATE_LIMIT_PER_MINUTE.enterprise;
/** requests per key per minute: below the limit by more than the requests that can be in flight across a minute boundary */
const CAP = Math.max(50, PER_KEY_LIMIT - 2 * CONCURRENCY);

function numEnv(name: string, fallback: number): number {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? v : fallback;
}
function intEnv(name: string, fallback: number): number {
  return Math.max(1, Math.round(numEnv(name, fallback)));
}

/** KeyRing hands out enterprise keys so that no key is used more than CAP times in one clock minute. */
class KeyRing {
  private keys: string[] = [];
  private used: number[] = [];
  private i = 0;
  private minute = -1;
  private growing: Promise<void> | null = null;
  created = 0;

  constructor(private readonly make: () => Promise<string>) {}

  /** ensure makes keys until there are at least n; run it between rounds so no insert lands in a measurement */
  async ensure(n: number): Promise<void> {
    while (this.keys.length < n) {
      this.keys.push(await this.make());
      this.used.push(0);
      this.created++;
    }
  }

  /** grow adds keys while the load runs, when the estimate made between rounds was too low */
  grow(): Promise<void> {
    return (this.growing ??= this.ensure(this.keys.length + 20).finally(() => (this.growing = null)));
  }

  /** next returns a key with budget left in this minute, or null when all are used up (then await grow()) */
  next(): string | null {
    const minute = Math.floor(Date.now() / 60_000);
    if (minute !== this.minute) {
      this.minute = minute;
      this.used.fill(0);
      this.i = 0;
    }
    while (this.i < this.keys.length && this.used[this.i]! >= CAP) this.i++;
    if (this.i >= this.keys.length) return null;
    if (this.i > this.keys.length - 5) void this.grow();
    this.used[this.i]!++;
    return this.keys[this.i]!;
  }
}

interface RoundResult {
  requests: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  statuses: Map<string, number>;
  /** CPU time (user + system) the server process spent per completed request, in µs; NaN where /proc is missing */
  serverCpu: number;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** cpuMicros is the CPU time (user + system) a process has used so far, from /proc (Linux; USER_HZ = 100). */
function cpuMicros(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return NaN;
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/**
 * drive runs CONCURRENCY keep-alive fetch loops against url for `seconds` and returns what
 * completed. The same code drives both servers; only the X-API-Key value differs.
 */
async function drive(url: string, pid: number, seconds: number, key: () => string | null): Promise<RoundResult> {
  const latencies: number[] = [];
  const statuses = new Map<string, number>();
  const count = (s: string) => statuses.set(s, (statuses.get(s) ?? 0) + 1);
  const cpu0 = cpuMicros(pid);
  const start = performance.now();
  const end = start + seconds * 1000;
  const loop = async () => {
    while (performance.now() < end) {
      let k = key();
      while (k === null) {
        await ring!.grow();
        k = key();
      }
      const t0 = performance.now();
      try {
        const res = await fetch(url, { headers: { "x-api-key": k } });
        await res.arrayBuffer();
        latencies.push(performance.now() - t0);
        count(String(res.status));
      } catch (error) {
        const e = error as Error & { code?: string };
        count(`error:${e.code ?? e.name}`);
        firstError ??= `${e.name}: ${e.message}`;
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, loop));
  const elapsed = (performance.now() - start) / 1000;
  const serverCpu = (cpuMicros(pid) - cpu0) / latencies.length;
  const sorted = Float64Array.from(latencies).sort();
  return { requests: latencies.length, seconds: elapsed, rps: latencies.length / elapsed, p50: percentile(sorted, 50), p99: percentile(sorted, 99), statuses, serverCpu };
}

function fmtStatuses(s: Map<string, number>): string {
  return [...s.entries()].sort().map(([k, v]) => `${k}=${v}`).join(" ");
}

function addStatuses(into: Map<string, number>, from: Map<string, number>): void {
  for (const [k, v] of from) into.set(k, (into.get(k) ?? 0) + v);
}

/** startBaseline runs a bare Bun.serve hello in its own process, like the service runs in its own. */
async function startBaseline(): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const port = await freePort();
  const code = `Bun.serve({ hostname: "127.0.0.1", port: ${port}, fetch: () => new Response("hello") });`;
  const proc = Bun.spawn([process.execPath, "-e", code], { stdin: "ignore", stdout: "ignore", stderr: "inherit" });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`baseline server exited with ${proc.exitCode}`);
    try {
      if ((await fetch(url)).ok) break;
    } catch {}
    if (Date.now() > deadline) throw new Error("baseline server did not start");
    await Bun.sleep(50);
  }
  return {
    url,
    pid: proc.pid,
    async stop() {
      if (proc.exitCode === null) proc.kill("SIGTERM");
      await proc.exited;
    },
  };
}

let ring: KeyRing | null = null;
let firstError: string | undefined;
let docintel: TestServer | null = null;
let baseline: Awaited<ReturnType<typeof startBaseline>> | null = null;

/** SERVER_LOG receives docintel's request log: the server pays for writing it, as in production,
 * but the bench client does not spend its CPU reading it (the baseline writes no log). */
const SERVER_LOG = join(tmpdir(), `docintel-bench-${process.pid}.log`);

async function cleanup(): Promise<void> {
  const d = docintel;
  const b = baseline;
  docintel = baseline = null;
  await Promise.allSettled([d?.stop(), b?.stop()]);
  rmSync(SERVER_LOG, { force: true });
}
for (const sig of ["SIGINT", "SIGTERM"] as const) {
  process.on(sig, () => void cleanup().finally(() => process.exit(130)));
}

async function main(): Promise<void> {
  console.log(`http-auth: GET ${PATH} (X-API-Key, enterprise keys) vs bare Bun.serve hello`);
  console.log(`  ${ROUNDS} rounds x ${SECONDS} s (+${WARMUP_SECONDS} s warm-up each), ${CONCURRENCY} keep-alive fetch loops, ${navigator.hardwareConcurrency} CPUs, Bun ${Bun.version}`);

  [docintel, baseline] = await Promise.all([startServer({ args: ["--no-bootstrap-key"], logFile: SERVER_LOG }), startBaseline()]);
  const server = docintel;
  ring = new KeyRing(async () => (await server.key("enterprise")).key);
  await ring.ensure(50);
  const keyRing = ring;
  const dummyKey = "dk_" + "x".repeat(32);

  const ours: RoundResult[] = [];
  const base: RoundResult[] = [];
  const oursStatuses = new Map<string, number>();
  const baseStatuses = new Map<string, number>();
  const row = (name: string, r: RoundResult) =>
    `${name.padEnd(9)} ${r.rps.toFixed(0).padStart(7)} req/s  p50 ${r.p50.toFixed(2).padStart(6)} ms  p99 ${r.p99.toFixed(2).padStart(6)} ms  server CPU ${r.serverCpu.toFixed(0).padStart(3)} µs/req  (${r.requests} in ${r.seconds.toFixed(2)} s; ${fmtStatuses(r.statuses)})`;

  for (let round = 1; round <= ROUNDS; round++) {
    // baseline first, then ours; the warm-up before each is not counted
    await drive(baseline.url + PATH, baseline.pid, WARMUP_SECONDS, () => dummyKey);
    const b = await drive(baseline.url + PATH, baseline.pid, SECONDS, () => dummyKey);
    base.push(b);
    addStatuses(baseStatuses, b.statuses);

    const warm = await drive(server.url + PATH, server.proc.pid, WARMUP_SECONDS, () => keyRing.next());
    // enough keys for a full minute at the best rate seen so far, made before the measurement
    const best = Math.max(1000, warm.rps, ...ours.map((r) => r.rps));
    await keyRing.ensure(Math.ceil((best * 60 * 1.25) / CAP));
    const o = await drive(server.url + PATH, server.proc.pid, SECONDS, () => keyRing.next());
    ours.push(o);
    addStatuses(oursStatuses, o.statuses);

    console.log(`round ${round}/${ROUNDS}`);
    console.log(`  ${row("baseline", b)}`);
    console.log(`  ${row("docintel", o)}`);
  }

  const mb = median(base.map((r) => r.rps));
  const mo = median(ours.map((r) => r.rps));
  const ratio = mo / mb;
  const non200 = [...oursStatuses].filter(([s]) => s !== "200").reduce((n, [, v]) => n + v, 0);
  console.log("medians");
  console.log(`  baseline  ${mb.toFixed(0).padStart(7)} req/s  p50 ${median(base.map((r) => r.p50)).toFixed(2)} ms  p99 ${median(base.map((r) => r.p99)).toFixed(2)} ms  server CPU ${median(base.map((r) => r.serverCpu)).toFixed(0)} µs/req`);
  console.log(`  docintel  ${mo.toFixed(0).padStart(7)} req/s  p50 ${median(ours.map((r) => r.p50)).toFixed(2)} ms  p99 ${median(ours.map((r) => r.p99)).toFixed(2)} ms  server CPU ${median(ours.map((r) => r.serverCpu)).toFixed(0)} µs/req`);
  console.log(`measured statuses: baseline ${fmtStatuses(baseStatuses)}; docintel ${fmtStatuses(oursStatuses)}; ${keyRing.created} enterprise keys (<= ${CAP} requests per key per minute)`);
  if (firstError) console.log(`first client error: ${firstError}`);
  if (server.proc.exitCode !== null) console.log(`docintel exited with ${server.proc.exitCode}: ${server.stderr().slice(-2000)}`);
  if (non200 > 0) console.log(`WARNING: ${non200} measured docintel responses were not 200; the ratio is not a clean measurement`);
  const verdict = non200 > 0 ? "INVALID" : ratio >= GOAL ? "PASS" : "FAIL";
  const label = PATH === "/api/v1/usage" ? "http-auth" : `http-auth[${PATH}]`;
  console.log(`RESULT ${label}: docintel/baseline req/s = ${ratio.toFixed(3)} (${mo.toFixed(0)} / ${mb.toFixed(0)}, medians of ${ROUNDS}) goal >= ${GOAL} ${verdict}`);
}

try {
  await main();
} finally {
  await cleanup();
}
