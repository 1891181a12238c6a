/**
 * Office structure benchmark: `bun bench/office-structure.ts`.
 *
 * Real office files other people made (DOCX, PPTX, XLSX, ODT; in test/fixtures and
 * bench/corpus/pdf-structure, licences beside them) are converted by docintel's own converters
 * (ODT through LibreOffice's DOCX, as the service does), and the headings and table cells written
 * down once from each file's XML (bench/expected/office-structure.json: repo, commit, path,
 * licence) are looked for in the markdown, scored as bench/pdf-structure.ts scores a PDF
 * (structure-score.ts: text folded, any heading level, cells as a multiset):
 *
 * - headings found: expected headings that are a heading of the markdown;
 * - heading precision: the markdown's headings that are expected ("## Slide N", "## Comments",
 *   sheet names and "### Chart" are the converter's own sections, left out);
 * - cells found: expected non-empty table cells that are a cell of some table of the markdown.
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
}

/** OWN_SECTIONS: headings the converters write for their own sections, not the document's */
const OWN_SECTIONS = /^(?:slide \d+|comments|notes|chart(?:: .*)?)$/

const expected = ((await Bun.file(join(import.meta.dir, "expected/office-structure.json")).json()) as { files: ExpectedFile[] }).files.filter((f) => f.file.includes(FILTER));
const CONVERTERS: Record<string, Converter> = { docx: convertDocx, pptx: convertPptx, xlsx: convertXlsx };

const work = mkdtempSync(join(tmpdir(), "bench-office-structure-"));
const pool = new WorkerPool({ threads: 2, maxQueue: 64 });
try {
  // ODT goes through LibreOffice's DOCX, as the service converts it
  const odts = expected.filter((f) => f.file.endsWith(".odt"));
  mkdirSync(join(work, "in"), { recursive: true });
  const inputs = odts.map((f, i) => {
    const copy = join(work, "in", `${i}-${basename(f.file)}`);
    copyFileSync(join(ROOT, f.file), copy);
    return copy;
  });
  await soffice(work, "docx", inputs);

  let wantHeadings = 0, gotHeadings = 0, madeHeadings = 0, rightHeadings = 0, wantCells = 0, gotCells = 0;
  const misses: Record<string, number> = {};
  for (const file of expected) {
    const ext = file.file.slice(file.file.lastIndexOf(".") + 1);
    const isOdt = ext === "odt";
    const path = isOdt ? join(work, "out", `${odts.indexOf(file)}-${basename(file.file, ".odt")}.docx`) : join(ROOT, file.file);
    const bytes = await Bun.file(path).bytes();
    const converter = CONVERTERS[isOdt ? "docx" : ext]!;
    const { markdown } = await converter({ bytes, filename: basename(path), contentType: "application/octet-stream", ext: isOdt ? "docx" : ext }, benchContext(pool, PICTURES_UNREAD, 600_000));
    const headings = headingsOf(markdown).filter((h) => !OWN_SECTIONS.test(h));
    const want = file.headings.map(fold);
    const h = found(want, headings);
    const precision = found(headings, want);
    const c = found(file.cells.map(fold).filter(Boolean), tableCellsOf(markdown));
    wantHeadings += want.length;
    gotHeadings += h.hits;
    madeHeadings += headings.length;
    rightHeadings += precision.hits;
    wantCells += file.cells.length;
    gotCells += c.hits;
    const kind = ext;
    misses[`${kind} cells`] = (misses[`${kind} cells`] ?? 0) + c.misses.length;
    misses[`${kind} headings`] = (misses[`${kind} headings`] ?? 0) + h.misses.length;
    misses[`${kind} extra headings`] = (misses[`${kind} extra headings`] ?? 0) + precision.misses.length;
    console.log(`${basename(file.file).padEnd(58)} headings ${h.hits}/${want.length} (made ${headings.length}), cells ${c.hits}/${file.cells.length}`);
    if (SHOW) {
      if (h.misses.length) console.log(`  headings missed: ${JSON.stringify(h.misses)}`);
      if (precision.misses.length) console.log(`  headings not expected: ${JSON.stringify(precision.misses)}`);
      if (c.misses.length) console.log(`  cells missed: ${JSON.stringify(c.misses)}`);
    }
  }
  const ratio = (a: number, b: number) => (b ? a / b : 1);
  const headings = ratio(gotHeadings, wantHeadings);
  const precision = ratio(rightHeadings, madeHeadings);
  const cells = ratio(gotCells, wantCells);
  console.log(`misses by kind: ${Object.entries(misses).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n}`).join(", ") || "none"}`);
  const met = headings >= GOAL && cells >= GOAL;
  console.log(
    `RESULT office-structure headings found = ${headings.toFixed(3)} (${gotHeadings}/${wantHeadings}), table cells found = ${cells.toFixed(3)} (${gotCells}/${wantCells}) (goal >= ${GOAL} each) ${met ? "met" : "NOT met"}; heading precision = ${precision.toFixed(3)} (${rightHeadings}/${madeHeadings}); ${expected.length} files`,
  );
} finally {
  await pool.close();
  rmSync(work, { recursive: true, force: true });
}
