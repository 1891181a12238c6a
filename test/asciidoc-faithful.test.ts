/**
 * AsciiDoc written as Asciidoctor shows it: attributes built from attributes, conditionals, the
 * built-in character attributes, list nesting under description lists, an ordered list continued after
 * an attached block, callout lists, escaped separators in table cells, unconstrained marks, roles,
 * replacements, and the inline and block macros that hold no text.
 */
import { describe, expect, test } from "bun:test";
import { convertAsciiDoc } from "../src/convert/asciidoc";
import type { ConvertContext } from "../src/convert/types";

const context = { signal: AbortSignal.timeout(30_000), page: { mainContent: true, waitMs: 0 }, limits: {}, tools: {} } as unknown as ConvertContext;
const md = async (text: string) => (await convertAsciiDoc({ bytes: new TextEncoder().encode(text), filename: "doc.adoc", contentType: "text/asciidoc", ext: "adoc" }, context)).markdown;

describe("AsciiDoc as Asciidoctor shows it", () => {
  test("an attribute defined from other attributes is expanded where it is defined; block image targets too", async () => {
    const out = await md(["= Project", ":url-org: https://example.org/team", ":url-repo: {url-org}/project", ":url-issues: {url-repo}/issues", ":shot: {url-org}/shot.png", "", "Report them in the {url-issues}[issue tracker].", "", "image::{shot}[Screenshot]"].join("\n"));
    expect(out).toContain("Report them in the [issue tracker](https://example.org/team/project/issues).");
    expect(out).toContain("![Screenshot](https://example.org/team/shot.png)");
    expect(out).not.toContain("{url-");
  });

  test("ifdef and ifndef keep or drop their lines by the attributes defined above them, nested and one-line forms too", async () => {
    const out = await md(
      [
        "= Doc",
        ":shown:",
        "ifdef::env-github[]",
        ":badges:",
        "GitHub-only line.",
        "ifdef::shown[]",
        "Nested, still GitHub-only.",
        "endif::[]",
        "endif::[]",
        "ifndef::env-github[]",
        "Everywhere but GitHub.",
        "endif::[]",
        "ifdef::badges[]",
        "Badge line.",
        "endif::[]",
        "ifdef::env-site,shown[One-line kept.]",
        "ifdef::env-site+shown[One-line dropped.]",
        "ifndef::shown[Not shown.]",
      ].join("\n"),
    );
    expect(out).toContain("Everywhere but GitHub.");
    expect(out).toContain("One-line kept.");
    for (const gone of ["GitHub-only", "Nested", "Badge line", "One-line dropped", "Not shown", "ifdef", "endif"]) expect(out).not.toContain(gone);
  });

  test("built-in character attributes, unconstrained marks, roles, replacements and text-less macros", async () => {
    const out = await md(
      [
        "Use {plus} and C{pp} and a {vbar} bar.",
        "",
        "fan__freakin__tastic, ``mono``culture, ##mark##up and **C**reate.",
        "",
        "the [.path]_images_ directory and a [#term.role]*wibble*.",
        "",
        "AsciiDoc(R) is by Foo(TM), (C) 2024 -- no more.",
        "",
        "Run it with --verbose or -- after the options; a well--known word.",
        "",
        "The icon:flag[role=blue] flag, stem:[sqrt(4) = 2] and pass:c[->] arrows.",
        "",
        "video::movie.mp4[width=640]",
      ].join("\n"),
    );
    expect(out).toContain("Use + and C++ and a | bar.");
    expect(out).toContain("fan*freakin*tastic, `mono`culture, markup and **C**reate.");
    expect(out).toContain("the *images* directory and a **wibble**.");
    expect(out).toContain("AsciiDoc® is by Foo™, © 2024 — no more.");
    expect(out).toContain("Run it with --verbose or — after the options; a well—known word.");
    expect(out).toMatch(/The +flag, sqrt\(4\) = 2 and -> arrows\./);
    expect(out).not.toContain("video::");
  });

  test("lists: ordered lists nest under description items; an attached listing does not restart the numbers; callouts are numbered", async () => {
    const out = await md(
      [
        "Systems::",
        "  Linux:::",
        "    . Fedora",
        "    . Ubuntu",
        "  BSD:::",
        "    . FreeBSD",
        "",
        "Steps:",
        "",
        ". Create a Gemfile",
        ". Add the gem:",
        "+",
        "[subs=attributes+]",
        "----",
        "gem 'x', '{plus}'",
        "----",
        "",
        ". Save the Gemfile",
        "",
        "[,ruby]",
        "----",
        "puts 'Hello' # <1>",
        "----",
        "<1> Prints hello.",
      ].join("\n"),
    );
    expect(out).toContain("- **Systems**\n   - **Linux**\n      1. Fedora\n      2. Ubuntu\n   - **BSD**\n      1. FreeBSD");
    expect(out).toMatch(/^3\. Save the Gemfile$/m);
    expect(out).toContain("gem 'x', '+'");
    expect(out).toContain("```ruby\nputs 'Hello' (1)\n```");
    expect(out).toMatch(/^1\. Prints hello\.$/m);
  });

  test("a passthrough shows its text as written, before any other markup (pass:[`x`] is backticks, not code)", async () => {
    const out = await md("Old pass:[_italic_] and pass:[`mono`] and pass:[+plus+] forms.");
    expect(out).toContain("Old \\_italic\\_ and \\`mono\\` and +plus+ forms.");
    expect(out).not.toContain("\u0000");
  });

  test("an escaped separator in a table cell is the character, written once escaped", async () => {
    const out = await md(["|===", "| Name | Values", "", "| grid", "| all \\| cols \\| none", "|==="].join("\n"));
    expect(out).toContain("| grid | all \\| cols \\| none |");
    expect(out).not.toContain("\\\\|");
  });

  test("an image's alt text: a quoted first attribute keeps its commas; none, or a named attribute first, gives the file name", async () => {
    const out = await md('= Tool image:https://ci.example.org/build.svg["Build, status", link="https://ci.example.org"] image:https://chat.example.org/my_project-room.svg[link="https://chat.example.org"]\n\nText.');
    expect(out).toContain("# Tool ![Build, status](https://ci.example.org/build.svg) ![my project room](https://chat.example.org/my_project-room.svg)");
    expect(out).not.toContain("link=");
  });

  test("callouts: a run of markers after a line comment is shown (1) (2) (3), the comment mark gone", async () => {
    const out = await md(["----", "[kind, target=name] // <1> <2> <3>", ".... <4>", "code # <5>", "----", "<1> One.", "<2> Two.", "<3> Three.", "<4> Four.", "<5> Five."].join("\n"));
    expect(out).toContain("```\n[kind, target=name] (1) (2) (3)\n.... (4)\ncode (5)\n```");
  });

  test("a list item's wrapped lines are its text: a link whose label runs over a line end is a link", async () => {
    const out = await md(["* In your editor (with", "https://example.org/plugin[the `editor-plugin`", "plugin]).", "* Next"].join("\n"));
    expect(out).toContain("- In your editor (with\n   [the `editor-plugin`\n   plugin](https://example.org/plugin)).\n- Next");
  });

  test("a paragraph's link whose label runs over a line end is a link; a passthrough inside a code span shows its text", async () => {
    const out = await md(["See https://example.org/a[the first", "page] now.", "", "Since `pass:[++]` has priority."].join("\n"));
    expect(out).toContain("See [the first\npage](https://example.org/a) now.");
    expect(out).toContain("Since `++` has priority.");
    expect(out).not.toContain("\u0000");
  });

  test("hostile lines stay fast: 100 000 characters of marks, braces and conditionals", async () => {
    const hostile = ["_".repeat(100_000), "#".repeat(100_000), "*".repeat(100_000), "{a}".repeat(33_000), "--".repeat(50_000), "`".repeat(100_000), "[.x]".repeat(25_000), "----\nx" + " <1>".repeat(25_000) + "\n----", "x <".repeat(33_000), "----\n" + " ".repeat(100_000) + "x <1>\n----", " ".repeat(100_000) + "x ::", "ifdef::" + "a,".repeat(50_000) + "[]"];
    for (const line of hostile) {
      const started = performance.now();
      await md(`Text\n\n${line}\n\nmore`);
      expect(performance.now() - started).toBeLessThan(2000);
    }
    const nested = "ifdef::a[]\n".repeat(50_000) + "x\n" + "endif::[]\n".repeat(50_000);
    const started = performance.now();
    await md(nested);
    expect(performance.now() - started).toBeLessThan(5000);
  }, 60_000);
});
