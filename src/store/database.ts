/**
 * database opens the store a DatabaseChoice names (src/config: --database) behind StoreBackend,
 * and checks it for `docintel doctor`. The service (src/app/services.ts) and the CLI's migrate,
 * import, doctor and key commands all open the store here, so they work on both backends.
 */
import { Database } from "bun:sqlite";
import { existsSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import type { DatabaseChoice } from "../runtime/database";
import { STORE_FILE } from "./index";
import type { StoreBackend } from "./backend";
import { MIGRATIONS } from "./migrations";
import { openPostgres, redactUrl, type PostgresStore } from "./postgres";
import { PG_MIGRATIONS } from "./postgres/migrations";
import type { RetryLog } from "./postgres/retry";
import { openSqliteBackend, type SqliteBackend } from "./sqliteBackend";

/** SCHEMA_VERSION: the newest schema this docintel knows (SQLite and PostgreSQL share the numbers) */
export const SCHEMA_VERSION = Math.max(...MIGRATIONS.map((m) => m.version));
if (SCHEMA_VERSION !== Math.max(...PG_MIGRATIONS.map((m) => m.version))) {
  throw new Error("src/store: the SQLite and PostgreSQL migrations must end at the same version");
}

/** describeDatabase names the store for messages: the SQLite file, or the URL without its password */
export function describeDatabase(choice: DatabaseChoice): string {
  return choice.kind === "sqlite" ? `sqlite ${choice.dataDir}` : `postgres ${redactUrl(choice.url)}`;
}

/** OpenDatabase: what openDatabase returns; `kind` tells the two apart (PostgreSQL's pool and migrations, SQLite's synchronous store) */
export type OpenDatabase = SqliteBackend | PostgresStore;

/**
 * openDatabase opens the chosen store; both apply missing migrations (PostgreSQL under its advisory
 * lock, so machines starting at once migrate once). `migrate: false` opens a PostgreSQL store as it is.
 */
export async function openDatabase(choice: DatabaseChoice, o: { migrate?: boolean; connectTimeoutS?: number; service?: boolean; onRetry?: RetryLog } = {}): Promise<OpenDatabase> {
  if (choice.kind === "sqlite") return openSqliteBackend(choice.dataDir);
  return openPostgres(choice.url, {
    poolSize: choice.poolSize,
    statementTimeoutMs: choice.statementTimeoutMs,
    migrate: o.migrate ?? true,
    connectTimeoutS: o.connectTimeoutS,
    // the service caches keys across machines: NOTIFY, with the change sequence polled every second
    // in case a notification was lost; a command caches nothing and needs neither
    changePollMs: o.service ? 1_000 : 0,
    applicationName: o.service ? `docintel ${hostname()}:${process.pid}` : "docintel-cli",
    // the service keeps its pool open and ready (a connection opened later plans everything again)
    warm: o.service,
    idleTimeoutS: o.service ? 0 : undefined,
    onRetry: o.onRetry,
  });
}

/** DatabaseCheck: what `doctor` reports of the store */
export interface DatabaseCheck {
  ok: boolean;
  /** detail: one line, e.g. "reachable, schema version 5 (current)" or why not */
  detail: string;
}

/**
 * checkDatabase opens the store without migrating it, reads its schema version and compares it with
 * this docintel's. A SQLite data dir that does not exist yet is fine (the service makes it).
 */
export async function checkDatabase(choice: DatabaseChoice): Promise<DatabaseCheck> {
  let backend: StoreBackend | null = null;
  try {
    const t0 = performance.now();
    let versions: number[];
    if (choice.kind === "sqlite") {
      const path = join(choice.dataDir, STORE_FILE);
      if (!existsSync(path)) return { ok: true, detail: `no store yet in ${choice.dataDir}; the service creates it at first start (schema version ${SCHEMA_VERSION})` };
      versions = sqliteVersions(path);
    } else {
      backend = await openDatabase(choice, { migrate: false, connectTimeoutS: 5 });
      versions = await backend.appliedMigrations();
    }
    const version = Math.max(0, ...versions);
    const ms = Math.round(performance.now() - t0);
    if (version === SCHEMA_VERSION) return { ok: true, detail: `reachable in ${ms} ms, schema version ${version} (current)` };
    if (version > SCHEMA_VERSION) return { ok: false, detail: `reachable, but at schema version ${version}, newer than this docintel's ${SCHEMA_VERSION}: run the newer docintel` };
    return { ok: false, detail: `reachable, schema version ${version} of ${SCHEMA_VERSION}: run docintel migrate --database URL` };
  } catch (error) {
    const message = (error as Error).message;
    if (/schema_migrations/i.test(message) && /does not exist|no such table/i.test(message)) {
      return { ok: false, detail: `reachable, but no docintel schema: run docintel migrate --database URL` };
    }
    return { ok: false, detail: `unreachable: ${message}` };
  } finally {
    await backend?.close();
  }
}

/** sqliteVersions reads a SQLite store's schema versions read-only (doctor must not migrate it) */
function sqliteVersions(path: string): number[] {
  const db = new Database(path, { readonly: true });
  try {
    return db.query<{ version: number }, []>("SELECT version FROM schema_migrations ORDER BY version").all().map((r) => r.version);
  } finally {
    db.close();
  }
}
