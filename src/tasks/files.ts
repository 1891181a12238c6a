/**
 * Task inputs. The JSON of a task's input lives in its row. Its top-level file values (UploadedFile, one or a list)
 * are replaced in the JSON by references and turned back into `File`s when the task runs:
 *   - small files (INLINE_MAX_BYTES for all of a task's files together) are kept in the JSON itself,
 *     base64: nothing to store and remove apart per task;
 *   - larger ones are blobs `inputs/<task_id>/<n>` of the store (backend.blobs: on SQLite the files
 *     <data>/inputs/<task_id>/<n>, as before; on PostgreSQL rows every machine reads), written before
 *     the task row exists (a row never points at a missing blob); they go when the task ends.
 */
import type { BlobStore } from "../store/backend";
import { bytesOf, isUploadedFile, type UploadedFile } from "../ingest/upload";

/** INLINE_MAX_BYTES: a task whose files add up to at most this many bytes keeps them in its row */
export const INLINE_MAX_BYTES = 64 * 1024;

/** FileRef is what the stored JSON holds in place of an uploaded file: a blob of the task, or the bytes themselves. */
type FileRef = { $file: { path: string; name: string; type: string } } | { $inline: { base64: string; name: string; type: string } };

const isFileRef = (v: unknown): v is FileRef => typeof v === "object" && v !== null && ("$file" in v || "$inline" in v);

/** hasStoredFiles says whether a stored input refers to blobs of its task (which must go when the task ends). */
export function hasStoredFiles(json: string): boolean {
  return json.includes('"$file"');
}

function filesOf(input: Record<string, unknown>): UploadedFile[] {
  return Object.values(input).flatMap((v) => (isUploadedFile(v) ? [v] : Array.isArray(v) ? v.filter(isUploadedFile) : []));
}

/** inputBlobOf: the blob prefix of a task's input files ("inputs/<task_id>") */
export function inputBlobOf(taskId: string): string {
  return `inputs/${taskId}`;
}

/** storeInput keeps the input's files (in the JSON, or as blobs of the task) and returns the JSON text to keep in the task row; on failure it leaves no blob. */
export async function storeInput(input: Record<string, unknown>, blobs: BlobStore, taskId: string): Promise<string> {
  const inline = filesOf(input).reduce((n, f) => n + f.size, 0) <= INLINE_MAX_BYTES;
  let count = 0;
  const save = async (file: UploadedFile): Promise<FileRef> => {
    const bytes = await bytesOf(file);
    if (inline) return { $inline: { base64: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64"), name: file.name, type: file.type } };
    // the stored name is a counter, never the client's filename (no path tricks); the name is kept in the JSON
    const path = String(count++);
    await blobs.put(`${inputBlobOf(taskId)}/${path}`, bytes);
    return { $file: { path, name: file.name, type: file.type } };
  };
  const stored: Record<string, unknown> = {};
  try {
    for (const [name, value] of Object.entries(input)) {
      if (isUploadedFile(value)) stored[name] = await save(value);
      else if (Array.isArray(value) && value.some(isUploadedFile)) stored[name] = await Promise.all(value.map((v) => (isUploadedFile(v) ? save(v) : v)));
      else stored[name] = value;
    }
  } catch (error) {
    if (count > 0) await removeInput(blobs, taskId).catch(() => undefined); // what was written so far goes
    throw error;
  }
  return JSON.stringify(stored);
}

/** loadInput parses a stored input and opens its files again. */
export async function loadInput(json: string, blobs: BlobStore, taskId: string): Promise<Record<string, unknown>> {
  const stored = JSON.parse(json) as Record<string, unknown>;
  const open = async (ref: FileRef) => {
    if ("$inline" in ref) return new File([Buffer.from(ref.$inline.base64, "base64")], ref.$inline.name, { type: ref.$inline.type });
    const bytes = await blobs.get(`${inputBlobOf(taskId)}/${ref.$file.path}`);
    if (!bytes) throw new Error(`task ${taskId}: its input file ${ref.$file.path} is gone`);
    return new File([bytes as Uint8Array<ArrayBuffer>], ref.$file.name, { type: ref.$file.type });
  };
  const input: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(stored)) {
    if (isFileRef(value)) input[name] = await open(value);
    else if (Array.isArray(value) && value.some(isFileRef)) input[name] = await Promise.all(value.map((v) => (isFileRef(v) ? open(v) : v)));
    else input[name] = value;
  }
  return input;
}

/** removeInput deletes a task's input blobs. */
export async function removeInput(blobs: BlobStore, taskId: string): Promise<void> {
  await blobs.remove(inputBlobOf(taskId));
}

/**
 * sweepInputs removes the input blobs of tasks that have ended: a crash between a task's end and the
 * removal leaves them behind. A blob whose task's row says it ended (`ended`) goes whatever its age;
 * one without an ended row goes once older than `minAgeMs` (its task may be being accepted now: the
 * blobs are written before the row; or its row was forgotten).
 */
export async function sweepInputs(blobs: BlobStore, unfinished: Set<string>, ended: (taskId: string) => Promise<boolean>, minAgeMs = 3_600_000): Promise<number> {
  const newest = new Map<string, number>();
  for (const blob of await blobs.list("inputs")) {
    const taskId = blob.name.split("/")[1]!;
    newest.set(taskId, Math.max(newest.get(taskId) ?? 0, blob.createdAt));
  }
  const now = Date.now();
  let removed = 0;
  for (const [taskId, createdAt] of newest) {
    if (unfinished.has(taskId) || (now - createdAt < minAgeMs && !(await ended(taskId)))) continue;
    await removeInput(blobs, taskId);
    removed++;
  }
  return removed;
}
