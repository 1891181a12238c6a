/**
 * thumbnailTask: a thumbnail job as an operation of the table (src/operations.ts), sync (runNow under
 * the job's id) or async. The task id is the job id (thumb_...); an async job is polled and deleted
 * under /api/v1/thumbnails/jobs, and its webhook carries the job record written by recordEnding in
 * the task's ending transaction.
 *
 * previewTask: a preview of a URL (GET /api/v1/thumbnails/preview, signed preview links), sync only;
 * a cached preview costs the same as a drawn one. (A signed link's cache hit is free and never reaches
 * the engine: thumbnails/routes.ts previewOf.)
 */
import { MINIMUM_COST } from "../credits/costs";
import type { TaskKind } from "../tasks/kinds";
import type { Preview, PreviewInput, ThumbnailJobs, ThumbnailTaskInput, ThumbnailTaskResult } from "./jobs";

export const thumbnailTask: TaskKind<ThumbnailTaskInput, ThumbnailTaskResult, { thumbnails: ThumbnailJobs }> = {
  minimumCost: MINIMUM_COST.thumbnail,
  ownRoutes: true,
  run: (input, deps, signal, _progress, task) => deps.thumbnails.draw(task.id, input, signal),
  ended: (task, deps, tx) => deps.thumbnails.recordEnding(task, tx),
};

export const previewTask: TaskKind<PreviewInput, Preview, { thumbnails: ThumbnailJobs }> = {
  minimumCost: MINIMUM_COST.thumbnail,
  run: (input, deps, signal) => deps.thumbnails.drawPreview(input, signal),
};
