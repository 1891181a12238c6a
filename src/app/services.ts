/**
 * The composition root: createServices builds every dependency once at start from the Config, each
 * from the ones before it, with no placeholder. Routes declare the part they use (`Route<Deps>`),
 * operations theirs (`OperationDeps`); Services has them all and nothing below app/ imports it.
 * Tests and the CLI build the same object, so sync routes, tasks and the CLI share one code path.
 */
import type { Config } from "../config";
import type { StoreBackend } from "../store/backend";
import { openDatabase } from "../store/database";
import { Ledger } from "../credits/ledger";
import { RateLimiter } from "../credits/rateLimit";
import { WorkerPool } from "../pool";
import { Metrics } from "./metrics";
import { createLogger, type Logger } from "../runtime/log";
import { resolveWebhookSecret } from "../webhooks/secret";
import { KeyResolver } from "../security/apiKeys";
import { closeConvertTools, createConvertTools, providerClientOf } from "../convert/tools";
import { markdownDepsOf, type MarkdownDeps } from "../markdown/service";
import type { ExtractDeps } from "../extract/service";
import { TaskEngine } from "../tasks/engine";
import { OPERATIONS, type OperationDeps } from "../operations";
import { WebhookDispatcher } from "../webhooks/dispatcher";
import { PythonSandbox } from "../ai/sandbox";
import { ThumbnailJobs } from "../thumbnails/jobs";
import { thumbnailDepsOf } from "../thumbnails/service";
import { resolveUrlSigningKey } from "../thumbnails/signing";
import { screenshotDepsOf } from "../screenshots/service";

export interface Services {
  config: Config;
  /** backend: the store (--database: SQLite in the data dir, or PostgreSQL shared by several machines) */
  backend: StoreBackend;
  keys: KeyResolver;
  ledger: Ledger;
  rateLimiter: RateLimiter;
  pool: WorkerPool;
  /** markdown: the converters' tools (Chromium, LibreOffice, tesseract, ffmpeg, speech-to-text) and limits */
  markdown: MarkdownDeps;
  /** provider: the AI provider (Groq) and its model names; undefined without GROQ_API_KEY */
  provider: ExtractDeps["provider"];
  /** sandbox: the Python interpreters of the agent's compute tool, one per agent run (spares started on first use) */
  sandbox: PythonSandbox;
  metrics: Metrics;
  logger: Logger;
  /** webhookSecret: the shared signing secret of keys made before per-key secrets (src/webhooks/secret.ts) */
  webhookSecret: string;
  /** tasks: the engine that bills and runs the operations table, sync or as tasks (started by startServer) */
  tasks: TaskEngine;
  /** webhooks: signed deliveries and their retry schedule (started by startServer) */
  webhooks: WebhookDispatcher;
  /** thumbnails: thumbnail jobs and their images (async jobs run as tasks) */
  thumbnails: ThumbnailJobs;
  startedAt: Date;
  /** true once shutdown has begun: new work is refused with 503 */
  draining: boolean;
}

export async function createServices(config: Config, overrides: Partial<Pick<Services, "logger">> = {}): Promise<Services> {
  const logger = overrides.logger ?? createLogger(config.logLevel);
  const backend: StoreBackend = await openDatabase(config.database, {
    service: true,
    onRetry: (what, error) => logger.info(`a PostgreSQL transaction met a ${what} and is run again`, { cause: (error as Error).message }),
  });
  const pool = new WorkerPool({ threads: config.workers, maxQueue: config.queueSize });
  const groq = providerClientOf(config);
  const keys = new KeyResolver(backend, (error) => logger.error("-", "could not record a key's last use", error));
  const ledger = new Ledger(backend);
  const rateLimiter = new RateLimiter(backend.counters);
  const markdown = markdownDepsOf(config, createConvertTools(config, pool, groq, (message, detail) => logger.info(message, { detail })));
  const provider = groq ? { client: groq, models: config.groq.models } : undefined;
  const sandbox = new PythonSandbox({ ...config.compute, maxOutputChars: 8000 });
  const metrics = new Metrics();
  const webhookSecret = (await resolveWebhookSecret(backend.settings, config.webhookSecret)).secret;
  const startedAt = new Date();
  const webhooks = new WebhookDispatcher({ backend, sharedSecret: webhookSecret, allowPrivate: config.allowPrivateUrls, logger, retryScale: config.webhooks.retryScale });
  const thumbnails = new ThumbnailJobs({
    backend,
    dataDir: config.dataDir,
    thumbnail: thumbnailDepsOf(config, markdown),
    logger,
    urlSigningKey: await resolveUrlSigningKey(backend.settings),
    // the engine is made below, with the thumbnails among its dependencies; this runs only after
    forgetTask: (id) => tasks.forget(id),
  });
  const screenshots = screenshotDepsOf(markdown.tools, { timeoutMs: config.chromium.screenshotTimeoutMs, allowPrivateUrls: config.allowPrivateUrls, maxPixels: config.convert.maxPixels });
  const operationDeps: OperationDeps = { markdown, provider, pool, compute: sandbox, thumbnails, screenshots };
  const tasks = new TaskEngine({ backend, ledger, webhooks, logger }, OPERATIONS, operationDeps, {
    concurrency: config.tasks.concurrency,
    leaseMs: config.tasks.leaseMs,
    maxPendingPerKey: config.tasks.maxPendingPerKey,
  });
  return { config, backend, keys, ledger, rateLimiter, pool, markdown, provider, sandbox, metrics, logger, webhookSecret, tasks, webhooks, thumbnails, startedAt, draining: false };
}

export async function closeServices(services: Services): Promise<void> {
  await services.tasks.stop();
  services.thumbnails.close();
  await services.webhooks.stop();
  await services.markdown.converter.close();
  await closeConvertTools(services.markdown.tools);
  await services.sandbox.close();
  await services.pool.close();
  await services.keys.flushTouches();
  await services.backend.close();
}
