/**
 * XLSX date and time cells as the sheet shows them (issue 16, items 4-5; branch h/office8,
 * numberFormat.ts renderDateFormat): a cell formatted `dd/mm/yyyy`, `mmm-yy`, `mmmm d, yyyy`,
 * `h:mm AM/PM` reads as Excel shows it; the reader's short date (built-in 14, and LibreOffice's
 * locale default in a workbook it wrote) stays ISO, as do formats that name the system's long date
 * or another language's month names. On a generated workbook.
 */
import { expect, test } from "bun:test";
import { renderDateFormat } from "../src/convert/numberFormat";
import { convertXlsx, formatNumber } from "../src/convert/xlsx";
import { convert, zipTuples } from "./helpers/office";

const X = `xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`;

/** workbook: one sheet, a row per [label, serial, numFmtId], the custom codes given; app names the program that wrote it */
function workbook(rows: Array<[string, number, number]>, codes: Record<number, string>, app = "Microsoft Excel"): Uint8Array {
  const ids = [...new Set(rows.map((r) => r[2]))];
  const numFmts = Object.entries(codes).map(([id, code]) => `<numFmt numFmtId="${id}" formatCode="${code.replace(/&/g, "&amp;").replace(/"/g, "&quot;")}"/>`).join("");
  const xfs = ids.map((id) => `<xf numFmtId="${id}" fontId="0"/>`).join("");
  const data = rows.map(([label, serial, id], i) => `<row r="${i + 1}"><c r="A${i + 1}" t="inlineStr"><is><t>${label}</t></is></c><c r="B${i + 1}" s="${ids.indexOf(id)}"><v>${serial}</v></c></row>`).join("");
  return zipTuples([
    ["_rels/.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`],
    ["docProps/app.xml", `<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"><Application>${app}</Application></Properties>`],
    ["xl/workbook.xml", `<workbook ${X}><sheets><sheet name="Dates" sheetId="1" r:id="rId1"/></sheets></workbook>`],
    ["xl/_rels/workbook.xml.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`],
    ["xl/styles.xml", `<styleSheet ${X}><numFmts>${numFmts}</numFmts><fonts><font><name val="Calibri"/></font></fonts><cellXfs>${xfs}</cellXfs></styleSheet>`],
    ["xl/worksheets/sheet1.xml", `<worksheet ${X}><sheetData>${data}</sheetData></worksheet>`],
  ]);
}

/** 2023-03-15 13:30 */
const SERIAL = 45000.5625;

test("date and time cells read as their format shows them; the reader's short date stays ISO", async () => {
  const codes = { 164: "dd/mm/yyyy", 165: "mmm-yy", 166: "[$-409]mmmm\\ d\\,\\ yyyy;@", 167: "[$-F800]dddd\\,\\ mmmm\\ dd\\,\\ yyyy", 168: "[$-407]dd. mmmm yyyy", 169: "[$-407]dd.mm.yyyy", 170: "d-mmm-yy h:mm:ss", 171: "0.0%", 172: "#,##0.00 [$€-407]" };
  const rows: Array<[string, number, number]> = [
    ["short date", SERIAL, 14],
    ["day first", SERIAL, 164],
    ["month and year", SERIAL, 165],
    ["long US", SERIAL, 166],
    ["system long date", SERIAL, 167],
    ["German names", SERIAL, 168],
    ["German digits", SERIAL, 169],
    ["date and time", SERIAL, 170],
    ["built-in 15", SERIAL, 15],
    ["built-in 17", SERIAL, 17],
    ["built-in 18", SERIAL, 18],
    ["built-in 21", SERIAL, 21],
    ["built-in 46", 1.5, 46],
    ["percent", 0.1234, 171],
    ["euro", 1234.5, 172],
  ];
  const { markdown } = await convert(convertXlsx, "dates.xlsx", workbook(rows, codes));
  for (const line of [
    "| short date | 2023-03-15 |",
    "| day first | 15/03/2023 |",
    "| month and year | Mar-23 |",
    "| long US | March 15, 2023 |",
    "| system long date | 2023-03-15 |",
    "| German names | 15. März 2023 |",
    "| German digits | 15.03.2023 |",
    "| date and time | 15-Mar-23 13:30:00 |",
    "| built-in 15 | 15-Mar-23 |",
    "| built-in 17 | Mar-23 |",
    "| built-in 18 | 1:30 PM |",
    "| built-in 21 | 13:30:00 |",
    "| built-in 46 | 36:00:00 |",
    "| percent | 12.3% |",
    "| euro | 1,234.50 € |",
  ]) expect(markdown).toContain(line);
});

test("LibreOffice's locale default date in a workbook LibreOffice wrote is the reader's short date: ISO; the same code from Excel is shown", async () => {
  const codes = { 164: "mm/dd/yy", 165: "mm/dd/yy\\ hh:mm\\ AM/PM" };
  const rows: Array<[string, number, number]> = [
    ["date", SERIAL, 164],
    ["stamp", SERIAL, 165],
  ];
  const fromLibreOffice = (await convert(convertXlsx, "lo.xlsx", workbook(rows, codes, "LibreOffice/7.4.7.2$Linux_X86_64 LibreOffice_project/40$Build-2"))).markdown;
  expect(fromLibreOffice).toContain("| date | 2023-03-15 |");
  expect(fromLibreOffice).toContain("| stamp | 2023-03-15 13:30:00 |");
  const fromExcel = (await convert(convertXlsx, "excel.xlsx", workbook(rows, codes))).markdown;
  expect(fromExcel).toContain("| date | 03/15/23 |");
  expect(fromExcel).toContain("| stamp | 03/15/23 01:30 PM |");
});

test("renderDateFormat: minutes beside hours or seconds, names, 12-hour clock, fractions of a second, elapsed time, literals", () => {
  expect(renderDateFormat(SERIAL, "yyyy-mm-dd hh:mm", false)).toBe("2023-03-15 13:30");
  expect(renderDateFormat(SERIAL, "dddd, d mmmm yyyy", false)).toBe("Wednesday, 15 March 2023");
  expect(renderDateFormat(SERIAL, "ddd d mmm", false)).toBe("Wed 15 Mar");
  expect(renderDateFormat(SERIAL, "mmmmm", false)).toBe("M");
  expect(renderDateFormat(SERIAL, "h:mm a/p", false)).toBe("1:30 p");
  expect(renderDateFormat(0.5 + 1.5 / 86_400, "hh:mm:ss.00", false)).toBe("12:00:01.50");
  expect(renderDateFormat(2.25, "[h]:mm", false)).toBe("54:00");
  expect(renderDateFormat(2.25, "[mm]:ss", false)).toBe("3240:00");
  expect(renderDateFormat(SERIAL, 'yyyy"年"m"月"d"日"', false)).toBe("2023年3月15日");
  expect(renderDateFormat(SERIAL - 1462, "dd/mm/yyyy", true)).toBe("15/03/2023");
  // hours and minutes show no rounding up past what the code shows (13:30:45 reads 13:30)
  expect(renderDateFormat(SERIAL + 45 / 86_400, "hh:mm", false)).toBe("13:30");
  // eras and Buddhist years, a system format, a negative serial: left to the caller's ISO
  expect(renderDateFormat(SERIAL, "ge.m.d", false)).toBeNull();
  expect(renderDateFormat(SERIAL, "[$-x-sysdate]dddd, mmmm dd, yyyy", false)).toBeNull();
  expect(renderDateFormat(-1, "dd/mm/yyyy", false)).toBeNull();
});

test("renderDateFormat: another language's full month and day names by the locale tag; its short names and unknown languages stay ISO", () => {
  expect(renderDateFormat(SERIAL, "[$-407]dd. mmmm yyyy", false)).toBe("15. März 2023");
  expect(renderDateFormat(SERIAL, "[$-407]dddd, d. mmmm yyyy", false)).toBe("Mittwoch, 15. März 2023");
  expect(renderDateFormat(SERIAL - 73, "[$-C07]d. mmmm yyyy", false)).toBe("1. Jänner 2023");
  expect(renderDateFormat(SERIAL, "[$-40C]dddd d mmmm yyyy", false)).toBe("mercredi 15 mars 2023");
  expect(renderDateFormat(SERIAL, "[$-C0A]d \\d\\e mmmm \\d\\e yyyy", false)).toBe("15 de marzo de 2023");
  expect(renderDateFormat(SERIAL, "[$-410]d mmmm yyyy", false)).toBe("15 marzo 2023");
  expect(renderDateFormat(SERIAL, "[$-413]d mmmm yyyy", false)).toBe("15 maart 2023");
  expect(renderDateFormat(SERIAL, "[$-416]d \"de\" mmmm \"de\" yyyy", false)).toBe("15 de março de 2023");
  expect(renderDateFormat(SERIAL, "[$-809]dd mmmm yyyy", false)).toBe("15 March 2023");
  expect(renderDateFormat(SERIAL, "[$-407]dd. mmmmm", false)).toBe("15. M");
  // short names vary by system (Mrz or Mär): left to the caller's ISO text; so a language without names here (Polish, Japanese)
  expect(renderDateFormat(SERIAL, "[$-407]dd. mmm yy", false)).toBeNull();
  expect(renderDateFormat(SERIAL, "[$-40C]ddd d mmmm", false)).toBeNull();
  expect(renderDateFormat(SERIAL, "[$-415]d mmmm yyyy", false)).toBeNull();
  expect(renderDateFormat(SERIAL, "[$-411]yyyy mmmm d", false)).toBeNull();
  // digits only in any language
  expect(renderDateFormat(SERIAL, "[$-415]dd.mm.yyyy", false)).toBe("15.03.2023");
});

test("a hostile date format stays bounded: 100 000 characters", () => {
  const started = performance.now();
  for (const code of ["d".repeat(100_000), `${'"x'.repeat(50_000)}`, "[".repeat(100_000), "h:".repeat(50_000), `dd/mm/yyyy${"\\ ".repeat(50_000)}`]) {
    renderDateFormat(SERIAL, code, false);
    formatNumber(String(SERIAL), 164, code, false);
  }
  expect(performance.now() - started).toBeLessThan(1000);
});
