/**
 * collect.ts lays out the real documents that bench/extract-real.ts reads, from local git mirrors
 * of their public repositories. Each bench/expected/<set>.json names, per document, its source's
 * repository and commit and the document's path there; this copies `git show COMMIT:PATH` to
 * OUT/<dir>/<file> for every document, where <dir> is the variable extract-real reads it from:
 *
 *   invoices/       BENCH_INVOICES_DIR        (expected/invoices.json)
 *   invoices-intl/  BENCH_INVOICES_INTL_DIR   (expected/invoices-intl.json)
 *   realdocs/       BENCH_REALDOCS_DIR        (every other set with documents: the families, the fresh
 *                                             sets invoices-fresh.json, invoices-fresh2.json,
 *                                             invoices-fresh3.json, invoices-fresh4.json,
 *                                             invoices-fresh5.json, invoices-fresh6.json and
 *                                             invoices-fresh7.json)
 *
 * Usage: bun bench/collect.ts MIRRORS OUT
 *   MIRRORS holds one git directory per repository, as `owner+name/repo` (a bare directory or a
 *   clone with .git), e.g. what the library's fetch leaves in /work/.mirror. A repository or commit
 *   that is missing is reported per document and the script exits 1; documents already in OUT are
 *   kept. The web sets need no collecting: web-eval.tar.gz is in ../shared/corpus.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

type Source = { repository: string; commit: string };
type Doc = { file: string; source?: string; path: string };
type Spec = { sources?: Record<string, Source>; documents?: Doc[] };

/** DIRS maps each expected file to the directory extract-real reads it from (realdocs by default). */
const DIRS: Record<string, string> = { "invoices.json": "invoices", "invoices-intl.json": "invoices-intl" };

function gitDir(mirrors: string, repository: string): string | null {
  const root = join(mirrors, repository.replace("/", "+"), "repo");
  if (existsSync(join(root, ".git"))) return join(root, ".git");
  return existsSync(join(root, "HEAD")) ? root : null;
}

function show(git: string, commit: string, path: string): Uint8Array | null {
  const run = Bun.spawnSync(["git", "--git-dir", git, "show", `${commit}:${path}`], { stdout: "pipe", stderr: "pipe" });
  return run.exitCode === 0 ? run.stdout : null;
}

function main(): number {
  const [mirrors, out] = process.argv.slice(2);
  if (!mirrors || !out) {
    console.error("usage: bun bench/collect.ts MIRRORS OUT");
    return 2;
  }
  const expected = join(import.meta.dir, "expected");
  let copied = 0, kept = 0;
  const missing: string[] = [];
  for (const name of readdirSync(expected).filter((f) => f.endsWith(".json")).sort()) {
    const spec = JSON.parse(readFileSync(join(expected, name), "utf8")) as Spec;
    if (!spec.sources || !spec.documents) continue;
    const dir = join(out, DIRS[name] ?? "realdocs");
    mkdirSync(dir, { recursive: true });
    const only = Object.keys(spec.sources).length === 1 ? Object.keys(spec.sources)[0] : undefined;
    for (const doc of spec.documents) {
      const target = join(dir, doc.file);
      if (existsSync(target)) { kept++; continue; }
      const source = spec.sources[doc.source ?? only ?? ""];
      const git = source && gitDir(mirrors, source.repository);
      const bytes = git ? show(git, source.commit, doc.path) : null;
      if (!bytes) {
        missing.push(`${name}: ${doc.file} (${source ? `${source.repository}@${source.commit.slice(0, 10)}:${doc.path}` : `no source '${doc.source}'`})`);
        continue;
      }
      writeFileSync(target, bytes);
      copied++;
    }
  }
  console.log(`copied ${copied}, already there ${kept}, missing ${missing.length}`);
  for (const m of missing) console.log(`  missing ${m}`);
  console.log(`BENCH_INVOICES_DIR=${join(out, "invoices")} BENCH_INVOICES_INTL_DIR=${join(out, "invoices-intl")} BENCH_REALDOCS_DIR=${join(out, "realdocs")}`);
  return missing.length ? 1 : 0;
}

process.exit(main());
