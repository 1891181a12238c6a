/**
 * ThumbnailJobs keeps every thumbnail as a job: a row in thumbnail_jobs and a JPEG under
 * data/thumbnails/, so the sync answer, the job status, the job image and the signed URL all read
 * the same record. Async jobs (sync=false) keep their input under data/thumbnails/inputs/ until they
 * end, run in the background at most JOBS_AT_ONCE at a time, and are picked up again after a restart.
 *
 *   job: pending -> processing -> completed | failed          (DELETE removes it in any state)
 *   restart: processing -> pending (the process that ran it is gone), then every pending job runs
 *
 * Webhooks: when an async job ends, `jobEnded` is the one place that notifies (see there).
 */
import { randomBytes, createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import { readFile, rm, stat, writeFile, rename } from "node:fs/promises";
import { join } from "node:path";
import { AppError } from "../errors";
import type { Store } from "../store";
import type { Account, Ledger } from "../credits/ledger";
import { metered } from "../credits/meter";
import { costs, MINIMUM_COST } from "../credits/costs";
import { getApiKey } from "../security/apiKeys";
import type { Logger } from "../app/log";
import type { WebhookDispatcher } from "../webhooks/dispatcher";
import type { Services } from "../app/services";
import { thumbnailQueries, type ThumbnailJobRow } from "./queries";
import { thumbnailDepsOf, thumbnailOf, type ThumbnailDeps, type ThumbnailOutcome, type ThumbnailSize, type ThumbnailSource } from "./service";
import { UrlSigner, resolveUrlSigningKey } from "./signing";

export type ResponseType = "url" | "base64";

/** JobInput is what a job row keeps of its request: the options and where the input is. */
export interface JobInput {
  size: ThumbnailSize;
  responseType: ResponseType;
  source: { kind: "file"; filename: string } | { kind: "url"; url: string; headers: Record<string, string> } | { kind: "done" };
}

export interface ThumbnailJobsDeps {
  store: Store;
  ledger: Ledger;
  /** dataDir: the service's data dir; thumbnails live in its thumbnails/ folder */
  dataDir: string;
  thumbnail: ThumbnailDeps;
  logger: Logger;
  /** urlSigningKey: the server-only key of signed thumbnail URLs (resolveUrlSigningKey) */
  urlSigningKey: string;
  /** webhooks: the signed delivery outbox shared with tasks (src/webhooks) */
  webhooks: Pick<WebhookDispatcher, "enqueue" | "wake">;
}

/** JOBS_AT_ONCE: async thumbnail jobs running at the same time (each may hold a browser page or soffice) */
const JOBS_AT_ONCE = 2;
/** RETENTION_MS: a job and its image are deleted this long after the job ended */
export const RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
/** PREVIEW_TTL_MS: how long a cached preview is served before it is drawn again */
export const PREVIEW_TTL_MS = 60 * 60 * 1000;
const SWEEP_EVERY_MS = 60 * 60 * 1000;

export class ThumbnailJobs {
  readonly signer: UrlSigner;
  private readonly q: ReturnType<typeof thumbnailQueries>;
  private readonly imageDir: string;
  private readonly inputDir: string;
  private readonly previewDir: string;
  private readonly queue: string[] = [];
  private running = 0;
  private closed = false;
  private readonly stop = new AbortController();
  private sweeper: ReturnType<typeof setInterval> | null = null;

  constructor(private readonly deps: ThumbnailJobsDeps) {
    this.q = thumbnailQueries(deps.store);
    this.signer = new UrlSigner(deps.urlSigningKey);
    const root = join(deps.dataDir, "thumbnails");
    this.imageDir = join(root, "images");
    this.inputDir = join(root, "inputs");
    this.previewDir = join(root, "previews");
    for (const dir of [this.imageDir, this.inputDir, this.previewDir]) mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  /** resume requeues jobs a stopped process left behind and starts the retention sweep; called once the server listens. */
  resume(): void {
    const interrupted = this.q.requeueInterrupted();
    const pending = this.q.pendingIds();
    if (pending.length) this.deps.logger.info("thumbnail jobs resumed", { pending: pending.length, interrupted });
    for (const id of pending) this.enqueue(id);
    this.sweeper = setInterval(() => void this.sweep().catch((error) => this.deps.logger.error("-", "thumbnail sweep failed", error)), SWEEP_EVERY_MS);
    this.sweeper.unref();
  }

  /** close stops taking jobs; jobs in flight are abandoned as processing and resumed at the next start. */
  close(): void {
    this.closed = true;
    this.stop.abort(new AppError("shutting_down", "the server is shutting down; the job resumes at the next start"));
    if (this.sweeper) clearInterval(this.sweeper);
  }

  // -------------------------------------------------------------------------------------------
  // Sync, async and preview

  /** generate draws a thumbnail now, under the ledger, and keeps it as a completed job. */
  async generate(account: Account, source: ThumbnailSource, size: ThumbnailSize, responseType: ResponseType, requestId: string, signal: AbortSignal) {
    const id = newJobId();
    const { result, creditsUsed } = await metered(this.deps.ledger, account, "thumbnail", MINIMUM_COST.thumbnail, requestId, async () => ({
      result: await thumbnailOf(source, size, this.deps.thumbnail, signal),
      credits: costs.thumbnail(),
    }));
    const now = new Date().toISOString();
    const input: JobInput = { size, responseType, source: { kind: "done" } };
    this.q.insert({ id, key_id: account.id, status: "processing", input: JSON.stringify(input), webhook_url: null, created_at: now });
    await this.saveImage(id, result, creditsUsed);
    return { job: this.q.byId(id)!, outcome: result };
  }

  /**
   * accept stores an async job and its input and queues it. Credits are checked now (402 at once
   * when the balance is empty) and charged when the job runs, so a failed job costs nothing.
   */
  async accept(account: Account, source: ThumbnailSource, size: ThumbnailSize, responseType: ResponseType, webhookUrl: string | undefined): Promise<ThumbnailJobRow> {
    const balance = this.deps.ledger.balance(account);
    if (balance.remaining !== null && balance.remaining < MINIMUM_COST.thumbnail) {
      throw new AppError("insufficient_credits", `a thumbnail costs ${MINIMUM_COST.thumbnail} credit and ${balance.remaining} remain this month`);
    }
    const id = newJobId();
    let stored: JobInput["source"];
    if (source.file) {
      if (source.file.size > this.deps.thumbnail.ingest.maxBytes) {
        throw new AppError("payload_too_large", `file: '${source.file.name}' is larger than the ${Math.round(this.deps.thumbnail.ingest.maxBytes / 1e6)} MB limit`);
      }
      await writeFile(this.inputPath(id), new Uint8Array(await source.file.arrayBuffer()), { mode: 0o600 });
      stored = { kind: "file", filename: source.file.name };
    } else {
      stored = { kind: "url", url: source.url!, headers: source.urlHeaders ?? {} };
    }
    const input: JobInput = { size, responseType, source: stored };
    this.q.insert({ id, key_id: account.id, status: "pending", input: JSON.stringify(input), webhook_url: webhookUrl ?? null, created_at: new Date().toISOString() });
    this.enqueue(id);
    return this.q.byId(id)!;
  }

  /**
   * preview draws (or reads from the cache) the JPEG of a URL for an <img> tag; 1 credit either way.
   * The cache is keyed by URL and size and shared by every key: previews never carry url_headers.
   */
  async preview(
    account: Account,
    url: string,
    size: ThumbnailSize,
    nocache: boolean,
    requestId: string,
    signal: AbortSignal,
    options: { cacheHitsFree?: boolean } = {},
  ): Promise<{ jpeg: Uint8Array; cached: boolean; creditsUsed: number }> {
    const path = join(this.previewDir, `${createHash("sha256").update(JSON.stringify([url, size.width, size.height, size.quality])).digest("hex")}.jpg`);
    // signed preview links (previewLinks.ts): a cached preview costs nothing, only renders are billed
    const free = options.cacheHitsFree && !nocache ? await freshFile(path, PREVIEW_TTL_MS) : null;
    if (free) return { jpeg: free, cached: true, creditsUsed: 0 };
    const { result, creditsUsed } = await metered(this.deps.ledger, account, "thumbnail", MINIMUM_COST.thumbnail, requestId, async () => {
      const cached = nocache ? null : await freshFile(path, PREVIEW_TTL_MS);
      if (cached) return { result: { jpeg: cached, cached: true }, credits: costs.thumbnail() };
      const drawn = await thumbnailOf({ url }, size, this.deps.thumbnail, signal);
      await writeAtomically(path, drawn.jpeg);
      return { result: { jpeg: drawn.jpeg, cached: false }, credits: costs.thumbnail() };
    });
    return { ...result, creditsUsed };
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

  /** remove deletes a job, its image and its stored input. */
  async remove(row: ThumbnailJobRow): Promise<void> {
    this.q.remove(row.id);
    await this.removeFiles(row.id);
  }

  // -------------------------------------------------------------------------------------------
  // Background runner

  private enqueue(id: string): void {
    this.queue.push(id);
    this.drain();
  }

  private drain(): void {
    while (!this.closed && this.running < JOBS_AT_ONCE && this.queue.length > 0) {
      const id = this.queue.shift()!;
      this.running++;
      void this.run(id).finally(() => {
        this.running--;
        this.drain();
      });
    }
  }

  /** run processes one queued job: claim it, draw under the ledger, record the end, notify. */
  private async run(id: string): Promise<void> {
    if (this.q.claim(id) === 0) return; // deleted, or taken by another runner
    const row = this.q.byId(id)!;
    try {
      const input = JSON.parse(row.input) as JobInput;
      const source = await this.sourceOf(id, input);
      const account = accountOf(this.deps.store, row.key_id);
      const { result, creditsUsed } = await metered(this.deps.ledger, account, "thumbnail", MINIMUM_COST.thumbnail, id, async () => ({
        result: await thumbnailOf(source, input.size, this.deps.thumbnail, this.stop.signal),
        credits: costs.thumbnail(),
      }));
      await this.saveImage(id, result, creditsUsed);
    } catch (error) {
      if (this.closed) return; // left as processing: resumed at the next start
      const body = error instanceof AppError ? { error: error.code, detail: error.detail } : { error: "internal_error", detail: "the thumbnail failed unexpectedly; the server log has the cause" };
      if (!(error instanceof AppError)) this.deps.logger.error(id, "thumbnail job failed", error);
      this.q.fail(id, JSON.stringify(body), null, new Date().toISOString());
    }
    if (this.closed) return;
    await this.forgetInput(id);
    const ended = this.q.byId(id);
    if (ended) this.jobEnded(ended);
  }

  /**
   * jobEnded is the single call site for "an async thumbnail job ended -> notify its webhook_url": a
   * signed delivery of the job record (as GET /api/v1/thumbnails/jobs/{job_id} shows it, without the
   * signed image URL, which is made fresh at each poll) goes into the webhook outbox,
   * with the same signature, delivery id and retry schedule as task webhooks.
   */
  private jobEnded(row: ThumbnailJobRow): void {
    if (!row.webhook_url) return;
    const record = {
      job_id: row.id,
      status: row.status,
      created_at: row.created_at,
      completed_at: row.completed_at,
      credits_used: row.credits_used,
      ...(row.status === "completed" ? { handler: row.handler, width: row.width, height: row.height, content_type: "image/jpeg", image_url: `/api/v1/thumbnails/jobs/${row.id}/image` } : {}),
      ...(row.error ? { error: JSON.parse(row.error) } : {}),
    };
    this.deps.webhooks.enqueue(row.id, row.key_id, row.webhook_url, record);
    this.deps.webhooks.wake();
  }

  /** forgetInput removes an ended job's stored file and its url_headers (they may hold credentials). */
  private async forgetInput(id: string): Promise<void> {
    await rm(this.inputPath(id), { force: true });
    const row = this.q.byId(id);
    if (!row) return;
    const input = JSON.parse(row.input) as JobInput;
    this.q.setInput(id, JSON.stringify({ ...input, source: { kind: "done" } }));
  }

  private async sourceOf(id: string, input: JobInput): Promise<ThumbnailSource> {
    if (input.source.kind === "url") return { url: input.source.url, urlHeaders: input.source.headers };
    if (input.source.kind === "file") {
      const bytes = await readFile(this.inputPath(id)).catch((cause) => {
        throw new AppError("internal_error", "the stored input of this job is missing", { cause });
      });
      return { file: new File([bytes], input.source.filename) };
    }
    throw new AppError("internal_error", "this job has no stored input");
  }

  /** saveImage writes the JPEG and marks the job completed; a job deleted meanwhile leaves no file behind. */
  private async saveImage(id: string, outcome: ThumbnailOutcome, creditsUsed: number): Promise<void> {
    const path = join(this.imageDir, `${id}.jpg`);
    await writeAtomically(path, outcome.jpeg);
    const changed = this.q.complete({ id, image_path: path, width: outcome.width, height: outcome.height, handler: outcome.handler, credits_used: creditsUsed, completed_at: new Date().toISOString() });
    if (changed === 0) await rm(path, { force: true });
  }

  /** sweep deletes jobs that ended more than RETENTION_MS ago, and stale previews. */
  private async sweep(): Promise<void> {
    for (const row of this.q.endedBefore(new Date(Date.now() - RETENTION_MS).toISOString())) {
      this.q.remove(row.id);
      await this.removeFiles(row.id);
    }
    for (const name of await Array.fromAsync(new Bun.Glob("*.jpg").scan(this.previewDir))) {
      const path = join(this.previewDir, name);
      if (!(await freshFile(path, PREVIEW_TTL_MS))) await rm(path, { force: true });
    }
  }

  private async removeFiles(id: string): Promise<void> {
    await Promise.all([rm(join(this.imageDir, `${id}.jpg`), { force: true }), rm(this.inputPath(id), { force: true })]);
  }

  private inputPath(id: string): string {
    return join(this.inputDir, id);
  }
}

function newJobId(): string {
  return `thumb_${randomBytes(10).toString("hex")}`;
}

/** accountOf finds the key a background job is charged to. */
function accountOf(store: Store, keyId: string): Account {
  const key = getApiKey(store, keyId);
  if (!key || key.revokedAt) throw new AppError("key_revoked", "the API key that created this job was revoked before the job ran; it was not run and nothing was charged");
  return { id: key.id, plan: key.plan };
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

// ---------------------------------------------------------------------------------------------
// One ThumbnailJobs per Services

const JOBS_OF = new WeakMap<object, ThumbnailJobs>();

/**
 * thumbnailJobsOf returns the ThumbnailJobs of a Services object, made on first use from its
 * store, ledger, data dir and tools. startServer resumes it at boot and closes it at shutdown.
 */
export function thumbnailJobsOf(services: Services): ThumbnailJobs {
  let jobs = JOBS_OF.get(services);
  if (!jobs) {
    jobs = new ThumbnailJobs({
      store: services.store,
      ledger: services.ledger,
      dataDir: services.config.dataDir,
      thumbnail: thumbnailDepsOf(services.config, services.markdown),
      logger: services.logger,
      urlSigningKey: resolveUrlSigningKey(services.config.dataDir),
      webhooks: services.webhooks,
    });
    JOBS_OF.set(services, jobs);
  }
  return jobs;
}
