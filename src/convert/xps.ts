/**
 * convertXps reads an XPS or OpenXPS document: mutool (src/tools/mupdf) prints it to PDF, and the
 * PDF converter reads that (text layer, OCR of pages drawn without text).
 */
import { xpsToPdf } from "../tools/mupdf";
import { convertPdf } from "./pdf";
import type { Converter } from "./types";

/** XPS_TIMEOUT_MS: deadline of one mutool run (the conversion's own deadline also applies) */
const XPS_TIMEOUT_MS = 120_000;

export const convertXps: Converter = async (input, ctx) => {
  const pdf = await xpsToPdf(input.bytes, { maxBytes: ctx.limits.maxDecompressedBytes, timeoutMs: XPS_TIMEOUT_MS, signal: ctx.signal, what: `XPS '${input.filename}'` });
  ctx.signal.throwIfAborted();
  const result = await convertPdf({ ...input, bytes: pdf, contentType: "application/pdf", ext: "pdf" }, ctx);
  return { ...result, method: `mutool+${result.method}` };
};
