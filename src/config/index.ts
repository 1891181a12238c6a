/**
 * Configuration is parsed once at boot. Each `serve` option is a flag `--name` and an environment
 * variable `DOCINTEL_<NAME>`; flags win over the environment, the environment over defaults.
 * Per-command flags (docintel md --selector, keys create --plan, ...) are read from the command line
 * only. `process.env` is read here and nowhere else: modules receive their slice of `Config`.
 */
import type { DatabaseChoice } from "../runtime/database";
import { existsSync } from "node:fs";
import { cpus } from "node:os";
import { resolve } from "node:path";
import { DEFAULT_MODELS } from "../ai/models";
import { CHROMIUM_CANDIDATES, firstInstalled } from "../tools/programs";

/**
 * OptionSpec declares one option once: its flag, its environment variable, its type, default and
 * bounds, and its help text. The CLI parser, the environment, validation (with errors naming the
 * flag or variable the user set), `--help` and the README's options table (checked by
 * test/config.test.ts) all read these tables.
 */
export interface OptionSpec {
  flag: string;
  /** env: the variable that sets it too; null for a per-command flag, which only the command line sets */
  env: string | null;
  kind: "string" | "integer" | "number" | "boolean";
  describe: string;
  /** default: the value when neither the flag nor the variable is set; a function is asked at each resolution */
  default?: string | number | boolean | (() => string | number | boolean);
  /** defaultText: how help and the README show a default computed on this machine, e.g. "CPU count" */
  defaultText?: string;
  /** min, max: bounds of a number */
  min?: number;
  max?: number;
  /** minLength: shortest accepted string (secrets, tokens) */
  minLength?: number;
  /** choices: the values a string option takes */
  choices?: readonly string[];
  /** short: a one-letter alias (o for -o, --output) */
  short?: string;
  /** check: a string option's own rule; throws ConfigError naming `source` (the flag or variable as given) */
  check?: (value: string, source: string) => void;
}

const cpuCount = Math.max(1, cpus().length);

/** DEFAULT_DATA_DIR_SYSTEM: the data dir of a system install (the service unit, install.sh). */
export const DEFAULT_DATA_DIR_SYSTEM = "/var/lib/docintel";

/**
 * defaultDataDir is the one default of --data, for the service and every CLI command alike:
 * /var/lib/docintel when that directory exists (a system install), else ./data in the working
 * directory. Every command prints the data dir it uses.
 */
export function defaultDataDir(exists: (path: string) => boolean = existsSync): string {
  return exists(DEFAULT_DATA_DIR_SYSTEM) ? DEFAULT_DATA_DIR_SYSTEM : "./data";
}

/** DATA_OPTION: where the store, keys, ledger and job files live; shared by `serve` and the CLI commands. */
export const DATA_OPTION: OptionSpec = {
  flag: "data",
  env: "DOCINTEL_DATA",
  kind: "string",
  minLength: 1,
  default: () => defaultDataDir(),
  defaultText: `${DEFAULT_DATA_DIR_SYSTEM} if it exists, else ./data`,
  describe: "data directory (SQLite store with keys and credits, webhook secret, job files)",
};

/**
 * DATABASE_OPTION: which store holds keys, credits, tasks and deliveries. SQLite (the default) is
 * the store in the data dir; PostgreSQL is shared by several machines (docs/postgres.md).
 */
export const DATABASE_OPTION: OptionSpec = {
  flag: "database",
  env: "DOCINTEL_DATABASE",
  kind: "string",
  default: "sqlite:",
  check: (v, source) => void databaseUrlOf(v, source),
  describe: "the store: sqlite: (the SQLite store in --data), sqlite:DIR (the same as --data DIR), or postgres://user:password@host:5432/database, shared by several machines (serve, migrate, import, doctor, keys and credits take it; TLS with ?sslmode=verify-full&sslrootcert=CA-FILE)",
};
/** DB_POOL_OPTION, DB_TIMEOUT_OPTION: the PostgreSQL connection pool; SQLite ignores them */
export const DB_POOL_OPTION: OptionSpec = { flag: "db-pool-size", env: "DOCINTEL_DB_POOL_SIZE", kind: "integer", min: 1, max: 1000, default: 10, describe: "with a postgres:// --database: connections this process opens at most (every machine's pool plus one listener each must fit the server's max_connections)" };
export const DB_TIMEOUT_OPTION: OptionSpec = { flag: "db-statement-timeout-ms", env: "DOCINTEL_DB_STATEMENT_TIMEOUT_MS", kind: "integer", min: 0, default: 30000, describe: "with a postgres:// --database: the server cancels a statement that runs longer (statement_timeout); 0 = no limit" };
/** DATABASE_OPTIONS: what every command that opens the store takes */
export const DATABASE_OPTIONS: OptionSpec[] = [DATA_OPTION, DATABASE_OPTION, DB_POOL_OPTION, DB_TIMEOUT_OPTION];

/** SERVE_OPTIONS lists every option of `docintel serve`, in help order. */
export const SERVE_OPTIONS: OptionSpec[] = [
  { flag: "host", env: "DOCINTEL_HOST", kind: "string", minLength: 1, default: "0.0.0.0", describe: "address to listen on" },
  { flag: "port", env: "DOCINTEL_PORT", kind: "integer", min: 0, max: 65535, default: 8080, describe: "TCP port to listen on" },
  DATA_OPTION,
  DATABASE_OPTION,
  DB_POOL_OPTION,
  DB_TIMEOUT_OPTION,
  { flag: "allow-private-urls", env: "DOCINTEL_ALLOW_PRIVATE_URLS", kind: "boolean", default: false, describe: "allow fetching loopback, private, link-local and metadata addresses (off: refused with 400 url_refused)" },
  { flag: "webhook-secret", env: "DOCINTEL_WEBHOOK_SECRET", kind: "string", minLength: 16, describe: "shared HMAC-SHA256 key that signs webhooks of keys made before per-key secrets (unset: generated at first start and kept in the data dir); every newer key signs with its own" },
  { flag: "public-url", env: "DOCINTEL_PUBLIC_URL", kind: "string", check: (v, source) => void publicUrlOf(v, source), describe: "the URL clients reach the service at, e.g. https://docs.example.com: the base of absolute URLs the service returns (signed thumbnail and preview links) and the explorer's server; unset: those URLs are relative (/api/v1/...). The Host header is never used" },
  { flag: "anonymous-plan", env: "DOCINTEL_ANONYMOUS_PLAN", kind: "string", choices: ["none", "free"], default: "none", describe: "none: every operation needs a key; free: requests without a key may use GET /md/{url} and screenshots (GET /{url}), charged to one shared key named anonymous on the free plan (100 credits a month; docintel credits grant adds more)" },
  { flag: "anonymous-rate-per-ip", env: "DOCINTEL_ANONYMOUS_RATE_PER_IP", kind: "integer", min: 1, max: 10000, default: 10, describe: "with --anonymous-plan free: keyless requests per minute from one client address (the connection's; behind a reverse proxy all clients share the proxy's)" },
  { flag: "workers", env: "DOCINTEL_WORKERS", kind: "integer", min: 1, max: 256, defaultText: "CPU count", default: cpuCount, describe: "worker threads for CPU-heavy work" },
  { flag: "queue-size", env: "DOCINTEL_QUEUE_SIZE", kind: "integer", min: 1, defaultText: "16 × CPUs", default: cpuCount * 16, describe: "jobs that may wait for a worker before requests get 503 overloaded" },
  { flag: "max-upload-mb", env: "DOCINTEL_MAX_UPLOAD_MB", kind: "integer", min: 1, default: 50, describe: "largest accepted file in MB (10^6 bytes); larger uploads get 413 while they stream in" },
  { flag: "fetch-timeout-ms", env: "DOCINTEL_FETCH_TIMEOUT_MS", kind: "integer", min: 100, default: 30000, describe: "deadline for fetching one URL, redirects included" },
  { flag: "convert-timeout-ms", env: "DOCINTEL_CONVERT_TIMEOUT_MS", kind: "integer", min: 1000, default: 120000, describe: "deadline for one document conversion (fetch, render, OCR, transcription); past it: 504 timeout" },
  { flag: "max-pages", env: "DOCINTEL_MAX_PAGES", kind: "integer", min: 1, default: 2000, describe: "most pages (PDF pages, slides, sheets) one document may have; more: 413 document_too_large" },
  { flag: "max-megapixels", env: "DOCINTEL_MAX_MEGAPIXELS", kind: "integer", min: 1, default: 100, describe: "largest image (width x height, in millions of pixels) decoded or OCRed; larger: 413" },
  { flag: "max-decompressed-mb", env: "DOCINTEL_MAX_DECOMPRESSED_MB", kind: "integer", min: 1, default: 500, describe: "bytes a ZIP-based document (DOCX, XLSX, PPTX, EPUB, ODF) may inflate to, in MB; more: 413 (zip bombs)" },
  { flag: "max-markdown-mb", env: "DOCINTEL_MAX_MARKDOWN_MB", kind: "integer", min: 1, default: 50, describe: "longest markdown one conversion may produce, in millions of characters; more: 413 document_too_large (stops nesting and repetition that blow up)" },
  { flag: "convert-processes", env: "DOCINTEL_CONVERT_PROCESSES", kind: "integer", min: 1, max: 256, defaultText: "min(2, CPUs)", default: Math.min(2, cpuCount), describe: "conversion processes: documents parsed at once, each in its own process off the server's event loop; more wait" },
  { flag: "convert-memory-mb", env: "DOCINTEL_CONVERT_MEMORY_MB", kind: "integer", min: 0, default: 768, describe: "resident memory one conversion process may use, in MiB; past it the conversion stops with 413 document_too_large; 0 = unlimited" },
  { flag: "chromium-path", env: "DOCINTEL_CHROMIUM_PATH", kind: "string", minLength: 1, default: "auto", describe: "Chromium executable for web pages and screenshots; auto: the headless shell (Debian package chromium-headless-shell, a third of the full browser's CPU per page) when installed, else chromium" },
  { flag: "screenshot-timeout-ms", env: "DOCINTEL_SCREENSHOT_TIMEOUT_MS", kind: "integer", min: 1000, default: 30000, describe: "deadline for one screenshot (load, settle, capture, encode); a page that never finishes loading gets 504 timeout" },
  { flag: "browser-pages", env: "DOCINTEL_BROWSER_PAGES", kind: "integer", min: 1, max: 64, default: 4, describe: "browser tabs open at once; more requests wait" },
  { flag: "browser-restart-after", env: "DOCINTEL_BROWSER_RESTART_AFTER", kind: "integer", min: 1, default: 200, describe: "restart Chromium after this many pages (bounds leaks)" },
  { flag: "office-instances", env: "DOCINTEL_OFFICE_INSTANCES", kind: "integer", min: 1, max: 32, defaultText: "min(2, CPUs)", default: Math.min(2, cpuCount), describe: "warm LibreOffice processes (each converts one document at a time)" },
  { flag: "ocr-concurrency", env: "DOCINTEL_OCR_CONCURRENCY", kind: "integer", min: 1, max: 256, defaultText: "CPU count", default: cpuCount, describe: "tesseract processes at once (one thread each)" },
  { flag: "bwrap-path", env: "DOCINTEL_BWRAP_PATH", kind: "string", minLength: 1, default: "bwrap", describe: "bubblewrap, which runs LibreOffice, ffmpeg, poppler, tesseract and heif-convert without network, secrets or a view of other files (Debian package bubblewrap); when it cannot run they run unisolated, and start-up and doctor say so" },
  { flag: "model-fast", env: "DOCINTEL_MODEL_FAST", kind: "string", minLength: 1, default: DEFAULT_MODELS.fast, describe: "the provider's fast model (model=fast, and the first pass of model=auto)" },
  { flag: "model-accurate", env: "DOCINTEL_MODEL_ACCURATE", kind: "string", minLength: 1, default: DEFAULT_MODELS.accurate, describe: "the provider's accurate model (model=accurate, and auto's second pass)" },
  { flag: "model-vision", env: "DOCINTEL_MODEL_VISION", kind: "string", minLength: 1, default: DEFAULT_MODELS.vision, describe: "the provider's vision model (use_vision)" },
  { flag: "transcription-model", env: "DOCINTEL_TRANSCRIPTION_MODEL", kind: "string", minLength: 1, default: "whisper-large-v3-turbo", describe: "speech-to-text model of the AI provider (needs GROQ_API_KEY)" },
  { flag: "compute-timeout-ms", env: "DOCINTEL_COMPUTE_TIMEOUT_MS", kind: "integer", min: 100, default: 10000, describe: "limit on one run of the analyze agent's compute tool (Python); longer runs are stopped" },
  { flag: "compute-memory-mb", env: "DOCINTEL_COMPUTE_MEMORY_MB", kind: "integer", min: 64, max: 8192, default: 256, describe: "memory cap of each of the compute tool's Python interpreters, in MiB" },
  { flag: "compute-spares", env: "DOCINTEL_COMPUTE_SPARES", kind: "integer", min: 0, max: 16, default: 1, describe: "Python interpreters kept started ahead of need (each agent run gets a fresh one; a start takes 4-5 s and about 90 MB); 0: none, each run's first compute call waits for a start" },
  { flag: "compute-interpreters", env: "DOCINTEL_COMPUTE_INTERPRETERS", kind: "integer", min: 1, max: 64, default: 4, describe: "most Python interpreters alive at once (spares and those of running agents); a run that finds all in use waits up to --compute-timeout-ms for one, then its compute call fails as busy" },
  { flag: "task-concurrency", env: "DOCINTEL_TASK_CONCURRENCY", kind: "integer", min: 1, max: 256, defaultText: "max(2, CPUs)", default: Math.max(2, cpuCount), describe: "async tasks (sync=false, batch items) running at once; more wait as pending" },
  { flag: "task-lease-ms", env: "DOCINTEL_TASK_LEASE_MS", kind: "integer", min: 1000, default: 30000, describe: "lease of a running task, renewed every third of it; a task whose process died runs again once its lease has expired" },
  { flag: "max-pending-tasks", env: "DOCINTEL_MAX_PENDING_TASKS", kind: "integer", min: 1, default: 1000, describe: "async tasks and thumbnail jobs one API key may have pending or running at once; more get 429 rate_limited" },
  { flag: "webhook-retry-scale", env: "DOCINTEL_WEBHOOK_RETRY_SCALE", kind: "number", min: 0.0001, max: 100, default: 1, describe: "multiplies every delay of the webhook retry schedule (2 s ... 4 h); e.g. 0.001 in tests" },
  { flag: "log-level", env: "DOCINTEL_LOG_LEVEL", kind: "string", choices: ["info", "error"], default: "info", describe: "info, or error: only failed requests are logged" },
  { flag: "max-spools", env: "DOCINTEL_MAX_SPOOLS", kind: "integer", min: 1, default: 16, describe: "chunked uploads (no Content-Length) spooled to the data dir at once, all keys together; more get 503 overloaded with Retry-After" },
  { flag: "max-spools-per-key", env: "DOCINTEL_MAX_SPOOLS_PER_KEY", kind: "integer", min: 1, default: 2, describe: "chunked uploads one API key may have spooling at once; more get 429 rate_limited with Retry-After" },
  { flag: "metrics-listen", env: "DOCINTEL_METRICS_LISTEN", kind: "string", check: (v, source) => void listenAddress(v, source), default: "127.0.0.1:9464", describe: "HOST:PORT of the separate listener that serves GET /metrics (never on the API port); off: no metrics" },
  { flag: "metrics-token", env: "DOCINTEL_METRICS_TOKEN", kind: "string", minLength: 16, describe: "when set, /metrics needs the header Authorization: Bearer <token> (an operator token, not an API key)" },
  { flag: "no-bootstrap-key", env: "DOCINTEL_NO_BOOTSTRAP_KEY", kind: "boolean", default: false, describe: "do not create a key on first start with an empty store (otherwise it is printed on a terminal, or written to DATA/bootstrap-key when the output is a log)" },
];

export type RawOptions = Record<string, string | boolean | undefined>;

/** ConfigError is raised for a bad flag or variable; the CLI prints it and exits 2. */
export class ConfigError extends Error {}

/** sourceOf names where a value came from, as the user typed it: `--flag` or the variable. */
function sourceOf(spec: OptionSpec, fromEnv: boolean): string {
  return fromEnv && spec.env ? spec.env : `--${spec.flag}`;
}

/** parseValue reads one raw value by the option's kind and checks it against its bounds. */
function parseValue(spec: OptionSpec, raw: string | boolean, source: string): string | number | boolean {
  if (spec.kind === "boolean") {
    if (typeof raw === "boolean") return raw;
    const v = raw.trim().toLowerCase();
    if (["1", "true", "yes", "on"].includes(v)) return true;
    if (["0", "false", "no", "off", ""].includes(v)) return false;
    throw new ConfigError(`${source} must be true or false, got '${raw}'`);
  }
  if (typeof raw === "boolean") throw new ConfigError(`${source} needs a value`);
  if (spec.kind === "string") {
    if (spec.choices && !spec.choices.includes(raw)) throw new ConfigError(`${source} must be one of ${spec.choices.join(", ")}, got '${raw}'`);
    if (spec.minLength !== undefined && raw.length < spec.minLength) {
      throw new ConfigError(spec.minLength === 1 ? `${source} must not be empty` : `${source} must be at least ${spec.minLength} characters long, got ${raw.length}`);
    }
    spec.check?.(raw, source);
    return raw;
  }
  let n: number;
  if (spec.kind === "integer") {
    if (!/^-?\d+$/.test(raw.trim())) throw new ConfigError(`${source} must be a whole number, got '${raw}'`);
    n = Number.parseInt(raw, 10);
  } else {
    n = Number(raw);
    if (raw.trim() === "" || !Number.isFinite(n)) throw new ConfigError(`${source} must be a number, got '${raw}'`);
  }
  const { min, max } = spec;
  if ((min !== undefined && n < min) || (max !== undefined && n > max)) {
    const range = min !== undefined && max !== undefined ? `from ${min} to ${max}` : min !== undefined ? `at least ${min}` : `at most ${max}`;
    throw new ConfigError(`${source} must be ${range}, got ${raw}`);
  }
  return n;
}

/**
 * resolveOptions merges flags over the environment over defaults for the given options, each value
 * checked against its option (errors name the flag or variable it came from). Per-command options
 * (env null) are read from the flags only.
 */
export function resolveOptions(specs: OptionSpec[], env: Record<string, string | undefined>, flags: RawOptions): Record<string, string | number | boolean | undefined> {
  const out: Record<string, string | number | boolean | undefined> = {};
  for (const spec of specs) {
    const flagValue = flags[spec.flag];
    const envValue = spec.env ? env[spec.env] : undefined;
    if (flagValue !== undefined) out[spec.flag] = parseValue(spec, flagValue, sourceOf(spec, false));
    else if (envValue !== undefined && envValue !== "") out[spec.flag] = parseValue(spec, envValue, sourceOf(spec, true));
    else out[spec.flag] = typeof spec.default === "function" ? spec.default() : spec.default;
  }
  return out;
}

/** configOf shapes the resolved options into the Config the modules receive. */
function configOf(o: Record<string, string | number | boolean | undefined>, env: Record<string, string | undefined>) {
  return {
    host: String(o.host),
    port: Number(o.port),
    dataDir: resolve(String(o.data)),
    database: databaseOf(o),
    allowPrivateUrls: Boolean(o["allow-private-urls"]),
    webhookSecret: o["webhook-secret"] === undefined ? undefined : String(o["webhook-secret"]),
    /** publicUrl: scheme, host and optional path prefix without a trailing slash; undefined = relative URLs */
    publicUrl: publicUrlOf(o["public-url"]),
    /** anonymous: keyless use of the operations that allow it; plan "none" = off */
    anonymous: { plan: o["anonymous-plan"] as "none" | "free", perIpPerMinute: Number(o["anonymous-rate-per-ip"]) },
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
    /** outboundProxy: the operator's HTTP_PROXY / HTTPS_PROXY (http://host:port) and NO_PROXY, the next hop of Chromium's egress proxy as of the plain fetch */
    outboundProxy: { http: env.HTTP_PROXY || env.http_proxy || null, https: env.HTTPS_PROXY || env.https_proxy || null, noProxy: env.NO_PROXY || env.no_proxy || null },
    officeInstances: Number(o["office-instances"]),
    ocrConcurrency: Number(o["ocr-concurrency"]),
    bwrapPath: String(o["bwrap-path"]),
    compute: { timeoutMs: Number(o["compute-timeout-ms"]), memoryLimitMb: Number(o["compute-memory-mb"]), spares: Number(o["compute-spares"]), maxInterpreters: Number(o["compute-interpreters"]) },
    tasks: { concurrency: Number(o["task-concurrency"]), leaseMs: Number(o["task-lease-ms"]), maxPendingPerKey: Number(o["max-pending-tasks"]) },
    webhooks: { retryScale: Number(o["webhook-retry-scale"]) },
    spools: { max: Number(o["max-spools"]), maxPerKey: Number(o["max-spools-per-key"]) },
    metrics: {
      /** listen: where GET /metrics is served; undefined = nowhere */
      listen: listenAddress(String(o["metrics-listen"] ?? ""), "--metrics-listen"),
      token: o["metrics-token"] === undefined ? undefined : String(o["metrics-token"]),
    },
    logLevel: o["log-level"] as "info" | "error",
    bootstrapKey: !o["no-bootstrap-key"],
    groq: {
      apiKey: env.GROQ_API_KEY || undefined,
      baseUrl: env.GROQ_BASE_URL || undefined,
      transcriptionModel: String(o["transcription-model"]),
      models: { fast: String(o["model-fast"]), accurate: String(o["model-accurate"]), vision: String(o["model-vision"]) },
    },
  };
}

export type Config = ReturnType<typeof configOf>;

/** loadConfig reads and checks the serve options once; throws ConfigError naming the flag or variable at fault. */
export function loadConfig(env: Record<string, string | undefined>, flags: RawOptions = {}): Config {
  return configOf(withStoreDir(resolveOptions(SERVE_OPTIONS, env, flags), env, flags), env);
}

export type { DatabaseChoice };

/** SSL_MODES: libpq's sslmode values, which Bun.SQL takes in the URL */
const SSL_MODES = ["disable", "allow", "prefer", "require", "verify-ca", "verify-full"];

/**
 * databaseUrlOf checks a --database value: "sqlite:", "sqlite:DIR" (DIR returned), or a
 * postgres:// (postgresql://) URL naming a host (or a socket dir as ?host= / ?path=) and a database.
 * The error names `source` and never repeats a password.
 */
function databaseUrlOf(raw: string, source: string): { kind: "sqlite"; dir: string | null } | { kind: "postgres"; url: string } {
  const text = raw.trim();
  if (text.startsWith("sqlite:")) {
    const dir = text.slice("sqlite:".length);
    return { kind: "sqlite", dir: dir === "" ? null : dir };
  }
  const shape = "sqlite: (the SQLite store in --data), sqlite:DIR, or postgres://user:password@host:5432/database";
  if (!/^postgres(ql)?:\/\//i.test(text)) throw new ConfigError(`${source} must be ${shape}, got '${text.replace(/\/\/[^@/]*@/, "//***@")}'`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(`${source} is not a valid URL (a password with @, /, : or # must be percent-encoded); expected ${shape}`);
  }
  const redacted = `postgres://${url.username ? `${url.username}${url.password ? ":***" : ""}@` : ""}${url.host}${url.pathname}`;
  const socket = url.searchParams.get("host") ?? url.searchParams.get("path");
  if (!url.hostname && !socket) throw new ConfigError(`${source} names no host: expected ${shape}, got '${redacted}'`);
  if (url.pathname.replace(/^\/+/, "") === "") throw new ConfigError(`${source} names no database (the path after the host): expected ${shape}, got '${redacted}'`);
  // TLS as libpq spells it (Bun.SQL reads the same parameters): checked here so that the error names the flag
  const sslmode = url.searchParams.get("sslmode");
  if (sslmode !== null && !SSL_MODES.includes(sslmode)) throw new ConfigError(`${source}: sslmode=${sslmode} is not one of ${SSL_MODES.join(", ")} (verify-full with sslrootcert=CA-FILE checks the server's certificate and name)`);
  const rootCert = url.searchParams.get("sslrootcert");
  if (rootCert !== null && !existsSync(rootCert)) throw new ConfigError(`${source}: sslrootcert=${rootCert} does not exist (the CA certificate that signed the database server's certificate)`);
  return { kind: "postgres", url: text };
}

/**
 * withStoreDir applies sqlite:DIR to the data dir: it is the same as --data DIR. Both set to
 * different directories is refused rather than one silently winning.
 */
function withStoreDir<T extends Record<string, string | number | boolean | undefined>>(o: T, env: Record<string, string | undefined>, flags: RawOptions): T {
  const db = databaseUrlOf(String(o.database), "--database");
  if (db.kind !== "sqlite" || db.dir === null) return o;
  const dataSet = flags.data !== undefined || (env.DOCINTEL_DATA ?? "") !== "";
  if (dataSet && resolve(String(o.data)) !== resolve(db.dir)) {
    throw new ConfigError(`--database sqlite:${db.dir} and --data ${o.data} name different data dirs; give one of them`);
  }
  return { ...o, data: db.dir };
}

/** databaseOf shapes the resolved --database, --db-pool-size and --db-statement-timeout-ms */
function databaseOf(o: Record<string, string | number | boolean | undefined>): DatabaseChoice {
  const db = databaseUrlOf(String(o.database), "--database");
  if (db.kind === "sqlite") return { kind: "sqlite", dataDir: resolve(String(o.data)) };
  return { kind: "postgres", url: db.url, poolSize: Number(o["db-pool-size"]), statementTimeoutMs: Number(o["db-statement-timeout-ms"]) };
}

/** databaseFrom resolves only the store options, for CLI commands that open the store. */
export function databaseFrom(env: Record<string, string | undefined>, flags: RawOptions): DatabaseChoice {
  return databaseOf(withStoreDir(resolveOptions(DATABASE_OPTIONS, env, flags), env, flags));
}

/** publicUrlOf checks --public-url and drops a trailing slash; undefined when it is not set. */
function publicUrlOf(raw: string | number | boolean | undefined, source = "--public-url"): string | undefined {
  if (raw === undefined || String(raw).trim() === "") return undefined;
  const text = String(raw).trim();
  let url: URL | null = null;
  try {
    url = new URL(text);
  } catch {}
  if (!url || !/^https?:$/.test(url.protocol) || url.username || url.password || url.search || url.hash || text.includes("?") || text.includes("#")) {
    throw new ConfigError(`${source} must be the http or https URL clients reach the service at, such as https://docs.example.com (no query, fragment or credentials), got '${text}'`);
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
  if (!m || Number(m[3]) > 65535) throw new ConfigError(`${flag} must be HOST:PORT (e.g. 127.0.0.1:9464) or off, got '${raw}'`);
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
  return resolve(String(resolveOptions([DATA_OPTION], env, flags).data));
}
