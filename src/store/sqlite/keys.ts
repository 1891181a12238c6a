/**
 * SQL of API keys on SQLite (PostgreSQL: ../postgres/keys.ts), behind the backend's KeyStore
 * (../sqliteBackend.ts). Pure statements over the Store; no logic.
 */
import type { ApiKeyRow } from "../backend";
import type { Store } from "../index";

export const keyQueries = (store: Store) => ({
  insert: (row: Omit<ApiKeyRow, "revoked_at" | "last_used_at">) =>
    store.db
      .query(
        `INSERT INTO api_keys (id, name, plan, prefix, key_hash, created_at, webhook_secret, webhook_secret_at)
         VALUES ($id, $name, $plan, $prefix, $key_hash, $created_at, $webhook_secret, $webhook_secret_at)`,
      )
      .run(row),
  byHash: (keyHash: string) =>
    store.db.query<ApiKeyRow, [string]>("SELECT * FROM api_keys WHERE key_hash = ?").get(keyHash),
  byId: (id: string) => store.db.query<ApiKeyRow, [string]>("SELECT * FROM api_keys WHERE id = ?").get(id),
  list: () => store.db.query<ApiKeyRow, []>("SELECT * FROM api_keys ORDER BY created_at, id").all(),
  count: () => store.db.query<{ n: number }, []>("SELECT count(*) AS n FROM api_keys").get()!.n,
  touch: (id: string, at: string) => store.db.query("UPDATE api_keys SET last_used_at = ? WHERE id = ?").run(at, id),
  webhookSecret: (id: string) =>
    store.db.query<Pick<ApiKeyRow, "webhook_secret" | "webhook_secret_at">, [string]>("SELECT webhook_secret, webhook_secret_at FROM api_keys WHERE id = ?").get(id),
  setWebhookSecret: (id: string, secret: string, at: string) =>
    store.db.query("UPDATE api_keys SET webhook_secret = ?, webhook_secret_at = ? WHERE id = ?").run(secret, at, id).changes === 1,
  revoke: (id: string, at: string) =>
    store.db.query("UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL").run(at, id).changes,
});
