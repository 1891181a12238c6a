/**
 * Several `docintel serve` processes on one store behind a round-robin client, as machines behind a
 * load balancer (issue 18 §4): on SQLite three processes share one data dir (WAL, one machine); on
 * PostgreSQL each has its own data dir and they share the database, as separate machines would.
 *
 *   1. 300 async extractions with 300 webhooks; one process killed with SIGKILL while the cluster
 *      works through them: every task completes once with its own result, every webhook arrives
 *      (a retried one with the same delivery id, signed alike by whichever process sent it), every
 *      task is charged once.
 *   2. 100 concurrent charges against the 50 credits left of a capped key, from three processes:
 *      exactly 50 succeed, 50 get 402, the balance ends at 0.
 *   3. a key revoked with `docintel keys revoke` is refused by every process within a second.
 *
 * The file runs on both backends (CLUSTER_BACKENDS). Extraction uses the local engine (no AI provider); the
 * documents are small invoices, uploaded or fetched from a loopback server that takes 40 ms to
 * answer, so each task takes tens of milliseconds of real work.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { rmSync } from "node:fs";
import { form, newTestDatabase, runCli, startServer, tempDir, type StartOptions, type TestBackend, type TestServer } from "./helpers/server";
import { loopbackServers } from "./helpers/loopback";
import { periodOf } from "../src/credits/ledger";

/** CLUSTER_BACKENDS: the stores the cluster runs on */
const CLUSTER_BACKENDS: TestBackend[] = ["sqlite", "postgres"];

const TASKS = 300;
/** tasks sent before the kill; the rest go to the two processes left */
const BEFORE_KILL = 200;
/** every FAIL_FIRST_EVERY-th task's webhook gets 503 on its first request: its retry must carry the same delivery id */
const FAIL_FIRST_EVERY = 10;

const serve = loopbackServers();

const SCHEMA = JSON.stringify({
  invoice_number: { type: "string", description: "invoice number", required: true },
  total: { type: "number", description: "total amount due", required: true },
});
const invoiceText = (n: number) => `ACME Supplies Ltd\nInvoice number: INV-${1000 + n}\nDate: 2024-03-01\n\nWidgets 2 x 10.00\nTotal: ${(20 + n).toFixed(2)} EUR\n`;

/** documents: /doc/<n> answers invoice n after 40 ms (a slow origin keeps tasks in flight) */
const documents = serve(async (req) => {
  await Bun.sleep(40);
  const n = Number(new URL(req.url).pathname.split("/").at(-1)) || 0;
  return new Response(invoiceText(n), { headers: { "content-type": "text/plain" } });
});

interface Delivery {
  deliveryId: string;
  taskId: string;
  status: string;
  raw: string;
  signature: string;
  answered: number;
}

/** webhookReceiver records every request; the first request of a delivery of a task in `failFirst` gets 503 */
function webhookReceiver(failFirst: Set<string>) {
  const received: Delivery[] = [];
  const { origin } = serve(async (req) => {
    const raw = await req.text();
    const body = JSON.parse(raw) as { task_id: string; status: string };
    const deliveryId = req.headers.get("x-svc-delivery-id") ?? "";
    const first = !received.some((d) => d.deliveryId === deliveryId);
    const answered = first && failFirst.has(body.task_id) ? 503 : 200;
    received.push({ deliveryId, taskId: body.task_id, status: body.status, raw, signature: req.headers.get("x-svc-signature") ?? "", answered });
    return new Response(answered === 200 ? "ok" : "busy", { status: answered });
  });
  return { url: `${origin}/hook`, received };
}

/**
 * RoundRobin: the load balancer. Each request goes to the next process that is up; a process that
 * refuses the connection (killed) is taken out and the request goes to the next.
 */
class RoundRobin {
  private turn = 0;
  constructor(public servers: TestServer[]) {}

  up(): TestServer[] {
    return this.servers.filter((s) => s.proc.exitCode === null && s.proc.signalCode === null);
  }

  async send(path: string, init: RequestInit = {}): Promise<{ status: number; body: any; server: TestServer }> {
    for (let tries = 0; tries < this.servers.length; tries++) {
      const up = this.up();
      const server = up[this.turn++ % up.length]!;
      try {
        const r = await fetch(`${server.url}${path}`, init);
        const text = await r.text();
        return { status: r.status, body: (r.headers.get("content-type") ?? "").includes("json") ? JSON.parse(text) : text, server };
      } catch (error) {
        if (this.up().includes(server)) throw error;
      }
    }
    throw new Error(`no process answered ${path}`);
  }
}

async function until(done: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done() && Date.now() < deadline) await Bun.sleep(50);
}

/** usage reads a key's credits as its owner sees them (GET /api/v1/usage, on whichever process answers) */
async function usage(lb: RoundRobin, key: string) {
  const r = await lb.send("/api/v1/usage", { headers: { "X-API-Key": key } });
  expect(r.status).toBe(200);
  return r.body.credits as { allowance: number | null; used: number; held: number; remaining: number | null };
}

/** creditsShown: `docintel credits show` of a key, as an operator reads the shared ledger */
async function creditsShown(server: TestServer, keyId: string): Promise<Record<string, string>> {
  const shown = await runCli(["credits", "show", keyId, ...server.storeArgs]);
  expect(shown.code).toBe(0);
  return Object.fromEntries(shown.stdout.trim().split("\n").map((line) => [line.slice(0, 11).trim(), line.slice(11).trim()]));
}

describe.each(CLUSTER_BACKENDS)("three serve processes on one %s store", (backend) => {
  const dataDirs: string[] = [];
  let database = "";
  let lb: RoundRobin;
  /** start: one more process of the cluster (its own data dir on PostgreSQL, the shared one on SQLite) */
  const start = async () => {
    const dataDir = backend === "sqlite" && dataDirs.length > 0 ? dataDirs[0]! : tempDir("docintel-cluster-");
    if (!dataDirs.includes(dataDir)) dataDirs.push(dataDir);
    const options: StartOptions = {
      dataDir,
      database: backend === "sqlite" ? "sqlite" : database,
      // --queue-size: the ~34 conversions of the charge test that reach one process at once wait their
      // turn rather than get 503 overloaded (the default is 16 per CPU); the queue is not what is tested
      args: ["--allow-private-urls", "--no-bootstrap-key", "--workers", "1", "--convert-processes", "1", "--queue-size", "200", "--compute-spares", "0", "--anonymous-plan", "free", "--anonymous-rate-per-ip", "10000"],
      // a killed process's tasks run again 2 s after their last renewal; webhook retries within milliseconds
      env: { DOCINTEL_TASK_CONCURRENCY: "2", DOCINTEL_TASK_LEASE_MS: "2000", DOCINTEL_WEBHOOK_RETRY_SCALE: "0.001", DOCINTEL_LOG_LEVEL: "error", GROQ_API_KEY: "" },
    };
    return startServer(options);
  };

  beforeAll(async () => {
    if (backend === "postgres") database = await newTestDatabase();
    const first = await start(); // migrates (SQLite) before the others open the store
    lb = new RoundRobin([first, ...(await Promise.all([start(), start()]))]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all(lb?.servers.map((s) => s.stop()) ?? []);
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  test(`${TASKS} async tasks with webhooks, one process killed with SIGKILL mid-way: each task completes and is charged once, each webhook arrives with one delivery id`, async () => {
    const keys = await Promise.all([0, 1, 2].map(() => lb.servers[0]!.key("enterprise")));
    const failFirst = new Set<string>();
    const hook = webhookReceiver(failFirst);
    const ids: string[] = [];
    const keyOf = (n: number) => keys[n % keys.length]!;

    const submit = async (from: number, to: number) => {
      let next = from;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (next < to) {
            const n = next++;
            // by URL (fetched from the slow origin) and by upload, in turn
            const document: Record<string, string | Blob> = n % 2 === 0 ? { url: `${documents.origin}/doc/${n}` } : { file: new File([invoiceText(n)], `invoice-${n}.txt`, { type: "text/plain" }) };
            const r = await lb.send("/api/v1/extract", { method: "POST", headers: { "X-API-Key": keyOf(n).key }, body: form({ schema: SCHEMA, ...document, sync: "false", webhook_url: hook.url }) });
            expect(r.status).toBe(202);
            ids[n] = r.body.task_id;
            if (n % FAIL_FIRST_EVERY === 0) failFirst.add(r.body.task_id);
          }
        }),
      );
    };

    await submit(0, BEFORE_KILL);
    // the cluster is at work: some tasks done, most pending, each process running two
    await until(() => new Set(hook.received.map((d) => d.taskId)).size >= 30, 60_000);
    const victim = lb.servers[1]!;
    victim.proc.kill("SIGKILL");
    await victim.proc.exited;
    const doneAtKill = new Set(hook.received.filter((d) => d.answered === 200).map((d) => d.taskId)).size;
    expect(doneAtKill).toBeLessThan(BEFORE_KILL);
    await submit(BEFORE_KILL, TASKS);
    expect(new Set(ids).size).toBe(TASKS);

    const delivered = () => new Set(hook.received.filter((d) => d.answered === 200).map((d) => d.taskId));
    await until(() => delivered().size >= TASKS, 90_000);
    expect(delivered()).toEqual(new Set(ids));

    // one delivery per task, whichever process sent it and however often: the same id on every request
    const deliveryIdsOf = new Map<string, Set<string>>();
    for (const d of hook.received) deliveryIdsOf.set(d.taskId, (deliveryIdsOf.get(d.taskId) ?? new Set()).add(d.deliveryId));
    expect([...deliveryIdsOf.values()].every((s) => s.size === 1)).toBe(true);
    expect(new Set(hook.received.map((d) => d.deliveryId)).size).toBe(TASKS);
    for (const id of failFirst) expect(hook.received.filter((d) => d.taskId === id).length).toBeGreaterThanOrEqual(2);
    expect(hook.received.every((d) => d.status === "completed")).toBe(true);

    // every process signs with the key's secret from the store: checked with an independent HMAC
    const secrets = await Promise.all(keys.map(async (k) => (await lb.send("/api/v1/webhooks/secret", { headers: { "X-API-Key": k.key } })).body.secret as string));
    const secretOfTask = new Map(ids.map((id, n) => [id, secrets[n % keys.length]!]));
    const signedAlike = hook.received.filter((d) => d.signature === "sha256=" + createHmac("sha256", secretOfTask.get(d.taskId)!).update(d.raw, "utf8").digest("hex"));
    expect(signedAlike.length).toBe(hook.received.length);

    // each task's own result, from whichever process answers the poll
    const creditsOfKey = [0, 0, 0];
    for (const [n, id] of ids.entries()) {
      const r = await lb.send(`/api/v1/jobs/${id}`, { headers: { "X-API-Key": keyOf(n).key } });
      expect(r.status).toBe(200);
      expect(r.body.status).toBe("completed");
      expect(r.body.result.data.invoice_number).toBe(`INV-${1000 + n}`);
      expect(r.body.credits_used).toBeGreaterThan(0);
      creditsOfKey[n % keys.length]! += r.body.credits_used;
    }
    // the ledger charged each task once: what the keys used is what their tasks cost, nothing held
    for (const [i, k] of keys.entries()) {
      const credits = await usage(lb, k.key);
      expect(credits.used).toBe(creditsOfKey[i]!);
      expect(credits.held).toBe(0);
    }
    const shown = await creditsShown(lb.servers[0]!, keys[0]!.id);
    expect(Number(shown.used)).toBe(creditsOfKey[0]!);

    // the victim was at work when it died: another process ran its tasks again after their lease
    const store = await lb.servers[0]!.openBackend();
    const attempts = await Promise.all(ids.map(async (id) => (await store.tasks.get(id))!.attempts));
    expect(Math.max(...attempts)).toBeGreaterThanOrEqual(2);

    // the machine comes back: a new process on the same store takes the dead one's place
    await victim.stop();
    lb.servers[1] = await start();
  }, 240_000);

  test("100 concurrent 1-credit charges against 50 credits left, from three processes: exactly 50 succeed, 50 get 402, the balance ends at 0", async () => {
    // Keyless GET /md/{url} runs on the shared anonymous key, a capped free-plan key, limited per
    // client address (--anonymous-rate-per-ip) rather than by the free plan's 30 requests a minute,
    // which would refuse 70 of the 100 with 429 before any credit is looked at.
    const { id } = await lb.servers[0]!.key("free", "anonymous");
    const store = await lb.servers[0]!.openBackend();
    const now = new Date();
    const spent = await store.credits.charge(
      { keyId: id, allowance: 100, period: periodOf(now), nowMs: now.getTime() },
      { key_id: id, kind: "charge", amount: 50, period: periodOf(now), operation: "markdown", request_id: "req_before_the_test", note: "spent before the test", created_at: now.toISOString() },
    );
    expect(spent.ok).toBe(true);
    expect((await creditsShown(lb.servers[0]!, id)).remaining).toBe("50");

    const answers = await Promise.all(Array.from({ length: 100 }, (_, n) => lb.send(`/md/${documents.origin}/doc/${n}?render=never`)));
    const count = (status: number) => answers.filter((a) => a.status === status).length;
    const others = answers.filter((a) => a.status !== 200 && a.status !== 402).map((a) => `${a.status} ${JSON.stringify(a.body).slice(0, 300)}`);
    expect({ ok: count(200), refused: count(402), others }).toEqual({ ok: 50, refused: 50, others: [] });

    const shown = await creditsShown(lb.servers[2]!, id);
    expect({ used: shown.used, held: shown.held, remaining: shown.remaining }).toEqual({ used: "100", held: "0", remaining: "0" });
  }, 120_000);

  test("a key revoked with docintel keys revoke is refused by every process within a second", async () => {
    const { key, id } = await lb.servers[0]!.key("enterprise");
    // every process has the key in its cache
    for (const server of lb.servers) expect((await fetch(`${server.url}/api/v1/usage`, { headers: { "X-API-Key": key } })).status).toBe(200);

    const revoked = await runCli(["keys", "revoke", id, ...lb.servers[1]!.storeArgs]);
    expect(revoked.code).toBe(0);
    const since = performance.now();
    const refusedAfter = await Promise.all(
      lb.servers.map(async (server) => {
        for (;;) {
          const status = (await fetch(`${server.url}/api/v1/usage`, { headers: { "X-API-Key": key } })).status;
          if (status === 401) return performance.now() - since;
          expect(status).toBe(200);
          if (performance.now() - since > 5_000) return Infinity;
          await Bun.sleep(20);
        }
      }),
    );
    expect(Math.max(...refusedAfter)).toBeLessThan(1_000);
  }, 60_000);
});
