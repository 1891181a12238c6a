/**
 * Layouts of the fourth fresh group's kinds (issue 16, item 3; bench/README "branch h/fresh10"),
 * built as pdf.js gives them (text items) or typeset with the standard fonts, laid out by
 * analyzePage and renderPages.
 */
import { expect, test } from "bun:test";
import { analyzePage, renderPages } from "../src/convert/pdfLayout";
import type { PdfTextItem } from "../src/convert/pdfLayoutTypes";
import { layoutMarkdown, typesetMarkdown } from "./helpers/layoutMarkdown";
import { typesetPdf, typesetProse as prose, type TypesetRule, type TypesetRun } from "./helpers/typesetPdf";

/**
 * hebrewWords: one run a word, as an Excel page printed through Ghostscript gives them, the first word
 * rightmost; a bracket is a run of its own set against its word, drawn as the page shows it (the
 * opening bracket of "(ללא" at the word's right end as ")"), with no direction (no letter in it)
 */
function hebrewWords(words: string[], right: number, y: number, size = 8): PdfTextItem[] {
  const items: PdfTextItem[] = [];
  let x2 = right;
  for (const word of words) {
    const open = word.startsWith("(");
    const close = word.endsWith(")");
    const letters = word.replace(/[()]/g, "");
    const width = letters.length * size * 0.5;
    if (open) items.push({ str: ")", x: x2 - 2.4, y, width: 2.4, size });
    if (open) x2 -= 2.4;
    items.push({ str: letters, x: x2 - width, y, width, size, rtl: true });
    x2 -= width;
    if (close) items.push({ str: "(", x: x2 - 2.4, y, width: 2.4, size });
    if (close) x2 -= 2.4;
    x2 -= size * 0.3;
  }
  return items;
}

test("a right-to-left table's stub cells of several words, one run a word, read from the right on rows of figures, brackets the right way round", () => {
  const stubs = [["סך", "הכל"], ["הסקטור", "העסקי"], ["תעשייה", "(ללא", "יהלומים)"], ["בינוי"]];
  const figures = [["1.9", "5.8", "4.2", "3.0", "3.2", "2.6"], ["1.5", "6.8", "4.5", "2.9", "3.4", "2.5"], ["-4.3", "12.0", "0.0", "2.9", "3.2", "0.3"], ["3.4", "11.2", "11.6", "6.8", "1.3", "-1.7"]];
  const years = ["2009", "2010", "2011", "2012", "2013", "2014"];
  // the year columns from the right (2009 nearest the stub) to the left
  const colX = [300, 260, 220, 180, 140, 100];
  const items: PdfTextItem[] = years.map((year, i) => ({ str: year, x: colX[i]!, y: 100, width: 16, size: 8 }));
  stubs.forEach((words, r) => {
    const y = 120 + r * 12;
    items.push(...hebrewWords(words, 420, y));
    figures[r]!.forEach((figure, i) => items.push({ str: figure, x: colX[i]!, y, width: figure.length * 4, size: 8 }));
  });
  const md = renderPages([analyzePage(items, 1, 595, 842)]).markdown;
  expect(md).toContain("| סך הכל | 1.9 | 5.8 | 4.2 | 3.0 | 3.2 | 2.6 |");
  expect(md).toContain("| הסקטור העסקי | 1.5 | 6.8 | 4.5 | 2.9 | 3.4 | 2.5 |");
  expect(md).toContain("| תעשייה (ללא יהלומים) | -4.3 | 12.0 | 0.0 | 2.9 | 3.2 | 0.3 |");
  expect(md).not.toContain("הכל סך");
});

test("a financial table's dollar signs, set at the left of their cells far from the figures, stay with their figures", async () => {
  const run = (text: string, x: number, y: number, font: TypesetRun["font"] = "Helvetica"): TypesetRun => ({ font, size: 8, x, y, text });
  // figures right-aligned at 330, 410, 490; each column's dollar sign at its cell's left edge
  const right = (text: string, edge: number, y: number) => run(text, edge - text.length * 4.45, y);
  const rows: Array<[string, string[], boolean]> = [
    ["Cost of revenue", ["178", "141", "138"], true],
    ["Research and development", ["3,423", "2,532", "1,892"], false],
    ["Sales, general and administrative", ["1,136", "876", "680"], false],
    ["Total", ["4,737", "3,549", "2,710"], true],
  ];
  const table: TypesetRun[] = [
    run("Jan 26, 2025", 282, 700, "Helvetica-Bold"),
    run("Jan 28, 2024", 362, 700, "Helvetica-Bold"),
    run("Jan 29, 2023", 442, 700, "Helvetica-Bold"),
    ...rows.flatMap(([stub, figures, dollars], r) => {
      const y = 686 - r * 12;
      return [run(stub, 72, y), ...figures.flatMap((figure, i) => [...(dollars ? [run("$", 272 + 80 * i, y)] : []), right(figure, 330 + 80 * i, y)])];
    }),
  ];
  const md = await typesetMarkdown([[...prose(4, 760, 11, 72), ...table, ...prose(3, 620, 11, 72, 9)]]);
  expect(md).toContain("| Cost of revenue | $ 178 | $ 141 | $ 138 |");
  expect(md).toContain("| Research and development | 3,423 | 2,532 | 1,892 |");
  expect(md).toContain("| Total | $ 4,737 | $ 3,549 | $ 2,710 |");
});

test("a paper's table: a group label centred across the columns under the header, and a stub's note in smaller type over two lines, stay in the table", async () => {
  const xs = [135, 244, 336, 376, 416, 454];
  const cell = (text: string, i: number, y: number, font: TypesetRun["font"] = "Times-Roman", size = 9): TypesetRun => ({ font, size, x: xs[i]!, y, text });
  const row = (cells: string[], y: number) => cells.map((text, i) => cell(text, i, y));
  const table: TypesetRun[] = [
    ...["Source", "Type", "Tokens", "Words", "Bytes", "Docs"].map((text, i) => cell(text, i, 767, "Times-Bold")),
    { font: "Times-Bold", size: 9, x: 242, y: 753, text: "Pretraining: OLMo 2 1124 Mix" },
    ...row(["DCLM-Baseline", "Web pages", "3.71T", "3.32T", "21.32T", "2.95B"], 739),
    cell("StarCoder", 0, 725),
    { font: "Times-Roman", size: 7, x: 148, y: 717, text: "filtered version" },
    ...row(["", "Code", "83.0B", "70.0B", "459B", "78.7M"], 718).slice(1),
    { font: "Times-Roman", size: 7, x: 148, y: 709, text: "from the OLMoE Mix" },
    ...row(["arXiv", "STEM papers", "20.8B", "19.3B", "77.2B", "3.95M"], 695),
    ...row(["OpenWebMath", "Math web pages", "12.2B", "11.1B", "47.2B", "2.89M"], 681),
  ];
  const md = await typesetMarkdown([[...table, { font: "Times-Roman", size: 9, x: 72, y: 660, text: "Table 1 Composition of the pretraining data. The mix is composed of StarCoder, peS2o and web text." }, ...prose(6, 630, 11, 72)]]);
  expect(md).toContain("| Source | Type | Tokens | Words | Bytes | Docs |");
  expect(md).toMatch(/^\|[ |]*Pretraining: OLMo 2 1124 Mix[ |]*\|$/m);
  expect(md).toContain("| DCLM-Baseline | Web pages | 3.71T | 3.32T | 21.32T | 2.95B |");
  expect(md).toContain("| filtered version from the OLMoE Mix | Code | 83.0B | 70.0B | 459B | 78.7M |");
  expect(md).not.toMatch(/^#/m);
});

test("a manual's ruled one-column table of requirements is a table; a frame around a paragraph is not", async () => {
  const items = ["Windows 98, Windows 2000 or later", "Intel (or comparable) 166MHz processor", "VGA Monitor and color video card", "2-button mouse", "50MB free on hard drive", "32 MB RAM", "Full speed USB port", "CD-ROM Drive"];
  const top = 700;
  // the sections' numbered heads, their numbers set apart (lines of two cells: the page is read for its rules)
  const runs: TypesetRun[] = [
    { font: "Helvetica-Bold", size: 11, x: 72, y: top + 44, text: "2.3" },
    { font: "Helvetica-Bold", size: 11, x: 108, y: top + 44, text: "PC Configuration" },
    { font: "Helvetica-Bold", size: 11, x: 72, y: 540, text: "2.4" },
    { font: "Helvetica-Bold", size: 11, x: 108, y: 540, text: "Installation Tasks" },
    { font: "Times-Bold", size: 11, x: 150, y: top + 14, text: "Table 2-1: Minimum PC Configuration" },
    ...items.map((text, i): TypesetRun => ({ font: "Times-Roman", size: 11, x: 202, y: top - 11 - 15 * i, text })),
  ];
  const bottom = top - 15 * items.length - 4;
  const rules: TypesetRule[] = [
    ...Array.from({ length: items.length + 1 }, (_, i): TypesetRule => ({ x1: 200, y1: top - 15 * i - (i === items.length ? 4 : 0), x2: 440, y2: top - 15 * i - (i === items.length ? 4 : 0) })),
    { x1: 200, y1: top, x2: 200, y2: bottom },
    { x1: 440, y1: top, x2: 440, y2: bottom },
  ];
  // a paragraph in a frame under it: no table
  const note = ["The EZ-KIT Lite evaluation system contains ESD (electrostatic", "discharge) sensitive devices. Electrostatic charges readily", "accumulate on the human body and equipment and can discharge."];
  const noteRuns = note.map((text, i): TypesetRun => ({ font: "Times-Roman", size: 9, x: 110, y: 500 - 11 * i, text }));
  const frame: TypesetRule[] = [
    { x1: 100, y1: 512, x2: 480, y2: 512 },
    { x1: 100, y1: 470, x2: 480, y2: 470 },
    { x1: 100, y1: 512, x2: 100, y2: 470 },
    { x1: 480, y1: 512, x2: 480, y2: 470 },
  ];
  const md = await layoutMarkdown(typesetPdf([[...prose(4, 790, 11, 72), ...runs, ...noteRuns, ...prose(3, 440, 11, 72, 9)]], [[...rules, ...frame]]));
  expect(md).toContain(`| ${items[0]} |\n| --- |\n${items.slice(1).map((text) => `| ${text} |`).join("\n")}`);
  expect(md).not.toMatch(/^#+ 32 MB RAM/m);
  expect(md).not.toContain("| The EZ-KIT Lite");
  expect(md).toContain("accumulate on the human body and equipment and can discharge.");
});

test("a note set in bold on a line of its own (\"Note: ...\") is no heading; a bold title over the body still is", async () => {
  const md = await typesetMarkdown([
    [
      ...prose(4, 760, 11, 72),
      { font: "Times-Bold", size: 11, x: 90, y: 700, text: "Note: This board does not run under Windows 95 or Windows NT" },
      { font: "Times-Bold", size: 11, x: 72, y: 670, text: "Installation Tasks" },
      ...prose(4, 650, 11, 72, 5),
    ],
  ]);
  expect(md).not.toMatch(/^#+ Note:/m);
  expect(md).toContain("Note: This board does not run under Windows 95 or Windows NT");
  expect(md).toMatch(/^#+ Installation Tasks$/m);
});
