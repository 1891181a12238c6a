/**
 * A table of contents printed with dot leaders: each entry on a line of its own, its leader one
 * separator and its page number apart (contentsEntryEnds in pdfParagraphs.ts); generated PDFs through
 * extractPdfPages and renderPages.
 */
import { expect, test } from "bun:test";
import { typesetMarkdown } from "./helpers/layoutMarkdown";
import { textWidth, type TypesetRun } from "./helpers/typesetPdf";

/** RIGHT: the right edge of the text column, where entries' page numbers and full prose lines end */
const RIGHT = 523;

const width = (text: string) => textWidth("Times-Roman", 11, text);

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
  const md = await typesetMarkdown([[
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
