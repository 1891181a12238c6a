/**
 * ThumbnailJobs keeps every thumbnail as a job: a row in thumbnail_jobs and a JPEG under
 * data/thumbnails/, so the sync answer, the job status, the job image and the signed URL all read
 * the same record.
 *
 * Every thumbnail is drawn by the engine (src/tasks/engine.ts), operation "thumbnail", whose id is
 * the job id. A sync one runs now (TaskEngine.runNow) and its job is born completed (recordDrawn); an
 * async one (sync=false) is a task: the runner's lease and crash recovery across processes, its credit
 * held at acceptance, the per-key cap on pending work, the webhook outbox and the ending written in
 * one transaction. This class holds the thumbnail side of it: the task request (taskRequest), the work
 * (draw) and the job record (recordDrawn, or recordEnding in the task's ending transaction). Previews
 * are the operation "thumbnail.preview" (drawPreview), cached per URL and size (cachedPreview).
 *
 *   job: pending -> processing (its task runs) -> completed | failed     (DELETE removes it in any state)
 */
import { randomBytes, createHash } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import { readFile, rm, stat, writeFile, rename } from "node:fs/promises";
import { join } from "node:path";
import { AppError } from "../errors";
import type { Store } from "../store";
import type { Account } from "../credits/ledger";
import { costs } from "../credits/costs";
import type { Logger } from "../app/log";
import type { TaskOutcome } from "../tasks/kinds";
import type { TaskRequest } from "../tasks/engine";
import type { TaskRow } from "../tasks/queries";
import { TASK_RETENTION_MS } from "../tasks/runner";
import { thumbnailQueries, type ThumbnailJobRow } from "./queries";
import { thumbnailOf, type ThumbnailDeps, type ThumbnailSize, type ThumbnailSource } from "./service";
import { UrlSigner } from "./signing";

export type ResponseType = "url" | "base64";

/** THUMBNAIL_OPERATION: the operation that draws a thumbnail job, sync or async */
export const THUMBNAIL_OPERATION = "thumbnail";
/** PREVIEW_OPERATION: the operation that serves a preview (GET /api/v1/thumbnails/preview, signed preview links) */
export const PREVIEW_OPERATION = "thumbnail.preview";

/** JobInput is what a job row keeps of its request (the input itself is the task's). */
export interface JobInput {
  size: ThumbnailSize;
  responseType: ResponseType;
}

/** ThumbnailTaskInput is the input of a thumbnail task: JSON values and the uploaded File. */
export interface ThumbnailTaskInput {
  size: ThumbnailSize;
  file?: File;
  url?: string;
  urlHeaders?: Record<string, string>;
}

/** ThumbnailTaskResult is the stored result of a thumbnail task; the job record is written from it. */
export interface ThumbnailTaskResult {
  handler: string;
  width: number;
  height: number;
  image_path: string;
  /** filename and source_content_type: the input's, which a sync answer shows */
  filename: string;
  source_content_type: string;
}

/** PreviewInput is the input of a preview: the URL (already checked by the route) and the size. */
export interface PreviewInput {
  url: string;
  size: ThumbnailSize;
  /** nocache draws afresh even when a preview younger than PREVIEW_TTL_MS is cached */
  nocache: boolean;
}

/** Preview: the JPEG of a preview and whether it came from the cache */
export interface Preview {
  jpeg: Uint8Array;
  cached: boolean;
}

export interface ThumbnailJobsDeps {
  store: Store;
  /** dataDir: the service's data dir; thumbnails live in its thumbnails/ folder */
  dataDir: string;
  thumbnail: ThumbnailDeps;
  logger: Logger;
  /** urlSigningKey: the server-only key of signed thumbnail URLs (resolveUrlSigningKey) */
  urlSigningKey: string;
  /** forgetTask cancels a job's task if it has not ended and deletes it (TaskRunner.forget) */
  forgetTask: (taskId: string) => void;
}

/** RETENTION_MS: a job and its image are deleted this long after the job ended (the tasks' retention) */
export const RETENTION_MS = TASK_RETENTION_MS;
/** PREVIEW_TTL_MS: how long a cached preview is served before it is drawn again */
export const PREVIEW_TTL_MS = 60 * 60 * 1000;
const SWEEP_EVERY_MS = 60 * 60 * 1000;

const INTERRUPTED_BY_UPGRADE = JSON.stringify({ error: "internal_error", detail: "this job was accepted by an older version of the server and was not run; submit it again" });

export class ThumbnailJobs {
  readonly signer: UrlSigner;
  private readonly q: ReturnType<typeof thumbnailQueries>;
  private readonly imageDir: string;
  private readonly previewDir: string;
  private sweeper: ReturnType<typeof setInterval> | null = null;

  constructor(private readonly deps: ThumbnailJobsDeps) {
    this.q = thumbnailQueries(deps.store);
    this.signer = new UrlSigner(deps.urlSigningKey);
    const root = join(deps.dataDir, "thumbnails");
    this.imageDir = join(root, "images");
    this.previewDir = join(root, "previews");
    for (const dir of [this.imageDir, this.previewDir]) mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  /**
   * start starts the retention sweep; called once the server listens. Jobs an older version left
   * pending (before they were tasks) fail with a clear error, and their inputs go.
   */
  start(): void {
    const orphans = this.q.failWithoutTask(INTERRUPTED_BY_UPGRADE, new Date().toISOString());
    if (orphans) this.deps.logger.info("thumbnail jobs of an older version failed", { jobs: orphans });
    rmSync(join(this.deps.dataDir, "thumbnails", "inputs"), { recursive: true, force: true });
    this.sweeper = setInterval(() => void this.sweep().catch((error) => this.deps.logger.error("-", "thumbnail sweep failed", error)), SWEEP_EVERY_MS);
    this.sweeper.unref();
  }

  close(): void {
    if (this.sweeper) clearInterval(this.sweeper);
  }

  // -------------------------------------------------------------------------------------------
  // Sync, async and preview

  /** newJobId: the id of a new job, which is also its task's id (the engine's TaskIdentity) */
  newJobId(): string {
    return `thumb_${randomBytes(10).toString("hex")}`;
  }

  /**
   * recordDrawn keeps a sync thumbnail, which the engine drew under the job's id (draw), as a job
   * born completed (a sync thumbnail never waits), and returns its row.
   */
  recordDrawn(account: Account, id: string, job: JobInput, result: ThumbnailTaskResult, creditsUsed: number): ThumbnailJobRow {
    const now = new Date().toISOString();
    this.q.insertCompleted({ id, key_id: account.id, input: JSON.stringify(job), image_path: result.image_path, width: result.width, height: result.height, handler: result.handler, credits_used: creditsUsed, created_at: now, completed_at: now });
    return this.q.byId(id)!;
  }

  /**
   * taskRequest is an async job as a task request (acceptTask): the task carries the input and the
   * credit hold; the job row is written in the same acceptance transaction.
   */
  taskRequest(account: Account, source: ThumbnailSource, size: ThumbnailSize, responseType: ResponseType, webhookUrl: string | undefined): TaskRequest & { id: string } {
    if (source.file && source.file.size > this.deps.thumbnail.ingest.maxBytes) {
      throw new AppError("payload_too_large", `file: '${source.file.name}' is larger than the ${Math.round(this.deps.thumbnail.ingest.maxBytes / 1e6)} MB limit`);
    }
    const id = this.newJobId();
    const input: ThumbnailTaskInput = source.file ? { size, file: source.file } : { size, url: source.url!, urlHeaders: source.urlHeaders ?? {} };
    const job: JobInput = { size, responseType };
    return {
      id,
      operation: THUMBNAIL_OPERATION,
      input: { ...input },
      webhookUrl,
      alongside: () => this.q.insert({ id, key_id: account.id, status: "pending", input: JSON.stringify(job), webhook_url: webhookUrl ?? null, created_at: new Date().toISOString() }),
    };
  }

  /**
   * draw is the work of the operation "thumbnail": the JPEG goes to the job's image path; the job
   * record is written after (recordDrawn) or when the task ends (recordEnding).
   */
  async draw(jobId: string, input: ThumbnailTaskInput, signal: AbortSignal): Promise<TaskOutcome<ThumbnailTaskResult>> {
    const source: ThumbnailSource = input.file ? { file: input.file } : { url: input.url, urlHeaders: input.urlHeaders };
    const outcome = await thumbnailOf(source, input.size, this.deps.thumbnail, signal);
    const path = this.imagePath(jobId);
    await writeAtomically(path, outcome.jpeg);
    return {
      result: { handler: outcome.handler, width: outcome.width, height: outcome.height, image_path: path, filename: outcome.filename, source_content_type: outcome.sourceType },
      credits: costs.thumbnail(),
    };
  }

  /**
   * recordEnding writes a thumbnail task's ending into its job row (inside the task's ending
   * transaction) and returns the job's webhook body: the job record as GET
   * /api/v1/thumbnails/jobs/{job_id} shows it, without the signed image URL (made fresh at each poll).
   */
  recordEnding(task: TaskRow): unknown {
    const at = task.completed_at ?? new Date().toISOString();
    if (task.status === "completed") {
      const result = JSON.parse(task.result!) as ThumbnailTaskResult;
      this.q.complete({ id: task.id, image_path: result.image_path, width: result.width, height: result.height, handler: result.handler, credits_used: task.credits_used, completed_at: at });
    } else if (task.status === "failed") {
      this.q.fail(task.id, task.error ?? JSON.stringify({ error: "internal_error", detail: "the thumbnail failed" }), null, at);
    }
    const row = this.q.byId(task.id);
    if (!row) return undefined;
    return {
      job_id: row.id,
      status: row.status,
      created_at: row.created_at,
      completed_at: row.completed_at,
      credits_used: row.credits_used,
      ...(row.status === "completed" ? { handler: row.handler, width: row.width, height: row.height, content_type: "image/jpeg", image_url: `/api/v1/thumbnails/jobs/${row.id}/image` } : {}),
      ...(row.error ? { error: JSON.parse(row.error) } : {}),
    };
  }

  /**
   * cachedPreview reads the cached preview of a URL and size while it is younger than PREVIEW_TTL_MS;
   * null when there is none. The cache is shared by every key: previews never carry url_headers.
   */
  cachedPreview(url: string, size: ThumbnailSize): Promise<Uint8Array | null> {
    return freshFile(this.previewPath(url, size), PREVIEW_TTL_MS);
  }

  /** drawPreview is the work of the operation "thumbnail.preview": the cached JPEG (unless nocache), else drawn and cached; priced as a thumbnail either way. */
  async drawPreview(input: PreviewInput, signal: AbortSignal): Promise<TaskOutcome<Preview>> {
    const cached = input.nocache ? null : await this.cachedPreview(input.url, input.size);
    if (cached) return { result: { jpeg: cached, cached: true }, credits: costs.thumbnail() };
    const drawn = await thumbnailOf({ url: input.url }, input.size, this.deps.thumbnail, signal);
    await writeAtomically(this.previewPath(input.url, input.size), drawn.jpeg);
    return { result: { jpeg: drawn.jpeg, cached: false }, credits: costs.thumbnail() };
  }

  // -------------------------------------------------------------------------------------------
  // Reading and deleting

  /** job returns the caller's job; 404 when it does not exist or belongs to another key. */
  job(keyId: string, id: string): ThumbnailJobRow {
    const row = this.q.byId(id);
    if (!row || row.key_id !== keyId) throw new AppError("not_found", `job_id: no thumbnail job '${id}' for this API key (it may have been deleted, or expired after ${RETENTION_MS / 86_400_000} days)`);
    return row;
  }

  /** image reads a completed job's JPEG; 409 while the job is pending or processing, or when it failed. */
  async image(row: ThumbnailJobRow): Promise<Uint8Array> {
    if (row.status !== "completed" || !row.image_path) {
      const why = row.status === "failed" ? "failed; see GET /api/v1/thumbnails/jobs/{job_id} for the error" : `is ${row.status}; poll GET /api/v1/thumbnails/jobs/{job_id} until it is completed`;
      throw new AppError("job_not_completed", `job '${row.id}' ${why}`);
    }
    try {
      return new Uint8Array(await readFile(row.image_path));
    } catch (cause) {
      throw new AppError("not_found", `the image of job '${row.id}' is gone (deleted while it was read)`, { cause });
    }
  }

  /** imageBySignedUrl serves a signed URL: verify, then the job's image whatever key made it. */
  async imageBySignedUrl(id: string, expires: number, signature: string): Promise<Uint8Array> {
    this.signer.verify(id, expires, signature);
    const row = this.q.byId(id);
    if (!row) throw new AppError("not_found", `thumbnail '${id}' was deleted`);
    return this.image(row);
  }

  /** remove deletes a job, its task (cancelled first when it has not ended, its hold released) and its image. */
  async remove(row: ThumbnailJobRow): Promise<void> {
    this.deps.forgetTask(row.id);
    this.q.remove(row.id);
    await rm(this.imagePath(row.id), { force: true });
  }

  // -------------------------------------------------------------------------------------------

  /** sweep deletes jobs (with their tasks) that ended more than RETENTION_MS ago, and stale previews. */
  private async sweep(): Promise<void> {
    for (const row of this.q.endedBefore(new Date(Date.now() - RETENTION_MS).toISOString())) await this.remove(row as ThumbnailJobRow);
    for (const name of await Array.fromAsync(new Bun.Glob("*.jpg").scan(this.previewDir))) {
      const path = join(this.previewDir, name);
      if (!(await freshFile(path, PREVIEW_TTL_MS))) await rm(path, { force: true });
    }
  }

  private imagePath(id: string): string {
    return join(this.imageDir, `${id}.jpg`);
  }

  private previewPath(url: string, size: ThumbnailSize): string {
    return join(this.previewDir, `${createHash("sha256").update(JSON.stringify([url, size.width, size.height, size.quality])).digest("hex")}.jpg`);
  }
}

/** freshFile reads a file younger than `ttlMs`; null when it is missing or older. */
async function freshFile(path: string, ttlMs: number): Promise<Uint8Array | null> {
  try {
    const info = await stat(path);
    if (Date.now() - info.mtimeMs > ttlMs) return null;
    return new Uint8Array(await readFile(path));
  } catch {
    return null;
  }
}

/** writeAtomically writes to a temp name and renames, so a reader never sees half a JPEG. */
async function writeAtomically(path: string, bytes: Uint8Array): Promise<void> {
  const temp = `${path}.${randomBytes(4).toString("hex")}.tmp`;
  await writeFile(temp, bytes, { mode: 0o600 });
  await rename(temp, path);
}
