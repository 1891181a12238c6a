/**
 * Authentication of one request: the key, sent as X-API-Key or as Authorization: Bearer (401),
 * the shutdown gate (503) and the key's rate limit (429). Which requests need it is decided by the
 * route that matched (see createApp), never by the path's prefix; `authenticate` only does the check.
 */
import { AppError } from "../errors";
import { RATE_LIMIT_PER_MINUTE } from "../credits/plans";
import type { RateLimiter } from "../credits/rateLimit";
import type { ApiKeyInfo, KeyResolver } from "../security/apiKeys";
import { chargeRequest, contextOf } from "../http/context";

/** AuthDeps: what authentication uses of the services. */
export interface AuthDeps {
  /** draining: true once shutdown has begun (new work is refused with 503) */
  draining: boolean;
  keys: Pick<KeyResolver, "resolve">;
  rateLimiter: Pick<RateLimiter, "consume">;
}

/** MISSING_KEY: the 401 detail when no key was sent; it names both ways to send one. */
export const MISSING_KEY = "Missing API key: send it in the X-API-Key header or as Authorization: Bearer KEY.";

/**
 * presentedKey is the key the request carries: the X-API-Key header, else the token of an
 * `Authorization: Bearer` header (the convention of Firecrawl and Jina Reader); null when neither.
 */
export function presentedKey(request: Request): string | null {
  const header = request.headers.get("x-api-key");
  if (header?.trim()) return header;
  const bearer = /^\s*bearer\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "");
  return bearer ? bearer[1]! : null;
}

/** refuseWhileDraining: 503 shutting_down once shutdown has begun (new work is refused). */
export function refuseWhileDraining(services: Pick<AuthDeps, "draining">): void {
  if (services.draining) throw new AppError("shutting_down", "The service is shutting down; retry shortly.", { headers: { "Retry-After": "5" } });
}

/**
 * authenticate resolves the request's key and counts the request against the key's rate limit;
 * it throws AppError unauthorized, shutting_down or rate_limited. A second call for the same
 * request returns the key found by the first without counting again.
 */
export async function authenticate(request: Request, services: AuthDeps, headers: Record<string, string | number>): Promise<ApiKeyInfo> {
  const ctx = contextOf(request);
  if (ctx.key) return ctx.key;
  refuseWhileDraining(services);
  const presented = presentedKey(request);
  if (!presented) throw new AppError("unauthorized", MISSING_KEY);
  const resolved = services.keys.resolve(presented);
  // a cached key is a value: no await on the fast path
  const key = resolved instanceof Promise ? await resolved : resolved;
  await chargeRequest(ctx, services.rateLimiter, key, RATE_LIMIT_PER_MINUTE[key.plan], headers, `for the ${key.plan} plan`);
  return key;
}
