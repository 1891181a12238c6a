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

export interface TightenResult {
  /** changed: entries whose mode was narrowed */
  changed: number;
  /** refused: entries whose mode could not be changed (owned by another user), with the reason */
  refused: string[];
}

/**
 * tightenDataDir creates `dir` (0700) when missing, and removes group and other permissions from it
 * and from every file and directory below it (0755 -> 0700, 0644 -> 0600; the owner's bits are
 * kept). Symbolic links are neither followed nor changed. An entry it may not change (another
 * user's) is reported, not fatal: the store's own checks decide whether the service can run.
 */
export function tightenDataDir(dir: string): TightenResult {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const result: TightenResult = { changed: 0, refused: [] };
  const visit = (path: string) => {
    try {
      const stat = lstatSync(path, { throwIfNoEntry: false });
      if (!stat || stat.isSymbolicLink() || !(stat.isFile() || stat.isDirectory())) return;
      if (stat.mode & 0o077) {
        chmodSync(path, stat.mode & 0o700);
        result.changed++;
      }
      if (stat.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
    } catch (error) {
      result.refused.push(`${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
  };
  visit(dir);
  return result;
}
