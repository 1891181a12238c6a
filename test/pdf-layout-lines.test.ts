/**
 * Line building in the PDF layout, on a real form's text runs (pdf.js through extractPdfPages, then
 * renderPages; no server needed for a layout rule).
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { renderPages } from "../src/convert/pdfLayout";
import { extractPdfPages } from "../src/convert/pdfText";
import { typesetPdf, type TypesetRun } from "./helpers/typesetPdf";

const FORM = new Uint8Array(readFileSync(new URL("./fixtures/irs_form_4137_title_beside_form_number.pdf", import.meta.url)));

test("a title wrapped beside a large form number keeps its words apart ('Tax on', not 'Taxon'; 'Attachment 2013')", async () => {
  // IRS Form 4137: a 24 pt form number beside a 14 pt title over two lines draws them into one
  // line; the title's second line starts back inside its first.
  const result = await extractPdfPages({ bytes: FORM, first: 1, last: 1 });
  if (!result.ok) throw new Error(result.message);
  const md = renderPages(result.pages).markdown;
  expect(md).toContain("Medicare Tax on Unreported Tip Income");
  expect(md).toContain("Attachment 2013");
  expect(md).not.toContain("Taxon");
});

/** prose: `n` lines of a paragraph in Times at `size` pt from baseline `y` down at `x`, each about `chars` long (the last shorter, ending in a full stop) */
function prose(n: number, y: number, size = 10, chars = 95, seed = 0, x = 57): TypesetRun[] {
  const words = "the department keeps records of every patient who is admitted and of the care given while staff rotate between wards and clinics so that the registers show who was seen by whom and when each visit ended".split(" ");
  const runs: TypesetRun[] = [];
  for (let i = 0, k = seed; i < n; i++) {
    let line = "";
    while (line.length < (i === n - 1 ? chars / 2 : chars)) line += (line ? " " : "") + words[k++ % words.length];
    if (i === 0) line = line[0]!.toUpperCase() + line.slice(1);
    runs.push({ font: "Times-Roman", size, x, y: y - i * 1.2 * size, text: i === n - 1 ? `${line}.` : line });
  }
  return runs;
}

async function typesetMarkdown(pages: TypesetRun[][]): Promise<string> {
  const result = await extractPdfPages({ bytes: typesetPdf(pages), first: 1, last: pages.length });
  if (!result.ok) throw new Error(result.message);
  return renderPages(result.pages).markdown;
}

describe("headings by their kind", () => {
  test("a title of five wrapped lines in one size is one heading", async () => {
    const title = ["Understanding the barriers to setting up a", "healthcare quality improvement process in", "resource-limited settings: a situational analysis", "at the medical department of a central hospital", "in a southern African country"];
    const md = await typesetMarkdown([[...title.map((text, i) => ({ font: "Helvetica" as const, size: 22, x: 57, y: 780 - 26 * i, text })), ...prose(12, 620), ...prose(10, 460, 10, 95, 5)]]);
    expect(md).toMatch(/^# Understanding the barriers to setting up a healthcare quality improvement process in resource-limited settings: a situational analysis at the medical department of a central hospital in a southern African country$/m);
  });

  test("a bold title over a bracketed note and a table is a heading; the note stays text", async () => {
    const rows = [["Units", "Square Feet", "Square Yards"], ["1 square foot", "1", "0.111"], ["1 square yard", "9", "1"], ["1 acre", "43 560", "4 840"]];
    const table = rows.flatMap((row, r) => row.map((text, c) => ({ font: "Times-Roman" as const, size: 8, x: 120 + 130 * c, y: 560 - 11 * r, text })));
    const md = await typesetMarkdown([[...prose(12, 780), { font: "Times-Bold", size: 10, x: 220, y: 610, text: "Units of Area - Survey Measure" }, { font: "Times-Roman", size: 10, x: 230, y: 598, text: "(all underlined figures are exact)" }, ...table, ...prose(6, 480, 10, 95, 3)]]);
    expect(md).toMatch(/^#+ Units of Area - Survey Measure\n\n\(all underlined figures are exact\)\n\n\| Units \| Square Feet \| Square Yards \|/m);
  });

  test("a bold title in the body's size over lines of code in smaller monospace faces is a heading", async () => {
    // a function's signature as a manual sets it: its parameters' types a size smaller, each line a block of its own
    const code = [["word-count(", 9], ["arg: content fn,", 7.5], ["..options:", 9], [") -> content", 9]].map(([text, size], i) => ({ font: "Courier" as const, size: size as number, x: i === 0 || i === 3 ? 67 : 77, y: 590 - 11 * i, text: text as string }));
    const md = await typesetMarkdown([[...prose(12, 780, 11), { font: "Times-Bold", size: 11, x: 57, y: 610, text: "Parameters" }, ...code, ...prose(8, 530, 11, 95, 4)]]);
    expect(md).toMatch(/^#+ Parameters\n\nword-count\(/m);
  });

  test("on a slide, text in the size of most of the page's text is not a heading, nor is a bullet", async () => {
    const notes = prose(8, 780, 9, 95);
    const slide: TypesetRun[] = [{ font: "Helvetica", size: 18, x: 64, y: 760, text: "abc" }, ...["a", "b", "c"].map((text, i) => ({ font: "Helvetica" as const, size: 18, x: 162, y: 700 - 22 * i, text }))];
    const bullet: TypesetRun[] = [{ font: "Helvetica", size: 32, x: 223, y: 640, text: "\u0095 Body text" }];
    const md = await typesetMarkdown([notes, slide, bullet]);
    expect(md).not.toMatch(/^#+ /m);
    expect(md).toMatch(/^abc$/m);
    expect(md).toMatch(/^- Body text$/m);
  });
});

describe("a paper's front matter", () => {
  test("the article type over the title and the byline with affiliation marks are text; the title is the heading", async () => {
    const md = await typesetMarkdown([
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
    const md = await typesetMarkdown([[...rows, ...right]]);
    expect(md).toMatch(/^#+ References\n\n1\. Author A/m);
    expect(md).toContain("| State P15 | 1555 | 135.0 | (133.0-137.0) | 465 | 46.0 |");
    expect(md).not.toMatch(/\| References/);
  });
});
