/** The text agreement scorer of the PDF and scan structure benches (bench/structure-score.ts): what it folds away, and its two figures on small hand-made texts. */
import { describe, expect, test } from "bun:test";
import { textAgreement, textWords, wordEditDistance } from "../bench/structure-score";

describe("textWords", () => {
  test("markdown marks, table rules, <br>, link targets and pictures go; case is folded", () => {
    const md = "# The *Title*\n\nSee [the `site`](https://example.com/x) and ![logo](logo.png)<!-- image -->.\n\n| A | B |\n|---|:--:|\n| one<br>two | __three__ |\n\n- item\n\n```ts\nlet x\n```";
    expect(textWords(md)).toEqual(["the", "title", "see", "the", "site", "and", ".", "a", "b", "one", "two", "three", "item", "let", "x"]);
  });

  test("escapes are read as their characters and footnote marks go, their text stays", () => {
    expect(textWords("2 \\* 3 \\_x\\_ note[^1]\n\n[^1]: The note.")).toEqual(["2", "*", "3", "_x_", "note", "the", "note."]);
  });

  test("a heading's numbering and a slide's 'Slide N:', hard breaks' backslashes and strikethrough marks go", () => {
    expect(textWords("## 1.2. Features\n\n## Slide 2: Plans\n\nline one,\\\nline ~~two~~")).toEqual(["features", "plans", "line", "one,", "line", "two"]);
    expect(textWords("Version 1.2. notes\n\n# B.1. Annex")).toEqual(["version", "1.2.", "notes", "annex"]);
  });

  test("emphasis marks go without splitting the word; an underscore inside a word stays", () => {
    expect(textWords("Paragraph with **bold**. MSO_AUTO_SIZE and MSO\\_AUTO and _it_")).toEqual(["paragraph", "with", "bold.", "mso_auto_size", "and", "mso_auto", "and", "it"]);
  });
});

describe("wordEditDistance", () => {
  test("counts words inserted, deleted and replaced", () => {
    expect(wordEditDistance([], [])).toBe(0);
    expect(wordEditDistance(["a", "b", "c"], [])).toBe(3);
    expect(wordEditDistance(["a", "b", "c"], ["a", "c"])).toBe(1);
    expect(wordEditDistance(["a", "b", "c"], ["a", "x", "c", "d"])).toBe(2);
    expect(wordEditDistance(["a", "b"], ["b", "a"])).toBe(2);
  });
});

describe("textAgreement", () => {
  test("the same words in other marks agree fully", () => {
    const score = textAgreement("## Results\n\nThe **cat** sat.", "RESULTS\n\nThe cat   sat.");
    expect(score).toEqual({ ordered: 1, bagF1: 1, referenceWords: 4, words: 4, distance: 0 });
  });

  test("order counts in the edit distance, not in the bag of words", () => {
    const score = textAgreement("one two three four", "three four one two");
    expect(score.bagF1).toBe(1);
    expect(score.ordered).toBe(0);
  });

  test("dropped and repeated words lower both figures", () => {
    const dropped = textAgreement("a b c d", "a b");
    expect(dropped.ordered).toBe(0.5);
    expect(dropped.bagF1).toBeCloseTo(2 / 3, 6);
    const repeated = textAgreement("a b", "a b a b");
    expect(repeated.ordered).toBe(0.5);
    expect(repeated.bagF1).toBeCloseTo(2 / 3, 6);
  });

  test("an empty conversion of a text scores 0; two empty sides score 1", () => {
    expect(textAgreement("some words", "")).toMatchObject({ ordered: 0, bagF1: 0 });
    expect(textAgreement("", "")).toMatchObject({ ordered: 1, bagF1: 1 });
  });
});
