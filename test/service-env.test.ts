/**
 * The settings file of a system install (/etc/docintel/docintel.env, written by install.sh and read
 * by the unit's EnvironmentFile=) as a machine of several on PostgreSQL uses it: install.sh's own
 * template with its DOCINTEL_DATABASE line filled in, loaded as systemd loads it (KEY=VALUE lines,
 * comments and blank lines skipped), is all the commands need: migrate, keys create and list, and
 * serve go to the database without a --database flag. The unit points at the file.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { serviceUnit } from "../src/cli/serviceUnit";
import { CLI, ROOT, freePort, newTestDatabase, runCli, tempDir } from "./helpers/server";
import { startPostgres } from "./helpers/postgres";

/** installTemplate: the settings file install.sh writes at first install */
function installTemplate(): string {
  const script = readFileSync(join(ROOT, "scripts/install.sh"), "utf8");
  const body = /write_file "\$ENV_FILE" 0640 "root:\$USER_NAME" <<'EOF'\n([\s\S]*?)\nEOF\n/.exec(script)?.[1];
  if (!body) throw new Error("scripts/install.sh: no settings template (write_file \"$ENV_FILE\" ... <<'EOF')");
  return body;
}

/** environmentFile reads a file as systemd's EnvironmentFile= does for these lines: KEY=VALUE, # comments and blank lines skipped */
function environmentFile(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const trimmed = line.trim();
    if (trimmed === "" || trimmed.startsWith("#") || trimmed.startsWith(";")) continue;
    const eq = trimmed.indexOf("=");
    if (eq <= 0) throw new Error(`not KEY=VALUE: ${line}`);
    env[trimmed.slice(0, eq)] = trimmed.slice(eq + 1);
  }
  return env;
}

describe("the settings file of a machine on PostgreSQL", () => {
  let database = "";
  let settings: Record<string, string> = {};
  let dataDir = "";
  /** firstKey: the key `keys create` printed (its last line) */
  let firstKey = "";
  /** machineEnv: what the unit gives the service: Environment=DOCINTEL_DATA, then the file; no DOCINTEL_* of the test's own shell */
  const machineEnv = () => {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("DOCINTEL_")) env[k] = v;
    return { ...env, DOCINTEL_DATA: dataDir, ...settings };
  };

  beforeAll(async () => {
    database = await newTestDatabase();
    dataDir = tempDir("docintel-machine-");
    const template = installTemplate();
    // the operator's edit: the commented example lines of a machine of several, filled in
    expect(template).toMatch(/^# DOCINTEL_DATABASE=postgres:\/\//m);
    expect(template).toContain("# DOCINTEL_NO_BOOTSTRAP_KEY=true");
    const edited = template
      .replace(/^# DOCINTEL_DATABASE=.*$/m, `DOCINTEL_DATABASE=${database}`)
      .replace("# DOCINTEL_NO_BOOTSTRAP_KEY=true", "DOCINTEL_NO_BOOTSTRAP_KEY=true")
      .replace(/^DOCINTEL_HOST=.*$/m, "DOCINTEL_HOST=127.0.0.1")
      .replace(/^DOCINTEL_PORT=.*$/m, `DOCINTEL_PORT=${await freePort()}`);
    settings = environmentFile(edited);
    expect(settings.DOCINTEL_DATABASE).toBe(database);
  }, 60_000);
  afterAll(async () => {
    rmSync(dataDir, { recursive: true, force: true });
    await (await startPostgres()).stop();
  });

  test("the unit reads the file and says what a machine of several puts in it", () => {
    const unit = serviceUnit({ exec: "/usr/local/bin/docintel", user: "docintel", dataDir: "/var/lib/docintel", envFile: "/etc/docintel/docintel.env", docsUrl: "http://localhost:8080/docs" });
    expect(unit).toContain("EnvironmentFile=-/etc/docintel/docintel.env\n");
    expect(unit).toMatch(/^# .*DOCINTEL_DATABASE=postgres:\/\//m);
    expect(unit).toContain("ExecStart=/usr/local/bin/docintel serve\n"); // no URL (and password) on the command line
  });

  test("migrate, keys create and keys list use the database the file names, with no --database flag", async () => {
    const migrated = await runCli(["migrate"], machineEnv());
    expect(migrated.stdout).toMatch(/^schema version \d+\n$/);
    expect(migrated.code).toBe(0);
    const created = await runCli(["keys", "create", "--plan", "pro", "--name", "first"], machineEnv());
    expect(created.code).toBe(0);
    expect(created.stderr).toContain(`store postgres ${database}`);
    firstKey = created.stdout.trim().split("\n").pop()!;
    const listed = await runCli(["keys", "list"], machineEnv());
    expect(listed.stderr).toContain("store postgres");
    expect(listed.stdout).toMatch(/\tpro\tactive\t.*\tfirst\n/);
    // and not the SQLite store of the machine's data dir
    const local = await runCli(["keys", "list", "--database", "sqlite:"], machineEnv());
    expect(local.stdout).not.toContain("first");
  }, 60_000);

  test("serve runs on the database the file names", async () => {
    const proc = Bun.spawn([process.execPath, CLI, "serve"], { cwd: ROOT, stdin: "ignore", stdout: "pipe", stderr: "pipe", env: { ...machineEnv(), DOCINTEL_METRICS_LISTEN: "off", DOCINTEL_COMPUTE_SPARES: "0" } });
    try {
      const url = `http://127.0.0.1:${settings.DOCINTEL_PORT}`;
      const deadline = Date.now() + 30_000;
      let healthy = false;
      while (!healthy && Date.now() < deadline && proc.exitCode === null) {
        healthy = await fetch(`${url}/healthz`).then((r) => r.ok, () => false);
        if (!healthy) await Bun.sleep(100);
      }
      expect(healthy).toBe(true);
      // the key made with the CLI above, in the database, is one this machine accepts
      expect((await fetch(`${url}/api/v1/usage`, { headers: { "X-API-Key": firstKey } })).status).toBe(200);
      expect((await fetch(`${url}/api/v1/usage`, { headers: { "X-API-Key": firstKey + "x" } })).status).toBe(401);
    } finally {
      if (proc.exitCode === null) proc.kill("SIGTERM");
      await proc.exited;
    }
  }, 60_000);
});
