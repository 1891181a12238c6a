import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { appliedMigrations, openStore } from "../src/store";
import { MIGRATIONS } from "../src/store/migrations";
import { TASK_STATES, DELIVERY_STATES } from "../src/store/states";
import { createApiKey } from "../src/security/apiKeys";
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

test("tables for keys, ledger, rate limits, tasks, batches, deliveries and thumbnail jobs exist", () => {
  const store = openStore(dir);
  const tables = store.db.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table'").all().map((t) => t.name);
  for (const t of ["api_keys", "credit_ledger", "credit_holds", "rate_limit_windows", "tasks", "batches", "webhook_deliveries", "thumbnail_jobs"]) expect(tables).toContain(t);
  store.close();
});

test("state columns accept exactly the state constants", () => {
  const store = openStore(dir);
  const { info } = createApiKey(store, "free");
  const insertTask = (id: string, status: string) =>
    store.db.query("INSERT INTO tasks (id, key_id, operation, status, input, created_at) VALUES (?, ?, 'extract', ?, '{}', ?)").run(id, info.id, status, new Date().toISOString());
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
