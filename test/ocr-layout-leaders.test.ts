/**
 * A scanned statistical table whose rows lead from their labels to their figures with dot leaders
 * (the Statistical Abstract's "Robbery . . . . . . 102.1"): tesseract reads a leader as words of its
 * own ("eee", "wesc.", "ow") or as dots on the label ("Arson."), read unsurely, which made columns of
 * their own beside the stub and labels that were not the row's. ocrLayout.ts withoutLeaders makes them
 * a leader of dots again, which the table drops as a born-digital row's dots.
 */
import { afterAll, expect, test } from "bun:test";
import { ocrLayoutMarkdown, withoutLeaders } from "../src/convert/ocrLayout";
import { Tesseract } from "../src/tools/tesseract";
import type { OcrWord } from "../src/tools/types";
import { readAt150 } from "./helpers/scanAt150";
import type { TypesetRun } from "./helpers/typesetPdf";

const tesseract = new Tesseract({ concurrency: 2, timeoutMs: 60_000 });
afterAll(() => tesseract.close());

/** ARRESTS: a table's rows, a label and three figures (thousands) */
const ARRESTS = [
  ["All offenses", "11,062.6", "1,540.0", "9,522.6"],
  ["Robbery", "102.1", "25.5", "76.6"],
  ["Aggravated assault", "338.4", "40.1", "298.3"],
  ["Burglary", "240.9", "60.3", "180.6"],
  ["Arson", "9.8", "4.3", "5.5"],
  ["Fraud", "173.7", "5.1", "168.5"],
  ["Vandalism", "217.4", "72.7", "144.7"],
  ["Gambling", "8.2", "1.4", "7.2"],
  ["Suspicion", "1.6", "0.2", "1.4"],
  ["Runaways", "75.8", "75.8", "0.0"],
];

/** width: a Helvetica text's width at `size` (its AFM widths: figures 0.556 em, the point and the comma 0.278, a space 0.278, other letters about 0.55) */
const width = (size: number, text: string) => [...text].reduce((sum, c) => sum + (/[.,\s]/.test(c) ? 0.278 : 0.556), 0) * size;

/** leaderPage: a title, a paragraph and ARRESTS in 8 pt Helvetica, each label followed by a leader of dots to its figures, right-aligned */
function leaderPage(): TypesetRun[] {
  const runs: TypesetRun[] = [{ font: "Helvetica-Bold", size: 10, x: 57, y: 790, text: "Table 324. Arrests by Offense: 2009" }];
  runs.push({ font: "Helvetica", size: 8, x: 57, y: 772, text: "[In thousands. Based on the Uniform Crime Reporting Program. Represents arrests reported (not charged) by 12,910 agencies]" });
  runs.push({ font: "Helvetica", size: 8, x: 57, y: 750, text: "Offense charged" });
  ["Total", "Under 18", "18 and over"].forEach((head, c) => runs.push({ font: "Helvetica", size: 8, x: 300 + c * 90 + 50 - width(8, head), y: 750, text: head }));
  ARRESTS.forEach(([label, ...figures], r) => {
    const y = 732 - r * 12;
    const end = 57 + width(8, label!);
    const dots = " .".repeat(Math.floor((280 - end) / width(8, " .")));
    runs.push({ font: "Helvetica", size: 8, x: 57, y, text: label! + dots });
    figures.forEach((figure, c) => runs.push({ font: "Helvetica", size: 8, x: 300 + c * 90 + 50 - width(8, figure), y, text: figure }));
  });
  return runs;
}

test("a scanned table's dot leaders read as dots on its labels or words of their own are no part of the labels and no column", async () => {
  const ocr = await readAt150(tesseract, leaderPage());
  const markdown = ocrLayoutMarkdown(ocr, 72 / 150);
  expect(markdown).not.toBeNull();
  // four columns: the stub and three of figures (no leader's column beside the stub)
  expect(markdown).toMatch(/^\| Offense charged \| Total \| Under 18 \| 18 and over \|$/m);
  // the rows tesseract read with the leader on the label ("Robbery...", "Arson...", "Gambling...") or as words
  // of their own ("Fraud" ".."), and their first figures ("Aggravated assault." read surely with one dot, and
  // "Suspicion"'s misread "16", are left out: a label's one sure dot may be its own, "etc.")
  const rows = ARRESTS.filter(([label]) => ["Robbery", "Burglary", "Arson", "Fraud", "Vandalism", "Gambling", "Runaways"].includes(label!));
  expect(rows.length).toBe(7);
  for (const [label, figure] of rows) expect(markdown).toMatch(new RegExp(`^\\| ${label} \\| ${figure!.replace(".", "\\.")} \\|`, "m"));
}, 60_000);

/** row: words of one tesseract line, as census's scanned arrests table read (the leaders' words read under 0.6) */
function row(line: number, words: Array<[text: string, left: number, confidence: number]>): OcrWord[] {
  return words.map(([text, left, confidence]) => ({ text, left, top: 100 + line * 30, width: Math.max(6, text.length * 9), height: 18, confidence, line: `1/1/${line}`, paragraph: "1/1" }));
}

test("withoutLeaders makes the leader's words dots and takes the leader's dots off the label; a row without room for a leader, or a sure word, is left", () => {
  const words = [
    ...row(1, [["Robbery.", 10, 0.48], ["eee", 120, 0.31], ["102.1", 400, 0.97], ["25.5", 500, 0.97]]),
    ...row(2, [["Larceny-theft..", 10, 0], ["wesc.", 200, 0.03], ["1,080.1", 400, 0.97], ["258.1", 500, 0.97]]),
    ...row(3, [["Violent", 10, 0.96], ["crime", 90, 0.92], ["............22.005", 160, 0], ["0e", 330, 0], ["456,965", 400, 0.95]]),
    ...row(4, [["Gambling...", 10, 0.6], ["8.2", 400, 0.94], ["1.4", 500, 0.96]]),
    ...row(5, [["Chhattisgarh", 10, 0.96], ["-", 400, 0.5], ["_—", 500, 0.3], ["0.26", 600, 0.96]]),
    // prose: a sure word, and a word close to the figure
    ...row(6, [["the", 10, 0.96], ["vase", 50, 0.9], ["cost", 100, 0.5], ["12.00", 150, 0.96]]),
  ];
  const { words: out, leaders } = withoutLeaders(words);
  const texts = out.map((word) => word.text);
  expect(texts.slice(0, 4)).toEqual(["Robbery", "....", "102.1", "25.5"]);
  expect(texts.slice(4, 8)).toEqual(["Larceny-theft", "....", "1,080.1", "258.1"]);
  expect(texts.slice(8, 13)).toEqual(["Violent", "crime", "....", "....", "456,965"]);
  expect(texts.slice(13, 16)).toEqual(["Gambling", "8.2", "1.4"]);
  expect(texts.slice(16)).toEqual(["Chhattisgarh", "-", "_—", "0.26", "the", "vase", "cost", "12.00"]);
  expect([...leaders].sort()).toEqual(["005", "0e", "22", "eee", "wesc"]);
  // a hostile word: read in linear time
  const long = ".".repeat(100_000) + "x";
  const started = performance.now();
  withoutLeaders([...row(1, [["Label", 10, 0.9], [long, 100, 0.3], [`a${long}`, 200, 0.3], ["12.5", 900, 0.9]])]);
  expect(performance.now() - started).toBeLessThan(500);
});
