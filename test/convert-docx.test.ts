/**
 * The native DOCX converter (src/convert/docx.ts) against real-world files (MarkItDown's corpus) and
 * LibreOffice's own DOCX output.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { convertDocx } from "../src/convert/docx";
import { context, convert, officeWorkDir, zipTuples } from "./helpers/office";

const { work, soffice } = officeWorkDir("convert-docx-");

describe("DOCX", () => {
  test("test.docx: title heading, section headings, paragraphs, the table and the image alt text", async () => {
    const result = await convert(convertDocx, "test.docx");
    expect(result.markdown).toStartWith("# AutoGen: Enabling Next-Gen LLM Applications via Multi-Agent Conversation\n");
    expect(result.markdown).toContain("\n# Abstract\n");
    expect(result.markdown).toContain("\n## d666f1f7-46cb-42bd-9a39-9a39cf2a509f\n");
    expect(result.markdown).toContain("Here is a random UUID in the middle of the paragraph! 314b0a30-5b04-470b-b9f7-eed2c2bec74a");
    expect(result.markdown).toContain("| 1 | 2 | 3 | 4 | 5 | 6 |\n| --- | --- | --- | --- | --- | --- |\n| 7 | 8 | 9 | 10 | 11 | 12 |");
    expect(result.markdown).toContain("| 13 | 14 | 49e168b7-d2ae-407f-a055-2167576f39a1 | 15 | 16 | 17 |");
    expect(result.markdown).toMatch(/!\[[^\]]+\]\(image1\.png\)/);
    expect(result.title).toBe("AutoGen: Enabling Next-Gen LLM Applications via Multi-Agent Conversation");
    expect(result.totalPages).toBe(2);
    // The picture is a screenshot of the paper's abstract: tesseract reads it under the image.
    expect(result.markdown).toMatch(/\(image1\.png\)\n\n> \[Image text\] [\s\S]*> mathematics, coding, question answering/);
    expect(result.method).toBe("text+ocr");
  });

  test("equations.docx: inline math as $...$ and display math as $$...$$ in LaTeX", async () => {
    const { markdown } = await convert(convertDocx, "equations.docx");
    expect(markdown).toContain("For $m=1$,");
    expect(markdown).toContain("$$\\sin \\theta =\\frac{m\\lambda}{a}=");
    expect(markdown).toContain("{10}^{-6}");
    expect(markdown).toContain("\\frac{a}{\\lambda}=\\frac{m}{\\sin \\theta}");
    expect(markdown).toContain("The angle is $\\theta =");
    expect(markdown.match(/^\$\$.+\$\$$/gm)?.length).toBe(2);
  });

  test("test_with_comment.docx: comments appended with their author", async () => {
    const { markdown } = await convert(convertDocx, "test_with_comment.docx");
    expect(markdown).toContain("## Comments");
    expect(markdown).toContain("- **Unknown Author** (2024-12-15): This is a test comment. 12df-321a");
    expect(markdown).toContain("Yet another comment in the doc. 55yiyi-asd09");
    expect(markdown).toContain("| 13 | 14 | 49e168b7-d2ae-407f-a055-2167576f39a1 | 15 | 16 | 17 |");
  });

  test("formats/docx_comments_link_image_heading.docx (python-docx): a comment's link and picture resolve through the comments part, its heading style is plain text", async () => {
    const { markdown, title } = await convert(convertDocx, "formats/docx_comments_link_image_heading.docx");
    expect(markdown).toContain("- **Steve Canny** (2025-06-07): Text with hyperlink [https://google.com](https://google.com) embedded.");
    expect(markdown).toContain("Text with inline image ![](image1.jpeg) in the middle.");
    expect(markdown).not.toContain("settings.xml");
    expect(markdown).toContain("(2025-06-07): Paragraph with Heading 2 paragraph style.");
    expect(title).not.toBe("Paragraph with Heading 2 paragraph style.");
  });

  test("formats/docx_footnote_hyperlink_mammoth.docx (mammoth.js): a link inside a footnote resolves through the footnotes part's relationships", async () => {
    const { markdown } = await convert(convertDocx, "formats/docx_footnote_hyperlink_mammoth.docx");
    expect(markdown).toContain("[^1]: [Example](http://www.example.com)");
  });

  test("rlink.docx: a linked picture shows its alt text and its local target is never followed", async () => {
    const { markdown } = await convert(convertDocx, "rlink.docx");
    expect(markdown).toContain("Testing Linked Images");
    expect(markdown).toContain("![A red and blue square AI-generated content may be incorrect.](image)");
    expect(markdown).not.toContain("file://");
  });

  test("ocr_docx_multiple_images.docx: text inside both images comes out through tesseract", async () => {
    const result = await convert(convertDocx, "ocr_docx_multiple_images.docx");
    expect(result.markdown).toStartWith("# Multi-Image Document\n");
    expect(result.markdown).toMatch(/First section\n\n!\[\]\(image1\.png\)\n\n> \[Image text\] Chart 1: Revenue Growth/);
    expect(result.markdown).toMatch(/> \[Image text\] Chart 2: Customer Satisfaction/);
    expect(result.markdown.indexOf("Revenue Growth")).toBeLessThan(result.markdown.indexOf("Second section"));
    expect(result.method).toBe("text+ocr");
  });

  test("without an OCR engine images keep their alt text and the method stays text", async () => {
    const result = await convert(convertDocx, "ocr_docx_multiple_images.docx", undefined, context({}, false));
    expect(result.markdown).toContain("![](image2.png)");
    expect(result.markdown).not.toContain("[Image text]");
    expect(result.method).toBe("text");
  });

  test("footnotes, field hyperlinks, internal anchors, vertical merges and a decimal list that continues", async () => {
    const W = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`;
    const p = (inner: string, pPr = "") => `<w:p>${pPr ? `<w:pPr>${pPr}</w:pPr>` : ""}${inner}</w:p>`;
    const r = (text: string) => `<w:r><w:t xml:space="preserve">${text}</w:t></w:r>`;
    const item = (text: string) => p(r(text), `<w:numPr><w:ilvl w:val="0"/><w:numId w:val="7"/></w:numPr>`);
    const cell = (inner: string, tcPr = "") => `<w:tc>${tcPr ? `<w:tcPr>${tcPr}</w:tcPr>` : ""}${p(r(inner))}</w:tc>`;
    const body = [
      p(`${r("Claim")}<w:r><w:footnoteReference w:id="2"/></w:r>${r(" and ")}<w:fldSimple w:instr=' HYPERLINK "https://example.org/x" '>${r("field link")}</w:fldSimple>${r(" and ")}<w:hyperlink w:anchor="sec2">${r("an anchor")}</w:hyperlink>${r(".")}`),
      p(`<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText>HYPERLINK "https://example.net/"</w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>${r("complex link")}<w:r><w:fldChar w:fldCharType="end"/></w:r>`),
      item("one"),
      item("two"),
      p(r("between")),
      item("three"),
      `<w:tbl><w:tr>${cell("Region")}${cell("Q1")}${cell("Q2")}</w:tr><w:tr>${cell("North", '<w:vMerge w:val="restart"/>')}${cell("Both quarters", '<w:gridSpan w:val="2"/>')}</w:tr><w:tr>${cell("", "<w:vMerge/>")}${cell("5")}${cell("6")}</w:tr></w:tbl>`,
    ].join("");
    const bytes = zipTuples([
      ["_rels/.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`],
      ["word/document.xml", `<w:document ${W}><w:body>${body}</w:body></w:document>`],
      ["word/_rels/document.xml.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/footnotes" Target="footnotes.xml"/><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/numbering" Target="numbering.xml"/></Relationships>`],
      ["word/footnotes.xml", `<w:footnotes ${W}><w:footnote w:type="separator" w:id="0">${p(r("---"))}</w:footnote><w:footnote w:id="2">${p(r("Source: the annual report."))}</w:footnote></w:footnotes>`],
      ["word/numbering.xml", `<w:numbering ${W}><w:abstractNum w:abstractNumId="3"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/></w:lvl></w:abstractNum><w:num w:numId="7"><w:abstractNumId w:val="3"/></w:num></w:numbering>`],
    ]);
    const { markdown } = await convert(convertDocx, "notes.docx", bytes);
    expect(markdown).toContain("Claim[^1] and [field link](https://example.org/x) and an anchor.");
    expect(markdown).toContain("[complex link](https://example.net/)");
    expect(markdown).toContain("1. one\n2. two\n\nbetween\n\n3. three");
    expect(markdown).toContain("| Region | Q1 | Q2 |\n| --- | --- | --- |\n| North | Both quarters |  |\n|  | 5 | 6 |");
    expect(markdown).toEndWith("[^1]: Source: the annual report.\n");
  });

  test("superscript and subscript runs (direct or from a character style) as <sup>/<sub>; an endnote reference in a raised style as [^n]", async () => {
    const W = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`;
    const p = (inner: string) => `<w:p>${inner}</w:p>`;
    const r = (text: string, rPr = "") => `<w:r>${rPr ? `<w:rPr>${rPr}</w:rPr>` : ""}<w:t xml:space="preserve">${text}</w:t></w:r>`;
    const raised = '<w:vertAlign w:val="superscript"/>';
    const body = [
      p(`${r("About 10")}${r("15", raised)}${r(" molecules of H")}${r("2", '<w:vertAlign w:val="subscript"/>')}${r("O, E = mc")}${r("2", '<w:rStyle w:val="Raised"/>')}${r(", x")}${r("1", `${raised}<w:b/>`)}${r(" and y")}${r("0", '<w:rStyle w:val="Raised"/><w:vertAlign w:val="baseline"/>')}${r(".")}`),
      p(`${r("Recent approaches")}<w:r><w:rPr><w:rStyle w:val="EndnoteReference"/></w:rPr><w:endnoteReference w:id="1"/></w:r>${r(" differ.")}`),
    ].join("");
    const bytes = zipTuples([
      ["_rels/.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`],
      ["word/document.xml", `<w:document ${W}><w:body>${body}</w:body></w:document>`],
      ["word/_rels/document.xml.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/endnotes" Target="endnotes.xml"/><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`],
      ["word/styles.xml", `<w:styles ${W}><w:style w:type="character" w:styleId="Raised"><w:name w:val="Raised"/><w:rPr>${raised}</w:rPr></w:style><w:style w:type="character" w:styleId="EndnoteReference"><w:name w:val="endnote reference"/><w:rPr>${raised}</w:rPr></w:style></w:styles>`],
      ["word/endnotes.xml", `<w:endnotes ${W}><w:endnote w:type="separator" w:id="0">${p(r("---"))}</w:endnote><w:endnote w:id="1">${p(`<w:r><w:rPr><w:rStyle w:val="EndnoteReference"/></w:rPr><w:endnoteRef/></w:r>${r(" Smith, 2020, a review.")}`)}</w:endnote></w:endnotes>`],
    ]);
    const { markdown } = await convert(convertDocx, "scripts.docx", bytes);
    expect(markdown).toContain("About 10<sup>15</sup> molecules of H<sub>2</sub>O, E = mc<sup>2</sup>, x**<sup>1</sup>** and y0.");
    expect(markdown).toContain("Recent approaches[^1] differ.");
    expect(markdown).toEndWith("[^1]: Smith, 2020, a review.\n");
  });

  test("paragraphs in a code style or a monospace font are one fenced block with their tabs and blank lines; a Courier word in prose is a code span", async () => {
    const W = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"`;
    const r = (text: string, rPr = "") => `<w:r>${rPr ? `<w:rPr>${rPr}</w:rPr>` : ""}<w:t xml:space="preserve">${text}</w:t></w:r>`;
    const styled = (style: string, inner: string) => `<w:p><w:pPr><w:pStyle w:val="${style}"/></w:pPr>${inner}</w:p>`;
    const courier = '<w:rFonts w:ascii="Courier New" w:hAnsi="Courier New"/>';
    const body = [
      `<w:p>${r("Run the tool with ")}${r("--fast", courier)}${r(" to skip checks:")}</w:p>`,
      styled("MacroText", r("def total(items):")),
      styled("MacroText", `<w:r><w:tab/><w:t>return sum(i.price for i in items)  # *all* items</w:t></w:r>`),
      styled("MacroText", ""),
      styled("MacroText", r("print(total(basket))")),
      `<w:p>${r("Then a config file, typed in Courier:")}</w:p>`,
      `<w:p>${r("[server]", courier)}</w:p>`,
      `<w:p>${r("port = 8080", courier)}</w:p>`,
    ].join("");
    const bytes = zipTuples([
      ["_rels/.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`],
      ["word/document.xml", `<w:document ${W}><w:body>${body}</w:body></w:document>`],
      ["word/_rels/document.xml.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`],
      ["word/styles.xml", `<w:styles ${W}><w:style w:type="paragraph" w:styleId="MacroText"><w:name w:val="macro"/><w:rPr><w:rFonts w:ascii="Courier" w:hAnsi="Courier"/></w:rPr></w:style></w:styles>`],
    ]);
    const { markdown } = await convert(convertDocx, "code.docx", bytes);
    expect(markdown).toContain("Run the tool with `--fast` to skip checks:");
    expect(markdown).toContain("```\ndef total(items):\n\treturn sum(i.price for i in items)  # *all* items\n\nprint(total(basket))\n```");
    expect(markdown).toContain("Then a config file, typed in Courier:\n\n```\n[server]\nport = 8080\n```");
  });

  test("a document whose default paragraph style is monospace (by the style it is based on) is prose throughout: no fence, no code span, even for a run in Courier", async () => {
    const W = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"`;
    const r = (text: string, rPr = "") => `<w:r>${rPr ? `<w:rPr>${rPr}</w:rPr>` : ""}<w:t xml:space="preserve">${text}</w:t></w:r>`;
    const courier = '<w:rFonts w:ascii="Courier New" w:hAnsi="Courier New"/>';
    const body = [
      `<w:p>${r("Dear members,")}</w:p>`,
      `<w:p>${r("the meeting moves to the old hall on ")}${r("Friday", courier)}${r(".")}</w:p>`,
      `<w:p>${r("Minutes follow.", courier)}</w:p>`,
      `<w:p>${r("Yours, the secretary", courier)}</w:p>`,
    ].join("");
    const styles = `<w:styles ${W}><w:style w:type="paragraph" w:styleId="Typewriter"><w:name w:val="Typewriter"/><w:rPr><w:rFonts w:ascii="Courier New" w:hAnsi="Courier New"/></w:rPr></w:style><w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:basedOn w:val="Typewriter"/></w:style></w:styles>`;
    const bytes = zipTuples([
      ["_rels/.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`],
      ["word/document.xml", `<w:document ${W}><w:body>${body}</w:body></w:document>`],
      ["word/_rels/document.xml.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`],
      ["word/styles.xml", styles],
    ]);
    const { markdown } = await convert(convertDocx, "typewritten_letter.docx", bytes);
    expect(markdown).toBe("Dear members,\n\nthe meeting moves to the old hall on Friday.\n\nMinutes follow.\n\nYours, the secretary\n");
  });

  test("monospace runs in prose (a Consolas font, the HTML Code style) are code spans; w:br is a hard break in prose, <br> in a cell, a space in a heading", async () => {
    const W = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"`;
    const r = (text: string, rPr = "") => `<w:r>${rPr ? `<w:rPr>${rPr}</w:rPr>` : ""}<w:t xml:space="preserve">${text}</w:t></w:r>`;
    const br = "<w:r><w:br/></w:r>";
    const body = [
      `<w:p>${r("Call ")}${r("parse(x)", '<w:rFonts w:ascii="Consolas" w:hAnsi="Consolas"/>')}${r(" or set ")}${r("DEBUG=1", '<w:rStyle w:val="HTMLCode"/>')}${r(" and ")}${r("**bold**", '<w:b/><w:rStyle w:val="HTMLCode"/>')}${r(".")}</w:p>`,
      `<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr>${r("Two")}${br}${r("lines")}</w:p>`,
      `<w:p>${r("Acme Ltd")}${br}${r("1 High Street")}${br}${r("Leeds")}</w:p>`,
      `<w:tbl><w:tr><w:tc><w:p>${r("Name")}</w:p></w:tc><w:tc><w:p>${r("Address")}</w:p></w:tc></w:tr><w:tr><w:tc><w:p>${r("Acme")}</w:p></w:tc><w:tc><w:p>${r("1 High Street")}${br}${r("Leeds")}</w:p></w:tc></w:tr></w:tbl>`,
    ].join("");
    const bytes = zipTuples([
      ["_rels/.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`],
      ["word/document.xml", `<w:document ${W}><w:body>${body}</w:body></w:document>`],
      ["word/_rels/document.xml.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`],
      ["word/styles.xml", `<w:styles ${W}><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr></w:style><w:style w:type="character" w:styleId="HTMLCode"><w:name w:val="HTML Code"/></w:style></w:styles>`],
    ]);
    const { markdown } = await convert(convertDocx, "spans.docx", bytes);
    expect(markdown).toContain("Call `parse(x)` or set `DEBUG=1` and **`**bold**`**.");
    expect(markdown).toContain("# Two lines\n");
    expect(markdown).toContain("Acme Ltd\\\n1 High Street\\\nLeeds");
    expect(markdown).toContain("| Acme | 1 High Street<br>Leeds |");
  });

  test("table rows inside a content control and cells inside custom XML stay in their table", async () => {
    const W = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"`;
    const cell = (text: string) => `<w:tc><w:p><w:r><w:t>${text}</w:t></w:r></w:p></w:tc>`;
    const table =
      `<w:tbl><w:tr>${cell("Item")}${cell("Qty")}</w:tr>` +
      `<w:sdt><w:sdtPr/><w:sdtContent><w:tr>${cell("Bolts")}<w:customXml w:element="qty">${cell("40")}</w:customXml></w:tr></w:sdtContent></w:sdt>` +
      `<w:tr>${cell("Nuts")}${cell("12")}</w:tr></w:tbl>`;
    const bytes = zipTuples([
      ["_rels/.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`],
      ["word/document.xml", `<w:document ${W}><w:body>${table}</w:body></w:document>`],
    ]);
    const { markdown } = await convert(convertDocx, "controls.docx", bytes);
    expect(markdown).toContain("| Item | Qty |\n| --- | --- |\n| Bolts | 40 |\n| Nuts | 12 |");
  });

  test("odfdo's ODT files through LibreOffice: a heading inside a table cell, bold initials inside italics, strike from a character style", async () => {
    const formats = join(import.meta.dir, "fixtures", "formats");
    const names = ["odt_tables_heading_in_cell_note", "odt_poem_bold_initials_in_italics", "odt_markdown_sample_strike_style"];
    soffice(names.map((name) => join(formats, `${name}.odt`)), "docx:MS Word 2007 XML", `${names[0]}.docx`);
    const [table, poem, sample] = names.map((name) => new Uint8Array(readFileSync(join(work, `${name}.docx`))));
    const tables = (await convert(convertDocx, "tables.docx", table)).markdown;
    expect(tables).toContain("| Some title | Some line<br>break inside | anchor[^1] | A list of<br>3 paras<br>here | 123 |");
    expect(tables).toContain("| Some bar \\| there | Log or *short* or **very** long |  | \\*\\*no\\*\\* bold |");
    const signed = (await convert(convertDocx, "poem.docx", poem)).markdown;
    expect(signed).toEndWith("***A**rthur **R**imbaud*\n");
    expect(signed).toContain("Pâle dans son lit **vert** où la lumière pleut.");
    const struck = (await convert(convertDocx, "sample.docx", sample)).markdown;
    expect(struck).toContain("This has ~~strikethrough~~ and");
    expect(struck).toContain("| Name | Age | City |\n| --- | --- | --- |\n| Alice | 30 | Paris |");
  }, 120_000);

  test("LibreOffice's DOCX: headings, nested and numbered lists, merged table cells, link, emphasis", async () => {
    const html = join(work, "report.html");
    writeFileSync(
      html,
      `<html><head><title>Quarterly Report</title></head><body><h1>Quarterly Report</h1>
      <p>Intro with <b>bold</b>, <i>italic</i>, <s>struck</s> and a <a href="https://example.com/page">link to example</a>.</p>
      <h2>Findings</h2><ul><li>First bullet</li><li>Second bullet<ul><li>Nested bullet</li></ul></li></ul>
      <ol><li>Step one</li><li>Step two</li><li>Step three</li></ol>
      <table border="1"><tr><th>Name</th><th>Qty</th><th>Price</th></tr><tr><td colspan="2">Merged widget</td><td>9.50</td></tr>
      <tr><td>Gadget</td><td>3</td><td>4.25</td></tr></table><h3>Details</h3><p>Closing paragraph.</p></body></html>`,
    );
    const bytes = soffice(html, "docx:MS Word 2007 XML", "report.docx");
    const { markdown, title } = await convert(convertDocx, "report.docx", bytes);
    expect(title).toBe("Quarterly Report");
    expect(markdown).toContain("# Quarterly Report\n");
    expect(markdown).toContain("Intro with **bold**, *italic*, ~~struck~~ and a [link to example](https://example.com/page).");
    expect(markdown).toContain("## Findings\n\n- First bullet\n- Second bullet\n  - Nested bullet");
    expect(markdown).toContain("1. Step one\n2. Step two\n3. Step three");
    expect(markdown).toContain("| Name | Qty | Price |\n| --- | --- | --- |\n| Merged widget |  | 9.50 |\n| Gadget | 3 | 4.25 |");
    expect(markdown).toContain("### Details\n\nClosing paragraph.");
  }, 60_000);
});
