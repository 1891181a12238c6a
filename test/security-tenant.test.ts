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
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { api, form, runCli, startServer, tempDir, type TestServer } from "./helpers/server";
import { loopbackServers } from "./helpers/loopback";

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
  beforeAll(async () => {
    server = await startServer({ args: ["--allow-private-urls"] });
    ({ key } = await server.key("enterprise"));
  });
  afterAll(() => server.stop());

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
