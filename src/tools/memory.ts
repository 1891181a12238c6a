/**
 * The memory rule of the processes that parse untrusted input (conversion processes,
 * src/convert/isolation; warm OCR processes, tesseract/warm.ts): their resident memory is sampled
 * every MEMORY_SAMPLE_MS while they work, a process past the server's --convert-memory-mb is killed
 * and its request answered 413 document_too_large naming the flag, and a process left above
 * RETIRE_SHARE of the cap after its work is replaced (allocators keep what a big input made them take).
 */
import { readdirSync, readFileSync } from "node:fs";
import { AppError } from "../errors";

/** MEMORY_SAMPLE_MS: how often a working process's resident memory is read, in ms */
export const MEMORY_SAMPLE_MS = 50;
/** RETIRE_SHARE: a process left above this share of the cap after its work is replaced, which gives the memory back */
export const RETIRE_SHARE = 0.4;
const PAGE_BYTES = 4096;

/** residentBytes reads the resident memory of processes from /proc, summed; 0 for those gone. */
export function residentBytes(...pids: number[]): number {
  let bytes = 0;
  for (const pid of pids) {
    try {
      bytes += Number(readFileSync(`/proc/${pid}/statm`, "utf8").split(" ")[1]) * PAGE_BYTES;
    } catch {
      // gone
    }
  }
  return bytes;
}

/**
 * processTree lists a process and its descendants (a program under bwrap runs two processes below
 * the one spawned: bwrap's init and the program). Read once the tree is complete; [] when it is gone.
 */
export function processTree(pid: number): number[] {
  const tree: number[] = [];
  const visit = (at: number) => {
    tree.push(at);
    for (const child of childrenOf(at)) visit(child);
  };
  try {
    readFileSync(`/proc/${pid}/statm`);
  } catch {
    return [];
  }
  visit(pid);
  return tree;
}

/** childrenOf: the children of a process's threads, from /proc/PID/task/TID/children (Linux 3.5+) */
function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((tid) =>
      readFileSync(`/proc/${pid}/task/${tid}/children`, "utf8")
        .split(" ")
        .filter(Boolean)
        .map(Number),
    );
  } catch {
    return [];
  }
}

/**
 * watchMemory samples `used()` (bytes) every MEMORY_SAMPLE_MS and calls `past` once when it goes
 * over `memoryBytes`; returns the function that stops the watch. memoryBytes 0 = unlimited (no watch).
 */
export function watchMemory(used: () => number, memoryBytes: number, past: () => void): () => void {
  if (memoryBytes === 0) return () => {};
  const timer = setInterval(() => {
    if (used() <= memoryBytes) return;
    clearInterval(timer);
    past();
  }, MEMORY_SAMPLE_MS);
  return () => clearInterval(timer);
}

/** leftLarge: a process using `used` bytes after its work is to be replaced (memoryBytes 0 = unlimited: never) */
export function leftLarge(used: number, memoryBytes: number): boolean {
  return memoryBytes > 0 && used >= memoryBytes * RETIRE_SHARE;
}

/** memoryLimitError is the 413 of work that went past the cap; `work` names it ("converting 'a.docx'", "OCR of one image"). */
export function memoryLimitError(work: string, memoryBytes: number, cause?: unknown): AppError {
  return new AppError(
    "document_too_large",
    `${work} needed more than ${Math.round(memoryBytes / 1024 / 1024)} MiB of memory, the server's --convert-memory-mb; send a smaller document or ask the operator to raise the limit`,
    { cause },
  );
}
