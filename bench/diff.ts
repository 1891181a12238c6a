/**
 * diff: time to compare two 200-page documents (4,000 paragraphs each, with headings and tables)
 * that differ in 1 % of their paragraphs (edited words, inserted, deleted and moved paragraphs),
 * after conversion. Both documents are real DOCX files made by LibreOffice and converted once by
 * docintel's converter; then the diff as the route runs it (compare + the response's blocks) is
 * timed. Goal: under 1 s. Baseline in the same run: `diff -u` of the two markdown texts (a line
 * diff without blocks, words or moves), so the ratio shows what the structure costs.
 *
 *   bun bench/diff.ts            9 runs (BENCH_ROUNDS)
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { convertDocx } from "../src/convert/docx";
import { ProcessError, runProcess } from "../src/tools/process";
import { compareMarkdown, responseBlocks } from "../src/diff/compare";
import { renderHtml, renderMarkdown } from "../src/diff/render";

const RUNS = Math.max(3, Number(process.env.BENCH_ROUNDS) || 9);
const PAGES = 200;
const PARAGRAPHS_PER_PAGE = 20;
const GOAL_MS = 1000;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** random: a small seeded generator (mulberry32) so every run compares the same documents. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = "the supplier customer shall deliver goods services within days after notice payment invoice amount agreement party term period written consent confidential information liability damages warranty repair replace month year price fee schedule clause section annex obligation right remedy breach cure insurance audit record report".split(" ");

/** sections: PAGES sections of PARAGRAPHS_PER_PAGE paragraphs (a page each, roughly). */
function sections(rand: () => number): string[][] {
  let clause = 0;
  return Array.from({ length: PAGES }, () =>
    Array.from({ length: PARAGRAPHS_PER_PAGE }, () => {
      const sentences = 2 + Math.floor(rand() * 3);
      const text = Array.from({ length: sentences }, () => {
        const words = Array.from({ length: 8 + Math.floor(rand() * 10) }, () => WORDS[Math.floor(rand() * WORDS.length)]!);
        words[0] = words[0]!.charAt(0).toUpperCase() + words[0]!.slice(1);
        return `${words.join(" ")} ${Math.floor(rand() * 10_000).toLocaleString("en-US")}.`;
      }).join(" ");
      return `Clause ${++clause}. ${text}`;
    }),
  );
}

/**
 * edited: 1 % of the paragraphs differ: 28 edited (a number and a verb), 4 inserted, 4 deleted and
 * 4 moved to another section. Edits stay inside sections, so the headings keep their places.
 */
function edited(source: string[][], rand: () => number): string[][] {
  const out = source.map((section) => [...section]);
  const at = () => {
    const section = out[Math.floor(rand() * out.length)]!;
    return { section, index: Math.floor(rand() * section.length) };
  };
  for (let n = 0; n < 28; n++) {
    const { section, index } = at();
    section[index] = section[index]!.replace(/\d[\d,]*\./, (m) => `${Number(m.replace(/\D/g, "")) + 250}.`).replace(" shall ", " must ");
  }
  for (let n = 0; n < 4; n++) {
    const { section, index } = at();
    section.splice(index, 1);
  }
  for (let n = 0; n < 4; n++) {
    const { section, index } = at();
    section.splice(index, 0, `Inserted clause ${n}: the parties agree on a new schedule of payments and reports.`);
  }
  for (let n = 0; n < 4; n++) {
    const from = at();
    const [moved] = from.section.splice(from.index, 1);
    const to = at();
    to.section.splice(to.index, 0, moved!);
  }
  return out;
}

function html(body: string[][]): string {
  const parts: string[] = ["<html><body><h1>Framework agreement</h1>"];
  body.forEach((section, s) => {
    parts.push(`<h2>Section ${s + 1}</h2>`, ...section.map((p) => `<p>${p}</p>`));
    if (s % 10 === 9) parts.push(`<table border="1"><tr><th>Item</th><th>Qty</th><th>Price</th></tr>${Array.from({ length: 5 }, (_, r) => `<tr><td>Item ${s}-${r}</td><td>${r + 1}</td><td>${(r * 3.5).toFixed(2)}</td></tr>`).join("")}</table>`);
  });
  parts.push("</body></html>");
  return parts.join("\n");
}

const work = mkdtempSync(join(tmpdir(), "docintel-bench-diff-"));
try {
  const rand = random(20240301);
  const a = sections(rand);
  const b = edited(a, rand);
  const profile = `file://${join(work, "profile")}`;
  const markdown: string[] = [];
  for (const [name, body] of [["a", a], ["b", b]] as const) {
    writeFileSync(join(work, `${name}.html`), html(body));
    await runProcess("soffice", ["--headless", "--norestore", `-env:UserInstallation=${profile}`, "--infilter=HTML (StarWriter)", "--convert-to", "docx:MS Word 2007 XML", "--outdir", work, join(work, `${name}.html`)], { timeoutMs: 300_000, what: `make ${name}.docx`, sandbox: { dirs: [work] } });
    const bytes = new Uint8Array(readFileSync(join(work, `${name}.docx`)));
    const ctx = { signal: AbortSignal.timeout(600_000), limits: { maxDecompressedBytes: 500e6, maxPixels: 100e6, maxPages: 5000 }, page: { mainContent: true, waitMs: 0 }, tools: {} as any };
    const converted = await convertDocx({ bytes, filename: `${name}.docx`, contentType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document", ext: "docx" }, ctx);
    markdown.push(converted.markdown);
    writeFileSync(join(work, `${name}.md`), converted.markdown);
  }

  const ours: number[] = [];
  const rendering: number[] = [];
  const baseline: number[] = [];
  let summary = "";
  for (let run = 0; run < RUNS; run++) {
    let t = performance.now();
    const comparison = compareMarkdown(markdown[0]!, markdown[1]!);
    JSON.stringify(responseBlocks(comparison, "word"));
    ours.push(performance.now() - t);
    t = performance.now();
    renderMarkdown(comparison, { granularity: "word" });
    renderHtml(comparison, { granularity: "word" });
    rendering.push(performance.now() - t);
    const s = comparison.stats;
    summary = `${s.blocks_a} / ${s.blocks_b} blocks: ${s.blocks.changed} changed, ${s.blocks.added} added, ${s.blocks.removed} removed, ${s.blocks.moved} moved; similarity ${comparison.similarity}`;
    t = performance.now();
    await runProcess("diff", ["-u", join(work, "a.md"), join(work, "b.md")], { timeoutMs: 60_000, what: "diff -u", sandbox: { readOnly: [work] } }).catch((error) => {
      // diff exits 1 when the files differ; only a missing or crashing diff is an error
      if (!(error instanceof ProcessError && error.reason === "exit" && error.code === 1)) throw error;
    });
    baseline.push(performance.now() - t);
  }
  console.log(summary);
  console.log(`docintel diff p50 ${median(ours).toFixed(1)} ms (markdown + HTML rendering ${median(rendering).toFixed(1)} ms more)   diff -u p50 ${median(baseline).toFixed(1)} ms`);
  const ms = median(ours);
  console.log(`RESULT diff 2 x ${PAGES} pages (${PAGES * PARAGRAPHS_PER_PAGE} paragraphs, 1 % changed) after conversion p50 ${ms.toFixed(1)} ms (goal < ${GOAL_MS} ms) ${ms < GOAL_MS ? "met" : "NOT met"}; diff -u ${median(baseline).toFixed(1)} ms, ratio ${(ms / median(baseline)).toFixed(2)}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
