/**
 * boilerplate: main-content extraction quality on real web pages with public labels, docintel's
 * HTML -> markdown (mainContent) against Readability.js (the @mozilla/readability docintel builds
 * on, run alone on the same parsed pages) and against the whole page, all in this script.
 *
 * The labels are trafilatura's evaluation set (github.com/adbar/trafilatura, tests/evaldata.py and
 * the pages in tests/cache/): per page, snippets that the main text must contain ("with") and
 * snippets of boilerplate it must not ("without"). Scoring follows trafilatura's comparison script:
 * a "with" snippet found is a true positive, missed a false negative; a "without" snippet found is a
 * false positive, absent a true negative; precision, recall and F1 over all snippets.
 *
 * The pages belong to their publishers and are not in this repository. Put them in a directory as
 * pages/NAME.html plus labels.json ([{file, url, with[], without[]}]) and point the script at it:
 *
 *   BENCH_BOILERPLATE_DIR=/path/to/trafilatura-eval bun bench/boilerplate.ts
 *
 * BENCH_SAMPLE=N[:K] scores a fixed subset (every Nth page from the Kth); BENCH_SHOW_MISSES=1 lists
 * the pages where docintel missed a main snippet or kept a boilerplate one; BENCH_DUMP=DIR writes
 * docintel's markdown of each page to DIR/NAME.md (to compare two trees' outputs byte for byte).
 *
 * Without the directory the script says so in its RESULT line and exits 0.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Readability } from "@mozilla/readability";
import { htmlToMarkdown, parseDocument, sniffCharset } from "../src/convert/html";
import { decodeText } from "../src/convert/charset";

interface Labelled {
  file: string;
  url: string;
  with: string[];
  without: string[];
}

interface Score {
  tp: number;
  fn: number;
  fp: number;
  tn: number;
}

/**
 * Two layouts are read: BENCH_BOILERPLATE_DIR with labels.json ([{file, url, with[], without[]}]),
 * or trafilatura's whole evaluation set as shipped in web-eval.tar.gz (BENCH_WEB_EVAL_DIR, default
 * /tmp/web-eval): evaldata.json ({url: {file, with[], without[]}}) and pages/.
 */
const LABELS_DIR = process.env.BENCH_BOILERPLATE_DIR ?? "";
const WEB_EVAL_DIR = process.env.BENCH_WEB_EVAL_DIR ?? "/tmp/web-eval";
const GOAL_F1 = 0.93;

function loadPages(): { dir: string; pages: Labelled[] } | null {
  if (LABELS_DIR && existsSync(join(LABELS_DIR, "labels.json"))) return { dir: LABELS_DIR, pages: JSON.parse(readFileSync(join(LABELS_DIR, "labels.json"), "utf8")) };
  if (existsSync(join(WEB_EVAL_DIR, "evaldata.json"))) {
    const data = JSON.parse(readFileSync(join(WEB_EVAL_DIR, "evaldata.json"), "utf8")) as Record<string, { file: string; with?: string[]; without?: string[] }>;
    const pages = Object.entries(data)
      .map(([url, d]) => ({ url, file: d.file, with: d.with ?? [], without: d.without ?? [] }))
      .filter((p) => existsSync(join(WEB_EVAL_DIR, "pages", p.file)));
    return { dir: WEB_EVAL_DIR, pages };
  }
  return null;
}

const loaded = loadPages();
if (!loaded) {
  console.log(`RESULT boilerplate: not run, no labelled pages at BENCH_BOILERPLATE_DIR='${LABELS_DIR}' or BENCH_WEB_EVAL_DIR='${WEB_EVAL_DIR}' (see bench/README.md for the data set)`);
  process.exit(0);
}
const DIR = loaded.dir;
/**
 * BENCH_SAMPLE=N[:K] scores every Nth page starting at the Kth (K from 0, default 0), a fixed subset
 * for quick iteration; BENCH_SAMPLE=2:1 is then the held-out half of BENCH_SAMPLE=2:0. Unset: all pages.
 */
const SAMPLE = /^(\d+)(?::(\d+))?$/.exec(process.env.BENCH_SAMPLE ?? "");
/**
 * BENCH_SPLIT=tune|held-out keeps the pages whose file name hashes (FNV-1a, 32 bits) even, or odd:
 * rules are tuned on one half and reported on the other, so they fit kinds of pages, not files.
 * Unset: all pages, with both halves' F1 printed as well.
 */
const SPLIT = process.env.BENCH_SPLIT ?? "";
/** BENCH_WORST=N prints docintel's N worst pages by F1 with what was missed and what was kept. */
const WORST = Number(process.env.BENCH_WORST ?? 0);
/** BENCH_DUMP=DIR writes docintel's markdown of each page to DIR/NAME.md (NAME: the page's file name); unset: nothing written. */
const DUMP = process.env.BENCH_DUMP ?? "";
if (DUMP) mkdirSync(DUMP, { recursive: true });

/** fnv1a: the 32-bit FNV-1a hash of a string's UTF-16 code units. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}
const half = (page: Labelled): "tune" | "held-out" => (fnv1a(page.file) % 2 === 0 ? "tune" : "held-out");
const sampled: Labelled[] = SAMPLE ? loaded.pages.filter((_, i) => i % Number(SAMPLE[1]) === Number(SAMPLE[2] ?? 0)) : loaded.pages;
const pages: Labelled[] = SPLIT ? sampled.filter((p) => half(p) === SPLIT) : sampled;

/** normalize makes text and snippets comparable: entities and markdown syntax gone, whitespace single. */
function normalize(text: string): string {
  return text
    .replace(/<\/?su[bp]>/g, "") // superscripts and subscripts are the only tags: markup, as on the page ("10<sup>15</sup>" is "1015" in its text)
    .replace(/^\[\^[^\]\s]+\]: /gm, "") // a footnote at the end: its text
    .replace(/\[\^([^\]\s]+)\]/g, "$1") // a footnote reference: its mark, as the page printed it
    .replace(/!\[[^\]]*\]\([^)]*\)/g, " ") // images: their alt text is not text on the page (trafilatura outputs none, Readability's textContent has none)
    .replace(/\[([^\]]*)\]\((?:[^()]|\([^)]*\))*\)/g, "$1") // links keep their text
    .replace(/(?<!\\)((?:\\\\)*)\\$/gm, "$1") // a hard break's mark (`\` at a line's end, for a <br>): no text of the page
    .replace(/\\([\\`*_{}[\]()#+\-.!|>~<])/g, "$1") // markdown escapes
    .replace(/(\*\*|__|~~|`)/g, "")
    // Single-star emphasis ("dem *NDR* vor") is markup too: a star that opens after a space or an
    // opening mark, or closes before one, goes; a star inside a word ("Kund*innen") stays. Snippets
    // pass through the same function, so a star that is text is dropped on both sides alike.
    .replace(/(^|[\s([{"'„“«‚])\*(?=\S)/g, "$1")
    .replace(/(\S)\*(?=$|[\s)\]}.,;:!?"'“”»\-–—/])/g, "$1")
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+[.)])\s+/gm, "")
    .replace(/\|/g, " ")
    .replace(/\u00ad/g, "") // soft hyphens are invisible: some labels carry them, markdown drops them
    .replace(/[\u00a0\s]+/g, " ")
    .trim();
}

function score(text: string, page: Labelled, into: Score): void {
  const haystack = normalize(text);
  for (const snippet of page.with) (haystack.includes(normalize(snippet)) ? into.tp++ : into.fn++);
  for (const snippet of page.without) (haystack.includes(normalize(snippet)) ? into.fp++ : into.tn++);
}

function metrics(s: Score): { precision: number; recall: number; f1: number; accuracy: number } {
  const precision = s.tp / Math.max(1, s.tp + s.fp);
  const recall = s.tp / Math.max(1, s.tp + s.fn);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1, accuracy: (s.tp + s.tn) / Math.max(1, s.tp + s.tn + s.fp + s.fn) };
}

const extractors: Record<string, (html: string, url: string) => string> = {
  docintel: (html, url) => htmlToMarkdown(html, { mainContent: true, baseUrl: url }).markdown,
  "Readability.js": (html) => {
    const article = new Readability(parseDocument(html)).parse();
    return `${article?.title ?? ""}\n${article?.textContent ?? ""}`;
  },
  "whole page": (html, url) => htmlToMarkdown(html, { mainContent: false, baseUrl: url }).markdown,
};

const scores = Object.fromEntries(Object.keys(extractors).map((name) => [name, { tp: 0, fn: 0, fp: 0, tn: 0 } as Score]));
const millis = Object.fromEntries(Object.keys(extractors).map((name) => [name, 0]));
const misses: string[] = [];
const halves: Record<"tune" | "held-out", Score> = { tune: { tp: 0, fn: 0, fp: 0, tn: 0 }, "held-out": { tp: 0, fn: 0, fp: 0, tn: 0 } };
const perPage: Array<{ file: string; url: string; f1: number; missed: string[]; kept: string[] }> = [];
for (const page of pages) {
  const bytes = new Uint8Array(readFileSync(join(DIR, "pages", page.file)));
  const html = decodeText(bytes, sniffCharset(bytes)).text;
  for (const [name, extract] of Object.entries(extractors)) {
    const started = performance.now();
    let text = "";
    try {
      text = extract(html, page.url);
    } catch (error) {
      console.log(`${name} failed on ${page.file}: ${(error as Error).message}`);
    }
    millis[name]! += performance.now() - started;
    const before = { ...scores[name]! };
    score(text, page, scores[name]!);
    if (name !== "docintel") continue;
    if (DUMP) writeFileSync(join(DUMP, `${page.file}.md`), text);
    const own: Score = { tp: 0, fn: 0, fp: 0, tn: 0 };
    score(text, page, own);
    for (const key of ["tp", "fn", "fp", "tn"] as const) halves[half(page)][key] += own[key];
    if (scores[name]!.fn > before.fn || scores[name]!.fp > before.fp) {
      misses.push(`${page.file}: ${scores[name]!.fn - before.fn} of ${page.with.length} main snippets missed, ${scores[name]!.fp - before.fp} of ${page.without.length} boilerplate snippets kept`);
    }
    if (WORST > 0) {
      const haystack = normalize(text);
      perPage.push({
        file: page.file,
        url: page.url,
        f1: metrics(own).f1,
        missed: page.with.filter((s) => !haystack.includes(normalize(s))),
        kept: page.without.filter((s) => haystack.includes(normalize(s))),
      });
    }
  }
}

const snippets = pages.reduce((n, p) => n + p.with.length + p.without.length, 0);
console.log(`${pages.length} pages, ${snippets} labelled snippets`);
for (const [name, s] of Object.entries(scores)) {
  const m = metrics(s);
  console.log(`${name.padEnd(15)} precision ${m.precision.toFixed(3)}  recall ${m.recall.toFixed(3)}  F1 ${m.f1.toFixed(3)}  accuracy ${m.accuracy.toFixed(3)}  (${(millis[name]! / pages.length).toFixed(1)} ms/page)`);
}
if (!SPLIT) {
  const line = (name: "tune" | "held-out") => `${name} half F1 ${metrics(halves[name]).f1.toFixed(3)} (P ${metrics(halves[name]).precision.toFixed(3)}, R ${metrics(halves[name]).recall.toFixed(3)})`;
  console.log(`docintel by file-name hash: ${line("tune")}; ${line("held-out")}`);
}
if (WORST > 0) {
  const worst = perPage.filter((p) => p.missed.length + p.kept.length > 0).sort((a, b) => a.f1 - b.f1).slice(0, WORST);
  const cut = (s: string) => JSON.stringify(s.length > 70 ? `${s.slice(0, 70)}...` : s);
  for (const p of worst) {
    console.log(`F1 ${p.f1.toFixed(2)} ${p.file} ${p.url}`);
    for (const s of p.missed) console.log(`    missed ${cut(s)}`);
    for (const s of p.kept) console.log(`    kept   ${cut(s)}`);
  }
}
if (misses.length > 0 && process.env.BENCH_SHOW_MISSES) console.log(`docintel's misses:\n  ${misses.join("\n  ")}`);
const ours = metrics(scores.docintel!).f1;
const theirs = metrics(scores["Readability.js"]!).f1;
const whole = metrics(scores["whole page"]!).f1;
const met = ours > theirs && ours >= GOAL_F1;
console.log(`RESULT boilerplate F1 docintel ${ours.toFixed(3)} vs Readability.js ${theirs.toFixed(3)}, whole page ${whole.toFixed(3)} on ${pages.length} pages (goal: >= ${GOAL_F1} and above Readability.js) ${met ? "met" : "NOT met"}`);
