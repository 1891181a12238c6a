/**
 * The eighth fresh group's losses by kind (issue 16, item 3; bench/README "branch h/pdftext16"):
 * letter-spaced words, a title set ragged over two lines, a town's minutes' heads, a form's question
 * heads and a lead paragraph in bold, a page count that says the file is an excerpt. Text items are
 * written as pdf.js gives them (baseline `y` from the page's top).
 */
import { expect, test } from "bun:test";
import { analyzePage, renderPages } from "../src/convert/pdfLayout";
import { pageParts } from "../src/convert/pdfReadingOrder";
import type { PdfTextItem } from "../src/convert/pdfLayoutTypes";

/** item: a text item, its width about half an em a character unless given */
function item(str: string, x: number, y: number, size: number, width = 0.5 * size * str.length, more: Partial<PdfTextItem> = {}): PdfTextItem {
  return { str, x, y, size, width, font: "f1", ...more };
}

/** prose: `lines` lines of body text in 10 pt from `y` on, 14 pt apart, each reaching the column's right edge */
function prose(y: number, lines: number, x = 72): PdfTextItem[] {
  const text = "The committee reviewed the request and the documents that were submitted with it in time";
  return Array.from({ length: lines }, (_, i) => item(i === lines - 1 ? "and it was approved." : text, x, y + 14 * i, 10, i === lines - 1 ? 90 : 450));
}

/** spaced: a phrase set letter-spaced, one run a letter as pdf.js gives it: `tracking` between letters, `word` between words */
function spaced(phrase: string, x: number, y: number, size: number, tracking: number, word: number): PdfTextItem[] {
  const items: PdfTextItem[] = [];
  let at = x;
  for (const [w, text] of phrase.split(" ").entries()) {
    if (w > 0) at += word - tracking;
    for (const c of text) {
      const width = 0.55 * size;
      items.push(item(c, at, y, size, width));
      at += width + tracking;
    }
  }
  return items;
}

test("a phrase set letter-spaced, a run a letter, reads as its words", () => {
  const items = [...spaced("brazilian journal of microbiology", 200, 40, 7, 1, 3.9), ...spaced("article info", 72, 120, 9, 4, 10.4), ...prose(160, 6)];
  const md = renderPages([analyzePage(items, 1, 612, 792)]).markdown;
  expect(md).toContain("brazilian journal of microbiology");
  expect(md).toContain("article info");
  expect(md).not.toMatch(/\bb r a\b/);
});

test("letters set at their advance, and lone letters spaced as words, are left as they are", () => {
  // a word drawn a glyph a run (no tracking) and a list of single letters with word spaces between longer words
  const word = [..."Results"].map((c, i) => item(c, 72 + 5 * i, 40, 10, 5));
  const items = [...word, item("Answer a or b then", 72, 60, 10, 90), ...prose(100, 4)];
  const md = renderPages([analyzePage(items, 1, 612, 792)]).markdown;
  expect(md).toContain("Results");
  expect(md).toContain("Answer a or b then");
});

test("a web address set letter-spaced inside its runs reads as the address", () => {
  const items = [item("h t", 282.8, 90.7, 8, 8.5), item("t p : / / w w w . b j m i c r o b i o l . c o m . b r /", 292.3, 90.7, 8, 137.1), ...prose(130, 6)];
  const md = renderPages([analyzePage(items, 1, 612, 792)]).markdown;
  expect(md).toContain("http://www.bjmicrobiol.com.br/");
  expect(md).not.toMatch(/^#.*h t t p/m);
});

test("a title set ragged over two lines, the second going on in lower case, is one heading", () => {
  const items = [
    item("Current applications and different approaches for", 94, 156, 15.9, 330, { bold: true }),
    item("microbial l-asparaginase production", 94, 178, 15.9, 293, { bold: true }),
    ...prose(230, 12, 94),
  ];
  const md = renderPages([analyzePage(items, 1, 680, 880)]).markdown;
  expect(md).toMatch(/^# Current applications and different approaches for microbial l-asparaginase production$/m);
});

test("an amount's label over its note in lower case is no title", () => {
  const items = [item("Nettobetrag: 496,00 €", 72, 100, 14, 150), item("zuzüglich Umsatzsteuer", 72, 117, 14, 160), ...prose(160, 8)];
  const md = renderPages([analyzePage(items, 1, 612, 792)]).markdown;
  expect(md).not.toMatch(/^#.*Nettobetrag/m);
});

test("minutes: a title over two bold lines heads what follows; numbered items head a short sentence and a resolution's head", () => {
  const bold = { bold: true };
  const items = [
    item("COMITÉ DE DÉMOLITION", 227, 137, 12, 157, bold),
    item("PROCÈS-VERBAL", 259, 166, 12, 94, bold),
    item("Séance publique tenue le 20 juin, à 16h00 à la salle du conseil", 125, 181, 12, 361, bold),
    item("Présences", 71, 209, 12, 59, bold),
    item("Membres :", 71, 229, 11, 56),
    item("M. Gaëtan Gagné, conseiller municipal", 71, 242, 11, 211),
    item("1. Ouverture de la séance", 71, 337, 11, 140, bold),
    item("La séance est ouverte à 16h00.", 71, 362, 11, 166),
    item("3. Période de question du public", 71, 469, 11, 174, bold),
    item("Aucune question.", 71, 494, 11, 94),
    item("4. Demande de démolition pour le 1069, boulevard de Sainte-Adèle", 71, 535, 11, 380, bold),
    item("Résolution DM-2023-001", 242, 562, 11, 128, bold),
    ...prose(589, 8, 99).map((run) => ({ ...run, size: 11 })),
  ];
  const md = renderPages([analyzePage(items, 1, 612, 1008)]).markdown;
  expect(md).toMatch(/^#+ COMITÉ DE DÉMOLITION$/m);
  expect(md).toMatch(/^#+ Présences$/m);
  expect(md).toMatch(/^#+ 3\. Période de question du public$/m);
  expect(md).toMatch(/^#+ 4\. Demande de démolition/m);
  expect(md).toMatch(/^#+ Résolution DM-2023-001$/m);
});

test("a form's bold question heads among its field labels, and a head over a lead paragraph in bold, are headings", () => {
  const bold = { bold: true };
  const items = [
    item("ABOUT THIS APPLICATION FORM", 43, 123, 10, 162, bold),
    item("Complete this form if you are applying for the initial issue or a variation of a RPA Operator's Certificate", 43, 148, 10, 487, bold),
    item("(ReOC).", 43, 160, 10, 37, bold),
    ...prose(183, 5, 43),
    item("A2 The proposed name to be reflected on the ReOC when issued is:", 43, 300, 11, 338),
    item("A legal entity other than", 43, 320, 11, 115),
    item("individual", 43, 334, 11, 45),
    item("A3 Details of Individual", 43, 358, 11, 125, bold),
    item("Surname", 43, 381, 11, 45),
    item("Date of Birth", 43, 414, 11, 61),
    item("Do you have a CASA Aviation Reference Number (ARN)?", 43, 440, 11, 282),
  ];
  const md = renderPages([analyzePage(items, 1, 612, 842)]).markdown;
  expect(md).toMatch(/^#+ ABOUT THIS APPLICATION FORM$/m);
  expect(md).toMatch(/^#+ A3 Details of Individual$/m);
});

test("a page whose foot counts more pages than the file holds is an excerpt: its foot band goes", () => {
  const items = [...prose(100, 10), item("Page 1 of 6", 290, 760, 7, 40), item("This information is given in good faith but without warranty, expressed or implied.", 72, 772, 5, 300)];
  const md = renderPages([{ ...analyzePage(items, 1, 612, 792), filePages: 1 }]).markdown;
  expect(md).not.toContain("Page 1 of 6");
  expect(md).not.toContain("good faith");
  expect(md).toContain("and it was approved.");
});

test("a foot that counts the pages the file holds keeps its small print, rendered alone or with the others", () => {
  const items = [...prose(100, 10), item("Page 1 of 3", 290, 760, 7, 40), item("This information is given in good faith but without warranty, expressed or implied.", 72, 772, 5, 300)];
  // an invoice's first page of three, rendered on its own (as each page's text is) in a file of three pages
  expect(renderPages([{ ...analyzePage(items, 1, 612, 792), filePages: 3 }]).markdown).toContain("good faith");
  // a page whose file is unknown: nothing says it is an excerpt
  expect(renderPages([analyzePage(items, 1, 612, 792)]).markdown).toContain("good faith");
});

test("an Arabic head stretched with tatweel reads as its letters, and a run of a bracket and a colon after its number reads from the right", () => {
  const rtl = { rtl: true };
  const items = [
    item("( الــبــاب الأول )", 174, 116, 15, 80, { ...rtl, bold: true }),
    item(": )", 357.2, 145.4, 15, 12.6),
    item("1", 372.3, 145.4, 15, 6.3),
    item("مـــــادة (", 381.1, 145.4, 15, 37, rtl),
    item("فى تطبيق أحكام هذا القانون يقصد بالكلمات والعبارات التالية المعنى المبين قرين كل منها", 63.8, 168.9, 15, 333, rtl),
  ];
  const md = renderPages([analyzePage(items, 1, 430, 600)]).markdown;
  expect(md).toContain("( الباب الأول )");
  expect(md).toContain("مادة ( 1 ) :");
  expect(md).not.toContain("\u0640");
});

test("a title slide's subtitle, the slide's only other line, is no heading however far under the title", () => {
  const title = [item("How to do the Basics", 187, 222, 44, 376), item("And Other Little Helpful Hints", 181, 340, 32, 396)];
  const bullets = [item("What are the basics?", 208, 92, 44, 362), ...["Organization", "Development", "Expression", "Creating a thesis", "Introduction Paragraphs", "Body Paragraphs"].map((text, i) => item(`• ${text} of an essay`, 90, 173 + 40 * i, 28, 300))];
  const md = renderPages([analyzePage(title, 1, 720, 540), analyzePage(bullets, 2, 720, 540)]).markdown;
  expect(md).toMatch(/^# How to do the Basics$/m);
  expect(md).toMatch(/^And Other Little Helpful Hints$/m);
  expect(md).toMatch(/^#+ What are the basics\?$/m);
});

test("a box drawn at the top of the right column does not cut the left column's text: the column is read whole, then the box", () => {
  // the left column: a paragraph from above the box's top to below its bottom; the box's left side a divider
  const left = Array.from({ length: 16 }, (_, i) => item(i === 15 ? "and must be completed." : "information is used in the calculation of a cost estimate for", 43, 250 + 13 * i, 10, i === 15 ? 100 : 255));
  const box = Array.from({ length: 6 }, (_, i) => item(i === 5 ? "the Permissions Issue Team." : "Should you wish to proceed, you will need to pay the", 320, 300 + 13 * i, 10, i === 5 ? 130 : 240));
  const divider = { x: 312, top: 285, bottom: 390, endsLeft: 0, endsRight: 0, boxed: true, reachTop: 285, reachBottom: 390 };
  const parts = pageParts([...left, ...box], [divider]);
  const text = parts.flatMap((part) => part.lines.map((line) => line.segs.map((seg) => seg.text).join(" ")));
  expect(text.indexOf("and must be completed.")).toBeLessThan(text.indexOf("the Permissions Issue Team."));
  expect(text.indexOf("and must be completed.")).toBeGreaterThan(-1);
});

test("a list of letters each before a comma is words, and a form's instruction over two lines is no title", () => {
  // OCR's words of "(e, i, n, 1, 0)", a space apart; an instruction in a larger size whose second line goes on in lower case
  const list = ["(e,", "i,", "n,", "1,", "0)"].map((word, i) => item(word, 72 + 16 * i, 60, 11, 10));
  const items = [...list, item("To claim the child and dependent care", 72, 100, 14, 250), item("credit, complete lines 27 through 31 below.", 72, 117, 14, 280), ...prose(160, 8)];
  const md = renderPages([analyzePage(items, 1, 612, 792)]).markdown;
  expect(md).toContain("(e, i, n, 1, 0)");
  expect(md).not.toMatch(/^#.*To claim/m);
});
