/**
 * Moving a store from one machine's SQLite data dir to PostgreSQL, for an operator whose load
 * outgrew one VM: `docintel export` / `docintel import` (src/cli/main.ts).
 *
 *   exportSqlite(store) -> lines of JSON: a header, then one line per row, table by table in the
 *                          order of TRANSFER_TABLES (parents before children)
 *   importPostgres(sql, lines) -> one transaction into an empty, migrated database
 *
 * What moves: keys (with their webhook secrets), the credit ledger, active holds, batches, tasks,
 * webhook deliveries, thumbnail jobs, and the data dir's files that PostgreSQL keeps in tables
 * (migration 6): the settings (the shared webhook signing secret, the URL-signing key, so that
 * receivers keep verifying and signed links stay valid) and the blobs (large task inputs, thumbnail
 * images), one line each, base64. What does not: credit_totals (the ledger trigger rebuilds them,
 * and importPostgres checks they equal the export's), rate-limit windows (disposable), cached
 * previews (made again on demand). Both schemas must be at the same version; the service should be
 * stopped while it runs.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { checkBlobName, fileBlobs } from "./files";
import type { Store } from "./index";
import { appliedMigrations } from "./index";

/** TRANSFER_SETTINGS: the settings files of a SQLite data dir (src/webhooks/secret.ts, src/thumbnails/signing.ts) */
export const TRANSFER_SETTINGS = ["webhook-secret", "url-signing-key"] as const;
/** TRANSFER_BLOBS: the blob folders that move (task inputs, thumbnail images; previews are a cache) */
export const TRANSFER_BLOBS = ["inputs", "thumbnails/images"] as const;

/** TRANSFER_TABLES: what moves, parents before the tables that reference them */
export const TRANSFER_TABLES = ["api_keys", "credit_ledger", "credit_holds", "batches", "tasks", "webhook_deliveries", "thumbnail_jobs"] as const;
type TransferTable = (typeof TRANSFER_TABLES)[number];

/** EXPORT_FORMAT: the version of the line format below (2 added settings and blobs; 1 is still read) */
const EXPORT_FORMAT = 2;

export interface ExportHeader {
  docintel_export: number;
  schema_version: number;
  exported_at: string;
  /** rows per table, checked by the import */
  counts: Record<TransferTable, number>;
  /** totals: SUM of granted and used over credit_totals, checked against what the import's trigger rebuilds */
  totals: { granted: number; used: number };
  /** files: settings and blobs that follow the rows (format 2) */
  files?: { settings: number; blobs: number };
}

/** FileLine: a setting or a blob of the data dir, after the rows */
type FileLine = { setting: string; value: string } | { blob: string; base64: string };

/** exportSqlite yields the header line, then one `{"table":..., "row":...}` line per row. */
export async function* exportSqlite(store: Store, now = new Date()): AsyncGenerator<string> {
  const versions = appliedMigrations(store);
  const counts = Object.fromEntries(
    TRANSFER_TABLES.map((t) => [t, store.db.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${t}`).get()!.n]),
  ) as Record<TransferTable, number>;
  const totals = store.db.query<{ granted: number; used: number }, []>("SELECT COALESCE(SUM(granted), 0) AS granted, COALESCE(SUM(used), 0) AS used FROM credit_totals").get()!;
  const dataDir = dirname(store.path);
  const settings = TRANSFER_SETTINGS.filter((name) => existsSync(join(dataDir, name)));
  const blobs = await blobsOf(dataDir);
  const header: ExportHeader = {
    docintel_export: EXPORT_FORMAT,
    schema_version: Math.max(0, ...versions),
    exported_at: now.toISOString(),
    counts,
    totals,
    files: { settings: settings.length, blobs: blobs.length },
  };
  yield JSON.stringify(header);
  for (const table of TRANSFER_TABLES) {
    // rowid order is acceptance order: PostgreSQL's seq columns are given in the same order
    for (const row of store.db.query<Record<string, unknown>, []>(`SELECT * FROM ${table} ORDER BY rowid`).iterate()) {
      yield JSON.stringify({ table, row: table === "thumbnail_jobs" ? relativeImage(row, dataDir) : row });
    }
  }
  for (const name of settings) yield JSON.stringify({ setting: name, value: readFileSync(join(dataDir, name), "utf8").trim() } satisfies FileLine);
  const files = fileBlobs(dataDir);
  for (const name of blobs) {
    const bytes = await files.get(name);
    if (bytes) yield JSON.stringify({ blob: name, base64: Buffer.from(bytes).toString("base64") } satisfies FileLine);
  }
}

async function blobsOf(dataDir: string): Promise<string[]> {
  const files = fileBlobs(dataDir);
  const lists = await Promise.all(TRANSFER_BLOBS.map((prefix) => files.list(prefix)));
  return lists.flat().map((b) => b.name).filter((name) => !name.endsWith(".tmp"));
}

/** relativeImage: a thumbnail job's image as a blob name (older versions stored the absolute path in the data dir) */
function relativeImage(row: Record<string, unknown>, dataDir: string): Record<string, unknown> {
  const path = row.image_path;
  return typeof path === "string" && path.startsWith(dataDir + "/") ? { ...row, image_path: path.slice(dataDir.length + 1) } : row;
}

/** ImportReport: rows written per table, and the settings and blobs */
export type ImportReport = Record<TransferTable | "settings" | "blobs", number>;

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
    const written = Object.fromEntries([...TRANSFER_TABLES, "settings", "blobs"].map((t) => [t, 0])) as ImportReport;
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
      if (isFileLine(parsed)) {
        await flush();
        await importFile(tx, parsed, lineNo);
        written["setting" in parsed ? "settings" : "blobs"]++;
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
    for (const kind of ["settings", "blobs"] as const) {
      const expected = header.files?.[kind] ?? 0;
      if (written[kind] !== expected) throw new Error(`import: the file has ${written[kind]} ${kind} but the export counted ${expected}; the file is truncated`);
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
  if (header?.docintel_export !== EXPORT_FORMAT && header?.docintel_export !== 1) {
    throw new Error(`import: line ${lineNo} is not a docintel export header (format ${EXPORT_FORMAT}); the file must be the output of 'docintel export'`);
  }
  const [row] = await tx`SELECT COALESCE(MAX(version), 0)::int AS v FROM schema_migrations`;
  if (row.v !== header.schema_version) {
    throw new Error(`import: the export is at schema version ${header.schema_version} and the database at ${row.v}; run the same docintel version on both sides`);
  }
  for (const t of [...TRANSFER_TABLES, "settings", "blobs"]) {
    const [n] = await tx`SELECT EXISTS (SELECT 1 FROM ${tx(t)}) AS used`;
    if (n.used) throw new Error(`import: table ${t} already has rows; import into an empty database (docintel migrate --database URL on a new one)`);
  }
  return header;
}

function isFileLine(parsed: unknown): parsed is FileLine {
  return typeof parsed === "object" && parsed !== null && ("setting" in parsed || "blob" in parsed);
}

async function importFile(tx: Bun.SQL, line: FileLine, lineNo: number): Promise<void> {
  if ("setting" in line) {
    if (!(TRANSFER_SETTINGS as readonly string[]).includes(line.setting) || typeof line.value !== "string" || line.value === "") {
      throw new Error(`import: line ${lineNo} is not a known setting (${TRANSFER_SETTINGS.join(", ")})`);
    }
    await tx`INSERT INTO settings (name, value, created_at) VALUES (${line.setting}, ${line.value}, ${new Date().toISOString()})`;
    return;
  }
  if (typeof line.blob !== "string" || typeof line.base64 !== "string" || !TRANSFER_BLOBS.some((p) => line.blob.startsWith(`${p}/`))) {
    throw new Error(`import: line ${lineNo} is not a blob under ${TRANSFER_BLOBS.join(" or ")}`);
  }
  await tx`INSERT INTO blobs (name, bytes, created_at) VALUES (${checkBlobName(line.blob)}, ${Buffer.from(line.base64, "base64")}, ${Date.now()})`;
}
