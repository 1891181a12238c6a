/**
 * openPostgres opens the PostgreSQL store: a pool of Bun.SQL connections (Bun's built-in client),
 * the migrations under an advisory lock, and the change feed. It implements StoreBackend
 * (../backend.ts). It is not wired into `docintel serve` yet (docs/postgres.md).
 */
import type { CreditStore, StoreBackend, StoreTx } from "../backend";
import { ChangeFeed } from "./changes";
import { pgBlobs, pgSettings } from "./blobs";
import { pgCounterQueries } from "./counters";
import { chargeCredits, chargeIn, holdCredits, holdIn, pgCreditQueries, settleHold, settleIn } from "./credits";
import { pgKeyQueries } from "./keys";
import { appliedPgMigrations, migratePostgres, type MigrationReport } from "./migrations";
import { pgTaskQueries } from "./tasks";
import { pgThumbnailQueries } from "./thumbnails";
import { pgWebhookQueries } from "./webhooks";

export interface PostgresOptions {
  /** poolSize: connections this process opens at most (Bun.SQL `max`); each machine needs its own share of the server's max_connections */
  poolSize: number;
  /** statementTimeoutMs: the server cancels a statement that runs longer (statement_timeout); 0 = no limit */
  statementTimeoutMs: number;
  /** idleTimeoutS: an idle connection is closed after this many seconds; 0 = kept open */
  idleTimeoutS?: number;
  /** connectTimeoutS: how long opening a connection may take */
  connectTimeoutS?: number;
  /** changePollMs: the change feed's fallback poll (see changes.ts); 0 = NOTIFY alone */
  changePollMs?: number;
  /** migrate: apply missing migrations at open (default true; `docintel migrate` may do it apart) */
  migrate?: boolean;
  /** applicationName: shown in pg_stat_activity, to tell machines apart */
  applicationName?: string;
}

export interface PostgresStore extends StoreBackend {
  readonly kind: "postgres";
  /** sql: the pool, for statements not yet behind the interface (tests, doctor) */
  readonly sql: Bun.SQL;
  /** migrations: what this open applied (empty when the schema was current) */
  readonly migrations: MigrationReport;
}

/** redactUrl drops the password from a database URL, for logs and `doctor` */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "postgres://(unparseable URL)";
  }
}

export async function openPostgres(url: string, options: PostgresOptions): Promise<PostgresStore> {
  const sql = new Bun.SQL(url, {
    max: options.poolSize,
    idleTimeout: options.idleTimeoutS ?? 30,
    connectionTimeout: options.connectTimeoutS ?? 10,
    connection: {
      statement_timeout: options.statementTimeoutMs,
      application_name: options.applicationName ?? "docintel",
    },
  });
  const location = redactUrl(url);
  let feed: ChangeFeed | null = null;
  try {
    await sql.connect();
    const migrations = options.migrate === false ? { applied: [] } : await migratePostgres(sql);
    feed = new ChangeFeed(sql, { pollMs: options.changePollMs ?? 1_000 });
    await feed.start();
    const changes = feed;
    return {
      kind: "postgres",
      location,
      sql,
      migrations,
      ...storeTx(sql, false),
      counters: pgCounterQueries(sql),
      settings: pgSettings(sql),
      blobs: pgBlobs(sql),
      transaction: <T>(fn: (tx: StoreTx) => Promise<T>) => sql.begin((tx) => fn(storeTx(tx, true))) as Promise<T>,
      async ping() {
        await sql`SELECT 1 FROM schema_migrations LIMIT 1`;
      },
      appliedMigrations: () => appliedPgMigrations(sql),
      changeStamp: (topic) => changes.changeStamp(topic),
      async close() {
        await changes.stop();
        await sql.close({ timeout: 5 });
      },
    };
  } catch (error) {
    await feed?.stop().catch(() => undefined);
    await sql.close({ timeout: 0 });
    throw new Error(`open the PostgreSQL store at ${location}: ${(error as Error).message}`, { cause: error });
  }
}

/** storeTx binds the query sets to the pool (each credit move its own transaction) or to a transaction's client */
function storeTx(sql: Bun.SQL, inTransaction: boolean): StoreTx {
  return {
    keys: pgKeyQueries(sql),
    credits: creditStore(sql, inTransaction),
    tasks: pgTaskQueries(sql, inTransaction),
    deliveries: pgWebhookQueries(sql),
    thumbnails: pgThumbnailQueries(sql),
  };
}

function creditStore(sql: Bun.SQL, inTransaction: boolean): CreditStore {
  const q = pgCreditQueries(sql);
  return {
    totals: q.totals,
    hold: (cap, hold) => (inTransaction ? holdIn(sql, cap, hold) : holdCredits(sql, cap, hold)),
    settle: (cap, holdId, charge) => (inTransaction ? settleIn(sql, cap, holdId, charge) : settleHold(sql, cap, holdId, charge)),
    charge: (cap, charge) => (inTransaction ? chargeIn(sql, cap, charge) : chargeCredits(sql, cap, charge)),
    grant: q.insertEntry,
    release: q.deleteHold,
    deleteExpiredHolds: q.deleteExpiredHolds,
  };
}
