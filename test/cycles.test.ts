/** The import-cycle check of `make test` (scripts/check-cycles.ts): it finds cycles, and src/ has none beyond its allow-list. */
import { expect, test } from "bun:test";
import { relative, join } from "node:path";
import { ALLOWED_CYCLES, ALLOWED_FOLDER_EDGES, cyclesOf, cyclicFolderEdges, importGraph } from "../scripts/check-cycles";
import { ROOT } from "./helpers/server";

test("cyclesOf finds every strongly connected group of two or more files, and nothing in a chain", () => {
  const graph = new Map([
    ["a", ["b"]],
    ["b", ["c"]],
    ["c", ["a", "d"]],
    ["d", ["e"]],
    ["e", []],
    ["f", ["g"]],
    ["g", ["f"]],
  ]);
  expect(cyclesOf(graph)).toEqual(expect.arrayContaining([["a", "b", "c"], ["f", "g"]]));
  expect(cyclesOf(graph)).toHaveLength(2);
  expect(cyclesOf(new Map([["x", ["y"]], ["y", []]]))).toEqual([]);
});

test("the files under src/ import each other in no cycle beyond the allow-list, type-only imports included", () => {
  const graph = importGraph();
  expect(graph.get(join(ROOT, "src/tasks/runner.ts"))).toContain(join(ROOT, "src/store/backend.ts")); // the graph is read
  const cycles = cyclesOf(graph).map((c) => c.map((f) => relative(join(ROOT, "src"), f)));
  expect(cycles).toEqual(ALLOWED_CYCLES);
});

test("cyclicFolderEdges: the imports between folders whose folders reach each other back, and no others", () => {
  const f = (path: string) => join(ROOT, "src", path);
  const files = new Map([
    [f("a/one.ts"), [f("b/two.ts")]],
    [f("b/two.ts"), [f("c/three.ts")]],
    [f("c/three.ts"), [f("a/four.ts"), f("d/five.ts")]],
    [f("a/four.ts"), []],
    [f("d/five.ts"), []],
  ]);
  expect(cyclicFolderEdges(files)).toEqual(["a -> b", "b -> c", "c -> a"]);
  files.set(f("c/three.ts"), [f("d/five.ts")]);
  expect(cyclicFolderEdges(files)).toEqual([]);
});

test("the folders under src/ import each other in loops only by the allowed imports (ALLOWED_FOLDER_EDGES, which only shrinks)", () => {
  expect(cyclicFolderEdges(importGraph())).toEqual(ALLOWED_FOLDER_EDGES);
});
