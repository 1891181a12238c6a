/**
 * A table's header whose cells are centred on its height (src/convert/pdfTables.ts joinWrappedHeader):
 * a label of three lines beside one of two and one of one line, so the two-line label's lines fall
 * half a line between the three-line label's (olmOCR 2's benchmark tables set "Old" / "scans" /
 * "math" beside "Headers" / "& footers" beside "ArXiv" so). Each column's title is one cell.
 */
import { expect, test } from "bun:test";
import { typesetMarkdown } from "./helpers/layoutMarkdown";
import { type TypesetRun, textWidth } from "./helpers/typesetPdf";

const TITLES = [["Year"], ["Seed", "plots", "sown"], ["Total", "yield"], ["Days", "of the", "season"], ["Sale", "price"]];
const FARMS = ["North farm", "River farm", "Hill farm", "East farm", "Mill farm"];

/** figures: a farm's five figures, different on every row */
function figures(row: number): string[] {
  return [0, 1, 2, 3, 4].map((c) => (10 + ((row * 7 + c * 13) % 80) + ((row + c) % 10) / 10).toFixed(1));
}

function centredHeaderPage(): TypesetRun[] {
  const runs: TypesetRun[] = [];
  const size = 9;
  // (Helvetica's figures are 0.556 em wide, its point 0.278)
  const width = (text: string) => (/^[\d.]+$/.test(text) ? ((text.replace(/\./g, "").length * 556 + (text.includes(".") ? 278 : 0)) * size) / 1000 : textWidth("Helvetica", size, text));
  const centre = (x: number, y: number, text: string) => runs.push({ font: "Helvetica", size, x: x - width(text) / 2, y, text });
  const columns = [200, 260, 320, 380, 440];
  // the header's middle line at 700, lines of one cell 11 pt apart, centred on it
  TITLES.forEach((lines, c) => lines.forEach((text, k) => centre(columns[c]!, 700 + 5.5 * (lines.length - 1) - 11 * k, text)));
  FARMS.forEach((farm, r) => {
    const y = 676 - 14 * r;
    runs.push({ font: "Helvetica", size, x: 90, y, text: farm });
    figures(r).forEach((text, c) => centre(columns[c]!, y, text));
  });
  runs.push({ font: "Times-Roman", size: 10, x: 90, y: 560, text: "The figures are the farms' own, as their accounts give them for the year." });
  return runs;
}

test("a header of cells centred on its height, their lines half a line apart, is one row of titles", async () => {
  const rows = (await typesetMarkdown([centredHeaderPage()])).split("\n").filter((line) => line.startsWith("|"));
  expect(rows[0]).toBe("|  | Year | Seed plots sown | Total yield | Days of the season | Sale price |");
  FARMS.forEach((farm, r) => expect(rows).toContain(`| ${farm} | ${figures(r).join(" | ")} |`));
});
