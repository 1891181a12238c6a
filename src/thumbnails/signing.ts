/**
 * Signed thumbnail URLs: `/api/v1/thumbnails/files/{job_id}?expires=UNIX&signature=HEX` is served
 * without an API key (it can go into an <img> tag or an e-mail) as long as the signature is the
 * HMAC-SHA256 of "job_id:expires" under the server's URL signing key, and `expires` has not passed.
 *
 * The URL signing key is the server's alone: 32 random bytes made at first start and kept in the
 * store's settings as URL_SIGNING_KEY_SETTING (SQLite: the file DATA/url-signing-key, mode 0600, as
 * before; PostgreSQL: the settings table), so every process and machine of a deployment signs and
 * verifies alike. It is not derived from any webhook secret: customers know their webhook secrets,
 * and whoever held the key could mint a URL for any key's job.
 *
 * URLs are relative (`/api/v1/...`) unless the operator sets --public-url; the Host header of a
 * request never goes into one (a client could name any host there).
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { AppError } from "../errors";
import type { SettingStore } from "../store/backend";

/** SIGNED_URL_TTL_SECONDS: how long a signed thumbnail URL stays valid */
export const SIGNED_URL_TTL_SECONDS = 24 * 60 * 60;
export const SIGNED_PATH_PREFIX = "/api/v1/thumbnails/files/";
/** URL_SIGNING_KEY_SETTING: the setting of the URL signing key (SQLite: the file of that name in the data dir) */
export const URL_SIGNING_KEY_SETTING = "url-signing-key";

/**
 * resolveUrlSigningKey reads the store's URL signing key, making it on first use; two processes or
 * machines starting together never sign with different keys (the store keeps the first one made).
 */
export function resolveUrlSigningKey(settings: SettingStore): Promise<string> {
  return settings.getOrCreate(URL_SIGNING_KEY_SETTING, () => randomBytes(32).toString("hex"));
}

export class UrlSigner {
  private readonly key: Buffer;

  /** key: the URL signing key as resolveUrlSigningKey returns it (hex text) */
  constructor(key: string) {
    this.key = Buffer.from(key, "utf8");
  }

  /**
   * signedUrl makes the URL of a job's image, valid until now + ttlSeconds: under `base` (the
   * --public-url, e.g. https://docs.example.com) when one is configured, else relative ("" base).
   */
  signedUrl(base: string, jobId: string, now = Date.now(), ttlSeconds = SIGNED_URL_TTL_SECONDS): { url: string; expiresAt: string } {
    const expires = Math.floor(now / 1000) + ttlSeconds;
    const url = `${base}${SIGNED_PATH_PREFIX}${jobId}?expires=${expires}&signature=${this.signature(jobId, expires)}`;
    return { url, expiresAt: new Date(expires * 1000).toISOString() };
  }

  /** verify throws 403 forbidden unless `signature` signs job_id and expires, and expires is still ahead. */
  verify(jobId: string, expires: number, signature: string, now = Date.now()): void {
    if (!this.matches(`${jobId}:${expires}`, signature)) {
      throw new AppError("forbidden", "signature: this thumbnail URL is not valid (altered or not issued by this server); ask the API for a new one");
    }
    if (expires * 1000 <= now) {
      throw new AppError("forbidden", `expires: this thumbnail URL expired at ${new Date(expires * 1000).toISOString()}; GET /api/v1/thumbnails/jobs/{job_id} gives a fresh one`);
    }
  }

  /** sign is the hex HMAC-SHA256 of `text` under the URL signing key (also the signature of preview links, previewLinks.ts). */
  sign(text: string): string {
    return createHmac("sha256", this.key).update(text).digest("hex");
  }

  /** matches compares `signature` with sign(text) in constant time; a signature that is not 64 hex digits never matches. */
  matches(text: string, signature: string): boolean {
    const expected = Buffer.from(this.sign(text), "hex");
    const given = /^[0-9a-f]{64}$/i.test(signature) ? Buffer.from(signature, "hex") : Buffer.alloc(0);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private signature(jobId: string, expires: number): string {
    return this.sign(`${jobId}:${expires}`);
  }
}
