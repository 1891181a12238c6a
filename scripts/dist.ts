/**
 * Packs the release archive: `bun scripts/dist.ts --apt-packages "..." [--outdir dist] [--binary PATH]`
 * (`make dist` passes the Makefile's APT_PACKAGES, so the installer installs what `make setup` does).
 *
 *   [build the binary (scripts/build.ts), write the unit, fill in install.sh, tar, checksum]
 *
 * Output: dist/docintel-<version>-linux-x64.tar.gz holding one directory docintel-<version>-linux-x64/
 * with `docintel` (the binary), `docintel.service` (the unit `docintel service-unit` prints, with its
 * defaults: /usr/local/bin/docintel, user docintel, /var/lib/docintel, /etc/docintel/docintel.env),
 * `install.sh`, README.md and docs/; and dist/docintel-<version>-linux-x64.tar.gz.sha256 in `sha256sum -c` form.
 * `--binary PATH` packs an already built binary instead of building one.
 */
import { chmodSync, copyFileSync, cpSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { createHash } from "node:crypto";
import { serviceUnit } from "../src/cli/serviceUnit";
import { VERSION } from "../src/version";

const ROOT = resolve(import.meta.dir, "..");

/** UNIT_DEFAULTS are the paths install.sh installs to; they must match its variables. */
const UNIT_DEFAULTS = { exec: "/usr/local/bin/docintel", user: "docintel", dataDir: "/var/lib/docintel", envFile: "/etc/docintel/docintel.env", docsUrl: "http://localhost:8080/docs" };

function fail(message: string): never {
  console.error(`dist: ${message}`);
  process.exit(1);
}

async function dist(): Promise<void> {
  const { values } = parseArgs({
    args: Bun.argv.slice(2),
    options: { outdir: { type: "string", default: "dist" }, "apt-packages": { type: "string" }, binary: { type: "string" } },
  });
  const packages = (values["apt-packages"] ?? "").trim().split(/\s+/).filter(Boolean);
  if (packages.length === 0) fail('give the Debian packages install.sh installs: --apt-packages "chromium tesseract-ocr ..." (make dist passes APT_PACKAGES)');
  if (!packages.every((p) => /^[a-z0-9][a-z0-9.+-]*$/.test(p))) fail(`not Debian package names: ${packages.join(" ")}`);

  const outdir = resolve(values.outdir!);
  const name = `docintel-${VERSION}-linux-x64`;
  const stage = join(outdir, name);
  rmSync(stage, { recursive: true, force: true });
  mkdirSync(stage, { recursive: true });

  const binary = join(stage, "docintel");
  if (values.binary) copyFileSync(resolve(values.binary), binary);
  else {
    const build = Bun.spawnSync([process.execPath, join(ROOT, "scripts/build.ts"), "--outfile", binary], { cwd: ROOT, stdout: "inherit", stderr: "inherit" });
    if (build.exitCode !== 0) fail(`scripts/build.ts failed (exit ${build.exitCode})`);
  }
  chmodSync(binary, 0o755);

  writeFileSync(join(stage, "docintel.service"), serviceUnit(UNIT_DEFAULTS));
  const installer = readFileSync(join(ROOT, "scripts/install.sh"), "utf8").replaceAll("@VERSION@", VERSION).replaceAll("@APT_PACKAGES@", packages.join(" "));
  writeFileSync(join(stage, "install.sh"), installer, { mode: 0o755 });
  // the README links into docs/: they travel together
  copyFileSync(join(ROOT, "README.md"), join(stage, "README.md"));
  cpSync(join(ROOT, "docs"), join(stage, "docs"), { recursive: true });

  const archive = join(outdir, `${name}.tar.gz`);
  const tar = Bun.spawnSync(["tar", "--owner=0", "--group=0", "--numeric-owner", "-czf", archive, "-C", outdir, name], { stdout: "inherit", stderr: "inherit" });
  if (tar.exitCode !== 0) fail(`tar failed (exit ${tar.exitCode})`);
  rmSync(stage, { recursive: true, force: true });

  const digest = createHash("sha256").update(new Uint8Array(await Bun.file(archive).arrayBuffer())).digest("hex");
  writeFileSync(`${archive}.sha256`, `${digest}  ${basename(archive)}\n`);
  console.log(`packed ${archive} (${(statSync(archive).size / 1024 / 1024).toFixed(1)} MB) and ${basename(archive)}.sha256`);
}

await dist();
