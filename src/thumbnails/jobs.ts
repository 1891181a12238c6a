/**
 * ThumbnailJobs keeps every thumbnail as a job: a row in thumbnail_jobs (backend.thumbnails) and a
 * JPEG, the blob thumbnails/images/<job>.jpg (backend.blobs: on SQLite the file of that name in the
 * data dir, as before; on PostgreSQL a row every machine reads), so the sync answer, the job status, the job image and the signed URL all read
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
import type { UploadedFile } from "../ingest/upload";
import { mkdirSync, rmSync } from "node:fs";
import { basename, join } from "node:path";
import { AppError } from "../errors";
import type { StoreBackend, StoreTx, TaskRow, ThumbnailJobRow } from "../store/backend";
import type { Account } from "../credits/ledger";
import { costs } from "../credits/costs";
import type { Logger } from "../runtime/log";
import type { TaskOutcome } from "../tasks/kinds";
import type { TaskRequest } from "../tasks/engine";
import { TASK_RETENTION_MS } from "../tasks/runner";
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
  file?: UploadedFile;
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
  backend: StoreBackend;
  /** dataDir: the service's data dir (what an older version left in it is cleaned up at start) */
  dataDir: string;
  thumbnail: ThumbnailDeps;
  logger: Logger;
  /** urlSigningKey: the server-only key of signed thumbnail URLs (resolveUrlSigningKey) */
  urlSigningKey: string;
  /** forgetTask cancels a job's task if it has not ended and deletes it (TaskRunner.forget) */
  forgetTask: (taskId: string) => Promise<void>;
}

/** RETENTION_MS: a job and its image are deleted this long after the job ended (the tasks' retention) */
export const RETENTION_MS = TASK_RETENTION_MS;
/** PREVIEW_TTL_MS: how long a cached preview is served before it is drawn again */
export const PREVIEW_TTL_MS = 60 * 60 * 1000;
const SWEEP_EVERY_MS = 60 * 60 * 1000;
/** IMAGES, PREVIEWS: the blob folders of job images and cached previews */
const IMAGES = "thumbnails/images";
const PREVIEWS = "thumbnails/previews";

const INTERRUPTED_BY_UPGRADE = JSON.stringify({ error: "internal_error", detail: "this job was accepted by an older version of the server and was not run; submit it again" });

export class ThumbnailJobs {
  readonly signer: UrlSigner;
  private sweeper: ReturnType<typeof setInterval> | null = null;

  constructor(private readonly deps: ThumbnailJobsDeps) {
    this.signer = new UrlSigner(deps.urlSigningKey);
    // the SQLite backend's blob folders exist from the start, as before (the data dir's modes are checked at start)
    if (deps.backend.kind === "sqlite") for (const dir of [IMAGES, PREVIEWS]) mkdirSync(join(deps.dataDir, dir), { recursive: true, mode: 0o700 });
  }

  private get q() {
    return this.deps.backend.thumbnails;
  }

  /**
   * start starts the retention sweep; called once the server listens. Jobs an older version left
   * pending (before they were tasks) fail with a clear error, and their inputs go.
   */
  start(): void {
    void this.q
      .failWithoutTask(INTERRUPTED_BY_UPGRADE, new Date().toISOString())
      .then((orphans) => orphans && this.deps.logger.info("thumbnail jobs of an older version failed", { jobs: orphans }))
      .catch((error) => this.deps.logger.error("-", "thumbnail jobs of an older version could not be failed", error));
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
  async recordDrawn(account: Account, id: string, job: JobInput, result: ThumbnailTaskResult, creditsUsed: number): Promise<ThumbnailJobRow> {
    const now = new Date().toISOString();
    await this.q.insertCompleted({ id, key_id: account.id, input: JSON.stringify(job), image_path: result.image_path, width: result.width, height: result.height, handler: result.handler, credits_used: creditsUsed, created_at: now, completed_at: now });
    return (await this.q.byId(id))!;
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
      alongside: (tx) => tx.thumbnails.insert({ id, key_id: account.id, status: "pending", input: JSON.stringify(job), webhook_url: webhookUrl ?? null, created_at: new Date().toISOString() }),
    };
  }

  /**
   * draw is the work of the operation "thumbnail": the JPEG goes to the job's image blob (whose name
   * is the job's image_path); the job record is written after (recordDrawn) or when the task ends
   * (recordEnding).
   */
  async draw(jobId: string, input: ThumbnailTaskInput, signal: AbortSignal): Promise<TaskOutcome<ThumbnailTaskResult>> {
    const source: ThumbnailSource = input.file ? { file: input.file } : { url: input.url, urlHeaders: input.urlHeaders };
    const outcome = await thumbnailOf(source, input.size, this.deps.thumbnail, signal);
    const path = imageBlobOf(jobId);
    await this.deps.backend.blobs.put(path, outcome.jpeg);
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
  async recordEnding(task: TaskRow, tx: StoreTx): Promise<unknown> {
    const at = task.completed_at ?? new Date().toISOString();
    if (task.status === "completed") {
      const result = JSON.parse(task.result!) as ThumbnailTaskResult;
      await tx.thumbnails.complete({ id: task.id, image_path: result.image_path, width: result.width, height: result.height, handler: result.handler, credits_used: task.credits_used, completed_at: at });
    } else if (task.status === "failed") {
      await tx.thumbnails.fail(task.id, task.error ?? JSON.stringify({ error: "internal_error", detail: "the thumbnail failed" }), null, at);
    }
    const row = await tx.thumbnails.byId(task.id);
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
  async cachedPreview(url: string, size: ThumbnailSize): Promise<Uint8Array | null> {
    const name = previewBlobOf(url, size);
    const info = await this.deps.backend.blobs.info(name);
    if (!info || Date.now() - info.createdAt > PREVIEW_TTL_MS) return null;
    return this.deps.backend.blobs.get(name);
  }

  /** drawPreview is the work of the operation "thumbnail.preview": the cached JPEG (unless nocache), else drawn and cached; priced as a thumbnail either way. */
  async drawPreview(input: PreviewInput, signal: AbortSignal): Promise<TaskOutcome<Preview>> {
    const cached = input.nocache ? null : await this.cachedPreview(input.url, input.size);
    if (cached) return { result: { jpeg: cached, cached: true }, credits: costs.thumbnail() };
    const drawn = await thumbnailOf({ url: input.url }, input.size, this.deps.thumbnail, signal);
    await this.deps.backend.blobs.put(previewBlobOf(input.url, input.size), drawn.jpeg);
    return { result: { jpeg: drawn.jpeg, cached: false }, credits: costs.thumbnail() };
  }

  // -------------------------------------------------------------------------------------------
  // Reading and deleting

  /** job returns the caller's job; 404 when it does not exist or belongs to another key. */
  async job(keyId: string, id: string): Promise<ThumbnailJobRow> {
    const row = await this.q.byId(id);
    if (!row || row.key_id !== keyId) throw new AppError("not_found", `job_id: no thumbnail job '${id}' for this API key (it may have been deleted, or expired after ${RETENTION_MS / 86_400_000} days)`);
    return row;
  }

  /** image reads a completed job's JPEG; 409 while the job is pending or processing, or when it failed. */
  async image(row: ThumbnailJobRow): Promise<Uint8Array> {
    if (row.status !== "completed" || !row.image_path) {
      const why = row.status === "failed" ? "failed; see GET /api/v1/thumbnails/jobs/{job_id} for the error" : `is ${row.status}; poll GET /api/v1/thumbnails/jobs/{job_id} until it is completed`;
      throw new AppError("job_not_completed", `job '${row.id}' ${why}`);
    }
    const jpeg = await this.deps.backend.blobs.get(imageBlobOfPath(row.image_path));
    if (!jpeg) throw new AppError("not_found", `the image of job '${row.id}' is gone (deleted while it was read)`);
    return jpeg;
  }

  /** imageBySignedUrl serves a signed URL: verify, then the job's image whatever key made it. */
  async imageBySignedUrl(id: string, expires: number, signature: string): Promise<Uint8Array> {
    this.signer.verify(id, expires, signature);
    const row = await this.q.byId(id);
    if (!row) throw new AppError("not_found", `thumbnail '${id}' was deleted`);
    return this.image(row);
  }

  /** remove deletes a job, its task (cancelled first when it has not ended, its hold released) and its image. */
  async remove(row: Pick<ThumbnailJobRow, "id" | "image_path">): Promise<void> {
    await this.deps.forgetTask(row.id);
    await this.q.remove(row.id);
    await this.deps.backend.blobs.remove(row.image_path ? imageBlobOfPath(row.image_path) : imageBlobOf(row.id));
  }

  // -------------------------------------------------------------------------------------------

  /** sweep deletes jobs (with their tasks) that ended more than RETENTION_MS ago, and stale previews. */
  private async sweep(): Promise<void> {
    for (const row of await this.q.endedBefore(new Date(Date.now() - RETENTION_MS).toISOString())) await this.remove(row);
    for (const blob of await this.deps.backend.blobs.list(PREVIEWS)) {
      if (Date.now() - blob.createdAt > PREVIEW_TTL_MS) await this.deps.backend.blobs.remove(blob.name);
    }
  }
}

/** imageBlobOf: the blob of a job's image, also kept as the job's image_path */
function imageBlobOf(id: string): string {
  return `${IMAGES}/${id}.jpg`;
}

/**
 * imageBlobOfPath: the blob an image_path names. Jobs of versions before the blob store kept the
 * absolute path <data>/thumbnails/images/<job>.jpg, which is the same file as that blob on SQLite.
 */
function imageBlobOfPath(imagePath: string): string {
  return imagePath.startsWith("/") ? `${IMAGES}/${basename(imagePath)}` : imagePath;
}

function previewBlobOf(url: string, size: ThumbnailSize): string {
  return `${PREVIEWS}/${createHash("sha256").update(JSON.stringify([url, size.width, size.height, size.quality])).digest("hex")}.jpg`;
}
