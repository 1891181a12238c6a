/**
 * markdownOf is the one markdown operation, shared by the HTTP routes, the CLI (`docintel md`) and
 * later the task runner: take a file or URL in, enforce the deadline, render web pages in Chromium,
 * convert everything else by format, and refuse empty results.
 *
 *   [ingest, render (web pages only), convert, check]   each step under one deadline signal
 */
import { AppError } from "../errors";
import type { UploadedFile } from "../ingest/upload";
import { underDeadline } from "../runtime/deadline";
import { ingestUpload, ingestUrl, type IngestedDocument, type IngestLimits } from "../ingest";
import { ConversionProcesses, type DocumentConverter } from "../convert/isolation";
import { convertLimitsOf } from "../convert/tools";
import type { Config } from "../config";
import { checkMarkdownSize } from "../convert/markdown";
import { pagesRead } from "../credits/costs";
import { headersForOrigin } from "../security/ssrf";
import type { Conversion, ConvertLimits, ConvertTools, PageOptions, PageReport, RenderMode } from "../convert/types";

export interface MarkdownDeps {
  tools: ConvertTools;
  /** converter: runs the converters off the event loop (src/convert/isolation) */
  converter: DocumentConverter;
  limits: ConvertLimits;
  ingest: IngestLimits;
  /** timeoutMs: deadline for the whole operation, fetch included */
  timeoutMs: number;
}

/** markdownDepsOf is what the markdown service needs, from the config: tools, conversion processes, limits and the deadline. */
export function markdownDepsOf(config: Config, tools: ConvertTools): MarkdownDeps {
  return {
    tools,
    converter: new ConversionProcesses(tools, { processes: config.convert.processes, memoryBytes: config.convert.memoryBytes, maxQueue: config.queueSize, bwrapPath: config.bwrapPath }),
    limits: convertLimitsOf(config),
    ingest: { maxBytes: config.maxUploadBytes, fetchTimeoutMs: config.fetchTimeoutMs, allowPrivateUrls: config.allowPrivateUrls },
    timeoutMs: config.convert.timeoutMs,
  };
}

export interface MarkdownSource {
  file?: UploadedFile;
  url?: string;
  urlHeaders?: Record<string, string>;
  /** render: how a web page URL becomes text; undefined = "auto" (see RENDER_MODES) */
  render?: RenderMode;
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
  /** billedPages: the pages the conversion actually read, for page-priced operations (credits/costs.ts pagesRead) */
  billedPages: number;
}

/** resultFields is the outcome as clients see it: without the facts kept for metering. */
export function resultFields(outcome: MarkdownOutcome): Omit<MarkdownOutcome, "transcribedSeconds" | "website" | "billedPages"> {
  const { transcribedSeconds: _seconds, website: _website, billedPages: _billed, ...fields } = outcome;
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
  if (source.render && source.render !== "auto" && !(isHtml && document.source === "url")) {
    warnings.push(`render=${source.render} applies to web pages given by url; it was ignored for this document`);
  }

  let conversion: Conversion;
  let website = false;
  if (isHtml && document.source === "url") {
    conversion = await webPageOf(document, source, page, deps, signal);
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
    billedPages: pagesRead(conversion.pages?.length, markdown.length),
  };
  return { outcome, bytes: document.bytes, ...(conversion.pageTexts ? { pageTexts: conversion.pageTexts } : {}) };
}

function ingest(source: MarkdownSource, deps: MarkdownDeps, signal: AbortSignal): Promise<IngestedDocument> {
  if (source.file) return ingestUpload(source.file, deps.ingest);
  if (source.url) return ingestUrl(source.url, source.urlHeaders ?? {}, deps.ingest, { signal });
  throw new AppError("missing_input", "send a document as the 'file' form field or a 'url'");
}

/**
 * SERVED_WINS_RATIO: in render=auto the served HTML replaces the rendered page when its article holds
 * more than this many times the rendered one's text. A rendered shell ("This page is not available
 * right now", an error page, an emptied app root) keeps a sliver of the article; scripts that add
 * content make the rendered page the larger one, and close calls stay with the rendered page (the
 * spec's default).
 */
const SERVED_WINS_RATIO = 2;

/**
 * webPageOf turns a web page given by URL into markdown as `render` asks:
 *
 *   never   [convert the served HTML]
 *   always  [render in Chromium, convert the DOM]
 *   auto    [render, convert the DOM, convert the served HTML, keep the more complete article]
 *
 * In auto, a browser that cannot render (missing, crashed, past its share of the deadline) leaves the
 * served HTML, with a warning that says why; in always that is an error.
 */
async function webPageOf(document: IngestedDocument, source: MarkdownSource, page: PageOptions, deps: MarkdownDeps, signal: AbortSignal): Promise<Conversion> {
  const mode = source.render ?? "auto";
  const url = document.finalUrl ?? document.url!;
  if (mode === "never") {
    const served = await servedPage(document, url, page, deps, signal);
    if (articleChars(withoutTitle(served.markdown, served.title)) === 0) {
      throw new AppError("empty_document", `url: the HTML served at '${url}' holds no text${page.mainContent ? " in its main content" : ""}; its content is probably added by scripts: send render=auto or render=always to run them`);
    }
    return served;
  }
  let rendered: Conversion;
  try {
    // the browser opens the URL after redirects: the client's headers only when that is still its origin
    rendered = await renderedPage(url, headersForOrigin(source.urlHeaders ?? {}, document.url!, url), page, deps, signal);
  } catch (error) {
    if (mode === "always" || signal.aborted || !(error instanceof AppError) || !["tool_unavailable", "timeout"].includes(error.code)) throw error;
    const served = await servedPage(document, url, page, deps, signal);
    return { ...served, warnings: [`the page was converted without running its JavaScript: ${error.detail}`, ...served.warnings] };
  }
  if (mode === "always") return rendered;
  signal.throwIfAborted();
  let served: Conversion;
  try {
    served = await servedPage(document, url, page, deps, signal);
  } catch (error) {
    // A selector that matches only what scripts add fails on the served HTML: the rendered page stands.
    if (error instanceof AppError && error.code === "bad_request") return rendered;
    throw error;
  }
  const renderedChars = articleChars(rendered.markdown);
  const servedChars = articleChars(served.markdown);
  if (servedChars > SERVED_WINS_RATIO * renderedChars) {
    const why = `the rendered page held ${renderedChars} characters of text against ${servedChars} in the HTML as served (a shell or error page after its scripts ran); the served HTML was converted (render=always keeps the rendered page)`;
    return { ...served, warnings: [why, ...served.warnings] };
  }
  return rendered;
}

/** renderedPage runs the page's JavaScript in Chromium and converts the resulting DOM. */
async function renderedPage(url: string, headers: Record<string, string>, page: PageOptions, deps: MarkdownDeps, signal: AbortSignal): Promise<Conversion> {
  const rendered = await deps.tools.browser.render(url, {
    headers,
    waitMs: page.waitMs,
    timeoutMs: Math.max(1000, Math.floor(deps.timeoutMs * 0.8)),
    allowPrivateUrls: deps.ingest.allowPrivateUrls,
    signal,
  });
  signal.throwIfAborted();
  const warnings = rendered.status >= 400 ? [`the page answered HTTP ${rendered.status}`] : [];
  const converted = await htmlOf(new TextEncoder().encode(rendered.html), "utf-8", rendered.finalUrl, "browser", page, deps, signal);
  return { ...converted, warnings: [...warnings, ...converted.warnings] };
}

/** servedPage converts the HTML the guarded fetch received, without running its scripts. */
function servedPage(document: IngestedDocument, url: string, page: PageOptions, deps: MarkdownDeps, signal: AbortSignal): Promise<Conversion> {
  return htmlOf(document.bytes, undefined, url, "html", page, deps, signal);
}

/**
 * htmlOf converts a web page's HTML in a conversion process, like an uploaded document: off the event
 * loop, under the conversion deadline and memory cap. A page with no text is an empty conversion here
 * (not an error), so that render=auto can weigh it against the other source.
 */
async function htmlOf(bytes: Uint8Array, declaredCharset: string | undefined, url: string, method: string, page: PageOptions, deps: MarkdownDeps, signal: AbortSignal): Promise<Conversion> {
  try {
    const converted = await deps.converter.convert(
      { bytes, filename: "page.html", contentType: "text/html", ext: "html", url, ...(declaredCharset ? { declaredCharset } : {}) },
      { signal, tools: deps.tools, limits: deps.limits, page },
    );
    return { markdown: converted.markdown, title: converted.title, totalPages: 0, method, warnings: converted.warnings };
  } catch (error) {
    if (error instanceof AppError && error.code === "empty_document") return { markdown: "", title: null, totalPages: 0, method, warnings: [] };
    throw error;
  }
}

/** withoutTitle drops the "# title" heading htmlToMarkdown puts on top: a title alone is no article. */
function withoutTitle(markdown: string, title: string | null): string {
  const first = /^# (.*)\n?/.exec(markdown.trimStart());
  return first && title !== null && first[1]!.trim() === title.trim() ? markdown.trimStart().slice(first[0].length) : markdown;
}

/** articleChars counts the visible characters of markdown (no spaces, link targets or images): how much article it holds. */
function articleChars(markdown: string): number {
  const text = markdown.replace(/!\[[^\]]*\]\([^)]*\)/g, "").replace(/\]\([^)]*\)/g, "]");
  let n = 0;
  for (const c of text) if (!/[\s#*_>|[\]`-]/.test(c)) n++;
  return n;
}
