import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PythonSandbox } from "../src/ai/sandbox/index.ts";

const TIMEOUT_MS = 3000;
const MAX_OUTPUT = 500;
let sandbox: PythonSandbox;

beforeAll(async () => {
  sandbox = new PythonSandbox({ timeoutMs: TIMEOUT_MS, memoryLimitMb: 256, maxOutputChars: MAX_OUTPUT });
  await sandbox.warm();
}, 60_000);

afterAll(async () => {
  await sandbox.close();
});

/** expectWorks checks that the sandbox still answers after a failure. */
async function expectWorks(): Promise<void> {
  const after = await sandbox.run("6 * 7");
  expect(after).toMatchObject({ ok: true, result: String(6 * 7), error: null });
}

describe("standard library calculations", () => {
  test("float sum, median, Decimal, Fraction", async () => {
    const values = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3];
    const sorted = [...values].sort((a, b) => a - b);
    const median = (sorted[4]! + sorted[5]!) / 2;
    const sum = await sandbox.run("sum([1.1, 2.2, 3.3])");
    expect(sum).toMatchObject({ ok: true, result: String(1.1 + 2.2 + 3.3) });
    const med = await sandbox.run(`import statistics\nstatistics.median(${JSON.stringify(values)})`);
    expect(med).toMatchObject({ ok: true, result: String(median) });
    const dec = await sandbox.run("import decimal\ndecimal.Decimal('0.1') + decimal.Decimal('0.2')");
    expect(dec.result).toBe("Decimal('0.3')");
    const frac = await sandbox.run("from fractions import Fraction\nFraction(1, 3) + Fraction(1, 6)");
    expect(frac.result).toBe("Fraction(1, 2)");
  });

  test("dates, regular expressions, JSON and print", async () => {
    const days = Math.round((Date.UTC(2024, 2, 1) - Date.UTC(2023, 11, 25)) / 86_400_000);
    const run = await sandbox.run(
      "import datetime, re, json\n" +
        "d = (datetime.date(2024, 3, 1) - datetime.date(2023, 12, 25)).days\n" +
        "print(json.dumps({'days': d, 'amounts': re.findall(r'\\d+\\.\\d{2}', 'total 12.50 and 7.25')}))",
    );
    expect(run.ok).toBe(true);
    expect(run.result).toBeNull();
    expect(JSON.parse(run.stdout)).toEqual({ days, amounts: ["12.50", "7.25"] });
  });

  test("an exception reports the traceback's last line and keeps earlier output", async () => {
    const run = await sandbox.run("print('before')\n1 / 0");
    expect(run).toMatchObject({ ok: false, stdout: "before\n", result: null, error: "ZeroDivisionError: division by zero" });
    const syntax = await sandbox.run("def broken(:\n  pass");
    expect(syntax.ok).toBe(false);
    expect(syntax.error).toStartWith("SyntaxError");
  });

  test("stdout and the result repr are cut to maxOutputChars", async () => {
    const run = await sandbox.run("for i in range(1000): print('line', i)\n'y' * 5000");
    expect(run.ok).toBe(true);
    expect(run.stdout.length).toBeLessThanOrEqual(MAX_OUTPUT);
    expect(run.stdout).toStartWith("line 0\nline 1\n");
    expect(run.stdout).toContain("truncated");
    expect(run.result!.length).toBeLessThanOrEqual(MAX_OUTPUT);
  });

  test("numpy is not installed and its import fails cleanly", async () => {
    const run = await sandbox.run("import numpy");
    expect(run.ok).toBe(false);
    expect(run.error).toBe("ModuleNotFoundError: No module named 'numpy'");
  });
});

describe("isolation", () => {
  test("host files are not visible", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sandbox-host-"));
    const secret = join(dir, "secret.txt");
    writeFileSync(secret, "host secret");
    try {
      const passwd = await sandbox.run("open('/etc/passwd').read()");
      expect(passwd.ok).toBe(false);
      expect(passwd.error).toStartWith("FileNotFoundError");
      const mine = await sandbox.run(`import os\nos.path.exists(${JSON.stringify(secret)}), os.path.exists(${JSON.stringify(dir)})`);
      expect(mine).toMatchObject({ ok: true, result: "(False, False)" });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("the js and pyodide_js modules cannot be imported, even with the import blocker removed", async () => {
    for (const code of [
      "import js\njs.process",
      "from js import fetch",
      "import pyodide_js",
      "from pyodide.code import run_js\nrun_js('process')",
      "from pyodide.http import pyfetch",
      "import ctypes",
    ]) {
      const run = await sandbox.run(code);
      expect(run.ok).toBe(false);
      expect(run.error).toMatch(/^(ImportError|ModuleNotFoundError)/);
    }
    for (const name of ["js", "pyodide_js"]) {
      const run = await sandbox.run(`import sys\nsys.meta_path.pop(0)\nimport ${name}`);
      expect(run.ok).toBe(false);
      expect(run.error).toBe(`ModuleNotFoundError: No module named '${name}'`);
    }
  });

  test("JS objects left in the interpreter lead to no host global and no code generation", async () => {
    const run = await sandbox.run(`import gc
proxies = []
for holder in gc.get_objects():
    if isinstance(holder, dict):
        proxies += [v for v in list(holder.values()) if type(v).__name__ == 'JsProxy']
reached = []
for p in proxies:
    for name in ['process', 'require', 'Bun', 'fetch', 'XMLHttpRequest', 'WebSocket', 'globalThis']:
        try:
            getattr(p, name)
            reached.append(name)
        except Exception:
            pass
    try:
        p.constructor.constructor('return globalThis.process')()
        reached.append('Function constructor')
    except Exception:
        pass
len(proxies) > 0, reached`);
    expect(run).toMatchObject({ ok: true, result: "(True, [])" });
  });

  test("no network: sockets and urllib to a loopback server fail and the server sees no connection", async () => {
    let connections = 0;
    const server: Server = createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const socketRun = await sandbox.run(`import socket\nsocket.create_connection(("127.0.0.1", ${port}), timeout=1)`);
      expect(socketRun.ok).toBe(false);
      expect(socketRun.error).toMatch(/Error/);
      const urlRun = await sandbox.run(`import urllib.request\nurllib.request.urlopen("http://127.0.0.1:${port}/", timeout=1).read()`);
      expect(urlRun.ok).toBe(false);
      expect(urlRun.error).toMatch(/Error/);
      expect(connections).toBe(0);
    } finally {
      server.close();
    }
  });
});

describe("runaway code", () => {
  test("an endless loop is stopped with a timeout error and the next run works", async () => {
    const run = await sandbox.run("while True: pass");
    expect(run.ok).toBe(false);
    expect(run.error).toStartWith("timeout");
    await expectWorks();
  }, 30_000); // the run's own limit plus the next run; slow on a loaded machine

  test("code blocked outside the bytecode loop (sleep) is stopped by ending the worker; a new one takes over", async () => {
    const run = await sandbox.run("import time\nprint('sleeping')\ntime.sleep(60)");
    expect(run.ok).toBe(false);
    expect(run.error).toStartWith("timeout");
    await expectWorks();
  }, 60_000);

  test("memory bombs end in MemoryError without taking the process down", async () => {
    for (const code of ["x = bytearray(2**30)", "grow = []\nwhile True: grow.append('x' * 10**6)", "x = 'a' * (2**31 - 10)"]) {
      const run = await sandbox.run(code);
      expect(run.ok).toBe(false);
      expect(run.error).toStartWith("MemoryError");
    }
    await expectWorks();
  });

  test("os._exit and sys.exit do not end the host process", async () => {
    const exit = await sandbox.run("import sys\nsys.exit(3)");
    expect(exit).toMatchObject({ ok: false, error: "SystemExit: 3" });
    const hard = await sandbox.run("import os\nos._exit(1)");
    expect(hard.ok).toBe(false);
    await expectWorks();
  }, 60_000);

  test("an abort signal stops the run", async () => {
    const controller = new AbortController();
    const pending = sandbox.run("while True: pass", controller.signal);
    setTimeout(() => controller.abort(), 200);
    const run = await pending;
    expect(run.ok).toBe(false);
    expect(run.error).toStartWith("aborted");
    await expectWorks();
  });
});
