/**
 * MuPDF's `mutool` behind one small adapter: it turns an XPS or OpenXPS document into a PDF, which
 * the PDF converter then reads (text layer, OCR of pages without one). LibreOffice cannot open XPS.
 * mutool needs a seekable file, so the document goes through a private temp dir.
 */
import { readFile, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AppError } from "../../errors";
import { describeBytes } from "../../runtime/values";
import { ProcessError, runProcess, toolUnavailable, withTempDir } from "../process";

export interface XpsLimits {
  /** maxBytes: largest PDF accepted from the conversion, in bytes */
  maxBytes: number;
  /** timeoutMs: deadline for mutool in milliseconds */
  timeoutMs: number;
  signal: AbortSignal;
  /** what: names the document in errors, e.g. "XPS 'report.xps'" */
  what: string;
}

/** xpsToPdf converts an XPS/OXPS document with `mutool convert -F pdf`. */
export async function xpsToPdf(xps: Uint8Array, limits: XpsLimits): Promise<Uint8Array> {
  return withTempDir(tmpdir(), "docintel-xps-", async (dir) => {
    const input = join(dir, "in.xps");
    const output = join(dir, "out.pdf");
    await writeFile(input, xps);
    try {
      await runProcess("mutool", ["convert", "-F", "pdf", "-o", output, input], { timeoutMs: limits.timeoutMs, signal: limits.signal, maxStdoutBytes: 1_000_000, what: `convert ${limits.what} to PDF`, sandbox: { dirs: [dir] } });
    } catch (error) {
      if (!(error instanceof ProcessError)) throw error;
      if (error.reason === "spawn") throw toolUnavailable("mutool", "mupdf-tools", error);
      if (error.reason === "aborted") throw limits.signal.reason ?? error;
      if (error.reason === "timeout") throw new AppError("timeout", `${limits.what}: mutool did not finish within ${limits.timeoutMs} ms`, { cause: error });
      throw new AppError("unreadable_document", `${limits.what}: mutool could not read it; the XPS document is corrupt or truncated`, { cause: error });
    }
    const size = (await stat(output).catch(() => null))?.size ?? 0;
    if (size === 0) throw new AppError("unreadable_document", `${limits.what}: mutool produced no pages; the XPS document holds no page`);
    if (size > limits.maxBytes) throw new AppError("document_too_large", `${limits.what}: converts to a PDF of more than ${describeBytes(limits.maxBytes)}, the limit for decompressed content`);
    return new Uint8Array(await readFile(output));
  });
}
