/**
 * Text agreement losses by kind and the seventh fresh group's (issue 16, item 3; bench/README "branch
 * h/pdftext15"), typeset with the standard fonts (test/helpers/typesetPdf.ts) and read by pdf.js.
 */
import { expect, test } from "bun:test";
import { analyzePage, renderPages } from "../src/convert/pdfLayout";
import type { PdfTextItem } from "../src/convert/pdfLayoutTypes";
import { composeSpacingAccents } from "../src/convert/pdfText";
import { typesetMarkdown } from "./helpers/layoutMarkdown";
import { type TypesetRun, typesetProse } from "./helpers/typesetPdf";

test("a document whose only text is its page numbers keeps them: its pages' content, never an empty result", async () => {
  // a deck of pictures printed with its slide numbers: each page holds its number at the foot alone
  const pages: TypesetRun[][] = [1, 2, 3, 4, 5].map((n) => [{ font: "Helvetica", size: 12, x: 540, y: 30, text: String(n) }]);
  const md = await typesetMarkdown(pages);
  expect(md.split(/\s+/).filter(Boolean)).toEqual(["1", "2", "3", "4", "5"]);
});

test("page numbers beside a page's text are still dropped", async () => {
  const pages: TypesetRun[][] = [1, 2, 3].map((n) => [...typesetProse(6, 760, 10, 60, n), { font: "Helvetica", size: 10, x: 290, y: 30, text: String(n) }]);
  const md = await typesetMarkdown(pages);
  expect(md).not.toMatch(/^\s*[123]\s*$/m);
});

/** item: a text item as pdf.js gives it (baseline `y` from the page's top), its width about half an em a character unless given */
function item(str: string, x: number, y: number, size: number, width = 0.5 * size * str.length): PdfTextItem {
  return { str, x, y, size, width };
}

/**
 * titleNotes: an LNCS paper's first page: a title with TeX's raised star operator "⋆" (U+22C6) as its
 * note mark, an abstract in 9 pt ending in a raised "1" after a full stop, and at the page's foot the
 * two notes in the same 9 pt, each led by its raised label, the first over two lines set with a
 * hanging indent (its second line starts where its text does, right of the label)
 */
function titleNotes(): PdfTextItem[] {
  const items = [item("Programming Language Design Architecture", 166.4, 143.8, 14.35, 276), item("⋆", 442.4, 138.5, 9.96, 5.7)];
  const text = "programming languages. The exact elements making out such a set of concepts determine";
  for (let i = 0; i < 20; i++) items.push(item(text, 163.1, 285 + 11 * i, 8.97, 365));
  items.push(item("machine constructs and operations.", 163.1, 515.2, 8.97, 125.8), item("1", 289, 511.4, 5.98, 3));
  items.push(item("⋆", 138.1, 637, 5.98, 3.8), item("Thanks to Val Tannen for his patience, Nabil Layaida for his comments, and the anonymous", 144.7, 640.8, 8.97, 335.6));
  items.push(item("referee for catching many glitches and giving good advice in general.", 144.7, 651.7, 8.97, 248.2));
  items.push(item("1", 139, 659.2, 5.98, 3), item("Some of this material was presented as part of the keynote address.", 144.7, 662.9, 8.97, 250));
  return items;
}

test("a title's raised star operator is a note mark, and a note whose hanging indent split it into two blocks is taken whole, the next note with it", () => {
  const md = renderPages([analyzePage(titleNotes(), 1, 595, 842)]).markdown;
  expect(md).toMatch(/^# Programming Language Design Architecture\[\^\*\]$/m);
  expect(md).toContain("operations.[^1]");
  expect(md).toMatch(/^\[\^\*\]: Thanks to Val Tannen .* anonymous referee for catching many glitches and giving good advice in general\.$/m);
  expect(md).toMatch(/^\[\^1\]: Some of this material was presented/m);
  expect(md).not.toMatch(/^referee/m);
});

/**
 * rightColumnNotes: two columns whose baselines differ (the left 10.9 pt on a 13.5 pt pitch, the right
 * column's notes 9 pt), marks raised in the right column's text ("units³", "2017).⁴"), and at that
 * column's foot two notes: the first's label raised 7 pt over its first line (read as a line of its
 * own), the second's set on the baseline of the left column's line beside it
 */
function rightColumnNotes(): PdfTextItem[] {
  const items: PdfTextItem[] = [];
  const left = "the problem of open-domain question answering studied in this paper";
  for (let i = 0; i < 50; i++) items.push(item(left, 72, 87.3 + 13.55 * i, 10.91, 218));
  const right = "we focus our research in this work on improving the retrieval component";
  for (let i = 0; i < 38; i++) items.push(item(right, 307.3, 81 + 13.55 * i, 10.91, 218));
  items.push(item("the basic retrieval units", 307.3, 597, 10.91, 167), item("3", 474.3, 593, 7.97, 4));
  items.push(item("reader to extract the answer (Chen et al., 2017).", 307.3, 610.6, 10.91, 213.8), item("4", 521.1, 606.6, 7.97, 4));
  items.push(item("3", 319.9, 695.2, 5.98, 3), item("The ideal size and boundary of a text passage are func-", 323.4, 702.3, 8.97, 203.6));
  items.push(item("tions of both the retriever and reader, as observed by Wang et al.", 307.3, 712.5, 8.97, 218));
  items.push(item("4", 319.9, 749.2, 5.98, 3), item("Exceptions include (Seo et al., 2019) and (Roberts et al.,", 323.4, 753, 8.97, 203.3));
  items.push(item("2020), which retrieves and generates the answers.", 307.3, 763.2, 8.97, 180));
  return items;
}

test("a note's label raised over its note's first line, and one grouped with the other column's line, lead their notes: both notes go to the end", () => {
  const md = renderPages([analyzePage(rightColumnNotes(), 1, 612, 792)]).markdown;
  expect(md).toContain("units[^3]");
  expect(md).toContain("2017).[^4]");
  expect(md).toMatch(/^\[\^3\]: The ideal size and boundary of a text passage are functions of both/m);
  expect(md).toMatch(/^\[\^4\]: Exceptions include \(Seo et al\., 2019\) and \(Roberts et al\., 2020\)/m);
  expect(md).not.toMatch(/^3$/m);
});

test("a dotless i under a combining accent (TeX's 'ï') reads as the accented letter", () => {
  const items = [item("Hassan A\u0131\u0308t-Kaci and Nabil Laya\u0131\u0308da", 100, 100, 10), item("F\u0131\u0301sica", 100, 120, 10)];
  composeSpacingAccents(items);
  expect(items.map((i) => i.str)).toEqual(["Hassan Aït-Kaci and Nabil Layaïda", "Física"]);
});

/**
 * excerptPage: a manual's page 93 printed as a file of one page: a head line set apart at the top in
 * a size under the body's, the body, and a foot band of small lines whose first ends in the folio set
 * apart at the page's edge (`folio`), with the publisher's copyright under it
 */
function excerptPage(folio: string): PdfTextItem[] {
  const items = [item("Interface Configuration Guide Release 23.7.R1", 30, 33.9, 9, 190), item("Port Cross-Connect", 500, 33.9, 9, 80)];
  const text = "A faceplate port that has been placed in the loopback mode supports only hybrid mode of operation";
  for (let i = 0; i < 30; i++) items.push(item(text, 81.7, 100 + 12 * i, 10, 440));
  items.push(item("© 2023 Nokia.", 306.4, 755.9, 8, 50), item("3HE 19220 AAAB TQZZA 01", 30, 760.9, 9, 110), item(folio, 570, 760.9, 9, 9));
  items.push(item("Use subject to Terms available at: www.nokia.com/terms.", 231.5, 770.5, 8, 190));
  return items;
}

test("a page printed with a folio past its place in the file is an excerpt: its head and foot bands go though nothing repeats", () => {
  const md = renderPages([analyzePage(excerptPage("93"), 1, 612, 792)]).markdown;
  expect(md).toContain("A faceplate port");
  for (const furniture of ["Interface Configuration Guide", "Nokia", "TQZZA", "Use subject to Terms"]) expect(md).not.toContain(furniture);
  // a document's own first page, its folio 1: nothing says its head and foot are another work's
  const own = renderPages([analyzePage(excerptPage("1"), 1, 612, 792)]).markdown;
  expect(own).toContain("Interface Configuration Guide");
  expect(own).toContain("Use subject to Terms");
  // a page count is no folio ("Page 1 of 3" on an invoice's first page)
  const counted = excerptPage("93").map((run) => (run.str === "93" ? { ...run, str: "Page 1 of 3", x: 520, width: 45 } : run));
  expect(renderPages([analyzePage(counted, 1, 612, 792)]).markdown).toContain("Use subject to Terms");
});

test("a two-page excerpt's feet, their parts on either side (the folio at the outer edge), go", () => {
  const body = (y: number) => Array.from({ length: 40 }, (_, i) => item("Diesel engines listed below are to be designed, constructed, installed and tested", 50, y + 12 * i, 9, 330));
  const first = [...body(100), item("48", 31, 800, 6, 6), item("Bureau Veritas", 280, 800, 6, 40), item("January 2020", 520, 800, 6, 35)];
  const second = [...body(100), item("January 2020", 59.5, 800, 6, 35), item("Bureau Veritas", 280, 800, 6, 40), item("49", 560, 800, 6, 6)];
  const md = renderPages([analyzePage(first, 1, 595, 842), analyzePage(second, 2, 595, 842)]).markdown;
  expect(md).not.toContain("Bureau Veritas");
  expect(md).not.toContain("January 2020");
});

test("a listing's labelled title over it is no heading, and a dashed separator typed in the listing's face stays in the listing", async () => {
  const body = (y: number): TypesetRun[] => typesetProse(4, y, 10, 80, 3);
  const page: TypesetRun[] = [
    { font: "Helvetica-Bold", size: 14, x: 56, y: 790, text: "6.3 Port Cross-Connect" },
    ...body(770),
    { font: "Helvetica-Bold", size: 11, x: 80, y: 700, text: "Example: Multiple PXCs on the same cross-connect (classic CLI)" },
    { font: "Courier", size: 8, x: 112, y: 680, text: "A:node-2>config>port-xc# info" },
    { font: "Courier", size: 8, x: 112, y: 670, text: "----------------------------------------------" },
    { font: "Courier", size: 8, x: 124, y: 660, text: "pxc 1 create" },
    { font: "Courier", size: 8, x: 136, y: 650, text: "port 1/x1/1/c1/1" },
    { font: "Courier", size: 8, x: 124, y: 640, text: "exit" },
    ...body(610),
  ];
  const md = await typesetMarkdown([page]);
  expect(md).not.toMatch(/^#+ Example:/m);
  expect(md).toContain("Example: Multiple PXCs");
  expect(md).toMatch(/```\nA:node-2>config>port-xc# info\n-{46}\n/);
});
