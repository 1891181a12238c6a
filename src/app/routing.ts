/**
 * What the router cannot say by itself: whether a path after `/` or `/md/` is a target URL (the
 * screenshot and markdown catch-alls take only those), and what to answer for a path no operation
 * takes: 405 with `Allow` when the path exists for other methods, else 404 with the closest known path.
 */
import { AppError } from "../errors";

/** KnownRoute: one method and Elysia path pattern (`/api/v1/jobs/:task_id`, `/md/*`, `/*`). */
export interface KnownRoute {
  method: string;
  path: string;
  /** docPath: the path as documented, e.g. /md/{url}; defaults to `path` */
  docPath?: string;
  public: boolean;
}

/** CATCH_ALLS: the catch-all patterns whose rest must be a URL, with the prefix each strips. */
const CATCH_ALLS: Record<string, string> = { "/md/*": "/md/", "/*": "/" };

const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
/** HOST: a host name or IPv4 address with at least one dot, an optional port, then a path, query or the end */
const HOST = /^[\p{L}\p{N}-]+(\.[\p{L}\p{N}-]+)+\.?(:\d{1,5})?([/?#]|$)/iu;

/**
 * FILE_SUFFIXES: endings of the files browsers and scanners ask every server for (/apple-touch-icon.png,
 * /wp-login.php, /sitemap.xml); none is a top-level domain, so a scheme-less host ending so is a file.
 */
const FILE_SUFFIXES = /\.(ico|png|jpe?g|gif|svg|txt|html?|php|aspx?|jsp|cgi|js|css|json|xml|map|webmanifest|env|ini|bak|sql|log)$/i;

/** isUrlTarget: the text after a catch-all's prefix names a URL (`https://...`, `example.com`, `93.184.215.14:8080/a`). */
export function isUrlTarget(raw: string): boolean {
  let text = raw;
  try {
    text = decodeURIComponent(raw);
  } catch {}
  if (SCHEME.test(text)) return true;
  const host = HOST.exec(text);
  return host !== null && !FILE_SUFFIXES.test(text.slice(0, host[0].length).replace(/[/?#]$/, "").replace(/:\d+$/, ""));
}

/** catchAllPrefix: the prefix of a catch-all pattern (the screenshot and /md routes); undefined for other patterns. */
export function catchAllPrefix(pattern: string): string | undefined {
  return CATCH_ALLS[pattern];
}

/** pathMatches: the concrete path is one the pattern takes (catch-alls only when the rest is a URL). */
function pathMatches(pattern: string, path: string): boolean {
  const prefix = catchAllPrefix(pattern);
  if (prefix !== undefined) return path.startsWith(prefix) && isUrlTarget(path.slice(prefix.length));
  const want = pattern.split("/");
  const got = path.replace(/\/+$/, "").split("/");
  if (path === "/" || pattern === "/") return path === pattern;
  return want.length === got.length && want.every((segment, i) => segment.startsWith(":") ? got[i] !== "" : segment === got[i]);
}

/** routesFor: the known routes that take this concrete path, whatever their method. */
export function routesFor(path: string, routes: readonly KnownRoute[]): KnownRoute[] {
  return routes.filter((r) => pathMatches(r.path, path));
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length]!;
}

/**
 * closestPath: the documented path nearest to `path` by edit distance, when it is near enough to be
 * a typo (at most a third of the path's length, and at most 4 edits). Parameter segments of a
 * pattern take the request's segment at that place, so /api/v1/job/task_1 is near /api/v1/jobs/{task_id}.
 */
function closestPath(path: string, routes: readonly KnownRoute[]): string | undefined {
  const got = path.split("/");
  let best: { doc: string; distance: number } | undefined;
  for (const r of routes) {
    if (catchAllPrefix(r.path) !== undefined) continue;
    const filled = r.path
      .split("/")
      .map((segment, i) => (segment.startsWith(":") ? (got[i] ?? segment) : segment))
      .join("/");
    const distance = editDistance(path.toLowerCase(), filled.toLowerCase());
    if (!best || distance < best.distance) best = { doc: r.docPath ?? r.path.replace(/:([a-z_]+)/g, "{$1}"), distance };
  }
  if (!best || best.distance === 0) return undefined;
  return best.distance <= Math.min(4, Math.ceil(path.length / 3)) ? best.doc : undefined;
}

/**
 * unmatchedPathError is the answer for a request no operation takes: 405 with `Allow` when the path
 * exists for other methods, else 404 naming the nearest documented path when there is one.
 */
export function unmatchedPathError(method: string, path: string, routes: readonly KnownRoute[]): AppError {
  const taking = routesFor(path, routes);
  if (taking.length > 0) {
    const allow = [...new Set(taking.flatMap((r) => (r.method === "GET" ? ["GET", "HEAD"] : [r.method])))];
    return new AppError("method_not_allowed", `${path} does not take ${method}; it takes ${allow.join(", ")}. See /docs.`, { headers: { Allow: allow.join(", ") } });
  }
  for (const [pattern, prefix] of Object.entries(CATCH_ALLS)) {
    if (prefix !== "/" && `${path}/`.startsWith(prefix)) {
      return new AppError("not_found", `No operation ${method} ${path}: the path after ${prefix} must be a URL with a scheme or a host name with a dot, e.g. ${prefix}https://example.com (route ${pattern}).`);
    }
  }
  const near = closestPath(path, routes);
  return new AppError("not_found", `No operation ${method} ${path}${near ? `; did you mean ${near}?` : "."} See /docs for the list; a screenshot is GET /{url} with a URL such as /https://example.com.`);
}
