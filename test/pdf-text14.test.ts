/**
 * Text agreement losses by kind (issue 16, item 3; bench/README "branch h/pdftext14"), typeset with
 * the standard fonts (test/helpers/typesetPdf.ts) and read by pdf.js, or the rules called directly.
 */
import { expect, test } from "bun:test";
import { analyzePage, renderPages } from "../src/convert/pdfLayout";
import type { PdfTextItem } from "../src/convert/pdfLayoutTypes";
import { hyphenatedCompounds } from "../src/convert/pdfParagraphs";
import { typesetMarkdown } from "./helpers/layoutMarkdown";
import type { TypesetRun } from "./helpers/typesetPdf";

/** affiliations: a paper's title page: a title, then one affiliation a line, each led by its raised number set directly before it, then a paragraph */
function affiliations(): TypesetRun[] {
  const runs: TypesetRun[] = [{ font: "Times-Bold", size: 14, x: 150, y: 780, text: "OVERVIEW OF THE MULTILINGUAL TRACK" }];
  const places = ["CELCT, Trento, Italy (forner@celct.it)", "Departamento de Lenguajes y Sistemas, UNED, Madrid, Spain", "Computer Science Department, University of Basque Country, Spain"];
  places.forEach((place, i) => {
    runs.push({ font: "Times-Roman", size: 7, x: 150, y: 740 - i * 13 + 4, text: String(i + 1) });
    runs.push({ font: "Times-Roman", size: 10, x: 150 + 3.5, y: 740 - i * 13, text: place });
  });
  const body = ["The campaign was mainly the same as the one proposed last year, and the results reported", "by last year's participants suggested that the changes introduced had led to a drop in the", "performance of the systems, so this year the questions were grouped in clusters of topics."];
  body.forEach((line, i) => runs.push({ font: "Times-Roman", size: 10, x: 60, y: 660 - i * 12, text: line }));
  return runs;
}

test("a raised number opening a line labels it (an affiliation's number), written apart from its text, never a note mark", async () => {
  const md = await typesetMarkdown([affiliations()]);
  expect(md).toMatch(/^1 CELCT, Trento/m);
  expect(md).toMatch(/^2 Departamento de Lenguajes/m);
  expect(md).toMatch(/^3 Computer Science/m);
  expect(md).not.toContain("2Departamento");
});

/** compoundPage: a paragraph that prints "dual-encoder" and "open-domain" inside its lines, then breaks both at line ends, and breaks "d-" / "dimensional" and a plain word "mod-" / "els" */
function compoundPage(): TypesetRun[] {
  const lines = [
    "We train a dual-encoder for open-domain retrieval and compare it with the sparse",
    "models used by most systems; the trained dual-",
    "encoder maps each passage to a d-",
    "dimensional vector, and open-",
    "domain retrieval with such mod-",
    "els is fast on a large collection of passages and questions.",
  ];
  // every line but the last reaches the column's edge as justified prose does: set each word apart to fill it
  return lines.map((text, i) => ({ font: "Times-Roman", size: 10, x: 60, y: 700 - i * 12, text }));
}

test("a pair of words the document hyphenates inside a line keeps its hyphen when broken at a line end; so does one letter before a hyphen", async () => {
  const md = await typesetMarkdown([compoundPage()]);
  expect(md).toContain("trained dual-encoder maps");
  expect(md).toContain("d-dimensional vector");
  expect(md).toContain("open-domain retrieval with such");
  // a word broken by hyphenation, never printed whole with its hyphen, is joined
  expect(md).toContain("such models is fast");
});

test("hyphenatedCompounds reads the pairs inside lines, not a line's last word broken at its end, and is linear on a hostile line", () => {
  const pairs = hyphenatedCompounds(["a (dual-encoder), state-of-the-art x2-y and -ly open-", "domain"]);
  expect([...pairs].sort()).toEqual(["dual-encoder", "of-the", "state-of", "the-art"]);
  for (const hostile of ["-".repeat(100_000), "a-".repeat(50_000), ")".repeat(99_999) + "x", "(".repeat(50_000) + "a-b" + ")".repeat(50_000)]) {
    const start = performance.now();
    hyphenatedCompounds([hostile]);
    expect(performance.now() - start).toBeLessThan(500);
  }
});

/** run: a text item as pdf.js gives it (baseline `y` from the page's top), its width about half an em a character unless given */
function run(str: string, x: number, y: number, size: number, width = 0.5 * size * str.length): PdfTextItem {
  return { str, x, y, size, width };
}

/**
 * twoColumnNotes: a page of two columns whose baselines differ (the left column 10 pt on a 12 pt
 * pitch, the right 11 pt on 13.5 pt), the left column's paragraph ending "benchmarks." with a note
 * mark raised 3.6 pt (on the baseline of the right column's line beside it), an author's name
 * marked with TeX's raised asterisk operator "∗", and at the left column's foot the two notes in
 * 9 pt, each led by its raised label
 */
function twoColumnNotes(): PdfTextItem[] {
  const items: PdfTextItem[] = [run("Dense Passage Retrieval for Question Answering", 150, 80, 14), run("Vladimir Karpukhin", 200, 115, 12), run("∗", 308, 111, 8, 4.2)];
  const left = "the grammar of graphics is ubiquitous and it provides the foundation";
  for (let i = 0; i < 25; i++) items.push(run(left, 72, 144.7 + 12 * i, 10, 218));
  items.push(run("benchmarks.", 72, 444.7, 10, 50.6), run("1", 122.6, 441.1, 7, 3.5));
  const right = "while early systems are often complicated and consist of many parts";
  for (let i = 0; i < 40; i++) items.push(run(right, 306, 144.1 + 13.5 * i, 11, 218));
  items.push(run("∗", 84.7, 717.5, 6, 3.8), run("Equal contribution", 88.1, 721.3, 9, 66.8));
  items.push(run("1", 84.7, 728.4, 6, 3), run("The code and trained models have been released at our site.", 88.1, 732.2, 9, 202));
  return items;
}

test("a note mark raised after a word in one column, grouped with the other column's line, and a raised '∗' are note marks: the notes at the column's foot go to the end", () => {
  const md = renderPages([analyzePage(twoColumnNotes(), 1, 595, 842)]).markdown;
  expect(md).toContain("benchmarks.[^1]");
  expect(md).toContain("Karpukhin[^*]");
  expect(md).toMatch(/^\[\^1\]: The code and trained models/m);
  expect(md).toMatch(/^\[\^\*\]: Equal contribution$/m);
  expect(md).not.toMatch(/^1 The code/m);
});

/** bodyRuns: `n` lines of 10 pt prose from baseline `y`, 12 pt apart, at x = 107 */
function bodyRuns(y: number, n: number): PdfTextItem[] {
  const text = "the following short sections in this introduction will show you how this chapter fits";
  return Array.from({ length: n }, (_, i) => run(i === n - 1 ? "into the scheme of the book." : text, 107, y + 12 * i, 10, i === n - 1 ? 130 : 390));
}

test("a book's running head spread from its folio to its title on a page's top line goes; a numbered heading at a page's top stays", () => {
  const first = renderPages([analyzePage([{ ...run("2.1 Introduction", 107, 100, 14.5, 125), bold: true }, ...bodyRuns(130, 40)], 1, 612, 792)]).markdown;
  expect(first).toContain("2.1 Introduction");
  const spread = [run("102", 160.7, 105.9, 10, 15), run("CHAPTER 2. MATHEMATICAL INDUCTION", 330, 105.9, 10, 174.4), ...bodyRuns(134, 40)];
  const md = renderPages([analyzePage(bodyRuns(100, 50), 1, 612, 792), analyzePage(spread, 2, 612, 792)]).markdown;
  expect(md).not.toContain("MATHEMATICAL INDUCTION");
  // the same words set close together are a line of the text (a numbered title in the body's size at the page's top)
  const close = [run("3 Results of the survey", 107, 105.9, 10, 105), ...bodyRuns(134, 40)];
  expect(renderPages([analyzePage(bodyRuns(100, 50), 1, 612, 792), analyzePage(close, 2, 612, 792)]).markdown).toContain("3 Results of the survey");
});

test("a periodical's masthead lines (contact details, volume and issue, 'Page 2.') are no headings, however large or bold", () => {
  const items = [
    { ...run("WEEKLY EPIDEMIOLOGICAL REPORT", 120, 60, 24, 380), bold: true },
    { ...run("Tele: + 94 11 2695112, Fax: +94 11 2696583, E mail: epidunit@sltnet.lk", 120, 90, 12, 380), bold: true },
    { ...run("Vol. 52 No. 36", 120, 110, 12, 90), bold: true },
    { ...run("Rationale for Targeting Police Personnel", 72, 140, 12, 240), bold: true },
    ...bodyRuns(160, 20),
    { ...run("Page 2.", 72, 420, 12, 40), bold: true },
    ...bodyRuns(440, 10),
  ];
  const md = renderPages([analyzePage(items, 1, 612, 792)]).markdown;
  expect(md).toMatch(/^# WEEKLY EPIDEMIOLOGICAL REPORT$/m);
  expect(md).toMatch(/^#{1,6} Rationale for Targeting Police Personnel$/m);
  expect(md).not.toMatch(/^#{1,6} (?:Tele|Vol\.|Page 2)/m);
  expect(md).toContain("Vol. 52 No. 36");
});

test("mastheadLine's patterns are linear on hostile lines", () => {
  for (const hostile of ["a".repeat(100_000), "a@".repeat(50_000), "vol. 1 ".repeat(14_000), "x@y".repeat(33_000) + "!"]) {
    const start = performance.now();
    renderPages([analyzePage([{ ...run(hostile.slice(0, 100_000), 72, 100, 14, 500), bold: true }, ...bodyRuns(130, 10)], 1, 612, 792)]);
    expect(performance.now() - start).toBeLessThan(2000);
  }
});
