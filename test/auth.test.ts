import { afterAll, beforeAll, describe, expect, test } from "bun:test";
// URLs use a public IP literal: the guard accepts it without DNS (this machine has none). Operations
// that fetch it fail fast (no route out, 500 ms fetch deadline) with a 400 url_unreachable.
import { form, startServer, TEST_DATABASE, type TestServer } from "./helpers/server";

let server: TestServer;
let key: string;
let keyId: string;

beforeAll(async () => {
  server = await startServer({ args: ["--fetch-timeout-ms", "500"] });
  ({ key, id: keyId } = await server.key("pro"));
});
afterAll(() => server.stop());

/** one request per spec operation, each otherwise valid enough to reach the handler */
const OPERATIONS: [method: string, path: string, body?: () => FormData | string][] = [
  ["GET", "/https://93.184.215.14"],
  ["GET", "/md/https://93.184.215.14"],
  ["POST", "/api/v1/thumbnails/generate", () => form({ file: new File(["x"], "a.txt") })],
  ["POST", "/api/v1/thumbnails/generate/json", () => JSON.stringify({ url: "https://93.184.215.14" })],
  ["GET", "/api/v1/thumbnails/jobs/thumb_abc"],
  ["DELETE", "/api/v1/thumbnails/jobs/thumb_abc"],
  ["GET", "/api/v1/thumbnails/jobs/thumb_abc/image"],
  ["GET", "/api/v1/thumbnails/supported-types"],
  ["GET", "/api/v1/thumbnails/preview?url=https://93.184.215.14"],
  ["POST", "/api/v1/markdown/convert", () => form({ file: new File(["# Notes\n\nhello"], "notes.md") })],
  ["GET", "/api/v1/markdown/supported"],
  ["POST", "/api/v1/extract", () => form({ schema: '{"a":{"type":"string"}}', url: "https://93.184.215.14" })],
  ["POST", "/api/v1/extract/batch", () => form({ schema: '{"a":{"type":"string"}}', urls: '["https://93.184.215.14"]' })],
  ["POST", "/api/v1/analyze", () => form({ schema: '{"a":{"type":"string"}}', url: "https://93.184.215.14" })],
  ["POST", "/api/v1/analyze/batch", () => form({ schema: '{"a":{"type":"string"}}', urls: '["https://93.184.215.14"]' })],
  ["POST", "/api/v1/analyze/cross", () => form({ schema: '{"a":{"type":"string"}}', urls: '["https://93.184.215.14/a","https://93.184.215.14/b"]' })],
  ["POST", "/api/v1/decide", () => form({ instructions: "decide", schema: '{"a":{"type":"string"}}', context: '"some context"' })],
  ["POST", "/api/v1/diff", () => form({ url_a: "https://93.184.215.14/a", url_b: "https://93.184.215.14/b" })],
  ["GET", "/api/v1/jobs/task_abc"],
  ["DELETE", "/api/v1/jobs/task_abc"],
  ["GET", "/api/v1/jobs/batch/batch_abc"],
  ["GET", "/api/v1/jobs/task_abc/deliveries"],
  ["GET", "/api/v1/usage"],
];

function call(method: string, path: string, body?: () => FormData | string, headers: Record<string, string> = {}) {
  const b = body?.();
  return fetch(server.url + path, { method, body: b, headers: typeof b === "string" ? { "content-type": "application/json", ...headers } : headers });
}

describe("X-API-Key", () => {
  test.each(OPERATIONS)("%s %s without a key is 401 in the spec's shape", async (method, path, body) => {
    const r = await call(method, path, body);
    expect(r.status).toBe(401);
    expect(await r.json()).toEqual({ success: false, error: "unauthorized", detail: expect.stringContaining("X-API-Key") });
  });

  test.each(OPERATIONS)("%s %s with an invalid key is 401", async (method, path, body) => {
    const r = await call(method, path, body, { "X-API-Key": "dk_not-a-real-key" });
    expect(r.status).toBe(401);
    expect((await r.json()).error).toBe("unauthorized");
  });

  test.each(OPERATIONS)("%s %s with a valid key gets past authentication", async (method, path, body) => {
    const r = await call(method, path, body, { "X-API-Key": key });
    expect(r.status).not.toBe(401);
    // built operations answer 200, 202 when they accept async work (or 400 when they fetch the unreachable
    // URL, 404 for a job id that does not exist, 503 ai_unavailable for the AI operations on this
    // server without a provider); the rest 501 until built
    expect([200, 202, 400, 404, 501, 503]).toContain(r.status);
    if (r.status === 501) expect((await r.json()).error).toBe("not_implemented");
    if (r.status === 503) expect((await r.json()).error).toBe("ai_unavailable");
    if (r.status === 404) expect((await r.json()).error).toBe("not_found");
    if (r.status === 400) expect((await r.json()).error).toBe("url_unreachable");
  });

  // SQLite: the next request reads the moved data_version. PostgreSQL: the revocation reaches the
  // server's key cache by NOTIFY, asynchronously, so the promise there is "within a second"
  // (issue 18); a request sent before the notification lands may still be served.
  test(`a revoked key is refused with 401 ${TEST_DATABASE === "sqlite" ? "from the next request on" : "within a second"}`, async () => {
    const { key: k, id } = await server.key("free");
    const usage = () => fetch(`${server.url}/api/v1/usage`, { headers: { "X-API-Key": k } });
    expect((await usage()).status).toBe(200);
    expect(await (await server.openBackend()).keys.revoke(id, new Date().toISOString())).toBe(1);
    const revokedAt = performance.now();
    let r = await usage();
    while (TEST_DATABASE === "postgres" && r.status === 200 && performance.now() - revokedAt < 1_000) {
      await Bun.sleep(100); // at most ~10 requests: well inside the free plan's 30 a minute
      r = await usage();
    }
    expect(r.status).toBe(401);
    expect((await r.json()).detail).toContain("revoked");
  });

  test("unknown paths need a key too, and then say not_found", async () => {
    expect((await fetch(`${server.url}/api/v1/nothing`, { method: "POST" })).status).toBe(401);
    const r = await fetch(`${server.url}/api/v1/nothing`, { method: "POST", headers: { "X-API-Key": key } });
    expect(r.status).toBe(404);
    expect(await r.json()).toMatchObject({ success: false, error: "not_found" });
  });
});

describe("public endpoints", () => {
  test.each(["/healthz", "/docs", "/docs/json", "/docs/assets/scalar.js"])("%s needs no key", async (path) => {
    const r = await fetch(server.url + path);
    expect(r.status).toBe(200);
  });

  test("the key is stored only as a hash", async () => {
    const rows = await server.sql<{ key_hash: string; prefix: string }>("SELECT key_hash, prefix FROM api_keys WHERE id = ?", keyId);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]!.key_hash).not.toContain(key);
    expect(key.startsWith(rows[0]!.prefix)).toBe(true);
    expect(rows[0]!.prefix.length).toBeLessThan(key.length / 2);
  });
});
