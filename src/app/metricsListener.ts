/**
 * The metrics listener serves GET /metrics (Prometheus text) on its own address (--metrics-listen,
 * loopback by default), never on the API port: request counts, latencies and queue depths are the
 * operator's, not a tenant's. With --metrics-token it also wants `Authorization: Bearer <token>`,
 * for a listener that a scraper on another host reaches. Tenant API keys are never accepted here.
 */
import type { Server } from "bun";
import { createHash, timingSafeEqual } from "node:crypto";
import type { Services } from "./services";

export const METRICS_PATH = "/metrics";

/** metricsText renders the service's metrics with the gauges read now (tasks by state: from the store, every machine's). */
export async function metricsText(services: Services): Promise<string> {
  const tasks = await services.backend.tasks.countByState();
  return services.metrics.render({
    poolQueueDepth: () => services.pool.queueSize,
    poolThreads: () => services.pool.threads,
    poolJobsCompleted: () => services.pool.completedCalls,
    tasksByState: () => tasks,
  });
}

/** sameToken compares in constant time (digests, so that lengths do not leak either). */
function sameToken(presented: string, expected: string): boolean {
  const digest = (s: string) => createHash("sha256").update(s).digest();
  return timingSafeEqual(digest(presented), digest(expected));
}

function plain(status: number, text: string, headers: Record<string, string> = {}): Response {
  return new Response(text + "\n", { status, headers: { "content-type": "text/plain; charset=utf-8", ...headers } });
}

/**
 * startMetricsListener binds --metrics-listen; null when it is off. A failure to bind is logged and
 * the service runs on without metrics (a second instance on one host must not fail to start).
 */
export function startMetricsListener(services: Services): { server: Server<unknown>; url: string } | null {
  const { listen, token } = services.config.metrics;
  if (!listen) return null;
  try {
    const server = Bun.serve({
      hostname: listen.host,
      port: listen.port,
      async fetch(request) {
        const { pathname } = new URL(request.url);
        if (pathname !== METRICS_PATH) return plain(404, `Only GET ${METRICS_PATH} is served here.`);
        if (request.method !== "GET" && request.method !== "HEAD") return plain(405, `Only GET ${METRICS_PATH} is served here.`, { allow: "GET, HEAD" });
        if (token) {
          const presented = /^Bearer\s+(.+)$/i.exec(request.headers.get("authorization") ?? "")?.[1]?.trim() ?? "";
          if (!sameToken(presented, token)) return plain(401, "Send the metrics token (--metrics-token) as Authorization: Bearer <token>.", { "www-authenticate": 'Bearer realm="metrics"' });
        }
        try {
          return new Response(await metricsText(services), { headers: { "content-type": "text/plain; version=0.0.4; charset=utf-8" } });
        } catch (error) {
          services.logger.error("-", "metrics: the store could not be read", error);
          return plain(503, "The store could not be read; see the service's log.");
        }
      },
    });
    const host = listen.host.includes(":") ? `[${listen.host}]` : listen.host;
    return { server, url: `http://${host}:${server.port}${METRICS_PATH}` };
  } catch (error) {
    services.logger.error("-", `metrics listener could not start on ${listen.host}:${listen.port}; /metrics is not served (set --metrics-listen to a free HOST:PORT, or off)`, error);
    return null;
  }
}
