/**
 * PythonSandbox runs the analyze agent's `compute` code: Python (Pyodide, standard library only)
 * in worker threads with no host files, no network and no way to JavaScript's host globals (see
 * worker.ts for the walls).
 *
 * One interpreter per session, never shared. An agent run opens a session (`session()`); its
 * first run takes an interpreter of its own and closing the session terminates it. Whatever a run
 * does to its interpreter (a replaced driver, patched builtins, a removed import blocker, stored
 * globals) stays inside its session: no session can see another's code, data or results. Within
 * one session the interpreter's state carries from run to run (each run's variables still live in
 * a fresh namespace).
 *
 * Starts: the first interpreter starts cold (4-5.5 s, far more on a loaded machine) and hands back
 * a memory snapshot taken after the driver loaded and before any user code ran; later interpreters
 * start from that snapshot, several times faster (on a loaded 2-core machine: 5-6 s against 25-35 s).
 *
 * Spares: a start still takes seconds, so from the first
 * `warm()` or session run on, `spares` interpreters are kept started ahead of need. A session
 * takes a ready spare at once and a replacement starts warming in the background; a session that
 * never runs code takes nothing.
 *
 * Bounds: at most `maxInterpreters` are alive at once (spares, starting and in use), about 90 MB
 * each plus what the code allocates (up to memoryLimitMb). A session's first run that finds no
 * ready spare waits, sessions in arrival order:
 *  - for an interpreter to start, when there is room for one (not counted in timeoutMs, at most
 *    START_TIMEOUT_MS), as the first run after a cold start always did;
 *  - when every interpreter is in use by other sessions, up to timeoutMs for one of those
 *    sessions to end; past that the run fails with "busy: ..." (the agent is told, and may try
 *    again or go on without compute).
 *
 * Stopping runaway code: at timeoutMs the worker's interrupt flag is set (Python raises
 * KeyboardInterrupt between bytecodes, the interpreter stays); code stuck inside one C call (e.g.
 * a huge integer power or time.sleep) gets INTERRUPT_GRACE_MS more, then the worker is terminated.
 * A run that ends in MemoryError or crashes the interpreter also ends it (its grown heap is freed
 * at once). The session then takes a fresh interpreter for its next run; its earlier state is gone.
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
  /** timeoutMs: wall-clock limit of one run, in ms (interpreter start not counted); also the longest wait for another session to free an interpreter. */
  timeoutMs: number;
  /** memoryLimitMb: cap on each interpreter's memory (WebAssembly heap and the worker's JS heap), in MiB. */
  memoryLimitMb: number;
  /** maxOutputChars: stdout and the result's repr are each cut to this many characters. */
  maxOutputChars: number;
  /** spares: interpreters kept started ahead of need; 0 = none, each session's first run waits for a cold start. */
  spares: number;
  /** maxInterpreters: interpreters alive at once (spares, starting and in use); at least 1. */
  maxInterpreters: number;
}

export interface SandboxResult {
  ok: boolean;
  stdout: string;
  /** result: repr of the last expression, null when the code does not end with a non-None expression. */
  result: string | null;
  /** error: the traceback's last line ("ZeroDivisionError: division by zero"), "timeout: ...", "aborted: ...", "busy: ..." or "crashed: ...". */
  error: string | null;
  /** ms: wall-clock time of the run, in ms (waiting for an interpreter not counted). */
  ms: number;
}

/** SandboxSession is one agent run's interpreter: runs are serialised and share its state; close() ends it. */
export interface SandboxSession {
  /** run executes code and reports its output; user-code errors, timeouts and crashes come back as ok=false, never as a throw. */
  run(code: string, signal?: AbortSignal): Promise<SandboxResult>;
  /** close terminates the session's interpreter; later runs fail. */
  close(): Promise<void>;
}

/** SandboxCounts is a snapshot of the interpreters, for tests and diagnostics. */
export interface SandboxCounts {
  /** live: interpreters alive (starting, spare or in use) */
  live: number;
  /** spares: started or starting interpreters no session has taken */
  spares: number;
  /** ready: spares that finished starting */
  ready: number;
  /** waiting: session runs waiting for an interpreter */
  waiting: number;
}

/** INTERRUPT_GRACE_MS: time after the soft interrupt before the worker is terminated, in ms. */
const INTERRUPT_GRACE_MS = 700;
/** START_TIMEOUT_MS: limit on one interpreter start (cold start is 4-5.5 s, far more on a loaded machine), in ms. */
const START_TIMEOUT_MS = 120_000;
const SIGINT = 2;

/** Interpreter is one started (or starting) worker with its interrupt flag. */
interface Interpreter {
  worker: Worker;
  interrupt: Int32Array;
  ready: Promise<void>;
  /** isReady: the interpreter finished starting and can take a run. */
  isReady: boolean;
  /** dead: set when the worker exited or was terminated. */
  dead: boolean;
  /** onExit: called once when the worker exits (set by the run in progress). */
  onExit: ((reason: string) => void) | null;
}

/** Waiter is a session run waiting for an interpreter. */
interface Waiter {
  resolve(interpreter: Interpreter): void;
  reject(error: Error): void;
  /** slotTimer: runs while no interpreter is starting for this waiter (all are in use); fires after timeoutMs. */
  slotTimer?: ReturnType<typeof setTimeout>;
  signal?: AbortSignal;
  onAbort?: () => void;
}

interface SessionState {
  interpreter: Interpreter | null;
  queue: Promise<unknown>;
  closed: boolean;
}

/** RunOutcome is an exchange's result and whether its interpreter must end. */
interface RunOutcome {
  result: Omit<SandboxResult, "ms">;
  retire: boolean;
}

export class PythonSandbox {
  private readonly options: SandboxOptions;
  /** interpreters: every live interpreter (starting, spare or in use). */
  private readonly interpreters = new Set<Interpreter>();
  /** spares: interpreters no session has taken, in start order. */
  private readonly spares: Interpreter[] = [];
  private readonly waiters: Waiter[] = [];
  /** keepSpares: set by the first warm() or run; cleared when a start fails, so a broken install does not restart forever. */
  private keepSpares = false;
  /** snapshot: memory of a freshly started interpreter (driver loaded, no user code ever run); interpreters start from it. */
  private snapshot: SharedArrayBuffer | null = null;
  private nextId = 1;
  private closed = false;

  constructor(options: SandboxOptions) {
    this.options = { ...options, spares: Math.max(0, options.spares), maxInterpreters: Math.max(1, options.maxInterpreters) };
  }

  /** warm starts the spares ahead of need and resolves when those starting now are ready (at once with spares = 0). */
  async warm(): Promise<void> {
    if (this.closed) return;
    this.keepSpares = true;
    this.dispatch();
    await Promise.all(this.spares.map((spare) => spare.ready));
  }

  /** session opens one agent run's own interpreter (taken on its first run, terminated by close). */
  session(): SandboxSession {
    const state: SessionState = { interpreter: null, queue: Promise.resolve(), closed: false };
    return {
      run: (code, signal) => {
        const next = state.queue.then(() => this.runInSession(state, code, signal));
        state.queue = next.catch(() => undefined);
        return next;
      },
      close: async () => {
        state.closed = true;
        const interpreter = state.interpreter;
        state.interpreter = null;
        if (interpreter) await this.retire(interpreter);
      },
    };
  }

  /** counts reports the interpreters alive, spare and ready, and the runs waiting for one. */
  counts(): SandboxCounts {
    return { live: this.interpreters.size, spares: this.spares.length, ready: this.spares.filter((s) => s.isReady).length, waiting: this.waiters.length };
  }

  /** close terminates every interpreter; waiting and later runs fail. */
  async close(): Promise<void> {
    this.closed = true;
    for (const waiter of this.waiters.splice(0)) this.settleWaiter(waiter, new Error("crashed: the sandbox is closed"));
    await Promise.all([...this.interpreters].map((interpreter) => this.retire(interpreter)));
  }

  private async runInSession(state: SessionState, code: string, signal?: AbortSignal): Promise<SandboxResult> {
    const started = performance.now();
    const finish = (fields: Omit<SandboxResult, "ms">): SandboxResult => ({ ...fields, ms: Math.round(performance.now() - started) });
    if (this.closed) return finish(failure("crashed: the sandbox is closed"));
    if (state.closed) return finish(failure("crashed: the compute session has ended"));
    if (signal?.aborted) return finish(failure("aborted: the run was cancelled before it started"));
    let interpreter = state.interpreter;
    if (!interpreter || interpreter.dead) {
      state.interpreter = null;
      try {
        interpreter = await this.acquire(signal);
      } catch (error) {
        return finish(failure(messageOf(error)));
      }
      if (state.closed) {
        void this.retire(interpreter);
        return finish(failure("crashed: the compute session has ended"));
      }
      state.interpreter = interpreter;
      if (signal?.aborted) return finish(failure("aborted: the run was cancelled before it started"));
    }
    const runStarted = performance.now();
    const outcome = await this.exchange(interpreter, code, signal);
    if (outcome.retire) {
      if (state.interpreter === interpreter) state.interpreter = null;
      void this.retire(interpreter);
    }
    return { ...outcome.result, ms: Math.round(performance.now() - runStarted) };
  }

  /** acquire takes a ready spare, or waits for one (see the header for how long). */
  private acquire(signal?: AbortSignal): Promise<Interpreter> {
    if (this.closed) return Promise.reject(new Error("crashed: the sandbox is closed"));
    this.keepSpares = true;
    return new Promise<Interpreter>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, signal };
      if (signal) {
        waiter.onAbort = () => {
          this.dropWaiter(waiter, new Error("aborted: the run was cancelled while it waited for a Python interpreter"));
        };
        signal.addEventListener("abort", waiter.onAbort, { once: true });
      }
      this.waiters.push(waiter);
      this.dispatch();
    });
  }

  /**
   * dispatch hands ready spares to waiting runs in arrival order, starts interpreters for the
   * waiting runs plus `spares` (within maxInterpreters), and times the waits of runs for which no
   * interpreter is starting.
   */
  private dispatch(): void {
    while (this.waiters.length > 0) {
      const index = this.spares.findIndex((spare) => spare.isReady);
      if (index < 0) break;
      const [interpreter] = this.spares.splice(index, 1);
      this.settleWaiter(this.waiters.shift()!, null, interpreter);
    }
    if (this.closed) return;
    const wanted = this.waiters.length + (this.keepSpares ? this.options.spares : 0);
    while (this.spares.length < wanted && this.interpreters.size < this.options.maxInterpreters) {
      this.spares.push(this.startInterpreter());
    }
    const { timeoutMs, maxInterpreters } = this.options;
    this.waiters.forEach((waiter, position) => {
      if (position < this.spares.length) {
        clearTimeout(waiter.slotTimer);
        waiter.slotTimer = undefined;
      } else if (!waiter.slotTimer) {
        waiter.slotTimer = setTimeout(() => {
          this.dropWaiter(waiter, new Error(`busy: all ${maxInterpreters} Python interpreters are in use by other requests and none came free within ${timeoutMs} ms; try again, or go on without compute`));
        }, timeoutMs);
      }
    });
  }

  private dropWaiter(waiter: Waiter, error: Error): void {
    const index = this.waiters.indexOf(waiter);
    if (index < 0) return;
    this.waiters.splice(index, 1);
    this.settleWaiter(waiter, error);
    this.dispatch();
  }

  private settleWaiter(waiter: Waiter, error: Error | null, interpreter?: Interpreter): void {
    clearTimeout(waiter.slotTimer);
    if (waiter.onAbort) waiter.signal?.removeEventListener("abort", waiter.onAbort);
    if (error) waiter.reject(error);
    else waiter.resolve(interpreter!);
  }

  /** retire terminates an interpreter and frees its place for a fresh one. */
  private async retire(interpreter: Interpreter): Promise<void> {
    interpreter.dead = true;
    const known = this.interpreters.delete(interpreter);
    const spareIndex = this.spares.indexOf(interpreter);
    if (spareIndex >= 0) this.spares.splice(spareIndex, 1);
    if (known) this.dispatch();
    await interpreter.worker.terminate().catch(() => undefined);
  }

  /** startFailed ends an interpreter that did not start; the waiting runs get the reason, and spares are not restarted until the next warm() or run. */
  private startFailed(interpreter: Interpreter, error: unknown): void {
    if (!this.interpreters.has(interpreter)) return;
    this.keepSpares = false;
    for (const waiter of this.waiters.splice(0)) this.settleWaiter(waiter, new Error(`crashed: the Python interpreter did not start: ${messageOf(error)}`));
    void this.retire(interpreter);
  }

  /** exchange sends one run to the interpreter and waits for its reply, the deadline or the abort. */
  private exchange(interpreter: Interpreter, code: string, signal?: AbortSignal): Promise<RunOutcome> {
    const id = this.nextId++;
    const { timeoutMs, maxOutputChars } = this.options;
    const { worker } = interpreter;
    return new Promise((resolve) => {
      let stopReason: string | null = null;
      let graceTimer: ReturnType<typeof setTimeout> | undefined;
      const settle = (result: Omit<SandboxResult, "ms">, retire: boolean) => {
        clearTimeout(deadline);
        clearTimeout(graceTimer);
        signal?.removeEventListener("abort", onAbort);
        worker.off("message", onMessage);
        interpreter.onExit = null;
        resolve({ result, retire });
      };
      const stop = (reason: string) => {
        if (stopReason) return;
        stopReason = reason;
        Atomics.store(interpreter.interrupt, 0, SIGINT);
        graceTimer = setTimeout(() => settle(failure(reason), true), INTERRUPT_GRACE_MS);
      };
      const onMessage = (message: WorkerMessage) => {
        if (message.type !== "result" || message.id !== id) return;
        if (stopReason && !message.ok) {
          settle({ ...failure(stopReason), stdout: message.stdout }, false);
          return;
        }
        settle({ ok: message.ok, stdout: message.stdout, result: message.result, error: message.error }, Boolean(message.fatal));
      };
      const onAbort = () => stop("aborted: the run was cancelled");
      const deadline = setTimeout(() => stop(`timeout: the code ran longer than ${timeoutMs} ms and was stopped`), timeoutMs);
      interpreter.onExit = (reason) => settle(failure(stopReason ?? `crashed: the Python worker exited (${reason})`), true);
      worker.on("message", onMessage);
      signal?.addEventListener("abort", onAbort, { once: true });
      const request: RunRequest = { type: "run", id, code, maxOutputChars };
      worker.postMessage(request);
    });
  }

  private startInterpreter(): Interpreter {
    const interrupt = new SharedArrayBuffer(4);
    const snapshot = this.snapshot;
    const setup: WorkerSetup = { indexDir: pyodideIndexDir(), memoryLimitMb: this.options.memoryLimitMb, interrupt, ...(snapshot ? { snapshot } : {}) };
    const worker = new Worker(workerUrl(), {
      workerData: setup,
      resourceLimits: { maxOldGenerationSizeMb: Math.max(64, this.options.memoryLimitMb), maxYoungGenerationSizeMb: 32 },
    });
    worker.unref();
    const interpreter: Interpreter = { worker, interrupt: new Int32Array(interrupt), ready: Promise.resolve(), isReady: false, dead: false, onExit: null };
    this.interpreters.add(interpreter);
    interpreter.ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ready signal within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS);
      worker.on("message", (message: WorkerMessage) => {
        if (message.type === "snapshot") this.snapshot ??= message.memory;
        if (message.type === "ready") resolve();
        if (message.type === "failed") reject(new Error(message.error));
        if (message.type === "ready" || message.type === "failed") clearTimeout(timer);
      });
      worker.on("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
      worker.on("exit", (exitCode) => {
        clearTimeout(timer);
        reject(new Error(`worker exited with code ${exitCode}`));
        interpreter.onExit?.(`exit code ${exitCode}`);
        if (interpreter.isReady) void this.retire(interpreter);
      });
    });
    interpreter.ready.then(
      () => {
        interpreter.isReady = true;
        this.dispatch();
      },
      (error) => {
        // A snapshot that does not start is dropped: the next start is cold and makes a new one.
        if (snapshot && this.snapshot === snapshot) this.snapshot = null;
        this.startFailed(interpreter, error);
      },
    );
    return interpreter;
  }
}

function failure(error: string): Omit<SandboxResult, "ms"> {
  return { ok: false, stdout: "", result: null, error };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
