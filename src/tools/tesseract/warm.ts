/**
 * WarmOcr: a long-lived OCR process (ocrProcess.ts: libtesseract loaded once) that recognises one
 * image at a time, started under the sandbox every tool gets (tools/sandbox.ts) with tesseract's own
 * environment (OMP_THREAD_LIMIT=1). It is killed (its process group) at a request's deadline or
 * abort, when its resident memory passes the cap while it reads an image (the conversion processes'
 * rule, tools/memory.ts), after REQUESTS_PER_PROCESS images (bounds whatever the library keeps), and
 * when it answers out of turn; the next request starts a new one. Nothing is queued here: the
 * caller (Tesseract, index.ts) holds a slot per process.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { isCompiled } from "../../runtime/embedded";
import { processTree, residentBytes, watchMemory } from "../memory";
import { killProcessGroup } from "../process";
import { confine } from "../sandbox";
import { FrameReader, lengthPrefix, type OcrRequest } from "./ocrProcess";

/** OCR_PROCESS_COMMAND is the hidden CLI command the compiled binary runs as a warm OCR process. */
export const OCR_PROCESS_COMMAND = "__ocr-process";
/** REQUESTS_PER_PROCESS: a warm OCR process is replaced after this many images */
const REQUESTS_PER_PROCESS = 500;
/** START_TIMEOUT_MS: how long a new process may take to load the library and the 'eng' model */
const START_TIMEOUT_MS = 30_000;

/** WarmOcrError: the process could not answer (it could not start, died, timed out or was aborted) */
export class WarmOcrError extends Error {
  constructor(
    message: string,
    readonly reason: "start" | "exit" | "timeout" | "aborted" | "memory" | "language" | "failed",
  ) {
    super(message);
    this.name = "WarmOcrError";
  }
}

/** ocrProcessCommand: ocrProcess.ts run by Bun in development, the hidden command in the binary */
function ocrProcessCommand(): { program: string; args: string[]; readOnly: string[] } {
  if (isCompiled()) return { program: process.execPath, args: [OCR_PROCESS_COMMAND], readOnly: [] };
  const script = fileURLToPath(new URL("./ocrProcess.ts", import.meta.url));
  return { program: process.execPath, args: [script], readOnly: [script] };
}

/** WarmOcrProcess is one running OCR process and its pipe. */
export class WarmOcrProcess {
  private readonly child: ChildProcess;
  private readonly frames = new FrameReader();
  private waiting: ((message: { tsv?: string; error?: string; ready?: boolean; language?: boolean } | WarmOcrError) => void) | null = null;
  private served = 0;
  private gone: WarmOcrError | null = null;
  /** tree: the spawned process and its descendants (bwrap's and the OCR process), listed once it is ready */
  private tree: number[] = [];
  /** ready: resolves when the library and the 'eng' model are loaded; rejects when the process cannot serve */
  readonly ready: Promise<void>;

  /** memoryBytes: resident memory the process may reach while it reads an image; past it the image fails with reason "memory"; 0 = unlimited */
  constructor(private readonly memoryBytes = 0) {
    const { program, args, readOnly } = ocrProcessCommand();
    const launch = confine(program, args, { readOnly }, { OMP_THREAD_LIMIT: "1" });
    this.child = spawn(launch.file, launch.args, { cwd: launch.cwd, env: launch.env, detached: true, stdio: ["pipe", "pipe", "ignore"] });
    this.child.stdout!.on("data", (chunk: Buffer) => this.take(chunk));
    this.child.stdin!.on("error", () => {}); // a dead process: reported by exit
    const ended = (why: string) => {
      this.gone ??= new WarmOcrError(`the OCR process ${why}`, "exit");
      this.answer(this.gone);
    };
    this.child.on("error", (error) => ended(`could not start: ${error.message}`));
    this.child.on("exit", (code, signal) => ended(`exited (${signal ?? code})`));
    this.ready = this.next(START_TIMEOUT_MS, undefined).then(
      (message) => {
        if (!message.ready) throw new WarmOcrError(message.error ?? "the OCR process did not start", "start");
        this.tree = processTree(this.child.pid!);
      },
      (error: WarmOcrError) => {
        throw new WarmOcrError(`the OCR process did not start: ${error.message}`, "start");
      },
    );
    this.ready.catch(() => this.kill());
  }

  /** usable: alive, and not yet at its request limit */
  get usable(): boolean {
    return !this.gone && this.served < REQUESTS_PER_PROCESS;
  }

  /** residentBytes: the memory the process (its whole tree) holds now, in bytes */
  residentBytes(): number {
    return residentBytes(...this.tree);
  }

  /** recognize sends one image (grey pixels, row by row) and returns tesseract's TSV (no header line). */
  async recognize(request: OcrRequest, pixels: Uint8Array, timeoutMs: number, signal: AbortSignal): Promise<string> {
    await this.ready;
    if (this.gone) throw this.gone;
    if (signal.aborted) throw new WarmOcrError("OCR aborted before it started", "aborted");
    this.served++;
    const header = new TextEncoder().encode(JSON.stringify(request));
    this.child.stdin!.write(lengthPrefix(header.length));
    this.child.stdin!.write(header);
    this.child.stdin!.write(lengthPrefix(pixels.length));
    this.child.stdin!.write(pixels);
    const stopWatch = watchMemory(
      () => this.residentBytes(),
      this.memoryBytes,
      () => this.stop(new WarmOcrError(`OCR needed more than ${this.memoryBytes} bytes of memory`, "memory")),
    );
    const message = await this.next(timeoutMs, signal).finally(stopWatch);
    if (message.error !== undefined) throw new WarmOcrError(message.error, message.language ? "language" : "failed");
    return message.tsv ?? "";
  }

  /** kill ends the process and its group; a request in flight fails */
  kill(): void {
    this.gone ??= new WarmOcrError("the OCR process was stopped", "exit");
    killProcessGroup(this.child);
  }

  private next(timeoutMs: number, signal: AbortSignal | undefined): Promise<{ tsv?: string; error?: string; ready?: boolean; language?: boolean }> {
    return new Promise((resolve, reject) => {
      if (this.gone) return reject(this.gone);
      const timer = setTimeout(() => this.stop(new WarmOcrError(`OCR did not finish within ${timeoutMs} ms`, "timeout")), timeoutMs);
      const onAbort = () => this.stop(new WarmOcrError("OCR aborted", "aborted"));
      signal?.addEventListener("abort", onAbort, { once: true });
      this.waiting = (message) => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        if (message instanceof WarmOcrError) reject(message);
        else resolve(message);
      };
    });
  }

  /** stop kills the process and fails the request in flight with `error` */
  private stop(error: WarmOcrError): void {
    this.gone ??= error;
    this.kill(); // a late answer would be taken for the next request's
    this.answer(error);
  }

  private answer(message: Parameters<NonNullable<WarmOcrProcess["waiting"]>>[0]): void {
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.(message);
  }

  private take(chunk: Buffer): void {
    for (const body of this.frames.push(chunk)) {
      if (!this.waiting) {
        this.kill(); // an answer nobody asked for: the pipe is out of step
        return;
      }
      this.answer(JSON.parse(new TextDecoder().decode(body)));
    }
  }
}

/** parsePgm reads a binary 8-bit PGM (P5, maxval 255, as toPgm writes it): its size and pixels; null for anything else */
export function parsePgm(image: Uint8Array): { width: number; height: number; pixels: Uint8Array } | null {
  if (image[0] !== 0x50 || image[1] !== 0x35) return null;
  const head = new TextDecoder().decode(image.subarray(0, Math.min(image.length, 64)));
  const match = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(head);
  if (!match) return null;
  const width = Number(match[1]);
  const height = Number(match[2]);
  const offset = match[0].length;
  if (image.length - offset !== width * height) return null;
  return { width, height, pixels: image.subarray(offset) };
}
