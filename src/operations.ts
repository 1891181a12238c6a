/**
 * OPERATIONS: the one table of the work the engine runs, sync or as tasks. Each entry is declared in
 * its feature folder (`task.ts`: input, minimum cost, run -> {result, credits}, the dependencies it
 * reads); this list is all the engine knows. Prices live in credits/costs.ts (PRICES). To add an
 * operation, see docs/architecture.md.
 */
import type { TaskKind } from "./tasks/kinds";
import { analyzeTask, crossTask } from "./analyze/task";
import type { AgentDeps } from "./analyze/service";
import { decideTask } from "./decide/task";
import { diffTask } from "./diff/task";
import type { DiffDeps } from "./diff/service";
import { extractTask } from "./extract/task";
import { markdownTask } from "./markdown/task";
import { screenshotTask } from "./screenshots/task";
import type { ScreenshotDeps } from "./screenshots/service";
import type { ExtractDeps } from "./extract/service";
import { PREVIEW_OPERATION, THUMBNAIL_OPERATION, type ThumbnailJobs } from "./thumbnails/jobs";
import { previewTask, thumbnailTask } from "./thumbnails/task";

/** OperationDeps: the dependencies the composition root hands the engine; each operation reads its part. */
export type OperationDeps = AgentDeps & ExtractDeps & DiffDeps & { thumbnails: ThumbnailJobs; screenshots: ScreenshotDeps };

export const OPERATIONS = {
  markdown: markdownTask,
  screenshot: screenshotTask,
  extract: extractTask,
  analyze: analyzeTask,
  cross: crossTask,
  decide: decideTask,
  diff: diffTask,
  [THUMBNAIL_OPERATION]: thumbnailTask,
  [PREVIEW_OPERATION]: previewTask,
} as const satisfies Record<string, TaskKind<any, any, any>>;

/** OperationName: an operation of the table (the name stored in tasks.operation) */
export type OperationName = keyof typeof OPERATIONS;

/** OperationsFit: a compile-time check that OperationDeps gives every operation what it declares. */
type DepsOf<K> = K extends TaskKind<any, any, infer D> ? D : never;
export type OperationsFit = { [N in OperationName]: OperationDeps extends DepsOf<(typeof OPERATIONS)[N]> ? true : never };
const _fit: OperationsFit = { markdown: true, screenshot: true, extract: true, analyze: true, cross: true, decide: true, diff: true, thumbnail: true, "thumbnail.preview": true };
void _fit;
