/**
 * startServer runs the app on Bun.serve. The wrapper around the app's `fetch` owns what must see every
 * request and its final response: the request log line, the metrics, and graceful shutdown. Bodies
 * are read by the matched operation, after its key check (see BodySpool). Metrics are served on a
 * listener of their own (metricsListener.ts).
 */
import type { Server } from "bun";
import { errorResponse } from "../errors";
import { createApp, routeLabel } from "./app";
import { contextOf } from "../http/context";
import { startMetricsListener } from "./metricsListener";
import { closeServices, type Services } from "./services";

/** BODY_SIZE_BACKSTOP: Bun's own cap, above every route's limit; ours answer first with a clear 413. */
const BODY_SIZE_BACKSTOP = 256 * 1024 * 1024;

export interface RunningServer {
  server: Server<unknown>;
  url: string;
  /** metricsUrl: where GET /metrics is served; undefined when --metrics-listen is off or could not bind */
  metricsUrl?: string;
  /** stop: stop accepting, let requests in flight finish (up to graceMs), then close services */
  stop(graceMs?: number): Promise<void>;
}

export function startServer(services: Services): RunningServer {
  const app = createApp(services);
  const { metrics, logger, config } = services;

  async function handle(request: Request): Promise<Response> {
    const ctx = contextOf(request);
    ctx.clientIp = server.requestIP(request)?.address;
    let response: Response;
    try {
      response = await app.fetch(request);
    } catch (error) {
      const rendered = errorResponse(error, ctx.id, { "x-request-id": ctx.id });
      if (rendered.logCause) logger.error(ctx.id, `${request.method} ${routeLabel(ctx.route)} failed`, rendered.logCause);
      response = rendered.response;
    }
    const ms = performance.now() - ctx.startedAt;
    const route = routeLabel(ctx.route);
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

  const metricsListener = startMetricsListener(services);

  const housekeeping = setInterval(() => {
    try {
      void services.ledger.housekeeping().catch((error) => logger.error("-", "credit housekeeping failed", error));
      services.rateLimiter.housekeeping().catch((error) => logger.error("-", "rate-limit housekeeping failed", error));
    } catch (error) {
      logger.error("-", "housekeeping failed", error);
    }
  }, 60_000);
  housekeeping.unref();
  services.thumbnails.start();
  services.webhooks.start();
  services.tasks.start();

  return {
    server,
    url: `http://${config.host === "0.0.0.0" ? "127.0.0.1" : config.host}:${server.port}`,
    metricsUrl: metricsListener?.url,
    async stop(graceMs = 10_000) {
      services.draining = true;
      clearInterval(housekeeping);
      metricsListener?.server.stop(true);
      await Promise.race([server.stop(false), Bun.sleep(graceMs).then(() => server.stop(true))]);
      // running tasks get the same grace; what is still running then goes back to pending for the next start
      await services.tasks.stop(graceMs);
      await services.webhooks.stop();
      await closeServices(services);
    },
  };
}
