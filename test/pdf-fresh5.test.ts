/**
 * Layouts of the fifth fresh group's kinds (issue 16, item 3; bench/README "branch h/fresh11"),
 * typeset with the standard fonts (test/helpers/typesetPdf.ts) and read by pdf.js, or built as
 * layout blocks.
 */
import { expect, test } from "bun:test";
import type { LayoutBlock } from "../src/convert/pdfLayoutTypes";
import { NOTE_MARK_START } from "../src/convert/pdfLines";
import { takeFootnotes } from "../src/convert/pdfNotes";
import { layoutMarkdown } from "./helpers/layoutMarkdown";
import { textWidth, typesetPdf, type TypesetFill, type TypesetRun } from "./helpers/typesetPdf";

/** a spreadsheet's table: each stub cell led by its nesting dots drawn in white, then the label in black, and three columns of figures */
function nestedTable(fills: TypesetFill[] = [], header: TypesetRun[] = []): Uint8Array {
  const rows: Array<[string, string, string[]]> = [
    [".", "Total", ["265,154", "246,154", "21,000"]],
    ["..", "employed civilian", ["160,206", "145,651", "14,515"]],
    ["..", "not employed civilian", ["106,548", "100,463", "6,485"]],
    ["...", "unemployed", ["6,185", "5,343", "346"]],
    ["...", "not in labor force", ["55,365", "54,462", "5,405"]],
  ];
  const runs: TypesetRun[] = [...header];
  rows.forEach(([dots, label, figures], r) => {
    const y = 700 - r * 14;
    runs.push({ font: "Times-Roman", size: 10, x: 60, y, text: dots, gray: 1 });
    runs.push({ font: "Times-Roman", size: 10, x: 60 + textWidth("Times-Roman", 10, dots), y, text: label });
    figures.forEach((figure, i) => runs.push({ font: "Times-Roman", size: 10, x: 300 + i * 80, y, text: figure }));
  });
  return typesetPdf([runs], [], [], [fills]);
}

test("a table's nesting dots drawn in white are not read into its stub cells", async () => {
  const md = await layoutMarkdown(nestedTable());
  expect(md).toContain("| Total | 265,154 | 246,154 | 21,000 |");
  expect(md).toContain("| employed civilian | 160,206 | 145,651 | 14,515 |");
  expect(md).toContain("| unemployed | 6,185 | 5,343 | 346 |");
  expect(md).not.toMatch(/\|\s*\.+[a-zT]/);
});

test("a page of more white runs than MAX_HIDDEN_RUNS is read as drawn: no cutting over thousands of runs on one line", async () => {
  // the nested table, and 6 000 white dots, each its own text object, along one baseline under it
  const dots: TypesetRun[] = Array.from({ length: 6000 }, (_, i) => ({ font: "Times-Roman", size: 10, x: 60 + (i % 400), y: 600, text: ".", gray: 1 }));
  const md = await layoutMarkdown(nestedTable([], dots));
  // the stub's white nesting dots stay in its cells, as a page with no hidden text is read
  expect(md).toContain(".Total");
  expect(md).toContain("employed civilian");
}, 60_000);

test("white text on a dark band stays: a header drawn white on a filled row is read", async () => {
  // the header's white words over a dark band, a white "." before its first word
  const header: TypesetRun[] = [
    { font: "Times-Roman", size: 10, x: 60, y: 720, text: ".", gray: 1 },
    { font: "Times-Roman", size: 10, x: 60 + textWidth("Times-Roman", 10, "."), y: 720, text: "persons", gray: 1 },
    { font: "Times-Roman", size: 10, x: 300, y: 720, text: "total", gray: 1 },
    { font: "Times-Roman", size: 10, x: 380, y: 720, text: "stayed", gray: 1 },
    { font: "Times-Roman", size: 10, x: 460, y: 720, text: "moved", gray: 1 },
  ];
  const md = await layoutMarkdown(nestedTable([{ x: 55, y: 715, width: 460, height: 14, gray: 0.2 }], header));
  expect(md).toContain("| .persons | total | stayed | moved |");
  expect(md).toContain("| Total | 265,154 | 246,154 | 21,000 |");
});

test("a page of tables alone, a note mark in a cell and no line of text, gives no notes and does not fail", () => {
  const table: LayoutBlock = {
    kind: "table",
    rows: [
      ["persons", "total"],
      [`armed forces${NOTE_MARK_START}1\u0003`, "884"],
    ],
    size: 10,
    top: 100,
    bottom: 130,
    columns: [
      { x: 60, right: false },
      { x: 300, right: true },
    ],
  } as LayoutBlock;
  expect(takeFootnotes([table], 842)).toEqual([]);
});

test("a group row under a numbered row is a row of its own, not the next line of the row's number and task", async () => {
  const run = (text: string, x: number, y: number): TypesetRun => ({ font: "Times-Roman", size: 9, x, y, text });
  const runs: TypesetRun[] = [run("#", 60, 720), run("Topic", 80, 720), run("Task", 140, 720), run("Score", 300, 720), run("Steps", 360, 720)];
  let y = 708;
  const row = (n: string, topic: string, task: string, a: string, b: string) => {
    runs.push(run(n, 60, y), run(topic, 80, y), run(task, 140, y), run(a, 300, y), run(b, 360, y));
    y -= 11;
  };
  const group = (name: string, about: string) => {
    runs.push(run(name, 60, y), run(about, 140, y));
    y -= 11;
  };
  group("Proteomics", "clustering");
  row("1", "easy", "simple clustering", "0.56", "0.20");
  row("2", "normal", "clustering in two", "0.55", "0.40");
  row("3", "hard", "clustering in three", "0.55", "0.60");
  group("Chemistry", "exploring combinations");
  row("4", "easy", "single substances", "0.56", "1.00");
  row("5", "normal", "mix of three", "0.52", "0.00");
  row("6", "hard", "mix of four", "0.50", "0.40");
  const md = await layoutMarkdown(typesetPdf([runs]));
  expect(md).toContain("| 3 | hard | clustering in three | 0.55 | 0.60 |");
  expect(md).toMatch(/\| Chemistry \|\s*\| exploring combinations \|/);
  expect(md).not.toContain("3 Chemistry");
});

test("a ruled table whose body is one band between rules: each line of the stub a row, group labels rows of their own", async () => {
  const run = (text: string, x: number, y: number): TypesetRun => ({ font: "Times-Roman", size: 9, x, y, text });
  // columns ruled at 60, 220, 320, 420, 500; rules above and under the header, at the foot, none between the body's rows
  const xs = [60, 220, 320, 420, 500];
  const [top, headerFoot, foot] = [730, 712, 620];
  const rules = [
    ...[top, headerFoot, foot].map((y) => ({ x1: 60, y1: y, x2: 500, y2: y })),
    ...xs.map((x) => ({ x1: x, y1: foot, x2: x, y2: top })),
  ];
  const runs: TypesetRun[] = [run("Sample group", 64, 718), run("Some participation", 224, 718), run("No participation", 324, 718), run("Total", 424, 718)];
  const body: Array<[string, string[]]> = [
    ["All randomly assigned:", []],
    ["Three year cohort", []],
    ["Head start group", ["35.1%", "14.5%", "100%"]],
    ["Control group", ["16.3%", "63.6%", "100%"]],
    ["Four year cohort", []],
    ["Head start group", ["45.6%", "20.2%", "100%"]],
    ["Control group", ["13.5%", "36.1%", "100%"]],
  ];
  body.forEach(([label, figures], k) => {
    const y = 700 - k * 11;
    runs.push(run(label, 64, y));
    figures.forEach((figure, i) => runs.push(run(figure, xs[i + 1]! + 20, y)));
  });
  const md = await layoutMarkdown(typesetPdf([runs], [rules]));
  expect(md).toContain("| Head start group | 35.1% | 14.5% | 100% |");
  expect(md).toContain("| Control group | 13.5% | 36.1% | 100% |");
  expect(md).toMatch(/\| Three year cohort \|\s*\|/);
  expect(md).not.toContain("35.1% 16.3%");
});
