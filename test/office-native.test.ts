/**
 * The native PPTX, XLSX and delimited-text converters against real-world files (MarkItDown's corpus),
 * LibreOffice's own XLSX output, real tesseract OCR, and hostile containers. DOCX: convert-docx.test.ts.
 */
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { convertDelimited, parseDelimited, sniffDelimiter } from "../src/convert/delimited";
import { decodeText } from "../src/convert/charset";
import { convertDocx } from "../src/convert/docx";
import { convertPptx } from "../src/convert/pptx";
import { convertXlsx, formatNumber } from "../src/convert/xlsx";
import { context, convert, deckOf, encryptedOfficeContainer, errorCode, fixture, ocr, officeWorkDir, zipTuples } from "./helpers/office";

const { work, soffice } = officeWorkDir("office-native-");

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

  test("an auto-numbered list that starts at 4 (a:buAutoNum startAt) counts on from 4", async () => {
    const P = `xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`;
    const item = (text: string, pPr: string) => `<a:p><a:pPr>${pPr}</a:pPr><a:r><a:t>${text}</a:t></a:r></a:p>`;
    const numbered = (text: string) => item(text, `<a:buAutoNum type="arabicPeriod" startAt="4"/>`);
    const body = `${item("Steps so far:", "<a:buNone/>")}${numbered("Sand the frame")}${numbered("Prime it")}${item("Then:", "<a:buNone/>")}${item("Paint", '<a:buAutoNum type="arabicPeriod"/>')}`;
    const slide = `<p:sld ${P}><p:cSld><p:spTree><p:sp><p:nvSpPr><p:cNvPr id="2" name="Text"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/>${body}</p:txBody></p:sp></p:spTree></p:cSld></p:sld>`;
    const bytes = deckOf([slide]);
    const { markdown } = await convert(convertPptx, "steps.pptx", bytes);
    expect(markdown).toContain("Steps so far:\n\n4. Sand the frame\n5. Prime it\n\nThen:\n\n1. Paint");
  });

  test("PPTX: a:br is a hard break in a text box and <br> in a table cell; Consolas runs in prose are one code span; a text box all in Consolas is a fenced listing", async () => {
    const P = `xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`;
    const mono = '<a:rPr lang="en-US"><a:latin typeface="Consolas"/></a:rPr>';
    const r = (text: string, rPr = "") => `<a:r>${rPr}<a:t>${text}</a:t></a:r>`;
    const shape = (id: number, body: string) => `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="Text ${id}"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr><a:xfrm><a:off x="0" y="${id * 1000}"/></a:xfrm></p:spPr><p:txBody><a:bodyPr/>${body}</p:txBody></p:sp>`;
    const address = `<a:p>${r("Acme Ltd")}<a:br/>${r("1 High Street")}<a:br/>${r("Leeds")}</a:p>`;
    const prose = `<a:p>${r("Run ")}${r("git ", mono)}${r("log", mono)}${r(" to see *all* commits.")}</a:p>`;
    const listing = `<a:p>${r("for i in range(3):", mono)}</a:p><a:p>${r("    print(i * 2)", mono)}</a:p>`;
    const cell = (inner: string) => `<a:tc><a:txBody><a:bodyPr/>${inner}</a:txBody></a:tc>`;
    const table = `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="9" name="Table"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm><a:off x="0" y="9000"/></p:xfrm><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table"><a:tbl><a:tblGrid><a:gridCol w="1"/><a:gridCol w="1"/></a:tblGrid><a:tr h="1">${cell(`<a:p>${r("Name")}</a:p>`)}${cell(`<a:p>${r("Address")}</a:p>`)}</a:tr><a:tr h="1">${cell(`<a:p>${r("Acme")}</a:p>`)}${cell(address)}</a:tr></a:tbl></a:graphicData></a:graphic></p:graphicFrame>`;
    const slide = `<p:sld ${P}><p:cSld><p:spTree>${shape(2, address)}${shape(3, prose)}${shape(4, listing)}${table}</p:spTree></p:cSld></p:sld>`;
    const bytes = deckOf([slide]);
    const { markdown } = await convert(convertPptx, "breaks.pptx", bytes);
    expect(markdown).toContain("Acme Ltd\\\n1 High Street\\\nLeeds");
    expect(markdown).toContain("Run `git log` to see \\*all\\* commits.");
    expect(markdown).toContain("```\nfor i in range(3):\n    print(i * 2)\n```");
    expect(markdown).toContain("| Acme | Acme Ltd<br>1 High Street<br>Leeds |");
  });

  test("PPTX: a deck typed wholly in Courier New is prose (no fence, no code spans); a box in another monospace face (Consolas) on it is still a listing", async () => {
    const P = `xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`;
    const courier = '<a:rPr lang="en-US"><a:latin typeface="Courier New"/></a:rPr>';
    const consolas = '<a:rPr lang="en-US"><a:latin typeface="Consolas"/></a:rPr>';
    const r = (text: string, rPr = courier) => `<a:r>${rPr}<a:t>${text}</a:t></a:r>`;
    const shape = (id: number, body: string) => `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="Text ${id}"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr><a:xfrm><a:off x="0" y="${id * 1000}"/></a:xfrm></p:spPr><p:txBody><a:bodyPr/>${body}</p:txBody></p:sp>`;
    const slide = (shapes: string) => `<p:sld ${P}><p:cSld><p:spTree>${shapes}</p:spTree></p:cSld></p:sld>`;
    const agenda = `<a:p>${r("Our plan for the spring:")}</a:p><a:p>${r("Hire two rangers")}</a:p><a:p>${r("Open the north trail")}</a:p>`;
    const letter = `<a:p>${r("Dear members,")}</a:p><a:p>${r("the meeting moves to the *old* hall.")}</a:p>`;
    const listing = `<a:p>${r("for i in range(3):", consolas)}</a:p><a:p>${r("    print(i)", consolas)}</a:p>`;
    const typewritten = (await convert(convertPptx, "typewriter_deck.pptx", deckOf([slide(shape(2, agenda)), slide(shape(2, letter))]))).markdown;
    expect(typewritten).not.toContain("```");
    expect(typewritten).not.toContain("`");
    expect(typewritten).toContain("Our plan for the spring:\n\nHire two rangers\n\nOpen the north trail");
    expect(typewritten).toContain("Dear members,\n\nthe meeting moves to the \\*old\\* hall.");
    const withListing = (await convert(convertPptx, "typewriter_deck_listing.pptx", deckOf([slide(shape(2, agenda) + shape(3, listing))]))).markdown;
    expect(withListing).toContain("Open the north trail\n\n```\nfor i in range(3):\n    print(i)\n```");
    expect(withListing.match(/```/g)).toHaveLength(2);
  });

  test("formats/pptx_tables_merged_cells_python_pptx.pptx (python-pptx): a table keeps its declared grid when a merged cell spans empty columns", async () => {
    const { markdown } = await convert(convertPptx, "formats/pptx_tables_merged_cells_python_pptx.pptx");
    expect(markdown).toContain("## Slide 2\n\n| merged cell |  |  |\n| --- | --- | --- |\n|  |  |  |\n|  |  |  |\n\n| merged cell |  |  |  |  |\n| --- | --- | --- | --- | --- |");
    expect(markdown).toContain("## Slide 3\n\n| a | b | c |\n| --- | --- | --- |\n| d | e | f |\n| g | h | i |");
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
    // a date format of its own is shown as it is (h/office8); the reader's short date (14) stays ISO
    expect(formatNumber("45306.75", 164, "dd/mm/yyyy hh:mm", false)).toBe("15/01/2024 18:00");
    expect(formatNumber("0.5", 20, "", false)).toBe("12:00");
    expect(formatNumber("59", 14, "", false)).toBe("1900-02-28");
    expect(formatNumber("0.125", 10, "0.00%", false)).toBe("12.50%");
    expect(formatNumber("0.30000000000000004", 0, "General", false)).toBe("0.3");
    // a custom number format is drawn as the sheet shows it (numberFormat.ts; office-number-formats.test.ts has the codes)
    expect(formatNumber("1234.5", 164, '#,##0.00 "m"', false)).toBe("1,234.50 m");
    expect(formatNumber("1234.5", 4, "", false)).toBe("1,234.50"); // a built-in id with no code given: its built-in code (#,##0.00)
    expect(formatNumber("0.125", 10, "", false)).toBe("12.50%");
  });

  test("formats/xlsx_hyperlink_comment_charts_two_sheets.xlsx (excelize): a linked cell as a link, its note under the table, chart numbers as shown; the sheet's three blocks apart", async () => {
    const { markdown } = await convert(convertXlsx, "formats/xlsx_hyperlink_comment_charts_two_sheets.xlsx");
    // A19:B19 "Total: 237", an empty Excel table's header at C21:D21, a link alone at A22: three blocks, not one grid.
    expect(markdown).toStartWith("## Sheet1\n\n| Total: | 237 |\n| --- | --- |\n\n| Column1 | Column2 |\n| --- | --- |\n\n[GitHub](https://github.com/xuri/excelize)\n\n### Chart");
    expect(markdown).toContain("### Comments\n\n- **A22** (Microsoft Office User): Hyperlink test\n\n## Sheet2");
    expect(markdown).toContain("| 20-23 Inch | 24 | DELL | 450 |  |");
    // The charts' cached numbers are stored as "19.0" in the General format, which shows 19.
    expect(markdown).toContain("### Chart: Monitor\n\n| Category | Monitor |\n| --- | --- |\n| > 23 Inch | 19 |\n| 20-23 Inch | 24 |");
  });

  test("a sheet of separate blocks: a title cell, tables apart by empty rows or columns; a spacer row or column inside one table keeps it whole", async () => {
    const cell = (ref: string, text: string) => `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;
    const num = (ref: string, value: number) => `<c r="${ref}"><v>${value}</v></c>`;
    const row = (r: number, cells: string) => `<row r="${r}">${cells}</row>`;
    const sheet =
      `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>` +
      row(1, cell("A1", "Quarterly sales 2026")) +
      row(3, cell("A3", "Region") + cell("B3", "Q1") + cell("C3", "Q2") + cell("E3", "Rep") + cell("F3", "Deals")) +
      row(4, cell("A4", "North") + num("B4", 10) + num("C4", 12) + cell("E4", "Ana") + num("F4", 3)) +
      row(5, cell("A5", "South") + num("B5", 7) + num("C5", 9)) +
      row(7, cell("A7", "West") + num("B7", 4) + num("C7", 5)) +
      row(9, cell("A9", "Item") + cell("B9", "Cost") + cell("D9", "Note")) +
      row(10, cell("A10", "Paint") + num("B10", 30) + cell("D10", "two coats")) +
      `</sheetData><mergeCells count="1"><mergeCell ref="A1:C1"/></mergeCells></worksheet>`;
    const bytes = zipTuples([
      ["_rels/.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`],
      ["xl/workbook.xml", `<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Report" sheetId="1" r:id="rId1"/></sheets></workbook>`],
      ["xl/_rels/workbook.xml.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`],
      ["xl/worksheets/sheet1.xml", sheet],
    ]);
    const { markdown } = await convert(convertXlsx, "report.xlsx", bytes);
    expect(markdown).toContain(
      "## Report\n\nQuarterly sales 2026\n\n" +
        "| Region | Q1 | Q2 |\n| --- | --- | --- |\n| North | 10 | 12 |\n| South | 7 | 9 |\n| West | 4 | 5 |\n\n" +
        "| Rep | Deals |\n| --- | --- |\n| Ana | 3 |\n\n" +
        "| Item | Cost |  | Note |\n| --- | --- | --- | --- |\n| Paint | 30 |  | two coats |",
    );
  });

  test("a sheet of more than 200 scattered blocks (cells alternating between columns A and C on every other row) stays one grid", async () => {
    let rows = "";
    for (let r = 1; r <= 500; r += 2) rows += `<row r="${r}"><c r="${r % 4 === 1 ? "A" : "C"}${r}" t="inlineStr"><is><t>r${r}</t></is></c></row>`;
    const bytes = zipTuples([
      ["_rels/.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`],
      ["xl/workbook.xml", `<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Scatter" sheetId="1" r:id="rId1"/></sheets></workbook>`],
      ["xl/_rels/workbook.xml.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`],
      ["xl/worksheets/sheet1.xml", `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows}</sheetData></worksheet>`],
    ]);
    const { markdown } = await convert(convertXlsx, "scatter.xlsx", bytes);
    expect(markdown).toContain("## Scatter\n\n| r1 |  |  |\n| --- | --- | --- |\n|  |  | r3 |\n| r5 |  |  |");
  });

  test("a text cell in a monospace font (Consolas) is a code span; a number in one stays a number", async () => {
    const sheet =
      `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>` +
      `<row r="1"><c r="A1" t="inlineStr"><is><t>Step</t></is></c><c r="B1" t="inlineStr"><is><t>Command</t></is></c><c r="C1" t="inlineStr"><is><t>Seconds</t></is></c></row>` +
      `<row r="2"><c r="A2" t="inlineStr"><is><t>Build</t></is></c><c r="B2" s="1" t="inlineStr"><is><t>make -j4 *</t></is></c><c r="C2" s="1"><v>12</v></c></row>` +
      `</sheetData></worksheet>`;
    const styles = `<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><fonts count="2"><font><name val="Calibri"/></font><font><name val="Consolas"/></font></fonts><cellXfs count="2"><xf numFmtId="0" fontId="0"/><xf numFmtId="0" fontId="1"/></cellXfs></styleSheet>`;
    const bytes = zipTuples([
      ["_rels/.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`],
      ["xl/workbook.xml", `<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Steps" sheetId="1" r:id="rId1"/></sheets></workbook>`],
      ["xl/_rels/workbook.xml.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`],
      ["xl/worksheets/sheet1.xml", sheet],
      ["xl/styles.xml", styles],
    ]);
    const { markdown } = await convert(convertXlsx, "steps.xlsx", bytes);
    expect(markdown).toContain("| Build | `make -j4 *` | 12 |");
  });

  test("hyperlinks over a range, a cell showing its own address, links inside the workbook, and a threaded comment's note", async () => {
    const cell = (ref: string, text: string) => `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;
    const sheet =
      `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheetData>` +
      `<row r="1">${cell("A1", "Site")}${cell("B1", "Page")}</row><row r="2">${cell("A2", "Docs [beta]")}${cell("B2", "Guide")}</row>` +
      `<row r="3">${cell("A3", "https://example.org/")}${cell("B3", "Totals")}</row></sheetData>` +
      `<hyperlinks><hyperlink ref="A2:B2" r:id="rId1"/><hyperlink ref="A3" r:id="rId2"/><hyperlink ref="B3" location="'Sheet 2'!A1"/></hyperlinks></worksheet>`;
    const comments =
      `<comments xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><authors><author>tc={0A1B}</author><author>Ana</author></authors><commentList>` +
      `<comment ref="B2" authorId="1"><text><r><rPr><b/></rPr><t>Ana:</t></r><r><t xml:space="preserve"> check the | link</t></r></text></comment>` +
      `<comment ref="A3" authorId="0"><text><t>[Threaded comment]\n\nYour version of Excel allows you to read this threaded comment; however, any edits to it will get removed if the file is opened in a newer version of Excel. Learn more: https://go.microsoft.com/fwlink/?linkid=870924\n\nComment:\n    Is this still live?</t></text></comment></commentList></comments>`;
    const bytes = zipTuples([
      ["_rels/.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`],
      ["xl/workbook.xml", `<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Links" sheetId="1" r:id="rId1"/></sheets></workbook>`],
      ["xl/_rels/workbook.xml.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`],
      ["xl/worksheets/sheet1.xml", sheet],
      [
        "xl/worksheets/_rels/sheet1.xml.rels",
        `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="https://example.org/docs (v2)" TargetMode="External"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="https://example.org" TargetMode="External"/><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/comments" Target="../comments1.xml"/></Relationships>`,
      ],
      ["xl/comments1.xml", comments],
    ]);
    const { markdown } = await convert(convertXlsx, "links.xlsx", bytes);
    expect(markdown).toContain("| [Docs \\[beta\\]](https://example.org/docs%20%28v2%29) | [Guide](https://example.org/docs%20%28v2%29) |");
    expect(markdown).toContain("| https://example.org/ | Totals |");
    expect(markdown).toContain("### Comments\n\n- **B2** (Ana): Ana: check the | link\n- **A3** (tc={0A1B}): Is this still live?");
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

