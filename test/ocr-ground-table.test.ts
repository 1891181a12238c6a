/**
 * A paper's table of scores whose cells are shaded by their value (a heat map), scanned at 150 dpi: one
 * threshold for the page takes the darker cells' ground for ink, so tesseract reads their figures as
 * noise or not at all, and the page reads under the layout's confidence. Read again with its ground
 * evened (src/convert/ocrGround.ts), the shaded figures are read; its rows of figures, in groups of three
 * under a label row, are the page's shortfall (ocrLayout.ts tableAround, GROUP_BLOCK), so it is laid out
 * by its words' places for its table, as discoveryworld's table 4 is.
 */
import { afterAll, expect, test } from "bun:test";
import { makeConvertImage } from "../src/convert/image";
import { evenedGround } from "../src/convert/ocrGround";
import type { ConvertInput } from "../src/convert/types";
import { renderPdfPage } from "../src/tools/poppler";
import { Tesseract } from "../src/tools/tesseract";
import { convertContext } from "./helpers/convert";
import { typesetPdf, type TypesetFill, type TypesetRun } from "./helpers/typesetPdf";

const tesseract = new Tesseract({ concurrency: 2, timeoutMs: 60_000 });
afterAll(() => tesseract.close());

const GROUPS = [
  ["Proteomics", "Clustering", ["Simplified clustering", "Clustering in two", "Clustering in three"]],
  ["Chemistry", "Combinations", ["Single substances", "Mix of three", "Mix of four"]],
  ["Archaeology", "Correlations", ["Simple instrument", "Instrument use", "Correlation"]],
  ["Reactor Lab", "Regression", ["Slope only", "Linear regression", "Quadratic fit"]],
] as const;

/** score: a cell's score, different across the table, from 0.00 to 0.95 */
const score = (row: number, column: number) => (((row * 7 + column * 11) % 20) * 0.05).toFixed(2);

const PROSE = [
  "Table 4: Baseline model performance on each of the scoring metrics across all of the tasks. Values in",
  "each cell represent the average performance across five parametric seeds; darker cells score higher.",
];
const AFTER = [
  "The baseline agents are described below, with model performance on the discovery tasks shown in",
  "Table 4. We use the same model for all of our agents due to its higher performance and lower cost.",
];

function heatMapPage(): { runs: TypesetRun[]; fills: TypesetFill[] } {
  const runs: TypesetRun[] = [];
  const fills: TypesetFill[] = [];
  const line = (x: number, y: number, text: string, size = 9) => runs.push({ font: "Times-Roman", size, x, y, text });
  PROSE.forEach((text, i) => line(57, 760 - i * 12, text, 10));
  ["#", "Topic", "Task", "React", "Plan", "Search", "Reflect", "Hypothesis", "Knowledge"].forEach((text, c) => line(c < 3 ? [57, 75, 140][c]! : 250 + (c - 3) * 50, 725, text));
  let y = 708;
  let row = 0;
  for (const [topic, theme, tasks] of GROUPS) {
    line(57, y, topic);
    line(140, y, theme);
    y -= 12;
    for (const task of tasks) {
      row++;
      line(57, y, String(row));
      line(75, y, ["Easy", "Normal", "Hard"][(row - 1) % 3]!);
      line(140, y, task);
      for (let c = 0; c < 6; c++) {
        const value = score(row, c);
        // the cell's ground: the higher the score, the darker (0.95 on a 0.45 grey, as dark as the heat map's darkest)
        fills.push({ x: 245 + c * 50, y: y - 3, width: 40, height: 12, gray: 1 - 0.58 * Number(value) });
        line(250 + c * 50, y, value);
      }
      y -= 12;
    }
  }
  AFTER.forEach((text, i) => line(57, y - 20 - i * 12, text, 10));
  return { runs, fills };
}

async function scan(): Promise<Uint8Array> {
  const { runs, fills } = heatMapPage();
  return new Uint8Array(await renderPdfPage(typesetPdf([runs], [], [], [fills]), { page: 1, dpi: 150, gray: true, timeoutMs: 60_000, maxBytes: 50_000_000 }, AbortSignal.timeout(60_000)));
}

test("a table of shaded cells is read with its ground evened and laid out with its figures in their columns", async () => {
  const input: ConvertInput = { bytes: await scan(), filename: "heat_map_table_scan.png", contentType: "image/png", ext: "png" };
  const markdown = (await makeConvertImage({ scanLayout: true })(input, convertContext({ tools: { ocr: tesseract } }))).markdown;
  const rows = markdown.split("\n").filter((line) => /^\| \d+ \|/.test(line));
  expect(rows.length).toBeGreaterThanOrEqual(10);
  // the figures of the darkest cells (0.75 and over) are read, each in its row
  let dark = 0;
  let found = 0;
  for (let r = 1; r <= 12; r++) {
    const cells = rows.find((line) => line.startsWith(`| ${r} |`))?.split("|").map((cell) => cell.trim()) ?? [];
    for (let c = 0; c < 6; c++) {
      if (Number(score(r, c)) < 0.75) continue;
      dark++;
      if (cells.includes(score(r, c))) found++;
    }
  }
  expect(dark).toBeGreaterThan(10);
  expect(found).toBeGreaterThanOrEqual(0.7 * dark);
}, 60_000);

test("evenedGround leaves a page without shading, or on grey paper, alone and turns a shaded cell's ground white, its ink dark", () => {
  const width = 400;
  const height = 200;
  const blank = new Uint8Array(width * height).fill(250);
  // a line of "print": thin dark strokes on paper
  for (let x = 20; x < 180; x += 6) for (let y = 40; y < 52; y++) blank[y * width + x] = 10;
  expect(evenedGround({ data: blank, width, height })).toBeNull();
  const shaded = new Uint8Array(blank);
  // a cell of grey ground 110 with two-pixel strokes of 20 inside it
  for (let y = 20; y < 80; y++) for (let x = 40; x < 160; x++) shaded[y * width + x] = x % 8 < 2 && y > 40 && y < 60 ? 20 : 110;
  const evened = evenedGround({ data: shaded, width, height })!;
  expect(evened).not.toBeNull();
  expect(evened.data[30 * width + 100]).toBeGreaterThan(240);
  expect(evened.data[50 * width + 96]).toBeLessThan(60);
  // the paper and the print outside the cell as they were
  expect(evened.data[5 * width + 5]).toBe(250);
  expect(evened.data[45 * width + 20]).toBe(10);
  // grey paper throughout (a thermal receipt) is no shaded cell
  const greyPaper = shaded.map((v) => (v === 250 ? 190 : v));
  expect(evenedGround({ data: greyPaper, width, height })).toBeNull();
});

test("evenedGround takes linear time on a large page", () => {
  const width = 2550;
  const height = 3300;
  const data = new Uint8Array(width * height);
  for (let i = 0; i < data.length; i++) data[i] = (i * 2654435761) % 256;
  const started = performance.now();
  evenedGround({ data, width, height });
  expect(performance.now() - started).toBeLessThan(10_000);
});
