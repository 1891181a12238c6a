/**
 * Layouts of the third fresh group's kinds (issue 16, item 3; bench/README "branch h/fresh9"): a
 * paper's wide table across the top of a two-column page, its caption under it. Typeset with the
 * standard fonts, read by pdf.js and laid out by renderPages.
 */
import { expect, test } from "bun:test";
import { isMonoFontName } from "../src/convert/monoFont";
import { hasThreeWords } from "../src/convert/pdfReadingOrder";
import { typesetMarkdown } from "./helpers/layoutMarkdown";
import { typesetProse as prose, type TypesetRun } from "./helpers/typesetPdf";

test("a wide table across the top of a two-column page, the gutter free between its cells, stays one table", async () => {
  // cells' x: the stub, then nine columns; the sixth starts a few points right of the right column's edge (317)
  const xs = [71, 180, 212, 247, 283, 327, 374, 428, 485, 519];
  const heads = [167, 201, 232, 268, 304, 344, 397, 451, 508];
  const header = ["Loops", "Trees", "Traces", "Aborts", "Flushes", "Trees/Loop", "Traces/Tree", "Traces/Loop", "Speedup"];
  const rows = [
    ["3d-cube", "25", "27", "29", "3", "0", "1.1", "1.1", "1.2", "2.20x"],
    ["3d-morph", "5", "8", "8", "2", "0", "1.6", "1.0", "1.6", "2.86x"],
    ["access-nbody", "8", "16", "18", "5", "0", "2.0", "1.1", "2.3", "4.19x"],
    ["crypto-aes", "50", "72", "78", "19", "0", "1.4", "1.1", "1.6", "1.64x"],
    ["math-cordic", "2", "4", "5", "1", "0", "2.0", "1.3", "2.5", "4.92x"],
    ["regexp-dna", "2", "2", "2", "0", "0", "1.0", "1.0", "1.0", "4.21x"],
    ["string-fasta", "5", "11", "15", "6", "0", "2.2", "1.4", "3.0", "1.49x"],
    ["string-tagcloud", "3", "6", "6", "5", "0", "2.0", "1.0", "2.0", "1.09x"],
  ];
  const table: TypesetRun[] = [
    ...header.map((text, i) => ({ font: "Times-Roman" as const, size: 8, x: heads[i]!, y: 740, text })),
    ...rows.flatMap((row, r) => row.map((text, i) => ({ font: "Times-Roman" as const, size: 8, x: xs[i]!, y: 730 - r * 10, text }))),
    { font: "Times-Bold", size: 9, x: 170, y: 640, text: "Figure 13. Detailed trace recording statistics for the benchmark set." },
  ];
  const md = await typesetMarkdown([[...table, ...prose(28, 610, 9, 54), ...prose(28, 610, 9, 317, 5)]]);
  expect(md).toMatch(/^\|.*\bLoops \| Trees \| Traces \| Aborts \| Flushes \| Trees\/Loop \|.*\bSpeedup \|$/m);
  for (const row of rows) expect(md).toContain(`| ${row.join(" | ")} |`);
});

test("a listing numbered in the text face beside its code is fenced code without the numbers; numbers out of order make no listing", async () => {
  const code = ["def sumLeaves(t: Tree): Int = t match {", "    case Branch(l, r) => sumLeaves(l) + sumLeaves(r)", "    case Leaf(x) => x", "}"];
  const numbered = (numbers: number[], y: number): TypesetRun[] =>
    code.flatMap((line, i) => {
      const text = line.trimStart();
      return [
        { font: "Helvetica" as const, size: 7, x: 60, y: y - 11 * i, text: String(numbers[i]) },
        { font: "Courier" as const, size: 9, x: 76 + (line.length - text.length) * 9 * 0.6, y: y - 11 * i, text },
      ];
    });
  const md = await typesetMarkdown([[...prose(4, 760, 11, 72), ...numbered([1, 2, 3, 4], 700), ...prose(3, 640, 11, 72, 9)]]);
  expect(md).toContain("```\ndef sumLeaves(t: Tree): Int = t match {\n    case Branch(l, r) => sumLeaves(l) + sumLeaves(r)\n    case Leaf(x) => x\n}\n```");
  expect(md).not.toMatch(/^\| *1 *\|/m);
  // numbers that do not count on (a table's figures beside typewriter text) are no line numbers: kept, no listing
  const other = await typesetMarkdown([[...prose(4, 760, 11, 72), ...numbered([12, 7, 30, 5], 700), ...prose(3, 640, 11, 72, 9)]]);
  expect(other).not.toContain("```");
  for (const n of ["12", "30"]) expect(other).toMatch(new RegExp(`\\b${n}\\b`));
});

test("a listing set in Source Code Pro, a monospace face by name with no fixed-pitch flag, is code", () => {
  expect(isMonoFontName("BZWJSW+SourceCodePro-Bold")).toBe(true);
  expect(isMonoFontName("FiraCode-Regular")).toBe(true);
  expect(isMonoFontName("SourceSans3-Regular")).toBe(false);
});

test("two columns of prose under full-width listings that outnumber them are columns, not a table; the listings' short lines and the caption's last line stay with them", async () => {
  // two listings across the page (a comment column past the middle), their short lines ("...", a label) leaving the gutter free
  const listing = (y: number, n: number, short: number[]): TypesetRun[] =>
    Array.from({ length: n }, (_, i) => {
      const y0 = y - 10 * i;
      if (short.includes(i)) return [{ font: "Courier" as const, size: 8, x: 54, y: y0, text: i === short[0] ? "..." : `side_exit_${i}:` }];
      return [
        { font: "Courier" as const, size: 8, x: 54, y: y0, text: `mov edi(${i}), edx` },
        { font: "Courier" as const, size: 8, x: 200, y: y0, text: `// (*) store value ${i} to the interpreter stack` },
      ];
    }).flat();
  const caption = (y: number, number: number): TypesetRun[] => [
    { font: "Times-Roman", size: 9, x: 54, y, text: `Figure ${number}. x86 snippet for the sample program. This is the code compiled from the snippet in the figure before; most` },
    { font: "Times-Roman", size: 9, x: 54, y: y - 10, text: "instructions compile to a single instruction, and the instructions marked with a star would be omitted by an idealized compiler that" },
    { font: "Times-Roman", size: 9, x: 54, y: y - 20, text: "knew that none of the side exits would ever be taken." },
  ];
  const md = await typesetMarkdown([
    [...listing(770, 18, [14, 15]), ...caption(580, 3), ...listing(540, 16, []), ...caption(370, 4), ...prose(16, 330, 9, 54), ...prose(16, 330, 9, 317, 5)],
  ]);
  expect(md).not.toMatch(/^\|/m);
  expect(md).toMatch(/```\n(?:.*\n)*\.\.\.\nside_exit_15:\nmov edi\(16\), edx +\/\/ \(\*\) store value 16 to the interpreter stack\n/);
  expect(md).toContain("an idealized compiler that knew that none of the side exits would ever be taken.");
  expect(md).toMatch(/^The grammar of graphics is ubiquitous/m);
  expect(md).toMatch(/^Ubiquitous and provides the foundation/m);
});

test("the prose test (three words of letters) runs in linear time on a long unbroken run, and reads lines as before", () => {
  const started = performance.now();
  expect(hasThreeWords("k".repeat(200_000))).toBe(false);
  expect(performance.now() - started).toBeLessThan(2000);
  expect(hasThreeWords("the grammar of graphics")).toBe(true);
  expect(hasThreeWords("x1ab cd ef")).toBe(true);
  expect(hasThreeWords("12 345 67,8")).toBe(false);
  expect(hasThreeWords("Total 12 Male 14")).toBe(false);
}, 30_000);
