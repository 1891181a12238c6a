/**
 * heif-convert (libheif-examples) turns HEIC/HEIF images into PNG: sharp's libvips has no HEVC
 * decoder. The image goes through a private temp dir, removed afterwards.
 */
import { readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AppError } from "../../errors";
import { ProcessError, runProcess, toolUnavailable, withTempDir } from "../process";

/** heifToPng converts one HEIC/HEIF image to PNG; `name` names it in errors; unreadable images give unreadable_document. */
export function heifToPng(bytes: Uint8Array, name: string, timeoutMs: number, signal: AbortSignal): Promise<Uint8Array> {
  return withTempDir(tmpdir(), "docintel-heif-", async (dir) => {
    const source = join(dir, "image.heic");
    const target = join(dir, "image.png");
    await writeFile(source, bytes);
    try {
      await runProcess("heif-convert", [source, target], { timeoutMs, signal, what: `convert HEIC image ${name} to PNG`, sandbox: { dirs: [dir] } });
    } catch (error) {
      if (!(error instanceof ProcessError)) throw error;
      if (error.reason === "spawn") throw toolUnavailable("heif-convert", "libheif-examples", error);
      if (error.reason === "timeout") throw new AppError("timeout", `converting ${name} from HEIC took longer than ${timeoutMs} ms`, { cause: error });
      if (error.reason === "aborted") throw signal.reason ?? error;
      throw new AppError("unreadable_document", `${name}: heif-convert could not decode the HEIC image; the image is corrupt, truncated or not an image: re-export it as PNG or JPEG.`, { cause: error });
    }
    return new Uint8Array(await readFile(target));
  });
}
