/**
 * Configuration is parsed once at boot. Each option is a flag `--name` and an environment variable
 * `DOCINTEL_<NAME>`; flags win over the environment, the environment over defaults. `process.env`
 * is read here and nowhere else: modules receive their slice of `Config`.
 */
import { Type, type Static } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { cpus } from "node:os";
import { resolve } from "node:path";
import { DEFAULT_MODELS } from "../ai/models";
import { CHROMIUM_CANDIDATES, firstInstalled } from "../tools/programs";

/** ServeOptionSpec describes one option for parsing, `--help` and the README. */
export interface OptionSpec {
  flag: string;
  env: string;
  kind: "string" | "integer" | "number" | "boolean";
  describe: string;
  default?: string | number | boolean;
}

const cpuCount = Math.max(1, cpus().length);

/** SERVE_OPTIONS lists every option of `docintel serve`, in help order. */
export const SERVE_OPTIONS: OptionSpec[] = [
  { flag: "host", env: "DOCINTEL_HOST", kind: "string", default: "0.0.0.0", describe: "address to listen on" },
  { flag: "port", env: "DOCINTEL_PORT", kind: "integer", default: 8080, describe: "TCP port to listen on" },
  { flag: "data", env: "DOCINTEL_DATA", kind: "string", default: "./data", describe: "data directory (SQLite store, webhook secret, job files)" },
  { flag: "allow-private-urls", env: "DOCINTEL_ALLOW_PRIVATE_URLS", kind: "boolean", default: false, describe: "allow fetching loopback, private, link-local and metadata addresses (off: refused with 400 url_refused)" },
  { flag: "webhook-secret", env: "DOCINTEL_WEBHOOK_SECRET", kind: "string", describe: "shared HMAC-SHA256 key that signs webhooks of keys made before per-key secrets (unset: generated at first start and kept in the data dir); every newer key signs with its own" },
  { flag: "public-url", env: "DOCINTEL_PUBLIC_URL", kind: "string", describe: "the URL clients reach the service at, e.g. https://docs.example.com: the base of absolute URLs the service returns (signed thumbnail URLs); unset: those URLs are relative (/api/v1/...). The Host header is never used" },
  { flag: "workers", env: "DOCINTEL_WORKERS", kind: "integer", default: cpuCount, describe: "worker threads for CPU-heavy work (default: CPU count)" },
  { flag: "queue-size", env: "DOCINTEL_QUEUE_SIZE", kind: "integer", default: cpuCount * 16, describe: "jobs that may wait for a worker before requests get 503 overloaded" },
  { flag: "max-upload-mb", env: "DOCINTEL_MAX_UPLOAD_MB", kind: "integer", default: 50, describe: "largest accepted file in MB (10^6 bytes); larger uploads get 413 while they stream in" },
  { flag: "fetch-timeout-ms", env: "DOCINTEL_FETCH_TIMEOUT_MS", kind: "integer", default: 30000, describe: "deadline for fetching one URL, redirects included" },
  { flag: "convert-timeout-ms", env: "DOCINTEL_CONVERT_TIMEOUT_MS", kind: "integer", default: 120000, describe: "deadline for one document conversion (fetch, render, OCR, transcription); past it: 504 timeout" },
  { flag: "max-pages", env: "DOCINTEL_MAX_PAGES", kind: "integer", default: 2000, describe: "most pages (PDF pages, slides, sheets) one document may have; more: 413 document_too_large" },
  { flag: "max-megapixels", env: "DOCINTEL_MAX_MEGAPIXELS", kind: "integer", default: 100, describe: "largest image (width x height, in millions of pixels) decoded or OCRed; larger: 413" },
  { flag: "max-markdown-mb", env: "DOCINTEL_MAX_MARKDOWN_MB", kind: "integer", default: 50, describe: "longest markdown one conversion may produce, in millions of characters; more: 413 document_too_large (stops nesting and repetition that blow up)" },
  { flag: "convert-processes", env: "DOCINTEL_CONVERT_PROCESSES", kind: "integer", default: Math.min(2, cpuCount), describe: "conversion processes: documents parsed at once, each in its own process off the server's event loop; more wait" },
  { flag: "convert-memory-mb", env: "DOCINTEL_CONVERT_MEMORY_MB", kind: "integer", default: 768, describe: "resident memory one conversion process may use, in MiB; past it the conversion stops with 413 document_too_large; 0 = unlimited" },
  { flag: "max-decompressed-mb", env: "DOCINTEL_MAX_DECOMPRESSED_MB", kind: "integer", default: 500, describe: "bytes a ZIP-based document (DOCX, XLSX, PPTX, EPUB, ODF) may inflate to, in MB; more: 413 (zip bombs)" },
  { flag: "chromium-path", env: "DOCINTEL_CHROMIUM_PATH", kind: "string", default: "auto", describe: "Chromium executable for web pages and screenshots; auto: the headless shell (Debian package chromium-headless-shell, a third of the full browser's CPU per page) when installed, else chromium" },
  { flag: "screenshot-timeout-ms", env: "DOCINTEL_SCREENSHOT_TIMEOUT_MS", kind: "integer", default: 30000, describe: "deadline for one screenshot (load, settle, capture, encode); a page that never finishes loading gets 504 timeout" },
  { flag: "browser-pages", env: "DOCINTEL_BROWSER_PAGES", kind: "integer", default: 4, describe: "browser tabs open at once; more requests wait" },
  { flag: "browser-restart-after", env: "DOCINTEL_BROWSER_RESTART_AFTER", kind: "integer", default: 200, describe: "restart Chromium after this many pages (bounds leaks)" },
  { flag: "office-instances", env: "DOCINTEL_OFFICE_INSTANCES", kind: "integer", default: Math.min(2, cpuCount), describe: "warm LibreOffice processes (each converts one document at a time)" },
  { flag: "ocr-concurrency", env: "DOCINTEL_OCR_CONCURRENCY", kind: "integer", default: cpuCount, describe: "tesseract processes at once (one thread each)" },
  { flag: "bwrap-path", env: "DOCINTEL_BWRAP_PATH", kind: "string", default: "bwrap", describe: "bubblewrap, which runs LibreOffice, ffmpeg, poppler, tesseract and heif-convert without network, secrets or a view of other files (Debian package bubblewrap); when it cannot run they run unisolated, and start-up and doctor say so" },
  { flag: "model-fast", env: "DOCINTEL_MODEL_FAST", kind: "string", default: DEFAULT_MODELS.fast, describe: "the provider's fast model (model=fast, and the first pass of model=auto)" },
  { flag: "model-accurate", env: "DOCINTEL_MODEL_ACCURATE", kind: "string", default: DEFAULT_MODELS.accurate, describe: "the provider's accurate model (model=accurate, and auto's second pass)" },
  { flag: "model-vision", env: "DOCINTEL_MODEL_VISION", kind: "string", default: DEFAULT_MODELS.vision, describe: "the provider's vision model (use_vision)" },
  { flag: "transcription-model", env: "DOCINTEL_TRANSCRIPTION_MODEL", kind: "string", default: "whisper-large-v3-turbo", describe: "speech-to-text model of the AI provider (needs GROQ_API_KEY)" },
  { flag: "compute-timeout-ms", env: "DOCINTEL_COMPUTE_TIMEOUT_MS", kind: "integer", default: 10000, describe: "limit on one run of the analyze agent's compute tool (Python); longer runs are stopped" },
  { flag: "compute-memory-mb", env: "DOCINTEL_COMPUTE_MEMORY_MB", kind: "integer", default: 256, describe: "memory cap of each of the compute tool's Python interpreters, in MiB" },
  { flag: "compute-spares", env: "DOCINTEL_COMPUTE_SPARES", kind: "integer", default: 1, describe: "Python interpreters kept started ahead of need (each agent run gets a fresh one; a start takes 4-5 s and about 90 MB); 0: none, each run's first compute call waits for a start" },
  { flag: "compute-interpreters", env: "DOCINTEL_COMPUTE_INTERPRETERS", kind: "integer", default: 4, describe: "most Python interpreters alive at once (spares and those of running agents); a run that finds all in use waits up to --compute-timeout-ms for one, then its compute call fails as busy" },
  { flag: "task-concurrency", env: "DOCINTEL_TASK_CONCURRENCY", kind: "integer", default: Math.max(2, cpuCount), describe: "async tasks (sync=false, batch items) running at once; more wait as pending" },
  { flag: "task-lease-ms", env: "DOCINTEL_TASK_LEASE_MS", kind: "integer", default: 30000, describe: "lease of a running task, renewed every third of it; a task whose process died runs again once its lease has expired" },
  { flag: "max-pending-tasks", env: "DOCINTEL_MAX_PENDING_TASKS", kind: "integer", default: 1000, describe: "async tasks and thumbnail jobs one API key may have pending or running at once; more get 429 rate_limited" },
  { flag: "webhook-retry-scale", env: "DOCINTEL_WEBHOOK_RETRY_SCALE", kind: "number", default: 1, describe: "multiplies every delay of the webhook retry schedule (2 s ... 4 h); e.g. 0.001 in tests" },
  { flag: "log-level", env: "DOCINTEL_LOG_LEVEL", kind: "string", default: "info", describe: "info or error (error: only failed requests are logged)" },
  { flag: "max-spools", env: "DOCINTEL_MAX_SPOOLS", kind: "integer", default: 16, describe: "chunked uploads (no Content-Length) spooled to the data dir at once, all keys together; more get 503 overloaded with Retry-After" },
  { flag: "max-spools-per-key", env: "DOCINTEL_MAX_SPOOLS_PER_KEY", kind: "integer", default: 2, describe: "chunked uploads one API key may have spooling at once; more get 429 rate_limited with Retry-After" },
  { flag: "metrics-listen", env: "DOCINTEL_METRICS_LISTEN", kind: "string", default: "127.0.0.1:9464", describe: "HOST:PORT of the separate listener that serves GET /metrics (never on the API port); off: no metrics" },
  { flag: "metrics-token", env: "DOCINTEL_METRICS_TOKEN", kind: "string", describe: "when set, /metrics needs the header Authorization: Bearer <token> (an operator token, not an API key)" },
  { flag: "no-bootstrap-key", env: "DOCINTEL_NO_BOOTSTRAP_KEY", kind: "boolean", default: false, describe: "do not create and print a key on first start with an empty store" },
];

export const ConfigSchema = Type.Object({
  host: Type.String({ minLength: 1 }),
  port: Type.Integer({ minimum: 0, maximum: 65535 }),
  dataDir: Type.String({ minLength: 1 }),
  allowPrivateUrls: Type.Boolean(),
  webhookSecret: Type.Optional(Type.String({ minLength: 16 })),
  /** publicUrl: scheme, host and optional path prefix without a trailing slash; undefined = relative URLs */
  publicUrl: Type.Optional(Type.String({ minLength: 1 })),
  workers: Type.Integer({ minimum: 1, maximum: 256 }),
  queueSize: Type.Integer({ minimum: 1 }),
  maxUploadBytes: Type.Integer({ minimum: 1 }),
  fetchTimeoutMs: Type.Integer({ minimum: 100 }),
  convert: Type.Object({
    timeoutMs: Type.Integer({ minimum: 1000 }),
    maxPages: Type.Integer({ minimum: 1 }),
    maxPixels: Type.Integer({ minimum: 1 }),
    maxDecompressedBytes: Type.Integer({ minimum: 1 }),
    maxMarkdownChars: Type.Integer({ minimum: 1 }),
    processes: Type.Integer({ minimum: 1, maximum: 256 }),
    memoryBytes: Type.Integer({ minimum: 0 }),
  }),
  chromium: Type.Object({
    path: Type.String({ minLength: 1 }),
    pages: Type.Integer({ minimum: 1, maximum: 64 }),
    restartAfter: Type.Integer({ minimum: 1 }),
    screenshotTimeoutMs: Type.Integer({ minimum: 1000 }),
  }),
  /** outboundProxy: the operator's HTTP_PROXY / HTTPS_PROXY (http://host:port) and NO_PROXY, the next hop of Chromium's egress proxy as of the plain fetch */
  outboundProxy: Type.Object({ http: Type.Union([Type.String(), Type.Null()]), https: Type.Union([Type.String(), Type.Null()]), noProxy: Type.Union([Type.String(), Type.Null()]) }),
  officeInstances: Type.Integer({ minimum: 1, maximum: 32 }),
  ocrConcurrency: Type.Integer({ minimum: 1, maximum: 256 }),
  bwrapPath: Type.String({ minLength: 1 }),
  compute: Type.Object({
    timeoutMs: Type.Integer({ minimum: 100 }),
    memoryLimitMb: Type.Integer({ minimum: 64, maximum: 8192 }),
    spares: Type.Integer({ minimum: 0, maximum: 16 }),
    maxInterpreters: Type.Integer({ minimum: 1, maximum: 64 }),
  }),
  tasks: Type.Object({ concurrency: Type.Integer({ minimum: 1, maximum: 256 }), leaseMs: Type.Integer({ minimum: 1000 }), maxPendingPerKey: Type.Integer({ minimum: 1 }) }),
  webhooks: Type.Object({ retryScale: Type.Number({ exclusiveMinimum: 0, maximum: 100 }) }),
  spools: Type.Object({ max: Type.Integer({ minimum: 1 }), maxPerKey: Type.Integer({ minimum: 1 }) }),
  metrics: Type.Object({
    /** listen: where GET /metrics is served; absent = nowhere */
    listen: Type.Optional(Type.Object({ host: Type.String({ minLength: 1 }), port: Type.Integer({ minimum: 0, maximum: 65535 }) })),
    token: Type.Optional(Type.String({ minLength: 16 })),
  }),
  logLevel: Type.Union([Type.Literal("info"), Type.Literal("error")]),
  bootstrapKey: Type.Boolean(),
  groq: Type.Object({
    apiKey: Type.Optional(Type.String()),
    baseUrl: Type.Optional(Type.String()),
    transcriptionModel: Type.String({ minLength: 1 }),
    models: Type.Object({ fast: Type.String({ minLength: 1 }), accurate: Type.String({ minLength: 1 }), vision: Type.String({ minLength: 1 }) }),
  }),
});

export type Config = Static<typeof ConfigSchema>;

export type RawOptions = Record<string, string | boolean | undefined>;

/** ConfigError is raised for a bad flag or variable; the CLI prints it and exits 2. */
export class ConfigError extends Error {}

function parseValue(spec: OptionSpec, raw: string | boolean, source: string): string | number | boolean {
  if (spec.kind === "boolean") {
    if (typeof raw === "boolean") return raw;
    const v = raw.trim().toLowerCase();
    if (["1", "true", "yes", "on"].includes(v)) return true;
    if (["0", "false", "no", "off", ""].includes(v)) return false;
    throw new ConfigError(`${source} must be true or false, got '${raw}'`);
  }
  if (typeof raw === "boolean") throw new ConfigError(`${source} needs a value`);
  if (spec.kind === "integer") {
    if (!/^-?\d+$/.test(raw.trim())) throw new ConfigError(`${source} must be a whole number, got '${raw}'`);
    return Number.parseInt(raw, 10);
  }
  if (spec.kind === "number") {
    const n = Number(raw);
    if (!Number.isFinite(n)) throw new ConfigError(`${source} must be a number, got '${raw}'`);
    return n;
  }
  return raw;
}

/** resolveOptions merges flags over env over defaults for the given option specs. */
export function resolveOptions(specs: OptionSpec[], env: Record<string, string | undefined>, flags: RawOptions): Record<string, string | number | boolean | undefined> {
  const out: Record<string, string | number | boolean | undefined> = {};
  for (const spec of specs) {
    const flagValue = flags[spec.flag];
    const envValue = env[spec.env];
    if (flagValue !== undefined) out[spec.flag] = parseValue(spec, flagValue, `--${spec.flag}`);
    else if (envValue !== undefined && envValue !== "") out[spec.flag] = parseValue(spec, envValue, spec.env);
    else out[spec.flag] = spec.default;
  }
  return out;
}

/** loadConfig validates the serve options once; throws ConfigError naming the option at fault. */
export function loadConfig(env: Record<string, string | undefined>, flags: RawOptions = {}): Config {
  const o = resolveOptions(SERVE_OPTIONS, env, flags);
  const config: Config = {
    host: String(o.host),
    port: Number(o.port),
    dataDir: resolve(String(o.data)),
    allowPrivateUrls: Boolean(o["allow-private-urls"]),
    webhookSecret: o["webhook-secret"] === undefined ? undefined : String(o["webhook-secret"]),
    publicUrl: publicUrlOf(o["public-url"]),
    workers: Number(o.workers),
    queueSize: Number(o["queue-size"]),
    maxUploadBytes: Number(o["max-upload-mb"]) * 1_000_000,
    fetchTimeoutMs: Number(o["fetch-timeout-ms"]),
    convert: {
      timeoutMs: Number(o["convert-timeout-ms"]),
      maxPages: Number(o["max-pages"]),
      maxPixels: Number(o["max-megapixels"]) * 1_000_000,
      maxDecompressedBytes: Number(o["max-decompressed-mb"]) * 1_000_000,
      maxMarkdownChars: Number(o["max-markdown-mb"]) * 1_000_000,
      processes: Number(o["convert-processes"]),
      memoryBytes: Number(o["convert-memory-mb"]) * 1024 * 1024,
    },
    chromium: { path: chromiumPath(String(o["chromium-path"])), pages: Number(o["browser-pages"]), restartAfter: Number(o["browser-restart-after"]), screenshotTimeoutMs: Number(o["screenshot-timeout-ms"]) },
    outboundProxy: { http: env.HTTP_PROXY || env.http_proxy || null, https: env.HTTPS_PROXY || env.https_proxy || null, noProxy: env.NO_PROXY || env.no_proxy || null },
    officeInstances: Number(o["office-instances"]),
    ocrConcurrency: Number(o["ocr-concurrency"]),
    bwrapPath: String(o["bwrap-path"]),
    compute: { timeoutMs: Number(o["compute-timeout-ms"]), memoryLimitMb: Number(o["compute-memory-mb"]), spares: Number(o["compute-spares"]), maxInterpreters: Number(o["compute-interpreters"]) },
    tasks: { concurrency: Number(o["task-concurrency"]), leaseMs: Number(o["task-lease-ms"]), maxPendingPerKey: Number(o["max-pending-tasks"]) },
    webhooks: { retryScale: Number(o["webhook-retry-scale"]) },
    spools: { max: Number(o["max-spools"]), maxPerKey: Number(o["max-spools-per-key"]) },
    metrics: { listen: listenAddress(String(o["metrics-listen"] ?? ""), "--metrics-listen"), token: o["metrics-token"] === undefined ? undefined : String(o["metrics-token"]) },
    logLevel: o["log-level"] as Config["logLevel"],
    bootstrapKey: !o["no-bootstrap-key"],
    groq: {
      apiKey: env.GROQ_API_KEY || undefined,
      baseUrl: env.GROQ_BASE_URL || undefined,
      transcriptionModel: String(o["transcription-model"]),
      models: { fast: String(o["model-fast"]), accurate: String(o["model-accurate"]), vision: String(o["model-vision"]) },
    },
  };
  const firstError = Value.Errors(ConfigSchema, config).First();
  if (firstError) {
    const name = firstError.path.replace(/^\//, "") || "config";
    throw new ConfigError(`invalid configuration '${name}': ${firstError.message} (got ${JSON.stringify(firstError.value)})`);
  }
  return config;
}

/** publicUrlOf checks --public-url and drops a trailing slash; undefined when it is not set. */
function publicUrlOf(raw: string | number | boolean | undefined): string | undefined {
  if (raw === undefined || String(raw).trim() === "") return undefined;
  const text = String(raw).trim();
  let url: URL | null = null;
  try {
    url = new URL(text);
  } catch {}
  if (!url || !/^https?:$/.test(url.protocol) || url.username || url.password || url.search || url.hash || text.includes("?") || text.includes("#")) {
    throw new ConfigError(`--public-url must be the http or https URL clients reach the service at, such as https://docs.example.com (no query, fragment or credentials), got '${text}'`);
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, "");
}

/**
 * listenAddress parses HOST:PORT ([::1]:9464 for IPv6); "off" or "" is no listener.
 */
function listenAddress(raw: string, flag: string): { host: string; port: number } | undefined {
  const value = raw.trim();
  if (value === "" || value.toLowerCase() === "off") return undefined;
  const m = /^(?:\[([^\]]+)\]|([^:\[\]]+)):(\d{1,5})$/.exec(value);
  if (!m) throw new ConfigError(`${flag} must be HOST:PORT (e.g. 127.0.0.1:9464) or off, got '${raw}'`);
  return { host: (m[1] ?? m[2])!, port: Number(m[3]) };
}

/**
 * chromiumPath resolves --chromium-path: "auto" is the first of CHROMIUM_CANDIDATES installed (the
 * headless shell first); when none is, the shell's path, so that a render's error names what to install.
 */
function chromiumPath(configured: string): string {
  if (configured !== "auto") return configured;
  return firstInstalled(CHROMIUM_CANDIDATES) ?? CHROMIUM_CANDIDATES[0]!;
}

/** dataDirFrom resolves only the data dir, for CLI commands that need nothing else. */
export function dataDirFrom(env: Record<string, string | undefined>, flags: RawOptions): string {
  const o = resolveOptions(SERVE_OPTIONS.filter((s) => s.flag === "data"), env, flags);
  return resolve(String(o.data));
}
