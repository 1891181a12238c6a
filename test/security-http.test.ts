/**
 * The HTTP door of the service, tried as an attacker without a key would (issue 14, items 6, 7
 * and part of 11): whether a key is needed comes from the route that matched; no body byte is
 * written before the key is checked; spools are capped; the data dir is private; /metrics is the
 * operator's; an anonymous deep health check queues no work.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PUBLIC_ROUTES } from "../src/app/app";
import { revokeApiKey } from "../src/security/apiKeys";
import { openStore } from "../src/store";
import { withKeys } from "./helpers/keys";
import { freePort, runCli, startServer, tempDir, type TestServer } from "./helpers/server";
import { rawChunkedPost, type RawChunkedPost } from "./helpers/rawHttp";

const MB = 1_000_000;
const METRICS_TOKEN = "metrics-token-for-the-operator-only";

let server: TestServer;
let metricsPort: number;
let key: string;

beforeAll(async () => {
  metricsPort = await freePort();
  server = await startServer({ args: ["--metrics-listen", `127.0.0.1:${metricsPort}`, "--metrics-token", METRICS_TOKEN, "--max-spools-per-key", "2", "--max-spools", "3"] });
  ({ key } = await server.key("enterprise"));
});
afterAll(() => server.stop());

/** logLinesOf: the server's request log lines for one request id, once they have arrived through the pipe */
async function logLinesOf(requestId: string): Promise<any[]> {
  const lines = () => server.stdout().split("\n").filter((l) => l.includes(requestId));
  await until(`the log line of request ${requestId}`, () => lines().length > 0);
  return lines().map((l) => JSON.parse(l));
}

/** spooled: the files in data/tmp/bodies and their total size right now */
function spooled(dataDir: string): { files: number; bytes: number } {
  const dir = join(dataDir, "tmp", "bodies");
  if (!existsSync(dir)) return { files: 0, bytes: 0 };
  let bytes = 0;
  const names = readdirSync(dir);
  for (const name of names) bytes += statSync(join(dir, name), { throwIfNoEntry: false })?.size ?? 0;
  return { files: names.length, bytes };
}

async function until(what: string, condition: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(20);
  }
}

const MULTIPART_TYPE = "multipart/form-data; boundary=docintel-test-boundary";

/**
 * streamSlowly sends `total` bytes of body in 256 KB chunks with a pause between them, watching
 * data/tmp/bodies after every chunk; it stops early when the server has answered or hung up.
 */
async function streamSlowly(upload: RawChunkedPost, total: number, dataDir: string): Promise<{ sent: number; mostFiles: number; mostBytes: number }> {
  const chunk = new Uint8Array(256 * 1024).fill(0x61);
  let sent = 0;
  let mostFiles = 0;
  let mostBytes = 0;
  while (sent < total && !upload.answered() && !upload.closed()) {
    if (!(await upload.send(chunk))) break;
    sent += chunk.byteLength;
    await Bun.sleep(10);
    const now = spooled(dataDir);
    mostFiles = Math.max(mostFiles, now.files);
    mostBytes = Math.max(mostBytes, now.bytes);
  }
  if (!upload.answered() && !upload.closed()) upload.end();
  return { sent, mostFiles, mostBytes };
}

describe("item 6: whether a key is needed comes from the matched route, not the path", () => {
  test("only the landing page, favicon, robots.txt, health and readiness checks, explorer, signed thumbnail URL, the moved /metrics and GET /mcp (a 405: MCP is POST only) answer without a key", () => {
    expect([...PUBLIC_ROUTES].sort()).toEqual(["GET /", "GET /api/v1/thumbnails/files/:job_id", "GET /api/v1/thumbnails/preview/signed", "GET /docs", "GET /docs/assets/scalar.js", "GET /docs/json", "GET /favicon.ico", "GET /healthz", "GET /mcp", "GET /metrics", "GET /readyz", "GET /robots.txt"]);
  });

  test.each(["/api/v1/thumbnails/files/abc/def", "/docs/assets/x/y", "/docs/json/x", "/healthz/x", "/api/v1/thumbnails/files/thumb_a/b?expires=1&signature=x"])(
    "GET %s without a key is 401 and never reaches the screenshot handler",
    async (path) => {
      for (const method of ["GET", "HEAD"]) {
        const r = await fetch(server.url + path, { method });
        expect(r.status).toBe(401);
        if (method === "GET") expect(await r.json()).toMatchObject({ success: false, error: "unauthorized" });
        // the catch-all matched, and its key check stopped the request: no handler ran (the
        // handler would have tried the "URL" https://api/... and answered 400 url_unreachable)
        const [line] = await logLinesOf(r.headers.get("x-request-id")!);
        expect(line).toMatchObject({ msg: "request", method, route: "/*", status: 401 });
        expect(line.key_id).toBeUndefined();
      }
    },
  );

  test("the public routes still answer without a key", async () => {
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${server.url}/docs`)).status).toBe(200);
    expect((await fetch(`${server.url}/docs/json`)).status).toBe(200);
    expect((await fetch(`${server.url}/docs/assets/scalar.js`)).status).toBe(200);
    // the signed URL carries its own authorisation: a bad signature is 403, not 401
    const signed = await fetch(`${server.url}/api/v1/thumbnails/files/thumb_abc?expires=${Math.floor(Date.now() / 1000) + 60}&signature=${"0".repeat(64)}`);
    expect(signed.status).toBe(403);
  });

  test("with a key the catch-all takes only paths that are URLs: /docs/assets/x/y is 404, not a screenshot of the host 'docs' (issue 19)", async () => {
    const r = await fetch(`${server.url}/docs/assets/x/y`, { headers: { "X-API-Key": key } });
    expect(r.status).toBe(404);
    expect(((await r.json()) as any).error).toBe("not_found");
  });
});

describe("item 7: the key is checked before any body byte is written", () => {
  test.each(["none", "invalid", "revoked"])("a slow chunked 20 MB upload with a %s key gets 401 and nothing lands in data/tmp/bodies", async (which) => {
    let apiKey = "";
    if (which === "invalid") apiKey = "dk_" + "x".repeat(32);
    if (which === "revoked") {
      const made = await server.key("pro");
      await withKeys(server.dataDir, (keys) => revokeApiKey(keys, made.id));
      apiKey = made.key;
    }
    const upload = rawChunkedPost(server.port, "/api/v1/markdown/convert", { "Content-Type": MULTIPART_TYPE, ...(apiKey ? { "X-API-Key": apiKey } : {}) });
    const seen = await streamSlowly(upload, 20 * MB, server.dataDir);
    const answer = await upload.answer;
    upload.destroy();
    expect(answer?.status).toBe(401);
    expect(JSON.parse(answer!.body)).toMatchObject({ success: false, error: "unauthorized" });
    expect(seen).toMatchObject({ mostFiles: 0, mostBytes: 0 });
    // answered long before the body was sent
    expect(seen.sent).toBeLessThan(20 * MB);
  });

  test("with a valid key the same upload is spooled (the watch above can see a spool)", async () => {
    const upload = rawChunkedPost(server.port, "/api/v1/markdown/convert", { "Content-Type": MULTIPART_TYPE, "X-API-Key": key });
    const seen = await streamSlowly(upload, 4 * MB, server.dataDir);
    const answer = await upload.answer;
    upload.destroy();
    expect(seen.mostFiles).toBe(1);
    expect(seen.mostBytes).toBeGreaterThan(0);
    // the body is not valid multipart: read to the end, then refused; the spool is gone
    expect(answer?.status).toBe(400);
    await until("the spool to be removed", () => spooled(server.dataDir).files === 0);
  });

  test("spools are capped per key (429 rate_limited) and in total (503 overloaded), with Retry-After, and freed when uploads end", async () => {
    const open: RawChunkedPost[] = [];
    const start = async (apiKey: string) => {
      const upload = rawChunkedPost(server.port, "/api/v1/markdown/convert", { "Content-Type": MULTIPART_TYPE, "X-API-Key": apiKey });
      await upload.send(new TextEncoder().encode("--docintel-test-boundary\r\n"));
      open.push(upload);
      return upload;
    };
    const other = (await server.key("enterprise")).key;
    const third = (await server.key("enterprise")).key;
    try {
      // --max-spools-per-key 2: this key's third concurrent chunked upload is refused
      await start(key);
      await start(key);
      await until("two spools", () => spooled(server.dataDir).files === 2);
      const overKey = await (await start(key)).answer;
      expect(overKey?.status).toBe(429);
      expect(JSON.parse(overKey!.body)).toMatchObject({ success: false, error: "rate_limited", detail: expect.stringContaining("--max-spools-per-key") });
      expect(Number(overKey!.headers["retry-after"])).toBeGreaterThan(0);

      // --max-spools 3: another key takes the last slot, a third key is refused as overload
      await start(other);
      await until("three spools", () => spooled(server.dataDir).files === 3);
      const overTotal = await (await start(third)).answer;
      expect(overTotal?.status).toBe(503);
      expect(JSON.parse(overTotal!.body)).toMatchObject({ success: false, error: "overloaded", detail: expect.stringContaining("--max-spools") });
      expect(Number(overTotal!.headers["retry-after"])).toBeGreaterThan(0);
    } finally {
      for (const upload of open) upload.destroy();
    }
    // dropped connections give their slots back
    await until("the spools to be removed", () => spooled(server.dataDir).files === 0);
    const fd = new FormData();
    fd.append("file", new File(["# Notes\n\nslots are free again"], "notes.md"));
    const multipart = new Response(fd);
    const contentType = multipart.headers.get("content-type")!;
    const bytes = new Uint8Array(await multipart.arrayBuffer());
    const again = rawChunkedPost(server.port, "/api/v1/markdown/convert", { "Content-Type": contentType, "X-API-Key": key, Accept: "application/json" });
    await again.send(bytes.subarray(0, 40));
    await again.send(bytes.subarray(40));
    again.end();
    const answer = await again.answer;
    again.destroy();
    expect(answer?.status).toBe(200);
    expect(JSON.parse(answer!.body).markdown).toContain("slots are free again");
  });
});

describe("item 11: /metrics is the operator's, on its own listener", () => {
  const metricsUrl = () => `http://127.0.0.1:${metricsPort}/metrics`;

  test("the API port does not serve /metrics, with or without a tenant key", async () => {
    for (const headers of [{}, { "X-API-Key": key }] as Record<string, string>[]) {
      const r = await fetch(`${server.url}/metrics`, { headers });
      expect(r.status).toBe(404);
      expect(await r.json()).toMatchObject({ success: false, error: "not_found", detail: expect.stringContaining("--metrics-listen") });
    }
  });

  test("the metrics listener wants the operator token, never an API key", async () => {
    expect((await fetch(metricsUrl())).status).toBe(401);
    expect((await fetch(metricsUrl(), { headers: { Authorization: "Bearer wrong-token-wrong-token" } })).status).toBe(401);
    expect((await fetch(metricsUrl(), { headers: { "X-API-Key": key, Authorization: `Bearer ${key}` } })).status).toBe(401);
    const r = await fetch(metricsUrl(), { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toContain("text/plain");
    expect(await r.text()).toContain("docintel_http_requests_total");
    expect((await fetch(`http://127.0.0.1:${metricsPort}/api/v1/usage`, { headers: { "X-API-Key": key } })).status).toBe(404);
  });

  test("a bad --metrics-listen stops the start with a message naming it", async () => {
    const dataDir = tempDir();
    try {
      const r = await runCli(["serve", "--data", dataDir, "--metrics-listen", "9464"]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain("--metrics-listen must be HOST:PORT");
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test("a metrics address that is taken leaves the API running and says so", async () => {
    const squatter = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("not docintel") });
    const other = await startServer({ args: ["--metrics-listen", `127.0.0.1:${squatter.port}`] });
    try {
      expect((await fetch(`${other.url}/healthz`)).status).toBe(200);
      expect(other.stderr()).toContain("metrics listener could not start");
    } finally {
      await other.stop();
      squatter.stop(true);
    }
  });
});

describe("item 11: /healthz?deep=true queues no work for anonymous callers", () => {
  async function poolJobsCompleted(): Promise<number> {
    const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    return Number(/^docintel_pool_jobs_completed_total (\d+)$/m.exec(text)![1]);
  }

  test("anonymous deep checks run no pool job; a keyed one runs one", async () => {
    const before = await poolJobsCompleted();
    for (let i = 0; i < 10; i++) {
      const r = await fetch(`${server.url}/healthz?deep=true`);
      expect(r.status).toBe(200);
      const body = (await r.json()) as any;
      expect(body.checks.store.ok).toBe(true);
      expect(body.checks.workers).toMatchObject({ ok: true, job: "none" });
    }
    expect(await poolJobsCompleted()).toBe(before);

    const keyed = (await (await fetch(`${server.url}/healthz?deep=true`, { headers: { "X-API-Key": key } })).json()) as any;
    expect(keyed.checks.workers).toMatchObject({ ok: true, job: "sharp" });
    expect(await poolJobsCompleted()).toBe(before + 1);
    // a wrong key is not a free pass to the worker job
    expect((await fetch(`${server.url}/healthz?deep=true`, { headers: { "X-API-Key": "dk_nope" } })).status).toBe(401);
  });
});

describe("item 11: the data dir is private", () => {
  test("an existing data dir with 0755 dirs and 0644 files is 0700/0600 after start; symlinks are left alone", async () => {
    const dataDir = tempDir("docintel-modes-");
    const outside = join(tempDir("docintel-outside-"), "not-ours.txt");
    writeFileSync(outside, "someone else's file");
    chmodSync(outside, 0o644);
    const first = await startServer({ dataDir });
    // job files as a task and a thumbnail leave them, and the store kept open so -wal/-shm stay
    mkdirSync(join(dataDir, "inputs", "task_modes"), { recursive: true });
    writeFileSync(join(dataDir, "inputs", "task_modes", "file.pdf"), "%PDF-1.4");
    const store = openStore(dataDir);
    await first.stop();
    symlinkSync(outside, join(dataDir, "link-to-outside"));
    const walk = (dir: string, visit: (path: string, isDir: boolean) => void) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        const stat = lstatSync(path);
        if (stat.isSymbolicLink()) continue;
        visit(path, stat.isDirectory());
        if (stat.isDirectory()) walk(path, visit);
      }
    };
    chmodSync(dataDir, 0o755);
    walk(dataDir, (path, isDir) => chmodSync(path, isDir ? 0o755 : 0o644));
    for (const name of ["docintel.sqlite", "docintel.sqlite-wal", "docintel.sqlite-shm", "counters.sqlite", "webhook-secret"]) {
      expect(statSync(join(dataDir, name)).mode & 0o777).toBe(0o644);
    }

    const second = await startServer({ dataDir });
    try {
      expect(statSync(dataDir).mode & 0o777).toBe(0o700);
      const modes: Record<string, string> = {};
      walk(dataDir, (path, isDir) => (modes[path.slice(dataDir.length + 1)] = `${isDir ? "dir" : "file"} ${(statSync(path).mode & 0o777).toString(8)}`));
      for (const name of ["docintel.sqlite", "docintel.sqlite-wal", "docintel.sqlite-shm", "counters.sqlite", "webhook-secret", "inputs/task_modes/file.pdf"]) expect(modes[name]).toBe("file 600");
      for (const name of ["tmp", "inputs", "inputs/task_modes", "thumbnails", "thumbnails/images"]) expect(modes[name]).toBe("dir 700");
      expect(Object.entries(modes).filter(([, mode]) => mode !== "file 600" && mode !== "dir 700")).toEqual([]);
      expect(statSync(outside).mode & 0o777).toBe(0o644);
      expect(second.stdout()).toContain("data dir tightened");
    } finally {
      store.close();
      await second.stop();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(join(outside, ".."), { recursive: true, force: true });
    }
  });
});
