/**
 * Bun bundler plugins that make sharp and piscina work inside the single binary built by
 * scripts/build.ts. Both packages find files next to themselves at run time, which fails inside a
 * `bun build --compile` binary (there is no node_modules next to it):
 *
 * - sharp-loader: `sharp/dist/sharp.mjs` loads `@img/sharp-<platform>/sharp.node` through
 *   `createRequire` at run time. It is replaced by a module that imports the addon and libvips
 *   `with { type: "file" }` (so both are embedded), unpacks them into a cache dir laid out like
 *   node_modules (`@img/<pkg>/lib/...`, so the addon's RPATH finds libvips) and `process.dlopen`s the
 *   addon; see src/runtime/embedded.ts. `sharp.cjs` is pointed at the same module.
 * - sharp-versions: `sharp/dist/utility.{mjs,cjs}` reads the libvips `versions.json` through `createRequire`;
 *   it is imported statically instead, so `sharp.versions` is complete in the binary.
 * - piscina-worker-path: `piscina/dist/index.js` starts every thread on
 *   `path.resolve(__dirname, 'worker.js')`; Bun fixes `__dirname` at build time, so the binary only
 *   works on the build machine. The expression is rewritten to the `/$bunfs/root/...` path of
 *   piscina's worker, which scripts/build.ts adds as an extra entrypoint.
 *
 * Versions and file names are read from the installed packages when the build runs. Each plugin
 * checks that the code it replaces still looks as expected and fails the build otherwise.
 */
import type { BunPlugin } from "bun";
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";

/** NativeFile is a file to embed: where it is now and where it goes below the native cache dir. */
export interface NativeFile {
  /** abs: absolute path in the installed node_modules */
  abs: string;
  /** rel: `@img/<package>/<path in package>`, the layout the addon's RPATH expects */
  rel: string;
  /** bytes: size on disk */
  bytes: number;
}

/** CompilePlan is everything the plugins and the build need, derived from the installed packages. */
export interface CompilePlan {
  /** root: the build root; entrypoints are embedded at `/$bunfs/root/<path from root>` */
  root: string;
  /** sharpVersion: version of the installed sharp */
  sharpVersion: string;
  /** platform: sharp's runtime platform name, e.g. `linux-x64` or `linuxmusl-x64` */
  platform: string;
  /** addon: the sharp `.node` addon */
  addon: NativeFile;
  /** libvips: the libvips shared library the addon links against */
  libvips: NativeFile;
  /** libvipsVersionsJson: absolute path of the libvips package's versions.json (may be absent) */
  libvipsVersionsJson?: string;
  /** piscinaWorker: absolute path of piscina's `dist/worker.js`, an extra entrypoint */
  piscinaWorker: string;
  /** piscinaWorkerFromRoot: its path relative to the root, as embedded in the binary */
  piscinaWorkerFromRoot: string;
  /** embeddedRuntime: absolute path of src/runtime/embedded.ts, imported by the generated code */
  embeddedRuntime: string;
}

/** planCompile reads the installed sharp, its platform packages and piscina below `root`. */
export function planCompile(root: string): CompilePlan {
  root = realpathSync(resolve(root));
  const rootRequire = createRequire(join(root, "package.json"));

  const sharpDir = packageDir(rootRequire.resolve("sharp"), "sharp");
  const sharpVersion = readJson(join(sharpDir, "package.json")).version as string;
  const sharpRequire = createRequire(join(sharpDir, "package.json"));
  const platform = sharpPlatform(sharpRequire);

  const addonPkgName = `@img/sharp-${platform}`;
  const addonPkgDir = dirname(resolveOrFail(sharpRequire, `${addonPkgName}/package`, `sharp's prebuilt addon for ${platform}`));
  const addon = nativeFile(addonPkgName, addonPkgDir, findAddon(addonPkgDir));

  const libvipsPkgName = `@img/sharp-libvips-${platform}`;
  const addonRequire = createRequire(join(addonPkgDir, "package.json"));
  const libvipsPkgDir = dirname(resolveOrFail(addonRequire, `${libvipsPkgName}/package`, `libvips for ${platform}`));
  const libvips = nativeFile(libvipsPkgName, libvipsPkgDir, findLibvips(libvipsPkgDir));
  const versionsJson = join(libvipsPkgDir, "versions.json");

  const piscinaDir = packageDir(rootRequire.resolve("piscina"), "piscina");
  const piscinaWorker = realpathSync(join(piscinaDir, "dist", "worker.js"));
  const piscinaWorkerFromRoot = relative(root, piscinaWorker).split(sep).join("/");
  if (piscinaWorkerFromRoot.startsWith("..") || isAbsolute(piscinaWorkerFromRoot)) {
    throw new Error(`piscina's worker ${piscinaWorker} is outside the build root ${root}; its embedded path would be unknown`);
  }

  const embeddedRuntime = join(root, "src", "runtime", "embedded.ts");
  if (!existsSync(embeddedRuntime)) throw new Error(`missing ${embeddedRuntime}`);

  return {
    root,
    sharpVersion,
    platform,
    addon,
    libvips,
    libvipsVersionsJson: existsSync(versionsJson) ? versionsJson : undefined,
    piscinaWorker,
    piscinaWorkerFromRoot,
    embeddedRuntime,
  };
}

/** PluginReport records which replacements ran, so the build can fail when one never applied. */
export type PluginReport = Set<"sharp-loader" | "sharp-versions" | "piscina-worker-path">;

/** compilePlugins returns the plugins for `Bun.build({ compile })` and the report they fill in. */
export function compilePlugins(plan: CompilePlan): { plugins: BunPlugin[]; applied: PluginReport } {
  const applied: PluginReport = new Set();
  const plugin: BunPlugin = {
    name: "docintel-compile",
    setup(build) {
      build.onLoad({ filter: /[\\/]sharp[\\/]dist[\\/]sharp\.mjs$/ }, ({ path }) => {
        assertSharpLoader(path, plan);
        applied.add("sharp-loader");
        return { contents: sharpLoaderModule(plan), loader: "js" };
      });
      build.onLoad({ filter: /[\\/]sharp[\\/]dist[\\/]sharp\.cjs$/ }, ({ path }) => {
        assertSharpLoader(path, plan);
        applied.add("sharp-loader");
        // One loader module for both module formats, so the native files are embedded once.
        return { contents: `module.exports = require("./sharp.mjs").default;\n`, loader: "js" };
      });
      build.onLoad({ filter: /[\\/]sharp[\\/]dist[\\/]utility\.(mjs|cjs)$/ }, ({ path }) => {
        const source = readFileSync(path, "utf8");
        const call = "require(`@img/sharp-libvips-${runtimePlatform}/versions`)";
        if (!plan.libvipsVersionsJson || !source.includes(call)) {
          console.warn(`build-plugins: ${path} no longer contains ${call}; sharp.versions will list only vips in the binary`);
          return { contents: source, loader: "js" };
        }
        applied.add("sharp-versions");
        const json = JSON.stringify(plan.libvipsVersionsJson);
        const contents = path.endsWith(".cjs")
          ? source.replace(call, () => `({ ...require(${json}) })`)
          : `import __docintelLibvipsVersions from ${json} with { type: "json" };\n` + source.replace(call, "({ ...__docintelLibvipsVersions })");
        return { contents, loader: "js" };
      });
      build.onLoad({ filter: /[\\/]piscina[\\/]dist[\\/]index\.js$/ }, ({ path }) => {
        const source = readFileSync(path, "utf8");
        const expression = /\(0,\s*node_path_1\.resolve\)\(__dirname,\s*(['"])worker\.js\1\)/g;
        const matches = source.match(expression) ?? [];
        if (matches.length !== 1) {
          throw new Error(
            `build-plugins: expected one \`(0, node_path_1.resolve)(__dirname, 'worker.js')\` in ${path}, found ${matches.length}; ` +
              "piscina changed how it finds its worker, update scripts/build-plugins.ts",
          );
        }
        const runtime = `require(${JSON.stringify(plan.embeddedRuntime)})`;
        const replacement =
          `(${runtime}.isCompiled() ? ${runtime}.compiledEntryPath(${JSON.stringify(plan.piscinaWorkerFromRoot)}) : ${matches[0]})`;
        const contents = source.replace(expression, () => replacement);
        const leftover = contents.replace(replacement, "").match(/__dirname|__filename/g);
        if (leftover) console.warn(`build-plugins: ${path} still uses __dirname/__filename ${leftover.length} time(s)`);
        applied.add("piscina-worker-path");
        return { contents, loader: "js" };
      });
    },
  };
  return { plugins: [plugin], applied };
}

/** sharpLoaderModule is the source that replaces sharp/dist/sharp.mjs in the binary. */
function sharpLoaderModule(plan: CompilePlan): string {
  const x64Check = plan.platform.endsWith("-x64")
    ? `if (typeof sharp._isUsingX64V2 === "function" && !sharp._isUsingX64V2()) {
  const err = new Error("Prebuilt binaries for Linux x64 require v2 microarchitecture");
  err.code = "Unsupported CPU";
  throw err;
}\n`
    : "";
  return `// Generated by scripts/build-plugins.ts: replaces sharp's loader (sharp/dist/sharp.mjs) in the
// compiled binary. The addon and libvips are embedded and unpacked to the native cache dir.
import { loadEmbeddedAddon } from ${JSON.stringify(plan.embeddedRuntime)};
import addonSrc from ${JSON.stringify(plan.addon.abs)} with { type: "file" };
import libvipsSrc from ${JSON.stringify(plan.libvips.abs)} with { type: "file" };

const sharp = loadEmbeddedAddon({
  name: "sharp",
  version: ${JSON.stringify(plan.sharpVersion)},
  addon: { src: addonSrc, rel: ${JSON.stringify(plan.addon.rel)} },
  libs: [{ src: libvipsSrc, rel: ${JSON.stringify(plan.libvips.rel)} }],
});
${x64Check}
export default sharp;
`;
}

/** assertSharpLoader fails the build when sharp's loader no longer looks like the one replaced. */
function assertSharpLoader(path: string, plan: CompilePlan): void {
  const source = readFileSync(path, "utf8");
  const expected = ["require(", `@img/sharp-${plan.platform}/sharp.node`];
  const missing = expected.filter((text) => !source.includes(text));
  if (missing.length > 0) {
    throw new Error(
      `build-plugins: ${path} does not contain ${missing.join(", ")}; sharp changed how it loads its addon, update scripts/build-plugins.ts`,
    );
  }
}

/** sharpPlatform mirrors sharp's runtimePlatformArch(): `${platform}${musl ? "musl" : ""}-${arch}`. */
function sharpPlatform(sharpRequire: NodeJS.Require): string {
  let libc = "";
  if (process.platform === "linux") {
    const detectLibc = sharpRequire("detect-libc") as { isNonGlibcLinuxSync(): boolean; familySync(): string | null };
    if (detectLibc.isNonGlibcLinuxSync()) libc = detectLibc.familySync() ?? "";
  }
  return `${process.platform}${libc}-${process.arch}`;
}

/** findAddon reads the addon file name from the platform package's index.cjs (it carries the version). */
function findAddon(pkgDir: string): string {
  const indexCjs = join(pkgDir, "index.cjs");
  if (existsSync(indexCjs)) {
    const match = readFileSync(indexCjs, "utf8").match(/require\(\s*['"]\.\/(lib\/[^'"]+\.node)['"]\s*\)/);
    if (match && existsSync(join(pkgDir, match[1]!))) return match[1]!;
  }
  const nodes = readdirSync(join(pkgDir, "lib")).filter((name) => name.endsWith(".node"));
  if (nodes.length !== 1) throw new Error(`expected one .node file in ${join(pkgDir, "lib")}, found ${nodes.join(", ") || "none"}`);
  return `lib/${nodes[0]}`;
}

/** findLibvips reads the library file name from the libvips package's `./binary` export. */
function findLibvips(pkgDir: string): string {
  const binary = (readJson(join(pkgDir, "package.json")).exports as Record<string, string> | undefined)?.["./binary"];
  if (binary && existsSync(join(pkgDir, binary))) return binary.replace(/^\.\//, "");
  const libs = readdirSync(join(pkgDir, "lib")).filter((name) => /^libvips-cpp\.(so\.\d|.*dylib$)/.test(name));
  if (libs.length !== 1) throw new Error(`expected one libvips-cpp library in ${join(pkgDir, "lib")}, found ${libs.join(", ") || "none"}`);
  return `lib/${libs[0]}`;
}

function nativeFile(pkgName: string, pkgDir: string, pathInPkg: string): NativeFile {
  const abs = realpathSync(join(pkgDir, pathInPkg));
  return { abs, rel: `${pkgName}/${pathInPkg}`, bytes: statSync(abs).size };
}

/** packageDir walks up from a resolved file to the directory whose package.json has `name`. */
function packageDir(resolvedFile: string, name: string): string {
  let dir = dirname(realpathSync(resolvedFile));
  while (dir !== dirname(dir)) {
    const pkgJson = join(dir, "package.json");
    if (existsSync(pkgJson) && readJson(pkgJson).name === name) return dir;
    dir = dirname(dir);
  }
  throw new Error(`no package.json named ${name} above ${resolvedFile}`);
}

function resolveOrFail(req: NodeJS.Require, specifier: string, what: string): string {
  try {
    return realpathSync(req.resolve(specifier));
  } catch (error) {
    throw new Error(`cannot find ${specifier} (${what}); install it for this platform: ${(error as Error).message}`, { cause: error });
  }
}

function readJson(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
}
