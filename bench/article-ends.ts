/**
 * article-ends: a quick full-text check of main-content extraction on article pages. For 20 news and
 * blog pages of trafilatura's evaluation set, bench/expected/web-article-ends.json holds the first
 * and last paragraph of the article body, written down once by reading each page. The script counts
 * the pages whose docintel main content starts at the right paragraph (the first block after its
 * leading headings and pictures) and ends at the right one (its last block but trailing pictures): a
 * cheap stand-in for a 4-gram F1 of the whole body, which drops when a lead or a last paragraph is
 * lost or a byline, caption or teaser is kept around the body.
 *
 *   BENCH_WEB_EVAL_DIR=/tmp/web-eval bun bench/article-ends.ts     (BENCH_SHOW=1 prints each page)
 *
 * Without the pages the script says so in its RESULT line and exits 0.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { htmlToMarkdown, sniffCharset } from "../src/convert/html";
import { decodeText } from "../src/convert/charset";

interface Ends {
  file: string;
  first: string;
  last: string;
}

const DIR = process.env.BENCH_WEB_EVAL_DIR ?? "/tmp/web-eval";
const expected = JSON.parse(readFileSync(join(import.meta.dir, "expected", "web-article-ends.json"), "utf8")) as { pages: Ends[] };
const urls = existsSync(join(DIR, "evaldata.json")) ? (JSON.parse(readFileSync(join(DIR, "evaldata.json"), "utf8")) as Record<string, { file: string }>) : {};
const urlOf = new Map(Object.entries(urls).map(([url, d]) => [d.file, url]));
const pages = expected.pages.filter((p) => existsSync(join(DIR, "pages", p.file)));
if (pages.length === 0) {
  console.log(`RESULT article-ends: not run, no pages at BENCH_WEB_EVAL_DIR='${DIR}' (see bench/README.md, boilerplate.ts)`);
  process.exit(0);
}

/** plain: markdown to comparable text: links keep their text, pictures, emphasis and escapes go, spaces single. */
function plain(text: string): string {
  return text
    .replace(/!\[[^\]]*\]\([^)]*\)/g, " ")
    .replace(/\[([^\]]*)\]\((?:[^()]|\([^)]*\))*\)/g, "$1")
    .replace(/\\([\\`*_{}[\]()#+\-.!|>~<])/g, "$1")
    .replace(/(\*\*|__|~~|`|(?<!\w)\*|\*(?!\w))/g, "")
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+[.)])\s+/gm, "")
    .replace(/[\u00a0\s]+/g, " ")
    .trim();
}

/** blocks: the markdown's blocks (split at blank lines) without pictures-only blocks; leading headings dropped. */
function blocks(markdown: string): string[] {
  const all = markdown.split(/\n\s*\n/).filter((b) => plain(b).length > 0);
  let start = 0;
  while (start < all.length && /^\s{0,3}#{1,6}\s/.test(all[start]!)) start++;
  return all.slice(start);
}

let starts = 0;
let ends = 0;
let both = 0;
for (const page of pages) {
  const bytes = new Uint8Array(readFileSync(join(DIR, "pages", page.file)));
  const html = decodeText(bytes, sniffCharset(bytes)).text;
  const markdown = htmlToMarkdown(html, { mainContent: true, baseUrl: urlOf.get(page.file) }).markdown;
  const list = blocks(markdown);
  const first = plain(list[0] ?? "");
  const last = plain(list[list.length - 1] ?? "");
  const okFirst = first.includes(plain(page.first));
  const okLast = last.includes(plain(page.last));
  if (okFirst) starts++;
  if (okLast) ends++;
  if (okFirst && okLast) both++;
  if (process.env.BENCH_SHOW) {
    console.log(`${okFirst ? "ok " : "NO "} ${okLast ? "ok " : "NO "} ${page.file}`);
    if (!okFirst) console.log(`      starts with ${JSON.stringify(first.slice(0, 100))}`);
    if (!okLast) console.log(`      ends with   ${JSON.stringify(last.slice(-100))}`);
  }
}
console.log(`RESULT article-ends: ${both} of ${pages.length} pages start and end at the article's first and last paragraph (start ${starts}, end ${ends})`);
