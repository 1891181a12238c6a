/**
 * /healthz (liveness) and /readyz (readiness, for a load balancer in front of several machines): no
 * key needed, no document content. (/metrics has its own listener: metricsListener.ts.)
 */
import { Type } from "@sinclair/typebox";
import type { Route } from "../http/route";
import { Fields } from "../http/fields";
import { authenticate, presentedKey } from "./auth";
import type { HandlerInput } from "../http/operation";
import type { Services } from "./services";
import { VERSION } from "../version";

interface Check {
  ok: boolean;
  [detail: string]: unknown;
}

/** storeCheck reads from the store (SQLite file, or PostgreSQL over the pool) */
async function storeCheck({ services }: HandlerInput<Services>): Promise<Check> {
  try {
    const t0 = performance.now();
    await services.backend.ping();
    return { ok: true, kind: services.backend.kind, ms: Math.round(performance.now() - t0) };
  } catch (error) {
    return { ok: false, kind: services.backend.kind, error: String(error) };
  }
}

/**
 * workersCheck runs a job on a worker thread (sharp encodes a small JPEG) for a caller with a key,
 * who pays for it from the key's rate limit. Anyone else gets the pool's state without a job: an
 * anonymous probe must not be a way to queue work.
 */
async function workersCheck(input: HandlerInput<Services>): Promise<Check> {
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

export const systemRoutes: Route<Services>[] = [
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
        const [store, workers] = await Promise.all([storeCheck(input), workersCheck(input)]);
        const checks = { store, workers };
        body.checks = checks;
        if (!Object.values(checks).every((c) => c.ok)) {
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
      path: "/readyz",
      tag: "Operations",
      public: true,
      summary: "Readiness, for a load balancer",
      description:
        "200 while this machine takes requests: it is not shutting down and its store answers (one read: the SQLite file, or PostgreSQL over the pool). 503 otherwise, so that a load balancer in front of several machines sends the traffic elsewhere. Runs no job and needs no key.",
      responses: { 200: "Ready", 503: "Shutting down, or the store does not answer" },
    },
    handler: async (input) => {
      const { services, set } = input;
      if (services.draining) {
        set.status = 503;
        return { status: "shutting_down", version: VERSION };
      }
      const store = await storeCheck(input);
      if (!store.ok) set.status = 503;
      return { status: store.ok ? "ready" : "not_ready", version: VERSION, checks: { store } };
    },
  },
];
