/**
 * The SQLite backend's settings and blobs are files in the data dir, as they were before the
 * backends (a data dir from an older docintel keeps its signing keys and its input and thumbnail
 * files). PostgreSQL keeps the same things in tables (postgres/blobs.ts).
 *
 *   settings: <data>/<name>                  one line, mode 0600, made once (link, so two processes agree)
 *   blobs:    <data>/<name>                  e.g. <data>/inputs/<task>/0, <data>/thumbnails/<job>.png
 */
import { randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { mkdir, readFile, rename, rm, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { BlobInfo, BlobStore, SettingStore } from "./backend";

/** checkBlobName refuses a name that could leave the data dir or name it whole */
export function checkBlobName(name: string): string {
  const parts = name.split("/");
  if (!name || parts.some((p) => p === "" || p === "." || p === ".." || !/^[A-Za-z0-9._-]+$/.test(p))) {
    throw new Error(`blob name ${JSON.stringify(name)}: expected path segments of letters, digits, '.', '_' and '-'`);
  }
  return name;
}

export function fileSettings(dataDir: string): SettingStore {
  return {
    async getOrCreate(name, make) {
      const path = join(dataDir, checkBlobName(name));
      try {
        return readFileSync(path, "utf8").trim();
      } catch (error) {
        if ((error as { code?: string }).code !== "ENOENT") throw error;
      }
      mkdirSync(dataDir, { recursive: true, mode: 0o700 });
      const tmp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
      writeFileSync(tmp, make() + "\n", { mode: 0o600 });
      try {
        linkSync(tmp, path); // fails when another process made it first: then its value is read
      } catch (error) {
        if ((error as { code?: string }).code !== "EEXIST") throw error;
      } finally {
        rmSync(tmp, { force: true });
      }
      return readFileSync(path, "utf8").trim();
    },
  };
}

const missing = (error: unknown) => (error as { code?: string }).code === "ENOENT";

export function fileBlobs(dataDir: string): BlobStore {
  const pathOf = (name: string) => join(dataDir, checkBlobName(name));
  return {
    async put(name, bytes) {
      const path = pathOf(name);
      await mkdir(dirname(path), { recursive: true, mode: 0o700 });
      // a temp name, then a rename: a reader (another process too) never sees half a file
      const temp = `${path}.${randomBytes(4).toString("hex")}.tmp`;
      try {
        await Bun.write(temp, bytes);
        await rename(temp, path);
      } catch (error) {
        await rm(temp, { force: true });
        throw error;
      }
    },
    async get(name) {
      try {
        return new Uint8Array(await readFile(pathOf(name)));
      } catch (error) {
        if (missing(error)) return null;
        throw error;
      }
    },
    async size(name) {
      try {
        return (await stat(pathOf(name))).size;
      } catch (error) {
        if (missing(error)) return null;
        throw error;
      }
    },
    async info(name) {
      try {
        const s = await stat(pathOf(name));
        return s.isFile() ? { size: s.size, createdAt: s.mtimeMs } : null;
      } catch (error) {
        if (missing(error)) return null;
        throw error;
      }
    },
    async remove(name) {
      const path = pathOf(name);
      let count: number;
      try {
        count = statSync(path).isDirectory() ? walk(path, name).length : 1;
      } catch (error) {
        if (missing(error)) return 0;
        throw error;
      }
      await rm(path, { recursive: true, force: true });
      return count;
    },
    async list(prefix) {
      try {
        return walk(pathOf(prefix), prefix);
      } catch (error) {
        if (missing(error)) return [];
        throw error;
      }
    },
  };
}

/** walk lists the files under `dir` (named as blobs under `name`), depth first */
function walk(dir: string, name: string): BlobInfo[] {
  const out: BlobInfo[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const child = `${name}/${entry.name}`;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walk(path, child));
    else if (entry.isFile()) {
      try {
        out.push({ name: child, createdAt: statSync(path).mtimeMs });
      } catch (error) {
        if (!missing(error)) throw error; // removed meanwhile
      }
    }
  }
  return out;
}
