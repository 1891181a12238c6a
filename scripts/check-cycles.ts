/**
 * check-cycles: fails when the files under src/ import each other in a cycle (type-only imports
 * count too: a cycle of types is a cycle of design), and prints the cycles between folders.
 *
 *   bun scripts/check-cycles.ts            exit 1 on a file-level cycle not in ALLOWED_CYCLES
 *
 * ALLOWED_CYCLES lists the cycles that existed when the check was introduced, each as the sorted set of
 * files of one strongly connected component. It may only shrink: a cycle that grows or a new one
 * fails, and so does an entry that no longer matches (remove or narrow it once the cycle is broken).
 */
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");
const SRC = join(ROOT, "src");

/** ALLOWED_CYCLES: cycles still to break (sorted file lists, paths from src/) */
export const ALLOWED_CYCLES: string[][] = [];

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

/** folderGraph: the same imports between the folders directly under src/ (a file at src/ is its own node). */
function folderGraph(files: Map<string, string[]>): Map<string, string[]> {
  const folderOf = (f: string) => relative(SRC, f).split("/")[0]!;
  const graph = new Map<string, Set<string>>();
  for (const [file, targets] of files) {
    const from = folderOf(file);
    if (!graph.has(from)) graph.set(from, new Set());
    for (const t of targets) if (folderOf(t) !== from) graph.get(from)!.add(folderOf(t));
  }
  return new Map([...graph].map(([k, v]) => [k, [...v]]));
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
  console.log(`import cycles: ${cycles.length} between files (${ALLOWED_CYCLES.length} allowed), ${folders.length ? folders.map((c) => `folders ${c.join(", ")}`).join("; ") : "none between folders"}`);
  for (const c of fresh) console.error(`new import cycle between ${c.length} files: ${c.join(", ")}`);
  for (const c of stale) console.error(`ALLOWED_CYCLES entry no longer matches a cycle (remove or narrow it in scripts/check-cycles.ts): ${c.join(", ")}`);
  if (fresh.length || stale.length) process.exit(1);
}
