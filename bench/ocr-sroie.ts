/**
 * bench/ocr-sroie.ts: OCR word recall on real receipt scans (100 receipts of ICDAR 2019 SROIE,
 * photocopies and thermal paper at 70-150 dpi), docintel's image OCR path (convertImage: measure the
 * text, scale, choose the segmentation, tesseract) against plain `tesseract IMG stdout` on the same
 * images in the same run, one image at a time, alternating per image so both meet the same load.
 * Both run tesseract with OMP_THREAD_LIMIT=1, as the service does.
 *
 * Recall: each receipt's line transcripts (box/NNN.csv: 8 coordinates, then the text) are cut into
 * uppercase tokens of letters and digits (keeping inner `.,:/-`); a transcript token counts when
 * the OCR output holds it, each output token used at most once (multiset intersection); summed
 * over all receipts. Only the OCR text of docintel's markdown is scored (not its metadata block).
 *
 * Goals: docintel recall >= 0.90 and >= plain + 0.05, at <= 1.5x plain's median wall time per image.
 *
 * The images are not in the repository (MIT licence, see the corpus's LICENSE): they are read from
 * ../shared/corpus/sroie relative to the repository, or BENCH_SROIE_DIR. BENCH_SROIE_LIMIT reads
 * only the first N receipts (a quick look; the goal is judged on all 100); BENCH_SROIE_SPLIT=even or
 * odd only the even- or odd-numbered ones (the tuning half and the held-out half). BENCH_OCR_MISSES=1 also
 * sorts each missed transcript word into a kind (see classifyMisses) and prints the shares for both.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { convertImage } from "../src/convert/image";
import type { ConvertContext } from "../src/convert/types";
import { runProcess } from "../src/tools/process";
import { Tesseract } from "../src/tools/tesseract";

const ROOT = resolve(import.meta.dir, "..");
const DIR = process.env.BENCH_SROIE_DIR ?? resolve(ROOT, "../shared/corpus/sroie");
const LIMIT = Number(process.env.BENCH_SROIE_LIMIT ?? 0);
const MISSES = process.env.BENCH_OCR_MISSES === "1";
/** SPLIT: "even" or "odd" reads only the even- or odd-numbered receipts (the tuning half, the held-out half) */
const SPLIT = process.env.BENCH_SROIE_SPLIT;
const GOAL_RECALL = 0.9;
const GOAL_GAIN = 0.05;
const GOAL_TIME_RATIO = 1.5;

/** tokens cuts text into uppercase tokens of letters and digits, keeping inner `.,:/-`. */
function tokens(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.toUpperCase().split(/[^\p{L}\p{N}.,:/-]+/u)) {
    const token = raw.replace(/^[.,:/-]+|[.,:/-]+$/g, "");
    if (token) out.push(token);
  }
  return out;
}

/** transcriptLines reads the tokens of one receipt's line transcripts, line by line. */
function transcriptLines(csv: string): string[][] {
  return csv.split(/\r?\n/).flatMap((line) => {
    const cols = line.split(",");
    return cols.length > 8 ? [tokens(cols.slice(8).join(","))] : [];
  });
}

/** matchedCount counts the transcript tokens found in the OCR output, each output token used once. */
function matchedCount(expected: string[], ocr: string): number {
  const bag = new Map<string, number>();
  for (const t of tokens(ocr)) bag.set(t, (bag.get(t) ?? 0) + 1);
  let found = 0;
  for (const t of expected) {
    const left = bag.get(t) ?? 0;
    if (left > 0) {
      found++;
      bag.set(t, left - 1);
    }
  }
  return found;
}

/** MissKind is why a transcript word was not found in the OCR output. */
type MissKind =
  | "line lost, 1-2 words"
  | "line lost, 3+ words"
  | "misread letters"
  | "misread digits"
  | "short token"
  | "punctuation"
  | "joined"
  | "split"
  | "not seen";

/** editDistance is the Levenshtein distance of two tokens. */
function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row.push(Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    prev = row;
  }
  return prev[b.length]!;
}

/**
 * classifyMisses sorts the transcript words not found (per transcript line) against the output
 * tokens left unmatched: a whole line missing with no near token = line lost (faint print, edges;
 * counted apart for lines of 1-2 words, mostly right-hand amounts and labels); written together with
 * its neighbour on the transcript line (`1X` for `1 X`) = joined; same characters but punctuation
 * (`0,00` for `0.00`) = punctuation; two adjacent output tokens that make it = split; a token of 1-2
 * characters with a near left token = short token (any 1-2 character leftover is within one edit,
 * so misread and lost cannot be told apart); a left token within a third of its length in edits =
 * misread (digits or letters); else not seen.
 */
function classifyMisses(lines: string[][], ocr: string, counts: Map<MissKind, number>): void {
  const outTokens = tokens(ocr);
  const bag = new Map<string, number>();
  for (const t of outTokens) bag.set(t, (bag.get(t) ?? 0) + 1);
  const missed: Array<[number, number, string]> = [];
  lines.forEach((line, index) => {
    line.forEach((t, at) => {
      const left = bag.get(t) ?? 0;
      if (left > 0) bag.set(t, left - 1);
      else missed.push([index, at, t]);
    });
  });
  const left = [...bag].flatMap(([t, n]) => Array<string>(n).fill(t));
  const leftSet = new Set(left);
  const bare = (t: string) => t.replace(/[.,:/-]/g, "");
  const adjacent = new Set<string>();
  for (let i = 0; i + 1 < outTokens.length; i++) if (leftSet.has(outTokens[i]!) && leftSet.has(outTokens[i + 1]!)) adjacent.add(bare(outTokens[i]! + outTokens[i + 1]!));
  const missedPerLine = new Map<number, number>();
  for (const [index] of missed) missedPerLine.set(index, (missedPerLine.get(index) ?? 0) + 1);
  for (const [index, at, t] of missed) {
    const line = lines[index]!;
    const near = left.some((o) => editDistance(t, o) <= Math.max(1, Math.floor(t.length / 3)));
    const joinedWith = (other: string | undefined, before: boolean) => other !== undefined && leftSet.has(before ? other + t : t + other);
    let kind: MissKind;
    if (missedPerLine.get(index) === line.length && !near) kind = line.length <= 2 ? "line lost, 1-2 words" : "line lost, 3+ words";
    else if (joinedWith(line[at - 1], true) || joinedWith(line[at + 1], false)) kind = "joined";
    else if (left.some((o) => bare(o) === bare(t))) kind = "punctuation";
    else if (t.length >= 2 && adjacent.has(bare(t))) kind = "split";
    else if (near) kind = t.length <= 2 ? "short token" : /\d/.test(t) ? "misread digits" : "misread letters";
    else kind = "not seen";
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** pearson is the correlation of two series (0 when either is constant). */
function pearson(xs: number[], ys: number[]): number {
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < xs.length; i++) {
    sxy += (xs[i]! - mx) * (ys[i]! - my);
    sxx += (xs[i]! - mx) ** 2;
    syy += (ys[i]! - my) ** 2;
  }
  return sxx && syy ? sxy / Math.sqrt(sxx * syy) : 0;
}

/** ocrTextOf keeps the OCR text of convertImage's markdown: after the title, before the metadata block. */
function ocrTextOf(markdown: string): string {
  const body = markdown.replace(/^# .*\n/, "");
  const end = body.indexOf("## Image metadata");
  return end >= 0 ? body.slice(0, end) : body;
}

if (!existsSync(join(DIR, "img"))) {
  console.log(`RESULT ocr-sroie: not run, no receipts at BENCH_SROIE_DIR='${DIR}' (img/, box/)`);
  process.exit(0);
}

const ids = readdirSync(join(DIR, "img"))
  .filter((f) => f.endsWith(".jpg") && existsSync(join(DIR, "box", f.replace(/\.jpg$/, ".csv"))))
  .map((f) => f.replace(/\.jpg$/, ""))
  .filter((id) => SPLIT !== "even" && SPLIT !== "odd" ? true : Number(id) % 2 === (SPLIT === "odd" ? 1 : 0))
  .sort()
  .slice(0, LIMIT > 0 ? LIMIT : undefined);

/** ocr: the engine the service uses (warm OCR processes, held to the default --convert-memory-mb); closed at the end, or its processes keep the bench alive */
const ocr = new Tesseract({ concurrency: 1, timeoutMs: 120_000, memoryBytes: 768 * 1024 * 1024 });
const ctx: ConvertContext = {
  signal: AbortSignal.timeout(3_600_000),
  limits: { maxDecompressedBytes: 200e6, maxPixels: 100e6, maxPages: 5000 },
  page: { mainContent: true, waitMs: 0 },
  tools: { ocr } as unknown as ConvertContext["tools"],
};

let expectedTotal = 0;
let foundOurs = 0;
let foundPlain = 0;
const msOurs: number[] = [];
const msPlain: number[] = [];
const quality: number[] = [];
const recallOurs: number[] = [];
const missesOurs = new Map<MissKind, number>();
const missesPlain = new Map<MissKind, number>();
for (const id of ids) {
  const path = join(DIR, "img", `${id}.jpg`);
  const lines = transcriptLines(readFileSync(join(DIR, "box", `${id}.csv`), "utf8"));
  const expected = lines.flat();
  const bytes = new Uint8Array(readFileSync(path));

  let started = performance.now();
  // the image goes in on stdin: the tool sandbox shows tesseract no host directory
  const plain = await runProcess("tesseract", ["stdin", "stdout"], { stdin: bytes, timeoutMs: 120_000, env: { OMP_THREAD_LIMIT: "1" }, what: "plain tesseract" });
  msPlain.push(performance.now() - started);

  started = performance.now();
  const ours = await convertImage({ bytes, filename: `${id}.jpg`, contentType: "image/jpeg", ext: "jpg" }, ctx);
  msOurs.push(performance.now() - started);

  const plainFound = matchedCount(expected, plain.stdout.toString("utf8"));
  const oursFound = matchedCount(expected, ocrTextOf(ours.markdown));
  if (MISSES) {
    classifyMisses(lines, plain.stdout.toString("utf8"), missesPlain);
    classifyMisses(lines, ocrTextOf(ours.markdown), missesOurs);
  }
  expectedTotal += expected.length;
  foundPlain += plainFound;
  foundOurs += oursFound;
  quality.push(ours.pages?.[0]?.ocrQuality ?? 0);
  recallOurs.push(expected.length ? oursFound / expected.length : 0);
  console.log(
    `${id}: recall docintel ${(oursFound / expected.length).toFixed(3)} plain ${(plainFound / expected.length).toFixed(3)}  ` +
      `ms ${msOurs.at(-1)!.toFixed(0)} / ${msPlain.at(-1)!.toFixed(0)}  ocr_quality ${quality.at(-1)!.toFixed(3)}`,
  );
}

const ours = foundOurs / expectedTotal;
const plain = foundPlain / expectedTotal;
const ratio = median(msOurs) / median(msPlain);
const met = ours >= GOAL_RECALL && ours - plain >= GOAL_GAIN && ratio <= GOAL_TIME_RATIO;
console.log(`\n${ids.length} receipts, ${expectedTotal} transcript words`);
console.log(`word recall: docintel ${ours.toFixed(3)}, plain tesseract ${plain.toFixed(3)}, difference ${(ours - plain >= 0 ? "+" : "") + (ours - plain).toFixed(3)}`);
console.log(`wall time per image (median): docintel ${median(msOurs).toFixed(0)} ms, plain ${median(msPlain).toFixed(0)} ms, ratio ${ratio.toFixed(2)}`);
if (MISSES) {
  console.log("missed transcript words by kind (share of all transcript words): docintel / plain");
  const kinds = new Set([...missesOurs.keys(), ...missesPlain.keys()]);
  for (const kind of [...kinds].sort((a, b) => (missesOurs.get(b) ?? 0) - (missesOurs.get(a) ?? 0))) {
    console.log(`  ${kind.padEnd(16)} ${((missesOurs.get(kind) ?? 0) / expectedTotal).toFixed(3)} / ${((missesPlain.get(kind) ?? 0) / expectedTotal).toFixed(3)}`);
  }
}
console.log(`ocr_quality vs recall per receipt: Pearson r = ${pearson(quality, recallOurs).toFixed(2)}`);
console.log(
  `RESULT ocr-sroie word recall docintel ${ours.toFixed(3)} vs plain tesseract ${plain.toFixed(3)} (${(ours - plain >= 0 ? "+" : "") + (ours - plain).toFixed(3)}), ` +
    `time ratio ${ratio.toFixed(2)} on ${ids.length} receipts (goal >= ${GOAL_RECALL}, >= plain + ${GOAL_GAIN}, <= ${GOAL_TIME_RATIO}x) ${met ? "met" : "NOT met"}`,
);
ocr.close();
