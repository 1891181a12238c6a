/**
 * isolation: what running converters in conversion processes (src/convert/isolation) costs. The
 * same documents are converted, alternately, in process (convertDocument called directly, as the
 * service did before) and through ConversionProcesses (request and document over the pipe, the
 * converter in a warm child, markdown back). Both use the same real tools. Goal: the isolated p50
 * is at most ISOLATION_BUDGET_MS above the in-process p50 for test_with_comment.docx (text only:
 * test.docx's time is mostly tesseract reading its pictures, which runs in the server either way).
 *
 *   bun bench/isolation-convert.ts        15 runs per document (BENCH_ROUNDS to change)
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config";
import { convertDocument } from "../src/convert";
import { ConversionProcesses } from "../src/convert/isolation";
import { closeConvertTools, convertLimitsOf, createConvertTools } from "../src/convert/tools";
import type { ConvertContext, ConvertInput } from "../src/convert/types";
import { WorkerPool } from "../src/pool";

const RUNS = Math.max(3, Number(process.env.BENCH_ROUNDS) || 15);
/** ISOLATION_BUDGET_MS: the extra p50 latency the isolation may add to a DOCX conversion */
const ISOLATION_BUDGET_MS = 50;
const CORPUS = "/work/shared/corpus/markitdown";
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const signed = (ms: number) => `${ms >= 0 ? "+" : ""}${ms.toFixed(1)}`;

const work = mkdtempSync(join(tmpdir(), "docintel-bench-isolation-"));
const config = loadConfig({}, { data: work });
const pool = new WorkerPool({ threads: 2, maxQueue: 16 });
const tools = createConvertTools(config, pool);
const processes = new ConversionProcesses(tools, { processes: 1, memoryBytes: config.convert.memoryBytes, maxQueue: 16, bwrapPath: config.bwrapPath });
const context = (): ConvertContext => ({ signal: AbortSignal.timeout(120_000), tools, limits: convertLimitsOf(config), page: { mainContent: true, waitMs: 0 } });

/** csvRows: a generated CSV of about `bytes` bytes (large input, small output: the cost of moving the document) */
function csvRows(bytes: number): Uint8Array {
  const rows = ["id,name,amount"];
  for (let i = 0, size = 0; size < bytes; i++) {
    rows.push(`${i},customer ${i},${(i * 3.7).toFixed(2)}`);
    size += rows.at(-1)!.length + 1;
  }
  return new TextEncoder().encode(rows.join("\n"));
}

const documents: ConvertInput[] = [
  { bytes: new Uint8Array(readFileSync(join(CORPUS, "test.docx"))), filename: "test.docx", contentType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document", ext: "docx" },
  { bytes: new Uint8Array(readFileSync(join(CORPUS, "test_with_comment.docx"))), filename: "test_with_comment.docx", contentType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document", ext: "docx" },
  { bytes: csvRows(8_000_000), filename: "orders_8mb.csv", contentType: "text/csv", ext: "csv" },
];

try {
  const HEADLINE = "test_with_comment.docx";
  let docxOverhead = 0;
  let docxRatio = 0;
  for (const input of documents) {
    const direct: number[] = [];
    const isolated: number[] = [];
    const first = await convertDocument(input, context());
    const second = await processes.convert(input, context()); // also warms the process
    if (first.markdown !== second.markdown) throw new Error(`${input.filename}: the isolated markdown differs from the in-process one`);
    for (let i = 0; i < RUNS; i++) {
      let t = performance.now();
      await convertDocument(input, context());
      direct.push(performance.now() - t);
      t = performance.now();
      await processes.convert(input, context());
      isolated.push(performance.now() - t);
    }
    const ratio = median(isolated) / median(direct);
    const overhead = median(isolated) - median(direct);
    if (input.filename === HEADLINE) [docxOverhead, docxRatio] = [overhead, ratio];
    console.log(
      `${input.filename.padEnd(24)} ${(input.bytes.length / 1e6).toFixed(2).padStart(6)} MB   in process p50 ${median(direct).toFixed(1).padStart(7)} ms   isolated p50 ${median(isolated).toFixed(1).padStart(7)} ms   ratio ${ratio.toFixed(2)}   ${signed(overhead)} ms`,
    );
  }
  const met = docxOverhead <= ISOLATION_BUDGET_MS;
  console.log(`RESULT isolation-convert ${HEADLINE} isolated/in-process p50 ratio = ${docxRatio.toFixed(2)}, ${signed(docxOverhead)} ms (goal <= +${ISOLATION_BUDGET_MS} ms) ${met ? "met" : "NOT met"}`);
} finally {
  await processes.close();
  await closeConvertTools(tools);
  await pool.close();
  rmSync(work, { recursive: true, force: true });
}
