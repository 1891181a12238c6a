/**
 * Extraction through the AI provider (Groq): the document text and the field descriptions go out
 * with a strict `response_format` json_schema (src/ai/jsonSchema.ts); each field comes back as
 * {value, quote, confidence}. Nothing the provider says is taken as is: values are coerced to the
 * schema, grounded against the source text (an ungrounded value is flagged and capped below 0.6),
 * and the confidence is the composite of src/extract/confidence.ts.
 *
 * Steps of one pass: build the request -> call (withProviderPolicy) -> parse and check the answer
 * (not JSON / not the schema: one retry on the same model, then provider_error) -> token
 * probabilities per field -> coerce, ground, score.
 *
 * model=auto runs the fast model first and the accurate one when a required field is missing or a
 * found value scores below 0.6; `modelUsed` names the pass whose answer is returned.
 *
 * Request capabilities: the request asks for `logprobs` and a strict json_schema. A model that
 * refuses either (HTTP 400) is asked again without logprobs, then with `json_object` and the schema in
 * the prompt; the level that worked is remembered per client and model for later calls.
 *
 * Token probabilities: when the answer carries `choices[0].logprobs.content[]` and the tokens spell
 * the answer exactly, each field's probability is the geometric mean of the probabilities of the
 * tokens overlapping that field's `value` in the answer text (located by a small JSON scanner). When
 * the tokens do not spell the answer (mapping impractical), every found field gets the geometric
 * mean over all tokens of the answer instead.
 */
import type Groq from "groq-sdk";
import type { ChatCompletionCreateParamsNonStreaming } from "groq-sdk/resources/chat/completions";
import { AppError } from "../errors";
import { withProviderPolicy } from "../ai/groq";
import { isBadRequest, stripFences } from "../ai/structured";
import { jpegDataUrl } from "./vision";
import { coerceToSchema, extractionJsonSchema, EXTRACTION_SCHEMA_NAME } from "../ai/jsonSchema";
import type { ModelNames } from "../ai/models";
import type { FieldDefinition, TypedSchema } from "../schema/typed";
import { compositeConfidence, geometricMean, groundingOf, sourceLineOf, type ExtractionMethod } from "./confidence";
import { isPlainObject, round3 } from "../runtime/values";

export interface ProviderExtraction {
  data: Record<string, unknown>;
  confidence: Record<string, number>;
  citations: Record<string, string | null>;
  grounded: Record<string, boolean>;
  /** flags: why a field's value is not grounded, by field (only ungrounded found values) */
  flags: Record<string, string>;
  modelUsed: "fast" | "accurate";
  /** model: the provider's model id that answered */
  model: string;
  /** tokenProbabilities: per field, the geometric mean probability of its value's tokens; null = none returned */
  tokenProbabilities: Record<string, number | null>;
  /** valueTokenProbabilities: probabilities of all value tokens of the answer (input of doc_quality); empty = none */
  valueTokenProbabilities: number[];
  /** selfReports: the model's own confidence per field, 0..1 (input of signal_disagreement) */
  selfReports: Record<string, number>;
  /** notes: what was done to the input or the answer that the caller may report (truncation, escalation) */
  notes: string[];
}

export interface ProviderExtractionInput {
  client: Groq;
  models: ModelNames;
  schema: TypedSchema;
  /** text: the document as markdown/plain text */
  text: string;
  model: "fast" | "accurate" | "auto";
  /** ocrQuality: the document's ocr_quality 0..1; null when the text did not come from OCR */
  ocrQuality: number | null;
  method: ExtractionMethod;
  signal: AbortSignal;
  /** maxTextChars: longest text sent to the provider, in characters; default 60,000 (about 15k tokens) */
  maxTextChars?: number;
  /** images: JPEG page images for use_vision; when present the vision model answers (one pass, no auto escalation) */
  images?: Uint8Array[];
}

/** DEFAULT_MAX_TEXT_CHARS: the text budget of one request, in characters. */
export const DEFAULT_MAX_TEXT_CHARS = 60_000;
/** ESCALATE_BELOW: auto runs the accurate model when a found value's confidence is below this. */
const ESCALATE_BELOW = 0.6;

/** extractWithProvider runs one pass (fast or accurate), or auto's fast pass and, when needed, the accurate one. */
export async function extractWithProvider(input: ProviderExtractionInput): Promise<ProviderExtraction> {
  const first = input.model === "accurate" ? "accurate" : "fast";
  const result = await extractionPass(input, first);
  if (input.model !== "auto" || input.images?.length) return result;
  const reason = escalationReason(result, input.schema);
  if (!reason) return result;
  input.signal.throwIfAborted();
  const accurate = await extractionPass(input, "accurate");
  accurate.notes.unshift(`the fast model's answer was not used: ${reason}`);
  return accurate;
}

/** escalationReason says why auto should ask the accurate model, or undefined when the fast answer stands. */
function escalationReason(result: ProviderExtraction, schema: TypedSchema): string | undefined {
  const missing = Object.entries(schema).filter(([name, def]) => def.required && isMissing(result.data[name])).map(([name]) => name);
  if (missing.length) return `required field(s) ${missing.join(", ")} missing`;
  const weak = Object.keys(schema).filter((name) => !isMissing(result.data[name]) && (result.confidence[name] ?? 0) < ESCALATE_BELOW);
  if (weak.length) return `confidence below ${ESCALATE_BELOW} for ${weak.join(", ")}`;
  return undefined;
}

/** isMissing: null, or an empty list (coercion already turned empty text into null). */
export function isMissing(value: unknown): boolean {
  return value === null || value === undefined || (Array.isArray(value) && value.length === 0);
}

/** extractionPass asks one model and scores its answer. */
async function extractionPass(input: ProviderExtractionInput, tier: "fast" | "accurate"): Promise<ProviderExtraction> {
  const model = input.images?.length ? input.models.vision : input.models[tier];
  const notes: string[] = [];
  const document = truncateText(input.text, input.maxTextChars ?? DEFAULT_MAX_TEXT_CHARS);
  if (document.note) notes.push(document.note);
  const answer = await askForAnswer(input, model, document.text);
  const probabilities = fieldTokenProbabilities(answer.content, answer.tokens, Object.keys(input.schema));
  if (probabilities.note) notes.push(probabilities.note);
  const out: ProviderExtraction = {
    data: {},
    confidence: {},
    citations: {},
    grounded: {},
    flags: {},
    modelUsed: tier,
    model,
    tokenProbabilities: {},
    valueTokenProbabilities: probabilities.valueTokens,
    selfReports: {},
    notes,
  };
  for (const [name, def] of Object.entries(input.schema)) {
    scoreField(out, name, def, answer.fields[name]!, probabilities.perField[name] ?? null, input);
  }
  return out;
}

/** scoreField coerces one field's value, grounds it in the full text and computes its confidence and citation. */
function scoreField(out: ProviderExtraction, name: string, def: FieldDefinition, raw: RawField, tokenProbability: number | null, input: ProviderExtractionInput): void {
  const value = coerceToSchema(raw.value, def);
  const missing = isMissing(value);
  const grounding = missing ? { grounded: false } : groundingOf(value, raw.quote, input.text);
  out.data[name] = value;
  out.selfReports[name] = raw.confidence;
  out.tokenProbabilities[name] = tokenProbability;
  out.grounded[name] = grounding.grounded;
  if (!missing && !grounding.grounded && "reason" in grounding && grounding.reason) out.flags[name] = grounding.reason;
  out.confidence[name] = missing
    ? 0
    : compositeConfidence({ selfReport: raw.confidence, tokenProbability, ocrQuality: input.ocrQuality, grounded: grounding.grounded, method: input.method });
  out.citations[name] = missing ? null : citationOf(value, raw.quote, input.text);
}

/** citationOf is the model's quote when it is really in the source, else the source line holding the value, else null. */
function citationOf(value: unknown, quote: string | null, source: string): string | null {
  if (quote && sourceLineOf(source, quote)) return quote.trim();
  if (typeof value === "string" || typeof value === "number") return sourceLineOf(source, String(value));
  return null;
}

// Text budget ------------------------------------------------------------------------------------

/**
 * truncateText keeps the first 80 % and the last 20 % of the budget (totals and signatures sit at the
 * end of documents) with a marker in between that says how much was left out.
 */
export function truncateText(text: string, maxChars: number): { text: string; note?: string } {
  if (maxChars <= 0 || text.length <= maxChars) return { text };
  const head = Math.floor(maxChars * 0.8);
  const tail = maxChars - head;
  const omitted = text.length - head - tail;
  const marker = `\n\n[... ${omitted} characters of the document omitted here ...]\n\n`;
  return {
    text: text.slice(0, head) + marker + text.slice(text.length - tail),
    note: `the document text was truncated to ${maxChars} of ${text.length} characters for the AI provider (beginning and end kept)`,
  };
}

// The request ------------------------------------------------------------------------------------

/** RequestLevel: 0 = json_schema + logprobs, 1 = json_schema, 2 = json_object with the schema in the prompt. */
type RequestLevel = 0 | 1 | 2;

/** requestLevels remembers, per client and model id, the richest request the model accepted. */
const requestLevels = new WeakMap<Groq, Map<string, RequestLevel>>();

interface RawField {
  value: unknown;
  quote: string | null;
  confidence: number;
}

interface Answer {
  content: string;
  fields: Record<string, RawField>;
  tokens: TokenLogprob[] | null;
}

interface TokenLogprob {
  token: string;
  logprob: number;
}

/**
 * askForAnswer calls the model until it gives an answer of the right shape: a 400 lowers the request
 * level (see the header); an answer that is not JSON or not the schema is asked once more.
 */
async function askForAnswer(input: ProviderExtractionInput, model: string, text: string): Promise<Answer> {
  const known = requestLevels.get(input.client);
  let level: RequestLevel = known?.get(model) ?? 0;
  let badAnswers = 0;
  for (;;) {
    input.signal.throwIfAborted();
    let completion: Groq.Chat.ChatCompletion;
    try {
      completion = await withProviderPolicy(
        `extract with model ${model}`,
        (signal) => input.client.chat.completions.create(buildRequest(model, input.schema, text, level, input.images), { signal }),
        { signal: input.signal },
      );
    } catch (error) {
      if (level < 2 && isBadRequest(error)) {
        level = (level + 1) as RequestLevel;
        continue;
      }
      throw error;
    }
    rememberLevel(input.client, model, level);
    const choice = completion.choices[0];
    const content = choice?.message?.content ?? "";
    const parsed = parseAnswer(content, input.schema);
    if (parsed.fields) return { content, fields: parsed.fields, tokens: tokensOf(choice?.logprobs?.content) };
    badAnswers++;
    if (badAnswers >= 2) {
      throw new AppError("provider_error", `extract with model ${model}: the AI provider's answer was ${parsed.problem} (twice); retry, or choose another model.`);
    }
  }
}

function rememberLevel(client: Groq, model: string, level: RequestLevel): void {
  let levels = requestLevels.get(client);
  if (!levels) requestLevels.set(client, (levels = new Map()));
  levels.set(model, level);
}

const SYSTEM_PROMPT = [
  "You extract data from a document into JSON.",
  "For every field return an object with:",
  "- value: the field's value with the requested type, or null when the document does not state it. Never guess or invent a value.",
  "- quote: the exact text copied verbatim from the document that states the value (a short span, at most one or two lines), or null when value is null.",
  "- confidence: a number from 0.0 to 1.0: 0.95-1.0 stated directly; 0.8-0.94 clear with minor interpretation; 0.6-0.79 inferred; 0.3-0.59 ambiguous; below 0.3 speculative.",
  "Numbers are plain JSON numbers (no currency symbols or thousands separators). Copy text values as the document writes them unless the field's description asks for a format.",
].join("\n");

/** buildRequest is the chat completion body for a request level (see RequestLevel). */
export function buildRequest(model: string, schema: TypedSchema, text: string, level: RequestLevel = 0, images: Uint8Array[] = []): ChatCompletionCreateParamsNonStreaming {
  const jsonSchema = extractionJsonSchema(schema);
  const system = level === 2 ? `${SYSTEM_PROMPT}\nAnswer with one JSON object that follows this JSON schema:\n${JSON.stringify(jsonSchema)}` : SYSTEM_PROMPT;
  const user = `Fields to extract:\n${describeFields(schema, "")}\n\nDocument:\n<<<DOCUMENT\n${text}\nDOCUMENT>>>`;
  return {
    model,
    temperature: 0,
    messages: [
      { role: "system", content: system },
      images.length
        ? {
            role: "user",
            content: [
              { type: "text", text: `${user}\n\nThe page images below are the same document: read values from them where the text above is missing or garbled (it came from OCR).` },
              ...images.map((jpeg) => ({ type: "image_url" as const, image_url: { url: jpegDataUrl(jpeg) } })),
            ],
          }
        : { role: "user", content: user },
    ],
    response_format: level === 2 ? { type: "json_object" } : { type: "json_schema", json_schema: { name: EXTRACTION_SCHEMA_NAME, schema: jsonSchema, strict: true } },
    ...(level === 0 ? { logprobs: true } : {}),
  };
}

/** describeFields lists the fields as indented lines: name (type, required, one of ...): description. */
export function describeFields(members: Record<string, FieldDefinition>, indent: string): string {
  return Object.entries(members)
    .map(([name, def]) => {
      const facts = [typeName(def), ...(def.required ? ["required"] : []), ...(def.enum ? [`one of ${def.enum.map((v) => JSON.stringify(v)).join(", ")}`] : [])];
      const line = `${indent}- ${name} (${facts.join(", ")})${def.description ? `: ${def.description}` : ""}`;
      const inner = def.type === "object" ? def.properties : def.type === "array" && def.items?.type === "object" ? def.items.properties : undefined;
      return inner ? `${line}\n${describeFields(inner, `${indent}  `)}` : line;
    })
    .join("\n");
}

function typeName(def: FieldDefinition): string {
  if (def.type === "array") return `array of ${def.items ? typeName(def.items) : "values"}`;
  return def.type;
}

// The answer -------------------------------------------------------------------------------------

/** parseAnswer checks the answer: a JSON object with, for every field, an object holding `value`. */
function parseAnswer(content: string, schema: TypedSchema): { fields?: Record<string, RawField>; problem: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stripFences(content));
  } catch {
    return { problem: "not valid JSON" };
  }
  if (!isPlainObject(parsed)) return { problem: "not a JSON object" };
  const fields: Record<string, RawField> = {};
  for (const name of Object.keys(schema)) {
    const entry = parsed[name];
    if (!isPlainObject(entry) || !("value" in entry)) return { problem: `not the requested schema (field '${name}' has no {value, quote, confidence} object)` };
    fields[name] = {
      value: entry.value,
      quote: typeof entry.quote === "string" && entry.quote.trim() !== "" ? entry.quote : null,
      confidence: selfReportOf(entry.confidence),
    };
  }
  return { fields, problem: "" };
}

/** selfReportOf reads the model's confidence; a missing or unreadable one counts as 0.5 (no opinion); 0..100 scales are folded. */
export function selfReportOf(value: unknown): number {
  const n = typeof value === "number" ? value : typeof value === "string" ? Number(value) : NaN;
  if (!Number.isFinite(n)) return 0.5;
  const scaled = n > 1 && n <= 100 ? n / 100 : n;
  return Math.min(1, Math.max(0, scaled));
}

function tokensOf(content: unknown): TokenLogprob[] | null {
  if (!Array.isArray(content) || content.length === 0) return null;
  const tokens = content.filter((t): t is TokenLogprob => isPlainObject(t) && typeof t.token === "string" && typeof t.logprob === "number");
  return tokens.length ? tokens : null;
}

// Token probabilities ----------------------------------------------------------------------------

/**
 * fieldTokenProbabilities maps the answer's tokens to fields (see the header): per field the geometric
 * mean probability of the tokens overlapping its value, and all value tokens' probabilities.
 */
export function fieldTokenProbabilities(
  content: string,
  tokens: TokenLogprob[] | null,
  fields: string[],
): { perField: Record<string, number | null>; valueTokens: number[]; note?: string } {
  const perField: Record<string, number | null> = Object.fromEntries(fields.map((f) => [f, null]));
  if (!tokens) return { perField, valueTokens: [] };
  const probabilities = tokens.map((t) => Math.exp(Math.max(t.logprob, -50)));
  const spans = tokens.map((t) => t.token).join("") === content ? valueSpans(content) : undefined;
  if (!spans) {
    const answerMean = geometricMean(probabilities);
    for (const f of fields) perField[f] = round3(answerMean);
    return { perField, valueTokens: probabilities, note: "token probabilities could not be mapped to fields; each field got the answer's mean" };
  }
  const starts: number[] = [];
  let offset = 0;
  for (const t of tokens) {
    starts.push(offset);
    offset += t.token.length;
  }
  const valueTokens: number[] = [];
  for (const f of fields) {
    const span = spans.get(f);
    if (!span) continue;
    const inside: number[] = [];
    tokens.forEach((t, i) => {
      const start = starts[i]!;
      if (start < span[1] && start + t.token.length > span[0]) inside.push(probabilities[i]!);
    });
    if (inside.length) {
      perField[f] = round3(geometricMean(inside));
      valueTokens.push(...inside);
    }
  }
  return { perField, valueTokens };
}

/**
 * valueSpans finds, in the answer text, the character span [start, end) of each top-level field's
 * `value` member; undefined when the text is not a JSON object this scanner can read.
 */
export function valueSpans(content: string): Map<string, [number, number]> | undefined {
  const spans = new Map<string, [number, number]>();
  const start = content.indexOf("{");
  if (start < 0) return undefined;
  try {
    scanValue(content, start, (field, fieldStart) => {
      if (content[fieldStart] !== "{") return;
      scanValue(content, fieldStart, (member, valueStart, valueEnd) => {
        if (member === "value") spans.set(field, [valueStart, valueEnd]);
      });
    });
  } catch {
    return undefined;
  }
  return spans;
}

/** scanValue returns the end of the JSON value at `i`; for an object it reports each member's span to onMember. */
function scanValue(t: string, i: number, onMember?: (key: string, start: number, end: number) => void): number {
  i = skipSpace(t, i);
  const c = t[i];
  if (c === "{" || c === "[") {
    const close = c === "{" ? "}" : "]";
    i = skipSpace(t, i + 1);
    if (t[i] === close) return i + 1;
    for (;;) {
      let key = "";
      if (c === "{") {
        const keyEnd = scanString(t, i);
        key = JSON.parse(t.slice(i, keyEnd)) as string;
        i = skipSpace(t, keyEnd);
        if (t[i] !== ":") throw new SyntaxError(`expected ':' at ${i}`);
        i = skipSpace(t, i + 1);
      }
      const end = scanValue(t, i);
      if (onMember && c === "{") onMember(key, i, end);
      i = skipSpace(t, end);
      if (t[i] === ",") i = skipSpace(t, i + 1);
      else if (t[i] === close) return i + 1;
      else throw new SyntaxError(`expected ',' or '${close}' at ${i}`);
    }
  }
  if (c === '"') return scanString(t, i);
  const literal = /^(?:-?\d[\d.eE+\-]*|true|false|null)/.exec(t.slice(i, i + 64));
  if (!literal) throw new SyntaxError(`unexpected character at ${i}`);
  return i + literal[0].length;
}

function scanString(t: string, i: number): number {
  if (t[i] !== '"') throw new SyntaxError(`expected a string at ${i}`);
  for (let j = i + 1; j < t.length; j++) {
    if (t[j] === "\\") j++;
    else if (t[j] === '"') return j + 1;
  }
  throw new SyntaxError("unterminated string");
}

function skipSpace(t: string, i: number): number {
  while (i < t.length && /\s/.test(t[i]!)) i++;
  return i;
}
