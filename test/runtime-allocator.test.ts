import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { SERVER_ALLOCATOR_ENV, restartArgsOf } from "../src/runtime/allocator";
import { startServer } from "./helpers/server";

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
});
