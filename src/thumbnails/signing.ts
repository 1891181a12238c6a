/**
 * Signed thumbnail URLs: `/api/v1/thumbnails/files/{job_id}?expires=UNIX&signature=HEX` is served
 * without an API key (it can go into an <img> tag or an e-mail) as long as the signature is the
 * HMAC-SHA256 of "job_id:expires" under a key derived from the webhook secret, and `expires` has not
 * passed. The derived key keeps the two uses apart: a URL signature never verifies as a webhook.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { AppError } from "../errors";

/** SIGNED_URL_TTL_SECONDS: how long a signed thumbnail URL stays valid */
export const SIGNED_URL_TTL_SECONDS = 24 * 60 * 60;
export const SIGNED_PATH_PREFIX = "/api/v1/thumbnails/files/";

export class UrlSigner {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = createHmac("sha256", secret).update("docintel thumbnail URLs v1").digest();
  }

  /** signedUrl makes the absolute URL of a job's image under `origin`, valid until now + ttlSeconds. */
  signedUrl(origin: string, jobId: string, now = Date.now(), ttlSeconds = SIGNED_URL_TTL_SECONDS): { url: string; expiresAt: string } {
    const expires = Math.floor(now / 1000) + ttlSeconds;
    const url = `${origin}${SIGNED_PATH_PREFIX}${jobId}?expires=${expires}&signature=${this.signature(jobId, expires)}`;
    return { url, expiresAt: new Date(expires * 1000).toISOString() };
  }

  /** verify throws 403 forbidden unless `signature` signs job_id and expires, and expires is still ahead. */
  verify(jobId: string, expires: number, signature: string, now = Date.now()): void {
    const expected = Buffer.from(this.signature(jobId, expires), "hex");
    const given = /^[0-9a-f]{64}$/i.test(signature) ? Buffer.from(signature, "hex") : Buffer.alloc(0);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new AppError("forbidden", "signature: this thumbnail URL is not valid (altered or not issued by this server); ask the API for a new one");
    }
    if (expires * 1000 <= now) {
      throw new AppError("forbidden", `expires: this thumbnail URL expired at ${new Date(expires * 1000).toISOString()}; GET /api/v1/thumbnails/jobs/{job_id} gives a fresh one`);
    }
  }

  private signature(jobId: string, expires: number): string {
    return createHmac("sha256", this.key).update(`${jobId}:${expires}`).digest("hex");
  }
}
