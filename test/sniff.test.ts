import { describe, expect, test } from "bun:test";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { failureOf, loopbackServers } from "./helpers/loopback";
import { ingestOne, ingestUpload, ingestUrl, type IngestLimits } from "../src/ingest";
import { EXTENSION_MIME, sniffType, zipEntries } from "../src/ingest/sniff";

const fixture = (name: string) => new Uint8Array(readFileSync(join(import.meta.dir, "fixtures", name)));
const text = (s: string) => new TextEncoder().encode(s);
const bytesOf = (...parts: (ArrayLike<number> | string)[]) => {
  const chunks = parts.map((p) => (typeof p === "string" ? new Uint8Array([...p].map((c) => c.charCodeAt(0))) : new Uint8Array(p)));
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
};

/** makeZip builds a valid stored (uncompressed) zip: local headers, data, central directory, end record. */
function makeZip(entries: [name: string, content: string | Uint8Array][]): Uint8Array {
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const [name, content] of entries) {
    const data = typeof content === "string" ? text(content) : content;
    const nameBytes = text(name);
    const crc = Bun.hash.crc32(data);
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true);
    local.setUint16(4, 10, true);
    local.setUint32(14, crc, true);
    local.setUint32(18, data.length, true);
    local.setUint32(22, data.length, true);
    local.setUint16(26, nameBytes.length, true);
    const central = new DataView(new ArrayBuffer(46));
    central.setUint32(0, 0x02014b50, true);
    central.setUint16(4, 20, true);
    central.setUint16(6, 10, true);
    central.setUint32(16, crc, true);
    central.setUint32(20, data.length, true);
    central.setUint32(24, data.length, true);
    central.setUint16(28, nameBytes.length, true);
    central.setUint32(42, offset, true);
    locals.push(new Uint8Array(local.buffer), nameBytes, data);
    centrals.push(new Uint8Array(central.buffer), nameBytes);
    offset += 30 + nameBytes.length + data.length;
  }
  const centralSize = centrals.reduce((n, c) => n + c.length, 0);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, entries.length, true);
  end.setUint16(10, entries.length, true);
  end.setUint32(12, centralSize, true);
  end.setUint32(16, offset, true);
  const parts = [...locals, ...centrals, new Uint8Array(end.buffer)];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** ftyp builds the start of an ISO media file with a major brand and compatible brands. */
function ftyp(major: string, ...compatible: string[]): Uint8Array {
  const size = 16 + 4 * compatible.length;
  return bytesOf([0, 0, 0, size], "ftyp", major, [0, 0, 0, 0], compatible.join(""), [0, 0, 0, 8], "free");
}

describe("sniffType: magic bytes", () => {
  const cases: [string, Uint8Array, string, string][] = [
    ["PDF", text("%PDF-1.7\n1 0 obj\n%%EOF\n"), "application/pdf", "pdf"],
    ["PNG", bytesOf([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13], "IHDR", [0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]), "image/png", "png"],
    ["JPEG", bytesOf([0xff, 0xd8, 0xff, 0xe0, 0, 16], "JFIF", [0]), "image/jpeg", "jpg"],
    ["GIF", bytesOf("GIF89a", [1, 0, 1, 0, 0, 0, 0]), "image/gif", "gif"],
    ["WebP", bytesOf("RIFF", [26, 0, 0, 0], "WEBPVP8 "), "image/webp", "webp"],
    ["TIFF little-endian", bytesOf("II*", [0, 8, 0, 0, 0]), "image/tiff", "tif"],
    ["TIFF big-endian", bytesOf("MM", [0, 42, 0, 0, 0, 8]), "image/tiff", "tif"],
    ["BMP", bytesOf("BM", [0x46, 0, 0, 0, 0, 0, 0, 0, 0x36, 0, 0, 0, 40, 0, 0, 0]), "image/bmp", "bmp"],
    ["HEIC", ftyp("heic", "mif1", "heic"), "image/heic", "heic"],
    ["HEIF", ftyp("mif1", "mif1"), "image/heif", "heif"],
    ["AVIF", ftyp("avif", "mif1", "miaf"), "image/avif", "avif"],
    ["MP4 with a video track", bytesOf(ftyp("isom", "isom", "mp41"), [0, 0, 0, 33], "hdlr", [0, 0, 0, 0, 0, 0, 0, 0], "vide"), "video/mp4", "mp4"],
    ["MP4 with only sound", bytesOf(ftyp("mp42", "isom"), [0, 0, 0, 33], "hdlr", [0, 0, 0, 0, 0, 0, 0, 0], "soun"), "audio/mp4", "m4a"],
    ["MOV", ftyp("qt  ", "qt  "), "video/quicktime", "mov"],
    ["M4A brand", ftyp("M4A ", "M4A ", "mp42"), "audio/mp4", "m4a"],
    ["WebM", bytesOf([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x84], "webm"), "video/webm", "webm"],
    ["Matroska", bytesOf([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x82, 0x88], "matroska"), "video/x-matroska", "mkv"],
    ["AVI", bytesOf("RIFF", [0, 0, 0, 0], "AVI LIST"), "video/x-msvideo", "avi"],
    ["WAV", bytesOf("RIFF", [0, 0, 0, 0], "WAVEfmt "), "audio/wav", "wav"],
    ["MP3 with ID3", bytesOf("ID3", [4, 0, 0, 0, 0, 0, 0]), "audio/mpeg", "mp3"],
    ["MP3 frame sync", bytesOf([0xff, 0xfb, 0x90, 0x64, 0, 0, 0, 0]), "audio/mpeg", "mp3"],
    ["OGG", bytesOf("OggS", [0, 2], "OpusHead"), "audio/ogg", "ogg"],
    ["FLAC", bytesOf("fLaC", [0, 0, 0, 34]), "audio/flac", "flac"],
    ["gzip", bytesOf([0x1f, 0x8b, 8, 0, 0, 0, 0, 0]), "application/gzip", "gz"],
    ["RTF", text("{\\rtf1\\ansi Hello}"), "application/rtf", "rtf"],
    ["SVG with XML declaration", text('<?xml version="1.0"?>\n<!-- drawn -->\n<svg xmlns="http://www.w3.org/2000/svg"/>'), "image/svg+xml", "svg"],
    ["SVG bare", text('<svg xmlns="http://www.w3.org/2000/svg" width="1"/>'), "image/svg+xml", "svg"],
    ["HTML doctype", text("\uFEFF  <!DOCTYPE html><html><body>hi</body></html>"), "text/html", "html"],
    ["HTML without doctype", text("<html lang=en><p>hi"), "text/html", "html"],
    ["XML", text('<?xml version="1.0"?><invoice><total>3</total></invoice>'), "application/xml", "xml"],
    ["JSON object", text('  {"a": [1, 2, {"b": null}]}'), "application/json", "json"],
    ["JSON array", text("[1, 2, 3]"), "application/json", "json"],
  ];
  for (const [label, bytes, mime, ext] of cases) {
    test(`${label} -> ${mime}`, () => {
      expect(sniffType(bytes)).toEqual({ mime, ext });
    });
  }

  test("AAC ADTS frames are not mistaken for MP3", () => {
    expect(sniffType(bytesOf([0xff, 0xf1, 0x50, 0x80, 0, 0x1f, 0xfc])).mime).not.toBe("audio/mpeg");
  });

  test("text that starts like JSON but does not parse is plain text", () => {
    expect(sniffType(text("[1] Introduction\nThis report...")).mime).toBe("text/plain");
  });

  test("text in a legacy code page (a bank export in CP852: 'Csoportos átutalás') is plain text; binary with control bytes is not", () => {
    const cp852 = new Uint8Array([...new TextEncoder().encode(":20:STARTUMS\n:86:Csoportos "), 0xa0, ...new TextEncoder().encode("tutal"), 0xa0, ...new TextEncoder().encode("s\n:62F:C180417HUF25281687,60\n")]);
    expect(sniffType(cp852, "statement.sta").mime).toBe("text/plain");
    expect(sniffType(bytesOf([0x41, 0x42, 0x01, 0x02, 0xa0, 0x43]), "blob.sta").mime).toBe("application/octet-stream");
  });

  test("a text file that mentions %PDF- is not a PDF", () => {
    expect(sniffType(text("Notes: a PDF starts with %PDF-1.7 and ends with a trailer.")).mime).toBe("text/plain");
  });

  test("bytes win over the filename: a PNG named report.pdf is a PNG", () => {
    const png = bytesOf([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(sniffType(png, "report.pdf", "application/pdf")).toEqual({ mime: "image/png", ext: "png" });
  });
});

describe("sniffType: zip containers built by hand", () => {
  const contentTypes = ["[Content_Types].xml", "<Types/>"] as [string, string];
  test("DOCX, XLSX and PPTX are told apart by their part folders", () => {
    expect(sniffType(makeZip([contentTypes, ["word/document.xml", "<w/>"]])).ext).toBe("docx");
    expect(sniffType(makeZip([contentTypes, ["xl/workbook.xml", "<x/>"]])).ext).toBe("xlsx");
    expect(sniffType(makeZip([contentTypes, ["ppt/presentation.xml", "<p/>"]])).ext).toBe("pptx");
  });

  test("an OOXML part listed only in the central directory (past the first 64 KB) is found", () => {
    const zip = makeZip([["media/big.bin", new Uint8Array(100_000)], ["word/document.xml", "<w/>"]]);
    expect(zipEntries(zip).names.has("word/document.xml")).toBe(true);
    expect(sniffType(zip).mime).toBe(EXTENSION_MIME.docx);
  });

  test("ODF types come from the stored mimetype entry", () => {
    const odt = makeZip([["mimetype", "application/vnd.oasis.opendocument.text"], ["content.xml", "<office/>"]]);
    const ods = makeZip([["mimetype", "application/vnd.oasis.opendocument.spreadsheet"], ["content.xml", "<office/>"]]);
    const odp = makeZip([["mimetype", "application/vnd.oasis.opendocument.presentation"], ["content.xml", "<office/>"]]);
    expect(sniffType(odt)).toEqual({ mime: "application/vnd.oasis.opendocument.text", ext: "odt" });
    expect(sniffType(ods)).toEqual({ mime: "application/vnd.oasis.opendocument.spreadsheet", ext: "ods" });
    expect(sniffType(odp)).toEqual({ mime: "application/vnd.oasis.opendocument.presentation", ext: "odp" });
  });

  test("EPUB comes from its mimetype entry", () => {
    expect(sniffType(makeZip([["mimetype", "application/epub+zip"], ["META-INF/container.xml", "<c/>"]]))).toEqual({ mime: "application/epub+zip", ext: "epub" });
  });

  test("Apple iWork files: by extension, else by their index entries", () => {
    const iwork = makeZip([["Index/Document.iwa", "x"], ["Metadata/Properties.plist", "x"]]);
    expect(sniffType(iwork, "plan.numbers").mime).toBe("application/vnd.apple.numbers");
    expect(sniffType(iwork, "deck.key").mime).toBe("application/vnd.apple.keynote");
    expect(sniffType(iwork).mime).toBe("application/vnd.apple.pages");
    expect(sniffType(makeZip([["Index/Document.iwa", "x"], ["Index/CalculationEngine.iwa", "x"]])).mime).toBe("application/vnd.apple.numbers");
    expect(sniffType(makeZip([["Index/Document.iwa", "x"], ["Index/Slide-1.iwa", "x"]])).mime).toBe("application/vnd.apple.keynote");
  });

  test("a plain zip stays a zip, even when named .docx", () => {
    const zip = makeZip([["notes.txt", "hello"]]);
    expect(sniffType(zip)).toEqual({ mime: "application/zip", ext: "zip" });
    expect(sniffType(zip, "fake.docx").mime).toBe("application/zip");
  });

  test("the hand-built zip is valid for the system unzip when it is installed", () => {
    const unzip = Bun.which("unzip");
    if (!unzip) return expect(unzip).toBeNull();
    const path = join(process.env.TMPDIR ?? "/tmp", `sniff-${process.pid}.zip`);
    writeFileSync(path, makeZip([["word/document.xml", "<w/>"]]));
    const run = Bun.spawnSync([unzip, "-tq", path]);
    rmSync(path);
    expect(run.exitCode).toBe(0);
  });
});

describe("sniffType: OLE2 compound files", () => {
  const oleHeaderOnly = bytesOf([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], new Array(504).fill(0));
  test("the extension decides the Office format", () => {
    expect(sniffType(oleHeaderOnly, "letter.doc").mime).toBe("application/msword");
    expect(sniffType(oleHeaderOnly, "budget.xls").mime).toBe("application/vnd.ms-excel");
    expect(sniffType(oleHeaderOnly, "slides.ppt").mime).toBe("application/vnd.ms-powerpoint");
    expect(sniffType(oleHeaderOnly, "mail.msg").mime).toBe("application/vnd.ms-outlook");
  });

  test("without a telling name, stream names decide, else a generic OLE storage", () => {
    expect(sniffType(fixture("test.xls"), "download").mime).toBe("application/vnd.ms-excel");
    expect(sniffType(fixture("test_outlook_msg.msg")).mime).toBe("application/vnd.ms-outlook");
    expect(sniffType(oleHeaderOnly)).toEqual({ mime: "application/x-ole-storage", ext: "" });
  });
});

describe("sniffType: real files from the markitdown corpus", () => {
  const cases: [string, string][] = [
    ["test.docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"],
    ["test.xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"],
    ["test.pptx", "application/vnd.openxmlformats-officedocument.presentationml.presentation"],
    ["test.pdf", "application/pdf"],
    ["test.epub", "application/epub+zip"],
    ["test.jpg", "image/jpeg"],
    ["test.xls", "application/vnd.ms-excel"],
    ["test.rtf", "application/rtf"],
    ["test.json", "application/json"],
    ["test_outlook_msg.msg", "application/vnd.ms-outlook"],
    ["test.mp3", "audio/mpeg"],
    ["test.wav", "audio/wav"],
    ["test.m4a", "audio/mp4"],
  ];
  for (const [name, mime] of cases) {
    test(`${name} -> ${mime}, with its name and without`, () => {
      const bytes = fixture(name);
      expect(sniffType(bytes, name).mime).toBe(mime);
      expect(sniffType(bytes).mime).toBe(mime);
    });
  }

  test("a DOCX renamed to .pdf is still a DOCX", () => {
    expect(sniffType(fixture("test.docx"), "invoice.pdf")).toEqual({ mime: EXTENSION_MIME.docx, ext: "docx" });
  });
});

describe("sniffType: extension, declared type and text fallbacks", () => {
  test("the extension table covers at least 110 common types", () => {
    expect(Object.keys(EXTENSION_MIME).length).toBeGreaterThanOrEqual(110);
    for (const ext of ["py", "ts", "js", "go", "rs", "java", "c", "cpp", "h", "rb", "php", "sh", "sql", "css", "scss", "kt", "swift", "md", "rst", "tex", "yaml", "yml", "toml", "ini", "csv", "tsv", "ipynb", "eml", "msg"]) {
      expect(EXTENSION_MIME[ext]).toBeString();
    }
  });

  test("source and text formats are named by their extension", () => {
    const source = text("def main():\n    print('hi')\n");
    expect(sniffType(source, "main.py")).toEqual({ mime: "text/x-python", ext: "py" });
    expect(sniffType(text("export const a = 1;\n"), "a.ts")).toEqual({ mime: "text/x-typescript", ext: "ts" });
    expect(sniffType(text("# Title\n"), "README.MD")).toEqual({ mime: "text/markdown", ext: "md" });
    expect(sniffType(text("a,b\n1,2\n"), "table.csv")).toEqual({ mime: "text/csv", ext: "csv" });
    expect(sniffType(text("key: value\n"), "config.yml")).toEqual({ mime: "application/yaml", ext: "yml" });
  });

  test("a JSON notebook keeps its specific type", () => {
    expect(sniffType(text('{"cells": [], "nbformat": 4}'), "analysis.ipynb").mime).toBe("application/x-ipynb+json");
  });

  test("the caller's spelling of an extension is kept when it means the same type", () => {
    expect(sniffType(fixture("test.jpg"), "photo.JPEG")).toEqual({ mime: "image/jpeg", ext: "jpeg" });
  });

  test("a specific declared type is used when bytes and name say nothing", () => {
    expect(sniffType(text("a;b\n1;2\n"), "export", "text/csv; charset=utf-8")).toEqual({ mime: "text/csv", ext: "csv" });
    expect(sniffType(text("a;b\n"), "export.txt", "text/csv")).toEqual({ mime: "text/csv", ext: "csv" });
    expect(sniffType(text("hello"), "export", "application/octet-stream").mime).toBe("text/plain");
  });

  test("UTF-8 text without NULs is text/plain; binary is octet-stream", () => {
    expect(sniffType(text("Grüße, 你好\n"))).toEqual({ mime: "text/plain", ext: "txt" });
    expect(sniffType(new Uint8Array([0x00, 0x01, 0x02, 0x9f, 0x00]))).toEqual({ mime: "application/octet-stream", ext: "" });
    expect(sniffType(new Uint8Array([0xc3, 0x28, 0x41]))).toEqual({ mime: "application/octet-stream", ext: "" });
    expect(sniffType(new Uint8Array(0)).mime).toBe("text/plain");
  });
});

describe("ingest", () => {
  const limits: IngestLimits = { maxBytes: 1_000, fetchTimeoutMs: 5_000, allowPrivateUrls: true };

  const serveOn = loopbackServers();
  const serve = (fetch: (req: Request) => Response) => serveOn(fetch).origin;

  test("an upload is sniffed from its bytes and keeps only the base name", async () => {
    const doc = await ingestUpload(new File([fixture("test.json")], "C:\\Users\\me\\data.json"), { ...limits, maxBytes: 10_000 });
    expect(doc).toMatchObject({ filename: "data.json", contentType: "application/json", ext: "json", source: "upload" });
    expect(doc.bytes.length).toBe(229);
  });

  test("an upload over the limit is payload_too_large naming file and limit", async () => {
    const error = await failureOf(ingestUpload(new File([new Uint8Array(2_000_000)], "scan.pdf"), { ...limits, maxBytes: 1_000_000 }));
    expect(error.code).toBe("payload_too_large");
    expect(error.detail).toBe("file: 'scan.pdf' is 2 MB, larger than the 1 MB limit; send a smaller file");
  });

  test("an empty upload is invalid_document", async () => {
    const error = await failureOf(ingestUpload(new File([], "x.pdf"), limits));
    expect(error.code).toBe("invalid_document");
    expect(error.detail).toBe("file: the uploaded file 'x.pdf' is empty");
  });

  test("ingestOne needs exactly one of file and url", async () => {
    expect((await failureOf(ingestOne({}, limits))).code).toBe("missing_input");
    expect((await failureOf(ingestOne({ url: "  " }, limits))).code).toBe("missing_input");
    const both = await failureOf(ingestOne({ file: new File(["a"], "a.txt"), url: "https://8.8.8.8/a.pdf" }, limits));
    expect(both.code).toBe("bad_request");
    const badHeaders = await failureOf(ingestOne({ url: "https://8.8.8.8/a.pdf", urlHeaders: "[]" }, limits));
    expect(badHeaders.code).toBe("bad_request");
  });

  test("a URL document takes its name from the path and its type from the bytes", async () => {
    const origin = serve(() => new Response(fixture("test.rtf").subarray(0, 500), { headers: { "content-type": "application/octet-stream" } }));
    const doc = await ingestUrl(`${origin}/files/Quarterly%20Report.rtf?sig=abc`, {}, limits);
    expect(doc).toMatchObject({ filename: "Quarterly Report.rtf", contentType: "application/rtf", ext: "rtf", source: "url" });
    expect(doc.finalUrl).toBe(`${origin}/files/Quarterly%20Report.rtf?sig=abc`);
  });

  test("Content-Disposition names the file; the response type fills in for plain text", async () => {
    const origin = serve(() =>
      new Response("a;b\n1;2\n", {
        headers: { "content-type": "text/csv; charset=utf-8", "content-disposition": "attachment; filename=\"x.bin\"; filename*=UTF-8''Ums%C3%A4tze" },
      }),
    );
    const doc = await ingestUrl(`${origin}/export.php?id=7`, {}, limits);
    expect(doc.filename).toBe("Umsätze");
    expect(doc.contentType).toBe("text/csv");
  });

  test("a dynamic page path defers to the response type, and the host names a bare URL", async () => {
    const origin = serve(() => new Response("name,total\nA,1\n", { headers: { "content-type": "text/csv" } }));
    expect((await ingestUrl(`${origin}/report.php`, {}, limits)).contentType).toBe("text/csv");
    expect((await ingestUrl(`${origin}/`, {}, limits)).filename).toBe("127.0.0.1");
  });

  test("URL limits come from IngestLimits: private addresses refused by default, bytes capped", async () => {
    const origin = serve(() => new Response(new Uint8Array(5_000)));
    expect((await failureOf(ingestUrl(`${origin}/a`, {}, { ...limits, allowPrivateUrls: false }))).code).toBe("url_refused");
    expect((await failureOf(ingestUrl(`${origin}/a`, {}, limits))).code).toBe("payload_too_large");
  });

  test("an empty URL body is invalid_document", async () => {
    const origin = serve(() => new Response(""));
    const error = await failureOf(ingestUrl(`${origin}/empty.pdf`, {}, limits));
    expect(error.code).toBe("invalid_document");
  });
});
