/**
 * Line building in the PDF layout, on a real form's text runs (pdf.js through extractPdfPages, then
 * renderPages; no server needed for a layout rule).
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { renderPages } from "../src/convert/pdfLayout";
import { extractPdfPages } from "../src/convert/pdfText";

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
