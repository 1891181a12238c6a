/**
 * looksEncrypted tells a password-protected office document from a corrupt one after LibreOffice
 * refused to load it. LibreOffice 7.4 in headless mode does not ask the interaction handler for a
 * password (checked on encrypted ODT and DOC: the load simply returns nothing), so the answer comes
 * from the bytes instead:
 * - ODF (ZIP): META-INF/manifest.xml declares `encryption-data`.
 * - OOXML with a password: an OLE compound file holding `EncryptionInfo` / `EncryptedPackage` streams.
 * - Word 97 (.doc): the FIB's fEncrypted flag in the `WordDocument` stream.
 * - Excel 97 (.xls): a FILEPASS record right after the BOF of the `Workbook` stream.
 * - PowerPoint 97 (.ppt): an `EncryptedSummary` stream.
 * It never throws: anything it cannot parse is "not encrypted".
 */
import { ZipArchive } from "../../ingest/zip";

const CFB_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
/** MANIFEST_BUDGET: bytes the ODF manifest may inflate to while we look for encryption */
const MANIFEST_BUDGET = 4_000_000;

export function looksEncrypted(bytes: Uint8Array): boolean {
  try {
    if (bytes[0] === 0x50 && bytes[1] === 0x4b) return odfIsEncrypted(bytes);
    if (CFB_MAGIC.every((b, i) => bytes[i] === b)) return compoundFileIsEncrypted(new CompoundFile(bytes));
  } catch {
    return false;
  }
  return false;
}

function odfIsEncrypted(bytes: Uint8Array): boolean {
  const zip = new ZipArchive(bytes, MANIFEST_BUDGET, "encryption check");
  return zip.text("META-INF/manifest.xml")?.includes("encryption-data") ?? false;
}

function compoundFileIsEncrypted(cfb: CompoundFile): boolean {
  if (cfb.has("EncryptionInfo") || cfb.has("EncryptedPackage") || cfb.has("EncryptedSummary")) return true;
  const word = cfb.read("WordDocument");
  // FIB: wIdent 0xA5EC, then flags at offset 10 whose bit 8 is fEncrypted
  if (word && word.length > 12 && word[0] === 0xec && word[1] === 0xa5) return (word[11]! & 0x01) === 0x01;
  const book = cfb.read("Workbook") ?? cfb.read("Book");
  if (book) return workbookHasFilePass(book);
  return false;
}

/** workbookHasFilePass walks the BIFF records of the first substream up to its EOF */
function workbookHasFilePass(book: Uint8Array): boolean {
  const view = new DataView(book.buffer, book.byteOffset, book.byteLength);
  for (let at = 0; at + 4 <= book.length; ) {
    const type = view.getUint16(at, true);
    if (type === 0x002f) return true; // FILEPASS
    if (type === 0x000a) return false; // EOF of the globals substream
    at += 4 + view.getUint16(at + 2, true);
  }
  return false;
}

const END_OF_CHAIN = 0xfffffffe;
/** MAX_CHAIN: sectors followed in one chain, so a looping FAT cannot hang the check */
const MAX_CHAIN = 1_000_000;

/** CompoundFile is the minimal OLE2 reader the check needs: the directory and whole streams. */
class CompoundFile {
  private readonly view: DataView;
  private readonly sectorSize: number;
  private readonly fat: number[] = [];
  private readonly streams = new Map<string, { start: number; size: number }>();
  private readonly miniFat: number[];
  private readonly miniStream: Uint8Array;

  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.sectorSize = 1 << this.view.getUint16(0x1e, true);
    const fatSectors = this.view.getUint32(0x2c, true);
    for (let i = 0; i < Math.min(fatSectors, 109); i++) {
      const sector = this.view.getUint32(0x4c + i * 4, true);
      const at = this.offset(sector);
      for (let j = 0; j < this.sectorSize / 4 && at + j * 4 + 4 <= bytes.length; j++) this.fat.push(this.view.getUint32(at + j * 4, true));
    }
    const directory = this.chain(this.view.getUint32(0x30, true), Number.MAX_SAFE_INTEGER);
    let root = { start: END_OF_CHAIN, size: 0 };
    for (let at = 0; at + 128 <= directory.length; at += 128) {
      const entry = new DataView(directory.buffer, directory.byteOffset + at, 128);
      const nameLength = entry.getUint16(64, true);
      const type = entry.getUint8(66);
      if (nameLength < 2 || nameLength > 64) continue;
      const name = new TextDecoder("utf-16le").decode(directory.subarray(at, at + nameLength - 2));
      const stream = { start: entry.getUint32(116, true), size: entry.getUint32(120, true) };
      if (type === 5) root = stream;
      else if (type === 2) this.streams.set(name, stream);
    }
    this.miniFat = [];
    const miniFatBytes = this.chain(this.view.getUint32(0x3c, true), Number.MAX_SAFE_INTEGER);
    for (let j = 0; j + 4 <= miniFatBytes.length; j += 4) this.miniFat.push(new DataView(miniFatBytes.buffer, miniFatBytes.byteOffset + j, 4).getUint32(0, true));
    this.miniStream = this.chain(root.start, root.size);
  }

  has(name: string): boolean {
    return this.streams.has(name);
  }

  read(name: string): Uint8Array | undefined {
    const stream = this.streams.get(name);
    if (!stream) return undefined;
    if (stream.size >= 4096) return this.chain(stream.start, stream.size);
    const parts: Uint8Array[] = [];
    let length = 0;
    for (let sector = stream.start, n = 0; sector < END_OF_CHAIN && length < stream.size && n < MAX_CHAIN; sector = this.miniFat[sector] ?? END_OF_CHAIN, n++) {
      parts.push(this.miniStream.subarray(sector * 64, sector * 64 + 64));
      length += 64;
    }
    return concat(parts).subarray(0, stream.size);
  }

  private offset(sector: number): number {
    return (sector + 1) * this.sectorSize;
  }

  /** chain reads the sectors of one FAT chain, up to `size` bytes */
  private chain(start: number, size: number): Uint8Array {
    const parts: Uint8Array[] = [];
    let length = 0;
    const limit = Math.min(size, this.bytes.length); // a looping FAT cannot make it grow past the file
    for (let sector = start, n = 0; sector < END_OF_CHAIN && length < limit && n < MAX_CHAIN; sector = this.fat[sector] ?? END_OF_CHAIN, n++) {
      const at = this.offset(sector);
      if (at >= this.bytes.length) break;
      parts.push(this.bytes.subarray(at, at + this.sectorSize));
      length += this.sectorSize;
    }
    const all = concat(parts);
    return size < all.length ? all.subarray(0, size) : all;
  }
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
