/**
 * At the door (issue 19): what a new user meets before the first real call. Unknown paths are 404
 * with a hint, not a screenshot attempt; wrong methods are 405 with Allow; the root is a landing page;
 * the favicon needs no key; a key works as Authorization: Bearer too.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { CLI, ROOT, runCli, startServer, tempDir, type TestServer, withServer } from "./helpers/server";

let server: TestServer;
let key: string;

withServer({ args: ["--fetch-timeout-ms", "500"], env: { GROQ_API_KEY: "" } }, (served) => ({ server, key } = served));

function get(path: string, init: RequestInit = {}) {
  return fetch(server.url + path, { ...init, headers: { "X-API-Key": key, ...(init.headers ?? {}) } });
}

describe("unknown paths", () => {
  test.each([
    ["/api/v1/usag", "/api/v1/usage"],
    ["/doc", "/docs"],
    ["/api/v1/job/task_abc", "/api/v1/jobs/{task_id}"],
  ])("GET %s is 404 not_found with the hint %s, not a screenshot of a host", async (path, near) => {
    const r = await get(path);
    expect(r.status).toBe(404);
    const body = await r.json();
    expect(body).toMatchObject({ success: false, error: "not_found" });
    expect(body.detail).toContain(`did you mean ${near}?`);
  });

  test("files browsers and scanners ask for are 404, not screenshots of a host named like a file", async () => {
    for (const path of ["/apple-touch-icon.png", "/wp-login.php", "/sitemap.xml", "/.env"]) {
      const r = await get(path);
      expect(r.status).toBe(404);
    }
  });

  test("a path far from every operation gets 404 without a guess", async () => {
    const r = await get("/completely/elsewhere/entirely");
    expect(r.status).toBe(404);
    expect((await r.json()).detail).toStartWith("No operation GET /completely/elsewhere/entirely. See /docs");
  });

  test.each(["/md/notes", "/md/", "/md"])("%s (no URL after /md/) is 404 saying what must follow", async (path) => {
    const r = await get(path);
    expect(r.status).toBe(404);
    expect((await r.json()).detail).toContain("/md/https://example.com");
  });

  test("paths that are URLs still reach the screenshot and markdown routes", async () => {
    // a public IP literal: allowed by the guard, unreachable from this machine
    for (const path of ["/93.184.215.14", "/https://93.184.215.14/a", "/md/93.184.215.14:8080/page"]) {
      const r = await get(path);
      expect(r.status).toBe(400);
      expect((await r.json()).error).toBe("url_unreachable");
    }
  });

  test("unknown paths still need a key first", async () => {
    expect((await fetch(`${server.url}/api/v1/usag`)).status).toBe(401);
  });
});

describe("wrong methods", () => {
  test.each([
    ["GET", "/api/v1/markdown/convert", "POST"],
    ["DELETE", "/api/v1/usage", "GET, HEAD"],
    ["POST", "/api/v1/jobs/task_abc", "GET, HEAD, DELETE"],
    ["POST", "/https://example.com", "GET, HEAD"],
  ])("%s %s is 405 method_not_allowed with Allow: %s", async (method, path, allow) => {
    const r = await get(path, { method });
    expect(r.status).toBe(405);
    expect(r.headers.get("allow")).toBe(allow);
    expect(await r.json()).toMatchObject({ success: false, error: "method_not_allowed" });
  });

  test("a wrong method on a public path is 405 without a key", async () => {
    const r = await fetch(`${server.url}/healthz`, { method: "POST" });
    expect(r.status).toBe(405);
    expect(r.headers.get("allow")).toBe("GET, HEAD");
  });
});

describe("start-up", () => {
  test("the log says what is off: no AI provider, private URLs refused", () => {
    const lines = server.stdout().split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l));
    expect(lines.find((l) => l.msg === "AI provider off")?.detail).toContain("GROQ_API_KEY is not set");
    expect(lines.find((l) => l.msg === "private URLs refused")?.detail).toContain("--allow-private-urls");
  });
});

describe("the root", () => {
  test("GET / is an HTML landing page linking the explorer and the health check, without a key", async () => {
    const r = await fetch(`${server.url}/`);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toStartWith("text/html");
    const html = await r.text();
    for (const link of ['href="/docs"', 'href="/healthz"', "Quick start", "Authorization: Bearer"]) expect(html).toContain(link);
  });

  test("/favicon.ico is an icon served without a key", async () => {
    const r = await fetch(`${server.url}/favicon.ico`);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("image/x-icon");
    const bytes = new Uint8Array(await r.arrayBuffer());
    expect([...bytes.slice(0, 4)]).toEqual([0, 0, 1, 0]);
  });
});

describe("Authorization: Bearer", () => {
  test("a key sent as a bearer token authenticates like X-API-Key", async () => {
    const r = await fetch(`${server.url}/api/v1/usage`, { headers: { Authorization: `Bearer ${key}` } });
    expect(r.status).toBe(200);
    expect(await r.json()).toHaveProperty("plan", "pro");
  });

  test("an invalid bearer token is 401", async () => {
    const r = await fetch(`${server.url}/api/v1/usage`, { headers: { Authorization: "Bearer dk_not-a-real-key" } });
    expect(r.status).toBe(401);
  });

  test("without a key, the 401 names both headers", async () => {
    const r = await fetch(`${server.url}/api/v1/usage`);
    expect(r.status).toBe(401);
    const { detail } = await r.json();
    expect(detail).toContain("X-API-Key");
    expect(detail).toContain("Authorization: Bearer");
  });
});

describe("markdown as text", () => {
  const upload = () => {
    const fd = new FormData();
    fd.append("file", new File(["# Notes\n\nhello there\n"], "notes.md"));
    return fd;
  };

  test.each([
    ["Accept: text/markdown", "/api/v1/markdown/convert", { Accept: "text/markdown" }],
    ["?format=markdown", "/api/v1/markdown/convert?format=markdown", {}],
  ])("POST /api/v1/markdown/convert with %s answers the markdown alone, facts in headers", async (_, path, headers) => {
    const r = await fetch(server.url + path, { method: "POST", body: upload(), headers: { "X-API-Key": key, ...headers } });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(r.headers.get("x-credits-used")).toBe("1");
    expect(r.headers.get("x-extraction-method")).toBe("text");
    expect(r.headers.get("x-total-pages")).toBe("0");
    expect(await r.text()).toContain("hello there");
  });

  test("without either, the answer stays the JSON result", async () => {
    const r = await fetch(`${server.url}/api/v1/markdown/convert`, { method: "POST", body: upload(), headers: { "X-API-Key": key } });
    expect(r.headers.get("content-type")).toStartWith("application/json");
    expect((await r.json()).markdown).toContain("hello there");
  });

  test("format=markdown wins over Accept: application/json; an unknown format is 422", async () => {
    const r = await fetch(`${server.url}/api/v1/markdown/convert?format=markdown`, { method: "POST", body: upload(), headers: { "X-API-Key": key, Accept: "application/json" } });
    expect(r.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    const bad = await fetch(`${server.url}/api/v1/markdown/convert?format=html`, { method: "POST", body: upload(), headers: { "X-API-Key": key } });
    expect(bad.status).toBe(422);
  });
});

describe("docintel md", () => {
  test("- reads stdin, -o writes the file, --format json gives the API's JSON", async () => {
    const dir = tempDir();
    try {
      const out = join(dir, "out.md");
      const proc = Bun.spawn([process.execPath, CLI, "md", "-", "--filename", "notes.md", "-o", out], { cwd: ROOT, stdin: new Blob(["# From stdin\n\nsome text\n"]), stdout: "pipe", stderr: "pipe" });
      expect(await proc.exited).toBe(0);
      expect(readFileSync(out, "utf8")).toContain("# From stdin");
      const json = Bun.spawn([process.execPath, CLI, "md", "-", "--format", "json"], { cwd: ROOT, stdin: new Blob(["plain words on a line\n"]), stdout: "pipe", stderr: "pipe" });
      const text = await new Response(json.stdout).text();
      expect(await json.exited).toBe(0);
      expect(JSON.parse(text)).toMatchObject({ success: true, markdown: expect.stringContaining("plain words") });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("errors are worded for the command line, not for a server", async () => {
    const r = await runCli(["md", "http://127.0.0.1:9/x"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("docintel md: the URL is refused");
    expect(r.stderr).toContain("unless --allow-private-urls is set");
    expect(r.stderr).not.toContain("server");
  });
});

describe("413 wording", () => {
  test("an upload over the limit is told in one unit: file limit plus form fields", async () => {
    const small = await startServer({ args: ["--max-upload-mb", "1"] });
    try {
      const { key: k } = await small.key("pro");
      const fd = new FormData();
      fd.append("file", new File([new Uint8Array(2_500_000)], "big.pdf"));
      const r = await fetch(`${small.url}/api/v1/markdown/convert`, { method: "POST", body: fd, headers: { "X-API-Key": k } });
      expect(r.status).toBe(413);
      expect((await r.json()).detail).toBe("The request body is over 2 MB, this operation's limit: a file of at most 1 MB plus 1 MB of other form fields. Send a smaller file.");
    } finally {
      await small.stop();
    }
  });
});

describe("the explorer", () => {
  test("OpenAPI servers is the relative / without --public-url, never the Host header", async () => {
    const r = await fetch(`${server.url}/docs/json`, { headers: { Host: "evil.example" } });
    const doc = await r.json();
    expect(doc.servers).toEqual([{ url: "/" }]);
  });

  test("with --public-url, servers is that URL, and the landing page's curl lines use it", async () => {
    const other = await startServer({ args: ["--public-url", "https://docs.example.com/intel/"] });
    try {
      const doc = await (await fetch(`${other.url}/docs/json`)).json();
      expect(doc.servers).toEqual([{ url: "https://docs.example.com/intel" }]);
      expect(await (await fetch(`${other.url}/`)).text()).toContain("https://docs.example.com/intel/api/v1/markdown/convert");
    } finally {
      await other.stop();
    }
  });

  test("the page turns off Scalar's cloud features and remote fonts, and names the favicon", async () => {
    const html = await (await fetch(`${server.url}/docs`)).text();
    const config = JSON.parse(/data-configuration='([^']*)'/.exec(html)![1]!);
    expect(config).toMatchObject({ agent: { disabled: true }, mcp: { disabled: true }, showDeveloperTools: "never", showToolbar: "never", withDefaultFonts: false, telemetry: false, favicon: "/favicon.ico" });
    expect(html).not.toContain("https://");
  });

  test.each([
    ["/api/v1/markdown/convert", "post", { file: "@document.pdf" }],
    ["/api/v1/extract", "post", { file: "@document.pdf", schema: '{"total": {"type": "number", "description": "amount due", "required": true}}' }],
    ["/api/v1/diff", "post", { file_a: "@document.pdf", file_b: "@document.pdf" }],
  ])("the request example of %s holds only what a call needs (no empty optional fields)", async (path, method, example) => {
    const doc = await (await fetch(`${server.url}/docs/json`)).json();
    const content = doc.paths[path][method].requestBody.content;
    expect(Object.values(content)[0]).toMatchObject({ example });
    expect((Object.values(content)[0] as any).example).toEqual(example);
  });

  test("the snippets' bodies run as shown: the extract example, sent as curl would, is accepted", async () => {
    const doc = await (await fetch(`${server.url}/docs/json`)).json();
    const example = doc.paths["/api/v1/extract"].post.requestBody.content["multipart/form-data"].example;
    const fd = new FormData();
    for (const [name, value] of Object.entries(example as Record<string, string>)) {
      // curl's --form name=@file uploads the file; anything else is a text field
      if (value.startsWith("@")) fd.append(name, new File(["Total: 12.50\n"], "document.md"));
      else fd.append(name, value);
    }
    const r = await fetch(`${server.url}/api/v1/extract`, { method: "POST", body: fd, headers: { "X-API-Key": key } });
    expect(r.status).toBe(200);
    expect((await r.json()).data.total).toBe(12.5);
  });
});
