/**
 * Debian's archivers behind one small adapter: `bzip2 -dc` and `xz -dc` decompress bz2 and xz
 * streams (node's zlib has neither), and 7-Zip (`7zz` from the 7zip package, or p7zip's `7z`)
 * lists and extracts .7z archives. Every output is capped while it streams, so a decompression
 * bomb is stopped at the budget (413 document_too_large) instead of after it.
 */
import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AppError } from "../../errors";
import { describeBytes } from "../../runtime/values";
import { firstInstalled } from "../programs";
import { ProcessError, runProcess, toolUnavailable, withTempDir } from "../process";

/** STREAM_DECOMPRESSORS: the program and Debian package for each single-stream format. */
const STREAM_DECOMPRESSORS = { bz2: { program: "bzip2", debianPackage: "bzip2" }, xz: { program: "xz", debianPackage: "xz-utils" } } as const;

/** SEVEN_ZIP_CANDIDATES: 7-Zip's own build (Debian 7zip) first, then p7zip (p7zip-full). */
const SEVEN_ZIP_CANDIDATES = ["7zz", "7z"];

/** ArchiverLimits bound one run. */
export interface ArchiverLimits {
  /** maxBytes: decompressed output beyond this is refused with document_too_large */
  maxBytes: number;
  /** timeoutMs: deadline for the program in milliseconds */
  timeoutMs: number;
  signal: AbortSignal;
  /** what: names the document in errors, e.g. "bz2 'logs.tar.bz2'" */
  what: string;
}

/** decompressStream decompresses one bz2 or xz stream (sent on stdin) to its bytes. */
export async function decompressStream(format: keyof typeof STREAM_DECOMPRESSORS, data: Uint8Array, limits: ArchiverLimits): Promise<Uint8Array> {
  const { program, debianPackage } = STREAM_DECOMPRESSORS[format];
  try {
    const { stdout } = await runProcess(program, ["-dc"], { stdin: data, timeoutMs: limits.timeoutMs, signal: limits.signal, maxStdoutBytes: limits.maxBytes, what: `decompress ${limits.what}` });
    return new Uint8Array(stdout.buffer, stdout.byteOffset, stdout.length);
  } catch (error) {
    throw archiverError(error, program, debianPackage, limits, "the data is corrupt or truncated");
  }
}

/** SevenZipEntry is one member of a .7z archive as `7zz l -slt` lists it. */
export interface SevenZipEntry {
  path: string;
  /** size: the declared size in bytes (informative only: extraction is capped on its own) */
  size: number;
  directory: boolean;
  encrypted: boolean;
}

/**
 * withSevenZip writes the archive to a private temp dir (7-Zip needs a seekable file), lists it,
 * and gives `fn` the entries and a reader that extracts one member to memory under a byte cap.
 */
export async function withSevenZip<T>(
  bytes: Uint8Array,
  limits: Omit<ArchiverLimits, "maxBytes">,
  fn: (entries: SevenZipEntry[], read: (path: string, maxBytes: number) => Promise<Uint8Array>) => Promise<T>,
): Promise<T> {
  const program = firstInstalled(SEVEN_ZIP_CANDIDATES);
  if (!program) throw toolUnavailable("7-Zip (7zz or 7z)", "7zip", undefined);
  return withTempDir(tmpdir(), "docintel-7z-", async (dir) => {
    const archive = join(dir, "archive.7z");
    await writeFile(archive, bytes);
    const run = (args: string[], maxBytes: number, doing: string) =>
      runProcess(program, args, { timeoutMs: limits.timeoutMs, signal: limits.signal, maxStdoutBytes: maxBytes, what: `${doing} ${limits.what}`, sandbox: { dirs: [dir] } }).catch((error) => {
        throw archiverError(error, program, "7zip", { ...limits, maxBytes }, "the archive is corrupt, truncated or password-protected");
      });
    // -p- answers any password prompt with none (an encrypted archive fails instead of waiting); -spd: names are literal, not wildcards.
    const listing = await run(["l", "-slt", "-ba", "-p-", "-spd", archive], 50_000_000, "list");
    const entries = parseListing(listing.stdout.toString("utf8"));
    const read = async (path: string, maxBytes: number) => {
      const { stdout } = await run(["e", "-so", "-p-", "-spd", "-bd", archive, "--", path], maxBytes, `extract '${path}' from`);
      return new Uint8Array(stdout.buffer, stdout.byteOffset, stdout.length);
    };
    return fn(entries, read);
  });
}

/** parseListing reads `7zz l -slt -ba`: blocks of "Key = value" lines, one block per member. */
function parseListing(text: string): SevenZipEntry[] {
  const entries: SevenZipEntry[] = [];
  for (const block of text.split(/\n\s*\n/)) {
    const fields = new Map<string, string>();
    for (const line of block.split("\n")) {
      const m = /^([A-Za-z ]+?) = (.*)$/.exec(line.trimEnd());
      if (m) fields.set(m[1]!, m[2]!);
    }
    const path = fields.get("Path");
    if (!path) continue;
    entries.push({
      path,
      size: Number(fields.get("Size") ?? 0) || 0,
      directory: (fields.get("Folder") ?? "") === "+" || (fields.get("Attributes") ?? "").startsWith("D"),
      encrypted: (fields.get("Encrypted") ?? "") === "+",
    });
  }
  return entries;
}

/** archiverError maps a failed run to the client's error: too large, timeout, tool missing, or unreadable. */
function archiverError(error: unknown, program: string, debianPackage: string, limits: ArchiverLimits, unreadable: string): unknown {
  if (!(error instanceof ProcessError)) return error;
  if (error.reason === "spawn") return toolUnavailable(program, debianPackage, error);
  if (error.reason === "aborted") return limits.signal.reason ?? error;
  if (error.reason === "timeout") return new AppError("timeout", `${limits.what}: ${program} did not finish within ${limits.timeoutMs} ms`, { cause: error });
  if (error.reason === "output_limit") {
    return new AppError("document_too_large", `${limits.what}: decompresses to more than ${describeBytes(limits.maxBytes)}, the limit for decompressed content (a decompression bomb or an oversized archive)`, { cause: error });
  }
  return new AppError("unreadable_document", `${limits.what}: ${program} could not read it; ${unreadable}`, { cause: error });
}
