/**
 * Headings of papers and manuals as LaTeX sets them (issue 16, item 3): titles in capitals and
 * small capitals, a chapter's label over its name, a formula's line that reads like a numbered
 * title. Typeset with the standard fonts, read by pdf.js and laid out by renderPages.
 */
import { expect, test } from "bun:test";
import { typesetMarkdown } from "./helpers/layoutMarkdown";
import { type TypesetFont, type TypesetRun, textWidth } from "./helpers/typesetPdf";

/** WIDTHS: advance widths (thousandths of the size) from the Adobe Core 14 AFM files of the capitals and digits set here, which the helper's table has not */
const WIDTHS: Partial<Record<TypesetFont, Record<string, number>>> = {
  "Times-Roman": { Y: 722, P: 556, T: 611, i: 278, t: 278, l: 278, e: 444 },
  "Times-Bold": { " ": 250, "1": 500, "2": 500, A: 722, C: 722, D: 722, E: 667, G: 778, H: 778, I: 389, N: 722, O: 778, R: 722, S: 556, T: 667, U: 722 },
};

function width(font: TypesetFont, size: number, text: string): number {
  const table = WIDTHS[font];
  return table ? [...text].reduce((sum, c) => sum + (table[c] ?? 0), 0) * size / 1000 : textWidth(font, size, text);
}

/** inLine sets runs one after another on one baseline from `x`, each `after` points from the end of the one before (negative: kerned back into it) */
function inLine(y: number, parts: Array<{ font: TypesetFont; size: number; text: string; after?: number }>, x = 72): TypesetRun[] {
  return parts.map(({ font, size, text, after = 0 }) => {
    const run = { font, size, x: (x += after), y, text };
    x += width(font, size, text);
    return run;
  });
}

/** prose: `n` lines of a paragraph in Times at `size` pt from baseline `y` down */
function prose(n: number, y: number, size = 9, seed = 0): TypesetRun[] {
  const words = "the grammar of graphics is ubiquitous and provides the foundation for a variety of popular tools so that a figure may be described by the mappings from data to what is drawn and how it is scaled".split(" ");
  const runs: TypesetRun[] = [];
  for (let i = 0, k = seed; i < n; i++) {
    let line = "";
    while (line.length < (i === n - 1 ? 40 : 85)) line += (line ? " " : "") + words[k++ % words.length];
    if (i === 0) line = line[0]!.toUpperCase() + line.slice(1);
    runs.push({ font: "Times-Roman", size, x: 72, y: y - i * 1.2 * size, text: i === n - 1 ? `${line}.` : line });
  }
  return runs;
}

test("a capital kerned into its small capitals in another face is one word ('Your Paper', not 'Y our P aper')", async () => {
  const md = await typesetMarkdown([
    [
      ...inLine(760, [
        { font: "Times-Roman", size: 17, text: "Y" },
        { font: "Helvetica", size: 17, text: "our", after: -0.5 },
        { font: "Times-Roman", size: 17, text: "P", after: 4.5 },
        { font: "Helvetica", size: 17, text: "aper", after: -1.4 },
        { font: "Times-Roman", size: 17, text: "Title", after: 4.5 },
      ]),
      ...prose(8, 720),
    ],
  ]);
  expect(md).toContain("# Your Paper Title");
  expect(md).not.toContain("Y our");
});

test("a section title in capitals and small capitals ('1 I' in 9 pt, 'NTRODUCTION' in 7.2) is a heading in its capitals' size", async () => {
  const head = (y: number, number: string, initial: string, rest: string) =>
    inLine(y, [
      { font: "Times-Bold", size: 9, text: number },
      { font: "Times-Bold", size: 9, text: initial, after: 9 },
      { font: "Times-Bold", size: 7.2, text: rest, after: 0.3 },
    ]);
  const md = await typesetMarkdown([
    [...prose(6, 780), ...head(690, "1", "I", "NTRODUCTION"), ...prose(8, 672, 9, 5), ...head(560, "2", "S", "ETTING THE STAGE"), ...prose(8, 542, 9, 9)],
  ]);
  expect(md).toMatch(/^#+ 1 INTRODUCTION$/m);
  expect(md).toMatch(/^#+ 2 SETTING THE STAGE$/m);
});

test("a chapter's label over its name is no heading of its own; the name is", async () => {
  const md = await typesetMarkdown([
    [
      { font: "Times-Bold", size: 20.7, x: 72, y: 700, text: "Chapter 1" },
      { font: "Times-Bold", size: 24.8, x: 72, y: 660, text: "Conventions" },
      ...prose(8, 620, 10),
      { font: "Times-Bold", size: 14.3, x: 72, y: 500, text: "1.1 Mechanics" },
      ...prose(8, 480, 10, 4),
    ],
  ]);
  expect(md).toMatch(/^# Conventions$/m);
  expect(md).toMatch(/^#+ 1\.1 Mechanics$/m);
  expect(md).not.toMatch(/^#+ Chapter 1$/m);
  expect(md).toContain("Chapter 1");
});

test("a displayed formula's line that starts like a numbered title ('0 W (t) dt') is no heading", async () => {
  const md = await typesetMarkdown([
    [
      ...prose(6, 760, 10),
      { font: "Times-Roman", size: 10, x: 200, y: 670, text: "0 W (t) dt" },
      ...prose(6, 640, 10, 3),
      { font: "Times-Bold", size: 10, x: 72, y: 550, text: "2 Results" },
      ...prose(6, 530, 10, 7),
    ],
  ]);
  expect(md).not.toMatch(/^#+ 0 W/m);
  expect(md).toContain("0 W (t) dt");
  expect(md).toMatch(/^#+ 2 Results$/m);
});

test("a numbered title broken by hand over two lines, the second hanging under its words, is one heading", async () => {
  const md = await typesetMarkdown([
    [
      ...prose(6, 780, 10),
      { font: "Times-Bold", size: 12, x: 72, y: 690, text: "3 Examples of citations, figures, tables," },
      { font: "Times-Bold", size: 12, x: 90, y: 676, text: "references" },
      ...prose(6, 656, 10, 3),
      { font: "Times-Bold", size: 10, x: 72, y: 570, text: "3.1 Uncertainty in the grammar of graphics," },
      { font: "Times-Bold", size: 10, x: 90, y: 559, text: "as she is spoke" },
      ...prose(6, 540, 10, 7),
    ],
  ]);
  expect(md).toMatch(/^#+ 3 Examples of citations, figures, tables, references$/m);
  expect(md).toMatch(/^#+ 3\.1 Uncertainty in the grammar of graphics, as she is spoke$/m);
  expect(md).not.toMatch(/^#+ (?:references|as she is spoke)$/m);
});

test("a bold section title over a one-line lead-in to a formula ('The equation to be solved is') is a heading", async () => {
  const md = await typesetMarkdown([
    [
      { font: "Times-Bold", size: 17, x: 150, y: 780, text: "Notes on Time Stepping" },
      ...prose(4, 740, 12),
      { font: "Times-Bold", size: 11, x: 72, y: 660, text: "THE NUMERICAL RECIPES METHOD" },
      { font: "Times-Roman", size: 12, x: 72, y: 630, text: "The equation to be solved is" },
      { font: "Times-Roman", size: 12, x: 250, y: 600, text: "a + b = 0 (1)" },
      ...prose(4, 570, 12, 5),
    ],
  ]);
  expect(md).toMatch(/^#+ THE NUMERICAL RECIPES METHOD$/m);
});

test("a title over two centred lines of about one length is one heading; a chart's labels in a picture font ('TqPBfhjRg') are none", async () => {
  const md = await typesetMarkdown([
    [
      { font: "Helvetica", size: 17, x: 154, y: 780, text: "ggdist: visualizations of distributions and" },
      { font: "Helvetica", size: 17, x: 158, y: 760, text: "uncertainty in the grammar of graphics" },
      { font: "Helvetica", size: 12, x: 400, y: 700, text: "TqPBfhjRg" },
      { font: "Helvetica", size: 12, x: 250, y: 670, text: "25 GHmrycLyBccqFPp" },
      ...prose(10, 650, 9),
    ],
  ]);
  expect(md).toMatch(/^# ggdist: visualizations of distributions and uncertainty in the grammar of graphics$/m);
  expect(md).not.toMatch(/^#+ (?:TqPBfhjRg|25 GHmrycLyBccqFPp)$/m);
});

test("numbered titles in a fourth size and below rank by it: 2.1.1 under 2.1, 2.1.1.1 under 2.1.1", async () => {
  const md = await typesetMarkdown([
    [{ font: "Times-Bold", size: 17, x: 150, y: 700, text: "Material Library" }, ...prose(3, 650, 10)],
    [
      { font: "Times-Bold", size: 24.8, x: 72, y: 700, text: "Material models" },
      ...prose(4, 660, 10),
      { font: "Times-Bold", size: 14.3, x: 72, y: 600, text: "2.1 Yield surfaces" },
      ...prose(4, 580, 10, 3),
      { font: "Times-Bold", size: 12, x: 72, y: 520, text: "2.1.1 Von Mises" },
      ...prose(4, 500, 10, 5),
      { font: "Times-Bold", size: 10, x: 72, y: 440, text: "2.1.1.1 Isotropic" },
      ...prose(4, 420, 10, 7),
    ],
  ]);
  const level = (title: string) => new RegExp(`^(#+) ${title.replace(/\./g, "\\.")}$`, "m").exec(md)?.[1]?.length ?? 0;
  expect(level("2.1 Yield surfaces")).toBeGreaterThan(0);
  expect(level("2.1.1 Von Mises")).toBeGreaterThan(level("2.1 Yield surfaces"));
  expect(level("2.1.1.1 Isotropic")).toBeGreaterThan(level("2.1.1 Von Mises"));
});
