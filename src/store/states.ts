/**
 * States are frozen constants: each list produces its TypeScript union and the SQL CHECK that the
 * migrations put on the column, so the two can never drift apart.
 */

export function states<const T extends readonly string[]>(...values: T) {
  return Object.freeze(values);
}

/** sqlCheck renders `CHECK (column IN ('a','b'))` for a state list. */
export function sqlCheck(column: string, values: readonly string[]): string {
  return `CHECK (${column} IN (${values.map((v) => `'${v}'`).join(", ")}))`;
}

export const PLANS = states("free", "pro", "enterprise");
export type Plan = (typeof PLANS)[number];

export const TASK_STATES = states("pending", "processing", "completed", "failed", "cancelled");
export type TaskState = (typeof TASK_STATES)[number];

/** ENDED_TASK_STATES: a task in one of these never runs again. */
export const ENDED_TASK_STATES: readonly TaskState[] = ["completed", "failed", "cancelled"];

export const BATCH_STATES = states("pending", "processing", "completed", "failed", "cancelled");
export type BatchState = (typeof BATCH_STATES)[number];

export const DELIVERY_STATES = states("pending", "delivered", "failed", "dead");
export type DeliveryState = (typeof DELIVERY_STATES)[number];

export const THUMBNAIL_JOB_STATES = states("pending", "processing", "completed", "failed");
export type ThumbnailJobState = (typeof THUMBNAIL_JOB_STATES)[number];

export const LEDGER_KINDS = states("grant", "charge");
export type LedgerKind = (typeof LEDGER_KINDS)[number];
