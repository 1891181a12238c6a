/**
 * A figure's drawing read by tesseract as one word ("any" at 0.34 in a box 600 x 217 px over the
 * right column of an ACM paper's page, whose text is 38 px): sized by its box it made a line of
 * 73 pt, which took every line of the column within its reach into one line with it ("composed of
 * adata [4]. large There It ..."); the layout added words, so the page fell back to tesseract's flat
 * text and lost its four heads. A lone word read under UNSURE_LINE and three body sizes tall is a
 * mark, whatever its width, and is set in the body's size (ocrLayout.ts isUprightMark). So is a line
 * set sideways (arXiv's stamp up a preprint's margin, "arXiv:2004.04906v3 [cs.CL] 30 Sep 2020", read
 * surely as words 40 px wide and up to 382 px tall): sized by its boxes' heights, 30-68 pt, it joined
 * the column's lines ("ofthen") and the page was flat text, its title and heads lost (ocrLayout.ts sideways).
 */
import { afterAll, expect, test } from "bun:test";
import { makeConvertImage } from "../src/convert/image";
import { ocrLayoutMarkdown } from "../src/convert/ocrLayout";
import type { ConvertInput } from "../src/convert/types";
import { Tesseract } from "../src/tools/tesseract";
import type { OcrResult, OcrWord } from "../src/tools/types";
import { convertContext } from "./helpers/convert";
import { scanAt150 } from "./helpers/scanAt150";
import type { TypesetRun } from "./helpers/typesetPdf";

const tesseract = new Tesseract({ concurrency: 2, timeoutMs: 60_000 });
afterAll(() => tesseract.close());

/** COLUMN: a paper's paragraph, in words */
const COLUMN = "Cluster platforms are built from many identical machines linked by a fast network and shared disks. Their users submit jobs to a queue that the scheduler drains in order, and AppleS is an application level scheduler that handles the data distribution time of the jobs it places on the grid, and takes into account the links between its sites. Other parallel environments have a more general spectrum of targets, from heterogeneous machines to versatile execution platforms, and none of them is fast and flexible enough for the clusters we built two years ago in our laboratory for the users of the region.".split(" ");

/** pageOf: a two-column page at 300 dpi (38 px text, lines 44 px apart, each line justified to the column's 1000 px), a head over the left column, and `extra` words */
function pageOf(extra: OcrWord[]): OcrResult {
  const words: OcrWord[] = [];
  const columnAt = (block: number, left: number) => {
    let line: string[] = [];
    let n = 0;
    const flush = (last: boolean) => {
      const widths = line.map((part) => part.length * 19);
      const gap = last ? 14 : (1000 - widths.reduce((a, b) => a + b, 0)) / Math.max(1, line.length - 1);
      let x = left;
      line.forEach((part, i) => {
        const descends = /[gjpqy,]/.test(part);
        words.push({ text: part, left: Math.round(x), top: 980 + n * 44, width: widths[i]!, height: descends ? 35 : 27, confidence: 0.95, line: `${block}/1/${n + 1}`, paragraph: `${block}/1` });
        x += widths[i]! + gap;
      });
      n++;
      line = [];
    };
    for (const part of COLUMN) {
      if ([...line, part].join(" ").length * 19 > 1000) flush(false);
      line.push(part);
    }
    flush(true);
  };
  const head = "1.2 Related Approaches".split(" ");
  head.forEach((part, i) => words.push({ text: part, left: 150 + i * 260, top: 900, width: part.length * 26, height: 40, confidence: 0.95, line: "1/1/1", paragraph: "1/1" }));
  columnAt(2, 150);
  columnAt(3, 1250);
  words.push(...extra);
  return { text: [...words].map((word) => word.text).join(" "), confidence: 0.95, words, width: 2550, height: 3300 };
}

test("a figure read as one wide unsure word, three body sizes tall, does not take the column's lines into one", () => {
  const mark: OcrWord = { text: "any", left: 1568, top: 1010, width: 600, height: 217, confidence: 0.34, line: "4/1/1", paragraph: "4/1" };
  const markdown = ocrLayoutMarkdown(pageOf([mark]), 72 / 300);
  expect(markdown).not.toBeNull();
  expect(markdown!).toMatch(/^#{1,6} 1\.2 Related Approaches$/m);
  expect(markdown!.match(/Cluster platforms are built from many identical machines[^\n]*/g)?.length).toBe(2);
  expect(markdown!).toContain("and AppleS is an application level scheduler that handles the data distribution time");
});

test("a tall unsure word sure enough to be text, or not tall, is sized by its box as before", () => {
  // read at 0.9: a large word of the page, kept its size (a title, however wide)
  const title: OcrWord = { text: "Scheduling", left: 150, top: 600, width: 900, height: 140, confidence: 0.9, line: "0/1/1", paragraph: "0/1" };
  const markdown = ocrLayoutMarkdown(pageOf([title]), 72 / 300);
  expect(markdown!).toMatch(/^# Scheduling$/m);
});

/** ABSTRACT: a paper's paragraph, in words */
const ABSTRACT = "Open-domain question answering relies on efficient passage retrieval to select candidate contexts, where traditional sparse vector space models are the de facto method. In this work we show that retrieval can be practically implemented using dense representations alone, where embeddings are learned from a small number of questions and passages by a simple dual encoder framework. When evaluated on a wide range of open-domain datasets, our dense retriever outperforms a strong system greatly by nine to nineteen points in terms of passage retrieval accuracy, and helps our end-to-end system establish new results on multiple benchmarks.".split(" ");

/** preprintPage: a preprint's first page in two columns of 10 pt Times, bold title and heads, and arXiv's stamp in 20 pt grey up the left margin */
function preprintPage(): TypesetRun[] {
  const runs: TypesetRun[] = [];
  const column = (x: number, top: number, words: string[]) => {
    let y = top;
    for (let i = 0; i < words.length; i += 5) {
      runs.push({ font: "Times-Roman", size: 10, x, y, text: words.slice(i, i + 5).join(" ") });
      y -= 12;
    }
    return y;
  };
  runs.push({ font: "Times-Bold", size: 15, x: 120, y: 770, text: "Dense Passage Retrieval for Question Answering" });
  runs.push({ font: "Times-Roman", size: 11, x: 200, y: 745, text: "Vladimir Karpukhin and Barlas Oguz" });
  runs.push({ font: "Times-Bold", size: 12, x: 150, y: 700, text: "Abstract" });
  const y = column(80, 680, [...ABSTRACT, ...ABSTRACT]);
  runs.push({ font: "Times-Bold", size: 12, x: 80, y: y - 10, text: "1 Introduction" });
  column(80, y - 30, ABSTRACT);
  column(310, 680, [...ABSTRACT, ...ABSTRACT, ...ABSTRACT]);
  runs.push({ font: "Times-Roman", size: 20, x: 40, y: 250, text: "arXiv:2004.04906v3 [cs.CL] 30 Sep 2020", gray: 0.5, up: true });
  return runs;
}

test("a preprint's page with arXiv's stamp up its margin is laid out: its title and heads are headings", async () => {
  const input: ConvertInput = { bytes: await scanAt150(preprintPage()), filename: "preprint_stamp_scan.png", contentType: "image/png", ext: "png" };
  const markdown = (await makeConvertImage({ scanLayout: true })(input, convertContext({ tools: { ocr: tesseract } }))).markdown;
  for (const head of ["Dense Passage Retrieval for Question Answering", "Abstract", "1 Introduction"]) expect(markdown).toMatch(new RegExp(`^#{1,6} ${head}$`, "m"));
  expect(markdown).toContain("Sep 2020");
}, 60_000);

test("a line of short words, or of words wider than tall, is not sideways", () => {
  // "I", "of", "a" in tall boxes say nothing; a word across is wider than tall
  const across: OcrWord[] = [
    { text: "Fig", left: 1300, top: 2600, width: 60, height: 27, confidence: 0.95, line: "6/1/1", paragraph: "6/1" },
    { text: "I", left: 1380, top: 2600, width: 8, height: 27, confidence: 0.95, line: "6/1/1", paragraph: "6/1" },
  ];
  const markdown = ocrLayoutMarkdown(pageOf(across), 72 / 300);
  expect(markdown!).toContain("Fig I");
});
