/**
 * What the processes and machines on one store share, through the modules that use it (issue 18):
 * the key cache (a revocation by another handle or process is refused within a second), rate-limit
 * windows, settings (signing secrets) made once, the bootstrap key and the anonymous key made once.
 * Each test runs on both backends: SQLite (several handles on one data dir, as processes sharing it)
 * and PostgreSQL (several pools on one database of a throwaway cluster, as machines).
 */
import { describe, expect, test } from "bun:test";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AnonymousAccess } from "../src/app/anonymous";
import type { RequestContext } from "../src/http/context";
import { RateLimiter } from "../src/credits/rateLimit";
import { createApiKey, createBootstrapKey, KeyResolver, listApiKeys, revokeApiKey, type ApiKeyInfo } from "../src/security/apiKeys";
import type { StoreBackend } from "../src/store/backend";
import { openPostgres } from "../src/store/postgres";
import { openSqliteBackend } from "../src/store/sqliteBackend";
import { resolveUrlSigningKey, URL_SIGNING_KEY_SETTING } from "../src/thumbnails/signing";
import { resolveWebhookSecret, WEBHOOK_SECRET_SETTING } from "../src/webhooks/secret";
import { clusterPerFile } from "./helpers/postgres";
import { CLI, ROOT, tempDir } from "./helpers/server";

const { cluster, opened } = clusterPerFile();

type Kind = StoreBackend["kind"];

interface Shared {
  /** where: the store as the CLI names it (--database): sqlite:DIR or the postgres:// URL */
  where: string;
  handles: StoreBackend[];
}

/** sharedStore opens `n` handles on one fresh store: processes on a data dir (SQLite) or machines on a database (PostgreSQL) */
async function sharedStore(kind: Kind, n: number): Promise<Shared> {
  if (kind === "sqlite") {
    const dir = tempDir();
    const handles = Array.from({ length: n }, () => openSqliteBackend(dir));
    opened.push(...handles);
    return { where: `sqlite:${dir}`, handles };
  }
  const url = await cluster().newDatabase();
  // changePollMs as the service's: NOTIFY, and a poll of the sequence every second behind it
  const first = await openPostgres(url, { poolSize: 4, statementTimeoutMs: 10_000 });
  const rest = await Promise.all(Array.from({ length: n - 1 }, () => openPostgres(url, { poolSize: 4, statementTimeoutMs: 10_000 })));
  opened.push(first, ...rest);
  return { where: url, handles: [first, ...rest] };
}

/** resolved awaits what KeyResolver.resolve answers (a value when cached, else a promise) */
async function resolved(resolver: KeyResolver, key: string): Promise<ApiKeyInfo> {
  return resolver.resolve(key);
}

/** refusedWithin polls `resolver` with `key` until it is refused as revoked; the ms it took from `since` */
async function refusedWithin(resolver: KeyResolver, key: string, since: number, limitMs: number): Promise<number> {
  for (;;) {
    try {
      await resolved(resolver, key);
    } catch (error) {
      expect((error as Error).message).toContain("revoked");
      return performance.now() - since;
    }
    if (performance.now() - since > limitMs) throw new Error(`the revocation was not seen within ${limitMs} ms`);
    await Bun.sleep(5);
  }
}

function cli(args: string[]) {
  return Bun.spawn([process.execPath, CLI, ...args], { cwd: ROOT, stdin: "ignore", stdout: "pipe", stderr: "pipe", env: { ...process.env } });
}

/** storeFlags: the CLI's flags naming the store */
const storeFlags = (where: string) => (where.startsWith("sqlite:") ? ["--data", where.slice("sqlite:".length)] : ["--database", where]);

for (const kind of ["sqlite", "postgres"] as const) {
  describe(kind, () => {
    test("a key revoked through another handle is refused by the resolver within a second; a cached key is answered without an await", async () => {
      const { handles } = await sharedStore(kind, 2);
      const [a, b] = handles as [StoreBackend, StoreBackend];
      const resolver = new KeyResolver(a);
      const { key, info } = await createApiKey(b.keys, "pro", "shared");
      expect((await resolved(resolver, key)).id).toBe(info.id);
      // the fast path: once cached, a value, not a promise (on PostgreSQL the key insert's NOTIFY may
      // arrive after the first read and move the stamp once: read until the cache holds, within 1 s)
      let again = resolver.resolve(key);
      for (const until = Date.now() + 1_000; again instanceof Promise && Date.now() < until; again = resolver.resolve(key)) await again;
      expect(again instanceof Promise).toBe(false);
      expect((again as ApiKeyInfo).id).toBe(info.id);
      const revokedAt = performance.now();
      expect(await revokeApiKey(b.keys, info.id)).toBe(true);
      expect(await refusedWithin(resolver, key, revokedAt, 1_000)).toBeLessThan(1_000);
      // and by id (preview links, the anonymous key)
      const byId = await resolver.byId(info.id);
      expect(byId!.revokedAt).not.toBeNull();
    });

    test("a key revoked by `docintel keys revoke` in another process is refused within a second of that process's end", async () => {
      const { where, handles } = await sharedStore(kind, 1);
      const resolver = new KeyResolver(handles[0]!);
      const { key, info } = await createApiKey(handles[0]!.keys, "free", "revoked elsewhere");
      expect((await resolved(resolver, key)).id).toBe(info.id);
      const proc = cli(["keys", "revoke", info.id, ...storeFlags(where)]);
      // the key keeps working while the other process starts
      const stillValid = await resolved(resolver, key);
      expect(stillValid.revokedAt).toBeNull();
      expect(await proc.exited).toBe(0);
      expect(await new Response(proc.stdout).text()).toContain(`revoked ${info.id}`);
      expect(await refusedWithin(resolver, key, performance.now(), 1_000)).toBeLessThan(1_000);
    }, 60_000);

    test("last use is written after the request, once a minute per key, and seen by the other handles", async () => {
      const { handles } = await sharedStore(kind, 2);
      const [a, b] = handles as [StoreBackend, StoreBackend];
      const failures: unknown[] = [];
      const resolver = new KeyResolver(a, (error) => failures.push(error));
      const { key, info } = await createApiKey(b.keys, "pro");
      const first = await resolved(resolver, key);
      expect(first.lastUsedAt).not.toBeNull();
      for (let i = 0; i < 20; i++) await resolved(resolver, key);
      await resolver.flushTouches();
      const row = await b.keys.byId(info.id);
      expect(row!.last_used_at).toBe(first.lastUsedAt);
      expect(failures).toEqual([]);
    });

    test("a key read again before its touch was written is not touched twice in the minute (the caches emptied between requests)", async () => {
      const { handles } = await sharedStore(kind, 1);
      const [a] = handles as [StoreBackend];
      let turns = 0;
      // every lookup sees a new change stamp: the cache is emptied before each request, as a NOTIFY arriving late does
      const moving = { keys: a.keys, changeStamp: () => String(turns++) };
      const written: string[] = [];
      const keys = { ...a.keys, touch: async (id: string, at: string) => void written.push(at) };
      const resolver = new KeyResolver({ ...moving, keys });
      const { key } = await createApiKey(a.keys, "pro");
      const first = await resolved(resolver, key);
      for (let i = 0; i < 10; i++) expect((await resolved(resolver, key)).lastUsedAt).toBe(first.lastUsedAt);
      await resolver.flushTouches();
      expect(written).toEqual([first.lastUsedAt!]);
    });

    test("flushTouches waits for the write the turn's own flush has already started", async () => {
      const { handles } = await sharedStore(kind, 1);
      const [a] = handles as [StoreBackend];
      const written: string[] = [];
      // a slow store: the write the resolver starts after the request's turn is still on its way
      const keys = { ...a.keys, touch: async (id: string, at: string) => void (await Bun.sleep(200), written.push(at)) };
      const resolver = new KeyResolver({ keys, changeStamp: (topic) => a.changeStamp(topic) });
      const { key } = await createApiKey(a.keys, "pro");
      const first = await resolved(resolver, key);
      await new Promise((done) => setImmediate(done)); // the turn's flush has taken the queue
      await resolver.flushTouches();
      expect(written).toEqual([first.lastUsedAt!]);
    });

    test("two handles' rate limiters share each key's window: together never more than the limit, short of it by at most a reservation each", async () => {
      const { handles } = await sharedStore(kind, 2);
      const limiters = handles.map((h) => new RateLimiter(h.counters));
      const limit = 30;
      // the window of this minute: if the minute turns during the test, start again in the next
      for (;;) {
        const minute = Math.floor(Date.now() / 60_000);
        const keyId = `key_rl_${minute}_${Math.random().toString(36).slice(2)}`;
        const decisions = await Promise.all(limiters.flatMap((l) => Array.from({ length: 40 }, () => l.consume(keyId, limit))));
        if (Math.floor(Date.now() / 60_000) !== minute) continue;
        const allowed = decisions.filter((d) => d.allowed).length;
        expect(allowed).toBeLessThanOrEqual(limit);
        expect(allowed).toBeGreaterThanOrEqual(limit - 2 * Math.floor(limit / 10));
        // a third process arriving now is refused: the shared count is full
        const late = await new RateLimiter(handles[0]!.counters).consume(keyId, limit);
        expect(late.allowed).toBe(false);
        break;
      }
    });

    test("settings made from two handles at once agree: the webhook secret, the URL signing key", async () => {
      const { handles } = await sharedStore(kind, 2);
      const secrets = await Promise.all(Array.from({ length: 10 }, (_, i) => resolveWebhookSecret(handles[i % 2]!.settings)));
      expect(new Set(secrets.map((s) => s.secret)).size).toBe(1);
      expect(secrets[0]!.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
      expect(secrets[0]!.source).toBe("store");
      const signingKeys = await Promise.all(Array.from({ length: 10 }, (_, i) => resolveUrlSigningKey(handles[i % 2]!.settings)));
      expect(new Set(signingKeys).size).toBe(1);
      expect(signingKeys[0]).toMatch(/^[0-9a-f]{64}$/);
      // the flag wins and is not stored
      expect(await resolveWebhookSecret(handles[1]!.settings, "from-the-operator")).toEqual({ secret: "from-the-operator", source: "flag" });
      expect((await resolveWebhookSecret(handles[1]!.settings)).secret).toBe(secrets[0]!.secret);
    });

    test("the bootstrap key is made once when three processes start on an empty store at once", async () => {
      const { where, handles } = await sharedStore(kind, 1);
      const MACHINE = new URL("./helpers/keyMachine.ts", import.meta.url).pathname;
      const startMs = Date.now() + 2_500; // every process has opened the store by then: they act together
      const procs = [0, 1, 2].map(() => Bun.spawn([process.execPath, MACHINE, "bootstrap", where, String(startMs)], { stdin: "ignore", stdout: "pipe", stderr: "pipe" }));
      const outcomes = await Promise.all(
        procs.map(async (p) => {
          const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
          expect(code, err).toBe(0);
          return JSON.parse(out) as { made: string | null };
        }),
      );
      const made = outcomes.map((o) => o.made).filter((id) => id !== null);
      expect(made).toHaveLength(1);
      const keys = await listApiKeys(handles[0]!.keys);
      expect(keys.map((k) => [k.id, k.name, k.plan])).toEqual([[made[0]!, "bootstrap", "pro"]]);
      // a later start makes none, in this process too
      expect(await createBootstrapKey(handles[0]!)).toBeNull();
    }, 60_000);

    test("the bootstrap key is made once under concurrency within processes too, and never once the store has keys", async () => {
      const { handles } = await sharedStore(kind, 3);
      const made = (await Promise.all(handles.flatMap((h) => [createBootstrapKey(h), createBootstrapKey(h)]))).filter((m) => m !== null);
      expect(made).toHaveLength(1);
      expect((await listApiKeys(handles[1]!.keys)).filter((k) => k.name === "bootstrap")).toHaveLength(1);
      const fresh = await sharedStore(kind, 1);
      await createApiKey(fresh.handles[0]!.keys, "free", "made first");
      expect(await createBootstrapKey(fresh.handles[0]!)).toBeNull();
    });

    test("keyless requests on two handles at once share one anonymous key", async () => {
      const { handles } = await sharedStore(kind, 2);
      const ctx = (): RequestContext => ({ id: crypto.randomUUID(), startedAt: performance.now(), url: new URL("http://localhost/md/x"), clientIp: "192.0.2.1" });
      const doors = handles.map((h) => new AnonymousAccess(h, new KeyResolver(h), new RateLimiter(h.counters), 100));
      const keys = await Promise.all(doors.flatMap((d) => [d.admit(ctx(), {}), d.admit(ctx(), {}), d.admit(ctx(), {})]));
      expect(new Set(keys.map((k) => k.id)).size).toBe(1);
      expect((await listApiKeys(handles[0]!.keys)).filter((k) => k.name === "anonymous")).toHaveLength(1);
      // revoking it ends keyless use on the other handle
      await revokeApiKey(handles[0]!.keys, keys[0]!.id);
      const since = performance.now();
      for (;;) {
        const outcome = await doors[1]!.admit(ctx(), {}).then(
          () => "admitted",
          (error: Error) => error.message,
        );
        if (outcome !== "admitted") {
          expect(outcome).toContain("Keyless use has been turned off");
          break;
        }
        if (performance.now() - since > 1_000) throw new Error("the revocation was not seen within a second");
        await Bun.sleep(5);
      }
    });
  });
}

describe("sqlite: the settings are the data dir's files, as before", () => {
  test("an older data dir's secrets (one line, mode 0600) are read as they are; new ones are written the same way", async () => {
    const dir = tempDir();
    const old = "whsec_" + "ab".repeat(32);
    writeFileSync(join(dir, WEBHOOK_SECRET_SETTING), old + "\n", { mode: 0o600 });
    const backend = openSqliteBackend(dir);
    opened.push(backend);
    expect((await resolveWebhookSecret(backend.settings)).secret).toBe(old);
    const signingKey = await resolveUrlSigningKey(backend.settings);
    const file = join(dir, URL_SIGNING_KEY_SETTING);
    expect(readFileSync(file, "utf8")).toBe(signingKey + "\n");
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});
