/**
 * layoutMarkdown: the PDF layout engine's markdown of a PDF's pages, read by pdf.js (extractPdfPages)
 * and laid out by renderPages, with no server: for tests of a layout rule.
 */
import { renderPages } from "../../src/convert/pdfLayout";
import { extractPdfPages } from "../../src/convert/pdfText";
import { type TypesetRun, typesetPdf } from "./typesetPdf";

/** layoutMarkdown returns the markdown of pages 1 to `last` of the PDF. */
export async function layoutMarkdown(bytes: Uint8Array, last = 1): Promise<string> {
  const result = await extractPdfPages({ bytes, first: 1, last });
  if (!result.ok) throw new Error(result.message);
  return renderPages(result.pages).markdown;
}

/** typesetMarkdown returns the markdown of runs typeset as PDF pages (test/helpers/typesetPdf.ts), one list a page. */
export function typesetMarkdown(pages: TypesetRun[][]): Promise<string> {
  return layoutMarkdown(typesetPdf(pages), pages.length);
}
