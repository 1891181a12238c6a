/**
 * Footnotes, running heads, hyphens and list items of papers (issue 16, kinds 6, 7, 8 and 10 of
 * h/pdfpapers2's list): the pure functions of pdfNotes.ts, pdfRunningHeaders.ts and
 * pdfParagraphs.ts on laid-out lines and blocks as analyzePage gives them.
 */
import { describe, expect, test } from "bun:test";
import type { LayoutBlock, LayoutLine, PageLayout } from "../src/convert/pdfLayoutTypes";
import { resolveNoteMarks, takeFootnotes } from "../src/convert/pdfNotes";
import { joinWrapped, paragraphMarkdown } from "../src/convert/pdfParagraphs";
import { runningBlocks } from "../src/convert/pdfRunningHeaders";

/** mark: a raised note number as pdfLines writes it until the page's notes are known */
const mark = (label: string) => `\u0002${label}\u0003`;

/** line: a laid-out line at baseline `y`, `x` to `x2` */
function line(text: string, y: number, size = 9, x = 45, x2 = 295, wraps = true): LayoutLine {
  return { text, x, x2, y, size, wraps };
}

/** block: a text block of lines (its size the lines' median, as textBlocks sets it) */
function block(lines: LayoutLine[]): LayoutBlock {
  const sizes = lines.map((l) => l.size).sort((a, b) => a - b);
  return { kind: "text", lines, size: sizes[Math.floor(sizes.length / 2)]!, top: lines[0]!.y - lines[0]!.size, bottom: lines[lines.length - 1]!.y };
}

/** body: a column's prose at 9 pt from baseline `y`, `n` lines, with `text` on its first */
function body(y: number, n: number, text: string): LayoutLine[] {
  return Array.from({ length: n }, (_, i) => line(i === 0 ? text : "the grammar of graphics is ubiquitous and provides the foundation for tools", y + 10 * i));
}

describe("footnotes", () => {
  test("a column whose last body lines run into its notes keeps the lines and gives up the notes (marks after a colon resolve too)", () => {
    const top = block(body(60, 30, `mapping one variable onto the x aesthetic:${mark("3")} and more`));
    const foot = block([
      line(`This notation sets up two aesthetic mappings:${mark("4")} a mapping from the`, 619),
      line(`variable onto the y aesthetic. It then employs a point geometry${mark("5")} for`, 639, 9, 45, 296, false),
      line(`${mark("3")}I am aware it is traditional to slap a number on each figure and float it off`, 701, 8),
      line("into a random corner of the page.", 713, 8, 45, 160, false),
      line("4Or in Vega-lite parlance, encodings", 730, 8, 56, 171, false),
      line("5Vega-lite-ese: mark", 740, 8, 56, 121, false),
    ]);
    const blocks = [top, foot];
    const notes = takeFootnotes(blocks, 792);
    expect(notes.map((note) => [note.label, note.text])).toEqual([
      ["3", "I am aware it is traditional to slap a number on each figure and float it off into a random corner of the page."],
      ["4", "Or in Vega-lite parlance, encodings"],
      ["5", "Vega-lite-ese: mark"],
    ]);
    // the body's two lines stay in their block, which the caller keeps (no note's block is it)
    expect(notes.some((note) => note.block === foot)).toBe(false);
    expect(foot.kind === "text" && foot.lines.map((l) => l.text.slice(0, 20))).toEqual(["This notation sets u", "variable onto the y "]);
    resolveNoteMarks(blocks, new Set(notes.map((note) => note.label)));
    expect(foot.kind === "text" && foot.lines[0]!.text).toContain("mappings:[^4] a mapping");
    expect(foot.kind === "text" && foot.lines[1]!.text).toContain("point geometry[^5] for");
  });

  test("a chart's tick labels at the page's foot are no notes, though numbers raised in the text match them", () => {
    const top = block(body(60, 30, `a tour of ggdist through recreations${mark("1")} of a variety${mark("2")} and${mark("3")}`));
    const ticks = block([line("3 4 5", 600, 6, 80, 120, false), line("2 0", 612, 6, 80, 100, false), line("1 5", 624, 6, 80, 100, false)]);
    expect(takeFootnotes([top, ticks], 792)).toEqual([]);
  });

  test("an author's note marked with TeX's asterisk operator (U+2217) is the note of the name's raised '*'", () => {
    const names = block([line(`David S. Hippocampus${mark("*")}`, 120, 10, 150, 260, false)]);
    const text = block(body(200, 40, "Lorem ipsum dolor sit amet, consectetuer adipiscing elit.").map((l) => ({ ...l, size: 10 })));
    const note = block([line("∗Use footnote for providing further information about author (webpage, alternative address)", 706, 9, 84, 540), line("agencies.", 720, 9, 72, 105, false)]);
    const notes = takeFootnotes([names, text, note], 792);
    expect(notes.map((n) => [n.label, n.text])).toEqual([["*", "Use footnote for providing further information about author (webpage, alternative address) agencies."]]);
    resolveNoteMarks([names], new Set(["*"]));
    expect(names.kind === "text" && names.lines[0]!.text).toBe("David S. Hippocampus[^*]");
  });
});

describe("running heads and printers' lines", () => {
  /** page: a page of 612 x 792 with the given blocks and a column of prose */
  function page(n: number, blocks: LayoutBlock[]): PageLayout {
    return { page: n, width: 612, height: 792, chars: 5000, blocks: [...blocks, block(body(100, 50, "Pellentesque habitant morbi tristique senectus et netus."))] };
  }

  test("a running head beside the page number on the top line of one page of two goes, the number with it", () => {
    const head = block([line("Preprint – Short Title Here", 57, 10, 50, 167, false)]);
    const folio = block([line("2", 57, 10, 557, 562, false)]);
    const title = block([line("Your Paper Title Here", 66, 17, 224, 387, false)]);
    const pages = [page(1, [title]), page(2, [head, folio])];
    const removed = runningBlocks(pages);
    expect(removed.has(head)).toBe(true);
    expect(removed.has(folio)).toBe(true);
    expect(removed.has(title)).toBe(false);
  });

  test("a first page's letterhead beside 'Page 1 of 2' stays, and a number beside a first page's title", () => {
    const letterhead = block([line("ACME Supplies Ltd, 12 Harbour Road", 57, 10, 50, 220, false)]);
    const folio = block([line("Page 1 of 2", 57, 10, 500, 562, false)]);
    const removed = runningBlocks([page(1, [letterhead, folio]), page(2, [])]);
    expect(removed.has(letterhead)).toBe(false);
    // a first page's number beside its title block is an invoice's, not the page's
    const title = block([line("INVOICE", 57, 10, 50, 120, false)]);
    const number = block([line("4711", 57, 10, 520, 562, false)]);
    expect(runningBlocks([page(1, [title, number])]).has(number)).toBe(false);
  });

  test("a bold title on the top line beside a number stays", () => {
    const title = block([{ ...line("Results of the Survey", 57, 10, 50, 167, false), bold: true }]);
    const folio = block([line("7", 57, 10, 557, 562, false)]);
    const removed = runningBlocks([page(1, []), page(2, [title, folio])]);
    expect(removed.has(title)).toBe(false);
    expect(removed.has(folio)).toBe(true);
  });

  test("the Government Publishing Office's production line at a page's foot goes on the first page of a notice", () => {
    const slug = block([line("VerDate Sep<11>2014 16:21 Aug 05, 2020 Jkt 250001 PO 00000 Frm 00001 Fmt 4702 Sfmt 4702 E:\\FR\\FM\\06AUP1.SGM 06AUP1", 772, 6.5, 25, 450, false)]);
    const removed = runningBlocks([page(1, [slug])]);
    expect(removed.has(slug)).toBe(true);
  });
});

describe("hyphens at a line's end", () => {
  test("a compound's hyphen after 'well' or 'self' stays; a broken word is joined", () => {
    expect(joinWrapped("not all uncertainty is well-", "represented by a Gaussian")).toBe("not all uncertainty is well-represented by a Gaussian");
    expect(joinWrapped("place considerable self-", "care demands")).toBe("place considerable self-care demands");
    expect(joinWrapped("the proportion (bounded at 0 and 1, as estimates approach the bound-", "ary the interval")).toBe("the proportion (bounded at 0 and 1, as estimates approach the boundary the interval");
  });

  test("a hyphen suspended before a conjunction keeps its space", () => {
    expect(joinWrapped("in both pre-", "and post-operative care")).toBe("in both pre- and post-operative care");
    expect(joinWrapped("die Vor-", "und Nachteile")).toBe("die Vor- und Nachteile");
    expect(joinWrapped("a thou-", "sand and more")).toBe("a thousand and more");
  });

  test("a web address broken at its own hyphen keeps it, with no space", () => {
    expect(joinWrapped("materials are available at https://github.com/mjskay/ggdist-", "paper and are archived")).toBe("materials are available at https://github.com/mjskay/ggdist-paper and are archived");
    expect(joinWrapped("see www.example-", "site.org for more")).toBe("see www.example-site.org for more");
  });
});

describe("list items and entries", () => {
  test("a line opened and closed by the same lone glyph is a bracket's pieces, not a list item; a bullet item stays one", () => {
    expect(paragraphMarkdown([line("• σ12 σ22 σ23 • → σ11 σ22 σ33 (1.1)", 392, 10, 148, 477, false)])).not.toMatch(/^- /);
    expect(paragraphMarkdown([line("• •", 374, 10, 148, 234, false)])).not.toMatch(/^- /);
    expect(paragraphMarkdown([line("• Lorem ipsum dolor sit amet", 392, 10, 148, 300, false)])).toBe("- Lorem ipsum dolor sit amet");
    expect(paragraphMarkdown([line("- a range - from one to two", 392, 10, 148, 300, false)])).toBe("- a range - from one to two");
  });

  test("references set with a hanging indent are one entry a line, though an entry's last line reaches the column's edge", () => {
    const md = paragraphMarkdown([
      line("George Kour and Raid Saabne. Real-time segmentation of on-line handwritten arabic script. In Frontiers", 432, 10, 72, 540),
      line("Recognition (ICFHR), 2014 14th International Conference on, pages 417–422. IEEE, 2014a.", 443, 10, 82, 452, false),
      line("Guy Hadash, Einat Kermany, Boaz Carmeli, Ofer Lavi, George Kour, and Alon Jacovi. Estimate and", 457, 10, 72, 540),
      line("approach to integrating deep neural networks with existing applications. arXiv preprint, 2018.", 468, 10, 82, 532),
      line("George Kour and Raid Saabne. Fast classification of handwritten on-line arabic characters. In Soft", 483, 10, 72, 542),
      line("Computing and Pattern Recognition (SoCPaR), 2014 6th International Conference of, pages 312–318.", 494, 10, 82, 542),
    ]);
    expect(md.split("\n").map((l) => l.slice(0, 16))).toEqual(["George Kour and ", "Guy Hadash, Eina", "George Kour and "]);
  });

  test("a block of paragraphs indented on their first line stays joined", () => {
    const md = paragraphMarkdown([
      line("lacus vel est. Curabitur consectetuer.", 135, 10, 72, 250, false),
      line("Suspendisse vel felis. Ut lorem lorem, interdum", 147, 10, 82, 301),
      line("eu, tincidunt sit amet, laoreet vitae, arcu. Aenean", 159, 10, 72, 301),
      line("faucibus pede eu ante.", 171, 10, 72, 200, false),
    ]);
    expect(md).toBe("lacus vel est. Curabitur consectetuer.\nSuspendisse vel felis. Ut lorem lorem, interdum eu, tincidunt sit amet, laoreet vitae, arcu. Aenean faucibus pede eu ante.");
  });
});
