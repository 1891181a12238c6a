/**
 * Numbers of headings and lists as Word shows them (issue 16, items 4-5; branch h/office8,
 * src/convert/wordNumbering.ts): a heading style's automatic numbering (`I.`, `1.1.1`), legal
 * numbering (isLgl), labels markdown's ordered lists cannot show (`(a)`, `iv.`, `Article 3`),
 * restarts (startOverride, lvlRestart), counters shared by a heading style and a list of one
 * definition, numStyleLink, and hostile numbering definitions. Each on a generated file.
 */
import { expect, test } from "bun:test";
import { convertDocx } from "../src/convert/docx";
import { convertPptx } from "../src/convert/pptx";
import { countText } from "../src/convert/wordNumbering";
import { convert, deckOf, zipTuples } from "./helpers/office";

const W = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`;
const RELS = `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`;
const DOC_RELS = `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/numbering" Target="numbering.xml"/><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`;

/** lvl: one w:lvl */
const lvl = (ilvl: number, format: string, text: string, more = "") =>
  `<w:lvl w:ilvl="${ilvl}"><w:start w:val="1"/><w:numFmt w:val="${format}"/>${more}<w:lvlText w:val="${text}"/><w:pPr><w:ind w:left="${360 * (ilvl + 1)}" w:hanging="360"/></w:pPr></w:lvl>`;

/** docx: a document of the given body, abstract numberings (abstractNum i), w:num elements and styles */
function docx(body: string, abstracts: string[], nums: string, styles = ""): Uint8Array {
  const numbering = `<w:numbering ${W}>${abstracts.map((levels, i) => `<w:abstractNum w:abstractNumId="${i}">${levels}</w:abstractNum>`).join("")}${nums}</w:numbering>`;
  return zipTuples([
    ["_rels/.rels", RELS],
    ["word/document.xml", `<w:document ${W}><w:body>${body}</w:body></w:document>`],
    ["word/_rels/document.xml.rels", DOC_RELS],
    ["word/numbering.xml", numbering],
    ["word/styles.xml", `<w:styles ${W}>${styles}</w:styles>`],
  ]);
}

/** num: a w:num of numId on abstractNum, with optional overrides */
const num = (numId: number, abstractId: number, overrides = "") => `<w:num w:numId="${numId}"><w:abstractNumId w:val="${abstractId}"/>${overrides}</w:num>`;
/** p: a paragraph of the given text and paragraph properties */
const p = (text: string, pPr = "") => `<w:p>${pPr ? `<w:pPr>${pPr}</w:pPr>` : ""}<w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;
/** item: a paragraph of list numId at level ilvl */
const item = (text: string, numId: number, ilvl: number) => p(text, `<w:numPr><w:ilvl w:val="${ilvl}"/><w:numId w:val="${numId}"/></w:numPr>`);
/** heading: a paragraph in style HeadingN */
const heading = (text: string, n: number) => p(text, `<w:pStyle w:val="Heading${n}"/>`);
/** headingStyles: Heading1-3 numbered by numId at levels 0-2, as Word's "1 Heading 1" list style does */
const headingStyles = (numId: number) =>
  [1, 2, 3].map((n) => `<w:style w:type="paragraph" w:styleId="Heading${n}"><w:name w:val="heading ${n}"/><w:pPr><w:numPr><w:ilvl w:val="${n - 1}"/><w:numId w:val="${numId}"/></w:numPr><w:outlineLvl w:val="${n - 1}"/></w:pPr></w:style>`).join("");

test("a heading style's numbering is written before the heading: Roman, legal and multi-level", async () => {
  const outline = lvl(0, "upperRoman", "%1.") + lvl(1, "decimal", "%1.%2", "<w:isLgl/>") + lvl(2, "decimal", "%1.%2.%3");
  const body = [heading("Introduction", 1), heading("Scope", 2), heading("Terms", 2), heading("Design", 1), heading("Parts", 2), heading("Architectural Design", 3), p("see section 2.1.1")].join("");
  const { markdown } = await convert(convertDocx, "outline.docx", docx(body, [outline], num(1, 0), headingStyles(1)));
  // isLgl shows level 2's number in digits (1.1, not I.1); level 3 has no isLgl: its %1 is Roman, as Word shows it
  expect(markdown).toContain("# I. Introduction\n\n## 1.1 Scope\n\n## 1.2 Terms\n\n# II. Design\n\n## 2.1 Parts\n\n### II.1.1 Architectural Design");
});

test("a numbered heading and a list of one definition share its counters, as in Word", async () => {
  const outline = lvl(0, "decimal", "Article %1.") + lvl(1, "lowerLetter", "(%2)");
  const body = [heading("Definitions", 1), item("first term", 1, 1), item("second term", 1, 1), heading("Scope", 1), item("only clause", 1, 1)].join("");
  const { markdown } = await convert(convertDocx, "articles.docx", docx(body, [outline], num(1, 0), headingStyles(1)));
  expect(markdown).toContain("# Article 1. Definitions");
  expect(markdown).toContain("- (a) first term\n- (b) second term");
  expect(markdown).toContain("# Article 2. Scope");
  expect(markdown).toContain("- (a) only clause");
});

test("list labels markdown cannot show are written at the item's start; plain decimal stays an ordered list with its start", async () => {
  const legal = lvl(0, "lowerLetter", "(%1)") + lvl(1, "lowerRoman", "%2.") + lvl(2, "upperLetter", "%3)");
  const plain = lvl(0, "decimal", "%1.") + lvl(1, "decimal", "%2)");
  const body = [
    item("alpha", 1, 0),
    item("one", 1, 1),
    item("two", 1, 1),
    item("three", 1, 1),
    item("four", 1, 1),
    item("deep", 1, 2),
    item("beta", 1, 0),
    p("Then a numbered list that starts at 3:"),
    item("third", 2, 0),
    item("fourth", 2, 0),
    item("nested", 2, 1),
  ].join("");
  const { markdown } = await convert(convertDocx, "labels.docx", docx(body, [legal, plain], num(1, 0) + num(2, 1, `<w:lvlOverride w:ilvl="0"><w:startOverride w:val="3"/></w:lvlOverride>`)));
  expect(markdown).toContain("- (a) alpha\n  - i. one\n  - ii. two\n  - iii. three\n  - iv. four\n    - A) deep\n- (b) beta");
  expect(markdown).toContain("3. third\n4. fourth\n   1) nested");
});

test("lvlRestart=0: a level that never restarts keeps counting across its parents", async () => {
  const paras = lvl(0, "upperLetter", "%1.") + lvl(1, "decimal", "%2.", `<w:lvlRestart w:val="0"/>`);
  const body = [item("Part", 1, 0), item("first", 1, 1), item("second", 1, 1), item("Part", 1, 0), item("third", 1, 1)].join("");
  const { markdown } = await convert(convertDocx, "paras.docx", docx(body, [paras], num(1, 0)));
  // level 2 is "%2." of its own level: an ordered list; its count goes on under the second part
  expect(markdown).toContain("- A. Part\n  1. first\n  2. second\n- B. Part\n  3. third");
});

test("a label that would open a markdown block before the item's text is escaped", async () => {
  const odd = lvl(0, "decimal", "%1.") + lvl(1, "decimal", "%1.") + lvl(2, "bullet", "-");
  const body = [item("top", 1, 0), item("under the parent's number", 1, 1)].join("");
  const { markdown } = await convert(convertDocx, "odd.docx", docx(body, [odd], num(1, 0)));
  // level 2 shows level 1's number ("1."): not its own counter, so not an ordered list marker
  expect(markdown).toContain("1. top\n   - \\1. under the parent's number");
});

test("numStyleLink is followed to the numbering style's list; a link to itself or a cycle shows no number and does not hang", async () => {
  const styles = `<w:style w:type="numbering" w:styleId="Outline"><w:name w:val="Outline"/><w:pPr><w:numPr><w:numId w:val="2"/></w:numPr></w:pPr></w:style><w:style w:type="numbering" w:styleId="Loop"><w:name w:val="Loop"/><w:pPr><w:numPr><w:numId w:val="3"/></w:numPr></w:pPr></w:style>`;
  const abstracts = [
    `<w:numStyleLink w:val="Outline"/>`,
    `<w:styleLink w:val="Outline"/>${lvl(0, "lowerRoman", "(%1)")}`,
    `<w:numStyleLink w:val="Loop"/>`,
  ];
  const body = [item("linked", 1, 0), item("linked again", 1, 0), item("looped", 3, 0)].join("");
  const { markdown } = await convert(convertDocx, "links.docx", docx(body, abstracts, num(1, 0) + num(2, 1) + num(3, 2), styles));
  expect(markdown).toContain("- (i) linked\n- (ii) linked again");
  expect(markdown).toContain("looped");
});

test("hostile numbering stays bounded: 10 000 levels, a 100 000-character level text, a chain of links", async () => {
  const manyLevels = Array.from({ length: 10_000 }, (_, i) => lvl(i, "decimal", `%${(i % 9) + 1}.`)).join("");
  const longText = lvl(0, "decimal", `%1${"%1.".repeat(33_333)}`);
  const chain = Array.from({ length: 200 }, (_, i) => `<w:style w:type="numbering" w:styleId="S${i}"><w:name w:val="S${i}"/><w:pPr><w:numPr><w:numId w:val="${10 + i}"/></w:numPr></w:pPr></w:style>`).join("");
  const chained = Array.from({ length: 200 }, (_, i) => `<w:numStyleLink w:val="S${(i + 1) % 200}"/>`);
  const nums = num(1, 0) + num(2, 1) + chained.map((_, i) => num(10 + i, 2 + i)).join("");
  const body = [item("many", 1, 0), item("many deep", 1, 8), item("long", 2, 0), item("chained", 10, 0)].join("");
  const started = performance.now();
  const { markdown } = await convert(convertDocx, "hostile.docx", docx(body, [manyLevels, longText, ...chained], nums, chain));
  expect(performance.now() - started).toBeLessThan(5000);
  expect(markdown).toContain("many deep");
  expect(markdown).toContain("chained");
  // the level text is cut at 200 characters
  expect(markdown.split("\n").find((line) => line.endsWith("long"))!.length).toBeLessThan(600);
});

test("a slide's auto-numbered paragraphs show their scheme: (a), iv., A); plain digits stay an ordered list", async () => {
  const P = `xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`;
  const para = (text: string, pPr: string) => `<a:p><a:pPr${pPr}</a:pPr><a:r><a:t>${text}</a:t></a:r></a:p>`;
  const auto = (text: string, type: string, lvl = 0, startAt = "") => para(text, ` lvl="${lvl}"><a:buAutoNum type="${type}"${startAt ? ` startAt="${startAt}"` : ""}/>`);
  const body = [
    auto("first", "alphaLcParenBoth"),
    auto("second", "alphaLcParenBoth"),
    auto("under", "romanLcPeriod", 1, "4"),
    auto("under again", "romanLcPeriod", 1, "4"),
    auto("third", "alphaLcParenBoth"),
    para("Then:", "><a:buNone/>"),
    auto("plain", "arabicParenR", 0, "3"),
    auto("capital", "alphaUcParenR", 1),
  ].join("");
  const slide = `<p:sld ${P}><p:cSld><p:spTree><p:sp><p:nvSpPr><p:cNvPr id="2" name="Text"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/>${body}</p:txBody></p:sp></p:spTree></p:cSld></p:sld>`;
  const bytes = deckOf([slide]);
  const { markdown } = await convert(convertPptx, "steps.pptx", bytes);
  expect(markdown).toContain("- (a) first\n- (b) second\n  - iv. under\n  - v. under again\n- (c) third\n\nThen:\n\n3) plain\n   - A) capital");
});

test("countText writes Word's number formats", () => {
  expect([1, 26, 27, 28, 53].map((n) => countText(n, "lowerLetter"))).toEqual(["a", "z", "aa", "bb", "aaa"]);
  expect(countText(1994, "upperRoman")).toBe("MCMXCIV");
  expect(countText(4, "lowerRoman")).toBe("iv");
  expect([1, 2, 3, 11, 22, 113].map((n) => countText(n, "ordinal"))).toEqual(["1st", "2nd", "3rd", "11th", "22nd", "113th"]);
  expect(countText(21, "ordinalText")).toBe("Twenty-first");
  expect(countText(40, "ordinalText")).toBe("Fortieth");
  expect(countText(12, "cardinalText")).toBe("Twelve");
  expect(countText(7, "decimalZero")).toBe("07");
  expect(countText(5, "chineseCounting")).toBe("5");
});
