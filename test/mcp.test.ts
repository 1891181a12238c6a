/**
 * The MCP endpoint (POST /mcp) with the official SDK's client against the real server over
 * loopback: the tool list and its schemas (from the operation declarations), conversions charged
 * like the HTTP API, a screenshot as image content, errors as the spec's bodies, keys refused, and
 * `docintel mcp`, the stdio bridge, spawned as a process talking to the running server.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CLI, ROOT, startServer, type TestServer } from "./helpers/server";
import { loopbackServers } from "./helpers/loopback";
import { MarkdownConvertBody } from "../src/markdown/schema";
import { ExtractBody } from "../src/extract/schema";
import { DiffBody } from "../src/diff/schema";
import { ScreenshotQuery } from "../src/screenshots/schema";
import { Ledger } from "../src/credits/ledger";
import { getApiKey } from "../src/security/apiKeys";

const FIXTURES = join(import.meta.dir, "fixtures");
const serve = loopbackServers();
let server: TestServer;
let key: string;
const clients: Client[] = [];

async function connect(apiKey: string): Promise<Client> {
  const client = new Client({ name: "docintel-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { "X-API-Key": apiKey } } }));
  clients.push(client);
  return client;
}

async function creditsUsed(apiKey: string): Promise<number> {
  const usage = (await (await fetch(`${server.url}/api/v1/usage`, { headers: { "X-API-Key": apiKey } })).json()) as any;
  return usage.credits.used;
}

const base64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString("base64");
const textOf = (result: any, i = 0): string => result.content[i].text;

beforeAll(async () => {
  server = await startServer({ args: ["--allow-private-urls"] });
  ({ key } = await server.key("pro"));
});
afterAll(async () => {
  for (const client of clients) await client.close().catch(() => {});
  await server.stop();
});

describe("POST /mcp with the SDK's client", () => {
  test("lists the six tools with input schemas taken from the operations' declarations", async () => {
    const client = await connect(key);
    expect(client.getServerVersion()?.name).toBe("docintel");
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["convert_to_markdown", "screenshot", "extract", "analyze", "diff", "task_status"]);
    const byName = Object.fromEntries(tools.map((t) => [t.name, t])) as Record<string, (typeof tools)[number]>;

    const convert = byName.convert_to_markdown!.inputSchema as any;
    // every field of the HTTP operation is there; the file part travels as base64 plus a file name
    for (const name of Object.keys(MarkdownConvertBody.properties).filter((n) => n !== "file")) expect(convert.properties[name]).toBeDefined();
    expect(convert.properties.file).toBeUndefined();
    expect(convert.properties.file_base64).toMatchObject({ type: "string", contentEncoding: "base64" });
    expect(convert.properties.filename.type).toBe("string");
    expect(convert.properties.render.enum).toEqual((MarkdownConvertBody.properties.render as any).enum);
    expect(convert.properties.wait_ms).toMatchObject({ type: "integer", minimum: 0, maximum: 30000 });

    const extract = byName.extract!.inputSchema as any;
    expect(extract.required).toEqual(["schema"]);
    expect(Object.keys(extract.properties).sort()).toEqual([...Object.keys(ExtractBody.properties).filter((n) => n !== "file"), "file_base64", "filename"].sort());
    expect(extract.properties.schema.type).toEqual(["object", "array", "string"]);

    const diff = byName.diff!.inputSchema as any;
    expect(Object.keys(diff.properties)).toEqual(expect.arrayContaining(["file_a_base64", "file_a_filename", "file_b_base64", "file_b_filename", "url_a", "url_b"]));
    expect(diff.properties.granularity.enum).toEqual((DiffBody.properties.granularity as any).enum);

    const screenshot = byName.screenshot!.inputSchema as any;
    expect(screenshot.required).toEqual(["url"]);
    expect(screenshot.properties.format.enum).toEqual((ScreenshotQuery.properties.format as any).enum);
    expect(byName.task_status!.inputSchema.required).toEqual(["task_id"]);
  });

  test("converts a base64 DOCX to markdown and charges 1 credit, as POST /api/v1/markdown/convert does", async () => {
    const client = await connect(key);
    const before = await creditsUsed(key);
    const result: any = await client.callTool({ name: "convert_to_markdown", arguments: { file_base64: base64(readFileSync(join(FIXTURES, "test.docx"))), filename: "test.docx" } });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain("AutoGen");
    expect(textOf(result)).toMatch(/^\| .* \|$/m);
    const facts = JSON.parse(textOf(result, 1));
    expect(facts).toMatchObject({ success: true, filename: "test.docx", credits_used: 1 });
    expect(facts.markdown).toBeUndefined();
    expect(result.structuredContent.markdown).toBe(textOf(result));
    expect((await creditsUsed(key)) - before).toBe(1);
  });

  test("a free key without enough credits gets 402 insufficient_credits before any work, as over HTTP", async () => {
    const { key: freeKey, id } = await server.key("free");
    const backend = await server.openBackend();
    await new Ledger(backend).charge((await getApiKey(backend.keys, id))!, 98, { operation: "test" });
    const client = await connect(freeKey);
    // extract holds its minimum (3) first: 2 credits left cannot cover it
    const refused: any = await client.callTool({ name: "extract", arguments: { file_base64: base64("Invoice number: A-1\n"), filename: "a.txt", schema: { invoice_number: { type: "string" } } } });
    expect(refused.isError).toBe(true);
    expect(JSON.parse(textOf(refused))).toMatchObject({ status: 402, success: false, error: "insufficient_credits" });
    // a conversion (1 credit) still fits, and is charged under the /mcp request's id like any charge
    const converted: any = await client.callTool({ name: "convert_to_markdown", arguments: { file_base64: base64("# One more\n\nline\n"), filename: "one.md" } });
    expect(converted.isError).toBeFalsy();
    expect(await creditsUsed(freeKey)).toBe(99);
    const charges = server.store().db.query<{ operation: string; request_id: string }, [string]>("SELECT operation, request_id FROM credit_ledger WHERE kind = 'charge' AND key_id = ?").all(id);
    expect(charges.map((c) => c.operation)).toEqual(["test", "markdown"]);
    expect(charges[1]!.request_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  test("converts a document given by URL", async () => {
    const { origin } = serve(() => new Response("name,amount\nwidgets,12\nbolts,7\n", { headers: { "content-type": "text/csv" } }));
    const client = await connect(key);
    const result: any = await client.callTool({ name: "convert_to_markdown", arguments: { url: `${origin}/stock.csv` } });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toMatch(/\|\s*widgets\s*\|\s*12\s*\|/);
  });

  test("a failed conversion is a tool error with the spec's body and costs nothing", async () => {
    const client = await connect(key);
    const before = await creditsUsed(key);
    const result: any = await client.callTool({ name: "convert_to_markdown", arguments: { file_base64: base64(readFileSync(join(FIXTURES, "encrypted_password_secret.pdf"))), filename: "secret.pdf" } });
    expect(result.isError).toBe(true);
    expect(JSON.parse(textOf(result))).toMatchObject({ status: 400, success: false, error: "encrypted_document" });
    expect(await creditsUsed(key)).toBe(before);
  });

  test("bad arguments get the HTTP API's answers: 422 items, named base64 and argument errors", async () => {
    const client = await connect(key);
    const invalid: any = await client.callTool({ name: "convert_to_markdown", arguments: { url: "https://example.com", wait_ms: 99999 } });
    expect(invalid.isError).toBe(true);
    expect(JSON.parse(textOf(invalid))).toMatchObject({ status: 422, detail: [{ loc: ["body", "wait_ms"], type: "less_than_equal" }] });

    const notBase64: any = await client.callTool({ name: "convert_to_markdown", arguments: { file_base64: "not base64!", filename: "a.txt" } });
    expect(JSON.parse(textOf(notBase64))).toMatchObject({ error: "bad_request", detail: expect.stringContaining("file_base64") });

    const noName: any = await client.callTool({ name: "convert_to_markdown", arguments: { file_base64: base64("hello") } });
    expect(JSON.parse(textOf(noName))).toMatchObject({ error: "bad_request", detail: expect.stringContaining("filename") });

    const typo: any = await client.callTool({ name: "convert_to_markdown", arguments: { link: "https://example.com" } });
    expect(JSON.parse(textOf(typo))).toMatchObject({ error: "bad_request", detail: expect.stringContaining("'link'") });

    const nothing: any = await client.callTool({ name: "convert_to_markdown", arguments: {} });
    expect(JSON.parse(textOf(nothing))).toMatchObject({ status: 400, error: "missing_input" });

    const unknown: any = await client.callTool({ name: "summarize", arguments: {} });
    expect(JSON.parse(textOf(unknown))).toMatchObject({ error: "not_found", detail: expect.stringContaining("convert_to_markdown") });
  });

  test("a screenshot comes back as image content, charged 1 credit", async () => {
    const { origin } = serve(() => new Response("<!doctype html><title>Shot</title><body style='background:#c00'><h1>Hello</h1></body>", { headers: { "content-type": "text/html" } }));
    const client = await connect(key);
    const before = await creditsUsed(key);
    const result: any = await client.callTool({ name: "screenshot", arguments: { url: `${origin}/page?x=1`, viewport_width: 640, viewport_height: 400 } });
    expect(result.isError).toBeFalsy();
    expect(result.content[0]).toMatchObject({ type: "image", mimeType: "image/jpeg" });
    const bytes = Buffer.from(result.content[0].data, "base64");
    expect([...bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    expect(JSON.parse(textOf(result, 1))).toMatchObject({ content_type: "image/jpeg", "x-page-status": "200", "x-credits-used": "1" });
    expect((await creditsUsed(key)) - before).toBe(1);
  });

  test("extract with sync=false gives a task whose status and result task_status reads", async () => {
    const client = await connect(key);
    const invoice = "INVOICE\n\nInvoice number: INV-2024-0042\nTotal due: 1,250.00 EUR\n";
    const accepted: any = await client.callTool({
      name: "extract",
      arguments: { file_base64: base64(invoice), filename: "invoice.txt", schema: { invoice_number: { type: "string", description: "the invoice number", required: true } }, sync: false },
    });
    expect(accepted.isError).toBeFalsy();
    const { task_id } = accepted.structuredContent;
    expect(task_id).toMatch(/^task_/);
    let record: any;
    for (const started = Date.now(); Date.now() - started < 30_000; await Bun.sleep(100)) {
      record = (await client.callTool({ name: "task_status", arguments: { task_id } })).structuredContent;
      if (["completed", "failed"].includes(record.status)) break;
    }
    expect(record.status).toBe("completed");
    expect(record.result.data.invoice_number).toBe("INV-2024-0042");

    const other = await connect((await server.key("pro")).key);
    const foreign: any = await other.callTool({ name: "task_status", arguments: { task_id } });
    expect(JSON.parse(textOf(foreign))).toMatchObject({ status: 404, error: "not_found" });
  });

  test("a wrong or missing key is refused with 401 before any MCP work", async () => {
    await expect(connect("dk_not_a_real_key")).rejects.toThrow(/401|unauthorized/i);
    const raw = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(raw.status).toBe(401);
    expect(await raw.json()).toMatchObject({ success: false, error: "unauthorized" });
  });

  test("each MCP request counts against the key's rate limit", async () => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    const headers = { "X-API-Key": key, "content-type": "application/json", accept: "application/json, text/event-stream" };
    const first = await fetch(`${server.url}/mcp`, { method: "POST", headers, body });
    const second = await fetch(`${server.url}/mcp`, { method: "POST", headers, body });
    expect(first.status).toBe(200);
    expect(Number(second.headers.get("ratelimit-remaining"))).toBe(Number(first.headers.get("ratelimit-remaining")) - 1);
  });

  test("GET /mcp answers 405 with Allow: POST (no event stream), without a key", async () => {
    const r = await fetch(`${server.url}/mcp`);
    expect(r.status).toBe(405);
    expect(r.headers.get("allow")).toBe("POST");
    expect(await r.json()).toMatchObject({ success: false, error: "method_not_allowed" });
  });
});

describe("docintel mcp (stdio bridge)", () => {
  function bridge(apiKey: string, url = server.url): StdioClientTransport {
    return new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "mcp"],
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp", DOCINTEL_URL: url, DOCINTEL_API_KEY: apiKey },
      stderr: "pipe",
    });
  }

  test("relays tools/list and a conversion to the running server, billed to DOCINTEL_API_KEY", async () => {
    const { key: bridgeKey } = await server.key("pro");
    const client = new Client({ name: "desktop", version: "1.0.0" });
    clients.push(client);
    await client.connect(bridge(bridgeKey));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain("convert_to_markdown");
    const result: any = await client.callTool({ name: "convert_to_markdown", arguments: { file_base64: base64("# Notes\n\nThe bridge relays this line.\n"), filename: "notes.md" } });
    expect(textOf(result)).toContain("The bridge relays this line.");
    expect(await creditsUsed(bridgeKey)).toBe(1);
    await client.close();
  });

  test("a refused key or an unreachable server is answered as a JSON-RPC error that says why", async () => {
    const refused = new Client({ name: "desktop", version: "1.0.0" });
    clients.push(refused);
    await expect(refused.connect(bridge("dk_wrong"))).rejects.toThrow(/401.*unauthorized.*DOCINTEL_API_KEY/s);

    const down = new Client({ name: "desktop", version: "1.0.0" });
    clients.push(down);
    await expect(down.connect(bridge(key, "http://127.0.0.1:9"))).rejects.toThrow(/could not be reached.*DOCINTEL_URL/s);
  });
});
