import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SERVER_ALLOCATOR_ENV, glibcMallocToSet, restartArgsOf } from "../src/runtime/allocator";
import { ROOT, startServer } from "./helpers/server";

/** environOf reads a running process's environment from /proc */
function environOf(pid: number): Map<string, string> {
  const entries = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").filter(Boolean);
  return new Map(entries.map((e) => [e.slice(0, e.indexOf("=")), e.slice(e.indexOf("=") + 1)]));
}

describe("the allocator setting of docintel serve", () => {
  test("a script run starts again with Bun's flags and the script; the binary with the command only", () => {
    const script = ["/usr/bin/bun", "/srv/docintel/bin/docintel", "serve", "--port", "9000"];
    expect(restartArgsOf(script, ["--smol"], false)).toEqual(["--smol", "/srv/docintel/bin/docintel", "serve", "--port", "9000"]);
    const binary = ["/usr/local/bin/docintel", "/$bunfs/root/src/cli/main.js", "serve", "--port", "9000"];
    expect(restartArgsOf(binary, [], true)).toEqual(["serve", "--port", "9000"]);
  });

  test("serve runs with mimalloc's purge off, in the process it was started as", async () => {
    const server = await startServer({ args: ["--no-bootstrap-key"] });
    try {
      expect(environOf(server.proc.pid).get("MIMALLOC_PURGE_DELAY")).toBe(SERVER_ALLOCATOR_ENV.MIMALLOC_PURGE_DELAY);
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    } finally {
      await server.stop();
    }
  }, 60_000);

  test("an operator's own MIMALLOC_PURGE_DELAY is kept", async () => {
    const server = await startServer({ args: ["--no-bootstrap-key"], env: { MIMALLOC_PURGE_DELAY: "100" } });
    try {
      expect(environOf(server.proc.pid).get("MIMALLOC_PURGE_DELAY")).toBe("100");
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    } finally {
      await server.stop();
    }
  }, 60_000);

  test("serve's glibc malloc thresholds yield to an operator's own", () => {
    const names = (env: Record<string, string>) => glibcMallocToSet(env).map((s) => s.name);
    expect(names({})).toEqual(["trim_threshold", "mmap_threshold"]);
    expect(names({ MALLOC_TRIM_THRESHOLD_: "131072" })).toEqual(["mmap_threshold"]);
    expect(names({ GLIBC_TUNABLES: "glibc.cpu.hwcaps=-AVX512F:glibc.malloc.mmap_threshold=65536" })).toEqual(["trim_threshold"]);
    expect(names({ GLIBC_TUNABLES: "glibc.malloc.trim_threshold=1:glibc.malloc.mmap_threshold=1" })).toEqual([]);
  });

  /**
   * mmapRegionsAfter8MbBlocks runs a Bun process that (with `set`) applies the server's thresholds,
   * then mallocs and frees 8 MB three times through glibc and reads malloc_stats()' "max mmap
   * regions": glibc's default serves the first such block with a fresh mmap, the server's setting
   * from the heap.
   */
  async function mmapRegionsAfter8MbBlocks(set: boolean): Promise<{ regions: number; stderr: string }> {
    const script = `
      import { dlopen, FFIType } from "bun:ffi";
      import { setGlibcMalloc } from ${JSON.stringify(join(ROOT, "src/runtime/allocator.ts"))};
      if (${set}) console.error("set: " + setGlibcMalloc().join(","));
      const libc = dlopen("libc.so.6", { malloc: { args: [FFIType.u64], returns: FFIType.ptr }, free: { args: [FFIType.ptr], returns: FFIType.void }, malloc_stats: { args: [], returns: FFIType.void } });
      for (let i = 0; i < 3; i++) libc.symbols.free(libc.symbols.malloc(8 * 1024 * 1024));
      libc.symbols.malloc_stats();`;
    const env: Record<string, string | undefined> = { ...process.env };
    for (const name of ["GLIBC_TUNABLES", "MALLOC_TRIM_THRESHOLD_", "MALLOC_MMAP_THRESHOLD_"]) delete env[name];
    const proc = Bun.spawn([process.execPath, "-e", script], { stdout: "ignore", stderr: "pipe", env });
    const stderr = await new Response(proc.stderr).text();
    expect(await proc.exited).toBe(0);
    return { regions: Number(/max mmap regions\s*=\s*(\d+)/.exec(stderr)?.[1] ?? NaN), stderr };
  }

  test("serve's glibc malloc setting serves multi-megabyte blocks from the heap, not from fresh mmaps", async () => {
    const before = await mmapRegionsAfter8MbBlocks(false);
    expect(before.regions).toBeGreaterThanOrEqual(1);
    const after = await mmapRegionsAfter8MbBlocks(true);
    expect(after.stderr).toContain("set: trim_threshold,mmap_threshold");
    expect(after.regions).toBe(0);
  }, 60_000);
});
