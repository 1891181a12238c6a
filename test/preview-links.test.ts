/**
 * Signed preview links for <img> (issue 19): a key holder mints a link; the link needs no key, is
 * billed to the minting key per render (cache hits free), and breaks when altered, expired or revoked.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { revokeApiKey } from "../src/security/apiKeys";
import { withKeys } from "./helpers/keys";
import { loopbackServers } from "./helpers/loopback";
import { startServer, type TestServer } from "./helpers/server";

const serve = loopbackServers();
let server: TestServer;
let imageUrl: string;

beforeAll(async () => {
  // a loopback image server: private URLs allowed on this test server only
  server = await startServer({ args: ["--allow-private-urls"] });
  const png = await sharp({ create: { width: 800, height: 600, channels: 3, background: "#2a6" } }).png().toBuffer();
  imageUrl = `${serve(() => new Response(png, { headers: { "content-type": "image/png" } })).origin}/photo.png`;
});
afterAll(() => server.stop());

async function mint(key: string, body: Record<string, unknown>) {
  const r = await fetch(`${server.url}/api/v1/thumbnails/preview/sign`, { method: "POST", headers: { "X-API-Key": key, "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: r.status, body: (await r.json()) as any };
}

async function used(key: string): Promise<number> {
  return ((await (await fetch(`${server.url}/api/v1/usage`, { headers: { "X-API-Key": key } })).json()) as any).credits.used;
}

describe("signed preview links", () => {
  test("a minted link serves the preview without a key, billed to the minting key per render; cache hits are free", async () => {
    const { key } = await server.key("free");
    const minted = await mint(key, { url: imageUrl, width: 200, height: 200 });
    expect(minted.status).toBe(200);
    expect(minted.body.url).toStartWith("/api/v1/thumbnails/preview/signed?");
    expect(Date.parse(minted.body.expires_at) - Date.now()).toBeGreaterThan(23 * 3600_000);
    const before = await used(key);
    const first = await fetch(server.url + minted.body.url);
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toBe("image/jpeg");
    expect(first.headers.get("x-cache")).toBe("miss");
    expect(first.headers.get("x-credits-used")).toBe("1");
    expect(await sharp(new Uint8Array(await first.arrayBuffer())).metadata()).toMatchObject({ format: "jpeg", width: 200, height: 150 });
    const second = await fetch(server.url + minted.body.url);
    expect(second.status).toBe(200);
    expect(second.headers.get("x-cache")).toBe("hit");
    expect(second.headers.get("x-credits-used")).toBe("0");
    expect((await used(key)) - before).toBe(1);
  });

  test("an altered link (a bigger size) is 403 forbidden", async () => {
    const { key } = await server.key("pro");
    const minted = await mint(key, { url: imageUrl, width: 100, height: 100 });
    const r = await fetch(server.url + minted.body.url.replace("width=100", "width=4000"));
    expect(r.status).toBe(403);
    expect(await r.json()).toMatchObject({ success: false, error: "forbidden", detail: expect.stringContaining("not valid") });
  });

  test("an expired link is 403, naming when it expired", async () => {
    const { id } = await server.key("pro");
    // signed as the server signs, with its URL signing key, but already past its expiry
    const signingKey = readFileSync(join(server.dataDir, "url-signing-key"), "utf8").trim();
    const expires = Math.floor(Date.now() / 1000) - 10;
    const signature = createHmac("sha256", signingKey).update(JSON.stringify(["preview", id, imageUrl, 100, 100, 95, expires])).digest("hex");
    const query = new URLSearchParams({ url: imageUrl, width: "100", height: "100", quality: "95", key_id: id, expires: String(expires), signature });
    const r = await fetch(`${server.url}/api/v1/thumbnails/preview/signed?${query}`);
    expect(r.status).toBe(403);
    expect((await r.json()).detail).toContain("expired at");
  });

  test("revoking the key ends its links", async () => {
    const { key, id } = await server.key("pro");
    const minted = await mint(key, { url: imageUrl, width: 120, height: 90 });
    expect((await fetch(server.url + minted.body.url)).status).toBe(200);
    await withKeys(server.dataDir, (keys) => revokeApiKey(keys, id));
    const r = await fetch(server.url + minted.body.url);
    expect(r.status).toBe(403);
    expect((await r.json()).detail).toContain("revoked");
  });

  test("minting needs a key", async () => {
    const r = await fetch(`${server.url}/api/v1/thumbnails/preview/sign`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ url: imageUrl }) });
    expect(r.status).toBe(401);
  });
});
