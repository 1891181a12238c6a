import { Type } from "@sinclair/typebox";
import type { Route } from "../http/route";
import { FREE_MONTHLY_CREDITS, RATE_LIMIT_PER_MINUTE } from "./plans";
import type { Ledger } from "./ledger";

export const UsageResponse = Type.Object(
  {
    key_id: Type.String(),
    plan: Type.String(),
    period: Type.String({ description: "calendar month (UTC), YYYY-MM" }),
    credits: Type.Object({
      allowance: Type.Union([Type.Integer(), Type.Null()], { description: "monthly allowance; null for metered plans" }),
      granted: Type.Integer({ description: "credits granted by an operator this month" }),
      used: Type.Integer({ description: "credits charged this month" }),
      held: Type.Integer({ description: "credits set aside for operations in flight" }),
      remaining: Type.Union([Type.Integer(), Type.Null()], { description: "credits left this month; null for metered plans (no cap)" }),
    }),
    rate_limit: Type.Object({ limit: Type.Integer(), remaining: Type.Integer(), reset_seconds: Type.Integer(), window: Type.Literal("1m") }),
  },
  { title: "Usage" },
);

/** UsageRouteDeps: what the usage route uses of the services. */
export interface UsageRouteDeps {
  ledger: Pick<Ledger, "balance">;
}

export const usageRoutes: Route<UsageRouteDeps>[] = [
  {
    op: {
      method: "GET",
      path: "/api/v1/usage",
      tag: "Account",
      summary: "Plan, credits and rate limit of the calling key",
      description: `Beyond the spec. Free keys get ${FREE_MONTHLY_CREDITS} credits per calendar month (UTC) without carry-over; Pro and Enterprise are metered without a cap.`,
      responses: { 200: { description: "Usage", schema: UsageResponse } },
    },
    handler: async ({ ctx, services }) => {
      const key = ctx.key!;
      const b = await services.ledger.balance(key);
      return {
        key_id: key.id,
        plan: key.plan,
        period: b.period,
        credits: { allowance: b.allowance, granted: b.granted, used: b.used, held: b.held, remaining: b.remaining },
        rate_limit: { limit: RATE_LIMIT_PER_MINUTE[key.plan], remaining: ctx.rate?.remaining ?? 0, reset_seconds: ctx.rate?.resetSeconds ?? 60, window: "1m" as const },
      };
    },
  },
];
