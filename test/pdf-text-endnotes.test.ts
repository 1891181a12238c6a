/**
 * Endnotes printed after a document's text, numbered i, ii, ... (as LibreOffice prints an ODT's or
 * DOCX's endnotes): the raised roman mark becomes `[^i]` and the note's text goes to the end with
 * the footnotes (takeEndnotes in pdfNotes.ts); generated PDFs through extractPdfPages and renderPages.
 */
import { expect, test } from "bun:test";
import { typesetMarkdown } from "./helpers/layoutMarkdown";
import { runsInLine } from "./helpers/typesetPdf";

test("a raised roman mark whose note starts a line on a later page is an endnote: [^i], its text at the end", async () => {
  const md = await typesetMarkdown([
    [
      ...runsInLine(760, [["The text has a note", 11], ["i", 7, 4], [" and goes on here.", 11]]),
      ...runsInLine(744, [["A second paragraph with another", 11], ["ii", 7, 4], [" mark.", 11]]),
    ],
    [
      ...runsInLine(780, [["i", 9], ["  The first endnote says this.", 9]]),
      ...runsInLine(766, [["ii", 9], ["  The second endnote says that.", 9]]),
    ],
  ]);
  expect(md).toContain("The text has a note[^i] and goes on here.");
  expect(md).toContain("another[^ii] mark.");
  expect(md.trimEnd().endsWith("[^i]: The first endnote says this.\n[^ii]: The second endnote says that.")).toBe(true);
});

test("a line starting with a roman numeral that no raised mark names stays text", async () => {
  const md = await typesetMarkdown([
    [...runsInLine(760, [["The text has no note and goes on here.", 11]])],
    [...runsInLine(780, [["i", 9], ["  This line is just text.", 9]])],
  ]);
  expect(md).not.toContain("[^i]");
  expect(md).toContain("i This line is just text.");
});
