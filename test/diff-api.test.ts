/**
 * POST /api/v1/diff over HTTP against the real server and the real converters, on the document
 * pairs of test/fixtures/diff (see make.ts there for their known differences): the exact block
 * operations, the word change inside a replaced block and a table row, PDF against DOCX, the
 * markdown and HTML forms, bad inputs, credits, and AI annotations through our Groq-protocol server.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { api, form, pollTask, type TestServer, withServer } from "./helpers/server";
import { loopbackServers } from "./helpers/loopback";
import { chatReply, withGroqProvider, type GroqServer } from "./helpers/groqServer";

const FIXTURES = join(import.meta.dir, "fixtures/diff");
const file = (name: string) => new File([readFileSync(join(FIXTURES, name))], name);
const DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
const serve = loopbackServers();

const diff = (server: TestServer, key: string, fields: Record<string, string | Blob>, headers: Record<string, string> = {}) => api(server, key, "POST", "/api/v1/diff", form(fields), headers);

/** opsOf: [op, a_index, b_index] of every block, for exact assertions. */
const opsOf = (body: any) => body.blocks.map((b: any) => [b.op, b.a_index ?? null, b.b_index ?? null]);

function chargesOf(server: TestServer): number {
  return server.store().db.query<{ n: number }, []>("SELECT count(*) AS n FROM credit_ledger WHERE kind = 'charge'").get()!.n;
}

describe("without an AI provider", () => {
  let server: TestServer;
  let key: string;
  withServer({ args: ["--allow-private-urls"] }, (served) => ({ server, key } = served));

  test("identical documents: similarity 1, every block equal, 1 credit", async () => {
    const { status, body } = await diff(server, key, { file_a: file("contract_v1.docx"), file_b: file("contract_v1.docx") });
    expect(status).toBe(200);
    expect(body).toMatchObject({ success: true, similarity: 1, identical: true, granularity: "word", credits_used: 1 });
    expect(body.blocks).toHaveLength(14);
    expect(body.blocks.every((b: any) => b.op === "equal")).toBe(true);
    expect(body.stats.blocks).toEqual({ unchanged: 14, added: 0, removed: 0, changed: 0, moved: 0 });
    expect(body.stats.words).toEqual({ added: 0, removed: 0, changed: 0 });
    expect(body.document_a).toMatchObject({ filename: "contract_v1.docx", content_type: DOCX_TYPE, extraction_method: "text" });
  });

  test("a DOCX and its edited copy: the exact operations, and the fee change word by word", async () => {
    const { status, body } = await diff(server, key, { file_a: file("contract_v1.docx"), file_b: file("contract_v2.docx") });
    expect(status).toBe(200);
    expect(opsOf(body)).toEqual([
      ["equal", 0, 0], // # Service Agreement
      ["equal", 1, 1],
      ["equal", 2, 2], // ## 1. Services
      ["equal", 3, 3],
      ["equal", 4, 4],
      ["insert", null, 5], // spare parts
      ["equal", 5, 6], // ## 2. Fees
      ["replace", 6, 7], // the fee
      ["equal", 8, 8], // ## 3. Term
      ["equal", 9, 9],
      ["move", 7, 10], // late payments, from Fees to Term
      ["equal", 10, 11], // ## 4. Confidentiality
      ["equal", 11, 12],
      ["delete", 12, null], // the notice paragraph
      ["equal", 13, 13],
    ]);
    expect(body.blocks[2]).toMatchObject({ kind: "heading", level: 2, a: "1. Services", b: "1. Services" });
    expect(body.blocks[5]).toMatchObject({ kind: "paragraph", b: "The Supplier shall keep a stock of spare parts at the Customer's site." });
    expect(body.blocks[7].words).toEqual([
      { op: "equal", text: "The Customer shall pay a monthly fee of USD " },
      { op: "replace", a: "4,500", b: "4,950" },
      { op: "equal", text: " within 30 days of the invoice date." },
    ]);
    expect(body.blocks[10]).toMatchObject({ kind: "paragraph", a: "Late payments carry interest of 1% per month on the amount due." });
    expect(body.blocks[13].a).toBe("Either party may end this agreement with sixty days of written notice.");
    expect(body.stats.blocks).toEqual({ unchanged: 11, added: 1, removed: 1, changed: 1, moved: 1 });
    expect(body.stats.words).toEqual({ added: 13, removed: 12, changed: 1 });
    expect(body.similarity).toBeGreaterThan(0.85);
    expect(body.similarity).toBeLessThan(0.95);
    expect(body.identical).toBe(false);
  });

  test("the same text as PDF and as DOCX compares equal block by block", async () => {
    const { status, body } = await diff(server, key, { file_a: file("contract_v1.pdf"), file_b: file("contract_v1.docx") });
    expect(status).toBe(200);
    expect(body.document_a).toMatchObject({ content_type: "application/pdf", total_pages: 1 });
    expect(body.blocks.filter((b: any) => b.op !== "equal")).toEqual([]);
    expect(body.blocks).toHaveLength(14);
    expect(body.similarity).toBe(1);
  });

  test("a table with one changed cell: one replace of that row, with the cell's word change", async () => {
    const { status, body } = await diff(server, key, { file_a: file("prices_v1.docx"), file_b: file("prices_v2.docx") });
    expect(status).toBe(200);
    const changed = body.blocks.filter((b: any) => b.op !== "equal");
    expect(changed).toEqual([
      {
        op: "replace",
        kind: "table_row",
        a_index: 4,
        b_index: 4,
        a: "| Gadgets | 7 | 12.00 |",
        b: "| Gadgets | 7 | 13.50 |",
        a_cells: ["Gadgets", "7", "12.00"],
        b_cells: ["Gadgets", "7", "13.50"],
        words: [
          { op: "equal", text: "| Gadgets | 7 | " },
          { op: "replace", a: "12.00", b: "13.50" },
          { op: "equal", text: " |" },
        ],
      },
    ]);
    expect(body.blocks.filter((b: any) => b.kind === "table_row")).toHaveLength(4);
    expect(body.stats.words).toEqual({ added: 0, removed: 0, changed: 1 });
  });

  test("granularity=block: the same alignment without word runs", async () => {
    const { body } = await diff(server, key, { file_a: file("contract_v1.docx"), file_b: file("contract_v2.docx"), granularity: "block" });
    expect(body.granularity).toBe("block");
    expect(body.blocks[7]).toMatchObject({ op: "replace", a_index: 6, b_index: 7 });
    expect(body.blocks.some((b: any) => "words" in b)).toBe(false);
  });

  test("format=markdown answers the diff as text/markdown with the facts in headers", async () => {
    const { status, text, headers } = await diff(server, key, { file_a: file("contract_v1.docx"), file_b: file("contract_v2.docx"), format: "markdown" });
    expect(status).toBe(200);
    expect(headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(headers.get("x-similarity")).toMatch(/^0\.9\d*$/);
    expect(headers.get("x-blocks-changed")).toBe("1");
    expect(headers.get("x-blocks-moved")).toBe("1");
    expect(headers.get("x-credits-used")).toBe("1");
    expect(text).toContain("The Customer shall pay a monthly fee of USD ~~4,500~~ **4,950** within 30 days of the invoice date.");
    expect(text).toContain("**The Supplier shall keep a stock of spare parts at the Customer's site.**");
    expect(text).toContain("~~Either party may end this agreement with sixty days of written notice.~~");
    expect(text).toContain("Late payments carry interest of 1% per month on the amount due. *(moved)*");
  });

  test("format=html answers a self-contained page; with Accept: application/json the JSON carries it", async () => {
    const page = await diff(server, key, { file_a: file("prices_v1.docx"), file_b: file("prices_v2.docx"), format: "html" });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.text.startsWith("<!doctype html>")).toBe(true);
    expect(page.text).toContain("<tr><td>Gadgets</td><td>7</td><td><del>12.00</del> <ins>13.50</ins></td></tr>");
    expect(page.text).toContain("prices_v1.docx → prices_v2.docx");

    const json = await diff(server, key, { file_a: file("prices_v1.docx"), file_b: file("prices_v2.docx"), format: "html" }, { Accept: "application/json" });
    expect(json.status).toBe(200);
    expect(json.body.html).toBe(page.text);
    expect(json.body.blocks.filter((b: any) => b.op === "replace")).toHaveLength(1);
  });

  test("a document by URL against an upload (mixed inputs)", async () => {
    const { origin } = serve(() => new Response(readFileSync(join(FIXTURES, "contract_v2.docx")), { headers: { "content-type": DOCX_TYPE } }));
    const { status, body } = await diff(server, key, { file_a: file("contract_v1.docx"), url_b: `${origin}/contract_v2.docx` });
    expect(status).toBe(200);
    expect(body.stats.blocks).toEqual({ unchanged: 11, added: 1, removed: 1, changed: 1, moved: 1 });
    expect(body.document_b.filename).toBe(`${origin}/contract_v2.docx`);
  });

  test("one document missing: 400 naming the field", async () => {
    const { status, body } = await diff(server, key, { file_a: file("contract_v1.docx") });
    expect(status).toBe(400);
    expect(body).toMatchObject({ success: false, error: "missing_input" });
    expect(body.detail).toContain("file_b");
  });

  test("an unreadable document: 400 naming its field, and nothing is charged", async () => {
    const before = chargesOf(server);
    const corrupt = new File([new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 8, 0, ...new TextEncoder().encode("word/document.xml truncated")])], "broken.docx");
    const { status, body } = await diff(server, key, { file_a: file("contract_v1.docx"), file_b: corrupt });
    expect(status).toBe(400);
    expect(body).toMatchObject({ success: false, error: "unreadable_document" });
    expect(body.detail.startsWith("file_b: ")).toBe(true);
    expect(chargesOf(server)).toBe(before);
  });

  test("annotate=true without an AI provider: 503 ai_unavailable naming GROQ_API_KEY", async () => {
    const { status, body } = await diff(server, key, { file_a: file("contract_v1.docx"), file_b: file("contract_v2.docx"), annotate: "true" });
    expect(status).toBe(503);
    expect(body.error).toBe("ai_unavailable");
    expect(body.detail).toContain("GROQ_API_KEY");
  });

  test("sync=false runs the diff as a task whose result is the JSON the sync call returns", async () => {
    const sync = await diff(server, key, { file_a: file("contract_v1.docx"), file_b: file("contract_v2.docx"), format: "markdown" }, { Accept: "application/json" });
    const accepted = await diff(server, key, { file_a: file("contract_v1.docx"), file_b: file("contract_v2.docx"), format: "markdown", sync: "false" });
    expect(accepted.status).toBe(202);
    const task = await pollTask(server, key, accepted.body.task_id);
    expect(task.status).toBe("completed");
    expect(task.result.blocks).toEqual(sync.body.blocks);
    expect(task.result.markdown).toBe(sync.body.markdown);
    expect(task.credits_used).toBe(1);
  }, 60_000);

  test("an unknown format is a 422 validation error", async () => {
    const { status, body } = await diff(server, key, { file_a: file("contract_v1.docx"), file_b: file("contract_v2.docx"), format: "pdf" });
    expect(status).toBe(422);
    expect(body.detail[0].loc).toEqual(["body", "format"]);
  });
});

describe("annotate=true with the AI provider (our Groq-protocol server)", () => {
  let groq: GroqServer;
  let server: TestServer;
  let key: string;
  withGroqProvider({}, (served) => ({ groq, server, key } = served));

  test("the summary and each changed block's significance come back on the blocks", async () => {
    groq.reply(
      "chat",
      chatReply(
        JSON.stringify({
          summary: "The monthly fee rises from USD 4,500 to USD 4,950; a spare parts duty is added and the notice clause is removed.",
          changes: [
            { id: 5, significance: "material", reason: "adds an obligation of the Supplier" },
            { id: 7, significance: "material", reason: "the monthly fee changes from 4,500 to 4,950" },
            { id: 10, significance: "structural", reason: "the clause moved to the Term section" },
            { id: 13, significance: "material", reason: "the right to end the agreement is removed" },
            { id: 99, significance: "wording", reason: "not a listed change" },
          ],
        }),
      ),
    );
    const { status, body } = await diff(server, key, { file_a: file("contract_v1.docx"), file_b: file("contract_v2.docx"), annotate: "true" });
    expect(status).toBe(200);
    expect(body.annotations).toEqual({
      summary: "The monthly fee rises from USD 4,500 to USD 4,950; a spare parts duty is added and the notice clause is removed.",
      model: "llama-3.3-70b-versatile",
      changes_annotated: 4,
      changes_total: 4,
    });
    expect(body.blocks[7]).toMatchObject({ op: "replace", significance: "material", significance_reason: "the monthly fee changes from 4,500 to 4,950" });
    expect(body.blocks[10]).toMatchObject({ op: "move", significance: "structural" });
    expect(body.blocks[0].significance).toBeUndefined();
    expect(body.credits_used).toBe(1);

    const sent = groq.requests.at(-1)!.json;
    expect(sent.model).toBe("llama-3.3-70b-versatile");
    expect(sent.response_format.type).toBe("json_schema");
    expect(sent.response_format.json_schema.strict).toBe(true);
    const prompt = JSON.stringify(sent.messages);
    expect(prompt).toContain('changed words: \\"4,500\\" -> \\"4,950\\"');
    expect(prompt).toContain("id 10: move");
    expect(prompt).not.toContain("id 0:");
  });

  test("identical documents are not sent to the model", async () => {
    const before = groq.requests.length;
    const { status, body } = await diff(server, key, { file_a: file("prices_v1.docx"), file_b: file("prices_v1.docx"), annotate: "true" });
    expect(status).toBe(200);
    expect(body.annotations).toMatchObject({ model: "", changes_total: 0 });
    expect(groq.requests.length).toBe(before);
  });

  test("an answer that is not the schema twice gives 502 provider_error, and nothing is charged", async () => {
    const before = chargesOf(server);
    groq.reply("chat", chatReply("not json"), chatReply(JSON.stringify({ verdict: "changed" })));
    const { status, body } = await diff(server, key, { file_a: file("prices_v1.docx"), file_b: file("prices_v2.docx"), annotate: "true" });
    expect(status).toBe(502);
    expect(body.error).toBe("provider_error");
    expect(chargesOf(server)).toBe(before);
  });
});
