/**
 * url-markdown: p50 latency of URL -> markdown for a local page that builds its content with
 * JavaScript, through docintel's markdown service with a warm browser (Chromium already running),
 * against a cold `chromium --headless --dump-dom` of the same URL (a new browser per run, fresh
 * profile), which only renders and prints the DOM. Goal: warm/cold <= 0.25 (medians). The warm
 * browser is the one docintel drives (the headless shell when installed); a cold start of that same
 * binary is timed and printed as well, so that the gain of keeping it warm is visible on its own.
 *
 *   bun bench/url-markdown.ts           10 warm runs, 5 cold runs
 *   BENCH_ROUNDS=20 bun bench/url-markdown.ts
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config";
import { WorkerPool } from "../src/pool";
import { closeConvertTools, createConvertTools } from "../src/convert/tools";
import { markdownDepsOf, markdownOf } from "../src/markdown/service";

const GOAL = 0.25;
const ROUNDS = Math.max(3, Number(process.env.BENCH_ROUNDS) || 10);

const PAGE = `<!doctype html><html><head><title>Bench article</title></head><body>
<nav>${Array.from({ length: 20 }, (_, i) => `<a href="/section/${i}">Section ${i}</a>`).join(" ")}</nav>
<main id="app">loading...</main><footer>Copyright, privacy, terms</footer>
<script>
  const paragraphs = Array.from({ length: 30 }, (_, i) => "<p>Paragraph " + i + " of the article explains one more detail of the release, with enough words to look like real prose for the extractor.</p>").join("");
  setTimeout(() => { document.getElementById("app").innerHTML = "<article><h1>Release notes</h1>" + paragraphs + "<table><tr><th>Format</th><th>Speed</th></tr><tr><td>PDF</td><td>3x</td></tr></table></article>"; }, 50);
</script></body></html>`;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const site = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response(PAGE, { headers: { "content-type": "text/html" } }) });
const url = `http://127.0.0.1:${site.port}/article`;
const work = mkdtempSync(join(tmpdir(), "docintel-bench-url-"));
const config = loadConfig({}, { data: work, "allow-private-urls": true });
const pool = new WorkerPool({ threads: 2, maxQueue: 16 });
const tools = createConvertTools(config, pool);
const deps = markdownDepsOf(config, tools);
const page = { mainContent: true, waitMs: 0 };

/** coldDumpDom times `runs` cold starts of `executable --headless --dump-dom url`, each with a fresh profile. */
async function coldDumpDom(executable: string, runs: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const profile = mkdtempSync(join(tmpdir(), "docintel-bench-chromium-"));
    const t = performance.now();
    // a plain spawn, not runProcess: this baseline browser must reach the loopback page, and runProcess's sandbox has no network
    const proc = Bun.spawn(
      [executable, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", `--user-data-dir=${profile}`, "--virtual-time-budget=1000", "--dump-dom", url],
      { stdin: "ignore", stdout: "pipe", stderr: "ignore", timeout: 60_000 },
    );
    const dom = await new Response(proc.stdout).text();
    await proc.exited;
    times.push(performance.now() - t);
    rmSync(profile, { recursive: true, force: true });
    if (!dom.includes("Release notes")) throw new Error(`cold ${executable} did not render the JS content`);
  }
  return times;
}

try {
  const first = await markdownOf({ url }, page, deps); // launches the browser: not measured
  if (!first.markdown.includes("Paragraph 29")) throw new Error("the warm-up conversion lost the JS-rendered content");

  const warm: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t = performance.now();
    const r = await markdownOf({ url }, page, deps);
    warm.push(performance.now() - t);
    if (!r.markdown.includes("Release notes")) throw new Error("warm run lost the content");
  }

  // The baseline is the full browser's CLI; the headless shell docintel drives is timed too,
  // so the warm browser's own gain (same binary, cold against warm) is on record as well.
  const coldRuns = Math.max(3, Math.ceil(ROUNDS / 2));
  const cold = await coldDumpDom("chromium", coldRuns);
  const coldShell = await coldDumpDom(config.chromium.path, coldRuns);

  const ratio = median(warm) / median(cold);
  const line = (what: string, xs: number[]) => `${what} p50 ${median(xs).toFixed(0)} ms (min ${Math.min(...xs).toFixed(0)}, max ${Math.max(...xs).toFixed(0)}, n=${xs.length})`;
  console.log(line(`warm docintel URL->markdown (${config.chromium.path}):`, warm));
  console.log(line("cold chromium --headless --dump-dom:", cold));
  console.log(line(`cold ${config.chromium.path} --dump-dom:`, coldShell));
  console.log(`same binary, warm/cold p50 = ${(median(warm) / median(coldShell)).toFixed(2)}`);
  console.log(`RESULT url-markdown warm/cold chromium p50 = ${ratio.toFixed(2)} (goal <= ${GOAL}) ${ratio <= GOAL ? "met" : "NOT met"}`);
} finally {
  await closeConvertTools(tools);
  await pool.close();
  site.stop(true);
  rmSync(work, { recursive: true, force: true });
}
