/**
 * thumbnails: image thumbnails per second through HTTP (POST /api/v1/thumbnails/generate, 600x400,
 * quality 95, response_type=url: the JPEG is stored and a signed URL answered) against sharp
 * in-process doing the same resize on the same 4000x3000 JPEGs, both with BENCH_CONCURRENCY requests
 * in flight; `vipsthumbnail` run once per file is the native reference, and the same uploads to a bare
 * Bun server that only parses them (upload only) show what the transport alone costs. Goal:
 * HTTP/sharp >= 0.7.
 * The two alternate round by round (sharp then HTTP, then HTTP then sharp, ...), so both see the
 * same load on a shared machine, and the result is the median of the per-round ratios; the load
 * average before and after is printed with it.
 *
 * Screenshots: p50 of GET /{url} of a local page with the warm browser against a cold
 * `chromium --headless --screenshot` of the same page (goal <= 0.25; a cold start of the headless
 * shell the server drives is printed too), and the RSS of the server and its Chromium after
 * BENCH_RSS_SHOTS screenshots against after 10 (goal < 1.5: no leak).
 *
 *   bun bench/thumbnails.ts
 *   BENCH_ROUNDS=9 BENCH_FILES=6 BENCH_RSS_SHOTS=1000 bun bench/thumbnails.ts
 *   BENCH_PARTS=thumbnails bun bench/thumbnails.ts        (the thumbnail ratio only)
 *
 * Knobs: BENCH_ROUNDS (7), BENCH_FILES (6), BENCH_CONCURRENCY (2), BENCH_SHOTS (15),
 * BENCH_RSS_SHOTS (300; the issue's goal is stated for 1000, which takes about 5 minutes),
 * BENCH_PARTS (all; "thumbnails" skips the screenshots and the RSS).
 */
import { mkdirSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { loadConfig } from "../src/config";
import { form, startServer, tempDir } from "../test/helpers/server";

const ROUNDS = intEnv("BENCH_ROUNDS", 7);
const FILES = intEnv("BENCH_FILES", 6);
const CONCURRENCY = intEnv("BENCH_CONCURRENCY", 2);
const SHOTS = intEnv("BENCH_SHOTS", 15);
const RSS_SHOTS = intEnv("BENCH_RSS_SHOTS", 300);
const THUMBNAILS_ONLY = process.env.BENCH_PARTS === "thumbnails";
const BOX = { width: 600, height: 400, quality: 95 };
/** SHELL is the browser the server drives (--chromium-path=auto) */
const SHELL = loadConfig({}).chromium.path;

function intEnv(name: string, fallback: number): number {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? Math.round(v) : fallback;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** photos makes FILES different 4000x3000 JPEGs with photo-like noise (a flat colour would decode unrealistically fast). */
async function photos(dir: string): Promise<string[]> {
  const paths: string[] = [];
  for (let i = 0; i < FILES; i++) {
    const path = join(dir, `photo_${i}.jpg`);
    await sharp({ create: { width: 4000, height: 3000, channels: 3, background: { r: 40 + i * 30, g: 120, b: 200 - i * 20 }, noise: { type: "gaussian", mean: 128, sigma: 30 } } })
      .blur(1.5)
      .jpeg({ quality: 90 })
      .toFile(path);
    paths.push(path);
  }
  return paths;
}

/** throughput runs `work` over every file with CONCURRENCY in flight and returns files per second. */
async function throughput(files: Uint8Array[], work: (bytes: Uint8Array, i: number) => Promise<void>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < files.length) {
        const i = next++;
        await work(files[i]!, i);
      }
    }),
  );
  return files.length / ((performance.now() - started) / 1000);
}

/** rssOfTree sums VmRSS (kB) over a process and all its descendants (the server and its Chromium). */
function rssOfTree(pid: number): number {
  const children = new Map<number, number[]>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const ppid = Number(/PPid:\s+(\d+)/.exec(readFileSync(`/proc/${name}/status`, "utf8"))![1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {}
  }
  let total = 0;
  const stack = [pid];
  while (stack.length) {
    const p = stack.pop()!;
    try {
      total += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, "utf8"))?.[1] ?? 0);
    } catch {}
    stack.push(...(children.get(p) ?? []));
  }
  return total;
}

const work = tempDir("docintel-bench-thumbs-");
const server = await startServer({ args: ["--allow-private-urls", "--no-bootstrap-key"], logFile: join(work, "server.log") });
/**
 * sink is the transport alone: a bare Bun server in its own process that parses the same multipart
 * upload and answers a few bytes, doing no work; uploads to it per second bound what HTTP can reach.
 * Its idle timeout is the server's (255 s): with Bun's default 10 s, a keep-alive connection left idle
 * while a slow round of the others ran was closed under the client, which then failed with ECONNRESET.
 */
const SINK_SOURCE = `const s = Bun.serve({ port: 0, hostname: "127.0.0.1", idleTimeout: 255, async fetch(r) { const f = (await r.formData()).get("file"); return Response.json({ bytes: (await f.arrayBuffer()).byteLength }); } }); console.log(s.port);`;
const sink = Bun.spawn([process.execPath, "-e", SINK_SOURCE], { stdout: "pipe", stderr: "inherit" });
const sinkPort = await firstLineNumber(sink.stdout);

/** firstLineNumber reads the number a child prints on its first line (the sink's port). */
async function firstLineNumber(stream: ReadableStream<Uint8Array>): Promise<number> {
  const reader = stream.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const next = await reader.read();
    if (next.done) throw new Error("the upload sink exited before it listened");
    text += new TextDecoder().decode(next.value);
  }
  reader.releaseLock();
  return Number(text.split("\n")[0]);
}
const page = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch: () => new Response(`<!doctype html><html><body style="font:16px sans-serif"><h1>Quarterly report</h1>${"<p>Revenue grew in every region; see the table below.</p>".repeat(30)}</body></html>`, { headers: { "content-type": "text/html" } }),
});
try {
  const { key } = await server.key("enterprise");
  const paths = await photos(work);
  const files = paths.map((p) => new Uint8Array(readFileSync(p)));
  console.log(`${FILES} JPEGs of 4000x3000, ${(files.reduce((n, f) => n + f.length, 0) / FILES / 1e6).toFixed(1)} MB each; ${CONCURRENCY} in flight; ${ROUNDS} rounds`);

  // Each side makes one fresh copy of a photo per call: sharp in process copies the bytes (below), a
  // request's FormData serializes the File into its body. The Files are made once, as the bytes are
  // read once: a File made per request was a second 2.2 MB copy (7-9 ms of CPU in this process, on
  // the same 2 cores as the server) that the in-process side never paid (bench/README.md).
  const uploads = files.map((bytes, i) => new File([bytes as Uint8Array<ArrayBuffer>], `photo_${i}.jpg`));
  const viaHttp = async (_: Uint8Array, i: number) => {
    const r = await fetch(`${server.url}/api/v1/thumbnails/generate`, {
      method: "POST",
      headers: { "X-API-Key": key },
      body: form({ file: uploads[i]!, width: String(BOX.width), height: String(BOX.height), quality: String(BOX.quality) }),
    });
    if (r.status !== 200) throw new Error(`HTTP ${r.status}: ${await r.text()}`);
    await r.arrayBuffer();
  };
  // a fresh copy per call, as every request hands the server new bytes: with the same buffer each round,
  // libvips' operation cache serves part of the work again (7-20 % faster here), which no request can get
  const inProcess = async (bytes: Uint8Array) => {
    await sharp(new Uint8Array(bytes)).rotate().resize({ width: BOX.width, height: BOX.height, fit: "inside", withoutEnlargement: true }).jpeg({ quality: BOX.quality }).toBuffer();
  };
  const vips = async (_: Uint8Array, i: number) => {
    const out = join(work, `vips_${i}.jpg`);
    const proc = Bun.spawn(["vipsthumbnail", paths[i]!, "-s", `${BOX.width}x${BOX.height}`, "-o", `${out}[Q=${BOX.quality}]`], { stdout: "ignore", stderr: "inherit" });
    if ((await proc.exited) !== 0) throw new Error("vipsthumbnail failed");
  };

  await viaHttp(files[0]!, 0); // warm the server's sharp and the key cache
  await inProcess(files[0]!);
  const uploadOnly = async (_: Uint8Array, i: number) => {
    const r = await fetch(`http://127.0.0.1:${sinkPort}/`, { method: "POST", body: form({ file: uploads[i]!, width: String(BOX.width), height: String(BOX.height), quality: String(BOX.quality) }) });
    if (r.status !== 200) throw new Error(`sink HTTP ${r.status}`);
    await r.arrayBuffer();
  };
  await uploadOnly(files[0]!, 0);
  const rates = { http: [] as number[], sharp: [] as number[], vips: [] as number[], upload: [] as number[], ratio: [] as number[], uploadRatio: [] as number[] };
  const loadBefore = loadavg()[0]!;
  for (let round = 0; round < ROUNDS; round++) {
    // which side goes first alternates, so neither always follows vipsthumbnail or the other
    if (round % 2 === 0) {
      rates.sharp.push(await throughput(files, inProcess));
      rates.http.push(await throughput(files, viaHttp));
    } else {
      rates.http.push(await throughput(files, viaHttp));
      rates.sharp.push(await throughput(files, inProcess));
    }
    rates.ratio.push(rates.http.at(-1)! / rates.sharp.at(-1)!);
    rates.upload.push(await throughput(files, uploadOnly));
    rates.uploadRatio.push(rates.upload.at(-1)! / rates.sharp.at(-1)!);
    rates.vips.push(await throughput(files, vips));
    console.log(`round ${round + 1}: http ${rates.http.at(-1)!.toFixed(2)}/s, sharp ${rates.sharp.at(-1)!.toFixed(2)}/s, ratio ${rates.ratio.at(-1)!.toFixed(2)}, upload only ${rates.upload.at(-1)!.toFixed(2)}/s, vipsthumbnail ${rates.vips.at(-1)!.toFixed(2)}/s (load ${loadavg()[0]!.toFixed(1)})`);
  }
  const loadAfter = loadavg()[0]!;
  const [http, inproc, native] = [median(rates.http), median(rates.sharp), median(rates.vips)];
  const ratio = median(rates.ratio);
  const thumbnailsLine = `thumbnails HTTP/sharp = ${ratio.toFixed(2)} (median of ${ROUNDS} per-round ratios, range ${Math.min(...rates.ratio).toFixed(2)}-${Math.max(...rates.ratio).toFixed(2)}; goal >= 0.7) ${ratio >= 0.7 ? "met" : "NOT met"}; HTTP/vipsthumbnail = ${(http / native).toFixed(2)}; upload only/sharp = ${median(rates.uploadRatio).toFixed(2)} (the transport alone, no work)`;
  console.log(`thumbnails/s medians: HTTP ${http.toFixed(2)}, sharp in-process ${inproc.toFixed(2)}, vipsthumbnail per file ${native.toFixed(2)}; load average (1 min) ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after`);

  /** screenshotsAndMemory times warm screenshots against cold ones and the RSS growth, then prints the RESULT line. */
  const screenshotsAndMemory = async () => {
    // Screenshots: warm GET /{url} against a cold chromium --screenshot of the same page.
    const target = `http://127.0.0.1:${page.port}/report`;
    const screenshot = async () => {
      const r = await fetch(`${server.url}/${target}`, { headers: { "X-API-Key": key } });
      if (r.status !== 200) throw new Error(`screenshot HTTP ${r.status}: ${await r.text()}`);
      await r.arrayBuffer();
    };
    await screenshot();
    const warm: number[] = [];
    for (let i = 0; i < SHOTS; i++) {
      const started = performance.now();
      await screenshot();
      warm.push(performance.now() - started);
    }
    // the issue's baseline is the full browser's CLI; the headless shell the server drives is timed
    // too, so that the gain of keeping that same binary warm is on record
    const coldShot = async (executable: string, i: number) => {
      const profile = join(work, `cold-profile-${i}`);
      mkdirSync(profile);
      const started = performance.now();
      const proc = Bun.spawn(
        [executable, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", `--user-data-dir=${profile}`, `--screenshot=${join(work, `cold_${i}.png`)}`, "--window-size=1280,800", target],
        { stdout: "ignore", stderr: "ignore" },
      );
      await proc.exited;
      const took = performance.now() - started;
      rmSync(profile, { recursive: true, force: true });
      return took;
    };
    const cold: number[] = [];
    const coldShell: number[] = [];
    for (let i = 0; i < 3; i++) cold.push(await coldShot("chromium", i));
    for (let i = 0; i < 3; i++) coldShell.push(await coldShot(SHELL, i));
    const shotRatio = median(warm) / median(cold);

    // Memory: RSS of the server and its Chromium after 10 screenshots and after RSS_SHOTS.
    let taken = SHOTS + 1;
    while (taken < 10) (await screenshot(), taken++);
    const rss10 = rssOfTree(server.proc.pid);
    for (; taken < RSS_SHOTS; taken++) await screenshot();
    const rssMany = rssOfTree(server.proc.pid);
    const rssRatio = rssMany / rss10;

    console.log(`screenshot p50 warm ${median(warm).toFixed(0)} ms (min ${Math.min(...warm).toFixed(0)}, max ${Math.max(...warm).toFixed(0)}); cold chromium --screenshot median ${median(cold).toFixed(0)} ms; cold ${SHELL} --screenshot median ${median(coldShell).toFixed(0)} ms (same binary, warm/cold ${(median(warm) / median(coldShell)).toFixed(2)})`);
    console.log(`RSS server+Chromium after ~10 screenshots ${(rss10 / 1024).toFixed(0)} MB, after ${taken} ${(rssMany / 1024).toFixed(0)} MB`);
    console.log(`RESULT ${thumbnailsLine}; screenshot warm/cold = ${shotRatio.toFixed(2)} (goal <= 0.25) ${shotRatio <= 0.25 ? "met" : "NOT met"}; RSS ${taken}/10 = ${rssRatio.toFixed(2)} (goal < 1.5) ${rssRatio < 1.5 ? "met" : "NOT met"}`);
  };
  if (THUMBNAILS_ONLY) console.log(`RESULT ${thumbnailsLine}`);
  else await screenshotsAndMemory();
} finally {
  page.stop(true);
  sink.kill();
  await server.stop();
  rmSync(work, { recursive: true, force: true });
}
