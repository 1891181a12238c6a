import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { errorBody, AppError } from "../src/errors";
import { WorkerPool } from "../src/pool";
import { freePort, startServer, type TestServer } from "./helpers/server";

let server: TestServer;
let key: string;
let metricsUrl: string;
beforeAll(async () => {
  const metricsPort = await freePort();
  metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
  server = await startServer({ args: ["--metrics-listen", `127.0.0.1:${metricsPort}`] });
  key = (await server.key("enterprise")).key;
});
afterAll(() => server.stop());

describe("health and metrics", () => {
  test("/healthz is cheap; deep=true with a key runs a sharp job on a worker thread", async () => {
    expect(await (await fetch(`${server.url}/healthz`)).json()).toMatchObject({ status: "ok" });
    const deep = (await (await fetch(`${server.url}/healthz?deep=true`, { headers: { "X-API-Key": key } })).json()) as any;
    expect(deep.checks.store.ok).toBe(true);
    expect(deep.checks.workers).toMatchObject({ ok: true, job: "sharp" });
    expect(deep.checks.workers.libvips).toMatch(/^\d+\.\d+/);
  });

  test("/metrics (on the metrics listener) is Prometheus text with requests by route and status, latency, queue depth and tasks", async () => {
    await fetch(`${server.url}/api/v1/usage`, { headers: { "X-API-Key": key } });
    await fetch(`${server.url}/api/v1/usage`);
    const r = await fetch(metricsUrl);
    expect(r.headers.get("content-type")).toContain("text/plain");
    const text = await r.text();
    expect(text).toMatch(/docintel_http_requests_total\{method="GET",route="\/api\/v1\/usage",status="200"\} \d+/);
    expect(text).toMatch(/docintel_http_requests_total\{method="GET",route="[^"]*",status="401"\} \d+/);
    expect(text).toMatch(/docintel_http_request_duration_seconds_bucket\{method="GET",route="\/api\/v1\/usage",le="0.005"\} \d+/);
    expect(text).toContain("docintel_pool_queue_depth 0");
    // the histogram is cumulative: buckets never decrease and +Inf equals the count
    const usage = [...text.matchAll(/docintel_http_request_duration_seconds_bucket\{method="GET",route="\/api\/v1\/usage",le="([^"]+)"\} (\d+)/g)].map((m) => Number(m[2]));
    const count = Number(/docintel_http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/usage"\} (\d+)/.exec(text)![1]);
    expect(usage).toHaveLength(14);
    expect(usage.every((n, i) => i === 0 || n >= usage[i - 1]!)).toBe(true);
    expect(usage.at(-1)).toBe(count);
    expect(count).toBeGreaterThanOrEqual(1);
    // requests are labelled by the route that matched (the screenshot catch-all for a GET), or share
    // one label when none did, whatever their path
    await fetch(`${server.url}/some/random/path-${Date.now()}`);
    await fetch(`${server.url}/some/random/path-${Date.now()}`, { method: "POST" });
    const after = await (await fetch(metricsUrl)).text();
    expect(after).toMatch(/method="GET",route="\/\*",status="401"/);
    expect(after).toMatch(/method="POST",route="\(no route\)",status="401"/);
    expect(after).not.toContain("random/path");
    for (const state of ["pending", "processing", "completed", "failed", "cancelled"]) expect(text).toContain(`docintel_tasks{state="${state}"} 0`);
  });
});

describe("request log", () => {
  test("one JSON line per request with request id, key id, route, status and ms; never the key", async () => {
    const r = await fetch(`${server.url}/api/v1/extract`, {
      method: "POST",
      body: (() => {
        const fd = new FormData();
        fd.append("schema", '{"secret_field": {"type": "string"}}');
        fd.append("file", new File(["CONFIDENTIAL DOCUMENT CONTENT"], "private.txt"));
        return fd;
      })(),
      headers: { "X-API-Key": key },
    });
    const requestId = r.headers.get("x-request-id")!;
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    await Bun.sleep(50);
    const line = server
      .stdout()
      .split("\n")
      .filter((l) => l.includes(requestId))
      .map((l) => JSON.parse(l))[0];
    expect(line).toMatchObject({ msg: "request", request_id: requestId, key_id: expect.stringMatching(/^key_/), method: "POST", route: "/api/v1/extract", status: r.status });
    expect(typeof line.ms).toBe("number");
    const all = server.stdout() + server.stderr();
    expect(all).not.toContain(key);
    expect(all).not.toContain("CONFIDENTIAL DOCUMENT CONTENT");
  });
});

describe("error mapping", () => {
  test("an unknown error becomes a generic 500 naming the request id; the cause is kept for the log", () => {
    const cause = new TypeError("cannot read properties of undefined");
    const out = errorBody(cause, "req-123");
    expect(out.status).toBe(500);
    expect(out.body).toEqual({ success: false, error: "internal_error", detail: expect.stringContaining("req-123") });
    expect(JSON.stringify(out.body)).not.toContain("cannot read");
    expect(out.logCause).toBe(cause);
  });

  test("a full worker queue is 503 overloaded with Retry-After", async () => {
    const pool = new WorkerPool({ threads: 1, maxQueue: 1 });
    try {
      const results = await Promise.allSettled(Array.from({ length: 8 }, () => pool.run("selfTest", {})));
      const refused = results.filter((r) => r.status === "rejected").map((r) => (r as PromiseRejectedResult).reason);
      expect(refused.length).toBeGreaterThan(0);
      expect(results.some((r) => r.status === "fulfilled")).toBe(true);
      const out = errorBody(refused[0], "r");
      expect(out.status).toBe(503);
      expect((out.body as any).error).toBe("overloaded");
      expect(out.headers["Retry-After"]).toBe("2");
    } finally {
      await pool.close();
    }
  });

  test("AppError codes map to the spec's statuses", () => {
    const cases: [ConstructorParameters<typeof AppError>[0], number][] = [
      ["invalid_schema", 400], ["unauthorized", 401], ["insufficient_credits", 402], ["not_found", 404], ["job_not_completed", 409],
      ["payload_too_large", 413], ["unsupported_media_type", 415], ["rate_limited", 429], ["provider_error", 502], ["ai_unavailable", 503],
    ];
    for (const [code, status] of cases) expect(new AppError(code, "x").status).toBe(status);
  });
});

describe("shutdown", () => {
  test("SIGTERM stops the service cleanly with exit code 0", async () => {
    const own = await startServer();
    const code = await own.stop("SIGTERM");
    expect(code).toBe(0);
    expect(own.stdout()).toContain('"msg":"shutting down"');
  });
});
