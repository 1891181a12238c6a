/**
 * bench/run.ts (`make bench`): runs every benchmark script in bench/ (the scripts that print a RESULT line; collect.ts and
 * structure-score.ts are tools of the others) one after the other and prints
 * the `RESULT ...` line of each at the end. A goal that is missed is reported, not failed on:
 * the exit code is non-zero only when a benchmark crashes (exits non-zero or prints no RESULT line).
 *
 *   bun bench/run.ts              all benchmarks
 *   bun bench/run.ts http-auth    only those whose file name contains an argument
 *
 * Environment (BENCH_ROUNDS, BENCH_SECONDS, ...) is passed through to every script.
 */
import { readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";

const DIR = import.meta.dir;
const filters = process.argv.slice(2);
const scripts = readdirSync(DIR)
  .filter((f) => f.endsWith(".ts") && f !== basename(import.meta.path))
  // a benchmark prints a RESULT line; the others are its tools (collect.ts lays out the documents, structure-score.ts is shared scoring)
  .filter((f) => readFileSync(join(DIR, f), "utf8").includes("RESULT"))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();

if (scripts.length === 0) {
  console.error(`no benchmark in ${DIR}${filters.length ? ` matching ${filters.join(", ")}` : ""}`);
  process.exit(2);
}

interface Outcome {
  script: string;
  code: number;
  results: string[];
  seconds: number;
}

const outcomes: Outcome[] = [];
for (const script of scripts) {
  console.log(`\n=== bench/${script}`);
  const started = performance.now();
  const proc = Bun.spawn([process.execPath, join(DIR, script)], { cwd: join(DIR, ".."), stdin: "ignore", stdout: "pipe", stderr: "inherit", env: process.env });
  const results: string[] = [];
  const decoder = new TextDecoder();
  let pending = "";
  const reader = proc.stdout.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const text = decoder.decode(value, { stream: true });
    process.stdout.write(text);
    pending += text;
    const lines = pending.split("\n");
    pending = lines.pop()!;
    for (const line of lines) if (line.startsWith("RESULT ")) results.push(line.slice(7));
  }
  if (pending.startsWith("RESULT ")) results.push(pending.slice(7));
  const code = await proc.exited;
  outcomes.push({ script, code, results, seconds: (performance.now() - started) / 1000 });
}

console.log("\n=== summary");
let crashed = 0;
for (const o of outcomes) {
  if (o.code !== 0 || o.results.length === 0) {
    crashed++;
    console.log(`${o.script}: CRASHED (exit ${o.code}${o.results.length ? "" : ", no RESULT line"}) after ${o.seconds.toFixed(0)} s`);
  }
  for (const r of o.results) console.log(r);
}
process.exit(crashed ? 1 : 0);
