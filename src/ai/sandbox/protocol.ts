/** Messages between PythonSandbox (main thread) and its worker (worker.ts). */

/** WorkerSetup is the worker's `workerData`. */
export interface WorkerSetup {
  /** indexDir: directory of the pyodide package, trailing slash. */
  indexDir: string;
  /** memoryLimitMb: cap on the interpreter's WebAssembly memory, in MiB. */
  memoryLimitMb: number;
  /** interrupt: one Int32 the main thread sets to 2 (SIGINT) to stop the running code softly. */
  interrupt: SharedArrayBuffer;
  /** snapshot: the interpreter's memory right after the driver ran (made by the first worker); absent: start cold and make it. */
  snapshot?: SharedArrayBuffer;
}

export interface RunRequest {
  type: "run";
  id: number;
  code: string;
  maxOutputChars: number;
}

export type WorkerMessage =
  | { type: "ready"; startMs: number }
  | { type: "snapshot"; memory: SharedArrayBuffer }
  | { type: "failed"; error: string }
  | { type: "result"; id: number; ok: boolean; stdout: string; result: string | null; error: string | null; fatal?: boolean };
