/**
 * Signed webhooks against real receivers on loopback and the real server (a child process): the
 * signature checked with an independent HMAC, the retry schedule (run in seconds with
 * DOCINTEL_WEBHOOK_RETRY_SCALE), 4xx dead at once, the delivery log, re-delivery on demand, a delivery
 * that survives SIGKILL; and the dispatcher itself for the SSRF guard at send time and the timeout.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHmac, timingSafeEqual } from "node:crypto";
import { rmSync } from "node:fs";
import { TEST_DATABASE, api, form, runCli, startServer, tempDir, type TestServer } from "./helpers/server";
import { loopbackServers } from "./helpers/loopback";
import { openSqliteBackend, type SqliteBackend } from "../src/store/sqliteBackend";
import { createLogger } from "../src/runtime/log";
import { WebhookDispatcher } from "../src/webhooks/dispatcher";
import { RETRY_DELAYS_MS, delayBefore } from "../src/webhooks/schedule";
import { verifySignature } from "../src/webhooks/signature";

const serve = loopbackServers();
const SECRET = "whsec_test_secret_for_signatures";
const SCHEMA = JSON.stringify({ total: { type: "number", description: "total amount due", required: true } });
const invoice = () => new File(["Invoice number: INV-7\nTotal: 42.50 EUR\n"], "invoice.txt", { type: "text/plain" });

interface Received {
  raw: string;
  signature: string | null;
  deliveryId: string | null;
}

/** receiver answers each request with the next status of `statuses` (the last one repeats). */
function receiver(statuses: number[]) {
  const received: Received[] = [];
  const script = { statuses };
  const { origin } = serve(async (req) => {
    received.push({ raw: await req.text(), signature: req.headers.get("x-svc-signature"), deliveryId: req.headers.get("x-svc-delivery-id") });
    const status = script.statuses[Math.min(received.length - 1, script.statuses.length - 1)]!;
    return new Response(status === 204 ? null : "answer", { status });
  });
  return { url: `${origin}/hook`, received, script };
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await Bun.sleep(100);
  }
}

/** asyncExtract accepts a task with a webhook and returns its id. */
async function asyncExtract(server: TestServer, key: string, webhookUrl: string, document: Record<string, string | Blob> = { file: invoice() }) {
  const r = await api(server, key, "POST", "/api/v1/extract", form({ schema: SCHEMA, ...document, sync: "false", webhook_url: webhookUrl }));
  expect(r.status).toBe(202);
  return r.body.task_id as string;
}

const deliveryLog = (server: TestServer, key: string, taskId: string) => api(server, key, "GET", `/api/v1/jobs/${taskId}/deliveries`).then((r) => r.body);
const settled = (log: any) => log.deliveries?.length > 0 && log.deliveries.every((d: any) => d.status === "delivered" || d.status === "dead");

/** independentSignature: the receiver's side, written without the product's code, with the key's secret */
const independentSignature = (raw: string, secret: string) => "sha256=" + createHmac("sha256", secret).update(raw, "utf8").digest("hex");

/** keySecret reads the calling key's own signing secret, as a customer sets up its receiver */
const keySecret = (server: TestServer, key: string) => api(server, key, "GET", "/api/v1/webhooks/secret").then((r) => r.body.secret as string);

describe("webhooks from the server", () => {
  let server: TestServer;
  let key: string;
  let secret: string;
  beforeAll(async () => {
    // scale 0.0001: the whole schedule (7 h 51 min) takes under 3 s
    server = await startServer({ args: ["--allow-private-urls", "--webhook-secret", SECRET], env: { DOCINTEL_WEBHOOK_RETRY_SCALE: "0.0001" } });
    ({ key } = await server.key("enterprise")); // 600 requests a minute: the tests poll
    secret = await keySecret(server, key);
  });
  afterAll(() => server.stop());

  test("the task record is POSTed, signed with HMAC-SHA256 of the raw body, with a whd_ delivery id", async () => {
    const hook = receiver([200]);
    const taskId = await asyncExtract(server, key, hook.url);
    const log = await until(() => deliveryLog(server, key, taskId), settled);
    expect(hook.received).toHaveLength(1);
    const [got] = hook.received;
    const expected = independentSignature(got!.raw, secret);
    expect(got!.signature).toBe(expected);
    expect(timingSafeEqual(Buffer.from(got!.signature!), Buffer.from(expected))).toBe(true);
    expect(verifySignature(secret, got!.raw, got!.signature)).toBe(true);
    expect(verifySignature(secret, got!.raw + " ", got!.signature)).toBe(false);
    // the key signs with its own secret, not the server's shared one
    expect(verifySignature(SECRET, got!.raw, got!.signature)).toBe(false);
    expect(verifySignature("another-secret-of-some-length", got!.raw, got!.signature)).toBe(false);
    const body = JSON.parse(got!.raw);
    expect(Object.keys(body).sort()).toEqual(["completed_at", "created_at", "credits_used", "result", "status", "task_id"]);
    expect(body).toMatchObject({ task_id: taskId, status: "completed", credits_used: 3, result: { data: { total: 42.5 }, credits_used: 3 } });
    expect(new Date(body.completed_at).toISOString()).toBe(body.completed_at);
    // the body is the polled result
    expect(body.result).toEqual((await api(server, key, "GET", `/api/v1/jobs/${taskId}`)).body.result);
    expect(log).toEqual({
      task_id: taskId,
      deliveries: [
        {
          id: got!.deliveryId,
          status: "delivered",
          status_code: 200,
          attempts: 1,
          created_at: expect.any(String),
          delivered_at: expect.any(String),
          next_attempt_at: null,
          last_error: null,
          url: hook.url,
        },
      ],
    });
    expect(got!.deliveryId).toMatch(/^whd_[a-f0-9]+$/);
  });

  test("5xx twice, then 200: three attempts with one delivery id, delivered", async () => {
    const hook = receiver([500, 503, 200]);
    const taskId = await asyncExtract(server, key, hook.url);
    const log = await until(() => deliveryLog(server, key, taskId), settled);
    expect(log.deliveries[0]).toMatchObject({ status: "delivered", status_code: 200, attempts: 3 });
    expect(hook.received.map((r) => r.deliveryId)).toEqual([log.deliveries[0].id, log.deliveries[0].id, log.deliveries[0].id]);
    // every retry carries the same body and signature
    expect(new Set(hook.received.map((r) => r.raw)).size).toBe(1);
    expect(hook.received.every((r) => r.signature === independentSignature(r.raw, secret))).toBe(true);
  });

  test("a 4xx is permanent: dead after one attempt, nothing scheduled", async () => {
    const hook = receiver([410]);
    const taskId = await asyncExtract(server, key, hook.url);
    const log = await until(() => deliveryLog(server, key, taskId), settled);
    expect(log.deliveries[0]).toMatchObject({ status: "dead", status_code: 410, attempts: 1, delivered_at: null, next_attempt_at: null, last_error: expect.stringContaining("410") });
    expect(hook.received).toHaveLength(1);
  });

  test("a receiver that always fails gets the whole schedule (3 inline + 7 background requests), then the delivery is dead", async () => {
    const hook = receiver([502]);
    const taskId = await asyncExtract(server, key, hook.url);
    const log = await until(() => deliveryLog(server, key, taskId), settled, 30_000);
    expect(log.deliveries[0]).toMatchObject({ status: "dead", status_code: 502, attempts: RETRY_DELAYS_MS.length });
    expect(hook.received).toHaveLength(10);
    expect(new Set(hook.received.map((r) => r.deliveryId)).size).toBe(1);
  }, 40_000);

  test("a failed task sends status failed with its error", async () => {
    const hook = receiver([204]);
    const { origin } = serve(() => new Response("no", { status: 404 }));
    const taskId = await asyncExtract(server, key, hook.url, { url: `${origin}/missing.pdf` });
    await until(() => deliveryLog(server, key, taskId), settled);
    const body = JSON.parse(hook.received[0]!.raw);
    expect(body).toMatchObject({ task_id: taskId, status: "failed", credits_used: 0, error: { error: "url_unreachable", detail: expect.stringContaining("404") } });
    expect(body.result).toBeUndefined();
  });

  test("POST .../deliveries/{id}/retry re-delivers at once with the same delivery id", async () => {
    const hook = receiver([400, 200]);
    const taskId = await asyncExtract(server, key, hook.url);
    const log = await until(() => deliveryLog(server, key, taskId), settled);
    const id = log.deliveries[0].id;
    expect(log.deliveries[0].status).toBe("dead");
    const retried = await api(server, key, "POST", `/api/v1/jobs/${taskId}/deliveries/${id}/retry`);
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ id, status: "delivered", status_code: 200, attempts: 2 });
    expect(hook.received.map((r) => r.deliveryId)).toEqual([id, id]);
    const other = (await server.key("pro")).key;
    expect((await api(server, other, "POST", `/api/v1/jobs/${taskId}/deliveries/${id}/retry`)).status).toBe(404);
    expect((await api(server, key, "POST", `/api/v1/jobs/${taskId}/deliveries/whd_0000/retry`)).status).toBe(404);
  });
});

describe("a scheduled delivery survives SIGKILL", () => {
  const dataDir = tempDir();
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  test("failed three times, the server killed, started again: the next request is made with the same id", async () => {
    const hook = receiver([503]);
    // scale 0.05: inline 0, 100, 200 ms, then the first background retry after 3 s
    const options = { dataDir, args: ["--allow-private-urls", "--webhook-secret", SECRET], env: { DOCINTEL_WEBHOOK_RETRY_SCALE: "0.05" } };
    const first = await startServer(options);
    const { key } = await first.key("pro");
    const taskId = await asyncExtract(first, key, hook.url);
    const before = await until(() => deliveryLog(first, key, taskId), (log) => log.deliveries?.[0]?.attempts === 3);
    expect(before.deliveries[0]).toMatchObject({ status: "failed", status_code: 503, next_attempt_at: expect.any(String) });
    await first.stop("SIGKILL");
    hook.script.statuses = [200];
    const second = await startServer(options);
    try {
      const after = await until(() => deliveryLog(second, key, taskId), settled);
      expect(after.deliveries[0]).toMatchObject({ id: before.deliveries[0].id, status: "delivered", status_code: 200, attempts: 4 });
      expect(hook.received.map((r) => r.deliveryId)).toEqual(Array(4).fill(before.deliveries[0].id));
    } finally {
      await second.stop();
    }
  }, 60_000);
});

describe(`a rotated secret signs on every process within a second (${TEST_DATABASE})`, () => {
  // two serve processes on one store (SQLite: one data dir; PostgreSQL: one database), each caching
  // the keys' signing secrets; a rotation by one process or by the CLI reaches the other's cache
  const dataDir = tempDir();
  const servers: TestServer[] = [];
  beforeAll(async () => {
    const options = { dataDir, args: ["--allow-private-urls", "--webhook-secret", SECRET] };
    servers.push(await startServer(options), await startServer(options));
  }, 60_000);
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** signedWith: the secret (of `secrets`) that the webhook of one task accepted by `server` verifies with */
  async function signedWith(server: TestServer, key: string, secrets: string[]): Promise<string | undefined> {
    const hook = receiver([200]);
    await asyncExtract(server, key, hook.url);
    await until(async () => hook.received.length, (n) => n > 0);
    const got = hook.received[0]!;
    return secrets.find((secret) => got.signature === independentSignature(got.raw, secret));
  }

  test("rotated through one process's API, then through the CLI: one second later both processes sign with the new secret", async () => {
    const [a, b] = servers as [TestServer, TestServer];
    const { key, id } = await a.key("enterprise");
    const old = await keySecret(a, key);
    // both processes have signed with the old secret (and cached it)
    expect(await signedWith(a, key, [old])).toBe(old);
    expect(await signedWith(b, key, [old])).toBe(old);

    const rotated = await api(a, key, "POST", "/api/v1/webhooks/secret/rotate");
    expect(rotated.status).toBe(200);
    const viaApi = rotated.body.secret as string;
    await Bun.sleep(1_000);
    expect(await signedWith(b, key, [old, viaApi])).toBe(viaApi);
    expect(await signedWith(a, key, [old, viaApi])).toBe(viaApi);

    // the CLI is a third process: no cache of either server forgets the secret itself
    const cli = await runCli(["keys", "secret", id, "--rotate", ...a.storeArgs]);
    expect(cli.code).toBe(0);
    const viaCli = cli.stdout.trim();
    expect(viaCli).toMatch(/^whsec_[0-9a-f]{64}$/);
    await Bun.sleep(1_000);
    for (const server of [a, b]) expect(await signedWith(server, key, [old, viaApi, viaCli])).toBe(viaCli);
  }, 60_000);
});

describe("the dispatcher", () => {
  const dir = tempDir();
  let backend: SqliteBackend;
  const quiet = createLogger("error", () => {});
  beforeAll(() => {
    backend = openSqliteBackend(dir);
  });
  afterAll(async () => {
    await backend.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("the SSRF guard runs at send time: a private address is dead without a request", async () => {
    const hook = receiver([200]);
    const dispatcher = new WebhookDispatcher({ backend, sharedSecret: SECRET, allowPrivate: false, logger: quiet });
    const id = await backend.transaction((tx) => dispatcher.enqueue(tx, "task_ssrf", "key_none", hook.url, { hello: 1 }));
    dispatcher.start();
    const row = await until(async () => (await dispatcher.deliveriesOf("task_ssrf"))[0]!, (r) => r.status === "dead");
    await dispatcher.stop();
    expect(row).toMatchObject({ id, status: "dead", attempts: 1, status_code: null, last_error: expect.stringContaining("loopback") });
    expect(hook.received).toHaveLength(0);
  });

  test("a receiver that does not answer within the timeout counts as failed and is retried", async () => {
    const { origin } = serve(async () => {
      await Bun.sleep(2_000);
      return new Response("late");
    });
    const dispatcher = new WebhookDispatcher({ backend, sharedSecret: SECRET, allowPrivate: true, logger: quiet, timeoutMs: 200, retryScale: 1 });
    await backend.transaction((tx) => dispatcher.enqueue(tx, "task_slow", "key_none", `${origin}/hook`, { hello: 2 }));
    dispatcher.start();
    const row = await until(async () => (await dispatcher.deliveriesOf("task_slow"))[0]!, (r) => r.attempts === 1);
    await dispatcher.stop();
    expect(row).toMatchObject({ status: "failed", status_code: null, last_error: "no answer within 0.2 s" });
    expect(row.next_attempt_at! - Date.now()).toBeGreaterThan(0);
  });

  test("the schedule: 2 s and 4 s inline, then 1 min ... 4 h, about 8 hours in all, scaled by the factor", () => {
    expect(RETRY_DELAYS_MS).toEqual([0, 2_000, 4_000, 60_000, 300_000, 900_000, 1_800_000, 3_600_000, 7_200_000, 14_400_000]);
    const background = RETRY_DELAYS_MS.slice(3).reduce((a, b) => a + b, 0);
    expect(background / 3_600_000).toBeCloseTo(7.85, 2);
    expect(delayBefore(1, 0.001)).toBe(2);
    expect(delayBefore(10, 1)).toBeNull();
  });
});
