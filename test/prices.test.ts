/**
 * Prices are declared once (PRICES in src/credits/costs.ts): the README's cost table, the OpenAPI
 * description and the minimum held before work starts all come from it.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CREDIT_COST_TABLE, MINIMUM_COST, PRICES } from "../src/credits/costs";
import { ROOT } from "./helpers/server";

test("the README's cost table is the price table, row for row", () => {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8").split("\n");
  const header = readme.findIndex((line) => line.trim() === "| operation | credits |");
  expect(header).toBeGreaterThan(0);
  const rows: string[][] = [];
  for (const line of readme.slice(header + 2)) {
    if (!line.trim().startsWith("|")) break;
    rows.push(line.trim().slice(1, -1).split("|").map((cell) => cell.trim()));
  }
  expect(rows).toEqual(CREDIT_COST_TABLE.map(([operation, cost]) => [operation, cost]));
});

test("each operation's minimum is its cost for the least work (one page, no transcription)", () => {
  const onePage = { pages: 1, website: false };
  expect(MINIMUM_COST).toEqual({
    screenshot: PRICES.screenshot.cost(),
    thumbnail: PRICES.thumbnail.cost(),
    diff: PRICES.diff.cost(),
    markdown: PRICES.markdown.cost(0),
    extract: PRICES.extract.cost(onePage),
    analyze: PRICES.analyze.cost(onePage),
    cross: PRICES.cross.cost([onePage]),
    decide: PRICES.decide.cost(null),
  });
});

test("route descriptions state prices only through the price table (priceText), never as a number in prose", async () => {
  const { ROUTES } = await import("../src/app/app");
  // "N credit(s)" in prose, except the free plan's allowance (FREE_MONTHLY_CREDITS "credits per calendar month"), which is no price
  const inProse = /\b\d+ credits?\b(?! per calendar month)/i;
  const offenders = ROUTES.filter((route) => inProse.test(route.op.description ?? "")).map((route) => `${route.op.method} ${route.op.path}: ${route.op.description!.match(inProse)![0]}`);
  expect(offenders).toEqual([]);
  const priced = ROUTES.filter((route) => (route.op.description ?? "").includes("Credits: "));
  for (const path of ["/api/v1/markdown/convert", "/api/v1/diff", "/api/v1/thumbnails/preview", "/api/v1/extract"]) expect(priced.map((route) => route.op.path)).toContain(path);
});
