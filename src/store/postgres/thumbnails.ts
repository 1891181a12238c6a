/**
 * Thumbnail job records on PostgreSQL: the statements of ../sqlite/thumbnails.ts. The work of a
 * job is a task (the engine's lease, hold and outbox); these rows are the job as its routes show it.
 */
import type { ThumbnailJobRow, ThumbnailStore } from "../backend";

type Sql = Bun.SQL;

export const pgThumbnailQueries = (sql: Sql): ThumbnailStore => ({
  insert: (row) =>
    sql`INSERT INTO thumbnail_jobs (id, key_id, status, input, webhook_url, created_at)
        VALUES (${row.id}, ${row.key_id}, ${row.status}, ${row.input}, ${row.webhook_url}, ${row.created_at})`.then(() => undefined),

  insertCompleted: (row) =>
    sql`INSERT INTO thumbnail_jobs (id, key_id, status, input, image_path, width, height, handler, credits_used, created_at, completed_at)
        VALUES (${row.id}, ${row.key_id}, 'completed', ${row.input}, ${row.image_path}, ${row.width}, ${row.height}, ${row.handler},
                ${row.credits_used}, ${row.created_at}, ${row.completed_at})`.then(() => undefined),

  async byId(id) {
    const [row] = await sql`
      SELECT j.*, CASE WHEN j.status = 'pending' AND t.status = 'processing' THEN 'processing' ELSE j.status END AS status
      FROM thumbnail_jobs j LEFT JOIN tasks t ON t.id = j.id WHERE j.id = ${id}`;
    return (row as ThumbnailJobRow) ?? null;
  },

  async complete(row) {
    const r = await sql`
      UPDATE thumbnail_jobs SET status = 'completed', image_path = ${row.image_path}, width = ${row.width}, height = ${row.height},
             handler = ${row.handler}, credits_used = ${row.credits_used}, completed_at = ${row.completed_at}
      WHERE id = ${row.id}`;
    return r.count;
  },

  async fail(id, error, handler, at) {
    return (await sql`UPDATE thumbnail_jobs SET status = 'failed', error = ${error}, handler = ${handler}, completed_at = ${at} WHERE id = ${id}`).count;
  },

  async remove(id) {
    return (await sql`DELETE FROM thumbnail_jobs WHERE id = ${id}`).count;
  },

  /** failWithoutTask: input is JSON text (as on SQLite); a row that is not JSON is left alone */
  async failWithoutTask(error, at) {
    const r = await sql`
      UPDATE thumbnail_jobs j SET status = 'failed', error = ${error}, completed_at = ${at}
      WHERE j.status IN ('pending', 'processing')
        AND (CASE WHEN j.input LIKE '{%' THEN j.input::json -> 'source' ->> 'kind' END) IN ('file', 'url')
        AND NOT EXISTS (SELECT 1 FROM tasks t WHERE t.id = j.id)`;
    return r.count;
  },

  async endedBefore(at) {
    const rows = await sql`SELECT id, image_path FROM thumbnail_jobs WHERE completed_at IS NOT NULL AND completed_at < ${at}`;
    return [...rows] as Pick<ThumbnailJobRow, "id" | "image_path">[];
  },
});
