/**
 * Settings and blobs on PostgreSQL (migration 6): what the SQLite backend keeps as files in the
 * data dir (../files.ts), in tables every machine reads. A blob is one BYTEA row, at most the
 * upload limit; PostgreSQL's own limit for one value is 1 GB.
 */
import type { BlobInfo, BlobStore, SettingStore } from "../backend";
import { checkBlobName } from "../files";

type Sql = Bun.SQL;

export const pgSettings = (sql: Sql): SettingStore => ({
  async getOrCreate(name, make) {
    const [found] = await sql`SELECT value FROM settings WHERE name = ${name}`;
    if (found) return (found as { value: string }).value;
    // ON CONFLICT: another machine made it between the read and the write; its value is the one
    await sql`INSERT INTO settings (name, value, created_at) VALUES (${name}, ${make()}, ${new Date().toISOString()}) ON CONFLICT (name) DO NOTHING`;
    const [row] = await sql`SELECT value FROM settings WHERE name = ${name}`;
    return (row as { value: string }).value;
  },
});

/** likePrefix: a LIKE pattern matching every name under `name/` (the name's own % and _ escaped) */
const likePrefix = (name: string) => `${name.replace(/[\\%_]/g, (c) => `\\${c}`)}/%`;

export const pgBlobs = (sql: Sql): BlobStore => ({
  async put(name, bytes) {
    const data = bytes instanceof Blob ? new Uint8Array(await bytes.arrayBuffer()) : bytes;
    await sql`INSERT INTO blobs (name, bytes, created_at) VALUES (${checkBlobName(name)}, ${data}, ${Date.now()})
              ON CONFLICT (name) DO UPDATE SET bytes = excluded.bytes, created_at = excluded.created_at`;
  },
  async get(name) {
    const [row] = await sql`SELECT bytes FROM blobs WHERE name = ${checkBlobName(name)}`;
    return row ? new Uint8Array((row as { bytes: Uint8Array }).bytes) : null;
  },
  async size(name) {
    const [row] = await sql`SELECT octet_length(bytes)::int AS n FROM blobs WHERE name = ${checkBlobName(name)}`;
    return row ? (row as { n: number }).n : null;
  },
  async info(name) {
    const [row] = await sql`SELECT octet_length(bytes)::int AS n, created_at::float8 AS created_at FROM blobs WHERE name = ${checkBlobName(name)}`;
    return row ? { size: (row as { n: number }).n, createdAt: Number((row as { created_at: number }).created_at) } : null;
  },
  async remove(name) {
    checkBlobName(name);
    return (await sql`DELETE FROM blobs WHERE name = ${name} OR name LIKE ${likePrefix(name)}`).count;
  },
  async list(prefix) {
    checkBlobName(prefix);
    const rows = await sql`SELECT name, created_at::float8 AS created_at FROM blobs WHERE name LIKE ${likePrefix(prefix)} ORDER BY name`;
    return [...rows].map((r) => ({ name: (r as { name: string }).name, createdAt: Number((r as { created_at: number }).created_at) }) satisfies BlobInfo);
  },
});
