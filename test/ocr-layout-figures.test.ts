/**
 * Scanned tables of figures (src/convert/ocrLayout.ts): a page of figures read under the 0.9 layout
 * confidence (tesseract reads figures, and the rules beside them, with less confidence than words)
 * is laid out by its words' places, for its tables, while an invoice read as unsurely stays
 * tesseract's text; and a table's rule read into a figure ("255,744]", "2,218,406]1,180,160") is
 * taken out of the figure, so the columns on either side of it keep their places.
 */
import { afterAll, expect, test } from "bun:test";
import { figureShare, ocrLayoutMarkdown, withoutRuleMarks } from "../src/convert/ocrLayout";
import { Tesseract } from "../src/tools/tesseract";
import type { OcrResult, OcrWord } from "../src/tools/types";
import { COUNTY_FIGURES, readAt150 } from "./helpers/scanAt150";
import type { TypesetRun } from "./helpers/typesetPdf";

const tesseract = new Tesseract({ concurrency: 2, timeoutMs: 60_000 });
afterAll(() => tesseract.close());

function figuresPage(): TypesetRun[] {
  const runs: TypesetRun[] = [{ font: "Times-Roman", size: 11, x: 57, y: 780, text: "Table 4. Households by county, 1990-2020" }];
  COUNTY_FIGURES.forEach((row, i) => row.forEach((cell, c) => runs.push({ font: "Times-Roman", size: 11, x: 57 + c * 110, y: 750 - i * 18, text: cell })));
  return runs;
}

/** invoicePage: an invoice's labels and values over its items (few of its words are figures) */
function invoicePage(): TypesetRun[] {
  const runs: TypesetRun[] = [];
  const line = (x: number, y: number, text: string, size = 11) => runs.push({ font: "Times-Roman", size, x, y, text });
  line(57, 780, "Northwind Office Supplies Limited", 16);
  line(57, 750, "Harbour Road Industrial Estate, Unit Seven");
  line(57, 736, "Portsmouth, Hampshire, United Kingdom");
  line(380, 750, "Invoice number: NW-2041");
  line(380, 736, "Invoice date: 12 March 2024");
  line(380, 722, "Payment terms: thirty days net");
  line(57, 690, "Bill to: Contoso Consulting Group, Queen Street, Southampton");
  const items = [
    ["Description", "Quantity", "Price", "Amount"],
    ["Ergonomic office chairs with armrests", "4", "120.00", "480.00"],
    ["Standing desks, oak veneer finish", "2", "310.00", "620.00"],
    ["Delivery and assembly on site", "1", "75.00", "75.00"],
  ];
  items.forEach((row, i) => row.forEach((cell, c) => line([57, 300, 380, 470][c]!, 650 - i * 18, cell)));
  line(380, 570, "Total due: 1,175.00 GBP");
  line(57, 540, "Please pay by bank transfer to the account named on our letterhead, quoting the invoice number.");
  return runs;
}

test("a page of figures read under the layout confidence is laid out for its table, without headings; an invoice read as unsurely stays tesseract's text", async () => {
  const figures = await readAt150(tesseract, figuresPage());
  expect(figureShare(figures.words!)).toBeGreaterThanOrEqual(0.5);
  // read as a rule-marked table or a page of small digit groups is read: under 0.9 (the gate before)
  const unsure = { ...figures, confidence: 0.86 };
  const markdown = ocrLayoutMarkdown(unsure, 72 / 150);
  expect(markdown).not.toBeNull();
  for (const row of COUNTY_FIGURES.slice(1)) expect(markdown).toContain(`| ${row.join(" | ")} |`);
  // sizes from the boxes are not trusted under 0.9: no line is a heading
  expect(markdown).not.toMatch(/^#/m);

  const invoice = await readAt150(tesseract, invoicePage());
  expect(figureShare(invoice.words!)).toBeLessThan(0.5);
  // read surely, the invoice is laid out (the gate is what keeps it flat below)
  expect(ocrLayoutMarkdown(invoice, 72 / 150)).not.toBeNull();
  expect(ocrLayoutMarkdown({ ...invoice, confidence: 0.86 }, 72 / 150)).toBeNull();
  // and under 0.75 nothing is laid out (from 0.75 to 0.8 a page whose table is its shortfall is: ocrLayout.ts MIN_TABLE_CONFIDENCE)
  expect(ocrLayoutMarkdown({ ...figures, confidence: 0.74 }, 72 / 150)).toBeNull();
}, 60_000);

/** ruledFigures: the words of a table of figures whose column rules tesseract read into them, as on NCHS's scanned population table */
function ruledFigures(): OcrResult {
  const rows = [
    ["Age", "Male", "Female", "Total"],
    ["1-2", "2,586,688]", "2,568,738]", "5,155,426"],
    ["3-5", "3,867,692}", "3,576,723)", "7,444,415"],
    ["6-11", "7,808,033", "7,401,349]1,170,452", ""],
    ["12-19", "9,795,497", "9,208,607|", "19,004,104"],
    ["20-29", "(n = 1,204)", "", "13,340,788"],
  ];
  const words: OcrWord[] = [];
  const columns = [60, 360, 660, 960];
  rows.forEach((row, r) => {
    const top = 100 + r * 40;
    row.forEach((cell, c) => {
      let left = columns[c]!;
      for (const text of cell.split(" ").filter(Boolean)) {
        // a figure read with the next column's across the rule spans both columns' places
        const width = text.includes("]1,") ? columns[3]! + 10 * 9 - left : text.length * 10;
        words.push({ text, left, top, width, height: 20, confidence: 0.95, line: `1/${r + 1}/1`, paragraph: `1/${r + 1}` });
        left += width + 8;
      }
    });
  });
  const text = rows.map((row) => row.filter(Boolean).join(" ")).join("\n");
  return { text, confidence: 0.95, words, width: 1240, height: 600 };
}

test("a table's rule read into a figure is dropped from it, and two figures it joined are two cells in their columns; a bracket the line opened stays", () => {
  const words = withoutRuleMarks(ruledFigures().words!);
  const texts = words.map((word) => word.text);
  expect(texts).toContain("2,586,688");
  expect(texts).toContain("3,576,723");
  expect(texts).toContain("9,208,607");
  expect(texts).not.toContain("2,586,688]");
  expect(texts).toContain("1,234)".replace("1,234", "1,204"));
  const joined = words.filter((word) => word.text === "7,401,349" || word.text === "1,170,452");
  expect(joined.length).toBe(2);
  expect(joined[1]!.left).toBeGreaterThan(joined[0]!.left + joined[0]!.width);

  const markdown = ocrLayoutMarkdown(ruledFigures(), 72 / 150)!;
  expect(markdown).toMatch(/^\| *1-2 *\| *2,586,688 *\| *2,568,738 *\| *5,155,426 *\|$/m);
  expect(markdown).toMatch(/^\| *3-5 *\| *3,867,692 *\| *3,576,723 *\| *7,444,415 *\|$/m);
  expect(markdown).toMatch(/^\| *6-11 *\| *7,808,033 *\| *7,401,349 *\| *1,170,452 *\|$/m);
});

/** expensesPage: the words of a scanned expenses table (at 300 dpi) beside which tesseract read a vertical mark as one word in a tall narrow box, as on the Senate report's scan ("I611-d", 37 x 156 px by 17 px text) */
function expensesPage(mark: boolean): OcrResult {
  const rows = [
    ["DOCUMENT", "POSTED", "PAYEE", "AMOUNT"],
    ["DHAW20190026", "05/03/2019", "CITIBANK", "521.00"],
    ["DHAW20190027", "05/02/2019", "CITIBANK", "349.60"],
    ["DHAW20190029", "05/16/2019", "CITIBANK", "477.60"],
    ["DHAW20190031", "06/13/2019", "CITIBANK", "618.00"],
    ["DHAW20190032", "05/28/2019", "CITIBANK", "553.30"],
  ];
  const words: OcrWord[] = [];
  const columns = [100, 700, 1300, 2800];
  rows.forEach((row, r) =>
    row.forEach((text, c) => words.push({ text, left: columns[c]!, top: 400 + r * 52, width: text.length * 13, height: 17, confidence: 0.95, line: `${c + 1}/1/${r + 1}`, paragraph: `${c + 1}/1` })),
  );
  if (mark) words.push({ text: "I611-d", left: 3000, top: 430, width: 37, height: 156, confidence: 0, line: "9/1/1", paragraph: "9/1" });
  const text = [...rows.map((row) => row.join(" ")), ...(mark ? ["I611-d"] : [])].join("\n");
  return { text, confidence: 0.95, words, width: 3300, height: 2550 };
}

test("a lone word read unsurely in a box taller than wide and three body sizes tall (a vertical mark) does not draw the table's rows beside it into one line", () => {
  const plain = ocrLayoutMarkdown(expensesPage(false), 72 / 300)!;
  expect(plain).toMatch(/^\| *DHAW20190031 *\| *06\/13\/2019 *\| *CITIBANK *\| *618\.00 *\|$/m);
  const marked = ocrLayoutMarkdown(expensesPage(true), 72 / 300)!;
  for (const id of ["DHAW20190027", "DHAW20190029", "DHAW20190031", "DHAW20190032"]) expect(marked).toMatch(new RegExp(`^\\| *${id} *\\| *\\d\\d/\\d\\d/2019 *\\| *CITIBANK *\\| *\\d+\\.\\d\\d *\\|`, "m"));
  expect(marked).not.toMatch(/DHAW20190031.*DHAW20190032/);
});
