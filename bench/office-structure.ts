/**
 * Office structure benchmark: `bun bench/office-structure.ts`.
 *
 * Real office files other people made (DOCX, PPTX, XLSX, ODT, ODS, ODP; in test/fixtures,
 * bench/corpus/pdf-structure and bench/corpus/office-real, licences beside them) are converted by
 * docintel's own converters (ODF through LibreOffice's DOCX, XLSX or PPTX, as the service does), and the headings and table cells written
 * down once from each file's XML (bench/expected/office-structure.json: repo, commit, path,
 * licence) are looked for in the markdown, scored as bench/pdf-structure.ts scores a PDF
 * (structure-score.ts: text folded, any heading level, cells as a multiset):
 *
 * - headings found: expected headings that are a heading of the markdown;
 * - heading precision: the markdown's headings that are expected ("## Slide N", "## Comments",
 *   sheet names and "### Chart" are the converter's own sections, left out);
 * - cells found: expected non-empty table cells that are a cell of some table of the markdown (every
 *   cell counted, two equal neighbours twice: these converters write a merged cell once).
 *
 * Six sets, scored separately and together: the 12 test files of bench/expected/office-structure.json,
 * the real-world documents of bench/expected/office-structure-real.json (forms, reports, slide
 * decks, checklists, plans, ODF templates in bench/corpus/office-real, licences in its LICENSES.md)
 * and four fresh groups nobody tuned on, bench/expected/office-structure-fresh.json,
 * office-structure-fresh2.json, office-structure-fresh3.json and office-structure-fresh4.json
 * (bench/corpus/office-fresh, office-fresh2, office-fresh3 and office-fresh4, licences in their LICENSES.md).
 * A file whose expected entry lists them is scored on two more lists: list items found (a list item
 * of the markdown with the item's folded text, each used once; nested right when at the depth a
 * reader sees) and texts found (the other paragraphs a reader sees, each a part of the folded markdown).
 *
 * Goal: headings >= 0.9 and cells >= 0.9 over all files.
 *
 *   BENCH_FILTER=xlsx bun bench/office-structure.ts   only files whose name contains "xlsx"
 *   BENCH_SHOW=1                                      print the misses
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { convertDocx } from "../src/convert/docx";
import { convertPptx } from "../src/convert/pptx";
import { savedVolatileCells } from "../src/convert/odsSaved";
import { convertXlsx } from "../src/convert/xlsx";
import type { Converter } from "../src/convert/types";
import { WorkerPool } from "../src/pool";
import { benchContext, fold, found, headingsOf, soffice, tableCellsOf } from "./structure-score";

const GOAL = 0.9;
const FILTER = Bun.env.BENCH_FILTER ?? "";
const SHOW = Bun.env.BENCH_SHOW === "1";
/** PICTURES_UNREAD: structure only: pictures are not read */
const PICTURES_UNREAD = { recognize: async () => ({ text: "", confidence: 0 }) };
const ROOT = resolve(import.meta.dir, "..");

/** ExpectedFile is one file of bench/expected/office-structure.json. */
interface ExpectedFile {
  file: string;
  repo: string;
  commit: string | null;
  path: string;
  licence: string;
  headings: string[];
  cells: string[];
  /** items: the list items a reader sees (numbered or bulleted paragraphs), each with its nesting depth (0 = outermost); fresh2 on */
  items?: { text: string; depth: number }[];
  /** texts: the other paragraphs a reader sees (body, text boxes, shapes, SmartArt, notes, slide notes); fresh2 on */
  texts?: string[];
}

/** LIST_ITEM: a markdown list item line: indentation, bullet or number, text */
const LIST_ITEM = /^(\s*)(?:[-*+]|\d{1,9}[.)])\s+(.*)$/;

/** listItemsOf lists the markdown's list items (outside tables), each with its folded text and its depth (from the indentation of the items above it); an item's indented next lines go on its text */
function listItemsOf(markdown: string): { text: string; depth: number }[] {
  const items: { raw: string; depth: number }[] = [];
  const indents: number[] = [];
  for (const line of markdown.split("\n")) {
    const m = LIST_ITEM.exec(line);
    if (!m) {
      if (/^\s{2,}\S/.test(line) && items.length && !/^\s*\|/.test(line)) items[items.length - 1]!.raw += ` ${line.trim()}`;
      else if (line.trim() && !/^\s/.test(line)) indents.length = 0;
      continue;
    }
    const indent = m[1]!.length;
    while (indents.length && indents[indents.length - 1]! > indent) indents.pop();
    if (!indents.length || indents[indents.length - 1]! < indent) indents.push(indent);
    items.push({ raw: m[2]!, depth: indents.length - 1 });
  }
  return items.map((i) => ({ text: withoutLabel(fold(i.raw.replace(/\\$/, "").replace(/\\ /g, " "))), depth: i.depth })).filter((i) => i.text);
}

/**
 * withoutLabel drops a number label that fold() leaves at a folded text's start, a parenthesised
 * one ("(b) generalizability", "(iv) rules"): headings and list items are compared by their text
 * after the number (the converter writes the numbers Word shows, the expected files were written
 * without them), on both sides alike, so a typed "(a)" in an expected heading is dropped too.
 */
function withoutLabel(folded: string): string {
  return folded.replace(/^\((?:\d{1,4}|[a-z]{1,4})\)\s+(?=\S)/, "");
}

/** OWN_SECTIONS: headings the converters write for their own sections, not the document's */
const OWN_SECTIONS = /^(?:slide \d+|comments|notes|chart(?:: .*)?)$/

/** SETS: the expected files of each set, by the set's name in the report */
const SETS: Record<string, string> = {
  "test files": "expected/office-structure.json",
  "real documents": "expected/office-structure-real.json",
  "fresh office": "expected/office-structure-fresh.json",
  "fresh office 2": "expected/office-structure-fresh2.json",
  "fresh office 3": "expected/office-structure-fresh3.json",
  "fresh office 4": "expected/office-structure-fresh4.json",
};
const setOf = new Map<ExpectedFile, string>();
const expected: ExpectedFile[] = [];
for (const [name, path] of Object.entries(SETS)) {
  const files = ((await Bun.file(join(import.meta.dir, path)).json()) as { files: ExpectedFile[] }).files.filter((f) => f.file.includes(FILTER));
  for (const f of files) setOf.set(f, name);
  expected.push(...files);
}
const CONVERTERS: Record<string, Converter> = { docx: convertDocx, pptx: convertPptx, xlsx: convertXlsx };
/** ODF_TARGET: the OOXML format LibreOffice writes for each ODF format, as the service converts it (formats.ts) */
const ODF_TARGET: Record<string, string> = { odt: "docx", ods: "xlsx", odp: "pptx" };
const extOf = (file: string) => file.slice(file.lastIndexOf(".") + 1);

const work = mkdtempSync(join(tmpdir(), "bench-office-structure-"));
const pool = new WorkerPool({ threads: 2, maxQueue: 64 });
try {
  // ODF goes through LibreOffice's OOXML (ODT to DOCX, ODS to XLSX, ODP to PPTX), as the service converts it
  mkdirSync(join(work, "in"), { recursive: true });
  const odfs = expected.filter((f) => ODF_TARGET[extOf(f.file)]);
  for (const [ext, target] of Object.entries(ODF_TARGET)) {
    const inputs = odfs.flatMap((f, i) => {
      if (extOf(f.file) !== ext) return [];
      const copy = join(work, "in", `${i}-${basename(f.file)}`);
      copyFileSync(join(ROOT, f.file), copy);
      return [copy];
    });
    await soffice(work, target, inputs);
  }

  /** Totals: what a set (or all files) expected and found */
  type Totals = { files: number; wantHeadings: number; gotHeadings: number; madeHeadings: number; rightHeadings: number; wantCells: number; gotCells: number; wantItems: number; gotItems: number; nestedItems: number; wantTexts: number; gotTexts: number };
  const newTotals = (): Totals => ({ files: 0, wantHeadings: 0, gotHeadings: 0, madeHeadings: 0, rightHeadings: 0, wantCells: 0, gotCells: 0, wantItems: 0, gotItems: 0, nestedItems: 0, wantTexts: 0, gotTexts: 0 });
  const totals: Record<string, Totals> = {};
  const misses: Record<string, number> = {};
  for (const file of expected) {
    const ext = extOf(file.file);
    const target = ODF_TARGET[ext] ?? ext;
    const path = ODF_TARGET[ext] ? join(work, "out", `${odfs.indexOf(file)}-${basename(file.file, `.${ext}`)}.${target}`) : join(ROOT, file.file);
    const bytes = await Bun.file(path).bytes();
    const converter = CONVERTERS[target]!;
    const ctx = benchContext(pool, PICTURES_UNREAD, 600_000);
    // an ODS's volatile formulas (TODAY()) as saved, which LibreOffice recalculates on load: the service lays them over its XLSX (index.ts)
    const source = { bytes: await Bun.file(join(ROOT, file.file)).bytes(), filename: basename(file.file), contentType: "application/octet-stream", ext };
    const savedCells = ext === "ods" ? (savedVolatileCells(source, ext, ctx) ?? undefined) : undefined;
    const { markdown } = await converter({ bytes, filename: basename(path), contentType: "application/octet-stream", ext: target, savedCells }, ctx);
    const headings = headingsOf(markdown).filter((h) => !OWN_SECTIONS.test(h)).map(withoutLabel);
    const want = file.headings.map((h) => withoutLabel(fold(h)));
    const h = found(want, headings);
    const precision = found(headings, want);
    const c = found(file.cells.map(fold).filter(Boolean), tableCellsOf(markdown, { keepRuns: true }));
    // list items: found when a list item of the markdown has the item's text (each used once), nested right when at the item's depth
    const haveItems = listItemsOf(markdown);
    const wantItems = (file.items ?? []).map((i) => ({ text: withoutLabel(fold(i.text)), depth: i.depth })).filter((i) => i.text);
    const used = new Set<number>();
    let gotItems = 0;
    let nestedItems = 0;
    const itemMisses: string[] = [];
    const nestMisses: string[] = [];
    for (const want of wantItems) {
      let at = haveItems.findIndex((h, k) => !used.has(k) && h.text === want.text && h.depth === want.depth);
      if (at < 0) at = haveItems.findIndex((h, k) => !used.has(k) && h.text === want.text);
      if (at < 0) {
        itemMisses.push(want.text);
        continue;
      }
      used.add(at);
      gotItems += 1;
      if (haveItems[at]!.depth === want.depth) nestedItems += 1;
      else nestMisses.push(`${want.depth}->${haveItems[at]!.depth} ${want.text.slice(0, 50)}`);
    }
    // other paragraphs: found when their folded text is part of the folded markdown (hard breaks and table bars as spaces)
    const flat = fold(markdown.replace(/\\\n/g, " ").replace(/\\([<>])/g, "$1").replace(/\|/g, " "));
    const wantTexts = (file.texts ?? []).map(fold).filter(Boolean);
    const textMisses = wantTexts.filter((t) => !flat.includes(t));
    for (const t of [(totals[setOf.get(file)!] ??= newTotals()), (totals.all ??= newTotals())]) {
      t.files += 1;
      t.wantHeadings += want.length;
      t.gotHeadings += h.hits;
      t.madeHeadings += headings.length;
      t.rightHeadings += precision.hits;
      t.wantCells += file.cells.filter((cell) => fold(cell)).length;
      t.gotCells += c.hits;
      t.wantItems += wantItems.length;
      t.gotItems += gotItems;
      t.nestedItems += nestedItems;
      t.wantTexts += wantTexts.length;
      t.gotTexts += wantTexts.length - textMisses.length;
    }
    const kind = ext;
    misses[`${kind} cells`] = (misses[`${kind} cells`] ?? 0) + c.misses.length;
    misses[`${kind} headings`] = (misses[`${kind} headings`] ?? 0) + h.misses.length;
    misses[`${kind} extra headings`] = (misses[`${kind} extra headings`] ?? 0) + precision.misses.length;
    const more = file.items || file.texts ? `, list items ${gotItems}/${wantItems.length} (nested right ${nestedItems}), texts ${wantTexts.length - textMisses.length}/${wantTexts.length}` : "";
    console.log(`${basename(file.file).padEnd(58)} headings ${h.hits}/${want.length} (made ${headings.length}), cells ${c.hits}/${file.cells.filter((cell) => fold(cell)).length}${more}`);
    if (SHOW) {
      if (h.misses.length) console.log(`  headings missed: ${JSON.stringify(h.misses)}`);
      if (precision.misses.length) console.log(`  headings not expected: ${JSON.stringify(precision.misses)}`);
      if (c.misses.length) console.log(`  cells missed: ${JSON.stringify(c.misses)}`);
      if (itemMisses.length) console.log(`  list items missed: ${JSON.stringify(itemMisses.map((t) => t.slice(0, 60)))}`);
      if (nestMisses.length) console.log(`  list items nested otherwise (want->made): ${JSON.stringify(nestMisses)}`);
      if (textMisses.length) console.log(`  texts missed: ${JSON.stringify(textMisses.map((t) => t.slice(0, 60)))}`);
    }
  }
  const ratio = (a: number, b: number) => (b ? a / b : 1);
  console.log(`misses by kind: ${Object.entries(misses).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n}`).join(", ") || "none"}`);
  for (const [name, t] of Object.entries(totals)) {
    if (name === "all") continue;
    const more = t.wantItems || t.wantTexts ? `, list items ${t.gotItems}/${t.wantItems} (nested right ${t.nestedItems}), texts ${t.gotTexts}/${t.wantTexts}` : "";
    console.log(`${name} (${t.files} files): headings ${ratio(t.gotHeadings, t.wantHeadings).toFixed(3)} (${t.gotHeadings}/${t.wantHeadings}), precision ${ratio(t.rightHeadings, t.madeHeadings).toFixed(3)} (${t.rightHeadings}/${t.madeHeadings}), cells ${ratio(t.gotCells, t.wantCells).toFixed(3)} (${t.gotCells}/${t.wantCells})${more}`);
  }
  const all = totals.all ?? newTotals();
  const headings = ratio(all.gotHeadings, all.wantHeadings);
  const precision = ratio(all.rightHeadings, all.madeHeadings);
  const cells = ratio(all.gotCells, all.wantCells);
  const met = headings >= GOAL && cells >= GOAL;
  console.log(
    `RESULT office-structure headings found = ${headings.toFixed(3)} (${all.gotHeadings}/${all.wantHeadings}), table cells found = ${cells.toFixed(3)} (${all.gotCells}/${all.wantCells}) (goal >= ${GOAL} each) ${met ? "met" : "NOT met"}; heading precision = ${precision.toFixed(3)} (${all.rightHeadings}/${all.madeHeadings}); ${expected.length} files`,
  );
} finally {
  await pool.close();
  rmSync(work, { recursive: true, force: true });
}
