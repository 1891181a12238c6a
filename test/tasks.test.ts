/**
 * Async tasks over HTTP against the real server (a child process): sync=false extract -> 202 -> poll
 * -> the same result as the sync call; cancel (pending and running, nothing charged); a key sees only
 * its own tasks; batches; and crash recovery: tasks accepted, the server killed with SIGKILL,
 * restarted on the same data dir -> every task completes and every webhook arrives.
 * Extraction uses the local engine (no AI provider), documents are small text files or loopback URLs.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { api, form, startServer, tempDir, type TestServer } from "./helpers/server";
import { loopbackServers } from "./helpers/loopback";

const serve = loopbackServers();

const SCHEMA = JSON.stringify({
  invoice_number: { type: "string", description: "invoice number", required: true },
  total: { type: "number", description: "total amount due", required: true },
});
const invoiceText = (n: number) => `ACME Supplies Ltd\nInvoice number: INV-${1000 + n}\nDate: 2024-03-01\n\nWidgets 2 x 10.00\nTotal: ${(20 + n).toFixed(2)} EUR\n`;
const invoice = (n = 1) => new File([invoiceText(n)], `invoice-${n}.txt`, { type: "text/plain" });
/** bigInvoice is over the 64 KB a task keeps in its row: its upload waits on disk while the task is pending */
const bigInvoice = (n: number) =>
  new File([invoiceText(n) + "\nTerms\n" + Array.from({ length: 1500 }, (_, i) => `Clause ${i}: the buyer reads these terms before paying.`).join("\n")], `invoice-${n}.txt`, { type: "text/plain" });
/** inputTasks lists the tasks whose uploads wait in the server's blob store (SQLite: <data>/inputs/<task>/, PostgreSQL: the blobs table) */
const inputTasks = async (server: TestServer) => [...new Set((await (await server.openBackend()).blobs.list("inputs")).map((b) => b.name.split("/")[1]!))];

/**
 * A loopback document server: /doc/<n> answers an invoice text; /slow/<n> waits until release();
 * /missing answers 404.
 */
function documentServer() {
  let releaseAll: () => void = () => {};
  let gate = new Promise<void>((resolve) => (releaseAll = resolve));
  const { origin } = serve(async (req) => {
    const path = new URL(req.url).pathname;
    const n = Number(path.split("/").at(-1)) || 0;
    if (path.startsWith("/slow/")) await gate;
    if (path === "/missing") return new Response("gone", { status: 404 });
    return new Response(invoiceText(n), { headers: { "content-type": "text/plain" } });
  });
  return {
    origin,
    release() {
      releaseAll();
      gate = new Promise<void>((resolve) => (releaseAll = resolve));
    },
  };
}

/** A webhook receiver that records every request. */
function receiver() {
  const received: { deliveryId: string; body: any }[] = [];
  const { origin } = serve(async (req) => {
    received.push({ deliveryId: req.headers.get("x-svc-delivery-id") ?? "", body: await req.json() });
    return new Response("ok");
  });
  return { url: `${origin}/hook`, received };
}

/** poll GETs `path` until `done(body)` holds (at most `ms`), returning the last body. */
async function poll(server: TestServer, key: string, path: string, done: (body: any) => boolean, ms = 30_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const { body } = await api(server, key, "GET", path);
    if (done(body) || Date.now() > deadline) return body;
    await Bun.sleep(50);
  }
}

const ended = (b: any) => ["completed", "failed", "cancelled"].includes(b.status);

describe("async tasks", () => {
  let server: TestServer;
  let key: string;
  const docs = documentServer();
  beforeAll(async () => {
    // one task at a time, so a held task keeps the next one pending
    server = await startServer({ args: ["--allow-private-urls"], env: { DOCINTEL_TASK_CONCURRENCY: "1" } });
    ({ key } = await server.key("enterprise")); // 600 requests a minute: the tests poll
  });
  afterAll(async () => {
    docs.release();
    await server.stop();
  });

  test("sync=false answers 202 with the acceptance record; the polled result is the sync result", async () => {
    const accepted = await api(server, key, "POST", "/api/v1/extract", form({ schema: SCHEMA, file: invoice(1), sync: "false" }));
    expect(accepted.status).toBe(202);
    expect(accepted.body).toEqual({ task_id: expect.stringMatching(/^task_[a-f0-9]+$/), status: "pending", poll_url: `/api/v1/jobs/${accepted.body.task_id}` });
    const record = await poll(server, key, accepted.body.poll_url, ended);
    expect(record).toMatchObject({ task_id: accepted.body.task_id, operation: "extract", status: "completed", credits_used: 3, progress: { done: 1, total: 1 } });
    for (const field of ["created_at", "started_at", "completed_at"]) expect(new Date(record[field]).toISOString()).toBe(record[field]);
    expect(record.error).toBeUndefined();
    const sync = await api(server, key, "POST", "/api/v1/extract", form({ schema: SCHEMA, file: invoice(1) }));
    expect(sync.status).toBe(200);
    expect(record.result).toEqual(sync.body);
    expect(record.result.data).toEqual({ invoice_number: "INV-1001", total: 21 });
    // a small upload is kept in the task row: no input dir was made for it
    expect(await inputTasks(server)).not.toContain(record.task_id);
  });

  test("an upload over 64 KB waits on disk while its task is pending, and is removed when the task ends", async () => {
    const hold = await api(server, key, "POST", "/api/v1/extract", form({ schema: SCHEMA, url: `${docs.origin}/slow/1`, sync: "false" }));
    const big = await api(server, key, "POST", "/api/v1/extract", form({ schema: SCHEMA, file: bigInvoice(7), sync: "false" }));
    expect(big.status).toBe(202);
    expect(await inputTasks(server)).toContain(big.body.task_id); // pending behind the held task (one at a time)
    docs.release();
    // the whole record on a mismatch, so a failure shows its error and detail
    for (const id of [hold.body.task_id, big.body.task_id]) expect(await poll(server, key, `/api/v1/jobs/${id}`, ended)).toMatchObject({ task_id: id, status: "completed" });
    const record = (await api(server, key, "GET", `/api/v1/jobs/${big.body.task_id}`)).body;
    expect(record.result.data.invoice_number).toBe("INV-1007");
    // the input goes right after the ending's commit, which the poll may see first (on PostgreSQL a round trip or two)
    const deadline = Date.now() + 5_000;
    while ((await inputTasks(server)).includes(big.body.task_id) && Date.now() < deadline) await Bun.sleep(20);
    expect(await inputTasks(server)).not.toContain(big.body.task_id);
  });

  test("a task that fails reports {error, detail} and costs nothing", async () => {
    const before = (await api(server, key, "GET", "/api/v1/usage")).body.credits.used;
    const accepted = await api(server, key, "POST", "/api/v1/extract", form({ schema: SCHEMA, url: `${docs.origin}/missing`, sync: "false" }));
    expect(accepted.status).toBe(202);
    const record = await poll(server, key, accepted.body.poll_url, ended);
    expect(record.status).toBe("failed");
    expect(record.error).toEqual({ error: "url_unreachable", detail: expect.stringContaining("404") });
    expect(record.credits_used).toBe(0);
    expect(record.result).toBeUndefined();
    const usage = (await api(server, key, "GET", "/api/v1/usage")).body.credits;
    expect(usage.used).toBe(before);
    expect(usage.held).toBe(0);
  });

  test("DELETE cancels a running and a pending task; nothing is charged; ended tasks answer 409", async () => {
    const before = (await api(server, key, "GET", "/api/v1/usage")).body.credits.used;
    const running = await api(server, key, "POST", "/api/v1/extract", form({ schema: SCHEMA, url: `${docs.origin}/slow/1`, sync: "false" }));
    await poll(server, key, running.body.poll_url, (b) => b.status === "processing");
    const waiting = await api(server, key, "POST", "/api/v1/extract", form({ schema: SCHEMA, file: invoice(2), sync: "false" }));
    const pending = await api(server, key, "GET", waiting.body.poll_url);
    expect(pending.body).toMatchObject({ status: "pending", queue_position: 0, started_at: null });
    expect((await api(server, key, "GET", "/api/v1/usage")).body.credits.held).toBe(6); // the minimum of each is held

    const cancelledPending = await api(server, key, "DELETE", waiting.body.poll_url);
    expect(cancelledPending.status).toBe(200);
    expect(cancelledPending.body).toMatchObject({ status: "cancelled", credits_used: 0 });
    const cancelledRunning = await api(server, key, "DELETE", running.body.poll_url);
    expect(cancelledRunning.body.status).toBe("cancelled");

    const again = await api(server, key, "DELETE", running.body.poll_url);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ success: false, error: "conflict" });
    // the runner is free again: a new task completes while the cancelled fetch still hangs
    const next = await api(server, key, "POST", "/api/v1/extract", form({ schema: SCHEMA, file: invoice(3), sync: "false" }));
    expect((await poll(server, key, next.body.poll_url, ended)).status).toBe("completed");
    docs.release();
    await Bun.sleep(200);
    expect((await api(server, key, "GET", running.body.poll_url)).body.status).toBe("cancelled");
    const usage = (await api(server, key, "GET", "/api/v1/usage")).body.credits;
    expect(usage.used).toBe(before + 3);
    expect(usage.held).toBe(0);
  });

  test("a key sees only its own tasks: another key gets 404 for poll, cancel and deliveries", async () => {
    const accepted = await api(server, key, "POST", "/api/v1/extract", form({ schema: SCHEMA, file: invoice(4), sync: "false" }));
    const other = (await server.key("pro")).key;
    for (const [method, path] of [
      ["GET", accepted.body.poll_url],
      ["DELETE", accepted.body.poll_url],
      ["GET", `${accepted.body.poll_url}/deliveries`],
      ["GET", "/api/v1/jobs/task_0000"],
    ] as const) {
      const r = await api(server, other, method, path);
      expect(r.status).toBe(404);
      expect(r.body).toMatchObject({ success: false, error: "not_found" });
    }
    expect((await poll(server, key, accepted.body.poll_url, ended)).status).toBe("completed");
  });

  test("webhook_url is refused with sync=true, and checked by the SSRF guard", async () => {
    const r = await api(server, key, "POST", "/api/v1/extract", form({ schema: SCHEMA, file: invoice(1), sync: "true", webhook_url: "http://127.0.0.1:9/x" }));
    expect(r.status).toBe(400);
    const bad = await api(server, key, "POST", "/api/v1/extract", form({ schema: SCHEMA, file: invoice(1), sync: "false", webhook_url: "ftp://127.0.0.1/x" }));
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("url_refused");
  });

  test("a batch of files and URLs runs every item, sums the credits and sends one webhook", async () => {
    const hook = receiver();
    const urls = JSON.stringify([`${docs.origin}/doc/7`, `${docs.origin}/missing`]);
    const accepted = await api(server, key, "POST", "/api/v1/extract/batch", form({ schema: SCHEMA, files: [invoice(5), invoice(6)], urls, webhook_url: hook.url }));
    expect(accepted.status).toBe(202);
    expect(accepted.body).toEqual({ batch_id: expect.stringMatching(/^batch_[a-f0-9]+$/), status: "pending", item_count: 4, poll_url: `/api/v1/jobs/batch/${accepted.body.batch_id}` });
    const batch = await poll(server, key, accepted.body.poll_url, ended);
    expect(batch).toMatchObject({ batch_id: accepted.body.batch_id, operation: "extract", status: "completed", item_count: 4, credits_used: 9 });
    expect(batch.counts).toEqual({ pending: 0, processing: 0, completed: 3, failed: 1, cancelled: 0 });
    expect(batch.items.map((i: any) => [i.index, i.source, i.status])).toEqual([
      [0, "invoice-5.txt", "completed"],
      [1, "invoice-6.txt", "completed"],
      [2, `${docs.origin}/doc/7`, "completed"],
      [3, `${docs.origin}/missing`, "failed"],
    ]);
    expect(batch.items[2].result.data).toEqual({ invoice_number: "INV-1007", total: 27 });
    expect(batch.items[3].error.error).toBe("url_unreachable");
    // each item is a task of its own
    expect((await api(server, key, "GET", `/api/v1/jobs/${batch.items[0].task_id}`)).body).toMatchObject({ status: "completed", batch_id: batch.batch_id });
    const log = await poll(server, key, `/api/v1/jobs/batch/${batch.batch_id}/deliveries`, (b) => b.deliveries?.[0]?.status === "delivered");
    expect(log.deliveries).toHaveLength(1);
    expect(hook.received).toHaveLength(1);
    expect(hook.received[0]!.body).toMatchObject({ batch_id: batch.batch_id, status: "completed", credits_used: 9, counts: batch.counts });
    expect(hook.received[0]!.deliveryId).toBe(log.deliveries[0].id);
  });

  test("a batch holds at most 20 items: 21 files, or files and urls together, answer 422", async () => {
    const files = Array.from({ length: 21 }, (_, i) => invoice(i));
    const tooMany = await api(server, key, "POST", "/api/v1/extract/batch", form({ schema: SCHEMA, files }));
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.detail[0]).toMatchObject({ loc: ["body", "files"], type: "too_long" });
    const urls = JSON.stringify(Array.from({ length: 11 }, (_, i) => `${docs.origin}/doc/${i}`));
    const mixed = await api(server, key, "POST", "/api/v1/extract/batch", form({ schema: SCHEMA, files: files.slice(0, 10), urls }));
    expect(mixed.status).toBe(422);
    expect(mixed.body.detail[0]).toMatchObject({ loc: ["body", "urls"], type: "too_long" });
  });

  test("a free key without enough credits gets 402 at acceptance, not a failed task", async () => {
    const free = await server.key("free");
    await server.sql("INSERT INTO credit_ledger (key_id, kind, amount, period, created_at) VALUES (?, 'charge', 99, ?, ?)", free.id, new Date().toISOString().slice(0, 7), new Date().toISOString());
    const r = await api(server, free.key, "POST", "/api/v1/extract", form({ schema: SCHEMA, file: invoice(1), sync: "false" }));
    expect(r.status).toBe(402);
    expect(r.body.error).toBe("insufficient_credits");
  });
});

describe("crash recovery", () => {
  const dataDir = tempDir();
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  test("20 accepted tasks, the server killed with SIGKILL and started again: all 20 complete, all 20 webhooks arrive", async () => {
    // each document takes 150 ms to fetch, so the kill finds some tasks running and most pending
    const { origin } = serve(async (req) => {
      await Bun.sleep(150);
      const n = Number(new URL(req.url).pathname.split("/").at(-1));
      return new Response(invoiceText(n), { headers: { "content-type": "text/plain" } });
    });
    const hook = receiver();
    const options = { dataDir, args: ["--allow-private-urls"], env: { DOCINTEL_TASK_CONCURRENCY: "2", DOCINTEL_TASK_LEASE_MS: "1500" } };
    const first = await startServer(options);
    const { key } = await first.key("enterprise");
    const ids: string[] = [];
    for (let n = 0; n < 20; n++) {
      // by URL, a small upload (kept in the task row) and a large one (kept on disk), in turn
      const file = n % 4 === 1 ? invoice(n) : bigInvoice(n);
      const body = n % 2 === 0 ? form({ schema: SCHEMA, url: `${origin}/doc/${n}`, sync: "false", webhook_url: hook.url }) : form({ schema: SCHEMA, file, sync: "false", webhook_url: hook.url });
      const r = await api(first, key, "POST", "/api/v1/extract", body);
      expect(r.status).toBe(202);
      ids.push(r.body.task_id);
    }
    await poll(first, key, `/api/v1/jobs/${ids[0]}`, (b) => b.status !== "pending");
    expect(await first.stop("SIGKILL")).not.toBe(0);
    const statesAtKill = (await first.sql<{ status: string }>("SELECT status FROM tasks")).map((r) => r.status);
    expect(statesAtKill.filter((s) => s === "completed").length).toBeLessThan(20);
    expect(statesAtKill).toContain("processing"); // resumed only once their lease expires

    const second = await startServer(options);
    try {
      for (const [n, id] of ids.entries()) {
        const record = await poll(second, key, `/api/v1/jobs/${id}`, ended, 60_000);
        expect(record.status).toBe("completed");
        expect(record.result.data.invoice_number).toBe(`INV-${1000 + n}`);
      }
      // a webhook the killed server had claimed is sent by the second once that claim lapses (10 s
      // request timeout + 5 s margin) at its next poll (5 s): up to 20 s after the tasks end
      const deadline = Date.now() + 25_000;
      while (new Set(hook.received.map((r) => r.body.task_id)).size < 20 && Date.now() < deadline) await Bun.sleep(50);
      expect(new Set(hook.received.map((r) => r.body.task_id))).toEqual(new Set(ids));
      // a delivery repeated after the crash carries the same id: one id per task
      expect(new Set(hook.received.map((r) => r.deliveryId)).size).toBe(20);
      const charges = (await second.sql<{ n: number }>("SELECT CAST(count(*) AS INTEGER) AS n FROM credit_ledger WHERE kind = 'charge'"))[0]!.n;
      expect(charges).toBe(20); // each task charged exactly once
      // a task's input goes right after its end is committed (and a task the killed server ended just before the
      // kill has its input swept as the second starts): wait for the last removal, as the webhook may come first
      const inputsDeadline = Date.now() + 5_000;
      while ((await inputTasks(second)).length && Date.now() < inputsDeadline) await Bun.sleep(50);
      expect(await inputTasks(second)).toEqual([]);
    } finally {
      await second.stop();
    }
  }, 120_000);
});

describe("retention", () => {
  const dataDir = tempDir();
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  test("tasks and batches that ended more than 7 days ago are deleted when the runner starts; newer ones stay", async () => {
    const first = await startServer({ dataDir });
    const { key } = await first.key("enterprise");
    const accept = async (path: string, body: FormData) => {
      const r = await api(first, key, "POST", path, body);
      expect(r.status).toBe(202);
      return r.body;
    };
    const [old, recent] = [await accept("/api/v1/extract", form({ schema: SCHEMA, file: invoice(1), sync: "false" })), await accept("/api/v1/extract", form({ schema: SCHEMA, file: invoice(2), sync: "false" }))];
    const batch = await accept("/api/v1/extract/batch", form({ schema: SCHEMA, files: [invoice(3), invoice(4)] }));
    for (const path of [`/api/v1/jobs/${old.task_id}`, `/api/v1/jobs/${recent.task_id}`, `/api/v1/jobs/batch/${batch.batch_id}`]) expect((await poll(first, key, path, ended)).status).toBe("completed");
    await first.stop();

    // the old task and the batch ended 8 days ago (its items too); the recent one 6 days ago
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
    await first.sql("UPDATE tasks SET completed_at = ? WHERE id = ? OR batch_id = ?", daysAgo(8), old.task_id, batch.batch_id);
    await first.sql("UPDATE batches SET completed_at = ? WHERE id = ?", daysAgo(8), batch.batch_id);
    await first.sql("UPDATE tasks SET completed_at = ? WHERE id = ?", daysAgo(6), recent.task_id);

    const second = await startServer({ dataDir });
    try {
      // the runner sweeps as it starts, beside the server (not before it answers): wait for the sweep's commit
      const gone = async (path: string) => {
        const deadline = Date.now() + 5_000;
        while ((await api(second, key, "GET", path)).status !== 404 && Date.now() < deadline) await Bun.sleep(50);
        return (await api(second, key, "GET", path)).status;
      };
      expect(await gone(`/api/v1/jobs/${old.task_id}`)).toBe(404);
      expect(await gone(`/api/v1/jobs/batch/${batch.batch_id}`)).toBe(404);
      const kept = await api(second, key, "GET", `/api/v1/jobs/${recent.task_id}`);
      expect(kept.status).toBe(200);
      expect(kept.body.result.data.invoice_number).toBe("INV-1002");
      expect(await second.sql("SELECT CAST(count(*) AS INTEGER) AS n FROM tasks")).toEqual([{ n: 1 }]);
    } finally {
      await second.stop();
    }
  }, 120_000);
});
