/**
 * A file's name broken at its own hyphen at a line end (issue 16, item 3; bench/README "branch
 * h/fresh8"): a manual's "toto.header-" / "references.xml" keeps the hyphen.
 */
import { expect, test } from "bun:test";
import { joinLines } from "../src/convert/pdfParagraphs";

test("a file's name broken at its hyphen keeps it; a word broken by hyphenation is joined", () => {
  expect(joinLines(["- a pre-annotated file for the detailed reference segment analysis: toto.header-", "references.xml,"])).toBe("- a pre-annotated file for the detailed reference segment analysis: toto.header-references.xml,");
  expect(joinLines(["the use of the", "lever-", "age ratio. See e.g. the table-", "top view"])).toBe("the use of the leverage ratio. See e.g. the tabletop view");
});
