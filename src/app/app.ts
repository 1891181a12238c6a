/**
 * createApp composes the capability routes with authentication, rate limits and the one error
 * mapper. Order per request: request id -> key (401) -> rate limit (429) -> body parse -> 422
 * validation -> handler. Auth runs before the body is read, so anonymous uploads are never parsed.
 */
import { Elysia } from "elysia";
import { AppError, RequestValidationError, errorResponse } from "../errors";
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
import { extractRoutes } from "../extract/routes";
import { analyzeRoutes } from "../analyze/routes";
import { decideRoutes } from "../decide/routes";
import { diffRoutes } from "../diff/routes";
import { taskRoutes } from "../tasks/routes";

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
  ...screenshotRoutes,
];

const PUBLIC_PATHS = new Set(["/healthz", "/metrics", DOCS_PATH, `${DOCS_PATH}/`, `${DOCS_PATH}/json`]);

export function isPublicPath(pathname: string): boolean {
  return PUBLIC_PATHS.has(pathname) || pathname.startsWith(`${DOCS_PATH}/assets/`);
}

/** mapFrameworkError turns Elysia's own errors (routing, body parsing) into ours. */
function mapFrameworkError(code: unknown, error: unknown, request: Request): unknown {
  if (error instanceof AppError || error instanceof RequestValidationError) return error;
  if (code === "NOT_FOUND") {
    const url = new URL(request.url);
    return new AppError("not_found", `No operation ${request.method} ${url.pathname}; see /docs for the list.`);
  }
  if (code === "PARSE") {
    const type = request.headers.get("content-type") ?? "";
    if (type.includes("json")) {
      return new RequestValidationError([{ loc: ["body"], msg: "JSON decode error: the body is not valid JSON", type: "json_invalid", input: null, ctx: {} }]);
    }
    return new AppError("bad_request", `Could not read the request body as ${type.split(";")[0] || "a form"}; send multipart/form-data (curl -F field=value -F file=@doc.pdf).`);
  }
  return error;
}

export function createApp(services: Services) {
  const app = new Elysia({ name: "docintel" })
    .onRequest(async function authenticateRequest({ request, set }) {
      const ctx = contextOf(request);
      set.headers["x-request-id"] = ctx.id;
      const { pathname } = new URL(request.url);
      if (isPublicPath(pathname)) return;
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
      if (logCause) services.logger.error(ctx.id, `${request.method} ${ctx.route ?? new URL(request.url).pathname} failed`, logCause);
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
