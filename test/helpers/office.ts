/**
 * Helpers of the native Office converter tests (convert-docx.test.ts, office-native.test.ts): fixtures,
 * a conversion context with real tesseract, a LibreOffice work dir, and built containers.
 */
import { afterAll } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ConvertContext, Converter } from "../../src/convert/types";
import { Tesseract } from "../../src/tools/tesseract";
import { convertContext } from "./convert";
import { failureOf } from "./loopback";
import { zipOf } from "./zip";

export const zipTuples = (entries: Array<[string, string | Uint8Array]>) => zipOf(entries.map(([name, data]) => ({ name, data })));

/** PRESENTATION_NS: the namespaces of a slide's and a presentation's root element (PresentationML, DrawingML, relationships) */
export const PRESENTATION_NS = `xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`;

/** deckOf: a PPTX of the given slide parts (`<p:sld ...>` XML), in order: the package, the presentation and its relationships */
export function deckOf(slides: string[]): Uint8Array {
  return zipTuples([
    ["_rels/.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="ppt/presentation.xml"/></Relationships>`],
    ["ppt/presentation.xml", `<p:presentation ${PRESENTATION_NS}><p:sldIdLst>${slides.map((_, i) => `<p:sldId id="${256 + i}" r:id="rId${i + 2}"/>`).join("")}</p:sldIdLst></p:presentation>`],
    ["ppt/_rels/presentation.xml.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${slides.map((_, i) => `<Relationship Id="rId${i + 2}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slide" Target="slides/slide${i + 1}.xml"/>`).join("")}</Relationships>`],
    ...slides.map((xml, i): [string, string] => [`ppt/slides/slide${i + 1}.xml`, xml]),
  ]);
}

/** errorCode is the AppError code the conversion fails with. */
export const errorCode = async (promise: Promise<unknown>) => (await failureOf(promise)).code;

export const fixture = (name: string) => new Uint8Array(readFileSync(join(import.meta.dir, "..", "fixtures", name)));
export const ocr = new Tesseract({ concurrency: 2, timeoutMs: 60_000 });

export const context = (limits: Partial<ConvertContext["limits"]> = {}, withOcr = true) => convertContext({ limits, tools: withOcr ? { ocr } : {} });

export function convert(converter: Converter, name: string, bytes: Uint8Array = fixture(name), ctx: ConvertContext = context()) {
  const ext = name.slice(name.lastIndexOf(".") + 1).toLowerCase();
  return converter({ bytes, filename: name, contentType: "application/octet-stream", ext }, ctx);
}

/**
 * officeWorkDir makes a temp dir for the calling test file (removed after its tests) and `soffice`,
 * which converts a file (or several in one run) with real LibreOffice into `toFilter` there,
 * returning the bytes of `outName`; the other outputs are in `work`.
 */
export function officeWorkDir(prefix: string) {
  const work = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  const soffice = (path: string | string[], toFilter: string, outName: string): Uint8Array => {
    const result = Bun.spawnSync(
      ["soffice", "--headless", "--norestore", `-env:UserInstallation=file://${work}/profile`, "--convert-to", toFilter, "--outdir", work, ...[path].flat()],
      { stdout: "ignore", stderr: "pipe", timeout: 90_000 },
    );
    if (result.exitCode !== 0) throw new Error(`soffice failed: ${result.stderr.toString()}`);
    return new Uint8Array(readFileSync(join(work, outName)));
  };
  return { work, soffice };
}

/**
 * encryptedOfficeContainer builds an OLE compound file laid out like a password-protected OOXML
 * document: a FAT sector, a directory with Root Entry, EncryptionInfo and EncryptedPackage, and
 * 4 KiB of (opaque) data in each stream.
 */
export function encryptedOfficeContainer(): Uint8Array {
  const sector = 512;
  const streamSectors = 8;
  const file = Buffer.alloc(sector * (1 + 2 + streamSectors * 2));
  const header = file.subarray(0, sector);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(header, 0);
  header.writeUInt16LE(0x3e, 24);
  header.writeUInt16LE(3, 26);
  header.writeUInt16LE(0xfffe, 28);
  header.writeUInt16LE(9, 30);
  header.writeUInt16LE(6, 32);
  header.writeUInt32LE(1, 44); // FAT sectors
  header.writeUInt32LE(1, 48); // first directory sector
  header.writeUInt32LE(4096, 56); // mini stream cutoff
  header.writeUInt32LE(0xfffffffe, 60);
  header.writeUInt32LE(0xfffffffe, 68);
  header.writeUInt32LE(0, 76); // DIFAT[0]: FAT in sector 0
  for (let i = 1; i < 109; i++) header.writeUInt32LE(0xffffffff, 76 + i * 4);
  const fat = file.subarray(sector, sector * 2);
  fat.fill(0xff);
  fat.writeUInt32LE(0xfffffffd, 0); // sector 0: FAT
  fat.writeUInt32LE(0xfffffffe, 4); // sector 1: directory
  for (let s = 0; s < streamSectors * 2; s++) {
    const id = 2 + s;
    const last = s === streamSectors - 1 || s === streamSectors * 2 - 1;
    fat.writeUInt32LE(last ? 0xfffffffe : id + 1, id * 4);
  }
  const dir = file.subarray(sector * 2, sector * 3);
  const entry = (index: number, name: string, type: number, start: number, size: number, left: number, right: number, childId: number) => {
    const e = dir.subarray(index * 128, index * 128 + 128);
    const encoded = Buffer.from(`${name}\0`, "utf16le");
    encoded.copy(e, 0);
    e.writeUInt16LE(encoded.length, 64);
    e[66] = type;
    e[67] = 1;
    e.writeUInt32LE(left, 68);
    e.writeUInt32LE(right, 72);
    e.writeUInt32LE(childId, 76);
    e.writeUInt32LE(start, 116);
    e.writeUInt32LE(size, 120);
  };
  entry(0, "Root Entry", 5, 0xfffffffe, 0, 0xffffffff, 0xffffffff, 1);
  entry(1, "EncryptionInfo", 2, 2, 4096, 0xffffffff, 2, 0xffffffff);
  entry(2, "EncryptedPackage", 2, 2 + streamSectors, 4096, 0xffffffff, 0xffffffff, 0xffffffff);
  return new Uint8Array(file);
}
