/**
 * createApp composes the capability routes with authentication, rate limits and the one error
 * mapper. Order per request: request id -> routing -> key (401) and rate limit (429), unless the
 * matched route is public -> body read under the operation's limit -> 422 validation -> handler.
 * Whether a key is needed comes from the route that matched, never from the path: a path that
 * matches no route needs a key as well, and then gets 404 (or 405 with `Allow` when the path exists
 * for another method; no key is asked when every route of that path is public). The catch-alls
 * GET /{url} and /md/{url} take only paths that are URLs (routing.ts); any other path is unmatched.
 * With --anonymous-plan free, a request without any key to an operation marked `anonymous` runs on
 * the shared anonymous key under a per-address limit (anonymous.ts); a key that is sent is checked.
 */
import { Elysia } from "elysia";
import { AppError, errorResponse } from "../errors";
import { join } from "node:path";
import { authenticate, presentedKey, refuseWhileDraining } from "./auth";
import { AnonymousAccess } from "./anonymous";
import { BodySpool } from "../http/bodySpool";
import { contextOf, rateLimitHeaders } from "../http/context";
import { DOCS_PUBLIC_ROUTES, docsPlugin } from "./docs";
import { LANDING_PUBLIC_ROUTES, landingPlugin } from "./landing";
import { catchAllPrefix, isUrlTarget, routesFor, unmatchedPathError, type KnownRoute } from "./routing";
import { METRICS_PATH } from "./metricsListener";
import { mountOperation } from "../http/operation";
import type { Route } from "../http/route";
import type { Services } from "./services";
import { systemRoutes } from "./systemRoutes";
import { usageRoutes } from "../credits/routes";
import { screenshotRoutes } from "../screenshots/routes";
import { markdownRoutes } from "../markdown/routes";
import { thumbnailRoutes } from "../thumbnails/routes";
import { previewLinkRoutes } from "../thumbnails/previewLinks";
import { extractRoutes } from "../extract/routes";
import { analyzeRoutes } from "../analyze/routes";
import { decideRoutes } from "../decide/routes";
import { diffRoutes } from "../diff/routes";
import { taskRoutes } from "../tasks/routes";
import { webhookRoutes } from "../webhooks/routes";
import { mcpRoutes } from "../mcp/routes";

/** ROUTES lists every operation; the wildcard screenshot route comes last so it never shadows another. */
export const ROUTES: Route<Services>[] = [
  ...systemRoutes,
  ...usageRoutes,
  ...markdownRoutes,
  ...thumbnailRoutes,
  ...previewLinkRoutes,
  ...extractRoutes,
  ...analyzeRoutes,
  ...decideRoutes,
  ...diffRoutes,
  ...taskRoutes,
  ...webhookRoutes,
  ...mcpRoutes,
  ...screenshotRoutes,
];

/**
 * PUBLIC_ROUTES: "METHOD pattern" of the routes that need no key, as they declare it: the operations
 * marked `public` (/healthz and the signed thumbnail and preview links, which carry their own signature), the explorer's pages and the API port's /metrics (which only says where metrics
 * went). Every other route, the screenshot catch-all included, needs a key. HEAD is answered by the
 * GET route.
 */
export const PUBLIC_ROUTES: ReadonlySet<string> = new Set([
  ...ROUTES.filter((r) => r.op.public).map((r) => `${r.op.method} ${r.op.path}`),
  ...DOCS_PUBLIC_ROUTES.map((path) => `GET ${path}`),
  ...LANDING_PUBLIC_ROUTES.map((path) => `GET ${path}`),
  `GET ${METRICS_PATH}`,
]);

/** KNOWN_ROUTES: every route the app serves, for the 404 hint and the 405 `Allow` of unmatched requests. */
export const KNOWN_ROUTES: readonly KnownRoute[] = [
  ...ROUTES.map(({ op }) => ({ method: op.method, path: op.path, docPath: op.docPath, public: isPublicRoute(op.method, op.path) })),
  ...[...DOCS_PUBLIC_ROUTES, ...LANDING_PUBLIC_ROUTES].map((path) => ({ method: "GET", path, public: true })),
];

/** ANONYMOUS_ROUTES: "METHOD pattern" of the operations keyless requests may use under --anonymous-plan free. */
export const ANONYMOUS_ROUTES: ReadonlySet<string> = new Set(ROUTES.filter((r) => r.op.anonymous).map((r) => `${r.op.method} ${r.op.path}`));

function isPublicRoute(method: string, route: string): boolean {
  return PUBLIC_ROUTES.has(`${method === "HEAD" ? "GET" : method} ${route}`);
}

function isAnonymousRoute(method: string, route: string): boolean {
  return ANONYMOUS_ROUTES.has(`${method === "HEAD" ? "GET" : method} ${route}`);
}

/** catchAllMissed: the route is a catch-all (GET /{url}, /md/{url}) and the rest of the path is no URL. */
function catchAllMissed(route: string, path: string): boolean {
  const prefix = catchAllPrefix(route);
  return prefix !== undefined && !isUrlTarget(path.slice(prefix.length));
}

/** metricsNotHere answers the API port's /metrics, which older versions served, with where it is now. */
function metricsNotHere(): never {
  throw new AppError("not_found", `${METRICS_PATH} is not served on the API port; the operator scrapes it from the metrics listener (--metrics-listen, default 127.0.0.1:9464).`);
}

/**
 * routeLabel names a request in metrics and logs by its route pattern, never by its raw path: paths
 * are unbounded (a metrics label per random path) and a screenshot path holds the target URL.
 * Requests that matched no route share one label.
 */
export function routeLabel(route: string | undefined): string {
  return route ?? "(no route)";
}

export function createApp(services: Services) {
  const anonymous = services.config.anonymous.plan === "free" ? new AnonymousAccess(services.backend, services.keys, services.rateLimiter, services.config.anonymous.perIpPerMinute) : null;
  const bodies = new BodySpool({ dir: join(services.config.dataDir, "tmp", "bodies"), maxTotal: services.config.spools.max, maxPerKey: services.config.spools.maxPerKey, maxFileBytes: services.config.maxUploadBytes });

  /**
   * mapFrameworkError turns Elysia's own errors into ours. An unknown path or method needs a key
   * first, unless every route of that path is public (a POST to /healthz gets its 405 without one).
   */
  async function mapFrameworkError(code: unknown, error: unknown, request: Request, headers: Record<string, string | number>): Promise<unknown> {
    if (code !== "NOT_FOUND") return error;
    const path = contextOf(request).url.pathname;
    const taking = routesFor(path, KNOWN_ROUTES);
    if (taking.length === 0 || !taking.every((r) => r.public)) {
      try {
        await authenticate(request, services, headers);
      } catch (refused) {
        return refused;
      }
    }
    return unmatchedPathError(request.method, path, KNOWN_ROUTES);
  }

  const app = new Elysia({ name: "docintel" })
    .onRequest(function tagRequest({ request, set }) {
      set.headers["x-request-id"] = contextOf(request).id;
    })
    // runs once the route is known and before its body is read (operations parse their own body)
    .onBeforeHandle(async function authenticateRoute({ request, route, set }) {
      const ctx = contextOf(request);
      ctx.route ??= route;
      const headers = set.headers as Record<string, string | number>;
      const missed = catchAllMissed(route, ctx.url.pathname);
      if (anonymous && !missed && isAnonymousRoute(request.method, route) && presentedKey(request) === null) {
        refuseWhileDraining(services);
        await anonymous.admit(ctx, headers);
      } else if (!isPublicRoute(request.method, route)) {
        await authenticate(request, services, headers);
      }
      if (missed) {
        ctx.route = routeLabel(undefined);
        throw unmatchedPathError(request.method, ctx.url.pathname, KNOWN_ROUTES);
      }
    })
    .onError(async function mapError({ code, error, request, route, set }) {
      const ctx = contextOf(request);
      ctx.route ??= route;
      const mapped = await mapFrameworkError(code, error, request, set.headers as Record<string, string | number>);
      const { response, logCause } = errorResponse(mapped, ctx.id, { "x-request-id": ctx.id, ...rateLimitHeaders(ctx) });
      if (logCause) services.logger.error(ctx.id, `${request.method} ${routeLabel(ctx.route)} failed`, logCause);
      return response;
    })
    .use(landingPlugin(services.config.publicUrl))
    .use(docsPlugin(ROUTES.map((r) => r.op), services.config.publicUrl, anonymous !== null))
    .get(METRICS_PATH, metricsNotHere, { detail: { hide: true } });
  const mounting = { keylessAllowed: anonymous !== null, maxUploadBytes: services.config.maxUploadBytes };
  for (const { op, handler } of ROUTES) mountOperation(app, services, bodies, op, handler, mounting);
  return app;
}
