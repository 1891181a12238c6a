/**
 * Builds the single `docintel` binary: `bun scripts/build.ts [--outfile dist/docintel]`.
 *
 * Uses the `Bun.build` API rather than `bun build --compile`, because the CLI takes no plugins and
 * sharp and piscina need the ones in scripts/build-plugins.ts. Besides the CLI, the binary embeds
 * the pool's worker (src/pool/worker.ts) and piscina's own worker (dist/worker.js) as extra
 * entrypoints, at `/$bunfs/root/<path from the project root>.js`, plus every file imported
 * `with { type: "file" }` (the sharp addon and libvips among them). Source maps are embedded, so
 * stack traces name the .ts files; the .map files Bun also writes next to the binary are removed.
 *
 * The entry is src/cli/main.ts itself: inside the binary it is the main module, so its
 * `if (import.meta.main)` block runs `main(argv)` and exits with the code it returns.
 */
import { readFileSync, rmSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { compilePlugins, planCompile } from "./build-plugins";

const ROOT = resolve(import.meta.dir, "..");
const CLI_MAIN = "src/cli/main.ts";
/** POOL_WORKER must match workerScriptUrl() in src/pool/index.ts. */
const POOL_WORKER = "src/pool/worker.ts";
/** SANDBOX_WORKER must match workerUrl() in src/ai/sandbox/index.ts (the compute tool's Python worker). */
const SANDBOX_WORKER = "src/ai/sandbox/worker.ts";

async function build(): Promise<number> {
  const { values } = parseArgs({ args: Bun.argv.slice(2), options: { outfile: { type: "string", default: "dist/docintel" } } });
  const outfile = resolve(values.outfile!);
  const started = performance.now();

  const plan = planCompile(ROOT);
  const { plugins, applied } = compilePlugins(plan);

  const entry = join(ROOT, CLI_MAIN);
  if (!readFileSync(entry, "utf8").includes("import.meta.main")) {
    console.error(`build: ${CLI_MAIN} has no \`if (import.meta.main)\` block that runs main(); the binary would do nothing`);
    return 1;
  }

  const result = await Bun.build({
    entrypoints: [entry, join(ROOT, POOL_WORKER), join(ROOT, SANDBOX_WORKER), plan.piscinaWorker],
    root: ROOT,
    target: "bun",
    compile: { outfile },
    minify: false,
    sourcemap: "linked",
    plugins,
    throw: false,
  });
  if (!result.success) {
    console.error("build: Bun.build failed");
    for (const log of result.logs) console.error(log);
    return 1;
  }
  for (const log of result.logs) console.warn(log);

  const missing = (["sharp-loader", "piscina-worker-path"] as const).filter((name) => !applied.has(name));
  if (missing.length > 0) {
    console.error(`build: the ${missing.join(", ")} replacement never ran: sharp/piscina were not bundled as expected`);
    return 1;
  }
  for (const output of result.outputs) {
    if (output.kind === "sourcemap") rmSync(output.path, { force: true });
  }

  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  console.log(`built ${outfile} (${mb(statSync(outfile).size)}) in ${seconds} s`);
  console.log(`  entry      ${relative(ROOT, entry)}`);
  console.log(`  workers    ${POOL_WORKER}, ${SANDBOX_WORKER}, ${plan.piscinaWorkerFromRoot}`);
  console.log(`  sharp      ${plan.sharpVersion} (${plan.platform}) ${plan.addon.rel} ${mb(plan.addon.bytes)}`);
  console.log(`  libvips    ${plan.libvips.rel} ${mb(plan.libvips.bytes)}`);
  console.log(`  replaced   ${[...applied].join(", ")}`);
  return 0;
}

try {
  process.exit(await build());
} catch (error) {
  console.error("build:", error instanceof Error ? error.message : error);
  process.exit(1);
}
