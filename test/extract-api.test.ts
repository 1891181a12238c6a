/**
 * POST /api/v1/extract over HTTP against the real server: the local engine when no AI provider is
 * configured, the provider path against our Groq-protocol server, the spec's result fields, credits
 * and the options that are not built yet.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { api, form, startServer, type TestServer, withServer } from "./helpers/server";
import { extractionReply, startGroqServer, withGroqProvider, type GroqServer } from "./helpers/groqServer";

const FIXTURES = join(import.meta.dir, "fixtures");
const receipt = () => new File([readFileSync(join(FIXTURES, "RECEIPT-2024-TXN-98765_retail_purchase.pdf"))], "receipt.pdf");
const SCHEMA = JSON.stringify({
  transaction_id: { type: "string", description: "transaction id", required: true },
  total: { type: "number", description: "total amount paid", required: true },
  loyalty_number: { type: "string", description: "loyalty card number" },
});

const extract = (server: TestServer, key: string, fields: Record<string, string | Blob>) => api(server, key, "POST", "/api/v1/extract", form(fields));

describe("without an AI provider: the local engine", () => {
  let server: TestServer;
  let key: string;
  withServer({}, (served) => ({ server, key } = served));

  test("reads stated values with confidence and verbatim citations, in the spec's shape", async () => {
    const { status, body } = await extract(server, key, { schema: SCHEMA, file: receipt() });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      success: true,
      data: { transaction_id: "TXN-98765-2024", total: 821.14, loyalty_number: null },
      model_used: "fast",
      engine: "local",
      extraction_method: "text",
      content_type: "application/pdf",
      total_pages: 1,
      pages_processed: 1,
      schema_format: "typed",
      credits_used: 3,
      filename: "receipt.pdf",
    });
    expect(body.confidence.transaction_id).toBeGreaterThanOrEqual(0.8);
    expect(body.citations.transaction_id).toContain("TXN-98765-2024");
    expect(body.citations.loyalty_number).toBeUndefined();
    expect(body.field_status.loyalty_number).toEqual({ confidence: 0, required: false, status: "not_found", type: "string" });
    expect(body.field_status.total).toMatchObject({ required: true, status: "found", type: "number" });
    expect(body.missing_required_fields).toBeUndefined();
    expect(body.text_length).toBeGreaterThan(500);
  });

  test("a missing required field gives success=false with missing_required_fields, data still returned", async () => {
    const schema = JSON.stringify({ total: { type: "number", description: "total amount paid" }, vehicle_vin: { type: "string", description: "vehicle identification number (VIN)", required: true } });
    const { status, body } = await extract(server, key, { schema, file: receipt() });
    expect(status).toBe(200);
    expect(body.success).toBe(false);
    expect(body.missing_required_fields).toEqual(["vehicle_vin"]);
    expect(body.data.total).toBe(821.14);
  });

  test("use_vision without a provider is 503 ai_unavailable naming GROQ_API_KEY; follow_links on a file is a warning", async () => {
    const vision = await extract(server, key, { schema: SCHEMA, file: receipt(), use_vision: "true" });
    expect(vision.status).toBe(503);
    expect(vision.body.error).toBe("ai_unavailable");
    expect(vision.body.detail).toContain("GROQ_API_KEY");
    const links = await extract(server, key, { schema: SCHEMA, file: receipt(), follow_links: "true" });
    expect(links.status).toBe(200);
    expect(links.body.warnings).toEqual(["follow_links applies to web pages given by url; it was ignored for this document"]);
  });
});

describe("with the AI provider (our Groq-protocol server)", () => {
  let groq: GroqServer;
  let server: TestServer;
  let key: string;
  withGroqProvider({}, (served) => ({ groq, server, key } = served));

  test("the provider's grounded answer is returned; an ungrounded value is capped below 0.6", async () => {
    groq.reply(
      "chat",
      extractionReply({
        transaction_id: { value: "TXN-98765-2024", quote: "TXN: TXN-98765-2024", confidence: 0.97 },
        total: { value: "$821.14", quote: "TOTAL $821.14", confidence: 0.95 },
        loyalty_number: { value: "LOY-0000-1111", quote: "Loyalty: LOY-0000-1111", confidence: 0.9 },
      }),
    );
    const { status, body } = await extract(server, key, { schema: SCHEMA, file: receipt(), model: "fast" });
    expect(status).toBe(200);
    expect(body.data).toEqual({ transaction_id: "TXN-98765-2024", total: 821.14, loyalty_number: "LOY-0000-1111" });
    expect(body.engine).toBe("llama-3.1-8b-instant");
    expect(body.model_used).toBe("fast");
    expect(body.confidence.transaction_id).toBeGreaterThan(0.8);
    expect(body.confidence.loyalty_number).toBeLessThan(0.6); // not in the receipt: not trusted
    const sent = groq.requests.at(-1)!;
    expect(sent.json.model).toBe("llama-3.1-8b-instant");
    expect(sent.json.response_format.type).toBe("json_schema");
    expect(JSON.stringify(sent.json.messages)).toContain("TXN-98765-2024");
  });

  test("a provider that keeps failing gives 502 provider_error, and nothing is charged", async () => {
    const before = server.store().db.query<{ n: number }, []>("SELECT count(*) AS n FROM credit_ledger WHERE kind = 'charge'").get()!.n;
    groq.reply("chat", { status: 500, json: { error: { message: "boom" } } }, { status: 500, json: { error: { message: "boom" } } });
    const { status, body } = await extract(server, key, { schema: SCHEMA, file: receipt(), model: "fast" });
    expect(status).toBe(502);
    expect(body.error).toBe("provider_error");
    const after = server.store().db.query<{ n: number }, []>("SELECT count(*) AS n FROM credit_ledger WHERE kind = 'charge'").get()!.n;
    expect(after).toBe(before);
  });

  test("a provider still rate-limited after the retry gives 503 with Retry-After", async () => {
    const limited = { status: 429, json: { error: { message: "rate limited" } }, headers: { "retry-after": "1" } };
    groq.reply("chat", limited, limited);
    const { status, body, headers } = await extract(server, key, { schema: SCHEMA, file: receipt(), model: "fast" });
    expect(status).toBe(503);
    expect(body.error).toBe("ai_unavailable");
    expect(Number(headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  });
});

describe("use_vision and follow_links with the provider", () => {
  let groq: GroqServer;
  let server: TestServer;
  let site: ReturnType<typeof Bun.serve>;
  let key: string;
  beforeAll(async () => {
    groq = await startGroqServer();
    server = await startServer({ env: { GROQ_API_KEY: "gsk_test_key", GROQ_BASE_URL: groq.baseUrl }, args: ["--allow-private-urls"] });
    ({ key } = await server.key("pro"));
    const page = (title: string, body: string) => new Response(`<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`, { headers: { "content-type": "text/html" } });
    site = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch(request) {
        const path = new URL(request.url).pathname;
        if (path === "/") return page("Acme Widgets", '<p>We make widgets for every workshop in the region since 1999.</p><p><a href="/about-us">About us</a> <a href="/contact">Contact</a> <a href="/blog/post-1">A blog post</a> <a href="https://elsewhere.example/about">Partner</a></p>');
        if (path === "/about-us") return page("About Acme", "<p>Acme Widgets GmbH was founded by Jane Doe in Leipzig and employs 40 people.</p>");
        if (path === "/contact") return new Response("down for maintenance", { status: 500 });
        return new Response("not found", { status: 404 });
      },
    });
  });
  afterAll(async () => {
    await server.stop();
    groq.close();
    site.stop(true);
  });

  test("use_vision sends the image to the vision model with its OCR text: extraction_method ocr+vision", async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="200"><rect width="100%" height="100%" fill="white"/><text x="30" y="120" font-size="64" font-family="DejaVu Sans">INVOICE 4471</text></svg>`;
    const png = await sharp(Buffer.from(svg)).png().toBuffer();
    groq.reply("chat", extractionReply({ invoice: { value: "4471", quote: "INVOICE 4471", confidence: 0.95 } }));
    const { status, body } = await extract(server, key, { schema: JSON.stringify({ invoice: { type: "string", description: "invoice number" } }), file: new File([png], "scan.png", { type: "image/png" }), use_vision: "true", model: "fast" });
    expect(status).toBe(200);
    expect(body.data.invoice).toBe("4471");
    expect(body.extraction_method).toBe("ocr+vision");
    expect(body.engine).toBe("meta-llama/llama-4-scout-17b-16e-instruct");
    const sent = groq.requests.at(-1)!.json;
    expect(sent.model).toBe("meta-llama/llama-4-scout-17b-16e-instruct");
    const parts = sent.messages[1].content as any[];
    expect(parts[0].text).toContain("INVOICE 4471"); // the OCR text goes along
    expect(parts[1].image_url.url.startsWith("data:image/jpeg;base64,")).toBe(true);
  });

  test("use_vision on a PDF whose pages all have text sends no images and says so", async () => {
    groq.reply("chat", extractionReply({ transaction_id: { value: "TXN-98765-2024", quote: "TXN: TXN-98765-2024", confidence: 0.97 }, total: { value: 821.14, quote: "TOTAL $821.14", confidence: 0.95 }, loyalty_number: { value: null, quote: null, confidence: 0 } }));
    const { status, body } = await extract(server, key, { schema: SCHEMA, file: receipt(), use_vision: "true", model: "fast" });
    expect(status).toBe(200);
    expect(body.extraction_method).toBe("text");
    expect(body.warnings[0]).toContain("every page of this PDF has a text layer");
    expect(typeof groq.requests.at(-1)!.json.messages[1].content).toBe("string");
  });

  test("follow_links reads the same-site about page, skips other sites and blog posts, and names a link that failed", async () => {
    groq.reply("chat", extractionReply({ founder: { value: "Jane Doe", quote: "founded by Jane Doe", confidence: 0.95 }, employees: { value: 40, quote: "employs 40 people", confidence: 0.9 } }));
    const schema = JSON.stringify({ founder: { type: "string", description: "who founded the company" }, employees: { type: "integer", description: "number of employees" } });
    const { status, body } = await extract(server, key, { schema, url: `http://127.0.0.1:${site.port}/`, follow_links: "true", model: "fast" });
    expect(status).toBe(200);
    expect(body.data).toEqual({ founder: "Jane Doe", employees: 40 });
    expect(body.extraction_method).toBe("dom+text");
    expect(body.credits_used).toBe(5);
    expect(body.confidence.founder).toBeGreaterThan(0.8); // grounded in the linked page's text
    expect(body.warnings).toHaveLength(1);
    expect(body.warnings[0]).toContain(`/contact could not be read`);
    const text = JSON.stringify(groq.requests.at(-1)!.json.messages);
    expect(text).toContain(`Linked page: http://127.0.0.1:${site.port}/about-us`);
    expect(text).toContain("founded by Jane Doe");
    expect(text).not.toContain(`Linked page: http://127.0.0.1:${site.port}/blog`);
    expect(text).not.toContain("Linked page: https://elsewhere.example");
  }, 60_000);
});
