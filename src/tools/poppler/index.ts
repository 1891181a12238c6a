/**
 * Poppler's command-line tools behind one small adapter: pdftoppm renders one page of a PDF (sent
 * on stdin, never as a path) to a PNG on stdout, for OCR of pages without a text layer.
 */
import { AppError } from "../../errors";
import { ProcessError, runProcess, toolUnavailable } from "../process";

export interface RenderPageOptions {
  /** page: 1-based page number */
  page: number;
  /** dpi: resolution in dots per inch */
  dpi: number;
  /** gray: render 8-bit grayscale instead of RGB (smaller, as good for OCR) */
  gray: boolean;
  /** timeoutMs: deadline for the render */
  timeoutMs: number;
  /** maxBytes: PNG output beyond this is refused; 0 = unlimited */
  maxBytes: number;
}

/** renderPdfPage renders one page with `pdftoppm -r DPI -f N -l N -png [-gray] -` and returns the PNG bytes. */
export async function renderPdfPage(pdf: Uint8Array, opts: RenderPageOptions, signal: AbortSignal): Promise<Uint8Array> {
  const args = ["-r", String(opts.dpi), "-f", String(opts.page), "-l", String(opts.page), "-png", ...(opts.gray ? ["-gray"] : []), "-"];
  try {
    const { stdout } = await runProcess("pdftoppm", args, {
      stdin: pdf,
      timeoutMs: opts.timeoutMs,
      signal,
      maxStdoutBytes: opts.maxBytes,
      what: `render PDF page ${opts.page} for OCR`,
    });
    if (stdout.length === 0) throw new AppError("unreadable_document", `pdftoppm rendered nothing for PDF page ${opts.page}; the page may be damaged`);
    return new Uint8Array(stdout.buffer, stdout.byteOffset, stdout.length);
  } catch (error) {
    if (!(error instanceof ProcessError)) throw error;
    if (error.reason === "spawn") throw toolUnavailable("pdftoppm", "poppler-utils", error);
    if (error.reason === "aborted") throw signal.reason ?? error;
    if (error.reason === "timeout") throw new AppError("timeout", `rendering PDF page ${opts.page} for OCR took longer than ${opts.timeoutMs} ms`, { cause: error });
    if (error.reason === "output_limit") throw new AppError("document_too_large", `PDF page ${opts.page} renders to more than ${opts.maxBytes} bytes at ${opts.dpi} dpi`, { cause: error });
    throw new AppError("unreadable_document", `pdftoppm could not render PDF page ${opts.page}; the PDF is damaged or uses features poppler cannot draw`, { cause: error });
  }
}
