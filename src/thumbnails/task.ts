/**
 * thumbnailTask: an async thumbnail job as an operation of the table (src/operations.ts). The task id
 * is the job id (thumb_...); the job is polled and deleted under /api/v1/thumbnails/jobs, and its
 * webhook carries the job record written by recordEnding in the task's ending transaction.
 */
import { MINIMUM_COST } from "../credits/costs";
import type { TaskKind } from "../tasks/kinds";
import type { ThumbnailJobs, ThumbnailTaskInput, ThumbnailTaskResult } from "./jobs";

export const thumbnailTask: TaskKind<ThumbnailTaskInput, ThumbnailTaskResult, { thumbnails: ThumbnailJobs }> = {
  minimumCost: MINIMUM_COST.thumbnail,
  ownRoutes: true,
  run: (input, deps, signal, _progress, task) => deps.thumbnails.draw(task.id, input, signal),
  ended: (task, deps) => deps.thumbnails.recordEnding(task),
};
