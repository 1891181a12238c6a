/**
 * served-html: p50 latency of URL -> markdown with render=never (the HTML as served, no browser)
 * against the rendered path (render=always: Chromium already running, the page's scripts run and its
 * DOM is converted) and against render=auto (both, the more complete article kept), on the same real
 * pages served from loopback. The pages are a sample of trafilatura's evaluation set (saved news and
 * blog pages; their external assets are unreachable here, as behind a firewall). Goal: never/always
 * p50 <= 0.25.
 *
 * The pages belong to their publishers and are not in this repository: unpack the set and point the
 * script at it (default /tmp/web-eval), e.g.
 *
 *   tar xzf web-eval.tar.gz -C /tmp && bun bench/served-html.ts
 *   BENCH_WEB_EVAL_DIR=/data/web-eval BENCH_PAGES=12 BENCH_ROUNDS=5 bun bench/served-html.ts
 *
 * Without the directory the script says so in its RESULT line and exits 0.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config";
import { WorkerPool } from "../src/pool";
import { closeConvertTools, createConvertTools } from "../src/convert/tools";
import { markdownDepsOf, markdownOf } from "../src/markdown/service";
import type { RenderMode } from "../src/convert/types";

const GOAL = 0.25;
const DIR = process.env.BENCH_WEB_EVAL_DIR ?? "/tmp/web-eval";
const PAGE_COUNT = Math.max(1, Number(process.env.BENCH_PAGES) || 8);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS) || 3);

if (!existsSync(join(DIR, "pages"))) {
  console.log(`RESULT served-html: not run, no pages at BENCH_WEB_EVAL_DIR='${DIR}' (unpack web-eval.tar.gz there, see bench/README.md)`);
  process.exit(0);
}

// An even spread over the alphabetical list, so the sample is the same on every run and not one site.
const all = readdirSync(join(DIR, "pages")).filter((f) => f.endsWith(".html")).sort();
const names = Array.from({ length: Math.min(PAGE_COUNT, all.length) }, (_, i) => all[Math.floor((i * all.length) / Math.min(PAGE_COUNT, all.length))]!);
const pages = new Map(names.map((name) => [`/${name}`, readFileSync(join(DIR, "pages", name))]));

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const site = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch: (req) => {
    const page = pages.get(new URL(req.url).pathname);
    return page ? new Response(page, { headers: { "content-type": "text/html" } }) : new Response("not found", { status: 404 });
  },
});
const work = mkdtempSync(join(tmpdir(), "docintel-bench-served-"));
const config = loadConfig({}, { data: work, "allow-private-urls": true });
const pool = new WorkerPool({ threads: 2, maxQueue: 16 });
const tools = createConvertTools(config, pool);
const deps = markdownDepsOf(config, tools);
const options = { mainContent: true, waitMs: 0 };

/** timeMode converts every page ROUNDS times with one render mode; returns the times in ms and the pages that failed. */
async function timeMode(render: RenderMode): Promise<{ ms: number[]; failed: number; served: number }> {
  const ms: number[] = [];
  let failed = 0;
  let served = 0;
  for (let round = 0; round < ROUNDS; round++) {
    for (const path of pages.keys()) {
      const t = performance.now();
      try {
        const result = await markdownOf({ url: `http://127.0.0.1:${site.port}${path}`, render }, options, deps);
        if (round === 0 && result.extraction_method === "html") served++;
      } catch {
        if (round === 0) failed++;
      }
      ms.push(performance.now() - t);
    }
  }
  return { ms, failed, served };
}

try {
  await markdownOf({ url: `http://127.0.0.1:${site.port}${names[0] ? `/${names[0]}` : "/"}`, render: "always" }, options, deps).catch(() => {}); // launches the browser: not measured
  const never = await timeMode("never");
  const always = await timeMode("always");
  const auto = await timeMode("auto");
  const line = (what: string, r: { ms: number[]; failed: number }) => `${what} p50 ${median(r.ms).toFixed(0)} ms (min ${Math.min(...r.ms).toFixed(0)}, max ${Math.max(...r.ms).toFixed(0)}, n=${r.ms.length}, failed pages ${r.failed})`;
  console.log(`${pages.size} pages of ${DIR}, ${ROUNDS} rounds`);
  console.log(line("render=never  (served HTML):", never));
  console.log(line("render=always (rendered DOM, warm browser):", always));
  console.log(line("render=auto   (both, evidence):", auto));
  console.log(`render=auto kept the served HTML on ${auto.served} of ${pages.size} pages`);
  const ratio = median(never.ms) / median(always.ms);
  console.log(
    `RESULT served-html render=never/always p50 = ${ratio.toFixed(2)} (${median(never.ms).toFixed(0)} / ${median(always.ms).toFixed(0)} ms; auto ${median(auto.ms).toFixed(0)} ms) goal <= ${GOAL} ${ratio <= GOAL ? "met" : "NOT met"}`,
  );
} finally {
  await closeConvertTools(tools);
  await pool.close();
  site.stop(true);
  rmSync(work, { recursive: true, force: true });
}
