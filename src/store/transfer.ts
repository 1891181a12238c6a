/**
 * Moving a store from one machine's SQLite data dir to PostgreSQL, for an operator whose load
 * outgrew one VM: `docintel export` / `docintel import` (src/cli/main.ts).
 *
 *   exportSqlite(store) -> lines of JSON: a header, then one line per row, table by table in the
 *                          order of TRANSFER_TABLES (parents before children)
 *   importPostgres(sql, lines) -> one transaction into an empty, migrated database
 *
 * What moves: keys (with their webhook secrets), the credit ledger, active holds, batches, tasks,
 * webhook deliveries, thumbnail jobs. What does not: credit_totals (the ledger trigger rebuilds them,
 * and importPostgres checks they equal the export's), rate-limit windows (disposable), and files in
 * the data dir (task inputs, thumbnails: they need the blob store, see docs/postgres.md). Both schemas
 * must be at the same version; the service should be stopped while it runs.
 */
import type { Store } from "./index";
import { appliedMigrations } from "./index";

/** TRANSFER_TABLES: what moves, parents before the tables that reference them */
export const TRANSFER_TABLES = ["api_keys", "credit_ledger", "credit_holds", "batches", "tasks", "webhook_deliveries", "thumbnail_jobs"] as const;
type TransferTable = (typeof TRANSFER_TABLES)[number];

/** EXPORT_FORMAT: the version of the line format below */
const EXPORT_FORMAT = 1;

export interface ExportHeader {
  docintel_export: number;
  schema_version: number;
  exported_at: string;
  /** rows per table, checked by the import */
  counts: Record<TransferTable, number>;
  /** totals: SUM of granted and used over credit_totals, checked against what the import's trigger rebuilds */
  totals: { granted: number; used: number };
}

/** exportSqlite yields the header line, then one `{"table":..., "row":...}` line per row. */
export function* exportSqlite(store: Store, now = new Date()): Generator<string> {
  const versions = appliedMigrations(store);
  const counts = Object.fromEntries(
    TRANSFER_TABLES.map((t) => [t, store.db.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${t}`).get()!.n]),
  ) as Record<TransferTable, number>;
  const totals = store.db.query<{ granted: number; used: number }, []>("SELECT COALESCE(SUM(granted), 0) AS granted, COALESCE(SUM(used), 0) AS used FROM credit_totals").get()!;
  const header: ExportHeader = { docintel_export: EXPORT_FORMAT, schema_version: Math.max(0, ...versions), exported_at: now.toISOString(), counts, totals };
  yield JSON.stringify(header);
  for (const table of TRANSFER_TABLES) {
    // rowid order is acceptance order: PostgreSQL's seq columns are given in the same order
    for (const row of store.db.query<Record<string, unknown>, []>(`SELECT * FROM ${table} ORDER BY rowid`).iterate()) {
      yield JSON.stringify({ table, row });
    }
  }
}

/** ImportReport: rows written per table */
export type ImportReport = Record<TransferTable, number>;

/** IMPORT_BATCH: rows per INSERT statement */
const IMPORT_BATCH = 500;

/**
 * importPostgres writes an export into a migrated PostgreSQL database whose tables are empty, in one
 * transaction: a failure (a bad line, a count or total that does not match) leaves the database empty.
 * Errors name the line and what to do.
 */
export async function importPostgres(sql: Bun.SQL, lines: Iterable<string> | AsyncIterable<string>): Promise<ImportReport> {
  return sql.begin(async (tx) => {
    await tx`SET LOCAL statement_timeout = 0`;
    const written = Object.fromEntries(TRANSFER_TABLES.map((t) => [t, 0])) as ImportReport;
    let header: ExportHeader | null = null;
    let pending = null as { table: TransferTable; rows: Record<string, unknown>[] } | null;
    const flush = async () => {
      if (!pending || pending.rows.length === 0) return;
      await tx`INSERT INTO ${tx(pending.table)} ${tx(pending.rows)}`;
      written[pending.table] += pending.rows.length;
      pending.rows = [];
    };
    let lineNo = 0;
    for await (const line of lines) {
      lineNo++;
      if (line.trim() === "") continue;
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        throw new Error(`import: line ${lineNo} is not JSON; the file must be the output of 'docintel export', unchanged`);
      }
      if (!header) {
        header = await checkHeader(tx, parsed, lineNo);
        continue;
      }
      const { table, row } = parsed as { table: TransferTable; row: Record<string, unknown> };
      if (!TRANSFER_TABLES.includes(table) || typeof row !== "object" || row === null) {
        throw new Error(`import: line ${lineNo} is not a row of a known table (${TRANSFER_TABLES.join(", ")})`);
      }
      // the ledger's id is PostgreSQL's own identity; the order of the lines keeps the order
      if (table === "credit_ledger") delete row.id;
      if (pending?.table !== table) {
        await flush();
        pending = { table, rows: [] };
      }
      pending.rows.push(row);
      if (pending.rows.length >= IMPORT_BATCH) await flush();
    }
    await flush();
    if (!header) throw new Error("import: the file is empty; expected the output of 'docintel export'");
    for (const t of TRANSFER_TABLES) {
      if (written[t] !== header.counts[t]) throw new Error(`import: ${t} has ${written[t]} rows in the file but the export counted ${header.counts[t]}; the file is truncated`);
    }
    const [totals] = await tx`SELECT COALESCE(SUM(granted), 0)::float8 AS granted, COALESCE(SUM(used), 0)::float8 AS used FROM credit_totals`;
    if (totals.granted !== header.totals.granted || totals.used !== header.totals.used) {
      throw new Error(`import: credit totals rebuilt from the ledger (granted ${totals.granted}, used ${totals.used}) differ from the export's (granted ${header.totals.granted}, used ${header.totals.used}); nothing was imported`);
    }
    return written;
  });
}

async function checkHeader(tx: Bun.SQL, parsed: unknown, lineNo: number): Promise<ExportHeader> {
  const header = parsed as ExportHeader;
  if (header?.docintel_export !== EXPORT_FORMAT) {
    throw new Error(`import: line ${lineNo} is not a docintel export header (format ${EXPORT_FORMAT}); the file must be the output of 'docintel export'`);
  }
  const [row] = await tx`SELECT COALESCE(MAX(version), 0)::int AS v FROM schema_migrations`;
  if (row.v !== header.schema_version) {
    throw new Error(`import: the export is at schema version ${header.schema_version} and the database at ${row.v}; run the same docintel version on both sides`);
  }
  for (const t of TRANSFER_TABLES) {
    const [n] = await tx`SELECT EXISTS (SELECT 1 FROM ${tx(t)}) AS used`;
    if (n.used) throw new Error(`import: table ${t} already has rows; import into an empty database (docintel migrate --database URL on a new one)`);
  }
  return header;
}
