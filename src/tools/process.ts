/**
 * runProcess is the one way docintel starts an external program: arguments as an array (never a
 * shell), confined by sandbox.ts (no network, only the system and its job's dirs, an allow-listed
 * environment), optional stdin, a deadline, the whole process group killed on timeout or abort or
 * past a memory cap, stdout capped while it streams, and stderr captured for the error message.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import { AppError } from "../errors";
import { processTree, residentBytes, watchMemory } from "./memory";
import { confine, resolveProgram, type SandboxSpec } from "./sandbox";

export interface RunOptions {
  /** timeoutMs: deadline for the whole run in milliseconds; 0 = none (only `signal`) */
  timeoutMs: number;
  signal?: AbortSignal;
  stdin?: Uint8Array | string;
  /** env: variables added to the tool's allow-listed environment (PATH, HOME, LANG, TMPDIR); the server's own is never passed */
  env?: Record<string, string | undefined>;
  /**
   * sandbox: the host directories the program may see besides the read-only system (its job's
   * dir); default none, for programs that read stdin and write stdout. Always applied: there is
   * no unconfined run (see sandbox.ts for when isolation is off altogether).
   */
  sandbox?: SandboxSpec;
  /** maxStdoutBytes: stdout beyond this kills the process; 0 = unlimited */
  maxStdoutBytes?: number;
  /** memoryBytes: resident memory of the program (bwrap's processes included) beyond this kills it (sampled, tools/memory.ts); 0 = unlimited */
  memoryBytes?: number;
  /** what: names the work in error messages, e.g. "convert DOC to DOCX" */
  what: string;
}

export interface RunResult {
  code: number;
  stdout: Buffer;
  stderr: string;
}

/** ProcessError carries the exit status and stderr of a program that failed. */
export class ProcessError extends Error {
  constructor(
    message: string,
    readonly code: number | null,
    readonly stderr: string,
    readonly reason: "exit" | "timeout" | "aborted" | "output_limit" | "memory" | "spawn",
  ) {
    super(message);
    this.name = "ProcessError";
  }
}

const STDERR_KEEP = 8_000;

/** runProcess resolves when the program exits 0 and rejects with ProcessError otherwise. */
export function runProcess(command: string, args: string[], opts: RunOptions): Promise<RunResult> {
  return new Promise<RunResult>((resolve, reject) => {
    if (opts.signal?.aborted) return reject(new ProcessError(`${opts.what}: aborted before start`, null, "", "aborted"));
    const program = resolveProgram(command);
    if (!program) return reject(new ProcessError(`${opts.what}: could not start ${command}: not found or not executable`, null, "", "spawn"));
    const launch = confine(program, args, opts.sandbox, opts.env);
    const child = spawn(launch.file, launch.args, {
      cwd: launch.cwd,
      env: launch.env,
      detached: true, // own session and process group, so a kill reaches the program's children too
      stdio: ["pipe", "pipe", "pipe"],
    });
    const chunks: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = "";
    let ended: ProcessError["reason"] | null = null;

    const killGroup = (reason: ProcessError["reason"]) => {
      if (ended) return;
      ended = reason;
      killProcessGroup(child);
    };
    const timer = opts.timeoutMs > 0 ? setTimeout(() => killGroup("timeout"), opts.timeoutMs) : null;
    const onAbort = () => killGroup("aborted");
    opts.signal?.addEventListener("abort", onAbort, { once: true });
    const stopWatch = watchMemory(() => residentBytes(...processTree(child.pid ?? 0)), opts.memoryBytes ?? 0, () => killGroup("memory"));

    child.stdout.on("data", (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (opts.maxStdoutBytes && stdoutBytes > opts.maxStdoutBytes) return killGroup("output_limit");
      chunks.push(chunk);
    });
    child.stderr.on("data", (chunk: Buffer) => {
      if (stderr.length < STDERR_KEEP) stderr += chunk.toString("utf8");
    });
    child.stdin.on("error", () => {}); // the program may exit without reading all of stdin
    if (opts.stdin !== undefined) child.stdin.end(opts.stdin);
    else child.stdin.end();

    const finish = () => {
      if (timer) clearTimeout(timer);
      stopWatch();
      opts.signal?.removeEventListener("abort", onAbort);
    };
    child.on("error", (error) => {
      finish();
      reject(new ProcessError(`${opts.what}: could not start ${command}: ${error.message}`, null, stderr, "spawn"));
    });
    child.on("close", (code) => {
      finish();
      const trimmed = stderr.trim().slice(0, 2000);
      if (ended === "timeout") return reject(new ProcessError(`${opts.what}: ${command} did not finish within ${opts.timeoutMs} ms and was killed`, code, trimmed, "timeout"));
      if (ended === "aborted") return reject(new ProcessError(`${opts.what}: aborted`, code, trimmed, "aborted"));
      if (ended === "memory") return reject(new ProcessError(`${opts.what}: ${command} needed more than ${opts.memoryBytes} bytes of memory and was killed`, code, trimmed, "memory"));
      if (ended === "output_limit") return reject(new ProcessError(`${opts.what}: ${command} wrote more than ${opts.maxStdoutBytes} bytes`, code, trimmed, "output_limit"));
      if (code !== 0) return reject(new ProcessError(`${opts.what}: ${command} exited with ${code}${trimmed ? `: ${trimmed}` : ""}`, code, trimmed, "exit"));
      resolve({ code: 0, stdout: Buffer.concat(chunks), stderr: trimmed });
    });
  });
}

/**
 * toolUnavailable is the error for a program that is missing or cannot start: the operator's
 * problem, not the client's, so 503 with what to install.
 */
export function toolUnavailable(program: string, debianPackage: string, cause?: unknown): AppError {
  return new AppError("tool_unavailable", `${program} is not available on this server (install the Debian package ${debianPackage}); see docintel doctor.`, { cause });
}

/**
 * killProcessGroup SIGKILLs the process group `child` leads (it was spawned detached), so that its
 * children and a program behind a wrapper script go too; without a group it kills the process alone.
 */
export function killProcessGroup(child: ChildProcess): void {
  if (!child.pid) return;
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    try {
      child.kill("SIGKILL");
    } catch {
      // already gone
    }
  }
}

/** withTempDir runs `fn` with a fresh private directory under `parent`, removed afterwards whatever happens. */
export async function withTempDir<T>(parent: string, prefix: string, fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(parent, prefix));
  try {
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
