/**
 * Kinds of loss found on the second fresh office group (bench/corpus/office-fresh2, branch h/office7),
 * each on a generated file of the kind: list items of one level are siblings also when the list opens
 * at a deeper level (a licence's definitions 1.1-1.6 after a paragraph); a list per level, each new list
 * indented under the item above (a declaration's signatories), nests as the page shows it; a numbered
 * paragraph made a heading only by its own outline level shows its number as a list item; the labels
 * of a drawing's DrawingML shapes (Word 2007's locked canvas, a diagram of boxes) are read, row by row;
 * a sheet's block whose cells are merged column pairs (A:B, C:D) is one table, not cut into one-column
 * lists at the merged-over columns; a chart whose title is Office's automatic one (an empty c:title)
 * is titled by its one series' name, as Word and PowerPoint show it.
 */
import { expect, test } from "bun:test";
import { convertDocx } from "../src/convert/docx";
import { convertXlsx } from "../src/convert/xlsx";
import { convert, zipTuples } from "./helpers/office";

const W = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`;
const RELS = `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`;
const DOC_RELS = `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/numbering" Target="numbering.xml"/></Relationships>`;

/** level: one w:lvl of an abstract numbering definition */
const level = (ilvl: number, format: string, text: string, left: number) =>
  `<w:lvl w:ilvl="${ilvl}"><w:start w:val="1"/><w:numFmt w:val="${format}"/><w:lvlText w:val="${text}"/><w:pPr><w:ind w:left="${left}" w:hanging="360"/></w:pPr></w:lvl>`;

/** docx: a document of the given body, with the given abstract numberings (abstractNum i is numId i + 1) */
function docx(body: string, abstracts: string[]): Uint8Array {
  const numbering = `<w:numbering ${W}>${abstracts.map((levels, i) => `<w:abstractNum w:abstractNumId="${i}">${levels}</w:abstractNum>`).join("")}${abstracts.map((_, i) => `<w:num w:numId="${i + 1}"><w:abstractNumId w:val="${i}"/></w:num>`).join("")}</w:numbering>`;
  return zipTuples([
    ["_rels/.rels", RELS],
    ["word/document.xml", `<w:document ${W}><w:body>${body}</w:body></w:document>`],
    ["word/_rels/document.xml.rels", DOC_RELS],
    ["word/numbering.xml", numbering],
  ]);
}

/** p: a paragraph of the given text and paragraph properties */
const p = (text: string, pPr = "") => `<w:p>${pPr ? `<w:pPr>${pPr}</w:pPr>` : ""}<w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;
/** item: a paragraph of list numId at level ilvl */
const item = (text: string, numId: number, ilvl: number, more = "") => p(text, `<w:numPr><w:ilvl w:val="${ilvl}"/><w:numId w:val="${numId}"/></w:numPr>${more}`);

test("items of one level are siblings when their list opens at a deeper level", async () => {
  const legal = level(0, "decimal", "%1", 360) + level(1, "decimal", "%1.%2", 360) + level(2, "decimal", "%1.%2.%3", 720);
  const body = [
    p("The following definitions are added."),
    item("“Faculty” shall mean any personnel.", 1, 1),
    item("“Product” shall have the same meaning.", 1, 1),
    item("“Students” shall mean students.", 1, 1),
    item("a clause under the last definition", 1, 2),
    item("“Staff” shall mean any personnel.", 1, 1),
  ].join("");
  const { markdown } = await convert(convertDocx, "legal.docx", docx(body, [legal]));
  // the legal labels as the page shows them (h/office8: wordNumbering.ts), nesting as before
  expect(markdown).toContain("- 1.1 “Faculty” shall mean any personnel.\n- 1.2 “Product” shall have the same meaning.\n- 1.3 “Students” shall mean students.\n  - 1.3.1 a clause under the last definition\n- 1.4 “Staff” shall mean any personnel.");
});

test("a new list indented under the item above nests under it; back at the margin it is a sibling again", async () => {
  const at = (left: number) => level(0, "bullet", "•", left) + level(1, "bullet", "◦", left + 720);
  const body = [
    item("Consumers International", 1, 0),
    item("Medecins sans Frontieres", 1, 0),
    item("International Federation of Library Associations", 2, 0),
    item("Martin Khor, Third World Network", 3, 0),
    item("Cory Doctorow, Electronic Frontier Foundation", 3, 0),
    item("Paul A. David, Stanford University", 1, 0),
    item("Philippe Aigrain, Society for Public Information Spaces", 1, 1),
    item("Jean Claude Guedon, University of Montreal", 4, 0),
  ].join("");
  // lists 1 and 4 at the margin (720 twips), list 2 one step in (1080), list 3 two steps in (1440)
  const { markdown } = await convert(convertDocx, "levels.docx", docx(body, [at(720), at(1080), at(1440), at(720)]));
  expect(markdown).toContain(
    "- Consumers International\n- Medecins sans Frontieres\n  - International Federation of Library Associations\n    - Martin Khor, Third World Network\n    - Cory Doctorow, Electronic Frontier Foundation\n- Paul A. David, Stanford University\n  - Philippe Aigrain, Society for Public Information Spaces",
  );
  expect(markdown).toMatch(/\n\n- Jean Claude Guedon, University of Montreal/);
});

test("a numbered paragraph that is a heading only by its own outline level is a numbered item; a heading style stays a heading", async () => {
  const decimal = level(0, "decimal", "%1.", 720);
  const outline = `<w:outlineLvl w:val="0"/>`;
  const body = [
    p("SmartArt", outline),
    item("add work art", 1, 0, outline),
    item("add picture", 1, 0, outline),
    item("fill with pic", 1, 0, outline),
  ].join("");
  const { markdown } = await convert(convertDocx, "outline.docx", docx(body, [decimal]));
  expect(markdown).toContain("1. add work art\n2. add picture\n3. fill with pic");
  expect(markdown).toContain("# SmartArt");
  expect(markdown).not.toContain("# add work art");
});

/** canvas: a paragraph holding a locked canvas of the given shapes (each a label at x, y, of height h) */
function canvas(shapes: Array<{ text: string; x: number; y: number; h?: number }>): string {
  const sp = (s: { text: string; x: number; y: number; h?: number }, i: number) =>
    `<a:sp><a:nvSpPr><a:cNvPr id="${i + 2}" name="Box ${i}"/><a:cNvSpPr/></a:nvSpPr><a:spPr><a:xfrm><a:off x="${s.x}" y="${s.y}"/><a:ext cx="900000" cy="${s.h ?? 300000}"/></a:xfrm></a:spPr><a:txSp><a:txBody><a:bodyPr/>${s.text.split("|").map((line) => `<a:p><a:r><a:t>${line.replace("/", "</a:t></a:r><a:br/><a:r><a:t>")}</a:t></a:r></a:p>`).join("")}</a:txBody></a:txSp></a:sp>`;
  const A = `xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"`;
  return `<w:p><w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"><wp:extent cx="5000000" cy="3000000"/><wp:docPr id="1" name="Diagram"/><a:graphic ${A}><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/lockedCanvas"><lc:lockedCanvas xmlns:lc="http://schemas.openxmlformats.org/drawingml/2006/lockedCanvas"><a:nvGrpSpPr><a:cNvPr id="1" name=""/><a:cNvGrpSpPr/></a:nvGrpSpPr><a:grpSpPr/>${shapes.map(sp).join("")}</lc:lockedCanvas></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`;
}

test("a locked canvas's shapes give their labels, row by row and left to right in a row", async () => {
  const body =
    p("The following diagram illustrates the components.") +
    canvas([
      { text: "System Support", x: 100, y: 4_000_000 },
      { text: "Content Reuse", x: 3_000_000, y: 1_264_488 },
      { text: "User Applications", x: 100, y: 1_000_000, h: 200_000 },
      { text: "Content Search", x: 1_000_000, y: 1_264_490 },
      { text: "Document Manipulation", x: 4_000_000, y: 1_264_400 },
      { text: "Open XML App Level/Validation", x: 2_000_000, y: 1_264_488 },
      { text: "Stream Reading|Writing", x: 100, y: 3_000_000 },
    ]) +
    p("After the diagram.");
  const { markdown } = await convert(convertDocx, "canvas.docx", docx(body, []));
  expect(markdown).toContain(
    "The following diagram illustrates the components.\n\nUser Applications\n\nContent Search\n\nOpen XML App Level Validation\n\nContent Reuse\n\nDocument Manipulation\n\nStream Reading\\\nWriting\n\nSystem Support\n\nAfter the diagram.",
  );
});

test("a canvas of 10 000 labelled shapes is read up to its bound, quickly", async () => {
  const shapes = Array.from({ length: 10_000 }, (_, i) => ({ text: `Box ${i}`, x: (i * 7919) % 5_000_000, y: (i * 104_729) % 3_000_000 }));
  const started = performance.now();
  const { markdown } = await convert(convertDocx, "many.docx", docx(canvas(shapes), []));
  expect(performance.now() - started).toBeLessThan(10_000);
  expect((markdown.match(/^Box \d+$/gm) ?? []).length).toBe(2000);
});

const X = `xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`;

/** workbook: a one-sheet workbook of inline-string cells (by reference) and the given merged areas */
function workbook(cells: Record<string, string>, merges: string[]): Uint8Array {
  const rows = new Map<number, string[]>();
  for (const [ref, text] of Object.entries(cells)) {
    const r = Number(ref.slice(1));
    rows.set(r, [...(rows.get(r) ?? []), `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`]);
  }
  const data = [...rows.entries()].sort((a, b) => a[0] - b[0]).map(([r, cs]) => `<row r="${r}">${cs.join("")}</row>`).join("");
  const sheet = `<worksheet ${X}><sheetData>${data}</sheetData>${merges.length ? `<mergeCells>${merges.map((m) => `<mergeCell ref="${m}"/>`).join("")}</mergeCells>` : ""}</worksheet>`;
  return zipTuples([
    ["_rels/.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`],
    ["xl/workbook.xml", `<workbook ${X}><sheets><sheet name="Summary" sheetId="1" r:id="rId1"/></sheets></workbook>`],
    ["xl/_rels/workbook.xml.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`],
    ["xl/worksheets/sheet1.xml", sheet],
  ]);
}

test("a block of merged column pairs is one table; columns empty without a merge still cut blocks apart", async () => {
  // a summary under a merged title: Region (A:B), Product (C:D), Units (E:F), the units column starting a row lower, a total below it
  const cells: Record<string, string> = { A1: "Sales summary", A2: "Region", C2: "Product", A3: "North", C3: "Tea", E3: "933", A4: "South", C4: "Coffee", E4: "934", C5: "Total", E5: "1867", H2: "Note", H3: "kept apart" };
  const merges = ["A1:F1", ...[2, 3, 4, 5].flatMap((r) => [`A${r}:B${r}`, `C${r}:D${r}`, `E${r}:F${r}`])];
  const { markdown } = await convert(convertXlsx, "summary.xlsx", workbook(cells, merges));
  expect(markdown).toContain("| Sales summary |  |  |  |  |\n| --- | --- | --- | --- | --- |\n| Region |  | Product |  |  |\n| North |  | Tea |  | 933 |\n| South |  | Coffee |  | 934 |\n|  |  | Total |  | 1867 |");
  // column G is empty and merges nothing: H is a block of its own
  expect(markdown).toContain("Note\n\nkept apart");
});

test("a sheet of 200 000 merged areas stays bounded", async () => {
  const cells: Record<string, string> = {};
  const merges: string[] = [];
  for (let r = 1; r <= 2000; r++) {
    cells[`A${r}`] = `row ${r}`;
    for (let k = 0; k < 100; k++) merges.push(`A${r}:XFD${r}`);
  }
  const started = performance.now();
  const { markdown } = await convert(convertXlsx, "merges.xlsx", workbook(cells, merges));
  expect(performance.now() - started).toBeLessThan(30_000);
  expect(markdown).toContain("row 2000");
});

/** chartDocx: a document of one paragraph holding a chart of the given title element and series (name, values) */
function chartDocx(title: string, series: Array<[string, number[]]>): Uint8Array {
  const C = `xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"`;
  const ser = ([name, values]: [string, number[]], i: number) =>
    `<c:ser><c:idx val="${i}"/><c:order val="${i}"/><c:tx><c:strRef><c:f>Sheet1!$B$1</c:f><c:strCache><c:ptCount val="1"/><c:pt idx="0"><c:v>${name}</c:v></c:pt></c:strCache></c:strRef></c:tx><c:cat><c:strRef><c:f>Sheet1!$A$2</c:f><c:strCache><c:ptCount val="${values.length}"/>${values.map((_, k) => `<c:pt idx="${k}"><c:v>${["90-100", "80-90", "70-80"][k]}</c:v></c:pt>`).join("")}</c:strCache></c:strRef></c:cat><c:val><c:numRef><c:f>Sheet1!$B$2</c:f><c:numCache><c:formatCode>General</c:formatCode><c:ptCount val="${values.length}"/>${values.map((v, k) => `<c:pt idx="${k}"><c:v>${v}</c:v></c:pt>`).join("")}</c:numCache></c:numRef></c:val></c:ser>`;
  const chart = `<c:chartSpace ${C}><c:chart>${title}<c:plotArea><c:pieChart>${series.map(ser).join("")}</c:pieChart></c:plotArea></c:chart></c:chartSpace>`;
  const drawing = `<w:p><w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"><wp:extent cx="5000000" cy="3000000"/><wp:docPr id="1" name="Chart 1"/><a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" r:id="rId5"/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`;
  return zipTuples([
    ["_rels/.rels", RELS],
    ["word/document.xml", `<w:document ${W}><w:body>${p("Pie:")}${drawing}</w:body></w:document>`],
    ["word/_rels/document.xml.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId5" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/chart" Target="charts/chart1.xml"/></Relationships>`],
    ["word/charts/chart1.xml", chart],
  ]);
}

test("a chart's automatic title (an empty c:title) is its one series' name; of two series it is left out; a typed or cell title as written", async () => {
  const one = await convert(convertDocx, "pie.docx", chartDocx("<c:title/>", [["p_n", [8, 20, 21]]]));
  expect(one.markdown).toContain("### Chart: p\\_n\n\n| Category | p_n |");
  const two = await convert(convertDocx, "two.docx", chartDocx("<c:title/>", [["Series 1", [1, 2, 3]], ["Series 2", [4, 5, 6]]]));
  expect(two.markdown).toMatch(/### Chart\n/);
  const none = await convert(convertDocx, "none.docx", chartDocx("", [["p_n", [8, 20, 21]]]));
  expect(none.markdown).toMatch(/### Chart\n/);
  const cell = await convert(convertDocx, "cell.docx", chartDocx(`<c:title><c:tx><c:strRef><c:f>Sheet1!$D$1</c:f><c:strCache><c:ptCount val="1"/><c:pt idx="0"><c:v>Grades 2024</c:v></c:pt></c:strCache></c:strRef></c:tx></c:title>`, [["p_n", [8, 20, 21]]]));
  expect(cell.markdown).toContain("### Chart: Grades 2024");
});
