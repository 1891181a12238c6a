/**
 * The sandbox worker: one Pyodide interpreter in a worker thread. It starts the interpreter,
 * then walls it in before any user code runs:
 *  - WebAssembly memory growth is capped (memoryLimitMb), so a memory bomb ends in MemoryError;
 *  - the JS globals that lead to the host (process, require, Bun, fetch, XMLHttpRequest,
 *    WebSocket, ...) are deleted, eval and the Function constructors refuse to run;
 *  - Pyodide's own ways out (mountNodeFS, NODEFS, useNodeSockFS, loadPackage, loadBinaryFile)
 *    are replaced by functions that throw;
 *  - Python's `js` module is an empty object, and js/pyodide_js/pyodide/ctypes cannot be imported.
 * The virtual file system holds only Pyodide's in-memory files: the host is never mounted.
 */
import { parentPort, workerData } from "node:worker_threads";
import { loadPyodide, type PyodideAPI } from "pyodide";
import type { RunRequest, WorkerMessage, WorkerSetup } from "./protocol.ts";
import { PYTHON_DRIVER } from "./python-driver.ts";

const WASM_PAGE_BYTES = 65536;

/** HOST_GLOBALS are the globals through which JS code could reach files, processes or the network. */
const HOST_GLOBALS = [
  "process", "require", "module", "exports", "Bun", "Deno", "fetch", "XMLHttpRequest", "WebSocket",
  "EventSource", "Worker", "SharedWorker", "importScripts", "postMessage", "BroadcastChannel",
  "navigator", "Request", "Response", "Headers", "FormData", "Blob", "File", "crypto",
  "structuredClone", "queueMicrotask", "setImmediate", "clearImmediate", "onmessage", "close",
  "global", "self",
];

/** DISABLED_API lists the Pyodide API methods that read host files, mount them, or open sockets. */
const DISABLED_API = [
  "mountNodeFS", "mountNativeFS", "useNodeSockFS", "loadPackage", "loadPackagesFromImports",
  "registerJsModule", "unregisterJsModule", "runPython", "runPythonAsync", "pyimport", "setStdout",
  "setStderr", "setStdin", "setInterruptBuffer", "registerComlink",
];
/** DISABLED_INTERNALS: members of Pyodide's internal API that read host files or load code. */
const DISABLED_INTERNALS = [
  "loadBinaryFile", "initializeNodeSockFS", "rawRun", "install", "loadDynlib", "packageManager",
  "makeSnapshot", "restoreSnapshot", "package_loader",
];
/** DISABLED_MODULE: members of the Emscripten module that mount host directories, read host files (its node `fs` closures), load libraries or open sockets. */
const DISABLED_MODULE = [
  "NODEFS", "NODERAWFS", "IDBFS", "WORKERFS", "PROXYFS", "FS_mount", "FS_preloadFile",
  "FS_createPreloadedFile", "FS_createLazyFile", "FS_forceLoadFile", "asyncLoad", "loadDynamicLibrary",
  "loadWebAssemblyModule", "loadDylibs", "dlopenInternal", "wget", "SOCKFS", "Sockets", "websocket",
  "webSockets", "getSocketFromFD", "Browser",
];
const DISABLED_FS = ["mount", "createLazyFile", "createPreloadedFile", "forceLoadFile"];

const port = parentPort;
if (!port) throw new Error("worker.ts must run in a worker thread");
const setup = workerData as WorkerSetup;

/**
 * WARM_UP is run a few times in every interpreter before it reports ready. A fresh worker runs
 * Python's WebAssembly in the engine's baseline tier, so its first run took ~150 ms where a
 * long-used interpreter took ~20 ms (bench/compute.ts, loaded machine; ~78 ms with it); this brings parsing, compiling, the eval loop, Decimal,
 * statistics and printing to the upper tiers while the interpreter is still a spare. It is our own
 * code, run in a throwaway namespace before any user code.
 */
const WARM_UP = String.raw`
import datetime, decimal, json, re, statistics
source = "\n".join([
    "items = [decimal.Decimal(x) for x in ['129.99', '259.98', '89.97']]",
    "total = sum(items)",
    "days = (datetime.date(2024, 3, 1) - datetime.date(2023, 12, 25)).days",
    "print(total, total - decimal.Decimal('21.14'), days, re.findall(r'\\d+', 'a 12 b 7'))",
    "json.dumps({'median': statistics.median([float(x) for x in items]), 'mean': statistics.mean([1, 2, 3])})",
])
for round in range(40):
    exec(compile(source, "<warm-up>", "exec"), {"decimal": decimal, "datetime": datetime, "statistics": statistics, "re": re, "json": json})
round
`;
/** WARM_UP_RUNS: how many times WARM_UP runs through the driver (the driver's own path warms up too). */
const WARM_UP_RUNS = 5;

/** capWasmMemory makes every WebAssembly.Memory refuse to grow past limitMb MiB (Emscripten then returns NULL from malloc, which Python turns into MemoryError). */
function capWasmMemory(limitMb: number): void {
  const maxPages = Math.floor((limitMb * 1024 * 1024) / WASM_PAGE_BYTES);
  const grow = WebAssembly.Memory.prototype.grow;
  Object.defineProperty(WebAssembly.Memory.prototype, "grow", {
    value: function cappedGrow(this: WebAssembly.Memory, deltaPages: number): number {
      if (this.buffer.byteLength / WASM_PAGE_BYTES + deltaPages > maxPages) {
        throw new RangeError(`sandbox memory limit of ${limitMb} MiB reached`);
      }
      return grow.call(this, deltaPages);
    },
    writable: false,
    configurable: false,
  });
}

function refusal(what: string): () => never {
  return function refused(): never {
    throw new Error(`${what} is disabled in the sandbox`);
  };
}

/** disableMember replaces obj[name] by a function that throws (own property, not writable). */
function disableMember(obj: object, name: string, label: string): void {
  try {
    Object.defineProperty(obj, name, { value: refusal(label), writable: false, configurable: false });
  } catch {
    // A member that cannot be redefined is deleted instead.
    Reflect.deleteProperty(obj, name);
  }
}

/** lockDownPyodide removes Pyodide's ways to the host file system, the network and package loading. */
function lockDownPyodide(py: PyodideAPI): void {
  const internals = py as unknown as { _api: object; _module: object };
  const fs = py.FS as unknown as { filesystems: Record<string, unknown> };
  py.unregisterJsModule("js");
  py.unregisterJsModule("pyodide_js");
  for (const name of DISABLED_API) disableMember(py, name, `pyodide.${name}`);
  for (const name of DISABLED_INTERNALS) disableMember(internals._api, name, `pyodide._api.${name}`);
  for (const name of DISABLED_MODULE) disableMember(internals._module, name, `Module.${name}`);
  for (const name of DISABLED_FS) disableMember(fs, name, `FS.${name}`);
  for (const name of Object.keys(fs.filesystems)) {
    if (name !== "MEMFS") Reflect.deleteProperty(fs.filesystems, name);
  }
}

/** lockDownGlobals deletes the host globals and stops JS code generation from strings (eval, new Function, and the async/generator variants; `Function` stays an object whose prototype is Function.prototype, so instanceof checks still work). */
function lockDownGlobals(): void {
  const refusedFunction = refusal("the Function constructor");
  Object.defineProperty(refusedFunction, "prototype", { value: Function.prototype });
  for (const name of ["Function", "eval"]) {
    Object.defineProperty(globalThis, name, {
      value: name === "Function" ? refusedFunction : refusal("eval"),
      writable: false,
      configurable: false,
    });
  }
  const functionPrototypes = [
    Function.prototype,
    Object.getPrototypeOf(async function a() {}),
    Object.getPrototypeOf(function* g() {}),
    Object.getPrototypeOf(async function* ag() {}),
  ];
  for (const proto of functionPrototypes) {
    Object.defineProperty(proto, "constructor", { value: refusedFunction, writable: false, configurable: false });
  }
  for (const name of HOST_GLOBALS) {
    if (!Reflect.deleteProperty(globalThis, name) || name in globalThis) {
      disableMember(globalThis, name, name);
    }
  }
}

/** silenceConsole drops Pyodide's own console messages (e.g. its "fatal error" banner after os._exit): the run's reply carries the error. */
function silenceConsole(): void {
  for (const method of ["log", "info", "warn", "error", "debug", "trace"] as const) {
    console[method] = () => {};
  }
}

function post(message: WorkerMessage): void {
  port!.postMessage(message);
}

/**
 * loadInterpreter starts Pyodide from the snapshot when there is one (several times faster than a
 * cold start); otherwise cold, runs the driver and posts the snapshot for the interpreters after it.
 * The snapshot is taken before any user code ever ran, so every interpreter starts clean.
 */
async function loadInterpreter(): Promise<PyodideAPI> {
  const options = { indexURL: setup.indexDir, jsglobals: Object.create(null), env: { HOME: "/home/pyodide" }, stdout: () => {}, stderr: () => {} };
  if (setup.snapshot) return loadPyodide({ ...options, _loadSnapshot: new Uint8Array(setup.snapshot) });
  const py = await loadPyodide({ ...options, _makeSnapshot: true });
  py.runPython(PYTHON_DRIVER);
  const image = (py as unknown as { makeMemorySnapshot(): Uint8Array }).makeMemorySnapshot();
  const memory = new SharedArrayBuffer(image.byteLength);
  new Uint8Array(memory).set(image);
  post({ type: "snapshot", memory });
  return py;
}

async function start(): Promise<void> {
  const started = performance.now();
  capWasmMemory(setup.memoryLimitMb);
  const py = await loadInterpreter();
  py.runPython("_seal()");
  py.setInterruptBuffer(new Int32Array(setup.interrupt));
  const runFn = py.globals.get("_sandbox_run") as (code: string, maxChars: number) => string;
  const interrupt = new Int32Array(setup.interrupt);
  for (let run = 0; run < WARM_UP_RUNS; run++) runFn(WARM_UP, 1000);
  lockDownPyodide(py);
  lockDownGlobals();
  silenceConsole();

  port!.on("message", function onRunRequest(request: RunRequest) {
    Atomics.store(interrupt, 0, 0);
    let reply: WorkerMessage;
    try {
      const parsed = JSON.parse(runFn(request.code, request.maxOutputChars));
      reply = { type: "result", id: request.id, ...parsed };
    } catch (error) {
      // A JS-level error means the interpreter itself failed (e.g. os._exit): the main thread replaces this worker.
      reply = { type: "result", id: request.id, ok: false, stdout: "", result: null, error: `crashed: the interpreter failed: ${String(error)}`, fatal: true };
    }
    post(reply);
  });
  post({ type: "ready", startMs: performance.now() - started });
}

start().catch(function onStartFailure(error: unknown) {
  post({ type: "failed", error: error instanceof Error ? error.stack ?? error.message : String(error) });
});
