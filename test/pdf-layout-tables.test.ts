/**
 * Table detection in the PDF layout, on real documents' text runs (pdf.js through extractPdfPages,
 * then renderPages; no server needed for a layout rule).
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { renderPages } from "../src/convert/pdfLayout";
import { extractPdfPages } from "../src/convert/pdfText";

const FORM_3903 = new Uint8Array(readFileSync(new URL("./fixtures/irs_form_3903_header_band.pdf", import.meta.url)));

test("a form's header band (large form number, title, OMB number side by side) is text, not a table", async () => {
  // IRS Form 3903: "Form 3903" in 24 pt, "Moving Expenses" in 14 pt and "OMB No. 1545-0074" in 7 pt
  // share a baseline, as do the agency lines, the instructions and "Attachment 2013" below them:
  // three boxes side by side, which read as rows of cells.
  const result = await extractPdfPages({ bytes: FORM_3903, first: 1, last: 1 });
  if (!result.ok) throw new Error(result.message);
  const md = renderPages(result.pages).markdown;
  const lines = md.split("\n");
  expect(lines).toContain("Form 3903 Moving Expenses OMB No. 1545-0074");
  expect(lines.some((line) => line.includes("Attachment 2013") && line.startsWith("Department of the Treasury"))).toBe(true);
  expect(lines.filter((line) => line.startsWith("|") && /OMB No\.|Moving Expenses|Sequence No\./.test(line))).toEqual([]);
});
