/**
 * The data dir holds the store (keys' hashes, tasks, ledger), the webhook secret, spooled uploads
 * and job files: only the service's own user may read it. `tightenDataDir` runs at every start, so
 * a data dir made by hand, restored from a backup or left by an older version (0755 dirs, 0644
 * files) is closed as well; `PRIVATE_UMASK` makes whatever the service creates later private too.
 */
import { chmodSync, lstatSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";

/** PRIVATE_UMASK: new files 0600, new dirs 0700 (for the serve process and every program it starts). */
export const PRIVATE_UMASK = 0o077;

/**
 * tightenDataDir creates `dir` (0700) when missing, and removes group and other permissions from it
 * and from every file and directory below it (0755 -> 0700, 0644 -> 0600; the owner's bits are
 * kept). Symbolic links are neither followed nor changed. Returns the number of entries changed.
 */
export function tightenDataDir(dir: string): number {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  let changed = 0;
  const visit = (path: string) => {
    const stat = lstatSync(path, { throwIfNoEntry: false });
    if (!stat || stat.isSymbolicLink() || !(stat.isFile() || stat.isDirectory())) return;
    if (stat.mode & 0o077) {
      chmodSync(path, stat.mode & 0o700);
      changed++;
    }
    if (stat.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(dir);
  return changed;
}
