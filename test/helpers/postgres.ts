/**
 * Test harness for PostgreSQL: a throwaway cluster in a temp dir, started with Debian's `initdb`
 * and `pg_ctl` (package `postgresql`, installed by `make setup`), reachable only on a Unix socket in
 * that dir (no TCP port, so clusters of test files running side by side never collide). PostgreSQL
 * refuses to run as root, so under root (CI) the cluster runs as the system user `docintel-test`,
 * made with useradd when missing. fsync, synchronous_commit and full_page_writes are off: the data
 * is thrown away, and a test should not wait for a disk.
 *
 *   const pg = await startPostgres();          // one cluster per test process, started once
 *   const url = await pg.newDatabase();        // an empty database per test: isolated stores
 *   ...
 *   afterAll(() => pg.stop());                 // also stopped when the process exits
 *
 * startTlsPostgres() starts a second kind of cluster for the TLS tests: it also listens on a free
 * loopback TCP port, with TLS on (a self-signed certificate for "localhost", made with openssl) and
 * a pg_hba that refuses TCP connections without TLS, as a database on another machine would be set up.
 */
import { afterAll, afterEach, beforeAll } from "bun:test";
import { chmodSync, chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** PG_BIN: where Debian bookworm's postgresql-15 keeps initdb, pg_ctl and postgres */
export const PG_BIN = process.env.DOCINTEL_TEST_PG_BIN ?? "/usr/lib/postgresql/15/bin";
/** TEST_USER: the unprivileged system user that runs the cluster when the tests run as root */
const TEST_USER = "docintel-test";
/** PG_USER: the cluster's superuser role; connections over the socket are trusted */
const PG_USER = "docintel";
/** PG_PORT names the socket file (.s.PGSQL.5432); with listen_addresses empty no TCP port is opened */
const PG_PORT = 5432;

export interface TestPostgres {
  /** dir: the temp dir holding the data dir, the socket and the server log */
  dir: string;
  /** url of the cluster's `postgres` database (for admin statements) */
  url: string;
  /** newDatabase creates an empty database and returns its postgres:// URL */
  newDatabase(): Promise<string>;
  /** log: what the server wrote to its log so far (for failed tests) */
  log(): string;
  /** stop shuts the cluster down and removes its dir; calling it again does nothing */
  stop(): Promise<void>;
}

/** TlsPostgres: a cluster that also takes TLS connections on a loopback TCP port */
export interface TlsPostgres extends TestPostgres {
  port: number;
  /** caFile: the server's self-signed certificate, to pass as sslrootcert */
  caFile: string;
  /** tcpUrl: the URL of `database` over TCP with the given query (e.g. "sslmode=verify-full&sslrootcert=...") */
  tcpUrl(database: string, query: string): string;
}

let running: Promise<TestPostgres> | null = null;

/** startPostgres starts this process's cluster, or returns the one already started. */
export function startPostgres(): Promise<TestPostgres> {
  running ??= start().catch((error) => {
    running = null;
    throw error;
  });
  return running;
}

/**
 * stopSharedPostgres stops this test process's shared cluster, if one was started. `bun test` emits
 * no "exit" event, so the exit handler of startPostgres never runs there: test/helpers/afterRun.ts
 * (preloaded by bunfig.toml) calls this once after every test file has run.
 */
export async function stopSharedPostgres(): Promise<void> {
  const pg = await running?.catch(() => null);
  await pg?.stop();
}

/** socketUrl is the URL Bun.SQL takes for a database reached over the Unix socket in `dir`. */
export function socketUrl(dir: string, database: string, port = PG_PORT): string {
  return `postgres://${PG_USER}@localhost:${port}/${database}?path=${encodeURIComponent(dir)}`;
}

/** startTlsPostgres starts a cluster of its own with TLS on loopback TCP (see the header); stop it after. */
export async function startTlsPostgres(): Promise<TlsPostgres> {
  const server = Bun.serve({ port: 0, fetch: () => new Response() });
  const port = server.port!;
  server.stop(true);
  const pg = await start({ tcpPort: port });
  const caFile = join(pg.dir, "server.crt");
  return { ...pg, port, caFile, tcpUrl: (database, query) => `postgres://${PG_USER}@localhost:${port}/${database}?${query}` };
}

async function start(o: { tcpPort?: number } = {}): Promise<TestPostgres> {
  if (!existsSync(join(PG_BIN, "initdb"))) {
    throw new Error(`PostgreSQL is not installed: ${PG_BIN}/initdb is missing (run \`make setup\`, which installs Debian's postgresql)`);
  }
  const asUser = process.getuid?.() === 0 ? ensureTestUser() : null;
  const dir = mkdtempSync(join(tmpdir(), "docintel-pg-"));
  if (asUser) chownSync(dir, asUser.uid, asUser.gid);
  const data = join(dir, "data");
  const logFile = join(dir, "server.log");
  const run = (args: string[]) => runAs(asUser ? TEST_USER : null, args);

  await run([join(PG_BIN, "initdb"), "-D", data, "-U", PG_USER, "--auth=trust", "--no-sync", "--encoding=UTF8", "--locale=C"]);
  const tls: string[] = [];
  if (o.tcpPort) {
    const made = Bun.spawnSync(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost",
      "-keyout", join(dir, "server.key"), "-out", join(dir, "server.crt")]);
    if (made.exitCode !== 0) throw new Error(`openssl req failed: ${made.stderr.toString().trim()}`);
    chmodSync(join(dir, "server.key"), 0o600);
    if (asUser) for (const f of ["server.key", "server.crt"]) chownSync(join(dir, f), asUser.uid, asUser.gid);
    // TCP only with TLS: hostnossl first refuses a plain connection, hostssl takes the rest
    writeFileSync(join(data, "pg_hba.conf"), "local all all trust\nhostnossl all all 127.0.0.1/32 reject\nhostssl all all 127.0.0.1/32 trust\n");
    tls.push("-c listen_addresses=127.0.0.1", "-c ssl=on", `-c ssl_cert_file='${join(dir, "server.crt")}'`, `-c ssl_key_file='${join(dir, "server.key")}'`);
  }
  const options = [
    ...(o.tcpPort ? tls : ["-c listen_addresses=''"]),
    `-c unix_socket_directories='${dir}'`,
    `-p ${o.tcpPort ?? PG_PORT}`,
    "-c fsync=off",
    "-c synchronous_commit=off",
    "-c full_page_writes=off",
    "-c max_connections=200",
  ].join(" ");
  await run([join(PG_BIN, "pg_ctl"), "start", "-D", data, "-l", logFile, "-w", "-t", "30", "-o", options]);

  let stopped = false;
  let databases = 0;
  const stopNow = () => {
    if (stopped) return;
    stopped = true;
    // SIGQUIT is PostgreSQL's immediate shutdown; synchronous, so it also works in an exit handler
    const pid = postmasterPid(data);
    if (pid) {
      try {
        process.kill(pid, "SIGQUIT");
      } catch {
        // already gone
      }
      // wait (synchronously, up to 5 s) for the server to go: removing its dir while it still writes
      // there left the dir behind after every bench run that ended through this exit handler
      for (let waited = 0; waited < 5_000 && isAlive(pid); waited += 20) Bun.sleepSync(20);
    }
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  };
  process.once("exit", stopNow);

  const port = o.tcpPort ?? PG_PORT;
  const adminUrl = socketUrl(dir, "postgres", port);
  return {
    dir,
    url: adminUrl,
    async newDatabase() {
      const name = `test_${process.pid}_${++databases}`;
      const admin = new Bun.SQL(adminUrl, { max: 1 });
      try {
        await admin.unsafe(`CREATE DATABASE ${name}`);
      } finally {
        await admin.close();
      }
      return socketUrl(dir, name, port);
    },
    log: () => (existsSync(logFile) ? readFileSync(logFile, "utf8") : ""),
    async stop() {
      if (stopped) return;
      process.removeListener("exit", stopNow);
      const pid = postmasterPid(data);
      if (pid) {
        try {
          await run([join(PG_BIN, "pg_ctl"), "stop", "-D", data, "-m", "immediate", "-w", "-t", "10"]);
        } catch {
          // stopNow below kills what pg_ctl could not stop
        }
      }
      stopNow();
      if (!o.tcpPort) running = null;
    },
  };
}

function postmasterPid(data: string): number | null {
  try {
    const pid = Number(readFileSync(join(data, "postmaster.pid"), "utf8").split("\n")[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** ensureTestUser makes the system user that runs test clusters (root only) and returns its ids. */
function ensureTestUser(): { uid: number; gid: number } {
  let entry = Bun.spawnSync(["getent", "passwd", TEST_USER]);
  if (entry.exitCode !== 0) {
    const made = Bun.spawnSync(["useradd", "--system", "--no-create-home", "--home-dir", "/nonexistent", "--shell", "/usr/sbin/nologin", TEST_USER]);
    // exit 9: another test process made it meanwhile
    if (made.exitCode !== 0 && made.exitCode !== 9) throw new Error(`useradd ${TEST_USER} failed: ${made.stderr.toString().trim()}`);
    entry = Bun.spawnSync(["getent", "passwd", TEST_USER]);
  }
  const fields = entry.stdout.toString().trim().split(":");
  return { uid: Number(fields[2]), gid: Number(fields[3]) };
}

async function runAs(user: string | null, args: string[]): Promise<void> {
  const argv = user ? ["runuser", "-u", user, "--", ...args] : args;
  const proc = Bun.spawn(argv, { stdin: "ignore", stdout: "pipe", stderr: "pipe", env: { ...process.env, LC_ALL: "C" } });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`${args.map((a) => a.split("/").pop()).slice(0, 2).join(" ")} exited ${code}: ${(err || out).trim().slice(-2000)}`);
}

/**
 * clusterPerFile: the usual set-up of a test file that opens stores on both backends: this process's
 * cluster started before the file's tests and stopped after them, and every store a test pushes onto
 * `opened` closed when that test ends (the cluster allows 200 connections).
 */
export function clusterPerFile(): { cluster: () => TestPostgres; opened: { close(): Promise<void> }[] } {
  let pg: TestPostgres | null = null;
  const opened: { close(): Promise<void> }[] = [];
  beforeAll(async () => {
    pg = await startPostgres();
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((s) => s.close().catch(() => undefined)));
  });
  afterAll(async () => {
    await pg?.stop();
  });
  return { cluster: () => pg!, opened };
}

/** isAlive says whether a process of that pid still exists (signal 0 tests without sending) */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
