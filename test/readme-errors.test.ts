/**
 * The README's error table is generated from the error table in code (ERROR_STATUS and
 * ERROR_MEANING in src/errors): it must list every code, with its status and meaning, and nothing
 * else. `bun scripts/error-table.ts --write` regenerates it.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { errorTable, readmeTable } from "../scripts/error-table";
import { ERROR_MEANING, ERROR_STATUS } from "../src/errors";

const README = readFileSync(join(import.meta.dir, "..", "README.md"), "utf8");

describe("README error table", () => {
  test("equals the table generated from src/errors (run bun scripts/error-table.ts --write when this fails)", () => {
    expect(readmeTable(README)).toBe(errorTable());
  });

  test("has one row per code of ERROR_STATUS, each with its status and a meaning", () => {
    const rows = readmeTable(README)!.split("\n").slice(2);
    const codes = Object.keys(ERROR_STATUS);
    expect(rows.length).toBe(codes.length);
    for (const code of codes) {
      const row = rows.find((r) => r.includes(`| \`${code}\` |`));
      expect(row).toBeDefined();
      expect(row!.startsWith(`| ${ERROR_STATUS[code as keyof typeof ERROR_STATUS]} |`)).toBe(true);
      expect(ERROR_MEANING[code as keyof typeof ERROR_MEANING].length).toBeGreaterThan(10);
    }
  });
});
