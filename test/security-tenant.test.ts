/**
 * What one key's requests may leak to others or to third parties, through the real server (a child
 * process) and real receivers on loopback:
 *   - url_headers reach only the exact origin (scheme, host, port) the client named: not a second
 *     port reached by an open redirect, a followed link or the browser's render of the final URL;
 *   - every key signs its webhooks with its own secret (readable and rotatable through the API and
 *     the CLI); a key made before per-key secrets keeps the shared one until it rotates;
 *   - signed thumbnail URLs use a server-only key, never a webhook secret, and never the Host header;
 *   - an ended task keeps no input in the store; a revoked key's tasks stop.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { rmSync, statSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { api, form, runCli, startServer, tempDir, type TestServer, withServer } from "./helpers/server";
import { loopbackServers } from "./helpers/loopback";
import { openStore } from "../src/store";
import { MIGRATIONS } from "../src/store/migrations";
import { hashKey } from "../src/security/apiKeys";
import { taskQueries } from "../src/store/sqlite/tasks";
import { Ledger } from "../src/credits/ledger";
import { URL_SIGNING_KEY_SETTING } from "../src/thumbnails/signing";

const serve = loopbackServers();
const SCHEMA = JSON.stringify({ company: { type: "string", description: "company name", required: true } });
const TOKEN = "Bearer tenant-secret-token";

/** site: a loopback listener that records the Authorization header of every request by path. */
function site(pages: (path: string, origin: string) => Response | null) {
  const seen: { path: string; authorization: string | null }[] = [];
  const holder = { origin: "" };
  const { origin } = serve((req) => {
    const path = new URL(req.url).pathname;
    seen.push({ path, authorization: req.headers.get("authorization") });
    return pages(path, holder.origin) ?? new Response("not here", { status: 404 });
  });
  holder.origin = origin;
  return { origin, seen };
}

const html = (body: string) => new Response(`<!doctype html><html><head><title>ACME</title></head><body>${body}</body></html>`, { headers: { "content-type": "text/html" } });

describe("url_headers stay on the origin the client named", () => {
  let server: TestServer;
  let key: string;
  withServer({ args: ["--allow-private-urls"], plan: "enterprise" }, (served) => ({ server, key } = served));

  const extract = (url: string) => api(server, key, "POST", "/api/v1/extract", form({ schema: SCHEMA, url, url_headers: JSON.stringify({ Authorization: TOKEN }), follow_links: "true" }));

  test("an open redirect to another port plus a link there: the second origin never sees the header", async () => {
    const other = site((path) => {
      if (path === "/landing") return html(`<main><h1>ACME Ltd</h1><p>Company: ACME Ltd</p><p><a href="/about">About us</a> <a href="/contact">Contact</a></p></main>`);
      if (path === "/about" || path === "/contact") return html(`<main><h1>About ACME</h1><p>ACME Ltd makes widgets since 1999 and ships them everywhere.</p></main>`);
      return null;
    });
    const own = site((path) => (path === "/go" ? new Response(null, { status: 302, headers: { location: `${other.origin}/landing` } }) : null));
    const r = await extract(`${own.origin}/go`);
    expect(r.status).toBe(200);
    // the redirect target and its links were read (the test would pass vacuously otherwise) ...
    expect(other.seen.map((s) => s.path)).toEqual(expect.arrayContaining(["/landing", "/about"]));
    // ... and the client's token reached only its own origin
    expect(own.seen.some((s) => s.authorization === TOKEN)).toBe(true);
    expect(other.seen.filter((s) => s.authorization !== null)).toEqual([]);
  }, 60_000);

  test("links on the client's own origin get the header; a same-host link on another port does not", async () => {
    const other = site((path) => (path === "/contact" ? html(`<main><h1>Contact</h1><p>Write to ACME Ltd at the harbour office, every weekday.</p></main>`) : null));
    const own = site((path) => {
      if (path === "/") return html(`<main><h1>ACME Ltd</h1><p>Company: ACME Ltd</p><p><a href="/about">About us</a> <a href="${other.origin}/contact">Contact</a></p></main>`);
      if (path === "/about") return html(`<main><h1>About ACME</h1><p>ACME Ltd makes widgets since 1999 and ships them everywhere.</p></main>`);
      return null;
    });
    const r = await extract(`${own.origin}/`);
    expect(r.status).toBe(200);
    expect(own.seen.find((s) => s.path === "/about")?.authorization).toBe(TOKEN);
    expect(other.seen.map((s) => s.path)).toContain("/contact");
    expect(other.seen.filter((s) => s.authorization !== null)).toEqual([]);
  }, 60_000);

  test("a thumbnail of a URL that redirects to another port: the screenshot is taken without the header", async () => {
    const other = site((path) => (path === "/dash" ? html(`<h1 style="background:#c03">Dashboard</h1>`) : null));
    const own = site((path) => (path === "/dash" ? new Response(null, { status: 302, headers: { location: `${other.origin}/dash` } }) : null));
    const r = await fetch(`${server.url}/api/v1/thumbnails/generate/json`, {
      method: "POST",
      headers: { "X-API-Key": key, "content-type": "application/json" },
      body: JSON.stringify({ url: `${own.origin}/dash`, url_headers: { Authorization: TOKEN }, response_type: "base64" }),
    });
    expect(r.status).toBe(200);
    expect(other.seen.length).toBeGreaterThan(0);
    expect(other.seen.filter((s) => s.authorization !== null)).toEqual([]);
  }, 60_000);
});

// ---------------------------------------------------------------------------------------------
// Webhook signing secrets

const SHARED = "whsec_shared_secret_of_the_operator";
const INVOICE_SCHEMA = JSON.stringify({ total: { type: "number", description: "total amount due", required: true } });
const invoice = () => new File(["Invoice number: INV-7\nTotal: 42.50 EUR\n"], "invoice.txt", { type: "text/plain" });
const hmac = (secret: string, raw: string) => "sha256=" + createHmac("sha256", secret).update(raw, "utf8").digest("hex");

async function until<T>(read: () => T | Promise<T>, done: (value: T) => boolean, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await Bun.sleep(100);
  }
}

/** receiver records every webhook request; it answers the statuses in turn (the last one repeats). */
function receiver(statuses = [200]) {
  const received: { raw: string; signature: string }[] = [];
  const { origin } = serve(async (req) => {
    received.push({ raw: await req.text(), signature: req.headers.get("x-svc-signature") ?? "" });
    return new Response("ok", { status: statuses[Math.min(received.length - 1, statuses.length - 1)] });
  });
  return { url: `${origin}/hook`, received };
}

describe("every key signs its webhooks with its own secret", () => {
  const dataDir = tempDir();
  const legacyKey = "dk_" + "L".repeat(32);
  let server: TestServer;

  beforeAll(async () => {
    // a key made by the version before per-key secrets: the store as migrations 1 to 4 left it
    const old = openStore(dataDir, MIGRATIONS.filter((m) => m.version <= 4));
    old.db
      .query("INSERT INTO api_keys (id, name, plan, prefix, key_hash, created_at) VALUES (?, ?, ?, ?, ?, ?)")
      .run("key_legacy0001", "legacy", "enterprise", legacyKey.slice(0, 9), hashKey(legacyKey), new Date().toISOString());
    old.close();
    // scale 2: the second request of a delivery comes 4 s after the first, time enough to rotate between them
    server = await startServer({ dataDir, args: ["--allow-private-urls", "--webhook-secret", SHARED], env: { DOCINTEL_WEBHOOK_RETRY_SCALE: "2" } });
  });
  afterAll(async () => {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const secretOf = (key: string) => api(server, key, "GET", "/api/v1/webhooks/secret");
  /** deliver runs one async extract of `key` with a webhook and returns the first request the receiver got */
  async function deliver(key: string, hook = receiver()) {
    const before = hook.received.length;
    const r = await api(server, key, "POST", "/api/v1/extract", form({ schema: INVOICE_SCHEMA, file: invoice(), sync: "false", webhook_url: hook.url }));
    expect(r.status).toBe(202);
    await until(() => hook.received.length, (n) => n > before);
    return hook.received[before]!;
  }

  test("two keys: each delivery verifies with its own key's secret only, never with the shared one", async () => {
    const a = await server.key("enterprise");
    const b = await server.key("enterprise");
    const [secretA, secretB] = [(await secretOf(a.key)).body, (await secretOf(b.key)).body];
    expect(secretA).toMatchObject({ success: true, key_id: a.id, shared: false });
    expect(secretA.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(secretB.secret).not.toBe(secretA.secret);
    const [gotA, gotB] = await Promise.all([deliver(a.key), deliver(b.key)]);
    expect(gotA.signature).toBe(hmac(secretA.secret, gotA.raw));
    expect(gotB.signature).toBe(hmac(secretB.secret, gotB.raw));
    for (const other of [secretB.secret, SHARED]) expect(gotA.signature).not.toBe(hmac(other, gotA.raw));
    for (const other of [secretA.secret, SHARED]) expect(gotB.signature).not.toBe(hmac(other, gotB.raw));
  }, 60_000);

  test("a key made before per-key secrets keeps signing with the shared secret until it rotates", async () => {
    const before = await secretOf(legacyKey);
    expect(before.body).toEqual({ success: true, key_id: "key_legacy0001", secret: null, shared: true, created_at: null });
    const legacy = await deliver(legacyKey);
    expect(legacy.signature).toBe(hmac(SHARED, legacy.raw));
    const rotated = await api(server, legacyKey, "POST", "/api/v1/webhooks/secret/rotate");
    expect(rotated.body).toMatchObject({ key_id: "key_legacy0001", shared: false });
    expect(rotated.body.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    const own = await deliver(legacyKey);
    expect(own.signature).toBe(hmac(rotated.body.secret, own.raw));
    expect(own.signature).not.toBe(hmac(SHARED, own.raw));
  }, 60_000);

  test("rotation through the API and through the CLI changes the signature of the next delivery", async () => {
    const { key, id } = await server.key("enterprise");
    const first = (await secretOf(key)).body.secret;
    const initial = await deliver(key);
    expect(initial.signature).toBe(hmac(first, initial.raw));
    const viaApi = await api(server, key, "POST", "/api/v1/webhooks/secret/rotate");
    expect(viaApi.status).toBe(200);
    expect(viaApi.body.secret).not.toBe(first);
    expect((await secretOf(key)).body.secret).toBe(viaApi.body.secret);
    const second = await deliver(key);
    expect(second.signature).toBe(hmac(viaApi.body.secret, second.raw));
    expect(second.signature).not.toBe(hmac(first, second.raw));

    const cli = await runCli(["keys", "secret", id, "--rotate", "--data", server.dataDir]);
    expect(cli.code).toBe(0);
    const viaCli = cli.stdout.trim();
    expect(viaCli).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(viaCli).not.toBe(viaApi.body.secret);
    expect((await runCli(["keys", "secret", id, "--data", server.dataDir])).stdout.trim()).toBe(viaCli);
    expect((await secretOf(key)).body.secret).toBe(viaCli);
    const third = await deliver(key);
    expect(third.signature).toBe(hmac(viaCli, third.raw));
    // an unknown key is an error
    expect((await runCli(["keys", "secret", "key_nothing", "--data", server.dataDir])).code).toBe(1);
  }, 60_000);

  test("a retry after a rotation is signed with the new secret", async () => {
    const { key } = await server.key("enterprise");
    const old = (await secretOf(key)).body.secret;
    const hook = receiver([503, 200]);
    const first = await deliver(key, hook);
    expect(first.signature).toBe(hmac(old, first.raw));
    const fresh = (await api(server, key, "POST", "/api/v1/webhooks/secret/rotate")).body.secret;
    await until(() => hook.received.length, (n) => n >= 2);
    const retry = hook.received[1]!;
    expect(retry.raw).toBe(first.raw);
    expect(retry.signature).toBe(hmac(fresh, retry.raw));
  }, 60_000);

  test("signed thumbnail URLs use a server-only key in the data dir, not one derived from a webhook secret", async () => {
    const { key } = await server.key("enterprise");
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: "#285aa0" } }).png().toBuffer();
    const r = await api(server, key, "POST", "/api/v1/thumbnails/generate", form({ file: new File([png], "a.png") }));
    expect(r.status).toBe(200);
    // what a customer knowing a webhook secret could compute: the old derivation, or its own secret as key
    const expires = Math.floor(Date.now() / 1000) + 3600;
    const jobId = r.body.job_id as string;
    const own = (await secretOf(key)).body.secret as string;
    for (const secret of [SHARED, own]) {
      const derived = createHmac("sha256", secret).update("docintel thumbnail URLs v1").digest();
      for (const signingKey of [derived, Buffer.from(secret)]) {
        const signature = createHmac("sha256", signingKey).update(`${jobId}:${expires}`).digest("hex");
        const forged = await fetch(`${server.url}/api/v1/thumbnails/files/${jobId}?expires=${expires}&signature=${signature}`);
        expect(forged.status).toBe(403);
      }
    }
    // the URL the API gave works, and its key is the server's alone
    expect((await fetch(new URL(r.body.url, server.url))).status).toBe(200);
    expect(statSync(join(server.dataDir, URL_SIGNING_KEY_SETTING)).mode & 0o777).toBe(0o600);
  }, 60_000);
});

// ---------------------------------------------------------------------------------------------
// Absolute URLs

describe("returned URLs never take their origin from the Host header", () => {
  const png = () => sharp({ create: { width: 40, height: 30, channels: 3, background: "#285aa0" } }).png().toBuffer();
  async function thumbnail(server: TestServer, key: string) {
    const r = await fetch(`${server.url}/api/v1/thumbnails/generate`, { method: "POST", headers: { "X-API-Key": key, Host: "evil.example" }, body: form({ file: new File([await png()], "a.png") }) });
    const text = await r.text();
    expect(r.status).toBe(200);
    const body = JSON.parse(text);
    const polled = await (await fetch(`${server.url}/api/v1/thumbnails/jobs/${body.job_id}`, { headers: { "X-API-Key": key, Host: "evil.example" } })).text();
    return { body, text: text + polled };
  }

  test("without --public-url: a relative URL, and Host: evil.example appears nowhere", async () => {
    const server = await startServer();
    try {
      const { key } = await server.key("enterprise");
      const { body, text } = await thumbnail(server, key);
      expect(text).not.toContain("evil.example");
      expect(body.url).toStartWith(`/api/v1/thumbnails/files/${body.job_id}?expires=`);
      expect((await fetch(server.url + body.url)).status).toBe(200);
    } finally {
      await server.stop();
    }
  }, 60_000);

  test("with --public-url: the URL is under it, whatever the Host header says", async () => {
    const server = await startServer({ args: ["--public-url", "https://docs.example.com/"] });
    try {
      const { key } = await server.key("enterprise");
      const { body, text } = await thumbnail(server, key);
      expect(text).not.toContain("evil.example");
      expect(body.url).toStartWith(`https://docs.example.com/api/v1/thumbnails/files/${body.job_id}?expires=`);
      const path = body.url.slice("https://docs.example.com".length);
      expect((await fetch(server.url + path)).status).toBe(200);
    } finally {
      await server.stop();
    }
  }, 60_000);

  test("a --public-url that is not an http(s) URL is refused at start, naming the flag", async () => {
    const r = await runCli(["serve", "--port", "0", "--data", tempDir(), "--public-url", "docs.example.com?x=1"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--public-url");
  });
});

// ---------------------------------------------------------------------------------------------
// Tasks: inputs and revoked keys

describe("tasks keep no input once ended, and a revoked key's tasks stop", () => {
  let server: TestServer;
  let releaseSlow: () => void = () => {};
  const slowGate = new Promise<void>((resolve) => (releaseSlow = resolve));
  const docs = site((path) => (path.startsWith("/doc") ? new Response("Invoice number: INV-9\nTotal: 12.00 EUR\n", { headers: { "content-type": "text/plain" } }) : null));
  const slow = serve(async () => {
    await slowGate;
    return new Response("Total: 1.00 EUR\n", { headers: { "content-type": "text/plain" } });
  });
  beforeAll(async () => {
    // one task at a time, so a held task keeps the next ones pending; a 3 s lease: a heartbeat every second
    server = await startServer({ args: ["--allow-private-urls", "--task-lease-ms", "3000"], env: { DOCINTEL_TASK_CONCURRENCY: "1" } });
  });
  afterAll(async () => {
    releaseSlow();
    await server.stop();
  });

  const accept = async (key: string, fields: Record<string, string | Blob>) => {
    const r = await api(server, key, "POST", "/api/v1/extract", form({ schema: INVOICE_SCHEMA, sync: "false", ...fields }));
    expect(r.status).toBe(202);
    return r.body.task_id as string;
  };
  const row = (id: string) => taskQueries(server.store()).get(id)!;

  test("completed, failed and cancelled tasks drop their files and url_headers from the store", async () => {
    const { key } = await server.key("enterprise");
    const headers = JSON.stringify({ Authorization: TOKEN });
    const byUrl = await accept(key, { url: `${docs.origin}/doc/1`, url_headers: headers });
    const byFile = await accept(key, { file: invoice() });
    const failing = await accept(key, { url: `${docs.origin}/missing`, url_headers: headers });
    for (const id of [byUrl, byFile, failing]) await until(() => row(id).status, (s) => s === "completed" || s === "failed");
    expect([row(byUrl).status, row(byFile).status, row(failing).status]).toEqual(["completed", "completed", "failed"]);
    // a pending task still has its input (it must run from it) ...
    const blocker = await accept(key, { url: `${slow.origin}/slow` });
    const cancelled = await accept(key, { url: `${docs.origin}/doc/2`, url_headers: headers });
    expect(row(cancelled).input).toContain(TOKEN);
    expect((await api(server, key, "DELETE", `/api/v1/jobs/${cancelled}`)).status).toBe(200);
    expect((await api(server, key, "DELETE", `/api/v1/jobs/${blocker}`)).status).toBe(200);
    // ... an ended one has none
    for (const id of [byUrl, byFile, failing, cancelled, blocker]) expect(row(id).input).toBe("{}");
    expect(row(byUrl).result).not.toBeNull();
  }, 60_000);

  test("a revoked key: its pending tasks fail without running and release their credits; its running task is stopped", async () => {
    const a = await server.key("enterprise");
    const b = await server.key("enterprise");
    const running = await accept(a.key, { url: `${slow.origin}/held` });
    await until(() => row(running).status, (s) => s === "processing");
    const pending = [await accept(b.key, { url: `${docs.origin}/doc/b1` }), await accept(b.key, { url: `${docs.origin}/doc/b2` })];
    const ledger = new Ledger(await server.openBackend());
    expect((await ledger.balance({ id: b.id, plan: "enterprise" })).held).toBeGreaterThan(0);

    const revokeB = await runCli(["keys", "revoke", b.id, "--data", server.dataDir]);
    expect(revokeB.code).toBe(0);
    for (const id of pending) {
      const ended = await until(() => row(id), (r) => r.status !== "pending", 10_000);
      expect(ended.status).toBe("failed");
      expect(JSON.parse(ended.error!)).toMatchObject({ error: "key_revoked" });
      expect(ended.started_at).toBeNull();
      expect(ended.input).toBe("{}");
    }
    expect((await ledger.balance({ id: b.id, plan: "enterprise" })).held).toBe(0);
    expect((await ledger.balance({ id: b.id, plan: "enterprise" })).used).toBe(0);
    expect(docs.seen.filter((s) => s.path.startsWith("/doc/b"))).toEqual([]);
    expect(row(running).status).toBe("processing"); // another key's task is not touched

    expect((await runCli(["keys", "revoke", a.id, "--data", server.dataDir])).code).toBe(0);
    const stopped = await until(() => row(running), (r) => r.status !== "processing", 10_000);
    expect(stopped.status).toBe("failed");
    expect(JSON.parse(stopped.error!)).toMatchObject({ error: "key_revoked", detail: expect.stringContaining("while the task ran") });
    expect((await ledger.balance({ id: a.id, plan: "enterprise" })).held).toBe(0);
  }, 60_000);
});
