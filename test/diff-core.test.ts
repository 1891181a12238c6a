/**
 * The diff core without I/O: block splitting, Myers, alignment (equal, insert, delete, replace,
 * move), word runs, statistics, similarity and the markdown and HTML renderings.
 */
import { describe, expect, test } from "bun:test";
import { splitBlocks } from "../src/diff/blocks";
import { myersDiff } from "../src/diff/myers";
import { compareMarkdown, responseBlocks } from "../src/diff/compare";
import { diffWords, wordRuns } from "../src/diff/words";
import { renderHtml, renderMarkdown } from "../src/diff/render";

/** ops: the blocks' operations with their texts, in a compact form for exact assertions. */
function ops(a: string, b: string) {
  return responseBlocks(compareMarkdown(a, b), "word").map((x) => [x.op, x.a_index ?? null, x.b_index ?? null]);
}

const CONTRACT = `# Service Agreement

Made on 1 March 2024 between Northwind and Acme.

## Fees

The Customer pays a monthly fee of USD 4,500 within 30 days.

Late payments carry interest of 1% per month.

## Term

The agreement runs for twelve months.

## Signatures

Signed by Jane Smith.
`;

describe("splitBlocks", () => {
  test("cuts headings, paragraphs, list items, table rows with cells, code and quotes", () => {
    const blocks = splitBlocks(`# Title

A paragraph with **bold** and a [link](https://example.com).

- first item
  continued here
  - nested item
1. numbered item

| Item | Qty |
| --- | --- |
| Widgets | 42 |
| Pipe \\| in cell | 7 |

\`\`\`ts
const x = 1;

const y = 2;
\`\`\`

> a quoted
> sentence

---
`);
    expect(blocks.map((b) => [b.kind, b.text])).toEqual([
      ["heading", "Title"],
      ["paragraph", "A paragraph with bold and a link."],
      ["list_item", "first item continued here"],
      ["list_item", "nested item"],
      ["list_item", "1. numbered item"],
      ["table_row", "| Item | Qty |"],
      ["table_row", "| Widgets | 42 |"],
      ["table_row", "| Pipe | in cell | 7 |"],
      ["code", "const x = 1;\n\nconst y = 2;"],
      ["quote", "a quoted sentence"],
    ]);
    expect(blocks[0]!.level).toBe(1);
    expect(blocks[3]!.level).toBe(1);
    expect(blocks[5]!.header).toBe(true);
    expect(blocks[6]!.cells).toEqual(["Widgets", "42"]);
    expect(blocks[7]!.cells).toEqual(["Pipe | in cell", "7"]);
    expect(blocks[8]!.language).toBe("ts");
  });

  test("a line break after a sentence starts a block (PDF layout); a mid-sentence break does not", () => {
    const blocks = splitBlocks("First sentence here.\nSecond one follows\nacross a wrapped line.\n");
    expect(blocks.map((b) => b.text)).toEqual(["First sentence here.", "Second one follows across a wrapped line."]);
  });

  test("formatting-only differences give equal keys", () => {
    const [a] = splitBlocks("## The “Supplier” — **shall** pay");
    const [b] = splitBlocks('# The "Supplier" - shall pay');
    expect(a!.key).toBe(b!.key);
  });
});

describe("myersDiff", () => {
  test("finds the shortest script and gives up past its bound", () => {
    const script = myersDiff([1, 2, 3, 4], [1, 3, 4, 5], 10)!;
    expect(script.ops).toEqual([0, 1, 0, 0, 2]);
    expect(script.ai).toEqual([0, 1, 2, 3, 4]);
    expect(script.bi).toEqual([0, 1, 1, 2, 3]);
    expect(myersDiff([1, 2, 3], [4, 5, 6], 2)).toBeUndefined();
    expect(myersDiff([], [], 0)!.ops).toEqual([]);
  });
});

describe("compareMarkdown", () => {
  test("identical documents: similarity 1, every block equal, no word changes", () => {
    const c = compareMarkdown(CONTRACT, CONTRACT);
    expect(c.similarity).toBe(1);
    expect(c.entries.every((e) => e.op === "equal")).toBe(true);
    expect(c.stats.blocks).toEqual({ unchanged: 9, added: 0, removed: 0, changed: 0, moved: 0 });
    expect(c.stats.words).toEqual({ added: 0, removed: 0, changed: 0 });
  });

  test("an edited amount is one replace with a one-word change", () => {
    const edited = CONTRACT.replace("USD 4,500", "USD 4,950");
    const c = compareMarkdown(CONTRACT, edited);
    expect(ops(CONTRACT, edited).filter(([op]) => op !== "equal")).toEqual([["replace", 3, 3]]);
    expect(responseBlocks(c, "word")[3]!.words).toEqual([
      { op: "equal", text: "The Customer pays a monthly fee of USD " },
      { op: "replace", a: "4,500", b: "4,950" },
      { op: "equal", text: " within 30 days." },
    ]);
    expect(c.stats.words).toEqual({ added: 0, removed: 0, changed: 1 });
    expect(c.similarity).toBeGreaterThan(0.95);
    expect(c.similarity).toBeLessThan(1);
  });

  test("a paragraph moved to another section is a move, not a delete and an insert", () => {
    const moved = CONTRACT.replace("Late payments carry interest of 1% per month.\n\n", "").replace(
      "The agreement runs for twelve months.\n",
      "The agreement runs for twelve months.\n\nLate payments carry interest of 1% per month.\n",
    );
    const c = compareMarkdown(CONTRACT, moved);
    expect(ops(CONTRACT, moved).filter(([op]) => op !== "equal")).toEqual([["move", 4, 6]]);
    expect(c.stats.blocks).toEqual({ unchanged: 8, added: 0, removed: 0, changed: 0, moved: 1 });
    expect(c.similarity).toBe(0.9999);
  });

  test("inserted and deleted paragraphs keep their places in the order of the new document", () => {
    const changed = CONTRACT.replace("## Signatures", "A new clause about spare parts.\n\n## Signatures").replace("Made on 1 March 2024 between Northwind and Acme.\n\n", "");
    expect(ops(CONTRACT, changed).filter(([op]) => op !== "equal")).toEqual([
      ["delete", 1, null],
      ["insert", null, 6],
    ]);
    const c = compareMarkdown(CONTRACT, changed);
    expect(c.stats.blocks).toMatchObject({ added: 1, removed: 1 });
    expect(c.stats.words).toEqual({ added: 6, removed: 9, changed: 0 });
  });

  test("a table with one changed cell: one replace of that row with the cell's word change", () => {
    const table = (price: string) => `| Item | Qty | Price |\n| --- | --- | --- |\n| Widgets | 42 | 3.50 |\n| Gadgets | 7 | ${price} |\n| Gizmos | 3 | 8.00 |\n`;
    const blocks = responseBlocks(compareMarkdown(table("12.00"), table("13.50")), "word");
    expect(blocks.map((b) => b.op)).toEqual(["equal", "equal", "replace", "equal"]);
    expect(blocks[2]).toMatchObject({ kind: "table_row", a_cells: ["Gadgets", "7", "12.00"], b_cells: ["Gadgets", "7", "13.50"] });
    expect(blocks[2]!.words).toEqual([
      { op: "equal", text: "| Gadgets | 7 | " },
      { op: "replace", a: "12.00", b: "13.50" },
      { op: "equal", text: " |" },
    ]);
  });

  test("block granularity leaves out the word runs but keeps the word statistics", () => {
    const edited = CONTRACT.replace("twelve months", "twenty-four months");
    const c = compareMarkdown(CONTRACT, edited);
    expect(responseBlocks(c, "block").find((b) => b.op === "replace")!.words).toBeUndefined();
    expect(c.stats.words.changed).toBe(1);
  });

  test("unrelated blocks in one run pair only where they are alike", () => {
    const a = "Alpha beta gamma delta.\n\nCompletely different words here.\n";
    const b = "Alpha beta gamma epsilon.\n\nNothing in common at all, really.\n\nAnother fresh line.\n";
    expect(ops(a, b)).toEqual([
      ["replace", 0, 0],
      ["delete", 1, null],
      ["insert", null, 1],
      ["insert", null, 2],
    ]);
  });

  test("empty input on one side: everything inserted, similarity 0", () => {
    const c = compareMarkdown("", CONTRACT);
    expect(c.entries.every((e) => e.op === "insert")).toBe(true);
    expect(c.similarity).toBe(0);
  });
});

describe("diffWords", () => {
  test("numbers keep their separators; runs rebuild both sides", () => {
    const d = diffWords("Pay USD 4,500 by 2024-03-01, please.", "Pay EUR 4,950 by 2024-04-01 please.");
    const runs = wordRuns(d.tokens);
    expect(runs).toEqual([
      { op: "equal", text: "Pay " },
      { op: "replace", a: "USD 4,500", b: "EUR 4,950" },
      { op: "equal", text: " by " },
      { op: "replace", a: "2024-03-01,", b: "2024-04-01" },
      { op: "equal", text: " please." },
    ]);
    expect(d.changed).toBe(3);
  });
});

describe("renderers", () => {
  const edited = CONTRACT.replace("USD 4,500", "USD 4,950").replace("## Signatures", "New <clause> & more.\n\n## Signatures");

  test("markdown marks ~~deleted~~ and **inserted** words", () => {
    const md = renderMarkdown(compareMarkdown(CONTRACT, edited), { granularity: "word" });
    expect(md).toContain("The Customer pays a monthly fee of USD ~~4,500~~ **4,950** within 30 days.");
    expect(md).toContain("**New <clause> & more.**");
    expect(md).toContain("## Fees");
  });

  test("markdown keeps a changed table row a row", () => {
    const table = (p: string) => `| Item | Price |\n| --- | --- |\n| Gadgets | ${p} |\n`;
    const md = renderMarkdown(compareMarkdown(table("12.00"), table("13.50")), { granularity: "word" });
    expect(md).toBe("| Item | Price |\n| --- | --- |\n| Gadgets | ~~12.00~~ **13.50** |\n");
  });

  test("HTML is one escaped, self-contained page with <del> and <ins>", () => {
    const html = renderHtml(compareMarkdown(CONTRACT, edited), { granularity: "word", titleA: "v1 <old>.docx", titleB: "v2.docx" });
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html).toContain("<del>4,500</del> <ins>4,950</ins>");
    expect(html).toContain('<p class="block-ins"><ins>New &lt;clause&gt; &amp; more.</ins></p>');
    expect(html).toContain("v1 &lt;old&gt;.docx → v2.docx");
    expect(html).not.toContain("<clause>");
    expect(html).not.toMatch(/<script|<link|src=/);
  });
});

describe("speed shape", () => {
  test("two long documents with a few changes align without pairing every block with every other", () => {
    const paragraphs = Array.from({ length: 4000 }, (_, i) => `Paragraph ${i}: the parties agree to clause ${i} of the schedule.`);
    const edited = paragraphs.map((p, i) => (i % 100 === 7 ? p.replace("agree", "do not agree") : p));
    const c = compareMarkdown(paragraphs.join("\n\n"), edited.join("\n\n"));
    expect(c.stats.blocks).toEqual({ unchanged: 3960, added: 0, removed: 0, changed: 40, moved: 0 });
    expect(c.stats.words).toEqual({ added: 80, removed: 0, changed: 0 });
  });
});
