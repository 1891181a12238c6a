/**
 * Keyless use, as an operator's choice (--anonymous-plan free): requests without a key to the
 * operations that allow it (GET /md/{url} and GET /{url}) run on one shared key, named "anonymous",
 * on the free plan: its monthly credits are the shared budget (`docintel credits grant` adds to it,
 * `docintel keys revoke` ends keyless use), and each client IP address has its own rate limit
 * (--anonymous-rate-per-ip). The key is made in the store on the first keyless request and shows
 * in `docintel keys list`; its secret is never printed and never used.
 */
import { AppError } from "../errors";
import { keyInfoOf, listApiKeys, newApiKey, type ApiKeyInfo, type KeyResolver } from "../security/apiKeys";
import type { KeyStore, SettingStore } from "../store/backend";
import type { RateLimiter } from "../credits/rateLimit";
import { rateLimitHeaders, type RequestContext } from "../http/context";

export const ANONYMOUS_KEY_NAME = "anonymous";
/** ANONYMOUS_CLAIM: the setting naming the shared key's id, so that processes and machines starting together make one */
export const ANONYMOUS_CLAIM = "anonymous-key-id";

/** KEYLESS_OFF: the 401 detail once the anonymous key is revoked */
const KEYLESS_OFF = "Keyless use has been turned off on this server (its anonymous key was revoked); send an API key in the X-API-Key header or as Authorization: Bearer KEY.";

export class AnonymousAccess {
  private keyId: string | null = null;
  /** finding: the first lookup (or creation) of the shared key, so that a burst of first requests makes one */
  private finding: Promise<ApiKeyInfo> | null = null;

  constructor(
    private readonly store: { keys: KeyStore; settings: SettingStore },
    private readonly resolver: KeyResolver,
    private readonly rateLimiter: RateLimiter,
    private readonly perIpPerMinute: number,
  ) {}

  /**
   * account is the shared key: the oldest active key named "anonymous", made on first use. Once
   * known it is read through the key resolver's cache, so a revocation on any machine ends keyless
   * use as soon as the resolver sees it.
   */
  private async account(): Promise<ApiKeyInfo> {
    if (this.keyId) {
      const found = this.resolver.byId(this.keyId);
      const known = found instanceof Promise ? await found : found;
      if (known && !known.revokedAt) return known;
      if (known?.revokedAt) throw new AppError("unauthorized", KEYLESS_OFF);
    }
    this.finding ??= this.find().finally(() => (this.finding = null));
    return this.finding;
  }

  /**
   * find looks the shared key up in the store, or makes it. The id of a new one is agreed through the
   * setting ANONYMOUS_CLAIM: every process proposes one, the first stored wins, and whoever finds the
   * winner's row missing (its maker is still on the way, or died) inserts a row with that id itself;
   * the one insert that loses on the id reads the other's row. Its key is never handed out.
   */
  private async find(): Promise<ApiKeyInfo> {
    const existing = (await listApiKeys(this.store.keys))
      .filter((k) => k.name === ANONYMOUS_KEY_NAME)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
    const active = existing.find((k) => !k.revokedAt);
    if (!active && existing.length > 0) throw new AppError("unauthorized", KEYLESS_OFF);
    const info = active ?? (await this.make());
    this.keyId = info.id;
    return info;
  }

  private async make(): Promise<ApiKeyInfo> {
    const { row } = newApiKey("free", ANONYMOUS_KEY_NAME);
    const id = await this.store.settings.getOrCreate(ANONYMOUS_CLAIM, () => row.id);
    let stored = await this.store.keys.byId(id);
    if (!stored) {
      try {
        await this.store.keys.insert({ ...row, id });
      } catch (error) {
        if (!(await this.store.keys.byId(id))) throw error; // not a lost race on the id
      }
      stored = await this.store.keys.byId(id);
    }
    if (!stored) throw new Error(`the anonymous key ${id} was not stored`);
    if (stored.revoked_at) throw new AppError("unauthorized", KEYLESS_OFF);
    return keyInfoOf(stored);
  }

  /**
   * admit counts a keyless request against its IP address's rate limit (429 past it) and returns the
   * shared key its credits are charged to.
   */
  async admit(ctx: RequestContext, headers: Record<string, string | number>): Promise<ApiKeyInfo> {
    const key = await this.account();
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
