/**
 * SSRF guard for every outbound fetch. A URL is fetchable when it is http(s), carries no
 * credentials, and every address its host resolves to is public. `guardedFetch` follows redirects
 * itself so each hop is checked again, keeps one deadline for all hops, and counts bytes while the
 * body streams in so an oversized document is cut off instead of buffered.
 *
 *   raw url -> assertFetchableUrl (scheme, credentials, name, DNS, address classes)
 *           -> fetch(redirect: "manual") -> 3xx? next hop (re-checked, headers dropped cross-origin)
 *           -> 2xx -> Content-Length check -> streamed read with byte count -> bytes
 *
 * DNS rebinding: the check resolves the name, then the fetch would resolve it again, and a hostile
 * DNS server may answer with a public address first and a private one second. For plain http the
 * fetch therefore connects to the address that was checked (Host header set to the original host).
 * For https we keep the name so that TLS verifies the certificate; a rebind to an internal address
 * then fails the handshake unless the internal server holds a valid certificate for the attacker's
 * name. That residual risk is accepted.
 */
import { untilAborted } from "../runtime/signals";
import { describeBytes } from "../runtime/values";
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { AppError } from "../errors";

// ---------------------------------------------------------------------------------------------
// Address classes

/** classifyAddress returns why an IPv4 or IPv6 address must not be fetched, or null when it is public. */
export function classifyAddress(ip: string): string | null {
  const bare = ip.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const family = isIP(bare);
  if (family === 4) return classifyV4(parseV4(bare));
  if (family === 6) return classifyV6(parseV6(bare));
  return "not an IP address";
}

type V4 = [number, number, number, number];

/** parseV4 splits a dotted quad; callers pass only text that isIP() or the dotted-tail regex accepted, so there are four parts. */
function parseV4(ip: string): V4 {
  return ip.split(".").map((part) => Number.parseInt(part, 10)) as V4;
}

function classifyV4([a, b, c, d]: V4): string | null {
  if (a === 0) return "unspecified";
  if (a === 10) return "private";
  if (a === 100 && b === 100 && c === 100 && d === 200) return "cloud metadata"; // Alibaba Cloud
  if (a === 100 && b >= 64 && b <= 127) return "carrier-grade NAT";
  if (a === 127) return "loopback";
  if (a === 169 && b === 254 && c === 169 && d === 254) return "cloud metadata";
  if (a === 169 && b === 254) return "link-local";
  if (a === 168 && b === 63 && c === 129 && d === 16) return "cloud metadata"; // Azure wire server
  if (a === 172 && b >= 16 && b <= 31) return "private";
  if (a === 192 && b === 0 && c === 0) return "reserved";
  if (a === 192 && b === 0 && c === 2) return "documentation";
  if (a === 192 && b === 88 && c === 99) return "reserved"; // 6to4 relay anycast
  if (a === 192 && b === 168) return "private";
  if (a === 198 && (b === 18 || b === 19)) return "reserved"; // benchmarking
  if (a === 198 && b === 51 && c === 100) return "documentation";
  if (a === 203 && b === 0 && c === 113) return "documentation";
  if (a >= 224 && a <= 239) return "multicast";
  if (a === 255 && b === 255 && c === 255 && d === 255) return "broadcast";
  if (a >= 240) return "reserved";
  return null;
}

/** parseV6 expands any valid IPv6 text (compressed, with a dotted IPv4 tail) into eight 16-bit words. */
function parseV6(ip: string): number[] {
  let text = ip.toLowerCase();
  const dotted = text.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted) {
    const [a, b, c, d] = parseV4(dotted[1]!);
    text = text.slice(0, -dotted[1]!.length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split("::");
  const toWords = (part: string | undefined) => (part ? part.split(":").map((w) => Number.parseInt(w, 16)) : []);
  const headWords = toWords(head);
  const tailWords = toWords(tail);
  const zeros = tail === undefined ? 0 : 8 - headWords.length - tailWords.length;
  return [...headWords, ...new Array(zeros).fill(0), ...tailWords];
}

function embeddedV4(words: number[], at: number): V4 {
  const hi = words[at]!;
  const lo = words[at + 1]!;
  return [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff];
}

/** classifyV6 takes the eight words from parseV6. */
function classifyV6(w: number[]): string | null {
  const w0 = w[0]!;
  const firstSixZero = w.slice(0, 6).every((x) => x === 0);
  if (firstSixZero && w[6] === 0 && w[7] === 0) return "unspecified";
  if (firstSixZero && w[6] === 0 && w[7] === 1) return "loopback";
  if (firstSixZero) return "reserved"; // deprecated IPv4-compatible ::a.b.c.d
  if (w.slice(0, 5).every((x) => x === 0) && w[5] === 0xffff) {
    const reason = classifyV4(embeddedV4(w, 6));
    return reason && `IPv4-mapped ${reason}`;
  }
  if (w[0] === 0x64 && w[1] === 0xff9b && w.slice(2, 6).every((x) => x === 0)) {
    const reason = classifyV4(embeddedV4(w, 6));
    return reason && `NAT64 ${reason}`;
  }
  if (w[0] === 0x64 && w[1] === 0xff9b && w[2] === 1) return "private"; // local-use NAT64
  if (w[0] === 0x2002) {
    const reason = classifyV4(embeddedV4(w, 1));
    return reason && `6to4 ${reason}`;
  }
  if (w[0] === 0x2001 && w[1] === 0) return "reserved"; // Teredo tunnels hide the real address
  if (w[0] === 0x2001 && w[1] === 0xdb8) return "documentation";
  if (w[0] === 0xfd00 && w[1] === 0x0ec2 && w.slice(2, 7).every((x) => x === 0) && w[7] === 0x254) return "cloud metadata";
  if ((w0 & 0xfe00) === 0xfc00) return "private";
  if ((w0 & 0xffc0) === 0xfe80) return "link-local";
  if ((w0 & 0xffc0) === 0xfec0) return "private"; // deprecated site-local
  if ((w0 & 0xff00) === 0xff00) return "multicast";
  // Only 2000::/3 is global unicast; everything else left is reserved or special-purpose.
  if ((w0 & 0xe000) !== 0x2000) return "reserved";
  return null;
}

// ---------------------------------------------------------------------------------------------
// URL check

export interface FetchableUrlOptions {
  /** allowPrivate: true lets loopback, private, link-local and metadata addresses through */
  allowPrivate: boolean;
  /** field names the request field in error messages; default "url" */
  field?: string;
  /** resolve: how a host name becomes addresses; default the system resolver (tests script it) */
  resolve?: Resolver;
}

/**
 * Resolver returns every address a host name resolves to (IPv4 or IPv6 text); it rejects when the
 * name does not resolve. It is the seam through which tests script DNS answers (rebinding).
 */
export type Resolver = (host: string) => Promise<string[]>;

/** systemResolver asks the operating system (getaddrinfo), as the rest of the machine would. */
export const systemResolver: Resolver = async (host) => {
  const records = await lookup(host, { all: true, verbatim: true });
  return records.map((r) => r.address);
};

// worded for the service and `docintel md` alike: both take --allow-private-urls
const PRIVATE_HINT = "private addresses are refused unless --allow-private-urls is set";

function withArticle(reason: string): string {
  return /^[aeiou]/i.test(reason) ? `an ${reason}` : `a ${reason}`;
}

/** assertFetchableUrl parses and checks a URL and resolves its host; it throws url_refused when any address is forbidden. */
export async function assertFetchableUrl(raw: string, opts: FetchableUrlOptions): Promise<{ url: URL; addresses: string[] }> {
  const field = opts.field ?? "url";
  let url: URL;
  try {
    url = new URL(raw);
  } catch (cause) {
    throw new AppError("bad_request", `${field}: '${raw}' is not an absolute URL; send e.g. https://example.com/report.pdf`, { cause });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new AppError("url_refused", `${field}: scheme '${url.protocol.replace(/:$/, "")}' is not supported; send an http or https URL`);
  }
  if (url.username || url.password) {
    throw new AppError("url_refused", `${field}: credentials in the URL (user:password@) are refused; send them as a header in url_headers instead`);
  }

  // WHATWG URL has already normalised 2130706433, 0x7f.1 and 0177.0.0.1 to 127.0.0.1 here.
  const host = url.hostname.replace(/^\[|\]$/g, "").replace(/\.$/, "").toLowerCase();
  if (!opts.allowPrivate && (host === "localhost" || host.endsWith(".localhost"))) {
    throw new AppError("url_refused", `${field}: '${url.href}' names ${host}, a loopback host; ${PRIVATE_HINT}`);
  }

  const addresses = isIP(host) ? [host] : await resolveHost(host, field, opts.resolve ?? systemResolver);
  if (!opts.allowPrivate) {
    for (const address of addresses) {
      const reason = classifyAddress(address);
      if (reason) {
        throw new AppError("url_refused", `${field}: '${url.href}' resolves to ${address}, ${withArticle(reason)} address; ${PRIVATE_HINT}`);
      }
    }
  }
  return { url, addresses };
}

async function resolveHost(host: string, field: string, resolve: Resolver): Promise<string[]> {
  try {
    const addresses = await resolve(host);
    if (addresses.length === 0) throw new Error("no addresses");
    return addresses;
  } catch (cause) {
    const code = (cause as { code?: string }).code ?? (cause as Error).message;
    throw new AppError("url_unreachable", `${field}: the host '${host}' could not be resolved (${code}); check the URL`, { cause });
  }
}

// ---------------------------------------------------------------------------------------------
// url_headers

/** Headers a client may not set: they belong to the connection or would let it re-target the request. */
const FORBIDDEN_HEADERS = new Set([
  "host",
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "upgrade",
  "te",
  "trailer",
  "proxy-connection",
  "proxy-authorization",
  "expect",
]);

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** parseUrlHeaders parses the JSON object of extra request headers sent with a URL; empty or absent means none. */
export function parseUrlHeaders(raw: string | undefined, field = "url_headers"): Record<string, string> {
  if (raw === undefined || raw.trim() === "") return {};
  const shapeHint = `${field}: must be a JSON object of header names to string values, e.g. {"Authorization": "Bearer ..."}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (cause) {
    throw new AppError("bad_request", shapeHint, { cause });
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new AppError("bad_request", shapeHint);

  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(parsed)) {
    if (typeof value !== "string") throw new AppError("bad_request", `${shapeHint}; the value of '${name}' is not a string`);
    if (!HEADER_NAME.test(name)) throw new AppError("bad_request", `${field}: '${name}' is not a valid header name`);
    if (FORBIDDEN_HEADERS.has(name.toLowerCase())) {
      throw new AppError("bad_request", `${field}: the header '${name}' is set by the server and may not be sent; remove it`);
    }
    if (/[\r\n\0]/.test(value)) throw new AppError("bad_request", `${field}: the value of '${name}' contains a line break or NUL; remove it`);
    headers[name] = value;
  }
  return headers;
}

/**
 * headersForOrigin returns the client's url_headers for a request to `target` when it has exactly
 * the origin (scheme, host and port) of `callerUrl`, the URL the client sent, and none otherwise.
 * Every later request of the same operation (a redirect, the browser rendering the final URL, a
 * followed link) asks this, so a token never reaches an origin the client did not name: an open
 * redirect on the client's site cannot carry it to another port or scheme of the same host.
 */
export function headersForOrigin(headers: Record<string, string>, callerUrl: string, target: string): Record<string, string> {
  if (Object.keys(headers).length === 0) return headers;
  try {
    return new URL(target).origin === new URL(callerUrl).origin ? headers : {};
  } catch {
    return {};
  }
}

// ---------------------------------------------------------------------------------------------
// Fetch

export interface GuardedFetchOptions extends FetchableUrlOptions {
  /** headers: the client's url_headers, sent only to the origin of the URL given (see headersForOrigin) */
  headers?: Record<string, string>;
  /** maxBytes: largest body accepted, in bytes */
  maxBytes: number;
  /** timeoutMs: one deadline for DNS, all redirect hops and the body, in milliseconds */
  timeoutMs: number;
  /** maxRedirects: hops followed before giving up; default 5, 0 = redirects are errors */
  maxRedirects?: number;
  signal?: AbortSignal;
  method?: string;
  /** body: re-sent on 307/308; streams are not accepted because they cannot be replayed */
  body?: string | Uint8Array | ArrayBuffer | Blob | URLSearchParams | FormData;
}

export interface GuardedFetchResult {
  bytes: Uint8Array;
  finalUrl: string;
  status: number;
  contentType: string | null;
  headers: Headers;
}

const USER_AGENT = "docintel/0.1 (+document fetch)";
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** guardedFetch fetches a URL under the SSRF guard, the byte limit and one overall deadline. */
export async function guardedFetch(raw: string, opts: GuardedFetchOptions): Promise<GuardedFetchResult> {
  const field = opts.field ?? "url";
  const maxRedirects = opts.maxRedirects ?? 5;
  const deadline = AbortSignal.timeout(opts.timeoutMs);
  const signal = opts.signal ? AbortSignal.any([deadline, opts.signal]) : deadline;

  /** failure turns an abort or network error into the error the client should see. */
  function failure(cause: unknown, href: string): unknown {
    if (cause instanceof AppError) return cause;
    if (opts.signal?.aborted) return opts.signal.reason ?? cause;
    if (deadline.aborted) {
      return new AppError("url_unreachable", `${field}: '${href}' did not deliver within ${opts.timeoutMs} ms (the fetch timeout); try a faster host`, { cause });
    }
    const code = (cause as { code?: string }).code ?? (cause as Error)?.message ?? String(cause);
    return new AppError("url_unreachable", `${field}: could not fetch '${href}' (${code}); check that the URL is reachable from the server`, { cause });
  }

  let href = raw;
  let method = opts.method ?? "GET";
  let body = opts.body;
  let userHeaders = opts.headers ?? {};

  for (let hop = 0; ; hop++) {
    const { url, addresses } = await untilAborted(assertFetchableUrl(href, opts), signal).catch((cause) => {
      throw failure(cause, href);
    });
    // Once a redirect leaves the client's origin its headers (tokens, cookies) stay behind, also
    // when a later hop comes back: that hop was chosen by a server the client did not name.
    userHeaders = headersForOrigin(userHeaders, raw, url.href);

    const { target, pinnedHost } = pinToAddress(url, addresses);
    const headers = new Headers({ "user-agent": USER_AGENT, ...userHeaders });
    if (pinnedHost) headers.set("host", pinnedHost);

    let response: Response;
    try {
      // Cast: the DOM BodyInit type admits only ArrayBuffer-backed views, while our option type is a plain
      // Uint8Array (ArrayBufferLike); Bun's fetch sends either.
      response = await fetch(target, { method, headers, body: body as BodyInit | undefined, redirect: "manual", signal });
    } catch (cause) {
      throw failure(cause, url.href);
    }

    const location = response.headers.get("location");
    if (REDIRECT_STATUSES.has(response.status) && location) {
      await response.body?.cancel().catch(() => {});
      if (hop >= maxRedirects) {
        throw new AppError("url_unreachable", `${field}: '${raw}' redirected more than ${maxRedirects} times; send the final URL instead`);
      }
      href = new URL(location, url).href;
      if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === "POST")) {
        method = "GET";
        body = undefined;
      }
      continue;
    }

    if (response.status < 200 || response.status > 299) {
      await response.body?.cancel().catch(() => {});
      throw new AppError("url_unreachable", `${field}: '${url.href}' answered HTTP ${response.status}; check the URL and url_headers`);
    }

    const tooLarge = () =>
      new AppError("payload_too_large", `${field}: the document at '${url.href}' is larger than ${describeBytes(opts.maxBytes)} (the limit)`);
    const declaredLength = Number(response.headers.get("content-length"));
    if (Number.isFinite(declaredLength) && declaredLength > opts.maxBytes) {
      await response.body?.cancel().catch(() => {});
      throw tooLarge();
    }

    let bytes: Uint8Array;
    try {
      bytes = await readLimited(response, opts.maxBytes, tooLarge);
    } catch (cause) {
      throw failure(cause, url.href);
    }
    return {
      bytes,
      finalUrl: url.href,
      status: response.status,
      contentType: response.headers.get("content-type"),
      headers: response.headers,
    };
  }
}

/**
 * pinToAddress rewrites a plain-http URL to the checked address so a second DNS answer cannot
 * redirect the connection (see the module comment); https keeps the name for certificate checks.
 */
export function pinToAddress(url: URL, addresses: string[]): { target: string; pinnedHost: string | null } {
  if (url.protocol !== "http:" || isIP(url.hostname.replace(/^\[|\]$/g, "")) || addresses.length === 0) {
    return { target: url.href, pinnedHost: null };
  }
  const address = pinnedAddress(addresses);
  const pinned = new URL(url.href);
  pinned.hostname = isIP(address) === 6 ? `[${address}]` : address;
  return { target: pinned.href, pinnedHost: url.host };
}

/**
 * pinnedAddress picks the one address of a checked answer that the connection will use: the first
 * IPv4 address (IPv6 may have no route), else the first. `addresses` must not be empty.
 */
export function pinnedAddress(addresses: string[]): string {
  return addresses.find((a) => isIP(a) === 4) ?? addresses[0]!;
}

/** readLimited reads a body into memory and cancels the stream as soon as it passes maxBytes. */
async function readLimited(response: Response, maxBytes: number, tooLarge: () => AppError): Promise<Uint8Array> {
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

