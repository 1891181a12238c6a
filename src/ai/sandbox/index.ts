/**
 * PythonSandbox runs the analyze agent's `compute` code: Python (Pyodide, standard library only)
 * in a warm worker thread with no host files, no network and no way to JavaScript's host globals
 * (see worker.ts for the walls). Runs are serialised: one interpreter, one run at a time.
 *
 * Stopping runaway code: at timeoutMs the worker's interrupt flag is set (Python raises
 * KeyboardInterrupt between bytecodes, the worker stays warm); code stuck inside one C call
 * (e.g. a huge integer power) gets INTERRUPT_GRACE_MS more, then the worker is terminated and a
 * fresh one starts warming in the background for the next run.
 */
import { Worker } from "node:worker_threads";
import type { RunRequest, WorkerMessage, WorkerSetup } from "./protocol.ts";
import { pyodideIndexDir } from "./pyodide-path.ts";
import { compiledEntryPath, isCompiled } from "../../runtime/embedded";

/** workerUrl: the worker's source next to this file, or its bundled entrypoint inside the binary (scripts/build.ts). */
function workerUrl(): string | URL {
  return isCompiled() ? compiledEntryPath("src/ai/sandbox/worker.ts") : new URL("./worker.ts", import.meta.url);
}

export interface SandboxOptions {
  /** timeoutMs: wall-clock limit of one run, in ms (interpreter start not counted). */
  timeoutMs: number;
  /** memoryLimitMb: cap on the interpreter's memory (WebAssembly heap and the worker's JS heap), in MiB. */
  memoryLimitMb: number;
  /** maxOutputChars: stdout and the result's repr are each cut to this many characters. */
  maxOutputChars: number;
}

export interface SandboxResult {
  ok: boolean;
  stdout: string;
  /** result: repr of the last expression, null when the code does not end with a non-None expression. */
  result: string | null;
  /** error: the traceback's last line ("ZeroDivisionError: division by zero"), "timeout: ...", "aborted: ..." or "crashed: ...". */
  error: string | null;
  /** ms: wall-clock time of the run, in ms. */
  ms: number;
}

/** INTERRUPT_GRACE_MS: time after the soft interrupt before the worker is terminated, in ms. */
const INTERRUPT_GRACE_MS = 700;
/** START_TIMEOUT_MS: limit on the interpreter start (cold start is 4-5.5 s), in ms. */
const START_TIMEOUT_MS = 60_000;
const SIGINT = 2;

/** WorkerHandle is one started (or starting) worker with its interrupt flag. */
interface WorkerHandle {
  worker: Worker;
  interrupt: Int32Array;
  ready: Promise<void>;
  /** dead: set when the worker exited or was terminated. */
  dead: boolean;
  /** onExit: called once when the worker exits (set by the run in progress). */
  onExit: ((reason: string) => void) | null;
}

export class PythonSandbox {
  private readonly options: SandboxOptions;
  private handle: WorkerHandle | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private nextId = 1;
  private closed = false;

  constructor(options: SandboxOptions) {
    this.options = options;
  }

  /** warm starts the interpreter ahead of need and resolves when it is ready. */
  async warm(): Promise<void> {
    await this.ensureWorker().ready;
  }

  /** run executes code and reports its output; user-code errors, timeouts and crashes come back as ok=false, never as a throw. */
  run(code: string, signal?: AbortSignal): Promise<SandboxResult> {
    const next = this.queue.then(() => this.runNow(code, signal));
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** close terminates the worker; later runs fail. */
  async close(): Promise<void> {
    this.closed = true;
    const handle = this.handle;
    this.handle = null;
    if (handle) await this.kill(handle);
  }

  private async runNow(code: string, signal?: AbortSignal): Promise<SandboxResult> {
    const started = performance.now();
    const finish = (fields: Omit<SandboxResult, "ms">): SandboxResult => ({ ...fields, ms: Math.round(performance.now() - started) });
    if (this.closed) return finish(failure("crashed: the sandbox is closed"));
    if (signal?.aborted) return finish(failure("aborted: the run was cancelled before it started"));
    const handle = this.ensureWorker();
    try {
      await handle.ready;
    } catch (error) {
      if (this.handle === handle) this.handle = null;
      return finish(failure(`crashed: the Python interpreter did not start: ${messageOf(error)}`));
    }
    const runStarted = performance.now();
    const outcome = await this.exchange(handle, code, signal);
    return { ...outcome, ms: Math.round(performance.now() - runStarted) };
  }

  /** exchange sends one run to the worker and waits for its reply, the deadline or the abort. */
  private exchange(handle: WorkerHandle, code: string, signal?: AbortSignal): Promise<Omit<SandboxResult, "ms">> {
    const id = this.nextId++;
    const { timeoutMs, maxOutputChars } = this.options;
    return new Promise((resolve) => {
      let stopReason: string | null = null;
      let graceTimer: ReturnType<typeof setTimeout> | undefined;
      const settle = (result: Omit<SandboxResult, "ms">) => {
        clearTimeout(deadline);
        clearTimeout(graceTimer);
        signal?.removeEventListener("abort", onAbort);
        handle.worker.off("message", onMessage);
        handle.onExit = null;
        resolve(result);
      };
      const stop = (reason: string) => {
        if (stopReason) return;
        stopReason = reason;
        Atomics.store(handle.interrupt, 0, SIGINT);
        graceTimer = setTimeout(() => {
          settle(failure(reason));
          this.replace(handle);
        }, INTERRUPT_GRACE_MS);
      };
      const onMessage = (message: WorkerMessage) => {
        if (message.type !== "result" || message.id !== id) return;
        if (stopReason && !message.ok) {
          settle({ ...failure(stopReason), stdout: message.stdout });
          return;
        }
        settle({ ok: message.ok, stdout: message.stdout, result: message.result, error: message.error });
        if (message.fatal) this.replace(handle);
      };
      const onAbort = () => stop("aborted: the run was cancelled");
      const deadline = setTimeout(() => stop(`timeout: the code ran longer than ${timeoutMs} ms and was stopped`), timeoutMs);
      handle.onExit = (reason) => settle(failure(stopReason ?? `crashed: the Python worker exited (${reason})`));
      handle.worker.on("message", onMessage);
      signal?.addEventListener("abort", onAbort, { once: true });
      const request: RunRequest = { type: "run", id, code, maxOutputChars };
      handle.worker.postMessage(request);
    });
  }

  /** ensureWorker returns the current worker, starting one when there is none. */
  private ensureWorker(): WorkerHandle {
    if (!this.handle || this.handle.dead) this.handle = this.startWorker();
    return this.handle;
  }

  /** replace terminates a stuck worker and starts warming its successor in the background. */
  private replace(handle: WorkerHandle): void {
    if (this.handle === handle) this.handle = null;
    void this.kill(handle);
    if (!this.closed) this.ensureWorker().ready.catch(() => undefined);
  }

  private async kill(handle: WorkerHandle): Promise<void> {
    handle.dead = true;
    await handle.worker.terminate().catch(() => undefined);
  }

  private startWorker(): WorkerHandle {
    const interrupt = new SharedArrayBuffer(4);
    const setup: WorkerSetup = { indexDir: pyodideIndexDir(), memoryLimitMb: this.options.memoryLimitMb, interrupt };
    const worker = new Worker(workerUrl(), {
      workerData: setup,
      resourceLimits: { maxOldGenerationSizeMb: Math.max(64, this.options.memoryLimitMb), maxYoungGenerationSizeMb: 32 },
    });
    worker.unref();
    const handle: WorkerHandle = { worker, interrupt: new Int32Array(interrupt), ready: Promise.resolve(), dead: false, onExit: null };
    handle.ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ready signal within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS);
      worker.on("message", function onStartMessage(message: WorkerMessage) {
        if (message.type === "ready") resolve();
        if (message.type === "failed") reject(new Error(message.error));
        if (message.type !== "result") clearTimeout(timer);
      });
      worker.on("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
      worker.on("exit", (exitCode) => {
        clearTimeout(timer);
        handle.dead = true;
        reject(new Error(`worker exited with code ${exitCode}`));
        handle.onExit?.(`exit code ${exitCode}`);
      });
    });
    handle.ready.catch(() => undefined);
    return handle;
  }
}

function failure(error: string): Omit<SandboxResult, "ms"> {
  return { ok: false, stdout: "", result: null, error };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
