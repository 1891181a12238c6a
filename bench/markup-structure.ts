/**
 * Markup structure benchmark: `bun bench/markup-structure.ts`.
 *
 * Uploaded HTML, Markdown, AsciiDoc and CSV/TSV files other people made (bench/corpus/markup-fresh,
 * repo, commit, path and licence of each in its LICENSES.md; nobody tuned on them) are converted by
 * docintel's dispatcher as an uploaded file is (`convertDocument`, the request's default page options:
 * main_content on), and each is scored against a reference markdown written once from the
 * document's source (bench/expected/markup-fresh/NAME.md; how each was written: the README's
 * markup-structure.ts section):
 *
 * - headings found: the reference's headings that are a heading of the markdown (any level, folded
 *   as bench/structure-score.ts folds them), and of those the ones at the reference's level;
 * - heading precision: the markdown's headings that are the reference's;
 * - cells found: the reference's non-empty table cells that are a cell of some table of the markdown
 *   (a multiset, every cell counted: these converters write a spanned cell once);
 * - list items found: the reference's list items (bullet or number, text folded) that are a list item
 *   of the markdown, and of those the ones placed as the reference places them: the same kind of mark
 *   (bullet or number), the same number, the same nesting depth;
 * - code lines found: the lines of the reference's fenced blocks in a fenced block of the markdown;
 * - text agreement: all the reference's words against the markdown's (structure-score.ts
 *   textAgreement: 1 - word edit distance / the longer side, and the F1 of the two bags of words).
 *
 *   BENCH_FILTER=html bun bench/markup-structure.ts   only files whose name contains "html"
 *   BENCH_SHOW=1                                      print the misses
 *   BENCH_DUMP=/tmp/dir                               write each file's markdown there
 *   BENCH_WHOLE_PAGE=1                                HTML with main_content off (the whole body)
 *   BENCH_SET=markup-fresh2                           the second group (bench/corpus/markup-fresh2, collected 2026-11-30, with JATS)
 */
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { convertDocument } from "../src/convert/index";
import { WorkerPool } from "../src/pool";
import { benchContext, codeLinesOf, fold, found, headingsOf, splitFences, tableCellsOf, textAgreement } from "./structure-score";

const FILTER = Bun.env.BENCH_FILTER ?? "";
const SHOW = Bun.env.BENCH_SHOW === "1";
const DUMP = Bun.env.BENCH_DUMP ?? "";
const WHOLE_PAGE = Bun.env.BENCH_WHOLE_PAGE === "1";
/** SET: the group of files: markup-fresh (the first, 16 files) or markup-fresh2 */
const SET = Bun.env.BENCH_SET ?? "markup-fresh";
const CORPUS = join(import.meta.dir, `corpus/${SET}`);
const EXPECTED = join(import.meta.dir, `expected/${SET}`);
/** NO_OCR: structure only: pictures are not read */
const NO_OCR = { recognize: async () => ({ text: "", confidence: 0 }) };

/** ListItem: one list item of a markdown: its folded text, its mark ("-" or the number) and its nesting depth (0 = outermost) */
interface ListItem {
  text: string;
  mark: string;
  depth: number;
}

/** LIST_ITEM: a markdown list item line: indentation, bullet or number, text; a footnote's definition (`[^n]: text`, a page's list of notes written as footnotes) counts as an item too */
const LIST_ITEM = /^(\s*)([-*+]|\d{1,9}[.)]|\[\^[^\]\s]+\]:)\s+(.*)$/;

/** BACKLINKS: the "^" or "^ a b c" a list of notes starts its items with (links back to where each is cited) */
const BACKLINKS = /^\^(?: [a-z]\b)*\s*/;

/** listItemsOf lists the list items outside fenced code, each with its mark and its depth (from the indentation of the items above it) */
function listItemsOf(markdown: string): ListItem[] {
  const items: ListItem[] = [];
  const indents: number[] = [];
  let previousBlank = true;
  let open: { raw: string; indent: number } | null = null;
  const close = () => {
    if (!open) return;
    const m = LIST_ITEM.exec(open.raw)!;
    const text = fold(m[3]!.replace(/^\[[ xX*]\]\s+/, "")).replace(BACKLINKS, "");
    if (text) items.push({ text, mark: /^\d/.test(m[2]!) ? m[2]!.replace(/\D/g, "") : m[2]!.startsWith("[") ? "note" : "-", depth: open.indent });
    open = null;
  };
  for (const line of splitFences(markdown).prose.map(plainCells)) {
    const m = LIST_ITEM.exec(line);
    if (open && !m && line.trim() && (!previousBlank || /^\s{2,}\S/.test(line)) && /^\s/.test(line)) {
      // the item's next line (a hard break, a lazy continuation, an indented paragraph of a loose item): its text goes on
      open.raw = `${open.raw.replace(/\\$/, "")} ${line.trim()}`;
      previousBlank = false;
      continue;
    }
    if (!m || /^\s*(?:[-*_]\s*){3,}$/.test(line) || (/^\s*\|/.test(line))) {
      if (!line.trim()) {
        // a blank line: a loose item's next paragraph may follow
        previousBlank = true;
        continue;
      }
      close();
      // a paragraph at the margin ends the lists above it; a blank line or an indented continuation does not
      if (line.trim() && !/^\s/.test(line) && previousBlank) indents.length = 0;
      previousBlank = !line.trim();
      continue;
    }
    previousBlank = false;
    const indent = m[1]!.replace(/\t/g, "    ").length;
    while (indents.length && indents[indents.length - 1]! > indent) indents.pop();
    if (!indents.length || indents[indents.length - 1]! < indent) indents.push(indent);
    close();
    open = { raw: line, indent: indents.length - 1 };
  }
  close();
  return items;
}

/**
 * plainCells folds what two faithful writings of the same text may differ in and a reader does not see:
 * pictures (their alt text), the "[n 1]"/"[12]" citation marks a page shows (as text, or a link
 * `<sup>[\[12\]](#cite_note-12)</sup>`) and a converter may write as a footnote reference (`[^12]`,
 * which fold drops), the "- " of a list written inside a table cell.
 */
function plainCells(line: string): string {
  return line
    .replace(/!\[[^\]]*\]\([^)]*\)/g, "")
    .replace(/(?:<sup>)?\[\\\[(?:[a-z] )?\d{1,4}\\\]\]\([^)]*\)(?:<\/sup>)?/g, "")
    .replace(/\[(?:[a-z] )?\d{1,4}\]/g, "")
    .replace(/(\| *|<br>)\s*[-*•]\s+(?=\S)/g, "$1");
}

/** Totals: what a kind (or all files) expected and found */
interface Totals {
  files: number;
  wantHeadings: number;
  gotHeadings: number;
  levelHeadings: number;
  madeHeadings: number;
  rightHeadings: number;
  wantCells: number;
  gotCells: number;
  wantItems: number;
  gotItems: number;
  placedItems: number;
  wantCode: number;
  gotCode: number;
  distance: number;
  longer: number;
  common: number;
  words: number;
}
const newTotals = (): Totals => ({ files: 0, wantHeadings: 0, gotHeadings: 0, levelHeadings: 0, madeHeadings: 0, rightHeadings: 0, wantCells: 0, gotCells: 0, wantItems: 0, gotItems: 0, placedItems: 0, wantCode: 0, gotCode: 0, distance: 0, longer: 0, common: 0, words: 0 });

/** leveledHeadingsOf: the headings outside fenced code as "level text" (text folded) */
function leveledHeadingsOf(markdown: string): string[] {
  return splitFences(markdown).prose.flatMap((line) => {
    const m = /^(#{1,6})\s+(.+?)\s*#*\s*$/.exec(line);
    return m && fold(m[2]!) ? [`${m[1]!.length} ${fold(m[2]!)}`] : [];
  });
}

const files = readdirSync(EXPECTED)
  .filter((f) => f.endsWith(".md"))
  .map((f) => readdirSync(CORPUS).find((c) => c.replace(/\.[^.]+$/, "") === f.replace(/\.md$/, ""))!)
  .filter((f) => f && f.includes(FILTER))
  .sort();
if (DUMP) mkdirSync(DUMP, { recursive: true });
const pool = new WorkerPool({ threads: 1, maxQueue: 8 });
const totals: Record<string, Totals> = {};
try {
  for (const file of files) {
    const kind = file.startsWith("tsv") ? "csv" : file.slice(0, file.indexOf("-"));
    const reference = await Bun.file(join(EXPECTED, file.replace(/\.[^.]+$/, ".md"))).text();
    const bytes = await Bun.file(join(CORPUS, file)).bytes();
    const ext = file.slice(file.lastIndexOf(".") + 1);
    const ctx = benchContext(pool, NO_OCR as never, 120_000);
    if (WHOLE_PAGE) ctx.page = { ...ctx.page, mainContent: false };
    const { markdown } = await convertDocument({ bytes, filename: file, contentType: "application/octet-stream", ext }, ctx);
    if (DUMP) writeFileSync(join(DUMP, `${file}.md`), markdown);

    const made = headingsOf(markdown);
    const wantHeadings = headingsOf(reference);
    const h = found(wantHeadings, made);
    const level = found(leveledHeadingsOf(reference), leveledHeadingsOf(markdown));
    const precision = found(made, wantHeadings);
    const wantCells = tableCellsOf(reference.split("\n").map(plainCells).join("\n"), { keepRuns: true });
    const c = found(wantCells, tableCellsOf(markdown.split("\n").map(plainCells).join("\n"), { keepRuns: true }));
    const wantItems = listItemsOf(reference);
    const haveItems = listItemsOf(markdown);
    const items = found(wantItems.map((i) => i.text), haveItems.map((i) => i.text));
    const placed = found(wantItems.map((i) => `${i.depth} ${i.mark} ${i.text}`), haveItems.map((i) => `${i.depth} ${i.mark} ${i.text}`));
    const wantCode = codeLinesOf(reference);
    const code = found(wantCode, codeLinesOf(markdown));
    const text = textAgreement(reference, markdown);
    const common = Math.round((text.bagF1 * (text.referenceWords + text.words)) / 2);
    for (const t of [(totals[kind] ??= newTotals()), (totals.all ??= newTotals())]) {
      t.files += 1;
      t.wantHeadings += wantHeadings.length;
      t.gotHeadings += h.hits;
      t.levelHeadings += level.hits;
      t.madeHeadings += made.length;
      t.rightHeadings += precision.hits;
      t.wantCells += wantCells.length;
      t.gotCells += c.hits;
      t.wantItems += wantItems.length;
      t.gotItems += items.hits;
      t.placedItems += placed.hits;
      t.wantCode += wantCode.length;
      t.gotCode += code.hits;
      t.distance += text.distance;
      t.longer += Math.max(text.referenceWords, text.words);
      t.common += common;
      t.words += text.referenceWords + text.words;
    }
    console.log(
      `${file.padEnd(40)} headings ${h.hits}/${wantHeadings.length} (level ${level.hits}, made ${made.length}, right ${precision.hits}), cells ${c.hits}/${wantCells.length}, items ${items.hits}/${wantItems.length} (placed ${placed.hits}), code ${code.hits}/${wantCode.length}, text ${text.ordered.toFixed(3)}/${text.bagF1.toFixed(3)}`,
    );
    if (SHOW) {
      const show = (what: string, list: string[]) => list.length && console.log(`  ${what} (${list.length}): ${JSON.stringify(list.slice(0, 12))}`);
      show("headings missed", h.misses);
      show("headings not expected", precision.misses);
      show("headings at another level", level.misses.filter((m) => !h.misses.includes(m.slice(2))));
      show("cells missed", c.misses);
      show("items missed", items.misses);
      show("items misplaced", placed.misses.filter((m) => !items.misses.includes(m.replace(/^\d+ \S+ /, ""))));
      show("code lines missed", code.misses);
    }
  }
  const ratio = (a: number, b: number) => (b ? a / b : 1).toFixed(3);
  for (const [name, t] of Object.entries(totals)) {
    console.log(
      `${name === "all" ? "RESULT markup-structure" : name} (${t.files} files): headings ${t.gotHeadings}/${t.wantHeadings} (${ratio(t.gotHeadings, t.wantHeadings)}), at their level ${t.levelHeadings}, precision ${t.rightHeadings}/${t.madeHeadings}; cells ${t.gotCells}/${t.wantCells}; list items ${t.gotItems}/${t.wantItems}, placed ${t.placedItems}; code lines ${t.gotCode}/${t.wantCode}; text ${ratio(t.longer - t.distance, t.longer)} ordered, ${ratio(2 * t.common, t.words)} bag`,
    );
  }
} finally {
  await pool.close();
}
console.log(`(${basename(import.meta.path)}: ${SET}, ${files.length} files${WHOLE_PAGE ? ", HTML whole page" : ""})`);
