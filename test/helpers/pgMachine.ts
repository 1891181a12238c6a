/**
 * A stand-in for one docintel machine in the multi-process PostgreSQL tests: opens the store at the
 * URL given and does one thing, then prints a JSON line.
 *   bun test/helpers/pgMachine.ts hold URL KEY_ID N ALLOWANCE START_MS
 *       at START_MS (unix ms, so that processes started one after the other fire together),
 *       N concurrent 1-credit holds -> {"ok":k,"refused":r}
 *   bun test/helpers/pgMachine.ts claim URL OWNER LEASE_MS      claims one task, prints it, then hangs (the test kills it)
 */
import { randomBytes } from "node:crypto";
import { openPostgres } from "../../src/store/postgres";

const [command, url, ...args] = process.argv.slice(2);
const store = await openPostgres(url!, { poolSize: 10, statementTimeoutMs: 10_000, changePollMs: 0 });
const period = new Date().toISOString().slice(0, 7);

if (command === "hold") {
  const [keyId, n, allowance, startMs] = args;
  await Bun.sleep(Math.max(0, Number(startMs) - Date.now()));
  const outcomes = await Promise.all(
    Array.from({ length: Number(n) }, () =>
      store.credits.hold(
        { keyId: keyId!, allowance: Number(allowance), period, nowMs: Date.now() },
        { id: "hold_" + randomBytes(6).toString("hex"), key_id: keyId!, amount: 1, period, created_at: new Date().toISOString(), expires_at: Date.now() + 60_000 },
      ),
    ),
  );
  console.log(JSON.stringify({ ok: outcomes.filter((o) => o.ok).length, refused: outcomes.filter((o) => !o.ok).length }));
  await store.close();
} else if (command === "claim") {
  const [owner, leaseMs] = args;
  const row = await store.tasks.claimNext({ operations: ["markdown"], owner: owner!, leaseUntil: Date.now() + Number(leaseMs), nowMs: Date.now(), perBatch: 4, startedAt: new Date().toISOString() });
  console.log(JSON.stringify({ claimed: row?.id ?? null }));
  // a machine at work: it never ends the task nor renews the lease until the test kills it
  setInterval(() => undefined, 1_000);
} else {
  console.error(`unknown command ${command}`);
  process.exit(2);
}
