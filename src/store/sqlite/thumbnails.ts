/**
 * SQL of thumbnail jobs on SQLite (PostgreSQL: ../postgres/thumbnails.ts), behind the backend's
 * ThumbnailStore (../sqliteBackend.ts). Pure statements over the Store; no logic.
 */
import type { NewThumbnailJob, ThumbnailCompletion, ThumbnailJobRow } from "../backend";
import type { Store } from "../index";

type NewJob = NewThumbnailJob;
type Completion = ThumbnailCompletion;

export const thumbnailQueries = (store: Store) => ({
  insert: (row: NewJob) =>
    store.db
      .query(
        `INSERT INTO thumbnail_jobs (id, key_id, status, input, webhook_url, created_at)
         VALUES ($id, $key_id, $status, $input, $webhook_url, $created_at)`,
      )
      .run(row),
  insertCompleted: (row: Omit<ThumbnailJobRow, "status" | "error" | "webhook_url">) =>
    store.db
      .query(
        `INSERT INTO thumbnail_jobs (id, key_id, status, input, image_path, width, height, handler, credits_used, created_at, completed_at)
         VALUES ($id, $key_id, 'completed', $input, $image_path, $width, $height, $handler, $credits_used, $created_at, $completed_at)`,
      )
      .run(row),
  /** byId: the job; a pending job whose task runs shows as processing */
  byId: (id: string) =>
    store.db
      .query<ThumbnailJobRow, [string]>(
        `SELECT j.*, CASE WHEN j.status = 'pending' AND t.status = 'processing' THEN 'processing' ELSE j.status END AS status
         FROM thumbnail_jobs j LEFT JOIN tasks t ON t.id = j.id WHERE j.id = ?`,
      )
      .get(id),
  complete: (row: Completion) =>
    store.db
      .query(
        `UPDATE thumbnail_jobs SET status = 'completed', image_path = $image_path, width = $width, height = $height,
           handler = $handler, credits_used = $credits_used, completed_at = $completed_at
         WHERE id = $id`,
      )
      .run(row).changes,
  fail: (id: string, error: string, handler: string | null, at: string) =>
    store.db.query("UPDATE thumbnail_jobs SET status = 'failed', error = ?, handler = ?, completed_at = ? WHERE id = ?").run(error, handler, at, id).changes,
  remove: (id: string) => store.db.query("DELETE FROM thumbnail_jobs WHERE id = ?").run(id).changes,
  /**
   * failWithoutTask fails the unfinished async jobs of a version whose jobs were not tasks: their
   * input names where it was stored (source.kind file or url), and no task has their id.
   */
  failWithoutTask: (error: string, at: string) =>
    store.db
      .query(
        `UPDATE thumbnail_jobs SET status = 'failed', error = ?, completed_at = ?
         WHERE status IN ('pending', 'processing') AND json_extract(input, '$.source.kind') IN ('file', 'url')
           AND id NOT IN (SELECT id FROM tasks)`,
      )
      .run(error, at).changes,
  /** endedBefore lists jobs that ended before `at` (ISO time), for the retention sweep */
  endedBefore: (at: string) =>
    store.db.query<Pick<ThumbnailJobRow, "id" | "image_path">, [string]>("SELECT id, image_path FROM thumbnail_jobs WHERE completed_at IS NOT NULL AND completed_at < ?").all(at),
});
