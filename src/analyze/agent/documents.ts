/**
 * AgentDocument is one document as the agent's tools read it: the markdown, and the same text in
 * numbered parts. A PDF's parts are its pages; any other document is cut into parts of about
 * PART_CHARS characters at paragraph breaks, so `read_pages` and citations work the same everywhere.
 */
import { documentOf, type MarkdownDeps, type MarkdownSource } from "../../markdown/service";

/** PART_CHARS: the size of one part of a document that has no pages of its own, in characters. */
export const PART_CHARS = 4000;

export interface AgentDocument {
  label: string;
  filename: string;
  contentType: string;
  totalPages: number;
  /** billedPages: pages the conversion actually read, for the price (credits/costs.ts pagesRead) */
  billedPages: number;
  textLength: number;
  website: boolean;
  markdown: string;
  /** parts: page texts (paginated) or parts of about PART_CHARS characters; index 0 = page/part 1 */
  parts: string[];
  /** paginated: parts are the document's own pages */
  paginated: boolean;
  /** pdf: the PDF bytes, for view_page_image; absent for other formats */
  pdf?: Uint8Array;
  warnings: string[];
}

/** loadDocument converts one file or URL and cuts it into parts for the agent. */
export async function loadDocument(source: MarkdownSource, label: string, deps: MarkdownDeps, signal?: AbortSignal): Promise<AgentDocument> {
  const converted = await documentOf(source, { mainContent: true, waitMs: 0 }, deps, signal, { keepPageTexts: true });
  const { outcome } = converted;
  const paginated = converted.pageTexts !== undefined && converted.pageTexts.length > 0;
  return {
    label,
    filename: outcome.source_url ?? outcome.filename,
    contentType: outcome.content_type,
    totalPages: outcome.total_pages,
    billedPages: outcome.billedPages,
    textLength: outcome.text_length,
    website: outcome.website,
    markdown: outcome.markdown,
    parts: paginated ? converted.pageTexts! : splitParts(outcome.markdown, PART_CHARS),
    paginated,
    ...(outcome.content_type === "application/pdf" ? { pdf: converted.bytes } : {}),
    warnings: outcome.warnings,
  };
}

/** splitParts cuts text into parts of at most `size` characters, preferring paragraph, then line breaks. */
export function splitParts(text: string, size: number): string[] {
  const parts: string[] = [];
  let rest = text.trim();
  while (rest.length > size) {
    let cut = rest.lastIndexOf("\n\n", size);
    if (cut < size / 2) cut = rest.lastIndexOf("\n", size);
    if (cut < size / 2) cut = rest.lastIndexOf(" ", size);
    if (cut < size / 2) cut = size;
    parts.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest) parts.push(rest);
  return parts.length ? parts : [""];
}
