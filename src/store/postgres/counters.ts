/**
 * Rate-limit windows on PostgreSQL: the statements of counterQueries (src/store/sqlite/credits.ts), on
 * the UNLOGGED table of PG_COUNTER_MIGRATIONS. One upsert per reservation: machines add to the
 * same row, so the limit is shared however the load balancer spreads a key's requests.
 */
type Sql = Bun.SQL;

export const pgCounterQueries = (sql: Sql) => ({
  /** reserveInWindow adds `n` requests to a key's window and returns the new count (which may pass the limit: the caller grants only what is under it) */
  async reserveInWindow(keyId: string, windowStart: number, n: number): Promise<number> {
    const [row] = await sql`
      INSERT INTO rate_limit_windows (key_id, window_start, count) VALUES (${keyId}, ${windowStart}, ${n})
      ON CONFLICT (key_id, window_start) DO UPDATE SET count = rate_limit_windows.count + excluded.count
      RETURNING count`;
    return row!.count as number;
  },
  async deleteWindowsBefore(windowStart: number): Promise<number> {
    return (await sql`DELETE FROM rate_limit_windows WHERE window_start < ${windowStart}`).count;
  },
});
