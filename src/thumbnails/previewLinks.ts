/**
 * Signed preview links, for an <img> tag, which cannot send a key: a key holder mints
 * `/api/v1/thumbnails/preview/signed?url=...&width=...&height=...&quality=...&key_id=...&expires=...&signature=...`
 * with POST /api/v1/thumbnails/preview/sign, and anyone holding the link gets the preview until it
 * expires. Each render is billed to the key that minted it, as GET /api/v1/thumbnails/preview is;
 * a preview served from the cache is free, so an image on a busy page costs one render an hour.
 *
 * The signature is the HMAC-SHA256 of every parameter, under the server's URL signing key (the one of
 * the signed thumbnail file URLs, signing.ts), prefixed "preview:" so it can never pass as a file
 * URL's signature or the reverse. Changing any parameter (a bigger size, another URL, another key)
 * breaks it. A revoked key's links stop working; its rate limit counts every view.
 */
import { priceText } from "../credits/costs";
import { Type } from "@sinclair/typebox";
import { AppError } from "../errors";
import { Fields } from "../http/fields";
import type { Route } from "../http/route";
import type { HandlerInput } from "../http/operation";
import { chargeRequest } from "../http/context";
import { RATE_LIMIT_PER_MINUTE } from "../credits/plans";
import type { KeyResolver } from "../security/apiKeys";
import type { RateLimiter } from "../credits/rateLimit";
import { assertFetchableUrl } from "../security/ssrf";
import { jpegResponse, previewOf, sizeOf, type ThumbnailRouteDeps } from "./routes";
import type { ThumbnailSize } from "./service";

export const PREVIEW_SIGNED_PATH = "/api/v1/thumbnails/preview/signed";
/** PREVIEW_LINK_TTL: default and longest life of a preview link, in seconds */
export const PREVIEW_LINK_TTL = { default: 24 * 60 * 60, max: 7 * 24 * 60 * 60 } as const;

const size = {
  width: Type.Integer({ minimum: 1, maximum: 4000, default: 600, description: "maximum width in pixels (fit inside, aspect ratio kept, never upscaled)" }),
  height: Type.Integer({ minimum: 1, maximum: 4000, default: 400, description: "maximum height in pixels" }),
  quality: Type.Integer({ minimum: 1, maximum: 100, default: 95, description: "JPEG quality" }),
};

const SignBody = Fields(
  {
    url: Type.String({ minLength: 1, maxLength: 8192, description: "URL of the file or page to preview", examples: ["https://example.com"] }),
    ...size,
    expires_in: Type.Integer({ minimum: 60, maximum: PREVIEW_LINK_TTL.max, default: PREVIEW_LINK_TTL.default, description: "seconds the link stays valid (60 s to 7 days)" }),
  },
  { required: ["url"] },
);

const SignedQuery = Fields(
  {
    url: Type.String({ minLength: 1, maxLength: 8192 }),
    width: size.width,
    height: size.height,
    quality: size.quality,
    key_id: Type.String({ minLength: 1, maxLength: 64, description: "the key the renders are billed to (part of the signed link)" }),
    expires: Type.Integer({ minimum: 0, description: "expiry, in seconds since 1970 (part of the signed link)" }),
    signature: Type.String({ maxLength: 128, description: "HMAC-SHA256 signature (part of the signed link)" }),
  },
  { required: ["url", "key_id", "expires", "signature"] },
);

const SignedResponse = Type.Object({ success: Type.Literal(true), url: Type.String(), expires_at: Type.String() });

interface PreviewLink extends ThumbnailSize {
  url: string;
  keyId: string;
  expires: number;
}

/** signedText is what a link's signature signs: every parameter of the link. */
function signedText(link: PreviewLink): string {
  return JSON.stringify(["preview", link.keyId, link.url, link.width, link.height, link.quality, link.expires]);
}

/** linkOf writes the link under --public-url, or relative when there is none. */
function linkOf(publicUrl: string | undefined, link: PreviewLink, signature: string): string {
  const query = new URLSearchParams({
    url: link.url,
    width: String(link.width),
    height: String(link.height),
    quality: String(link.quality),
    key_id: link.keyId,
    expires: String(link.expires),
    signature,
  });
  return `${publicUrl ?? ""}${PREVIEW_SIGNED_PATH}?${query}`;
}

/** verifiedLink checks the signature and the expiry; 403 forbidden otherwise. */
/** PreviewLinkRouteDeps: what the preview link routes use of the services (the link's key is charged, not the caller's). */
export type PreviewLinkRouteDeps = ThumbnailRouteDeps & {
  keys: Pick<KeyResolver, "byId">;
  rateLimiter: Pick<RateLimiter, "consume">;
};

function verifiedLink({ query, services }: HandlerInput<PreviewLinkRouteDeps>): PreviewLink {
  const link: PreviewLink = { url: String(query.url), keyId: String(query.key_id), expires: Number(query.expires), ...sizeOf(query) };
  if (!services.thumbnails.signer.matches(signedText(link), String(query.signature))) {
    throw new AppError("forbidden", "signature: this preview link is not valid (altered or not issued by this server); mint a new one with POST /api/v1/thumbnails/preview/sign");
  }
  if (link.expires * 1000 <= Date.now()) {
    throw new AppError("forbidden", `expires: this preview link expired at ${new Date(link.expires * 1000).toISOString()}; mint a new one with POST /api/v1/thumbnails/preview/sign`);
  }
  return link;
}

export const previewLinkRoutes: Route<PreviewLinkRouteDeps>[] = [
  {
    op: {
      method: "POST",
      path: "/api/v1/thumbnails/preview/sign",
      tag: "Thumbnails",
      summary: "Mint a signed preview link for an <img> tag",
      description:
        "JSON body: `url`, optional `width`, `height`, `quality` and `expires_in` (seconds, default one day, at most 7 days). Answers a link to GET /api/v1/thumbnails/preview/signed that needs no key, absolute under the server's --public-url or else relative. Each render through the link is billed to this key as a thumbnail (" +
        priceText("thumbnail") +
        "); a preview served from the cache (an hour per URL and size) is free. Changing any part of the link breaks its signature; revoking the key ends its links. Minting is free.",
      body: SignBody,
      bodyType: "json",
      maxRequestBytes: 64 * 1024,
      responses: { 200: { description: "The signed link", schema: SignedResponse }, 400: "The URL is invalid or refused (private address)" },
    },
    handler: async ({ body, services, ctx }) => {
      const url = String(body.url).trim();
      await assertFetchableUrl(url, { allowPrivate: services.config.allowPrivateUrls, field: "url" });
      const expires = Math.floor(Date.now() / 1000) + Number(body.expires_in ?? PREVIEW_LINK_TTL.default);
      const link: PreviewLink = { url, keyId: ctx.key!.id, expires, ...sizeOf(body) };
      return { success: true as const, url: linkOf(services.config.publicUrl, link, services.thumbnails.signer.sign(signedText(link))), expires_at: new Date(expires * 1000).toISOString() };
    },
  },
  {
    op: {
      method: "GET",
      path: PREVIEW_SIGNED_PATH,
      tag: "Thumbnails",
      public: true,
      summary: "JPEG preview through a signed link (no key)",
      description:
        "The link minted by POST /api/v1/thumbnails/preview/sign: the JPEG preview of `url` at the signed size, for an <img> tag. Billed to the key that minted it, each render as a thumbnail (" +
        priceText("thumbnail") +
        "; cache hits free), under that key's rate limit. 403 when the signature does not match or the link expired, or the key was revoked.",
      query: SignedQuery,
      responses: {
        200: { description: "The preview", contentType: "image/jpeg" },
        400: "Invalid, refused or unreachable URL, or an unreadable document",
        402: "The key that minted the link has not enough credits",
        403: "Altered or expired link, or a revoked key",
        429: "The minting key's rate limit",
        504: "The preview did not finish within the deadline",
      },
    },
    handler: async (input) => {
      const { services, ctx, set } = input;
      const link = verifiedLink(input);
      const found = services.keys.byId(link.keyId);
      const key = found instanceof Promise ? await found : found;
      if (!key || key.revokedAt) throw new AppError("forbidden", "key_id: the key that minted this preview link was revoked; mint a new one with an active key");
      await chargeRequest(ctx, services.rateLimiter, key, RATE_LIMIT_PER_MINUTE[key.plan], set.headers, "of the key behind this link");
      await assertFetchableUrl(link.url, { allowPrivate: services.config.allowPrivateUrls, field: "url" });
      const { jpeg, cached, creditsUsed } = await previewOf(input, key, link.url, link, false, { cacheHitsFree: true });
      return jpegResponse(jpeg, set, { "x-cache": cached ? "hit" : "miss", "x-credits-used": String(creditsUsed), "cache-control": "public, max-age=3600" });
    },
  },
];
