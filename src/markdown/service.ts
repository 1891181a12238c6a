/**
 * markdownOf is the one markdown operation, shared by the HTTP routes, the CLI (`docintel md`) and
 * later the task runner: take a file or URL in, enforce the deadline, render web pages in Chromium,
 * convert everything else by format, and refuse empty results.
 *
 *   [ingest, render (web pages only), convert, check]   each step under one deadline signal
 */
import { AppError } from "../errors";
import { underDeadline } from "../runtime/deadline";
import { ingestUpload, ingestUrl, type IngestedDocument, type IngestLimits } from "../ingest";
import type { DocumentConverter } from "../convert/isolation";
import { checkMarkdownSize } from "../convert/markdown";
import { htmlToMarkdown } from "../convert/html";
import { headersForOrigin } from "../security/ssrf";
import type { Conversion, ConvertLimits, ConvertTools, PageOptions, PageReport } from "../convert/types";

export interface MarkdownDeps {
  tools: ConvertTools;
  /** converter: runs the converters off the event loop (src/convert/isolation) */
  converter: DocumentConverter;
  limits: ConvertLimits;
  ingest: IngestLimits;
  /** timeoutMs: deadline for the whole operation, fetch included */
  timeoutMs: number;
}

export interface MarkdownSource {
  file?: File;
  url?: string;
  urlHeaders?: Record<string, string>;
}

/** MarkdownOutcome is the response body without credits_used, plus what metering needs. */
export interface MarkdownOutcome {
  markdown: string;
  title: string | null;
  filename: string;
  content_type: string;
  total_pages: number;
  text_length: number;
  extraction_method: string;
  warnings: string[];
  pages?: Array<{ page: number; method: PageReport["method"]; chars: number; ocr_quality?: number }>;
  source_url?: string;
  /** transcribedSeconds: audio sent to speech-to-text, for the per-minute charge */
  transcribedSeconds: number;
  /** website: the input was a web page rendered in the browser */
  website: boolean;
}

/** resultFields is the outcome as clients see it: without the facts kept for metering. */
export function resultFields(outcome: MarkdownOutcome): Omit<MarkdownOutcome, "transcribedSeconds" | "website"> {
  const { transcribedSeconds: _seconds, website: _website, ...fields } = outcome;
  return fields;
}

const HTML_TYPES = new Set(["text/html", "application/xhtml+xml"]);

/** markdownOf converts one file or URL to markdown under the deadline; `signal` ends it early (client gone). */
export async function markdownOf(source: MarkdownSource, page: PageOptions, deps: MarkdownDeps, signal?: AbortSignal): Promise<MarkdownOutcome> {
  return (await documentOf(source, page, deps, signal)).outcome;
}

/** ConvertedDocument is a markdown outcome with what readers of the source need beyond the markdown. */
export interface ConvertedDocument {
  outcome: MarkdownOutcome;
  /** bytes: the document as ingested (the analyze agent renders PDF pages from it) */
  bytes: Uint8Array;
  /** pageTexts: each page's text on its own, for paginated documents when `keepPageTexts` was asked */
  pageTexts?: string[];
}

/** documentOf is markdownOf that also returns the source bytes and, on request, the text of each page. */
export async function documentOf(source: MarkdownSource, page: PageOptions, deps: MarkdownDeps, signal?: AbortSignal, options: { keepPageTexts?: boolean } = {}): Promise<ConvertedDocument> {
  return underDeadline(
    deps.timeoutMs,
    signal,
    () => `the conversion took longer than ${Math.round(deps.timeoutMs / 1000)} s (the server's --convert-timeout-ms); try a smaller document or ask the operator to raise the limit`,
    (combined) => runSteps(source, page, deps, combined, options.keepPageTexts === true),
  );
}

async function runSteps(source: MarkdownSource, page: PageOptions, deps: MarkdownDeps, signal: AbortSignal, keepPageTexts: boolean): Promise<ConvertedDocument> {
  const document = await ingest(source, deps, signal);
  signal.throwIfAborted();
  const warnings: string[] = [];
  const isHtml = HTML_TYPES.has(document.contentType);
  if (!isHtml && (page.selector || page.waitMs > 0 || !page.mainContent)) {
    warnings.push("main_content, wait_ms and selector apply to web pages and HTML only; they were ignored for this document");
  }

  let conversion: Conversion;
  let website = false;
  if (isHtml && document.source === "url") {
    conversion = await renderWebPage(document, source.urlHeaders ?? {}, page, deps, signal);
    website = true;
  } else {
    conversion = await deps.converter.convert(
      { bytes: document.bytes, filename: document.filename, contentType: document.contentType, ext: document.ext, url: document.finalUrl },
      { signal, tools: deps.tools, limits: deps.limits, page, keepPageTexts },
    );
  }
  signal.throwIfAborted();

  const markdown = conversion.markdown;
  checkMarkdownSize(markdown.length, deps.limits, `'${document.filename}'`);
  if (markdown.trim() === "") {
    throw new AppError("empty_document", `'${document.filename}' produced no text; ${conversion.warnings.join("; ") || "the document has no readable content"}`);
  }
  const outcome: MarkdownOutcome = {
    markdown,
    title: conversion.title,
    filename: document.filename,
    content_type: document.contentType,
    total_pages: conversion.totalPages,
    text_length: markdown.length,
    extraction_method: conversion.method,
    warnings: [...warnings, ...conversion.warnings],
    ...(conversion.pages ? { pages: conversion.pages.map((p) => ({ page: p.page, method: p.method, chars: p.chars, ...(p.ocrQuality !== undefined ? { ocr_quality: p.ocrQuality } : {}) })) } : {}),
    ...(document.finalUrl ? { source_url: document.finalUrl } : {}),
    transcribedSeconds: conversion.transcribedSeconds ?? 0,
    website,
  };
  return { outcome, bytes: document.bytes, ...(conversion.pageTexts ? { pageTexts: conversion.pageTexts } : {}) };
}

function ingest(source: MarkdownSource, deps: MarkdownDeps, signal: AbortSignal): Promise<IngestedDocument> {
  if (source.file) return ingestUpload(source.file, deps.ingest);
  if (source.url) return ingestUrl(source.url, source.urlHeaders ?? {}, deps.ingest, { signal });
  throw new AppError("missing_input", "send a document as the 'file' form field or a 'url'");
}

/**
 * renderWebPage runs the page's JavaScript in Chromium and converts the resulting DOM. When the
 * browser cannot render it (missing, crashed, past its share of the deadline), the HTML that was
 * fetched is converted instead and a warning says so: the client gets content and the reason.
 */
async function renderWebPage(document: IngestedDocument, headers: Record<string, string>, page: PageOptions, deps: MarkdownDeps, signal: AbortSignal): Promise<Conversion> {
  const url = document.finalUrl ?? document.url!;
  let html: string;
  let baseUrl = url;
  let method = "browser";
  const warnings: string[] = [];
  try {
    const rendered = await deps.tools.browser.render(url, {
      // the browser opens the URL after redirects: the client's headers only when that is still its origin
      headers: headersForOrigin(headers, document.url!, url),
      waitMs: page.waitMs,
      timeoutMs: Math.max(1000, Math.floor(deps.timeoutMs * 0.8)),
      allowPrivateUrls: deps.ingest.allowPrivateUrls,
      signal,
    });
    html = rendered.html;
    baseUrl = rendered.finalUrl;
    if (rendered.status >= 400) warnings.push(`the page answered HTTP ${rendered.status}`);
  } catch (error) {
    if (signal.aborted || !(error instanceof AppError) || !["tool_unavailable", "timeout"].includes(error.code)) throw error;
    html = new TextDecoder().decode(document.bytes);
    method = "html";
    warnings.push(`the page was converted without running its JavaScript: ${error.detail}`);
  }
  signal.throwIfAborted();
  const converted = htmlToMarkdown(html, { baseUrl, mainContent: page.mainContent, selector: page.selector });
  return { markdown: converted.markdown, title: converted.title, totalPages: 0, method, warnings: [...warnings, ...converted.warnings] };
}
