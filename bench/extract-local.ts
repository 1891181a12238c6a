/**
 * extract-local: field accuracy of the local extraction engine (no AI provider) on the labelled
 * business documents in test/fixtures/extract (invoices, receipts, purchase orders and forms as PDF,
 * DOCX, HTML, markdown, text and 150 dpi scans; made by test/fixtures/extract/make.ts). Each file is
 * converted by the real converter (`docintel md`), then extractLocal runs with the document's schema.
 *
 * Accuracy: fields whose value equals the label after normalisation (strings: case, spacing and
 * punctuation; numbers: within 0.005; arrays of objects: every row and member) / all labelled fields.
 * Confident-but-absent: values returned with confidence >= 0.8 that do not occur in the markdown.
 * Goals: accuracy >= 0.9, confident-but-absent = 0.
 *
 *   bun bench/extract-local.ts [--verbose]
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { extractLocal, type LocalFieldResult } from "../src/extract/local";
import { parseTypedSchema } from "../src/schema/typed";
import { allDates, allNumbers, parseDate } from "../src/extract/local/values";

const DIR = join(import.meta.dir, "../test/fixtures/extract");
const CLI = join(import.meta.dir, "../bin/docintel");
const verbose = process.argv.includes("--verbose");

interface Labels {
  schemas: Record<string, unknown>;
  documents: { file: string; schema: string; expected: Record<string, unknown> }[];
}

/** markdownOf converts a file with the real converter, as `docintel md` does for a user. */
async function markdownOf(file: string): Promise<string> {
  const proc = Bun.spawn([process.execPath, CLI, "md", join(DIR, file)], { stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`docintel md ${file} exited ${code}: ${err}`);
  return out;
}

const normText = (s: string) => s.toLowerCase().replace(/[^a-z0-9@]+/g, " ").trim();

/**
 * sameDate: dates come back as the document writes them; one counts when one of its readings (day
 * first or month first for "02/12/2017") is the expected calendar date.
 */
function sameDate(got: string, want: string): boolean {
  const date = parseDate(got);
  if (!date || date.text.length < got.trim().length - 3) return false;
  if (date.iso === want) return true;
  const [y, m, d] = date.iso.split("-");
  return date.ambiguous && `${y}-${d}-${m}` === want;
}

/** same compares an extracted value with the label after normalisation. */
function same(got: unknown, want: unknown): boolean {
  if (want === null || want === undefined) return got === null || got === undefined;
  if (typeof want === "string" && /^\d{4}-\d{2}-\d{2}$/.test(want) && typeof got === "string" && got !== want) return sameDate(got, want);
  if (typeof want === "number") return typeof got === "number" && Math.abs(got - want) < 0.005;
  if (typeof want === "string") return typeof got === "string" && normText(got) === normText(want);
  if (typeof want === "boolean") return got === want;
  if (Array.isArray(want)) return Array.isArray(got) && got.length === want.length && want.every((w, i) => same(got[i], w));
  if (typeof want === "object") {
    if (typeof got !== "object" || got === null) return false;
    return Object.entries(want as Record<string, unknown>).every(([k, w]) => same((got as Record<string, unknown>)[k], w));
  }
  return false;
}

/** occurs says whether a value is written in the markdown (numbers and dates in any format). */
function occurs(value: unknown, markdown: string): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === "boolean") return true;
  if (typeof value === "number") return allNumbers(markdown).some((n) => Math.abs(Math.abs(n.value) - Math.abs(value)) < 0.005);
  if (typeof value === "string") {
    if (allDates(markdown).some((d) => d.iso === value || d.text === value)) return true;
    return normText(markdown).includes(normText(value));
  }
  if (Array.isArray(value)) return value.every((v) => occurs(v, markdown));
  if (typeof value === "object") return Object.values(value as object).every((v) => occurs(v, markdown));
  return false;
}

const labels = JSON.parse(readFileSync(join(DIR, "labels.json"), "utf8")) as Labels;
let fields = 0;
let correct = 0;
let confidentAbsent = 0;
let confidentWrong = 0;
let confidentTotal = 0;
const byFormat: Record<string, [number, number]> = {};
const started = performance.now();
let extractMs = 0;

for (const doc of labels.documents) {
  const markdown = await markdownOf(doc.file);
  const schema = parseTypedSchema(labels.schemas[doc.schema]);
  const t0 = performance.now();
  const result: Record<string, LocalFieldResult> = extractLocal(markdown, schema);
  extractMs += performance.now() - t0;
  const ext = doc.file.split(".").pop()!;
  byFormat[ext] ??= [0, 0];
  const misses: string[] = [];
  for (const [field, want] of Object.entries(doc.expected)) {
    const got = result[field]!;
    fields++;
    byFormat[ext][1]++;
    const ok = same(got.value, want);
    if (ok) {
      correct++;
      byFormat[ext][0]++;
    } else misses.push(`${field}: got ${JSON.stringify(got.value)} (${got.confidence}) want ${JSON.stringify(want)}`);
    if (got.found && got.confidence >= 0.8) {
      confidentTotal++;
      if (!ok) confidentWrong++;
      if (!occurs(got.value, markdown)) {
        confidentAbsent++;
        misses.push(`CONFIDENT BUT ABSENT ${field}: ${JSON.stringify(got.value)}`);
      }
    }
  }
  console.log(`${doc.file.padEnd(28)} ${Object.keys(doc.expected).length - misses.filter((m) => !m.startsWith("CONFIDENT")).length}/${Object.keys(doc.expected).length}`);
  if (verbose || misses.length) for (const m of misses) console.log(`    ${m}`);
}

const accuracy = correct / fields;
console.log("");
for (const [ext, [ok, n]] of Object.entries(byFormat)) console.log(`  ${ext.padEnd(5)} ${ok}/${n} = ${(ok / n).toFixed(3)}`);
console.log(`documents ${labels.documents.length}, fields ${fields}, correct ${correct}`);
console.log(`values with confidence >= 0.8: ${confidentTotal}, of which wrong ${confidentWrong} (precision ${((confidentTotal - confidentWrong) / Math.max(1, confidentTotal)).toFixed(3)})`);
console.log(`extractLocal time: ${(extractMs / labels.documents.length).toFixed(2)} ms per document; total with conversion ${((performance.now() - started) / 1000).toFixed(1)} s`);
console.log(`RESULT extract-local accuracy = ${accuracy.toFixed(3)} (goal >= 0.9), confident-but-absent = ${confidentAbsent} (goal 0)`);
