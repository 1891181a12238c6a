/**
 * WarmInstance is one long-lived soffice plus the Python UNO bridge that drives it (see bridge.ts
 * for the protocol), talking over a UNO pipe: a Unix socket LibreOffice creates in its /tmp. Each
 * runs confined (sandbox.ts: no network, so no TCP port either); both sandboxes mount the
 * instance's own `tmp` dir as /tmp, which is how the bridge finds the pipe. soffice sees only its
 * instance dir (profile, tmp, and the one job dir the supervisor places there at a time); the
 * bridge sees only the pipe dir and its script. Both run in their own process groups (spawned
 * detached), so `kill` reaches soffice's children (oosplash, soffice.bin) too. One request at a
 * time: the supervisor in index.ts hands an instance to one job only.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { killProcessGroup, toolUnavailable } from "../process";
import { confine, resolveProgram, type Launch } from "../sandbox";

/** BridgeJob is one request line to the bridge. */
export interface BridgeJob {
  in: string;
  out: string;
  /** filters: export filter per loaded document kind ("text", "spreadsheet", "presentation", "drawing") */
  filters: Record<string, string>;
  importFilter?: string;
  importOptions?: string;
  /** refuseImportFilters: import filters that mean "not really this format" (LibreOffice's plain-text fallback) */
  refuseImportFilters?: string[];
}

/** BridgeAnswer is one answer line of the bridge. */
export interface BridgeAnswer {
  ok: boolean;
  reason?: "password" | "load_failed" | "wrong_kind" | "store_failed" | "disconnected";
  message?: string;
  kind?: string;
}

/** WarmUnavailable says the warm path cannot be used (no python3-uno, no connection in time); the supervisor falls back to cold runs. */
export class WarmUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WarmUnavailable";
  }
}

/** InstanceDied says soffice or the bridge exited (or was killed) while a request was waiting. */
export class InstanceDied extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InstanceDied";
  }
}

export interface StartOptions {
  binary: string;
  python: string;
  bridgePath: string;
  /** dir: this instance's own directory: its profile, its /tmp (the UNO pipe) and the job dirs placed in it */
  dir: string;
  /** launchTimeoutMs: how long soffice may take to accept the bridge's connection */
  launchTimeoutMs: number;
}

const STDERR_KEEP = 4_000;

export class WarmInstance {
  /** jobs: conversions run on this instance since it started */
  jobs = 0;
  private exited: string | null = null;
  private lineBuffer = "";
  private readonly lines: string[] = [];
  private lineWaiter: (() => void) | null = null;
  private sofficeStderr = "";
  private bridgeStderr = "";

  private constructor(
    private readonly soffice: ChildProcess,
    private readonly bridge: ChildProcess,
  ) {
    for (const [child, name] of [[soffice, "soffice"], [bridge, "the UNO bridge"]] as const) {
      child.on("exit", (code, sig) => {
        this.exited ??= `${name} exited (${sig ?? `code ${code}`})`;
        this.wake();
      });
    }
    soffice.stderr?.on("data", (chunk: Buffer) => {
      if (this.sofficeStderr.length < STDERR_KEEP) this.sofficeStderr += chunk.toString("utf8");
    });
    bridge.stderr?.on("data", (chunk: Buffer) => {
      if (this.bridgeStderr.length < STDERR_KEEP) this.bridgeStderr += chunk.toString("utf8");
    });
    bridge.stdout?.on("data", (chunk: Buffer) => {
      this.lineBuffer += chunk.toString("utf8");
      let newline: number;
      while ((newline = this.lineBuffer.indexOf("\n")) >= 0) {
        this.lines.push(this.lineBuffer.slice(0, newline));
        this.lineBuffer = this.lineBuffer.slice(newline + 1);
      }
      this.wake();
    });
    bridge.stdin?.on("error", () => {}); // a dead bridge is reported through "exit"
  }

  /**
   * start launches soffice and the bridge and resolves once the bridge is connected. Rejects with
   * tool_unavailable when soffice cannot be started, WarmUnavailable when the warm path cannot work.
   */
  static async start(options: StartOptions): Promise<WarmInstance> {
    const tmp = join(options.dir, "tmp");
    mkdirSync(tmp, { recursive: true, mode: 0o700 });
    // a fresh name per start: without isolation every instance shares the host's /tmp
    const pipeName = `docintel-${randomBytes(8).toString("hex")}`;
    const binary = resolveProgram(options.binary);
    if (!binary) throw toolUnavailable(options.binary, "libreoffice-core libreoffice-writer libreoffice-calc libreoffice-impress", new Error("not found or not executable"));
    const soffice = spawnLaunch(
      confine(
        binary,
        [
          "--headless",
          "--invisible",
          "--norestore",
          "--nologo",
          "--nodefault",
          "--nolockcheck",
          `-env:UserInstallation=${fileUrl(join(options.dir, "profile"))}`,
          `--accept=pipe,name=${pipeName};urp;`,
        ],
        { dirs: [options.dir], tmp },
      ),
      ["ignore", "ignore", "pipe"],
    );
    const spawnError = await spawned(soffice);
    if (spawnError) throw toolUnavailable(options.binary, "libreoffice-core libreoffice-writer libreoffice-calc libreoffice-impress", spawnError);
    const python = resolveProgram(options.python);
    if (!python) {
      killProcessGroup(soffice);
      throw new WarmUnavailable(`cannot start ${options.python} for the UNO bridge: not found or not executable`);
    }
    const bridge = spawnLaunch(confine(python, [options.bridgePath, pipeName, String(options.launchTimeoutMs / 1000)], { readOnly: [options.bridgePath], tmp }), ["pipe", "pipe", "pipe"]);
    const instance = new WarmInstance(soffice, bridge);
    const bridgeError = await spawned(bridge);
    if (bridgeError) {
      instance.kill();
      throw new WarmUnavailable(`cannot start ${options.python} for the UNO bridge: ${bridgeError.message}`);
    }
    const ready = await instance.nextLine(options.launchTimeoutMs + 5_000);
    let hello: { ready?: boolean; reason?: string; message?: string } = {};
    try {
      hello = ready === null ? {} : JSON.parse(ready);
    } catch {
      hello = { message: ready ?? "" };
    }
    if (hello.ready !== true) {
      const why = hello.message ?? instance.exited ?? `no answer within ${options.launchTimeoutMs} ms`;
      instance.kill();
      throw new WarmUnavailable(`warm LibreOffice did not start: ${why} ${instance.bridgeStderr.trim().slice(-500)}`.trim());
    }
    return instance;
  }

  /** alive: both processes are still running */
  get alive(): boolean {
    return this.exited === null;
  }

  /** pids: the process group leaders, for diagnostics */
  get pids(): number[] {
    return [this.soffice.pid, this.bridge.pid].filter((p): p is number => typeof p === "number");
  }

  /**
   * request sends one job and waits for its answer. Rejects with InstanceDied when a process exits
   * first (including after `kill`, which is how the supervisor enforces deadlines and aborts).
   */
  async request(job: BridgeJob): Promise<BridgeAnswer> {
    if (this.exited) throw new InstanceDied(this.exited);
    this.jobs++;
    this.bridge.stdin!.write(`${JSON.stringify(job)}\n`);
    const line = await this.nextLine(0);
    if (line === null) throw new InstanceDied(`${this.exited ?? "the instance stopped"}${this.describeStderr()}`);
    try {
      return JSON.parse(line) as BridgeAnswer;
    } catch {
      throw new InstanceDied(`the UNO bridge answered something that is not JSON: ${line.slice(0, 200)}`);
    }
  }

  /** kill ends both process groups at once (SIGKILL); idempotent */
  kill(): void {
    this.exited ??= "killed";
    for (const child of [this.bridge, this.soffice]) killProcessGroup(child);
    this.wake();
  }

  /** exitedBoth resolves when both processes have exited (after kill), or after `ms` */
  async waitForExit(ms: number): Promise<void> {
    const exits = [this.soffice, this.bridge].map(
      (child) => new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once("exit", () => resolve()))),
    );
    await Promise.race([Promise.all(exits), Bun.sleep(ms)]);
  }

  private describeStderr(): string {
    const text = (this.bridgeStderr || this.sofficeStderr).trim().slice(-500);
    return text ? `: ${text}` : "";
  }

  private wake(): void {
    const waiter = this.lineWaiter;
    this.lineWaiter = null;
    waiter?.();
  }

  /** nextLine resolves with the next stdout line, or null when a process exited or `timeoutMs` (0 = none) passed */
  private async nextLine(timeoutMs: number): Promise<string | null> {
    const deadline = timeoutMs > 0 ? Date.now() + timeoutMs : Infinity;
    while (true) {
      const line = this.lines.shift();
      if (line !== undefined) return line;
      if (this.exited) return null;
      const left = deadline - Date.now();
      if (left <= 0) return null;
      await new Promise<void>((resolve) => {
        const timer = Number.isFinite(left) ? setTimeout(resolve, left) : null;
        this.lineWaiter = () => {
          if (timer) clearTimeout(timer);
          resolve();
        };
      });
    }
  }
}

/** fileUrl turns an absolute path into the file:/// URL soffice expects for UserInstallation */
export function fileUrl(path: string): string {
  return `file://${path.split("/").map(encodeURIComponent).join("/")}`;
}

/** spawnLaunch starts a confined program in its own session and process group */
function spawnLaunch(launch: Launch, stdio: Array<"ignore" | "pipe">): ChildProcess {
  return spawn(launch.file, launch.args, { cwd: launch.cwd, env: launch.env, detached: true, stdio: stdio as ["ignore" | "pipe", "ignore" | "pipe", "pipe"] });
}

/** spawned resolves with the spawn error (missing program), or null once the process runs */
function spawned(child: ChildProcess): Promise<Error | null> {
  return new Promise((resolve) => {
    child.once("spawn", () => resolve(null));
    child.once("error", (error) => resolve(error));
  });
}
