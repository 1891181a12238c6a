/**
 * Code listings in the PDF layout (src/convert/pdfCode.ts): typeset PDFs with lines in Courier among
 * Times prose, through extractPdfPages and renderPages (no server needed for a layout rule).
 */
import { expect, test } from "bun:test";
import { renderPages } from "../src/convert/pdfLayout";
import { extractPdfPages } from "../src/convert/pdfText";
import { type TypesetRun, typesetPdf } from "./helpers/typesetPdf";

/** COURIER_EM: Courier's advance, every character 600/1000 of the size */
const COURIER_EM = 0.6;

async function markdownOf(pages: TypesetRun[][]): Promise<string> {
  const result = await extractPdfPages({ bytes: typesetPdf(pages), first: 1, last: pages.length });
  if (!result.ok) throw new Error(result.message);
  return renderPages(result.pages).markdown;
}

/** listing sets code lines in Courier at 9 pt from baseline `y` down, 11 pt apart; leading spaces become an x offset, as a typesetter places them */
function listing(lines: string[], y: number, x = 72): TypesetRun[] {
  return lines.flatMap((line, i) => {
    const text = line.trimStart();
    const indent = line.length - text.length;
    return text ? [{ font: "Courier" as const, size: 9, x: x + indent * 9 * COURIER_EM, y: y - 11 * i, text }] : [];
  });
}

/** prose: lines of Times at 11 pt, 14 pt apart */
function prose(lines: string[], y: number): TypesetRun[] {
  return lines.map((text, i) => ({ font: "Times-Roman" as const, size: 11, x: 72, y: y - 14 * i, text }));
}

const PYTHON = ["def total(items):", "    # sum the prices", "    s = 0", "    for item in items:", "        s += item.price", "    return s"];

test("a block of lines in a monospace face is a fenced code block with its line breaks and indentation", async () => {
  const md = await markdownOf([
    [
      ...prose(["The function below adds the prices of the items in a basket, and it is", "called once for each order that the shop receives from its customers."], 760),
      ...listing(PYTHON, 720),
      ...prose(["It returns the total as a number, which the caller formats for display."], 640),
    ],
  ]);
  expect(md).toContain(["```", ...PYTHON, "```"].join("\n"));
  // the comment is no heading, the prose around stays prose
  expect(md).not.toContain("\n# sum");
  expect(md).toContain("It returns the total as a number");
});

test("spaces inside a code line are kept and aligned columns of a listing make no table", async () => {
  const config = ["name     = docintel", "port     = 8080", "workers  = 4", "log      = info"];
  // each line as its words placed at their character columns, as a PDF from a text editor sets them
  const runs = config.flatMap((line, i) =>
    [...line.matchAll(/\S+/g)].map((m) => ({ font: "Courier" as const, size: 9, x: 72 + m.index! * 9 * COURIER_EM, y: 700 - 11 * i, text: m[0] })),
  );
  const md = await markdownOf([[...prose(["The settings file holds one key and its value on each line:"], 740), ...runs]]);
  expect(md).toContain(["```", ...config, "```"].join("\n"));
  expect(md).not.toContain("|");
});

test("a listing cut by a page break is one code block; a monospace word inside a prose line stays prose", async () => {
  const first = ["for (const x of xs) {", "  if (x > 0) {"];
  const second = ["    count++;", "  }", "}"];
  const md = await markdownOf([
    [...prose(["The loop counts the positive numbers; the variable count starts at zero."], 760), ...listing(first, 100)],
    [
      ...listing(second, 780),
      { font: "Times-Roman", size: 11, x: 72, y: 720, text: "After the loop," },
      { font: "Courier", size: 11, x: 145, y: 720, text: "count" },
      { font: "Times-Roman", size: 11, x: 181, y: 720, text: "holds the answer." },
    ],
  ]);
  expect(md).toContain(["```", ...first, ...second, "```"].join("\n"));
  expect(md).toContain("After the loop, count holds the answer.");
  expect(md.match(/```/g)?.length).toBe(2);
});

test("a page set in a monospace face throughout (a typewriter report) has no code: its paragraphs stay prose", async () => {
  const typed = ["Age-adjustment is important for trends analyses across the", "surveys, and also for comparisons across subgroups within the", "survey. It was decided that the 1980 Census would be used."];
  const md = await markdownOf([listing(typed, 760)]);
  expect(md).not.toContain("```");
  expect(md).toContain("Age-adjustment is important");
});

test("a title or a heading set in a monospace face stays a heading, not code", async () => {
  const md = await markdownOf([
    [
      { font: "Courier", size: 24, x: 72, y: 780, text: "wordometer" },
      ...prose(["A small package for quick and easy word counts in documents of any kind,", "with a count of the words of each section and of the whole."], 740),
      ...listing(["count(doc)"], 700),
      ...prose(["The count is a number of words, as a reader would count them by hand."], 670),
    ],
  ]);
  expect(md).toMatch(/^# wordometer$/m);
  expect(md).toContain("```\ncount(doc)\n```");
});

test("a web address in the monospace face broken over two lines is text, the address whole; a two-line listing stays code", async () => {
  const md = await markdownOf([
    [
      ...prose(["The documentation for natbib may be found at"], 760),
      ...listing(["http://mirrors.ctan.org/macros/latex/contrib/na", "           tbib/natnotes.pdf"], 735),
      ...prose(["Of note is the command citet, which produces citations for use in inline text."], 700),
      ...listing(["make all", "make install"], 670),
      ...prose(["builds and installs the program."], 640),
    ],
  ]);
  expect(md).toContain("\n\nhttp://mirrors.ctan.org/macros/latex/contrib/natbib/natnotes.pdf\n\n");
  expect(md).toContain("```\nmake all\nmake install\n```");
  expect(md.match(/```/g)?.length).toBe(2);
});
