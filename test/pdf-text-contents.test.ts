/**
 * A table of contents printed with dot leaders: each entry on a line of its own, its leader one
 * separator and its page number apart (contentsEntries in pdfLayout.ts); generated PDFs through
 * extractPdfPages and renderPages.
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

/** RIGHT: the right edge of the text column, where entries' page numbers and full prose lines end */
const RIGHT = 523;

/** TIMES: advance widths (per 1000 of the size) of the Times-Roman characters the entries use */
const TIMES: Record<string, number> = { " ": 250, ".": 250, "0": 500, "1": 500, "2": 500, "3": 500, "4": 500, "5": 500, "A": 722, "O": 722, "P": 556, "T": 611, "a": 444, "e": 444, "h": 500, "i": 278, "l": 278, "n": 500, "o": 500, "r": 333, "t": 278, "w": 722 };
const width = (text: string) => ([...text].reduce((sum, c) => sum + (TIMES[c] ?? Number.NaN), 0) * 11) / 1000;

/** entry: a contents line, its title at x, dots up to its page number set flush right */
function entry(y: number, title: string, page: string, x = 72): TypesetRun[] {
  const pageWidth = width(page);
  const dots = ".".repeat(Math.floor((RIGHT - pageWidth - x - width(title) - 4) / width(".")));
  return [
    { font: "Times-Roman", size: 11, x, y, text: `${title}${dots}` },
    { font: "Times-Roman", size: 11, x: RIGHT - pageWidth, y, text: page },
  ];
}

test("contents entries with dot leaders come out one a line, the page number apart, not joined as wrapped prose", async () => {
  const md = await pdfMarkdown([[
    { font: "Times-Bold", size: 11, x: 72, y: 770, text: "Table of Contents" },
    ...entry(750, "1. Title One", "3"),
    ...entry(736, "1.1. Title Two", "4", 90),
    ...entry(722, "1.2. Title Three", "12", 90),
    ...entry(708, "2. Another Part", "15"),
  ]]);
  const lines = md.split("\n").filter((line) => line.trim());
  expect(lines).toContain("1\\. Title One ... 3");
  expect(lines).toContain("1.1. Title Two ... 4");
  expect(lines).toContain("1.2. Title Three ... 12");
  expect(lines).toContain("2\\. Another Part ... 15");
});
