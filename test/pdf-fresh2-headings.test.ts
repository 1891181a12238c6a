/**
 * Headings of the second fresh group's kinds (issue 16, item 3; bench/README "branch h/fresh8"): a
 * conference paper's grid of author blocks between its title and abstract, a note mark on the title,
 * a title broken by hand over centred lines, a subtitle under it, a law's article heads in a
 * heading face at the body's size, a glossary's letter heads. Typeset with the standard fonts, read by
 * pdf.js and laid out by renderPages.
 */
import { expect, test } from "bun:test";
import { isBoldFontName } from "../src/convert/pdfText";
import { typesetMarkdown } from "./helpers/layoutMarkdown";
import { typesetProse as prose, type TypesetFont, type TypesetRun } from "./helpers/typesetPdf";

/** centred: a run centred on `axis`, its width guessed at half its size a character (`k` of it for capitals) */
function centred(font: TypesetFont, size: number, axis: number, y: number, text: string, k = 0.5): TypesetRun {
  return { font, size, x: axis - (text.length * size * k) / 2, y, text };
}

test("an ACM paper's author blocks between its title and abstract are no headings, and the title's note mark is left out", async () => {
  const author = (axis: number, y: number, name: string, mail: string): TypesetRun[] => [
    centred("Helvetica", 12, axis, y, name),
    centred("Helvetica", 10, axis, y - 10, "Institut IMAG"),
    centred("Helvetica", 10, axis, y - 21, "51 avenue Jean Kuntzmann"),
    centred("Helvetica", 10, axis, y - 31, "38330 Montbonnot, France"),
    centred("Helvetica", 12, axis, y - 45, mail),
  ];
  const md = await typesetMarkdown([
    [
      centred("Helvetica-Bold", 18, 300, 760, "Scheduling Jobs on Cluster Platforms"),
      { font: "Helvetica", size: 9, x: 470, y: 766, text: "\x86" },
      ...author(170, 715, "Pierre Dutot", "pdutot@imag.fr"),
      ...author(430, 715, "Lionel Eyraud", "leyraud@imag.fr"),
      ...author(170, 640, "Gregory Mounie", "gmounie@imag.fr"),
      ...author(430, 640, "Denis Trystram", "dtrystram@imag.fr"),
      { font: "Helvetica-Bold", size: 12, x: 54, y: 555, text: "ABSTRACT" },
      ...prose(12, 540),
      { font: "Helvetica-Bold", size: 12, x: 54, y: 400, text: "General Terms" },
      ...prose(3, 386, 9, 54, 7),
      { font: "Helvetica-Bold", size: 12, x: 320, y: 555, text: "1. INTRODUCTION" },
      ...prose(20, 540, 9, 320, 3),
    ],
  ]);
  expect(md).toMatch(/^# Scheduling Jobs on Cluster Platforms$/m);
  expect(md).toMatch(/^#+ ABSTRACT$/m);
  expect(md).toMatch(/^#+ 1\. INTRODUCTION$/m);
  for (const text of ["Pierre Dutot", "Lionel Eyraud", "Denis Trystram", "pdutot@imag.fr", "dtrystram@imag.fr", "Institut IMAG"]) {
    expect(md).toContain(text);
    expect(md).not.toMatch(new RegExp(`^#+ .*${text.replace(/\./g, "\\.")}`, "m"));
  }
});

/** justified: `n` lines of a paragraph in Times 11 pt from baseline `y` down, full measure from 72 (the last short) */
function justified(n: number, y: number, seed = 0): TypesetRun[] {
  return prose(n, y, 11, 72, seed, 85);
}

test("a law's article heads, bold lines centred between its paragraphs at the body's spacing, are headings, whatever the line above ends in", async () => {
  const head = (y: number, text: string) => centred("Helvetica-Bold", 11, 285, y, text);
  const md = await typesetMarkdown([
    [
      { font: "Times-Roman", size: 11, x: 72, y: 760, text: "The House of Representatives has decreed the following law, which we have issued;" },
      head(747.35, "(Article One)"),
      ...justified(3, 734.7),
      head(696.75, "(Article Two)"),
      ...justified(4, 684.1, 5),
      head(633.5, "(Article Three)"),
      ...justified(3, 620.85, 9),
    ],
  ]);
  expect(md).toMatch(/^#+ \(Article One\)$/m);
  expect(md).toMatch(/^#+ \(Article Two\)$/m);
  expect(md).toMatch(/^#+ \(Article Three\)$/m);
  expect(md).toContain("which we have issued;");
});

test("two bold lines set flush right, the enacting words under a law's title, are no title of their own", async () => {
  const right = (y: number, text: string, width: number): TypesetRun => ({ font: "Helvetica-Bold", size: 11, x: 523 - width, y, text });
  const md = await typesetMarkdown([
    [
      centred("Helvetica-Bold", 20, 297, 780, "Law No. 8 of 2022"),
      right(740, "In the name of the people", 128),
      right(724, "The President of the Republic", 150),
      ...justified(6, 700),
      centred("Helvetica-Bold", 11, 297, 620, "(Article One)"),
      ...justified(4, 604, 4),
    ],
  ]);
  expect(md).toMatch(/^# Law No\. 8 of 2022$/m);
  expect(md).not.toMatch(/^#+ .*In the name of the people/m);
  expect(md).toContain("In the name of the people");
});

test("a face named for heads sets its text apart as bold does ('AhabSubhead', an Arabic gazette's article heads)", () => {
  expect(isBoldFontName("CTIDNK+AhabSubhead")).toBe(true);
  expect(isBoldFontName("ABCDEF+Minion-Heading")).toBe(true);
  expect(isBoldFontName("CTIDNK+Baghdad")).toBe(false);
});

test("a title broken by hand over centred lines set apart by more than the body's spacing is one heading", async () => {
  const md = await typesetMarkdown([
    [
      centred("Helvetica-Bold", 20, 297, 614, "- Guidelines -"),
      centred("Helvetica-Bold", 20, 297, 579, "Encoding of Header"),
      centred("Helvetica-Bold", 20, 297, 544, "training data for Grobid"),
      { font: "Helvetica", size: 12, x: 72, y: 470, text: "Document version: 0.02" },
      { font: "Helvetica", size: 12, x: 72, y: 455, text: "Author(s): Patrice Lopez" },
    ],
    [{ font: "Helvetica-Bold", size: 14, x: 72, y: 760, text: "1. GENERATED TRAINING FILES" }, ...prose(8, 740, 12, 72, 0, 70)],
  ]);
  expect(md).toMatch(/^# - Guidelines - Encoding of Header training data for Grobid$/m);
  expect(md).toMatch(/^#+ 1\. GENERATED TRAINING FILES$/m);
});

test("a subtitle centred under a bold title, smaller and not bold, is no heading; the report's sections in its size are", async () => {
  const md = await typesetMarkdown([
    [
      centred("Helvetica-Bold", 20, 297, 762, "ANNUAL REPORT 2024", 0.62),
      centred("Helvetica", 14, 297, 741, "Acme Technology Solutions"),
      { font: "Helvetica-Bold", size: 14, x: 78, y: 699, text: "EXECUTIVE SUMMARY" },
      ...prose(4, 674, 11, 78, 0, 80),
      { font: "Helvetica-Bold", size: 14, x: 78, y: 600, text: "LOOKING AHEAD" },
      ...prose(3, 575, 11, 78, 4, 80),
    ],
  ]);
  expect(md).toMatch(/^# ANNUAL REPORT 2024$/m);
  expect(md).toMatch(/^#+ EXECUTIVE SUMMARY$/m);
  expect(md).toMatch(/^#+ LOOKING AHEAD$/m);
  expect(md).toMatch(/^Acme Technology Solutions$/m);
});

test("a glossary's letter head, a bold capital alone over entries that start with it, is a heading; a lone bold letter over other text is not", async () => {
  const entry = (y: number, text: string): TypesetRun[] => [{ font: "Times-Roman", size: 10, x: 54, y, text }, ...prose(2, y - 12, 10, 54, 3, 55)];
  const md = await typesetMarkdown([
    [
      { font: "Helvetica-Bold", size: 28, x: 54, y: 780, text: "Glossary" },
      { font: "Helvetica-Bold", size: 12, x: 54, y: 712, text: "A" },
      ...entry(692, "Abradable strip. A strip of material in the compressor housing"),
      ...entry(640, "Absolute pressure. Pressure referenced from zero pressure or"),
      ...entry(588, "Accumulator. A hydraulic component that stores a fluid under"),
      { font: "Helvetica-Bold", size: 12, x: 54, y: 520, text: "B" },
      ...entry(500, "The grammar of graphics is ubiquitous and provides the basis"),
      ...entry(448, "Tools so that a figure may be described by the mappings from"),
    ],
  ]);
  expect(md).toMatch(/^# Glossary$/m);
  expect(md).toMatch(/^#+ A$/m);
  expect(md).not.toMatch(/^#+ B$/m);
});
