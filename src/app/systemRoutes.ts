/** /healthz: no key needed, no document content. (/metrics has its own listener: metricsListener.ts.) */
import { Type } from "@sinclair/typebox";
import type { Route } from "./route";
import { Fields } from "./fields";
import { authenticate, presentedKey } from "./auth";
import type { HandlerInput } from "./operation";
import { VERSION } from "../version";

interface Check {
  ok: boolean;
  [detail: string]: unknown;
}

function storeCheck({ services }: HandlerInput): Check {
  try {
    services.store.ping();
    return { ok: true };
  } catch (error) {
    return { ok: false, error: String(error) };
  }
}

/**
 * workersCheck runs a job on a worker thread (sharp encodes a small JPEG) for a caller with a key,
 * who pays for it from the key's rate limit. Anyone else gets the pool's state without a job: an
 * anonymous probe must not be a way to queue work.
 */
async function workersCheck(input: HandlerInput): Promise<Check> {
  const { request, services, set } = input;
  const threads = services.pool.threads;
  if (presentedKey(request) === null) return { ok: threads > 0, job: "none", threads, queued: services.pool.queueSize };
  await authenticate(request, services, set.headers);
  try {
    const t0 = performance.now();
    const r = await services.pool.run("selfTest", {});
    return { ok: r.format === "jpeg" && r.bytes > 0, job: "sharp", libvips: r.vips, ms: Math.round(performance.now() - t0) };
  } catch (error) {
    return { ok: false, job: "sharp", error: String(error) };
  }
}

export const systemRoutes: Route[] = [
  {
    op: {
      method: "GET",
      path: "/healthz",
      tag: "Operations",
      public: true,
      summary: "Liveness and readiness",
      description:
        "Cheap by default. With deep=true it also reads the store and reports the worker threads; with deep=true and a key (X-API-Key or Authorization: Bearer) it also runs a job on a worker thread (sharp encodes a small JPEG), counted against the key's rate limit.",
      query: Fields({ deep: Type.Boolean({ default: false, description: "also check the store and the worker threads (a job on a worker only with a key)" }) }),
      responses: { 200: "Healthy", 401: "deep=true with an invalid or revoked key", 503: "Shutting down, or a deep check failed" },
    },
    handler: async (input) => {
      const { query, services, set } = input;
      const body: Record<string, unknown> = { status: "ok", version: VERSION, uptime_s: Math.round((Date.now() - services.startedAt.getTime()) / 1000) };
      if (services.draining) {
        set.status = 503;
        return { ...body, status: "shutting_down" };
      }
      if (query.deep) {
        const checks = { store: storeCheck(input), workers: await workersCheck(input) };
        body.checks = checks;
        if (!Object.values(checks).every((c) => c.ok)) {
          set.status = 503;
          body.status = "degraded";
        }
      }
      return body;
    },
  },
];
