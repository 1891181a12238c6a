/**
 * compute: what one interpreter per agent run costs. The time from a request's first compute call
 * to its result, p50, in two ways in the same script, rounds interleaved:
 *  - shared (the old behaviour): one warm interpreter serves every request, which therefore finds
 *    the modules earlier requests imported already loaded;
 *  - fresh (now): each request opens its own session, which takes a warm spare (started ahead of
 *    need) and ends it when the request is done; a replacement spare starts meanwhile.
 * Goal: fresh - shared <= 100 ms at p50. Also printed: how long each round still waited for the
 * replacement spare to finish starting (it starts from the memory snapshot; the gap between
 * requests was the round's own time), which bounds how many requests with compute a second one
 * spare keeps up with.
 *
 *   bun bench/compute.ts            15 rounds (BENCH_ROUNDS to change)
 */
import { PythonSandbox } from "../src/ai/sandbox";

const ROUNDS = Math.max(3, Number(process.env.BENCH_ROUNDS) || 15);
const GOAL_MS = 100;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const options = { timeoutMs: 10_000, memoryLimitMb: 256, maxOutputChars: 8000 };

/** FIRST_CALL is a typical first compute call of an analyze run: a few imports, sums and a median. */
const FIRST_CALL = `import statistics, decimal, datetime
lines = [decimal.Decimal(x) for x in ["129.99", "259.98", "89.97", "384.97"]]
subtotal = sum(lines)
days = (datetime.date(2024, 3, 1) - datetime.date(2023, 12, 25)).days
print(subtotal, subtotal - decimal.Decimal("821.14"), days)
statistics.median([float(x) for x in lines])`;

async function timed(work: () => Promise<{ ok: boolean; error: string | null }>): Promise<number> {
  const started = performance.now();
  const run = await work();
  if (!run.ok) throw new Error(`the benchmark's code failed: ${run.error}`);
  return performance.now() - started;
}

const shared = new PythonSandbox({ ...options, spares: 0, maxInterpreters: 1 });
const fresh = new PythonSandbox({ ...options, spares: 1, maxInterpreters: 2 });
try {
  const sharedSession = shared.session();
  await timed(() => sharedSession.run(FIRST_CALL)); // the shared interpreter has served earlier requests
  await fresh.warm();
  const sharedMs: number[] = [];
  const freshMs: number[] = [];
  const refillMs: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    sharedMs.push(await timed(() => sharedSession.run(FIRST_CALL)));
    const request = fresh.session();
    freshMs.push(await timed(() => request.run(FIRST_CALL)));
    await request.close();
    const waited = performance.now();
    await fresh.warm();
    refillMs.push(performance.now() - waited);
  }
  const delta = median(freshMs) - median(sharedMs);
  console.log(`first compute call, ${ROUNDS} rounds: shared p50 ${median(sharedMs).toFixed(1)} ms   fresh from a warm spare p50 ${median(freshMs).toFixed(1)} ms`);
  console.log(`waited after each round for the replacement spare to finish starting: p50 ${(median(refillMs) / 1000).toFixed(1)} s`);
  console.log(`RESULT compute first call fresh - shared p50 = ${delta.toFixed(1)} ms (goal <= ${GOAL_MS} ms) ${delta <= GOAL_MS ? "met" : "NOT met"}`);
} finally {
  await shared.close();
  await fresh.close();
}
