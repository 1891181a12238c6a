/**
 * pyodideIndexDir returns the directory that holds pyodide.asm.wasm, pyodide.asm.mjs,
 * python_stdlib.zip and pyodide-lock.json, with a trailing slash, as loadPyodide's `indexURL`
 * wants it. It is the one place that knows where the package lives:
 *  - from source: the pyodide package in node_modules;
 *  - in the compiled binary: the four files are embedded (the imports below) and unpacked once into
 *    the native cache dir (src/runtime/embedded.ts), because Pyodide reads them by name from one
 *    directory and imports pyodide.asm.mjs from there, which the binary's virtual file system
 *    (hashed names) cannot offer.
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import { isCompiled, nativeCacheDir, unpackEmbedded } from "../../runtime/embedded";
// @ts-ignore: file imports resolve to a path (embedded into the binary by `bun build --compile`)
import asmWasm from "pyodide/pyodide.asm.wasm" with { type: "file" };
// @ts-ignore: see above
import asmJs from "pyodide/pyodide.asm.mjs" with { type: "file" };
// @ts-ignore: see above
import stdlib from "pyodide/python_stdlib.zip" with { type: "file" };
// @ts-ignore: see above
import lock from "pyodide/pyodide-lock.json" with { type: "file" };

const ASSETS: Record<string, string> = {
  "pyodide.asm.wasm": asmWasm as unknown as string,
  "pyodide.asm.mjs": asmJs as unknown as string,
  "python_stdlib.zip": stdlib as unknown as string,
  "pyodide-lock.json": lock as unknown as string,
};

export function pyodideIndexDir(): string {
  if (!isCompiled()) {
    const entry = new URL(import.meta.resolve("pyodide"));
    return decodeURIComponent(new URL(".", entry).pathname);
  }
  const key = createHash("sha256").update(Object.values(ASSETS).join("\n")).digest("hex").slice(0, 12);
  const dir = nativeCacheDir(`pyodide-${key}`);
  for (const [name, src] of Object.entries(ASSETS)) unpackEmbedded(src, join(dir, name));
  return `${dir}/`;
}
