/**
 * createApp composes the capability routes with authentication, rate limits and the one error
 * mapper. Order per request: request id -> key (401) -> rate limit (429) -> body parse -> 422
 * validation -> handler. Auth runs before the body is read, so anonymous uploads are never parsed.
 */
import { Elysia } from "elysia";
import { AppError, errorResponse } from "../errors";
import { RATE_LIMIT_PER_MINUTE } from "../credits/plans";
import { contextOf, rateLimitHeaders } from "./context";
import { DOCS_PATH, docsPlugin } from "./docs";
import { mountOperation } from "./operation";
import type { Route } from "./route";
import type { Services } from "./services";
import { systemRoutes } from "./systemRoutes";
import { usageRoutes } from "../credits/routes";
import { screenshotRoutes } from "../screenshots/routes";
import { markdownRoutes } from "../markdown/routes";
import { thumbnailRoutes } from "../thumbnails/routes";
import { SIGNED_PATH_PREFIX } from "../thumbnails/signing";
import { extractRoutes } from "../extract/routes";
import { analyzeRoutes } from "../analyze/routes";
import { decideRoutes } from "../decide/routes";
import { diffRoutes } from "../diff/routes";
import { taskRoutes } from "../tasks/routes";
import { webhookRoutes } from "../webhooks/routes";

/** ROUTES lists every operation; the wildcard screenshot route comes last so it never shadows another. */
export const ROUTES: Route[] = [
  ...systemRoutes,
  ...usageRoutes,
  ...markdownRoutes,
  ...thumbnailRoutes,
  ...extractRoutes,
  ...analyzeRoutes,
  ...decideRoutes,
  ...diffRoutes,
  ...taskRoutes,
  ...webhookRoutes,
  ...screenshotRoutes,
];

const PUBLIC_PATHS = new Set(["/healthz", "/metrics", DOCS_PATH, `${DOCS_PATH}/`, `${DOCS_PATH}/json`]);

export function isPublicPath(pathname: string): boolean {
  // Signed thumbnail URLs carry their own authorisation (an HMAC signature and an expiry).
  return PUBLIC_PATHS.has(pathname) || pathname.startsWith(`${DOCS_PATH}/assets/`) || pathname.startsWith(SIGNED_PATH_PREFIX);
}

/** mapFrameworkError turns Elysia's own errors (an unknown path or method) into ours. */
function mapFrameworkError(code: unknown, error: unknown, request: Request): unknown {
  if (code === "NOT_FOUND") return new AppError("not_found", `No operation ${request.method} ${contextOf(request).url.pathname}; see /docs for the list.`);
  return error;
}

/**
 * routeLabel names a request in metrics and logs by its route pattern, never by its raw path: paths
 * are unbounded (a metrics label per random path) and a screenshot path holds the target URL.
 */
export function routeLabel(route: string | undefined, pathname: string): string {
  if (route) return route;
  if (!isPublicPath(pathname)) return "(before routing)";
  return PUBLIC_PATHS.has(pathname) ? pathname : `${DOCS_PATH}/assets/*`;
}

export function createApp(services: Services) {
  const app = new Elysia({ name: "docintel" })
    .onRequest(async function authenticateRequest({ request, set }) {
      const ctx = contextOf(request);
      set.headers["x-request-id"] = ctx.id;
      if (isPublicPath(ctx.url.pathname)) return;
      if (services.draining) throw new AppError("shutting_down", "The service is shutting down; retry shortly.", { headers: { "Retry-After": "5" } });
      ctx.key = services.keys.resolve(request.headers.get("x-api-key"));
      ctx.rate = await services.rateLimiter.consume(ctx.key.id, RATE_LIMIT_PER_MINUTE[ctx.key.plan]);
      Object.assign(set.headers, rateLimitHeaders(ctx));
      if (!ctx.rate.allowed) {
        throw new AppError("rate_limited", `Rate limit of ${ctx.rate.limit} requests per minute for the ${ctx.key.plan} plan exceeded; retry in ${ctx.rate.resetSeconds} s.`, {
          headers: { "Retry-After": String(ctx.rate.resetSeconds) },
        });
      }
    })
    .onError(function mapError({ code, error, request, route }) {
      const ctx = contextOf(request);
      ctx.route ??= route;
      const mapped = mapFrameworkError(code, error, request);
      const { response, logCause } = errorResponse(mapped, ctx.id, { "x-request-id": ctx.id, ...rateLimitHeaders(ctx) });
      if (logCause) services.logger.error(ctx.id, `${request.method} ${routeLabel(ctx.route, ctx.url.pathname)} failed`, logCause);
      return response;
    })
    .use(docsPlugin(ROUTES.map((r) => r.op)));
  for (const { op, handler } of ROUTES) mountOperation(app, services, op, handler);
  return app;
}

/** requestBodyLimit is the largest body accepted on a path: the route's own limit, or one upload plus form fields. */
export function requestBodyLimit(pathname: string, maxUploadBytes: number): number {
  const route = ROUTES.find((r) => r.op.method === "POST" && r.op.path === pathname);
  return route?.op.maxRequestBytes || maxUploadBytes + 1_000_000;
}
