/**
 * startServer runs the app on Bun.serve. The wrapper around the app's `fetch` owns what must see every
 * request and its final response: the body limit while the body streams in (413 before anything is
 * read when Content-Length says too much; chunked bodies are spooled to disk and cut off at the
 * limit), the request log line,
 * the metrics, and graceful shutdown.
 */
import type { Server } from "bun";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { AppError, errorResponse } from "../errors";
import { createApp, requestBodyLimit, routeLabel } from "./app";
import { attachContext, contextOf, type RequestContext } from "./context";
import { closeServices, type Services } from "./services";
import { thumbnailJobsOf } from "../thumbnails/jobs";

/** BODY_SIZE_BACKSTOP: Bun's own cap, above every route's limit; ours answer first with a clear 413. */
const BODY_SIZE_BACKSTOP = 256 * 1024 * 1024;

function tooLarge(limit: number): AppError {
  return new AppError("payload_too_large", `The request body is larger than ${Math.round(limit / 1_000_000)} MB, the limit for this operation; files may be at most 50 MB each.`);
}

/**
 * spoolBody copies a body of unknown length (chunked) to a file in the data dir, counting bytes as
 * they arrive, and stops at `limit`: an oversized body is never held in memory. The returned request
 * reads the spooled file; `cleanup` removes it once the response is sent.
 */
async function spoolBody(request: Request, ctx: RequestContext, limit: number, spoolDir: string): Promise<{ request: Request; cleanup: () => void }> {
  mkdirSync(spoolDir, { recursive: true, mode: 0o700 });
  const path = join(spoolDir, `${ctx.id}.body`);
  const cleanup = () => rmSync(path, { force: true });
  const sink = Bun.file(path).writer();
  let seen = 0;
  const reader = request.body!.getReader();
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      seen += next.value.byteLength;
      if (seen > limit) throw tooLarge(limit);
      sink.write(next.value); // the writer buffers and flushes by itself
    }
  } catch (error) {
    await reader.cancel().catch(() => {});
    await sink.end();
    cleanup();
    throw error;
  }
  await sink.end();
  const spooled = new Request(request.url, { method: request.method, headers: request.headers, body: Bun.file(path), signal: request.signal });
  attachContext(spooled, ctx);
  return { request: spooled, cleanup };
}

export interface RunningServer {
  server: Server<unknown>;
  url: string;
  /** stop: stop accepting, let requests in flight finish (up to graceMs), then close services */
  stop(graceMs?: number): Promise<void>;
}

export function startServer(services: Services): RunningServer {
  const app = createApp(services);
  const { metrics, logger, config } = services;
  const spoolDir = join(config.dataDir, "tmp", "bodies");

  async function handle(request: Request): Promise<Response> {
    const ctx = contextOf(request);
    const { pathname } = ctx.url;
    let response: Response;
    let cleanup = () => {};
    try {
      if (request.body && request.method !== "GET") {
        const limit = requestBodyLimit(pathname, config.maxUploadBytes);
        const declared = Number(request.headers.get("content-length") ?? NaN);
        if (declared > limit) throw tooLarge(limit);
        if (!Number.isFinite(declared)) ({ request, cleanup } = await spoolBody(request, ctx, limit, spoolDir));
      }
      response = await app.fetch(request);
    } catch (error) {
      const rendered = errorResponse(error, ctx.id, { "x-request-id": ctx.id });
      if (rendered.logCause) logger.error(ctx.id, `${request.method} ${routeLabel(ctx.route, pathname)} failed`, rendered.logCause);
      response = rendered.response;
    } finally {
      cleanup();
    }
    const ms = performance.now() - ctx.startedAt;
    const route = routeLabel(ctx.route, pathname);
    metrics.observe(request.method, route, response.status, ms / 1000);
    logger.request({ request_id: ctx.id, key_id: ctx.key?.id, method: request.method, route, status: response.status, ms: Math.round(ms * 10) / 10 });
    return response;
  }

  const server = Bun.serve({
    hostname: config.host,
    port: config.port,
    maxRequestBodySize: BODY_SIZE_BACKSTOP,
    idleTimeout: 255,
    fetch: handle,
    error(error) {
      logger.error("-", "unhandled server error", error);
      return errorResponse(error, "-").response;
    },
  });

  const housekeeping = setInterval(() => {
    try {
      services.ledger.housekeeping();
      services.rateLimiter.housekeeping();
    } catch (error) {
      logger.error("-", "housekeeping failed", error);
    }
  }, 60_000);
  housekeeping.unref();
  thumbnailJobsOf(services).resume();
  services.webhooks.start();
  services.tasks.start();

  return {
    server,
    url: `http://${config.host === "0.0.0.0" ? "127.0.0.1" : config.host}:${server.port}`,
    async stop(graceMs = 10_000) {
      services.draining = true;
      clearInterval(housekeeping);
      await Promise.race([server.stop(false), Bun.sleep(graceMs).then(() => server.stop(true))]);
      // running tasks get the same grace; what is still running then goes back to pending for the next start
      await services.tasks.stop(graceMs);
      await services.webhooks.stop();
      thumbnailJobsOf(services).close();
      await closeServices(services);
    },
  };
}
