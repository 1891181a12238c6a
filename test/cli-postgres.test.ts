/**
 * The operator's commands on a PostgreSQL store (issue 18, item 5), run as the CLI against a real
 * throwaway cluster (test/helpers/postgres.ts): `migrate` applies the schema once, `doctor` checks
 * the store, the key commands work on it and say which store they used, and `export` / `import`
 * move a SQLite data dir that a service has used (keys, ledger, holds, tasks, deliveries) into
 * PostgreSQL with the same balances. `serve` still refuses a PostgreSQL URL (test/config.test.ts).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { DatabaseChoice } from "../src/config";
import { SCHEMA_VERSION, checkDatabase } from "../src/store/database";
import { openPostgres } from "../src/store/postgres";
import { openSqliteBackend } from "../src/store/sqliteBackend";
import { FREE_MONTHLY_CREDITS } from "../src/credits/plans";
import { startPostgres, startTlsPostgres, type TestPostgres, type TlsPostgres } from "./helpers/postgres";
import { CLI, ROOT, runCli, tempDir } from "./helpers/server";

let pg: TestPostgres;
const dirs: string[] = [];

beforeAll(async () => {
  pg = await startPostgres();
});

afterAll(async () => {
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
  await pg.stop();
});

function dataDir(): string {
  const d = tempDir();
  dirs.push(d);
  return d;
}

const postgres = (url: string): DatabaseChoice => ({ kind: "postgres", url, poolSize: 2, statementTimeoutMs: 10_000 });
const PERIOD = new Date().toISOString().slice(0, 7);
const nowIso = () => new Date().toISOString();

/** cli runs bin/docintel with stdin from a file (or nothing) */
async function cli(args: string[], stdinFile?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = Bun.spawn([process.execPath, CLI, ...args], { cwd: ROOT, stdin: stdinFile ? Bun.file(stdinFile) : "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

describe("docintel migrate and doctor on PostgreSQL", () => {
  test("migrate applies the schema once and prints its version; a second run finds it current", async () => {
    const url = await pg.newDatabase();
    const first = await cli(["migrate", "--database", url]);
    expect(first.code).toBe(0);
    expect(first.stdout.trim()).toBe(`schema version ${SCHEMA_VERSION}`);
    expect(first.stderr).toContain("applied schema_migrations 1 ");
    expect(first.stderr).toContain("store postgres postgres://docintel@localhost:5432/");
    const second = await cli(["migrate", "--database", url]);
    expect(second.code).toBe(0);
    expect(second.stdout.trim()).toBe(`schema version ${SCHEMA_VERSION} (already current)`);
    expect(second.stderr).not.toContain("applied");
  });

  test("three machines running migrate at once: one applies the schema, all report the same version", async () => {
    const url = await pg.newDatabase();
    const runs = await Promise.all([1, 2, 3].map(() => cli(["migrate", "--database", url])));
    expect(runs.map((r) => r.code)).toEqual([0, 0, 0]);
    expect(runs.filter((r) => r.stderr.includes("applied schema_migrations")).length).toBe(1);
    expect(new Set(runs.map((r) => r.stdout.trim().replace(" (already current)", "")))).toEqual(new Set([`schema version ${SCHEMA_VERSION}`]));
  });

  test("the store check: no schema, current schema, unreachable server, a data dir not made yet", async () => {
    const url = await pg.newDatabase();
    expect(await checkDatabase(postgres(url))).toEqual({ ok: false, detail: "reachable, but no docintel schema: run docintel migrate --database URL" });
    expect((await cli(["migrate", "--database", url])).code).toBe(0);
    const current = await checkDatabase(postgres(url));
    expect(current.ok).toBe(true);
    expect(current.detail).toMatch(new RegExp(`^reachable in \\d+ ms, schema version ${SCHEMA_VERSION} \\(current\\)$`));
    const gone = await checkDatabase(postgres("postgres://nobody:secretpw@127.0.0.1:1/docintel"));
    expect(gone.ok).toBe(false);
    expect(gone.detail).toStartWith("unreachable: open the PostgreSQL store at postgres://nobody:***@127.0.0.1:1/docintel");
    expect(gone.detail).not.toContain("secretpw");
    const fresh = dataDir();
    expect(await checkDatabase({ kind: "sqlite", dataDir: fresh })).toEqual({ ok: true, detail: `no store yet in ${fresh}; the service creates it at first start (schema version ${SCHEMA_VERSION})` });
  });

  test("doctor reports the store it was given", async () => {
    const url = await pg.newDatabase();
    const r = await cli(["doctor", "--database", url]);
    expect(r.stdout).toContain("store (postgres postgres://docintel@localhost:5432/");
    expect(r.stdout).toContain("FAILED   reachable, but no docintel schema: run docintel migrate --database URL");
    expect(r.code).toBe(1);
  }, 60_000);
});

describe("key commands on PostgreSQL", () => {
  test("create, list and revoke work on the database and name it", async () => {
    const url = await pg.newDatabase();
    const created = await runCli(["keys", "create", "--plan", "pro", "--name", "machine-b"], { DOCINTEL_DATABASE: url });
    expect(created.code).toBe(0);
    expect(created.stderr).toContain("store postgres postgres://docintel@localhost:5432/");
    const key = created.stdout.trim().split("\n").at(-1)!;
    expect(key).toMatch(/^dk_[0-9A-Za-z]{32}$/);
    const listed = await runCli(["keys", "list", "--database", url]);
    expect(listed.stdout).toContain("\tpro\tactive\t");
    expect(listed.stdout).toContain("machine-b");
    expect(listed.stdout).not.toContain(key);
    const id = /key_[0-9a-f]+/.exec(listed.stdout)![0];
    expect((await runCli(["keys", "revoke", id, "--database", url])).stdout.trim()).toBe(`revoked ${id}`);
    expect((await runCli(["keys", "list", "--database", url])).stdout).toContain("\tpro\trevoked\t");
    expect((await runCli(["keys", "revoke", "key_nope", "--database", url])).code).toBe(1);
  });

  test("credits grant and show, keys secret and its rotation work on the database", async () => {
    const url = await pg.newDatabase();
    const created = await runCli(["keys", "create", "--plan", "free", "--name", "carol", "--database", url]);
    const id = /created (key_[0-9a-f]+)/.exec(created.stderr)![1]!;
    const grant = await runCli(["credits", "grant", id, "5", "--database", url]);
    expect(grant.code).toBe(0);
    expect(grant.stderr).toContain("store postgres postgres://docintel@localhost:5432/");
    expect(grant.stdout).toContain(`granted 5 credits to ${id}; remaining this month (${PERIOD}): ${FREE_MONTHLY_CREDITS + 5}`);
    const shown = await runCli(["credits", "show", id], { DOCINTEL_DATABASE: url });
    expect(shown.stdout).toMatch(/granted\s+5\n/);
    expect(shown.stdout).toMatch(new RegExp(`remaining\\s+${FREE_MONTHLY_CREDITS + 5}\\n`));
    const secret = await runCli(["keys", "secret", id, "--database", url]);
    expect(secret.stdout.trim()).toMatch(/^whsec_[0-9a-f]{64}$/);
    const rotated = await runCli(["keys", "secret", id, "--rotate", "--database", url]);
    expect(rotated.stderr).toContain(`rotated: the next webhook request of ${id} is signed with this secret`);
    expect(rotated.stdout.trim()).not.toBe(secret.stdout.trim());
    expect((await runCli(["keys", "secret", id, "--database", url])).stdout).toBe(rotated.stdout);
    expect((await runCli(["credits", "show", "key_nope", "--database", url])).code).toBe(1);
  });
});

describe("moving a SQLite data dir into PostgreSQL with export and import", () => {
  test("keys, ledger, holds, tasks, deliveries, signing keys and stored files arrive with the same balance and queue; a second import is refused and changes nothing", async () => {
    // a data dir as a service leaves it: keys, grants and charges, a hold, tasks (one done), a delivery
    const data = dataDir();
    const sqlite = openSqliteBackend(data);
    const keyId = "key_aaaaaaaaaaaa";
    await sqlite.keys.insert({ id: keyId, name: "alice", plan: "free", prefix: "dk_abcdef", key_hash: "h".repeat(64), created_at: nowIso(), webhook_secret: "whsec_" + "y".repeat(24), webhook_secret_at: nowIso() });
    await sqlite.keys.insert({ id: "key_bbbbbbbbbbbb", name: "bob", plan: "pro", prefix: "dk_bcdefg", key_hash: "i".repeat(64), created_at: nowIso(), webhook_secret: null, webhook_secret_at: null });
    const cap = { keyId, allowance: FREE_MONTHLY_CREDITS, period: PERIOD, nowMs: Date.now() };
    const entry = (kind: "grant" | "charge", amount: number) => ({ key_id: keyId, kind, amount, period: PERIOD, operation: kind === "charge" ? "markdown" : null, request_id: null, note: null, created_at: nowIso() });
    await sqlite.credits.grant(entry("grant", 25));
    expect(await sqlite.credits.charge(cap, entry("charge", 9))).toEqual({ ok: true });
    expect(await sqlite.credits.hold(cap, { id: "hold_1", key_id: keyId, amount: 4, period: PERIOD, created_at: nowIso(), expires_at: Date.now() + 600_000 })).toEqual({ ok: true });
    for (let i = 0; i < 50; i++) {
      await sqlite.tasks.insertTask({ id: `task_${String(i).padStart(3, "0")}`, key_id: keyId, operation: "markdown", input: `{"url":"https://example.com/${i}"}`, webhook_url: null, batch_id: null, batch_index: null, hold_id: null, hold_amount: 0, source: null, created_at: nowIso() });
    }
    const claim = (owner: string) => ({ operations: ["markdown"], owner, leaseUntil: Date.now() + 60_000, nowMs: Date.now(), perBatch: 4, startedAt: nowIso() });
    const done = (await sqlite.tasks.claimNext(claim("old")))!;
    expect(await sqlite.tasks.complete(done.id, "old", '{"markdown":"# done"}', 1, nowIso())).toBe(true);
    await sqlite.deliveries.insert({ id: "whd_1", task_id: done.id, key_id: keyId, url: "https://hooks.example/t", payload: '{"task":1}', next_attempt_at: Date.now(), created_at: nowIso() });
    // the data dir's files: the signing keys every machine must share, a large task input, a thumbnail
    const secret = await sqlite.settings.getOrCreate("webhook-secret", () => "whsec_" + "s".repeat(64));
    const urlKey = await sqlite.settings.getOrCreate("url-signing-key", () => "u".repeat(64));
    const input = new Uint8Array(200_000).map((_, i) => (i * 31) % 251);
    await sqlite.blobs.put("inputs/task_010/0", input);
    await sqlite.blobs.put("thumbnails/images/thumb_1.jpg", new Uint8Array([0xff, 0xd8, 0xff, 0xd9]));
    await sqlite.blobs.put("thumbnails/previews/cached.jpg", new Uint8Array([1, 2, 3])); // a cache: does not move
    const before = { totals: await sqlite.credits.totals(keyId, PERIOD, Date.now()), keys: await sqlite.keys.list(), position: await sqlite.tasks.queuePosition("task_033"), delivery: await sqlite.deliveries.get("whd_1") };
    await sqlite.close();

    const file = join(dataDir(), "store.jsonl");
    const exported = await cli(["export", "--data", data]);
    expect(exported.code).toBe(0);
    expect(exported.stderr).toContain(`data dir ${data} (store ${join(data, "docintel.sqlite")})`);
    expect(exported.stderr).toContain("exported 60 lines");
    await Bun.write(file, exported.stdout);

    const url = await pg.newDatabase();
    const imported = await cli(["import", "--database", url], file);
    expect(imported.stderr).toContain("imported 2 api_keys, 2 credit_ledger, 1 credit_holds, 0 batches, 50 tasks, 1 webhook_deliveries, 0 thumbnail_jobs, 2 settings, 2 blobs");
    expect(imported.stdout.trim()).toBe("imported 60 rows");
    expect(imported.code).toBe(0);

    const target = await openPostgres(url, { poolSize: 2, statementTimeoutMs: 10_000, changePollMs: 0 });
    try {
      expect(await target.credits.totals(keyId, PERIOD, Date.now())).toEqual(before.totals);
      expect(await target.keys.list()).toEqual(before.keys);
      expect(await target.tasks.queuePosition("task_033")).toBe(before.position);
      expect(await target.deliveries.get("whd_1")).toEqual(before.delivery);
      // the next task PostgreSQL hands out is the one SQLite would have: acceptance order moved too
      expect((await target.tasks.claimNext(claim("new")))!.id).toBe("task_001");
      // every machine on the database signs with the keys the one machine had
      expect(await target.settings.getOrCreate("webhook-secret", () => "other")).toBe(secret);
      expect(await target.settings.getOrCreate("url-signing-key", () => "other")).toBe(urlKey);
      expect(await target.blobs.get("inputs/task_010/0")).toEqual(input);
      expect(await target.blobs.get("thumbnails/images/thumb_1.jpg")).toEqual(new Uint8Array([0xff, 0xd8, 0xff, 0xd9]));
      expect(await target.blobs.get("thumbnails/previews/cached.jpg")).toBeNull();
    } finally {
      await target.close();
    }

    const again = await cli(["import", "--database", url], file);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("import: table api_keys already has rows; import into an empty database");
    const listed = await runCli(["keys", "list", "--database", url]);
    expect(listed.stdout.trim().split("\n")).toHaveLength(3);
  });

  test("export needs a data dir with a store, import a postgres:// URL", async () => {
    const empty = await cli(["export", "--data", dataDir()]);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain("docintel.sqlite is missing");
    const notPg = await cli(["import", "--database", "sqlite:"]);
    expect(notPg.code).toBe(2);
    expect(notPg.stderr).toContain("--database must be a postgres:// URL: import moves a SQLite export into PostgreSQL");
  });
});

describe("a database on another machine, over TLS", () => {
  let tlsPg: TlsPostgres;
  beforeAll(async () => {
    tlsPg = await startTlsPostgres();
  });
  afterAll(() => tlsPg?.stop());

  test("sslmode=verify-full with the server's CA connects; without TLS, with another CA or a bad sslmode it is refused and says why", async () => {
    const db = (await tlsPg.newDatabase()).match(/\/(test_[0-9_]+)\?/)![1]!;
    // the server refuses TCP without TLS (pg_hba hostnossl reject), so a migrate that succeeds went over TLS
    const verified = await cli(["migrate", "--database", tlsPg.tcpUrl(db, `sslmode=verify-full&sslrootcert=${encodeURIComponent(tlsPg.caFile)}`)]);
    expect(verified.stderr + verified.stdout).toContain(`schema version ${SCHEMA_VERSION}`);
    expect(verified.code).toBe(0);
    const doctor = await cli(["doctor", "--database", tlsPg.tcpUrl(db, `sslmode=verify-full&sslrootcert=${encodeURIComponent(tlsPg.caFile)}`)]);
    expect(doctor.stdout).toMatch(/store \(postgres[^\n]*\)[^\n]*\n?[^\n]*reachable in \d+ ms, schema version \d+ \(current\)/);

    const plain = await cli(["migrate", "--database", tlsPg.tcpUrl(db, "sslmode=disable")]);
    expect(plain.code).toBe(1);
    expect(plain.stderr).toMatch(/no encryption|pg_hba/);

    // a certificate the client was not told to trust
    const otherCa = join(dataDir(), "other-ca.crt");
    const made = Bun.spawnSync(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost", "-keyout", otherCa + ".key", "-out", otherCa]);
    expect(made.exitCode).toBe(0);
    const untrusted = await cli(["migrate", "--database", tlsPg.tcpUrl(db, `sslmode=verify-full&sslrootcert=${encodeURIComponent(otherCa)}`)]);
    expect(untrusted.code).toBe(1);
    expect(untrusted.stderr).toMatch(/certificate/i);

    const bogus = await cli(["migrate", "--database", tlsPg.tcpUrl(db, "sslmode=sometimes")]);
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toContain("--database: sslmode=sometimes is not one of disable, allow, prefer, require, verify-ca, verify-full");
    const missing = await cli(["migrate", "--database", tlsPg.tcpUrl(db, "sslmode=verify-full&sslrootcert=/nonexistent/ca.crt")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("--database: sslrootcert=/nonexistent/ca.crt does not exist");
  });
});
