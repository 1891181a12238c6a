/**
 * PDF structure benchmark: `bun bench/pdf-structure.ts`.
 *
 * Real office documents other people made (bench/corpus/pdf-structure: test files of mammoth.js,
 * python-docx and odfdo, each with its licence; and the MarkItDown DOCX/PPTX files in test/fixtures)
 * are printed to PDF by LibreOffice (a cold soffice with a temp profile). Each source and its PDF
 * are converted to markdown with docintel's converters (ODT/ODP through LibreOffice's DOCX/PPTX, as
 * the service does), and the structure the source's markdown shows is looked for in the PDF's:
 *
 * - headings found: source headings (numbering stripped, case and spacing folded) that are a
 *   heading in the PDF's markdown too (any level);
 * - table cells found: non-empty source table cells (trimmed, `<br>` as a space, a cell repeated
 *   across a merged span counted once) that are a cell of some table in the PDF's markdown (as a
 *   multiset);
 * - code lines found: the lines of the source's fenced code blocks (whitespace trimmed, blank lines
 *   left out) that are a line of some fenced block in the PDF's markdown (as a multiset): a listing
 *   set in a monospace face is code, line by line, not a paragraph.
 *
 * - text agreement (issue 16's goal >= 0.90): all the words of the reference against the PDF's
 *   markdown, both folded by textWords (markdown marks, link targets and pictures out, case and
 *   spacing folded), as 1 - word edit distance / the longer side (order counts) and as the F1 of
 *   the two bags of words (order ignored); for the office files (the source's markdown is the
 *   reference) and MarkItDown's three PDFs (its markdown is the whole text), not for
 *   pdf-born-digital (its references write down headings and tables only). pdftotext's text of the
 *   same PDF, with -layout and without, is scored the same way in the same run as the baseline.
 *
 * LibreOffice writes bookmarks for styled headings; the converter reads them, but not here: the
 * layout alone must find the structure (real papers and scans have no outline), so the PDF outline
 * plays no part. Three born-digital PDFs of MarkItDown's with its reference markdown (people wrote
 * it), and born-digital PDFs in bench/expected/pdf-born-digital (two invoices with ruled tables,
 * seven public-domain US government documents with borderless and ruled tables; each table and
 * heading written down once by reading the PDF, source and licence at the top of its .md) add their table cells,
 * and those of pdf-born-digital their headings. For the references, whole rows found (a row's
 * non-empty cells in the same order in one row of the PDF's markdown) are printed too: the cell
 * count alone does not see a ragged grid. Goal: headings >= 0.9 and cells >= 0.9 over all files.
 * References whose header comment holds a line "Bench group: NAME" ("fresh", "fresh2": papers, reports
 * and manuals collected to measure the converter on kinds it was never tuned on) are also reported as a
 * group, one line per NAME. A reference that also holds the line "Bench text: whole" writes down the
 * document's whole text in reading order (not headings and tables alone): its text agreement (docintel
 * and pdftotext, scored as above) is printed with its group's line, kept apart from the means over the
 * office files and MarkItDown's three.
 *
 *   BENCH_FILTER=odfdo bun bench/pdf-structure.ts    only files whose name contains "odfdo"
 *   BENCH_SHOW=1                                     print the misses
 *   BENCH_DUMP=/tmp/dir                              write both markdowns of each file there
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { convertDocx } from "../src/convert/docx";
import { makeConvertPdf } from "../src/convert/pdf";
import { convertPptx } from "../src/convert/pptx";
import type { Converter } from "../src/convert/types";
import { WorkerPool } from "../src/pool";
import { runProcess } from "../src/tools/process";
import { benchContext, BORN_DIGITAL, codeLinesOf, EXPECTED, FIXTURES, found, headingsOf, officeSources, soffice, sourceStructure, tableCellsOf, tableRowsOf, textAgreement } from "./structure-score";

const GOAL = 0.9;
const FILTER = Bun.env.BENCH_FILTER ?? "";
const SHOW = Bun.env.BENCH_SHOW === "1";
/** convertPdf without the outline: LibreOffice writes bookmarks for styled headings, and real papers and scans have none */
const convertPdf = makeConvertPdf({ outline: false });
/** DUMP: a directory to write each file's two markdowns to (NAME.source.md, NAME.pdf.md), to read the misses */
const DUMP = Bun.env.BENCH_DUMP ?? "";
/** PICTURES_UNREAD: structure only: pictures are not read */
const PICTURES_UNREAD = { recognize: async () => ({ text: "", confidence: 0 }) };

const sources = officeSources(FILTER);
/** GROUP_MARK: the line in a reference's header comment that puts it in a group ("fresh", "fresh2") */
const GROUP_MARK = /^Bench group: (\S+)$/m;
/** WHOLE_TEXT_MARK: the line in a reference's header comment that says it holds the document's whole text, so its text agreement is scored */
const WHOLE_TEXT_MARK = /^Bench text: whole$/m;

/** pdftotext: poppler's plain text of a PDF (with -layout or without), the text agreement's baseline */
async function pdftotext(pdf: string, layout: boolean): Promise<string> {
  const { stdout } = await runProcess("pdftotext", [...(layout ? ["-layout"] : []), "-enc", "UTF-8", pdf, "-"], { timeoutMs: 120_000, what: "read the bench PDF's text with pdftotext", sandbox: { dirs: [resolve(pdf, "..")] } });
  return stdout.toString("utf8");
}

const TEXT_SIDES = ["docintel", "pdftotext", "pdftotext -layout"] as const;
/** agreements: each scored file's text agreement by side, for the means */
const agreements: Array<{ name: string } & Record<(typeof TEXT_SIDES)[number], ReturnType<typeof textAgreement>>> = [];

/** scoreText scores the PDF's markdown and pdftotext's two texts of the same PDF against the reference, and prints the file's line when SHOW */
async function scoreText(name: string, reference: string, pdfMd: string, pdf: string): Promise<void> {
  const [plain, layout] = await Promise.all([pdftotext(pdf, false), pdftotext(pdf, true)]);
  const row = { name, docintel: textAgreement(reference, pdfMd), pdftotext: textAgreement(reference, plain), "pdftotext -layout": textAgreement(reference, layout) };
  // a reference of no words (a slide deck of a chart alone: its data section is taken out) measures nothing
  if (!row.docintel.referenceWords) {
    if (SHOW) console.log("    text agreement: not scored, the reference has no words");
    return;
  }
  agreements.push(row);
  if (SHOW) console.log(`    text agreement (ordered / bag F1, ${row.docintel.referenceWords} words): ${TEXT_SIDES.map((side) => `${side} ${row[side].ordered.toFixed(3)} / ${row[side].bagF1.toFixed(3)}`).join(", ")}`);
}

async function convert(converter: Converter, path: string, ext: string, pool: WorkerPool): Promise<string> {
  const bytes = await Bun.file(path).bytes();
  const result = await converter({ bytes, filename: basename(path), contentType: "application/octet-stream", ext }, benchContext(pool, PICTURES_UNREAD, 600_000));
  return result.markdown;
}

const dir = mkdtempSync(join(tmpdir(), "docintel-bench-pdf-structure-"));
const pool = new WorkerPool({ threads: 2, maxQueue: 64 });
try {
  // Copies named stem-ext.ext, so test.docx and test.pptx print to different PDFs.
  mkdirSync(join(dir, "in"));
  const inputs = sources.map((f) => {
    const ext = f.split(".").pop()!;
    const copy = join(dir, "in", `${basename(f).replace(/\.[^.]+$/, "")}-${ext}.${ext}`);
    copyFileSync(f, copy);
    return copy;
  });
  const open = inputs.filter((f) => /\.(odt|odp)$/.test(f));
  await soffice(dir, "pdf", inputs);
  await soffice(dir, "docx:MS Word 2007 XML", open.filter((f) => f.endsWith(".odt")));
  await soffice(dir, "pptx:Impress MS PowerPoint 2007 XML", open.filter((f) => f.endsWith(".odp")));
  // precise/given: the PDF's headings that are a source heading, of all its headings (files whose reference lists headings)
  const totals = { headings: 0, headingHits: 0, cells: 0, cellHits: 0, given: 0, precise: 0, code: 0, codeHits: 0 };
  const share = (hits: number, n: number) => (n ? `${hits}/${n}`.padEnd(8) + (hits / n).toFixed(2) : "-".padEnd(12));
  console.log(`${"file".padEnd(36)} headings      table cells   code lines`);
  for (const source of inputs) {
    const name = basename(source);
    const stem = name.replace(/\.[^.]+$/, "");
    const ext = name.split(".").pop()!;
    const office = ext === "odt" ? join(dir, "out", `${stem}.docx`) : ext === "odp" ? join(dir, "out", `${stem}.pptx`) : source;
    const isSlides = ext === "pptx" || ext === "odp";
    let sourceMd: string;
    let pdfMd: string;
    try {
      sourceMd = await convert(isSlides ? convertPptx : convertDocx, office, isSlides ? "pptx" : "docx", pool);
      pdfMd = await convert(convertPdf, join(dir, "out", `${stem}.pdf`), "pdf", pool);
    } catch (error) {
      console.log(`${name.padEnd(36)} not converted: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    if (DUMP) {
      await Bun.write(join(DUMP, `${stem}.source.md`), sourceMd);
      await Bun.write(join(DUMP, `${stem}.pdf.md`), pdfMd);
    }
    const h = found(headingsOf(sourceStructure(sourceMd)), headingsOf(pdfMd));
    const extra = found(headingsOf(pdfMd), headingsOf(sourceStructure(sourceMd))).misses;
    totals.given += headingsOf(pdfMd).length;
    totals.precise += headingsOf(pdfMd).length - extra.length;
    const wantedCells = tableCellsOf(sourceStructure(sourceMd));
    const c = found(wantedCells, tableCellsOf(pdfMd));
    const k = found(codeLinesOf(sourceStructure(sourceMd)), codeLinesOf(pdfMd));
    const headingCount = h.hits + h.misses.length;
    totals.headings += headingCount;
    totals.headingHits += h.hits;
    totals.cells += wantedCells.length;
    totals.cellHits += c.hits;
    totals.code += k.hits + k.misses.length;
    totals.codeHits += k.hits;
    console.log(`${name.padEnd(36)} ${share(h.hits, headingCount)}  ${share(c.hits, wantedCells.length)}  ${share(k.hits, k.hits + k.misses.length)}`);
    await scoreText(name, sourceStructure(sourceMd), pdfMd, join(dir, "out", `${stem}.pdf`));
    if (SHOW) {
      for (const miss of h.misses) console.log(`    heading missed: ${miss}`);
      for (const miss of extra) console.log(`    heading added:  ${miss}`);
      for (const miss of c.misses.slice(0, 20)) console.log(`    cell missed:    ${miss}`);
      for (const miss of k.misses.slice(0, 20)) console.log(`    code missed:    ${miss}`);
    }
  }
  // Born-digital PDFs with reference markdown written by people (MarkItDown's expected output):
  // their table cells, looked for the same way.
  const born = { cells: 0, hits: 0, rows: 0, rowHits: 0 };
  // The groups: references marked "Bench group: NAME", files collected to measure the converter on
  // documents it was never tuned on; each reported on its own line as well as in the totals.
  const groups = new Map<string, { files: number; headings: number; headingHits: number; given: number; precise: number; cells: number; cellHits: number; rows: number; rowHits: number; code: number; codeHits: number }>();
  // Text agreement of the references that write down the whole text, by group (kept out of `agreements`)
  const groupTexts = new Map<string, Array<Record<"docintel" | "pdftotext", ReturnType<typeof textAgreement>>>>();
  const references = [
    ...readdirSync(EXPECTED).filter((f) => f.endsWith(".md")).map((f) => ({ md: join(EXPECTED, f), pdf: join(FIXTURES, f.replace(/\.md$/, ".pdf")) })),
    ...readdirSync(BORN_DIGITAL).filter((f) => f.endsWith(".md")).map((f) => ({ md: join(BORN_DIGITAL, f), pdf: join(BORN_DIGITAL, f.replace(/\.md$/, ".pdf")) })),
  ].filter((r) => basename(r.md).includes(FILTER));
  for (const { md: expectedFile, pdf } of references) {
    const expected = await Bun.file(expectedFile).text();
    const wanted = tableCellsOf(expected);
    const pdfMd = await convert(convertPdf, pdf, "pdf", pool);
    if (DUMP) await Bun.write(join(DUMP, `${basename(pdf, ".pdf")}.pdf.md`), pdfMd);
    const c = found(wanted, tableCellsOf(pdfMd));
    // Headings written down with the tables (pdf-born-digital only; MarkItDown's references mark no headings).
    const h = expectedFile.startsWith(BORN_DIGITAL) ? found(headingsOf(expected), headingsOf(pdfMd)) : { hits: 0, misses: [] };
    const r = found(tableRowsOf(expected), tableRowsOf(pdfMd));
    const k = found(codeLinesOf(expected), codeLinesOf(pdfMd));
    totals.code += k.hits + k.misses.length;
    totals.codeHits += k.hits;
    // Precision only where the reference writes headings down (the invoices' and tables' references list tables alone).
    const extra = h.hits + h.misses.length ? found(headingsOf(pdfMd), headingsOf(expected)).misses : [];
    if (h.hits + h.misses.length) {
      totals.given += headingsOf(pdfMd).length;
      totals.precise += headingsOf(pdfMd).length - extra.length;
    }
    born.cells += wanted.length;
    born.hits += c.hits;
    born.rows += r.hits + r.misses.length;
    born.rowHits += r.hits;
    totals.headings += h.hits + h.misses.length;
    totals.headingHits += h.hits;
    const group = GROUP_MARK.exec(expected)?.[1];
    let wholeText = "";
    if (group) {
      if (!groups.has(group)) groups.set(group, { files: 0, headings: 0, headingHits: 0, given: 0, precise: 0, cells: 0, cellHits: 0, rows: 0, rowHits: 0, code: 0, codeHits: 0 });
      const fresh = groups.get(group)!;
      fresh.files++;
      fresh.headings += h.hits + h.misses.length;
      fresh.headingHits += h.hits;
      fresh.given += h.hits + h.misses.length ? headingsOf(pdfMd).length : 0;
      fresh.precise += h.hits + h.misses.length ? headingsOf(pdfMd).length - extra.length : 0;
      fresh.cells += wanted.length;
      fresh.cellHits += c.hits;
      fresh.rows += r.hits + r.misses.length;
      fresh.rowHits += r.hits;
      fresh.code += k.hits + k.misses.length;
      fresh.codeHits += k.hits;
      if (WHOLE_TEXT_MARK.test(expected)) {
        const row = { docintel: textAgreement(expected, pdfMd), pdftotext: textAgreement(expected, await pdftotext(pdf, false)) };
        if (!groupTexts.has(group)) groupTexts.set(group, []);
        groupTexts.get(group)!.push(row);
        wholeText = `    whole-text agreement (ordered / bag F1, ${row.docintel.referenceWords} words): docintel ${row.docintel.ordered.toFixed(3)} / ${row.docintel.bagF1.toFixed(3)}, pdftotext ${row.pdftotext.ordered.toFixed(3)} / ${row.pdftotext.bagF1.toFixed(3)}`;
      }
    }
    console.log(`${basename(pdf).padEnd(36)} ${share(h.hits, h.hits + h.misses.length)}  ${share(c.hits, wanted.length)}  ${share(k.hits, k.hits + k.misses.length)}  rows ${r.hits}/${r.hits + r.misses.length}  (reference markdown)`);
    // MarkItDown's references are the whole text; pdf-born-digital's write down headings and tables only
    if (expectedFile.startsWith(EXPECTED)) await scoreText(basename(pdf), expected, pdfMd, pdf);
    if (SHOW) {
      if (wholeText) console.log(wholeText);
      for (const miss of h.misses) console.log(`    heading missed: ${miss}`);
      for (const miss of extra) console.log(`    heading added:  ${miss}`);
      for (const miss of c.misses.slice(0, 20)) console.log(`    cell missed:    ${miss}`);
      for (const miss of r.misses) console.log(`    row missed:     ${miss}`);
      for (const miss of k.misses.slice(0, 20)) console.log(`    code missed:    ${miss}`);
    }
  }
  if (born.cells) console.log(`born-digital PDFs against reference markdown: table cells ${born.hits}/${born.cells} = ${(born.hits / born.cells).toFixed(3)}, whole rows (same cells in the same order) ${born.rowHits}/${born.rows} = ${(born.rowHits / Math.max(1, born.rows)).toFixed(3)}`);
  for (const [group, fresh] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
    const ratio = (hits: number, n: number) => `${hits}/${n} = ${(n ? hits / n : 0).toFixed(3)}`;
    const texts = groupTexts.get(group) ?? [];
    const textMean = (side: "docintel" | "pdftotext", figure: "ordered" | "bagF1") => (texts.reduce((sum, t) => sum + t[side][figure], 0) / texts.length).toFixed(3);
    const text = texts.length ? `, text agreement over ${texts.length} whole-text references (ordered / bag F1) docintel ${textMean("docintel", "ordered")} / ${textMean("docintel", "bagF1")}, pdftotext ${textMean("pdftotext", "ordered")} / ${textMean("pdftotext", "bagF1")}` : "";
    console.log(`${group} group (${fresh.files} files never tuned on; also in the totals): headings ${ratio(fresh.headingHits, fresh.headings)}, heading precision ${ratio(fresh.precise, fresh.given)}, table cells ${ratio(fresh.cellHits, fresh.cells)}, whole rows ${ratio(fresh.rowHits, fresh.rows)}, code lines ${ratio(fresh.codeHits, fresh.code)}${text}`);
  }
  totals.cells += born.cells;
  totals.cellHits += born.hits;
  const headings = totals.headings ? totals.headingHits / totals.headings : 0;
  const cells = totals.cells ? totals.cellHits / totals.cells : 0;
  const precision = totals.given ? totals.precise / totals.given : 1;
  const code = totals.code ? totals.codeHits / totals.code : 0;
  console.log(`overall: headings ${totals.headingHits}/${totals.headings} = ${headings.toFixed(3)}, heading precision ${totals.precise}/${totals.given} = ${precision.toFixed(3)}, table cells ${totals.cellHits}/${totals.cells} = ${cells.toFixed(3)}, code lines ${totals.codeHits}/${totals.code} = ${code.toFixed(3)} over ${sources.length} files`);
  if (agreements.length) {
    const mean = (side: (typeof TEXT_SIDES)[number], figure: "ordered" | "bagF1") => (agreements.reduce((sum, a) => sum + a[side][figure], 0) / agreements.length).toFixed(3);
    console.log(`text agreement over ${agreements.length} files (mean of files; ordered = 1 - word edit distance, bag = word-bag F1): ${TEXT_SIDES.map((side) => `${side} ${mean(side, "ordered")} / ${mean(side, "bagF1")}`).join(", ")}`);
    // over all words: the sum of edit distances over the sum of the longer sides, so long files weigh by their length
    const pooled = (side: (typeof TEXT_SIDES)[number]) => (1 - agreements.reduce((sum, a) => sum + a[side].distance, 0) / agreements.reduce((sum, a) => sum + Math.max(a[side].referenceWords, a[side].words), 0)).toFixed(3);
    console.log(`text agreement over all ${agreements.reduce((sum, a) => sum + a.docintel.referenceWords, 0)} reference words (ordered): ${TEXT_SIDES.map((side) => `${side} ${pooled(side)}`).join(", ")}`);
    console.log(`RESULT pdf-structure text agreement = ${mean("docintel", "ordered")} (goal >= ${GOAL}), word-bag F1 = ${mean("docintel", "bagF1")}; pdftotext ${mean("pdftotext", "ordered")} / ${mean("pdftotext", "bagF1")}, pdftotext -layout ${mean("pdftotext -layout", "ordered")} / ${mean("pdftotext -layout", "bagF1")}`);
  }
  const met = headings >= GOAL && cells >= GOAL;
  // issue 16's goal is on headings found and table cells found; precision and code lines are reported beside them, with no goal
  console.log(`RESULT pdf-structure headings found = ${headings.toFixed(3)}, table cells found = ${cells.toFixed(3)} (goal >= ${GOAL} each) ${met ? "met" : "NOT met"}; heading precision = ${precision.toFixed(3)}, code lines found = ${code.toFixed(3)} (no goal)`);
} finally {
  await pool.close();
  rmSync(dir, { recursive: true, force: true });
}
