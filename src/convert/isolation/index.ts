/**
 * ConversionProcesses run the converters in child processes, so that parsing a hostile document
 * (a DOCX whose XML inflates to 50 MB, JSON nested two million deep) never blocks the service's
 * event loop, never outlives the conversion deadline and never takes the service's memory.
 *
 *   service                                       conversion process (child.ts, one document at a time)
 *   convert(input, ctx) --ConvertRequest-------->  convertDocument(input, remote tools)
 *   tools (LibreOffice, OCR, ffmpeg, pool) <------ ToolCall / ToolReply ----->   (the supervisors stay here)
 *                      <----ConvertDone--------   markdown (size-checked: --max-markdown-mb)
 *
 * The hard stops: at the deadline (or when the client goes away) the process is killed with
 * SIGKILL, and likewise when its resident memory passes `memoryBytes` (the memory rule of
 * tools/memory.ts: 413 document_too_large naming --convert-memory-mb). A killed process is
 * replaced at once by a fresh one, so the next conversion finds a warm process. Processes start on
 * first use, convert one document at a time, and are retired after JOBS_PER_PROCESS conversions or
 * when a conversion left them large (JSC keeps its heap after a big document).
 *
 * Why processes and not worker threads: Bun's workers take no `resourceLimits`, so a thread cannot
 * be held to a memory cap, and the heap of a terminated worker stays in the service.
 */
import { homedir, tmpdir } from "node:os";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { AppError, RETRY_AFTER_OVERLOADED_S } from "../../errors";
import { isCompiled, nativeCacheDir } from "../../runtime/embedded";
import { leftLarge, memoryLimitError, residentBytes, watchMemory } from "../../tools/memory";
import { Semaphore } from "../../tools/semaphore";
import type { ConvertContext, ConvertInput, ConvertTools } from "../types";
import type { DocumentConversion } from "../index";
import { decodeFrame, encodeFrame, errorFromWire, errorToWire, FrameReader, type ConvertRequest, type ToolCall, type ToolMethod, type ToServiceMessage } from "./protocol";

/** CONVERSION_PROCESS_COMMAND is the hidden CLI command the compiled binary runs as a conversion process. */
export const CONVERSION_PROCESS_COMMAND = "__conversion-process";

/** DocumentConverter converts one document; the markdown service holds one (processes, or in-process in unit tests). */
export interface DocumentConverter {
  convert(input: ConvertInput, ctx: ConvertContext): Promise<DocumentConversion>;
  close(): Promise<void>;
}

export interface ConversionProcessOptions {
  /** processes: conversions that run at once, one per process */
  processes: number;
  /** memoryBytes: resident memory one conversion process may reach, in bytes; past it the conversion ends with 413; 0 = unlimited */
  memoryBytes: number;
  /** maxQueue: conversions that may wait for a free process; more get 503 overloaded */
  maxQueue: number;
  /** bwrapPath: bubblewrap, for the programs a conversion process runs itself (see src/tools/sandbox.ts) */
  bwrapPath: string;
}

/** JOBS_PER_PROCESS: conversions before a process is replaced (bounds leaks in parsers) */
const JOBS_PER_PROCESS = 200;
/** START_TIMEOUT_MS: limit on a process's start (module loading), in ms */
const START_TIMEOUT_MS = 60_000;
/** SYSTEM_PATH: where a conversion process finds the programs it runs itself (pdftoppm, heif-convert) */
const SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/** ChildProcess is one started conversion process. */
interface ChildProcess {
  proc: Bun.Subprocess<"pipe", "pipe", "inherit">;
  reader: FrameReader;
  ready: Promise<void>;
  jobs: number;
  dead: boolean;
}

export class ConversionProcesses implements DocumentConverter {
  private readonly slots: Semaphore;
  private readonly idle: ChildProcess[] = [];
  private readonly all = new Set<ChildProcess>();
  private closed = false;

  constructor(
    private readonly tools: ConvertTools,
    private readonly options: ConversionProcessOptions,
  ) {
    this.slots = new Semaphore(options.processes);
  }

  /** convert runs convertDocument in a conversion process under ctx.signal (the deadline). */
  async convert(input: ConvertInput, ctx: ConvertContext): Promise<DocumentConversion> {
    if (this.closed) throw new AppError("shutting_down", "the server is shutting down; retry on another instance");
    if (this.slots.pending >= this.options.maxQueue) {
      throw new AppError("overloaded", `All ${this.options.processes} conversion processes are busy and ${this.options.maxQueue} documents are waiting; retry in a few seconds.`, {
        headers: { "Retry-After": String(RETRY_AFTER_OVERLOADED_S) },
      });
    }
    return this.slots.run(async () => {
      const child = await this.take(ctx.signal);
      let reusable = false;
      try {
        const result = await this.exchange(child, input, ctx);
        reusable = true;
        return result;
      } finally {
        this.giveBack(child, reusable);
      }
    }, ctx.signal);
  }

  /** close kills every process; later conversions get 503. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.all].map((child) => this.kill(child)));
  }

  /** take returns a warm idle process or starts one, and waits until it is ready. */
  private async take(signal: AbortSignal): Promise<ChildProcess> {
    let child = this.idle.pop();
    while (child?.dead) child = this.idle.pop();
    child ??= this.start();
    const ready = child.ready;
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => reject(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
      ready.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
    }).catch((error) => {
      // a request that gave up while the process was starting leaves it to warm up for the next one
      this.giveBack(child, signal.aborted && !child.dead);
      throw signal.aborted ? error : new AppError("tool_unavailable", `the conversion process did not start: ${(error as Error).message}`, { cause: error });
    });
    return child;
  }

  /** giveBack keeps a healthy process for the next conversion, or replaces it by a fresh one. */
  private giveBack(child: ChildProcess, reusable: boolean): void {
    const keep = reusable && !child.dead && !this.closed && child.jobs < JOBS_PER_PROCESS && !leftLarge(residentBytes(child.proc.pid), this.options.memoryBytes);
    if (keep) {
      this.idle.push(child);
      return;
    }
    void this.kill(child);
    if (!this.closed) {
      const fresh = this.start();
      fresh.ready.catch(() => undefined);
      this.idle.push(fresh);
    }
  }

  /** exchange sends one conversion to the process, serves its tool calls and waits for its result or a hard stop. */
  private exchange(child: ChildProcess, input: ConvertInput, ctx: ConvertContext): Promise<DocumentConversion> {
    const { memoryBytes } = this.options;
    const tools = new AbortController();
    const toolSignal = AbortSignal.any([ctx.signal, tools.signal]);
    child.jobs++;
    return new Promise<DocumentConversion>((resolve, reject) => {
      let ended = false;
      const end = (error: unknown, result?: DocumentConversion) => {
        if (ended) return;
        ended = true;
        stopWatch();
        ctx.signal.removeEventListener("abort", onAbort);
        tools.abort();
        if (error === undefined) resolve(result!);
        else reject(error);
      };
      const stop = (error: unknown) => {
        void this.kill(child);
        end(error);
      };
      const onAbort = () => stop(ctx.signal.reason);
      ctx.signal.addEventListener("abort", onAbort, { once: true });
      const stopWatch = watchMemory(
        () => (child.dead ? 0 : residentBytes(child.proc.pid)),
        memoryBytes,
        () => stop(memoryLimitError(`converting '${input.filename}'`, memoryBytes)),
      );
      if (ctx.signal.aborted) return onAbort();

      const request: ConvertRequest = { type: "convert", input, limits: ctx.limits, page: ctx.page, keepPageTexts: ctx.keepPageTexts === true, hasTranscriber: this.tools.transcriber !== undefined, bwrapPath: this.options.bwrapPath };
      const send = (message: unknown) => {
        if (child.dead) return;
        try {
          for (const part of encodeFrame(message)) child.proc.stdin.write(part);
          void Promise.resolve(child.proc.stdin.flush()).catch(() => undefined);
        } catch {
          // the process is gone: listen() sees the end of its output and reports it
        }
      };
      const serve = async (call: ToolCall) => {
        try {
          const value = await runTool(this.tools, call.method, call.args, toolSignal);
          if (!ended) send({ type: "toolReply", call: call.call, ok: true, value });
        } catch (error) {
          if (!ended) send({ type: "toolReply", call: call.call, ok: false, error: errorToWire(error) });
        }
      };
      const listen = async () => {
        for (;;) {
          const frame = await child.reader.read();
          if (ended) return;
          if (!frame) {
            const code = await child.proc.exited;
            return stop(new AppError("internal_error", `the conversion process of '${input.filename}' stopped unexpectedly (${child.proc.signalCode ?? `exit code ${code}`})`));
          }
          const message = decodeFrame(frame, input.bytes) as ToServiceMessage;
          if (message.type === "toolCall") void serve(message);
          else if (message.type === "done") return message.ok ? end(undefined, message.conversion) : end(errorFromWire(message.error));
        }
      };
      send(request);
      listen().catch((error) => stop(error));
    });
  }

  /** start spawns a conversion process; `ready` resolves when it has loaded the converters. */
  private start(): ChildProcess {
    const proc = Bun.spawn(conversionProcessCommand(), {
      stdin: "pipe",
      stdout: "pipe",
      stderr: "inherit",
      env: this.processEnv(),
    });
    const child: ChildProcess = { proc, reader: new FrameReader(proc.stdout.getReader()), ready: Promise.resolve(), jobs: 0, dead: false };
    this.all.add(child);
    void proc.exited.then(() => {
      child.dead = true;
      this.all.delete(child);
    });
    child.ready = (async () => {
      const timer = setTimeout(() => void this.kill(child), START_TIMEOUT_MS);
      try {
        const frame = await child.reader.read();
        const message = frame ? (decodeFrame(frame) as ToServiceMessage) : null;
        if (message?.type !== "ready") throw new Error(`it exited before it was ready (${proc.signalCode ?? `exit code ${await proc.exited}`})`);
      } finally {
        clearTimeout(timer);
      }
    })();
    return child;
  }

  /**
   * processEnv is all a conversion process gets of an environment: no provider key, no secret. JSC
   * sizes its heap for `memoryBytes` of RAM, so it collects before the cap rather than after.
   */
  private processEnv(): Record<string, string> {
    const env: Record<string, string> = {
      PATH: SYSTEM_PATH,
      HOME: homedir(),
      TMPDIR: tmpdir(),
      LANG: "C.UTF-8",
      OMP_THREAD_LIMIT: "1",
      DOCINTEL_CACHE_DIR: dirname(nativeCacheDir()),
    };
    if (this.options.memoryBytes > 0) env.BUN_JSC_forceRAMSize = String(this.options.memoryBytes);
    return env;
  }

  private async kill(child: ChildProcess): Promise<void> {
    child.dead = true;
    if (child.proc.exitCode === null && child.proc.signalCode === null) child.proc.kill("SIGKILL");
    await child.proc.exited.catch(() => undefined);
  }
}

/** conversionProcessCommand starts child.ts: directly in development, through the hidden CLI command in the binary. */
function conversionProcessCommand(): string[] {
  if (isCompiled()) return [process.execPath, CONVERSION_PROCESS_COMMAND];
  return [process.execPath, fileURLToPath(new URL("./child.ts", import.meta.url))];
}

/** runTool runs one tool call from a conversion process with the conversion's signal. */
function runTool(tools: ConvertTools, method: ToolMethod, args: any[], signal: AbortSignal): Promise<unknown> {
  switch (method) {
    case "pool.run":
      return tools.pool.run(args[0], args[1], signal);
    case "office.convert":
      return tools.office.convert(args[0], args[1], args[2], signal);
    case "ocr.recognize":
      return tools.ocr.recognize(args[0], signal, args[1] ?? undefined); // JSON turned absent options into null
    case "ocr.orientation":
      return tools.ocr.orientation ? tools.ocr.orientation(args[0], signal) : Promise.resolve(null);
    case "media.probe":
      return tools.media.probe(args[0], signal);
    case "media.audioForTranscription":
      return tools.media.audioForTranscription(args[0], signal);
    case "transcriber.transcribe":
      if (!tools.transcriber) throw new AppError("ai_unavailable", "speech-to-text needs an AI provider (GROQ_API_KEY), which this server does not have");
      return tools.transcriber.transcribe(args[0], signal);
    case "browser.render":
      return tools.browser.render(args[0], { ...args[1], signal });
    default:
      throw new Error(`unknown tool call '${String(method)}' from a conversion process`);
  }
}
