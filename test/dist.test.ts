/**
 * `make dist`: the release archive and its checksum, `install.sh --dry-run` (every step printed,
 * nothing changed), `systemd-analyze verify` on the shipped unit, and, where this machine allows a
 * private mount namespace (root with unshare -m), a real run of install.sh (--no-packages --no-start)
 * against private copies of /etc, /usr/local/bin, /var/lib and /var/cache: the user, the dirs and
 * their modes, the settings file, the first key in a root-only file, a second run that keeps them,
 * and the installed binary serving that key from the installed data dir (the API and /mcp).
 *
 * The host's systemd is not PID 1 in a container, so the unit is verified offline
 * (`systemd-analyze verify --root`), not started.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, cpSync } from "node:fs";
import { join, resolve } from "node:path";
import { VERSION } from "../src/version";

const ROOT = resolve(import.meta.dir, "..");
const NAME = `docintel-${VERSION}-linux-x64`;
const BUILD_TIMEOUT_MS = 240_000;

let tmp: string;
let outdir: string;
/** unpacked: the archive's directory, unpacked */
let unpacked: string;

/** makefilePackages reads APT_PACKAGES from the Makefile, the list install.sh must install. */
function makefilePackages(): string[] {
  const makefile = readFileSync(join(ROOT, "Makefile"), "utf8").replace(/\\\n/g, " ");
  const line = /^APT_PACKAGES\s*:=(.*)$/m.exec(makefile);
  if (!line) throw new Error("no APT_PACKAGES in the Makefile");
  return line[1]!.trim().split(/\s+/);
}

function sh(args: string[], cwd = tmp, env: Record<string, string> = {}): { code: number; out: string; err: string } {
  const r = Bun.spawnSync(args, { cwd, stdout: "pipe", stderr: "pipe", env: { ...process.env, ...env } });
  return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString() };
}

beforeAll(() => {
  tmp = mkdtempSync("/tmp/docintel-dist-");
  outdir = join(tmp, "out");
  const made = sh(["make", "--no-print-directory", "-s", "dist", `DIST_DIR=${outdir}`], ROOT);
  if (made.code !== 0) throw new Error(`make dist failed (${made.code}):\n${made.out}\n${made.err}`);
  unpacked = join(tmp, "unpacked");
  mkdirSync(unpacked);
  const untar = sh(["tar", "-xzf", join(outdir, `${NAME}.tar.gz`), "-C", unpacked]);
  if (untar.code !== 0) throw new Error(`tar -x failed: ${untar.err}`);
}, BUILD_TIMEOUT_MS);

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe("make dist", () => {
  test("writes the archive and a checksum that sha256sum -c accepts", () => {
    expect(readdirSync(outdir).sort()).toEqual([`${NAME}.tar.gz`, `${NAME}.tar.gz.sha256`]);
    const check = sh(["sha256sum", "-c", `${NAME}.tar.gz.sha256`], outdir);
    expect(check.out).toBe(`${NAME}.tar.gz: OK\n`);
    expect(check.code).toBe(0);
  });

  test("the archive holds one directory with the binary, the unit, install.sh, the README and the docs it links to", () => {
    const listing = sh(["tar", "-tzvf", join(outdir, `${NAME}.tar.gz`)]).out.trim().split("\n");
    const names = listing.map((l) => l.split(/\s+/).pop()!).sort();
    const docs = readdirSync(join(ROOT, "docs")).map((f) => `${NAME}/docs/${f}`);
    expect(names).toEqual([`${NAME}/`, `${NAME}/README.md`, `${NAME}/docintel`, `${NAME}/docintel.service`, `${NAME}/docs/`, ...docs, `${NAME}/install.sh`].sort());
    expect(listing.every((l) => l.includes(" 0/0 "))).toBe(true); // owned by root, not by whoever built it
    const version = sh([join(unpacked, NAME, "docintel"), "version"], join(unpacked, NAME), { PATH: "/usr/bin:/bin", HOME: tmp, DOCINTEL_CACHE_DIR: join(tmp, "cache") });
    expect(version.out).toContain(`docintel ${VERSION}`);
    expect(version.code).toBe(0);
  });
});

describe("install.sh --dry-run", () => {
  test("prints every step, with the Makefile's packages, and changes nothing", () => {
    const touched = ["/etc/docintel", "/usr/local/bin/docintel", "/etc/systemd/system/docintel.service", "/var/lib/docintel"];
    const before = touched.map(existsSync);
    const run = sh(["./install.sh", "--dry-run"], join(unpacked, NAME));
    expect(run.err).toBe("");
    expect(run.code).toBe(0);
    const out = run.out;
    expect(out).toContain(`docintel ${VERSION} (dry run: nothing is changed)`);
    const aptLine = out.split("\n").find((l) => l.includes("apt-get install"))!;
    expect(aptLine.split(/\s+/)).toEqual(expect.arrayContaining(makefilePackages()));
    expect(out).toContain("+ useradd --system --home-dir /var/lib/docintel --no-create-home --shell /usr/sbin/nologin docintel");
    expect(out).toContain("+ install -d -m 0700 -o docintel -g docintel /var/lib/docintel");
    expect(out).toMatch(/\+ install -m 0755 \S+\/docintel \/usr\/local\/bin\/docintel/);
    expect(out).toContain("+ write /etc/docintel/docintel.env (mode 0640, owner root:docintel):");
    expect(out).toContain("|   # DOCINTEL_DATABASE=postgres://"); // the line a machine of several fills in (README "Running several machines")
    expect(out).toContain("keys create --plan pro --name first --data /var/lib/docintel");
    expect(out).toMatch(/\+ install -m 0644 \S+\/docintel.service \/etc\/systemd\/system\/docintel.service/);
    expect(out).toContain("+ systemctl enable --now docintel");
    expect(out).toContain("first API key:  /etc/docintel/first-api-key");
    expect(touched.map(existsSync)).toEqual(before);
  });

  test("an unknown option is refused with the usage", () => {
    const run = sh(["./install.sh", "--dryrun"], join(unpacked, NAME));
    expect(run.code).toBe(2);
    expect(run.err).toContain("unknown option '--dryrun'");
    expect(run.err).toContain("--dry-run");
  });
});

describe("the systemd unit", () => {
  /** verifyRoot builds a minimal root for systemd-analyze: the system's own units, the unit and the binary at their installed paths. */
  function verifyRoot(unitText: string): string {
    const root = mkdtempSync(join(tmp, "root-"));
    cpSync("/lib/systemd/system", join(root, "usr/lib/systemd/system"), { recursive: true });
    mkdirSync(join(root, "etc/systemd/system"), { recursive: true });
    mkdirSync(join(root, "usr/local/bin"), { recursive: true });
    linkSync(join(unpacked, NAME, "docintel"), join(root, "usr/local/bin/docintel"));
    writeFileSync(join(root, "etc/systemd/system/docintel.service"), unitText);
    return root;
  }

  test("passes systemd-analyze verify without a warning", () => {
    expect(Bun.which("systemd-analyze")).toBeTruthy(); // Debian package systemd, in the Makefile's APT_PACKAGES
    const unit = readFileSync(join(unpacked, NAME, "docintel.service"), "utf8");
    expect(unit).toContain("ExecStart=/usr/local/bin/docintel serve");
    expect(unit).toContain("EnvironmentFile=-/etc/docintel/docintel.env");
    const root = verifyRoot(unit);
    const verify = sh(["systemd-analyze", "verify", "--man=no", `--root=${root}`, "/etc/systemd/system/docintel.service"]);
    expect(verify.out + verify.err).toBe("");
    expect(verify.code).toBe(0);
  });

  test("verify does catch a broken unit (so its silence above means something)", () => {
    const unit = readFileSync(join(unpacked, NAME, "docintel.service"), "utf8").replace("ExecStart=/usr/local/bin/docintel serve", "ExecStart=/usr/local/bin/docintel-missing serve\nRestartSec=soon");
    const verify = sh(["systemd-analyze", "verify", "--man=no", `--root=${verifyRoot(unit)}`, "/etc/systemd/system/docintel.service"]);
    expect(verify.out + verify.err).toContain("docintel-missing");
    expect(verify.out + verify.err).toContain("Failed to parse sec value");
    expect(verify.code).not.toBe(0);
  });
});

/** privateNamespace: whether unshare -m may mount here (root in a container usually may). */
function privateNamespace(): boolean {
  const unshare = Bun.which("unshare");
  return !!unshare && sh([unshare, "-m", "--propagation", "private", "/bin/sh", "-c", "mount -t tmpfs tmpfs /mnt"]).code === 0;
}

describe("install.sh, for real, in a private mount namespace", () => {
  test("installs user, dirs, settings, binary, unit and a first key that the installed service accepts; a second run keeps them", async () => {
    if (!privateNamespace()) throw new Error("unshare -m is not allowed here: the real install cannot be run without changing this machine");
    const hostBefore = { etc: existsSync("/etc/docintel"), user: sh(["getent", "passwd", "docintel"]).code };
    const etcCopy = join(tmp, "etc");
    cpSync("/etc", etcCopy, { recursive: true, verbatimSymlinks: true });
    const port = (() => {
      const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
      const p = probe.port!;
      probe.stop(true);
      return p;
    })();
    // everything install.sh writes lands on private copies or tmpfs, visible only inside this namespace
    const script = `
set -eu
mount --bind "${etcCopy}" /etc
for d in /usr/local/bin /var/lib /var/cache; do mount -t tmpfs tmpfs "$d"; done
cd "${join(unpacked, NAME)}"
./install.sh --no-packages --no-start > /tmp/install-1.log 2>&1 || { cat /tmp/install-1.log; exit 1; }
echo "== first run"; cat /tmp/install-1.log
echo "== facts"
getent passwd docintel | cut -d: -f1,6,7
stat -c '%n %a %U:%G' /var/lib/docintel /var/cache/docintel /etc/docintel /etc/docintel/docintel.env /etc/docintel/first-api-key /usr/local/bin/docintel /etc/systemd/system/docintel.service
echo "key: $(cut -c1-3 /etc/docintel/first-api-key)"
key1=$(cat /etc/docintel/first-api-key)
./install.sh --no-packages --no-start > /tmp/install-2.log 2>&1
echo "== second run"; grep -E "exists; kept|already has keys|user docintel exists" /tmp/install-2.log
[ "$(cat /etc/docintel/first-api-key)" = "$key1" ] && echo "key file unchanged"
echo "== verify"
systemd-analyze verify --man=no /etc/systemd/system/docintel.service && echo "verify ok"
echo "== serve"
set -a; . /etc/docintel/docintel.env; set +a
export DOCINTEL_PORT=${port} DOCINTEL_HOST=127.0.0.1 DOCINTEL_DATA=/var/lib/docintel DOCINTEL_CACHE_DIR=/var/cache/docintel DOCINTEL_METRICS_LISTEN=off
runuser -u docintel -- /usr/local/bin/docintel serve > /tmp/serve.log 2>&1 &
pid=$!
for i in $(seq 1 100); do curl -sf http://127.0.0.1:${port}/healthz >/dev/null && break; sleep 0.1; done
echo "usage: $(curl -s -o /dev/null -w '%{http_code}' -H "X-API-Key: $key1" http://127.0.0.1:${port}/api/v1/usage)"
echo "mcp: $(curl -s -H "X-API-Key: $key1" -H 'content-type: application/json' -H 'accept: application/json, text/event-stream' -d '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' http://127.0.0.1:${port}/mcp | grep -o '"name":"convert_to_markdown"')"
kill $pid; wait $pid || true
grep -c "API key:" /tmp/serve.log || true
`;
    const run = sh(["unshare", "-m", "--propagation", "private", "/bin/bash", "-c", script]);
    const out = run.out;
    if (run.code !== 0) console.error(out, run.err);
    expect(run.code).toBe(0);
    expect(out).toContain("docintel:/var/lib/docintel:/usr/sbin/nologin");
    expect(out).toContain("/var/lib/docintel 700 docintel:docintel");
    expect(out).toContain("/var/cache/docintel 700 docintel:docintel");
    expect(out).toContain("/etc/docintel 750 root:docintel");
    expect(out).toContain("/etc/docintel/docintel.env 640 root:docintel");
    expect(out).toContain("/etc/docintel/first-api-key 600 root:root");
    expect(out).toContain("/usr/local/bin/docintel 755 root:root");
    expect(out).toContain("/etc/systemd/system/docintel.service 644 root:root");
    expect(out).toContain("key: dk_");
    expect(out).toContain("created the first key (plan pro) in /etc/docintel/first-api-key");
    expect(out).toContain("user docintel exists");
    expect(out).toContain("/etc/docintel/docintel.env exists; kept");
    expect(out).toContain("the store already has keys; none created");
    expect(out).toContain("key file unchanged");
    expect(out).toContain("verify ok");
    // the installed service accepts the first key, and printed no key of its own into the log
    expect(out).toContain("usage: 200");
    // the MCP SDK works inside the compiled binary
    expect(out).toContain('mcp: "name":"convert_to_markdown"');
    expect(out.trim().split("\n").pop()).toBe("0");
    // nothing reached the real machine
    expect({ etc: existsSync("/etc/docintel"), user: sh(["getent", "passwd", "docintel"]).code }).toEqual(hostBefore);
  }, 60_000);
});
