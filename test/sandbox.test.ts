import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PythonSandbox, type SandboxSession } from "../src/ai/sandbox/index.ts";

const TIMEOUT_MS = 8000; // generous: a spare starting beside a run competes with it for CPU
const MAX_OUTPUT = 500;
/** COLD_START_MS: a generous bound on interpreter starts (4-5.5 s alone, far more on a loaded machine). */
const COLD_START_MS = 120_000;
let sandbox: PythonSandbox;
/** session: one long session, as one agent run would hold it, for the tests of a single interpreter. */
let session: SandboxSession;

beforeAll(async () => {
  sandbox = new PythonSandbox({ timeoutMs: TIMEOUT_MS, memoryLimitMb: 256, maxOutputChars: MAX_OUTPUT, spares: 1, maxInterpreters: 4 });
  await sandbox.warm();
  session = sandbox.session();
}, COLD_START_MS);

afterAll(async () => {
  await session.close();
  await sandbox.close();
});

/** markInterpreter leaves a token in the session's interpreter (builtins outlive each run's namespace). */
async function markInterpreter(on: SandboxSession, token: string): Promise<void> {
  const run = await on.run(`import builtins\nbuiltins._interpreter_mark = ${JSON.stringify(token)}`);
  expect(run.ok).toBe(true);
}

/** markOf reads the token markInterpreter left (as a repr), null in an interpreter that has none. */
async function markOf(on: SandboxSession): Promise<string | null> {
  return (await on.run("import builtins\ngetattr(builtins, '_interpreter_mark', None)")).result;
}

/** expectWorks checks that the sandbox still answers after a failure. */
async function expectWorks(): Promise<void> {
  const after = await session.run("6 * 7");
  expect(after).toMatchObject({ ok: true, result: String(6 * 7), error: null });
}

describe("standard library calculations", () => {
  test("float sum, median, Decimal, Fraction", async () => {
    const values = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3];
    const sorted = [...values].sort((a, b) => a - b);
    const median = (sorted[4]! + sorted[5]!) / 2;
    const sum = await session.run("sum([1.1, 2.2, 3.3])");
    expect(sum).toMatchObject({ ok: true, result: String(1.1 + 2.2 + 3.3) });
    const med = await session.run(`import statistics\nstatistics.median(${JSON.stringify(values)})`);
    expect(med).toMatchObject({ ok: true, result: String(median) });
    const dec = await session.run("import decimal\ndecimal.Decimal('0.1') + decimal.Decimal('0.2')");
    expect(dec.result).toBe("Decimal('0.3')");
    const frac = await session.run("from fractions import Fraction\nFraction(1, 3) + Fraction(1, 6)");
    expect(frac.result).toBe("Fraction(1, 2)");
  });

  test("dates, regular expressions, JSON and print", async () => {
    const days = Math.round((Date.UTC(2024, 2, 1) - Date.UTC(2023, 11, 25)) / 86_400_000);
    const run = await session.run(
      "import datetime, re, json\n" +
        "d = (datetime.date(2024, 3, 1) - datetime.date(2023, 12, 25)).days\n" +
        "print(json.dumps({'days': d, 'amounts': re.findall(r'\\d+\\.\\d{2}', 'total 12.50 and 7.25')}))",
    );
    expect(run.ok).toBe(true);
    expect(run.result).toBeNull();
    expect(JSON.parse(run.stdout)).toEqual({ days, amounts: ["12.50", "7.25"] });
  });

  test("an exception reports the traceback's last line and keeps earlier output", async () => {
    const run = await session.run("print('before')\n1 / 0");
    expect(run).toMatchObject({ ok: false, stdout: "before\n", result: null, error: "ZeroDivisionError: division by zero" });
    const syntax = await session.run("def broken(:\n  pass");
    expect(syntax.ok).toBe(false);
    expect(syntax.error).toStartWith("SyntaxError");
  });

  test("stdout and the result repr are cut to maxOutputChars", async () => {
    const run = await session.run("for i in range(1000): print('line', i)\n'y' * 5000");
    expect(run.ok).toBe(true);
    expect(run.stdout.length).toBeLessThanOrEqual(MAX_OUTPUT);
    expect(run.stdout).toStartWith("line 0\nline 1\n");
    expect(run.stdout).toContain("truncated");
    expect(run.result!.length).toBeLessThanOrEqual(MAX_OUTPUT);
  });

  test("numpy is not installed and its import fails cleanly", async () => {
    const run = await session.run("import numpy");
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
      const passwd = await session.run("open('/etc/passwd').read()");
      expect(passwd.ok).toBe(false);
      expect(passwd.error).toStartWith("FileNotFoundError");
      const mine = await session.run(`import os\nos.path.exists(${JSON.stringify(secret)}), os.path.exists(${JSON.stringify(dir)})`);
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
      const run = await session.run(code);
      expect(run.ok).toBe(false);
      expect(run.error).toMatch(/^(ImportError|ModuleNotFoundError)/);
    }
    for (const name of ["js", "pyodide_js"]) {
      const run = await session.run(`import sys\nsys.meta_path.pop(0)\nimport ${name}`);
      expect(run.ok).toBe(false);
      expect(run.error).toBe(`ModuleNotFoundError: No module named '${name}'`);
    }
  });

  test("JS objects left in the interpreter lead to no host global and no code generation", async () => {
    const run = await session.run(`import gc
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
      const socketRun = await session.run(`import socket\nsocket.create_connection(("127.0.0.1", ${port}), timeout=1)`);
      expect(socketRun.ok).toBe(false);
      expect(socketRun.error).toMatch(/Error/);
      const urlRun = await session.run(`import urllib.request\nurllib.request.urlopen("http://127.0.0.1:${port}/", timeout=1).read()`);
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
    const run = await session.run("while True: pass");
    expect(run.ok).toBe(false);
    expect(run.error).toStartWith("timeout");
    await expectWorks();
  }, COLD_START_MS); // the run's own limit plus the next run (a fresh interpreter when the interrupt came too late)

  test("code blocked outside the bytecode loop (sleep) is stopped by ending the worker; a fresh interpreter takes over", async () => {
    await markInterpreter(session, "before-sleep");
    const run = await session.run("import time\nprint('sleeping')\ntime.sleep(60)");
    expect(run.ok).toBe(false);
    expect(run.error).toStartWith("timeout");
    await expectWorks();
    expect(await markOf(session)).toBeNull();
  }, COLD_START_MS);

  test("memory bombs end in MemoryError without taking the process down; the grown interpreter is ended and replaced", async () => {
    for (const code of ["x = bytearray(2**30)", "grow = []\nwhile True: grow.append(bytearray(2**24))", "x = 'a' * (2**31 - 10)"]) {
      await markInterpreter(session, "before-bomb");
      const run = await session.run(code);
      expect(run.ok).toBe(false);
      expect(run.error).toStartWith("MemoryError");
      expect(await markOf(session)).toBeNull();
    }
    await expectWorks();
  }, 3 * COLD_START_MS);

  test("os._exit and sys.exit do not end the host process", async () => {
    const exit = await session.run("import sys\nsys.exit(3)");
    expect(exit).toMatchObject({ ok: false, error: "SystemExit: 3" });
    const hard = await session.run("import os\nos._exit(1)");
    expect(hard.ok).toBe(false);
    await expectWorks();
  }, COLD_START_MS);

  test("an abort signal stops the run", async () => {
    const controller = new AbortController();
    const pending = session.run("while True: pass", controller.signal);
    setTimeout(() => controller.abort(), 200);
    const run = await pending;
    expect(run.ok).toBe(false);
    expect(run.error).toStartWith("aborted");
    await expectWorks();
  });
});

describe("one interpreter per session (one agent run), never shared", () => {
  test("what session A does to its interpreter reaches neither B's code nor C: driver, builtins, import blocker and globals are fresh", async () => {
    await sandbox.warm();
    const a = sandbox.session();
    // Session A: the attack from issue 14, on everything that outlived a run in a shared interpreter.
    const attack = await a.run(`import __main__, builtins, statistics, sys
captured = []
original = __main__._execute
def spy(code, namespace):
    captured.append(code)
    return original(code, namespace)
__main__._execute = spy
builtins._captured_runs = captured
builtins.len = lambda obj: 0
sys.meta_path[:] = [finder for finder in sys.meta_path if type(finder).__name__ != '_SandboxImportBlocker']
sys.modules['attacker_stash'] = type(sys)('attacker_stash')
sys.modules['attacker_stash'].results = captured
statistics.mean = lambda data: 'attacker'
'patched'`);
    expect(attack).toMatchObject({ ok: true, result: "'patched'" });
    expect((await a.run("len([1, 2, 3])")).result).toBe("0"); // within A, the patches hold
    await a.close();

    await sandbox.warm();
    const b = sandbox.session();
    const secret = await b.run("secret = 'customer-b-iban-DE89370400440532013000'\nprint(secret)\nlen(secret)");
    expect(secret).toMatchObject({ ok: true, stdout: "customer-b-iban-DE89370400440532013000\n", result: "38" });
    await b.close();

    await sandbox.warm();
    const c = sandbox.session();
    const look = await c.run(`import __main__, builtins, sys, statistics
found = {
    'captured': repr(getattr(builtins, '_captured_runs', None)),
    'stash': 'attacker_stash' in sys.modules,
    'execute': __main__._execute.__name__,
    'len': len([1, 2, 3]),
    'mean': statistics.mean([1, 2, 3]),
    'blocker': [type(finder).__name__ for finder in sys.meta_path][:1],
}
found`);
    expect(look.ok).toBe(true);
    expect(look.result).not.toContain("customer-b");
    expect(look.result).toBe("{'captured': 'None', 'stash': False, 'execute': '_execute', 'len': 3, 'mean': 2, 'blocker': ['_SandboxImportBlocker']}");
    for (const code of ["import js", "import pyodide_js", "import pyodide", "import ctypes"]) {
      const blocked = await c.run(code);
      expect(blocked.ok).toBe(false);
      expect(blocked.error).toMatch(/^ImportError: module '\w+' is not available in the sandbox/);
    }
    await c.close();
  }, 3 * COLD_START_MS);

  test("within one session the interpreter's state carries from run to run; another session does not see it", async () => {
    await sandbox.warm();
    const mine = sandbox.session();
    await markInterpreter(mine, "kept");
    expect(await markOf(mine)).toBe("'kept'");
    const variable = await mine.run("total = 41");
    expect(variable.ok).toBe(true);
    const next = await mine.run("total + 1"); // each run's variables live in a fresh namespace
    expect(next).toMatchObject({ ok: false, error: "NameError: name 'total' is not defined" });
    await sandbox.warm();
    const other = sandbox.session();
    expect(await markOf(other)).toBeNull();
    await other.close();
    expect(await markOf(mine)).toBe("'kept'");
    await mine.close();
    const after = await mine.run("1 + 1");
    expect(after).toMatchObject({ ok: false, error: "crashed: the compute session has ended" });
  }, 2 * COLD_START_MS);

  test("a session takes a warm spare, a replacement starts at once, and closing the session ends its interpreter", async () => {
    const own = new PythonSandbox({ timeoutMs: TIMEOUT_MS, memoryLimitMb: 256, maxOutputChars: MAX_OUTPUT, spares: 1, maxInterpreters: 3 });
    try {
      expect(own.counts()).toEqual({ live: 0, spares: 0, ready: 0, waiting: 0 }); // nothing starts before it is wanted
      await own.warm();
      expect(own.counts()).toEqual({ live: 1, spares: 1, ready: 1, waiting: 0 });
      const first = own.session();
      const run = await first.run("6 * 7");
      expect(run).toMatchObject({ ok: true, result: "42" });
      expect(own.counts()).toMatchObject({ live: 2, spares: 1, waiting: 0 }); // one in use, its replacement starting or ready
      await first.close();
      expect(own.counts()).toMatchObject({ live: 1, spares: 1 });
      const idle = own.session(); // a session that never runs code takes nothing
      await idle.close();
      expect(own.counts()).toMatchObject({ live: 1, spares: 1 });
    } finally {
      await own.close();
    }
    expect(own.counts()).toEqual({ live: 0, spares: 0, ready: 0, waiting: 0 });
  }, COLD_START_MS);

  test("two sessions at once: one takes the spare, the other waits for a fresh start; past the cap a run waits up to the timeout, then is busy", async () => {
    const capped = new PythonSandbox({ timeoutMs: 1500, memoryLimitMb: 256, maxOutputChars: MAX_OUTPUT, spares: 1, maxInterpreters: 2 });
    try {
      await capped.warm();
      const a = capped.session();
      const b = capped.session();
      const [ranA, ranB] = await Promise.all([a.run("import builtins\nbuiltins.owner = 'a'\nowner"), b.run("import builtins\ngetattr(builtins, 'owner', 'nobody')")]);
      expect(ranA).toMatchObject({ ok: true, result: "'a'" });
      expect(ranB).toMatchObject({ ok: true, result: "'nobody'" });
      expect(capped.counts()).toEqual({ live: 2, spares: 0, ready: 0, waiting: 0 }); // at the cap: no spare
      const c = capped.session();
      const busy = await c.run("1 + 1");
      expect(busy.ok).toBe(false);
      expect(busy.error).toStartWith("busy: all 2 Python interpreters are in use");
      const waiting = c.run("getattr(__import__('builtins'), 'owner', 'fresh')");
      await a.close(); // A's run ends: its interpreter is terminated and a fresh one starts for C
      expect(await waiting).toMatchObject({ ok: true, result: "'fresh'" });
      await b.close();
      await c.close();
    } finally {
      await capped.close();
    }
  }, 3 * COLD_START_MS);
});
