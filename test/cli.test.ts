import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { runCli, startServer, tempDir } from "./helpers/server";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
function dataDir() {
  const d = tempDir();
  dirs.push(d);
  return d;
}

describe("docintel CLI", () => {
  test("--help lists every command", async () => {
    const { code, stdout } = await runCli(["--help"]);
    expect(code).toBe(0);
    for (const c of ["serve", "keys create", "keys list", "keys revoke", "credits grant", "credits show", "doctor", "service-unit", "webhook-secret"]) expect(stdout).toContain(c);
  });

  test("each command has its own help with flags and their env variables", async () => {
    const { code, stdout } = await runCli(["serve", "--help"]);
    expect(code).toBe(0);
    for (const flag of ["--host", "--port", "--data", "--allow-private-urls", "--webhook-secret"]) expect(stdout).toContain(flag);
    for (const env of ["DOCINTEL_HOST", "DOCINTEL_PORT", "DOCINTEL_DATA", "DOCINTEL_ALLOW_PRIVATE_URLS", "DOCINTEL_WEBHOOK_SECRET"]) expect(stdout).toContain(env);
    expect((await runCli(["keys", "create", "--help"])).stdout).toContain("--plan");
  });

  test("unknown commands and flags exit 2 with a message", async () => {
    expect((await runCli(["frobnicate"])).code).toBe(2);
    const r = await runCli(["keys", "create", "--plan", "free", "--colour", "red"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown option --colour");
    const bad = await runCli(["keys", "create", "--plan", "gold", "--data", dataDir()]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--plan must be one of free, pro, enterprise, got 'gold'");
  });

  test("keys create prints the key as its last line; list never shows it; revoke works", async () => {
    const data = dataDir();
    const created = await runCli(["keys", "create", "--plan", "free", "--name", "ci", "--data", data]);
    expect(created.code).toBe(0);
    const key = created.stdout.trim().split("\n").at(-1)!;
    expect(key).toMatch(/^dk_[0-9A-Za-z]{32}$/);
    const list = await runCli(["keys", "list", "--data", data]);
    expect(list.code).toBe(0);
    expect(list.stdout).not.toContain(key);
    expect(list.stdout).toContain("ci");
    const id = /key_[0-9a-f]+/.exec(list.stdout)![0];
    expect((await runCli(["keys", "revoke", id, "--data", data])).code).toBe(0);
    expect((await runCli(["keys", "list", "--data", data])).stdout).toContain("revoked");
    expect((await runCli(["keys", "revoke", "key_nope", "--data", data])).code).toBe(1);
  });

  test("the data dir can be given as DOCINTEL_DATA, a command's own flags only on the command line (issue 19)", async () => {
    const data = dataDir();
    const fromEnv = await runCli(["keys", "create"], { DOCINTEL_PLAN: "enterprise", DOCINTEL_DATA: data });
    expect(fromEnv.code).toBe(2);
    expect(fromEnv.stderr).toContain("--plan is needed");
    const created = await runCli(["keys", "create", "--plan", "enterprise"], { DOCINTEL_DATA: data });
    expect(created.code).toBe(0);
    expect(created.stderr).toContain(`data dir ${data}`);
    expect((await runCli(["keys", "list", "--data", data])).stdout).toContain("enterprise");
  });

  test("credits grant and show", async () => {
    const data = dataDir();
    await runCli(["keys", "create", "--plan", "free", "--data", data]);
    const id = /key_[0-9a-f]+/.exec((await runCli(["keys", "list", "--data", data])).stdout)![0];
    const grant = await runCli(["credits", "grant", id, "40", "--data", data]);
    expect(grant.code).toBe(0);
    expect(grant.stdout).toContain("remaining this month");
    const show = await runCli(["credits", "show", id, "--data", data]);
    expect(show.stdout).toMatch(/allowance\s+100/);
    expect(show.stdout).toMatch(/granted\s+40/);
    expect(show.stdout).toMatch(/remaining\s+140/);
    expect((await runCli(["credits", "grant", id, "-5", "--data", data])).code).toBe(2);
  });

  test("service-unit prints a hardened systemd unit", async () => {
    const { code, stdout } = await runCli(["service-unit", "--exec", "/opt/docintel/docintel"]);
    expect(code).toBe(0);
    for (const line of ["ExecStart=/opt/docintel/docintel serve", "EnvironmentFile=-/etc/docintel/docintel.env", "Restart=on-failure", "NoNewPrivileges=true", "ProtectSystem=strict", "StateDirectory=docintel", "WantedBy=multi-user.target"])
      expect(stdout).toContain(line);
    // a machine of several takes its PostgreSQL URL from that file, never from ExecStart (test/service-env.test.ts runs it)
    expect(stdout).toMatch(/^# .*DOCINTEL_DATABASE=postgres:\/\//m);
    // the explorer of a default install, not https://localhost/docs (issue 19)
    expect(stdout).toContain("Documentation=http://localhost:8080/docs\n");
    const custom = await runCli(["service-unit", "--docs-url", "https://docs.example.com/docs"]);
    expect(custom.stdout).toContain("Documentation=https://docs.example.com/docs\n");
    expect(custom.stdout).toContain("sudo cat /var/lib/docintel/bootstrap-key");
  });

  test("webhook-secret is generated once and then stays the same", async () => {
    const data = dataDir();
    const a = await runCli(["webhook-secret", "--data", data]);
    const b = await runCli(["webhook-secret", "--data", data]);
    expect(a.stdout.trim()).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(b.stdout.trim()).toBe(a.stdout.trim());
    expect((await runCli(["webhook-secret", "--data", data, "--webhook-secret", "s3cret-from-the-operator"])).stdout.trim()).toBe("s3cret-from-the-operator");
  });

  test("doctor reports the external programs and a sharp job in a worker", async () => {
    const { code, stdout } = await runCli(["doctor"]);
    expect(code).toBe(0);
    for (const p of ["chromium", "soffice", "tesseract", "ffmpeg", "pdftoppm"]) expect(stdout).toMatch(new RegExp(`(ok|missing)\\s+${p}`));
    expect(stdout).toMatch(/ok\s+sharp \(libvips [\d.]+\)/);
    expect(stdout).toContain("enables:");
  });

  test("the first start with no keys creates one; not on a terminal, it goes to a 0600 file named in the output, never the log; the next start makes none", async () => {
    const data = dataDir();
    const first = await startServer({ dataDir: data, args: [] });
    await Bun.sleep(100);
    const keyFile = join(data, "bootstrap-key");
    expect(first.stdout()).toContain(`written to ${keyFile} (mode 0600)`);
    expect(first.stdout()).not.toMatch(/dk_\S{20,}/);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    const key = readFileSync(keyFile, "utf8").trim();
    expect(key).toStartWith("dk_");
    const r = await fetch(`${first.url}/api/v1/usage`, { headers: { "X-API-Key": key! } });
    expect(r.status).toBe(200);
    expect(await first.stop()).toBe(0);
    const listed = await runCli(["keys", "list", "--data", data]);
    expect(listed.stdout).toMatch(/bootstrap/);
    expect(listed.stdout).toMatch(/\t\d{4}-\d{2}-\d{2}T[^\t]+\tbootstrap/); // last used is set
    const second = await startServer({ dataDir: data });
    await Bun.sleep(100);
    expect(second.stdout()).not.toContain("API key:");
    await second.stop();
  });

  test("a bad configuration value is refused at start, naming the option", async () => {
    const r = await runCli(["serve", "--port", "eighty"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--port must be a whole number");
    const env = await runCli(["serve"], { DOCINTEL_PORT: "70000" });
    expect(env.code).toBe(2);
    expect(env.stderr).toContain("DOCINTEL_PORT must be from 0 to 65535, got 70000");
  });
});
