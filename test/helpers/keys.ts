/**
 * Key set-up for tests against a server's SQLite data dir, through the store interface the service
 * uses (KeyStore): opened for the one call and closed after.
 */
import type { KeyStore } from "../../src/store/backend";
import { openSqliteBackend } from "../../src/store/sqliteBackend";

/** withKeys runs `fn` with the keys of the SQLite store in `dataDir` */
export async function withKeys<T>(dataDir: string, fn: (keys: KeyStore) => Promise<T>): Promise<T> {
  const backend = openSqliteBackend(dataDir);
  try {
    return await fn(backend.keys);
  } finally {
    await backend.close();
  }
}
