/**
 * thumbnailTask: an async thumbnail job as a task kind of the one task runner (src/tasks). The task
 * id is the job id (thumb_...); the job is polled and deleted under /api/v1/thumbnails/jobs, and its
 * webhook carries the job record.
 */
import { MINIMUM_COST } from "../credits/costs";
import type { TaskKind } from "../tasks/kinds";
import type { ThumbnailTaskInput, ThumbnailTaskResult } from "./jobs";

export const thumbnailTask: TaskKind<ThumbnailTaskInput, ThumbnailTaskResult> = {
  minimumCost: MINIMUM_COST.thumbnail,
  ownRoutes: true,
  run: (input, services, signal, _progress, task) => services.thumbnails.draw(task.id, input, signal),
  ended: (task, services) => services.thumbnails.recordEnding(task),
};
