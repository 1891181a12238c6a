/**
 * bench/ocr-language.ts: what reading a scanned PDF in its language costs. A scanned page is read
 * from its rendering and from its stored image; the rendering's reading finds the page's language
 * (English first, then the script's or the function words' model: src/tools/tesseract/language.ts),
 * and the stored image is read in that language at once (`sameAs`). The baseline, in the same run,
 * is the same engine with `sameAs` taken away: the stored image asks English first again.
 *
 * Documents: scanned-PDF copies (rendered at 150 dpi to JPEG, one image per page, no text layer) of
 * pdf-structure's German invoice, German lecture notes, French invoice and Arabic gazette page, and
 * an English paper page as the control (one reading either way). Prints the median seconds per
 * document of each engine, whether both gave the same markdown, and RESULT with the ratio of the
 * medians (lower is better; goal <= 0.85 on the non-English documents).
 *
 *   bun bench/ocr-language.ts            BENCH_ROUNDS=3 (default)
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeConvertPdf } from "../src/convert/pdf";
import { WorkerPool } from "../src/pool";
import { runProcess } from "../src/tools/process";
import { Tesseract } from "../src/tools/tesseract";
import type { OcrEngine } from "../src/tools/types";
import { imageOnlyPdf } from "../test/helpers/imageOnlyPdf";
import { benchContext, BORN_DIGITAL } from "./structure-score";

const DPI = 150;
const ROUNDS = Number(Bun.env.BENCH_ROUNDS ?? 3);
const DOCUMENTS = [
  { file: "mustang-GnuaccountingBeispielRE-20170509_505.pdf", language: "German" },
  { file: "pypdf-geotopo-metric-spaces.pdf", language: "German" },
  { file: "mustang-Facture_F20180027.pdf", language: "French" },
  { file: "natpdf-egypt-gazette-hotel-law.pdf", language: "Arabic" },
  { file: "arxiv-twocolumn-preprint-lorem.pdf", language: "English" },
];

/** withoutSameAs is the engine as it was: every image is read as if nothing were known of its page's language. */
function withoutSameAs(engine: OcrEngine): OcrEngine {
  return {
    recognize: (image, signal, options) => engine.recognize(image, signal, { ...options, sameAs: undefined }),
    orientation: engine.orientation?.bind(engine),
  };
}

/** scannedCopy renders a PDF's pages at DPI to JPEG and writes them as an image-only PDF. */
async function scannedCopy(pdf: string, dir: string): Promise<Uint8Array> {
  const prefix = join(dir, "page");
  await runProcess("pdftoppm", ["-r", String(DPI), "-gray", "-jpeg", pdf, prefix], { timeoutMs: 300_000, what: "render the bench PDF's pages", sandbox: { dirs: [dir, BORN_DIGITAL] } });
  const pages = readdirSync(dir).filter((f) => f.startsWith("page-")).sort((a, b) => Number(/(\d+)\.jpg$/.exec(a)![1]) - Number(/(\d+)\.jpg$/.exec(b)![1]));
  const bytes = await Promise.all(pages.map((f) => Bun.file(join(dir, f)).bytes()));
  for (const f of pages) rmSync(join(dir, f));
  return imageOnlyPdf(bytes, DPI);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const dir = mkdtempSync(join(tmpdir(), "docintel-bench-ocr-language-"));
const pool = new WorkerPool({ threads: 2, maxQueue: 64 });
const tesseract = new Tesseract({ concurrency: 2, timeoutMs: 300_000 });
const engines = { sameAs: tesseract, baseline: withoutSameAs(tesseract) };
// readings: tesseract runs of one language (the engine's private `read`), counted to show where the time goes without the machine's noise
let readings = 0;
const internals = tesseract as unknown as { read: (...args: unknown[]) => Promise<unknown> };
const readOnce = internals.read.bind(tesseract);
internals.read = (...args) => {
  readings++;
  return readOnce(...args);
};
const convert = makeConvertPdf({ outline: false, scanLayout: true });
try {
  const foreign = { sameAs: 0, baseline: 0 };
  for (const doc of DOCUMENTS) {
    const pdf = await scannedCopy(join(BORN_DIGITAL, doc.file), dir);
    const times = { sameAs: [] as number[], baseline: [] as number[] };
    const reads = { sameAs: 0, baseline: 0 };
    const markdowns = { sameAs: "", baseline: "" };
    for (let round = 0; round < ROUNDS; round++) {
      // alternate which engine goes first, so a warm-up favours neither
      for (const name of round % 2 === 0 ? (["baseline", "sameAs"] as const) : (["sameAs", "baseline"] as const)) {
        const started = performance.now();
        const before = readings;
        markdowns[name] = (await convert({ bytes: pdf, filename: doc.file, contentType: "application/pdf", ext: "pdf" }, benchContext(pool, engines[name], 1_800_000))).markdown;
        times[name].push((performance.now() - started) / 1000);
        reads[name] = readings - before;
      }
    }
    const same = markdowns.sameAs === markdowns.baseline;
    console.log(`${doc.file} (${doc.language}): baseline median ${median(times.baseline).toFixed(2)} s, sameAs ${median(times.sameAs).toFixed(2)} s, ratio ${(median(times.sameAs) / median(times.baseline)).toFixed(2)}; readings ${reads.baseline} -> ${reads.sameAs}; markdown ${same ? "the same" : "DIFFERS"}`);
    if (doc.language !== "English") {
      foreign.sameAs += median(times.sameAs);
      foreign.baseline += median(times.baseline);
    }
  }
  console.log(`RESULT ocr-language: non-English scanned PDFs ${(foreign.sameAs / foreign.baseline).toFixed(2)}x the time of reading each page image in English first (goal <= 0.85)`);
} finally {
  tesseract.close();
  await pool.close();
  rmSync(dir, { recursive: true, force: true });
}
