/**
 * Async thumbnail jobs are tasks of the one task runner: two `docintel serve` processes on one data
 * dir share them, and when one is killed with SIGKILL mid-way the other finishes its jobs after the
 * lease, each job completed and charged once; the credit is held at acceptance (a free key with one
 * credit left gets 402 on its second job); a key's pending work is capped (429); /api/v1/jobs does not
 * show thumbnail jobs (they have their own endpoints); DELETE of a job releases its hold.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import sharp from "sharp";
import { startServer, tempDir, type TestServer } from "./helpers/server";
import { loopbackServers } from "./helpers/loopback";

const serve = loopbackServers();
const png = await sharp({ create: { width: 900, height: 600, channels: 3, background: { r: 40, g: 120, b: 200 } } })
  .png()
  .toBuffer();

/** imageServer answers every request with a PNG once open() is called (until then requests wait). */
function imageServer() {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let requests = 0;
  const { origin } = serve(async () => {
    requests++;
    await gate;
    return new Response(png, { headers: { "content-type": "image/png" } });
  });
  return { origin, open, requests: () => requests };
}

async function acceptJob(server: TestServer, key: string, body: Record<string, unknown>) {
  const r = await fetch(`${server.url}/api/v1/thumbnails/generate/json`, { method: "POST", headers: { "X-API-Key": key, "content-type": "application/json" }, body: JSON.stringify({ sync: false, ...body }) });
  return { status: r.status, body: (await r.json()) as any, headers: r.headers };
}

async function jobOf(server: TestServer, key: string, id: string) {
  return (await (await fetch(`${server.url}/api/v1/thumbnails/jobs/${id}`, { headers: { "X-API-Key": key } })).json()) as any;
}

describe("thumbnail jobs across two processes", () => {
  const dataDir = tempDir("docintel-thumb-tasks-");
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  test("two servers on one data dir, one killed with SIGKILL mid-way: every job completes once, nothing charged twice", async () => {
    const images = imageServer();
    const received: { deliveryId: string; body: any }[] = [];
    const hook = serve(async (req) => {
      received.push({ deliveryId: req.headers.get("x-svc-delivery-id") ?? "", body: await req.json() });
      return new Response("ok");
    });
    const options = { dataDir, args: ["--allow-private-urls"], env: { DOCINTEL_TASK_CONCURRENCY: "2", DOCINTEL_TASK_LEASE_MS: "1500", DOCINTEL_WEBHOOK_RETRY_SCALE: "0.001" } };
    const a = await startServer(options);
    const b = await startServer(options);
    const { key } = await a.key("enterprise");
    const ids: string[] = [];
    try {
      for (let n = 0; n < 10; n++) {
        const r = await acceptJob(n % 2 ? b : a, key, { url: `${images.origin}/${n}.png`, width: 300, webhook_url: `${hook.origin}/hook` });
        expect(r.status).toBe(202);
        expect(r.body.job_id).toMatch(/^thumb_[0-9a-f]+$/);
        ids.push(r.body.job_id);
      }
      // both processes hold jobs in flight (their fetches wait at the gate)
      const owners = async () => new Set((await a.sql<{ o: string }>("SELECT lease_owner AS o FROM tasks WHERE status = 'processing'")).map((r) => r.o.split(":")[1]));
      const both = new Set([String(a.proc.pid), String(b.proc.pid)]);
      for (let i = 0; i < 200 && (await owners()).size < 2; i++) await Bun.sleep(50);
      expect(await owners()).toEqual(both);
      expect(await a.stop("SIGKILL")).not.toBe(0);
      images.open();

      for (const id of ids) {
        let job: any;
        for (let i = 0; i < 300; i++) {
          job = await jobOf(b, key, id);
          if (job.status === "completed" || job.status === "failed") break;
          await Bun.sleep(100);
        }
        expect(job).toMatchObject({ job_id: id, status: "completed", handler: "image", width: 300, height: 200, credits_used: 1 });
      }
      const ledger = await b.sql<{ request_id: string; n: number }>("SELECT request_id, CAST(count(*) AS INTEGER) AS n FROM credit_ledger WHERE kind = 'charge' GROUP BY request_id");
      expect(ledger.map((r) => r.request_id).sort()).toEqual([...ids].sort()); // each job charged ...
      expect(ledger.every((r) => r.n === 1)).toBe(true); // ... exactly once
      const usage = (await (await fetch(`${b.url}/api/v1/usage`, { headers: { "X-API-Key": key } })).json()) as any;
      expect(usage.credits.held).toBe(0);
      // a webhook the killed server had claimed as it was born is sent by the other once that claim
      // lapses (the webhook timeout, 10 s, and a 5 s margin) at its next poll (5 s): wait past both
      const deadline = Date.now() + 25_000;
      while (new Set(received.map((r) => r.body.job_id)).size < ids.length && Date.now() < deadline) await Bun.sleep(50);
      expect(new Set(received.map((r) => r.body.job_id))).toEqual(new Set(ids));
      expect(new Set(received.map((r) => r.deliveryId)).size).toBe(ids.length); // one delivery per job, repeats keep their id
      expect(received.every((r) => r.body.status === "completed")).toBe(true);
    } finally {
      await a.stop("SIGKILL");
      await b.stop();
    }
  }, 120_000);
});

describe("credits and limits of thumbnail jobs", () => {
  let server: TestServer;
  afterAll(() => server?.stop());

  test("a free key with 1 credit left gets 402 on its second async job; the first is charged when it ends", async () => {
    server = await startServer({ args: ["--allow-private-urls", "--max-pending-tasks", "3"] });
    const images = imageServer();
    const { key, id } = await server.key("free", "one credit left");
    const now = new Date();
    await server.sql("INSERT INTO credit_ledger (key_id, kind, amount, period, operation, created_at) VALUES (?, 'charge', 99, ?, 'setup', ?)", id, now.toISOString().slice(0, 7), now.toISOString());
    const first = await acceptJob(server, key, { url: `${images.origin}/a.png` });
    expect(first.status).toBe(202);
    const second = await acceptJob(server, key, { url: `${images.origin}/b.png` });
    expect(second.status).toBe(402);
    expect(second.body).toMatchObject({ success: false, error: "insufficient_credits" });
    images.open();
    let job: any;
    for (let i = 0; i < 100 && !["completed", "failed"].includes((job = await jobOf(server, key, first.body.job_id)).status); i++) await Bun.sleep(100);
    expect(job).toMatchObject({ status: "completed", credits_used: 1 });
    const usage = (await (await fetch(`${server.url}/api/v1/usage`, { headers: { "X-API-Key": key } })).json()) as any;
    expect(usage.credits).toMatchObject({ used: 100, held: 0, remaining: 0 });
  });

  test("past --max-pending-tasks a key gets 429 with a message naming the flag; other keys are not affected", async () => {
    const images = imageServer();
    const { key } = await server.key("enterprise");
    for (let n = 0; n < 3; n++) expect((await acceptJob(server, key, { url: `${images.origin}/${n}.png` })).status).toBe(202);
    const refused = await acceptJob(server, key, { url: `${images.origin}/3.png` });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ success: false, error: "rate_limited" });
    expect(refused.body.detail).toContain("--max-pending-tasks");
    expect(refused.headers.get("retry-after")).toBe("10");
    const other = await server.key("enterprise");
    expect((await acceptJob(server, other.key, { url: `${images.origin}/other.png` })).status).toBe(202);
    images.open();
  });

  test("a thumbnail job is not a task of /api/v1/jobs; DELETE of a pending job releases its hold", async () => {
    const images = imageServer();
    const { key } = await server.key("pro");
    const ids: string[] = [];
    // 2 at once run (the default --task-concurrency on 2 cores); the rest wait pending
    for (let n = 0; n < 3; n++) ids.push((await acceptJob(server, key, { url: `${images.origin}/p${n}.png` })).body.job_id);
    // a thumb_ id is not a task id there (422 by the task_id pattern)
    expect((await fetch(`${server.url}/api/v1/jobs/${ids[0]}`, { headers: { "X-API-Key": key } })).status).toBe(422);
    const usage = async () => ((await (await fetch(`${server.url}/api/v1/usage`, { headers: { "X-API-Key": key } })).json()) as any).credits;
    expect((await usage()).held).toBe(3);
    for (const id of ids) expect((await (await fetch(`${server.url}/api/v1/thumbnails/jobs/${id}`, { method: "DELETE", headers: { "X-API-Key": key } })).json()).deleted).toBe(true);
    expect(await usage()).toMatchObject({ held: 0, used: 0 });
    images.open();
    await Bun.sleep(300);
    expect((await usage()).used).toBe(0);
    for (const id of ids) expect((await fetch(`${server.url}/api/v1/thumbnails/jobs/${id}`, { headers: { "X-API-Key": key } })).status).toBe(404);
  });
});
