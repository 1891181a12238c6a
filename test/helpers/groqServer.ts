/**
 * A fake Groq API on 127.0.0.1 that speaks the protocol groq-sdk uses: POST
 * /openai/v1/chat/completions (JSON) and POST /openai/v1/audio/transcriptions (multipart with a
 * `file` part). Tests queue replies per route; a request with nothing queued gets HTTP 418 and
 * an error body, so a test never passes by accident. Every request is recorded.
 */
import { afterAll, beforeAll, beforeEach } from "bun:test";
import type Groq from "groq-sdk";
import { createGroqClient } from "../../src/ai/groq";
import { startServer, type StartOptions, type TestServer } from "./server";

export type GroqRoute = "chat" | "transcription";

/** GroqReply is one scripted answer; status defaults to 200. */
export interface GroqReply {
  status?: number;
  json?: unknown;
  headers?: Record<string, string>;
  /** delayMs: wait before answering, in milliseconds */
  delayMs?: number;
}

/** RecordedFile is the uploaded `file` part of a transcription request. */
export interface RecordedFile {
  name: string;
  size: number;
  type: string;
  bytes: Uint8Array;
}

export interface GroqRequest {
  route: GroqRoute | "unknown";
  method: string;
  path: string;
  headers: Record<string, string>;
  /** json: the parsed body of a JSON request (chat) */
  json?: any;
  /** form: the text fields of a multipart request (transcription), e.g. model, response_format */
  form?: Record<string, string>;
  /** file: the uploaded audio of a transcription request */
  file?: RecordedFile;
}

export interface GroqServer {
  /** baseUrl: the origin to pass as the client's baseURL (the SDK appends /openai/v1/...) */
  baseUrl: string;
  requests: GroqRequest[];
  reply(route: GroqRoute, ...responses: GroqReply[]): void;
  close(): void;
}

const ROUTES: Record<string, GroqRoute> = {
  "/openai/v1/chat/completions": "chat",
  "/openai/v1/audio/transcriptions": "transcription",
};

export async function startGroqServer(): Promise<GroqServer> {
  const queues: Record<GroqRoute, GroqReply[]> = { chat: [], transcription: [] };
  const requests: GroqRequest[] = [];

  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const url = new URL(req.url);
      const route = req.method === "POST" ? ROUTES[url.pathname] : undefined;
      const recorded: GroqRequest = { route: route ?? "unknown", method: req.method, path: url.pathname, headers: headersOf(req.headers) };
      requests.push(recorded);
      if (!route) return errorReply(404, `groqServer: no route ${req.method} ${url.pathname}`, "invalid_request_error");
      if (route === "chat") recorded.json = await req.json().catch(() => undefined);
      else await recordForm(req, recorded);
      const next = queues[route].shift();
      if (!next) return errorReply(418, `groqServer: no reply queued for ${route}`, "test_error");
      if (next.delayMs) await Bun.sleep(next.delayMs);
      return new Response(next.json === undefined ? null : JSON.stringify(next.json), {
        status: next.status ?? 200,
        headers: { "content-type": "application/json", ...next.headers },
      });
    },
  });

  return {
    baseUrl: `http://127.0.0.1:${server.port}`,
    requests,
    reply(route, ...responses) {
      queues[route].push(...responses);
    },
    close() {
      server.stop(true);
    },
  };
}

async function recordForm(req: Request, recorded: GroqRequest): Promise<void> {
  const form = await req.formData().catch(() => undefined);
  if (!form) return;
  recorded.form = {};
  for (const [key, value] of form.entries()) {
    if (typeof value === "string") recorded.form[key] = value;
    else if (key === "file") {
      const blob = value as File;
      recorded.file = { name: blob.name, size: blob.size, type: blob.type, bytes: new Uint8Array(await blob.arrayBuffer()) };
    }
  }
}

/** headersOf copies request headers into a plain object with lower-case names. */
function headersOf(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, key) => (out[key] = value));
  return out;
}

function errorReply(status: number, message: string, type: string): Response {
  return Response.json({ error: { message, type } }, { status });
}

/** transcriptionReply is a verbose_json answer as Groq sends it. */
export function transcriptionReply(text: string, opts: { language?: string; duration?: number } = {}): GroqReply {
  return {
    json: {
      task: "transcribe",
      language: opts.language ?? "English",
      duration: opts.duration ?? 1,
      text,
      segments: [{ id: 0, seek: 0, start: 0, end: opts.duration ?? 1, text, tokens: [], temperature: 0, avg_logprob: -0.2, compression_ratio: 1, no_speech_prob: 0.01 }],
      x_groq: { id: "req_test" },
    },
  };
}

/** chatReply is a chat completion answer as Groq sends it: text content and/or tool calls. */
export function chatReply(content: string | null, toolCalls: Array<{ name: string; arguments: unknown }> = []): GroqReply {
  return {
    json: {
      id: "chatcmpl-test",
      object: "chat.completion",
      created: Math.floor(Date.now() / 1000),
      model: "test-model",
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content,
            ...(toolCalls.length
              ? { tool_calls: toolCalls.map((c, i) => ({ id: `call_${i}`, type: "function", function: { name: c.name, arguments: JSON.stringify(c.arguments) } })) }
              : {}),
          },
          logprobs: null,
          finish_reason: toolCalls.length ? "tool_calls" : "stop",
        },
      ],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
      x_groq: { id: "req_test" },
    },
  };
}

/** ExtractionAnswer is what the model states for one field of an extraction: the value, the text it read it from, its confidence. */
export interface ExtractionAnswer {
  value: unknown;
  quote: string | null;
  confidence: number;
}

/** extractionReply is the provider's answer to an extraction call: one ExtractionAnswer per schema field. */
export function extractionReply(fields: Record<string, ExtractionAnswer>): GroqReply {
  return chatReply(JSON.stringify(fields));
}

/**
 * groqPerTest gives each test of a file a fresh Groq-protocol server (closed after the file) and a
 * groq-sdk client for it, with the SDK's retries off as in the product.
 */
export function groqPerTest(apiKey: string, timeoutMs: number) {
  let current: GroqServer | undefined;
  beforeEach(async () => {
    current?.close();
    current = await startGroqServer();
  });
  afterAll(() => current?.close());
  return {
    get server(): GroqServer {
      if (!current) throw new Error("groqPerTest: no server outside a test");
      return current;
    },
    client(): Groq {
      const c = createGroqClient({ apiKey, baseUrl: this.server.baseUrl, timeoutMs });
      if (!c) throw new Error("expected a client");
      return c;
    },
  };
}

/** ServedWithGroq is what withGroqProvider hands its test file: the fake provider, the server using it, a pro key. */
export interface ServedWithGroq {
  groq: GroqServer;
  server: TestServer;
  key: string;
}

/**
 * withGroqProvider starts, before the tests of the enclosing describe block, a Groq-protocol server
 * and a docintel server that uses it as its AI provider (GROQ_API_KEY, GROQ_BASE_URL), makes a pro
 * key, and hands the three to `assign`; both servers stop after the block.
 */
export function withGroqProvider(options: StartOptions, assign: (served: ServedWithGroq) => void): void {
  let served: ServedWithGroq | undefined;
  beforeAll(async () => {
    const groq = await startGroqServer();
    const server = await startServer({ ...options, env: { ...options.env, GROQ_API_KEY: "gsk_test_key", GROQ_BASE_URL: groq.baseUrl } });
    served = { groq, server, key: (await server.key("pro")).key };
    assign(served);
  });
  afterAll(async () => {
    await served?.server.stop();
    served?.groq.close();
  });
}
