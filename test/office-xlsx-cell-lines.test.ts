/**
 * XLSX cells written by people: a line break typed at the start or end of a cell (Alt+Enter after
 * the last line, as in a sprint plan's "Sprint 1⏎9/27-10/10⏎") is not a line of the cell; the lines
 * between stay lines (`<br>`).
 */
import { expect, test } from "bun:test";
import { convertXlsx } from "../src/convert/xlsx";
import { convertContext } from "./helpers/convert";
import { zipOf } from "./helpers/zip";

const NS = `xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`;

/** workbookOf writes a one-sheet workbook whose cells are inline strings, row by row. */
function workbookOf(rows: string[][]): Uint8Array {
  const cell = (text: string, r: number, c: number) => `<c r="${String.fromCharCode(65 + c)}${r + 1}" t="inlineStr"><is><t xml:space="preserve">${text}</t></is></c>`;
  const sheet = `<worksheet ${NS}><sheetData>${rows.map((row, r) => `<row r="${r + 1}">${row.map((text, c) => cell(text, r, c)).join("")}</row>`).join("")}</sheetData></worksheet>`;
  return zipOf([
    { name: "[Content_Types].xml", data: `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>` },
    { name: "_rels/.rels", data: `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>` },
    { name: "xl/workbook.xml", data: `<workbook ${NS}><sheets><sheet name="Plan" sheetId="1" r:id="rId1"/></sheets></workbook>` },
    { name: "xl/_rels/workbook.xml.rels", data: `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>` },
    { name: "xl/worksheets/sheet1.xml", data: sheet },
  ]);
}

test("a cell's line breaks at its start or end go; the breaks between its lines stay <br> (also Windows line ends, \\r\\n)", async () => {
  const bytes = workbookOf([
    ["Sprint", "Goal", "Notes"],
    ["Sprint 1\n9/27-10/10\n", "\nUser research\n\nBaseline testing\n\n", "Design done\r\n\r\n"],
  ]);
  const { markdown } = await convertXlsx({ bytes, filename: "plan.xlsx", contentType: "application/octet-stream", ext: "xlsx" }, convertContext());
  expect(markdown).toContain("| Sprint 1<br>9/27-10/10 | User research<br><br>Baseline testing | Design done |");
});
