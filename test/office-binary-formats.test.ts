/**
 * Binary office formats added for issue 16, through the real server and real LibreOffice, with real
 * samples from public repositories (test/fixtures/formats/README.md names each source and licence):
 * Excel binary workbooks (.xlsb) and Kingsoft WPS Writer documents (.wps) convert like XLS and DOC;
 * OneNote files, which nothing on the server reads, get a 415 that says what to upload instead.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { api, form, type TestServer, withServer } from "./helpers/server";
import { zipOf } from "./helpers/zip";
import { sniffType } from "../src/ingest/sniff";
import { ZipArchive } from "../src/ingest/zip";

const SAMPLES = join(import.meta.dir, "fixtures/formats");
const XLSB = new Uint8Array(readFileSync(join(SAMPLES, "xlsb_six_sheets_calamine.xlsb")));
const WPS = new Uint8Array(readFileSync(join(SAMPLES, "wps_kingsoft_table_zh.wps")));

let server: TestServer;
let key: string;

withServer({ args: ["--convert-timeout-ms", "120000"] }, (served) => ({ server, key } = served));

const convert = (bytes: Uint8Array, name: string) => api(server, key, "POST", "/api/v1/markdown/convert", form({ file: new File([bytes as Uint8Array<ArrayBuffer>], name) }));

describe("xlsb (Excel binary workbook)", () => {
  test("every sheet as a heading and a table with its cells", async () => {
    const { status, body } = await convert(XLSB, "issues.xlsb");
    expect(status).toBe(200);
    expect(body.extraction_method).toMatch(/^libreoffice\+/);
    const md: string = body.markdown;
    // the sheets in workbook order (markdown escapes the underscore of spc_chrs)
    const headings = [...md.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(headings).toEqual(["datatypes", "issue2", "Sheet1", "issue5", "issue6", "spc\\_chrs"]);
    // sheet issue2: three rows of a number and a letter
    const issue2 = md.slice(md.indexOf("## issue2"), md.indexOf("##", md.indexOf("## issue2") + 2));
    expect(issue2).toMatch(/\|\s*1\s*\|\s*a\s*\|/);
    expect(issue2).toMatch(/\|\s*2\s*\|\s*b\s*\|/);
    expect(issue2).toMatch(/\|\s*3\s*\|\s*c\s*\|/);
    // sheet spc_chrs: markup characters and non-Latin text come through as text
    for (const cell of ["&", "<", ">", "aaa ' aaa", "☺", "֍", "àâéêèçöïî«»"]) expect(md).toContain(cell);
    // sheet datatypes: a number, a decimal, text and a date
    const datatypes = md.slice(md.indexOf("## datatypes"), md.indexOf("## issue2"));
    for (const cell of ["| 1 |", "| 1.5 |", "| ab |", "| test |", "| 2016-10-20 |"]) expect(datatypes).toContain(cell);
  }, 120_000);

  test("recognised by its bytes (xl/workbook.bin) without the .xlsb name", async () => {
    expect(sniffType(XLSB, "export").mime).toBe("application/vnd.ms-excel.sheet.binary.macroenabled.12");
    const { status, body } = await convert(XLSB, "export");
    expect(status).toBe(200);
    expect(body.content_type).toBe("application/vnd.ms-excel.sheet.binary.macroenabled.12");
    expect(body.markdown).toContain("| aaa ' aaa |");
  }, 120_000);

  test("a truncated xlsb is 400 unreadable_document, not a 500", async () => {
    const { status, body } = await convert(XLSB.subarray(0, 6000), "truncated.xlsb");
    expect(status).toBe(400);
    expect(body.success).toBe(false);
    expect(body.error).toBe("unreadable_document");
    expect(body.detail).toContain(".xlsb");
  }, 120_000);

  test("an xlsb whose workbook part is damaged is 400 unreadable_document, not an empty success", async () => {
    // LibreOffice opens it as a new workbook with one empty sheet and reports success
    const archive = new ZipArchive(XLSB, 10_000_000, "sample");
    const damaged = zipOf(archive.names().map((name) => ({ name, data: name === "xl/workbook.bin" ? new Uint8Array(archive.read(name)!.length).fill(0xa5) : archive.read(name)! })));
    const { status, body } = await convert(damaged, "damaged.xlsb");
    expect(status).toBe(400);
    expect(body.error).toBe("unreadable_document");
    expect(body.detail).toContain("read 1 of the 6 worksheets");
  }, 120_000);

  test("text named .xlsb is 400 unreadable_document, not a 500", async () => {
    const { status, body } = await convert(new TextEncoder().encode("Quarter,Total\nQ1,100\n"), "totals.xlsb");
    expect(status).toBe(400);
    expect(body.error).toBe("unreadable_document");
    expect(body.detail).toContain("not really .xlsb");
  }, 120_000);
});

describe("wps (Kingsoft WPS Writer)", () => {
  test("its text and its table, through LibreOffice", async () => {
    const { status, body } = await convert(WPS, "岗位表.wps");
    expect(status).toBe(200);
    expect(body.extraction_method).toMatch(/^libreoffice\+/);
    const md: string = body.markdown;
    expect(md).toContain("深圳市南山区2024年博士选聘岗位表");
    // the table's header row and its one data row are cells of a GFM table
    expect(md).toMatch(/\|\s*序号\s*\|\s*选聘单位\s*\|\s*选聘岗位\s*\|\s*岗位职责\s*\|/);
    expect(md).toMatch(/\|\s*1\s*\|[^\n]*从事新兴产业发展规划等工作[^\n]*\|\s*10\s*\|/);
  }, 120_000);

  test("recognised by its streams (WordDocument and WpsCustomData) without the .wps name", async () => {
    expect(sniffType(WPS, "attachment").mime).toBe("application/vnd.ms-works");
    const { status, body } = await convert(WPS, "attachment");
    expect(status).toBe(200);
    expect(body.markdown).toContain("从事新兴产业发展规划等工作");
  }, 120_000);

  test("a truncated wps is 400 unreadable_document, not a 500", async () => {
    const { status, body } = await convert(WPS.subarray(0, 3000), "truncated.wps");
    expect(status).toBe(400);
    expect(body.error).toBe("unreadable_document");
    expect(body.detail).toContain(".wps");
  }, 120_000);
});

describe("OneNote", () => {
  // [MS-ONESTORE] guidFileType of a section file, {7B5C52E4-D88C-4DA7-AEB1-5378D02996D3}, as stored, then an empty header
  const oneNoteSection = new Uint8Array(1024);
  oneNoteSection.set([0xe4, 0x52, 0x5c, 0x7b, 0x8c, 0xd8, 0xa7, 0x4d, 0xae, 0xb1, 0x53, 0x78, 0xd0, 0x29, 0x96, 0xd3]);

  test("415 naming OneNote and what to upload instead, with or without the .one name", async () => {
    for (const name of ["Meeting notes.one", "notes"]) {
      const { status, body } = await convert(oneNoteSection, name);
      expect(status).toBe(415);
      expect(body.success).toBe(false);
      expect(body.error).toBe("unsupported_media_type");
      expect(body.detail).toContain("OneNote");
      expect(body.detail).toContain("export the page or section as PDF or Word");
    }
  });
});

test("markdown/supported lists xlsb and wps", async () => {
  const { status, body } = await api(server, key, "GET", "/api/v1/markdown/supported");
  expect(status).toBe(200);
  const family = (ext: string) => body.families.find((f: any) => f.extensions.includes(ext))?.family;
  expect(family("xlsb")).toBe("spreadsheets");
  expect(family("wps")).toBe("documents");
});
