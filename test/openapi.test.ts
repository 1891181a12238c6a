import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startServer, tempDir, type TestServer } from "./helpers/server";

let server: TestServer;
let doc: any;
beforeAll(async () => {
  server = await startServer();
  doc = await (await fetch(`${server.url}/docs/json`)).json();
});
afterAll(() => server.stop());

/** every operation of the spec (v1.5.0), with its request body type */
const SPEC_OPERATIONS: [method: string, path: string, body: "multipart/form-data" | "application/json" | null][] = [
  ["get", "/{url}", null],
  ["get", "/md/{url}", null],
  ["post", "/api/v1/thumbnails/generate", "multipart/form-data"],
  ["post", "/api/v1/thumbnails/generate/json", "application/json"],
  ["get", "/api/v1/thumbnails/jobs/{job_id}", null],
  ["delete", "/api/v1/thumbnails/jobs/{job_id}", null],
  ["get", "/api/v1/thumbnails/jobs/{job_id}/image", null],
  ["get", "/api/v1/thumbnails/supported-types", null],
  ["get", "/api/v1/thumbnails/preview", null],
  ["post", "/api/v1/markdown/convert", "multipart/form-data"],
  ["get", "/api/v1/markdown/supported", null],
  ["post", "/api/v1/extract", "multipart/form-data"],
  ["post", "/api/v1/extract/batch", "multipart/form-data"],
  ["post", "/api/v1/analyze", "multipart/form-data"],
  ["post", "/api/v1/analyze/batch", "multipart/form-data"],
  ["post", "/api/v1/analyze/cross", "multipart/form-data"],
  ["post", "/api/v1/decide", "multipart/form-data"],
  ["post", "/api/v1/diff", "multipart/form-data"],
  ["get", "/api/v1/jobs/{task_id}", null],
  ["get", "/api/v1/jobs/batch/{batch_id}", null],
  ["get", "/api/v1/jobs/{task_id}/deliveries", null],
];

describe("OpenAPI document at /docs/json", () => {
  test("is OpenAPI 3 with the API key security scheme (X-API-Key, or the same key as a bearer token)", () => {
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.components.securitySchemes.ApiKey).toEqual({ type: "apiKey", in: "header", name: "X-API-Key" });
    expect(doc.components.securitySchemes.Bearer).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.security).toEqual([{ ApiKey: [] }, { Bearer: [] }]);
  });

  test.each(SPEC_OPERATIONS)("documents %s %s with its request body and error statuses", (method, path, bodyType) => {
    const op = doc.paths[path]?.[method];
    expect(op).toBeDefined();
    expect(op.summary.length).toBeGreaterThan(5);
    expect(op.description.length).toBeGreaterThan(10);
    for (const status of ["401", "429", "500"]) expect(op.responses[status]).toBeDefined();
    if (bodyType) {
      expect(Object.keys(op.requestBody.content)).toEqual([bodyType]);
      expect(op.responses["422"].content["application/json"].schema.title).toBe("ValidationError");
    }
    if (bodyType === "multipart/form-data" && path !== "/api/v1/thumbnails/generate/json") expect(op.responses["413"] ?? op.responses["400"]).toBeDefined();
  });

  test("the extract form fields carry the spec's types, enums and defaults", () => {
    const schema = doc.paths["/api/v1/extract"].post.requestBody.content["multipart/form-data"].schema;
    expect(schema.required).toEqual(["schema"]);
    expect(schema.properties.file).toMatchObject({ type: "string", format: "binary" });
    expect(schema.properties.model).toMatchObject({ type: "string", enum: ["fast", "accurate", "auto"], default: "auto" });
    expect(schema.properties.sync).toMatchObject({ type: "boolean", default: true });
    expect(schema.properties.use_vision).toMatchObject({ type: "boolean", default: false });
  });

  test("query and path parameters are documented", () => {
    const preview = doc.paths["/api/v1/thumbnails/preview"].get.parameters;
    expect(preview.find((p: any) => p.name === "url")).toMatchObject({ in: "query", required: true });
    expect(preview.find((p: any) => p.name === "quality").schema).toMatchObject({ minimum: 1, maximum: 100, default: 95 });
    const shot = doc.paths["/{url}"].get.parameters.map((p: any) => p.name);
    for (const name of ["url", "viewport_width", "viewport_height", "full_page", "dark_mode", "selector", "format", "quality", "wait_ms", "device_scale_factor"]) expect(shot).toContain(name);
    expect(doc.paths["/api/v1/jobs/{task_id}"].get.parameters[0]).toMatchObject({ name: "task_id", in: "path", required: true });
  });

  test("the public operations need no key", () => {
    expect(doc.paths["/healthz"].get.security).toEqual([]);
    expect(doc.paths["/api/v1/thumbnails/files/{job_id}"].get.security).toEqual([]);
    // metrics are the operator's, served on --metrics-listen, not an operation of the API
    expect(doc.paths["/metrics"]).toBeUndefined();
  });
});

describe("the explorer at /docs", () => {
  test("its page and script come from this server, not a CDN", async () => {
    const html = await (await fetch(`${server.url}/docs`)).text();
    const scripts = [...html.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1]);
    expect(scripts).toEqual(["/docs/assets/scalar.js"]);
    expect(html).not.toMatch(/https?:\/\/(cdn|unpkg|fonts)\./);
    const js = await fetch(`${server.url}/docs/assets/scalar.js`);
    expect(js.status).toBe(200);
    expect(js.headers.get("content-type")).toContain("javascript");
    expect((await js.arrayBuffer()).byteLength).toBeGreaterThan(1_000_000);
  });

  test("renders in headless Chromium with no internet", async () => {
    const chromium = Bun.which("chromium");
    expect(chromium).not.toBeNull();
    const profile = tempDir("docintel-chromium-");
    const proc = Bun.spawn(
      [chromium!, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", `--user-data-dir=${profile}`, "--virtual-time-budget=15000", "--dump-dom", `${server.url}/docs`],
      { stdout: "pipe", stderr: "ignore" },
    );
    const dom = await new Response(proc.stdout).text();
    await proc.exited;
    // the operation titles only exist in the DOM once the script has loaded and rendered the document
    expect(dom).toContain("Liveness and readiness");
    expect(dom).toContain("X-API-Key");
  }, 60_000);
});
