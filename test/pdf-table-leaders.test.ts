/**
 * A statistical table's stub as OCR reads it (src/convert/pdfTables.ts withoutLeader, labelWrapsIntoRow):
 * each label's leader dots read apart from it ("...."), a group's items indented under its row, and
 * an item's label over two lines with its figures on the second (census's "Murder and nonnegligent" /
 * "manslaughter" under "Violent crime"): the label indented off the first column ended the run.
 * (The leaders dropped before the columns are found: on census's page the long label's first line
 * reached past where the short labels' leaders start, so a label and its leader fell in one column;
 * here the figures' edges place the cells without it.)
 */
import { expect, test } from "bun:test";
import type { RawLine, Segment } from "../src/convert/pdfLayoutTypes";
import { LEADER_SEGMENT, tableFrom, tableRunEnd } from "../src/convert/pdfTables";

const SIZE = 6.5;
/** RIGHTS: the right edges of nine columns of figures (three groups of three) */
const RIGHTS = [163, 190, 218, 245, 272, 300, 327, 354, 382];
/** ROWS (read as OCR reads a page: right edges a pixel or two off): a label, indented under its group or not, then nine figures (of different widths, as a column's are) */
const ROWS: Array<[label: string, indent: boolean]> = [
  ["All offenses", false],
  ["Violent crime", false],
  ["Robbery", true],
  ["Aggravated assault", true],
  ["Property crime", false],
  ["Burglary", true],
  ["Larceny-theft", true],
  ["Arson", true],
  ["Other assaults", false],
  ["Fraud", false],
];

/** figures: row r's nine figures, of one to four digits before the point */
function figures(r: number): string[] {
  return RIGHTS.map((_, c) => {
    const value = ((r * 7919 + c * 104_729) % 10_000) / 10 ** ((r + c) % 3);
    return value >= 1000 ? value.toLocaleString("en-US", { minimumFractionDigits: 1, maximumFractionDigits: 1 }) : value.toFixed(1);
  });
}

function seg(text: string, x: number): Segment {
  return { text, x, x2: x + 2.85 * text.length, size: SIZE };
}

/** figure: a figure right-aligned at `x2`, its digits 0.5 em wide and its point and comma 0.25 em */
function figure(text: string, x2: number): Segment {
  return { text, x: x2 - SIZE * [...text].reduce((width, c) => width + (/\d/.test(c) ? 0.5 : 0.25), 0), x2, size: SIZE };
}

/** row: a label, its leader read apart from it (from `from`) up to the stub's edge, and its figures right-aligned */
function row(y: number, label: string, x: number, cells: string[], from = 103): RawLine {
  const leader = seg(". . . .", from);
  return { y, size: SIZE, segs: [seg(label, x), { ...leader, x2: 134 }, ...cells.map((text, c) => figure(text, RIGHTS[c]! + ((y + 3 * c) % 5) - 2))] };
}

function stubLines(): RawLine[] {
  const lines: RawLine[] = [];
  let y = 100;
  ROWS.forEach(([label, indent], r) => {
    lines.push(row(y, label, indent ? 40 : 36, figures(r)));
    y += 6.5;
    if (r === 1) {
      // an item's label over two lines, its figures on the second
      lines.push({ y, size: SIZE, segs: [seg("Murder and nonnegligent", 40)] });
      y += 6.5;
      // (its leader read from past the first line's end, which reaches past where the others' start)
      lines.push(row(y, "manslaughter", 41, figures(20), 108));
      y += 6.5;
    }
  });
  return lines;
}

test("a stub's leaders read apart from its labels, and a label of two lines indented under its group, keep the table", () => {
  const lines = stubLines();
  const { end, wrapped } = tableRunEnd(lines, 0);
  expect(end).toBe(lines.length);
  const table = tableFrom(lines, wrapped);
  expect(table !== null && table !== "form" && table.kind === "table").toBe(true);
  const rows = table !== null && table !== "form" && table.kind === "table" ? table.rows : [];
  expect(rows.length).toBe(ROWS.length + 1);
  ROWS.forEach(([label], r) => expect(rows).toContainEqual([label, ...figures(r)]));
  expect(rows).toContainEqual(["Murder and nonnegligent manslaughter", ...figures(20)]);
});

test("a segment of leader dots is told in linear time", () => {
  expect(LEADER_SEGMENT.test(". . . .")).toBe(true);
  expect(LEADER_SEGMENT.test("...")).toBe(false);
  for (const text of [". ".repeat(50_000), ".".repeat(100_000) + "x", ". ".repeat(49_999) + " x"]) {
    const started = performance.now();
    LEADER_SEGMENT.test(text);
    expect(performance.now() - started).toBeLessThan(50);
  }
});
