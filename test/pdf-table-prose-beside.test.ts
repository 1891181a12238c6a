/**
 * A table's caption line above it and its source note under it, set in a typewriter face whose word
 * gaps read as cell gaps (src/convert/pdfTables.ts isProseBesideRows): a scanned page laid out by
 * place keeps them out of the table, so the table's columns are found (NCHS's NHANES III table of
 * population totals is set so: "Source: The NHANES III data file, 1988-94" under it, two of its
 * words in one column of figures, and the whole table was lost to it).
 */
import { afterAll, expect, test } from "bun:test";
import { ocrLayoutMarkdown } from "../src/convert/ocrLayout";
import { Tesseract } from "../src/tools/tesseract";
import { readAt150 } from "./helpers/scanAt150";
import type { TypesetRun } from "./helpers/typesetPdf";

const tesseract = new Tesseract({ concurrency: 2, timeoutMs: 60_000 });
afterAll(() => tesseract.close());

const BANDS = ["Under 5 years", "5-17", "18-24", "25-34", "35-44", "45-54", "55-64", "65-74", "75 and over"];

/** counts: a band's four population counts, different on every row and of different widths */
function counts(row: number): string[] {
  return [0, 1, 2, 3].map((c) => (((row + 2) * 1_234_567 + c * 987_654 + (row * c * 77_777)) % (c % 2 ? 9_000_000 : 40_000_000) + 100_000).toLocaleString("en-US"));
}

function typewriterPage(): TypesetRun[] {
  const runs: TypesetRun[] = [];
  const line = (x: number, y: number, text: string) => runs.push({ font: "Courier", size: 10, x, y, text });
  line(57, 760, "Table 4: Resident population by age band and sex, two surveys,");
  // a line set wide, an em between its words (as a typewriter's justified line, or NCHS's source note)
  const wide = (y: number, text: string) => {
    let x = 57;
    for (const word of text.split(" ")) {
      line(x, y, word);
      x += 6 * word.length + 10;
    }
  };
  wide(748, "County survey, 1990-96");
  // right-aligned figures, as a typewriter sets them
  const right = (x2: number, y: number, text: string) => line(x2 - 6 * text.length, y, text);
  ["Men", "Women", "Men", "Women"].forEach((text, c) => right(230 + c * 90, 718, text));
  line(57, 718, "Age band");
  BANDS.forEach((band, r) => {
    line(57, 702 - r * 13, band);
    counts(r).forEach((text, c) => right(230 + c * 90, 702 - r * 13, text));
  });
  const last = 702 - (BANDS.length - 1) * 13;
  wide(last - 24, "Source: The survey data files, 1990-96, county records");
  line(57, last - 60, "The counts above are weighted to the county's resident population.");
  return runs;
}

test("a typewriter table's caption line and source note are text; its rows and columns are a table", async () => {
  const page = await readAt150(tesseract, typewriterPage());
  const markdown = ocrLayoutMarkdown(page, 72 / 150);
  expect(markdown).not.toBeNull();
  const rows = markdown!.split("\n").filter((line) => line.startsWith("|"));
  // every band's row, its four counts in four cells
  const found = BANDS.filter((band, r) => rows.some((row) => row.startsWith(`| ${band} |`) && counts(r).every((count) => row.includes(`| ${count} `))));
  expect(found.length).toBeGreaterThanOrEqual(BANDS.length - 1);
  expect(rows.filter((row) => /Source|County survey/.test(row))).toEqual([]);
  expect(markdown).toContain("Source: The survey data files");
}, 60_000);
