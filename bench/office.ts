/**
 * office: DOCX -> PDF through a warm LibreOffice instance (src/tools/libreoffice, one instance,
 * started and warmed by one conversion before timing) against a cold `soffice --convert-to pdf`
 * with a fresh profile per run, the way a naive service would do it, on the same small DOCX (the
 * "Quarterly Report" office fixture). Goal: warm p50 / cold p50 <= 0.30.
 *
 *   bun bench/office.ts                 7 runs of each
 *   BENCH_ROUNDS=3 bun bench/office.ts
 *
 * The last line, `RESULT ...`, is what bench/run.ts collects.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LibreOffice } from "../src/tools/libreoffice";
import { fileUrl } from "../src/tools/libreoffice/instance";
import { runProcess } from "../src/tools/process";
import { makeOfficeFixtures } from "../test/helpers/officeFixtures";

const GOAL = 0.3;
const ROUNDS = Math.max(1, Number.parseInt(process.env.BENCH_ROUNDS ?? "7", 10) || 7);

const fixtures = await makeOfficeFixtures(join(tmpdir(), "docintel-office-fixtures-v1"));
const docx = new Uint8Array(await readFile(fixtures.docx!));
const work = await mkdtemp(join(tmpdir(), "docintel-bench-office-"));

async function warmRuns(): Promise<number[]> {
  const office = new LibreOffice({ binary: "soffice", python: "/usr/bin/python3", instances: 1, timeoutMs: 60_000, jobsPerInstance: 0, workDir: join(work, "warm") });
  try {
    await office.convert(docx, "docx", "pdf", AbortSignal.timeout(120_000)); // start + first load
    const times: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const started = performance.now();
      const pdf = await office.convert(docx, "docx", "pdf", AbortSignal.timeout(60_000));
      times.push(performance.now() - started);
      if (new TextDecoder().decode(pdf.subarray(0, 4)) !== "%PDF") throw new Error("warm run produced no PDF");
    }
    if (office.stats().coldFallbacks > 0) throw new Error("the warm path fell back to cold runs: is python3-uno installed?");
    return times;
  } finally {
    await office.close();
  }
}

async function coldRuns(): Promise<number[]> {
  const times: number[] = [];
  const input = join(work, "report.docx");
  await Bun.write(input, docx);
  for (let i = 0; i < ROUNDS; i++) {
    const profile = join(work, `cold-profile-${i}`);
    const outDir = join(work, `cold-out-${i}`);
    const started = performance.now();
    await runProcess("soffice", ["--headless", "--norestore", `-env:UserInstallation=${fileUrl(profile)}`, "--convert-to", "pdf", "--outdir", outDir, input], {
      timeoutMs: 120_000,
      what: "cold DOCX to PDF",
      sandbox: { dirs: [work] },
    });
    times.push(performance.now() - started);
    const pdf = await readFile(join(outDir, "report.pdf"));
    if (pdf.subarray(0, 4).toString() !== "%PDF") throw new Error("cold run produced no PDF");
    await rm(profile, { recursive: true, force: true });
  }
  return times;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function describe(label: string, times: number[]): string {
  return `${label}: p50 ${median(times).toFixed(0)} ms, min ${Math.min(...times).toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms (${times.map((t) => t.toFixed(0)).join(", ")})`;
}

try {
  const warm = await warmRuns();
  const cold = await coldRuns();
  console.log(describe("warm", warm));
  console.log(describe("cold", cold));
  const ratio = median(warm) / median(cold);
  const verdict = ratio <= GOAL ? "MET" : "MISSED";
  console.log(`office->pdf warm p50 ${median(warm).toFixed(0)} ms, cold p50 ${median(cold).toFixed(0)} ms, ratio ${ratio.toFixed(3)} (goal <= ${GOAL.toFixed(2)})`);
  console.log(`RESULT office->pdf: warm/cold p50 = ${ratio.toFixed(3)} (${median(warm).toFixed(0)} / ${median(cold).toFixed(0)} ms, ${ROUNDS} runs each) goal <= ${GOAL} ${verdict}`);
} finally {
  await rm(work, { recursive: true, force: true });
}
