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
import { retryTransient, type RetryLog } from "./retry";
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
  /**
   * warm: open every connection of the pool at start and have each plan acceptance and claims once
   * (the service: its first requests then find the pool ready; see warmPool)
   */
  warm?: boolean;
  /** onRetry: told when a transaction is run again after a deadlock or serialization failure (retry.ts); default: a line on stderr */
  onRetry?: RetryLog;
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
  const onRetry: RetryLog = options.onRetry ?? ((what, error) => console.error(`PostgreSQL store: a transaction met a ${what} and is run again: ${(error as Error).message}`));
  let feed: ChangeFeed | null = null;
  try {
    await sql.connect();
    const migrations = options.migrate === false ? { applied: [] } : await migratePostgres(sql);
    if (options.warm) await warmPool(sql, options.poolSize);
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
      // a deadlock or serialization failure rolls the whole transaction back: it runs again (retry.ts)
      transaction: <T>(fn: (tx: StoreTx) => Promise<T>) => retryTransient(() => sql.begin((tx) => fn(storeTx(tx, true))) as Promise<T>, onRetry),
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

/** WarmedUp rolls back a warm-up transaction */
class WarmedUp extends Error {}

/**
 * warmPool opens all `poolSize` connections at once (each its own transaction, held until all are
 * open) and runs an acceptance and a claim on each, in a transaction that is rolled back (the key it
 * accepts for exists only inside it). A new connection is a new server process that loads the
 * catalog and compiles docintel_accept and its statements on first use, some ms each under load: the
 * service's first requests would pay it, one per connection, which is the acceptance p99 of a burst
 * (bench/tasks-async.ts). Nothing is written.
 */
async function warmPool(sql: Bun.SQL, poolSize: number): Promise<void> {
  const opened = { n: 0 };
  let allOpen!: () => void;
  const all = new Promise<void>((resolve) => (allOpen = resolve));
  const warmOne = (i: number) =>
    sql
      .begin(async (tx) => {
        if (++opened.n === poolSize) allOpen();
        await Promise.race([all, Bun.sleep(2_000)]); // a pool that cannot open them all still starts
        const now = Date.now();
        const key = `warm_${process.pid}_${i}_${now}`;
        const at = new Date(now).toISOString();
        await tx`INSERT INTO api_keys (id, plan, prefix, key_hash, created_at) VALUES (${key}, 'free', '', ${key}, ${at})`;
        const task = { id: key, operation: "warm", input: "{}", webhook_url: null, batch_index: null, hold_id: key, hold_amount: 1, source: null };
        await tx`SELECT docintel_accept(${key}, 1, 1::float8, ${at.slice(0, 7)}, ${now}, ${now + 1}, ${at}, NULL::text::jsonb, ${JSON.stringify([task])}::text::jsonb)`;
        await tx`SELECT * FROM docintel_claim_next(${sql.array(["warm"], "TEXT")}, ${key}, ${now + 1}, ${now}, 1, ${at})`;
        throw new WarmedUp();
      })
      .catch((error) => {
        if (!(error instanceof WarmedUp)) throw error;
      });
  await Promise.all(Array.from({ length: poolSize }, (_, i) => warmOne(i)));
}
