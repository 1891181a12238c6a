/**
 * tasks-async: BENCH_TASKS (1000) async local extractions of a small text file (sync=false, each with
 * a webhook to a receiver in this process), sent by BENCH_CONCURRENCY (16) clients, against the real
 * service (`bin/docintel serve`, its own process and temp data dir).
 *
 * Prints: acceptance latency p50/p99 (the 202, which is written to SQLite first), completion
 * throughput (tasks/s from the first acceptance to the last webhook), webhook deliveries received,
 * and the count lost (accepted tasks whose webhook never arrived, or that did not complete).
 * Baseline: the same extraction with sync=true from the same clients, BENCH_BASELINE (200) requests,
 * in the same server; the ratio is async completions/s over sync responses/s.
 * Goals: 0 lost, acceptance p99 < 50 ms, on either store.
 *
 * The store: SQLite in the server's temp data dir (the default), or PostgreSQL with
 * BENCH_DATABASE=postgres (a database of a throwaway local cluster, as the tests make) or
 * BENCH_DATABASE=postgres://... (that database; it should be empty).
 *
 *   bun bench/tasks-async.ts
 *   BENCH_TASKS=200 bun bench/tasks-async.ts
 *   BENCH_DATABASE=postgres bun bench/tasks-async.ts
 */
import { newTestDatabase, startServer } from "../test/helpers/server";

const TASKS = intEnv("BENCH_TASKS", 1000);
const BASELINE = intEnv("BENCH_BASELINE", 200);
const CONCURRENCY = intEnv("BENCH_CONCURRENCY", 16);
const GOAL_P99_MS = 50;
/** requests per key per minute stay under the enterprise limit (600) */
const REQUESTS_PER_KEY = intEnv("BENCH_REQUESTS_PER_KEY", 400);
const DATABASE = process.env.BENCH_DATABASE || "sqlite";
if (DATABASE !== "sqlite" && DATABASE !== "postgres" && !/^postgres(ql)?:\/\//.test(DATABASE)) {
  console.error(`BENCH_DATABASE=${DATABASE}: use sqlite (the default), postgres (a throwaway local cluster) or a postgres:// URL`);
  process.exit(2);
}
const BACKEND = DATABASE === "sqlite" ? "sqlite" : "postgres";

function intEnv(name: string, fallback: number): number {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? Math.round(v) : fallback;
}

const SCHEMA = JSON.stringify({ invoice_number: { type: "string", description: "invoice number", required: true }, total: { type: "number", description: "total amount due" } });
const TEXT = "ACME Supplies Ltd\nInvoice number: INV-2001\nDate: 2024-03-01\n\nWidgets 2 x 10.00\nTotal: 20.00 EUR\n";

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

function body(sync: boolean, webhookUrl: string): FormData {
  const fd = new FormData();
  fd.append("schema", SCHEMA);
  fd.append("file", new File([TEXT], "invoice.txt", { type: "text/plain" }));
  if (!sync) {
    fd.append("sync", "false");
    fd.append("webhook_url", webhookUrl);
  }
  return fd;
}

/** run sends `count` requests from CONCURRENCY loops and returns per-request latency and status. */
async function run(count: number, send: (i: number) => Promise<Response>): Promise<{ latencies: number[]; statuses: Map<number, number>; bodies: any[]; seconds: number }> {
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  const bodies: any[] = [];
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) {
        const i = next++;
        const t0 = performance.now();
        const r = await send(i);
        bodies[i] = await r.json();
        latencies.push(performance.now() - t0);
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      }
    }),
  );
  return { latencies, statuses, bodies, seconds: (performance.now() - start) / 1000 };
}

const received = new Map<string, number>();
const hook = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(req) {
    const record = (await req.json()) as { task_id: string; status: string };
    if (record.status === "completed") received.set(record.task_id, performance.now());
    return new Response("ok");
  },
});
const webhookUrl = `http://127.0.0.1:${hook.port}/hook`;

const database = DATABASE === "postgres" ? await newTestDatabase() : DATABASE;
const server = await startServer({ database, args: ["--allow-private-urls", ...(process.env.BENCH_SERVE_ARGS?.split(" ").filter(Boolean) ?? [])], env: { DOCINTEL_LOG_LEVEL: "error" } });
try {
  const keyCount = Math.ceil((TASKS + BASELINE + 10) / REQUESTS_PER_KEY);
  const keys = await Promise.all(Array.from({ length: keyCount }, () => server.key("enterprise").then((k) => k.key)));
  let sent = 0;
  const keyFor = () => keys[Math.floor(sent++ / REQUESTS_PER_KEY)]!;
  const post = (sync: boolean) => fetch(`${server.url}/api/v1/extract`, { method: "POST", body: body(sync, webhookUrl), headers: { "X-API-Key": keyFor() } });

  const sync = await run(BASELINE, () => post(true));
  const syncRate = BASELINE / sync.seconds;

  const started = performance.now();
  const accepted = await run(TASKS, () => post(false));
  const ids = accepted.bodies.map((b) => b.task_id as string).filter(Boolean);
  const deadline = Date.now() + 10 * 60_000;
  while (received.size < ids.length && Date.now() < deadline) await Bun.sleep(50);
  const lastWebhook = Math.max(...received.values());
  const completionRate = received.size / ((lastWebhook - started) / 1000);

  const completed = (await (await server.openBackend()).tasks.countByState()).completed;
  const lost = TASKS - ids.filter((id) => received.has(id)).length;
  const p50 = percentile(accepted.latencies, 50);
  const p99 = percentile(accepted.latencies, 99);

  console.log(`store: ${BACKEND}`);
  console.log(`sync baseline: ${BASELINE} requests, ${syncRate.toFixed(1)}/s, p50 ${percentile(sync.latencies, 50).toFixed(1)} ms, p99 ${percentile(sync.latencies, 99).toFixed(1)} ms, statuses ${JSON.stringify(Object.fromEntries(sync.statuses))}`);
  console.log(`async: ${TASKS} accepted in ${accepted.seconds.toFixed(2)} s (${(TASKS / accepted.seconds).toFixed(0)}/s), statuses ${JSON.stringify(Object.fromEntries(accepted.statuses))}`);
  console.log(`acceptance latency p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms`);
  console.log(`completed ${completed} tasks, ${received.size} webhooks received, ${completionRate.toFixed(1)} completions/s (first acceptance to last webhook)`);
  const met = lost === 0 && p99 < GOAL_P99_MS;
  console.log(
    `RESULT tasks-async${BACKEND === "postgres" ? "[postgres]" : ""} ${TASKS} tasks: lost ${lost} (goal 0), acceptance p99 ${p99.toFixed(1)} ms (goal < ${GOAL_P99_MS} ms), ${completionRate.toFixed(1)} completions/s vs sync ${syncRate.toFixed(1)}/s = ${(completionRate / syncRate).toFixed(2)} ${met ? "met" : "NOT met"}`,
  );
} finally {
  await server.stop();
  hook.stop(true);
}
