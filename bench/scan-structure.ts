/**
 * Scanned-page structure benchmark: `bun bench/scan-structure.ts`.
 *
 * The born-digital PDFs whose headings and tables were written down once (bench/expected/pdf-born-digital,
 * and MarkItDown's three PDFs with its reference markdown; the same references as bench/pdf-structure.ts)
 * and the office documents pdf-structure.ts prints to PDF with LibreOffice (their reference: the
 * source's own markdown) are made into scans: every page rendered to a grey PNG at 150 dpi by
 * pdftoppm. Each is converted twice in the same run through the image path (one PNG per page, the
 * pages' markdown joined) and, as an image-only PDF (the pages as JPEGs, no text layer), through the
 * scanned-PDF path:
 *
 * - flat:   tesseract's text as the converters wrote it before scans were laid out (the baseline);
 * - layout: the words laid out by the PDF layout engine (src/convert/ocrLayout.ts).
 *
 * Both read the same OCR (each image is recognised once, and the result is given to both modes).
 * Scored as pdf-structure.ts scores (bench/structure-score.ts): headings found and heading precision
 * where the reference writes headings down, table cells found, whole rows found; and text agreement
 * (bench/structure-score.ts textAgreement: 1 - word edit distance, and word-bag F1; means of files)
 * against the whole text: the source's markdown for the office documents, MarkItDown's markdown for
 * its PDFs, and for pdf-born-digital (whose references list headings and tables only) the
 * born-digital PDF's own markdown by the PDF converter: what the scan loses against its text layer.
 * The flat mode is the text baseline (tesseract's text as it comes).
 *
 *   BENCH_FILTER=usgs     only files whose name contains "usgs"
 *   BENCH_OFFICE=0        leave out the office documents (LibreOffice's printing takes a while)
 *   BENCH_PDF=0           leave out the image-only PDF path
 *   BENCH_SHOW=1          print each file's misses of the layout mode
 *   BENCH_DUMP=/tmp/dir   write each file's markdowns there
 *   BENCH_SKEW=3          turn each page by this many degrees (clockwise on odd pages, back on even), as a page fed crooked or photographed by hand (rendered at twice the DPI, turned, then brought down to it, as a scanner samples a crooked page once)
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import sharp from "sharp";
import { convertDocx } from "../src/convert/docx";
import { makeConvertImage } from "../src/convert/image";
import { makeConvertPdf } from "../src/convert/pdf";
import { convertPptx } from "../src/convert/pptx";
import type { Converter } from "../src/convert/types";
import { WorkerPool } from "../src/pool";
import { runProcess } from "../src/tools/process";
import { Tesseract } from "../src/tools/tesseract";
import type { OcrEngine, OcrResult } from "../src/tools/types";
import { imageOnlyPdf } from "../test/helpers/imageOnlyPdf";
import { benchContext, BORN_DIGITAL, EXPECTED, FIXTURES, found, headingsOf, officeSources, soffice, sourceStructure, tableCellsOf, tableRowsOf, textAgreement } from "./structure-score";

const DPI = 150;
const FILTER = Bun.env.BENCH_FILTER ?? "";
const SHOW = Bun.env.BENCH_SHOW === "1";
const DUMP = Bun.env.BENCH_DUMP ?? "";
const OFFICE = Bun.env.BENCH_OFFICE !== "0";
const PDF_PATH = Bun.env.BENCH_PDF !== "0";
const SKEW = Number(Bun.env.BENCH_SKEW ?? 0);

const MODES = ["flat", "layout"] as const;
type Mode = (typeof MODES)[number];
const imageConverters: Record<Mode, Converter> = { flat: makeConvertImage({ scanLayout: false }), layout: makeConvertImage({ scanLayout: true }) };
/** bornDigital: the PDF converter on a PDF's text layer, for the text of pdf-born-digital */
const bornDigital = makeConvertPdf({ outline: false });
const pdfConverters: Record<Mode, Converter> = { flat: makeConvertPdf({ outline: false, scanLayout: false }), layout: makeConvertPdf({ outline: false, scanLayout: true }) };

/** memoOcr recognises each image once: both modes read the same OCR, and the run costs one OCR per page and path. */
function memoOcr(engine: OcrEngine): OcrEngine {
  const seen = new Map<string, Promise<OcrResult>>();
  return {
    recognize(image, signal, options) {
      const key = `${Bun.hash(image)}:${options?.segmentation}:${options?.dpi}:${options?.sameAs}`;
      if (!seen.has(key)) seen.set(key, engine.recognize(image, signal, options));
      return seen.get(key)!;
    },
    orientation: engine.orientation?.bind(engine),
  };
}

/** renderPages renders every page of a PDF to grey images at DPI (format "png" or "jpeg"), in page order. */
async function renderScans(pdf: string, dir: string, format: "png" | "jpeg"): Promise<string[]> {
  const prefix = join(dir, `${basename(pdf, ".pdf")}-${format}`);
  // a page turned (BENCH_SKEW) is rendered at twice the DPI, turned, then brought down to the DPI: a scanner samples the
  // crooked page once, at its own resolution; turning a page already sampled at the DPI would blur it twice
  await runProcess("pdftoppm", ["-r", String(SKEW ? 2 * DPI : DPI), "-gray", `-${format}`, pdf, prefix], { timeoutMs: 600_000, what: "render the bench PDF's pages", sandbox: { dirs: [dir, resolve(pdf, "..")] } });
  const stem = basename(prefix);
  const pages = readdirSync(dir)
    .filter((f) => f.startsWith(`${stem}-`) && /\.(png|jpg)$/.test(f))
    .sort((a, b) => Number(/-(\d+)\.\w+$/.exec(a)![1]) - Number(/-(\d+)\.\w+$/.exec(b)![1]))
    .map((f) => join(dir, f));
  if (SKEW) {
    for (const [i, page] of pages.entries()) {
      const turned = await sharp(page).rotate(i % 2 ? -SKEW : SKEW, { background: "#ffffff" }).toBuffer({ resolveWithObject: true });
      const askew = sharp(turned.data).resize({ width: Math.round(turned.info.width / 2) });
      await Bun.write(page, await (format === "png" ? askew.png() : askew.jpeg({ quality: 90 })).toBuffer());
    }
  }
  return pages;
}

/** imageOnlyPdfOf writes a PDF whose pages are the JPEG files alone (no text layer), each page the size of the image at DPI. */
async function imageOnlyPdfOf(jpegs: string[]): Promise<Uint8Array> {
  return imageOnlyPdf(await Promise.all(jpegs.map((jpeg) => Bun.file(jpeg).bytes())), DPI);
}

/** pageBody: an image's markdown without what the image converter adds around the text (its file name as a heading, the metadata section) */
function pageBody(markdown: string): string {
  return markdown.replace(/^# .*\n+/, "").replace(/(?:^|\n)## Image metadata\n[\s\S]*$/, "");
}

interface Totals {
  headings: number;
  headingHits: number;
  given: number;
  precise: number;
  cells: number;
  cellHits: number;
  rows: number;
  rowHits: number;
  /** texts, ordered, bag: files scored for text agreement, and the sums of their two figures */
  texts: number;
  ordered: number;
  bag: number;
}
const emptyTotals = (): Totals => ({ headings: 0, headingHits: 0, given: 0, precise: 0, cells: 0, cellHits: 0, rows: 0, rowHits: 0, texts: 0, ordered: 0, bag: 0 });

/** score adds one file's figures to the totals and returns its line; `withHeadings`: the reference writes headings down */
function score(reference: string, text: string, markdown: string, totals: Totals, withHeadings: boolean, show: boolean): string {
  const h = withHeadings ? found(headingsOf(reference), headingsOf(markdown)) : { hits: 0, misses: [] as string[] };
  const extra = withHeadings ? found(headingsOf(markdown), headingsOf(reference)).misses : [];
  const wanted = tableCellsOf(reference);
  const c = found(wanted, tableCellsOf(markdown));
  const r = found(tableRowsOf(reference), tableRowsOf(markdown));
  totals.headings += h.hits + h.misses.length;
  totals.headingHits += h.hits;
  if (withHeadings) {
    totals.given += headingsOf(markdown).length;
    totals.precise += headingsOf(markdown).length - extra.length;
  }
  totals.cells += wanted.length;
  totals.cellHits += c.hits;
  totals.rows += r.hits + r.misses.length;
  totals.rowHits += r.hits;
  const agreement = textAgreement(text, markdown);
  // a text of no words (a chart's slide: its data section is taken out) measures nothing
  if (agreement.referenceWords) {
    totals.texts++;
    totals.ordered += agreement.ordered;
    totals.bag += agreement.bagF1;
  }
  if (show) {
    for (const miss of h.misses) console.log(`      heading missed: ${miss}`);
    for (const miss of extra) console.log(`      heading added:  ${miss}`);
    for (const miss of c.misses.slice(0, 12)) console.log(`      cell missed:    ${miss}`);
  }
  const share = (hits: number, n: number) => (n ? `${hits}/${n}`.padEnd(8) : "-".padEnd(8));
  return `h ${share(h.hits, h.hits + h.misses.length)} +${String(extra.length).padEnd(3)} cells ${share(c.hits, wanted.length)} rows ${share(r.hits, r.hits + r.misses.length)} text ${agreement.referenceWords ? `${agreement.ordered.toFixed(3)} / ${agreement.bagF1.toFixed(3)}` : "-"}`;
}

function summary(totals: Totals): string {
  const ratio = (a: number, b: number) => (b ? (a / b).toFixed(3) : "-");
  return `headings ${totals.headingHits}/${totals.headings} = ${ratio(totals.headingHits, totals.headings)}, precision ${totals.precise}/${totals.given} = ${ratio(totals.precise, totals.given)}, table cells ${totals.cellHits}/${totals.cells} = ${ratio(totals.cellHits, totals.cells)}, whole rows ${totals.rowHits}/${totals.rows} = ${ratio(totals.rowHits, totals.rows)}, text agreement ${ratio(totals.ordered, totals.texts)} / bag F1 ${ratio(totals.bag, totals.texts)}`;
}

/** convertScan converts one case's scans by one path (each page's PNG as an image, or the image-only PDF) in one mode */
async function convertScan(path: "image" | "pdf", mode: Mode, name: string, pngs: string[], jpegPdf: Uint8Array | null): Promise<string> {
  if (path === "image") {
    const pages: string[] = [];
    for (const png of pngs) {
      const result = await imageConverters[mode]({ bytes: await Bun.file(png).bytes(), filename: basename(png), contentType: "image/png", ext: "png" }, benchContext(pool, ocr, 1_800_000));
      pages.push(pageBody(result.markdown));
    }
    return pages.join("\n\n");
  }
  return (await pdfConverters[mode]({ bytes: jpegPdf!, filename: name, contentType: "application/pdf", ext: "pdf" }, benchContext(pool, ocr, 1_800_000))).markdown;
}

const dir = mkdtempSync(join(tmpdir(), "docintel-bench-scan-structure-"));
const pool = new WorkerPool({ threads: 2, maxQueue: 64 });
const tesseract = new Tesseract({ concurrency: 2, timeoutMs: 300_000 });
const ocr = memoOcr(tesseract);
const started = performance.now();
try {
  mkdirSync(join(dir, "in"));
  mkdirSync(join(dir, "out"));
  mkdirSync(join(dir, "scans"));
  // Each case: a PDF, its reference markdown, and whether that reference writes headings down.
  // text: the whole text the scan is scored against for text agreement
  const cases: Array<{ name: string; pdf: string; reference: string; text: string; withHeadings: boolean }> = [];
  for (const [folder, pdfDir, withHeadings] of [[EXPECTED, FIXTURES, false], [BORN_DIGITAL, BORN_DIGITAL, true]] as const) {
    for (const f of readdirSync(folder).filter((f) => f.endsWith(".md") && f.includes(FILTER))) {
      const reference = await Bun.file(join(folder, f)).text();
      // pdf-born-digital references write headings down only where they list more than tables
      const pdf = join(pdfDir, f.replace(/\.md$/, ".pdf"));
      // MarkItDown's references are the whole text; pdf-born-digital's list headings and tables only, so the PDF's own markdown stands for its text
      const text = folder === EXPECTED ? reference : (await bornDigital({ bytes: await Bun.file(pdf).bytes(), filename: f, contentType: "application/pdf", ext: "pdf" }, benchContext(pool, ocr, 1_800_000))).markdown;
      cases.push({ name: f.replace(/\.md$/, ".pdf"), pdf, reference, text, withHeadings: withHeadings && headingsOf(reference).length > 0 });
    }
  }
  if (OFFICE) {
    const sources = officeSources(FILTER);
    const inputs = sources.map((f) => {
      const ext = f.split(".").pop()!;
      const copy = join(dir, "in", `${basename(f).replace(/\.[^.]+$/, "")}-${ext}.${ext}`);
      copyFileSync(f, copy);
      return copy;
    });
    await soffice(dir, "pdf", inputs);
    await soffice(dir, "docx:MS Word 2007 XML", inputs.filter((f) => f.endsWith(".odt")));
    await soffice(dir, "pptx:Impress MS PowerPoint 2007 XML", inputs.filter((f) => f.endsWith(".odp")));
    for (const source of inputs) {
      const stem = basename(source).replace(/\.[^.]+$/, "");
      const ext = source.split(".").pop()!;
      const office = ext === "odt" ? join(dir, "out", `${stem}.docx`) : ext === "odp" ? join(dir, "out", `${stem}.pptx`) : source;
      const slides = ext === "pptx" || ext === "odp";
      const converted = await (slides ? convertPptx : convertDocx)({ bytes: await Bun.file(office).bytes(), filename: basename(office), contentType: "application/octet-stream", ext: slides ? "pptx" : "docx" }, benchContext(pool, ocr, 1_800_000));
      cases.push({ name: basename(source), pdf: join(dir, "out", `${stem}.pdf`), reference: sourceStructure(converted.markdown), text: sourceStructure(converted.markdown), withHeadings: true });
    }
  }

  const paths = PDF_PATH ? (["image", "pdf"] as const) : (["image"] as const);
  const totals = new Map(paths.flatMap((path) => MODES.map((mode) => [`${path}/${mode}`, emptyTotals()] as const)));
  for (const c of cases) {
    const pngs = await renderScans(c.pdf, join(dir, "scans"), "png");
    const jpegPdf = PDF_PATH ? await imageOnlyPdfOf(await renderScans(c.pdf, join(dir, "scans"), "jpeg")) : null;
    console.log(`${c.name} (${pngs.length} page${pngs.length === 1 ? "" : "s"})`);
    for (const path of paths) {
      for (const mode of MODES) {
        let markdown = "";
        try {
          markdown = await convertScan(path, mode, c.name, pngs, jpegPdf);
        } catch (error) {
          console.log(`  ${`${path}/${mode}`.padEnd(13)} not converted (scored as empty): ${error instanceof Error ? error.message.slice(0, 120) : String(error)}`);
        }
        if (DUMP) await Bun.write(join(DUMP, `${c.name}.${path}.${mode}.md`), markdown);
        console.log(`  ${`${path}/${mode}`.padEnd(13)} ${score(c.reference, c.text, markdown, totals.get(`${path}/${mode}`)!, c.withHeadings, SHOW && mode === "layout")}`);
      }
    }
  }
  console.log(`\n${cases.length} files scanned at ${DPI} dpi, ${((performance.now() - started) / 1000).toFixed(0)} s`);
  for (const [key, t] of totals) console.log(`${key.padEnd(13)} ${summary(t)}`);
  for (const path of paths) {
    const [flat, layout] = [totals.get(`${path}/flat`)!, totals.get(`${path}/layout`)!];
    const r = (t: Totals) => `headings ${(t.headingHits / Math.max(1, t.headings)).toFixed(3)}, cells ${(t.cellHits / Math.max(1, t.cells)).toFixed(3)}, text agreement ${(t.ordered / Math.max(1, t.texts)).toFixed(3)} / bag F1 ${(t.bag / Math.max(1, t.texts)).toFixed(3)}`;
    console.log(`RESULT scan-structure ${path}: layout ${r(layout)} vs flat text ${r(flat)}`);
  }
} finally {
  tesseract.close();
  await pool.close();
  rmSync(dir, { recursive: true, force: true });
}
