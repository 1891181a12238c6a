/**
 * Task inputs. The JSON of a task's input lives in SQLite. Its top-level `File` and `File[]` values
 * are replaced in the JSON by references and turned back into `File`s when the task runs:
 *   - small files (INLINE_MAX_BYTES for all of a task's files together) are kept in the JSON itself,
 *     base64: nothing to create and remove on disk per task;
 *   - larger ones are written to <data>/inputs/<task_id>/ before the task row exists (a row never
 *     points at a missing file); the directory goes when the task ends.
 */
import { mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";

/** INLINE_MAX_BYTES: a task whose files add up to at most this many bytes keeps them in its row */
export const INLINE_MAX_BYTES = 64 * 1024;

/** FileRef is what the stored JSON holds in place of an uploaded file: a file in the input dir, or the bytes themselves. */
type FileRef = { $file: { path: string; name: string; type: string } } | { $inline: { base64: string; name: string; type: string } };

const isFileRef = (v: unknown): v is FileRef => typeof v === "object" && v !== null && ("$file" in v || "$inline" in v);

/** hasFilesOnDisk says whether a stored input refers to files in its input dir (which must go when the task ends). */
export function hasFilesOnDisk(json: string): boolean {
  return json.includes('"$file"');
}

function filesOf(input: Record<string, unknown>): File[] {
  return Object.values(input).flatMap((v) => (v instanceof File ? [v] : Array.isArray(v) ? v.filter((x): x is File => x instanceof File) : []));
}

export function inputDirOf(dataDir: string, taskId: string): string {
  return join(dataDir, "inputs", taskId);
}

/** storeInput keeps the input's files (in the JSON, or in `dir`) and returns the JSON text to keep in the task row; on failure it leaves nothing in `dir`. */
export async function storeInput(input: Record<string, unknown>, dir: string): Promise<string> {
  const inline = filesOf(input).reduce((n, f) => n + f.size, 0) <= INLINE_MAX_BYTES;
  let count = 0;
  const save = async (file: File): Promise<FileRef> => {
    if (inline) return { $inline: { base64: Buffer.from(await file.arrayBuffer()).toString("base64"), name: file.name, type: file.type } };
    if (count === 0) mkdirSync(dir, { recursive: true, mode: 0o700 });
    // the stored name is a counter, never the client's filename (no path tricks); the name is kept in the JSON
    const path = String(count++);
    await Bun.write(join(dir, path), file);
    return { $file: { path, name: file.name, type: file.type } };
  };
  const stored: Record<string, unknown> = {};
  try {
    for (const [name, value] of Object.entries(input)) {
      if (value instanceof File) stored[name] = await save(value);
      else if (Array.isArray(value) && value.some((v) => v instanceof File)) stored[name] = await Promise.all(value.map((v) => (v instanceof File ? save(v) : v)));
      else stored[name] = value;
    }
  } catch (error) {
    if (count > 0) removeInput(dir); // what was written so far goes
    throw error;
  }
  return JSON.stringify(stored);
}

/** loadInput parses a stored input and opens its files again. */
export async function loadInput(json: string, dir: string): Promise<Record<string, unknown>> {
  const stored = JSON.parse(json) as Record<string, unknown>;
  const open = async (ref: FileRef) =>
    "$inline" in ref
      ? new File([Buffer.from(ref.$inline.base64, "base64")], ref.$inline.name, { type: ref.$inline.type })
      : new File([await Bun.file(join(dir, ref.$file.path)).arrayBuffer()], ref.$file.name, { type: ref.$file.type });
  const input: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(stored)) {
    if (isFileRef(value)) input[name] = await open(value);
    else if (Array.isArray(value) && value.some(isFileRef)) input[name] = await Promise.all(value.map((v) => (isFileRef(v) ? open(v) : v)));
    else input[name] = value;
  }
  return input;
}

export function removeInput(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * sweepInputs removes input dirs of tasks that have ended (a crash between the end and the removal
 * leaves them behind). Dirs younger than `minAgeMs` are kept: their task may be being accepted now.
 */
export function sweepInputs(dataDir: string, unfinished: Set<string>, minAgeMs = 3_600_000): number {
  const root = join(dataDir, "inputs");
  let removed = 0;
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return 0;
  }
  const now = Date.now();
  for (const name of names) {
    if (unfinished.has(name)) continue;
    const dir = join(root, name);
    try {
      if (now - statSync(dir).mtimeMs < minAgeMs) continue;
    } catch {
      continue;
    }
    removeInput(dir);
    removed++;
  }
  return removed;
}
