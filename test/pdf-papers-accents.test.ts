/**
 * Accents drawn as glyphs of their own (composeSpacingAccents in pdfText.ts): a typesetter without
 * a precomposed "é" draws the letter and a spacing accent moved over it (the Federal Register's
 * "Ageˆncia", TeX's "Ren´e"). The text must carry the accented letter, not a letter and a loose
 * mark. Generated PDFs through extractPdfPages and renderPages.
 */
import { expect, test } from "bun:test";
import { typesetMarkdown } from "./helpers/layoutMarkdown";
import { textWidth, type TypesetRun } from "./helpers/typesetPdf";

const SIZE = 11;
const run = (x: number, text: string, y = 700): TypesetRun => ({ font: "Times-Roman", size: SIZE, x, y, text });
/** ACUTE, CEDILLA: the advance of the spacing acute and cedilla in Times-Roman (333 thousandths, Adobe's AFM) */
const ACUTE = (333 * SIZE) / 1000;
const CEDILLA = ACUTE;

test("an accent that opens a run drawn back over the letter before it goes on that letter", async () => {
  // "Montre" + "´al and Aviac" (the acute drawn back over the e) + "¸ao" (the cedilla back over the c)
  const first = 72;
  const second = first + textWidth("Times-Roman", SIZE, "Montre") - textWidth("Times-Roman", SIZE, "e") * 0.8;
  const third = second + ACUTE + textWidth("Times-Roman", SIZE, "al and Aviac") - textWidth("Times-Roman", SIZE, "c") * 0.8;
  const md = await typesetMarkdown([[run(first, "Montre"), run(second, "\u00b4al and Aviac"), run(third, "\u00b8ao to the north of the river, a line long enough to be a paragraph.")]]);
  expect(md).toContain("Montréal and Aviaçao to the north");
  expect(md).not.toContain("\u00b4");
  expect(md).not.toContain("\u00b8");
});

test("an accent drawn alone over the first letter of the next run goes on that letter", async () => {
  // TeX's OT1 fonts: "Ren", then the acute centred over where the e is drawn, then "e Pastor ..."
  const e = 72 + textWidth("Times-Roman", SIZE, "Ren");
  const md = await typesetMarkdown([[run(72, "Ren"), run(e + (textWidth("Times-Roman", SIZE, "e") - ACUTE) / 2, "\u00b4"), run(e, "e Pastor wrote the report on the river, a line long enough to be a paragraph.")]]);
  expect(md).toContain("René Pastor wrote");
});

test("an accent standing apart from the letters keeps its place", async () => {
  const md = await typesetMarkdown([[run(72, "the mark"), run(72 + textWidth("Times-Roman", SIZE, "the mark ") + 2, "\u00b8"), run(72 + textWidth("Times-Roman", SIZE, "the mark ") + CEDILLA + 8, "stands alone on the line, a line long enough to be a paragraph.")]]);
  expect(md).toContain("mark ¸ stands");
});
