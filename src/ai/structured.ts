/**
 * askStructured asks a model for one JSON answer of a given shape and checks it before anyone
 * reads it. The request carries a strict `response_format` json_schema; a model that refuses that
 * (HTTP 400) is asked again with `json_object` and the schema written into the prompt. An answer
 * that is not JSON, or that `check` rejects, is asked for once more with the problem named; a
 * second bad answer is a provider_error (502), never a half-read result.
 */
import type Groq from "groq-sdk";
import { APIError } from "groq-sdk";
import type { ChatCompletionMessageParam } from "groq-sdk/resources/chat/completions";
import { AppError } from "../errors";
import { withProviderPolicy } from "./groq";
import type { JsonSchema } from "./jsonSchema";

export interface StructuredRequest<T> {
  client: Groq;
  model: string;
  /** what: names the call in errors, e.g. "analyze (final answer)" */
  what: string;
  messages: ChatCompletionMessageParam[];
  schemaName: string;
  schema: JsonSchema;
  /** check reads the parsed JSON into T, or returns a string naming what is wrong with it */
  check: (parsed: unknown) => T | string;
  signal: AbortSignal;
}

export interface StructuredAnswer<T> {
  value: T;
  /** tokens: total tokens the calls used, as the provider reported them */
  tokens: number;
}

/** jsonSchemaRefused remembers, per client, the models that refused json_schema (asked with json_object since). */
const jsonSchemaRefused = new WeakMap<Groq, Set<string>>();

export async function askStructured<T>(req: StructuredRequest<T>): Promise<StructuredAnswer<T>> {
  const refused = jsonSchemaRefused.get(req.client) ?? new Set<string>();
  jsonSchemaRefused.set(req.client, refused);
  let messages = req.messages;
  let tokens = 0;
  let badAnswers = 0;
  for (;;) {
    const plain = refused.has(req.model);
    let completion: Groq.Chat.ChatCompletion;
    try {
      completion = await withProviderPolicy(
        `${req.what} with model ${req.model}`,
        (signal) =>
          req.client.chat.completions.create(
            {
              model: req.model,
              temperature: 0,
              messages: plain ? withSchemaInPrompt(messages, req.schema) : messages,
              response_format: plain ? { type: "json_object" } : { type: "json_schema", json_schema: { name: req.schemaName, schema: req.schema, strict: true } },
            },
            { signal },
          ),
        { signal: req.signal },
      );
    } catch (error) {
      if (!plain && isBadRequest(error)) {
        refused.add(req.model);
        continue;
      }
      throw error;
    }
    tokens += completion.usage?.total_tokens ?? 0;
    const content = completion.choices[0]?.message?.content ?? "";
    const problem = readAnswer(content, req.check);
    if (typeof problem !== "string") return { value: problem.value, tokens };
    badAnswers++;
    if (badAnswers >= 2) throw new AppError("provider_error", `${req.what} with model ${req.model}: the AI provider's answer was ${problem} (twice); retry, or ask the operator to configure another model.`);
    messages = [...messages, { role: "assistant", content }, { role: "user", content: `That answer was ${problem}. Answer again with one JSON object of the requested shape.` }];
  }
}

function readAnswer<T>(content: string, check: (parsed: unknown) => T | string): { value: T } | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stripFences(content));
  } catch {
    return "not valid JSON";
  }
  const value = check(parsed);
  return typeof value === "string" ? value : { value };
}

function withSchemaInPrompt(messages: ChatCompletionMessageParam[], schema: JsonSchema): ChatCompletionMessageParam[] {
  return [...messages, { role: "system", content: `Answer with one JSON object that follows this JSON schema:\n${JSON.stringify(schema)}` }];
}

/** stripFences removes a ```json fence that json_object answers sometimes carry. */
export function stripFences(content: string): string {
  const fenced = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/.exec(content);
  return fenced ? fenced[1]! : content;
}

/** isBadRequest: the provider refused the request itself (HTTP 400), e.g. an unsupported parameter. */
export function isBadRequest(error: unknown): boolean {
  return error instanceof AppError && error.code === "provider_error" && error.cause instanceof APIError && error.cause.status === 400;
}
