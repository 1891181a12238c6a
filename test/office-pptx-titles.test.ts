/**
 * Slide titles as people set them: a title typed in bold runs ("New" "Contracts", each run bold, as
 * in course and outreach decks) is the slide's heading and the deck's title without `**` marks (a
 * heading is set apart already); italic in a title stays, it marks a word.
 */
import { expect, test } from "bun:test";
import { convertPptx } from "../src/convert/pptx";
import { convert, deckOf } from "./helpers/office";

const P = `xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`;
const run = (text: string, rPr = "") => `<a:r>${rPr ? `<a:rPr lang="en-US" ${rPr}/>` : ""}<a:t>${text}</a:t></a:r>`;
const titleShape = (runs: string) =>
  `<p:sp><p:nvSpPr><p:cNvPr id="2" name="Title 1"/><p:cNvSpPr/><p:nvPr><p:ph type="title"/></p:nvPr></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/><a:p>${runs}</a:p></p:txBody></p:sp>`;
const bodyShape = (text: string) =>
  `<p:sp><p:nvSpPr><p:cNvPr id="3" name="Text 2"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/><a:p>${run(text, 'b="1"')}</a:p></p:txBody></p:sp>`;

/** titledDeck writes a deck whose slides hold a title of the given runs and one bold body line. */
function titledDeck(titles: string[]): Uint8Array {
  const slides = titles.map((runs) => `<p:sld ${P}><p:cSld><p:spTree>${titleShape(runs)}${bodyShape("Key point")}</p:spTree></p:cSld></p:sld>`);
  return deckOf(slides);
}

test("a title in bold runs is a heading and the deck's title without ** marks; italic in a title and bold in the body stay", async () => {
  const bytes = titledDeck([`${run("New", 'b="1"')}${run(" ", 'b="1"')}${run("Contracts", 'b="1"')}`, `${run("Agenda", 'b="1"')}`, `${run("Why ")}${run("Section 508", 'i="1"')}${run(" matters")}`]);
  const result = await convert(convertPptx, "deck.pptx", bytes);
  expect(result.markdown).toContain("## Slide 1: New Contracts\n");
  expect(result.markdown).toContain("## Slide 2: Agenda\n");
  expect(result.markdown).toContain("## Slide 3: Why *Section 508* matters\n");
  expect(result.markdown).toContain("**Key point**");
  expect(result.title).toBe("New Contracts");
});
