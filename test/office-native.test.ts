/**
 * The native Office Open XML and delimited-text converters against real-world files (MarkItDown's
 * corpus), LibreOffice's own DOCX/XLSX output, real tesseract OCR, and hostile containers.
 */
import { failureOf } from "./helpers/loopback";
import { zipOf } from "./helpers/zip";

const zipTuples = (entries: Array<[string, string | Uint8Array]>) => zipOf(entries.map(([name, data]) => ({ name, data })));
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { convertDelimited, parseDelimited, sniffDelimiter } from "../src/convert/delimited";
import { decodeText } from "../src/convert/charset";
import { convertDocx } from "../src/convert/docx";
import { convertPptx } from "../src/convert/pptx";
import type { ConvertContext, Converter } from "../src/convert/types";
import { convertXlsx, formatNumber } from "../src/convert/xlsx";
import { Tesseract } from "../src/tools/tesseract";
import { convertContext } from "./helpers/convert";

/** errorCode is the AppError code the conversion fails with. */
const errorCode = async (promise: Promise<unknown>) => (await failureOf(promise)).code;

const fixture = (name: string) => new Uint8Array(readFileSync(join(import.meta.dir, "fixtures", name)));
const ocr = new Tesseract({ concurrency: 2, timeoutMs: 60_000 });
const work = mkdtempSync(join(tmpdir(), "office-native-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const context = (limits: Partial<ConvertContext["limits"]> = {}, withOcr = true) => convertContext({ limits, tools: withOcr ? { ocr } : {} });

function convert(converter: Converter, name: string, bytes: Uint8Array = fixture(name), ctx: ConvertContext = context()) {
  const ext = name.slice(name.lastIndexOf(".") + 1).toLowerCase();
  return converter({ bytes, filename: name, contentType: "application/octet-stream", ext }, ctx);
}

/**
 * encryptedOfficeContainer builds an OLE compound file laid out like a password-protected OOXML
 * document: a FAT sector, a directory with Root Entry, EncryptionInfo and EncryptedPackage, and
 * 4 KiB of (opaque) data in each stream.
 */
function encryptedOfficeContainer(): Uint8Array {
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

/** soffice converts a file with real LibreOffice into `toFilter` in `work`, returning the output bytes. */
function soffice(path: string, toFilter: string, outName: string): Uint8Array {
  const result = Bun.spawnSync(
    ["soffice", "--headless", "--norestore", `-env:UserInstallation=file://${work}/profile`, "--convert-to", toFilter, "--outdir", work, path],
    { stdout: "ignore", stderr: "pipe", timeout: 90_000 },
  );
  if (result.exitCode !== 0) throw new Error(`soffice failed: ${result.stderr.toString()}`);
  return new Uint8Array(readFileSync(join(work, outName)));
}

describe("DOCX", () => {
  test("test.docx: title heading, section headings, paragraphs, the table and the image alt text", async () => {
    const result = await convert(convertDocx, "test.docx");
    expect(result.markdown).toStartWith("# AutoGen: Enabling Next-Gen LLM Applications via Multi-Agent Conversation\n");
    expect(result.markdown).toContain("\n# Abstract\n");
    expect(result.markdown).toContain("\n## d666f1f7-46cb-42bd-9a39-9a39cf2a509f\n");
    expect(result.markdown).toContain("Here is a random UUID in the middle of the paragraph! 314b0a30-5b04-470b-b9f7-eed2c2bec74a");
    expect(result.markdown).toContain("| 1 | 2 | 3 | 4 | 5 | 6 |\n| --- | --- | --- | --- | --- | --- |\n| 7 | 8 | 9 | 10 | 11 | 12 |");
    expect(result.markdown).toContain("| 13 | 14 | 49e168b7-d2ae-407f-a055-2167576f39a1 | 15 | 16 | 17 |");
    expect(result.markdown).toMatch(/!\[[^\]]+\]\(image1\.png\)/);
    expect(result.title).toBe("AutoGen: Enabling Next-Gen LLM Applications via Multi-Agent Conversation");
    expect(result.totalPages).toBe(2);
    // The picture is a screenshot of the paper's abstract: tesseract reads it under the image.
    expect(result.markdown).toMatch(/\(image1\.png\)\n\n> \[Image text\] [\s\S]*> mathematics, coding, question answering/);
    expect(result.method).toBe("text+ocr");
  });

  test("equations.docx: inline math as $...$ and display math as $$...$$ in LaTeX", async () => {
    const { markdown } = await convert(convertDocx, "equations.docx");
    expect(markdown).toContain("For $m=1$,");
    expect(markdown).toContain("$$\\sin \\theta =\\frac{m\\lambda}{a}=");
    expect(markdown).toContain("{10}^{-6}");
    expect(markdown).toContain("\\frac{a}{\\lambda}=\\frac{m}{\\sin \\theta}");
    expect(markdown).toContain("The angle is $\\theta =");
    expect(markdown.match(/^\$\$.+\$\$$/gm)?.length).toBe(2);
  });

  test("test_with_comment.docx: comments appended with their author", async () => {
    const { markdown } = await convert(convertDocx, "test_with_comment.docx");
    expect(markdown).toContain("## Comments");
    expect(markdown).toContain("- **Unknown Author** (2024-12-15): This is a test comment. 12df-321a");
    expect(markdown).toContain("Yet another comment in the doc. 55yiyi-asd09");
    expect(markdown).toContain("| 13 | 14 | 49e168b7-d2ae-407f-a055-2167576f39a1 | 15 | 16 | 17 |");
  });

  test("rlink.docx: a linked picture shows its alt text and its local target is never followed", async () => {
    const { markdown } = await convert(convertDocx, "rlink.docx");
    expect(markdown).toContain("Testing Linked Images");
    expect(markdown).toContain("![A red and blue square AI-generated content may be incorrect.](image)");
    expect(markdown).not.toContain("file://");
  });

  test("ocr_docx_multiple_images.docx: text inside both images comes out through tesseract", async () => {
    const result = await convert(convertDocx, "ocr_docx_multiple_images.docx");
    expect(result.markdown).toStartWith("# Multi-Image Document\n");
    expect(result.markdown).toMatch(/First section\n\n!\[\]\(image1\.png\)\n\n> \[Image text\] Chart 1: Revenue Growth/);
    expect(result.markdown).toMatch(/> \[Image text\] Chart 2: Customer Satisfaction/);
    expect(result.markdown.indexOf("Revenue Growth")).toBeLessThan(result.markdown.indexOf("Second section"));
    expect(result.method).toBe("text+ocr");
  });

  test("without an OCR engine images keep their alt text and the method stays text", async () => {
    const result = await convert(convertDocx, "ocr_docx_multiple_images.docx", undefined, context({}, false));
    expect(result.markdown).toContain("![](image2.png)");
    expect(result.markdown).not.toContain("[Image text]");
    expect(result.method).toBe("text");
  });

  test("footnotes, field hyperlinks, internal anchors, vertical merges and a decimal list that continues", async () => {
    const W = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`;
    const p = (inner: string, pPr = "") => `<w:p>${pPr ? `<w:pPr>${pPr}</w:pPr>` : ""}${inner}</w:p>`;
    const r = (text: string) => `<w:r><w:t xml:space="preserve">${text}</w:t></w:r>`;
    const item = (text: string) => p(r(text), `<w:numPr><w:ilvl w:val="0"/><w:numId w:val="7"/></w:numPr>`);
    const cell = (inner: string, tcPr = "") => `<w:tc>${tcPr ? `<w:tcPr>${tcPr}</w:tcPr>` : ""}${p(r(inner))}</w:tc>`;
    const body = [
      p(`${r("Claim")}<w:r><w:footnoteReference w:id="2"/></w:r>${r(" and ")}<w:fldSimple w:instr=' HYPERLINK "https://example.org/x" '>${r("field link")}</w:fldSimple>${r(" and ")}<w:hyperlink w:anchor="sec2">${r("an anchor")}</w:hyperlink>${r(".")}`),
      p(`<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText>HYPERLINK "https://example.net/"</w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>${r("complex link")}<w:r><w:fldChar w:fldCharType="end"/></w:r>`),
      item("one"),
      item("two"),
      p(r("between")),
      item("three"),
      `<w:tbl><w:tr>${cell("Region")}${cell("Q1")}${cell("Q2")}</w:tr><w:tr>${cell("North", '<w:vMerge w:val="restart"/>')}${cell("Both quarters", '<w:gridSpan w:val="2"/>')}</w:tr><w:tr>${cell("", "<w:vMerge/>")}${cell("5")}${cell("6")}</w:tr></w:tbl>`,
    ].join("");
    const bytes = zipTuples([
      ["_rels/.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`],
      ["word/document.xml", `<w:document ${W}><w:body>${body}</w:body></w:document>`],
      ["word/_rels/document.xml.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/footnotes" Target="footnotes.xml"/><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/numbering" Target="numbering.xml"/></Relationships>`],
      ["word/footnotes.xml", `<w:footnotes ${W}><w:footnote w:type="separator" w:id="0">${p(r("---"))}</w:footnote><w:footnote w:id="2">${p(r("Source: the annual report."))}</w:footnote></w:footnotes>`],
      ["word/numbering.xml", `<w:numbering ${W}><w:abstractNum w:abstractNumId="3"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/></w:lvl></w:abstractNum><w:num w:numId="7"><w:abstractNumId w:val="3"/></w:num></w:numbering>`],
    ]);
    const { markdown } = await convert(convertDocx, "notes.docx", bytes);
    expect(markdown).toContain("Claim[^1] and [field link](https://example.org/x) and an anchor.");
    expect(markdown).toContain("[complex link](https://example.net/)");
    expect(markdown).toContain("1. one\n2. two\n\nbetween\n\n3. three");
    expect(markdown).toContain("| Region | Q1 | Q2 |\n| --- | --- | --- |\n| North | Both quarters |  |\n|  | 5 | 6 |");
    expect(markdown).toEndWith("[^1]: Source: the annual report.\n");
  });

  test("LibreOffice's DOCX: headings, nested and numbered lists, merged table cells, link, emphasis", async () => {
    const html = join(work, "report.html");
    writeFileSync(
      html,
      `<html><head><title>Quarterly Report</title></head><body><h1>Quarterly Report</h1>
      <p>Intro with <b>bold</b>, <i>italic</i>, <s>struck</s> and a <a href="https://example.com/page">link to example</a>.</p>
      <h2>Findings</h2><ul><li>First bullet</li><li>Second bullet<ul><li>Nested bullet</li></ul></li></ul>
      <ol><li>Step one</li><li>Step two</li><li>Step three</li></ol>
      <table border="1"><tr><th>Name</th><th>Qty</th><th>Price</th></tr><tr><td colspan="2">Merged widget</td><td>9.50</td></tr>
      <tr><td>Gadget</td><td>3</td><td>4.25</td></tr></table><h3>Details</h3><p>Closing paragraph.</p></body></html>`,
    );
    const bytes = soffice(html, "docx:MS Word 2007 XML", "report.docx");
    const { markdown, title } = await convert(convertDocx, "report.docx", bytes);
    expect(title).toBe("Quarterly Report");
    expect(markdown).toContain("# Quarterly Report\n");
    expect(markdown).toContain("Intro with **bold**, *italic*, ~~struck~~ and a [link to example](https://example.com/page).");
    expect(markdown).toContain("## Findings\n\n- First bullet\n- Second bullet\n  - Nested bullet");
    expect(markdown).toContain("1. Step one\n2. Step two\n3. Step three");
    expect(markdown).toContain("| Name | Qty | Price |\n| --- | --- | --- |\n| Merged widget |  | 9.50 |\n| Gadget | 3 | 4.25 |");
    expect(markdown).toContain("### Details\n\nClosing paragraph.");
  }, 60_000);
});

describe("PPTX", () => {
  test("test.pptx: slides with titles, body text, picture alt text, table, chart and grouped shapes", async () => {
    const result = await convert(convertPptx, "test.pptx");
    const md = result.markdown;
    expect(md).toStartWith("## Slide 1: AutoGen: Enabling Next-Gen LLM Applications via Multi-Agent Conversation\n");
    expect(md).toContain("## Slide 2: 2cdda5c8-e50e-4db4-b5f0-9722a649f455");
    expect(md).toContain("![The first page of the AutoGen ArXiv paper. 44bf7d06-5e7a-4a40-a2e1-a2e42ef28c8a](image1.jpeg)");
    expect(md).toContain("Both natural language and 04191ea8-5c73-4215-a1d3-1cfb43aaaf12 can be used");
    expect(md).toContain("## Slide 3: A table to test parsing:\n\n| ColA | ColB | ColC | ColD | ColE | ColF |");
    expect(md).toContain("| 7 | 8 | 9 | 1b92870d-e3b5-4e65-8153-919f4ff45592 | 11 | 12 |");
    expect(md).toContain("### Chart: a3f6004b-6f4f-4ea8-bee3-3741f4dc385f\n\n| Category | Series 1 |\n| --- | --- |\n| 2000 | 2000 |");
    expect(md).toContain("- **Comment 1**\n- **Comment 2:**\n  - Sub comment 2");
    expect(md).toContain("## Slide 6: These Test Strings are in the Image!");
    expect(result.totalPages).toBe(6);
    expect(result.title).toBe("AutoGen: Enabling Next-Gen LLM Applications via Multi-Agent Conversation");
  });

  test("ocr_pptx_multiple_images.pptx: both pictures are read by tesseract, left one first", async () => {
    const result = await convert(convertPptx, "ocr_pptx_multiple_images.pptx");
    expect(result.markdown).toContain("> [Image text] Before: 50% Efficiency");
    expect(result.markdown).toContain("> [Image text] After: 95% Efficiency");
    expect(result.markdown.indexOf("Before:")).toBeLessThan(result.markdown.indexOf("After:"));
    expect(result.method).toBe("text+ocr");
    expect(result.totalPages).toBe(1);
  });

  test("a presentation with more slides than maxPages is refused", async () => {
    expect(await errorCode(convert(convertPptx, "test.pptx", undefined, context({ maxPages: 3 })))).toBe("document_too_large");
  });
});

describe("XLSX", () => {
  test("test.xlsx: one heading and one table per sheet with shared strings and numbers", async () => {
    const result = await convert(convertXlsx, "test.xlsx");
    expect(result.markdown).toStartWith("## Sheet1\n\n| Alpha | Beta | Gamma | Delta |\n| --- | --- | --- | --- |\n| 89 | 82 | 100 | 12 |");
    expect(result.markdown).toContain("| 58 | 6ff4173b-42a5-4784-9b19-f49caff4d93d | 22 | 9 |");
    expect(result.markdown).toContain("## 09060124-b5e7-4717-9d07-3c046eb\n\n| ColA | ColB | ColC | ColD |");
    expect(result.markdown).toContain("| 13 | 14 | 15 | affc7dad-52dc-4b98-9b5d-51e65d8a8ad0 |");
    expect(result.totalPages).toBe(2);
  });

  test("ocr_xlsx_multiple_images.xlsx: inline strings and the text of every sheet's pictures", async () => {
    const result = await convert(convertXlsx, "ocr_xlsx_multiple_images.xlsx");
    const md = result.markdown;
    expect(md).toContain("## Overview\n\n| Dashboard |\n| --- |\n| Status: Active |\n| Performance Summary |");
    expect(md).toContain("> [Image text] KPI: 95% Success Rate");
    expect(md).toContain("> [Image text] Uptime: 99.9%");
    expect(md).toMatch(/## Details[\s\S]*Response Time 50ms/);
    expect(md).toMatch(/## Summary[\s\S]*Q1 Results: Exceeded Goals/);
    expect(result.totalPages).toBe(3);
    expect(result.method).toBe("text+ocr");
  });

  test("LibreOffice's XLSX: dates as ISO text, formulas as their cached values, quoted commas kept", async () => {
    const csv = join(work, "ledger.csv");
    writeFileSync(csv, 'Name,Date,Amount,Total\nAlpha,2024-01-15,10.5,=C2*2\nBeta,2023-12-31,3,=C3*2\n"Gamma, Inc.",2020-02-29,7,=SUM(C2:C4)\n');
    const bytes = soffice(csv, "xlsx", "ledger.xlsx");
    const { markdown } = await convert(convertXlsx, "ledger.xlsx", bytes);
    expect(markdown).toContain("## ledger");
    expect(markdown).toContain("| Alpha | 2024-01-15 | 10.5 | 21 |");
    expect(markdown).toContain("| Beta | 2023-12-31 | 3 | 6 |");
    expect(markdown).toContain("| Gamma, Inc. | 2020-02-29 | 7 | 20.5 |");
  }, 60_000);

  test("number formats: built-in and custom dates, 1904 system, times, percentages, float noise", () => {
    expect(formatNumber("45306", 14, "", false)).toBe("2024-01-15");
    expect(formatNumber("43844", 14, "", true)).toBe("2024-01-15");
    expect(formatNumber("45306.75", 164, "dd/mm/yyyy hh:mm", false)).toBe("2024-01-15 18:00:00");
    expect(formatNumber("0.5", 20, "", false)).toBe("12:00:00");
    expect(formatNumber("59", 14, "", false)).toBe("1900-02-28");
    expect(formatNumber("0.125", 10, "0.00%", false)).toBe("12.50%");
    expect(formatNumber("0.30000000000000004", 0, "General", false)).toBe("0.3");
    expect(formatNumber("1234.5", 164, '#,##0.00 "m"', false)).toBe("1234.5");
  });

  test("a workbook whose sheets hold no values is an empty document", async () => {
    const sheet = `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" s="0"/></row></sheetData></worksheet>`;
    const bytes = zipTuples([
      ["_rels/.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`],
      ["xl/workbook.xml", `<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Blank" sheetId="1" r:id="rId1"/></sheets></workbook>`],
      ["xl/_rels/workbook.xml.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`],
      ["xl/worksheets/sheet1.xml", sheet],
    ]);
    expect(await errorCode(convert(convertXlsx, "blank.xlsx", bytes))).toBe("empty_document");
  });
});

describe("CSV and TSV", () => {
  test("test_mskanji.csv: Shift-JIS is detected and the Japanese text comes out right", async () => {
    expect(decodeText(fixture("test_mskanji.csv")).charset).toBe("shift_jis");
    const result = await convert(convertDelimited, "test_mskanji.csv");
    expect(result.markdown).toBe("| 名前 | 年齢 | 住所 |\n| --- | --- | --- |\n| 佐藤太郎 | 30 | 東京 |\n| 三木英子 | 25 | 大阪 |\n| 髙橋淳 | 35 | 名古屋 |\n");
    expect(result.method).toBe("text");
  });

  test("legacy charsets are told apart: GB18030, EUC-KR, windows-1251, windows-1252, UTF-16 without BOM", () => {
    const cases: Array<[string, string]> = [
      ["今天天气很好，我们去公园散步吧。", "gb18030"],
      ["오늘은 날씨가 좋네요. 공원에 갑시다.", "euc-kr"],
      ["Привет, как дела? Всё хорошо.", "windows-1251"],
      ["café, résumé, naïve. Don’t “quote” – déjà vu", "windows-1252"],
    ];
    for (const [text, charset] of cases) {
      const encoded = Bun.spawnSync(["iconv", "-f", "UTF-8", "-t", charset.toUpperCase()], { stdin: Buffer.from(text) }).stdout;
      expect(decodeText(new Uint8Array(encoded))).toEqual({ text, charset });
    }
    expect(decodeText(new Uint8Array(Buffer.from("a,b\n1,2\n", "utf16le")))).toEqual({ text: "a,b\n1,2\n", charset: "utf-16le" });
    expect(decodeText(new Uint8Array([0xef, 0xbb, 0xbf, 0x61]))).toEqual({ text: "a", charset: "utf-8" });
  });

  test("quoted fields keep delimiters, doubled quotes and newlines; ragged rows are padded", async () => {
    const csv = 'name,notes,score\n"Smith, J.","line one\nline two ""quoted""",7\nDoe,short\n';
    const result = await convert(convertDelimited, "notes.csv", new TextEncoder().encode(csv));
    expect(result.markdown).toBe('| name | notes | score |\n| --- | --- | --- |\n| Smith, J. | line one<br>line two "quoted" | 7 |\n| Doe | short |  |\n');
  });

  test("delimiters: tab from the extension, semicolon and pipe sniffed", async () => {
    const tsv = await convert(convertDelimited, "data.tsv", new TextEncoder().encode("a,1\tb\nc\td\n"));
    expect(tsv.markdown).toBe("| a,1 | b |\n| --- | --- |\n| c | d |\n");
    expect(sniffDelimiter("a;b;c\n1;2,5;3\n4;5;6\n")).toBe(";");
    expect(sniffDelimiter("a|b\n1|2\n")).toBe("|");
    expect(parseDelimited('x;"y;z"\r\n1;2\r\n', ";").rows).toEqual([["x", "y;z"], ["1", "2"]]);
  });

  test("a CSV with nothing but blank lines is an empty document", async () => {
    expect(await errorCode(convert(convertDelimited, "blank.csv", new TextEncoder().encode("\n\n,,\n")))).toBe("empty_document");
  });
});

describe("hostile and damaged containers", () => {
  const contentTypes = `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`;
  const rootRels = `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`;

  test("a zip bomb DOCX (document.xml inflating past the budget) is refused as too large", async () => {
    const body = `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${"<w:p><w:r><w:t>bomb</w:t></w:r></w:p>".repeat(400_000)}</w:body></w:document>`;
    const bytes = zipTuples([["[Content_Types].xml", contentTypes], ["_rels/.rels", rootRels], ["word/document.xml", body]]);
    expect(bytes.length).toBeLessThan(200_000);
    expect(await errorCode(convert(convertDocx, "bomb.docx", bytes, context({ maxDecompressedBytes: 1_000_000 })))).toBe("document_too_large");
  });

  test("a truncated DOCX is unreadable", async () => {
    const whole = fixture("test.docx");
    expect(await errorCode(convert(convertDocx, "cut.docx", whole.subarray(0, Math.floor(whole.length / 2))))).toBe("unreadable_document");
  });

  test("a ZIP without the main part is unreadable", async () => {
    expect(await errorCode(convert(convertDocx, "sheet.docx", fixture("test.xlsx")))).toBe("unreadable_document");
    expect(await errorCode(convert(convertPptx, "words.pptx", fixture("test.docx")))).toBe("unreadable_document");
  });

  test("an encrypted Office container (OLE with EncryptedPackage) named .docx/.xlsx is encrypted_document", async () => {
    const bytes = encryptedOfficeContainer();
    expect(await errorCode(convert(convertDocx, "secret.docx", bytes))).toBe("encrypted_document");
    expect(await errorCode(convert(convertXlsx, "secret.xlsx", bytes))).toBe("encrypted_document");
  });

  test("a legacy binary file (XLS) named .docx is unreadable, not mistaken for encryption", async () => {
    expect(await errorCode(convert(convertDocx, "legacy.docx", fixture("test.xls")))).toBe("unreadable_document");
  });

  test("a document with a body but no text is an empty document", async () => {
    const body = `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p/><w:p><w:r><w:t xml:space="preserve">  </w:t></w:r></w:p></w:body></w:document>`;
    const bytes = zipTuples([["[Content_Types].xml", contentTypes], ["_rels/.rels", rootRels], ["word/document.xml", body]]);
    expect(await errorCode(convert(convertDocx, "blank.docx", bytes))).toBe("empty_document");
  });
});

