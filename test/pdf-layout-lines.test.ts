/**
 * Line building in the PDF layout, on a real form's text runs (pdf.js through extractPdfPages, then
 * renderPages; no server needed for a layout rule).
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { layoutMarkdown, typesetMarkdown as pagesMarkdown } from "./helpers/layoutMarkdown";
import { runsInLine, type TypesetFont, type TypesetRun, textWidth, typesetPdf, typesetProse } from "./helpers/typesetPdf";

const FORM = new Uint8Array(readFileSync(new URL("./fixtures/irs_form_4137_title_beside_form_number.pdf", import.meta.url)));
const FORM_3903 = new Uint8Array(readFileSync(new URL("./fixtures/irs_form_3903_header_band.pdf", import.meta.url)));


test("a title wrapped beside a large form number keeps its words apart ('Tax on', not 'Taxon'; 'Attachment 2013')", async () => {
  // IRS Form 4137: a 24 pt form number beside a 14 pt title over two lines draws them into one
  // line; the title's second line starts back inside its first.
  const md = await layoutMarkdown(FORM);
  expect(md).toContain("Medicare Tax on Unreported Tip Income");
  expect(md).toContain("Attachment 2013");
  expect(md).not.toContain("Taxon");
});

/** lineRuns sets runs one after another on one baseline, each `after` points from the end of the one before (negative: it starts back inside it) */
function lineRuns(y: number, parts: Array<{ font: TypesetFont; text: string; after: number }>, size = 9): TypesetRun[] {
  let x = 72;
  return parts.map(({ font, text, after }) => {
    const run = { font, size, x: (x += after), y, text };
    x += textWidth(font, size, text);
    return run;
  });
}

async function typesetMarkdown(runs: TypesetRun[]): Promise<string> {
  return layoutMarkdown(typesetPdf([runs]));
}

/** prose: `n` lines of a paragraph in Times at `size` pt from baseline `y` down at `x`, each about `chars` long (the last shorter, ending in a full stop) */
function prose(n: number, y: number, size = 10, chars = 95, seed = 0, x = 57): TypesetRun[] {
  const text = "the department keeps records of every patient who is admitted and of the care given while staff rotate between wards and clinics so that the registers show who was seen by whom and when each visit ended";
  return typesetProse(n, y, size, x, seed, chars, { leading: 1.2, text });
}

test("a bullet or an item number printed without a space before its text (a list style with no indent) opens a list item", async () => {
  // LibreOffice prints a list whose style sets no indent so: "•A list", "–Another list", "1.FIXME Should be 1.1."
  // (the bullet and the dash as WinAnsi codes 0x95 and 0x96: the test PDF is written in Latin-1)
  const md = await typesetMarkdown([
    { font: "Times-Roman", size: 12, x: 72, y: 760, text: "Paragraph before the lists." },
    { font: "Times-Roman", size: 12, x: 72, y: 740, text: "\x95A list" },
    { font: "Times-Roman", size: 12, x: 72, y: 726, text: "\x95A nested list" },
    { font: "Times-Roman", size: 12, x: 72, y: 712, text: "\x96Another list" },
    { font: "Times-Roman", size: 12, x: 72, y: 698, text: "1.A numbered list" },
    { font: "Times-Roman", size: 12, x: 72, y: 684, text: "1.FIXME Should be 1.1." },
  ]);
  // before: "•A list" and "1.A numbered list 1.FIXME Should be 1.1." as lines of one paragraph
  for (const item of ["- A list", "- A nested list", "- Another list", "1. A numbered list", "1. FIXME Should be 1.1."]) expect(md.split("\n")).toContain(item);
});

test("small text raised or lowered directly after a character is a superscript or subscript; a raised number with a footnote on the page stays a note", async () => {
  const md = await typesetMarkdown([
    ...runsInLine(760, [["some ", 12], ["10", 12], ["22", 8, 4], [" stars near ", 12], ["1", 12], ["st", 8, 4], [" one.", 12]]),
    ...runsInLine(740, [["some H", 12], ["2", 8, -2], ["O in an area of 3 m", 12], ["2", 8, 4], [" or 10", 12], ["-3", 8, 4], [" m", 12], ["3", 8, 4], [".", 12]]),
    ...runsInLine(720, [["some notes", 12], ["1", 8, 4], [" on 1,234.56 or 1,234.56", 12], [" more.", 12]]),
    ...runsInLine(100, [["1", 8, 3], ["A note.", 9]]),
  ]);
  expect(md).toContain("some 10<sup>22</sup> stars near 1<sup>st</sup> one.");
  expect(md).toContain("some H<sub>2</sub>O in an area of 3 m<sup>2</sup> or 10<sup>-3</sup> m<sup>3</sup>.");
  expect(md).toContain("some notes[^1] on 1,234.56 or 1,234.56 more.");
  expect(md).toContain("[^1]: A note.");
});

test("a fraction of small raised and lowered digits, small capitals and a note number after a space stay plain", async () => {
  const md = await typesetMarkdown([
    ...runsInLine(760, [["some 2 ", 12], ["1", 8, 4], ["/", 12], ["2", 8, -2], [" and 3", 12], ["1", 8, 4], ["/", 12], ["4", 8, -2], [" more", 12]]),
    ...runsInLine(740, [["S", 12], ["MALL", 9.6], [" ", 12], ["S", 12], ["ASS", 9.6], [" some rest.", 12]]),
    ...runsInLine(720, [["some notes ", 12], ["6", 8, 4], [" more.", 12]]),
  ]);
  expect(md).toContain("some 2 1/2 and 31/4 more"); // as the page reads without the sizes
  expect(md).toContain("SMALL SASS some rest.");
  expect(md).toContain("some notes 6 more.");
  expect(md).not.toContain("<su");
});

test("a heading's raised note and affiliation marks without a footnote on the page stay plain, its other scripts stay", async () => {
  const md = await typesetMarkdown([
    ...runsInLine(760, [["Some Results", 20], ["2", 12, 7], [" on CO", 20], ["2", 12, -3]]),
    ...runsInLine(730, [["Some text here that is a paragraph of the body, in the body size, as a page has it.", 12]]),
    ...runsInLine(715, [["Some more text here that is a paragraph of the body, in the body size, as a page has it.", 12]]),
  ]);
  expect(md).toContain("# Some Results 2 on CO<sub>2</sub>\n");
});

test("NIST SP 811's units (public domain, bench/expected/pdf-born-digital): exponents as superscripts in table cells, footnote marks as notes", async () => {
  const guide = new Uint8Array(readFileSync(new URL("../bench/expected/pdf-born-digital/nist-sp811-si-units.pdf", import.meta.url)));
  const md = await layoutMarkdown(guide, 4);
  expect(md).toContain("| area | square meter | m<sup>2</sup> |");
  expect(md).toContain("| wavenumber | reciprocal meter | m<sup>−1</sup> |");
  expect(md).toContain("| specific volume | cubic meter per kilogram | m<sup>3</sup>/kg |");
  expect(md).toMatch(/\[\^1\]: The NIST policy on the use of the SI/);
  expect(md).not.toMatch(/<sup>\d<\/sup>: /);
});

test("a bold word set tight after a regular one, or a few points back inside it, is a word of its own", async () => {
  // The IRS's forms: bold words placed by hand in a face pdf.js measures wider or narrower than the
  // form's author did, 0.5 pt after the regular run or 2-3 pt back inside it, with no space between.
  const md = await typesetMarkdown([
    ...lineRuns(700, [
      { font: "Helvetica", text: "See the", after: 0 },
      { font: "Helvetica-Bold", text: "Distance Test", after: 0.5 },
      { font: "Helvetica", text: "and", after: -3 },
      { font: "Helvetica-Bold", text: "Time Test", after: 0.4 },
      { font: "Helvetica", text: "in the instructions", after: -2.2 },
    ]),
    ...lineRuns(680, [
      { font: "Helvetica", text: "Enter the", after: 0 },
      { font: "Helvetica-Bold", text: "smaller", after: -0.5 },
      { font: "Helvetica", text: "of line", after: 0.3 },
    ]),
  ]);
  expect(md).toContain("See the Distance Test and Time Test in the instructions");
  expect(md).toContain("Enter the smaller of line");
});

test("a word set in pieces stays one word: a font change at the run's end, or pieces of one font kerned or overlapping", async () => {
  const md = await typesetMarkdown([
    // a bold stem and its regular ending, the second set exactly at the first's advance
    ...lineRuns(700, [
      { font: "Helvetica-Bold", text: "bold", after: 0 },
      { font: "Helvetica", text: "face type", after: 0 },
    ]),
    // one face: a capital kerned into its word, a word set in pieces a little apart or overlapping
    ...lineRuns(680, [
      { font: "Helvetica", text: "T", after: 0 },
      { font: "Helvetica", text: "able", after: -0.6 },
      { font: "Helvetica", text: " set", after: 0 },
      { font: "Helvetica", text: " in pie", after: 0 },
      { font: "Helvetica", text: "ces", after: 0.8 },
      { font: "Helvetica", text: " over", after: 0 },
      { font: "Helvetica", text: "lap", after: -2 },
    ]),
  ]);
  expect(md).toContain("boldface type");
  expect(md).toContain("Table set in pieces overlap");
});

test("a space inside a run between a word and a comma is dropped; a form's blank before a comma, a gap between runs, stays", async () => {
  // NIST SP 811's table cell "amount concentration , concentration" is one run with the space in it.
  const md = await typesetMarkdown([
    ...runsInLine(700, [["amount concentration , concentration", 10]]),
    { font: "Times-Roman", size: 10, x: 72, y: 680, text: "tax year beginning" },
    { font: "Times-Roman", size: 10, x: 250, y: 680, text: ", 2013, ending" },
  ]);
  expect(md).toContain("amount concentration, concentration");
  expect(md).toMatch(/tax year beginning\s+, 2013, ending/);
});

test("the text layer's space between a regular run and a bold one set tight after it stands (IRS Form 3903)", async () => {
  // pdf.js gives the form's space as a run 0.06 pt wide, and the bold run starts 0.5 pt after it.
  const md = await layoutMarkdown(FORM_3903);
  expect(md).toContain("See the Distance Test and Time Test in the instructions");
  expect(md).toContain("You cannot deduct your moving expenses");
  expect(md).toContain("Is line 3 more than line 4?");
  expect(md).toContain("www.irs.gov/form3903.");
  expect(md).toContain("Attachment 2013");
});

describe("headings by their kind", () => {
  test("a title of five wrapped lines in one size is one heading", async () => {
    const title = ["Understanding the barriers to setting up a", "healthcare quality improvement process in", "resource-limited settings: a situational analysis", "at the medical department of a central hospital", "in a southern African country"];
    const md = await pagesMarkdown([[...title.map((text, i) => ({ font: "Helvetica" as const, size: 22, x: 57, y: 780 - 26 * i, text })), ...prose(12, 620), ...prose(10, 460, 10, 95, 5)]]);
    expect(md).toMatch(/^# Understanding the barriers to setting up a healthcare quality improvement process in resource-limited settings: a situational analysis at the medical department of a central hospital in a southern African country$/m);
  });

  test("a bold title over a bracketed note and a table is a heading; the note stays text", async () => {
    const rows = [["Units", "Square Feet", "Square Yards"], ["1 square foot", "1", "0.111"], ["1 square yard", "9", "1"], ["1 acre", "43 560", "4 840"]];
    const table = rows.flatMap((row, r) => row.map((text, c) => ({ font: "Times-Roman" as const, size: 8, x: 120 + 130 * c, y: 560 - 11 * r, text })));
    const md = await pagesMarkdown([[...prose(12, 780), { font: "Times-Bold", size: 10, x: 220, y: 610, text: "Units of Area - Survey Measure" }, { font: "Times-Roman", size: 10, x: 230, y: 598, text: "(all underlined figures are exact)" }, ...table, ...prose(6, 480, 10, 95, 3)]]);
    expect(md).toMatch(/^#+ Units of Area - Survey Measure\n\n\(all underlined figures are exact\)\n\n\| Units \| Square Feet \| Square Yards \|/m);
  });

  test("a bold title in the body's size over lines of code in smaller monospace faces is a heading, the code a fenced block", async () => {
    // a function's signature as a manual sets it: its parameters' types a size smaller, each line a block of its own
    const code = [["word-count(", 9], ["arg: content fn,", 7.5], ["..options:", 9], [") -> content", 9]].map(([text, size], i) => ({ font: "Courier" as const, size: size as number, x: i === 0 || i === 3 ? 67 : 77, y: 590 - 11 * i, text: text as string }));
    const md = await pagesMarkdown([[...prose(12, 780, 11), { font: "Times-Bold", size: 11, x: 57, y: 610, text: "Parameters" }, ...code, ...prose(8, 530, 11, 95, 4)]]);
    expect(md).toMatch(/^#+ Parameters\n\n```\nword-count\(\n  arg: content fn,\n  \.\.options:\n\) -> content\n```$/m);
  });

  test("a form's numbered line with leader dots to its box is not a heading, in any size; a numbered title is", async () => {
    // IRS Form 4868's "4 Estimate of total tax liability for 2013 . . . $", a size above the lines around it
    const md = await pagesMarkdown([[
      { font: "Times-Bold", size: 12, x: 57, y: 790, text: "2 Results of the survey" },
      ...prose(6, 770, 9),
      { font: "Times-Roman", size: 12, x: 57, y: 690, text: "4 Estimate of total tax liability for 2013 . . . . . . . . $" },
      ...prose(6, 670, 9, 95, 4),
    ]]);
    expect(md).toMatch(/^#+ 2 Results of the survey$/m);
    expect(md).toMatch(/^4 Estimate of total tax liability for 2013 \. \. \. \. \. \. \. \. \$$/m);
  });

  test("a theorem-like label in bold on a line of its own over its text is bold text of the paragraph, not a heading; a section title is", async () => {
    // Thoma's GeoTopo lecture notes: "Definition 8" / "Beispiel 9 (diskrete Metrik)" over their indented text, under "1.2 Metrische Räume"
    const label = (y: number, text: string): TypesetRun => ({ font: "Times-Bold", size: 10, x: 57, y, text });
    const md = await pagesMarkdown([[
      ...prose(6, 790),
      { font: "Helvetica-Bold", size: 14, x: 57, y: 700, text: "1.2 Metrische Räume" },
      label(680, "Definition 8"),
      ...prose(3, 668, 10, 90, 2, 69),
      // a label at line spacing under the last one's text, in one block with it
      label(632, "Bemerkung 3"),
      ...prose(2, 620, 10, 90, 5, 69),
      label(580, "Beispiel 9 (diskrete Metrik)"),
      ...prose(3, 568, 10, 90, 7, 69),
      label(520, "Lemma 2.1."),
      ...prose(3, 508, 10, 90, 4, 69),
      label(460, "Methods of care"),
      ...prose(4, 448, 10, 95, 9),
    ]]);
    expect(md).toMatch(/\.\n\*\*Bemerkung 3\*\*\n\S/);
    expect(md).toMatch(/^#+ 1\.2 Metrische Räume$/m);
    expect(md).toMatch(/^#+ Methods of care$/m);
    expect(md).not.toMatch(/^#+ (?:Definition|Beispiel|Lemma)/m);
    expect(md).toMatch(/^\*\*Definition 8\*\*$/m);
    expect(md).toMatch(/^\*\*Beispiel 9 \(diskrete Metrik\)\*\*$/m);
    expect(md).toMatch(/^\*\*Lemma 2\.1\.\*\*$/m);
  });

  test("a bold label that runs on with the paragraph's text on its line stays in the paragraph", async () => {
    const md = await typesetMarkdown([
      ...prose(6, 790),
      { font: "Times-Bold", size: 10, x: 57, y: 700, text: "Theorem 4." },
      { font: "Times-Roman", size: 10, x: 105, y: 700, text: "Every metric space is a Hausdorff space, and so is each of its subspaces." },
      ...prose(3, 688, 10, 95, 3),
    ]);
    expect(md).not.toMatch(/^#+ /m);
    expect(md).toContain("Theorem 4. Every metric space is a Hausdorff space");
  });

  test("the title over a table of contents is not a heading; the sections it lists are", async () => {
    const entries = ["1. Lorem ........................................ 1", "1.1. Lorem 1A ................................... 1", "1.2. Lorem 1B ................................... 2"];
    const md = await pagesMarkdown([
      [
        { font: "Helvetica-Bold", size: 16, x: 57, y: 790, text: "Table of Contents" },
        ...entries.map((text, i) => ({ font: "Times-Roman" as const, size: 10, x: 57, y: 760 - 14 * i, text })),
        { font: "Helvetica-Bold", size: 16, x: 57, y: 690, text: "1. Lorem" },
        ...prose(12, 670),
      ],
    ]);
    expect(md).toMatch(/^Table of Contents$/m);
    expect(md).toMatch(/^#+ 1\. Lorem$/m);
    expect(md.match(/^#+ /gm)).toHaveLength(1);
  });

  test("on a slide, text in the size of most of the page's text is not a heading, nor is a bullet", async () => {
    const notes = prose(8, 780, 9, 95);
    const slide: TypesetRun[] = [{ font: "Helvetica", size: 18, x: 64, y: 760, text: "abc" }, ...["a", "b", "c"].map((text, i) => ({ font: "Helvetica" as const, size: 18, x: 162, y: 700 - 22 * i, text }))];
    const bullet: TypesetRun[] = [{ font: "Helvetica", size: 32, x: 223, y: 640, text: "\u0095 Body text" }];
    const md = await pagesMarkdown([notes, slide, bullet]);
    expect(md).not.toMatch(/^#+ /m);
    expect(md).toMatch(/^abc$/m);
    expect(md).toMatch(/^- Body text$/m);
  });
});

describe("a paper's front matter", () => {
  test("the article type over the title and the byline with affiliation marks are text; the title is the heading", async () => {
    const md = await pagesMarkdown([
      [
        { font: "Times-Bold", size: 13, x: 61, y: 790, text: "R E S E A R C H A R T I C L E Open Access" },
        { font: "Helvetica", size: 22, x: 57, y: 760, text: "Barriers to quality improvement in a hospital" },
        { font: "Times-Roman", size: 11, x: 57, y: 735, text: "Josephine Banda1*, Antje Moyo2,3, Charles Phiri 3 and Noor Alide4" },
        { font: "Times-Bold", size: 10.5, x: 63, y: 710, text: "Abstract" },
        ...prose(14, 695),
        ...prose(10, 500, 10, 95, 6),
      ],
    ]);
    expect(md).toMatch(/^# Barriers to quality improvement in a hospital$/m);
    expect(md).toMatch(/^#+ Abstract$/m);
    expect(md).toMatch(/^R E S E A R C H A R T I C L E Open Access$/m);
    expect(md).toMatch(/^Josephine Banda1\*, Antje Moyo2,3, Charles Phiri 3 and Noor Alide4$/m);
    expect(md.match(/^#+ /gm)).toHaveLength(2);
  });

  test("a byline whose affiliation marks are raised (superscripts) is text too", async () => {
    const md = await pagesMarkdown([
      [
        { font: "Helvetica", size: 22, x: 57, y: 760, text: "Barriers to quality improvement in a hospital" },
        ...runsInLine(735, [["Sam Hall", 11], ["1", 7, 4], [", Tom Cole", 11], ["2,3", 7, 4], [", Alma Rose", 11], ["3", 7, 4], [" and Lea Moss", 11], ["4", 7, 4]]),
        { font: "Times-Bold", size: 10.5, x: 63, y: 710, text: "Abstract" },
        ...prose(14, 695),
        ...prose(10, 500, 10, 95, 6),
      ],
    ]);
    expect(md).toMatch(/^# Barriers to quality improvement in a hospital$/m);
    expect(md).toContain("Sam Hall<sup>1</sup>, Tom Cole<sup>2,3</sup>");
    expect(md).not.toMatch(/^#+ .*Sam Hall/m);
    expect(md.match(/^#+ /gm)).toHaveLength(2);
  });

  test("the article type in the title's size but not bold, a byline of names without marks and a date under the title are text", async () => {
    // The way of Hindawi's papers ("Research Article" in 18 pt over the title in 18 pt bold, the
    // authors in 12 pt bold) and of LaTeX's \maketitle (the date in 12 pt under the authors)
    const md = await pagesMarkdown([
      [
        { font: "Times-Roman", size: 18, x: 57, y: 790, text: "Research Article" },
        { font: "Times-Bold", size: 18, x: 57, y: 758, text: "Patient Experiences of Structured Care Programmes" },
        { font: "Times-Bold", size: 12, x: 80, y: 740, text: "Nuala E. Tully, Karen M. Morgan, and Hannah M. McGee" },
        { font: "Times-Roman", size: 12, x: 200, y: 722, text: "January 3, 2024" },
        { font: "Times-Bold", size: 14, x: 57, y: 700, text: "Abstract" },
        ...prose(14, 685),
        ...prose(10, 500, 10, 95, 6),
      ],
    ]);
    expect(md).toMatch(/^# Patient Experiences of Structured Care Programmes$/m);
    expect(md).toMatch(/^#+ Abstract$/m);
    expect(md).toMatch(/^Research Article$/m);
    expect(md).toMatch(/^Nuala E\. Tully, Karen M\. Morgan, and Hannah M\. McGee$/m);
    expect(md).toMatch(/^January 3, 2024$/m);
    expect(md.match(/^#+ /gm)).toHaveLength(2);
  });
  test("one name under the title with a date under it is the byline, not a heading (LaTeX's \\maketitle)", async () => {
    const md = await pagesMarkdown([
      [
        { font: "Times-Roman", size: 17, x: 120, y: 780, text: "Two-Column Document with Lorem Ipsum" },
        { font: "Times-Roman", size: 12, x: 250, y: 750, text: "Your Name" },
        { font: "Times-Roman", size: 12, x: 240, y: 730, text: "January 3, 2024" },
        { font: "Times-Bold", size: 10, x: 57, y: 700, text: "Abstract" },
        ...prose(14, 685),
        ...prose(10, 500, 10, 95, 6),
      ],
    ]);
    expect(md).toMatch(/^# Two-Column Document with Lorem Ipsum$/m);
    expect(md).toMatch(/^Your Name$/m);
    expect(md).toMatch(/^#+ Abstract$/m);
    expect(md.match(/^#+ /gm)).toHaveLength(2);
  });
  test("one name under the title with the abstract further down the first page is the byline, not a heading (a journal's title page)", async () => {
    const md = await pagesMarkdown([
      [
        { font: "Helvetica-Bold", size: 20, x: 60, y: 790, text: "Visualizations of Distributions in a Grammar" },
        { font: "Helvetica", size: 12, x: 250, y: 765, text: "Hanna Example" },
        { font: "Helvetica", size: 7, x: 60, y: 740, text: "A. Some combinations of slabs" },
        { font: "Helvetica", size: 7, x: 60, y: 730, text: "B. Multiple ribbons" },
        { font: "Times-Roman", size: 10, x: 57, y: 700, text: "Abstract. The grammar of graphics is ubiquitous, providing the foundation for tools." },
        ...prose(14, 685),
      ],
    ]);
    expect(md).toMatch(/^# Visualizations of Distributions in a Grammar$/m);
    expect(md).toMatch(/^Hanna Example$/m);
    expect(md.match(/^#+ /gm)).toHaveLength(1);
  });
});

describe("two columns", () => {
  test("a table of figures in the left column beside prose in the right is read column by column; a title on a row's baseline is a heading, not a cell", async () => {
    // a caption over the table, as wide as the column
    const rows: TypesetRun[] = ["Table 6. Number of deaths and death rates for heart disease and", "stroke, by state and area, national registers, United States"].map((text, i) => ({ font: "Times-Bold", size: 9, x: 45, y: 790 - 10 * i, text }));
    for (let r = 0; r < 30; r++) {
      const cells = [`State ${String.fromCharCode(65 + (r % 26))}${r}`, `${1000 + 37 * r}`, `${(150 - r).toFixed(1)}`, `(${(148 - r).toFixed(1)}-${(152 - r).toFixed(1)})`, `${300 + 11 * r}`, `${(45 + (r % 7)).toFixed(1)}`];
      cells.forEach((text, c) => rows.push({ font: "Times-Roman", size: 7.5, x: [45, 130, 165, 195, 245, 275][c]!, y: 760 - 11 * r, text }));
    }
    // the right column: a paragraph, the title on the baseline of the 16th row, and the numbered references under it
    const right = [...prose(14, 760, 10, 52, 0, 323), { font: "Times-Bold" as const, size: 10, x: 323, y: 760 - 11 * 15, text: "References" }];
    for (let i = 0; i < 10; i++) right.push({ font: "Times-Roman", size: 9, x: 323, y: 580 - 11 * i, text: `${i + 1}. Author A, Author B. A study of the registers, part ${i + 1}. J Health 2009;${i}:1-16.` });
    const md = await pagesMarkdown([[...rows, ...right]]);
    expect(md).toMatch(/^#+ References\n\n1\. Author A/m);
    expect(md).toContain("| State P15 | 1555 | 135.0 | (133.0-137.0) | 465 | 46.0 |");
    expect(md).not.toMatch(/\| References/);
  });
  test("columns that start below a full-width title and abstract (a paper's first page) are read column by column, not line across line", async () => {
    // the head: a title, a line of authors and an abstract of 14 lines across the page
    const head: TypesetRun[] = [
      { font: "Times-Bold", size: 16, x: 57, y: 790, text: "Patient Experiences of Structured Care Programmes" },
      { font: "Times-Roman", size: 10, x: 57, y: 770, text: "Ann Author, Ben Author, and Cara Author" },
      ...prose(14, 740, 9, 120, 3),
    ];
    // two columns of 18 lines each under it; the left one opens with a numbered section title
    const left = [{ font: "Times-Bold" as const, size: 10, x: 57, y: 540, text: "1. Introduction" }, ...prose(17, 526, 10, 44, 5, 57)];
    const right = [...prose(18, 540, 10, 44, 11, 323)];
    right[0] = { ...right[0]!, text: "Zebra lines open the right column here" };
    left[left.length - 1] = { ...left[left.length - 1]!, text: "and the left column ends here." };
    const md = await pagesMarkdown([[...head, ...left, ...right]]);
    expect(md).toMatch(/^#+ 1\. Introduction$/m);
    expect(md).not.toContain("|");
    // the left column is read to its end before the right column starts
    expect(md.indexOf("and the left column ends here.")).toBeGreaterThan(0);
    expect(md.indexOf("Zebra lines open the right column")).toBeGreaterThan(md.indexOf("and the left column ends here."));
  });
  test("three columns under a full-width banner (the Federal Register's) are read column by column; a table across the foot keeps its caption and header row", async () => {
    // the banner across the page, then three columns of 150 pt at 40, 213 and 386 (a quarter of
    // the text's width each), each with a bold section head, and a table across all three below
    const head: TypesetRun[] = [{ font: "Times-Bold", size: 14, x: 40, y: 800, text: "Airworthiness Directives; Notices of Proposed Rulemaking" }];
    const column = (x: number, seed: number, title: string, last: string): TypesetRun[] => {
      const runs = [{ font: "Times-Bold" as const, size: 8, x, y: 770, text: title }, ...prose(39, 759, 8, 38, seed, x)];
      runs[runs.length - 1] = { ...runs[runs.length - 1]!, text: last };
      return runs;
    };
    const columns = [...column(40, 1, "Comments Invited", "and the first column ends here."), ...column(213, 9, "Background", "and the second column ends here."), ...column(386, 17, "Costs of Compliance", "and the third column ends here.")];
    const table: TypesetRun[] = [
      { font: "Times-Bold", size: 8, x: 250, y: 270, text: "ESTIMATED COSTS" },
      ...[["Action", 90], ["Labor cost", 230], ["Parts cost", 330], ["Cost per product", 410], ["Cost on operators", 490]].map(([text, x]) => ({ font: "Times-Roman" as const, size: 7, x: x as number, y: 258, text: text as string })),
    ];
    // the cells run on in dot leaders, across both gutters
    for (let r = 0; r < 3; r++) {
      [[`Action number ${r + 1} ........`, 40], ["1 work-hour x $85 per hour = $85", 180], ["$0 ..............................", 330], ["$85 ..............", 420], ["$6,205", 490]].forEach(([text, x]) => table.push({ font: "Times-Roman", size: 7, x: x as number, y: 246 - 10 * r, text: text as string }));
    }
    const md = await pagesMarkdown([[...head, ...columns, ...table]]);
    for (const title of ["Comments Invited", "Background", "Costs of Compliance"]) expect(md).toMatch(new RegExp(`^#+ ${title}$`, "m"));
    // before: the second and third columns read line across line, as a table of two columns of prose
    expect(md.indexOf("and the first column ends here.")).toBeLessThan(md.indexOf("Background"));
    expect(md.indexOf("and the second column ends here.")).toBeLessThan(md.indexOf("Costs of Compliance"));
    expect(md.indexOf("and the third column ends here.")).toBeLessThan(md.indexOf("ESTIMATED COSTS"));
    expect(md).toContain("| Action | Labor cost | Parts cost | Cost per product | Cost on operators |");
    expect(md).toMatch(/\| Action number 2 [ .]*\| 1 work-hour x \$85 per hour = \$85 \| \$0 [ .]*\| \$85 [ .]*\| \$6,205 \|/);
  });
  test("in narrow columns, a bold head right under a paragraph's last sentence and one wrapped over three lines are headings; a title in capitals centred over a table is none", async () => {
    // three columns of 150 pt in 8 pt Times: in the first, "Flightcrew Training" on the next line
    // after a paragraph's full stop, no gap above it (the Federal Register sets heads so at a column's
    // foot); in the second, a head over three lines; across the foot, "ESTIMATED COSTS" in 9 pt over a table
    const bold = (x: number, y: number, text: string): TypesetRun => ({ font: "Times-Bold", size: 8, x, y, text });
    const first = [bold(40, 770, "Comments Invited"), ...prose(16, 759, 8, 38, 1, 40), bold(40, 759 - 16 * 9.6, "Flightcrew Training"), ...prose(10, 759 - 17 * 9.6, 8, 38, 5, 40)];
    const second = [...prose(8, 770, 8, 38, 9, 213), bold(213, 690, "Explanation of Certain Provisions for"), bold(213, 680.4, "Alternative Methods of Compliance"), bold(213, 670.8, "(AMOCs)"), ...prose(19, 660, 8, 38, 3, 213)];
    const third = [...prose(28, 770, 8, 38, 17, 386)];
    const table: TypesetRun[] = [
      { font: "Times-Bold", size: 9, x: 225, y: 470, text: "ESTIMATED COSTS" },
      ...[["Action", 90], ["Labor cost", 230], ["Parts cost", 330], ["Cost per product", 410], ["Cost on operators", 490]].map(([text, x]) => ({ font: "Times-Roman" as const, size: 7, x: x as number, y: 458, text: text as string })),
    ];
    // the cells run on in dot leaders, across both gutters
    for (let r = 0; r < 3; r++) {
      [[`Action number ${r + 1} ........`, 40], ["1 work-hour x $85 per hour = $85", 180], ["$0 ..............................", 330], ["$85 ..............", 420], ["$6,205", 490]].forEach(([text, x]) => table.push({ font: "Times-Roman", size: 7, x: x as number, y: 446 - 10 * r, text: text as string }));
    }
    const md = await pagesMarkdown([[...first, ...second, ...third, ...table]]);
    // before: "Flightcrew Training" ran on as the paragraph's last line, the three-line head stayed a paragraph, "## ESTIMATED COSTS"
    expect(md).toMatch(/^#+ Flightcrew Training$/m);
    expect(md).toMatch(/^#+ Explanation of Certain Provisions for Alternative Methods of Compliance \(AMOCs\)$/m);
    expect(md).toMatch(/^ESTIMATED COSTS$/m);
    expect(md).toContain("| Action | Labor cost | Parts cost | Cost per product | Cost on operators |");
  });
});

describe("running headers", () => {
  test("a periodical's running head on a page of its own (a two-page notice: nothing repeats yet) is dropped by its form, not read as a heading", async () => {
    const page = (head: TypesetRun[], seed: number): TypesetRun[] => [...head, ...prose(30, 760, 10, 95, seed)];
    const md = await pagesMarkdown([
      page([{ font: "Times-Bold", size: 16, x: 57, y: 800, text: "Airworthiness Directives" }], 1),
      page([{ font: "Helvetica-Bold", size: 11, x: 57, y: 800, text: "47702 Federal Register / Vol. 85, No. 152 / Thursday, August 6, 2020 / Proposed Rules" }], 5),
    ]);
    expect(md).toMatch(/^# Airworthiness Directives$/m);
    expect(md).not.toContain("Federal Register / Vol. 85");
    // a title that names a volume, with no page number at an end, stays
    const kept = await pagesMarkdown([page([{ font: "Times-Bold", size: 16, x: 57, y: 800, text: "Collected Papers, Vol. 2, No. 3: Methods" }], 2)]);
    expect(kept).toContain("Collected Papers, Vol. 2, No. 3: Methods");
  });

  test("a header whose words change with the section, and a page number set apart from the journal's name, run with the page and are dropped", async () => {
    // a book's pages 6 to 10: its page number and the section the page is in, the section changing
    // on page 7 and 10; a journal's name on every page with the number apart at the right edge on
    // pages 8 and 9, before it on page 10
    const sections = ["1.1. TOPOLOGICAL SPACES", "1.2. METRIC SPACES", "1.2. METRIC SPACES", "1.2. METRIC SPACES", "1.3. CONTINUITY"];
    const pages = sections.map((section, i): TypesetRun[] => {
      const runs: TypesetRun[] = [{ font: "Times-Roman", size: 9, x: 57, y: 815, text: `${i + 6} ${section}` }, ...prose(30, 780, 10, 95, i * 7)];
      runs.push(...(i === 4 ? [{ font: "Times-Roman" as const, size: 8, x: 57, y: 30, text: `${i + 6} Journal of Careful Reading` }] : [{ font: "Times-Roman" as const, size: 8, x: 57, y: 30, text: "Journal of Careful Reading" }, ...(i >= 2 ? [{ font: "Times-Roman" as const, size: 8, x: 530, y: 30, text: `${i + 6}` }] : [])]));
      return runs;
    });
    const md = await pagesMarkdown(pages);
    expect(md).not.toMatch(/SPACES|CONTINUITY|Journal of Careful Reading/);
    expect(md).not.toMatch(/^\d+$/m);
    expect(md).toContain("The department keeps records");
  });
});

describe("a chart's text", () => {
  /** figureWidth: the width of a number in Helvetica at `size` (its figures 556/1000 of the size, its point 278) */
  const figureWidth = (text: string, size: number) => ([...text].reduce((sum, c) => sum + (c === "." ? 278 : 556), 0) * size) / 1000;

  /** axis: a chart's value axis as LibreOffice prints one: tick labels right-aligned at x2, from `top` down to `bottom` in equal steps, `step` points apart */
  function axis(values: number[], x2: number, top: number, step: number, size = 12): TypesetRun[] {
    return values.map((value, i) => {
      const text = String(value);
      return { font: "Helvetica" as const, size, x: x2 - figureWidth(text, size), y: top - i * step, text };
    });
  }

  test("a chart's title centred over its value axis is no heading; the slide's title over it stays one", async () => {
    // test.pptx's chart, printed by LibreOffice: its title an identifier in 18.5 pt over ticks 2003.5 ... 1998.5 in 12
    const md = await pagesMarkdown([[
      { font: "Helvetica", size: 30, x: 57, y: 790, text: "Sales by year" },
      { font: "Helvetica", size: 18, x: 200, y: 730, text: "Yearly totals chart" },
      ...axis([2003.5, 2003, 2002.5, 2002, 2001.5, 2001, 2000.5, 2000], 117, 700, 20),
      { font: "Helvetica", size: 12, x: 157, y: 545, text: "2000      2001      2002      2003" },
      { font: "Helvetica", size: 12, x: 287, y: 520, text: "Series 1" },
      ...prose(8, 470, 12),
    ]]);
    expect(md).toMatch(/^# Sales by year$/m);
    expect(md).toMatch(/^Yearly totals chart$/m);
    expect(md).not.toMatch(/^#+ Yearly totals chart$/m);
  });

  test("a line of text over a chart whose axis labels are all the rest of the page's text is no heading", async () => {
    // odfdo's chart document: "Some text" in 12 pt, then a bar chart whose ticks (400 ... 0) and labels are in 10
    const md = await pagesMarkdown([[
      { font: "Helvetica", size: 12, x: 57, y: 774, text: "Some text about the chart" },
      ...axis([400, 350, 300, 250, 200, 150, 100, 50, 0], 99, 700, 24, 10),
      { font: "Helvetica", size: 10, x: 488, y: 600, text: "Column 2" },
      { font: "Helvetica", size: 10, x: 488, y: 587, text: "Column 3" },
      { font: "Helvetica", size: 10, x: 135, y: 482, text: "Row 1            Row 2            Row 3            Row 4" },
    ]]);
    expect(md).toMatch(/^Some text about the chart$/m);
    expect(md).not.toMatch(/^#+ Some text/m);
  });

  test("numbers alone on lines that are not evenly stepped with their height are no axis: a title over them stays a heading", async () => {
    const md = await pagesMarkdown([[
      { font: "Helvetica", size: 18, x: 200, y: 730, text: "Results by ward" },
      ...[1204, 380, 77, 2950, 613].map((value, i) => ({ font: "Helvetica" as const, size: 12, x: 117 - figureWidth(String(value), 12), y: 700 - 20 * i, text: String(value) })),
      ...prose(8, 560, 12),
    ]]);
    expect(md).toMatch(/^#+ Results by ward$/m);
  });
});

describe("a sidebar at the left margin", () => {
  /** sidebar: a journal's first-page sidebar in 9 pt roman at x = 35 from `y` down, a line every 13.2 pt and a blank line between items (set between the main column's baselines) */
  function sidebar(y: number): TypesetRun[] {
    const items = [["Submitted", "25 March 2016"], ["Academic editor", "James Procter"], ["Copyright", "2017 Webb et al."], ["Distributed under", "Creative Commons"]];
    return items.flatMap(([label, value], i) => [
      { font: "Times-Roman" as const, size: 9, x: 35, y: y - 39.6 * i, text: label! },
      { font: "Times-Roman" as const, size: 9, x: 35, y: y - 39.6 * i - 13.2, text: value! },
    ]);
  }

  test("a narrow column of article facts beside the title and the introduction is read after the text above it, not line across line", async () => {
    // PeerJ's first page: the title and the section heading start at x = 184, the sidebar's items sit between the body's baselines
    const md = await pagesMarkdown([[
      { font: "Helvetica-Bold", size: 22, x: 184, y: 780, text: "Very large-scale Evolutionary and" },
      { font: "Helvetica-Bold", size: 22, x: 184, y: 756, text: "Selective Pressure Analyses" },
      ...prose(8, 720, 11, 70, 0, 184),
      { font: "Helvetica-Bold", size: 14, x: 184, y: 600, text: "INTRODUCTION" },
      ...prose(14, 580, 11, 70, 3, 184),
      ...sidebar(573.4),
    ]]);
    expect(md).toMatch(/^# Very large-scale Evolutionary and Selective Pressure Analyses$/m);
    expect(md).toMatch(/^#+ INTRODUCTION$/m);
    // the sidebar's lines together, before the section it stands beside; the introduction's paragraph whole under its title
    expect(md).toMatch(/\n\nSubmitted\s+25 March 2016\s+Academic editor\s+James Procter\s+Copyright\s+2017 Webb et al\.\s+Distributed under\s+Creative Commons\n\n#+ INTRODUCTION\n\nRecords of every patient[^\n]*\n?[^\n]*who was seen/);
  });

  test("side heads in bold at the margin, each on the first baseline of the paragraph it heads, stay with their paragraphs", async () => {
    // IRS Form 1040EZ's instructions: "Use this form if", "Filling in your return", ... beside their paragraphs
    const heads = ["Use this form", "if", "Filling in", "your return", "Mailing", "return"];
    const md = await pagesMarkdown([[
      ...prose(4, 780, 11, 70, 0, 184),
      ...[0, 1, 2].flatMap((k) => [
        { font: "Helvetica-Bold" as const, size: 11, x: 35, y: 720 - 90 * k, text: heads[2 * k]! },
        { font: "Helvetica-Bold" as const, size: 11, x: 35, y: 720 - 90 * k - 13.2, text: heads[2 * k + 1]! },
        ...prose(5, 720 - 90 * k, 11, 70, 3 + k, 184),
      ]),
    ]]);
    expect(md).not.toMatch(/Use this form\s+if\s+Filling in\s+your return/);
  });

  test("labels at the margin on the baselines of the text beside them (a form's rows) stay on their lines", async () => {
    const labels = ["Name", "Address", "City", "Phone", "E-mail", "Date"];
    const md = await pagesMarkdown([[
      ...prose(4, 780, 11, 70, 0, 184),
      ...labels.map((text, i) => ({ font: "Helvetica" as const, size: 9, x: 35, y: 700 - 14 * i, text })),
      ...prose(12, 700, 11, 70, 3, 184).map((run) => ({ ...run, y: 700 - Math.round((700 - run.y) / 13.2) * 14 })),
    ]]);
    // read as before: the rows of a table of two columns, not the labels in a column of their own
    expect(md).toMatch(/^\| Name \| Records of every patient/m);
    expect(md).not.toMatch(/^Name\nAddress/m);
  });
});

test("a paragraph cut by a page break goes on past the small print at the first page's foot (a citation line), which follows it", async () => {
  // The way of PeerJ CS's first page (VESPA, bench/expected/pdf-born-digital): the introduction
  // breaks off mid-sentence at the foot of the text, "How to cite this article ..." in 7 pt under
  // it, and page 2 goes on in lower case. The citation line ran into page 2's paragraph.
  const first = prose(12, 780, 10, 95);
  const last = first[first.length - 1]!;
  first[first.length - 1] = { ...last, text: `${last.text.slice(0, -1)} and Codeml` };
  const md = await pagesMarkdown([
    [...first, { font: "Times-Roman", size: 7, x: 57, y: 60, text: "How to cite this article Webb et al. (2017), VESPA. PeerJ Comput. Sci. 3:e118; DOI 10.7717/peerj-cs.118" }],
    prose(8, 780, 10, 95, 5).map((run, i) => (i === 0 ? { ...run, text: `is part of ${run.text[0]!.toLowerCase()}${run.text.slice(1)}` } : run)),
  ]);
  expect(md).toMatch(/and Codeml is part of /);
  expect(md).not.toMatch(/peerj-cs\.118 is part of/);
  expect(md).toMatch(/\n\nHow to cite this article Webb et al\. \(2017\), VESPA\. PeerJ Comput\. Sci\. 3:e118; DOI 10\.7717\/peerj-cs\.118$/);
});

test("a label, a colon and an amount in large bold print (an order's total) is a value, not a heading", async () => {
  // The way of ORDER-X's totals box: "Total Amount Without VAT: 300,00 EUR" in a larger bold face
  // among the order's labels, once the box is read apart from the delivery box beside it.
  const md = await pagesMarkdown([[
    { font: "Helvetica-Bold", size: 14, x: 57, y: 800, text: "Purchase Order" },
    ...prose(6, 770, 10, 95),
    { font: "Helvetica-Bold", size: 12, x: 57, y: 680, text: "Total Amount Without VAT: 300,00 EUR" },
    ...prose(5, 650, 10, 95, 7),
  ]]);
  expect(md).toMatch(/^#+ Purchase Order$/m);
  expect(md).toMatch(/^Total Amount Without VAT: 300,00 EUR$/m);
});
