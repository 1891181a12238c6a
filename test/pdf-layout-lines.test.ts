/**
 * Line building in the PDF layout, on a real form's text runs (pdf.js through extractPdfPages, then
 * renderPages; no server needed for a layout rule).
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { renderPages } from "../src/convert/pdfLayout";
import { extractPdfPages } from "../src/convert/pdfText";
import { type TypesetFont, type TypesetRun, textWidth, typesetPdf } from "./helpers/typesetPdf";

const FORM = new Uint8Array(readFileSync(new URL("./fixtures/irs_form_4137_title_beside_form_number.pdf", import.meta.url)));
const FORM_3903 = new Uint8Array(readFileSync(new URL("./fixtures/irs_form_3903_header_band.pdf", import.meta.url)));

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

/** lineRuns sets runs one after another on one baseline, each `after` points from the end of the one before (negative: it starts back inside it) */
function lineRuns(y: number, parts: Array<{ font: TypesetFont; text: string; after: number }>, size = 9): TypesetRun[] {
  let x = 72;
  return parts.map(({ font, text, after }) => {
    const run = { font, size, x: (x += after), y, text };
    x += textWidth(font, size, text);
    return run;
  });
}

async function pageMarkdown(runs: TypesetRun[]): Promise<string> {
  const result = await extractPdfPages({ bytes: typesetPdf([runs]), first: 1, last: 1 });
  if (!result.ok) throw new Error(result.message);
  return renderPages(result.pages).markdown;
}

test("a bold word set tight after a regular one, or a few points back inside it, is a word of its own", async () => {
  // The IRS's forms: bold words placed by hand in a face pdf.js measures wider or narrower than the
  // form's author did, 0.5 pt after the regular run or 2-3 pt back inside it, with no space between.
  const md = await pageMarkdown([
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
  const md = await pageMarkdown([
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

test("the text layer's space between a regular run and a bold one set tight after it stands (IRS Form 3903)", async () => {
  // pdf.js gives the form's space as a run 0.06 pt wide, and the bold run starts 0.5 pt after it.
  const result = await extractPdfPages({ bytes: FORM_3903, first: 1, last: 1 });
  if (!result.ok) throw new Error(result.message);
  const md = renderPages(result.pages).markdown;
  expect(md).toContain("See the Distance Test and Time Test in the instructions");
  expect(md).toContain("You cannot deduct your moving expenses");
  expect(md).toContain("Is line 3 more than line 4?");
  expect(md).toContain("www.irs.gov/form3903.");
  expect(md).toContain("Attachment 2013");
});
