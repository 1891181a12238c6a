/** /healthz and /metrics: no key needed, no document content. */
import { Type } from "@sinclair/typebox";
import type { Route } from "./route";
import { Fields } from "./fields";
import { taskQueries } from "../tasks/queries";
import { VERSION } from "../version";

export const systemRoutes: Route[] = [
  {
    op: {
      method: "GET",
      path: "/healthz",
      tag: "Operations",
      public: true,
      summary: "Liveness and readiness",
      description: "Cheap by default. With deep=true it also runs a job on a worker thread (sharp encodes a small JPEG) and checks the store.",
      query: Fields({ deep: Type.Boolean({ default: false, description: "also exercise a worker thread and the store" }) }),
      responses: { 200: "Healthy", 503: "Shutting down, or a deep check failed" },
    },
    handler: async ({ query, services, set }) => {
      const body: Record<string, unknown> = { status: "ok", version: VERSION, uptime_s: Math.round((Date.now() - services.startedAt.getTime()) / 1000) };
      if (services.draining) {
        set.status = 503;
        return { ...body, status: "shutting_down" };
      }
      if (query.deep) {
        const checks: Record<string, unknown> = {};
        try {
          services.store.ping();
          checks.store = { ok: true };
        } catch (error) {
          checks.store = { ok: false, error: String(error) };
        }
        try {
          const t0 = performance.now();
          const r = await services.pool.run("selfTest", {});
          checks.workers = { ok: r.format === "jpeg" && r.bytes > 0, job: "sharp", libvips: r.vips, ms: Math.round(performance.now() - t0) };
        } catch (error) {
          checks.workers = { ok: false, job: "sharp", error: String(error) };
        }
        body.checks = checks;
        if (!Object.values(checks).every((c) => (c as { ok: boolean }).ok)) {
          set.status = 503;
          body.status = "degraded";
        }
      }
      return body;
    },
  },
  {
    op: {
      method: "GET",
      path: "/metrics",
      tag: "Operations",
      public: true,
      summary: "Prometheus metrics",
      description: "Requests by route and status, latency histogram, worker queue depth, tasks by state (text format 0.0.4).",
      responses: { 200: { description: "Metrics", contentType: "text/plain" } },
    },
    handler: ({ services }) =>
      new Response(
        services.metrics.render({
          poolQueueDepth: () => services.pool.queueSize,
          poolThreads: () => services.pool.threads,
          tasksByState: () => taskQueries(services.store).countByState(),
        }),
        { headers: { "content-type": "text/plain; version=0.0.4; charset=utf-8" } },
      ),
  },
];
