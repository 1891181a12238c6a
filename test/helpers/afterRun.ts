/**
 * Preloaded by bunfig.toml: what must happen once after all test files of a `bun test` run. Bun's
 * test runner exits without an "exit" event, so process exit handlers cannot do this.
 */
import { afterAll } from "bun:test";
import { stopSharedPostgres } from "./postgres";
import { removeTempDirs } from "./server";

// the throwaway PostgreSQL cluster of DOCINTEL_TEST_DATABASE=postgres and the PostgreSQL tests
afterAll(() => stopSharedPostgres());
// the directories test files made with tempDir and did not remove
afterAll(() => removeTempDirs());
