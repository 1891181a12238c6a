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
 * This is imported first by src/cli/main.ts, so that the restart happens before the rest of the
 * CLI is evaluated; like embedded.ts it reads process.env before the config exists.
 */
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

serveWithServerAllocator();
