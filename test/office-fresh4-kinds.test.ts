/**
 * Kinds of loss found on the fourth fresh office group (bench/corpus/office-fresh4, branch h/office10),
 * each on a generated file of the kind: a chart's cached numbers are written as its format code shows
 * them on the chart's labels (`0%` 63%, a point's own code first, a date code as the date), not as the
 * stored fraction; a paragraph in a heading style whose every run is set at the body's size is a bold
 * lead sentence, not a heading, and a line that is a heading only by its own outline level but set in
 * small print is small print; a grid nested in a table's cell is a table of its own after the table.
 */
import { expect, test } from "bun:test";
import { convertDocx } from "../src/convert/docx";
import { convert, zipTuples } from "./helpers/office";

const W = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`;
const RELS = `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`;
const rel = (id: string, type: string, target: string) => `<Relationship Id="${id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/${type}" Target="${target}"/>`;

/** docx: a document of the given body, styles and extra parts */
function docx(body: string, styles = "", parts: Array<[string, string]> = [], rels = ""): Uint8Array {
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
