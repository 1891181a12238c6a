/** The provider policy against a fake Groq server speaking the real protocol through groq-sdk. */
import { describe, expect, test } from "bun:test";
import { createGroqClient, providerOrigin, redactKeys, withProviderPolicy } from "../src/ai/groq";
import { failureOf } from "./helpers/loopback";
import { chatReply, groqPerTest } from "./helpers/groqServer";

const API_KEY = "gsk_test_secret_key_0123456789";
const fake = groqPerTest(API_KEY, 5000);
const client = () => fake.client();

/** ask sends one chat completion through the policy and returns the answer's text. */
function ask(opts: { retries?: number; maxRetryAfterS?: number } = {}) {
  const groq = client();
  return withProviderPolicy(
    "answer a question",
    async (signal) => {
      const completion = await groq.chat.completions.create({ model: "llama-test", messages: [{ role: "user", content: "hi" }] }, { signal });
      return completion.choices[0]?.message.content;
    },
    { signal: AbortSignal.timeout(20_000), ...opts },
  );
}

describe("createGroqClient", () => {
  test("no API key means no client", () => {
    expect(createGroqClient({ timeoutMs: 1000 })).toBeUndefined();
    expect(createGroqClient({ apiKey: "", baseUrl: "http://x", timeoutMs: 1000 })).toBeUndefined();
  });

  test("the base URL is reduced to what the SDK expects", () => {
    expect(providerOrigin(undefined)).toBe("https://api.groq.com");
    expect(providerOrigin("https://api.groq.com/openai/v1/")).toBe("https://api.groq.com");
    expect(providerOrigin("http://127.0.0.1:9/")).toBe("http://127.0.0.1:9");
  });

  test("requests carry the key as a bearer token and the JSON body unchanged", async () => {
    fake.server.reply("chat", chatReply("hello"));
    const groq = client();
    const schema = { type: "object", properties: { a: { type: "string" } }, required: ["a"] };
    await groq.chat.completions.create({
      model: "llama-test",
      messages: [{ role: "user", content: "hi" }],
      response_format: { type: "json_schema", json_schema: { name: "out", schema } },
    });
    expect(fake.server.requests).toHaveLength(1);
    expect(fake.server.requests[0]!.path).toBe("/openai/v1/chat/completions");
    expect(fake.server.requests[0]!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(fake.server.requests[0]!.json.response_format.json_schema.schema).toEqual(schema);
  });
});

describe("withProviderPolicy", () => {
  test("a success is returned after one request", async () => {
    fake.server.reply("chat", chatReply("fine"));
    expect(await ask()).toBe("fine");
    expect(fake.server.requests).toHaveLength(1);
  });

  test("429 with Retry-After 1 is retried once after waiting about a second", async () => {
    fake.server.reply("chat", { status: 429, json: { error: { message: "rate limit" } }, headers: { "retry-after": "1" } }, chatReply("after wait"));
    const started = performance.now();
    expect(await ask()).toBe("after wait");
    const elapsed = performance.now() - started;
    expect(fake.server.requests).toHaveLength(2);
    expect(elapsed).toBeGreaterThanOrEqual(950);
    expect(elapsed).toBeLessThan(5000);
  });

  test("429 twice is ai_unavailable with the provider's Retry-After", async () => {
    const busy = { status: 429, json: { error: { message: "rate limit reached" } }, headers: { "retry-after": "1" } };
    fake.server.reply("chat", busy, busy);
    const error = await failureOf(ask());
    expect(error.code).toBe("ai_unavailable");
    expect(error.status).toBe(503);
    expect(error.headers["Retry-After"]).toBe("1");
    expect(fake.server.requests).toHaveLength(2);
  });

  test("503 without Retry-After is ai_unavailable with a default Retry-After", async () => {
    const down = { status: 503, json: { error: { message: "over capacity" } } };
    fake.server.reply("chat", down, down);
    const error = await failureOf(ask());
    expect(error.code).toBe("ai_unavailable");
    expect(Number(error.headers["Retry-After"])).toBeGreaterThan(0);
  });

  test("500 is retried once, then provider_error", async () => {
    const broken = { status: 500, json: { error: { message: "internal failure" } } };
    fake.server.reply("chat", broken, broken);
    const error = await failureOf(ask());
    expect(error.code).toBe("provider_error");
    expect(error.status).toBe(502);
    expect(error.detail).toContain("500");
    expect(fake.server.requests).toHaveLength(2);
  });

  test("401 is provider_error naming the key, without retry and without leaking it", async () => {
    fake.server.reply("chat", { status: 401, json: { error: { message: `Invalid API Key: ${API_KEY}`, type: "invalid_request_error", code: "invalid_api_key" } } });
    const error = await failureOf(ask());
    expect(error.code).toBe("provider_error");
    expect(error.detail).toContain("GROQ_API_KEY was rejected");
    expect(error.detail).not.toContain(API_KEY);
    expect(fake.server.requests).toHaveLength(1);
  });

  test("a 400 from the provider is provider_error with its message, without retry", async () => {
    fake.server.reply("chat", { status: 400, json: { error: { message: "model `nope` does not exist", type: "invalid_request_error" } } });
    const error = await failureOf(ask());
    expect(error.code).toBe("provider_error");
    expect(error.detail).toContain("does not exist");
    expect(fake.server.requests).toHaveLength(1);
  });

  test("Retry-After 3600 is not waited for: the call fails at once and passes the value on", async () => {
    fake.server.reply("chat", { status: 429, json: { error: { message: "daily limit" } }, headers: { "retry-after": "3600" } }, chatReply("never reached"));
    const started = performance.now();
    const error = await failureOf(ask({ maxRetryAfterS: 10 }));
    expect(performance.now() - started).toBeLessThan(2000);
    expect(error.code).toBe("ai_unavailable");
    expect(error.headers["Retry-After"]).toBe("3600");
    expect(fake.server.requests).toHaveLength(1);
  });

  test("an unreachable provider is ai_unavailable after one retry", async () => {
    const baseUrl = fake.server.baseUrl;
    fake.server.close();
    const groq = createGroqClient({ apiKey: API_KEY, baseUrl, timeoutMs: 2000 })!;
    let attempts = 0;
    const error = await failureOf(
      withProviderPolicy("answer a question", (signal) => {
        attempts++;
        return groq.chat.completions.create({ model: "m", messages: [{ role: "user", content: "hi" }] }, { signal });
      }, { signal: AbortSignal.timeout(10_000) }),
    );
    expect(error.code).toBe("ai_unavailable");
    expect(attempts).toBe(2);
  });

  test("a provider slower than the client timeout is ai_unavailable", async () => {
    fake.server.reply("chat", { ...chatReply("late"), delayMs: 1500 }, { ...chatReply("late"), delayMs: 1500 });
    const groq = createGroqClient({ apiKey: API_KEY, baseUrl: fake.server.baseUrl, timeoutMs: 300 })!;
    const error = await failureOf(
      withProviderPolicy("answer a question", (signal) => groq.chat.completions.create({ model: "m", messages: [{ role: "user", content: "hi" }] }, { signal }), {
        signal: AbortSignal.timeout(10_000),
      }),
    );
    expect(error.code).toBe("ai_unavailable");
  });

  test("the caller's abort is rethrown as is, not mapped or retried", async () => {
    fake.server.reply("chat", { ...chatReply("late"), delayMs: 2000 });
    const groq = client();
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("client went away")), 100);
    const outcome = await withProviderPolicy("answer a question", (signal) => groq.chat.completions.create({ model: "m", messages: [{ role: "user", content: "hi" }] }, { signal }), {
      signal: controller.signal,
    }).catch((e: unknown) => e);
    expect((outcome as Error).message).toBe("client went away");
    expect(fake.server.requests).toHaveLength(1);
  });

  test("redactKeys masks key-looking tokens", () => {
    expect(redactKeys(`bad key ${API_KEY} and Bearer abc.def`)).toBe("bad key gsk_*** and Bearer ***");
  });
});
