/**
 * Services is everything a request handler may use, built once at start from the Config. Tests
 * and the CLI build the same object, so sync routes, tasks and the CLI share one code path.
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
import type { AgentDeps } from "../analyze/service";
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
  const backend: StoreBackend = await openDatabase(config.database, { service: true });
  const pool = new WorkerPool({ threads: config.workers, maxQueue: config.queueSize });
  const groq = providerClientOf(config);
  const services = {
    config,
    backend,
    keys: new KeyResolver(backend, (error) => services.logger.error("-", "could not record a key's last use", error)),
    ledger: new Ledger(backend),
    rateLimiter: new RateLimiter(backend.counters),
    pool,
    markdown: markdownDepsOf(config, createConvertTools(config, pool, groq)),
    provider: groq ? { client: groq, models: config.groq.models } : undefined,
    sandbox: new PythonSandbox({ ...config.compute, maxOutputChars: 8000 }),
    metrics: new Metrics(),
    logger: overrides.logger ?? createLogger(config.logLevel),
    webhookSecret: (await resolveWebhookSecret(backend.settings, config.webhookSecret)).secret,
    startedAt: new Date(),
    draining: false,
  } as Services;
  services.webhooks = new WebhookDispatcher({ backend, sharedSecret: services.webhookSecret, allowPrivate: config.allowPrivateUrls, logger: services.logger, retryScale: config.webhooks.retryScale });
  services.thumbnails = new ThumbnailJobs({
    backend,
    dataDir: config.dataDir,
    thumbnail: thumbnailDepsOf(config, services.markdown),
    logger: services.logger,
    urlSigningKey: await resolveUrlSigningKey(backend.settings),
    forgetTask: (id) => services.tasks.forget(id),
  });
  const screenshots = screenshotDepsOf(services.markdown.tools, { timeoutMs: config.chromium.screenshotTimeoutMs, allowPrivateUrls: config.allowPrivateUrls, maxPixels: config.convert.maxPixels });
  const operationDeps: OperationDeps = { ...agentDepsOf(services), thumbnails: services.thumbnails, screenshots };
  services.tasks = new TaskEngine(
    { backend, ledger: services.ledger, webhooks: services.webhooks, logger: services.logger },
    OPERATIONS,
    operationDeps,
    { concurrency: config.tasks.concurrency, leaseMs: config.tasks.leaseMs, maxPendingPerKey: config.tasks.maxPendingPerKey },
  );
  return services;
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

/** agentDepsOf is what analyze, cross-analyze and decide need from the services. */
export function agentDepsOf(services: Services): AgentDeps {
  return { markdown: services.markdown, provider: services.provider, pool: services.pool, compute: services.sandbox };
}
