/**
 * The README's quick start, run as written: its shell commands are taken from the README's
 * "## Quick start" section and run one by one with bash against a fresh server, started as
 * `make run` starts it (bin/docintel serve, a new data dir), in a directory that has the
 * repository's test/fixtures, as a user's clone does.
 *
 * What is substituted, and nothing else: the clone and `make run` lines (the test has the
 * repository and starts the server itself); the address and key of the `export B=... KEY=...` line
 * (the server's port, and the key the server printed at its first start, as the README says it
 * does); and https://example.com, which this machine cannot reach, by a page served on loopback (the
 * server runs with --allow-private-urls for that).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { ROOT, startServer, tempDir, type TestServer } from "./helpers/server";
import { loopbackServers } from "./helpers/loopback";

const README = readFileSync(join(ROOT, "README.md"), "utf8");

/** quickStartCommands: the shell commands of the quick start, backslash continuations joined. */
function quickStartCommands(): string[] {
  const section = /^## Quick start\n([\s\S]*?)^## /m.exec(README)?.[1];
  if (!section) throw new Error("README.md has no '## Quick start' section followed by another '## ' section");
  const blocks = [...section.matchAll(/^```sh\n([\s\S]*?)^```/gm)].map((m) => m[1]!);
  return blocks.flatMap((block) => block.replace(/\\\n\s*/g, "").split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("#")));
}

const PAGE = `<!doctype html><html><head><title>Example Domain</title></head><body style="background:#eef">
<nav><a href="/">Home</a> <a href="/about">About</a></nav>
<main><h1>Example Domain</h1><p>This domain is for use in illustrative examples in documents. You may use this domain in literature without prior coordination or asking for permission.</p><p><a href="https://www.iana.org/domains/example">More information...</a></p></main>
<footer>Copyright Example. All rights reserved.</footer></body></html>`;

const serve = loopbackServers();
let server: TestServer;
let workDir: string;
let origin: string;
let key: string;
const commands = quickStartCommands();

beforeAll(async () => {
  ({ origin } = serve(() => new Response(PAGE, { headers: { "content-type": "text/html; charset=utf-8" } })));
  server = await startServer({ args: ["--allow-private-urls"] });
  // A terminal shows the key (as the quick start's `make run` does); this test's pipe is not one, so,
  // as the quick start says, the server writes it to DATA/bootstrap-key and names that file instead.
  const named = /bootstrap-key/.test(server.stdout());
  const keyFile = join(server.dataDir, "bootstrap-key");
  if (!named || !existsSync(keyFile)) throw new Error(`the first start neither printed an API key nor named the file holding it:\n${server.stdout()}`);
  key = readFileSync(keyFile, "utf8").trim().split(/\s+/).find((word) => word.startsWith("dk_"))!;
  if (!key) throw new Error(`${keyFile} holds no dk_ key`);
  // a user's clone: the fixtures the commands upload, at the same relative paths
  workDir = tempDir("docintel-quickstart-");
  mkdirSync(join(workDir, "test"));
  symlinkSync(join(ROOT, "test", "fixtures"), join(workDir, "test", "fixtures"));
});
afterAll(() => server.stop());

/** run runs one quick-start command with bash in the user's directory, with the variables the quick start exported. */
async function run(command: string, env: Record<string, string>): Promise<{ code: number; out: string; err: string }> {
  const proc = Bun.spawn(["bash", "-c", `set -euo pipefail\n${command}`], { cwd: workDir, env: { PATH: process.env.PATH!, HOME: workDir, ...env }, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, out, err };
}

describe("README quick start", () => {
  test("has the steps a new user needs: run, key, a file, a URL, a screenshot, an extraction", () => {
    expect(commands).toContain("make run");
    expect(commands.some((c) => c.startsWith("export B=") && c.includes("KEY="))).toBe(true);
    expect(commands.some((c) => c.includes("-F file=@") && c.includes("/api/v1/markdown/convert"))).toBe(true);
    expect(commands.some((c) => c.includes("$B/md/https://example.com"))).toBe(true);
    expect(commands.some((c) => c.includes("$B/https://example.com") && c.includes("-o "))).toBe(true);
    expect(commands.some((c) => c.includes("/api/v1/extract") && c.includes("schema="))).toBe(true);
  });

  test("every command runs as written against a fresh server and does what the README says", async () => {
    let env: Record<string, string> = {};
    let ran = 0;
    for (const raw of commands) {
      if (raw.startsWith("git clone ") || raw === "make run") continue;
      if (raw.startsWith("export B=")) {
        // the README's placeholders: its address and its example key
        expect(raw).toMatch(/^export B=http:\/\/localhost:8080 KEY=dk_\w+$/);
        env = { B: server.url, KEY: key };
        continue;
      }
      const command = raw.replaceAll("https://example.com", origin);
      const { code, out, err } = await run(command, env);
      ran++;
      const context = `command: ${raw}\nstdout: ${out.slice(0, 2000)}\nstderr: ${err}`;
      expect(code, context).toBe(0);
      if (command.includes("/api/v1/usage")) {
        expect(JSON.parse(out), context).toMatchObject({ plan: "pro" });
      } else if (command.includes("/api/v1/markdown/convert")) {
        const body = JSON.parse(out);
        expect(body, context).toMatchObject({ success: true, credits_used: 1 });
        expect(body.markdown, context).toContain("AutoGen");
      } else if (command.includes("/md/")) {
        expect(out, context).toContain("illustrative examples");
        expect(out, context).not.toContain("All rights reserved");
      } else if (command.includes(" -o ")) {
        const file = / -o (\S+)/.exec(command)![1]!;
        const bytes = new Uint8Array(await Bun.file(join(workDir, file)).arrayBuffer());
        expect([...bytes.subarray(0, 3)], context).toEqual([0xff, 0xd8, 0xff]);
      } else if (command.includes("/api/v1/extract")) {
        const body = JSON.parse(out);
        expect(body, context).toMatchObject({ success: true, schema_format: "typed" });
        // the values the document states, from the fixtures' labels (test/fixtures/extract/labels.json)
        const file = /-F file=@test\/fixtures\/extract\/(\S+)/.exec(command)?.[1];
        const labels = JSON.parse(readFileSync(join(ROOT, "test/fixtures/extract/labels.json"), "utf8")).documents as { file: string; expected: Record<string, unknown> }[];
        const expected = labels.find((d) => d.file === file)?.expected;
        expect(expected, `${context}\nthe quick start should extract from a labelled fixture of test/fixtures/extract`).toBeDefined();
        for (const field of Object.keys(body.field_status)) expect(body.data[field], `${context}\nfield ${field}`).toEqual(expected![field]);
      } else throw new Error(`the quick start has a command this test does not check yet; add what it should show: ${raw}`);
    }
    expect(ran).toBeGreaterThanOrEqual(5);
  }, 120_000);
});
