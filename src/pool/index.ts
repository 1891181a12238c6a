/**
 * WorkerPool runs CPU-heavy functions (functions.ts) on piscina worker threads. The queue is bounded: when it is full a
 * request gets 503 `overloaded` with Retry-After instead of joining an unbounded backlog.
 */
import Piscina from "piscina";
import { AppError, RETRY_AFTER_OVERLOADED_S } from "../errors";
import { compiledEntryPath, isCompiled } from "../runtime/embedded";
import type { WorkerArgs, WorkerFunctionName, WorkerResult } from "./functions";

export interface PoolOptions {
  /** threads: number of worker threads (the CPU count by default) */
  threads: number;
  /** maxQueue: calls that may wait for a free thread; 0 = none may wait */
  maxQueue: number;
  /** workerUrl: the worker script; the compiled binary passes its embedded path */
  workerUrl?: string;
}

/**
 * workerScriptUrl is the worker script piscina starts: the .ts file next to this one in development,
 * and inside the compiled binary the worker entrypoint that scripts/build.ts embeds
 * (`/$bunfs/root/src/pool/worker.js`; `import.meta.url` there is the binary's main entry instead).
 */
export function workerScriptUrl(): string {
  if (isCompiled()) return compiledEntryPath("src/pool/worker.ts");
  return new URL("./worker.ts", import.meta.url).href;
}

export class WorkerPool {
  private readonly piscina: Piscina;

  constructor(private readonly options: PoolOptions) {
    this.piscina = new Piscina({
      filename: options.workerUrl ?? workerScriptUrl(),
      minThreads: 1,
      maxThreads: options.threads,
      maxQueue: options.maxQueue,
      idleTimeout: 60_000,
      env: { ...process.env, OMP_THREAD_LIMIT: "1" },
    });
  }

  get queueSize(): number {
    return this.piscina.queueSize;
  }

  get threads(): number {
    return this.piscina.threads.length;
  }

  /** completedCalls: calls finished (with a result or an error) since the pool started */
  get completedCalls(): number {
    return this.piscina.completed;
  }

  get utilization(): number {
    return this.piscina.utilization;
  }

  async run<N extends WorkerFunctionName>(name: N, args: WorkerArgs<N>, signal?: AbortSignal): Promise<WorkerResult<N>> {
    if (this.piscina.queueSize >= this.options.maxQueue && this.piscina.utilization >= 1) this.throwOverloaded();
    try {
      return (await this.piscina.run({ name, args }, { signal })) as WorkerResult<N>;
    } catch (error) {
      if (error instanceof Error && /queue is at limit/i.test(error.message)) this.throwOverloaded();
      throw error;
    }
  }

  async close(): Promise<void> {
    await this.piscina.close({ force: false });
  }

  private throwOverloaded(): never {
    throw new AppError("overloaded", `All ${this.options.threads} workers are busy and ${this.options.maxQueue} calls are waiting; retry in a few seconds.`, {
      headers: { "Retry-After": String(RETRY_AFTER_OVERLOADED_S) },
    });
  }
}
