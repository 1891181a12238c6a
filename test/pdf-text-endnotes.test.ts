/**
 * Endnotes printed after a document's text, numbered i, ii, ... (as LibreOffice prints an ODT's or
 * DOCX's endnotes): the raised roman mark becomes `[^i]` and the note's text goes to the end with
 * the footnotes (takeEndnotes in pdfLayout.ts); generated PDFs through extractPdfPages and renderPages.
 */
import { expect, test } from "bun:test";
import { renderPages } from "../src/convert/pdfLayout";
import { extractPdfPages } from "../src/convert/pdfText";
import { type TypesetRun, typesetPdf } from "./helpers/typesetPdf";

async function pdfMarkdown(pages: TypesetRun[][]): Promise<string> {
  const result = await extractPdfPages({ bytes: typesetPdf(pages), first: 1, last: pages.length });
  if (!result.ok) throw new Error(result.message);
  return renderPages(result.pages).markdown;
}

/** TIMES: advance widths (per 1000 of the size) of the Times-Roman characters the lines use */
const TIMES: Record<string, number> = { " ": 250, ".": 250, "!": 333, "A": 722, "T": 611, "S": 556, "a": 444, "b": 500, "c": 444, "d": 500, "e": 444, "f": 333, "g": 500, "h": 500, "i": 278, "j": 278, "k": 500, "l": 278, "m": 778, "n": 500, "o": 500, "p": 500, "r": 333, "s": 389, "t": 278, "u": 500, "v": 500, "w": 722, "x": 500, "y": 500 };

/** runsInLine sets runs one after the other on a baseline, each (text, size, rise) directly after the one before */
function runsInLine(y: number, parts: Array<[text: string, size: number, rise?: number]>): TypesetRun[] {
  let x = 72;
  return parts.map(([text, size, rise = 0]) => {
    const run: TypesetRun = { font: "Times-Roman", size, x, y: y + rise, text };
    x += ([...text].reduce((sum, c) => sum + (TIMES[c] ?? Number.NaN), 0) * size) / 1000;
    if (Number.isNaN(x)) throw new Error(`no width for a character of '${text}'`);
    return run;
  });
}

test("a raised roman mark whose note starts a line on a later page is an endnote: [^i], its text at the end", async () => {
  const md = await pdfMarkdown([
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
  const md = await pdfMarkdown([
    [...runsInLine(760, [["The text has no note and goes on here.", 11]])],
    [...runsInLine(780, [["i", 9], ["  This line is just text.", 9]])],
  ]);
  expect(md).not.toContain("[^i]");
  expect(md).toContain("i This line is just text.");
});
