/**
 * TaskKind: how the engine runs one operation's work, declared once per operation in its feature
 * folder (extract/task.ts, thumbnails/task.ts, ...) and collected in one table, src/operations.ts.
 * Nothing registers itself: the composition root (app/services.ts) hands the table and the
 * dependencies to the engine (TaskRunner), which runs a kind now (a sync call, `runNow`) or as a task
 * (`sync=false`, batches, crash recovery), the same `run` either way:
 *
 *   export const analyzeTask: TaskKind<AnalyzeInput, AnalysisResult, AgentDeps> = {
 *     minimumCost: MINIMUM_COST.analyze,
 *     run: async (input, deps, signal, progress) => { ...; return { result, credits }; },
 *   };
 *
 * Rules for `run`:
 * - `input` is what the route passed, after a JSON round trip when it ran as a task (it is stored in
 *   store): plain JSON values, plus top-level `File` or `File[]` values, which are saved as blobs
 *   inputs/<task_id>/<n> of the store (or inline when small) and handed back as `File`s with their names and types.
 * - `deps` are only what the kind declares (its D); the engine passes its one dependency object.
 * - `result` is the same object the synchronous call returns (it is what polling and the webhook show);
 *   `credits` is what the finished work costs (credits/costs.ts, from pages actually read). The hold of
 *   `minimumCost` taken at acceptance is settled to `credits` in the transaction that marks the task
 *   completed, or released when it fails.
 * - `signal` aborts on cancel (DELETE), on shutdown (the task goes back to pending and runs again at the
 *   next start) and when the lease was lost; pass it down to every step.
 * - `progress(done, total)` is optional bookkeeping shown by GET /api/v1/jobs/{task_id} (e.g. pages).
 * - A task may run again after a crash, so `run` must be safe to repeat (ours only read their input
 *   and write files named by the task id).
 * - Throw AppError for failures the client should see: the task fails with `{error: code, detail}`.
 */
import type { StoreTx, TaskRow } from "../store/backend";

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

export interface TaskKind<I = any, R = unknown, D = any> {
  /** minimumCost: credits held at acceptance (402 when the balance cannot cover them); 0 = no hold */
  minimumCost: number;
  run: (input: I, deps: D, signal: AbortSignal, progress: TaskProgress, task: TaskIdentity) => Promise<TaskOutcome<R>>;
  /**
   * ownRoutes: the kind's tasks are polled and deleted through its feature's own endpoints (thumbnail
   * jobs under /api/v1/thumbnails/jobs), so /api/v1/jobs answers 404 for them.
   */
  ownRoutes?: boolean;
  /**
   * ended runs inside the transaction that ends a task (completed, failed or cancelled): it writes the
   * feature's own record of the ending through `tx` (never the backend itself: see
   * StoreBackend.transaction) and returns the body of the task's webhook. Without it the webhook
   * carries the task record (spec "Task record delivered by webhook").
   */
  ended?: (task: TaskRow, deps: D, tx: StoreTx) => Promise<unknown>;
}

/** TaskKinds: operation name -> kind; the one table is OPERATIONS in src/operations.ts. */
export type TaskKinds = Readonly<Record<string, TaskKind>>;

/** OPERATION_NAME: how an operation may be named (it is stored in tasks.operation) */
export const OPERATION_NAME = /^[a-z][a-z0-9_.-]{0,39}$/;
