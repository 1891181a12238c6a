/**
 * Runtime helpers for the single binary built by `bun scripts/build.ts` (`Bun.build({ compile })`).
 *
 * Inside the binary every bundled entrypoint lives under a virtual read-only file system rooted at
 * `/$bunfs/root/` (the path of each entry relative to the build root, `.js` for `.ts`), and files
 * imported `with { type: "file" }` are embedded there too. Native code cannot be loaded from that
 * virtual file system, so the sharp addon and libvips are copied once into a cache directory on the
 * real disk (see `loadEmbeddedAddon`) and loaded from there. scripts/build-plugins.ts generates the
 * module that calls it in place of sharp's own loader.
 *
 * This module must not import anything from src/ (it runs before config loads, in every worker).
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { threadId } from "node:worker_threads";

/** BUNFS_ROOT is where `bun build --compile` mounts the bundled entrypoints and embedded files. */
export const BUNFS_ROOT = process.platform === "win32" ? "B:/~BUN/root" : "/$bunfs/root";

/**
 * isCompiled reports whether this code runs inside a `bun build --compile` binary, in the main
 * thread or a worker. Bun >= 1.3 sets `Bun.isStandaloneExecutable`; the module URL check covers older
 * versions (inside the binary `import.meta.url` is `file:///$bunfs/root/<entry>`).
 */
export function isCompiled(): boolean {
  const flag = (globalThis as { Bun?: { isStandaloneExecutable?: boolean } }).Bun?.isStandaloneExecutable;
  if (typeof flag === "boolean") return flag;
  return import.meta.url.startsWith("file:///$bunfs/") || import.meta.url.startsWith("file:///B:/~BUN/");
}

/**
 * compiledEntryPath is the path of a bundled entrypoint inside the binary, given its source path
 * relative to the build root (`src/pool/worker.ts` -> `/$bunfs/root/src/pool/worker.js`). It is what
 * `new Worker()` and piscina's `filename` need. The main entrypoint is the exception: Bun names it
 * after the output file (`/$bunfs/root/docintel`).
 */
export function compiledEntryPath(sourcePathFromRoot: string): string {
  const withJs = sourcePathFromRoot.replace(/\\/g, "/").replace(/^\.\//, "").replace(/\.(ts|tsx|mts|cts|mjs|cjs)$/, ".js");
  return `${BUNFS_ROOT}/${withJs}`;
}

/**
 * nativeCacheDir is the directory the native libraries are unpacked into:
 * `$DOCINTEL_CACHE_DIR/native-<key>`, else `$XDG_CACHE_HOME/docintel/native-<key>`, else
 * `~/.cache/docintel/native-<key>`. It must be on a file system that allows mapping code (not
 * `noexec`). `key` names the build of the libraries (versions and a content hash), so binaries with
 * different libraries never share a directory.
 *
 * This is the one place outside src/config that reads process.env: sharp's loader runs when the
 * first module imports sharp, before the config is loaded, and again in every worker thread.
 */
export function nativeCacheDir(key = "default"): string {
  const env = process.env;
  const base = env.DOCINTEL_CACHE_DIR || join(env.XDG_CACHE_HOME || join(homedir(), ".cache"), "docintel");
  return join(base, `native-${key}`);
}

/**
 * unpackEmbedded copies an embedded file (a `/$bunfs/...` path) to `destPath` on disk. It skips the
 * copy when `destPath` already exists with the same size, and otherwise writes a temporary file in
 * the same directory and renames it into place, so that threads and processes unpacking at the same
 * time never see a half-written file. It returns true when it wrote the file.
 */
export function unpackEmbedded(srcPath: string, destPath: string): boolean {
  const size = statSync(srcPath).size;
  if (fileSize(destPath) === size) return false;
  mkdirSync(dirname(destPath), { recursive: true, mode: 0o755 });
  const tmpPath = `${destPath}.tmp-${process.pid}-${threadId}-${Math.random().toString(36).slice(2, 10)}`;
  try {
    writeFileSync(tmpPath, readFileSync(srcPath), { mode: 0o755 });
    renameSync(tmpPath, destPath);
  } catch (error) {
    try {
      unlinkSync(tmpPath);
    } catch {
      // the temporary file was never created
    }
    throw new Error(`unpack embedded file ${srcPath} to ${destPath}: ${(error as Error).message}`, { cause: error });
  }
  return true;
}

/** EmbeddedFile is one embedded native file and where it goes below the cache dir. */
export interface EmbeddedFile {
  /** src: the `/$bunfs/...` path of the file, as returned by an `import ... with { type: "file" }` */
  src: string;
  /** rel: its path below the cache dir, e.g. `@img/sharp-linux-x64/lib/sharp-linux-x64-0.35.5.node` */
  rel: string;
}

/** EmbeddedAddon describes a native addon and the shared libraries it links against. */
export interface EmbeddedAddon {
  /** name: the package, for messages and the cache key (`sharp`) */
  name: string;
  /** version: the package version, part of the cache key */
  version: string;
  /** addon: the `.node` file; its RPATH must find `libs` at their `rel` paths */
  addon: EmbeddedFile;
  /** libs: shared libraries, unpacked before the addon is loaded */
  libs: EmbeddedFile[];
}

/**
 * loadEmbeddedAddon unpacks an addon and its libraries into the native cache dir, keeping the
 * `node_modules` layout so the addon's RPATH (`$ORIGIN/../../<lib package>/lib`) finds them, and loads
 * it with `process.dlopen`. It returns the addon's exports.
 */
export function loadEmbeddedAddon(spec: EmbeddedAddon): unknown {
  const files = [...spec.libs, spec.addon];
  const contentHash = createHash("sha256")
    .update(files.map((file) => `${file.rel}=${file.src}`).join("\n")) // embedded names carry a content hash
    .digest("hex")
    .slice(0, 12);
  const dir = nativeCacheDir(`${spec.name}-${spec.version}-${contentHash}`);
  for (const file of files) unpackEmbedded(file.src, join(dir, file.rel));
  const addonPath = join(dir, spec.addon.rel);
  const module = { exports: {} as unknown };
  try {
    process.dlopen(module, addonPath);
  } catch (error) {
    throw new Error(
      `load the embedded ${spec.name} native addon from ${addonPath}: ${(error as Error).message}. ` +
        "If that directory is on a noexec mount, set DOCINTEL_CACHE_DIR to a directory that allows executables.",
      { cause: error },
    );
  }
  return module.exports;
}

function fileSize(path: string): number | undefined {
  try {
    return statSync(path).size;
  } catch {
    return undefined;
  }
}
