/**
 * ZipArchive reads ZIP-based documents (DOCX, XLSX, PPTX, ODF, EPUB) from the central directory and
 * inflates entries on demand. Every inflate is capped: the archive has one budget of decompressed
 * bytes (a zip bomb fails with 413 document_too_large while inflating, not after), and a declared
 * size is never trusted.
 */
import { inflateRawSync } from "node:zlib";
import { AppError } from "../errors";
import { describeBytes } from "../runtime/values";
import { findEndOfCentralDirectory } from "./sniff";

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  uncompressedSize: number;
  /** localHeaderOffset: where the entry's local header starts */
  localHeaderOffset: number;
  encrypted: boolean;
}

const MAX_ENTRIES = 50_000;

export class ZipArchive {
  readonly entries = new Map<string, ZipEntry>();
  private inflated = 0;

  /**
   * @param bytes the whole archive
   * @param maxDecompressedBytes budget for all entries inflated through this archive
   * @param what names the document in errors, e.g. "DOCX 'report.docx'"
   */
  constructor(
    private readonly bytes: Uint8Array,
    private readonly maxDecompressedBytes: number,
    private readonly what: string,
  ) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const end = findEndOfCentralDirectory(bytes);
    if (end < 0) throw new AppError("unreadable_document", `${what}: not a readable ZIP container (no central directory; the file is truncated or corrupt)`);
    const count = view.getUint16(end + 10, true);
    let at = view.getUint32(end + 16, true);
    if (count > MAX_ENTRIES) throw new AppError("document_too_large", `${what}: ${count} archive entries, more than the ${MAX_ENTRIES} accepted`);
    for (let i = 0; i < count; i++) {
      if (at + 46 > bytes.length || view.getUint32(at, true) !== 0x02014b50) {
        throw new AppError("unreadable_document", `${what}: the ZIP central directory is corrupt (entry ${i + 1} of ${count})`);
      }
      const flags = view.getUint16(at + 8, true);
      const nameLength = view.getUint16(at + 28, true);
      const name = new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength));
      this.entries.set(name, {
        name,
        method: view.getUint16(at + 10, true),
        compressedSize: view.getUint32(at + 20, true),
        uncompressedSize: view.getUint32(at + 24, true),
        localHeaderOffset: view.getUint32(at + 42, true),
        encrypted: (flags & 1) === 1,
      });
      at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    }
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** names lists entry names, optionally those starting with `prefix`. */
  names(prefix = ""): string[] {
    return [...this.entries.keys()].filter((n) => n.startsWith(prefix));
  }

  /** read inflates one entry; undefined when absent. Counts against the archive's budget. */
  read(name: string): Uint8Array | undefined {
    const entry = this.entries.get(name);
    if (!entry) return undefined;
    if (entry.encrypted) throw new AppError("encrypted_document", `${this.what}: the archive entry '${name}' is password-protected; send the document without a password`);
    const view = new DataView(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength);
    const at = entry.localHeaderOffset;
    if (at + 30 > this.bytes.length || view.getUint32(at, true) !== 0x04034b50) {
      throw new AppError("unreadable_document", `${this.what}: the archive entry '${name}' is corrupt (bad local header)`);
    }
    const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
    const data = this.bytes.subarray(start, start + entry.compressedSize);
    if (data.length < entry.compressedSize) throw new AppError("unreadable_document", `${this.what}: the archive is truncated inside '${name}'`);
    const budget = this.maxDecompressedBytes - this.inflated;
    let out: Uint8Array;
    if (entry.method === 0) {
      out = data;
    } else if (entry.method === 8) {
      try {
        out = inflateRawSync(data, { maxOutputLength: Math.max(1, budget + 1) });
      } catch (error) {
        if (error instanceof RangeError || (error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") this.tooLarge();
        throw new AppError("unreadable_document", `${this.what}: the archive entry '${name}' does not inflate (corrupt data)`, { cause: error });
      }
    } else {
      throw new AppError("unreadable_document", `${this.what}: the archive entry '${name}' uses compression method ${entry.method}, which is not supported`);
    }
    this.inflated += out.length;
    if (this.inflated > this.maxDecompressedBytes) this.tooLarge();
    return out;
  }

  /** text reads one entry as UTF-8 text; undefined when absent. */
  text(name: string): string | undefined {
    const bytes = this.read(name);
    return bytes === undefined ? undefined : new TextDecoder().decode(bytes);
  }

  private tooLarge(): never {
    throw new AppError(
      "document_too_large",
      `${this.what}: inflates to more than ${describeBytes(this.maxDecompressedBytes)}, the limit for decompressed content (a ZIP bomb or an oversized document)`,
    );
  }
}
