/**
 * POST /api/v1/analyze, /api/v1/analyze/cross and /api/v1/decide over HTTP against the real server,
 * with the AI provider played by our Groq-protocol server: the tool loop (real tools: search over
 * the converted PDF, regex_search in the worker pool, compute in the Python sandbox), the final
 * structured answer, source checking, budgets, credits, and the provider's failures.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { api, form, pollTask, type TestServer, withServer } from "./helpers/server";
import { chatReply, withGroqProvider, type GroqServer } from "./helpers/groqServer";

const FIXTURES = join(import.meta.dir, "fixtures");
const receipt = () => new File([readFileSync(join(FIXTURES, "RECEIPT-2024-TXN-98765_retail_purchase.pdf"))], "receipt.pdf");
const note = () => new File(["Refund note\n\nThe customer returned the Portable SSD 2TB.\nRefund amount: $260.00\n"], "refund.txt", { type: "text/plain" });
const TOOL_NAMES = ["search", "read_pages", "regex_search", "compute", "extract_table", "view_page_image"];

const chargeCount = (server: TestServer) => server.store().db.query<{ n: number }, []>("SELECT count(*) AS n FROM credit_ledger WHERE kind = 'charge'").get()!.n;

const post = (server: TestServer, key: string, path: string, fields: Record<string, string | Blob | Blob[]>) => api(server, key, "POST", path, form(fields));

/** final is the agent's last, structured answer: one object per field. */
const final = (fields: Record<string, { value: unknown; confidence: number; reasoning: string; sources: string[]; steps: number[] }>) => chatReply(JSON.stringify(fields));

describe("without an AI provider", () => {
  let server: TestServer;
  let key: string;
  withServer({}, (served) => ({ server, key } = served));

  test("analyze, cross-analyze and decide answer 503 ai_unavailable naming GROQ_API_KEY, and charge nothing", async () => {
    const schema = JSON.stringify({ total: { type: "number", description: "total" } });
    const calls = [
      post(server, key, "/api/v1/analyze", { schema, file: receipt() }),
      post(server, key, "/api/v1/analyze/cross", { schema, files: [receipt(), note()] }),
      post(server, key, "/api/v1/decide", { schema, instructions: "decide", context: JSON.stringify("the total is 5") }),
    ];
    for (const { status, body } of await Promise.all(calls)) {
      expect(status).toBe(503);
      expect(body).toMatchObject({ success: false, error: "ai_unavailable" });
      expect(body.detail).toContain("GROQ_API_KEY");
    }
    expect(chargeCount(server)).toBe(0);
  });

  test("the spec's limits for cross-analyze and decide are checked first, each with a 400 that names it", async () => {
    const fields = (n: number) => JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}`, { type: "string" }])));
    const blocks = (n: number, size = 10) => JSON.stringify(Array.from({ length: n }, (_, i) => ({ label: `b${i}`, content: "x".repeat(size) })));
    const cases: Array<[string, Record<string, string | Blob | Blob[]>, string, string]> = [
      ["/api/v1/analyze/cross", { schema: fields(11), files: [note(), note()] }, "invalid_schema", "10"],
      ["/api/v1/analyze/cross", { schema: fields(1), files: [note(), note(), note(), note()], urls: JSON.stringify(["https://a.example/1.pdf", "https://a.example/2.pdf"]) }, "bad_request", "2 to 5"],
      ["/api/v1/decide", { instructions: "x", schema: fields(11), context: JSON.stringify("c") }, "invalid_schema", "10"],
      ["/api/v1/decide", { instructions: "x", schema: fields(1), context: blocks(51) }, "bad_request", "at most 50 blocks"],
      ["/api/v1/decide", { instructions: "x", schema: fields(1), context: blocks(2, 100_001) }, "bad_request", "at most 200000 characters"],
      ["/api/v1/decide", { instructions: "x", schema: fields(1) }, "missing_input", "'context'"],
    ];
    for (const [path, fieldsOf, error, mention] of cases) {
      const { status, body } = await post(server, key, path, fieldsOf);
      expect([path, status, body.error]).toEqual([path, 400, error]);
      expect(body.detail).toContain(mention);
    }
  });
});

describe("with the AI provider (our Groq-protocol server)", () => {
  let groq: GroqServer;
  let server: TestServer;
  let key: string;
  withGroqProvider({ args: ["--compute-timeout-ms", "1500"] }, (served) => ({ groq, server, key } = served));

  test("analyze: the agent's tools run for real, the final answer is typed, sources are checked, steps are traced", async () => {
    const start = groq.requests.length;
    groq.reply(
      "chat",
      chatReply(null, [
        { name: "search", arguments: { query: "total amount" } },
        { name: "regex_search", arguments: { pattern: "TXN-(\\d+)-(\\d+)" } },
      ]),
      chatReply(null, [{ name: "compute", arguments: { code: "subtotal = 863.91\ntotal = 821.14\nprint(round(subtotal - total, 2))" } }]),
      chatReply("The savings are 42.77 (subtotal minus total)."),
      final({
        savings: { value: "42.77", confidence: 0.97, reasoning: "863.91 - 821.14 = 42.77, computed", sources: ["SUBTOTAL $863.91", "TOTAL $821.14", "Grand total was $9,999"], steps: [3] },
        transaction_year: { value: 2024, confidence: 0.9, reasoning: "the TXN id ends in 2024", sources: ["TXN: TXN-98765-2024"], steps: [2] },
      }),
    );
    const schema = JSON.stringify({
      savings: { type: "number", description: "subtotal minus total paid", required: true },
      transaction_year: { type: "integer", description: "year in the transaction id" },
    });
    const { status, body } = await post(server, key, "/api/v1/analyze", { schema, file: receipt(), include_steps: "true" });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      success: true,
      data: { savings: 42.77, transaction_year: 2024 },
      filename: "receipt.pdf",
      content_type: "application/pdf",
      total_pages: 1,
      schema_format: "typed",
      model_used: "llama-3.3-70b-versatile",
      credits_used: 5,
    });
    expect(body.confidence.savings).toBe(0.97);
    expect(body.sources.savings).toEqual(["SUBTOTAL $863.91", "TOTAL $821.14"]); // the invented quote is dropped
    expect(body.reasoning.transaction_year).toContain("2024");
    expect(body.steps.savings.map((s: any) => s.tool)).toEqual(["compute"]);
    expect(body.steps.savings[0].result).toContain("42.77"); // real Python ran
    expect(body.steps.transaction_year[0]).toMatchObject({ tool: "regex_search", step: 2 });
    expect(body.steps.transaction_year[0].result).toContain("TXN-98765-2024");

    const sent = groq.requests.slice(start);
    expect(sent).toHaveLength(4);
    expect(sent[0]!.json.tools.map((t: any) => t.function.name)).toEqual(TOOL_NAMES);
    expect(sent[0]!.json.response_format).toBeUndefined();
    const toolMessages = sent[1]!.json.messages.filter((m: any) => m.role === "tool");
    expect(toolMessages[0].content).toContain("TOTAL $821.14"); // search found the passage
    expect(toolMessages[0].content).toContain("page 1");
    expect(sent[3]!.json.response_format.type).toBe("json_schema");
    expect(sent[3]!.json.tools).toBeUndefined();
  }, 120_000); // the first compute may wait for the interpreter's cold start (25-40 s on a loaded 2-core machine)

  test("analyze without include_steps gives empty steps; a value with no checked source and no computation is capped at 0.59", async () => {
    groq.reply(
      "chat",
      chatReply("Looked at the text."),
      final({ cashier: { value: "Emily Rodriguez", confidence: 0.99, reasoning: "stated", sources: ["The cashier was Emily"], steps: [] } }),
    );
    const { status, body } = await post(server, key, "/api/v1/analyze", { schema: JSON.stringify({ cashier: { type: "string", description: "cashier name" } }), file: receipt() });
    expect(status).toBe(200);
    expect(body.steps).toEqual({});
    expect(body.sources.cashier).toEqual([]);
    expect(body.confidence.cashier).toBe(0.59);
  });

  test("a runaway compute and a catastrophic regex are stopped; the request still answers", async () => {
    groq.reply(
      "chat",
      chatReply(null, [
        { name: "compute", arguments: { code: "while True:\n    pass" } },
        { name: "regex_search", arguments: { pattern: "(a*)*c" } }, // exponential backtracking in JavaScriptCore
      ]),
      chatReply(null, [{ name: "compute", arguments: { code: "6 * 7" } }]),
      chatReply("done"),
      final({ answer: { value: 42, confidence: 0.95, reasoning: "6 * 7", sources: [], steps: [3] } }),
    );
    const { status, body } = await post(server, key, "/api/v1/analyze", {
      schema: JSON.stringify({ answer: { type: "integer", description: "the answer" } }),
      file: new File([`${"a".repeat(40)}b\n`], "as.txt", { type: "text/plain" }),
      include_steps: "true",
    });
    expect(status).toBe(200);
    expect(body.data.answer).toBe(42);
    const trace = body.steps.answer as any[];
    expect(trace.map((s) => s.tool)).toEqual(["compute"]);
    expect(trace[0].result).toContain("42"); // the sandbox is warm again after the runaway run
    const sent = groq.requests.at(-2)!.json.messages.filter((m: any) => m.role === "tool");
    expect(sent[0].content).toMatch(/timeout/);
    expect(sent[1].content).toMatch(/stopped/);
  }, 30_000);

  test("two requests never share a Python interpreter: what one request's compute planted, the next does not find", async () => {
    const schema = JSON.stringify({ answer: { type: "string", description: "what compute printed" } });
    const computeOnce = async (code: string) => {
      groq.reply(
        "chat",
        chatReply(null, [{ name: "compute", arguments: { code } }]),
        chatReply("done"),
        final({ answer: { value: "done", confidence: 0.9, reasoning: "ran", sources: [], steps: [1] } }),
      );
      const { status, body } = await post(server, key, "/api/v1/analyze", { schema, file: note(), include_steps: "true" });
      expect(status).toBe(200);
      return JSON.parse(body.steps.answer[0].result);
    };
    // Request 1 (another key's customer in real life) replaces the driver's _execute with a logger,
    // removes the import blocker and leaves a global behind.
    const planted = await computeOnce(`import __main__, builtins, sys
captured = []
original = __main__._execute
def spy(code, namespace):
    captured.append(code)
    return original(code, namespace)
__main__._execute = spy
builtins._captured_runs = captured
sys.meta_path[:] = [f for f in sys.meta_path if type(f).__name__ != '_SandboxImportBlocker']
'planted'`);
    expect(planted).toMatchObject({ ok: true, result: "'planted'" });
    // Request 2 computes with its own secret and looks for what request 1 left.
    const second = await computeOnce(`import __main__, builtins
secret = 'iban DE89370400440532013000'
try:
    import pyodide_js
    blocker = 'gone'
except ImportError as exc:
    blocker = str(exc)
print(repr(getattr(builtins, '_captured_runs', None)), __main__._execute.__name__, blocker)`);
    expect(second).toMatchObject({ ok: true, stdout: "None _execute module 'pyodide_js' is not available in the sandbox\n" });
  }, 240_000); // each request takes a fresh interpreter: up to a cold start each on a loaded machine

  test("an answer with no value for any field is 400 empty_document and is not charged", async () => {
    const before = chargeCount(server);
    groq.reply("chat", chatReply("Nothing found."), final({ vin: { value: null, confidence: 0, reasoning: "no vehicle in a receipt", sources: [], steps: [] } }));
    const { status, body } = await post(server, key, "/api/v1/analyze", { schema: JSON.stringify({ vin: { type: "string", description: "vehicle VIN" } }), file: receipt() });
    expect(status).toBe(400);
    expect(body.error).toBe("empty_document");
    expect(body.detail).toContain("no vehicle");
    expect(chargeCount(server)).toBe(before);
  });

  test("cross-analyze: labelled documents, tools take a label, sources carry [label], combined pages and credits", async () => {
    const start = groq.requests.length;
    groq.reply(
      "chat",
      chatReply(null, [{ name: "read_pages", arguments: { pages: "1", document: "refund" } }]),
      chatReply("The refund equals the SSD line."),
      final({
        refund_matches: { value: true, confidence: 0.93, reasoning: "[refund] says $260.00; [receipt] SSD line is $260.00", sources: ["[refund] Refund amount: $260.00", "Portable SSD 2TB"], steps: [1] },
      }),
    );
    const { status, body } = await post(server, key, "/api/v1/analyze/cross", {
      schema: JSON.stringify({ refund_matches: { type: "boolean", description: "does the refund equal the SSD price paid?" } }),
      files: [receipt(), note()],
      document_labels: JSON.stringify(["receipt", "refund"]),
    });
    expect(status).toBe(200);
    expect(body.data.refund_matches).toBe(true);
    expect(body.sources.refund_matches).toEqual(["[refund] Refund amount: $260.00", "[receipt] Portable SSD 2TB"]);
    expect(body.documents).toEqual([
      { label: "receipt", filename: "receipt.pdf", content_type: "application/pdf", total_pages: 1, text_length: expect.any(Number) },
      { label: "refund", filename: "refund.txt", content_type: "text/plain", total_pages: 0, text_length: expect.any(Number) },
    ]);
    expect(body.total_pages).toBe(1);
    expect(body.credits_used).toBe(16); // 5 per document + 3 per page (a text file counts as one page)
    const first = groq.requests[start]!.json;
    expect(first.tools.find((t: any) => t.function.name === "search").function.parameters.properties.document.enum).toEqual(["receipt", "refund"]);
    const toolResult = groq.requests[start + 1]!.json.messages.find((m: any) => m.role === "tool").content;
    expect(toolResult).toContain("[refund] part 1");
    expect(toolResult).toContain("Refund amount: $260.00");
  });

  test("cross-analyze takes 2 to 5 documents", async () => {
    const { status, body } = await post(server, key, "/api/v1/analyze/cross", { schema: JSON.stringify({ a: { type: "string" } }), files: [note()] });
    expect(status).toBe(400);
    expect(body.detail).toContain("2 to 5");
  });

  test("decide with context only is one call, a real decision, 5 credits", async () => {
    const start = groq.requests.length;
    groq.reply(
      "chat",
      chatReply(
        JSON.stringify({
          decision: { approve: true, tier: "gold" },
          confidence: { approve: 0.9, tier: 0.8 },
          reasoning: "Spend over $500 qualifies for gold; the policy approves upgrades for gold.",
          sources: ["annual spend: $821.14", "not in any block"],
        }),
      ),
    );
    const { status, body } = await post(server, key, "/api/v1/decide", {
      instructions: "Decide whether to approve the member upgrade and which tier applies.",
      schema: JSON.stringify({ approve: { type: "boolean" }, tier: { type: "string", enum: ["silver", "gold"] } }),
      context: JSON.stringify([
        { label: "customer", content: "annual spend: $821.14" },
        { label: "policy", content: "Gold tier from $500 annual spend; gold members are approved." },
      ]),
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ success: true, data: { approve: true, tier: "gold" }, confidence: { approve: 0.9, tier: 0.8 }, credits_used: 5, schema_format: "typed" });
    expect(body.reasoning).toContain("gold");
    expect(body.sources).toEqual(["[customer] annual spend: $821.14"]);
    expect(body.steps).toBeUndefined();
    const sent = groq.requests.slice(start);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.json.response_format.json_schema.schema.properties.decision.properties.approve.type).toBe("boolean"); // not nullable
    expect(JSON.stringify(sent[0]!.json.messages)).toContain("Gold tier from $500");
  });

  test("decide never answers 200 without a decision: a null answer is asked again, twice is 502", async () => {
    const empty = chatReply(JSON.stringify({ decision: { approve: null }, confidence: { approve: 0 }, reasoning: "unsure", sources: [] }));
    groq.reply("chat", empty, empty);
    const { status, body } = await post(server, key, "/api/v1/decide", {
      instructions: "Approve?",
      schema: JSON.stringify({ approve: { type: "boolean" } }),
      context: JSON.stringify("nothing useful"),
    });
    expect(status).toBe(502);
    expect(body.error).toBe("provider_error");
    expect(body.detail).toContain("not a complete decision");
  });

  test("decide with a document may use tools and reports them with include_steps; a rate-limited provider gives 503 Retry-After", async () => {
    groq.reply(
      "chat",
      chatReply(null, [{ name: "extract_table", arguments: {} }]),
      chatReply("No tables; the receipt total is $821.14."),
      chatReply(JSON.stringify({ decision: { reimburse: true }, confidence: { reimburse: 0.85 }, reasoning: "Under the $1000 limit.", sources: ["TOTAL $821.14"] })),
    );
    const ok = await post(server, key, "/api/v1/decide", {
      instructions: "Reimburse purchases under $1000.",
      schema: JSON.stringify({ reimburse: { type: "boolean" } }),
      file: receipt(),
      include_steps: "true",
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toEqual({ reimburse: true });
    expect(ok.body.steps.map((s: any) => s.tool)).toEqual(["extract_table"]);
    expect(ok.body.sources).toEqual(["TOTAL $821.14"]);
    expect(ok.body.credits_used).toBe(5);

    const limited = { status: 429, json: { error: { message: "rate limited" } }, headers: { "retry-after": "30" } };
    groq.reply("chat", limited);
    const busy = await post(server, key, "/api/v1/decide", { instructions: "x", schema: JSON.stringify({ a: { type: "boolean" } }), context: JSON.stringify("y") });
    expect(busy.status).toBe(503);
    expect(busy.body.error).toBe("ai_unavailable");
    expect(busy.headers.get("retry-after")).toBe("30");
  });
});

describe("sync=false: analyze, cross-analyze and decide run as tasks", () => {
  let groq: GroqServer;
  let server: TestServer;
  let key: string;
  withGroqProvider({}, (served) => ({ groq, server, key } = served));

  test("analyze with sync=false answers 202 and the task's result is the sync result", async () => {
    groq.reply("chat", chatReply("Read it."), final({ amount: { value: 260, confidence: 0.95, reasoning: "stated", sources: ["Refund amount: $260.00"], steps: [] } }));
    const accepted = await post(server, key, "/api/v1/analyze", { schema: JSON.stringify({ amount: { type: "number" } }), file: note(), sync: "false" });
    expect(accepted.status).toBe(202);
    expect(accepted.body).toMatchObject({ status: "pending", poll_url: `/api/v1/jobs/${accepted.body.task_id}` });
    const task = await pollTask(server, key, accepted.body.task_id);
    expect(task.status).toBe("completed");
    expect(task.result).toMatchObject({ success: true, data: { amount: 260 }, sources: { amount: ["Refund amount: $260.00"] }, filename: "refund.txt", credits_used: 5 });
    expect(task.credits_used).toBe(5);
  });

  test("cross-analyze and decide with sync=false complete as tasks; labels and uploaded files survive the task store", async () => {
    groq.reply("chat", chatReply("Compared."), final({ same: { value: true, confidence: 0.9, reasoning: "both say $260.00", sources: ["[b] Refund amount: $260.00"], steps: [] } }));
    const cross = await post(server, key, "/api/v1/analyze/cross", { schema: JSON.stringify({ same: { type: "boolean" } }), files: [note(), note()], document_labels: JSON.stringify(["a", "b"]), sync: "false" });
    expect(cross.status).toBe(202);
    const crossTask = await pollTask(server, key, cross.body.task_id);
    expect(crossTask.status).toBe("completed");
    expect(crossTask.result.documents.map((d: any) => d.label)).toEqual(["a", "b"]);
    expect(crossTask.result.sources.same).toEqual(["[b] Refund amount: $260.00"]);

    groq.reply("chat", chatReply(JSON.stringify({ decision: { refund: false }, confidence: { refund: 0.7 }, reasoning: "Policy says no refunds after 30 days.", sources: ["no refunds after 30 days"] })));
    const decision = await post(server, key, "/api/v1/decide", { instructions: "Refund?", schema: JSON.stringify({ refund: { type: "boolean" } }), context: JSON.stringify([{ label: "policy", content: "There are no refunds after 30 days." }]), sync: "false" });
    expect(decision.status).toBe(202);
    const decideTask = await pollTask(server, key, decision.body.task_id);
    expect(decideTask.status).toBe("completed");
    expect(decideTask.result).toMatchObject({ success: true, data: { refund: false }, credits_used: 5, sources: ["no refunds after 30 days"] });
  });

  test("analyze/batch answers 202 with a batch_id; its item runs as a task of the batch with the sync result", async () => {
    groq.reply("chat", chatReply("Read it."), final({ amount: { value: 260, confidence: 0.95, reasoning: "stated", sources: ["Refund amount: $260.00"], steps: [] } }));
    const accepted = await post(server, key, "/api/v1/analyze/batch", { schema: JSON.stringify({ amount: { type: "number" } }), files: [note()] });
    expect(accepted.status).toBe(202);
    expect(accepted.body).toEqual({ batch_id: expect.stringMatching(/^batch_[a-f0-9]+$/), status: "pending", item_count: 1, poll_url: `/api/v1/jobs/batch/${accepted.body.batch_id}` });
    const batch = (await api(server, key, "GET", accepted.body.poll_url)).body;
    expect(batch.operation).toBe("analyze");
    const task = await pollTask(server, key, batch.items[0].task_id);
    expect(task).toMatchObject({ status: "completed", batch_id: accepted.body.batch_id, credits_used: 5 });
    expect(task.result).toMatchObject({ success: true, data: { amount: 260 }, filename: "refund.txt" });
  });

  test("a task whose provider fails ends failed with the error, not charged", async () => {
    groq.reply("chat", { status: 400, json: { error: { message: "model does not support tools" } } });
    const accepted = await post(server, key, "/api/v1/analyze", { schema: JSON.stringify({ amount: { type: "number" } }), file: note(), sync: "false" });
    const task = await pollTask(server, key, accepted.body.task_id);
    expect(task.status).toBe("failed");
    expect(task.error.error).toBe("provider_error");
    expect(task.error.detail).toContain("model does not support tools");
    expect(task.credits_used).toBe(0);
  });
});

describe("agent budgets and the vision tool", () => {
  let groq: GroqServer;
  let server: TestServer;
  let key: string;
  withGroqProvider({}, (served) => ({ groq, server, key } = served));

  test("view_page_image sends the rendered PDF page to the vision model and hands its answer back", async () => {
    const start = groq.requests.length;
    groq.reply(
      "chat",
      chatReply(null, [{ name: "view_page_image", arguments: { page: 1, question: "Which store logo is printed at the top?" } }]),
      chatReply("The top of the page reads TECHMART ELECTRONICS."),
      chatReply("The store is TechMart."),
      final({ store: { value: "TECHMART ELECTRONICS", confidence: 0.96, reasoning: "seen on the page image", sources: ["TECHMART ELECTRONICS"], steps: [1] } }),
    );
    const { status, body } = await post(server, key, "/api/v1/analyze", { schema: JSON.stringify({ store: { type: "string", description: "store name" } }), file: receipt(), include_steps: "true" });
    expect(status).toBe(200);
    expect(body.data.store).toBe("TECHMART ELECTRONICS");
    const vision = groq.requests[start + 1]!.json;
    expect(vision.model).toBe("meta-llama/llama-4-scout-17b-16e-instruct");
    const image = vision.messages[0].content.find((c: any) => c.type === "image_url").image_url.url as string;
    expect(image.startsWith("data:image/jpeg;base64,")).toBe(true);
    expect(Buffer.from(image.slice(23), "base64").subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect(body.steps.store[0].result).toContain("TECHMART ELECTRONICS");
  });

  test("view_page_image is not offered for a document that is not a PDF", async () => {
    const start = groq.requests.length;
    groq.reply("chat", chatReply("Read it."), final({ amount: { value: 260, confidence: 0.95, reasoning: "stated", sources: ["Refund amount: $260.00"], steps: [] } }));
    const { status } = await post(server, key, "/api/v1/analyze", { schema: JSON.stringify({ amount: { type: "number" } }), file: note() });
    expect(status).toBe(200);
    expect(groq.requests[start]!.json.tools.map((t: any) => t.function.name)).toEqual(TOOL_NAMES.slice(0, 5));
  });

  test("the step budget ends the loop; the final answer is still asked for and a warning says why", async () => {
    const calls = Array.from({ length: 13 }, (_, i) => ({ name: "search", arguments: { query: `refund ${i}` } }));
    groq.reply("chat", chatReply(null, calls), final({ amount: { value: 260, confidence: 0.95, reasoning: "stated", sources: ["Refund amount: $260.00"], steps: [1] } }));
    const { status, body } = await post(server, key, "/api/v1/analyze", { schema: JSON.stringify({ amount: { type: "number" } }), file: note(), include_steps: "true" });
    expect(status).toBe(200);
    expect(body.data.amount).toBe(260);
    expect(body.warnings.join(" ")).toContain("step budget (12 tool calls)");
    const last = groq.requests.at(-1)!.json;
    expect(last.messages.filter((m: any) => m.role === "tool")).toHaveLength(12);
    expect(last.response_format.type).toBe("json_schema");
  });
});
