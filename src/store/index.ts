/**
 * Store opens the SQLite database in the data dir (WAL, foreign keys, busy timeout) and applies
 * the numbered migrations. SQL lives in each module's queries.ts; this file only owns the
 * connection and transactions, so a PostgreSQL backend is a new implementation of `Store`.
 */
import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { MIGRATIONS, type Migration } from "./migrations";

export interface Store {
  readonly db: Database;
  /** path of the database file */
  readonly path: string;
  /** immediate runs fn inside BEGIN IMMEDIATE, so concurrent writers (other processes too) serialise. */
  immediate<T>(fn: () => T): T;
  close(): void;
}

/** STORE_FILE is the database file name inside the data dir. */
export const STORE_FILE = "docintel.sqlite";

export function openStore(dataDir: string, migrations: Migration[] = MIGRATIONS): Store {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const path = join(dataDir, STORE_FILE);
  const db = new Database(path, { create: true, strict: true });
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA synchronous = NORMAL");
  db.exec("PRAGMA foreign_keys = ON");
  db.exec("PRAGMA busy_timeout = 5000");
  migrate(db, migrations);
  return {
    db,
    path,
    immediate<T>(fn: () => T): T {
      return db.transaction(fn).immediate();
    },
    close() {
      db.close();
    },
  };
}

function migrate(db: Database, migrations: Migration[]): void {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`);
  const applyOne = db.transaction((m: Migration) => {
    const done = db.query("SELECT 1 FROM schema_migrations WHERE version = ?").get(m.version);
    if (done) return;
    db.exec(m.sql);
    db.query("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)").run(
      m.version,
      m.name,
      new Date().toISOString(),
    );
  });
  for (const m of [...migrations].sort((a, b) => a.version - b.version)) applyOne.immediate(m);
}

/** appliedMigrations lists the versions recorded in the store, for tests and `doctor`. */
export function appliedMigrations(store: Store): number[] {
  return store.db
    .query<{ version: number }, []>("SELECT version FROM schema_migrations ORDER BY version")
    .all()
    .map((r) => r.version);
}
