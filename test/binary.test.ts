/**
 * The single binary: builds it with scripts/build.ts, copies only the binary into an empty temp dir
 * (no node_modules there or above, so nothing can load from the build tree), and runs it with a
 * minimal environment: no Bun on PATH, HOME and DOCINTEL_CACHE_DIR inside the temp dir. Where
 * `unshare -m` is allowed (root), each run also gets a private mount namespace with an empty tmpfs
 * over the project dir: a binary that still used a path fixed at build time (piscina's `__dirname`)
 * would otherwise find it there and pass on the build machine only.
 * Covers --help, `doctor` (sharp in a worker thread, Pyodide in the sandbox worker), and `serve` with a deep /healthz and SIGTERM.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");
const BUILD_TIMEOUT_MS = 240_000;

let tmp: string;
let binary: string;
let env: Record<string, string>;
/** unshare: path of unshare(1) when it may create a mount namespace here, else undefined */
let unshare: string | undefined;

/** command runs the binary, inside a mount namespace that hides the project dir when possible. */
function command(args: string[]): string[] {
  if (!unshare) return [binary, ...args];
  return [unshare, "-m", "--propagation", "private", "/bin/sh", "-c", 'mount -t tmpfs tmpfs "$0" && exec "$@"', ROOT, binary, ...args];
}

/** freePort asks the kernel for a port that is free right now. */
function freePort(): number {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = probe.port!;
  probe.stop(true);
  return port;
}

async function run(args: string[], timeoutMs = 60_000): Promise<{ code: number; out: string }> {
  const proc = Bun.spawn(command(args), { cwd: dirname(binary), env, stdout: "pipe", stderr: "pipe" });
  const timer = setTimeout(() => proc.kill("SIGKILL"), timeoutMs);
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  clearTimeout(timer);
  return { code, out: stdout + stderr };
}

beforeAll(async () => {
  tmp = mkdtempSync("/tmp/docintel-binary-");
  const built = join(tmp, "build", "docintel");
  const build = Bun.spawnSync([process.execPath, "scripts/build.ts", "--outfile", built], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  if (build.exitCode !== 0) throw new Error(`build failed (${build.exitCode}):\n${build.stdout}\n${build.stderr}`);

  const runDir = join(tmp, "run");
  mkdirSync(runDir);
  binary = join(runDir, "docintel");
  copyFileSync(built, binary);
  rmSync(join(tmp, "build"), { recursive: true, force: true });
  for (let dir = runDir; dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, "node_modules"))) throw new Error(`${dir}/node_modules exists: the binary could load packages from it`);
  }
  env = { PATH: "/usr/bin:/bin", HOME: tmp, DOCINTEL_CACHE_DIR: join(tmp, "cache") };

  const found = Bun.which("unshare") ?? undefined;
  const hides = found && Bun.spawnSync([found, "-m", "--propagation", "private", "/bin/sh", "-c", 'mount -t tmpfs tmpfs "$0" && test ! -e "$0/package.json"', ROOT], { env, stdout: "ignore", stderr: "ignore" }).exitCode === 0;
  unshare = hides ? found : undefined;
  if (!unshare) console.warn(`binary.test: cannot hide ${ROOT} (unshare -m not allowed); runs only prove the binary works next to no node_modules`);
}, BUILD_TIMEOUT_MS);

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe("compiled binary, alone in an empty dir", () => {
  test("--help exits 0 and prints usage", async () => {
    const { code, out } = await run(["--help"]);
    expect(out).toMatch(/usage/i);
    expect(code).toBe(0);
  });

  test("doctor loads sharp/libvips in a worker thread, from the native cache dir", async () => {
    const { code, out } = await run(["doctor"]);
    if (code !== 0) console.error(out);
    expect(code).toBe(0);
    expect(out.split("\n").some((line) => /sharp/i.test(line) && /\bok\b/i.test(line))).toBe(true);

    // The addon and libvips were unpacked here (proves they came out of the binary).
    const cacheDir = join(tmp, "cache");
    const nativeDirs = readdirSync(cacheDir).filter((name) => name.startsWith("native-sharp-"));
    expect(nativeDirs.length).toBe(1);
    const lib = join(cacheDir, nativeDirs[0]!, "@img");
    expect(readdirSync(join(lib, `sharp-${process.platform}-${process.arch}`, "lib")).some((f) => f.endsWith(".node"))).toBe(true);
    expect(readdirSync(join(lib, `sharp-libvips-${process.platform}-${process.arch}`, "lib")).some((f) => f.startsWith("libvips-cpp"))).toBe(true);

    // The analyze agent's compute tool: Pyodide, embedded, unpacked to the cache dir and run in its worker.
    expect(out).toContain("Pyodide started and ran sum(range(10)) = 45");
    const pyodideDirs = readdirSync(cacheDir).filter((name) => name.startsWith("native-pyodide-"));
    expect(pyodideDirs.length).toBe(1);
    expect(readdirSync(join(cacheDir, pyodideDirs[0]!)).sort()).toEqual(["pyodide-lock.json", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip"]);
  }, 60_000);

  test("md converts a PDF (pdf.js in a worker), an XLS (LibreOffice's UNO bridge) and a scanned image (tesseract)", async () => {
    const fixtures = join(import.meta.dir, "fixtures");
    for (const name of ["test.pdf", "test.xls", "test_llm.jpg"]) copyFileSync(join(fixtures, name), join(dirname(binary), name));
    const pdf = await run(["md", "test.pdf"]);
    expect(pdf.out).toContain("# 1 Introduction");
    expect(pdf.code).toBe(0);
    const xls = await run(["md", "test.xls"]);
    expect(xls.out).toMatch(/^\| Alpha \| Beta \| Gamma \| Delta \|$/m);
    expect(xls.code).toBe(0);
    const jpg = await run(["md", "test_llm.jpg", "--json"]);
    expect(jpg.code).toBe(0);
    expect(JSON.parse(jpg.out)).toMatchObject({ success: true, extraction_method: "ocr", markdown: expect.stringContaining("5bda1dd6") });
  }, 120_000);

  test("serve answers a deep /healthz via a sharp job on a worker and exits 0 on SIGTERM", async () => {
    const port = freePort();
    const data = join(tmp, "data");
    // the worker job of a deep check runs for a caller with a key only
    const created = await run(["keys", "create", "--plan", "pro", "--data", data]);
    expect(created.code, created.out).toBe(0);
    const apiKey = /^(dk_\S+)$/m.exec(created.out)![1]!;
    const proc = Bun.spawn(command(["serve", "--host", "127.0.0.1", "--port", String(port), "--data", data, "--workers", "2"]), {
      cwd: dirname(binary),
      env,
      stdout: "pipe",
      stderr: "pipe",
    });
    const output = Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]).then(([o, e]) => o + e);
    try {
      const base = `http://127.0.0.1:${port}`;
      const deadline = Date.now() + 30_000;
      let ready = false;
      while (!ready && Date.now() < deadline && proc.exitCode === null) {
        ready = await fetch(`${base}/healthz`).then((r) => r.ok, () => false);
        if (!ready) await Bun.sleep(100);
      }
      if (!ready) {
        proc.kill("SIGKILL");
        throw new Error(`server did not answer /healthz within 30 s (exit code ${proc.exitCode}):\n${await output}`);
      }

      const res = await fetch(`${base}/healthz?deep=true`, { headers: { "X-API-Key": apiKey } });
      const text = await res.text();
      expect(res.status, text).toBe(200);
      expect(text).toMatch(/sharp/i);
      const body = JSON.parse(text) as { checks?: { workers?: { ok?: boolean; job?: string; libvips?: string } } };
      expect(body.checks?.workers?.ok).toBe(true);
      expect(body.checks?.workers?.job).toBe("sharp");
      expect(body.checks?.workers?.libvips).toMatch(/^\d+\.\d+/);

      const stoppedAt = Date.now();
      proc.kill("SIGTERM");
      const code = await Promise.race([proc.exited, Bun.sleep(10_000).then(() => "timeout" as const)]);
      expect(code, await Promise.race([output, Bun.sleep(100).then(() => "")])).toBe(0);
      expect(Date.now() - stoppedAt).toBeLessThan(10_000);
    } finally {
      if (proc.exitCode === null) proc.kill("SIGKILL");
    }
  }, 60_000);
});
