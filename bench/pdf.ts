/**
 * PDF benchmark: `bun bench/pdf.ts`.
 *
 * 1. Builds a structured text document (chapters, sections, paragraphs, lists, small tables) as
 *    HTML and prints it to PDF with LibreOffice: about 200 pages, and about 1000 pages.
 * 2. Speed: `pdftotext` (median of 5 runs) against convertPdf through a real WorkerPool of two
 *    threads (median of 5), in pages per second, and the ratio (goal >= 0.3).
 * 3. Memory: converts the 1000-page PDF in a child process and reports its peak RSS (goal < 1 GB).
 */
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { convertPdf } from "../src/convert/pdf";
import type { ConvertContext } from "../src/convert/types";
import { WorkerPool } from "../src/pool";
import { runProcess } from "../src/tools/process";
import { Tesseract } from "../src/tools/tesseract";

const ROOT = resolve(import.meta.dir, "..");
const RUNS = Math.max(1, Number(Bun.env.BENCH_ROUNDS) || 5);
/** SPEED_GOAL: convertPdf's pages/s over pdftotext's. MEMORY_GOAL_MB: peak RSS for the 1000-page PDF. */
const SPEED_GOAL = 0.3;
const MEMORY_GOAL_MB = 1024;
const WORDS = "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua enim ad minim veniam quis nostrud exercitation ullamco laboris nisi aliquip ex ea commodo consequat".split(" ");

/** sentence makes `n` pseudo-random words from a seeded generator, so every run prints the same PDF. */
function makeWriter(seed: number) {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648);
  return (n: number) => {
    const words = Array.from({ length: n }, () => WORDS[next() % WORDS.length]!);
    const text = words.join(" ");
    return `${text[0]!.toUpperCase()}${text.slice(1)}.`;
  };
}

function documentHtml(chapters: number): string {
  const write = makeWriter(7);
  const parts = ["<html><head><title>Benchmark Document</title></head><body>"];
  for (let c = 1; c <= chapters; c++) {
    parts.push(`<h1>Chapter ${c}</h1>`);
    for (let s = 1; s <= 3; s++) {
      parts.push(`<h2>Section ${c}.${s}</h2>`);
      for (let p = 0; p < 3; p++) parts.push(`<p>${write(70)}</p>`);
      parts.push(`<ul>${Array.from({ length: 3 }, () => `<li>${write(8)}</li>`).join("")}</ul>`);
    }
    const rows = Array.from({ length: 4 }, (_, i) => `<tr><td>Item ${i + 1}</td><td>${(i + 1) * 3}</td><td>$${(i + 1) * 7}.00</td></tr>`).join("");
    parts.push(`<table><tr><th>Item</th><th>Qty</th><th>Price</th></tr>${rows}</table>`);
  }
  parts.push("</body></html>");
  return parts.join("\n");
}

async function makePdf(dir: string, name: string, chapters: number): Promise<{ path: string; pages: number }> {
  const html = join(dir, `${name}.html`);
  writeFileSync(html, documentHtml(chapters));
  await runProcess("soffice", ["--headless", "--norestore", `-env:UserInstallation=file://${join(dir, "profile")}`, "--convert-to", "pdf", "--outdir", dir, html], { timeoutMs: 300_000, what: "print the benchmark document to PDF", sandbox: { dirs: [dir] } });
  const path = join(dir, `${name}.pdf`);
  const info = await runProcess("pdfinfo", [path], { timeoutMs: 30_000, what: "count benchmark pages", sandbox: { readOnly: [path] } });
  const pages = Number(/^Pages:\s+(\d+)/m.exec(info.stdout.toString())?.[1] ?? 0);
  return { path, pages };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function timeRuns(runs: number, fn: () => Promise<unknown>): Promise<number> {
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await fn();
    ms.push(performance.now() - started);
  }
  return median(ms);
}

function context(pool: WorkerPool): ConvertContext {
  return {
    signal: AbortSignal.timeout(600_000),
    limits: { maxDecompressedBytes: 200e6, maxPixels: 100e6, maxPages: 5000 },
    page: { mainContent: true, waitMs: 0 },
    tools: { pool, ocr: new Tesseract({ concurrency: 2, timeoutMs: 60_000 }) } as unknown as ConvertContext["tools"],
  };
}

/** speed returns the ratio of convertPdf's pages/s to pdftotext's (medians of RUNS). */
async function speed(pdf: { path: string; pages: number }): Promise<number> {
  const bytes = await Bun.file(pdf.path).bytes();
  const pdftotextMs = await timeRuns(RUNS, () => runProcess("pdftotext", [pdf.path, "-"], { timeoutMs: 120_000, what: "pdftotext baseline", maxStdoutBytes: 0, sandbox: { readOnly: [pdf.path] } }));
  const pool = new WorkerPool({ threads: 2, maxQueue: 64 });
  try {
    await convertPdf({ bytes, filename: "bench.pdf", contentType: "application/pdf", ext: "pdf" }, context(pool)); // warm the workers
    let chars = 0;
    const convertMs = await timeRuns(RUNS, async () => {
      const result = await convertPdf({ bytes, filename: "bench.pdf", contentType: "application/pdf", ext: "pdf" }, context(pool));
      chars = result.markdown.length;
    });
    const baseline = pdf.pages / (pdftotextMs / 1000);
    const ours = pdf.pages / (convertMs / 1000);
    console.log(`speed, ${pdf.pages}-page PDF (median of ${RUNS}):`);
    console.log(`  pdftotext             ${pdftotextMs.toFixed(0)} ms  ${baseline.toFixed(0)} pages/s`);
    console.log(`  convertPdf (2 threads) ${convertMs.toFixed(0)} ms  ${ours.toFixed(0)} pages/s  (${chars} chars of markdown)`);
    console.log(`  ratio                 ${(ours / baseline).toFixed(2)} (goal >= ${SPEED_GOAL.toFixed(2)})`);
    return ours / baseline;
  } finally {
    await pool.close();
  }
}

/** memory converts the PDF in a child process, which reports its own peak RSS (all threads); returns it in MB. */
async function memory(pdf: { path: string; pages: number }): Promise<number> {
  const script = `
    import { convertPdf } from ${JSON.stringify(join(ROOT, "src/convert/pdf.ts"))};
    import { WorkerPool } from ${JSON.stringify(join(ROOT, "src/pool/index.ts"))};
    const pool = new WorkerPool({ threads: 2, maxQueue: 64 });
    const bytes = await Bun.file(${JSON.stringify(pdf.path)}).bytes();
    const started = performance.now();
    const result = await convertPdf({ bytes, filename: "big.pdf", contentType: "application/pdf", ext: "pdf" }, {
      signal: AbortSignal.timeout(600000), limits: { maxDecompressedBytes: 2e8, maxPixels: 1e8, maxPages: 5000 },
      page: { mainContent: true, waitMs: 0 }, tools: { pool, ocr: null },
    });
    const ms = performance.now() - started;
    await pool.close();
    console.log(JSON.stringify({ ms, pages: result.totalPages, chars: result.markdown.length, maxRssKb: process.resourceUsage().maxRSS }));
  `;
  // node_modules may be a link out of the checkout (a git worktree's): the sandbox must see where it points.
  const run = await runProcess(process.execPath, ["-e", script], { timeoutMs: 600_000, what: "convert the 1000-page PDF in a child process", sandbox: { readOnly: [ROOT, realpathSync(join(ROOT, "node_modules")), pdf.path], cwd: ROOT } });
  const line = run.stdout.toString().trim().split("\n").pop()!;
  const report = JSON.parse(line) as { ms: number; pages: number; chars: number; maxRssKb: number };
  const mb = report.maxRssKb / 1024;
  console.log(`memory, ${report.pages}-page PDF in a child process:`);
  console.log(`  ${report.ms.toFixed(0)} ms (${(report.pages / (report.ms / 1000)).toFixed(0)} pages/s), ${report.chars} chars, peak RSS ${mb.toFixed(0)} MB (goal < ${MEMORY_GOAL_MB} MB)`);
  return mb;
}

const dir = mkdtempSync(join(tmpdir(), "docintel-bench-pdf-"));
try {
  const small = await makePdf(dir, "pages200", 125);
  const big = await makePdf(dir, "pages1000", 625);
  const ratio = await speed(small);
  const mb = await memory(big);
  // bench/run.ts collects this line; without it `make bench` reports the script as crashed.
  const met = ratio >= SPEED_GOAL && mb < MEMORY_GOAL_MB;
  console.log(`RESULT pdf convertPdf/pdftotext pages/s = ${ratio.toFixed(2)} (goal >= ${SPEED_GOAL.toFixed(2)}), ${big.pages}-page peak RSS ${mb.toFixed(0)} MB (goal < ${MEMORY_GOAL_MB} MB) ${met ? "met" : "NOT met"}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
