/**
 * Table detection in the PDF layout: real documents' text runs (pdf.js through extractPdfPages, then
 * renderPages; no server needed for a layout rule) and ruling lines (ruledGrids).
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { type Rule, ruleDividers, ruledGrids } from "../src/convert/pdfRules";
import { layoutMarkdown } from "./helpers/layoutMarkdown";
import { A4_HEIGHT, fromTop, type TypesetRule, type TypesetRun, typesetPdf } from "./helpers/typesetPdf";

const FORM_3903 = new Uint8Array(readFileSync(new URL("./fixtures/irs_form_3903_header_band.pdf", import.meta.url)));
const FORM_2441 = new Uint8Array(readFileSync(new URL("./fixtures/irs_form_2441_header_boxes.pdf", import.meta.url)));

test("a form's header band (large form number, title, OMB number side by side) is text, not a table", async () => {
  // IRS Form 3903: "Form 3903" in 24 pt, "Moving Expenses" in 14 pt and "OMB No. 1545-0074" in 7 pt
  // share a baseline, as do the agency lines, the instructions and "Attachment 2013" below them:
  // three boxes side by side, which read as rows of cells.
  const md = await layoutMarkdown(FORM_3903);
  const lines = md.split("\n");
  expect(lines).toContain("Form 3903 Moving Expenses OMB No. 1545-0074");
  expect(lines.some((line) => line.includes("Attachment 2013") && line.startsWith("Department of the Treasury"))).toBe(true);
  expect(lines.filter((line) => line.startsWith("|") && /OMB No\.|Moving Expenses|Sequence No\./.test(line))).toEqual([]);
});

test("the boxes of a form's header band under its display line are text; the form's first table starts at its own header", async () => {
  // IRS Form 2441 (page 1): under the line of the 20 pt year, "Department of the Treasury" (7 pt),
  // an 8 pt instruction, an icon's 11 pt "2441" and "Attachment" share a baseline, and "Sequence No.
  // 21" (10 pt) the next; they ran on into Part I's table as its first rows.
  const lines = (await layoutMarkdown(FORM_2441)).split("\n");
  expect(lines.filter((line) => line.startsWith("|") && /Department of the Treasury|Internal Revenue Service|Sequence No\./.test(line))).toEqual([]);
  expect(lines.some((line) => line.startsWith("Department of the Treasury") && line.includes("Attachment"))).toBe(true);
  const header = lines.findIndex((line) => line.startsWith("|"));
  expect(lines[header]).toContain("(a) Care provider’s");
  expect(lines[header]).toContain("(d) Amount paid");
});

test("two ruled tables on a page whose column rules differ by a point are each one grid (cell borders drawn per cell, stopping short of the rules)", () => {
  // The geometry of NIST Handbook 44's conversion tables (bench/expected/pdf-born-digital): each
  // cell's top and bottom border is drawn on its own and stops about 2 pt short of the column rule;
  // the second table's rules sit up to 1.2 pt off the first's. One mean x for both tables' rules
  // moved them off the borders' ends, and each table fell apart into grids of two or three columns.
  const grid = (columns: number[], top: number, rows: number[]) => {
    const rules: Rule[] = [];
    for (const y of [top, ...rows]) for (let c = 0; c + 1 < columns.length; c++) rules.push({ x1: columns[c]! + 1.8, y1: y, x2: columns[c + 1]! - 0.36, y2: y });
    for (const x of columns) rules.push({ x1: x, y1: top + 1.2, x2: x, y2: rows[rows.length - 1]! - 1 });
    return rules;
  };
  const first = [67.44, 136.2, 200.64, 265.08, 329.4, 407.76, 475.2, 544.56];
  const second = [67.44, 135, 202.56, 265.56, 328.56, 409.56, 477, 544.56];
  const grids = ruledGrids([...grid(first, 138.84, [161.16, 270.12]), ...grid(second, 306.84, [329.04, 438.12])]);
  expect(grids.map((g) => g.xs.length)).toEqual([8, 8]);
  expect(grids.map((g) => g.ys.length)).toEqual([3, 3]);
});

test("a page drawn with more rules than a form has (a hatching of 600 x 600 lines, a fence of 300 tall lines) gives no divider, which bounds the work per page", () => {
  // a tall vertical rule that no horizontal rule crosses would divide; the hatching's short
  // horizontal strokes stop left of it, so without the bound every one is weighed against it
  const rules: Rule[] = [];
  for (let i = 0; i < 600; i++) rules.push({ x1: 300 + i * 3, y1: 50, x2: 300 + i * 3, y2: 1900 });
  for (let i = 0; i < 600; i++) rules.push({ x1: 20, y1: 52 + i * 3, x2: 200, y2: 52 + i * 3 });
  expect(ruleDividers(rules.slice(0, 1)).length).toBe(1);
  expect(ruleDividers(rules)).toEqual([]);
  // 300 tall rules and no row across them: more dividers than a form's parts and columns, a drawing
  const fence: Rule[] = Array.from({ length: 300 }, (_, i) => ({ x1: 20 + i * 3, y1: 50, x2: 20 + i * 3, y2: 700 }));
  expect(ruleDividers(fence.slice(0, 150)).length).toBe(150);
  expect(ruleDividers(fence)).toEqual([]);
});

/** HELVETICA_WIDTH: advance widths (per 1000 em) of the characters the typeset tables below use */
const HELVETICA_WIDTH: Record<string, number> = { " ": 278, ",": 278, ".": 278, "-": 333, "(": 333, ")": 333, "/": 278 };
const textWidth = (text: string, size: number) =>
  [...text].reduce((sum, ch) => sum + (HELVETICA_WIDTH[ch] ?? (/\d/.test(ch) ? 556 : /[A-Z]/.test(ch) ? 667 : /[fijlrt]/.test(ch) ? 278 : 556)), 0) * (size / 1000);

/**
 * statisticsTable typesets a table of figures in the way of a statistical report (8 pt Helvetica):
 * a stub column of row labels, figures right-aligned at `rights`, and `header` lines above the
 * rows, each label placed at its left edge or centred between two x positions.
 */
function statisticsTable(header: Array<{ y: number; labels: Array<{ text: string; x?: number; centre?: [number, number]; right?: number }> }>, rows: string[][], rights: number[], top: number): Uint8Array {
  const size = 8;
  const runs: TypesetRun[] = [{ font: "Helvetica", size: 9, x: 50, y: 760, text: "Table 3. Deaths and rates by age group and region, 2006" }];
  for (const line of header) {
    for (const label of line.labels) {
      const width = textWidth(label.text, size);
      const x = label.x ?? (label.right !== undefined ? label.right - width : (label.centre![0] + label.centre![1] - width) / 2);
      runs.push({ font: "Helvetica", size, x, y: line.y, text: label.text });
    }
  }
  rows.forEach((row, r) => {
    const y = top - 11 * r;
    runs.push({ font: "Helvetica", size, x: 50, y, text: row[0]! });
    row.slice(1).forEach((cell, c) => runs.push({ font: "Helvetica", size, x: rights[c]! - textWidth(cell, size), y, text: cell }));
  });
  runs.push({ font: "Helvetica", size: 10, x: 50, y: top - 11 * rows.length - 30, text: "Rates are per 100,000 population and adjusted to the 2000 standard population." });
  return typesetPdf([runs]);
}

async function tableLines(pdf: Uint8Array): Promise<string[]> {
  return (await layoutMarkdown(pdf)).split("\n").filter((line) => line.startsWith("|"));
}

test("a header of three rows (a label over all columns, group labels over two each, column titles) is the table's header, each group label in every column under it", async () => {
  // The way of the CDC's MMWR tables: "Region" centred over the figures, "North" and "South" each
  // centred over two columns, the stub's label on two lines ("Age group" between the group row and
  // the titles, "(yrs)" on the titles' line).
  const rights = [170, 215, 290, 335];
  const span = (a: number, b: number): [number, number] => [rights[a]! - 24, rights[b]!];
  const pdf = statisticsTable(
    [
      { y: 730, labels: [{ text: "Region", centre: span(0, 3) }] },
      { y: 719, labels: [{ text: "North", centre: span(0, 1) }, { text: "South", centre: span(2, 3) }] },
      { y: 714, labels: [{ text: "Age group", x: 50 }] },
      { y: 706, labels: [{ text: "(yrs)", x: 50 }, { text: "No.", right: 170 }, { text: "Rate", right: 215 }, { text: "No.", right: 290 }, { text: "Rate", right: 335 }] },
    ],
    [
      ["45-54", "1,564", "56.0", "4,316", "24.1"],
      ["55-64", "2,636", "147.8", "10,137", "73.8"],
      ["65-74", "3,859", "367.2", "19,287", "221.0"],
      ["Total", "8,059", "90.1", "33,740", "106.3"],
    ],
    rights,
    693,
  );
  expect(await tableLines(pdf)).toEqual([
    "|  | Region | Region | Region | Region |",
    "| --- | --- | --- | --- | --- |",
    "| Age group (yrs) | North | North | South | South |",
    "|  | No. | Rate | No. | Rate |",
    "| 45-54 | 1,564 | 56.0 | 4,316 | 24.1 |",
    "| 55-64 | 2,636 | 147.8 | 10,137 | 73.8 |",
    "| 65-74 | 3,859 | 367.2 | 19,287 | 221.0 |",
    "| Total | 8,059 | 90.1 | 33,740 | 106.3 |",
  ]);
});

test("a header of two rows whose stub label is on the group row puts the group labels over their columns and the stub label with the column titles", async () => {
  // The way of the NHANES tables: "Age (years)" on the line of the group labels, years as column
  // titles, and "Total" over "population" (a group of one column).
  const rights = [160, 200, 260, 300, 370];
  const span = (a: number, b: number): [number, number] => [rights[a]! - 24, rights[b]!];
  const pdf = statisticsTable(
    [
      { y: 730, labels: [{ text: "Age (years)", x: 50 }, { text: "Urban", centre: span(0, 1) }, { text: "Rural", centre: span(2, 3) }, { text: "Total", centre: [330, 370] }] },
      { y: 719, labels: [{ text: "2019", right: 160 }, { text: "2020", right: 200 }, { text: "2019", right: 260 }, { text: "2020", right: 300 }, { text: "population", right: 370 }] },
    ],
    [
      ["0-14", "1,200", "1,250", "800", "790", "4,040"],
      ["15-64", "5,310", "5,402", "2,950", "2,911", "16,573"],
      ["65+", "1,020", "1,064", "730", "744", "3,558"],
    ],
    rights,
    706,
  );
  expect(await tableLines(pdf)).toEqual([
    "|  | Urban | Urban | Rural | Rural | Total |",
    "| --- | --- | --- | --- | --- | --- |",
    "| Age (years) | 2019 | 2020 | 2019 | 2020 | population |",
    "| 0-14 | 1,200 | 1,250 | 800 | 790 | 4,040 |",
    "| 15-64 | 5,310 | 5,402 | 2,950 | 2,911 | 16,573 |",
    "| 65+ | 1,020 | 1,064 | 730 | 744 | 3,558 |",
  ]);
});

test("a column's title on two lines centred on the header's line (half a line above and below it) is one title of that row; a leader's two dots left in a cell are no text", async () => {
  // The way of the Federal Register's cost tables: "Cost on U.S." / "operators" stacked beside the
  // one-line titles "Action", "Labor cost", "Parts cost", whose baseline runs between them; the
  // first column's leader runs on under the next column, two of its dots left in the cell.
  const pdf = statisticsTable(
    [
      { y: 730, labels: [{ text: "Total", right: 290 }] },
      { y: 726, labels: [{ text: "Action", x: 50 }, { text: "Hours", right: 170 }, { text: "Rate", right: 215 }] },
      { y: 722, labels: [{ text: "cost", right: 290 }] },
    ],
    [
      ["Installation and test ..", "1", "85", "85"],
      ["Manual revisions", "2", "85", "170"],
      ["Marker removal", "1", "85", "85"],
      ["Inspection ..", "3", "85", "255"],
    ],
    [170, 215, 290],
    710,
  );
  // before: "Total" and "cost" were lines of text above and below a table headed "Action | Hours | Rate"
  expect(await tableLines(pdf)).toEqual([
    "| Action | Hours | Rate | Total cost |",
    "| --- | --- | --- | --- |",
    "| Installation and test | 1 | 85 | 85 |",
    "| Manual revisions | 2 | 85 | 170 |",
    "| Marker removal | 1 | 85 | 85 |",
    "| Inspection | 3 | 85 | 255 |",
  ]);
});

test("a row label wrapped onto a second line, the row's figures beside that line, is one cell of its row", async () => {
  // The way of NIST SP 811's Table 2 ("amount-of-substance concentration" alone on a line, then
  // "amount concentration, concentration" beside its unit): the label ran out of room before the
  // next column, so its next word went on the line below, where the row's cells are.
  const pdf = statisticsTable(
    [{ y: 730, labels: [{ text: "Cause of death", x: 50 }, { text: "Deaths", right: 190 }, { text: "Rate", right: 240 }] }],
    [
      ["Diseases of the heart", "616,067", "190.9"],
      ["Malignant neoplasms", "562,875", "186.0"],
      ["Chronic lower respiratory"],
      ["diseases", "127,924", "40.8"],
      ["Cerebrovascular diseases", "135,952", "42.2"],
      ["Alzheimer disease and related"],
      ["dementias", "74,632", "22.8"],
    ],
    [190, 240],
    719,
  );
  expect(await tableLines(pdf)).toEqual([
    "| Cause of death | Deaths | Rate |",
    "| --- | --- | --- |",
    "| Diseases of the heart | 616,067 | 190.9 |",
    "| Malignant neoplasms | 562,875 | 186.0 |",
    "| Chronic lower respiratory diseases | 127,924 | 40.8 |",
    "| Cerebrovascular diseases | 135,952 | 42.2 |",
    "| Alzheimer disease and related dementias | 74,632 | 22.8 |",
  ]);
});

test("column titles set closer than a cell gap, in one run over their columns of figures, are a title each", async () => {
  // The way of a BMC journal table: "Yes (%) No (%) Respondents" one run of text centred over three
  // narrow columns of figures, "Item" over the row labels.
  const pdf = statisticsTable(
    [{ y: 730, labels: [{ text: "Item", x: 50 }, { text: "Yes (%) No (%) Respondents", x: 182.4 }] }],
    [
      ["Privacy given", "99", "1", "97"],
      ["Health conditions told", "88.7", "11.3", "97"],
      ["Treatment implications told", "79.4", "20.6", "97"],
      ["Opportunity to ask questions", "62.8", "37.2", "78"],
    ],
    [201.6, 233.4, 272],
    717,
  );
  expect(await tableLines(pdf)).toEqual([
    "| Item | Yes (%) | No (%) | Respondents |",
    "| --- | --- | --- | --- |",
    "| Privacy given | 99 | 1 | 97 |",
    "| Health conditions told | 88.7 | 11.3 | 97 |",
    "| Treatment implications told | 79.4 | 20.6 | 97 |",
    "| Opportunity to ask questions | 62.8 | 37.2 | 78 |",
  ]);
});

test("a table of words whose cells wrap onto more lines (a paper's fixed-width columns) keeps each cell whole; sub-rows that start in capitals stay rows", async () => {
  // The way of PeerJ CS's Table 1 (VESPA, CC BY 4.0, bench/expected/pdf-born-digital): a number in
  // the first column, words in three columns of fixed width; a cell's next line, at the rows'
  // spacing, starts in lower case or goes on after a semicolon, the row's first cell empty beside it.
  // The last row's lines under it are items of their own: each starts in capitals.
  const size = 9;
  const columns = [60, 110, 260, 400];
  const lines = [
    ["Phase", "Purpose", "Supported input type", "Supported file formats"],
    ["1", "Data preparation", "Protein coding DNA sequences", "FASTA"],
    ["2", "Homology searching", "BLAST/HMMER output", "BLAST tabular, HMMER"],
    ["", "", "files", "standard"],
    ["3", "Alignment assessment and", "Multiple sequence", "FASTA, NEXUS, PHYLIP"],
    ["", "phylogeny reconstruction", "alignments", ""],
    ["4", "Selective pressure analysis", "Gene trees with", "Trees: Newick, NEXUS;"],
    ["", "preparation", "alignments", "Alignments: See above"],
    ["5", "Reports", "Summary files", "Text"],
    ["", "", "Alignment files", "FASTA"],
  ];
  const runs: TypesetRun[] = [{ font: "Times-Bold", size: 10, x: 60, y: 760, text: "Table 1 Overview of the five phases of the package." }];
  lines.forEach((cells, r) => cells.forEach((text, c) => text && runs.push({ font: r === 0 ? "Times-Bold" : "Times-Roman", size, x: columns[c]!, y: 740 - 11 * r, text })));
  expect(await tableLines(typesetPdf([runs]))).toEqual([
    "| Phase | Purpose | Supported input type | Supported file formats |",
    "| --- | --- | --- | --- |",
    "| 1 | Data preparation | Protein coding DNA sequences | FASTA |",
    "| 2 | Homology searching | BLAST/HMMER output files | BLAST tabular, HMMER standard |",
    "| 3 | Alignment assessment and phylogeny reconstruction | Multiple sequence alignments | FASTA, NEXUS, PHYLIP |",
    "| 4 | Selective pressure analysis preparation | Gene trees with alignments | Trees: Newick, NEXUS; Alignments: See above |",
    "| 5 | Reports | Summary files | Text |",
    "|  |  | Alignment files | FASTA |",
  ]);
});

/** formPage typesets a form page: runs [text, x, top] in 9 pt Helvetica and rules [x1, top1, x2, top2], both measured from the page's top left */
function formPage(runs: Array<[string, number, number]>, rules: Array<[number, number, number, number]>): Uint8Array {
  const H = 842;
  const typeset: TypesetRun[] = runs.map(([text, x, top]) => ({ font: "Helvetica", size: 9, x, y: H - top, text }));
  const drawn: TypesetRule[] = rules.map(([x1, t1, x2, t2]) => ({ x1, y1: H - t1, x2, y2: H - t2 }));
  return typesetPdf([typeset], [drawn]);
}

async function pageMarkdown(pdf: Uint8Array): Promise<string[]> {
  return (await layoutMarkdown(pdf)).split("\n");
}

/** FORM_HEAD: a form's title over its parts, and a rule under it across the page (the box the parts' frame hangs from) */
const FORM_HEAD: Array<[string, number, number]> = [["Form 9999 Application for an Extension of Time to File", 40, 40]];

test("two parts of a form side by side, each with its own rows ruled up to the rule between them, read one part after the other", async () => {
  // The way of IRS Form 4868's upper half: Part I's boxes (name, address, city, social security
  // number) left of a rule, Part II's numbered lines right of it, each part's rows ruled from its
  // frame up to the rule, a head row ruled across both. Both parts keep a 12 pt line pitch, so
  // their baselines line up across the rule, line for line.
  const runs: Array<[string, number, number]> = [
    ...FORM_HEAD,
    ["Part I Identification", 40, 70],
    ["Part II Individual Income Tax", 310, 70],
    ["1 Your name", 40, 82],
    ["Address", 40, 106],
    ["City or town", 40, 130],
    ["State", 180, 130],
    ["ZIP code", 240, 130],
    ["2 Social security number", 40, 154],
    ["4 Estimate of total tax liability for 2013 . . . . .", 310, 82],
    ["$", 500, 82],
    ["5 Total payments", 310, 94],
    ["6 Balance due", 310, 106],
    ["(see instructions)", 310, 118],
    ["7 Amount you are paying", 310, 130],
    ["8 Check here if you are out", 310, 142],
    ["of the country", 310, 154],
    ["9 Check here if you file", 310, 166],
  ];
  const rules: Array<[number, number, number, number]> = [
    [30, 60, 570, 60],
    [30, 72, 570, 72],
    [30, 180, 570, 180],
    [30, 60, 30, 180],
    [570, 60, 570, 180],
    [300, 60, 300, 180],
    [30, 96, 300, 96],
    [30, 120, 300, 120],
    [30, 144, 300, 144],
    [300, 124, 570, 124],
  ];
  const md = await pageMarkdown(formPage(runs, rules));
  const at = (text: string) => md.findIndex((line) => line.includes(text));
  for (const text of ["Part I Identification", "1 Your name", "Address", "City or town", "2 Social security number", "Part II Individual Income Tax", "4 Estimate", "9 Check here"]) expect(at(text)).toBeGreaterThanOrEqual(0);
  // Part I whole, then Part II
  expect(at("2 Social security number")).toBeLessThan(at("Part II Individual Income Tax"));
  expect(at("Part I Identification")).toBeLessThan(at("1 Your name"));
  expect(md.filter((line) => /Address|City or town|Social security/.test(line) && /Balance|Amount|Check here|Estimate/.test(line))).toEqual([]);
});

test("a grid of boxes whose rows are ruled across the middle rule reads row by row", async () => {
  // The way of IRS Forms 2441 and 4137: each row's rule runs across the page, a label in each box,
  // so the middle rule is a column edge of one grid, not a divider between two parts.
  const runs: Array<[string, number, number]> = [...FORM_HEAD];
  const rules: Array<[number, number, number, number]> = [
    [30, 60, 30, 180],
    [570, 60, 570, 180],
    [300, 60, 300, 180],
  ];
  const rows = [
    ["Care provider name", "Identifying number"],
    ["Street address", "Amount paid"],
    ["City and state", "Employer number"],
    ["Dependent care", "Qualifying expenses"],
    ["Earned income", "Credit amount"],
  ];
  rows.forEach(([left, right], r) => {
    runs.push([left!, 40, 76 + 24 * r], [right!, 310, 76 + 24 * r]);
    rules.push([30, 60 + 24 * r, 570, 60 + 24 * r]);
  });
  rules.push([30, 180, 570, 180]);
  const md = await pageMarkdown(formPage(runs, rules));
  const at = (text: string) => md.findIndex((line) => line.includes(text));
  // every row's right box before the next row's left box
  for (let r = 0; r + 1 < rows.length; r++) expect(at(rows[r]![1]!)).toBeLessThanOrEqual(at(rows[r + 1]![0]!));
});

test("a lone rule between a short column and a long one (no row ruled up to it) divides them; the short column reads first", async () => {
  // The way of Form 4868's lower half: paper filing on the left in four lines, electronic filing on
  // the right in many, a rule between them down the page; the left column's lines share baselines
  // with the right's first lines, the right goes on alone.
  const left = ["Information for Paper Filing of Extension", "Paying tax due by check: print the form and", "attach a check for the balance due. Mail it", "to the address given in the instructions."];
  const right = [
    "Required Information for Electronic Filing",
    "E-mail address for confirmation",
    "Re-enter e-mail address",
    "Disclosure statement",
    "I consent to allow my provider to send",
    "this form to the IRS and to receive",
    "an acknowledgement of receipt.",
    "Electronic withdrawal of tax due",
    "Routing number",
    "Account number",
  ];
  const runs: Array<[string, number, number]> = [...FORM_HEAD];
  left.forEach((text, i) => runs.push([text, 40, 230 + 12 * i]));
  right.forEach((text, i) => runs.push([text, 240, 230 + 12 * i]));
  // a pair of boxes under the columns makes the page's text one of cells, whose drawing is read
  runs.push(["Taxpayer", 40, 400], ["Spouse", 240, 400]);
  const rules: Array<[number, number, number, number]> = [[228, 218, 228, 360]];
  const md = await pageMarkdown(formPage(runs, rules));
  const at = (text: string) => md.findIndex((line) => line.includes(text));
  expect(at("to the address given in the instructions.")).toBeLessThan(at("Required Information for Electronic Filing"));
  expect(md.filter((line) => line.includes("Paper Filing") && line.includes("Electronic Filing"))).toEqual([]);
});

test("a table ruled only between its columns (no row rules) keeps its rows: the cells beside the rule share their baselines", async () => {
  const runs: Array<[string, number, number]> = [...FORM_HEAD];
  const rows = [
    ["Source", "Description"],
    ["On-road", "Motor vehicles on public roads"],
    ["Non-road", "Engines used off public roads"],
    ["Point", "Stationary facilities"],
    ["Area", "Small sources taken together"],
  ];
  rows.forEach(([a, b], r) => runs.push([a!, 40, 230 + 12 * r], [b!, 240, 230 + 12 * r]));
  const md = await pageMarkdown(formPage(runs, [[228, 218, 228, 290]]));
  expect(md).toContain("| On-road | Motor vehicles on public roads |");
  expect(md).toContain("| Area | Small sources taken together |");
});

test("a manual's example set as a ruled row, its source in a monospace face beside what it renders, reads as a listing and then its output (no heading)", async () => {
  // The way of typst's package manuals (typst-wordometer, bench/expected/pdf-born-digital): a grid
  // of two columns, the source in the left cell, the rendered result in the right, a rendered
  // heading ("Not me", larger) among it on the source's lines.
  const H = 842;
  const runs: TypesetRun[] = [
    { font: "Helvetica-Bold", size: 14, x: 70, y: H - 60, text: "Ways to exclude elements" },
    { font: "Times-Roman", size: 11, x: 70, y: H - 80, text: "Elements can be left out of the count by their function or by a label." },
    { font: "Courier", size: 8.8, x: 85, y: H - 110, text: "#word-count(exclude: heading, total => [" },
    { font: "Courier", size: 8.8, x: 96, y: H - 122, text: "= Not me" },
    { font: "Courier", size: 8.8, x: 96, y: H - 134, text: "One two three." },
    { font: "Courier", size: 8.8, x: 96, y: H - 146, text: "#total.words words in all." },
    { font: "Courier", size: 8.8, x: 85, y: H - 158, text: "])" },
    { font: "Helvetica-Bold", size: 15, x: 381, y: H - 114, text: "Not me" },
    { font: "Times-Roman", size: 11, x: 381, y: H - 130, text: "One two three." },
    { font: "Times-Roman", size: 11, x: 381, y: H - 144, text: "5 words in all." },
    { font: "Times-Roman", size: 11, x: 70, y: H - 190, text: "The count of the whole document is kept in a state." },
  ];
  const rule = (x1: number, t1: number, x2: number, t2: number): TypesetRule => ({ x1, y1: H - t1, x2, y2: H - t2 });
  const rules = [rule(80, 98, 524, 98), rule(80, 166, 524, 166), rule(80, 98, 80, 166), rule(376, 98, 376, 166), rule(524, 98, 524, 166)];
  const md = (await pageMarkdown(typesetPdf([runs], [rules]))).join("\n");
  expect(md).toContain("```\n#word-count(exclude: heading, total => [\n  = Not me\n  One two three.\n  #total.words words in all.\n])\n```");
  expect(md).not.toMatch(/^#+ Not me/m);
  expect(md.indexOf("])\n```")).toBeLessThan(md.indexOf("5 words in all."));
});

test("a payment slip's receipt and payment part, divided by a cut line that runs to the page's foot, read one after the other, each label over its value", async () => {
  // The way of a Swiss QR bill: a slip across the page's foot, a vertical cut line 62 mm from the
  // left edge down to the page's bottom; the receipt (labels in 6 pt bold over values in 8 pt,
  // narrower than a quarter of the page) left of it, the payment part (its title in 11 pt, labels
  // in 8 pt bold over values in 10 pt, one label on the title's cap line, a little above the cut
  // line's top) right of it. Before, the narrow receipt was no part of the page: its lines were
  // read across the cut line with the payment part's ("Account / Payable to Jane Example Ltd").
  const H = A4_HEIGHT;
  const run = fromTop;
  const runs: TypesetRun[] = [
    run("Helvetica", 10, 40, 80, "Thank you for your order. Please pay the amount below within thirty days."),
    run("Helvetica-Bold", 11, 14, 567, "Receipt"),
    run("Helvetica-Bold", 6, 14, 583, "Account / Payable to"),
    run("Helvetica", 8, 14, 592, "CH00 1234 5678 9012 3456 7"),
    run("Helvetica", 8, 14, 601, "Jane Example Ltd"),
    run("Helvetica", 8, 14, 610, "12 Sample Street"),
    run("Helvetica-Bold", 6, 14, 628, "Payable by"),
    run("Helvetica", 8, 14, 637, "John Sample"),
    run("Helvetica", 8, 14, 646, "3 Example Road"),
    run("Helvetica-Bold", 6, 14, 700, "Currency Amount"),
    run("Helvetica", 8, 14, 709, "CHF 99.50"),
    run("Helvetica-Bold", 6, 110, 740, "Acceptance point"),
    run("Helvetica-Bold", 11, 190, 567, "Payment part"),
    run("Helvetica-Bold", 8, 334, 565, "Account / Payable to"),
    run("Helvetica", 10, 334, 576, "CH00 1234 5678 9012 3456 7"),
    run("Helvetica", 10, 334, 587, "Jane Example Ltd"),
    run("Helvetica", 10, 334, 598, "12 Sample Street"),
    run("Helvetica-Bold", 8, 334, 620, "Payable by"),
    run("Helvetica", 10, 334, 631, "John Sample"),
    run("Helvetica", 10, 334, 642, "3 Example Road"),
    run("Helvetica-Bold", 8, 190, 700, "Currency Amount"),
    run("Helvetica", 10, 190, 711, "CHF 99.50"),
  ];
  // the cut lines: across the page over the slip, and down from it to the page's foot
  const rules: TypesetRule[] = [
    { x1: 0, y1: H - 557, x2: 595, y2: H - 557 },
    { x1: 176, y1: H - 557, x2: 176, y2: 0 },
  ];
  const lines = (await pageMarkdown(typesetPdf([runs], [rules]))).filter((line) => line.trim());
  // no line holds text of both parts
  for (const line of lines) expect(/Account \/ Payable to \S|Sample Street \S|John Sample \S/.test(line.replace(/^#+ /, ""))).toBe(false);
  const receipt = lines.findIndex((line) => line.includes("Receipt"));
  const payment = lines.findIndex((line) => line.includes("Payment part"));
  expect(receipt).toBeGreaterThanOrEqual(0);
  expect(payment).toBeGreaterThan(lines.findIndex((line) => line.includes("Acceptance point")));
  // the receipt's lines in order, then the payment part's, its label first
  const order = (from: number, texts: string[]) => texts.map((text) => lines.findIndex((line, i) => i >= from && line.includes(text)));
  const receiptOrder = order(receipt, ["Account / Payable to", "Jane Example Ltd", "Payable by", "John Sample", "CHF 99.50", "Acceptance point"]);
  expect(receiptOrder).toEqual([...receiptOrder].sort((a, b) => a - b));
  expect(receiptOrder.every((at) => at > receipt && at < payment)).toBe(true);
  const paymentOrder = order(payment, ["Account / Payable to", "Jane Example Ltd", "Payable by", "John Sample"]);
  expect(paymentOrder).toEqual([...paymentOrder].sort((a, b) => a - b));
  // the payment part's first label may share its title's line
  expect(paymentOrder.every((at) => at >= payment)).toBe(true);
});

test("a form's values set larger than the body under their small bold labels are not headings; the labels are not either", async () => {
  // A payment part's fields (labels in 8 pt bold, each value in 10 pt just under it) below a
  // letter in 8 pt: the values are the largest print on the page, but a value sits within half
  // its size under its label, at the label's left edge, as no section title sits under what is
  // above it.
  const run = fromTop;
  const runs: TypesetRun[] = [
    run("Helvetica", 8, 40, 80, "Thank you for your order. Please pay the amount below within thirty days of the date"),
    run("Helvetica", 8, 40, 90, "of this letter, by bank transfer to the account given in the payment part below it."),
    run("Helvetica-Bold", 8, 334, 620, "Payable by"),
    run("Helvetica", 10, 334, 631, "John Sample"),
    run("Helvetica-Bold", 8, 334, 700, "Currency Amount"),
    run("Helvetica", 10, 334, 711, "CHF 99.50"),
  ];
  const lines = (await pageMarkdown(typesetPdf([runs]))).filter((line) => line.trim());
  expect(lines.filter((line) => line.startsWith("#"))).toEqual([]);
  for (const text of ["Payable by", "John Sample", "Currency Amount", "CHF 99.50"]) expect(lines).toContain(text);
});

test("a chapter's small bold label over its title is no form field: the title stays a heading", async () => {
  // One label over one larger line, close under it, is how a book sets a chapter's opening ("CHAPTER 3" over
  // "Methods"); a form has several such fields on its page (the test above).
  const run = fromTop;
  const runs: TypesetRun[] = [
    run("Helvetica-Bold", 9, 72, 100, "CHAPTER 3"),
    run("Helvetica", 20, 72, 126, "Methods of measurement"),
    run("Helvetica", 10, 72, 166, "The samples were weighed on a balance checked against a reference mass each morning, and"),
    run("Helvetica", 10, 72, 178, "every reading was written down twice by two people who did not see each other's notes."),
    run("Helvetica", 10, 72, 190, "Where the two readings differed by more than a tenth of a gram, the sample was weighed again."),
  ];
  const lines = (await pageMarkdown(typesetPdf([runs]))).filter((line) => line.trim());
  expect(lines.some((line) => /^#+ Methods of measurement$/.test(line))).toBe(true);
});

test("two boxes with rounded corners side by side (an invoice's seller and buyer) are each read whole, not line across line", async () => {
  // the boxes' sides are the straight pieces of paths with curves; their text shares baselines
  const run = (x: number, top: number, text: string, size = 9): TypesetRun => fromTop("Helvetica", size, x, top, text);
  const seller = ["Seller", "Petr Novy", "Rolnicka 1", "747 05 Opava", "ID: 56565656"];
  const buyer = ["Buyer", "Adam Black", "8648 Acacia Rd.", "Brooklyn, NY 11203"];
  const runs = [run(36, 50, "Invoice 198900000001", 18), ...seller.map((text, i) => run(46, 110 + 14 * i, text)), ...buyer.map((text, i) => run(320, 110 + 14 * i, text))];
  const boxes = [{ x: 36, y: A4_HEIGHT - 190, width: 264, height: 100, r: 8 }, { x: 310, y: A4_HEIGHT - 190, width: 249, height: 100, r: 8 }];
  const md = await layoutMarkdown(typesetPdf([runs], [], [boxes]));
  const text = md.replace(/^#+ /gm, "");
  // each box's lines in order, the seller's before the buyer's, no line holding both
  const at = (line: string) => text.indexOf(line);
  expect([...seller, ...buyer].every((line) => at(line) >= 0)).toBe(true);
  expect([...seller, ...buyer].map(at)).toEqual([...seller, ...buyer].map(at).sort((a, b) => a - b));
  expect(md).not.toContain("Seller Buyer");
  expect(md).not.toMatch(/Rolnicka 1 \|? ?8648/);
});
