/**
 * Table detection in the PDF layout: real documents' text runs (pdf.js through extractPdfPages, then
 * renderPages; no server needed for a layout rule) and ruling lines (ruledGrids).
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { renderPages } from "../src/convert/pdfLayout";
import { type Rule, ruledGrids } from "../src/convert/pdfRules";
import { extractPdfPages } from "../src/convert/pdfText";

const FORM_3903 = new Uint8Array(readFileSync(new URL("./fixtures/irs_form_3903_header_band.pdf", import.meta.url)));
const FORM_2441 = new Uint8Array(readFileSync(new URL("./fixtures/irs_form_2441_header_boxes.pdf", import.meta.url)));

test("a form's header band (large form number, title, OMB number side by side) is text, not a table", async () => {
  // IRS Form 3903: "Form 3903" in 24 pt, "Moving Expenses" in 14 pt and "OMB No. 1545-0074" in 7 pt
  // share a baseline, as do the agency lines, the instructions and "Attachment 2013" below them:
  // three boxes side by side, which read as rows of cells.
  const result = await extractPdfPages({ bytes: FORM_3903, first: 1, last: 1 });
  if (!result.ok) throw new Error(result.message);
  const md = renderPages(result.pages).markdown;
  const lines = md.split("\n");
  expect(lines).toContain("Form 3903 Moving Expenses OMB No. 1545-0074");
  expect(lines.some((line) => line.includes("Attachment 2013") && line.startsWith("Department of the Treasury"))).toBe(true);
  expect(lines.filter((line) => line.startsWith("|") && /OMB No\.|Moving Expenses|Sequence No\./.test(line))).toEqual([]);
});

test("the boxes of a form's header band under its display line are text; the form's first table starts at its own header", async () => {
  // IRS Form 2441 (page 1): under the line of the 20 pt year, "Department of the Treasury" (7 pt),
  // an 8 pt instruction, an icon's 11 pt "2441" and "Attachment" share a baseline, and "Sequence No.
  // 21" (10 pt) the next; they ran on into Part I's table as its first rows.
  const result = await extractPdfPages({ bytes: FORM_2441, first: 1, last: 1 });
  if (!result.ok) throw new Error(result.message);
  const lines = renderPages(result.pages).markdown.split("\n");
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
