/**
 * PDF structure as a reader sees it, through the real server: PDFs printed by LibreOffice from
 * flat ODF documents written in test/helpers/pdfFixtures.ts (a three-page paper with a running
 * header, page numbers, numbered bold section titles in the body's font, footnotes, soft
 * hyphens, a hanging-indent numbered list and a table with a two-row header and grouped rows; a
 * two-column report in justified text; Arabic and Hebrew paragraphs; a manual with bookmarks and a
 * two-line running header; a table whose header cells wrap, with group label rows; a typewriter
 * table; titles of two lines and a bold caption; a report with numbered bold titles ending in a
 * full stop, superscripts in cells, a ruled band of several rows and a bold title beside a column);
 * and a journal page typeset by hand (test/helpers/typesetPdf.ts) with titles in a sans face.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { repairArabic } from "../src/convert/pdfLines";
import { makePdfFixtures, RTL_COLUMN_PARAGRAPHS, RTL_IN_LTR_PARAGRAPH } from "./helpers/pdfFixtures";
import { typesetPdf, type TypesetRun } from "./helpers/typesetPdf";
import { api, form, startServer, tempDir, type TestServer } from "./helpers/server";

let server: TestServer;
let key: string;
let pdfs: Awaited<ReturnType<typeof makePdfFixtures>>;
const markdown: Record<string, string> = {};

beforeAll(async () => {
  [server, pdfs] = await Promise.all([startServer(), makePdfFixtures(join(tempDir("docintel-pdf-structure-"), "fixtures"))]);
  ({ key } = await server.key("pro"));
  for (const [name, bytes] of Object.entries(pdfs)) {
    const { status, body } = await api(server, key, "POST", "/api/v1/markdown/convert", form({ file: new File([bytes as Uint8Array<ArrayBuffer>], `${name}.pdf`) }));
    expect(status).toBe(200);
    markdown[name] = body.markdown;
  }
}, 240_000);
afterAll(() => server.stop());

describe("a paper", () => {
  test("numbered section titles in the body's font are headings, ranked below the title and by numbering depth", () => {
    const md = markdown.paper!;
    expect(md).toMatch(/^# Table Structure Recognition$/m);
    expect(md).toMatch(/^## 1 Introduction$/m);
    expect(md).toMatch(/^## 2 Method$/m);
    expect(md).toMatch(/^### 2\.1 Hyper Parameter Optimization$/m);
    expect(md).toMatch(/^## 3 Results$/m);
    // a paper's unnumbered section, in the body's font, ranks with the numbered ones
    expect(md).toMatch(/^## Acknowledgements\n\nWe thank the maintainers of the public collections\.$/m);
  });

  test("the running header and the page numbers are gone", () => {
    const md = markdown.paper!;
    expect(md).not.toContain("Optimized Table Tokenization");
    expect(md).not.toMatch(/^\s*[123]\s*$/m);
  });

  test("words hyphenated at line ends are joined, with no hyphen left before a line break", () => {
    const md = markdown.paper!;
    expect(md).not.toMatch(/\p{L}-\s*\n/u);
    expect(md).not.toMatch(/\b(?:lever|trans|transform|archi|architec)- ?\p{Ll}/u);
    // rule-based keeps its real hyphen
    expect(md).toContain("rule-based approaches");
    expect(md.match(/leverage transformers/g)?.length ?? 0).toBeGreaterThanOrEqual(5);
  });

  test("footnote references are [^n] and the footnotes are listed at the end", () => {
    const md = markdown.paper!;
    expect(md).toContain("rule-based approaches,[^1] which break");
    expect(md).toContain("We tuned on public benchmarks.[^2]");
    expect(md).toMatch(/\n\[\^1\]: Rule-based systems date back to the early nineties\.\n\[\^2\]: The benchmarks are listed in the appendix\.\s*$/);
    // the footnote area no longer cuts the paragraph it interrupted
    expect(md).not.toMatch(/\n1 ?Rule-based/);
  });

  test("numbered items with a hanging indent are list items with their wrapped lines joined", () => {
    const md = markdown.paper!;
    expect(md).toContain("Our evaluation follows three steps:\n\n1. Collect the pages and print every document to PDF with the same settings, so that the layouts are comparable across the whole set of files.\n\n2. Convert each PDF");
    expect(md).toContain("3. Report the share of headings and table cells that were found.");
  });

  test("a table with a two-row header and grouped rows keeps every cell in its column", () => {
    const md = markdown.paper!;
    const table = md.split("\n").filter((line) => line.startsWith("|"));
    expect(table[0]).toMatch(/^\| Split \| Model \| Score \|/);
    expect(table.some((line) => /^\|\s*\|\s*\| Precision \| Recall \|$/.test(line))).toBe(true);
    expect(table).toContain("| Printed | Baseline | 0.91 | 0.88 |");
    expect(table).toContain("|  | Ours | 0.95 | 0.93 |");
    expect(table).toContain("| Handwritten | Baseline | 0.72 | 0.69 |");
    expect(table).toContain("|  | Ours | 0.81 | 0.78 |");
  });
});

describe("running headers", () => {
  test("headers that alternate between odd and even pages are removed, and paragraphs run on across pages", () => {
    const md = markdown.book!;
    expect(md).not.toContain("Optimized Table Tokenization");
    expect(md).not.toContain("Lysak");
    const paragraphs = md.trim().split(/\n\n+/).filter((p) => !p.startsWith("#"));
    expect(paragraphs).toHaveLength(22);
    for (const p of paragraphs) expect(p).toMatch(/^(?:Modern|Table|We|Each) .*(?:survives|drawn|collections|point)\.$/);
  });

  test("a two-page letter loses its letterhead and 'Page N of 2'", () => {
    const md = markdown.letter!;
    expect(md).not.toContain("ACME Corp");
    expect(md).not.toMatch(/Page \d of 2/);
    expect(md.startsWith("Dear customer,")).toBe(true);
    expect(md.trim().endsWith("Kind regards, the support team")).toBe(true);
  });
});

describe("two columns", () => {
  test("the left column is read before the right one, each paragraph whole", () => {
    const md = markdown.twocolumn!;
    expect(md).toMatch(/^# Two Column Report$/m);
    const paragraphs = md.split(/\n\n+/).filter((p) => /column paragraph/.test(p));
    expect(paragraphs.map((p) => p.slice(0, 25))).toEqual([
      "Left column paragraph 1. ",
      "Left column paragraph 2. ",
      "Left column paragraph 3. ",
      "Left column paragraph 4. ",
      "Right column paragraph 1.",
      "Right column paragraph 2.",
      "Right column paragraph 3.",
      "Right column paragraph 4.",
    ]);
    for (const p of paragraphs) expect(p).toMatch(/drawn\.|collections\.|point\.|survives\.$/);
    expect(md).not.toContain("|");
  });
});

describe("tables", () => {
  test("cells that wrap over several lines stay in their cell, hyphens of identifiers kept", () => {
    const table = markdown.cells!.split("\n").filter((line) => line.startsWith("|"));
    expect(table[0]).toBe("| Identifier | Description | Units |");
    expect(table).toContain("| 49e168b7-d2ae-407f-a055-2167576f39a1 | Pressure sensor for the intake manifold, calibrated at the factory and sealed against moisture | 12 |");
    expect(table).toContain("| A-100 | Bracket | 4 |");
    expect(table).toContain("| B-220 | Wiring harness with connectors on both ends and a protective sleeve over its whole length | 2 |");
    expect(table).toHaveLength(5);
    expect(markdown.cells).toContain("All parts were counted on the first of the month.");
  });
});

describe("a table over several pages", () => {
  test("is one table: its header once, every row in order, the running header and page numbers out", () => {
    const md = markdown.inventory!;
    expect(md.match(/^\| --- /gm)).toHaveLength(1);
    expect(md.match(/\| Code \| Part \| Stock \|/g)).toHaveLength(1);
    const rows = md.split("\n").filter((line) => /^\| P-\d{3} /.test(line));
    expect(rows).toEqual(Array.from({ length: 90 }, (_, i) => `| P-${String(i + 1).padStart(3, "0")} | Part ${i + 1} | ${i + 11} |`));
    expect(md).toMatch(/^All parts were counted in March at the main warehouse, shelf by shelf\.\n\n\| Code \| Part \| Stock \|\n\| --- \| --- \| --- \|\n\| P-001 \| Part 1 \| 11 \|$/m);
    expect(md).toMatch(/^\| P-090 \| Part 90 \| 100 \|\n\nMissing parts are reordered at the end of the month\.$/m);
    expect(md).not.toContain("Parts Inventory");
  });
});

describe("group headers", () => {
  test("a label spanning columns above the header row stays in the table, over its columns", () => {
    const md = markdown.grouped!;
    const table = md.split("\n").filter((line) => line.startsWith("|"));
    expect(table[0]).toMatch(/^\|\s*\|\s*\| Tables \|/);
    expect(table).toContain("| Split | Model | TEDS | mAP | Speed |");
    expect(table).toContain("| PubTabNet | OTSL | 0.95 | 0.88 | 2.1 |");
    expect(table).toContain("| PubTables | HTML | 0.93 | 0.85 | 4.4 |");
    expect(md).toContain("Results by split and model, on the held-out pages of each collection.\n\n|");
    expect(md).toContain("|\n\nSpeed is in seconds per page.");
  });
});

describe("tables drawn with rules", () => {
  test("the grid gives the cells: a header spanning two columns once, a label spanning two rows, empty cells, a row of one cell, a cell of two lines", () => {
    const md = markdown.ruled!;
    const table = md.split("\n\n").find((block) => block.startsWith("| Region"))!.split("\n");
    expect(table).toEqual([
      "| Region | Sales |  | Notes |",
      "| --- | --- | --- | --- |",
      "|  | 2023 | 2024 |  |",
      "| North | 12 | 15 |  |",
      "| South |  | 9 | opened in 2024 |",
      "| West | 7 | 8 | first line second line |",
      "| Total |  |  |  |",
    ]);
    expect(md).toContain("Sales by region and year, as reported by each office.\n\n| Region");
  });

  test("a ruled table that goes on to the next page is one table, its repeated header once", () => {
    const md = markdown.ruled!;
    expect(md.match(/\| Ticket \| State \| Hours \|/g)).toHaveLength(1);
    const rows = md.split("\n").filter((line) => /^\| L-\d{3} /.test(line));
    expect(rows).toEqual(Array.from({ length: 60 }, (_, i) => `| L-${String(i + 1).padStart(3, "0")} | ${i % 3 ? "open" : "closed"} | ${10 + i} |`));
    expect(md).toMatch(/^\| L-060 \| open \| 69 \|\n\nThe quarter closed with these tickets\.$/m);
    expect(md).not.toContain("Quarterly Report");
  });

  test("a form's ruled boxes of \"Label: value\" stay text, not a table, while a ruled table still becomes one", () => {
    const md = markdown.ruledForm!;
    expect(md).not.toMatch(/^\|.*(Invoice no|Customer: Acme Ltd|Tax: 21\.40)/m);
    expect(md).toContain("Invoice no: 4471 Due date: 2024-05-01\nCustomer: Acme Ltd Account: 00912 Currency: EUR\nOrder: PO-5512 Tax: 21.40");
    for (const text of ["Jane Example", "Date of birth", "12/03/1980", "ZIP code", "62704"]) expect(md).toContain(text);
    expect(markdown.ruled!).toContain("| North | 12 | 15 |  |");
  });

  test("boxes of a label over its value are a form's fields when read as aligned text too: no table, a line each", () => {
    const md = markdown.ruledForm!;
    expect(md).not.toMatch(/^\|.*(Name|Jane Example|Date of birth|12 Oak Street|Acme Tools Ltd|48,200\.00)/m);
    expect(md).toContain("Name Date of birth Phone\nJane Example 12/03/1980 555 0142\nAddress ZIP code");
    expect(md).toContain("Employer Start date Salary\nAcme Tools Ltd 01/09/2015 48,200.00");
  });

  test("a text run that pdf.js gives across a column's rule (an amount against the next cell's text) is split at the rule", () => {
    const table = markdown.ruledCells!.split("\n\n").find((block) => block.startsWith("| Item"))?.split("\n");
    expect(table).toEqual([
      "| Item | Amount | Currency | State |",
      "| --- | --- | --- | --- |",
      "| Widgets | 1,250.00 | EUR | paid |",
      "| Gears | 980.50 | USD | open |",
      "| Bolts | 12,400.75 | GBP | paid |",
    ]);
  });

  test("text around ruled tables keeps its place: each paragraph before or after its table", () => {
    const md = markdown.ruledCells!;
    expect(md).toMatch(/^Payments received in May, by item, as the bank reported them at the end of the month\.\n\n\| Item /m);
    expect(md).toMatch(/\| Bolts \| 12,400\.75 \| GBP \| paid \|\n\nOpen items are chased weekly\. The terms used in this report are explained below\.\n\n\| Meaning /);
    expect(md).toMatch(/\n\nEvery batch shipped in May carries a tracking code\.\n\n\| Batch /);
  });

  test("a bold header row makes a table of two columns of words; a code broken at its cell's edge is one word; a lone cell's two lines are one row; a grid of figures only is a table", () => {
    const blocks = markdown.ruledCells!.split("\n\n");
    expect(blocks.find((block) => block.startsWith("| Meaning"))?.split("\n")).toEqual([
      "| Meaning | Term |",
      "| --- | --- |",
      "| Working days from an order until it is delivered | Lead time |",
    ]);
    expect(blocks.find((block) => block.startsWith("| Batch"))?.split("\n")).toEqual([
      "| Batch | Tracking code | Site |",
      "| --- | --- | --- |",
      "| B-17 | 7f3a9c2e1b4d6f8a0c2e4b6d8f0a1b2c3d4e5f6a | Leeds |",
      "| Pending approval |  |  |",
      "| B-18 | short-code | York |",
    ]);
    expect(blocks.find((block) => block.startsWith("| 110"))?.split("\n")).toEqual(["| 110 | 120 | 130 |", "| --- | --- | --- |", "| 140 |  | 160 |", "|  |  | 190 |"]);
  });
});

describe("table headers and typewriter tables", () => {
  test("header cells that wrap over several lines are one header row, and group labels between the rows stay in the table", () => {
    const md = markdown.wrappedHeader!;
    expect(md.split("\n").filter((line) => line.startsWith("|"))).toEqual([
      "| Dose (ppm) | Body Weight (g) | Weight Relative to Controls (%) | Body Weight (g) | Weight Relative to Controls (%) |",
      "| --- | --- | --- | --- | --- |",
      "| Male |  |  |  |  |",
      "| 0 | 5.8 | 100 | 13.5 | 100 |",
      "| 250 | 5.9 | 102 | 13.6 | 101 |",
      "| 500 | 6.0 | 103 | 13.0 | 96 |",
      "| Female |  |  |  |  |",
      "| 0 | 5.4 | 100 | 12.7 | 100 |",
      "| 250 | 5.6 | 104 | 12.9 | 102 |",
      "| 1,000 | 5.5 | 102 | 12.4 | 98 |",
    ]);
    expect(md).toContain("Mean body weights by dose, as weighed on days 1 and 7 of the study.\n\n| Dose (ppm) ");
  });

  test("figures of neighbouring columns one space apart in a monospaced table are separate cells", () => {
    const md = markdown.typewriter!;
    expect(md.split("\n").filter((line) => line.startsWith("|"))).toEqual([
      "| Age | Male | Female | Total |",
      "| --- | --- | --- | --- |",
      "| 1-2 | 647,701 | 639,327 | 1,287,028 |",
      "| 3-5 | 935,862 | 938,510 | 1,874,372 |",
      "| 6-11 | 1,770,525 | 1,732,954 | 3,503,479 |",
      "| 12-19 | 12,191,327 | 12,218,406 | 24,409,733 |",
      "| 20-29 | 12,194,990 | 12,776,284 | 24,971,274 |",
      "| 80+ | 138,000 | 338,819 | 476,819 |",
    ]);
  });
});

describe("titles of two lines and captions", () => {
  test("a section label over its title, and two centred bold lines, are one heading each", () => {
    const md = markdown.titles!;
    expect(md).toMatch(/^# Survey Methods$/m);
    expect(md).toMatch(/^## SECTION III Age-adjustment and trends analyses\n\nTable structure recognition/m);
    expect(md).toMatch(/^## Results of the Survey by Region and Year\n\nWe compare token sequences/m);
  });

  test("a bold caption of a label over a title of two lines is one paragraph before its table, not a heading", () => {
    const md = markdown.titles!;
    expect(md).toContain("\n\nTABLE 6 Mean Weights of Parts by Batch and Shift\n\n| Batch | Early | Late |\n| --- | --- | --- |\n| A | 12.5 | 12.9 |");
    expect(md).not.toMatch(/^#+ .*(?:TABLE 6|Mean Weights)/m);
    expect(md.match(/^#+ /gm)).toHaveLength(3);
  });
});

describe("a report's shapes", () => {
  test("a bold numbered title ending in a full stop, over two lines with a hanging indent, is a heading, not a list item", () => {
    const md = markdown.report!;
    expect(md).toMatch(/^#+ 1\. Estimation of current average exposure of wildlife on a nationwide basis\.$/m);
    expect(md).toMatch(/^#+ 2\. Estimation of deposition on a regional scale and comparison of these deposition data with the distribution of each species\.$/m);
  });

  test("raised superscripts stay in their cell and line, as superscripts ('m' + raised '2' is 'm<sup>2</sup>')", () => {
    const md = markdown.report!;
    expect(md).toContain("| Quantity | Name | Symbol |\n| --- | --- | --- |\n| area | square meter | m<sup>2</sup> |\n| volume | cubic meter | m<sup>3</sup> |\n| acceleration | meter per second squared | m/s<sup>2</sup> |\n| wavenumber | reciprocal meter | m<sup>-1</sup> |");
  });

  test("subscripts and superscripts in prose ('H' + lowered '2' + 'O', '10' + raised '22') are <sub> and <sup>", () => {
    expect(markdown.report).toContain("Water, H<sub>2</sub>O, holds about 3.3 × 10<sup>22</sup> molecules per gram in the 1<sup>st</sup> sample.");
  });

  test("a bold numbered title after a table, a tab after its number, is a heading and not the table's last row", () => {
    const md = markdown.report!;
    expect(md).toMatch(/^#+ 4\.2 Derived units$/m);
    expect(md).not.toContain("| 4.2");
  });

  test("a ruled band holding a group label and two rows of paragraphs is three rows", () => {
    expect(markdown.report).toContain(
      "| Source | Definition | Examples |\n| --- | --- | --- |\n| Stationary: |  |  |\n| Major | Emissions of ten tons a year or more of any one air toxic | Refineries and steel manufacturers |\n| Area | Emissions of less than ten tons a year | Dry cleaners and gas stations |",
    );
  });

  test("a bold title over a short sentence of prose is a heading", () => {
    expect(markdown.report).toMatch(/^#+ Counting Words\n\nPerform a word count on content\./m);
  });

  test("a bold title in the left column, beside prose of the right column on its baseline, is a heading", () => {
    expect(markdown.report).toMatch(/^#+ Study Approach and Sampling\n\nWe compare token sequences/m);
  });
});

describe("titles in a sans face over a serif body", () => {
  /** journalPage: two columns of Times at 9.8 pt; the left one has three titles in Helvetica at 9.2 pt (not bold by name), each on the baseline of the right column's prose */
  function journalPage(): TypesetRun[] {
    const words = "the department keeps records of every patient who is admitted and of the care given while staff rotate between wards and clinics so that the registers show who was seen by whom and when each visit ended".split(" ");
    const prose = (n: number, seed: number) =>
      Array.from({ length: n }, (_, i) => {
        let line = "";
        for (let k = seed + i * 9; line.length < 52; k++) line += (line ? " " : "") + words[k % words.length];
        return i === 0 ? line[0]!.toUpperCase() + line.slice(1) : i === n - 1 ? `${line}.` : line;
      });
    const runs: TypesetRun[] = [];
    let y = 780;
    for (const [i, title] of ["Setting", "Tools for data collection", "Ethical considerations"].entries()) {
      runs.push({ font: "Helvetica", size: 9.2, x: 57, y, text: title });
      for (const line of prose(8, i * 7)) runs.push({ font: "Times-Roman", size: 9.8, x: 57, y: (y -= 12), text: line });
      y -= 18;
    }
    prose(Math.round((780 - y) / 12), 3).forEach((line, i) => runs.push({ font: "Times-Roman", size: 9.8, x: 305, y: 780 - 12 * i, text: line }));
    return runs;
  }

  test("are headings though a size smaller than the body and not bold by their font's name, each over its paragraph", async () => {
    const file = new File([typesetPdf([journalPage()]) as Uint8Array<ArrayBuffer>], "journal_sans_titles.pdf");
    const { status, body } = await api(server, key, "POST", "/api/v1/markdown/convert", form({ file }));
    expect(status).toBe(200);
    expect(body.markdown).toMatch(/^#+ Setting\n\nThe department keeps records/m);
    expect(body.markdown).toMatch(/^#+ Tools for data collection\n\n/m);
    expect(body.markdown).toMatch(/^#+ Ethical considerations\n\n/m);
    expect(body.markdown.match(/^#+ /gm)).toHaveLength(3);
  });
});

describe("lists", () => {
  test("bullets drawn by a symbol font are list items, nested by their indent", () => {
    expect(markdown.lists).toContain("Bring the following:\n\n- Clothes\n\n  - Two shirts\n\n  - A warm jacket\n\n- Documents\n\n  - Passport\n\n- Snacks\n\nCheck the weather before leaving.");
  });
});

describe("outline", () => {
  test("the PDF's bookmarks make headings at their depth, though set in the body's font", () => {
    const md = markdown.outline!;
    expect(md).toMatch(/^# Overview$/m);
    expect(md).toMatch(/^## Scope and Limits$/m);
    expect(md).toMatch(/^# Procedure$/m);
  });

  test("a running header whose first line is a bookmark's title is removed on every page, and the title is a heading once", () => {
    const md = markdown.manual!;
    expect(md).not.toContain("Revision 3");
    expect(md.match(/Field Operations Manual/g)?.length).toBe(1);
    expect(md).toMatch(/^# Field Operations Manual\n\nModern document pipelines/);
    expect(md).toMatch(/^## Daily Checks$/m);
    expect(md).toMatch(/^## Weekly Checks$/m);
  });
});

describe("bold headings", () => {
  test("a short bold line in the body's size over a paragraph is a heading, ranked below the larger title", () => {
    const md = markdown.bold!;
    expect(md).toMatch(/^# Field Guide$/m);
    expect(md).toMatch(/^## Getting Started\n\nModern document pipelines/m);
    expect(md).toMatch(/^## Choosing a Site\n\nTable structure recognition/m);
    expect(md).toMatch(/^## Packing Up\n\nWe compare token sequences/m);
  });

  test("bold that is not a heading stays text: a list lead-in, a label, a bold word, a table's header row, an address", () => {
    const md = markdown.bold!;
    expect(md).toContain("\nYou will need:\n\n- A tent\n\n- A stove\n");
    expect(md).toContain("\nNote the weather changes fast in the hills.\n");
    expect(md).toMatch(/^Total:\n+3 kg in all\.$/m);
    expect(md).toContain("| Item | Weight |\n| --- | --- |\n| Tent | 2 kg |\n| Stove | 1 kg |");
    expect(md).toMatch(/^HIGHLAND, SCOTLAND$/m);
    expect(md.match(/^#+ /gm)).toHaveLength(4);
  });
});

describe("slides", () => {
  test("a title a little larger than the text under it (36 over 32 pt) is a heading", () => {
    expect(markdown.slides).toMatch(/^# Quarterly Review$/m);
    expect(markdown.slides).toMatch(/^# Slide 2$/m);
    expect(markdown.slides).toContain("\nRevenue grew\n");
  });
});

describe("right-to-left scripts", () => {
  test("Arabic and Hebrew come out in logical order with the right letters", () => {
    const md = markdown.arabic!;
    expect(md).toMatch(/^# الإنتاجية الزراعية$/m);
    expect(md).toContain("تحسين الإنتاجية في المزارع الصغيرة");
    expect(md).toContain("שלום עולם");
    expect(md).not.toContain("اإل");
    // a lam-alef ligature the PDF maps to its two letters, outside the article: "لا" and "خلال", not "ال" and "خالل"
    expect(md).toContain("لا يقبل الطلب خلال العطلة");
  });

  test("Arabic in a paragraph set from the left wraps into one line of text; the right-aligned line above keeps its break", () => {
    const lines = markdown.arabic!.split("\n").map((line) => line.trim());
    expect(lines).toContain(RTL_IN_LTR_PARAGRAPH);
    expect(lines).toContain("لا يقبل الطلب خلال العطلة");
  });

  test("a right-to-left table keeps its columns in the order they were typed, the first at the right", () => {
    expect(markdown.arabic).toContain("| المنطقة | الإنتاج | المزارع |\n| --- | --- | --- |\n| الشمال | 120 | 14 |\n| الجنوب | 95 | 9 |");
  });

  test("a page written right to left reads its right column first, its ragged lines joined into paragraphs", () => {
    const md = markdown.arabicColumns!;
    const at = (text: string) => md.indexOf(text);
    expect(md).toMatch(/^# تقرير التنمية المحلية$/m);
    expect(md).toMatch(/^## الزراعة$/m);
    expect(md).toMatch(/^## الصناعة$/m);
    // each paragraph whole, as typed, on its own
    const blocks = md.split("\n\n").map((block) => block.trim());
    for (const paragraph of RTL_COLUMN_PARAGRAPHS) expect(blocks).toContain(paragraph);
    const order = ["# تقرير التنمية المحلية", "## الزراعة", RTL_COLUMN_PARAGRAPHS[0]!, RTL_COLUMN_PARAGRAPHS[1]!, "## الصناعة", RTL_COLUMN_PARAGRAPHS[2]!].map(at);
    expect(order.every((index) => index >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  test("Arabic presentation forms are read as letters", () => {
    // a text layer that maps glyphs to shaped forms: ﻻ (lam-alef ligature), ﺳ ﻼ ﻡ (seen, lam-alef, meem)
    expect(repairArabic("\ufefb")).toBe("لا");
    expect(repairArabic("\ufeb3\ufefc\ufee1")).toBe("سلام");
    expect(repairArabic("اإلنتاجية")).toBe("الإنتاجية");
    expect(repairArabic("سأل")).toBe("سأل");
  });
});
