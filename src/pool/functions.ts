/**
 * WORKER_FUNCTIONS are the functions that run in worker threads, listed by name. Each takes a plain,
 * structured-cloneable argument and returns one. Capability modules add their CPU-heavy steps here.
 */
import sharp from "sharp";
import { extractPdfBatch, extractPdfPages } from "../convert/pdfText";
import { extractLocal, type LocalOptions } from "../extract/local";
import type { TypedSchema } from "../schema/typed";
import { regexMatches } from "./regex";

export const WORKER_FUNCTIONS = {
  /** selfTest creates a small solid image with sharp and encodes it as JPEG: proves libvips loads in a worker. */
  async selfTest(_: Record<string, never>): Promise<{ format: string; width: number; height: number; bytes: number; vips: string }> {
    const { data, info } = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 30, g: 120, b: 200 } } })
      .jpeg({ quality: 80 })
      .toBuffer({ resolveWithObject: true });
    return { format: info.format, width: info.width, height: info.height, bytes: data.length, vips: sharp.versions.vips };
  },
  /** pdfBatch reads one batch of a PDF's pages without knowing the page count beforehand, with its title and outline when asked (src/convert/pdfText.ts). */
  pdfBatch: extractPdfBatch,
  /** pdfPages returns the text layout of a range of PDF pages (see src/convert/pdfText.ts). */
  pdfPages: extractPdfPages,
  /** regexSearch runs the analyze agent's regex_search; the caller aborts it at a deadline (catastrophic backtracking). */
  regexSearch: regexMatches,
  /** extractLocal reads a schema's fields from markdown with the local engine: CPU-bound, milliseconds to seconds on long documents. */
  async extractLocal(args: { markdown: string; schema: TypedSchema; options: LocalOptions }) {
    return extractLocal(args.markdown, args.schema, args.options);
  },
} as const;

export type WorkerFunctionName = keyof typeof WORKER_FUNCTIONS;
export type WorkerArgs<N extends WorkerFunctionName> = Parameters<(typeof WORKER_FUNCTIONS)[N]>[0];
export type WorkerResult<N extends WorkerFunctionName> = Awaited<ReturnType<(typeof WORKER_FUNCTIONS)[N]>>;
