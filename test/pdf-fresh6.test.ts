/**
 * Layouts of the sixth fresh group's kinds (issue 16, item 3; bench/README "branch h/fresh12"),
 * typeset with the standard fonts (test/helpers/typesetPdf.ts) and read by pdf.js, or the rules
 * that read them called directly.
 */
import { expect, test } from "bun:test";
import { isBoldFontName } from "../src/convert/pdfText";
import { typesetMarkdown } from "./helpers/layoutMarkdown";
import type { TypesetRun } from "./helpers/typesetPdf";

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
