import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { form, startServer, type TestServer } from "./helpers/server";

let server: TestServer;
let headers: Record<string, string>;

beforeAll(async () => {
  server = await startServer();
  headers = { "X-API-Key": (await server.key("enterprise")).key };
});
afterAll(() => server.stop());

const SCHEMA = '{"invoice_total": {"type": "number", "required": true}}';

async function post(path: string, fields: Record<string, string | Blob | Blob[]>) {
  const r = await fetch(server.url + path, { method: "POST", body: form(fields), headers });
  return { status: r.status, body: (await r.json()) as any };
}

function issue(body: any, field: string) {
  return body.detail.find((d: any) => d.loc.at(-1) === field);
}

describe("422: the spec's detail[] items from the TypeBox contract", () => {
  test("every item has loc, msg, type, input and ctx", async () => {
    const { status, body } = await post("/api/v1/extract", { model: "gigantic", sync: "maybe", url: "https://93.184.215.14" });
    expect(status).toBe(422);
    expect(body.detail.length).toBeGreaterThanOrEqual(3);
    for (const item of body.detail) {
      expect(Object.keys(item).sort()).toEqual(["ctx", "input", "loc", "msg", "type"]);
      expect(Array.isArray(item.loc)).toBe(true);
      expect(typeof item.ctx).toBe("object");
    }
  });

  test("a bad enum names the allowed values", async () => {
    const { body } = await post("/api/v1/extract", { schema: SCHEMA, model: "gigantic", url: "https://93.184.215.14" });
    expect(issue(body, "model")).toEqual({ loc: ["body", "model"], msg: "Input should be 'fast', 'accurate' or 'auto'", type: "enum", input: "gigantic", ctx: { expected: "'fast', 'accurate' or 'auto'" } });
  });

  test("a boolean form field must be true or false", async () => {
    const { body } = await post("/api/v1/extract", { schema: SCHEMA, sync: "maybe", url: "https://93.184.215.14" });
    expect(issue(body, "sync")).toMatchObject({ loc: ["body", "sync"], type: "bool_parsing", input: "maybe" });
  });

  test("a missing required field is type missing", async () => {
    const { body } = await post("/api/v1/extract", { url: "https://93.184.215.14" });
    expect(issue(body, "schema")).toEqual({ loc: ["body", "schema"], msg: "Field required", type: "missing", input: null, ctx: {} });
  });

  test("quality=101 on a thumbnail is out of range, with the bound in ctx", async () => {
    const { status, body } = await post("/api/v1/thumbnails/generate", { file: new File(["hello"], "a.txt"), quality: "101" });
    expect(status).toBe(422);
    expect(issue(body, "quality")).toEqual({ loc: ["body", "quality"], msg: "Input should be less than or equal to 100", type: "less_than_equal", input: "101", ctx: { le: 100 } });
  });

  test("a text where a file is expected is a file_type issue", async () => {
    const { body } = await post("/api/v1/thumbnails/generate", { file: "not a file" });
    expect(issue(body, "file")).toMatchObject({ type: "file_type" });
  });

  test("query parameters are validated: screenshot options", async () => {
    const r = await fetch(`${server.url}/https://93.184.215.14?quality=0&format=bmp&viewport_width=abc&full_page=perhaps`, { headers });
    expect(r.status).toBe(422);
    const body = (await r.json()) as any;
    expect(body.detail.map((d: any) => `${d.loc.join(".")}:${d.type}`).sort()).toEqual([
      "query.format:enum",
      "query.full_page:bool_parsing",
      "query.quality:greater_than_equal",
      "query.viewport_width:int_parsing",
    ]);
  });

  test("path parameters are validated", async () => {
    const r = await fetch(`${server.url}/api/v1/jobs/not-a-task`, { headers });
    expect(r.status).toBe(422);
    expect(((await r.json()) as any).detail[0]).toMatchObject({ loc: ["path", "task_id"], type: "string_pattern_mismatch", input: "not-a-task" });
  });

  test("a JSON body that does not parse is 422 json_invalid", async () => {
    const r = await fetch(`${server.url}/api/v1/thumbnails/generate/json`, { method: "POST", body: "{nope", headers: { ...headers, "content-type": "application/json" } });
    expect(r.status).toBe(422);
    expect(((await r.json()) as any).detail[0]).toMatchObject({ loc: ["body"], type: "json_invalid" });
  });

  test("too many files in a batch is too_long", async () => {
    const files = Array.from({ length: 21 }, (_, i) => new File([`doc ${i}`], `d${i}.txt`));
    const { status, body } = await post("/api/v1/extract/batch", { schema: SCHEMA, files });
    expect(status).toBe(422);
    expect(issue(body, "files")).toMatchObject({ type: "too_long", ctx: { max_length: 20, actual_length: 21 } });
  });

  test("decide instructions over 20,000 characters", async () => {
    const { status, body } = await post("/api/v1/decide", { instructions: "x".repeat(20_001), schema: SCHEMA, context: '"c"' });
    expect(status).toBe(422);
    expect(issue(body, "instructions")).toMatchObject({ type: "string_too_long", ctx: { max_length: 20000 } });
  });
});

describe("400: semantic errors in the operational shape", () => {
  test("an invalid typed schema names the field", async () => {
    const { status, body } = await post("/api/v1/extract", { schema: '{"total": {"type": "money"}}', url: "https://93.184.215.14" });
    expect(status).toBe(400);
    expect(body).toEqual({ success: false, error: "invalid_schema", detail: expect.stringContaining("field 'total'") });
    expect(body.detail).toContain("string, number, integer, boolean, array, object");
  });

  test("a schema that is not JSON", async () => {
    const { status, body } = await post("/api/v1/analyze", { schema: "{total: number}", url: "https://93.184.215.14" });
    expect(status).toBe(400);
    expect(body.error).toBe("invalid_schema");
    expect(body.detail).toContain("not valid JSON");
  });

  test("neither file nor url", async () => {
    const { status, body } = await post("/api/v1/extract", { schema: SCHEMA });
    expect(status).toBe(400);
    expect(body).toMatchObject({ success: false, error: "missing_input" });
    expect(body.detail).toContain("'file'");
  });

  test.each([
    ["http://127.0.0.1:9/x", "loopback"],
    ["http://169.254.169.254/latest/meta-data/", "metadata"],
    ["http://10.1.2.3/", "private"],
    ["http://[::1]/", "loopback"],
  ])("a URL to %s is refused", async (url, reason) => {
    const { status, body } = await post("/api/v1/extract", { schema: SCHEMA, url });
    expect(status).toBe(400);
    expect(body.error).toBe("url_refused");
    expect(body.detail).toContain(reason);
    expect(body.detail).toContain("--allow-private-urls");
  });

  test("a URL whose host does not resolve is unreachable", async () => {
    const { status, body } = await post("/api/v1/extract", { schema: SCHEMA, url: "https://no-such-host.invalid/doc.pdf" });
    expect(status).toBe(400);
    expect(body.error).toBe("url_unreachable");
  });

  test("the screenshot target is checked too", async () => {
    const r = await fetch(`${server.url}/http://192.168.1.1/admin`, { headers });
    expect(r.status).toBe(400);
    expect(((await r.json()) as any).error).toBe("url_refused");
  });

  test("a multipart body that cannot be parsed is a 400, not a 500", async () => {
    const r = await fetch(`${server.url}/api/v1/extract`, { method: "POST", body: "--xx\r\ngarbage", headers: { ...headers, "content-type": "multipart/form-data; boundary=xx" } });
    expect(r.status).toBe(400);
    expect(((await r.json()) as any).error).toBe("bad_request");
  });

  test("a valid request to an AI operation on a server without a provider is 503 ai_unavailable, nothing charged", async () => {
    const { status, body } = await post("/api/v1/analyze", { schema: SCHEMA, file: new File(["Total: 12.50"], "receipt.txt") });
    expect(status).toBe(503);
    expect(body).toMatchObject({ success: false, error: "ai_unavailable" });
    const used = server.store().db.query<{ n: number }, []>("SELECT count(*) AS n FROM credit_ledger WHERE kind = 'charge'").get()!.n;
    expect(used).toBe(0);
  });
});
