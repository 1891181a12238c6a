/**
 * The allocator setting of `docintel serve`. Bun allocates with mimalloc, which by default gives
 * freed memory back to the system 100 ms after it was freed (its "purge"). A server that takes
 * multi-megabyte uploads frees and allocates buffers of that size at every request, a few hundred
 * milliseconds apart, so each request touched fresh pages again: 2.2 MB is about 540 page faults,
 * which on the 2-core VMs this project runs on cost more main-thread time than parsing the upload
 * and resizing the image (bench/README.md, thumbnails.ts). With the purge off (the mimalloc option
 * MIMALLOC_PURGE_DELAY=-1) freed memory stays mapped and is reused; the price is that the process's
 * resident size stays at its peak instead of shrinking when idle.
 *
 * mimalloc reads its options from the environment once, when the process starts, so `serve` starts
 * itself again (execve: the same pid, stdio and arguments) with the option set, before any other
 * module runs. An operator who sets MIMALLOC_PURGE_DELAY (100 is mimalloc's default) keeps that
 * value and no restart happens. Other commands are short-lived and keep the default.
 *
 * The same holds for glibc's malloc, which libvips (sharp) allocates with on its own threads: by
 * default it hands the top of a thread's heap back to the system (MADV_DONTNEED) once more than
 * 128 kB there is free, and serves blocks over a moving threshold with a fresh mmap. A thumbnail frees
 * and allocates a few megabytes per image on those threads, so each one faulted about 500 pages in
 * again, 7-10 ms of the 40-45 ms libvips spent per 4000x3000 JPEG (bench/README.md, thumbnails.ts).
 * `serve` therefore raises glibc's trim threshold (to 1 GiB: heaps are not handed back) and fixes
 * its mmap threshold at 32 MiB (glibc's largest on 64-bit; blocks under it are reused from the heap)
 * with mallopt(3), in its own process only: the tools it starts (LibreOffice, Chromium, ffmpeg,
 * tesseract) inherit no setting. An operator's own MALLOC_TRIM_THRESHOLD_, MALLOC_MMAP_THRESHOLD_ or
 * glibc.malloc.* tunable in GLIBC_TUNABLES (which glibc applied at start) is kept. On a libc without
 * mallopt (musl) nothing is changed.
 *
 * This is imported first by src/cli/main.ts, so that the restart happens before the rest of the
 * CLI is evaluated; like embedded.ts it reads process.env before the config exists.
 */
import { dlopen, FFIType } from "bun:ffi";
import { isCompiled } from "./embedded";

/** SERVER_ALLOCATOR_ENV: the mimalloc options `docintel serve` runs with (see above) */
export const SERVER_ALLOCATOR_ENV = { MIMALLOC_PURGE_DELAY: "-1" } as const;

/**
 * restartArgsOf: the argv that starts this CLI again with the same command. A script run
 * (`bun [bun flags] bin/docintel serve ...`) keeps Bun's own flags and the script; the compiled
 * binary takes the command directly (Bun puts its entry back at argv[1]).
 */
export function restartArgsOf(argv: readonly string[], execArgv: readonly string[], compiled: boolean): string[] {
  return compiled ? argv.slice(2) : [...execArgv, ...argv.slice(1)];
}

/** serveWithServerAllocator restarts `docintel serve` with SERVER_ALLOCATOR_ENV unless the option is already set. */
function serveWithServerAllocator(): void {
  if (process.argv[2] !== "serve" || process.env.MIMALLOC_PURGE_DELAY !== undefined) return;
  const proc = process as unknown as { execve?: (file: string, args: string[], env: Record<string, string | undefined>) => never };
  if (typeof proc.execve !== "function") return; // a runtime without execve runs with mimalloc's default
  proc.execve(process.execPath, [process.execPath, ...restartArgsOf(process.argv, process.execArgv, isCompiled())], { ...process.env, ...SERVER_ALLOCATOR_ENV });
}

/**
 * SERVER_GLIBC_MALLOC: the glibc malloc thresholds `docintel serve` sets in its own process (see
 * above), each with the mallopt(3) parameter and the settings through which an operator overrides it
 */
export const SERVER_GLIBC_MALLOC = [
  { name: "trim_threshold", param: -1 /* M_TRIM_THRESHOLD */, value: 1024 * 1024 * 1024, env: "MALLOC_TRIM_THRESHOLD_", tunable: "glibc.malloc.trim_threshold" },
  { name: "mmap_threshold", param: -3 /* M_MMAP_THRESHOLD */, value: 32 * 1024 * 1024, env: "MALLOC_MMAP_THRESHOLD_", tunable: "glibc.malloc.mmap_threshold" },
] as const;

/** glibcMallocToSet: the thresholds of SERVER_GLIBC_MALLOC that `env` leaves to the server (those the operator did not set). */
export function glibcMallocToSet(env: Record<string, string | undefined>): (typeof SERVER_GLIBC_MALLOC)[number][] {
  const tunables = (env.GLIBC_TUNABLES ?? "").split(":").map((t) => t.slice(0, t.indexOf("=")).trim());
  return SERVER_GLIBC_MALLOC.filter((s) => env[s.env] === undefined && !tunables.includes(s.tunable));
}

/**
 * setGlibcMalloc applies glibcMallocToSet(process.env) with mallopt; it returns the names of the
 * thresholds it set ([] on a libc without mallopt).
 */
export function setGlibcMalloc(): string[] {
  const wanted = glibcMallocToSet(process.env);
  if (process.platform !== "linux" || wanted.length === 0) return [];
  let libc;
  try {
    libc = dlopen("libc.so.6", { mallopt: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 } });
  } catch {
    return []; // not glibc (musl has no mallopt): its allocator keeps its own ways
  }
  try {
    return wanted.filter((s) => libc.symbols.mallopt(s.param, s.value) === 1).map((s) => s.name);
  } finally {
    libc.close();
  }
}

serveWithServerAllocator();
if (process.argv[2] === "serve") setGlibcMalloc();
