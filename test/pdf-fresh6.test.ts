/**
 * Layouts of the sixth fresh group's kinds (issue 16, item 3; bench/README "branch h/fresh12"),
 * typeset with the standard fonts (test/helpers/typesetPdf.ts) and read by pdf.js, or the rules
 * that read them called directly.
 */
import { expect, test } from "bun:test";
import { isBoldFontName } from "../src/convert/pdfText";
import { typesetMarkdown } from "./helpers/layoutMarkdown";
import { textWidth, type TypesetRun } from "./helpers/typesetPdf";

/** PROSE: lines of a body paragraph in 10 pt Times */
const PROSE = [
  "It has been argued that a scalar field may be a candidate to form the main part of",
  "the dark matter in the universe, and this alternative is called the field model. The",
  "mass of this field is assumed ultra light, and obeys an equation of state with a ratio",
];

test("URW's Times bold, as LaTeX papers embed it (NimbusRomNo9L-Medi), is a bold face; other faces named medium are not", () => {
  // REVTeX's "I. INTRODUCTION" and times.sty's heads are set in it: the embedded font keeps its URW name
  expect(isBoldFontName("RGRSYN+NimbusRomNo9L-Medi")).toBe(true);
  expect(isBoldFontName("PQRCQV+NimbusRomNo9L-MediItal")).toBe(true);
  expect(isBoldFontName("NimbusRomNo9L-Regu")).toBe(false);
  // URW Chancery's regular face, and the medium weights of other families, are not bold
  expect(isBoldFontName("URWChanceryL-MediItal")).toBe(false);
  expect(isBoldFontName("ABCDEF+Roboto-Medium")).toBe(false);
});

/** manualPage: a manual's page: a numbered head in Helvetica bold, a paragraph, then `title` in bold in the body's size right over a C listing in Courier, and a paragraph after */
function manualPage(title: string): TypesetRun[] {
  const runs: TypesetRun[] = [{ font: "Helvetica-Bold", size: 12, x: 60, y: 780, text: "3.2 Add item" }];
  const para = ["Allocate and initialize your structure as you see fit. The only aspect of this that matters", "is that your key must be initialized to a unique value. Then call the macro to add it."];
  para.forEach((line, i) => runs.push({ font: "Times-Roman", size: 10, x: 60, y: 755 - i * 12, text: line }));
  runs.push({ font: "Times-Bold", size: 10, x: 60, y: 716, text: title });
  const code = ["void add_user(int user_id, char *name) {", "    struct my_struct *s;", "    s = malloc(sizeof(struct my_struct));", "    HASH_ADD_INT( users, id, s );", "}"];
  code.forEach((line, i) => runs.push({ font: "Courier", size: 9, x: 60, y: 700 - i * 11, text: line }));
  para.forEach((line, i) => runs.push({ font: "Times-Roman", size: 10, x: 60, y: 630 - i * 12, text: line }));
  return runs;
}

test("a bold phrase in the body's size right over a listing is the listing's title, not a heading; a one-word label over it stays one", async () => {
  const titled = await typesetMarkdown([manualPage("Add an item to a hash")]);
  expect(titled).toContain("```");
  expect(titled).toMatch(/^#{1,6} 3\.2 Add item$/m);
  expect(titled).not.toMatch(/^#{1,6} Add an item to a hash$/m);
  expect(titled).toContain("Add an item to a hash");
  const labelled = await typesetMarkdown([manualPage("Parameters")]);
  expect(labelled).toMatch(/^#{1,6} Parameters$/m);
});

/** twoColumnExponent: a page of two columns whose lines interleave (the right column's baselines 4.6 pt above the left's), and in the left column an exponent raised 3.6 pt: "about 10²² eV)", the exponent on the baseline of the right column's line beside */
function twoColumnExponent(): TypesetRun[] {
  const left = ["It has been argued that a scalar field may be a", "candidate to form the main part of the dark", "matter; its mass is assumed ultra light", "and it obeys an equation of state with a ratio", "between minus one and one in the model."];
  const right = ["Between the times of decoupling and the transition,", "neutrinos just stream freely due to the negligible", "interaction with the rest of the matter. Thus, the", "combined effect clears off the fluctuations, and", "there is no contribution to the acoustic peaks."];
  const runs: TypesetRun[] = [];
  left.forEach((line, i) => {
    const y = 700 - i * 12;
    if (i !== 2) return runs.push({ font: "Times-Roman", size: 10, x: 60, y, text: line });
    const lead = "about 10";
    const x2 = 60 + textWidth("Times-Roman", 10, lead);
    runs.push({ font: "Times-Roman", size: 10, x: 60, y, text: lead });
    runs.push({ font: "Times-Roman", size: 7, x: x2, y: y + 3.6, text: "22" });
    runs.push({ font: "Times-Roman", size: 10, x: x2 + textWidth("Times-Roman", 7, "22") + 2.5, y, text: "eV), and so " + line.slice(0, 20) });
  });
  right.forEach((line, i) => runs.push({ font: "Times-Roman", size: 10, x: 320, y: 700 + 4.6 - i * 12, text: line }));
  return runs;
}

test("an exponent sharing the baseline of the other column's line beside is read in its own line", async () => {
  const md = await typesetMarkdown([twoColumnExponent()]);
  expect(md).toContain("about 10<sup>22</sup> eV), and so");
  expect(md).not.toMatch(/^22$/m);
});

test("a formula's line led by a figure and a capital, with an exponent, is no numbered section title", async () => {
  // "0 M (t)t^k dt", a fraction's numerator on its own line between two paragraphs: its <sup> tag's letters are no word
  const runs: TypesetRun[] = [];
  PROSE.forEach((line, i) => runs.push({ font: "Times-Roman", size: 10, x: 60, y: 760 - i * 12, text: line }));
  // the lead's width: "0 M " by the AFM, "(t)t" by hand (333 + 278 + 333 + 278 thousandths)
  const end = 250 + textWidth("Times-Roman", 10, "0 M ") + 12.22;
  runs.push({ font: "Times-Roman", size: 10, x: 250, y: 690, text: "0 M (t)t" });
  runs.push({ font: "Times-Roman", size: 7, x: end, y: 693.6, text: "k" });
  runs.push({ font: "Times-Roman", size: 10, x: end + 6, y: 690, text: "dt" });
  PROSE.forEach((line, i) => runs.push({ font: "Times-Roman", size: 10, x: 60, y: 660 - i * 12, text: line }));
  const md = await typesetMarkdown([runs]);
  expect(md).toContain("t<sup>k</sup>");
  expect(md).not.toMatch(/^#{1,6} 0 M/m);
});
