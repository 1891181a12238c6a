/**
 * Bun.SQL returns PostgreSQL's int8 (BIGINT, count(*), SUM of integers) as a string, so that no
 * value loses precision. The store's int8 values are unix-ms times and counts, far below 2^53:
 * numbersIn turns the named columns of a row back into numbers, so rows have the same shape as
 * bun:sqlite's and one row type serves both backends.
 */
export function numbersIn<T>(row: Record<string, unknown>, columns: readonly string[]): T {
  for (const c of columns) {
    const v = row[c];
    if (typeof v === "string" || typeof v === "bigint") row[c] = Number(v);
  }
  return row as T;
}

/** TASK_INT8: the int8 columns of tasks (seq is PostgreSQL's own and is dropped from rows) */
export const TASK_INT8 = ["lease_expires_at"] as const;
/** DELIVERY_INT8: the int8 columns of webhook_deliveries */
export const DELIVERY_INT8 = ["next_attempt_at"] as const;
