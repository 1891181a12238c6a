/**
 * A letter drawn back over the space that ends the run before it (issue 16, item 3; bench/README
 * "branch h/fresh8"): dvips sets an accented letter from a glyph and an accent of their own, and
 * pdf.js reads the run before it with a space ("Gr " "égory", as an ACM paper's author names
 * come). The runs as pdf.js gives them, laid into lines by buildLines.
 */
import { expect, test } from "bun:test";
import type { PdfTextItem } from "../src/convert/pdfLayoutTypes";
import { buildLines } from "../src/convert/pdfLines";

/** run: a 12 pt run on baseline 221 from `x`, `width` wide, in font `font` */
function run(str: string, x: number, width: number, font = "g_d0_f3", spaced = false): PdfTextItem {
  return { str, x, y: 221, width, size: 12, font, ...(spaced ? { spaced } : {}) };
}

test("an accented letter set back over the space that ends the run before it continues the word ('Grégory Mounié', not 'Gr égory Mouni é')", () => {
  const [line] = buildLines([run("Gr ", 148.8, 18.6), run("égory Mouni ", 162.1, 71.3, "g_d0_f3", true), run("é", 228.1, 6.7, "g_d0_f3", true)]);
  expect(line!.segs.map((seg) => seg.text)).toEqual(["Grégory Mounié"]);
});

test("a letter in another face set back over a space (a math letter after 'and ') stays a word of its own", () => {
  const [line] = buildLines([run("We know a and ", 100, 74.1, "g_d0_f1"), run("ȧ", 168.8, 6.7, "g_d0_f9", true), run(" at the start", 176, 62, "g_d0_f1")]);
  expect(line!.segs[0]!.text).toContain("and ȧ at");
});
