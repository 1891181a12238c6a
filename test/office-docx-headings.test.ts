/**
 * Headings as people set them in Word: a title in a heading style typed in bold runs (a report's
 * "Data Validation for FY23 ..." in Title style, bold) is a heading without `**` marks; bold over
 * part of a heading and italic in a heading stay (they mark words against the rest), bold body
 * text stays. The rule is heading()'s, for every format (office-heading-bold.test.ts).
 */
import { expect, test } from "bun:test";
import { convertDocx } from "../src/convert/docx";
import { convert, zipTuples } from "./helpers/office";

const W = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`;
const BOLD = "<w:rPr><w:b/></w:rPr>";
const r = (text: string, rPr = "") => `<w:r>${rPr}<w:t xml:space="preserve">${text}</w:t></w:r>`;
const styled = (style: string, runs: string) => `<w:p><w:pPr><w:pStyle w:val="${style}"/></w:pPr>${runs}</w:p>`;

test("a Title paragraph wholly in bold runs is written without ** marks; bold over part of a heading, italic and body bold stay", async () => {
  const body = [
    styled("Title", `${r("Data Validation", BOLD)}${r(" for FY23", BOLD)}`),
    `<w:p>${r("Totals are ")}${r("final", BOLD)}${r(".")}</w:p>`,
    styled("Heading2", `${r("Method", BOLD)}${r(" and ")}${r("data", "<w:rPr><w:i/></w:rPr>")}`),
  ].join("");
  const styles = `<w:styles ${W}><w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/></w:style><w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/></w:style></w:styles>`;
  const bytes = zipTuples([
    ["_rels/.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`],
    ["word/document.xml", `<w:document ${W}><w:body>${body}</w:body></w:document>`],
    ["word/_rels/document.xml.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`],
    ["word/styles.xml", styles],
  ]);
  const { markdown } = await convert(convertDocx, "report.docx", bytes);
  expect(markdown).toContain("# Data Validation for FY23\n");
  expect(markdown).toContain("Totals are **final**.");
  expect(markdown).toContain("## **Method** and *data*\n");
});
