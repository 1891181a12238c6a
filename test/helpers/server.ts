/**
 * Test harness: starts the real service (`bin/docintel serve`) as a child process on a free
 * loopback port with its own data dir, on SQLite (the store in that data dir) or on PostgreSQL
 * (`database`: a database of the throwaway cluster of test/helpers/postgres.ts), and makes keys in
 * whichever store the server uses.
 *
 * DOCINTEL_TEST_DATABASE=postgres makes PostgreSQL the default of startServer: each data dir gets
 * its own fresh database, so a server started with another's `dataDir` (a restart, a second process)
 * finds the same store, as on SQLite. `make test-postgres` runs the store-facing test files so
 * (docs/postgres.md, "Tests on both backends").
 */
import { afterAll, beforeAll } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { openStore, type Store } from "../../src/store";
import { openDatabase, type OpenDatabase } from "../../src/store/database";
import type { DatabaseChoice } from "../../src/runtime/database";
import { newApiKey } from "../../src/security/apiKeys";
import type { Plan } from "../../src/store/states";
import { startPostgres } from "./postgres";

export const ROOT = resolve(import.meta.dir, "../..");
export const CLI = join(ROOT, "bin/docintel");

/** TestBackend: the store a test server runs on */
export type TestBackend = "sqlite" | "postgres";

/** TEST_DATABASE: the default backend of startServer, from DOCINTEL_TEST_DATABASE (sqlite unless "postgres") */
export const TEST_DATABASE: TestBackend = testDatabaseOf(process.env.DOCINTEL_TEST_DATABASE);

function testDatabaseOf(value: string | undefined): TestBackend {
  if (value === undefined || value === "" || value === "sqlite") return "sqlite";
  if (value === "postgres") return "postgres";
  throw new Error(`DOCINTEL_TEST_DATABASE=${value}: use sqlite (the default) or postgres`);
}

/** madeDirs: the directories tempDir made in this test run, removed after the last test file (test/helpers/afterRun.ts) */
const madeDirs: string[] = [];

/** removeTempDirs removes what tempDir made and the tests left (about 50 directories a `make test`, Chromium profiles among them) */
export function removeTempDirs(): void {
  for (const dir of madeDirs.splice(0)) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}

/** tempDir: a fresh directory under the system's temporary directory, removed at the end of the run if a test has not removed it */
export function tempDir(prefix = "docintel-test-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  madeDirs.push(dir);
  return dir;
}

export async function freePort(): Promise<number> {
  const s = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = s.port!;
  s.stop(true);
  return port;
}

/** databasesByDataDir: the PostgreSQL database of each data dir given to startServer, so that servers on one data dir share one store */
const databasesByDataDir = new Map<string, Promise<string>>();

/**
 * newTestDatabase: an empty PostgreSQL database of this test process's throwaway cluster (started on
 * first use, stopped at exit); with `dataDir`, the one database of that data dir.
 */
export function newTestDatabase(dataDir?: string): Promise<string> {
  const make = () => startPostgres().then((pg) => pg.newDatabase());
  if (!dataDir) return make();
  let url = databasesByDataDir.get(dataDir);
  if (!url) databasesByDataDir.set(dataDir, (url = make()));
  return url;
}

export interface TestServer {
  url: string;
  port: number;
  dataDir: string;
  /** backend: the store the server runs on */
  backend: TestBackend;
  /** database: the postgres:// URL the server runs on, or "sqlite:" (the store in dataDir) */
  database: string;
  /** storeArgs: the flags that point a CLI command at this server's store (`runCli(["keys", "list", ...server.storeArgs])`) */
  storeArgs: string[];
  proc: Bun.Subprocess;
  /** lines the server printed on stdout so far */
  stdout(): string;
  stderr(): string;
  /** a new API key on the given plan (and name), made in the server's store as `docintel keys create` makes it */
  key(plan?: Plan, name?: string): Promise<{ key: string; id: string }>;
  /** openBackend: the server's store behind StoreBackend, either backend (opened once, closed by stop) */
  openBackend(): Promise<OpenDatabase>;
  /**
   * sql runs one statement on the server's store, either backend, and returns its rows: for tests that
   * look at rows or set them up. `?` placeholders; write SQL both dialects read, and cast what
   * PostgreSQL returns as int8 (count(*), SUM, the unix-ms columns), which Bun.SQL gives as a string:
   * `SELECT CAST(count(*) AS INTEGER) AS n FROM tasks`.
   */
  sql<T = Record<string, unknown>>(text: string, ...params: (string | number | null)[]): Promise<T[]>;
  /** store: the server's SQLite store, for SQLite-only tests; throws on PostgreSQL (use sql, openBackend or the API) */
  store(): Store;
  stop(signal?: NodeJS.Signals): Promise<number>;
}

export interface StartOptions {
  args?: string[];
  env?: Record<string, string>;
  dataDir?: string;
  /**
   * database: "sqlite" (the store in the data dir), "postgres" (the database of the data dir, made
   * on first use) or a postgres:// URL (several servers on one database). Default:
   * DOCINTEL_TEST_DATABASE (sqlite).
   */
  database?: TestBackend | string;
  /** logFile: send the server's stdout (the request log) to this file instead of a pipe to the test */
  logFile?: string;
}

/** databaseOf resolves StartOptions.database to "sqlite:" or a postgres:// URL */
async function databaseOf(options: StartOptions, dataDir: string): Promise<string> {
  const wanted = options.database ?? TEST_DATABASE;
  if (wanted === "sqlite") return "sqlite:";
  // keyed by the data dir, given or made: a later server started with this server's dataDir shares its database
  if (wanted === "postgres") return newTestDatabase(dataDir);
  if (/^postgres(ql)?:\/\//.test(wanted)) return wanted;
  throw new Error(`startServer: database '${wanted}' is neither sqlite, postgres nor a postgres:// URL`);
}

/** choiceOf: the DatabaseChoice src/store/database.ts opens for a test server's store */
function choiceOf(database: string, dataDir: string): DatabaseChoice {
  return database === "sqlite:" ? { kind: "sqlite", dataDir } : { kind: "postgres", url: database, poolSize: 4, statementTimeoutMs: 30_000 };
}

/** startServer launches the service and waits until /healthz answers. */
export async function startServer(options: StartOptions = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? tempDir();
  const database = await databaseOf(options, dataDir);
  const backendKind: TestBackend = database === "sqlite:" ? "sqlite" : "postgres";
  const port = await freePort();
  const databaseArgs = backendKind === "postgres" ? ["--database", database] : [];
  // no metrics listener unless a test asks for one (--metrics-listen): test servers run side by
  // side and would all want the default 127.0.0.1:9464. A DOCINTEL_DATABASE of the shell that runs
  // the tests must not move a server onto another store: the store is the test's choice.
  const env: Record<string, string | undefined> = { ...process.env, DOCINTEL_LOG_LEVEL: "info", DOCINTEL_METRICS_LISTEN: "off", ...options.env };
  if (!options.env?.DOCINTEL_DATABASE) delete env.DOCINTEL_DATABASE;
  const proc = Bun.spawn([process.execPath, CLI, "serve", "--host", "127.0.0.1", "--port", String(port), "--data", dataDir, ...databaseArgs, ...(options.args ?? [])], {
    cwd: ROOT,
    stdin: "ignore",
    stdout: options.logFile ? Bun.file(options.logFile) : "pipe",
    stderr: "pipe",
    env,
  });
  let out = "";
  let err = "";
  const pump = async (stream: ReadableStream<Uint8Array>, add: (s: string) => void) => {
    const decoder = new TextDecoder();
    const reader = stream.getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) add(decoder.decode(next.value, { stream: true }));
  };
  if (proc.stdout instanceof ReadableStream) void pump(proc.stdout, (s) => (out += s));
  void pump(proc.stderr as ReadableStream<Uint8Array>, (s) => (err += s));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`server exited with ${proc.exitCode}: ${err}`);
    try {
      const r = await fetch(`${url}/healthz`);
      if (r.ok) break;
    } catch {}
    if (Date.now() > deadline) throw new Error(`server did not start: ${err}`);
    await Bun.sleep(50);
  }
  let store: Store | null = null;
  let backend: Promise<OpenDatabase> | null = null;
  const openBackend = () => (backend ??= openDatabase(choiceOf(database, dataDir)));
  return {
    url,
    port,
    dataDir,
    backend: backendKind,
    database,
    storeArgs: backendKind === "postgres" ? ["--database", database] : ["--data", dataDir],
    proc,
    stdout: () => out,
    stderr: () => err,
    openBackend,
    async sql<T>(text: string, ...params: (string | number | null)[]): Promise<T[]> {
      const open = await openBackend();
      if (open.kind === "sqlite") return open.store.db.query<T, (string | number | null)[]>(text).all(...params);
      let n = 0;
      return [...(await open.sql.unsafe(text.replace(/\?/g, () => `$${++n}`), params))] as T[];
    },
    store() {
      if (backendKind === "postgres") {
        throw new Error(`server.store() is the SQLite store of a data dir, but this server runs on PostgreSQL (${database}); read it through server.sql(), server.openBackend() (StoreBackend) or the API, or start it with database: "sqlite"`);
      }
      return (store ??= openStore(dataDir));
    },
    async key(plan: Plan = "pro", name = "test") {
      // as `docintel keys create` makes a key, on either backend
      const made = newApiKey(plan, name);
      await (await openBackend()).keys.insert(made.row);
      return { key: made.key, id: made.info.id };
    },
    async stop(signal: NodeJS.Signals = "SIGTERM") {
      store?.close();
      store = null;
      const open = backend;
      backend = null;
      await (await open)?.close();
      if (proc.exitCode === null) proc.kill(signal);
      const code = await proc.exited;
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}

/** ServedKey is what withServer hands its test file: the server and one key on it. */
export interface ServedKey {
  server: TestServer;
  key: string;
}

/**
 * withServer starts, before the tests of the enclosing describe block (or file), a docintel server
 * with `options`, makes a key on `options.plan` (default pro), and hands both to `assign`; the server
 * stops after the block. withGroqProvider (groqServer.ts) does the same with an AI provider.
 */
export function withServer(options: StartOptions & { plan?: Plan }, assign: (served: ServedKey) => void): void {
  let served: ServedKey | undefined;
  beforeAll(async () => {
    const { plan = "pro", ...start } = options;
    const server = await startServer(start);
    served = { server, key: (await server.key(plan)).key };
    assign(served);
  });
  afterAll(() => served?.server.stop());
}

/** runCli runs `bin/docintel` with args and returns its exit code and output. */
export async function runCli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = Bun.spawn([process.execPath, CLI, ...args], { cwd: ROOT, stdin: "ignore", stdout: "pipe", stderr: "pipe", env: { ...process.env, ...env } });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

/** form builds multipart form data from plain values and files. */
export function form(fields: Record<string, string | Blob | Blob[]>): FormData {
  const fd = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (Array.isArray(value)) for (const v of value) fd.append(name, v);
    else fd.append(name, value);
  }
  return fd;
}

/** ApiAnswer: what a test reads of a response; `body` is the parsed JSON (undefined when the answer is not JSON). */
export interface ApiAnswer {
  status: number;
  body: any;
  text: string;
  headers: Headers;
}

/** api sends one request with the key (a FormData body goes as multipart) and reads the answer. */
export async function api(server: TestServer, key: string, method: string, path: string, body?: FormData, headers: Record<string, string> = {}): Promise<ApiAnswer> {
  const r = await fetch(`${server.url}${path}`, { method, body, headers: { "X-API-Key": key, ...headers } });
  const text = await r.text();
  const json = (r.headers.get("content-type") ?? "").includes("json") ? JSON.parse(text) : undefined;
  return { status: r.status, body: json, text, headers: r.headers };
}

/** pollTask GETs /api/v1/jobs/{taskId} until the task has ended (completed, failed or cancelled) and returns that record. */
export async function pollTask(server: TestServer, key: string, taskId: string, ms = 30_000): Promise<any> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const body = (await (await fetch(`${server.url}/api/v1/jobs/${taskId}`, { headers: { "X-API-Key": key } })).json()) as any;
    if (["completed", "failed", "cancelled"].includes(body.status)) return body;
    await Bun.sleep(100);
  }
  throw new Error(`task ${taskId} did not end within ${ms} ms`);
}
