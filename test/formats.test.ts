/**
 * Every extension GET /api/v1/markdown/supported lists is converted here from a real file of that
 * format (generated with LibreOffice, ffmpeg, sharp and heif-enc, or written as text), through the
 * same dispatcher and tools the server uses, and the markdown must carry the file's content.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { loadConfig } from "../src/config";
import { WorkerPool } from "../src/pool";
import { closeConvertTools, convertLimitsOf, createConvertTools } from "../src/convert/tools";
import { convertDocument } from "../src/convert";
import { FORMATS } from "../src/convert/formats";
import { SOURCE_LANGUAGES } from "../src/convert/code";
import type { ConvertTools } from "../src/convert/types";
import { sniffType } from "../src/ingest/sniff";
import { runProcess } from "../src/tools/process";
import { makeOfficeFixtures } from "./helpers/officeFixtures";
import { vsdxOf, xpsOf } from "./helpers/drawings";
import { tempDir } from "./helpers/server";

const FIXTURES = join(import.meta.dir, "fixtures");
const work = tempDir("docintel-formats-");
const config = loadConfig({}, { data: work, workers: "2", "office-instances": "2" });
let pool: WorkerPool;
let tools: ConvertTools;
const files: Record<string, string> = {};

/** EXPECT says what the markdown of each family's sample must contain. */
const OFFICE_TEXT = /Quarterly Report[\s\S]*Widgets/;
const OFFICE_SHEET = /North[\s\S]*120/;
const OFFICE_SLIDES = /Roadmap[\s\S]*Budget/;
const IMAGE_TEXT = /INVOICE\s+4711/i;

function write(name: string, content: string | Uint8Array): string {
  const path = join(work, "in", name);
  writeFileSync(path, content);
  return path;
}

async function run(cmd: string, args: string[]) {
  await runProcess(cmd, args, { timeoutMs: 60_000, what: `${cmd} fixture`, sandbox: { dirs: [work] } });
}

/** makeImages renders "INVOICE 4711" as every image format; BMP is written by hand. */
async function makeImages() {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="240"><rect width="100%" height="100%" fill="white"/><text x="40" y="150" font-family="DejaVu Sans" font-size="96" fill="black">INVOICE 4711</text></svg>`;
  files.svg = write("sample.svg", svg);
  const png = await sharp(Buffer.from(svg)).png().toBuffer();
  files.png = write("sample.png", png);
  for (const ext of ["jpg", "jpeg", "jpe"]) files[ext] = write(`sample.${ext}`, await sharp(png).jpeg({ quality: 90 }).toBuffer());
  files.gif = write("sample.gif", await sharp(png).gif().toBuffer());
  files.webp = write("sample.webp", await sharp(png).webp({ quality: 90 }).toBuffer());
  for (const ext of ["tif", "tiff"]) files[ext] = write(`sample.${ext}`, await sharp(png).tiff().toBuffer());
  files.avif = write("sample.avif", await sharp(png).avif({ quality: 80 }).toBuffer());
  for (const ext of ["heic", "heif"]) {
    files[ext] = join(work, "in", `sample.${ext}`);
    await run("heif-enc", ["-q", "90", "-o", files[ext]!, files.png!]);
  }
  const { data, info } = await sharp(png).flatten({ background: "#ffffff" }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  files.bmp = write("sample.bmp", bmp24(data, info.width, info.height));
}

/** bmp24 writes an uncompressed 24-bit BMP (bottom-up rows, BGR, rows padded to 4 bytes). */
function bmp24(rgb: Uint8Array, width: number, height: number): Uint8Array {
  const rowSize = Math.ceil((width * 3) / 4) * 4;
  const out = Buffer.alloc(54 + rowSize * height);
  out.write("BM", 0, "latin1");
  out.writeUInt32LE(out.length, 2);
  out.writeUInt32LE(54, 10);
  out.writeUInt32LE(40, 14);
  out.writeInt32LE(width, 18);
  out.writeInt32LE(height, 22);
  out.writeUInt16LE(1, 26);
  out.writeUInt16LE(24, 28);
  out.writeUInt32LE(rowSize * height, 34);
  for (let y = 0; y < height; y++) {
    const row = 54 + (height - 1 - y) * rowSize;
    for (let x = 0; x < width; x++) {
      const s = (y * width + x) * 3;
      out[row + x * 3] = rgb[s + 2]!;
      out[row + x * 3 + 1] = rgb[s + 1]!;
      out[row + x * 3 + 2] = rgb[s]!;
    }
  }
  return out;
}

/** makeMedia encodes two seconds of a test pattern and a tone into every audio and video format. */
async function makeMedia() {
  const video = ["-f", "lavfi", "-i", "testsrc=size=160x120:rate=10:duration=2", "-f", "lavfi", "-i", "sine=frequency=440:duration=2"];
  const audio = ["-f", "lavfi", "-i", "sine=frequency=440:duration=2"];
  const targets: Array<[string, string[], string[]]> = [
    ["mp4", video, ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac"]],
    ["m4v", video, ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", "-f", "mp4"]],
    ["mov", video, ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac"]],
    ["mkv", video, ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac"]],
    ["webm", video, ["-c:v", "libvpx-vp9", "-b:v", "200k", "-c:a", "libopus"]],
    ["avi", video, ["-c:v", "mpeg4", "-c:a", "mp3"]],
    ["ogv", video, ["-c:v", "libtheora", "-c:a", "libvorbis"]],
    ["mp3", audio, ["-c:a", "libmp3lame"]],
    ["wav", audio, ["-c:a", "pcm_s16le"]],
    ["m4a", audio, ["-c:a", "aac", "-f", "mp4"]],
    ["aac", audio, ["-c:a", "aac", "-f", "adts"]],
    ["ogg", audio, ["-c:a", "libvorbis"]],
    ["oga", audio, ["-c:a", "libvorbis", "-f", "ogg"]],
    ["opus", audio, ["-c:a", "libopus", "-f", "ogg"]],
    ["flac", audio, ["-c:a", "flac"]],
  ];
  await Promise.all(
    targets.map(async ([ext, input, codec]) => {
      files[ext] = join(work, "in", `sample.${ext}`);
      await run("ffmpeg", ["-v", "error", "-y", ...input, ...codec, files[ext]!]);
    }),
  );
}

function makeTextFormats() {
  files.txt = write("notes.txt", "Meeting notes\n\nThe budget was approved on Monday.\n");
  files.text = write("notes.text", "Meeting notes\n\nThe budget was approved on Monday.\n");
  files.log = write("server.log", "2024-01-01 12:00:00 INFO budget was approved\n");
  for (const ext of ["md", "markdown"]) files[ext] = write(`readme.${ext}`, "# Budget\n\nThe budget was approved.\n");
  files.rst = write("readme.rst", "Budget\n======\n\nThe budget was approved.\n");
  for (const ext of ["adoc", "asciidoc"]) files[ext] = write(`readme.${ext}`, "= Budget\n\nThe budget was approved.\n");
  files.vtt = write("captions.vtt", "WEBVTT\n\n00:00.000 --> 00:02.000\n<v Ana>The budget was approved.\n");
  files.srt = write("captions.srt", "1\n00:00:00,000 --> 00:00:02,000\nThe budget was approved.\n");
  files.nxml = write(
    "article.nxml",
    '<?xml version="1.0"?><!DOCTYPE article PUBLIC "-//NLM//DTD JATS (Z39.96) Journal Publishing DTD v1.2 20190208//EN" "JATS-journalpublishing1.dtd"><article dtd-version="1.2"><front><article-meta><title-group><article-title>Budget</article-title></title-group></article-meta></front><body><p>The budget was approved.</p></body></article>',
  );
  files.org = write("readme.org", "* Budget\nThe budget was approved.\n");
  files.tex = write("paper.tex", "\\section{Budget}\nThe budget was approved.\n");
  files.csv = write("sales.csv", "Region,Units\nNorth,120\nSouth,80\n");
  files.tsv = write("sales.tsv", "Region\tUnits\nNorth\t120\nSouth\t80\n");
  files.json = write("data.json", '{"budget": "approved", "units": 120}');
  files.jsonl = write("data.jsonl", '{"budget": "approved"}\n{"units": 120}\n');
  files.ndjson = write("data.ndjson", '{"budget": "approved"}\n{"units": 120}\n');
  files.geojson = write("map.geojson", '{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {"budget": "approved"}, "geometry": {"type": "Point", "coordinates": [1, 2]}}]}');
  for (const ext of ["yaml", "yml"]) files[ext] = write(`config.${ext}`, "budget: approved\nunits: 120\n");
  files.xml = write("data.xml", '<?xml version="1.0"?><report><budget>approved</budget></report>');
  files.xsd = write("schema.xsd", '<?xml version="1.0"?><xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:element name="budget" type="xs:string"/></xs:schema>');
  for (const ext of ["xsl", "xslt"]) files[ext] = write(`style.${ext}`, '<?xml version="1.0"?><xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"><xsl:template match="/">budget</xsl:template></xsl:stylesheet>');
  files.rss = write("feed.rss", '<?xml version="1.0"?><rss version="2.0"><channel><title>Budget news</title><item><title>The budget was approved</title><link>https://example.com/a</link><description>All units agreed.</description></item></channel></rss>');
  files.atom = write("feed.atom", '<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Budget news</title><entry><title>The budget was approved</title><link href="https://example.com/a"/><summary>All units agreed.</summary></entry></feed>');
  const page = "<html><head><title>Budget</title></head><body><article><h1>Budget</h1><p>The budget was approved on Monday after a long discussion among all the units of the company, which agreed on the plan.</p></article></body></html>";
  files.html = write("page.html", page);
  files.htm = write("page.htm", page);
  files.xhtml = write("page.xhtml", `<?xml version="1.0" encoding="UTF-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>Budget</title></head><body><h1>Budget</h1><p>The budget was approved on Monday after a long discussion.</p></body></html>`);
  files.eml = write(
    "mail.eml",
    "From: Ana <ana@example.com>\r\nTo: Bo <bo@example.com>\r\nSubject: Budget\r\nDate: Mon, 1 Jan 2024 10:00:00 +0000\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nThe budget was approved.\r\n",
  );
  for (const [ext, lang] of Object.entries(SOURCE_LANGUAGES)) {
    const name = ext === "dockerfile" ? "Dockerfile" : ext === "makefile" ? "Makefile" : `source.${ext}`;
    files[ext] = write(name, `budget_approved = "${lang}"\n`);
  }
}

/** makeArchives packs the CSV and the markdown sample with tar (plain, gzip, bzip2, xz) and 7-Zip, and compresses the CSV alone. */
async function makeArchives() {
  const dir = join(work, "in");
  const members = ["-C", dir, "sales.csv", "readme.md"];
  for (const [exts, flag] of [[["tar"], "-cf"], [["tar.gz", "tgz"], "-czf"], [["tar.bz2", "tbz2"], "-cjf"], [["tar.xz", "txz"], "-cJf"]] as const) {
    for (const ext of exts) {
      files[ext] = join(dir, `bundle.${ext}`);
      await run("tar", [flag, files[ext]!, ...members]);
    }
  }
  for (const [ext, program] of [["gz", "gzip"], ["bz2", "bzip2"], ["xz", "xz"]] as const) {
    files[ext] = join(dir, `sales.csv.${ext}`);
    writeFileSync(files[ext]!, (await runProcess(program, ["-c", files.csv!], { timeoutMs: 60_000, what: `${program} fixture`, sandbox: { dirs: [work] } })).stdout);
  }
  files["7z"] = join(dir, "bundle.7z");
  await run("7zz", ["a", "-bd", "-y", files["7z"]!, files.csv!, files.md!]);
}

/** makeDrawings writes the mailbox, XPS and VSDX samples by hand and has LibreOffice draw EMF and WMF from an SVG. */
async function makeDrawings() {
  files.mbox = write("inbox.mbox", "From ana@example.com Mon Jan  1 10:00:00 2024\nFrom: Ana <ana@example.com>\nSubject: Budget\n\nThe budget was approved.\n");
  for (const ext of ["xps", "oxps"]) files[ext] = write(`report.${ext}`, xpsOf(["The budget was approved"]));
  files.vsdx = write("flow.vsdx", vsdxOf(["Budget flow"]));
  const svg = write("drawing.svg", `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="240"><rect width="100%" height="100%" fill="white"/><text x="40" y="150" font-family="DejaVu Sans" font-size="72" fill="black">Budget 4711</text></svg>`);
  for (const ext of ["emf", "wmf"]) {
    await run("soffice", ["--headless", "--norestore", `-env:UserInstallation=file://${join(work, "drawing-profile")}`, "--convert-to", ext, "--outdir", join(work, "in"), svg]);
    files[ext] = join(work, "in", `drawing.${ext}`);
  }
}

function copyFixture(ext: string, name: string) {
  files[ext] = join(work, "in", `sample.${ext}`);
  copyFileSync(join(FIXTURES, name), files[ext]!);
}

beforeAll(async () => {
  mkdirSync(join(work, "in"), { recursive: true });
  pool = new WorkerPool({ threads: 2, maxQueue: 256 });
  tools = createConvertTools(config, pool);
  makeTextFormats();
  copyFixture("pdf", "test.pdf");
  copyFixture("epub", "test.epub");
  copyFixture("msg", "test_outlook_msg.msg");
  copyFixture("ipynb", "test_notebook.ipynb");
  // nothing here writes XLSB or WPS: real samples (fixtures/formats/README.md)
  copyFixture("xlsb", "formats/xlsb_six_sheets_calamine.xlsb");
  copyFixture("wps", "formats/wps_kingsoft_table_zh.wps");
  await run("zip", ["-j", "-q", join(work, "in", "bundle.zip"), files.csv!, files.md!]);
  files.zip = join(work, "in", "bundle.zip");
  await makeArchives();
  await makeDrawings();
  const office = await makeOfficeFixtures(join(work, "office"));
  for (const [ext, path] of Object.entries(office)) files[ext] ??= path;
  if (!files.fodp && files.odp) {
    const profile = join(work, "fodp-profile");
    await run("soffice", ["--headless", "--norestore", `-env:UserInstallation=file://${profile}`, "--convert-to", "fodp", "--outdir", join(work, "in"), files.odp]);
    files.fodp = join(work, "in", files.odp.split("/").pop()!.replace(/\.odp$/, ".fodp"));
  }
  await Promise.all([makeImages(), makeMedia()]);
}, 600_000);

afterAll(async () => {
  await closeConvertTools(tools);
  await pool.close();
});

/** SAMPLE_TEXT: what the real samples of formats nothing here can write must produce */
const SAMPLE_TEXT: Record<string, RegExp> = {
  xlsb: /## issue2\n\n\| 1 \| a \|[\s\S]*\| 3 \| c \|/,
  wps: /深圳市南山区2024年博士选聘岗位表[\s\S]*\| 序号 \|/,
};

/** expectation gives the content a format's sample must produce. */
function expectation(ext: string): RegExp {
  if (SAMPLE_TEXT[ext]) return SAMPLE_TEXT[ext];
  const format = FORMATS.find((f) => f.ext === ext)!;
  switch (format.engine) {
    case "docx":
    case "office:docx":
      return OFFICE_TEXT;
    case "xlsx":
    case "office:xlsx":
      return OFFICE_SHEET;
    case "pptx":
    case "office:pptx":
      return OFFICE_SLIDES;
    case "image":
      return IMAGE_TEXT;
    case "media":
      return /0:00:02|00:02/;
    case "pdf":
      return /Large language models/;
    case "epub":
      return /\w{3,}/;
    case "msg":
      return /This is the body of the test email message/;
    case "notebook":
      return /```/;
    case "delimited":
    case "archive":
      return /\|\s*North\s*\|\s*120\s*\|/;
    case "code":
      return new RegExp("```" + SOURCE_LANGUAGES[ext]!.replace(/[+]/g, "\\+") + "\\n" + 'budget_approved = "');
    default:
      return /budget|Budget/;
  }
}

describe("every supported extension converts a real file", () => {
  test("the supported list has at least 107 extensions and a sample for each", () => {
    expect(FORMATS.length).toBeGreaterThanOrEqual(107);
    const missing = FORMATS.map((f) => f.ext).filter((ext) => !files[ext] || !existsSync(files[ext]!));
    expect(missing).toEqual([]);
  });

  test.each(FORMATS.map((f) => [f.ext, f.engine] as const))(".%s (%s)", async (ext, engine) => {
    const path = files[ext]!;
    const bytes = new Uint8Array(readFileSync(path));
    const filename = path.split("/").pop()!;
    const detected = sniffType(bytes, filename);
    const result = await convertDocument(
      { bytes, filename, contentType: detected.mime, ext: detected.ext },
      { signal: AbortSignal.timeout(120_000), tools, limits: convertLimitsOf(config), page: { mainContent: true, waitMs: 0 } },
    );
    // the bytes decide among aliases (heif-enc writes the HEIC brand into a .heif file)
    expect(result.format.engine).toBe(engine);
    expect(result.markdown).toMatch(expectation(ext));
  }, 120_000);
});
