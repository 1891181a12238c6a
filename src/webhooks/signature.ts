/**
 * Webhook signatures (spec Authentication 3): `X-SVC-Signature: sha256=<lowercase hex HMAC-SHA256 of
 * the raw body>`, keyed with the signing secret. Receivers verify with `verifySignature`, which
 * compares in constant time.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

export const SIGNATURE_HEADER = "X-SVC-Signature";
export const DELIVERY_ID_HEADER = "X-SVC-Delivery-ID";

/** signBody returns the header value for a raw body. */
export function signBody(secret: string, body: string | Uint8Array): string {
  return "sha256=" + createHmac("sha256", secret).update(body).digest("hex");
}

/** verifySignature checks a header value against the raw body in constant time. */
export function verifySignature(secret: string, body: string | Uint8Array, header: string | null | undefined): boolean {
  if (!header) return false;
  const expected = Buffer.from(signBody(secret, body));
  const given = Buffer.from(header.trim());
  // timingSafeEqual needs equal lengths; the length of a well-formed header is public anyway
  return given.length === expected.length && timingSafeEqual(given, expected);
}
