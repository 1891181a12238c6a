/**
 * PG_MIGRATIONS are the SQLite migrations (../migrations.ts) translated to PostgreSQL, with the same
 * version numbers and names, so that `doctor` and `docintel export` speak of one schema version on
 * both backends. Each translation may add what PostgreSQL needs for the same behaviour (an identity
 * column where SQLite orders by rowid, a trigger where SQLite has data_version). Never edit one
 * that has shipped: add the next number, on both backends.
 *
 * Column types keep SQLite's shapes so that one row type serves both backends: ids and times are
 * TEXT (ISO 8601), unix-ms times are BIGINT (Bun.SQL returns int8 as a string: see rows.ts), JSON
 * is TEXT (it is stored and returned byte for byte, never queried).
 *
 * migratePostgres takes a transaction-scoped advisory lock first: machines that start at once
 * queue on it, the first applies what is missing, the others find everything applied.
 */
import type { Migration } from "../migrations";
import {
  BATCH_STATES,
  DELIVERY_STATES,
  LEDGER_KINDS,
  PLANS,
  TASK_STATES,
  THUMBNAIL_JOB_STATES,
  sqlCheck,
} from "../states";

/** CHANGES_CHANNEL is the LISTEN/NOTIFY channel on which the store announces cached rows that changed (see changes.ts). */
export const CHANGES_CHANNEL = "docintel_changes";
/** CHANGES_SEQUENCE moves on every announced change; machines poll it in case a notification was lost. */
export const CHANGES_SEQUENCE = "store_changes";

export const PG_MIGRATIONS: Migration[] = [
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

      CREATE TABLE credit_ledger (
        id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        key_id     TEXT NOT NULL REFERENCES api_keys(id),
        kind       TEXT NOT NULL ${sqlCheck("kind", LEDGER_KINDS)},
        amount     INTEGER NOT NULL CHECK (amount > 0),
        period     TEXT NOT NULL,
        operation  TEXT,
        request_id TEXT,
        note       TEXT,
        created_at TEXT NOT NULL
      );
      CREATE INDEX credit_ledger_by_key_period ON credit_ledger (key_id, period);

      CREATE TABLE credit_holds (
        id         TEXT PRIMARY KEY,
        key_id     TEXT NOT NULL REFERENCES api_keys(id),
        amount     INTEGER NOT NULL CHECK (amount > 0),
        period     TEXT NOT NULL,
        created_at TEXT NOT NULL,
        expires_at BIGINT NOT NULL
      );
      CREATE INDEX credit_holds_by_key ON credit_holds (key_id, expires_at);

      -- Cached rows announce their changes to every machine (SQLite: PRAGMA data_version). Only the
      -- columns a cache depends on count: last_used_at moves on every request and is nobody's cache.
      CREATE SEQUENCE ${CHANGES_SEQUENCE};
      CREATE FUNCTION announce_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM nextval('${CHANGES_SEQUENCE}');
        PERFORM pg_notify('${CHANGES_CHANNEL}', TG_ARGV[0]);
        RETURN NULL;
      END $$;
      CREATE TRIGGER api_keys_announce AFTER INSERT OR DELETE ON api_keys
        FOR EACH ROW EXECUTE FUNCTION announce_change('keys');
      CREATE TRIGGER api_keys_announce_update AFTER UPDATE ON api_keys
        FOR EACH ROW WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at OR OLD.plan IS DISTINCT FROM NEW.plan
                           OR OLD.key_hash IS DISTINCT FROM NEW.key_hash OR OLD.name IS DISTINCT FROM NEW.name)
        EXECUTE FUNCTION announce_change('keys');
    `,
  },
  {
    version: 2,
    name: "tasks, batches, webhook deliveries and thumbnail jobs",
    sql: `
      CREATE TABLE batches (
        id           TEXT PRIMARY KEY,
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
        id               TEXT PRIMARY KEY,
        -- seq is the acceptance order (SQLite: rowid), for claims and queue positions
        seq              BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
        key_id           TEXT NOT NULL REFERENCES api_keys(id),
        operation        TEXT NOT NULL,
        status           TEXT NOT NULL ${sqlCheck("status", TASK_STATES)},
        input            TEXT NOT NULL,
        result           TEXT,
        error            TEXT,
        webhook_url      TEXT,
        batch_id         TEXT REFERENCES batches(id),
        batch_index      INTEGER,
        credits_used     INTEGER NOT NULL DEFAULT 0,
        progress_done    INTEGER,
        progress_total   INTEGER,
        attempts         INTEGER NOT NULL DEFAULT 0,
        lease_owner      TEXT,
        lease_expires_at BIGINT,
        created_at       TEXT NOT NULL,
        started_at       TEXT,
        completed_at     TEXT
      );
      CREATE INDEX tasks_by_status ON tasks (status, created_at);
      CREATE INDEX tasks_by_batch ON tasks (batch_id, batch_index);
      CREATE INDEX tasks_by_key ON tasks (key_id, created_at);
      -- what a claim scans: the unfinished tasks in acceptance order
      CREATE INDEX tasks_claimable ON tasks (seq) WHERE status IN ('pending', 'processing');

      CREATE TABLE webhook_deliveries (
        id              TEXT PRIMARY KEY,
        seq             BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
        task_id         TEXT,
        url             TEXT NOT NULL,
        payload         TEXT NOT NULL,
        status          TEXT NOT NULL ${sqlCheck("status", DELIVERY_STATES)},
        status_code     INTEGER,
        attempts        INTEGER NOT NULL DEFAULT 0,
        next_attempt_at BIGINT,
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
        input        TEXT NOT NULL,
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
      CREATE TABLE credit_totals (
        key_id  TEXT NOT NULL REFERENCES api_keys(id),
        period  TEXT NOT NULL,
        granted BIGINT NOT NULL DEFAULT 0,
        used    BIGINT NOT NULL DEFAULT 0,
        PRIMARY KEY (key_id, period)
      );

      INSERT INTO credit_totals (key_id, period, granted, used)
        SELECT key_id, period,
               SUM(CASE WHEN kind = 'grant' THEN amount ELSE 0 END),
               SUM(CASE WHEN kind = 'charge' THEN amount ELSE 0 END)
        FROM credit_ledger GROUP BY key_id, period;

      CREATE FUNCTION credit_ledger_totals() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO credit_totals (key_id, period, granted, used)
          VALUES (NEW.key_id, NEW.period,
                  CASE WHEN NEW.kind = 'grant' THEN NEW.amount ELSE 0 END,
                  CASE WHEN NEW.kind = 'charge' THEN NEW.amount ELSE 0 END)
        ON CONFLICT (key_id, period) DO UPDATE SET
          granted = credit_totals.granted + excluded.granted,
          used = credit_totals.used + excluded.used;
        RETURN NULL;
      END $$;
      CREATE TRIGGER credit_ledger_totals AFTER INSERT ON credit_ledger
        FOR EACH ROW EXECUTE FUNCTION credit_ledger_totals();
    `,
  },
  {
    version: 4,
    name: "task credit holds and item sources",
    sql: `
      ALTER TABLE tasks ADD COLUMN hold_id TEXT;
      ALTER TABLE tasks ADD COLUMN hold_amount INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE tasks ADD COLUMN source TEXT;
    `,
  },
  {
    version: 5,
    name: "per-key webhook secrets; ended tasks drop their inputs",
    sql: `
      ALTER TABLE api_keys ADD COLUMN webhook_secret TEXT;
      ALTER TABLE api_keys ADD COLUMN webhook_secret_at TEXT;
      ALTER TABLE webhook_deliveries ADD COLUMN key_id TEXT;
      UPDATE tasks SET input = '{}' WHERE status IN ('completed', 'failed', 'cancelled');
      CREATE INDEX api_keys_revoked ON api_keys (revoked_at) WHERE revoked_at IS NOT NULL;
      CREATE INDEX tasks_by_key_status ON tasks (key_id, status);
    `,
  },
  {
    version: 6,
    name: "shared settings and blobs",
    sql: `
      -- Values every machine must agree on (the webhook signing secret of keys made before per-key
      -- secrets, the URL-signing key): the first machine to need one makes it, the rest read it.
      CREATE TABLE settings (
        name       TEXT PRIMARY KEY,
        value      TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      -- Bytes another machine must read: large task inputs, thumbnail images. Names are paths
      -- ("inputs/<task>/0"); created_at (unix ms) lets sweeps skip what is being written now.
      CREATE TABLE blobs (
        name       TEXT PRIMARY KEY,
        bytes      BYTEA NOT NULL,
        created_at BIGINT NOT NULL
      );
    `,
  },
  {
    version: 7,
    name: "acceptance and batch claims in one statement",
    sql: `
      -- docintel_accept writes one acceptance (tasks/engine.ts acceptMany: the batch row, the credit
      -- holds, the task rows, the per-key cap on pending work and the balance) in ONE statement, one
      -- round trip, where it took seven (BEGIN, count, key lock, balance, hold, task, COMMIT).
      -- The rows are written first; then the key's row is locked (as every credit move does,
      -- credits.ts) and the key's unfinished tasks and balance are read by the statements AFTER the
      -- lock (a statement's snapshot is taken when it starts; inside a function each statement takes
      -- its own), so they include every acceptance of the key committed before, on any machine, and
      -- this one's own rows: the cap and the balance are exact, and acceptances of one key queue on
      -- the lock only for the two reads and the commit, not for the writes.
      -- A refusal raises, which rolls every row back (the statement's, or the caller's transaction):
      --   SQLSTATE DIPND, detail = the key's tasks waiting or running before this acceptance;
      --   SQLSTATE DICRD, detail = "ITEM REMAINING": the first item (0-based) the balance cannot
      --   cover and what was left for it.
      -- p_tasks: a JSON array of {id, operation, input, webhook_url, batch_index, hold_id, hold_amount,
      -- source} in acceptance order; p_allowance NULL = a metered plan (no balance check).
      CREATE FUNCTION docintel_accept(p_key_id TEXT, p_max_pending INTEGER, p_allowance FLOAT8, p_period TEXT,
                                      p_now_ms BIGINT, p_hold_expires_at BIGINT, p_created_at TEXT,
                                      p_batch JSONB, p_tasks JSONB)
      RETURNS VOID
      LANGUAGE plpgsql AS $$
      DECLARE
        v_adding INTEGER := jsonb_array_length(p_tasks);
        v_unfinished INTEGER;
        v_remaining FLOAT8;
        v_amount FLOAT8;
        v_index INTEGER := 0;
      BEGIN
        IF p_batch IS NOT NULL THEN
          INSERT INTO batches (id, key_id, operation, status, webhook_url, item_count, created_at)
          VALUES (p_batch->>'id', p_key_id, p_batch->>'operation', 'pending', p_batch->>'webhook_url',
                  (p_batch->>'item_count')::INTEGER, p_created_at);
        END IF;
        INSERT INTO credit_holds (id, key_id, amount, period, created_at, expires_at)
          SELECT x->>'hold_id', p_key_id, (x->>'hold_amount')::INTEGER, p_period, p_created_at, p_hold_expires_at
          FROM jsonb_array_elements(p_tasks) AS a(x) WHERE x->>'hold_id' IS NOT NULL;
        -- in item order: seq is the acceptance order that claims follow
        INSERT INTO tasks (id, key_id, operation, status, input, webhook_url, batch_id, batch_index, hold_id, hold_amount, source, created_at)
          SELECT x->>'id', p_key_id, x->>'operation', 'pending', x->>'input', x->>'webhook_url', p_batch->>'id',
                 (x->>'batch_index')::INTEGER, x->>'hold_id', (x->>'hold_amount')::INTEGER, x->>'source', p_created_at
          FROM jsonb_array_elements(p_tasks) WITH ORDINALITY AS a(x, n) ORDER BY n;

        PERFORM 1 FROM api_keys WHERE id = p_key_id FOR NO KEY UPDATE;
        IF NOT FOUND THEN
          RAISE EXCEPTION 'task acceptance for unknown key %', p_key_id;
        END IF;
        SELECT count(*) - v_adding INTO v_unfinished FROM tasks WHERE key_id = p_key_id AND status IN ('pending', 'processing');
        IF v_unfinished + v_adding > p_max_pending THEN
          RAISE EXCEPTION USING ERRCODE = 'DIPND', MESSAGE = 'the key''s cap on pending tasks', DETAIL = v_unfinished::TEXT;
        END IF;
        IF p_allowance IS NOT NULL THEN
          -- what was left before this acceptance's own holds (which the sum below includes)
          SELECT p_allowance + COALESCE(t.granted, 0) - COALESCE(t.used, 0) - h.held + h.own INTO v_remaining
          FROM (SELECT COALESCE(SUM(amount), 0) AS held,
                       COALESCE(SUM(amount) FILTER (WHERE id IN (SELECT x->>'hold_id' FROM jsonb_array_elements(p_tasks) AS a(x))), 0) AS own
                FROM credit_holds WHERE key_id = p_key_id AND expires_at > p_now_ms) h
          LEFT JOIN credit_totals t ON t.key_id = p_key_id AND t.period = p_period;
          FOR v_amount IN SELECT (x->>'hold_amount')::FLOAT8 FROM jsonb_array_elements(p_tasks) WITH ORDINALITY AS a(x, n) ORDER BY n LOOP
            IF v_amount > 0 THEN
              IF v_remaining < v_amount THEN
                RAISE EXCEPTION USING ERRCODE = 'DICRD', MESSAGE = 'the key''s balance', DETAIL = v_index || ' ' || v_remaining;
              END IF;
              v_remaining := v_remaining - v_amount;
            END IF;
            v_index := v_index + 1;
          END LOOP;
        END IF;
      END;
      $$;

      -- docintel_claim_next: claimNext with \`perBatch\` exact across machines. The items of one batch
      -- are claimed one at a time (a transaction-scoped advisory lock on the batch id, key space 1),
      -- and the batch's running items are counted by the statement AFTER the lock, so a claimer sees
      -- the claims committed while it waited; a batch found full is passed over for the next task.
      -- Only the first wait blocks: later batches are tried with pg_try_advisory_xact_lock (busy =
      -- passed over), so a claimer never waits while it holds another batch's lock (no deadlock).
      -- Tasks outside batches take no lock: a claim is still one statement with SKIP LOCKED.
      CREATE FUNCTION docintel_claim_next(p_operations TEXT[], p_owner TEXT, p_lease_until BIGINT, p_now_ms BIGINT,
                                          p_per_batch INTEGER, p_started_at TEXT)
      RETURNS SETOF tasks
      LANGUAGE plpgsql AS $$
      DECLARE
        v_id TEXT;
        v_batch TEXT;
        v_passed TEXT[] := '{}';
        v_waited BOOLEAN := false;
        v_running INTEGER;
      BEGIN
        LOOP
          SELECT t.id, t.batch_id INTO v_id, v_batch FROM tasks t
          WHERE (t.status = 'pending' OR (t.status = 'processing' AND t.lease_expires_at < p_now_ms))
            AND t.operation = ANY(p_operations)
            AND (t.batch_id IS NULL OR
                 (t.batch_id <> ALL(v_passed) AND
                  (SELECT count(*) FROM tasks b WHERE b.batch_id = t.batch_id AND b.status = 'processing'
                     AND b.lease_expires_at >= p_now_ms) < p_per_batch))
          ORDER BY t.seq
          LIMIT 1
          FOR UPDATE SKIP LOCKED;
          IF NOT FOUND THEN
            RETURN;
          END IF;
          IF v_batch IS NOT NULL THEN
            IF NOT v_waited THEN
              PERFORM pg_advisory_xact_lock(1, hashtext(v_batch));
              v_waited := true;
            ELSIF NOT pg_try_advisory_xact_lock(1, hashtext(v_batch)) THEN
              v_passed := v_passed || v_batch;
              CONTINUE;
            END IF;
            SELECT count(*) INTO v_running FROM tasks
            WHERE batch_id = v_batch AND status = 'processing' AND lease_expires_at >= p_now_ms;
            IF v_running >= p_per_batch THEN
              v_passed := v_passed || v_batch;
              CONTINUE;
            END IF;
          END IF;
          RETURN QUERY
            UPDATE tasks SET status = 'processing', lease_owner = p_owner, lease_expires_at = p_lease_until,
                   attempts = attempts + 1, started_at = COALESCE(started_at, p_started_at)
            WHERE id = v_id
            RETURNING *;
          RETURN;
        END LOOP;
      END;
      $$;
    `,
  },
  {
    version: 8,
    name: "a task's ending in one statement",
    sql: `
      -- docintel_finish_task ends a running task (tasks/runner.ts end, TaskStore.finish) in ONE
      -- statement, one round trip, where the transaction took eight (BEGIN, the key's plan, the hold,
      -- the charge, the task, the row again, the delivery, COMMIT): each held a pool connection and
      -- waited for the event loop between statements, beside the acceptances of the same process.
      -- The same writes, in the same commit:
      --   the task row (status, result or error, credits, progress, lease and input cleared), only
      --   while this owner holds it: otherwise 'lease_lost' and nothing is written;
      --   the credit hold deleted and, for a charge, its ledger entry; a charge larger than the hold
      --   still reserves (nothing, once the hold's TTL has passed) raises SQLSTATE DINCV (nothing written): the caller takes the full path,
      --   which checks the balance under the key's lock (credits.ts settleIn);
      --   the webhook delivery row (the outbox), when given.
      -- p_charge: {key_id, kind, amount, period, operation, request_id, note, created_at} or NULL;
      -- p_delivery: {id, task_id, key_id, url, payload, next_attempt_at, created_at} or NULL.
      CREATE FUNCTION docintel_finish_task(p_id TEXT, p_owner TEXT, p_status TEXT, p_result TEXT, p_error TEXT,
                                           p_credits INTEGER, p_completed_at TEXT, p_progress_done INTEGER,
                                           p_progress_total INTEGER, p_hold_id TEXT, p_charge JSONB, p_delivery JSONB)
      RETURNS TEXT
      LANGUAGE plpgsql AS $$
      DECLARE
        v_reserved INTEGER;
        v_expires BIGINT;
      BEGIN
        UPDATE tasks SET status = p_status,
               result = CASE WHEN p_status = 'completed' THEN p_result ELSE result END,
               error = CASE WHEN p_status = 'failed' THEN p_error ELSE error END,
               credits_used = CASE WHEN p_status = 'completed' THEN p_credits ELSE credits_used END,
               progress_done = COALESCE(p_progress_done, progress_done),
               progress_total = CASE WHEN p_progress_done IS NULL THEN progress_total ELSE p_progress_total END,
               completed_at = p_completed_at, lease_owner = NULL, lease_expires_at = NULL, input = '{}'
        WHERE id = p_id AND lease_owner = p_owner AND status = 'processing';
        IF NOT FOUND THEN
          RETURN 'lease_lost';
        END IF;
        IF p_hold_id IS NOT NULL THEN
          DELETE FROM credit_holds WHERE id = p_hold_id RETURNING amount, expires_at INTO v_reserved, v_expires;
          -- a hold past its TTL reserves nothing any more: the charge then takes the ledger's balance check
          IF v_expires IS NOT NULL AND v_expires <= (extract(epoch FROM p_completed_at::timestamptz) * 1000)::BIGINT THEN
            v_reserved := 0;
          END IF;
        END IF;
        IF p_charge IS NOT NULL AND (p_charge->>'amount')::INTEGER > 0 THEN
          IF (p_charge->>'amount')::INTEGER > COALESCE(v_reserved, 0) THEN
            RAISE EXCEPTION USING ERRCODE = 'DINCV', MESSAGE = 'the charge is larger than the hold';
          END IF;
          INSERT INTO credit_ledger (key_id, kind, amount, period, operation, request_id, note, created_at)
          VALUES (p_charge->>'key_id', p_charge->>'kind', (p_charge->>'amount')::INTEGER, p_charge->>'period',
                  p_charge->>'operation', p_charge->>'request_id', p_charge->>'note', p_charge->>'created_at');
        END IF;
        IF p_delivery IS NOT NULL THEN
          INSERT INTO webhook_deliveries (id, task_id, key_id, url, payload, status, attempts, next_attempt_at, created_at)
          VALUES (p_delivery->>'id', p_delivery->>'task_id', p_delivery->>'key_id', p_delivery->>'url',
                  p_delivery->>'payload', 'pending', 0, (p_delivery->>'next_attempt_at')::BIGINT, p_delivery->>'created_at');
        END IF;
        RETURN 'ended';
      END;
      $$;
    `,
  },
  {
    version: 9,
    name: "a rotated webhook secret is announced",
    sql: `
      -- Each machine caches the keys' signing secrets (webhooks/secret.ts SigningSecrets) where a
      -- webhook request read its key's secret, one round trip, every time. The cache is emptied by the
      -- keys' change announcement, so a rotation (on any machine, or by \`keys secret --rotate\`) now
      -- announces too: the other machines sign with the new secret from the notification on (at most
      -- the change poll, 1 s, when a notification is lost).
      DROP TRIGGER api_keys_announce_update ON api_keys;
      CREATE TRIGGER api_keys_announce_update AFTER UPDATE ON api_keys
        FOR EACH ROW WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at OR OLD.plan IS DISTINCT FROM NEW.plan
                           OR OLD.key_hash IS DISTINCT FROM NEW.key_hash OR OLD.name IS DISTINCT FROM NEW.name
                           OR OLD.webhook_secret IS DISTINCT FROM NEW.webhook_secret)
        EXECUTE FUNCTION announce_change('keys');
    `,
  },
];

/**
 * PG_COUNTER_MIGRATIONS: the counters store's migrations (SQLite: counters.sqlite) in the same
 * database, versioned apart in counter_migrations. UNLOGGED: no WAL, so a write costs no flush, and
 * PostgreSQL empties the table after a crash, which costs at most one minute of counts.
 */
export const PG_COUNTER_MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: "rate-limit windows",
    sql: `
      CREATE UNLOGGED TABLE rate_limit_windows (
        key_id       TEXT NOT NULL,
        window_start BIGINT NOT NULL,
        count        INTEGER NOT NULL,
        PRIMARY KEY (key_id, window_start)
      );
    `,
  },
];

/** MIGRATION_LOCK names the advisory lock that serialises migrators (any 64-bit number; this one spells nothing) */
export const MIGRATION_LOCK = 0x646f63696e74656cn; // "docintel" in ASCII

/** MigrationReport: what one migrator applied (empty when another machine had done it all). */
export interface MigrationReport {
  applied: { table: string; version: number; name: string }[];
}

/**
 * migratePostgres applies the missing migrations of both version tables in one transaction under
 * the migration lock; DDL is transactional in PostgreSQL, so a migration that fails leaves nothing
 * behind. statement_timeout is lifted for it: waiting for another machine's migration, or a long
 * one, is not a stuck query.
 */
export async function migratePostgres(
  sql: Bun.SQL,
  sets: { table: string; migrations: Migration[] }[] = [
    { table: "schema_migrations", migrations: PG_MIGRATIONS },
    { table: "counter_migrations", migrations: PG_COUNTER_MIGRATIONS },
  ],
): Promise<MigrationReport> {
  return sql.begin(async (tx) => {
    await tx`SET LOCAL statement_timeout = 0`;
    await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK.toString()}::bigint)`;
    const applied: MigrationReport["applied"] = [];
    for (const { table, migrations } of sets) {
      await tx.unsafe(`CREATE TABLE IF NOT EXISTS ${table} (
        version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`);
      const done = new Set((await tx.unsafe<{ version: number }[]>(`SELECT version FROM ${table}`)).map((r) => r.version));
      for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
        if (done.has(m.version)) continue;
        await tx.unsafe(m.sql);
        await tx.unsafe(`INSERT INTO ${table} (version, name, applied_at) VALUES ($1, $2, $3)`, [m.version, m.name, new Date().toISOString()]);
        applied.push({ table, version: m.version, name: m.name });
      }
    }
    return { applied };
  });
}

/** appliedPgMigrations lists the store's schema versions (for tests and `doctor`). */
export async function appliedPgMigrations(sql: Bun.SQL): Promise<number[]> {
  const rows = await sql<{ version: number }[]>`SELECT version FROM schema_migrations ORDER BY version`;
  return rows.map((r) => r.version);
}
