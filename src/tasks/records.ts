/**
 * The shapes clients see: the task record (polling), the task webhook body (spec "Task record
 * delivered by webhook"), the batch record (polling and the batch webhook) and the delivery record.
 */
import type { BatchRow, DeliveryRow, TaskRow, TaskStore } from "../store/backend";

export interface TaskError {
  error: string;
  detail: string;
}

const parsed = (json: string | null) => (json === null ? undefined : JSON.parse(json));

/** outcomeOf: `result` when completed, `error` when failed; nothing otherwise. */
function outcomeOf(row: TaskRow): { result?: unknown; error?: TaskError } {
  if (row.status === "completed") return { result: parsed(row.result) };
  if (row.status === "failed") return { error: parsed(row.error) };
  return {};
}

/** taskRecord is the body of GET /api/v1/jobs/{task_id}. */
export async function taskRecord(row: TaskRow, tasks: Pick<TaskStore, "queuePosition">) {
  return {
    task_id: row.id,
    operation: row.operation,
    status: row.status,
    created_at: row.created_at,
    started_at: row.started_at,
    completed_at: row.completed_at,
    credits_used: row.credits_used,
    progress: row.progress_total === null ? null : { done: row.progress_done ?? 0, total: row.progress_total },
    ...(row.status === "pending" ? { queue_position: await tasks.queuePosition(row.id) } : {}),
    ...(row.batch_id ? { batch_id: row.batch_id } : {}),
    ...outcomeOf(row),
  };
}

/** taskWebhookBody is the task record POSTed to webhook_url (spec Events; a failed task carries `error`). */
export function taskWebhookBody(row: TaskRow) {
  return {
    task_id: row.id,
    status: row.status,
    created_at: row.created_at,
    completed_at: row.completed_at,
    credits_used: row.credits_used,
    ...outcomeOf(row),
  };
}

/** batchRecord is the body of GET /api/v1/jobs/batch/{batch_id} and of the batch webhook. */
export async function batchRecord(batch: BatchRow, tasks: Pick<TaskStore, "batchItems">) {
  const items = await tasks.batchItems(batch.id);
  const counts = { pending: 0, processing: 0, completed: 0, failed: 0, cancelled: 0 };
  for (const item of items) counts[item.status]++;
  return {
    batch_id: batch.id,
    operation: batch.operation,
    status: batch.status,
    created_at: batch.created_at,
    completed_at: batch.completed_at,
    item_count: batch.item_count,
    credits_used: items.reduce((n, item) => n + item.credits_used, 0),
    counts,
    items: items.map((item) => ({
      index: item.batch_index,
      task_id: item.id,
      source: item.source,
      status: item.status,
      credits_used: item.credits_used,
      ...outcomeOf(item),
    })),
  };
}

/** deliveryRecord is one entry of the delivery log (spec "Webhook delivery record"), plus what helps debugging. */
export function deliveryRecord(row: DeliveryRow) {
  return {
    id: row.id,
    status: row.status,
    status_code: row.status_code,
    attempts: row.attempts,
    created_at: row.created_at,
    delivered_at: row.delivered_at,
    next_attempt_at: row.next_attempt_at !== null && (row.status === "pending" || row.status === "failed") ? new Date(row.next_attempt_at).toISOString() : null,
    last_error: row.last_error,
    url: row.url,
  };
}
