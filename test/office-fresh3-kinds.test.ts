/**
 * Kinds of loss found on the third fresh office group (bench/corpus/office-fresh3, branch h/office9),
 * each on a generated file of the kind: a picture inside a heading paragraph (a newsletter's masthead
 * before its title, a "top of page" icon after each section heading) is written beside the heading,
 * not inside it, so the heading's text is its words; a sheet's table is not cut apart at an empty
 * spacer column (an index's `Page` column past an empty column, a header's column groups) nor at one
 * empty spacer row under its header, while two tables two empty rows apart stay two tables and a cell
 * of spaces is empty; a chart's axis titles are written (the category axis's names the category
 * column, a value axis's is a line under the chart's heading).
 */
import { expect, test } from "bun:test";
import { convertDocx } from "../src/convert/docx";
import { convertXlsx } from "../src/convert/xlsx";
import { convert, zipTuples } from "./helpers/office";

const W = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`;
const RELS = `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`;
const r = (text: string) => `<w:r><w:t xml:space="preserve">${text}</w:t></w:r>`;
const styled = (style: string, runs: string) => `<w:p><w:pPr><w:pStyle w:val="${style}"/></w:pPr>${runs}</w:p>`;

/** picture: an inline picture run whose blip is linked to the given relationship, with a description */
const picture = (relId: string, descr: string) =>
  `<w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"><wp:extent cx="200025" cy="200025"/><wp:docPr id="5" name="Picture 5" descr="${descr}"/><a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:blipFill><a:blip r:link="${relId}"/></pic:blipFill></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r>`;

/** headed: a document of the given body with Heading1 and Heading2 styles and two linked pictures */
function headed(body: string): Uint8Array {
  const styles = `<w:styles ${W}><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style><w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/></w:style></w:styles>`;
  const rel = (id: string, type: string, target: string, external = false) =>
    `<Relationship Id="${id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/${type}" Target="${target}"${external ? ` TargetMode="External"` : ""}/>`;
  return zipTuples([
    ["_rels/.rels", RELS],
    ["word/document.xml", `<w:document ${W}><w:body>${body}</w:body></w:document>`],
    ["word/_rels/document.xml.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rel("rId3", "styles", "styles.xml")}${rel("rId8", "image", "https://example.org/masthead.png", true)}${rel("rId9", "image", "https://example.org/top.gif", true)}</Relationships>`],
    ["word/styles.xml", styles],
  ]);
}

test("a picture inside a heading is written beside it: before the heading when it leads, after it otherwise", async () => {
  const body = [
    styled("Heading1", `${picture("rId8", "Masthead")}${r(" Listserv Announcements May 12, 2004")}`),
    styled("Heading2", `${r("CALL FOR ABSTRACTS")}${r("   ")}${picture("rId9", "top of page")}`),
    `<w:p>${r("The deadline has been extended.")}</w:p>`,
    styled("Heading2", picture("rId9", "a heading of a picture only")),
  ].join("");
  const { markdown } = await convert(convertDocx, "newsletter.docx", headed(body));
  expect(markdown).toContain("![Masthead](https://example.org/masthead.png)\n\n# Listserv Announcements May 12, 2004\n");
  expect(markdown).toContain("## CALL FOR ABSTRACTS\n\n![top of page](https://example.org/top.gif)\n\nThe deadline has been extended.");
  // a heading paragraph of a picture only is that picture, not an empty heading
  expect(markdown).toContain("The deadline has been extended.\n\n![a heading of a picture only](https://example.org/top.gif)");
  expect(markdown).not.toMatch(/^#+ .*!\[/m);
});

const X = `xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`;

/** workbook: a one-sheet workbook of inline-string cells (by reference) */
function workbook(cells: Record<string, string>): Uint8Array {
  const rows = new Map<number, string[]>();
  for (const [ref, text] of Object.entries(cells)) {
    const r = Number(/\d+$/.exec(ref)![0]);
    rows.set(r, [...(rows.get(r) ?? []), `<c r="${ref}" t="inlineStr"><is><t xml:space="preserve">${text}</t></is></c>`]);
  }
  const data = [...rows.entries()].sort((a, b) => a[0] - b[0]).map(([r, cs]) => `<row r="${r}">${cs.join("")}</row>`).join("");
  return zipTuples([
    ["_rels/.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`],
    ["xl/workbook.xml", `<workbook ${X}><sheets><sheet name="Index" sheetId="1" r:id="rId1"/></sheets></workbook>`],
    ["xl/_rels/workbook.xml.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`],
    ["xl/worksheets/sheet1.xml", `<worksheet ${X}><sheetData>${data}</sheetData></worksheet>`],
  ]);
}

test("a column past one or two empty spacer columns, ending at the table's last row, is a column of the table", async () => {
  // an index: a title row, then Topic | Period (| FY 23) with its Page column past an empty column E (and D)
  const cells: Record<string, string> = { B3: "Financial performance", B4: "Topic", C4: "Period", F4: "Page", B5: "Quarterly revenue", C5: "Nine quarters", F5: "1", B6: "Cash flow", C6: "FY 22", D6: "FY 23", F6: "2" };
  const { markdown } = await convert(convertXlsx, "index.xlsx", workbook(cells));
  expect(markdown).toContain("| Financial performance |  |  |  |  |\n| --- | --- | --- | --- | --- |\n| Topic | Period |  |  | Page |\n| Quarterly revenue | Nine quarters |  |  | 1 |\n| Cash flow | FY 22 | FY 23 |  | 2 |");
});

test("a header's column groups over one empty spacer row are the header of the table below", async () => {
  // header rows 1-2 split by empty columns D and H, an empty row 3, then the data; a second table two empty rows further down
  const cells: Record<string, string> = {
    A1: "In millions", I1: "Jan-Jun 2023", B2: "Sales", C2: "Profit", E2: "Other income", F2: "Impairment", I2: "Depreciation",
    A4: "Zone NA", B4: "12,553", C4: "2,713", E4: "(81)", F4: "(29)", I4: "(337)",
    A5: "Total", B5: "46,293", C5: "7,904", E5: "(553)", F5: "(110)", I5: "(1,722)",
    A8: "In millions", I8: "Jan-Jun 2022", B9: "Sales", C9: "Profit", E9: "Other income", F9: "Impairment", I9: "Depreciation",
    A11: "Zone NA", B11: "12,138", C11: "2,284", E11: "(455)", F11: "(33)", I11: "(348)", J11: " ",
  };
  const { markdown } = await convert(convertXlsx, "segments.xlsx", workbook(cells));
  const table = (year: string, rows: string) => `| In millions |  |  |  |  |  |  |  | Jan-Jun ${year} |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n|  | Sales | Profit |  | Other income | Impairment |  |  | Depreciation |\n${rows}`;
  expect(markdown).toContain(`${table("2023", "| Zone NA | 12,553 | 2,713 |  | (81) | (29) |  |  | (337) |\n| Total | 46,293 | 7,904 |  | (553) | (110) |  |  | (1,722) |")}\n\n${table("2022", "| Zone NA | 12,138 | 2,284 |  | (455) | (33) |  |  | (348) |")}`);
});

test("labels past an empty column beside a block that ends lower stay apart", async () => {
  const cells: Record<string, string> = { A1: "Gradient", A2: "Pattern", A3: "Borders", C1: "1", D1: "1", C2: "2", D2: "2", C3: "3", D3: "3", C4: "Data Bar", D4: "Color Scale" };
  const { markdown } = await convert(convertXlsx, "styles.xlsx", workbook(cells));
  expect(markdown).toContain("Gradient\n\nPattern\n\nBorders");
  expect(markdown).toContain("| 1 | 1 |\n| --- | --- |\n| 2 | 2 |\n| 3 | 3 |\n| Data Bar | Color Scale |");
});

test("a sheet of many runs past spacer columns stays bounded", async () => {
  const cells: Record<string, string> = {};
  const col = (n: number) => (n < 26 ? String.fromCharCode(65 + n) : String.fromCharCode(64 + Math.floor(n / 26)) + String.fromCharCode(65 + (n % 26)));
  for (let r = 1; r <= 400; r++) for (let c = 0; c < 600; c += 2) cells[`${col(c)}${r}`] = "x";
  const started = performance.now();
  const { markdown } = await convert(convertXlsx, "wide.xlsx", workbook(cells));
  expect(performance.now() - started).toBeLessThan(30_000);
  expect(markdown).toContain("| x |");
});

/** chartDocx: a document of one paragraph holding a chart of the given plot (chart type elements and axes) */
function chartDocx(plot: string): Uint8Array {
  const C = `xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"`;
  const chart = `<c:chartSpace ${C}><c:chart><c:title><c:tx><c:rich><a:p><a:r><a:t>Revenue</a:t></a:r></a:p></c:rich></c:tx></c:title><c:plotArea>${plot}</c:plotArea></c:chart></c:chartSpace>`;
  const drawing = `<w:p><w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"><wp:extent cx="5000000" cy="3000000"/><wp:docPr id="1" name="Chart 1"/><a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" r:id="rId5"/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`;
  return zipTuples([
    ["_rels/.rels", RELS],
    ["word/document.xml", `<w:document ${W}><w:body>${drawing}</w:body></w:document>`],
    ["word/_rels/document.xml.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId5" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/chart" Target="charts/chart1.xml"/></Relationships>`],
    ["word/charts/chart1.xml", chart],
  ]);
}

const points = (tag: string, values: string[]) => `<c:${tag}><c:ptCount val="${values.length}"/>${values.map((v, k) => `<c:pt idx="${k}"><c:v>${v}</c:v></c:pt>`).join("")}</c:${tag}>`;
const axisTitle = (text: string) => `<c:title><c:tx><c:rich><a:p><a:r><a:t>${text}</a:t></a:r></a:p></c:rich></c:tx></c:title>`;

test("a chart's axis titles are written: the category axis's names the category column, a value axis's is a line", async () => {
  const ser = `<c:ser><c:idx val="0"/><c:tx><c:v>Sales</c:v></c:tx><c:cat><c:strRef>${points("strCache", ["Q1", "Q2"])}</c:strRef></c:cat><c:val><c:numRef>${points("numCache", ["12", "15"])}</c:numRef></c:val></c:ser>`;
  const bar = `<c:barChart>${ser}</c:barChart><c:catAx><c:axId val="1"/><c:delete val="0"/><c:axPos val="b"/>${axisTitle("Quarter")}</c:catAx><c:valAx><c:axId val="2"/><c:delete val="0"/><c:axPos val="l"/>${axisTitle("CHF m")}</c:valAx><c:valAx><c:axId val="3"/><c:delete val="1"/><c:axPos val="r"/>${axisTitle("hidden axis")}</c:valAx>`;
  const { markdown } = await convert(convertDocx, "bar.docx", chartDocx(bar));
  expect(markdown).toContain("### Chart: Revenue\n\nValue axis: CHF m\n\n| Quarter | Sales |\n| --- | --- |\n| Q1 | 12 |\n| Q2 | 15 |");
  expect(markdown).not.toContain("hidden axis");
  // a scatter chart: its horizontal value axis names the first column
  const xy = `<c:ser><c:idx val="0"/><c:tx><c:v>Run 1</c:v></c:tx><c:xVal><c:numRef>${points("numCache", ["0.5", "1"])}</c:numRef></c:xVal><c:yVal><c:numRef>${points("numCache", ["3", "4"])}</c:numRef></c:yVal></c:ser>`;
  const scatter = `<c:scatterChart>${xy}</c:scatterChart><c:valAx><c:axId val="1"/><c:axPos val="b"/>${axisTitle("Time (s)")}</c:valAx><c:valAx><c:axId val="2"/><c:axPos val="l"/>${axisTitle("Speed")}</c:valAx>`;
  const two = await convert(convertDocx, "scatter.docx", chartDocx(scatter));
  expect(two.markdown).toContain("Value axis: Speed\n\n| Time (s) | Run 1 |\n| --- | --- |\n| 0.5 | 3 |");
});
