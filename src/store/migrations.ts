/**
 * MIGRATIONS are applied in order at start, each once, each in its own transaction. Never edit a
 * migration that has shipped: add the next number.
 */
import {
  BATCH_STATES,
  DELIVERY_STATES,
  LEDGER_KINDS,
  PLANS,
  TASK_STATES,
  THUMBNAIL_JOB_STATES,
  sqlCheck,
} from "./states";

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/**
 * postgresOnly is a version whose work is PostgreSQL's alone: on SQLite it runs nothing, and exists so
 * that both stores end at the same version (store/database.ts checks that they do).
 */
function postgresOnly(version: number, name: string): Migration {
  return { version, name, sql: "SELECT 1;" };
}

export const MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: "keys and credits",
    sql: `
      CREATE TABLE api_keys (
        id           TEXT PRIMARY KEY,
        name         TEXT NOT NULL DEFAULT '',
        plan         TEXT NOT NULL ${sqlCheck("plan", PLANS)},
        prefix       TEXT NOT NULL,
        key_hash     TEXT NOT NULL UNIQUE,
        created_at   TEXT NOT NULL,
        revoked_at   TEXT,
        last_used_at TEXT
      );

      -- One row per grant or charge; amounts are positive, the kind gives the sign.
      CREATE TABLE credit_ledger (
        id         INTEGER PRIMARY KEY AUTOINCREMENT,
        key_id     TEXT NOT NULL REFERENCES api_keys(id),
        kind       TEXT NOT NULL ${sqlCheck("kind", LEDGER_KINDS)},
        amount     INTEGER NOT NULL CHECK (amount > 0),
        period     TEXT NOT NULL,            -- calendar month in UTC, YYYY-MM
        operation  TEXT,
        request_id TEXT,
        note       TEXT,
        created_at TEXT NOT NULL
      );
      CREATE INDEX credit_ledger_by_key_period ON credit_ledger (key_id, period);

      -- Credits set aside for work in flight; settled into a charge or released. Expired holds
      -- (their process died) no longer count.
      CREATE TABLE credit_holds (
        id         TEXT PRIMARY KEY,
        key_id     TEXT NOT NULL REFERENCES api_keys(id),
        amount     INTEGER NOT NULL CHECK (amount > 0),
        period     TEXT NOT NULL,
        created_at TEXT NOT NULL,
        expires_at INTEGER NOT NULL          -- unix ms
      );
      CREATE INDEX credit_holds_by_key ON credit_holds (key_id, expires_at);
    `,
  },
  {
    version: 2,
    name: "tasks, batches, webhook deliveries and thumbnail jobs",
    sql: `
      CREATE TABLE batches (
        id           TEXT PRIMARY KEY,        -- batch_<id>
        key_id       TEXT NOT NULL REFERENCES api_keys(id),
        operation    TEXT NOT NULL,
        status       TEXT NOT NULL ${sqlCheck("status", BATCH_STATES)},
        webhook_url  TEXT,
        item_count   INTEGER NOT NULL,
        credits_used INTEGER NOT NULL DEFAULT 0,
        created_at   TEXT NOT NULL,
        completed_at TEXT
      );

      CREATE TABLE tasks (
        id               TEXT PRIMARY KEY,    -- task_<id>
        key_id           TEXT NOT NULL REFERENCES api_keys(id),
        operation        TEXT NOT NULL,
        status           TEXT NOT NULL ${sqlCheck("status", TASK_STATES)},
        input            TEXT NOT NULL,       -- JSON of the validated request; files live under data/inputs
        result           TEXT,                -- JSON of the same object the sync call returns
        error            TEXT,                -- JSON {error, detail}
        webhook_url      TEXT,
        batch_id         TEXT REFERENCES batches(id),
        batch_index      INTEGER,
        credits_used     INTEGER NOT NULL DEFAULT 0,
        progress_done    INTEGER,
        progress_total   INTEGER,
        attempts         INTEGER NOT NULL DEFAULT 0,
        lease_owner      TEXT,
        lease_expires_at INTEGER,             -- unix ms; a processing task past it is picked up again
        created_at       TEXT NOT NULL,
        started_at       TEXT,
        completed_at     TEXT
      );
      CREATE INDEX tasks_by_status ON tasks (status, created_at);
      CREATE INDEX tasks_by_batch ON tasks (batch_id, batch_index);
      CREATE INDEX tasks_by_key ON tasks (key_id, created_at);

      CREATE TABLE webhook_deliveries (
        id              TEXT PRIMARY KEY,     -- whd_<id>, the same on every retry
        task_id         TEXT,                 -- task_, batch_ or thumbnail job id
        url             TEXT NOT NULL,
        payload         TEXT NOT NULL,        -- the exact body that is signed and sent
        status          TEXT NOT NULL ${sqlCheck("status", DELIVERY_STATES)},
        status_code     INTEGER,
        attempts        INTEGER NOT NULL DEFAULT 0,
        next_attempt_at INTEGER,              -- unix ms; null when nothing is scheduled
        last_error      TEXT,
        created_at      TEXT NOT NULL,
        delivered_at    TEXT
      );
      CREATE INDEX webhook_deliveries_by_task ON webhook_deliveries (task_id);
      CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at);

      CREATE TABLE thumbnail_jobs (
        id           TEXT PRIMARY KEY,
        key_id       TEXT NOT NULL REFERENCES api_keys(id),
        status       TEXT NOT NULL ${sqlCheck("status", THUMBNAIL_JOB_STATES)},
        input        TEXT NOT NULL,           -- JSON options and the stored input path
        image_path   TEXT,
        width        INTEGER,
        height       INTEGER,
        handler      TEXT,
        error        TEXT,
        webhook_url  TEXT,
        credits_used INTEGER NOT NULL DEFAULT 0,
        created_at   TEXT NOT NULL,
        completed_at TEXT
      );
    `,
  },
  {
    version: 3,
    name: "credit totals per key and month",
    sql: `
      -- Running totals of the ledger, so a balance is one indexed read however long the ledger grows.
      -- The trigger keeps them in the same transaction as every ledger insert; the ledger stays the record.
      CREATE TABLE credit_totals (
        key_id  TEXT NOT NULL REFERENCES api_keys(id),
        period  TEXT NOT NULL,
        granted INTEGER NOT NULL DEFAULT 0,
        used    INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (key_id, period)
      ) WITHOUT ROWID;

      INSERT INTO credit_totals (key_id, period, granted, used)
        SELECT key_id, period,
               SUM(CASE WHEN kind = 'grant' THEN amount ELSE 0 END),
               SUM(CASE WHEN kind = 'charge' THEN amount ELSE 0 END)
        FROM credit_ledger GROUP BY key_id, period;

      CREATE TRIGGER credit_ledger_totals AFTER INSERT ON credit_ledger
      BEGIN
        INSERT INTO credit_totals (key_id, period, granted, used)
          VALUES (NEW.key_id, NEW.period,
                  CASE WHEN NEW.kind = 'grant' THEN NEW.amount ELSE 0 END,
                  CASE WHEN NEW.kind = 'charge' THEN NEW.amount ELSE 0 END)
        ON CONFLICT (key_id, period) DO UPDATE SET
          granted = granted + excluded.granted,
          used = used + excluded.used;
      END;
    `,
  },
  {
    version: 4,
    name: "task credit holds and item sources",
    sql: `
      -- The credit hold taken when a task is accepted; settled or released in the transaction that
      -- ends the task, so a task that is resumed after a crash keeps its hold and is charged once.
      ALTER TABLE tasks ADD COLUMN hold_id TEXT;
      ALTER TABLE tasks ADD COLUMN hold_amount INTEGER NOT NULL DEFAULT 0;
      -- The document's filename or URL, shown per item of a batch.
      ALTER TABLE tasks ADD COLUMN source TEXT;
    `,
  },
  {
    version: 5,
    name: "per-key webhook secrets; ended tasks drop their inputs",
    sql: `
      -- Each key signs its webhooks with its own secret; NULL (every key made before this version)
      -- means the server's shared secret, so existing receivers keep verifying until the key rotates.
      ALTER TABLE api_keys ADD COLUMN webhook_secret TEXT;
      ALTER TABLE api_keys ADD COLUMN webhook_secret_at TEXT;
      -- The key whose secret signs a delivery (looked up at send time); NULL: the shared secret.
      ALTER TABLE webhook_deliveries ADD COLUMN key_id TEXT;
      -- Inputs (file bytes, url_headers) are kept only while a task may still run.
      UPDATE tasks SET input = '{}' WHERE status IN ('completed', 'failed', 'cancelled');
      -- The task runner looks up the unfinished tasks of revoked keys every second: from the few
      -- revoked keys to their pending tasks, never through every pending task.
      CREATE INDEX api_keys_revoked ON api_keys (revoked_at) WHERE revoked_at IS NOT NULL;
      CREATE INDEX tasks_by_key_status ON tasks (key_id, status);
    `,
  },
  // Versions 6 to 9 do their work on PostgreSQL only (postgres/migrations.ts).
  // 6: on SQLite the settings (signing keys) and blobs (large task inputs, thumbnail images) stay
  // files in the data dir (src/store/files.ts); PostgreSQL keeps them in tables, so that every
  // machine reads the same.
  postgresOnly(6, "shared settings and blobs"),
  // 7: PostgreSQL gets two functions so that an acceptance and a claim are one round trip each and
  // the per-key cap and perBatch are exact across machines; SQLite has them already, in BEGIN
  // IMMEDIATE (one writer).
  postgresOnly(7, "acceptance and batch claims in one statement"),
  // 8: PostgreSQL gets docintel_finish_task: the runner's common ending (the task's row, its credit
  // hold and charge, its webhook delivery) in one round trip. SQLite runs the same statements in one
  // BEGIN IMMEDIATE (sqliteBackend.ts).
  postgresOnly(8, "a task's ending in one statement"),
  // 9: PostgreSQL's keys trigger announces a changed webhook_secret too, so the signing-secret cache
  // of every machine is emptied. SQLite's change stamp (PRAGMA data_version and this connection's
  // total_changes) moves with every commit of any process already.
  postgresOnly(9, "a rotated webhook secret is announced"),
];

/** COUNTER_MIGRATIONS shape the disposable counters store (see openCounters). */
export const COUNTER_MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: "rate-limit windows",
    sql: `
      -- Fixed one-minute windows: window_start is the unix minute.
      CREATE TABLE rate_limit_windows (
        key_id       TEXT NOT NULL,
        window_start INTEGER NOT NULL,
        count        INTEGER NOT NULL,
        PRIMARY KEY (key_id, window_start)
      ) WITHOUT ROWID;
    `,
  },
];
