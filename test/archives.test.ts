/**
 * Archives through the real server: tar, tar.gz/tgz, gz, bz2, xz and 7z give a heading per member
 * like ZIP (a single compressed document gives that document), under the same bomb limits: the
 * decompressed bytes are counted while decompressing (413 document_too_large) and the member count
 * is limited. Fixtures are made here: tar by a tiny writer, gzip by Bun, bzip2, xz and 7z by the
 * Debian programs.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { api, form, startServer, tempDir, type TestServer, withServer } from "./helpers/server";
import { runProcess } from "../src/tools/process";

let server: TestServer;
let key: string;
const work = tempDir("docintel-archives-");

withServer({ args: ["--max-decompressed-mb", "5"] }, (served) => ({ server, key } = served));

const convert = (bytes: Uint8Array, name: string) => api(server, key, "POST", "/api/v1/markdown/convert", form({ file: new File([bytes as Uint8Array<ArrayBuffer>], name) }));

/** tar writes a ustar archive of regular files. */
function tar(files: Array<[name: string, content: string | Uint8Array]>): Uint8Array<ArrayBuffer> {
  const blocks: Uint8Array[] = [];
  for (const [name, content] of files) {
    const data = typeof content === "string" ? new TextEncoder().encode(content) : content;
    const header = new Uint8Array(512);
    const put = (text: string, at: number) => header.set(new TextEncoder().encode(text), at);
    put(name, 0);
    put("0000644\0", 100);
    put("0000000\0", 108);
    put("0000000\0", 116);
    put(data.length.toString(8).padStart(11, "0") + "\0", 124);
    put("00000000000\0", 136);
    put("0", 156);
    put("ustar\0", 257);
    put("00", 263);
    put("        ", 148);
    const sum = header.reduce((n, b) => n + b, 0);
    put(sum.toString(8).padStart(6, "0") + "\0 ", 148);
    blocks.push(header, data, new Uint8Array((512 - (data.length % 512)) % 512));
  }
  blocks.push(new Uint8Array(1024));
  return new Uint8Array(Buffer.concat(blocks));
}

/** compress runs `program` (bzip2, xz) over the bytes. */
async function compress(program: string, bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array((await runProcess(program, ["-c"], { stdin: bytes, timeoutMs: 60_000, what: `${program} fixture` })).stdout);
}

/** sevenZip packs files into a .7z with 7zz and returns its bytes. */
async function sevenZip(name: string, files: Array<[string, string | Uint8Array<ArrayBuffer>]>): Promise<Uint8Array> {
  const dir = join(work, name.replace(/\W/g, "_"));
  mkdirSync(dir, { recursive: true });
  for (const [file, content] of files) writeFileSync(join(dir, file), content);
  const out = join(work, name);
  await runProcess("7zz", ["a", "-bd", "-y", out, ...files.map(([file]) => join(dir, file))], { timeoutMs: 60_000, what: "7z fixture", sandbox: { dirs: [work] } });
  return new Uint8Array(readFileSync(out));
}

const MEMBERS: Array<[string, string]> = [
  ["notes.md", "# Harbour notes\n\nThe cranes return in spring.\n"],
  ["sales.csv", "Region,Units\nNorth,120\nSouth,80\n"],
];

/** expectMembers: one heading per member, each member's content under it. */
function expectMembers(markdown: string, prefix = "") {
  expect(markdown).toContain(`## ${prefix}notes.md`);
  expect(markdown).toContain(`## ${prefix}sales.csv`);
  expect(markdown).toContain("The cranes return in spring.");
  expect(markdown).toMatch(/\|\s*North\s*\|\s*120\s*\|/);
}

describe("archives like ZIP: a heading per member", () => {
  test("tar", async () => {
    const { status, body } = await convert(tar(MEMBERS), "bundle.tar");
    expect(status).toBe(200);
    expect(body.extraction_method).toBe("archive");
    expectMembers(body.markdown);
  });

  test("tar.gz and tgz (GNU tar's own output, with a directory)", async () => {
    const dir = join(work, "src");
    mkdirSync(join(dir, "docs"), { recursive: true });
    for (const [name, content] of MEMBERS) writeFileSync(join(dir, "docs", name), content);
    const archive = join(work, "bundle.tar.gz");
    await runProcess("tar", ["czf", archive, "-C", dir, "docs"], { timeoutMs: 30_000, what: "tar fixture", sandbox: { dirs: [work] } });
    const bytes = new Uint8Array(readFileSync(archive));
    for (const name of ["bundle.tar.gz", "bundle.tgz"]) {
      const { status, body } = await convert(bytes, name);
      expect(status).toBe(200);
      expectMembers(body.markdown, "docs/");
    }
  });

  test("tar.bz2 and tar.xz", async () => {
    for (const [program, name] of [["bzip2", "bundle.tar.bz2"], ["xz", "bundle.tar.xz"]] as const) {
      const { status, body } = await convert(await compress(program, tar(MEMBERS)), name);
      expect(status).toBe(200);
      expectMembers(body.markdown);
    }
  });

  test("7z", async () => {
    const { status, body } = await convert(await sevenZip("bundle.7z", MEMBERS), "bundle.7z");
    expect(status).toBe(200);
    expectMembers(body.markdown);
  });

  test("a single document compressed with gzip, bzip2 or xz converts as that document", async () => {
    const csv = new TextEncoder().encode(MEMBERS[1]![1]);
    for (const [bytes, name] of [[Bun.gzipSync(csv), "sales.csv.gz"], [await compress("bzip2", csv), "sales.csv.bz2"], [await compress("xz", csv), "sales.csv.xz"]] as const) {
      const { status, body } = await convert(bytes, name);
      expect(status).toBe(200);
      expect(body.markdown).toMatch(/\|\s*North\s*\|\s*120\s*\|/);
    }
  });

  test("an archive inside a tar is named in a warning, not opened", async () => {
    const { status, body } = await convert(tar([...MEMBERS, ["inner.tar.gz", Bun.gzipSync(tar(MEMBERS))]]), "nested.tar");
    expect(status).toBe(200);
    expect(body.warnings.join(" ")).toContain("inner.tar.gz: archives inside archives are not opened");
  });
});

describe("the same bomb limits as ZIP", () => {
  const zeros = new Uint8Array(new ArrayBuffer(6 * 1024 * 1024)); // over the server's 5 MB decompressed limit

  test("gzip: 413 document_too_large while inflating", async () => {
    const { status, body } = await convert(Bun.gzipSync(zeros), "bomb.txt.gz");
    expect(status).toBe(413);
    expect(body.error).toBe("document_too_large");
  });

  test("bzip2 and xz: 413 while the program streams", async () => {
    for (const [program, name] of [["bzip2", "bomb.txt.bz2"], ["xz", "bomb.txt.xz"]] as const) {
      const { status, body } = await convert(await compress(program, zeros), name);
      expect(status).toBe(413);
      expect(body.detail).toContain("decompressed content");
    }
  });

  test("7z: 413 while the member is extracted", async () => {
    const { status, body } = await convert(await sevenZip("bomb.7z", [["zeros.txt", zeros]]), "bomb.7z");
    expect(status).toBe(413);
    expect(body.error).toBe("document_too_large");
  });

  test("a tar.gz over the member-count limit is 413, within the size limit", async () => {
    // 50,001 empty members are 25 MB of headers: this server allows 50 MB decompressed
    const roomy = await startServer({ args: ["--max-decompressed-mb", "50"] });
    try {
      const { key: roomyKey } = await roomy.key("pro");
      const many = tar(Array.from({ length: 50_001 }, (_, i) => [`f${i}.txt`, ""] as [string, string]));
      const { status, body } = await api(roomy, roomyKey, "POST", "/api/v1/markdown/convert", form({ file: new File([Bun.gzipSync(many)], "many.tar.gz") }));
      expect(status).toBe(413);
      expect(body.detail).toContain("more than 50000 archive members");
    } finally {
      await roomy.stop();
    }
  });

  test("a corrupt 7z is 400 unreadable_document, not a 5xx", async () => {
    const bytes = await sevenZip("cut.7z", MEMBERS);
    const { status, body } = await convert(bytes.subarray(0, bytes.length - 40), "cut.7z");
    expect(status).toBe(400);
    expect(body.error).toBe("unreadable_document");
  });
});

describe("GET /api/v1/markdown/supported", () => {
  test("lists the archive formats", async () => {
    const { body } = await api(server, key, "GET", "/api/v1/markdown/supported");
    const archives = body.families.find((f: any) => f.family === "archives");
    for (const ext of ["zip", "tar", "tar.gz", "tgz", "gz", "bz2", "xz", "7z"]) expect(archives.extensions).toContain(ext);
  });
});
