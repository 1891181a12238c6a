/** Plan allowances and rate limits (spec "Limits"). */
import type { Plan } from "../store/states";

/** FREE_MONTHLY_CREDITS is the free plan's allowance per calendar month (UTC); unused credits lapse. */
export const FREE_MONTHLY_CREDITS = 100;

/** RATE_LIMIT_PER_MINUTE is the number of authenticated requests a key may make per minute. */
export const RATE_LIMIT_PER_MINUTE: Record<Plan, number> = { free: 30, pro: 120, enterprise: 600 };

/** isCapped says whether a plan has a balance that can run out (free) or is metered without cap. */
export function isCapped(plan: Plan): boolean {
  return plan === "free";
}
