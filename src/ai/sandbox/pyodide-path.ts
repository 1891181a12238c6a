/**
 * pyodideIndexDir returns the directory that holds pyodide.asm.wasm and python_stdlib.zip,
 * with a trailing slash, as loadPyodide's `indexURL` wants it. It is the one place that knows
 * where the package lives: the compiled binary will answer with its embedded copy instead
 * (see the report on issue 4: embed the folder, pass `createPyodideModule`).
 */
export function pyodideIndexDir(): string {
  const entry = new URL(import.meta.resolve("pyodide"));
  return decodeURIComponent(new URL(".", entry).pathname);
}
