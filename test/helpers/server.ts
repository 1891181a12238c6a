/**
 * Test harness: starts the real service (`bin/docintel serve`) as a child process on a free
 * loopback port with its own data dir, and opens the same SQLite store for setting up keys.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { openStore, type Store } from "../../src/store";
import { openSqliteBackend, type SqliteBackend } from "../../src/store/sqliteBackend";
import { createApiKey } from "../../src/security/apiKeys";
import type { Plan } from "../../src/store/states";

export const ROOT = resolve(import.meta.dir, "../..");
export const CLI = join(ROOT, "bin/docintel");

export function tempDir(prefix = "docintel-test-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export async function freePort(): Promise<number> {
  const s = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = s.port!;
  s.stop(true);
  return port;
}

export interface TestServer {
  url: string;
  port: number;
  dataDir: string;
  proc: Bun.Subprocess;
  /** lines the server printed on stdout so far */
  stdout(): string;
  stderr(): string;
  /** a new API key on the given plan, made in the server's store */
  key(plan?: Plan): Promise<{ key: string; id: string }>;
  store(): Store;
  /** backend: the server's store behind StoreBackend (a second connection, as the CLI would open) */
  backend(): SqliteBackend;
  stop(signal?: NodeJS.Signals): Promise<number>;
}

export interface StartOptions {
  args?: string[];
  env?: Record<string, string>;
  dataDir?: string;
  /** logFile: send the server's stdout (the request log) to this file instead of a pipe to the test */
  logFile?: string;
}

/** startServer launches the service and waits until /healthz answers. */
export async function startServer(options: StartOptions = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? tempDir();
  const port = await freePort();
  const proc = Bun.spawn([process.execPath, CLI, "serve", "--host", "127.0.0.1", "--port", String(port), "--data", dataDir, ...(options.args ?? [])], {
    cwd: ROOT,
    stdin: "ignore",
    stdout: options.logFile ? Bun.file(options.logFile) : "pipe",
    stderr: "pipe",
    // no metrics listener unless a test asks for one (--metrics-listen): test servers run side by
    // side and would all want the default 127.0.0.1:9464
    env: { ...process.env, DOCINTEL_LOG_LEVEL: "info", DOCINTEL_METRICS_LISTEN: "off", ...options.env },
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
  let backend: SqliteBackend | null = null;
  return {
    url,
    port,
    dataDir,
    proc,
    stdout: () => out,
    stderr: () => err,
    store: () => (store ??= openStore(dataDir)),
    backend: () => (backend ??= openSqliteBackend(dataDir)),
    async key(plan: Plan = "pro") {
      const { key, info } = createApiKey((store ??= openStore(dataDir)), plan, "test");
      return { key, id: info.id };
    },
    async stop(signal: NodeJS.Signals = "SIGTERM") {
      store?.close();
      store = null;
      await backend?.close();
      backend = null;
      if (proc.exitCode === null) proc.kill(signal);
      const code = await proc.exited;
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
      return code;
    },
  };
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
