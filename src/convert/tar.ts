/**
 * TarArchive reads a tar archive held in memory (ustar, GNU long names, POSIX pax headers): the
 * regular files' names and where their bytes are. Reading a member is a slice, so the bytes a tar
 * can expand to are the bytes it holds (its compression, if any, was budgeted when it was undone).
 */
import { AppError } from "../errors";

const BLOCK = 512;
/** MAX_ENTRIES: members accepted in one archive (as for ZIP); more is refused with 413 */
export const MAX_TAR_ENTRIES = 50_000;

export class TarArchive {
  private readonly members = new Map<string, { offset: number; size: number }>();

  /**
   * @param bytes the whole (uncompressed) tar
   * @param what names the document in errors, e.g. "tar 'logs.tar'"
   */
  constructor(
    private readonly bytes: Uint8Array,
    what: string,
  ) {
    const latin1 = new TextDecoder("latin1");
    const utf8 = new TextDecoder();
    let at = 0;
    let longName: string | null = null;
    let paxPath: string | null = null;
    let paxSize: number | null = null;
    let headers = 0;
    while (at + BLOCK <= bytes.length) {
      const header = bytes.subarray(at, at + BLOCK);
      if (header.every((b) => b === 0)) break; // end of archive
      if (!validChecksum(header)) throw new AppError("unreadable_document", `${what}: not a readable tar archive (bad header checksum at byte ${at})`);
      if (++headers > MAX_TAR_ENTRIES * 3) throw new AppError("document_too_large", `${what}: more than ${MAX_TAR_ENTRIES} archive members, the limit`);
      const type = String.fromCharCode(header[156]!);
      const size = paxSize ?? octal(header.subarray(124, 136), what);
      const dataAt = at + BLOCK;
      if (dataAt + size > bytes.length) throw new AppError("unreadable_document", `${what}: the archive is truncated (a member runs past the end)`);
      const data = bytes.subarray(dataAt, dataAt + size);
      if (type === "L") {
        longName = utf8.decode(data).replace(/\0.*$/s, "");
      } else if (type === "x") {
        const pax = parsePax(utf8.decode(data));
        paxPath = pax.path ?? null;
        paxSize = pax.size ?? null;
      } else if (type === "g") {
        // global pax header: nothing we use
      } else {
        const prefix = latin1.decode(header.subarray(257, 263)).startsWith("ustar") ? cString(header.subarray(345, 500), utf8) : "";
        const plain = cString(header.subarray(0, 100), utf8);
        const name = paxPath ?? longName ?? (prefix ? `${prefix}/${plain}` : plain);
        if ((type === "0" || type === "\0" || type === "7") && name && !name.endsWith("/")) {
          if (this.members.size >= MAX_TAR_ENTRIES) throw new AppError("document_too_large", `${what}: more than ${MAX_TAR_ENTRIES} archive members, the limit`);
          this.members.set(name.replace(/^\.\//, ""), { offset: dataAt, size });
        }
        longName = paxPath = null;
        paxSize = null;
      }
      at = dataAt + Math.ceil(size / BLOCK) * BLOCK;
    }
    if (headers === 0) throw new AppError("unreadable_document", `${what}: the tar archive holds no members`);
  }

  /** names lists the regular files, in archive order. */
  names(): string[] {
    return [...this.members.keys()];
  }

  /** read returns one member's bytes (a view into the archive); undefined when absent. */
  read(name: string): Uint8Array | undefined {
    const member = this.members.get(name);
    return member ? this.bytes.subarray(member.offset, member.offset + member.size) : undefined;
  }
}

/** isTar: the bytes start with a tar header (ustar magic, or a valid checksum for old v7 archives). */
export function isTar(bytes: Uint8Array): boolean {
  if (bytes.length < BLOCK) return false;
  const header = bytes.subarray(0, BLOCK);
  return header.some((b) => b !== 0) && validChecksum(header);
}

/** validChecksum: the header's checksum field equals the sum of its bytes with that field as spaces. */
function validChecksum(header: Uint8Array): boolean {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : header[i]!;
  const stored = Number.parseInt(new TextDecoder("latin1").decode(header.subarray(148, 156)).replace(/[\0 ]+/g, " ").trim(), 8);
  return stored === sum;
}

/** octal reads a numeric header field: octal text, or GNU base-256 when the high bit is set. */
function octal(field: Uint8Array, what: string): number {
  if (field[0]! & 0x80) {
    let value = field[0]! & 0x7f;
    for (let i = 1; i < field.length; i++) value = value * 256 + field[i]!;
    return value;
  }
  const text = new TextDecoder("latin1").decode(field).replace(/\0.*$/s, "").trim();
  const value = text ? Number.parseInt(text, 8) : 0;
  if (!Number.isFinite(value) || value < 0) throw new AppError("unreadable_document", `${what}: a tar header has a bad size field`);
  return value;
}

function cString(field: Uint8Array, decoder: TextDecoder): string {
  const end = field.indexOf(0);
  return decoder.decode(end < 0 ? field : field.subarray(0, end));
}

/** parsePax reads "LEN key=value\n" records; only path and size matter here. */
function parsePax(text: string): { path?: string; size?: number } {
  const out: { path?: string; size?: number } = {};
  for (const m of text.matchAll(/^\d+ ([^=\n]+)=(.*)$/gm)) {
    if (m[1] === "path") out.path = m[2]!;
    if (m[1] === "size" && /^\d+$/.test(m[2]!)) out.size = Number(m[2]);
  }
  return out;
}
