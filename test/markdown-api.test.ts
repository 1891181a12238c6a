/**
 * The markdown operations over HTTP against the real server: uploads, URLs rendered in Chromium,
 * GET /md/{url} in both answer types, the supported list, credits and the error bodies.
 */
import { zipOf } from "./helpers/zip";
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { deflateRawSync } from "node:zlib";
import { api, form, startServer, type TestServer, withServer } from "./helpers/server";
import { loopbackServers } from "./helpers/loopback";
import { startGroqServer, transcriptionReply } from "./helpers/groqServer";

const FIXTURES = join(import.meta.dir, "fixtures");
const serve = loopbackServers();
let server: TestServer;
let key: string;

withServer({ args: ["--allow-private-urls", "--convert-timeout-ms", "60000", "--max-decompressed-mb", "50"] }, (served) => ({ server, key } = served));

const convert = (fields: Record<string, string | Blob>) => api(server, key, "POST", "/api/v1/markdown/convert", form(fields));

const JS_PAGE = `<!doctype html><html><head><title>Launch notes</title></head><body>
<nav><a href="/">Home</a> <a href="/about">About us</a> <a href="/careers">Careers</a></nav>
<main id="app"></main>
<footer>Copyright Example Corp. All rights reserved. <a href="/privacy">Privacy</a></footer>
<script>
  const app = document.getElementById("app");
  app.innerHTML = "<article><h1>Release 4.2 is out</h1><p>The new release makes conversion of scanned documents much faster, adds table detection for borderless layouts and fixes many bugs reported by users over the last months.</p><p>Read the <a href='/docs/upgrade'>upgrade guide</a> before you move production traffic to the new version, because two options changed their defaults.</p><table><tr><th>Format</th><th>Speed-up</th></tr><tr><td>PDF</td><td>3x</td></tr><tr><td>DOCX</td><td>2x</td></tr></table></article>";
</script></body></html>`;

describe("POST /api/v1/markdown/convert", () => {
  test("a DOCX upload converts with its headings and tables, for 1 credit", async () => {
    const before = (await (await fetch(`${server.url}/api/v1/usage`, { headers: { "X-API-Key": key } })).json()) as any;
    const { status, body } = await convert({ file: new File([readFileSync(join(FIXTURES, "test.docx"))], "test.docx") });
    expect(status).toBe(200);
    expect(body).toMatchObject({ success: true, filename: "test.docx", credits_used: 1, content_type: expect.stringContaining("wordprocessingml") });
    expect(body.markdown).toContain("AutoGen");
    expect(body.markdown).toMatch(/^#{1,3} /m);
    expect(body.markdown).toMatch(/^\| .* \|$/m);
    expect(body.text_length).toBe(body.markdown.length);
    const after = (await (await fetch(`${server.url}/api/v1/usage`, { headers: { "X-API-Key": key } })).json()) as any;
    expect(after.credits.used - before.credits.used).toBe(1);
  });

  test("a web page URL is rendered with JavaScript, boilerplate stripped, links absolute", async () => {
    const { origin } = serve(() => new Response(JS_PAGE, { headers: { "content-type": "text/html; charset=utf-8" } }));
    const { status, body } = await convert({ url: `${origin}/blog/release` });
    expect(status).toBe(200);
    expect(body.extraction_method).toBe("browser");
    expect(body.title).toContain("Launch notes");
    expect(body.markdown).toContain("Release 4.2 is out");
    expect(body.markdown).toMatch(/\|\s*PDF\s*\|\s*3x\s*\|/);
    expect(body.markdown).toContain(`(${origin}/docs/upgrade)`);
    expect(body.markdown).not.toContain("All rights reserved");
    expect(body.markdown).not.toContain("Careers");
  });

  test("main_content=false keeps the boilerplate; selector narrows to one element", async () => {
    const { origin } = serve(() => new Response(JS_PAGE, { headers: { "content-type": "text/html" } }));
    const whole = await convert({ url: `${origin}/`, main_content: "false" });
    expect(whole.status).toBe(200);
    expect(whole.body.markdown).toContain("All rights reserved");
    const table = await convert({ url: `${origin}/`, selector: "table" });
    expect(table.status).toBe(200);
    expect(table.body.markdown).toMatch(/\|\s*DOCX\s*\|\s*2x\s*\|/);
    expect(table.body.markdown).not.toContain("upgrade guide");
  });

  test("a PDF behind a URL is converted as a document", async () => {
    const pdf = readFileSync(join(FIXTURES, "test.pdf"));
    const { origin } = serve(() => new Response(pdf, { headers: { "content-type": "application/pdf" } }));
    const { status, body } = await convert({ url: `${origin}/papers/autogen.pdf` });
    expect(status).toBe(200);
    expect(body.filename).toBe("autogen.pdf");
    expect(body.total_pages).toBeGreaterThan(0);
    expect(body.markdown).toContain("Large language models");
    expect(body.source_url).toBe(`${origin}/papers/autogen.pdf`);
  });

  test("an unsupported binary is 415 and costs nothing", async () => {
    const random = new Uint8Array(1024).map((_, i) => (i * 7919 + 13) % 251);
    const { status, body } = await convert({ file: new File([random], "random.bin") });
    expect(status).toBe(415);
    expect(body).toMatchObject({ success: false, error: "unsupported_media_type" });
  });

  test("a truncated DOCX is 400 unreadable_document", async () => {
    const docx = readFileSync(join(FIXTURES, "test.docx"));
    const { status, body } = await convert({ file: new File([docx.subarray(0, docx.length / 2)], "half.docx") });
    expect(status).toBe(400);
    expect(body).toMatchObject({ success: false, error: "unreadable_document" });
  });

  test("a DOCX zip bomb is refused with 413 while inflating", async () => {
    // 60 MB of one letter deflates to about 60 KB; the server allows 50 MB of decompressed content
    const big = deflateRawSync(Buffer.alloc(60_000_000, 0x41));
    expect(big.length).toBeLessThan(100_000);
    const { status, body } = await convert({ file: new File([zipOf([{ name: "word/document.xml", data: big, inflatedSize: 60_000_000 }])], "bomb.docx") });
    expect(status).toBe(413);
    expect(body).toMatchObject({ success: false, error: "document_too_large" });
  }, 60_000);

  test("a conversion past the deadline is 504 timeout and costs nothing", async () => {
    const quick = await startServer({ args: ["--allow-private-urls", "--convert-timeout-ms", "1500"] });
    try {
      const { key: k } = await quick.key("pro");
      const { origin } = serve(() => new Promise<Response>(() => {})); // never answers
      const started = performance.now();
      const r = await fetch(`${quick.url}/api/v1/markdown/convert`, { method: "POST", body: form({ url: `${origin}/slow` }), headers: { "X-API-Key": k } });
      expect(r.status).toBe(504);
      expect(((await r.json()) as any).error).toBe("timeout");
      expect(performance.now() - started).toBeLessThan(10_000);
      const charges = quick.store().db.query<{ n: number }, []>("SELECT count(*) AS n FROM credit_ledger WHERE kind = 'charge'").get()!.n;
      expect(charges).toBe(0);
    } finally {
      await quick.stop();
    }
  });

  test("neither file nor url is 400 missing_input", async () => {
    const { status, body } = await convert({ main_content: "true" });
    expect(status).toBe(400);
    expect(body.error).toBe("missing_input");
  });
});

describe("GET /md/{url}", () => {
  test("answers text/markdown with the facts in headers", async () => {
    const { origin } = serve(() => new Response(JS_PAGE, { headers: { "content-type": "text/html" } }));
    const r = await fetch(`${server.url}/md/${origin}/news`, { headers: { "X-API-Key": key } });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toContain("text/markdown");
    expect(r.headers.get("x-credits-used")).toBe("1");
    expect(r.headers.get("x-extraction-method")).toBe("browser");
    expect(r.headers.get("ratelimit-limit")).toBe("120");
    expect(await r.text()).toContain("Release 4.2 is out");
  });

  test("answers the JSON result with Accept: application/json; the target keeps its own query", async () => {
    const seen: string[] = [];
    const { origin } = serve((req) => {
      const url = new URL(req.url);
      if (url.pathname === "/search") seen.push(url.search);
      return new Response(JS_PAGE, { headers: { "content-type": "text/html" } });
    });
    const target = encodeURIComponent(`${origin}/search?q=release&page=2`);
    const r = await fetch(`${server.url}/md/${target}?main_content=false`, { headers: { "X-API-Key": key, Accept: "application/json" } });
    expect(r.status).toBe(200);
    const body = (await r.json()) as any;
    expect(body).toMatchObject({ success: true, credits_used: 1 });
    expect(body.markdown).toContain("All rights reserved");
    expect(seen.length).toBeGreaterThan(0);
    expect(new Set(seen)).toEqual(new Set(["?q=release&page=2"]));
  });

  test("a loopback target is refused when the server does not allow private URLs", async () => {
    const strict = await startServer();
    try {
      const { key: k } = await strict.key("pro");
      const r = await fetch(`${strict.url}/md/http://127.0.0.1:9/`, { headers: { "X-API-Key": k } });
      expect(r.status).toBe(400);
      expect(((await r.json()) as any).error).toBe("url_refused");
    } finally {
      await strict.stop();
    }
  });
});

describe("audio and video", () => {
  const mp3 = () => new File([readFileSync(join(FIXTURES, "test.mp3"))], "test.mp3");

  test("without a speech-to-text provider: metadata and a warning saying so, 1 credit", async () => {
    const { status, body } = await convert({ file: mp3() });
    expect(status).toBe(200);
    expect(body.extraction_method).toBe("metadata");
    expect(body.markdown).toMatch(/0:00:06/);
    expect(body.warnings.join(" ")).toContain("GROQ_API_KEY");
    expect(body.credits_used).toBe(1);
  });

  test("with Groq configured: the transcript, charged 1 + 1 per started minute", async () => {
    const groq = await startGroqServer();
    const withAi = await startServer({ env: { GROQ_API_KEY: "gsk_test_key", GROQ_BASE_URL: groq.baseUrl } });
    try {
      const { key: k } = await withAi.key("pro");
      groq.reply("transcription", transcriptionReply("Hello from the recorded meeting.", { duration: 66.5 }));
      const r = await fetch(`${withAi.url}/api/v1/markdown/convert`, { method: "POST", body: form({ file: mp3() }), headers: { "X-API-Key": k } });
      const body = (await r.json()) as any;
      expect(r.status).toBe(200);
      expect(body.extraction_method).toBe("metadata+transcript");
      expect(body.markdown).toContain("## Transcript");
      expect(body.markdown).toContain("Hello from the recorded meeting.");
      expect(body.credits_used).toBe(3);
      expect(groq.requests).toHaveLength(1);
      expect(groq.requests[0]!.headers.authorization).toBe("Bearer gsk_test_key");

      groq.reply("transcription", { status: 500, json: { error: { message: "boom" } } }, { status: 500, json: { error: { message: "boom" } } });
      const failed = await fetch(`${withAi.url}/api/v1/markdown/convert`, { method: "POST", body: form({ file: mp3() }), headers: { "X-API-Key": k } });
      expect(failed.status).toBe(502);
      expect(((await failed.json()) as any).error).toBe("provider_error");
      const charges = withAi.store().db.query<{ n: number }, []>("SELECT count(*) AS n FROM credit_ledger WHERE kind = 'charge'").get()!.n;
      expect(charges).toBe(1);
    } finally {
      await withAi.stop();
      groq.close();
    }
  });
});

describe("GET /api/v1/markdown/supported", () => {
  test("lists at least 107 extensions in the spec's families", async () => {
    const r = await fetch(`${server.url}/api/v1/markdown/supported`, { headers: { "X-API-Key": key } });
    expect(r.status).toBe(200);
    const body = (await r.json()) as any;
    expect(body.total_extensions).toBeGreaterThanOrEqual(107);
    const all = body.families.flatMap((f: any) => f.extensions);
    for (const ext of ["pdf", "docx", "doc", "odt", "rtf", "pages", "epub", "txt", "xlsx", "xls", "ods", "csv", "tsv", "numbers", "pptx", "ppt", "odp", "key", "jpg", "png", "gif", "webp", "svg", "tiff", "bmp", "heic", "mp4", "mov", "webm", "avi", "mp3", "wav", "json", "xml", "yaml", "html", "ipynb", "py", "eml", "msg"]) {
      expect(all).toContain(ext);
    }
    expect(new Set(all).size).toBe(all.length);
  });
});

