/**
 * A line that ends in a word or code broken at a hyphen goes on in the next line, even when it
 * stops short of its column's edge (BROKEN_AT_END in pdfParagraphs.ts): a narrow text box's code, a
 * reference's title. Generated PDFs through extractPdfPages and renderPages.
 */
import { expect, test } from "bun:test";
import { typesetMarkdown } from "./helpers/layoutMarkdown";
import { type TypesetRun } from "./helpers/typesetPdf";

const line = (y: number, text: string, x = 72): TypesetRun => ({ font: "Times-Roman", size: 11, x, y, text });

test("a code broken at its hyphen over two lines of a text box is one word", async () => {
  const md = await typesetMarkdown([[line(760, "a3f6004b-6f4f-4ea8-bee3-"), line(747, "3741f4dc385f is the code, on a line wider than the first.")]]);
  expect(md).toContain("a3f6004b-6f4f-4ea8-bee3-3741f4dc385f is the code");
});

test("a reference's word broken at a line that ends short of the column is joined, a capital after the hyphen keeps it", async () => {
  const md = await typesetMarkdown([[
    line(760, "[9] S. Stemler, An overview of content analysis, Practical Assess-"),
    line(747, "ment, Research and Evaluation, vol. 7, no. 17, 2001, and more words to fill the line out."),
    line(734, "[10] Learning the Needs of Those We Serve, University of Wisconsin-"),
    line(721, "Madison, 2007, with a longer tail of words so that this line is the widest of all."),
  ]]);
  expect(md).toContain("Practical Assessment, Research");
  expect(md).toContain("University of Wisconsin-Madison, 2007");
});
