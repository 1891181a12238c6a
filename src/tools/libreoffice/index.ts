/**
 * LibreOffice behind a supervisor: `instances` warm soffice processes (each with its own directory,
 * profile and UNO pipe, driven through the Python UNO bridge of bridge.ts), a Semaphore in front of them, a
 * deadline per conversion that kills and restarts the instance, a restart after `jobsPerInstance`
 * conversions, and a cold `soffice --convert-to` per job when the warm path cannot work (no
 * python3-uno, no connection in time). close() kills every process group it started.
 *
 * Every soffice runs confined (../sandbox.ts): no network, so a document's links to remote images
 * are never fetched, and a view of nothing but the system and one slot dir, so `file:` links find
 * nothing either. A job's files are placed in the dir of the slot that runs it
 * (`<run dir>/slot-N/job-XXXX`), which that slot's warm instance sees; a cold run sees only its job dir.
 *
 *   convert ─▶ Semaphore(instances) ─▶ slot ─▶ warm instance (start lazily) ─▶ bridge: load + store
 *                                          └──▶ cold run with a fresh profile (fallback)
 */
import { untilAborted } from "../../runtime/signals";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { AppError } from "../../errors";
import type { OfficeConverter } from "../types";
import { ProcessError, runProcess, toolUnavailable } from "../process";
import { Semaphore } from "../semaphore";
import { BRIDGE_SOURCE } from "./bridge";
import { looksEncrypted } from "./encryption";
import { fileUrl, InstanceDied, WarmInstance, WarmUnavailable, type BridgeAnswer, type BridgeJob } from "./instance";

export interface LibreOfficeOptions {
  /** binary: the soffice executable, e.g. "soffice" */
  binary: string;
  /** python: the interpreter with the UNO bindings; Debian's python3-uno is for /usr/bin/python3 */
  python: string;
  /** instances: warm soffice processes; conversions beyond that wait in line */
  instances: number;
  /** timeoutMs: deadline for one conversion in ms; on expiry the instance is killed and restarted */
  timeoutMs: number;
  /** jobsPerInstance: conversions after which an instance is restarted (LibreOffice leaks); 0 = never */
  jobsPerInstance: number;
  /** workDir: profiles and temp files live in a fresh directory under here, removed on close */
  workDir: string;
  /** launchTimeoutMs: how long a warm instance may take to start; default 30000 */
  launchTimeoutMs?: number;
  /** warmRetryMs: after the warm path failed to start, cold runs are used for this long; default 60000 */
  warmRetryMs?: number;
}

export type OfficeTarget = "docx" | "xlsx" | "pptx" | "pdf";
type DocumentKind = "text" | "spreadsheet" | "presentation" | "drawing";

/** EXPORT_FILTERS: LibreOffice's export filter per target and loaded document kind */
const EXPORT_FILTERS: Record<OfficeTarget, Partial<Record<DocumentKind, string>>> = {
  docx: { text: "MS Word 2007 XML" },
  xlsx: { spreadsheet: "Calc MS Excel 2007 XML" },
  pptx: { presentation: "Impress MS PowerPoint 2007 XML" },
  pdf: { text: "writer_pdf_Export", spreadsheet: "calc_pdf_Export", presentation: "impress_pdf_Export", drawing: "draw_pdf_Export" },
};

/** KIND_OF_EXTENSION: what LibreOffice opens each known input as, to refuse impossible targets early and to name cold filters */
const KIND_OF_EXTENSION: Record<string, DocumentKind> = Object.fromEntries([
  ...["doc", "dot", "docx", "docm", "dotx", "dotm", "odt", "ott", "fodt", "rtf", "txt", "wpd", "wps", "lwp", "abw", "pages", "hwp"].map((e) => [e, "text"]),
  ...["xls", "xlt", "xlsx", "xlsm", "xltx", "xltm", "xlsb", "ods", "ots", "fods", "csv", "tsv", "numbers", "wk1", "wks", "123", "dif", "slk"].map((e) => [e, "spreadsheet"]),
  ...["ppt", "pps", "pot", "pptx", "pptm", "potx", "potm", "ppsx", "ppsm", "odp", "otp", "fodp", "key"].map((e) => [e, "presentation"]),
  ...["odg", "otg", "fodg", "vsd", "vsdx", "cdr", "pub"].map((e) => [e, "drawing"]),
]) as Record<string, DocumentKind>;

/** IMPORT_FILTERS: inputs LibreOffice must be told how to read (type detection alone guesses wrong or asks) */
const IMPORT_FILTERS: Record<string, { filter: string; options: string }> = {
  csv: { filter: "Text - txt - csv (StarCalc)", options: "44,34,76,1" }, // comma, double quote, UTF-8, from line 1
  tsv: { filter: "Text - txt - csv (StarCalc)", options: "9,34,76,1" },
  txt: { filter: "Text (encoded)", options: "UTF8" },
};

/**
 * PLAIN_TEXT_FILTERS: LibreOffice opens bytes it does not recognise as plain text; for anything but
 * txt/csv/tsv that means the file is not what its extension says, so it is refused as unreadable.
 */
const PLAIN_TEXT_FILTERS = ["Text", "Text (encoded)", "Text - txt - csv (StarCalc)", "Text (StarWriter/Web)", "Text (encoded) (StarWriter/Web)"];

const SOFFICE_PACKAGES = "libreoffice-core libreoffice-writer libreoffice-calc libreoffice-impress";

/** Slot is one warm instance position: its dir (profile, /tmp, the current job) stays, its processes come and go. */
interface Slot {
  index: number;
  dir: string;
  instance: WarmInstance | null;
  starting: Promise<WarmInstance> | null;
  /** started: the slot had an instance before, so the next start is a restart */
  started: boolean;
}

export class LibreOffice implements OfficeConverter {
  private readonly slots: Semaphore;
  private readonly free: Slot[] = [];
  private readonly all: Slot[] = [];
  private runDir: Promise<string> | null = null;
  private closed = false;
  private warmUnavailableUntil = 0;
  private counters = { conversions: 0, restarts: 0, coldFallbacks: 0 };

  constructor(private readonly options: LibreOfficeOptions) {
    const count = Math.max(1, options.instances);
    this.slots = new Semaphore(count);
    for (let index = 0; index < count; index++) {
      const slot: Slot = { index, dir: "", instance: null, starting: null, started: false };
      this.all.push(slot);
      this.free.push(slot);
    }
  }

  /** stats: warm = at least one warm instance is running; coldFallbacks = conversions done by a cold soffice */
  stats(): { warm: boolean; conversions: number; restarts: number; coldFallbacks: number } {
    return { warm: this.all.some((s) => s.instance?.alive === true), ...this.counters };
  }

  convert(bytes: Uint8Array, fromExt: string, toExt: OfficeTarget, signal: AbortSignal): Promise<Uint8Array> {
    const from = fromExt.toLowerCase().replace(/^\./, "");
    const filters = EXPORT_FILTERS[toExt];
    if (!filters) return Promise.reject(new AppError("bad_request", `office conversion target '${toExt}' must be one of docx, xlsx, pptx, pdf`));
    const kind = KIND_OF_EXTENSION[from];
    if (kind && !filters[kind]) {
      return Promise.reject(new AppError("unsupported_media_type", `a ${kind} document (.${from}) cannot be converted to ${toExt.toUpperCase()}; convert it to PDF or to its own family's format`));
    }
    if (this.closed) return Promise.reject(new AppError("shutting_down", "LibreOffice is shutting down; retry the conversion"));
    return this.slots.run(async () => {
      const slot = this.free.pop()!;
      try {
        return await this.convertInSlot(slot, bytes, from, toExt, signal);
      } finally {
        this.free.push(slot);
      }
    }, signal);
  }

  /** close kills every soffice and bridge this supervisor started and removes its work directory */
  async close(): Promise<void> {
    this.closed = true;
    const instances: WarmInstance[] = [];
    for (const slot of this.all) {
      if (slot.starting) {
        const started = await slot.starting.catch(() => null);
        if (started) instances.push(started);
      }
      if (slot.instance) instances.push(slot.instance);
      slot.instance = null;
    }
    for (const instance of instances) instance.kill();
    await Promise.all(instances.map((i) => i.waitForExit(5_000)));
    if (this.runDir) {
      const dir = await this.runDir.catch(() => null);
      if (dir) await rm(dir, { recursive: true, force: true });
    }
  }

  private async convertInSlot(slot: Slot, bytes: Uint8Array, from: string, toExt: OfficeTarget, signal: AbortSignal): Promise<Uint8Array> {
    const runDir = await this.ensureRunDir();
    signal.throwIfAborted();
    const jobDir = await mkdtemp(join(await this.slotDir(slot, runDir), "job-"));
    try {
      const input = join(jobDir, `input.${from || "bin"}`);
      await writeFile(input, bytes);
      signal.throwIfAborted();
      const instance = await this.warmInstance(slot, runDir, signal);
      const output = instance
        ? await this.convertWarm(slot, instance, input, from, toExt, bytes, signal)
        : await this.convertCold(jobDir, input, from, toExt, bytes, signal);
      if (output.length === 0) throw new AppError("internal_error", `LibreOffice wrote an empty ${toExt.toUpperCase()} for the .${from} document`);
      this.counters.conversions++;
      return output;
    } catch (error) {
      // close() pulls processes and files from under a running job: say so instead of a stray ENOENT
      if (this.closed && !signal.aborted && !(error instanceof AppError && error.code === "shutting_down")) {
        throw new AppError("shutting_down", "LibreOffice was shut down during the conversion; retry it", { cause: error });
      }
      throw error;
    } finally {
      await rm(jobDir, { recursive: true, force: true });
    }
  }

  /** warmInstance returns the slot's running instance, starting it if needed; null means "use the cold path" */
  private async warmInstance(slot: Slot, runDir: string, signal: AbortSignal): Promise<WarmInstance | null> {
    if (slot.instance?.alive) return slot.instance;
    if (slot.instance) this.retire(slot);
    if (Date.now() < this.warmUnavailableUntil) return null;
    slot.starting ??= this.startInstance(slot, runDir);
    try {
      const instance = await untilAborted(slot.starting, signal);
      return instance;
    } catch (error) {
      if (error instanceof WarmUnavailable) {
        this.warmUnavailableUntil = Date.now() + (this.options.warmRetryMs ?? 60_000);
        return null;
      }
      throw error;
    }
  }

  private startInstance(slot: Slot, runDir: string): Promise<WarmInstance> {
    const launch = async () => {
      const instance = await WarmInstance.start({
        binary: this.options.binary,
        python: this.options.python,
        bridgePath: join(runDir, "bridge.py"),
        dir: await this.slotDir(slot, runDir),
        launchTimeoutMs: this.options.launchTimeoutMs ?? 30_000,
      });
      if (this.closed) {
        instance.kill();
        throw new AppError("shutting_down", "LibreOffice is shutting down; retry the conversion");
      }
      if (slot.started) this.counters.restarts++;
      slot.started = true;
      slot.instance = instance;
      return instance;
    };
    return launch().finally(() => {
      slot.starting = null;
    });
  }

  /** retire kills the slot's instance and starts its replacement in the background */
  private retire(slot: Slot): void {
    slot.instance?.kill();
    slot.instance = null;
    if (this.closed || !this.runDir) return;
    void this.runDir.then((runDir) => {
      if (this.closed || slot.instance || slot.starting) return;
      slot.starting = this.startInstance(slot, runDir);
      slot.starting.catch(() => {}); // a failed background start is retried by the next job
    });
  }

  private async convertWarm(slot: Slot, instance: WarmInstance, input: string, from: string, toExt: OfficeTarget, bytes: Uint8Array, signal: AbortSignal): Promise<Uint8Array> {
    const output = join(input, "..", `output.${toExt}`);
    const job: BridgeJob = { in: input, out: output, filters: EXPORT_FILTERS[toExt] as Record<string, string> };
    const importFilter = IMPORT_FILTERS[from];
    if (importFilter) Object.assign(job, { importFilter: importFilter.filter, importOptions: importFilter.options });
    else job.refuseImportFilters = PLAIN_TEXT_FILTERS;

    let expired = false;
    const timer = setTimeout(() => {
      expired = true;
      instance.kill();
    }, this.options.timeoutMs);
    const onAbort = () => instance.kill();
    signal.addEventListener("abort", onAbort, { once: true });
    let answer: BridgeAnswer;
    try {
      answer = await instance.request(job);
    } catch (error) {
      this.retire(slot);
      if (expired) throw new AppError("timeout", `LibreOffice did not convert the .${from} document to ${toExt.toUpperCase()} within ${this.options.timeoutMs} ms; the instance was restarted`, { cause: error });
      if (signal.aborted) throw signal.reason;
      if (error instanceof InstanceDied) throw new AppError("unreadable_document", `LibreOffice crashed while converting the .${from} document to ${toExt.toUpperCase()} (the file is probably corrupt)`, { cause: error });
      throw error;
    } finally {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
    }
    if (!answer.ok && answer.reason === "disconnected") this.retire(slot);
    else if (this.options.jobsPerInstance > 0 && instance.jobs >= this.options.jobsPerInstance) this.retire(slot);
    if (!answer.ok) throw answerError(answer, from, toExt, bytes);
    return readOutput(output, from, toExt);
  }

  private async convertCold(jobDir: string, input: string, from: string, toExt: OfficeTarget, bytes: Uint8Array, signal: AbortSignal): Promise<Uint8Array> {
    this.counters.coldFallbacks++;
    const outDir = join(jobDir, "out");
    const kind = KIND_OF_EXTENSION[from];
    const filter = toExt === "pdf" ? (kind ? EXPORT_FILTERS.pdf[kind] : undefined) : Object.values(EXPORT_FILTERS[toExt])[0];
    const args = ["--headless", "--norestore", "--nologo", "--nolockcheck", `-env:UserInstallation=${fileUrl(join(jobDir, "profile"))}`];
    const importFilter = IMPORT_FILTERS[from];
    if (importFilter) args.push(`--infilter=${importFilter.filter}:${importFilter.options}`);
    args.push("--convert-to", filter ? `${toExt}:${filter}` : toExt, "--outdir", outDir, input);
    try {
      await runProcess(this.options.binary, args, { timeoutMs: this.options.timeoutMs, signal, what: `convert .${from} to ${toExt.toUpperCase()}`, sandbox: { dirs: [jobDir] } });
    } catch (error) {
      if (error instanceof ProcessError && error.reason === "spawn") throw toolUnavailable(this.options.binary, SOFFICE_PACKAGES, error);
      if (error instanceof ProcessError && error.reason === "timeout") {
        throw new AppError("timeout", `LibreOffice did not convert the .${from} document to ${toExt.toUpperCase()} within ${this.options.timeoutMs} ms`, { cause: error });
      }
      if (error instanceof ProcessError && error.reason === "aborted") throw signal.reason ?? error;
      throw loadError(from, toExt, bytes, error);
    }
    try {
      return await readOutput(join(outDir, `input.${toExt}`), from, toExt);
    } catch (error) {
      // soffice exits 0 when it cannot load the input; the missing output is the only sign
      throw loadError(from, toExt, bytes, error);
    }
  }

  /** slotDir is the slot's own directory under the run dir, made on first use */
  private async slotDir(slot: Slot, runDir: string): Promise<string> {
    if (!slot.dir) {
      const dir = join(runDir, `slot-${slot.index}`);
      await mkdir(dir, { recursive: true, mode: 0o700 });
      slot.dir = dir;
    }
    return slot.dir;
  }

  private ensureRunDir(): Promise<string> {
    this.runDir ??= (async () => {
      await mkdir(this.options.workDir, { recursive: true });
      const dir = await mkdtemp(join(this.options.workDir, "soffice-"));
      await writeFile(join(dir, "bridge.py"), BRIDGE_SOURCE);
      return dir;
    })();
    return this.runDir;
  }
}

async function readOutput(path: string, from: string, toExt: OfficeTarget): Promise<Uint8Array> {
  try {
    return new Uint8Array(await readFile(path));
  } catch (error) {
    throw new AppError("internal_error", `LibreOffice reported success but wrote no ${toExt.toUpperCase()} for the .${from} document`, { cause: error });
  }
}

function answerError(answer: BridgeAnswer, from: string, toExt: OfficeTarget, bytes: Uint8Array): AppError {
  const cause = new Error(answer.message ?? answer.reason ?? "unknown bridge failure");
  switch (answer.reason) {
    case "password":
    case "load_failed":
      return loadError(from, toExt, bytes, cause, answer.reason === "password");
    case "wrong_kind":
      return new AppError("unsupported_media_type", `the .${from} document opened as a ${answer.kind ?? "different kind of"} document, which cannot be converted to ${toExt.toUpperCase()}; convert it to PDF instead`, { cause });
    case "disconnected":
      return new AppError("unreadable_document", `LibreOffice crashed while converting the .${from} document to ${toExt.toUpperCase()} (the file is probably corrupt)`, { cause });
    default:
      return new AppError("internal_error", `LibreOffice opened the .${from} document but could not write it as ${toExt.toUpperCase()}`, { cause });
  }
}

/** loadError names why LibreOffice could not open a document: a password, or damage */
function loadError(from: string, toExt: OfficeTarget, bytes: Uint8Array, cause: unknown, passwordAsked = false): AppError {
  if (passwordAsked || looksEncrypted(bytes)) {
    return new AppError("encrypted_document", `the .${from} document is password-protected; remove the password and upload it again`, { cause });
  }
  return new AppError("unreadable_document", `LibreOffice could not open the .${from} document to convert it to ${toExt.toUpperCase()} (corrupt, truncated or not really .${from})`, { cause });
}

