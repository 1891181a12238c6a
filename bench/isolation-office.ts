/**
 * isolation-office: what tool isolation (src/tools/sandbox.ts, bubblewrap) costs, measured in one
 * script, isolated against unisolated on the same inputs:
 * - DOCX -> PDF through a warm LibreOffice instance (one instance per mode, started and warmed by
 *   one conversion before timing): the cost per document once the sandbox exists;
 * - the same conversion's first run, which starts the instance (soffice + bridge in their sandboxes);
 * - one PDF page rendered by `pdftoppm` (a new process, so a new sandbox, per run): the fixed cost
 *   bwrap adds to every short-lived tool run.
 * Goal: isolated/unisolated p50 of the warm DOCX -> PDF <= 1.20. The rounds alternate the two modes
 * so that load from other work on the machine falls on both.
 *
 *   bun bench/isolation-office.ts          7 rounds
 *   BENCH_ROUNDS=15 bun bench/isolation-office.ts
 *
 * The last line, `RESULT ...`, is what bench/run.ts collects.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LibreOffice } from "../src/tools/libreoffice";
import { renderPdfPage } from "../src/tools/poppler";
import { setIsolationForBench } from "../src/tools/sandbox";
import { makeOfficeFixtures } from "../test/helpers/officeFixtures";

const GOAL = 1.2;
const ROUNDS = Math.max(1, Number.parseInt(process.env.BENCH_ROUNDS ?? "7", 10) || 7);

const fixtures = await makeOfficeFixtures(join(tmpdir(), "docintel-office-fixtures-v1"));
const docx = new Uint8Array(await readFile(fixtures.docx!));
const work = await mkdtemp(join(tmpdir(), "docintel-bench-isolation-"));
const MODES = ["isolated", "unisolated"] as const;
type Mode = (typeof MODES)[number];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function describe(label: string, times: number[]): string {
  return `${label}: p50 ${median(times).toFixed(1)} ms, min ${Math.min(...times).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms`;
}

/** inMode switches isolation for this thread; a LibreOffice supervisor keeps the mode its instance started in */
function inMode(mode: Mode): void {
  const status = setIsolationForBench(mode === "isolated");
  if (mode === "isolated" && !status.enabled) throw new Error(`isolation is not available here: ${status.detail}`);
}

async function toPdf(office: LibreOffice): Promise<{ ms: number; pdf: Uint8Array }> {
  const started = performance.now();
  const pdf = await office.convert(docx, "docx", "pdf", AbortSignal.timeout(120_000));
  if (new TextDecoder().decode(pdf.subarray(0, 4)) !== "%PDF") throw new Error("the conversion produced no PDF");
  return { ms: performance.now() - started, pdf };
}

const offices = new Map<Mode, LibreOffice>();
const firstRun = new Map<Mode, number>();
const warm = new Map<Mode, number[]>(MODES.map((m) => [m, []]));
const pages = new Map<Mode, number[]>(MODES.map((m) => [m, []]));
let samplePdf: Uint8Array | null = null;

try {
  for (const mode of MODES) {
    inMode(mode);
    const office = new LibreOffice({ binary: "soffice", python: "/usr/bin/python3", instances: 1, timeoutMs: 120_000, jobsPerInstance: 0, workDir: join(work, mode) });
    offices.set(mode, office);
    const first = await toPdf(office);
    firstRun.set(mode, first.ms);
    samplePdf = first.pdf;
    if (office.stats().coldFallbacks > 0) throw new Error("the warm path fell back to cold runs: is python3-uno installed?");
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const mode of round % 2 ? [...MODES].reverse() : MODES) {
      inMode(mode);
      warm.get(mode)!.push((await toPdf(offices.get(mode)!)).ms);
      const started = performance.now();
      await renderPdfPage(samplePdf!, { page: 1, dpi: 72, gray: false, timeoutMs: 60_000, maxBytes: 0 }, AbortSignal.timeout(60_000));
      pages.get(mode)!.push(performance.now() - started);
    }
  }
  for (const mode of MODES) {
    console.log(`${mode}: first DOCX->PDF (starts the instance) ${firstRun.get(mode)!.toFixed(0)} ms`);
    console.log(`  ${describe("warm DOCX->PDF", warm.get(mode)!)}`);
    console.log(`  ${describe("pdftoppm, one page", pages.get(mode)!)}`);
  }
  const [isoWarm, plainWarm] = MODES.map((m) => median(warm.get(m)!));
  const [isoPage, plainPage] = MODES.map((m) => median(pages.get(m)!));
  const ratio = isoWarm! / plainWarm!;
  const verdict = ratio <= GOAL ? "MET" : "MISSED";
  console.log(
    `RESULT isolation-office: isolated/unisolated warm DOCX->PDF p50 = ${ratio.toFixed(2)} (${isoWarm!.toFixed(0)} / ${plainWarm!.toFixed(0)} ms, ${ROUNDS} runs each); ` +
      `pdftoppm page p50 ${isoPage!.toFixed(1)} / ${plainPage!.toFixed(1)} ms (+${(isoPage! - plainPage!).toFixed(1)} ms per process); goal <= ${GOAL} ${verdict}`,
  );
} finally {
  for (const office of offices.values()) await office.close();
  await rm(work, { recursive: true, force: true });
}
