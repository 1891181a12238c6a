/**
 * False headings on forms and invoices: generated PDFs (test/helpers/typesetPdf.ts) in the layouts of
 * real ones, read by the PDF layout engine.
 */
import { expect, test } from "bun:test";
import { layoutMarkdown } from "./helpers/layoutMarkdown";
import { fromTop, type TypesetRun, typesetPdf } from "./helpers/typesetPdf";

async function pageMarkdown(pdf: Uint8Array): Promise<string[]> {
  return (await layoutMarkdown(pdf)).split("\n").filter((line) => line.trim());
}

test("a form's margin label broken over lines ending in a comma is no heading", async () => {
  // A tax form's left margin names its parts in a larger bold face, one or two words a line
  // ("Payments," / "Credits," / "and Tax") beside the numbered lines in the body's size: a line
  // ending in a comma is the first part of a longer label, not a title.
  const run = fromTop;
  const runs: TypesetRun[] = [
    run("Helvetica", 9, 118, 358, "6 Subtract line 5 from line 4. If line 5 is larger than line 4, enter -0-. This is your taxable income. 6"),
    run("Helvetica", 9, 118, 370, "7 Federal income tax withheld from Form(s) W-2 and 1099. 7"),
    run("Helvetica-Bold", 12, 36, 388, "Payments,"),
    run("Helvetica", 9, 118, 382, "8a Earned income credit (EIC) (see instructions). 8a"),
    run("Helvetica-Bold", 12, 36, 400, "Credits,"),
    run("Helvetica", 9, 118, 394, "b Nontaxable combat pay election. 8b"),
    run("Helvetica-Bold", 12, 36, 412, "and Tax"),
    run("Helvetica", 9, 118, 406, "9 Add lines 7 and 8a. These are your total payments and credits. 9"),
    run("Helvetica", 9, 118, 418, "10 Tax. Use the amount on line 6 above to find your tax in the tax table in the instructions. 10"),
    run("Helvetica", 9, 118, 430, "11 If line 9 is larger than line 10, subtract line 10 from line 9. This is your refund. 11"),
  ];
  const lines = await pageMarkdown(typesetPdf([runs]));
  expect(lines.filter((line) => line.startsWith("#"))).toEqual([]);
  expect(lines.some((line) => line.includes("Payments,"))).toBe(true);
  expect(lines.some((line) => line.includes("Credits,"))).toBe(true);
});
