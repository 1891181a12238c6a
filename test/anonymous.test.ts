/**
 * Keyless use as an operator's choice (issue 19): --anonymous-plan free lets requests without a key
 * use /md/{url} and screenshots on one shared free-plan key, with a rate limit per client address.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { listApiKeys } from "../src/security/apiKeys";
import { withKeys } from "./helpers/keys";
import { loopbackServers } from "./helpers/loopback";
import { startServer, type TestServer } from "./helpers/server";

const serve = loopbackServers();
let open: TestServer;
let closed: TestServer;
let page: string;

beforeAll(async () => {
  page = `${serve(() => new Response("<html><head><title>Note</title></head><body><article><h1>Note</h1><p>Words for a keyless reader, long enough to be the article of this page.</p></article></body></html>", { headers: { "content-type": "text/html" } })).origin}/note`;
  [open, closed] = await Promise.all([
    startServer({ args: ["--allow-private-urls", "--anonymous-plan", "free", "--anonymous-rate-per-ip", "3"] }),
    startServer({ args: ["--allow-private-urls"] }),
  ]);
});
afterAll(async () => {
  await Promise.all([open.stop(), closed.stop()]);
});

describe("--anonymous-plan free", () => {
  test("/md/{url} without a key is served, charged to the shared anonymous key, within a per-address limit", async () => {
    const first = await fetch(`${open.url}/md/${page}?render=never`);
    expect(first.status).toBe(200);
    expect(await first.text()).toContain("keyless reader");
    expect(first.headers.get("x-credits-used")).toBe("1");
    expect(first.headers.get("ratelimit-limit")).toBe("3");
    const keys = (await withKeys(open.dataDir, listApiKeys)).filter((k) => k.name === "anonymous");
    expect(keys).toHaveLength(1);
    expect(keys[0]!.plan).toBe("free");
    await fetch(`${open.url}/md/${page}?render=never`);
    await fetch(`${open.url}/md/${page}?render=never`);
    const fourth = await fetch(`${open.url}/md/${page}?render=never`);
    expect(fourth.status).toBe(429);
    expect((await fourth.json()).detail).toContain("per address");
    expect((await withKeys(open.dataDir, listApiKeys)).filter((k) => k.name === "anonymous")).toHaveLength(1);
  });

  test("the OpenAPI document says a key is optional on those operations only", async () => {
    const doc = (await (await fetch(`${open.url}/docs/json`)).json()) as any;
    expect(doc.paths["/md/{url}"].get.security).toContainEqual({});
    expect(doc.paths["/{url}"].get.security).toContainEqual({});
    expect(doc.paths["/api/v1/usage"].get.security).toBeUndefined();
    const strict = (await (await fetch(`${closed.url}/docs/json`)).json()) as any;
    expect(strict.paths["/md/{url}"].get.security).toBeUndefined();
  });

  test("other operations still need a key", async () => {
    const r = await fetch(`${open.url}/api/v1/usage`);
    expect(r.status).toBe(401);
  });

  test("a request that sends a key is checked and charged as usual", async () => {
    const { key } = await open.key("pro");
    const r = await fetch(`${open.url}/md/${page}?render=never`, { headers: { "X-API-Key": key } });
    expect(r.status).toBe(200);
    expect(r.headers.get("ratelimit-limit")).toBe("120");
    expect((await fetch(`${open.url}/md/${page}?render=never`, { headers: { "X-API-Key": "dk_wrong" } })).status).toBe(401);
  });
});

describe("--anonymous-plan none (the default)", () => {
  test("/md/{url} without a key is 401", async () => {
    const r = await fetch(`${closed.url}/md/${page}?render=never`);
    expect(r.status).toBe(401);
  });
});
