/**
 * docx: DOCX -> markdown time of docintel's converter against `pandoc -t gfm` on the same files
 * (the corpus DOCX files in test/fixtures plus a generated 60-page report). docintel is measured as
 * the service runs it (in process, warm); pandoc as users run it (one process per file). Goal:
 * docintel faster, i.e. docintel/pandoc < 1 (medians per file, then the median of the ratios).
 *
 *   bun bench/docx.ts            9 runs per file
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { convertDocx } from "../src/convert/docx";
import { runProcess } from "../src/tools/process";

const RUNS = Math.max(3, Number(process.env.BENCH_ROUNDS) || 9);
const FIXTURES = join(import.meta.dir, "../test/fixtures");
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

if (!Bun.which("pandoc")) {
  console.error("pandoc is not installed (apt-get install pandoc); make bench installs it");
  process.exit(1);
}

const work = mkdtempSync(join(tmpdir(), "docintel-bench-docx-"));
try {
  const files = readdirSync(FIXTURES).filter((f) => f.endsWith(".docx")).map((f) => join(FIXTURES, f));
  // a long report: 60 pages of headings, paragraphs and tables, made by LibreOffice from HTML
  const html = join(work, "report.html");
  const sections = Array.from({ length: 120 }, (_, i) => `<h2>Section ${i + 1}</h2>${"<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.</p>".repeat(4)}<table border="1"><tr><th>Item</th><th>Qty</th><th>Price</th></tr>${Array.from({ length: 6 }, (_, r) => `<tr><td>Item ${r}</td><td>${r + 1}</td><td>${(r * 3.5).toFixed(2)}</td></tr>`).join("")}</table>`).join("");
  await Bun.write(html, `<html><body><h1>Annual report</h1>${sections}</body></html>`);
  await runProcess("soffice", ["--headless", "--norestore", `-env:UserInstallation=file://${join(work, "profile")}`, "--convert-to", "docx:MS Word 2007 XML", "--outdir", work, html], { timeoutMs: 120_000, what: "make report.docx", sandbox: { dirs: [work] } });
  if (existsSync(join(work, "report.docx"))) files.push(join(work, "report.docx"));

  const ctx = { signal: AbortSignal.timeout(600_000), limits: { maxDecompressedBytes: 500e6, maxPixels: 100e6, maxPages: 5000 }, page: { mainContent: true, waitMs: 0 }, tools: {} as any };
  const ratios: number[] = [];
  for (const file of files) {
    const bytes = new Uint8Array(readFileSync(file));
    const name = file.split("/").pop()!;
    const ours: number[] = [];
    const theirs: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      let t = performance.now();
      await convertDocx({ bytes, filename: name, contentType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document", ext: "docx" }, ctx);
      ours.push(performance.now() - t);
      t = performance.now();
      await runProcess("pandoc", ["-f", "docx", "-t", "gfm", file], { timeoutMs: 120_000, what: "pandoc", sandbox: { readOnly: [file] } });
      theirs.push(performance.now() - t);
    }
    const ratio = median(ours) / median(theirs);
    ratios.push(ratio);
    console.log(`${name.padEnd(34)} docintel p50 ${median(ours).toFixed(1).padStart(7)} ms   pandoc p50 ${median(theirs).toFixed(1).padStart(7)} ms   ratio ${ratio.toFixed(2)}`);
  }
  const overall = median(ratios);
  console.log(`RESULT docx docintel/pandoc median ratio = ${overall.toFixed(2)} over ${files.length} files (goal < 1) ${overall < 1 ? "met" : "NOT met"}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
