/**
 * API keys on PostgreSQL: the statements of src/store/sqlite/keys.ts. A change that caches depend
 * on (insert, revoke, plan) is announced to every machine by the trigger of migration 1, so no
 * statement here has to remember to notify.
 */
import type { ApiKeyRow } from "../backend";

type Sql = Bun.SQL;

export const pgKeyQueries = (sql: Sql) => ({
  insert: (row: Omit<ApiKeyRow, "revoked_at" | "last_used_at">) =>
    sql`INSERT INTO api_keys (id, name, plan, prefix, key_hash, created_at, webhook_secret, webhook_secret_at)
        VALUES (${row.id}, ${row.name}, ${row.plan}, ${row.prefix}, ${row.key_hash}, ${row.created_at}, ${row.webhook_secret}, ${row.webhook_secret_at})`.then(
      () => undefined,
    ),
  async byHash(keyHash: string): Promise<ApiKeyRow | null> {
    const [row] = await sql`SELECT * FROM api_keys WHERE key_hash = ${keyHash}`;
    return (row as ApiKeyRow) ?? null;
  },
  async byId(id: string): Promise<ApiKeyRow | null> {
    const [row] = await sql`SELECT * FROM api_keys WHERE id = ${id}`;
    return (row as ApiKeyRow) ?? null;
  },
  list: async (): Promise<ApiKeyRow[]> => [...(await sql`SELECT * FROM api_keys ORDER BY created_at, id`)],
  touch: (id: string, at: string) => sql`UPDATE api_keys SET last_used_at = ${at} WHERE id = ${id}`.then(() => undefined),
  async webhookSecret(id: string): Promise<Pick<ApiKeyRow, "webhook_secret" | "webhook_secret_at"> | null> {
    const [row] = await sql`SELECT webhook_secret, webhook_secret_at FROM api_keys WHERE id = ${id}`;
    return (row as Pick<ApiKeyRow, "webhook_secret" | "webhook_secret_at">) ?? null;
  },
  setWebhookSecret: async (id: string, secret: string, at: string): Promise<boolean> =>
    (await sql`UPDATE api_keys SET webhook_secret = ${secret}, webhook_secret_at = ${at} WHERE id = ${id}`).count === 1,
  /** revoke: 1 when the key was active and is now revoked, 0 otherwise */
  revoke: async (id: string, at: string): Promise<number> =>
    (await sql`UPDATE api_keys SET revoked_at = ${at} WHERE id = ${id} AND revoked_at IS NULL`).count,
});
