/**
 * Converters run in conversion processes (src/convert/isolation), never on the server's event loop:
 * hostile documents made here (a 170 KB DOCX whose document.xml inflates to 50 MB, 3.9 MB of nested
 * empty JSON arrays, an 8 MB CSV) must leave /healthz answering, end at the conversion deadline with
 * 504, stop at the memory cap and the markdown cap with 413 naming the flag, and leave the server
 * converting the next document. Before the isolation, /healthz did not answer for 10-33 s.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { api, form, startServer, type TestServer } from "./helpers/server";
import { zipOf } from "./helpers/zip";

const DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

/** docxWithInflatedBody: a valid DOCX whose word/document.xml holds `bytes` of one repeated paragraph. */
function docxWithInflatedBody(bytes: number): File {
  const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
  const paragraph = "<w:p><w:r><w:t>Sales grew in every region this quarter.</w:t></w:r></w:p>";
  const body = paragraph.repeat(Math.ceil(bytes / paragraph.length));
  const zip = zipOf([
    {
      name: "[Content_Types].xml",
      data: '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    },
    {
      name: "_rels/.rels",
      data: '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    },
    { name: "word/document.xml", data: `<?xml version="1.0" encoding="UTF-8"?><w:document ${W}><w:body>${body}</w:body></w:document>` },
  ]);
  return new File([zip], "inflates_to_50mb.docx", { type: DOCX_TYPE });
}

/** nestedEmptyArrays: `[[[...]]]` of `bytes` bytes; re-indented it would be hundreds of MB of markdown. */
function nestedEmptyArrays(bytes: number): File {
  return new File(["[".repeat(bytes / 2) + "]".repeat(bytes / 2)], "nested_empty_arrays.json", { type: "application/json" });
}

/** csvOfRows: an 8 MB CSV whose first data row is "0,customer 0,...". */
function csvOf(bytes: number): File {
  const rows = ["id,name,amount,note"];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const row = `${i},customer ${i},${(i * 3.7).toFixed(2)},"note with, comma ${i}"`;
    rows.push(row);
    size += row.length + 1;
  }
  return new File([rows.join("\n")], "orders_8mb.csv", { type: "text/csv" });
}

/** HEALTHZ_LIMIT_MS: /healthz must answer within this while a conversion runs (it took 10-33 s before the isolation) */
const HEALTHZ_LIMIT_MS = 1000;

/** whileProbing runs `work` and meanwhile asks /healthz every 100 ms; returns the work's result and the slowest answer in ms. */
async function whileProbing<T>(server: TestServer, work: Promise<T>): Promise<{ result: T; slowestMs: number; probes: number }> {
  let done = false;
  let slowestMs = 0;
  let probes = 0;
  const probing = (async () => {
    while (!done) {
      const started = performance.now();
      const r = await fetch(`${server.url}/healthz`);
      expect(r.status).toBe(200);
      slowestMs = Math.max(slowestMs, performance.now() - started);
      probes++;
      await Bun.sleep(100);
    }
  })();
  const result = await work.finally(() => (done = true));
  await probing;
  return { result, slowestMs, probes };
}

function convert(server: TestServer, key: string, file: File) {
  return api(server, key, "POST", "/api/v1/markdown/convert", form({ file }));
}

describe("converters run off the event loop", () => {
  let server: TestServer;
  let key: string;

  beforeAll(async () => {
    // a low memory cap and markdown cap make the hostile documents end quickly
    server = await startServer({ args: ["--convert-memory-mb", "300", "--max-markdown-mb", "5"] });
    key = (await server.key()).key;
  });
  afterAll(async () => {
    await server.stop();
  });

  // Small uploads with costly conversions: what is measured is the conversion, not the upload's parsing.
  test("a 170 KB DOCX inflating to 50 MB of XML: /healthz answers within 1 s throughout, and the memory cap ends it with 413 naming --convert-memory-mb", async () => {
    const docx = docxWithInflatedBody(50_000_000);
    const { result, slowestMs, probes } = await whileProbing(server, convert(server, key, docx));
    expect(result.status).toBe(413);
    expect(result.body.error).toBe("document_too_large");
    expect(result.body.detail).toContain("--convert-memory-mb");
    expect(result.body.detail).toContain("inflates_to_50mb.docx");
    expect(probes).toBeGreaterThan(3);
    expect(slowestMs).toBeLessThan(HEALTHZ_LIMIT_MS);
  }, 180_000);

  test("1 MB of nested empty JSON arrays: 413 document_too_large naming --max-markdown-mb while it is written, /healthz within 1 s", async () => {
    const json = nestedEmptyArrays(1_000_000);
    const { result, slowestMs } = await whileProbing(server, convert(server, key, json));
    expect(result.status).toBe(413);
    expect(result.body.error).toBe("document_too_large");
    expect(result.body.detail).toContain("--max-markdown-mb");
    expect(result.body.detail).toContain("nested_empty_arrays.json");
    expect(slowestMs).toBeLessThan(HEALTHZ_LIMIT_MS);
  }, 180_000);

  test("3.9 MB of nested empty JSON arrays (110 MB of markdown before the cap) and an 8 MB CSV: 413, then the CSV's table, each from a fresh or warm process", async () => {
    const nested = await convert(server, key, nestedEmptyArrays(3_900_000));
    expect(nested.status).toBe(413);
    expect(nested.body.detail).toContain("--max-markdown-mb");
    const csv = await convert(server, key, csvOf(8_000_000));
    expect(csv.status).toBe(200);
    expect(csv.body.markdown).toContain("| 0 | customer 0 | 0.00 | note with, comma 0 |");
    const small = await convert(server, key, new File(['{"invoice": 42, "items": ["a", "b"]}'], "invoice.json", { type: "application/json" }));
    expect(small.status).toBe(200);
    expect(small.body.markdown).toContain('"invoice": 42');
  }, 180_000);
});

describe("the conversion deadline is a hard stop", () => {
  let server: TestServer;
  let key: string;

  beforeAll(async () => {
    server = await startServer({ args: ["--convert-timeout-ms", "2000", "--convert-memory-mb", "0", "--convert-processes", "1"] });
    key = (await server.key()).key;
  });
  afterAll(async () => {
    await server.stop();
  });

  test("a conversion past --convert-timeout-ms gets 504 timeout at the deadline, and the one process is replaced for the next document", async () => {
    const docx = docxWithInflatedBody(50_000_000);
    const started = performance.now();
    const { result, slowestMs } = await whileProbing(server, convert(server, key, docx));
    const elapsedMs = performance.now() - started;
    console.log(`504 after ${Math.round(elapsedMs)} ms, /healthz slowest ${Math.round(slowestMs)} ms`);
    expect(result.status).toBe(504);
    expect(result.body.error).toBe("timeout");
    expect(result.body.detail).toContain("--convert-timeout-ms");
    // the old converter ran to its end (10-50 s here) before the deadline was noticed; generous for a loaded machine
    expect(elapsedMs).toBeLessThan(8000);
    expect(slowestMs).toBeLessThan(HEALTHZ_LIMIT_MS);

    const next = await convert(server, key, csvOf(2_000));
    expect(next.status).toBe(200);
    expect(next.body.markdown).toContain("| 1 | customer 1 | 3.70 | note with, comma 1 |");
  }, 120_000);
});

describe("a web page given by URL is converted off the event loop too", () => {
  let server: TestServer;
  let key: string;
  let site: ReturnType<typeof Bun.serve>;

  beforeAll(async () => {
    // 12 MB of table cells: parsing and walking it took seconds on the event loop before
    const rows = Array.from({ length: 60_000 }, (_, i) => `<tr><td>row ${i}</td><td>${"cell text ".repeat(16)}</td></tr>`).join("");
    const html = `<!doctype html><html><head><title>Big table</title></head><body><main><h1>Big table</h1><table>${rows}</table></main></body></html>`;
    site = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } }) });
    server = await startServer({ args: ["--allow-private-urls", "--convert-timeout-ms", "3000", "--convert-memory-mb", "0"] });
    key = (await server.key()).key;
  });
  afterAll(async () => {
    await server.stop();
    site.stop(true);
  });

  test("render=never of a 12 MB page: /healthz answers within 1 s while it converts, and the deadline ends it with 504 or it converts", async () => {
    const url = `http://127.0.0.1:${site.port}/big.html`;
    const work = fetch(`${server.url}/api/v1/markdown/convert`, { method: "POST", body: form({ url, render: "never" }), headers: { "X-API-Key": key } });
    const { result, slowestMs, probes } = await whileProbing(server, work);
    const body = (await result.json()) as any;
    expect([200, 504]).toContain(result.status);
    if (result.status === 200) expect(body.markdown).toContain("| row 0 |");
    else expect(body.error).toBe("timeout");
    expect(probes).toBeGreaterThan(3);
    expect(slowestMs).toBeLessThan(HEALTHZ_LIMIT_MS);
  }, 120_000);
});
