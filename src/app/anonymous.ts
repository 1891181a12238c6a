/**
 * Keyless use, as an operator's choice (--anonymous-plan free): requests without a key to the
 * operations that allow it (GET /md/{url} and GET /{url}) run on one shared key, named "anonymous",
 * on the free plan: its monthly credits are the shared budget (`docintel credits grant` adds to it,
 * `docintel keys revoke` ends keyless use), and each client IP address has its own rate limit
 * (--anonymous-rate-per-ip). The key is made in the store on the first keyless request and shows
 * in `docintel keys list`; its secret is never printed and never used.
 */
import { AppError } from "../errors";
import { createApiKey, getApiKey, listApiKeys, type ApiKeyInfo } from "../security/apiKeys";
import type { Store } from "../store";
import type { RateLimiter } from "../credits/rateLimit";
import { rateLimitHeaders, type RequestContext } from "./context";

export const ANONYMOUS_KEY_NAME = "anonymous";

/** KEYLESS_OFF: the 401 detail once the anonymous key is revoked */
const KEYLESS_OFF = "Keyless use has been turned off on this server (its anonymous key was revoked); send an API key in the X-API-Key header or as Authorization: Bearer KEY.";

export class AnonymousAccess {
  private keyId: string | null = null;

  constructor(
    private readonly store: Store,
    private readonly rateLimiter: RateLimiter,
    private readonly perIpPerMinute: number,
  ) {}

  /** account is the shared key: the oldest active key named "anonymous", made on first use. */
  private account(): ApiKeyInfo {
    if (this.keyId) {
      const known = getApiKey(this.store, this.keyId);
      if (known && !known.revokedAt) return known;
      if (known?.revokedAt) throw new AppError("unauthorized", KEYLESS_OFF);
    }
    const existing = listApiKeys(this.store)
      .filter((k) => k.name === ANONYMOUS_KEY_NAME)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    const active = existing.find((k) => !k.revokedAt);
    if (!active && existing.length > 0) throw new AppError("unauthorized", KEYLESS_OFF);
    const info = active ?? createApiKey(this.store, "free", ANONYMOUS_KEY_NAME).info;
    this.keyId = info.id;
    return info;
  }

  /**
   * admit counts a keyless request against its IP address's rate limit (429 past it) and returns the
   * shared key its credits are charged to.
   */
  async admit(ctx: RequestContext, headers: Record<string, string | number>): Promise<ApiKeyInfo> {
    const key = this.account();
    ctx.key = key;
    ctx.rate = await this.rateLimiter.consume(`anon:${ctx.clientIp ?? "unknown"}`, this.perIpPerMinute);
    Object.assign(headers, rateLimitHeaders(ctx));
    if (!ctx.rate.allowed) {
      throw new AppError("rate_limited", `Keyless requests are limited to ${ctx.rate.limit} a minute per address; retry in ${ctx.rate.resetSeconds} s, or send an API key.`, {
        headers: { "Retry-After": String(ctx.rate.resetSeconds) },
      });
    }
    return key;
  }
}
