// TEMPORARY probe entry for scripts/build.ts while src/cli/main.ts does not exist. Delete when done.
import sharp from "sharp";
import { WorkerPool } from "../src/pool";

const argv = process.argv.slice(2);
if (argv[0] === "--help") {
  console.log("usage: docintel <command>");
  process.exit(0);
}
const t0 = performance.now();
const meta = await sharp({ create: { width: 8, height: 8, channels: 3, background: "red" } }).png().toBuffer();
console.log(`main thread sharp ok ${meta.length} bytes vips ${sharp.versions.vips} (${(performance.now() - t0).toFixed(0)} ms)`, JSON.stringify(sharp.versions).slice(0, 80));
const pool = new WorkerPool({ threads: 2, maxQueue: 10 });
const t1 = performance.now();
const r = await pool.run("selfTest", {});
console.log(`worker sharp ok ${JSON.stringify(r)} (${(performance.now() - t1).toFixed(0)} ms)`);
await pool.close();
process.exit(0);
