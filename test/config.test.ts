/**
 * Config declared once (issue 17 item 4, issue 19): the option table in src/config drives the
 * parser, the environment, validation, --help and the README's table; errors name the flag or the
 * variable the user set; a command's own flags never come from the environment; one data dir rule.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigError, SERVE_OPTIONS, defaultDataDir, loadConfig } from "../src/config";
import { defaultShown } from "../src/cli/args";
import { ROOT, runCli, tempDir } from "./helpers/server";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function refusal(env: Record<string, string>, flags: Record<string, string> = {}): string {
  try {
    loadConfig(env, flags);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error("expected the configuration to be refused");
}

describe("the option table", () => {
  test("the README's options table lists every serve option, in order, with its variable and default", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const rows = [...readme.matchAll(/^\| `--([a-z-]+)` \| `([A-Z_]+)` \| ([^|]+) \|/gm)].map((m) => ({ flag: m[1]!, env: m[2]!, shown: m[3]!.replaceAll("`", "").trim() }));
    expect(rows.map((r) => r.flag)).toEqual(SERVE_OPTIONS.map((o) => o.flag));
    for (const option of SERVE_OPTIONS) {
      const row = rows.find((r) => r.flag === option.flag)!;
      expect(row.env).toBe(option.env!);
      const shown = defaultShown(option);
      if (shown) expect(`${option.flag}: ${row.shown}`).toBe(`${option.flag}: ${shown}`);
      else expect(["off", "none", "unset", "generated"]).toContain(row.shown);
    }
  });

  test.each([
    [{}, { "convert-timeout-ms": "5" }, "--convert-timeout-ms must be at least 1000, got 5"],
    [{ DOCINTEL_CONVERT_TIMEOUT_MS: "5" }, {}, "DOCINTEL_CONVERT_TIMEOUT_MS must be at least 1000, got 5"],
    [{}, { "browser-pages": "100" }, "--browser-pages must be from 1 to 64, got 100"],
    [{}, { "log-level": "debug" }, "--log-level must be one of info, error, got 'debug'"],
    [{}, { "metrics-token": "short" }, "--metrics-token must be at least 16 characters long, got 5"],
    [{ DOCINTEL_WEBHOOK_RETRY_SCALE: "0" }, {}, "DOCINTEL_WEBHOOK_RETRY_SCALE must be from 0.0001 to 100, got 0"],
    [{ DOCINTEL_METRICS_LISTEN: "9464" }, {}, "DOCINTEL_METRICS_LISTEN must be HOST:PORT (e.g. 127.0.0.1:9464) or off, got '9464'"],
    [{}, { "anonymous-plan": "pro" }, "--anonymous-plan must be one of none, free, got 'pro'"],
  ])("a value out of bounds is refused naming what the user set: %j %j", (env, flags, message) => {
    expect(refusal(env as Record<string, string>, flags)).toBe(message);
  });

  test("a bad DOCINTEL_PUBLIC_URL is named as the variable, a bad --public-url as the flag", () => {
    expect(refusal({ DOCINTEL_PUBLIC_URL: "docs.example.com" })).toStartWith("DOCINTEL_PUBLIC_URL must be the http or https URL");
    expect(refusal({}, { "public-url": "ftp://x" })).toStartWith("--public-url must be the http or https URL");
  });

  test("--database: sqlite: is the data dir's store, sqlite:DIR the same as --data DIR, a postgres URL keeps its pool settings", () => {
    expect(loadConfig({}, { data: "/tmp/d1" }).database).toEqual({ kind: "sqlite", dataDir: "/tmp/d1" });
    const fromUrl = loadConfig({ DOCINTEL_DATABASE: "sqlite:/tmp/d2" });
    expect([fromUrl.dataDir, fromUrl.database]).toEqual(["/tmp/d2", { kind: "sqlite", dataDir: "/tmp/d2" }]);
    const pg = loadConfig({ DOCINTEL_DB_POOL_SIZE: "4" }, { database: "postgres://app:pw@db.internal:5432/docintel", "db-statement-timeout-ms": "5000" });
    expect(pg.database).toEqual({ kind: "postgres", url: "postgres://app:pw@db.internal:5432/docintel", poolSize: 4, statementTimeoutMs: 5000 });
  });

  test("a bad --database is refused naming the flag or variable, and never repeats a password", () => {
    expect(refusal({}, { database: "mysql://u:secret@h/db" })).toBe("--database must be sqlite: (the SQLite store in --data), sqlite:DIR, or postgres://user:password@host:5432/database, got 'mysql://***@h/db'");
    expect(refusal({ DOCINTEL_DATABASE: "postgres://u:secret@db.internal:5432" })).toBe("DOCINTEL_DATABASE names no database (the path after the host): expected sqlite: (the SQLite store in --data), sqlite:DIR, or postgres://user:password@host:5432/database, got 'postgres://u:***@db.internal:5432'");
    expect(refusal({}, { database: "postgres://u:p@[bad/db" })).toStartWith("--database is not a valid URL");
    expect(refusal({}, { database: "sqlite:/tmp/a", data: "/tmp/b" })).toBe("--database sqlite:/tmp/a and --data /tmp/b name different data dirs; give one of them");
    expect(refusal({}, { "db-pool-size": "0" })).toBe("--db-pool-size must be from 1 to 1000, got 0");
  });

  test("serve on a PostgreSQL database it cannot reach stops at start with one line naming it, and no password", async () => {
    const r = await runCli(["serve", "--database", "postgres://app:hunter2hunter2@127.0.0.1:1/docintel"]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe("docintel serve: could not start: open the PostgreSQL store at postgres://app:***@127.0.0.1:1/docintel: Failed to connect");
    expect(r.stderr).not.toContain("hunter2");
  });

  test("serve --help shows a machine-dependent default once, with its value here", async () => {
    const { stdout } = await runCli(["serve", "--help"]);
    const line = stdout.split("\n").find((l) => l.includes("--workers"))!;
    expect(line.match(/default/g)).toHaveLength(1);
    expect(line).toMatch(/\(default: CPU count, here \d+\)/);
  });
});

describe("per-command flags are not read from the environment", () => {
  test("DOCINTEL_JSON, DOCINTEL_FORMAT and DOCINTEL_SELECTOR leave docintel md as the command line says", async () => {
    const dir = tempDir();
    dirs.push(dir);
    const file = join(dir, "notes.md");
    writeFileSync(file, "# Notes\n\nhello\n");
    const r = await runCli(["md", file], { DOCINTEL_JSON: "1", DOCINTEL_FORMAT: "json", DOCINTEL_SELECTOR: "#nothing" });
    expect(r.code).toBe(0);
    expect(r.stdout).toStartWith("# Notes");
    const help = await runCli(["md", "--help"]);
    expect(help.stdout).not.toContain("DOCINTEL_SELECTOR");
    expect(help.stdout).toContain("DOCINTEL_CONVERT_TIMEOUT_MS");
  });
});

describe("the data dir", () => {
  test("one rule: the system install's dir when it exists, else ./data", () => {
    expect(defaultDataDir(() => true)).toBe("/var/lib/docintel");
    expect(defaultDataDir(() => false)).toBe("./data");
  });

  test("keys create says which data dir and store it used, and warns when it made a new one", async () => {
    const data = tempDir();
    dirs.push(data);
    const first = await runCli(["keys", "create", "--plan", "free", "--data", data]);
    expect(first.code).toBe(0);
    expect(first.stderr).toContain(`data dir ${data} (store ${join(data, "docintel.sqlite")}, new: it did not exist)`);
    expect(first.stderr).toContain(`--data ${data}`);
    const second = await runCli(["keys", "create", "--plan", "free"], { DOCINTEL_DATA: data });
    expect(second.stderr).toContain(`data dir ${data} (store ${join(data, "docintel.sqlite")})`);
    expect(second.stderr).not.toContain("new:");
  });
});

describe("make", () => {
  async function dryRun(target: string): Promise<string> {
    const proc = Bun.spawn(["make", "-n", target, "DATA=./data"], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
    const text = await new Response(proc.stdout).text();
    expect(await proc.exited).toBe(0);
    return text;
  }

  test("make clean removes build output only; make clean-data removes the data dir, after a warning", async () => {
    const clean = await dryRun("clean");
    expect(clean).toContain("rm -rf dist");
    expect(clean).not.toMatch(/rm -rf[^\n]*data/);
    const cleanData = await dryRun("clean-data");
    expect(cleanData).toContain("every API key, the credit ledger");
    expect(cleanData).toContain("rm -rf ./data");
  });
});
