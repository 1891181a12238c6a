/** SQL of API keys. Pure statements over the Store; no logic. */
import type { Store } from "../store";
import type { Plan } from "../store/states";

export interface ApiKeyRow {
  id: string;
  name: string;
  plan: Plan;
  prefix: string;
  key_hash: string;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

export const keyQueries = (store: Store) => ({
  insert: (row: Omit<ApiKeyRow, "revoked_at" | "last_used_at">) =>
    store.db
      .query(
        `INSERT INTO api_keys (id, name, plan, prefix, key_hash, created_at)
         VALUES ($id, $name, $plan, $prefix, $key_hash, $created_at)`,
      )
      .run(row),
  byHash: (keyHash: string) =>
    store.db.query<ApiKeyRow, [string]>("SELECT * FROM api_keys WHERE key_hash = ?").get(keyHash),
  byId: (id: string) => store.db.query<ApiKeyRow, [string]>("SELECT * FROM api_keys WHERE id = ?").get(id),
  list: () => store.db.query<ApiKeyRow, []>("SELECT * FROM api_keys ORDER BY created_at, id").all(),
  count: () => store.db.query<{ n: number }, []>("SELECT count(*) AS n FROM api_keys").get()!.n,
  touch: (id: string, at: string) => store.db.query("UPDATE api_keys SET last_used_at = ? WHERE id = ?").run(at, id),
  revoke: (id: string, at: string) =>
    store.db.query("UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL").run(at, id).changes,
});
