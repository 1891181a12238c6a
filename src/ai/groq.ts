/**
 * The AI provider client (Groq, through groq-sdk) and the one policy every provider call goes
 * through: a bounded retry of our own (the SDK's retries are off because it sleeps for whatever
 * Retry-After says, uncapped), then one mapping of provider failures to AppError codes.
 */
import Groq, { APIConnectionError, APIError, APIUserAbortError } from "groq-sdk";
import { AppError } from "../errors";

export interface GroqClientConfig {
  /** apiKey: GROQ_API_KEY; no key = no client (AI features report themselves unavailable) */
  apiKey?: string;
  /** baseUrl: the provider's origin, e.g. https://api.groq.com; a trailing /openai/v1 is tolerated */
  baseUrl?: string;
  /** timeoutMs: deadline for one HTTP request to the provider */
  timeoutMs: number;
}

/** DEFAULT_BASE_URL is Groq's origin; the SDK appends /openai/v1/... itself. */
const DEFAULT_BASE_URL = "https://api.groq.com";

/** createGroqClient builds the SDK client, or undefined when no API key is configured. */
export function createGroqClient(config: GroqClientConfig): Groq | undefined {
  if (!config.apiKey) return undefined;
  return new Groq({
    apiKey: config.apiKey,
    baseURL: providerOrigin(config.baseUrl),
    timeout: config.timeoutMs,
    maxRetries: 0,
  });
}

/**
 * providerOrigin turns a configured base URL into what the SDK expects: no trailing slash and no
 * "/openai/v1" suffix (people copy the OpenAI-compatible URL), so requests never hit /openai/v1/openai/v1.
 */
export function providerOrigin(baseUrl: string | undefined): string {
  if (!baseUrl) return DEFAULT_BASE_URL;
  return baseUrl.replace(/\/+$/, "").replace(/\/openai\/v1$/, "");
}

export interface ProviderPolicyOptions {
  /** signal: the caller's deadline; its abort is rethrown as is, never mapped or retried */
  signal: AbortSignal;
  /** retries: extra attempts after a 429, 5xx or connection failure; default 1 */
  retries?: number;
  /** maxRetryAfterS: longest Retry-After we wait for before retrying, in seconds; default 10 */
  maxRetryAfterS?: number;
}

/** BACKOFF_MS: wait before a retry when the provider gave no Retry-After, in milliseconds. */
const BACKOFF_MS = 500;
/** DEFAULT_RETRY_AFTER_S: what we tell our clients when the provider is busy and said nothing. */
const DEFAULT_RETRY_AFTER_S = 10;

/**
 * withProviderPolicy runs `call` (which must pass the signal it gets to the SDK), retries once on
 * 429/503/5xx/connection failures (a Retry-After above maxRetryAfterS is not waited for: the call
 * fails at once and the Retry-After is passed on), and maps what is left:
 * busy (429, 503, 498, 529, "overloaded") and unreachable -> ai_unavailable (503, with Retry-After
 * when busy); rejected key, bad requests and other 5xx -> provider_error (502).
 */
export async function withProviderPolicy<T>(what: string, call: (signal: AbortSignal) => Promise<T>, opts: ProviderPolicyOptions): Promise<T> {
  const retries = Math.max(0, opts.retries ?? 1);
  const maxRetryAfterS = opts.maxRetryAfterS ?? 10;
  for (let attempt = 0; ; attempt++) {
    opts.signal.throwIfAborted();
    try {
      return await call(opts.signal);
    } catch (error) {
      if (opts.signal.aborted) throw opts.signal.reason;
      const failure = classify(error);
      if (!failure) throw error;
      const retryAfterS = failure.retryAfterS;
      const waitable = retryAfterS === undefined || retryAfterS <= maxRetryAfterS;
      if (failure.retryable && attempt < retries && waitable) {
        await sleep(retryAfterS === undefined ? BACKOFF_MS : retryAfterS * 1000, opts.signal);
        continue;
      }
      throw toAppError(what, failure, error, attempt + 1);
    }
  }
}

interface ProviderFailure {
  kind: "busy" | "unreachable" | "auth" | "rejected" | "server";
  status?: number;
  retryable: boolean;
  /** retryAfterS: what the provider asked us to wait, in seconds */
  retryAfterS?: number;
  message: string;
}

/** classify reads an SDK error; undefined for anything that is not a provider failure (our own bugs). */
function classify(error: unknown): ProviderFailure | undefined {
  if (error instanceof APIUserAbortError) return { kind: "unreachable", retryable: false, message: "the request was aborted" };
  if (error instanceof APIConnectionError) return { kind: "unreachable", retryable: true, message: error.message };
  if (!(error instanceof APIError) || error.status === undefined) return undefined;
  const status = error.status;
  const message = providerMessage(error);
  const retryAfterS = retryAfterOf(error.headers);
  if (status === 429 || status === 503 || status === 498 || status === 529 || /overloaded/i.test(message)) {
    return { kind: "busy", status, retryable: true, retryAfterS, message };
  }
  if (status === 401 || status === 403) return { kind: "auth", status, retryable: false, message };
  if (status >= 500) return { kind: "server", status, retryable: true, retryAfterS, message };
  return { kind: "rejected", status, retryable: false, message };
}

function toAppError(what: string, failure: ProviderFailure, cause: unknown, attempts: number): AppError {
  const tries = attempts > 1 ? ` (${attempts} attempts)` : "";
  switch (failure.kind) {
    case "busy": {
      const retryAfter = String(Math.max(1, Math.ceil(failure.retryAfterS ?? DEFAULT_RETRY_AFTER_S)));
      return new AppError("ai_unavailable", `${what}: the AI provider is busy (HTTP ${failure.status})${tries}; retry after ${retryAfter} s.`, { cause, headers: { "Retry-After": retryAfter } });
    }
    case "unreachable":
      return new AppError("ai_unavailable", `${what}: the AI provider could not be reached (${failure.message})${tries}; retry later.`, { cause });
    case "auth":
      return new AppError("provider_error", `${what}: the server's GROQ_API_KEY was rejected by the provider (HTTP ${failure.status}); the operator must set a valid key.`, { cause });
    case "server":
      return new AppError("provider_error", `${what}: the AI provider failed (HTTP ${failure.status}: ${failure.message})${tries}.`, { cause });
    case "rejected":
      return new AppError("provider_error", `${what}: the AI provider refused the request (HTTP ${failure.status}: ${failure.message}).`, { cause });
  }
}

/**
 * providerMessage is the provider's own error message, shortened and with anything that looks like
 * an API key masked, so a key echoed back by the provider never reaches a client or a log.
 */
function providerMessage(error: APIError): string {
  const body = error.error as { error?: { message?: unknown }; message?: unknown } | undefined;
  const raw = body?.error?.message ?? body?.message ?? error.message;
  return redactKeys(String(raw)).replace(/\s+/g, " ").trim().slice(0, 300);
}

/** redactKeys masks API-key-looking tokens (gsk_..., sk-..., long bearer strings). */
export function redactKeys(text: string): string {
  return text
    .replace(/\b(gsk_|sk-|xai-)[A-Za-z0-9_\-]{6,}/g, "$1***")
    .replace(/(Bearer\s+)\S+/gi, "$1***");
}

/** retryAfterOf reads Retry-After (seconds or HTTP date) or retry-after-ms, in seconds. */
function retryAfterOf(headers: Headers | undefined): number | undefined {
  if (!headers) return undefined;
  const ms = Number(headers.get("retry-after-ms"));
  if (headers.get("retry-after-ms") && Number.isFinite(ms) && ms >= 0) return ms / 1000;
  const value = headers.get("retry-after");
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - Date.now()) / 1000);
}

/** sleep waits `ms` milliseconds or rejects with the signal's reason when it aborts first. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * requireProvider returns the configured provider, or throws 503 ai_unavailable naming GROQ_API_KEY
 * for the operations that cannot run without one (analyze, cross-analyze, decide, annotated diffs).
 */
export function requireProvider<P>(provider: P | undefined, operation: string): P {
  if (provider) return provider;
  throw new AppError("ai_unavailable", `${operation} needs an AI provider and none is configured on this server; the operator sets GROQ_API_KEY (and optionally GROQ_BASE_URL) and restarts docintel.`);
}
