/**
 * Kinds of loss found on the fresh office group (bench/corpus/office-fresh, branch h/office6), each on
 * a generated file of the kind: Symbol-font characters (Word's `w:sym w:font="Symbol"` and runs set
 * in the Symbol face) show Greek and mathematical signs, not the Latin letter of their code; a
 * slide line typed in several runs of one look (bold runs split by a spelling mark) is one bold
 * stretch, not `**I am** **ShapeCrawler****!**`, which CommonMark reads with literal asterisks; an
 * endnote of several paragraphs keeps them apart (the further ones indented four spaces, GFM's
 * footnote syntax), not run together into one; a body table of one row and one cell (a report's
 * "Box 1" of a heading, a note and a numbered list) is written as body text: its heading a heading,
 * its list a list, not one table cell of `<br>` lines; an italic run that begins with closing
 * punctuation (`S` + italic `., Louder Voices`) keeps the punctuation outside its marker, which
 * CommonMark could not open there (`S*., Louder Voices*` shows its asterisks).
 */
import { expect, test } from "bun:test";
import { convertDocx } from "../src/convert/docx";
import { convertPptx } from "../src/convert/pptx";
import { convert, deckOf, zipTuples } from "./helpers/office";

const W = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`;
const RELS = `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`;

/** docx: a document of the given body XML */
function docx(body: string, extra: [string, string][] = []): Uint8Array {
  return zipTuples([["_rels/.rels", RELS], ["word/document.xml", `<w:document ${W}><w:body>${body}</w:body></w:document>`], ...extra]);
}

test("Symbol-font characters are the Greek and signs Word shows, by w:sym and by a run's face", async () => {
  const sym = (hex: string) => `<w:r><w:rPr><w:i/></w:rPr><w:sym w:font="Symbol" w:char="${hex}"/></w:r>`;
  const body = [
    `<w:p><w:r><w:t xml:space="preserve">the Greek word </w:t></w:r>${["F06B", "F06E", "F062", "F065", "F072", "F06E", "F061", "F077"].map(sym).join("")}<w:r><w:t xml:space="preserve"> (kybernao)</w:t></w:r></w:p>`,
    `<w:p><w:r><w:t xml:space="preserve">x </w:t></w:r><w:r><w:rPr><w:rFonts w:ascii="Symbol" w:hAnsi="Symbol"/></w:rPr><w:t>³ p</w:t></w:r><w:r><w:t xml:space="preserve"> and 2</w:t></w:r></w:p>`,
    `<w:p><w:r><w:t xml:space="preserve">a Wingdings sign stays as before: </w:t></w:r><w:r><w:sym w:font="Wingdings" w:char="F041"/></w:r></w:p>`,
  ].join("");
  const { markdown } = await convert(convertDocx, "greek.docx", docx(body));
  expect(markdown).toContain("the Greek word *κνβερναω* (kybernao)");
  expect(markdown).toContain("x ≥ π and 2");
  expect(markdown).toContain("stays as before: A");
  expect(markdown).not.toContain("knbernaw");
});

const P = `xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`;

/** deck: a one-slide deck of one text box holding the given paragraphs */
function deck(paragraphs: string): Uint8Array {
  return deckTree(`<p:sp><p:nvSpPr><p:cNvPr id="3" name="TextBox 2"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/>${paragraphs}</p:txBody></p:sp>`);
}

/** deckTree: a deck of one slide whose shape tree holds the given shapes */
function deckTree(shapes: string): Uint8Array {
  const slide = `<p:sld ${P}><p:cSld><p:spTree>${shapes}</p:spTree></p:cSld></p:sld>`;
  return deckOf([slide]);
}

test("a note of several paragraphs keeps them apart; a note of one paragraph with a line break stays one line", async () => {
  const p = (text: string) => `<w:p><w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;
  const body = `<w:p><w:r><w:t>Text</w:t></w:r><w:r><w:endnoteReference w:id="1"/></w:r><w:r><w:t xml:space="preserve"> and more</w:t></w:r><w:r><w:footnoteReference w:id="1"/></w:r></w:p>`;
  const endnotes = `<w:endnotes ${W}><w:endnote w:type="separator" w:id="0"><w:p/></w:endnote><w:endnote w:id="1">${p("=rand()")}${p("On the Insert tab, the galleries.")}${p("")}${p("You can easily change the formatting.")}</w:endnote></w:endnotes>`;
  const footnotes = `<w:footnotes ${W}><w:footnote w:id="1"><w:p><w:r><w:t>First line</w:t><w:br/><w:t>second line</w:t></w:r></w:p></w:footnote></w:footnotes>`;
  const rels = `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/endnotes" Target="endnotes.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/footnotes" Target="footnotes.xml"/></Relationships>`;
  const { markdown } = await convert(convertDocx, "notes.docx", docx(body, [["word/_rels/document.xml.rels", rels], ["word/endnotes.xml", endnotes], ["word/footnotes.xml", footnotes]]));
  expect(markdown).toContain("Text[^1] and more[^2]");
  expect(markdown).toContain("[^1]: =rand()\n\n    On the Insert tab, the galleries.\n\n    You can easily change the formatting.\n");
  expect(markdown).toContain("[^2]: First line second line");
});

test("a one-cell table in the body is a frame: its heading, list and paragraphs are written as the body's; a table of two cells stays a table", async () => {
  const styles = `<w:styles ${W}><w:style w:type="paragraph" w:styleId="Heading3"><w:name w:val="heading 3"/></w:style></w:styles>`;
  const numbering = `<w:numbering ${W}><w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>`;
  const rels = `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/numbering" Target="numbering.xml"/></Relationships>`;
  const p = (text: string, pPr = "") => `<w:p>${pPr ? `<w:pPr>${pPr}</w:pPr>` : ""}<w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;
  const item = (text: string) => p(text, `<w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr>`);
  const box = `<w:tbl><w:tblPr/><w:tblGrid><w:gridCol w:w="9000"/></w:tblGrid><w:tr><w:tc><w:tcPr><w:tcW w:w="9000"/></w:tcPr>${p("Box 1: Some proposed definitions", `<w:pStyle w:val="Heading3"/>`)}${p("Note: sources below.")}${item("The set of shared rules.")}${item("The collective rules.")}</w:tc></w:tr></w:tbl>`;
  const grid = `<w:tbl><w:tr><w:tc>${p("Name")}</w:tc><w:tc>${p("Role")}</w:tc></w:tr></w:tbl>`;
  const { markdown } = await convert(convertDocx, "box.docx", docx(`${p("Before the box.")}${box}${p("After the box.")}${grid}`, [["word/_rels/document.xml.rels", rels], ["word/styles.xml", styles], ["word/numbering.xml", numbering]]));
  expect(markdown).toContain("Before the box.\n\n### Box 1: Some proposed definitions\n\nNote: sources below.\n\n1. The set of shared rules.\n2. The collective rules.\n\nAfter the box.");
  expect(markdown).toContain("| Name | Role |");
  expect(markdown).not.toContain("<br>");
});

test("tables nested three hundred deep convert; parts nested past MAX_ELEMENT_DEPTH (20 000 one-cell tables, 10 000 group shapes) are refused as unreadable, not a stack overflow", async () => {
  const nested = (depth: number) => "<w:tbl><w:tr><w:tc>".repeat(depth) + "<w:p><w:r><w:t>core</w:t></w:r></w:p>" + "</w:tc></w:tr></w:tbl>".repeat(depth);
  expect((await convert(convertDocx, "nested.docx", docx(nested(300)))).markdown).toContain("core");
  const started = performance.now();
  await expect(convert(convertDocx, "deep.docx", docx(nested(20_000)))).rejects.toMatchObject({ code: "unreadable_document" });
  // the slide's converter walked group shapes recursively: 10 000 deep ran the stack out (RangeError)
  const group = '<p:grpSp><p:nvGrpSpPr><p:cNvPr id="2" name="G"/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>';
  const shape = '<p:sp><p:nvSpPr><p:cNvPr id="3" name="T"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/><a:p><a:r><a:t>core</a:t></a:r></a:p></p:txBody></p:sp>';
  await expect(convert(convertPptx, "deep.pptx", deckTree(group.repeat(10_000) + shape + "</p:grpSp>".repeat(10_000)))).rejects.toMatchObject({ code: "unreadable_document" });
  expect(performance.now() - started).toBeLessThan(20_000);
});

test("emphasis that begins with closing punctuation after a letter opens after the punctuation", async () => {
  const r = (text: string, rPr = "") => `<w:r>${rPr}<w:t xml:space="preserve">${text}</w:t></w:r>`;
  const body = `<w:p>${r("See Lilley, S")}${r("., Louder Voices: Strengthening", "<w:rPr><w:i/></w:rPr>")}${r(", London.")}</w:p><w:p>${r("Plain ")}${r("bold", "<w:rPr><w:b/></w:rPr>")}${r(" text.")}</w:p>`;
  const { markdown } = await convert(convertDocx, "cite.docx", docx(body));
  expect(markdown).toContain("See Lilley, S., *Louder Voices: Strengthening*, London.");
  expect(markdown).toContain("Plain **bold** text.");
});

test("slide runs of one look in a row are one emphasis span; runs of another look keep theirs", async () => {
  const run = (text: string, rPr: string) => `<a:r><a:rPr lang="en-US" sz="1400" ${rPr}/><a:t xml:space="preserve">${text}</a:t></a:r>`;
  const paragraphs = [
    `<a:p>${run("I am ", 'b="1"')}${run("ShapeCrawler", 'b="1" err="1"')}${run("!", 'b="1"')}</a:p>`,
    `<a:p>${run("Plain ", "")}${run("bold", 'b="1"')}${run(" and ", "")}${run("ital", 'i="1"')}${run("ic", 'i="1" dirty="0"')}${run(" end", "")}</a:p>`,
  ].join("");
  const { markdown } = await convert(convertPptx, "deck.pptx", deck(paragraphs));
  expect(markdown).toContain("**I am ShapeCrawler!**");
  expect(markdown).toContain("Plain **bold** and *italic* end");
  expect(markdown).not.toContain("****");
});

test("slide text in the Symbol face is Greek and signs; a run with Symbol only as its symbol face keeps its letters", async () => {
  const paragraphs = [
    `<a:p><a:r><a:rPr lang="en-US"/><a:t xml:space="preserve">angle </a:t></a:r><a:r><a:rPr lang="el-GR"><a:latin typeface="Symbol"/></a:rPr><a:t>q</a:t></a:r><a:r><a:rPr lang="en-US"/><a:t xml:space="preserve"> in radians</a:t></a:r></a:p>`,
    `<a:p><a:r><a:rPr lang="en-US"><a:sym typeface="Symbol"/></a:rPr><a:t>a \uf0b3 b</a:t></a:r></a:p>`,
  ].join("");
  const { markdown } = await convert(convertPptx, "greek.pptx", deck(paragraphs));
  expect(markdown).toContain("angle θ in radians");
  expect(markdown).toContain("a ≥ b");
});
