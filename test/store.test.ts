import { afterAll, expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { COUNTERS_FILE, STORE_FILE, appliedMigrations, openCounters, openStore, type Store } from "../src/store";
import { MIGRATIONS } from "../src/store/migrations";
import { TASK_STATES, DELIVERY_STATES } from "../src/store/states";
import { newApiKey } from "../src/security/apiKeys";
import { keyQueries } from "../src/store/sqlite/keys";
import { tempDir } from "./helpers/server";

const dir = tempDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("the store is SQLite in WAL mode with every migration applied once", () => {
  const store = openStore(dir);
  expect(store.db.query<{ journal_mode: string }, []>("PRAGMA journal_mode").get()!.journal_mode).toBe("wal");
  expect(store.db.query<{ foreign_keys: number }, []>("PRAGMA foreign_keys").get()!.foreign_keys).toBe(1);
  expect(appliedMigrations(store)).toEqual(MIGRATIONS.map((m) => m.version));
  store.close();
  const again = openStore(dir);
  expect(appliedMigrations(again)).toEqual(MIGRATIONS.map((m) => m.version));
  again.close();
});

const tablesOf = (s: Store) => s.db.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table'").all().map((t) => t.name);

test("tables for keys, ledger, tasks, batches, deliveries and thumbnail jobs exist; rate-limit windows are in the counters store", () => {
  const store = openStore(dir);
  for (const t of ["api_keys", "credit_ledger", "credit_holds", "credit_totals", "tasks", "batches", "webhook_deliveries", "thumbnail_jobs"]) expect(tablesOf(store)).toContain(t);
  expect(store.db.query<{ synchronous: number }, []>("PRAGMA synchronous").get()!.synchronous).toBe(1); // NORMAL: fsync at checkpoints
  store.close();
  const counters = openCounters(dir);
  expect(tablesOf(counters)).toContain("rate_limit_windows");
  expect(counters.db.query<{ journal_mode: string }, []>("PRAGMA journal_mode").get()!.journal_mode).toBe("wal");
  expect(counters.db.query<{ synchronous: number }, []>("PRAGMA synchronous").get()!.synchronous).toBe(0); // OFF: disposable
  counters.close();
});

test("a counters file left unreadable (an OS crash) is made anew; the durable store never is", () => {
  const own = tempDir();
  writeFileSync(join(own, COUNTERS_FILE), "this is not a database ".repeat(200));
  const counters = openCounters(own);
  expect(tablesOf(counters)).toContain("rate_limit_windows");
  counters.close();
  writeFileSync(join(own, STORE_FILE), "this is not a database ".repeat(200));
  expect(() => openStore(own)).toThrow();
  rmSync(own, { recursive: true, force: true });
});

test("state columns accept exactly the state constants", () => {
  const store = openStore(dir);
  const { row: key } = newApiKey("free");
  keyQueries(store).insert(key);
  const insertTask = (id: string, status: string) =>
    store.db.query("INSERT INTO tasks (id, key_id, operation, status, input, created_at) VALUES (?, ?, 'extract', ?, '{}', ?)").run(id, key.id, status, new Date().toISOString());
  TASK_STATES.forEach((s, i) => insertTask(`task_ok${i}`, s));
  expect(() => insertTask("task_bad", "stuck")).toThrow(/CHECK constraint failed/);
  const insertDelivery = (id: string, status: string) =>
    store.db.query("INSERT INTO webhook_deliveries (id, task_id, url, payload, status, created_at) VALUES (?, 'task_ok0', 'https://h/', '{}', ?, ?)").run(id, status, new Date().toISOString());
  DELIVERY_STATES.forEach((s, i) => insertDelivery(`whd_${i}`, s));
  expect(() => insertDelivery("whd_bad", "lost")).toThrow(/CHECK constraint failed/);
  expect(() => store.db.query("INSERT INTO api_keys (id, plan, prefix, key_hash, created_at) VALUES ('k', 'gold', 'p', 'h', 'now')").run()).toThrow(/CHECK constraint failed/);
  store.close();
});

test("a new migration is applied on the next open, the old ones are not re-run", () => {
  const extra = [...MIGRATIONS, { version: 99, name: "test column", sql: "ALTER TABLE tasks ADD COLUMN test_note TEXT" }];
  const store = openStore(dir, extra);
  expect(appliedMigrations(store).at(-1)).toBe(99);
  expect(store.db.query("SELECT test_note FROM tasks LIMIT 1").all()).toBeDefined();
  store.close();
});
