/**
 * A scanned page whose prose breaks a word at a line's end with a hyphen ("measure-" over "ments"),
 * as most typeset prose does: the layout joins the word as a born-digital paragraph's is joined, and
 * the check that the layout holds tesseract's words (ocrLayout.ts wordChanges) takes the joined word
 * for the two parts tesseract read. Before, the joined word counted as a word added and the parts as
 * words lost, and every such page stayed flat text (its title no heading).
 */
import { afterAll, expect, test } from "bun:test";
import sharp from "sharp";
import { makeConvertImage } from "../src/convert/image";
import { joinLineEndHyphens, wordChanges } from "../src/convert/ocrLayout";
import type { ConvertInput } from "../src/convert/types";
import { Tesseract } from "../src/tools/tesseract";
import { convertContext } from "./helpers/convert";

const tesseract = new Tesseract({ concurrency: 2, timeoutMs: 60_000 });
afterAll(() => tesseract.close());

test("a word broken at a line's end is no word lost or added when the markdown holds it joined", () => {
  const ocrText = "Survey Methods\nThe field teams took measure-\nments at every station.";
  expect(wordChanges("# Survey Methods\n\nThe field teams took measurements at every station.", ocrText)).toEqual({ lost: [], added: [] });
  // kept broken (a line that does not wrap), the parts are the words: nothing changes either
  expect(wordChanges("# Survey Methods\n\nThe field teams took measure-\nments at every station.", ocrText)).toEqual({ lost: [], added: [] });
  // a word neither tesseract's nor the join of a broken one is still a word added, and a word dropped still lost
  expect(wordChanges("# Survey Methods\n\nThe field teams took measurements at every site.", ocrText)).toEqual({ lost: ["station"], added: ["site"] });
});

/** PROSE: a paragraph printed in four full lines, the first two ending in a word broken with a hyphen */
const PROSE = [
  "The field teams visited each of the river stations twice a month and took measure-",
  "ments of the water temperature, the flow and the depth at the same hour of the morn-",
  "ing, so that the readings of one station could be set against those of the others",
  "over the whole season without any correction for the time of the day they were read.",
];

/** hyphenatedPage: an A4 page at 150 dpi drawn in SVG: a title over PROSE */
function hyphenatedPage(): Buffer {
  const parts = ['<rect width="1240" height="1754" fill="white"/>'];
  const text = (y: number, size: number, line: string, weight = "normal") =>
    parts.push(`<text x="120" y="${y}" font-family="DejaVu Serif" font-size="${size}" font-weight="${weight}" textLength="${weight === "bold" ? "" : 1000}">${line}</text>`);
  text(200, 40, "River Survey Methods", "bold");
  PROSE.forEach((line, i) => text(280 + i * 36, 23, line));
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="1240" height="1754">${parts.join("").replace(/ textLength=""/g, "")}</svg>`);
}

test("a scanned page whose prose breaks words at line ends is laid out: its title a heading, the broken words joined", async () => {
  const png = new Uint8Array(await sharp(hyphenatedPage()).greyscale().png().withMetadata({ density: 150 }).toBuffer());
  const input: ConvertInput = { bytes: png, filename: "river_survey_hyphenated_scan.png", contentType: "image/png", ext: "png" };
  const markdown = (await makeConvertImage({ scanLayout: true })(input, convertContext({ tools: { ocr: tesseract } }))).markdown;
  expect(markdown).toMatch(/^#{1,3} River Survey Methods$/m);
  expect(markdown).toContain("took measurements of the water temperature");
  expect(markdown).toContain("hour of the morning, so that");
}, 60_000);

test("tesseract's text of a page joins a word broken at a line's end on the line it starts; a compound the page prints whole keeps its hyphen; a capital after the hyphen is left", () => {
  const text = [
    "The field teams visited each of the river stations and took measure-",
    "ments of the water, as the well-known method of the survey describes it,",
    "at the same hour of the morning at each station, with the same well-",
    "known gauges, read by the teams of Jean-",
    "Paul and of the county office at the start of every single month.",
    "",
    "Total due: 12-",
    "ments",
  ].join("\n");
  expect(joinLineEndHyphens(text)).toBe(
    [
      "The field teams visited each of the river stations and took measurements",
      "of the water, as the well-known method of the survey describes it,",
      "at the same hour of the morning at each station, with the same well-known",
      "gauges, read by the teams of Jean-",
      "Paul and of the county office at the start of every single month.",
      "",
      "Total due: 12-",
      "ments",
    ].join("\n"),
  );
});

test("a page left as tesseract's text (no layout) reads its broken words joined", async () => {
  const png = new Uint8Array(await sharp(hyphenatedPage()).greyscale().png().withMetadata({ density: 150 }).toBuffer());
  const input: ConvertInput = { bytes: png, filename: "river_survey_hyphenated_scan.png", contentType: "image/png", ext: "png" };
  const markdown = (await makeConvertImage({ scanLayout: false })(input, convertContext({ tools: { ocr: tesseract } }))).markdown;
  expect(markdown).toMatch(/took measurements\nof the water temperature/);
  expect(markdown).toMatch(/hour of the morning,\nso that/);
  expect(markdown).not.toMatch(/\p{L}-\n/u);
}, 60_000);

test("a word broken at a line's end over a blank line (tesseract ends a paragraph where a table begins beside it) is joined too; a long run of letters is read once", () => {
  // NCES's report page: "... enrolled in graduate or first-", a blank line, "professional degree programs ..."
  const ocrText = "Forty-five percent of the recipients who enrolled in graduate or first-\n\nprofessional degree programs took out loans.\n\nTable 4. Percent who borrowed";
  expect(wordChanges("Forty-five percent of the recipients who enrolled in graduate or firstprofessional degree programs took out loans.\n\n| Table 4. | Percent who borrowed |", ocrText)).toEqual({ lost: [], added: [] });
  // two blank lines apart are two paragraphs: no word is joined across them
  expect(wordChanges("graduate or firstprofessional degree", "graduate or first-\n\n\nprofessional degree").added).toEqual(["firstprofessional"]);
  const hostile = "a".repeat(100_000);
  const started = performance.now();
  expect(wordChanges(hostile, `${hostile}\n${hostile}-`)).toEqual({ lost: [], added: [] });
  expect(performance.now() - started).toBeLessThan(1000);
});
