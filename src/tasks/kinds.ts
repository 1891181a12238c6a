/**
 * The registry of task kinds: operation name -> the work it runs in the background. A capability makes
 * its work available to `sync=false`, batches and crash recovery by registering it once, at module
 * load, next to its routes:
 *
 *   registerTaskKind<AnalyzeInput>("analyze", {
 *     minimumCost: MINIMUM_COST.analyze,
 *     run: (input, services, signal, progress) => analyzeWork(input, services, signal),   // -> {result, credits}
 *   });
 *
 * then runs it from its route with `return (await runNowOrAccept(call, "analyze", input)).body` (see
 * accept.ts): 202 and a task with sync=false, otherwise `run` at once under metered. Rules for `run`:
 * - `input` is what the route passed (runNowOrAccept or acceptBatch), after a JSON round trip (it is stored in SQLite):
 *   plain JSON values, plus top-level `File` or `File[]` values, which are saved under
 *   <data>/inputs/<task_id>/ and handed back as `File`s with their names and types.
 * - `result` is the same object the synchronous call returns (it is what polling and the webhook show);
 *   `credits` is what the finished work costs. The hold of `minimumCost` taken at acceptance is settled
 *   to `credits` in the transaction that marks the task completed, or released when it fails.
 * - `signal` aborts on cancel (DELETE), on shutdown (the task goes back to pending and runs again at the
 *   next start) and when the lease was lost; pass it down to every step.
 * - `progress(done, total)` is optional bookkeeping shown by GET /api/v1/jobs/{task_id} (e.g. pages).
 * - A task may run again after a crash, so `run` must be safe to repeat (ours only read their input).
 * - Throw AppError for failures the client should see: the task fails with `{error: code, detail}`.
 */
import type { Services } from "../app/services";
import type { TaskRow } from "./queries";

/** TaskProgress records how far a task is, e.g. progress(3, 10) for 3 pages of 10. */
export type TaskProgress = (done: number, total: number) => void;

export interface TaskOutcome<R = unknown> {
  /** result: the object the synchronous operation returns */
  result: R;
  /** credits: the cost of the finished work, e.g. costs.extract({pages, website}) */
  credits: number;
}

/** TaskIdentity: which task a run belongs to (a sync call runs under its request id). */
export interface TaskIdentity {
  id: string;
}

export type TaskExecutor<I = any, R = unknown> = (input: I, services: Services, signal: AbortSignal, progress: TaskProgress, task: TaskIdentity) => Promise<TaskOutcome<R>>;

export interface TaskKind<I = any, R = unknown> {
  /** minimumCost: credits held at acceptance (402 when the balance cannot cover them); 0 = no hold */
  minimumCost: number;
  run: TaskExecutor<I, R>;
  /**
   * ownRoutes: the kind's tasks are polled and deleted through its feature's own endpoints (thumbnail
   * jobs under /api/v1/thumbnails/jobs), so /api/v1/jobs answers 404 for them.
   */
  ownRoutes?: boolean;
  /**
   * ended runs inside the transaction that ends a task (completed, failed or cancelled): it writes the
   * feature's own record of the ending and returns the body of the task's webhook. Without it the
   * webhook carries the task record (spec "Task record delivered by webhook").
   */
  ended?: (task: TaskRow, services: Services) => unknown;
}

const kinds = new Map<string, TaskKind>();

/** registerTaskKind makes `operation` runnable as a task; registering a name again replaces it. */
export function registerTaskKind<I, R = unknown>(operation: string, kind: TaskKind<I, R>): void {
  if (!/^[a-z][a-z0-9_.-]{0,39}$/.test(operation)) throw new Error(`task kind '${operation}': use lowercase letters, digits, '_', '-' or '.'`);
  kinds.set(operation, kind as TaskKind);
}

export function taskKindOf(operation: string): TaskKind | undefined {
  return kinds.get(operation);
}

/** registeredOperations: the runner claims only tasks it knows how to run (a newer version may know more). */
export function registeredOperations(): string[] {
  return [...kinds.keys()];
}
