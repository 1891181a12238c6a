/**
 * zipOf writes a ZIP archive for tests: deflated entries by default, stored ones on request, and
 * pre-deflated data with a declared size (for zip bombs: the data never exists inflated here).
 */
import { deflateRawSync } from "node:zlib";

export interface ZipEntryInput {
  name: string;
  data: Uint8Array | string;
  /** stored: write the data uncompressed (method 0), as the ODF/EPUB `mimetype` entry must be */
  stored?: boolean;
  /** inflatedSize: `data` is already raw-deflated and inflates to this many bytes (CRC left 0) */
  inflatedSize?: number;
}

/** DOS_DATE_1980_01_01: the earliest valid MS-DOS date, so `zip -T` accepts the entries */
const DOS_DATE_1980_01_01 = 0x21;

export function zipOf(entries: ZipEntryInput[]): Uint8Array<ArrayBuffer> {
  const parts: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const raw = Buffer.from(typeof entry.data === "string" ? new TextEncoder().encode(entry.data) : entry.data);
    const predeflated = entry.inflatedSize !== undefined;
    const packed = predeflated || entry.stored ? raw : deflateRawSync(raw, { level: 9 });
    const method = entry.stored && !predeflated ? 0 : 8;
    const size = predeflated ? entry.inflatedSize! : raw.length;
    const crc = predeflated ? 0 : Bun.hash.crc32(raw);
    const name = Buffer.from(entry.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(DOS_DATE_1980_01_01, 12);
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(size >>> 0, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(method, 10);
    central.writeUInt16LE(DOS_DATE_1980_01_01, 14);
    central.writeUInt32LE(crc >>> 0, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(size >>> 0, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    parts.push(local, name, packed);
    centrals.push(central, name);
    offset += 30 + name.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...parts, directory, end]));
}
