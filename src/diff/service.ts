/**
 * diffDocuments is the diff operation without HTTP: the sync route calls it, and so will the task
 * runner for sync=false and the CLI. Steps:
 *
 *   [check the provider (annotate), convert both documents concurrently, compare, annotate, shape, render]
 *
 * Conversion is the markdown service's (deadline, OCR, rendered web pages); when one document fails,
 * the other conversion is stopped and the error names the failing field (file_a, url_b, ...).
 */
import { AppError } from "../errors";
import { requireProvider } from "../ai/groq";
import { markdownOf, type MarkdownDeps, type MarkdownOutcome, type MarkdownSource } from "../markdown/service";
import { annotateChanges, type AnnotateProvider, type Annotations, type ChangeNote } from "./annotate";
import { compareMarkdown, responseBlocks, type Comparison, type DiffBlock, type DiffStats, type Granularity } from "./compare";
import { renderHtml, renderMarkdown, type RenderOptions } from "./render";

export type DiffFormat = "json" | "markdown" | "html";

export interface DiffOptions {
  granularity: Granularity;
  format: DiffFormat;
  annotate: boolean;
}

export interface DiffDeps {
  markdown: MarkdownDeps;
  /** provider: the AI provider; undefined = annotate=true is refused with ai_unavailable */
  provider?: AnnotateProvider;
}

/** DocumentFacts: one side of the comparison as the response describes it (filename: the source URL for a URL). */
export type DocumentFacts = Pick<MarkdownOutcome, "filename" | "content_type" | "total_pages" | "text_length" | "extraction_method" | "warnings">;

/** DiffOutcome: the response body without credits_used (see DiffResult in schema.ts). */
export interface DiffOutcome {
  success: true;
  similarity: number;
  identical: boolean;
  granularity: Granularity;
  stats: DiffStats;
  document_a: DocumentFacts;
  document_b: DocumentFacts;
  blocks: Array<DiffBlock & Partial<{ significance: ChangeNote["significance"]; significance_reason: string }>>;
  annotations?: { summary: string; model: string; changes_annotated: number; changes_total: number };
  markdown?: string;
  html?: string;
}

export interface DiffSources {
  a: MarkdownSource;
  b: MarkdownSource;
}

export async function diffDocuments(sources: DiffSources, options: DiffOptions, deps: DiffDeps, signal?: AbortSignal): Promise<DiffOutcome> {
  const provider = providerFor(options, deps);
  const [a, b] = await convertBoth(sources, deps.markdown, signal);
  const comparison = compareMarkdown(a.markdown, b.markdown);
  const annotations = provider ? await annotateChanges(comparison, provider, signal ?? new AbortController().signal) : undefined;
  return shape(comparison, a, b, options, annotations);
}

/** providerFor: annotate=true needs the AI provider (503 ai_unavailable naming GROQ_API_KEY without one); the route asks before any work too. */
export function providerFor(options: Pick<DiffOptions, "annotate">, deps: { provider?: AnnotateProvider }): AnnotateProvider | undefined {
  return options.annotate ? requireProvider(deps.provider, "annotate=true (AI annotations of the diff)") : undefined;
}

/** convertBoth converts the two documents at the same time; the first failure stops the other and is the one reported. */
async function convertBoth(sources: DiffSources, deps: MarkdownDeps, signal: AbortSignal | undefined): Promise<[MarkdownOutcome, MarkdownOutcome]> {
  const stop = new AbortController();
  const combined = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
  let firstFailure: unknown;
  const one = async (source: MarkdownSource, side: "a" | "b") => {
    try {
      return await markdownOf(source, { mainContent: true, waitMs: 0 }, deps, combined);
    } catch (error) {
      if (firstFailure === undefined) {
        firstFailure = namedFailure(error, source.file ? `file_${side}` : `url_${side}`);
        stop.abort();
      }
      throw firstFailure;
    }
  };
  const results = await Promise.allSettled([one(sources.a, "a"), one(sources.b, "b")]);
  if (firstFailure !== undefined) throw firstFailure;
  return [(results[0] as PromiseFulfilledResult<MarkdownOutcome>).value, (results[1] as PromiseFulfilledResult<MarkdownOutcome>).value];
}

/** namedFailure says which document failed: "file_b: 'x.docx' produced no text ...". */
function namedFailure(error: unknown, field: string): unknown {
  if (error instanceof AppError) return new AppError(error.code, `${field}: ${error.detail}`, { cause: error.cause ?? error, headers: error.headers });
  return error;
}

function factsOf(document: MarkdownOutcome): DocumentFacts {
  return {
    filename: document.source_url ?? document.filename,
    content_type: document.content_type,
    total_pages: document.total_pages,
    text_length: document.text_length,
    extraction_method: document.extraction_method,
    warnings: document.warnings,
  };
}

function shape(comparison: Comparison, a: MarkdownOutcome, b: MarkdownOutcome, options: DiffOptions, annotations: Annotations | undefined): DiffOutcome {
  const blocks: DiffOutcome["blocks"] = responseBlocks(comparison, options.granularity).map((block, index) => {
    const note = annotations?.notes.get(index);
    return note ? { ...block, significance: note.significance, significance_reason: note.reason } : block;
  });
  const documentA = factsOf(a);
  const documentB = factsOf(b);
  const outcome: DiffOutcome = {
    success: true,
    similarity: comparison.similarity,
    identical: blocks.every((block) => block.op === "equal"),
    granularity: options.granularity,
    stats: comparison.stats,
    document_a: documentA,
    document_b: documentB,
    blocks,
    ...(annotations
      ? { annotations: { summary: annotations.summary, model: annotations.model, changes_annotated: annotations.changesSent, changes_total: annotations.changesTotal } }
      : {}),
  };
  const render: RenderOptions = {
    granularity: options.granularity,
    titleA: documentA.filename,
    titleB: documentB.filename,
    ...(annotations ? { summary: annotations.summary, notes: noteTexts(annotations) } : {}),
  };
  if (options.format === "markdown") outcome.markdown = renderMarkdown(comparison, render);
  if (options.format === "html") outcome.html = renderHtml(comparison, render);
  return outcome;
}

function noteTexts(annotations: Annotations): Map<number, string> {
  const texts = new Map<number, string>();
  for (const [index, note] of annotations.notes) texts.set(index, note.reason ? `${note.significance}: ${note.reason}` : note.significance);
  return texts;
}
