import { afterAll, beforeAll, expect, test } from "bun:test";
import { startServer, type TestServer } from "./helpers/server";
import { RateLimiter } from "../src/credits/rateLimit";

let server: TestServer;

/** awayFromWindowEnd waits (3 s at most) so that a burst of requests falls into one one-minute window. */
async function awayFromWindowEnd(): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 3_000) await Bun.sleep(left + 50);
}
beforeAll(async () => (server = await startServer()));
afterAll(() => server.stop());

test("the 31st request of a minute on a free key is 429 with Retry-After", async () => {
  const { key } = await server.key("free");
  const headers = { "X-API-Key": key };
  await awayFromWindowEnd();
  const statuses: number[] = [];
  let last: Response | undefined;
  for (let i = 0; i < 31; i++) {
    last = await fetch(`${server.url}/api/v1/usage`, { headers });
    statuses.push(last.status);
    if (i < 30) expect(last.headers.get("RateLimit-Remaining")).toBe(String(29 - i));
  }
  expect(statuses.slice(0, 30).every((s) => s === 200)).toBe(true);
  expect(statuses[30]).toBe(429);
  const body = (await last!.json()) as any;
  expect(body).toMatchObject({ success: false, error: "rate_limited" });
  const retryAfter = Number(last!.headers.get("Retry-After"));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(last!.headers.get("RateLimit-Limit")).toBe("30");
  expect(last!.headers.get("RateLimit-Remaining")).toBe("0");
});

test("every authenticated response carries the RateLimit headers, errors included", async () => {
  const { key } = await server.key("pro");
  const ok = await fetch(`${server.url}/api/v1/usage`, { headers: { "X-API-Key": key } });
  const invalid = await fetch(`${server.url}/api/v1/extract`, { method: "POST", body: new FormData(), headers: { "X-API-Key": key } });
  const notFound = await fetch(`${server.url}/api/v1/jobs/task_abc`, { headers: { "X-API-Key": key } });
  for (const r of [ok, invalid, notFound]) {
    expect(r.headers.get("RateLimit-Limit")).toBe("120");
    expect(Number(r.headers.get("RateLimit-Remaining"))).toBeLessThan(120);
    expect(Number(r.headers.get("RateLimit-Reset"))).toBeGreaterThan(0);
  }
  expect(invalid.status).toBe(422);
  expect(notFound.status).toBe(404);
});

test("keys have separate windows; plans have their own limits", async () => {
  const a = await server.key("enterprise");
  const b = await server.key("free");
  const ra = await fetch(`${server.url}/api/v1/usage`, { headers: { "X-API-Key": a.key } });
  const rb = await fetch(`${server.url}/api/v1/usage`, { headers: { "X-API-Key": b.key } });
  expect(ra.headers.get("RateLimit-Limit")).toBe("600");
  expect(ra.headers.get("RateLimit-Remaining")).toBe("599");
  expect(rb.headers.get("RateLimit-Limit")).toBe("30");
  expect(rb.headers.get("RateLimit-Remaining")).toBe("29");
  expect(((await ra.json()) as any).rate_limit).toMatchObject({ limit: 600, window: "1m" });
});

test("GET /api/v1/usage reports plan, credits and rate limit", async () => {
  const { key, id } = await server.key("free");
  const r = await fetch(`${server.url}/api/v1/usage`, { headers: { "X-API-Key": key } });
  expect(await r.json()).toMatchObject({
    key_id: id,
    plan: "free",
    period: new Date().toISOString().slice(0, 7),
    credits: { allowance: 100, granted: 0, used: 0, held: 0, remaining: 100 },
    rate_limit: { limit: 30, remaining: 29 },
  });
});

test("concurrent requests of one key are all counted: exactly the limit gets through", async () => {
  const { key } = await server.key("free");
  await awayFromWindowEnd();
  const statuses = await Promise.all(Array.from({ length: 45 }, () => fetch(`${server.url}/api/v1/usage`, { headers: { "X-API-Key": key } }).then((r) => r.status)));
  expect(statuses.filter((s) => s === 200)).toHaveLength(30);
  expect(statuses.filter((s) => s === 429)).toHaveLength(15);
});

test("two servers on one data dir share each key's window: together they let exactly the limit through", async () => {
  const other = await startServer({ dataDir: server.dataDir, args: ["--no-bootstrap-key"] });
  try {
    const { key } = await server.key("free");
    await awayFromWindowEnd();
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) {
      const target = i % 2 === 0 ? server : other; // alternate: each process reserves its own share of the window
      statuses.push((await fetch(`${target.url}/api/v1/usage`, { headers: { "X-API-Key": key } })).status);
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(30);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30);
    expect(statuses.slice(-4)).toEqual([429, 429, 429, 429]);
  } finally {
    await other.stop();
  }
});

test("requests that arrive while a reservation is on its way to a slow store are granted, not refused, while the window has room", async () => {
  // a store with a round trip, as PostgreSQL has: the limiter's reservations are in flight while more
  // requests arrive and take the unused reservations of the previous round on the fast path
  let count = 0;
  let delay = 0;
  const counters = {
    async reserveInWindow(_keyId: string, _windowStart: number, n: number) {
      await Bun.sleep(5 + (delay++ % 4) * 7);
      return (count += n);
    },
    deleteWindowsBefore: async () => 0,
  };
  await awayFromWindowEnd();
  const limiter = new RateLimiter(counters);
  const decisions: Promise<{ allowed: boolean }>[] = [Promise.resolve(limiter.consume("key_a", 600))];
  await Bun.sleep(40);
  for (let i = 0; i < 40; i++) {
    decisions.push(Promise.resolve(limiter.consume("key_a", 600)));
    await Bun.sleep(i % 3);
  }
  const allowed = (await Promise.all(decisions)).filter((d) => d.allowed).length;
  expect(allowed).toBe(41);
  expect(count).toBeLessThanOrEqual(600);
});
