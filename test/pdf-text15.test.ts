/**
 * Text agreement losses by kind and the seventh fresh group's (issue 16, item 3; bench/README "branch
 * h/pdftext15"), typeset with the standard fonts (test/helpers/typesetPdf.ts) and read by pdf.js.
 */
import { expect, test } from "bun:test";
import { typesetMarkdown } from "./helpers/layoutMarkdown";
import { type TypesetRun, typesetProse } from "./helpers/typesetPdf";

test("a document whose only text is its page numbers keeps them: its pages' content, never an empty result", async () => {
  // a deck of pictures printed with its slide numbers: each page holds its number at the foot alone
  const pages: TypesetRun[][] = [1, 2, 3, 4, 5].map((n) => [{ font: "Helvetica", size: 12, x: 540, y: 30, text: String(n) }]);
  const md = await typesetMarkdown(pages);
  expect(md.split(/\s+/).filter(Boolean)).toEqual(["1", "2", "3", "4", "5"]);
});

test("page numbers beside a page's text are still dropped", async () => {
  const pages: TypesetRun[][] = [1, 2, 3].map((n) => [...typesetProse(6, 760, 10, 60, n), { font: "Helvetica", size: 10, x: 290, y: 30, text: String(n) }]);
  const md = await typesetMarkdown(pages);
  expect(md).not.toMatch(/^\s*[123]\s*$/m);
});
