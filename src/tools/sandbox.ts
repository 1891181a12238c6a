/**
 * Tool isolation. Every program docintel runs on a client's document (LibreOffice, ffmpeg,
 * ffprobe, poppler, tesseract, heif-convert) is started through `confine`, which wraps it in
 * bubblewrap:
 *
 * - no network (`--unshare-net`: only a loopback of its own), so links in a document to http,
 *   https or any other remote URL cannot be followed, whatever the program thinks of them;
 * - its own pid, IPC and UTS namespaces: it cannot see or signal the server or other jobs, nor
 *   read their /proc/<pid>/environ;
 * - a file system made of the read-only system directories the tools need (/usr, a few named
 *   parts of /etc, the fontconfig cache), a private /tmp, and read-write only the directories the
 *   caller names (its job's own dir): a `file:///...` link to anything else finds nothing;
 * - no capabilities, and it dies with the server (`--die-with-parent`).
 *
 * Whether bwrap can run is detected once (`detectIsolation`, at start-up) by a trivial run with
 * the same arguments. When it cannot (not installed, no user namespaces, a systemd unit that
 * forbids them), programs run unconfined and the service says so at start and in `docintel doctor`.
 * Either way a program gets only an allow-listed environment (PATH, HOME, LANG, TMPDIR and what
 * its adapter adds, e.g. OMP_THREAD_LIMIT): never the server's, which holds the provider key.
 *
 * The state is per thread: a worker thread that runs tools without calling `detectIsolation`
 * detects with the default `bwrap` on first use.
 */
import { spawnSync } from "node:child_process";
import { existsSync, lstatSync, readlinkSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";

/** SandboxSpec says what of the host a confined program sees besides the read-only system. */
export interface SandboxSpec {
  /** dirs: host directories the program may read and write, at the same paths (its job's dir) */
  dirs?: string[];
  /** readOnly: host files or directories it may read, at the same paths */
  readOnly?: string[];
  /**
   * tmp: a host directory mounted as the program's /tmp, so that two sandboxes can share it (the
   * UNO pipe between soffice and its bridge lives there); default: a private empty /tmp
   */
  tmp?: string;
  /** cwd: working directory, one of `dirs` or `readOnly`; default the first of `dirs`, else /tmp */
  cwd?: string;
}

/** IsolationStatus is what start-up logs and `docintel doctor` prints. */
export interface IsolationStatus {
  /** enabled: programs run under bubblewrap */
  enabled: boolean;
  /** bwrap: the executable found, or null */
  bwrap: string | null;
  /** detail: what is isolated, or why isolation is off and how to turn it on */
  detail: string;
}

/** Launch is how to spawn a program: through bwrap, or directly when isolation is off. */
export interface Launch {
  file: string;
  args: string[];
  env: Record<string, string>;
  /** cwd: for the spawn itself; undefined under bwrap (it changes directory inside) */
  cwd?: string;
}

/** SYSTEM_READ_ONLY: what of the host's file system the tools need, read-only; the rest of /etc (env files with keys, ssh, ...) stays invisible */
const SYSTEM_READ_ONLY = [
  "/usr",
  "/etc/fonts", // fontconfig: LibreOffice, poppler
  "/etc/libreoffice", // LibreOffice's registry and sofficerc are symlinked here from /usr/lib/libreoffice
  "/etc/alternatives", // ffmpeg's libblas/liblapack resolve through it
  "/etc/ld.so.cache",
  "/etc/localtime",
  "/var/cache/fontconfig", // without the cache every start rescans the fonts
];

/** MERGED_USR_LINKS: top-level directories that are symlinks into /usr on merged-/usr systems (Debian 12) */
const MERGED_USR_LINKS = ["/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"];

/** BASE_PATH: the PATH a tool sees */
const BASE_PATH = "/usr/local/bin:/usr/bin:/bin";

/** ENABLE_HINT: how an operator turns isolation on, for the log and doctor */
const ENABLE_HINT =
  "install the Debian package bubblewrap and allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1); under systemd the unit must not set RestrictNamespaces, ProtectKernelTunables, ProtectKernelLogs or ProcSubset=pid, which stop bwrap from mounting a /proc of its own (docintel service-unit prints a unit that works); see \"Tool isolation\" in docs/operations.md";

let current: IsolationStatus | null = null;

/**
 * detectIsolation looks for `bwrapPath` (a name on PATH or a path) and tries a trivial run with the
 * same namespaces and mounts the tools get; the outcome holds for this thread until called again.
 */
export function detectIsolation(bwrapPath = "bwrap"): IsolationStatus {
  const bwrap = Bun.which(bwrapPath);
  if (!bwrap) {
    current = { enabled: false, bwrap: null, detail: `bubblewrap ('${bwrapPath}') was not found, so LibreOffice, ffmpeg, poppler, tesseract and heif-convert run without network or file isolation: ${ENABLE_HINT}` };
    return current;
  }
  const trial = spawnSync(bwrap, [...bwrapArgs({}, "/usr/bin/true", { PATH: BASE_PATH }), "/usr/bin/true"], { env: {}, timeout: 10_000, encoding: "utf8" });
  if (trial.status !== 0) {
    const why = (trial.error?.message ?? trial.stderr ?? "").trim().split("\n")[0] || `exit ${trial.status ?? trial.signal}`;
    current = { enabled: false, bwrap, detail: `${bwrap} could not create a sandbox (${why}), so LibreOffice, ffmpeg, poppler, tesseract and heif-convert run without network or file isolation: ${ENABLE_HINT}` };
    return current;
  }
  current = { enabled: true, bwrap, detail: `${bwrap}: office, media, PDF and OCR programs run without network, see only the system and their job's files, and get no secrets from the environment` };
  return current;
}

/** isolationStatus is the outcome of the last detection (detecting with the default bwrap first if there was none). */
export function isolationStatus(): IsolationStatus {
  return current ?? detectIsolation();
}

/**
 * setIsolationForBench turns isolation off (or back to what detection found) for this thread, so
 * that a benchmark can time the same work with and without it. Not for the service.
 */
export function setIsolationForBench(enabled: boolean, bwrapPath = "bwrap"): IsolationStatus {
  const detected = detectIsolation(bwrapPath);
  current = enabled ? detected : { enabled: false, bwrap: null, detail: "turned off for a benchmark" };
  return current;
}

/**
 * resolveProgram finds `command` (a name on the server's PATH or a path) as an executable, links
 * followed, or null: done before confining, so that a missing program is still a spawn failure,
 * not an exit status of bwrap, and so that a program linked from outside /usr can be mounted.
 */
export function resolveProgram(command: string): string | null {
  const found = Bun.which(command);
  if (!found) return null;
  try {
    return realpathSync(found);
  } catch {
    return null;
  }
}

/**
 * toolEnv is the whole environment a tool gets: PATH, HOME (its job dir), LANG, TMPDIR and the
 * adapter's own `extra` variables. Nothing is copied from the server's environment.
 */
export function toolEnv(home: string, tmp: string, extra: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string> = { PATH: BASE_PATH, HOME: home, LANG: "C.UTF-8", TMPDIR: tmp };
  for (const [name, value] of Object.entries(extra)) if (value !== undefined) env[name] = value;
  return env;
}

/**
 * confine turns "run `program` with `args`" into the spawn that runs it isolated, or directly (with
 * the allow-listed environment only) when isolation is off. `program` is an absolute path from
 * `resolveProgram`.
 */
export function confine(program: string, args: string[], spec: SandboxSpec = {}, extraEnv: Record<string, string | undefined> = {}): Launch {
  const status = isolationStatus();
  const dirs = spec.dirs ?? [];
  if (!status.enabled || !status.bwrap) {
    return { file: program, args, env: toolEnv(dirs[0] ?? tmpdir(), tmpdir(), extraEnv), cwd: spec.cwd ?? dirs[0] };
  }
  const env = toolEnv(dirs[0] ?? "/tmp", "/tmp", extraEnv);
  return { file: status.bwrap, args: [...bwrapArgs(spec, program, env), program, ...args], env: {} };
}

/** bwrapArgs builds bwrap's options for one run, up to the program (`--` included). */
function bwrapArgs(spec: SandboxSpec, program: string, env: Record<string, string>): string[] {
  const dirs = spec.dirs ?? [];
  const args = [
    "--unshare-net",
    "--unshare-pid",
    "--unshare-ipc",
    "--unshare-uts",
    "--unshare-cgroup-try",
    "--die-with-parent",
    "--cap-drop", "ALL",
    // no --new-session: the program already runs in a session of its own without a terminal (spawned
    // detached), and staying in the spawn's process group lets killProcessGroup reach it directly
  ];
  for (const path of SYSTEM_READ_ONLY) args.push("--ro-bind-try", path, path);
  for (const link of MERGED_USR_LINKS) {
    const target = usrLinkTarget(link);
    if (target) args.push("--symlink", target, link);
    else args.push("--ro-bind-try", link, link);
  }
  args.push("--proc", "/proc", "--dev", "/dev");
  // /tmp first: a job dir that lies under the host's /tmp is then mounted on top of it, not hidden by it
  if (spec.tmp) args.push("--bind", spec.tmp, "/tmp");
  else args.push("--tmpfs", "/tmp");
  if (!program.startsWith("/usr/")) args.push("--ro-bind", program, program);
  for (const path of spec.readOnly ?? []) args.push("--ro-bind", path, path);
  for (const dir of dirs) args.push("--bind", dir, dir);
  args.push("--chdir", spec.cwd ?? dirs[0] ?? "/tmp", "--clearenv");
  for (const [name, value] of Object.entries(env)) args.push("--setenv", name, value);
  args.push("--");
  return args;
}

const usrLinks = new Map<string, string | null>();

/** usrLinkTarget is where a top-level link such as /lib points (usr/lib), or null when it is a real directory or absent */
function usrLinkTarget(path: string): string | null {
  if (!usrLinks.has(path)) {
    let target: string | null = null;
    try {
      if (lstatSync(path).isSymbolicLink()) target = readlinkSync(path);
    } catch {
      target = null;
    }
    usrLinks.set(path, target && existsSync(path) ? target : null);
  }
  return usrLinks.get(path)!;
}
