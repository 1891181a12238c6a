/**
 * A PDF's own markup characters ("**no** bold" printed with its asterisks) are escaped where a
 * markdown reader would take them for markup, and only there (escapeStrayMarkup); generated PDFs
 * through extractPdfPages and renderPages, no server needed for a layout rule.
 */
import { describe, expect, test } from "bun:test";
import { escapeStrayMarkup } from "../src/convert/markdown";
import { typesetMarkdown } from "./helpers/layoutMarkdown";
import { type TypesetRun } from "./helpers/typesetPdf";

const line = (y: number, text: string, x = 72): TypesetRun => ({ font: "Times-Roman", size: 11, x, y, text });

describe("escapeStrayMarkup", () => {
  test("escapes emphasis, code spans, links and tags that a reader would render", () => {
    expect(escapeStrayMarkup("**no** bold")).toBe("\\*\\*no\\*\\* bold");
    expect(escapeStrayMarkup("a _word_ here")).toBe("a \\_word\\_ here");
    expect(escapeStrayMarkup("run `make` now")).toBe("run \\`make\\` now");
    expect(escapeStrayMarkup("see [the site](x)")).toBe("see \\[the site\\](x)");
    expect(escapeStrayMarkup("a <div> tag")).toBe("a \\<div> tag");
  });

  test("a long text of many code spans, emphasis runs and URLs is read in linear time (pairs of each run against every other took 45 s for 20 000 repeats)", () => {
    const text = "`a` *b* https://x.io/y ".repeat(20000);
    const out = escapeStrayMarkup(text);
    expect(out.startsWith("\\`a\\` \\*b\\* https://x.io/y ")).toBe(true);
    expect(out.length).toBe(text.length + 4 * 20000);
  }, 10_000);

  test("leaves what no reader takes for markup as printed", () => {
    for (const text of ["2*3 = 6", "2*3*4", "FR7612345****12*******123***", "card ****1234 and ****5678", "snake_case_name", "a * b", "Total* incl. VAT", "x < 5 and y > 2", "[1] Smith", "one ` tick", "IBAN DE44 5001 0517 5407 3249 31", "https://example.com/a_b_/c_d_ and www.x.org/*y*", "10<sup>2</sup> and [^1]"]) {
      expect(escapeStrayMarkup(text)).toBe(text);
    }
  });
});

describe("a PDF's literal markup characters", () => {
  test("asterisks, underscores, backticks and link brackets in a paragraph are escaped, numbers and URLs are not", async () => {
    const md = await typesetMarkdown([[
      line(760, "The cell says **no** bold and _this_ is plain, run `make` and [a link](here)."),
      line(746, "Keep 2*3 = 6, snake_case and https://example.com/a_b_/c_d_ as they are."),
    ]]);
    expect(md).toContain("\\*\\*no\\*\\* bold and \\_this\\_ is plain, run \\`make\\` and \\[a link\\](here).");
    expect(md).toContain("Keep 2*3 = 6, snake_case and https://example.com/a_b_/c_d_ as they are.");
  });

  test("a table cell's asterisks are escaped", async () => {
    const rows = [["Name", "Value"], ["Alpha", "**no** bold"], ["Beta", "plain 2*3"], ["Gamma", "third"]];
    const md = await typesetMarkdown([rows.flatMap(([a, b], i) => [line(760 - 16 * i, a!), line(760 - 16 * i, b!, 300)])]);
    expect(md).toContain("| Alpha | \\*\\*no\\*\\* bold |");
    expect(md).toContain("| Beta | plain 2*3 |");
  });
});

describe("a LaTeX invoice's euro sign", () => {
  test("the eurosym font's letter reads as the euro sign it draws, other fonts' letters as letters", async () => {
    const md = await typesetMarkdown([[
      line(760, "Consulting services, withholding tax 20% = "),
      { font: "TeX-feymr10", size: 11, x: 292, y: 760, text: "e" },
      line(760, "342,00 each week.", 302),
      line(746, "Total: "),
      { font: "TeX-feymr10", size: 11, x: 110, y: 746, text: "e" },
      line(746, "1 710,00", 120),
    ]]);
    expect(md).toContain("= € 342,00 each week.");
    expect(md).toContain("Total: € 1 710,00");
  });
});
