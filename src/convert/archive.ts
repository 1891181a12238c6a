/**
 * convertArchive reads an archive of documents (ZIP, tar, 7z, and tar or single documents inside
 * gzip, bzip2 or xz): every supported member is converted by its own converter and written under a
 * heading with its path. One member that fails becomes a warning, not a failure of the whole
 * archive; an archive where nothing converts is an error. Archives inside archives are not opened
 * (a warning says so). One budget of decompressed bytes covers the whole archive, counted while
 * decompressing (gzip in zlib with an output cap, bzip2, xz and 7-Zip as programs whose output is
 * capped while it streams), and the member count is limited as for ZIP.
 *
 *   zip, tar, 7z       [list members, convert each]
 *   gz, bz2, xz        [decompress] -> a tar: [list members, convert each]; else the one document inside
 */
import { gunzipSync } from "node:zlib";
import { AppError } from "../errors";
import { describeBytes } from "../runtime/values";
import { sniffType } from "../ingest/sniff";
import { ZipArchive } from "../ingest/zip";
import { checkMarkdownSize, demoteHeadings, textHeading, joinBlocks, tidyMarkdown } from "./markdown";
import { decompressStream, withSevenZip } from "../tools/archivers";

import { isTar, MAX_TAR_ENTRIES, TarArchive } from "./tar";
import type { Conversion, ConvertContext, ConvertInput } from "./types";

/** MAX_ARCHIVE_ENTRIES: entries converted from one archive; the rest are listed in a warning. */
export const MAX_ARCHIVE_ENTRIES = 100;
/** ARCHIVER_TIMEOUT_MS: deadline of one bzip2, xz or 7-Zip run (the conversion's own deadline also applies) */
const ARCHIVER_TIMEOUT_MS = 120_000;

/** ARCHIVE_TYPES are the detected types that are archives (not opened when found inside one). */
const ARCHIVE_TYPES = new Set(["application/zip", "application/x-tar", "application/gzip", "application/x-bzip2", "application/x-xz", "application/x-7z-compressed", "application/vnd.rar"]);

type ConvertEntry = (input: ConvertInput, ctx: ConvertContext) => Promise<Conversion>;

/** Members is an opened archive: its file names and a reader that counts against the budget. */
interface Members {
  kind: string;
  names: string[];
  read(name: string): Promise<Uint8Array>;
}

export async function convertArchive(input: ConvertInput, ctx: ConvertContext, convertEntry: ConvertEntry): Promise<Conversion> {
  const budget = new Budget(ctx.limits.maxDecompressedBytes);
  switch (input.contentType) {
    case "application/x-7z-compressed":
      return withSevenZip(input.bytes, { timeoutMs: ARCHIVER_TIMEOUT_MS, signal: ctx.signal, what: `7z '${input.filename}'` }, (entries, read) => {
        const files = entries.filter((e) => !e.directory);
        if (files.length > MAX_TAR_ENTRIES) throw new AppError("document_too_large", `7z '${input.filename}': ${files.length} archive members, more than the ${MAX_TAR_ENTRIES} accepted`);
        if (files.some((e) => e.encrypted)) throw new AppError("encrypted_document", `7z '${input.filename}': the archive is password-protected; send it without a password`);
        const members: Members = { kind: "7z", names: files.map((e) => e.path), read: (name) => sevenZipMember(read, name, budget, `7z '${input.filename}'`) };
        return convertMembers(input, members, ctx, convertEntry);
      });
    case "application/gzip":
    case "application/x-bzip2":
    case "application/x-xz":
      return convertCompressed(input, await decompressed(input, budget, ctx), ctx, convertEntry);
    case "application/x-tar":
      return convertMembers(input, tarMembers(input.bytes, input.filename), ctx, convertEntry);
    default: {
      const zip = new ZipArchive(input.bytes, ctx.limits.maxDecompressedBytes, `ZIP '${input.filename}'`);
      const names = zip.names().filter((n) => !n.endsWith("/") && !n.startsWith("__MACOSX/"));
      return convertMembers(input, { kind: "ZIP", names, read: async (name) => zip.read(name)! }, ctx, convertEntry);
    }
  }
}

/** Budget counts decompressed bytes against the archive's limit. */
class Budget {
  private used = 0;
  constructor(readonly max: number) {}
  left(): number {
    return Math.max(0, this.max - this.used);
  }
  count(bytes: Uint8Array, what: string): Uint8Array {
    this.used += bytes.length;
    if (this.used > this.max) throw tooLarge(what, this.max);
    return bytes;
  }
}

function tooLarge(what: string, max: number): AppError {
  return new AppError("document_too_large", `${what}: decompresses to more than ${describeBytes(max)}, the limit for decompressed content (a decompression bomb or an oversized archive)`);
}

/** sevenZipMember extracts one 7z member with the budget's remainder as its output cap. */
async function sevenZipMember(read: (path: string, maxBytes: number) => Promise<Uint8Array>, name: string, budget: Budget, what: string): Promise<Uint8Array> {
  try {
    return budget.count(await read(name, budget.left()), what);
  } catch (error) {
    // the cap was the remainder, so name the whole budget as the limit
    if (error instanceof AppError && error.code === "document_too_large") throw tooLarge(what, budget.max);
    throw error;
  }
}

/** decompressed undoes one gzip, bzip2 or xz layer under the budget. */
async function decompressed(input: ConvertInput, budget: Budget, ctx: ConvertContext): Promise<Uint8Array> {
  const what = `${input.ext || "compressed"} '${input.filename}'`;
  if (input.contentType === "application/gzip") {
    try {
      return budget.count(gunzipSync(input.bytes, { maxOutputLength: Math.max(1, budget.left() + 1) }), what);
    } catch (error) {
      if (error instanceof AppError) throw error;
      if (error instanceof RangeError || (error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") throw tooLarge(what, budget.max);
      throw new AppError("unreadable_document", `${what}: the gzip data is corrupt or truncated`, { cause: error });
    }
  }
  const format = input.contentType === "application/x-bzip2" ? "bz2" : "xz";
  return budget.count(await decompressStream(format, input.bytes, { maxBytes: budget.left(), timeoutMs: ARCHIVER_TIMEOUT_MS, signal: ctx.signal, what }), what);
}

/** convertCompressed converts what a compression layer held: a tar's members, or the one document (its name without the suffix). */
async function convertCompressed(input: ConvertInput, inner: Uint8Array, ctx: ConvertContext, convertEntry: ConvertEntry): Promise<Conversion> {
  if (isTar(inner)) return convertMembers(input, tarMembers(inner, input.filename), ctx, convertEntry);
  const name = innerName(input.filename);
  const detected = sniffType(inner, name);
  if (ARCHIVE_TYPES.has(detected.mime)) throw new AppError("unreadable_document", `'${input.filename}' holds another archive ('${name}'); archives inside archives are not opened`);
  const result = await convertEntry({ bytes: inner, filename: name, contentType: detected.mime, ext: detected.ext }, ctx);
  return { ...result, title: result.title ?? name };
}

/** innerName is the name of the document inside a compressed file: report.pdf.gz -> report.pdf, data.tgz -> data.tar. */
function innerName(filename: string): string {
  if (/\.(tgz|tbz2?|txz)$/i.test(filename)) return filename.replace(/\.[^.]+$/, ".tar");
  const stripped = filename.replace(/\.(gz|gzip|bz2|xz)$/i, "");
  return stripped && stripped !== filename ? stripped : `${filename}.out`;
}

function tarMembers(bytes: Uint8Array, filename: string): Members {
  const tar = new TarArchive(bytes, `tar '${filename}'`);
  return { kind: "tar", names: tar.names(), read: async (name) => tar.read(name)! };
}

/** convertMembers converts every supported member under a heading with its path. */
async function convertMembers(input: ConvertInput, members: Members, ctx: ConvertContext, convertEntry: ConvertEntry): Promise<Conversion> {
  const names = members.names.filter((n) => !n.split("/").pop()!.startsWith(".")).sort();
  const warnings: string[] = [];
  const blocks: string[] = [textHeading(1, input.filename)];
  let converted = 0;
  let pages = 0;
  for (const name of names) {
    ctx.signal.throwIfAborted();
    if (converted >= MAX_ARCHIVE_ENTRIES) {
      warnings.push(`only the first ${MAX_ARCHIVE_ENTRIES} entries were converted; ${names.length - MAX_ARCHIVE_ENTRIES} more were skipped`);
      break;
    }
    const bytes = await members.read(name);
    const detected = sniffType(bytes, name);
    if (ARCHIVE_TYPES.has(detected.mime)) {
      warnings.push(`${name}: archives inside archives are not opened`);
      continue;
    }
    try {
      const result = await convertEntry({ bytes, filename: name.split("/").pop()!, contentType: detected.mime, ext: detected.ext }, ctx);
      blocks.push(textHeading(2, name), demoteHeadings(result.markdown, 2));
      warnings.push(...result.warnings.map((w) => `${name}: ${w}`));
      pages += result.totalPages;
      converted++;
      checkMarkdownSize(blocks.reduce((sum, b) => sum + b.length, 0), ctx.limits, `${members.kind} '${input.filename}'`);
    } catch (error) {
      if (!(error instanceof AppError) || error.code === "timeout" || error.code === "document_too_large") throw error;
      warnings.push(`${name}: ${error.detail}`);
    }
  }
  if (converted === 0) {
    throw new AppError("unreadable_document", `${members.kind} '${input.filename}' holds no document that could be converted${warnings.length ? `: ${warnings.join("; ")}` : " (it is empty)"}`);
  }
  return { markdown: tidyMarkdown(joinBlocks(blocks)), title: input.filename, totalPages: pages, method: "archive", warnings };
}

