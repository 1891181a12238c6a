/**
 * StoreBackend is the store as the engine and the modules will see it once PostgreSQL is wired in
 * (issue 18): asynchronous, because a PostgreSQL statement is a round trip, and made of operations
 * that are each atomic on their own, so that neither the engine nor a module ever holds a
 * transaction open in its own code except through `transaction`.
 *
 * Implementations: src/store/postgres (openPostgres) and src/store/sqliteBackend.ts (the SQLite
 * store); src/store/database.ts opens the one --database names. The CLI's store commands use it; the
 * service's modules do not yet: see docs/postgres.md for how they adopt it.
 *
 *   engine / ledger / key resolver
 *        |  await backend.credits.hold(cap, hold)          one atomic move, any backend
 *        |  await backend.transaction(tx => ...)           several moves in one commit (task endings)
 *        v
 *   StoreBackend --- SQLite: BEGIN IMMEDIATE, one writer (a process-wide queue while a transaction awaits)
 *               \--- PostgreSQL: row locks per key, FOR UPDATE SKIP LOCKED claims, LISTEN/NOTIFY
 *
 * Reads that run on every request (the key of a request, a balance) stay cached in memory and are
 * checked against `changeStamp(topic)`, which is synchronous on both backends: the SQLite fast
 * path (the http-auth bench) keeps no await on a cache hit.
 */
import type { BatchState, DeliveryState, LedgerKind, Plan, TaskState, ThumbnailJobState } from "./states";

export type BackendKind = "sqlite" | "postgres";

/** ChangeTopic: a group of cached rows ("keys": api_keys) */
export type ChangeTopic = "keys";

// Rows: the shape of a stored row on either backend (PostgreSQL's int8 columns come back as numbers, postgres/rows.ts)

export interface ApiKeyRow {
  id: string;
  name: string;
  plan: Plan;
  prefix: string;
  key_hash: string;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
  /** webhook_secret: the key's own webhook signing secret; null = the server's shared secret (keys made before migration 5) */
  webhook_secret: string | null;
  /** webhook_secret_at: when webhook_secret was set (ISO time) */
  webhook_secret_at: string | null;
}

/** CreditTotals: a key's month so far, and when the earliest of its active holds expires (null: none) */
export interface CreditTotals {
  granted: number;
  used: number;
  held: number;
  next_expiry: number | null;
}

export interface TaskRow {
  id: string;
  key_id: string;
  operation: string;
  status: TaskState;
  input: string;
  result: string | null;
  error: string | null;
  webhook_url: string | null;
  batch_id: string | null;
  batch_index: number | null;
  credits_used: number;
  progress_done: number | null;
  progress_total: number | null;
  attempts: number;
  lease_owner: string | null;
  lease_expires_at: number | null;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  hold_id: string | null;
  hold_amount: number;
  source: string | null;
}

export type NewTask = {
  id: string;
  key_id: string;
  operation: string;
  input: string;
  webhook_url: string | null;
  batch_id: string | null;
  batch_index: number | null;
  hold_id: string | null;
  hold_amount: number;
  source: string | null;
  created_at: string;
};

export interface BatchRow {
  id: string;
  key_id: string;
  operation: string;
  status: BatchState;
  webhook_url: string | null;
  item_count: number;
  credits_used: number;
  created_at: string;
  completed_at: string | null;
}

export interface DeliveryRow {
  id: string;
  task_id: string | null;
  /** key_id: the key whose signing secret signs the delivery; null (rows made before migration 5) = the shared secret */
  key_id: string | null;
  url: string;
  payload: string;
  status: DeliveryState;
  status_code: number | null;
  attempts: number;
  next_attempt_at: number | null;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
}

export interface LedgerEntry {
  key_id: string;
  kind: LedgerKind;
  amount: number;
  period: string;
  operation: string | null;
  request_id: string | null;
  note: string | null;
  created_at: string;
}

export interface NewHold {
  id: string;
  key_id: string;
  amount: number;
  period: string;
  created_at: string;
  expires_at: number;
}

/** Cap: what a key may spend; allowance null = a metered plan (no cap, nothing is checked) */
export interface Cap {
  keyId: string;
  allowance: number | null;
  period: string;
  nowMs: number;
}

/** Shortfall: a move refused because the balance could not cover it (the caller answers 402) */
export interface Shortfall {
  ok: false;
  /** remaining: what the key had left (may be below the amount asked, never below zero after a move) */
  remaining: number;
}

/** ClaimedTask: a claimed task's row as the claim left it, and whether its key was revoked at the claim */
export type ClaimedTask = TaskRow & { keyRevoked: boolean };

export interface ClaimRequest {
  /** operations this machine can run (registered task kinds) */
  operations: string[];
  owner: string;
  /** leaseUntil: unix ms at which the claim runs out without a renewal */
  leaseUntil: number;
  nowMs: number;
  /** perBatch: items of one batch running at once, over all processes and machines (exact on both backends) */
  perBatch: number;
  startedAt: string;
}


/** Moved: a credit move that happened, or the shortfall that refused it (nothing written) */
export type Moved = { ok: true } | Shortfall;

export interface KeyStore {
  insert(row: Omit<ApiKeyRow, "revoked_at" | "last_used_at">): Promise<void>;
  byHash(keyHash: string): Promise<ApiKeyRow | null>;
  byId(id: string): Promise<ApiKeyRow | null>;
  list(): Promise<ApiKeyRow[]>;
  touch(id: string, at: string): Promise<void>;
  webhookSecret(id: string): Promise<Pick<ApiKeyRow, "webhook_secret" | "webhook_secret_at"> | null>;
  setWebhookSecret(id: string, secret: string, at: string): Promise<boolean>;
  /** revoke: 1 when the key was active and is now revoked; every machine's key cache sees it within a second */
  revoke(id: string, at: string): Promise<number>;
}

/**
 * CreditStore: the ledger's moves. Each never takes a capped key below zero, however many
 * processes or machines move credits of the same key at once. Called on the backend, a move is its
 * own transaction; called on the `tx` of `transaction`, it is part of that commit.
 */
export interface CreditStore {
  totals(keyId: string, period: string, nowMs: number): Promise<CreditTotals>;
  hold(cap: Cap, hold: NewHold): Promise<Moved>;
  /** settle turns a hold into a charge (amount 0: releases it); more than the hold reserves is checked against the balance */
  settle(cap: Cap, holdId: string, charge: LedgerEntry): Promise<Moved>;
  charge(cap: Cap, charge: LedgerEntry): Promise<Moved>;
  grant(entry: LedgerEntry): Promise<void>;
  /** release removes a hold; its amount, or null when it was already gone */
  release(holdId: string): Promise<number | null>;
  deleteExpiredHolds(nowMs: number): Promise<number>;
}

/** NewBatch: a batch as acceptance writes it, with its items (tasks) in the same transaction */
export interface NewBatch {
  id: string;
  key_id: string;
  operation: string;
  webhook_url: string | null;
  item_count: number;
  created_at: string;
}

/**
 * Acceptance: the tasks of one request (one task, or a batch and its items) as acceptance writes them
 * in one commit (tasks/engine.ts). Each task with `hold_amount > 0` names its hold in `hold_id`; the
 * holds reserve `hold_amount` each until `holdExpiresAt`.
 */
export interface Acceptance {
  /** cap: the key and what it may spend (Ledger.capOf) */
  cap: Cap;
  /** maxPending: tasks the key may have waiting or running, these included (--max-pending-tasks) */
  maxPending: number;
  /** holdExpiresAt: unix ms at which the holds stop reserving */
  holdExpiresAt: number;
  createdAt: string;
  batch: NewBatch | null;
  tasks: NewTask[];
}

/**
 * TaskFinish: the common ending of a running task as one commit (tasks/runner.ts end): the task's row
 * (completed with `result` and `credits`, or failed with `error`; `progress` written with it), its
 * credit hold deleted and, when `charge` is given, the charge the hold covers, and the webhook
 * delivery (the outbox row). SQLite: the statements in one BEGIN IMMEDIATE; PostgreSQL: one statement
 * (docintel_finish_task, migration 8), one round trip.
 */
export interface TaskFinish {
  id: string;
  owner: string;
  status: "completed" | "failed";
  /** result (completed) or error (failed), JSON */
  result: string | null;
  error: string | null;
  credits: number;
  completedAt: string;
  progress: [number, number] | null;
  holdId: string | null;
  /** charge: the ledger entry of a completed task's cost (amount > 0), or null */
  charge: LedgerEntry | null;
  delivery: NewDelivery | null;
}

/**
 * FinishOutcome: `ended`; `lease_lost` (the task is no longer this owner's: nothing written);
 * `not_covered` (the charge is larger than the hold still reserves: nothing written, the caller
 * settles through the ledger, which checks the key's balance)
 */
export type FinishOutcome = "ended" | "lease_lost" | "not_covered";

/** AcceptOutcome: accepted, or why nothing was written (the caller answers 429 or 402) */
export type AcceptOutcome =
  | { ok: true }
  /** pending_cap: the key already has `unfinished` tasks waiting or running */
  | { ok: false; refused: "pending_cap"; unfinished: number }
  /** credits: the balance could not cover the hold of item `item` (0-based); `remaining` was left for it */
  | { ok: false; refused: "credits"; item: number; remaining: number };

/** TaskStore: tasks and batches (SQLite: sqlite/tasks.ts; PostgreSQL: postgres/tasks.ts); who runs which task is decided by leases */
export interface TaskStore {
  /**
   * accept checks the key's cap on pending tasks and its balance and writes the batch, the holds and
   * the tasks, all or nothing. Exact under concurrency from several processes or machines: SQLite,
   * BEGIN IMMEDIATE; PostgreSQL, one statement (docintel_accept) that locks the key's row first. On
   * the backend it is a commit of its own (PostgreSQL: one round trip); on a `tx`, part of that commit.
   */
  accept(a: Acceptance): Promise<AcceptOutcome>;
  /** finish: see TaskFinish; all or nothing */
  finish(f: TaskFinish): Promise<FinishOutcome>;
  insertTask(t: NewTask): Promise<void>;
  get(id: string): Promise<TaskRow | null>;
  countByState(): Promise<Record<TaskState, number>>;
  /**
   * claimNext finds and leases the next task in one step; concurrent claimers never get the same
   * task. The row comes with `keyRevoked`, read in the same step (the runner must not start the task
   * of a revoked key; on PostgreSQL this saves a round trip per task).
   */
  claimNext(c: ClaimRequest): Promise<ClaimedTask | null>;
  renewLease(id: string, owner: string, leaseUntil: number): Promise<boolean>;
  complete(id: string, owner: string, result: string, credits: number, completedAt: string): Promise<boolean>;
  fail(id: string, owner: string, error: string, completedAt: string): Promise<boolean>;
  requeue(id: string, owner: string): Promise<boolean>;
  cancel(id: string, completedAt: string): Promise<boolean>;
  queuePosition(id: string): Promise<number>;
  getOwned(id: string, keyId: string): Promise<TaskRow | null>;
  setProgress(id: string, owner: string, done: number, total: number): Promise<boolean>;
  failUnclaimed(id: string, error: string, completedAt: string, nowMs: number): Promise<boolean>;
  unfinishedIds(): Promise<Set<string>>;
  unclaimedOfRevokedKeys(nowMs: number): Promise<TaskRow[]>;
  revokedKeys(keyIds: string[]): Promise<Set<string>>;
  planOf(keyId: string): Promise<Plan>;
  insertBatch(b: NewBatch): Promise<void>;
  getBatch(id: string): Promise<BatchRow | null>;
  getBatchOwned(id: string, keyId: string): Promise<BatchRow | null>;
  batchItems(batchId: string): Promise<TaskRow[]>;
  batchCounts(batchId: string): Promise<Record<TaskState, number> & { credits: number }>;
  markBatchStarted(id: string): Promise<void>;
  /** endBatch ends a batch once; false when it had already ended */
  endBatch(id: string, status: BatchState, credits: number, completedAt: string): Promise<boolean>;
  /** unfinishedOfKey: the key's tasks waiting or running (the per-key cap on pending work) */
  unfinishedOfKey(keyId: string): Promise<number>;
  /** removeEnded deletes an ended task's row (a feature deleted its record of it); false when it had not ended or is gone */
  removeEnded(id: string): Promise<boolean>;
  /**
   * removeEndedBefore (retention) deletes the tasks that ended before `at` (ISO time) outside batches,
   * the batches that ended before `at` with their items, and the delivered or dead webhook deliveries
   * of tasks and batches that no longer exist (pending or failed ones stay until their schedule ends).
   */
  removeEndedBefore(at: string): Promise<{ tasks: number; batches: number; deliveries: number }>;
}

/** NewDelivery: a webhook delivery as the transaction that ends a task writes it (the outbox) */
export interface NewDelivery {
  id: string;
  task_id: string;
  key_id: string;
  url: string;
  payload: string;
  next_attempt_at: number;
  created_at: string;
}

/** DeliveryStore: webhook deliveries, sent at least once with the same id by whichever machine claims them */
export interface DeliveryStore {
  insert(d: NewDelivery): Promise<void>;
  get(id: string): Promise<DeliveryRow | null>;
  ofTask(taskId: string): Promise<DeliveryRow[]>;
  /** claimDue takes up to `limit` due deliveries until `claimUntil` (unix ms); concurrent dispatchers never get the same row */
  claimDue(nowMs: number, limit: number, claimUntil: number): Promise<DeliveryRow[]>;
  nextDueAt(): Promise<number | null>;
  /** record writes the outcome of one request (attempts + 1) and the next schedule */
  record(r: Pick<DeliveryRow, "id" | "status" | "status_code" | "next_attempt_at" | "last_error" | "delivered_at">): Promise<void>;
}

/** CounterStore: rate-limit windows (SQLite: counters.sqlite; PostgreSQL: an UNLOGGED table) */
export interface CounterStore {
  reserveInWindow(keyId: string, windowStart: number, n: number): Promise<number>;
  deleteWindowsBefore(windowStart: number): Promise<number>;
}

/**
 * SettingStore: values every process and machine must agree on (signing keys). SQLite: files in the
 * data dir, as before; PostgreSQL: the settings table.
 */
export interface SettingStore {
  /** getOrCreate returns the setting; when there is none yet it stores `make()`, unless another process was first (then that one's value) */
  getOrCreate(name: string, make: () => string): Promise<string>;
}

/** BlobInfo: a stored blob's name and when it was written (unix ms) */
export interface BlobInfo {
  name: string;
  createdAt: number;
}

/**
 * BlobStore: bytes that another process or machine must read (large task inputs, thumbnail images).
 * Names are relative paths of safe segments ("inputs/<task>/0"). SQLite: files in the data dir;
 * PostgreSQL: the blobs table. Writes replace; a name is readable once `put` has resolved.
 */
export interface BlobStore {
  put(name: string, bytes: Uint8Array | Blob): Promise<void>;
  /** get: the bytes, or null when there is no such blob */
  get(name: string): Promise<Uint8Array | null>;
  /** size: the byte length, or null when there is no such blob */
  size(name: string): Promise<number | null>;
  /** info: the byte length and when the blob was written (unix ms), or null when there is no such blob */
  info(name: string): Promise<{ size: number; createdAt: number } | null>;
  /** remove deletes `name` and every blob under `name/`; the number removed */
  remove(name: string): Promise<number>;
  /** list: the blobs under `prefix/` (one level of "directories" is enough for the sweeps) */
  list(prefix: string): Promise<BlobInfo[]>;
}

/** ThumbnailJobRow: a thumbnail job as thumbnail_jobs keeps it (both backends) */
export interface ThumbnailJobRow {
  id: string;
  key_id: string;
  status: ThumbnailJobState;
  /** input: JSON of JobInput (options and where the input is) */
  input: string;
  image_path: string | null;
  width: number | null;
  height: number | null;
  handler: string | null;
  /** error: JSON {error, detail} of a failed job */
  error: string | null;
  webhook_url: string | null;
  credits_used: number;
  created_at: string;
  completed_at: string | null;
}

export type NewThumbnailJob = Pick<ThumbnailJobRow, "id" | "key_id" | "status" | "input" | "webhook_url" | "created_at">;
export type ThumbnailCompletion = Pick<ThumbnailJobRow, "id" | "image_path" | "width" | "height" | "handler" | "credits_used" | "completed_at">;

/** ThumbnailStore: thumbnail job records (SQLite: sqlite/thumbnails.ts; PostgreSQL: postgres/thumbnails.ts); the work itself is a task */
export interface ThumbnailStore {
  insert(row: NewThumbnailJob): Promise<void>;
  insertCompleted(row: Omit<ThumbnailJobRow, "status" | "error" | "webhook_url">): Promise<void>;
  /** byId: the job; a pending job whose task runs shows as processing */
  byId(id: string): Promise<ThumbnailJobRow | null>;
  complete(row: ThumbnailCompletion): Promise<number>;
  fail(id: string, error: string, handler: string | null, at: string): Promise<number>;
  remove(id: string): Promise<number>;
  /** failWithoutTask fails the unfinished jobs of a version whose jobs were not tasks (no task has their id) */
  failWithoutTask(error: string, at: string): Promise<number>;
  /** endedBefore lists jobs that ended before `at` (ISO time), for the retention sweep */
  endedBefore(at: string): Promise<Pick<ThumbnailJobRow, "id" | "image_path">[]>;
}

/** StoreTx: what a transaction can do; every call is part of the one commit */
export interface StoreTx {
  keys: KeyStore;
  credits: CreditStore;
  tasks: TaskStore;
  deliveries: DeliveryStore;
  thumbnails: ThumbnailStore;
}

export interface StoreBackend extends StoreTx {
  readonly kind: BackendKind;
  /** location: where the store is, for the key commands and `doctor` (a URL without its password) */
  readonly location: string;
  counters: CounterStore;
  settings: SettingStore;
  blobs: BlobStore;
  /**
   * transaction runs `fn` in one transaction: all its writes commit together or none does (fn
   * throws). Inside `fn` use `tx`, never the backend itself: on SQLite a backend operation waits for
   * the transaction to end (it would wait for ever), on PostgreSQL it runs on another connection,
   * outside the transaction, and may wait for its locks. `fn` may run more than once: PostgreSQL
   * runs a transaction again when it was aborted by a deadlock or a serialization failure
   * (postgres/retry.ts), so `fn` must have no effect outside `tx` that a rollback would leave behind.
   */
  transaction<T>(fn: (tx: StoreTx) => Promise<T>): Promise<T>;
  /** ping reads from the store; rejects when it cannot (health checks, `doctor`) */
  ping(): Promise<void>;
  appliedMigrations(): Promise<number[]>;
  /** changeStamp differs once a change of `topic`, by any process or machine, has been seen here; synchronous */
  changeStamp(topic: ChangeTopic): string;
  close(): Promise<void>;
}
