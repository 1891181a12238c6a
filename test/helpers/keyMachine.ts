/**
 * A stand-in for one docintel process or machine in the shared-store tests: opens the store named
 * (a postgres:// URL, or sqlite:DIR for a data dir) and, at START_MS (unix ms, so that processes
 * started one after the other act together), makes the bootstrap key as `docintel serve` does.
 *   bun test/helpers/keyMachine.ts bootstrap STORE START_MS      -> {"made":"key_..."} or {"made":null}
 */
import { createBootstrapKey } from "../../src/security/apiKeys";
import { openDatabase } from "../../src/store/database";

const [command, where, startMs] = process.argv.slice(2);
const backend = await openDatabase(
  where!.startsWith("sqlite:") ? { kind: "sqlite", dataDir: where!.slice("sqlite:".length) } : { kind: "postgres", url: where!, poolSize: 2, statementTimeoutMs: 10_000 },
);
if (command === "bootstrap") {
  await Bun.sleep(Math.max(0, Number(startMs) - Date.now()));
  const made = await createBootstrapKey(backend);
  console.log(JSON.stringify({ made: made?.info.id ?? null }));
} else {
  console.error(`unknown command ${command}`);
  process.exitCode = 2;
}
await backend.close();
