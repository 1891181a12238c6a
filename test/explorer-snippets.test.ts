/**
 * The explorer's curl snippets run as copied (issue 19): /docs is rendered in headless Chromium, the
 * curl snippet Scalar shows for an operation is read from the page, and run by a shell with curl,
 * changed only by putting a real key where it says YOUR_SECRET_TOKEN and a real file where it says
 * @document.pdf. Snippets used to read `curl /api/v1/...` (no server) and send empty fields (422).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ROOT, startServer, tempDir, type TestServer } from "./helpers/server";

let server: TestServer;
let key: string;
let work: string;

beforeAll(async () => {
  server = await startServer({ env: { GROQ_API_KEY: "" } });
  ({ key } = await server.key("pro"));
  work = tempDir("docintel-snippets-");
  copyFileSync(join(ROOT, "test/fixtures/RECEIPT-2024-TXN-98765_retail_purchase.pdf"), join(work, "document.pdf"));
});
afterAll(async () => {
  await server.stop();
  rmSync(work, { recursive: true, force: true });
});

/** curlSnippets renders /docs#anchor in Chromium with no internet and returns the curl snippets on the page. */
async function curlSnippets(anchor: string): Promise<string[]> {
  const profile = tempDir("docintel-chromium-");
  try {
    const chromium = Bun.which("chromium")!;
    const flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
    const proc = Bun.spawn([chromium, ...flags, `--user-data-dir=${profile}`, "--virtual-time-budget=15000", "--dump-dom", `${server.url}/docs#${anchor}`], { stdout: "pipe", stderr: "ignore" });
    const dom = await new Response(proc.stdout).text();
    await proc.exited;
    const decode = (s: string) => s.replace(/<[^>]+>/g, "").replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
    return [...dom.matchAll(/language-curl"[^>]*>([\s\S]*?)<\/code>/g)].map((m) => decode(m[1]!).trim());
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}

/** runAsCopied runs the snippet in a shell in a directory holding document.pdf; returns the status and body. */
async function runAsCopied(snippet: string): Promise<{ status: number; body: any }> {
  const command = `${snippet.replace("YOUR_SECRET_TOKEN", key)} --silent --output response.json --write-out '%{http_code}'`;
  const proc = Bun.spawn(["bash", "-c", command], { cwd: work, stdout: "pipe", stderr: "pipe" });
  const status = Number(await new Response(proc.stdout).text());
  await proc.exited;
  return { status, body: await Bun.file(join(work, "response.json")).json() };
}

describe("explorer snippets", () => {
  test.each([
    ["tag/markdown/POST/api/v1/markdown/convert", "/api/v1/markdown/convert", (body: any) => expect(body.markdown).toContain("TXN-98765")],
    ["tag/extract/POST/api/v1/extract", "/api/v1/extract", (body: any) => expect(body).toHaveProperty("field_status.total")],
    ["tag/account/GET/api/v1/usage", "/api/v1/usage", (body: any) => expect(body.plan).toBe("pro")],
  ])(
    "the curl snippet at /docs#%s names this server and runs as copied",
    async (anchor, path, check) => {
      const snippets = await curlSnippets(anchor);
      const snippet = snippets.find((s) => new RegExp(`^curl '?${server.url.replace(/[.]/g, "\\.")}${path}[?' ]`).test(s + " "));
      expect(snippet).toBeDefined();
      expect(snippet!).not.toMatch(/--form '[a-z_]+='/); // no empty optional fields
      const { status, body } = await runAsCopied(snippet!);
      expect(status).toBe(200);
      check(body);
    },
    60_000,
  );
});
