/**
 * Store opens the SQLite database in the data dir (WAL, foreign keys, busy timeout) and applies
 * the numbered migrations. Its SQL lives in sqlite/*.ts, one file per module, behind StoreBackend
 * (sqliteBackend.ts); this file only owns the connection and transactions.
 */
import { Database } from "bun:sqlite";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { COUNTER_MIGRATIONS, MIGRATIONS, type Migration } from "./migrations";

export interface Store {
  readonly db: Database;
  /** path of the database file */
  readonly path: string;
  /** immediate runs fn inside BEGIN IMMEDIATE, so concurrent writers (other processes too) serialise. */
  immediate<T>(fn: () => T): T;
  /** ping reads from the store (a health check); it throws when the store cannot be read */
  ping(): void;
  /** inTransaction: a transaction of this connection is open (reads see its uncommitted writes) */
  inTransaction(): boolean;
  /**
   * changeStamp is a value that differs whenever the store may have changed: after a write on this
   * connection (seen at once) or a commit by any other connection, this process or another (seen
   * from the next event-loop turn on). Caches of store rows compare it to know that what they hold
   * is still what the store holds. On SQLite: total_changes() (no lock) and PRAGMA data_version
   * (which takes a read lock, so it is read once per turn).
   */
  changeStamp(): string;
  close(): void;
}

/** STORE_FILE is the database file name inside the data dir. */
export const STORE_FILE = "docintel.sqlite";
/** COUNTERS_FILE holds the disposable counters (rate-limit windows), see openCounters. */
export const COUNTERS_FILE = "counters.sqlite";

interface OpenOptions {
  file: string;
  migrations: Migration[];
  /** durable: fsync at checkpoints (synchronous=NORMAL); false for data that may be lost in an OS crash */
  durable: boolean;
}

function openDatabase(dataDir: string, o: OpenOptions): Store {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const path = join(dataDir, o.file);
  const db = new Database(path, { create: true, strict: true });
  try {
    db.exec("PRAGMA journal_mode = WAL");
    db.exec(`PRAGMA synchronous = ${o.durable ? "NORMAL" : "OFF"}`);
    db.exec("PRAGMA foreign_keys = ON");
    db.exec("PRAGMA busy_timeout = 5000");
    migrate(db, o.migrations);
  } catch (error) {
    db.close();
    throw error;
  }
  const dataVersion = db.query<{ data_version: number }, []>("PRAGMA data_version");
  const totalChanges = db.query<{ n: number }, []>("SELECT total_changes() AS n");
  let others = -1;
  let readThisTurn = false;
  return {
    db,
    path,
    immediate<T>(fn: () => T): T {
      return db.transaction(fn).immediate();
    },
    ping(): void {
      db.query("SELECT count(*) FROM schema_migrations").get();
    },
    inTransaction(): boolean {
      return db.inTransaction;
    },
    changeStamp(): string {
      if (!readThisTurn) {
        readThisTurn = true;
        setImmediate(() => (readThisTurn = false));
        others = dataVersion.get()!.data_version;
      }
      return `${others}:${totalChanges.get()!.n}`;
    },
    close() {
      db.close();
    },
  };
}

/** openStore opens the durable store: keys, the credit ledger, tasks, deliveries, jobs. */
export function openStore(dataDir: string, migrations: Migration[] = MIGRATIONS): Store {
  return openDatabase(dataDir, { file: STORE_FILE, migrations, durable: true });
}

/**
 * openCounters opens the counters store: rate-limit windows, written on every request. Counts are
 * shared by every process on the data dir, like the store, but never fsynced (they need not survive
 * an OS crash), which halves the cost of each write. A counters file that an OS crash left unreadable
 * is deleted and made anew: the cost is at most one minute of counts. (On PostgreSQL this would be an
 * UNLOGGED table.)
 */
export function openCounters(dataDir: string): Store {
  const o = { file: COUNTERS_FILE, migrations: COUNTER_MIGRATIONS, durable: false };
  try {
    return openDatabase(dataDir, o);
  } catch (error) {
    const code = (error as { code?: string }).code ?? "";
    if (!/SQLITE_(CORRUPT|NOTADB)/.test(code)) throw error;
    for (const suffix of ["", "-wal", "-shm"]) rmSync(join(dataDir, COUNTERS_FILE + suffix), { force: true });
    return openDatabase(dataDir, o);
  }
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
