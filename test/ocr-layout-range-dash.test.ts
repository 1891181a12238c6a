/**
 * A statistical table's confidence intervals, printed with an en dash ("(102.7–103.6)"), which tesseract
 * reads with a hyphen (src/convert/ocrLayout.ts rangeDash): on a scan laid out by place, a range of
 * two decimal figures gets its en dash back, as CDC MMWR's table of rates is printed. Other hyphens
 * (a date, a code, a falling pair, a word) are left.
 */
import { afterAll, expect, test } from "bun:test";
import { ocrLayoutMarkdown, rangeDash } from "../src/convert/ocrLayout";
import { Tesseract } from "../src/tools/tesseract";
import { readAt150 } from "./helpers/scanAt150";
import type { TypesetRun } from "./helpers/typesetPdf";

const tesseract = new Tesseract({ concurrency: 2, timeoutMs: 60_000 });
afterAll(() => tesseract.close());

/** EN_DASH: the en dash in the typeset fonts' WinAnsi encoding */
const EN_DASH = "\x96";
const GROUPS = ["Female", "Male", "Hispanic", "White", "Black", "Asian", "Rural", "Urban", "Northeast", "Midwest"];

/** rates: a group's count, rate and its interval, different on every row */
function rates(row: number): [string, string, string] {
  const rate = 40 + ((row * 37) % 90) + ((row * 3) % 10) / 10;
  return [`${(12_000 + row * 7_919).toLocaleString("en-US")}`, rate.toFixed(1), `(${(rate - 1.4).toFixed(1)}${EN_DASH}${(rate + 1.6).toFixed(1)})`];
}

function ratesPage(): TypesetRun[] {
  const runs: TypesetRun[] = [];
  const line = (x: number, y: number, text: string) => runs.push({ font: "Times-Roman", size: 10, x, y, text });
  line(57, 780, "Deaths and age-standardized death rates per 100,000 persons, by group, 2019");
  ["Group", "Deaths", "Rate", "(95% CI)"].forEach((text, c) => line(57 + c * 110, 750, text));
  GROUPS.forEach((name, r) => [name, ...rates(r)].forEach((text, c) => line(57 + c * 110, 730 - r * 16, text)));
  return runs;
}

test("a table's confidence intervals read with a hyphen are laid out with their en dash", async () => {
  const page = await readAt150(tesseract, ratesPage());
  const markdown = ocrLayoutMarkdown(page, 72 / 150);
  expect(markdown).not.toBeNull();
  const intervals = GROUPS.map((_, r) => rates(r)[2].replace(EN_DASH, "\u2013"));
  const found = intervals.filter((interval) => markdown!.includes(`| ${interval} |`));
  expect(found.length).toBeGreaterThanOrEqual(GROUPS.length - 1);
  expect(markdown).not.toMatch(/\(\d+\.\d-\d+\.\d\)/);
}, 60_000);

test("rangeDash mends a range of two decimal figures alone", () => {
  expect(rangeDash("(160.1-163.1)")).toBe("(160.1\u2013163.1)");
  expect(rangeDash("2.5-3.0")).toBe("2.5\u20133.0");
  expect(rangeDash("(42.3-42.9),")).toBe("(42.3\u201342.9),");
  // a falling pair, unpaired brackets, whole numbers, dates, codes and words keep their hyphen
  for (const text of ["(3.5-2.0)", "(1.5-2.0", "1.5-2.0)", "2019-2020", "12.03-2024", "12-03-2024", "A1.5-2.0", "well-known", "-1.5", "1.5-", "(1.2-3.4-5.6)"]) expect(rangeDash(text)).toBe(text);
});

test("rangeDash takes linear time on a hostile word", () => {
  for (const word of ["1".repeat(100_000), "(" + "1.1-".repeat(25_000), "1.".repeat(50_000), "(" + "9".repeat(99_998) + ")"]) {
    const started = performance.now();
    rangeDash(word);
    expect(performance.now() - started).toBeLessThan(50);
  }
});
