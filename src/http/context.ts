/**
 * RequestContext is the per-request state shared by the server wrapper, the Elysia hooks and the
 * handlers. It is keyed by the Request object, which Elysia passes through unchanged.
 */
import type { ApiKeyInfo } from "../security/apiKeys";
import { AppError } from "../errors";

/** RateDecision: the outcome of counting one request against its limit (credits/rateLimit.ts decides it). */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** seconds until the window resets */
  resetSeconds: number;
}

/** RateCounter counts one request of a key (or client) against a limit per minute: credits/rateLimit.ts RateLimiter. */
export interface RateCounter {
  consume(keyId: string, limit: number): RateDecision | Promise<RateDecision>;
}

export interface RequestContext {
  id: string;
  startedAt: number;
  /** the request URL, parsed once */
  url: URL;
  /** the matched route pattern, e.g. /api/v1/extract; unknown until routing */
  route?: string;
  key?: ApiKeyInfo;
  rate?: RateDecision;
  /** clientIp: the peer address of the connection (no proxy header is trusted); for keyless rate limits */
  clientIp?: string;
}

const contexts = new WeakMap<Request, RequestContext>();

export function attachContext(request: Request, ctx: RequestContext): void {
  contexts.set(request, ctx);
}

export function contextOf(request: Request): RequestContext {
  let ctx = contexts.get(request);
  if (!ctx) {
    ctx = { id: crypto.randomUUID(), startedAt: performance.now(), url: new URL(request.url) };
    contexts.set(request, ctx);
  }
  return ctx;
}

/** rateLimitHeaders renders the RateLimit-* headers (IETF draft) of the request's decision. */
export function rateLimitHeaders(ctx: RequestContext): Record<string, string> {
  if (!ctx.rate) return {};
  return {
    "RateLimit-Limit": String(ctx.rate.limit),
    "RateLimit-Remaining": String(ctx.rate.remaining),
    "RateLimit-Reset": String(ctx.rate.resetSeconds),
  };
}

/**
 * chargeRequest makes `key` the request's key and counts the request against `limit` (requests a
 * minute), adding the rate limit headers; 429 rate_limited (`whose` names the limit in the message) when over.
 */
export async function chargeRequest(ctx: RequestContext, counter: RateCounter, key: ApiKeyInfo, limit: number, headers: Record<string, string | number>, whose: string): Promise<void> {
  ctx.key = key;
  ctx.rate = await counter.consume(key.id, limit);
  Object.assign(headers, rateLimitHeaders(ctx));
  if (!ctx.rate.allowed) {
    throw new AppError("rate_limited", `Rate limit of ${ctx.rate.limit} requests per minute ${whose} exceeded; retry in ${ctx.rate.resetSeconds} s.`, {
      headers: { "Retry-After": String(ctx.rate.resetSeconds) },
    });
  }
}

/**
 * targetUrlOf reads the target URL from the raw path: everything after `prefix` (percent-decoded
 * once). A target with its own query string sends it percent-encoded; our query is the options.
 */
export function targetUrlOf(request: Request, prefix: string): string {
  const path = contextOf(request).url.pathname;
  let raw = path.slice(prefix.length);
  try {
    raw = decodeURIComponent(raw);
  } catch {
    throw new AppError("bad_request", "url: the target URL in the path is not valid percent-encoding");
  }
  if (!raw) throw new AppError("missing_input", `Put the target URL after '${prefix}', e.g. ${prefix}https://example.com`);
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `https://${raw}`;
}
