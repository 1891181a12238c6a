/**
 * The converter contract: every format family turns one ingested document into markdown plus the
 * facts users need (title, pages, how the text was obtained, warnings). Converters get the external
 * tools through the interfaces below, so each tool has one supervisor and tests use the real ones.
 */
import type { Browser, MediaTools, OcrEngine, OfficeConverter } from "../tools/types";
import type { extractPdfBatch, extractPdfPages } from "./pdfText";
import type { Transcriber } from "../ai/transcribe";
export type { Transcriber };

/** ConvertInput is one document as ingest delivers it. */
export interface ConvertInput {
  bytes: Uint8Array;
  filename: string;
  /** contentType: detected MIME type without parameters */
  contentType: string;
  /** ext: extension matching the detected type, lower case without dot; "" when unknown */
  ext: string;
  /** url: where the document came from (after redirects), to make relative links absolute */
  url?: string;
  /** declaredCharset: the charset parameter sent with the document (HTTP Content-Type), if any */
  declaredCharset?: string;
  /**
   * savedCells: an OpenDocument spreadsheet's volatile formula cells as saved (odsSaved.ts), per
   * sheet name and "row:column"; the XLSX converter lays them over the XLSX LibreOffice made of it
   */
  savedCells?: Map<string, Map<string, string>>;
}

/** PageReport says how one page of a paginated document was read. */
export interface PageReport {
  /** page: 1-based page number */
  page: number;
  method: "text" | "ocr" | "empty";
  /** ocrQuality: tesseract's mean word confidence from 0 to 1; only for method "ocr" */
  ocrQuality?: number;
  chars: number;
}

/** Conversion is the result of one converter. */
export interface Conversion {
  markdown: string;
  title: string | null;
  /** totalPages: pages, slides or sheets of the source; 0 for non-paginated inputs */
  totalPages: number;
  /** method: how the text was obtained, e.g. "text", "ocr", "text+ocr", "browser", "metadata", "metadata+transcript" */
  method: string;
  warnings: string[];
  pages?: PageReport[];
  /** pageTexts: the text of each page, index 0 = page 1; only when ConvertContext.keepPageTexts asked for it */
  pageTexts?: string[];
  /** transcribedSeconds: audio transcribed by the speech-to-text provider (credits: 1 per started minute) */
  transcribedSeconds?: number;
}

/**
 * RENDER_MODES say how a web page given by URL becomes text: "auto" renders it in Chromium and also
 * reads the HTML as served, and keeps whichever holds the more complete article; "never" converts the
 * served HTML without a browser; "always" takes only the rendered DOM.
 */
export const RENDER_MODES = ["auto", "never", "always"] as const;
export type RenderMode = (typeof RENDER_MODES)[number];

/** PageOptions apply to web pages (rendered in Chromium) and to HTML documents. */
export interface PageOptions {
  /** mainContent: strip boilerplate (navigation, footers, ads); false keeps the whole page */
  mainContent: boolean;
  /** waitMs: extra wait after the network settles, in ms; 0 = none */
  waitMs: number;
  /** selector: convert only the element matching this CSS selector */
  selector?: string;
}

/** ConvertLimits bound the work one document may cause. */
export interface ConvertLimits {
  /** maxDecompressedBytes: total bytes a ZIP-based document (DOCX, XLSX, EPUB, ...) may inflate to */
  maxDecompressedBytes: number;
  /** maxPixels: largest image (width x height) decoded or OCRed */
  maxPixels: number;
  /** maxPages: pages of a PDF (or slides, sheets) converted; more is refused with 413 */
  maxPages: number;
  /** maxMarkdownChars: longest markdown one conversion may produce, in characters (UTF-16 units); more: 413; 0 or absent = unlimited */
  maxMarkdownChars?: number;
}

/**
 * ConvertWorkers is the worker pool as converters see it: the converter functions it runs on worker
 * threads. WorkerPool (src/pool) is one: the pool's table of functions (src/pool/functions.ts)
 * imports these from convert, so convert names what it needs instead of importing the pool.
 */
export interface ConvertWorkers {
  run(name: "pdfBatch", args: Parameters<typeof extractPdfBatch>[0], signal?: AbortSignal): ReturnType<typeof extractPdfBatch>;
  run(name: "pdfPages", args: Parameters<typeof extractPdfPages>[0], signal?: AbortSignal): ReturnType<typeof extractPdfPages>;
}

/** ConvertTools are the external programs converters may use. */
export interface ConvertTools {
  pool: ConvertWorkers;
  office: OfficeConverter;
  ocr: OcrEngine;
  media: MediaTools;
  browser: Browser;
  /** transcriber: undefined when no AI provider is configured */
  transcriber?: Transcriber;
}

/** ConvertContext is everything a converter may use besides its input. */
export interface ConvertContext {
  /** signal: aborts at the conversion deadline or when the client goes away */
  signal: AbortSignal;
  tools: ConvertTools;
  limits: ConvertLimits;
  page: PageOptions;
  /** keepPageTexts: paginated converters (PDF) also return each page's text on its own (the analyze agent reads pages) */
  keepPageTexts?: boolean;
}

export type Converter = (input: ConvertInput, ctx: ConvertContext) => Promise<Conversion>;
