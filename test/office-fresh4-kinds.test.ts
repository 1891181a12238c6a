/**
 * Kinds of loss found on the fourth fresh office group (bench/corpus/office-fresh4, branch h/office10),
 * each on a generated file of the kind: a chart's cached numbers are written as its format code shows
 * them on the chart's labels (`0%` 63%, a point's own code first, a date code as the date), not as the
 * stored fraction; a paragraph in a heading style whose every run is set at the body's size is a bold
 * lead sentence, not a heading, and a line that is a heading only by its own outline level but set in
 * small print is small print; a grid nested in a table's cell is a table of its own after the table;
 * an OLE object that embeds a workbook (a sheet pasted into a slide) is the sheet it shows.
 */
import { expect, test } from "bun:test";
import { convertDocx } from "../src/convert/docx";
import { convertPptx } from "../src/convert/pptx";
import { convert, PRESENTATION_NS, zipTuples } from "./helpers/office";

const W = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`;
const RELS = `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`;
const rel = (id: string, type: string, target: string) => `<Relationship Id="${id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/${type}" Target="${target}"/>`;

/** docx: a document of the given body, styles and extra parts */
function docx(body: string, styles = "", parts: Array<[string, string | Uint8Array]> = [], rels = ""): Uint8Array {
  return zipTuples([
    ["_rels/.rels", RELS],
    ["word/document.xml", `<w:document ${W}><w:body>${body}</w:body></w:document>`],
    ["word/_rels/document.xml.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rel("rId3", "styles", "styles.xml")}${rels}</Relationships>`],
    ["word/styles.xml", `<w:styles ${W}>${styles}</w:styles>`],
    ...parts,
  ]);
}

const C = `xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"`;
const points = (tag: string, format: string, values: string[], own: Record<number, string> = {}) =>
  `<c:${tag}>${format ? `<c:formatCode>${format}</c:formatCode>` : ""}<c:ptCount val="${values.length}"/>${values.map((v, k) => `<c:pt idx="${k}"${own[k] ? ` formatCode="${own[k]}"` : ""}><c:v>${v}</c:v></c:pt>`).join("")}</c:${tag}>`;

/** chartDocx: a document of one paragraph holding a bar chart of the given series */
function chartDocx(series: string): Uint8Array {
  const chart = `<c:chartSpace ${C}><c:date1904 val="0"/><c:chart><c:plotArea><c:barChart>${series}</c:barChart></c:plotArea></c:chart></c:chartSpace>`;
  const drawing = `<w:p><w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"><wp:extent cx="5000000" cy="3000000"/><wp:docPr id="1" name="Chart 1"/><a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" r:id="rId5"/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`;
  return docx(drawing, "", [["word/charts/chart1.xml", chart]], rel("rId5", "chart", "charts/chart1.xml"));
}

test("a chart's cached numbers are written as their format code shows them: a percentage, a point's own code, a date, General", async () => {
  const share = `<c:ser><c:idx val="0"/><c:tx><c:v>Share</c:v></c:tx><c:cat><c:strRef>${points("strCache", "", ["Yes", "No", "Maybe"])}</c:strRef></c:cat><c:val><c:numRef>${points("numCache", "0%", ["0.63", "0.37", "0.125"], { 2: "0.0%" })}</c:numRef></c:val></c:ser>`;
  const count = `<c:ser><c:idx val="1"/><c:tx><c:v>Count</c:v></c:tx><c:val><c:numRef>${points("numCache", "General", ["8.8000000000000007", "1234.5", "7.0"])}</c:numRef></c:val></c:ser>`;
  const { markdown } = await convert(convertDocx, "shares.docx", chartDocx(share + count));
  expect(markdown).toContain("| Category | Share | Count |\n| --- | --- | --- |\n| Yes | 63% | 8.8 |\n| No | 37% | 1234.5 |\n| Maybe | 12.5% | 7 |");
  // dates on the category axis: the serial as its date code shows it
  const dated = `<c:ser><c:idx val="0"/><c:tx><c:v>Visits</c:v></c:tx><c:cat><c:numRef>${points("numCache", "d-mmm-yy", ["44931", "45047"])}</c:numRef></c:cat><c:val><c:numRef>${points("numCache", "#,##0", ["1500", "2250"])}</c:numRef></c:val></c:ser>`;
  const two = await convert(convertDocx, "visits.docx", chartDocx(dated));
  expect(two.markdown).toContain("| 5-Jan-23 | 1,500 |\n| 1-May-23 | 2,250 |");
});

const sized = (text: string, size?: number) => `<w:r>${size ? `<w:rPr><w:sz w:val="${size}"/></w:rPr>` : ""}<w:t xml:space="preserve">${text}</w:t></w:r>`;
const para = (style: string | null, runs: string, outline?: number) =>
  `<w:p><w:pPr>${style ? `<w:pStyle w:val="${style}"/>` : ""}${outline === undefined ? "" : `<w:outlineLvl w:val="${outline}"/>`}</w:pPr>${runs}</w:p>`;
const STYLES =
  `<w:docDefaults><w:rPrDefault><w:rPr><w:sz w:val="22"/></w:rPr></w:rPrDefault></w:docDefaults>` +
  `<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>` +
  `<w:style w:type="paragraph" w:styleId="Heading3"><w:name w:val="heading 3"/><w:basedOn w:val="Normal"/><w:pPr><w:outlineLvl w:val="2"/></w:pPr><w:rPr><w:b/><w:sz w:val="28"/></w:rPr></w:style>`;

test("a heading-styled sentence set at the body's size is a lead sentence; small print with an outline level is small print", async () => {
  const body = [
    para("Heading3", sized("Color Contrast")),
    para("Heading3", sized("Ensure the color contrast between text and background is sufficient.", 22)),
    para(null, sized("Provide a contrast ratio of 4.5:1.")),
    // one run at the heading's size keeps it a heading
    para("Heading3", sized("Use of ", 22) + sized("Color", 28)),
    para(null, sized("Email: office@example.org", 16), 0),
    para(null, sized("Contact us"), 0),
  ].join("");
  const { markdown } = await convert(convertDocx, "leads.docx", docx(body, STYLES));
  expect(markdown).toContain("### Color Contrast\n\nEnsure the color contrast between text and background is sufficient.\n\nProvide a contrast ratio");
  expect(markdown).toContain("### Use of Color");
  expect(markdown).toContain("\n\nEmail: office@example.org\n\n");
  expect(markdown).not.toMatch(/^#+ Email/m);
  // a line at the body's size that is a heading by its own outline level stays a heading (Word's navigation pane lists it)
  expect(markdown).toContain("# Contact us");
});

const cell = (content: string) => `<w:tc>${content}</w:tc>`;
const text = (t: string) => `<w:p><w:r><w:t>${t}</w:t></w:r></w:p>`;
const table = (rows: string[][]) => `<w:tbl>${rows.map((row) => `<w:tr>${row.map(cell).join("")}</w:tr>`).join("")}</w:tbl>`;

test("a grid nested in a table's cell is written as its own table after the table; a nested row stays in its cell", async () => {
  const nested = table([[text("e"), text("f")], [text("g&amp;t"), text("h")]]);
  const row = table([[text("x"), text("y")]]);
  const body = table([
    [text("a"), text("b")],
    [text("c"), nested],
    [text("d"), row],
  ]);
  const { markdown } = await convert(convertDocx, "nested.docx", docx(body));
  expect(markdown).toContain("| a | b |\n| --- | --- |\n| c | *(table below)* |\n| d | x; y |\n\n| e | f |\n| --- | --- |\n| g&t | h |");
  // a grid of blank cells in a cell (a layout, no text) leaves the cell empty and writes no table after it
  const blank = table([[text("a"), table([[text(""), text("")], [text(""), text("")]])], [text("b"), text("c")]]);
  const empty = await convert(convertDocx, "blank.docx", docx(blank));
  expect(empty.markdown).toContain("| a |  |\n| --- | --- |\n| b | c |");
  expect(empty.markdown).not.toContain("table below");
});

/** oleDeck: a one-slide deck whose graphic frame is an OLE object embedding the given workbook (as PowerPoint stores a pasted Excel sheet) */
function oleDeck(workbook: Uint8Array, target = "../embeddings/Microsoft_Excel_Worksheet1.xlsx"): Uint8Array {
  const frame = `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="4" name="Object 3"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm><a:off x="100" y="100"/><a:ext cx="5000000" cy="2000000"/></p:xfrm><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/presentationml/2006/ole"><p:oleObj name="Worksheet" r:id="rId2" progId="Excel.Sheet.12"><p:embed/></p:oleObj></a:graphicData></a:graphic></p:graphicFrame>`;
  const slide = `<p:sld ${PRESENTATION_NS}><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>${frame}</p:spTree></p:cSld></p:sld>`;
  const deck = [
    ["_rels/.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="ppt/presentation.xml"/></Relationships>`],
    ["ppt/presentation.xml", `<p:presentation ${PRESENTATION_NS}><p:sldIdLst><p:sldId id="256" r:id="rId2"/></p:sldIdLst></p:presentation>`],
    ["ppt/_rels/presentation.xml.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slide" Target="slides/slide1.xml"/></Relationships>`],
    ["ppt/slides/slide1.xml", slide],
    ["ppt/slides/_rels/slide1.xml.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/package" Target="${target}"/></Relationships>`],
    ["ppt/embeddings/Microsoft_Excel_Worksheet1.xlsx", workbook],
  ] as Array<[string, string | Uint8Array]>;
  return zipTuples(deck);
}

const X = `xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`;
const inline = (ref: string, text: string) => `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;

/** salesWorkbook: a workbook of two sheets whose second, active one holds a table of percentages */
function salesWorkbook(): Uint8Array {
  const sheet = (rows: string) => `<worksheet ${X}><sheetData>${rows}</sheetData></worksheet>`;
  const workbook = zipTuples([
    ["_rels/.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`],
    ["xl/workbook.xml", `<workbook ${X}><bookViews><workbookView activeTab="1"/></bookViews><sheets><sheet name="Notes" sheetId="1" r:id="rId1"/><sheet name="Sales" sheetId="2" r:id="rId2"/></sheets></workbook>`],
    ["xl/_rels/workbook.xml.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet2.xml"/><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`],
    ["xl/styles.xml", `<styleSheet ${X}><numFmts count="1"><numFmt numFmtId="164" formatCode="0.0%"/></numFmts><cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="164" applyNumberFormat="1"/></cellXfs></styleSheet>`],
    ["xl/worksheets/sheet1.xml", sheet(`<row r="1">${inline("A1", "not shown")}</row>`)],
    ["xl/worksheets/sheet2.xml", sheet(`<row r="1">${inline("A1", "Region")}${inline("B1", "Share")}</row><row r="2">${inline("A2", "North")}<c r="B2" s="1"><v>0.125</v></c></row><row r="3">${inline("A3", "South")}<c r="B3" s="1"><v>0.875</v></c></row>`)],
  ]);
  return workbook;
}

test("an OLE object that embeds a workbook is written as the sheet it shows (the active sheet, numbers as formatted)", async () => {
  const { markdown } = await convert(convertPptx, "ole.pptx", oleDeck(salesWorkbook()));
  expect(markdown).toContain("| Region | Share |\n| --- | --- |\n| North | 12.5% |\n| South | 87.5% |");
  expect(markdown).not.toContain("not shown");
  // the same sheet pasted into a Word document (w:object, its picture a VML shape)
  const object = `<w:p><w:r><w:t>Sales by region:</w:t></w:r><w:r><w:object><v:shape xmlns:v="urn:schemas-microsoft-com:vml" id="_x0000_i1025" style="width:300pt;height:80pt"><v:imagedata xmlns:o="urn:schemas-microsoft-com:office:office" r:id="rId8" o:title=""/></v:shape><o:OLEObject xmlns:o="urn:schemas-microsoft-com:office:office" Type="Embed" ProgID="Excel.Sheet.12" ShapeID="_x0000_i1025" DrawAspect="Content" ObjectID="_1" r:id="rId7"/></w:object></w:r></w:p>`;
  const word = docx(object, "", [["word/embeddings/Microsoft_Excel_Worksheet.xlsx", salesWorkbook()] as [string, Uint8Array]], rel("rId7", "package", "embeddings/Microsoft_Excel_Worksheet.xlsx") + rel("rId8", "image", "media/image1.emf"));
  const two = await convert(convertDocx, "ole.docx", word);
  expect(two.markdown).toContain("Sales by region:\n\n| Region | Share |\n| --- | --- |\n| North | 12.5% |\n| South | 87.5% |");
  expect(two.markdown).not.toContain("image1.emf");
});
