/**
 * Extraction through the AI provider, against the fake Groq server (the real protocol through
 * groq-sdk): the response schema built from a typed schema, the request the provider receives,
 * grounding and the composite confidence, token probabilities, model=auto, retries and bad answers,
 * coercion of the provider's values, and the quality-signal math.
 */
import { describe, expect, test } from "bun:test";
import { createGroqClient } from "../src/ai/groq";
import { coerceToSchema, extractionJsonSchema } from "../src/ai/jsonSchema";
import { DEFAULT_MODELS, type ModelNames } from "../src/ai/models";
import { AppError } from "../src/errors";
import { compositeConfidence, groundingOf, qualitySignals } from "../src/extract/confidence";
import { extractWithProvider, fieldTokenProbabilities, truncateText, valueSpans, type ProviderExtractionInput } from "../src/extract/provider";
import { parseTypedSchema } from "../src/schema/typed";
import { chatReply, groqPerTest, type GroqReply } from "./helpers/groqServer";

const MODELS: ModelNames = { fast: "fast-test-model", accurate: "accurate-test-model", vision: "vision-test-model" };

const INVOICE_TEXT = [
  "ACME CORP",
  "Invoice INV-2024-001",
  "Date: March 5, 2024",
  "Bill to: Globex Ltd",
  "Widget x2      $200.00",
  "Service fee    $1,034.50",
  "Total: $1,234.50",
  "Paid: yes",
].join("\n");

const INVOICE_SCHEMA = parseTypedSchema({
  vendor: { type: "string", description: "Seller's company name", required: true },
  total: { type: "number", description: "Invoice total", required: true },
  date: { type: "string", description: "Invoice date, ISO 8601" },
});

const fake = groqPerTest("gsk_test_key_0123456789", 10000);
const client = () => fake.client();

function extract(overrides: Partial<ProviderExtractionInput> = {}) {
  return extractWithProvider({
    client: client(),
    models: MODELS,
    schema: INVOICE_SCHEMA,
    text: INVOICE_TEXT,
    model: "fast",
    ocrQuality: null,
    method: "text",
    signal: AbortSignal.timeout(30_000),
    ...overrides,
  });
}

type FieldAnswer = { value: unknown; quote: string | null; confidence: number };

/** answer is the JSON text a model sends back for the extraction schema. */
function answer(fields: Record<string, FieldAnswer>): string {
  return JSON.stringify(fields);
}

const GOOD_INVOICE: Record<string, FieldAnswer> = {
  vendor: { value: "ACME CORP", quote: "ACME CORP", confidence: 0.95 },
  total: { value: 1234.5, quote: "Total: $1,234.50", confidence: 0.95 },
  date: { value: "2024-03-05", quote: "Date: March 5, 2024", confidence: 0.9 },
};

/** withLogprobs attaches logprobs.content to a chat reply, as a provider that supports them does. */
function withLogprobs(reply: GroqReply, tokens: Array<{ token: string; logprob: number }>): GroqReply {
  (reply.json as any).choices[0].logprobs = { content: tokens.map((t) => ({ ...t, bytes: null, top_logprobs: [] })) };
  return reply;
}

/** tokenized spells `parts` as tokens of at most 4 characters, each part's tokens with the part's probability. */
function tokenized(parts: Array<[string, number]>): { content: string; tokens: Array<{ token: string; logprob: number }>; counts: number[] } {
  const tokens: Array<{ token: string; logprob: number }> = [];
  const counts: number[] = [];
  for (const [text, probability] of parts) {
    let n = 0;
    for (let i = 0; i < text.length; i += 4) {
      tokens.push({ token: text.slice(i, i + 4), logprob: Math.log(probability) });
      n++;
    }
    counts.push(n);
  }
  return { content: parts.map(([text]) => text).join(""), tokens, counts };
}

describe("extractionJsonSchema", () => {
  test("a nested schema maps to a strict schema of {value, quote, confidence} per field", () => {
    const schema = parseTypedSchema({
      status: { type: "string", enum: ["paid", "due"], required: true, description: "Payment status" },
      customer: { type: "object", properties: { name: { type: "string" }, vip: { type: "boolean" } } },
      items: {
        type: "array",
        items: { type: "object", properties: { description: { type: "string" }, quantity: { type: "integer" }, price: { type: "number" } } },
      },
      tags: { type: "array", items: { type: "string" } },
    });
    const json = extractionJsonSchema(schema) as any;
    expect(json.type).toBe("object");
    expect(json.additionalProperties).toBe(false);
    expect(json.required).toEqual(["status", "customer", "items", "tags"]);

    const status = json.properties.status;
    expect(status.additionalProperties).toBe(false);
    expect(status.required).toEqual(["value", "quote", "confidence"]);
    expect(status.description).toContain("Payment status");
    expect(status.description).toContain("required");
    expect(status.properties.value).toEqual({ type: ["string", "null"], enum: ["paid", "due", null], description: "Payment status" });
    expect(status.properties.quote.type).toEqual(["string", "null"]);
    expect(status.properties.confidence.type).toBe("number");

    const customer = json.properties.customer.properties.value;
    expect(customer.type).toEqual(["object", "null"]);
    expect(customer.additionalProperties).toBe(false);
    expect(customer.required).toEqual(["name", "vip"]);
    expect(customer.properties.vip).toEqual({ type: ["boolean", "null"] });

    const items = json.properties.items.properties.value;
    expect(items.type).toEqual(["array", "null"]);
    expect(items.items.type).toEqual(["object", "null"]);
    expect(items.items.required).toEqual(["description", "quantity", "price"]);
    expect(items.items.additionalProperties).toBe(false);
    expect(items.items.properties.quantity).toEqual({ type: ["integer", "null"] });

    expect(json.properties.tags.properties.value).toEqual({ type: ["array", "null"], items: { type: ["string", "null"] } });
  });
});

describe("coerceToSchema", () => {
  test("numbers, booleans and enums are read from the provider's text", () => {
    expect(coerceToSchema("$1,234.50", { type: "number" })).toBe(1234.5);
    expect(coerceToSchema("1.234,50 EUR", { type: "number" })).toBe(1234.5);
    expect(coerceToSchema("(12.00)", { type: "number" })).toBe(-12);
    expect(coerceToSchema("-$5", { type: "number" })).toBe(-5);
    expect(coerceToSchema("15%", { type: "number" })).toBe(15);
    expect(coerceToSchema("3 items at 5", { type: "number" })).toBeNull();
    expect(coerceToSchema("1,234.00", { type: "integer" })).toBe(1234);
    expect(coerceToSchema(2.5, { type: "integer" })).toBeNull();
    expect(coerceToSchema("Yes", { type: "boolean" })).toBe(true);
    expect(coerceToSchema("no", { type: "boolean" })).toBe(false);
    expect(coerceToSchema("maybe", { type: "boolean" })).toBeNull();
    expect(coerceToSchema("PAID", { type: "string", enum: ["paid", "due"] })).toBe("paid");
    expect(coerceToSchema("Net 30", { type: "string", enum: ["net_30", "net_60"] })).toBe("net_30");
    expect(coerceToSchema("refunded", { type: "string", enum: ["paid", "due"] })).toBeNull();
    expect(coerceToSchema(42, { type: "string" })).toBe("42");
    expect(coerceToSchema({ a: 1 }, { type: "string" })).toBeNull();
  });

  test("arrays and objects are coerced member by member", () => {
    const items = { type: "array" as const, items: { type: "object" as const, properties: { name: { type: "string" as const }, price: { type: "number" as const } } } };
    expect(coerceToSchema([{ name: "Widget", price: "$2.50", extra: 1 }, "junk", { price: 3 }], items)).toEqual([
      { name: "Widget", price: 2.5 },
      { name: null, price: 3 },
    ]);
    expect(coerceToSchema("solo", { type: "array", items: { type: "string" } })).toEqual(["solo"]);
    expect(coerceToSchema('["a", "b"]', { type: "array", items: { type: "string" } })).toEqual(["a", "b"]);
    expect(coerceToSchema("not an object", { type: "object", properties: { a: { type: "string" } } })).toBeNull();
  });
});

describe("grounding and composite confidence", () => {
  test("values are found in the source by text, number and date", () => {
    expect(groundingOf(1234.5, null, INVOICE_TEXT).grounded).toBe(true);
    expect(groundingOf(1034.5, null, INVOICE_TEXT).grounded).toBe(true);
    expect(groundingOf(999, null, INVOICE_TEXT)).toEqual({ grounded: false, reason: "the number 999 does not appear in the document" });
    expect(groundingOf("acme corp", null, INVOICE_TEXT).grounded).toBe(true);
    expect(groundingOf("INV 2024 001", null, INVOICE_TEXT).grounded).toBe(true);
    expect(groundingOf("2024-03-05", null, INVOICE_TEXT).grounded).toBe(true);
    expect(groundingOf("2024-05-03", null, INVOICE_TEXT).grounded).toBe(false);
    expect(groundingOf("Initech", "Vendor: Initech", INVOICE_TEXT).grounded).toBe(false);
    expect(groundingOf(true, "Paid: yes", INVOICE_TEXT).grounded).toBe(true);
    expect(groundingOf(true, "Paid in full", INVOICE_TEXT).grounded).toBe(false);
    expect(groundingOf([{ name: "Widget", price: 200 }], null, INVOICE_TEXT).grounded).toBe(true);
    expect(groundingOf([{ name: "Gadget", price: 200 }], null, INVOICE_TEXT).grounded).toBe(false);
  });

  test("the composite is the method-weighted mean of available signals, capped below 0.6 when ungrounded", () => {
    expect(compositeConfidence({ selfReport: 0.9, tokenProbability: 0.5, ocrQuality: null, grounded: true, method: "text" })).toBeCloseTo(0.4 * 0.9 + 0.6 * 0.5, 6);
    expect(compositeConfidence({ selfReport: 0.9, tokenProbability: null, ocrQuality: null, grounded: true, method: "text" })).toBeCloseTo(0.9, 6);
    expect(compositeConfidence({ selfReport: 0.9, tokenProbability: 0.8, ocrQuality: 0.5, grounded: true, method: "ocr" })).toBeCloseTo(0.3 * 0.9 + 0.4 * 0.8 + 0.3 * 0.5, 6);
    expect(compositeConfidence({ selfReport: 1, tokenProbability: 1, ocrQuality: null, grounded: false, method: "text" })).toBeLessThan(0.6);
  });

  test("qualitySignals: ocr_quality, doc_quality and signal_disagreement as the spec defines them", () => {
    // [0.9, 0.8, 0.5]: mean 0.7333, 10th percentile 0.5 + 0.2 * (0.8 - 0.5) = 0.56
    const signals = qualitySignals({ pageOcrConfidences: [0.9, 0.8, 0.5], tokenProbabilities: [0.9, 0.4], selfReports: [0.95, 0.9] });
    expect(signals.ocr_quality).toBeCloseTo(0.7 * ((0.9 + 0.8 + 0.5) / 3) + 0.3 * 0.56, 3);
    expect(signals.doc_quality).toBeCloseTo(Math.sqrt(0.9 * 0.4), 3);
    expect(signals.signal_disagreement).toBeCloseTo((0.05 + 0.5) / 2, 3);
    expect(qualitySignals({ pageOcrConfidences: [], tokenProbabilities: [], selfReports: [0.9] })).toEqual({});
  });
});

describe("extractWithProvider", () => {
  test("the provider receives the model, the strict response format, the field descriptions and the text", async () => {
    fake.server.reply("chat", chatReply(answer(GOOD_INVOICE)));
    const result = await extract();
    expect(fake.server.requests).toHaveLength(1);
    const body = fake.server.requests[0]!.json;
    expect(body.model).toBe(MODELS.fast);
    expect(body.logprobs).toBe(true);
    expect(body.response_format.type).toBe("json_schema");
    expect(body.response_format.json_schema.strict).toBe(true);
    expect(body.response_format.json_schema.schema).toEqual(extractionJsonSchema(INVOICE_SCHEMA));
    const prompt = body.messages.map((m: { content: string }) => m.content).join("\n");
    expect(prompt).toContain(INVOICE_TEXT);
    expect(prompt).toContain("total (number, required): Invoice total");

    expect(result.modelUsed).toBe("fast");
    expect(result.model).toBe(MODELS.fast);
    expect(result.data).toEqual({ vendor: "ACME CORP", total: 1234.5, date: "2024-03-05" });
    expect(result.grounded).toEqual({ vendor: true, total: true, date: true });
    expect(result.citations.total).toBe("Total: $1,234.50");
    expect(result.confidence.total).toBeCloseTo(0.95, 3);
    expect(result.tokenProbabilities.total).toBeNull();
  });

  test("a value that is not in the source is flagged and scored below 0.6", async () => {
    fake.server.reply(
      "chat",
      chatReply(answer({ ...GOOD_INVOICE, vendor: { value: "Initech LLC", quote: "Vendor: Initech LLC", confidence: 0.99 } })),
    );
    const result = await extract();
    expect(result.grounded.vendor).toBe(false);
    expect(result.confidence.vendor).toBeLessThan(0.6);
    expect(result.flags.vendor).toContain("Initech LLC");
    expect(result.citations.vendor).toBeNull();
    expect(result.grounded.total).toBe(true);
    expect(result.confidence.total).toBeGreaterThanOrEqual(0.9);
  });

  test("provider values are coerced to the schema", async () => {
    const schema = parseTypedSchema({
      total: { type: "number" },
      paid: { type: "boolean" },
      status: { type: "string", enum: ["paid", "due"] },
    });
    fake.server.reply(
      "chat",
      chatReply(
        answer({
          total: { value: "$1,234.50", quote: "Total: $1,234.50", confidence: 0.9 },
          paid: { value: "Yes", quote: "Paid: yes", confidence: 0.9 },
          status: { value: "PAID", quote: "Paid: yes", confidence: 0.8 },
        }),
      ),
    );
    const result = await extract({ schema });
    expect(result.data).toEqual({ total: 1234.5, paid: true, status: "paid" });
    expect(result.grounded).toEqual({ total: true, paid: true, status: true });
  });

  test("logprobs in the answer give each field its token probability and feed doc_quality", async () => {
    const { content, tokens, counts } = tokenized([
      ['{"vendor":{"value":', 0.99],
      ['"ACME CORP"', 0.8],
      [',"quote":"ACME CORP","confidence":0.9},"total":{"value":', 0.99],
      ["1234.5", 0.5],
      [',"quote":"Total: $1,234.50","confidence":0.9},"date":{"value":', 0.99],
      ["null", 0.9],
      [',"quote":null,"confidence":0}}', 0.99],
    ]);
    expect(JSON.parse(content).total.value).toBe(1234.5);
    fake.server.reply("chat", withLogprobs(chatReply(content), tokens));
    const result = await extract();
    expect(result.tokenProbabilities.vendor).toBeCloseTo(0.8, 3);
    expect(result.tokenProbabilities.total).toBeCloseTo(0.5, 3);
    expect(result.tokenProbabilities.date).toBeCloseTo(0.9, 3);
    expect(result.confidence.total).toBeCloseTo(0.4 * 0.9 + 0.6 * 0.5, 3);
    expect(result.data.date).toBeNull();
    expect(result.confidence.date).toBe(0);

    const [vendorTokens, totalTokens, dateTokens] = [counts[1]!, counts[3]!, counts[5]!];
    const expectedDocQuality = Math.exp(
      (vendorTokens * Math.log(0.8) + totalTokens * Math.log(0.5) + dateTokens * Math.log(0.9)) / (vendorTokens + totalTokens + dateTokens),
    );
    const signals = qualitySignals({ pageOcrConfidences: [], tokenProbabilities: result.valueTokenProbabilities, selfReports: [] });
    expect(signals.doc_quality).toBeCloseTo(expectedDocQuality, 3);
  });

  test("tokens that do not spell the answer fall back to the answer's mean for every field", () => {
    const content = answer(GOOD_INVOICE);
    const probabilities = fieldTokenProbabilities(content, [{ token: "{x", logprob: Math.log(0.5) }, { token: "y}", logprob: Math.log(0.5) }], ["vendor", "total"]);
    expect(probabilities.perField).toEqual({ vendor: 0.5, total: 0.5 });
    expect(probabilities.note).toBeDefined();
    const spans = valueSpans(content)!;
    const [start, end] = spans.get("total")!;
    expect(content.slice(start, end)).toBe("1234.5");
  });

  test("auto escalates to the accurate model when a required field is missing", async () => {
    fake.server.reply("chat", chatReply(answer({ ...GOOD_INVOICE, total: { value: null, quote: null, confidence: 0 } })));
    fake.server.reply("chat", chatReply(answer(GOOD_INVOICE)));
    const result = await extract({ model: "auto" });
    expect(fake.server.requests.map((r) => r.json.model)).toEqual([MODELS.fast, MODELS.accurate]);
    expect(result.modelUsed).toBe("accurate");
    expect(result.model).toBe(MODELS.accurate);
    expect(result.data.total).toBe(1234.5);
    expect(result.notes.join(" ")).toContain("total");
  });

  test("auto keeps the fast answer when every field is found with confidence", async () => {
    fake.server.reply("chat", chatReply(answer(GOOD_INVOICE)));
    const result = await extract({ model: "auto" });
    expect(fake.server.requests).toHaveLength(1);
    expect(result.modelUsed).toBe("fast");
  });

  test("auto escalates when a found value scores below 0.6", async () => {
    fake.server.reply("chat", chatReply(answer({ ...GOOD_INVOICE, vendor: { value: "Initech", quote: null, confidence: 0.9 } })));
    fake.server.reply("chat", chatReply(answer(GOOD_INVOICE)));
    const result = await extract({ model: "auto" });
    expect(fake.server.requests).toHaveLength(2);
    expect(result.modelUsed).toBe("accurate");
    expect(result.data.vendor).toBe("ACME CORP");
  });

  test("a 429 with Retry-After is retried once, then the answer is used", async () => {
    fake.server.reply("chat", { status: 429, headers: { "retry-after": "1" }, json: { error: { message: "Rate limit reached", type: "rate_limit_error" } } });
    fake.server.reply("chat", chatReply(answer(GOOD_INVOICE)));
    const result = await extract();
    expect(fake.server.requests).toHaveLength(2);
    expect(result.data.total).toBe(1234.5);
  });

  test("an answer that is not JSON is asked again once; twice is a provider_error", async () => {
    fake.server.reply("chat", chatReply("Sure! The total is 1234.50"), chatReply(answer(GOOD_INVOICE)));
    const recovered = await extract();
    expect(fake.server.requests).toHaveLength(2);
    expect(recovered.data.total).toBe(1234.5);

    fake.server.reply("chat", chatReply("not json"), chatReply('{"vendor": '));
    const failure = await extract().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AppError);
    expect((failure as AppError).code).toBe("provider_error");
    expect((failure as AppError).detail).toContain(MODELS.fast);
    expect(fake.server.requests).toHaveLength(4);
  });

  test("an answer without the schema's fields counts as a bad answer", async () => {
    fake.server.reply("chat", chatReply(JSON.stringify({ vendor: "ACME CORP" })), chatReply(JSON.stringify({ answer: 1 })));
    const failure = await extract().catch((error: unknown) => error);
    expect((failure as AppError).code).toBe("provider_error");
    expect((failure as AppError).detail).toContain("schema");
  });

  test("a model that refuses logprobs (HTTP 400) is asked again without them", async () => {
    fake.server.reply("chat", { status: 400, json: { error: { message: "logprobs is not supported with this model", type: "invalid_request_error" } } });
    fake.server.reply("chat", chatReply(answer(GOOD_INVOICE)));
    const result = await extract();
    expect(fake.server.requests.map((r) => r.json.logprobs)).toEqual([true, undefined]);
    expect(fake.server.requests[1]!.json.response_format.type).toBe("json_schema");
    expect(result.data.total).toBe(1234.5);
  });

  test("very long text is truncated with a marker and a note; grounding still uses the whole text", async () => {
    const long = `${INVOICE_TEXT}\n${"filler line of the appendix\n".repeat(400)}Late note: ref 777`;
    fake.server.reply("chat", chatReply(answer({ ...GOOD_INVOICE, total: { value: 777, quote: "ref 777", confidence: 0.9 } })));
    const result = await extract({ text: long, maxTextChars: 2000 });
    const prompt = fake.server.requests[0]!.json.messages[1].content as string;
    expect(prompt).toContain("characters of the document omitted here");
    expect(prompt).toContain("Late note: ref 777");
    expect(prompt.length).toBeLessThan(long.length);
    expect(result.notes.some((n) => n.includes("truncated"))).toBe(true);
    expect(result.grounded.total).toBe(true);
    expect(truncateText("short", 100)).toEqual({ text: "short" });
  });

  test("the documented default model names", () => {
    expect(DEFAULT_MODELS).toEqual({ fast: "llama-3.1-8b-instant", accurate: "llama-3.3-70b-versatile", vision: "meta-llama/llama-4-scout-17b-16e-instruct" });
  });
});

