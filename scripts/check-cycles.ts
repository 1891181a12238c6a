/**
 * check-cycles: fails when the files under src/ import each other in a cycle (type-only imports
 * count too: a cycle of types is a cycle of design), and prints the cycles between folders.
 *
 *   bun scripts/check-cycles.ts            exit 1 on a file-level cycle not in ALLOWED_CYCLES
 *
 * ALLOWED_CYCLES lists the cycles that existed when the check was introduced, each as the sorted set of
 * files of one strongly connected component. It may only shrink: a cycle that grows or a new one
 * fails, and so does an entry that no longer matches (remove or narrow it once the cycle is broken).
 *
 * Folders (the folders directly under src/, and the files at src/) are checked by their edges: an
 * import from folder A to folder B is cyclic when B reaches A again. ALLOWED_FOLDER_EDGES lists the
 * cyclic edges still to break; a new one (a new loop, or a new import inside the existing loop) fails,
 * and so does an entry that is no longer cyclic (remove it: the list only shrinks). `--folders` prints
 * each cyclic edge with the file imports that make it.
 */
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");
const SRC = join(ROOT, "src");

/** ALLOWED_CYCLES: cycles still to break (sorted file lists, paths from src/) */
export const ALLOWED_CYCLES: string[][] = [];

/**
 * ALLOWED_FOLDER_EDGES: imports between folders that still close a loop ("from -> to"); shrink only.
 * None are left: a new import that closes a loop between folders fails the check.
 */
export const ALLOWED_FOLDER_EDGES: string[] = [
];

const IMPORT = /(?:^|[;\s])(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

function resolveImport(from: string, spec: string, files: Set<string>): string | null {
  if (!spec.startsWith(".")) return null;
  const base = resolve(dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, join(base, "index.ts")]) if (files.has(candidate)) return candidate;
  return null;
}

/** importGraph maps every .ts file under src/ to the files it imports. */
export function importGraph(): Map<string, string[]> {
  const files = new Set([...new Bun.Glob("**/*.ts").scanSync(SRC)].map((f) => join(SRC, f)));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
    const targets = new Set<string>();
    for (const m of text.matchAll(IMPORT)) {
      const target = resolveImport(file, m[1] ?? m[2]!, files);
      if (target) targets.add(target);
    }
    graph.set(file, [...targets]);
  }
  return graph;
}

/** cyclesOf: the strongly connected components with more than one node (Tarjan), each sorted. */
export function cyclesOf<T extends string>(graph: Map<T, T[]>): T[][] {
  let index = 0;
  const indexOf = new Map<T, number>();
  const low = new Map<T, number>();
  const stack: T[] = [];
  const onStack = new Set<T>();
  const out: T[][] = [];
  const visit = (v: T) => {
    indexOf.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!indexOf.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indexOf.get(w)!));
    }
    if (low.get(v) === indexOf.get(v)) {
      const component: T[] = [];
      for (let w = stack.pop()!; ; w = stack.pop()!) {
        onStack.delete(w);
        component.push(w);
        if (w === v) break;
      }
      if (component.length > 1) out.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!indexOf.has(v)) visit(v);
  return out;
}

const folderOf = (f: string) => relative(SRC, f).split("/")[0]!;

/** folderGraph: the same imports between the folders directly under src/ (a file at src/ is its own node). */
function folderGraph(files: Map<string, string[]>): Map<string, string[]> {
  const graph = new Map<string, Set<string>>();
  for (const [file, targets] of files) {
    const from = folderOf(file);
    if (!graph.has(from)) graph.set(from, new Set());
    for (const t of targets) if (folderOf(t) !== from) graph.get(from)!.add(folderOf(t));
  }
  return new Map([...graph].map(([k, v]) => [k, [...v]]));
}

/** cyclicFolderEdges: the imports between folders ("from -> to") whose two folders are in one loop, sorted. */
export function cyclicFolderEdges(files: Map<string, string[]>): string[] {
  const folders = folderGraph(files);
  const loopOf = new Map<string, number>();
  cyclesOf(folders).forEach((loop, i) => loop.forEach((folder) => loopOf.set(folder, i)));
  const edges: string[] = [];
  for (const [from, targets] of folders) for (const to of targets) if (loopOf.has(from) && loopOf.get(from) === loopOf.get(to)) edges.push(`${from} -> ${to}`);
  return edges.sort();
}

/** folderEdgeFiles: the file imports that make one folder edge ("from -> to"), for the report */
function folderEdgeFiles(files: Map<string, string[]>, edge: string): string[] {
  const [from, to] = edge.split(" -> ");
  const out: string[] = [];
  for (const [file, targets] of files) if (folderOf(file) === from) for (const t of targets) if (folderOf(t) === to) out.push(`${relative(SRC, file)} -> ${relative(SRC, t)}`);
  return out;
}

if (import.meta.main) {
  const graph = importGraph();
  const cycles = cyclesOf(graph).map((c) => c.map((f) => relative(SRC, f)));
  const key = (c: string[]) => c.join(" ");
  const allowed = new Set(ALLOWED_CYCLES.map(key));
  const found = new Set(cycles.map(key));
  const fresh = cycles.filter((c) => !allowed.has(key(c)));
  const stale = ALLOWED_CYCLES.filter((c) => !found.has(key(c)));
  const folders = cyclesOf(folderGraph(graph));
  const edges = cyclicFolderEdges(graph);
  const freshEdges = edges.filter((e) => !ALLOWED_FOLDER_EDGES.includes(e));
  const staleEdges = ALLOWED_FOLDER_EDGES.filter((e) => !edges.includes(e));
  console.log(
    `import cycles: ${cycles.length} between files (${ALLOWED_CYCLES.length} allowed); ${edges.length} folder imports in loops (${ALLOWED_FOLDER_EDGES.length} allowed)${folders.length ? `: ${folders.map((c) => `folders ${c.join(", ")}`).join("; ")}` : ""}`,
  );
  if (process.argv.includes("--folders")) for (const e of edges) console.log(`  ${e}: ${folderEdgeFiles(graph, e).join("; ")}`);
  for (const c of fresh) console.error(`new import cycle between ${c.length} files: ${c.join(", ")}`);
  for (const c of stale) console.error(`ALLOWED_CYCLES entry no longer matches a cycle (remove or narrow it in scripts/check-cycles.ts): ${c.join(", ")}`);
  for (const e of freshEdges) console.error(`new import between folders in a loop: ${e} (${folderEdgeFiles(graph, e).join("; ")}); import the other way, move the shared part down, or pass the dependency in`);
  for (const e of staleEdges) console.error(`ALLOWED_FOLDER_EDGES entry is no longer in a loop (remove it from scripts/check-cycles.ts): ${e}`);
  if (fresh.length || stale.length || freshEdges.length || staleEdges.length) process.exit(1);
}
