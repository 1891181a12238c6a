/**
 * LibreOffice supervisor against the real soffice: every office fixture (iWork '09 Pages, Numbers
 * and Keynote included, read through libetonyek) converts to its OOXML family and to PDF through
 * warm instances, deadlines kill and recover, corrupt and encrypted
 * inputs get their own errors, the cold fallback works, and close() leaves no process behind.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AppError } from "../src/errors";
import { ZipArchive } from "../src/ingest/zip";
import { LibreOffice, type LibreOfficeOptions } from "../src/tools/libreoffice";
import { makeOfficeFixtures } from "./helpers/officeFixtures";

/** FIXTURE_DIR: shared between runs; the helper only makes what is missing */
const FIXTURE_DIR = join(tmpdir(), "docintel-office-fixtures-v1");

let fixtures: Record<string, string>;
let root: string;

beforeAll(async () => {
  fixtures = await makeOfficeFixtures(FIXTURE_DIR);
  root = await mkdtemp(join(tmpdir(), "docintel-lo-test-"));
}, 240_000);

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function options(name: string, overrides: Partial<LibreOfficeOptions> = {}): LibreOfficeOptions {
  return { binary: "soffice", python: "/usr/bin/python3", instances: 2, timeoutMs: 30_000, jobsPerInstance: 100, workDir: join(root, name), ...overrides };
}

async function bytesOf(key: string): Promise<Uint8Array> {
  return new Uint8Array(await Bun.file(fixtures[key]!).arrayBuffer());
}

function signal(): AbortSignal {
  return AbortSignal.timeout(60_000);
}

/** soffice processes whose command line mentions `dir` (each supervisor's profiles live under its workDir) */
function processesUnder(dir: string): string[] {
  const out = Bun.spawnSync(["pgrep", "-af", dir]).stdout.toString();
  return out.split("\n").filter((line) => line.includes(dir) && !line.includes("pgrep"));
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "resolved";
  } catch (error) {
    return error instanceof AppError ? error.code : String(error);
  }
}

/** MAIN_PART: the part every valid OOXML package of that type has, and a text it must contain */
const MAIN_PART = {
  docx: { part: "word/document.xml", text: "Quarterly Report" },
  xlsx: { part: "xl/workbook.xml", text: "<sheet" },
  pptx: { part: "ppt/slides/slide1.xml", text: "Roadmap" },
} as const;

function expectOoxml(bytes: Uint8Array, target: keyof typeof MAIN_PART): ZipArchive {
  const zip = new ZipArchive(bytes, 50_000_000, `converted ${target}`);
  expect(zip.has("[Content_Types].xml")).toBe(true);
  expect(zip.text(MAIN_PART[target].part)).toContain(MAIN_PART[target].text);
  return zip;
}

/** pdfText: the text of a PDF through poppler's pdftotext, pages separated by form feeds */
async function pdfText(pdf: Uint8Array): Promise<string> {
  const path = join(root, `text-${crypto.randomUUID()}.pdf`);
  await Bun.write(path, pdf);
  const run = Bun.spawnSync(["pdftotext", "-layout", path, "-"]);
  await rm(path, { force: true });
  expect(run.exitCode).toBe(0);
  return run.stdout.toString();
}

function expectPdf(bytes: Uint8Array): void {
  expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe("%PDF-");
  expect(bytes.length).toBeGreaterThan(500);
}

const TEXT_INPUTS = ["doc", "dot", "docx", "docm", "dotx", "odt", "ott", "fodt", "rtf", "txt", "pages"];
const SHEET_INPUTS = ["xls", "xlt", "xlsx", "xlsm", "xltx", "ods", "ots", "fods", "csv", "numbers"];
const SLIDE_INPUTS = ["ppt", "pps", "pot", "pptx", "pptm", "potx", "ppsx", "odp", "otp", "fodp", "key"];
const PDF_INPUTS = ["doc", "rtf", "odt", "pages", "xls", "ods", "csv", "numbers", "ppt", "pptx", "odp", "key"];

describe("warm conversions of every office fixture", () => {
  let office: LibreOffice;
  beforeAll(() => {
    office = new LibreOffice(options("warm"));
  });
  afterAll(async () => {
    await office.close();
  });

  test("text documents become DOCX with the heading and the table", async () => {
    for (const ext of TEXT_INPUTS) {
      const docx = await office.convert(await bytesOf(ext), ext, "docx", signal());
      const xml = expectOoxml(docx, "docx").text("word/document.xml")!;
      expect(xml).toContain("Widgets");
    }
  }, 60_000);

  test("spreadsheets become XLSX with the Sales sheet and its numbers", async () => {
    for (const ext of SHEET_INPUTS) {
      const xlsx = await office.convert(await bytesOf(ext), ext, "xlsx", signal());
      const zip = expectOoxml(xlsx, "xlsx");
      if (ext !== "csv") expect(zip.text("xl/workbook.xml")).toContain('name="Sales"');
      expect(zip.text("xl/sharedStrings.xml")).toContain("North");
      expect(zip.text("xl/worksheets/sheet1.xml")).toContain("<v>120</v>");
    }
  }, 60_000);

  test("presentations become PPTX with both slides and the speaker note", async () => {
    for (const ext of SLIDE_INPUTS) {
      const pptx = await office.convert(await bytesOf(ext), ext, "pptx", signal());
      const zip = expectOoxml(pptx, "pptx");
      expect(zip.text("ppt/slides/slide2.xml")).toContain("Budget");
      const notes = zip.names("ppt/notesSlides/").filter((n) => n.endsWith(".xml")).map((n) => zip.text(n)).join("");
      expect(notes).toContain("Remember the demo");
    }
  }, 60_000);

  test("documents of each family become PDF", async () => {
    for (const ext of PDF_INPUTS) expectPdf(await office.convert(await bytesOf(ext), ext, "pdf", signal()));
  }, 60_000);

  test("the warm path did the work: no cold run, no restart", () => {
    const stats = office.stats();
    expect(stats.warm).toBe(true);
    expect(stats.coldFallbacks).toBe(0);
    expect(stats.restarts).toBe(0);
    expect(stats.conversions).toBe(TEXT_INPUTS.length + SHEET_INPUTS.length + SLIDE_INPUTS.length + PDF_INPUTS.length);
  });

  test("a text document's DOCX counts the pages of LibreOffice's layout, not the statistics its file carried", async () => {
    const pagesOf = (docx: Uint8Array) => Number(/<Pages>(\d+)<\/Pages>/.exec(new ZipArchive(docx, 50_000_000, "converted docx").text("docProps/app.xml") ?? "")?.[1]);
    // MarkItDown's sample RTF (one page, written by Word): LibreOffice's RTF import says 99 pages
    const sample = new Uint8Array(await Bun.file(join(import.meta.dir, "fixtures/test.rtf")).arrayBuffer());
    expect(pagesOf(await office.convert(sample, "rtf", "docx", signal()))).toBe(1);
    // three pages (two page breaks) whose file claims one
    const rtf = new TextEncoder().encode("{\\rtf1\\ansi{\\info{\\nofpages1}}{\\fonttbl{\\f0 Times;}}\\f0 Page one.\\page Page two.\\page Page three.\\par}");
    expect(pagesOf(await office.convert(rtf, "rtf", "docx", signal()))).toBe(3);
  }, 60_000);

  test("a corrupt DOCX and random bytes are unreadable_document, and the instance still works", async () => {
    expect(await codeOf(office.convert(await bytesOf("corrupt_docx"), "docx", "pdf", signal()))).toBe("unreadable_document");
    const noise = new Uint8Array(4096).map((_, i) => (i * 7919) % 251);
    expect(await codeOf(office.convert(noise, "doc", "docx", signal()))).toBe("unreadable_document");
    expectPdf(await office.convert(await bytesOf("docx"), "docx", "pdf", signal()));
  }, 60_000);

  test("password-protected ODT, DOC and XLS are encrypted_document", async () => {
    expect(await codeOf(office.convert(await bytesOf("encrypted_odt"), "odt", "docx", signal()))).toBe("encrypted_document");
    expect(await codeOf(office.convert(await bytesOf("encrypted_doc"), "doc", "pdf", signal()))).toBe("encrypted_document");
    expect(await codeOf(office.convert(await bytesOf("encrypted_xls"), "xls", "xlsx", signal()))).toBe("encrypted_document");
  }, 60_000);

  test("iWork '09 Numbers and Keynote become PDFs whose text pdftotext reads back", async () => {
    const cases: Array<[string, string[]]> = [
      ["numbers", ["Region", "North", "120", "South", "80"]],
      ["key", ["Roadmap", "Ship version 2 in March", "Budget", "Total spend 1.2 million"]],
    ];
    const texts: Record<string, string> = {};
    for (const [ext, words] of cases) {
      const pdf = await office.convert(await bytesOf(ext), ext, "pdf", signal());
      expectPdf(pdf);
      texts[ext] = await pdfText(pdf);
      for (const word of words) expect(texts[ext]).toContain(word);
    }
    const pages = texts.key!.split("\f").filter((page) => page.trim());
    expect(pages.length).toBe(2);
    expect(pages[0]).toContain("Roadmap");
    expect(pages[1]).toContain("Budget");
  }, 60_000);

  test("a spreadsheet cannot become DOCX: unsupported_media_type before any work", async () => {
    expect(await codeOf(office.convert(await bytesOf("xlsx"), "xlsx", "docx", signal()))).toBe("unsupported_media_type");
  });
});

test("four parallel conversions on two instances all succeed, and close() leaves no process", async () => {
  const workDir = join(root, "parallel");
  const office = new LibreOffice(options("parallel"));
  const jobs: Array<[string, "docx" | "xlsx" | "pptx" | "pdf"]> = [["doc", "docx"], ["xls", "xlsx"], ["ppt", "pptx"], ["odt", "pdf"]];
  const outputs = await Promise.all(jobs.map(async ([ext, to]) => office.convert(await bytesOf(ext), ext, to, signal())));
  expectOoxml(outputs[0]!, "docx");
  expectOoxml(outputs[1]!, "xlsx");
  expectOoxml(outputs[2]!, "pptx");
  expectPdf(outputs[3]!);
  expect(office.stats()).toMatchObject({ warm: true, conversions: 4, coldFallbacks: 0 });
  expect(processesUnder(workDir).length).toBeGreaterThan(0);
  await office.close();
  expect(processesUnder(workDir)).toEqual([]);
  expect(readdirSync(workDir)).toEqual([]); // the caller's dir stays; the run dir made inside it is gone
}, 60_000);

test("a conversion past the deadline is killed with timeout, the instance restarts, the next conversion works", async () => {
  const workDir = join(root, "deadline");
  const office = new LibreOffice(options("deadline", { instances: 1, timeoutMs: 1_500 }));
  expectPdf(await office.convert(await bytesOf("docx"), "docx", "pdf", signal())); // starts the instance outside the deadline test
  const started = performance.now();
  expect(await codeOf(office.convert(await bytesOf("big_fodt"), "fodt", "pdf", signal()))).toBe("timeout");
  expect(performance.now() - started).toBeLessThan(5_000);
  expectPdf(await office.convert(await bytesOf("docx"), "docx", "pdf", signal()));
  expect(office.stats()).toMatchObject({ conversions: 2, restarts: 1, coldFallbacks: 0 });
  await office.close();
  expect(processesUnder(workDir)).toEqual([]);
}, 60_000);

test("restarts an instance after jobsPerInstance conversions", async () => {
  const office = new LibreOffice(options("recycle", { instances: 1, jobsPerInstance: 1 }));
  for (const ext of ["docx", "odt"]) expectOoxml(await office.convert(await bytesOf(ext), ext, "docx", signal()), "docx");
  expect(office.stats()).toMatchObject({ conversions: 2, restarts: 1 });
  await office.close();
  expect(processesUnder(join(root, "recycle"))).toEqual([]);
}, 60_000);

test("without UNO bindings it falls back to cold soffice runs, with the same errors", async () => {
  const workDir = join(root, "cold");
  const office = new LibreOffice(options("cold", { python: join(root, "no-such-python") }));
  expectOoxml(await office.convert(await bytesOf("doc"), "doc", "docx", signal()), "docx");
  expectOoxml(await office.convert(await bytesOf("csv"), "csv", "xlsx", signal()), "xlsx");
  expect(await codeOf(office.convert(await bytesOf("encrypted_odt"), "odt", "pdf", signal()))).toBe("encrypted_document");
  expect(await codeOf(office.convert(await bytesOf("corrupt_docx"), "docx", "pdf", signal()))).toBe("unreadable_document");
  expect(office.stats()).toMatchObject({ warm: false, conversions: 2, coldFallbacks: 4 });
  await office.close();
  expect(processesUnder(workDir)).toEqual([]);
}, 60_000);

test("a missing soffice is tool_unavailable", async () => {
  const office = new LibreOffice(options("missing", { binary: join(root, "no-such-soffice") }));
  expect(await codeOf(office.convert(await bytesOf("docx"), "docx", "pdf", signal()))).toBe("tool_unavailable");
  await office.close();
});

test("an aborted caller stops waiting for a busy instance", async () => {
  const office = new LibreOffice(options("abort", { instances: 1 }));
  const first = codeOf(office.convert(await bytesOf("big_fodt"), "fodt", "pdf", signal()));
  await Bun.sleep(300);
  const controller = new AbortController();
  const second = office.convert(await bytesOf("docx"), "docx", "pdf", controller.signal);
  controller.abort(new Error("client went away"));
  expect(await codeOf(second)).toBe("Error: client went away");
  await office.close();
  expect(await first).toBe("shutting_down");
  expect(processesUnder(join(root, "abort"))).toEqual([]);
}, 60_000);
