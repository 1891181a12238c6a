/**
 * extractDocument is the extract operation without HTTP: convert the document to markdown (the
 * markdown service: deadline, OCR, rendered web pages), then read the schema's fields with the AI
 * provider when one is configured, or with the local engine when none is, and shape the spec's
 * Extraction result. Sync routes, the task engine (extract/task.ts) and tests call it.
 *
 *   [convert, extract (provider | local), score, shape]
 */
import type Groq from "groq-sdk";
import { AppError } from "../errors";
import type { ModelNames } from "../ai/models";
import { documentOf, type MarkdownDeps, type MarkdownOutcome, type MarkdownSource } from "../markdown/service";
import { requireProvider } from "../ai/groq";
import { pageImages } from "./vision";
import { followLinks } from "./links";
import type { FieldDefinition, TypedSchema } from "../schema/typed";
import { qualitySignals, type ExtractionMethod, type QualitySignals } from "./confidence";
import type { extractLocal, LocalOptions } from "./local";
import { extractWithProvider, isMissing } from "./provider";
import { round3 } from "../runtime/values";

export interface ExtractDeps {
  markdown: MarkdownDeps;
  /** provider: the AI provider; undefined = the local engine reads every document */
  provider?: { client: Groq; models: ModelNames };
  /** pool: the worker threads the local engine runs on */
  pool: LocalEngineWorkers;
}

/**
 * LocalEngineWorkers is the worker pool as extraction sees it: the pool's table of functions (src/pool/functions.ts)
 * imports the local engine, so extract names what it needs instead of importing the pool (as convert's ConvertWorkers).
 */
export interface LocalEngineWorkers {
  run(name: "extractLocal", args: { markdown: string; schema: TypedSchema; options: LocalOptions }, signal?: AbortSignal): Promise<ReturnType<typeof extractLocal>>;
}

export interface ExtractOptions {
  schema: TypedSchema;
  model: "fast" | "accurate" | "auto";
  /** useVision: page images go to the vision model with the text (images, PDF pages without a text layer) */
  useVision?: boolean;
  /** followLinks: a web page's same-site links (about, contact, ...) are read too and their text appended */
  followLinks?: boolean;
}

/** ExtractionOutcome is the spec's Extraction result without credits_used, plus what metering needs. */
export interface ExtractionOutcome {
  success: boolean;
  data: Record<string, unknown>;
  confidence: Record<string, number>;
  citations: Record<string, string>;
  field_status: Record<string, { confidence: number; required: boolean; status: "found" | "not_found"; type: string }>;
  filename: string;
  model_used: "fast" | "accurate";
  engine: string;
  extraction_method: ExtractionMethod;
  text_length: number;
  content_type: string;
  pages_processed: number;
  total_pages: number;
  schema_format: "typed";
  missing_required_fields?: string[];
  quality_signals: QualitySignals;
  /** warnings: what the client should know about how the answer was read (linked pages that failed, ...) */
  warnings: string[];
  /** website: the input was a web page rendered in the browser (credits: 5) */
  website: boolean;
  /** billedPages: pages the conversion actually read (credits/costs.ts pagesRead) */
  billedPages: number;
}

interface FieldAnswers {
  data: Record<string, unknown>;
  confidence: Record<string, number>;
  citations: Record<string, string | null>;
  modelUsed: "fast" | "accurate";
  engine: string;
  signals: QualitySignals;
}

export async function extractDocument(source: MarkdownSource, options: ExtractOptions, deps: ExtractDeps, signal?: AbortSignal): Promise<ExtractionOutcome> {
  if (options.useVision) requireProvider(deps.provider, "use_vision");
  const converted = await documentOf(source, { mainContent: true, waitMs: 0 }, deps.markdown, signal);
  const document = converted.outcome;
  const warnings: string[] = [];
  if (options.followLinks) {
    if (document.website) {
      const linked = await followLinks(document, source, deps.markdown, signal);
      document.markdown = linked.markdown;
      document.text_length = linked.markdown.length;
      warnings.push(...linked.warnings);
    } else warnings.push("follow_links applies to web pages given by url; it was ignored for this document");
  }
  let method = extractionMethodOf(document);
  let images: Uint8Array[] = [];
  if (options.useVision) {
    const vision = await pageImages(document, converted.bytes, signal);
    images = vision.images;
    warnings.push(...vision.warnings);
    if (images.length) method = vision.textFromOcr ? "ocr+vision" : "vision";
  }
  const pageOcr = (document.pages ?? []).flatMap((p) => (p.ocr_quality === undefined ? [] : [p.ocr_quality]));
  const ocrSignals = qualitySignals({ pageOcrConfidences: pageOcr, tokenProbabilities: [], selfReports: [] });
  const answers = deps.provider
    ? await answerWithProvider(document, options, deps.provider, method, ocrSignals.ocr_quality ?? null, pageOcr, images, signal)
    : await answerLocally(document, options.schema, ocrSignals, method === "ocr" ? (ocrSignals.ocr_quality ?? null) : null, deps.pool, signal);
  return shape(document, options.schema, answers, method, warnings);
}

/** extractionMethodOf names how the text was read, in the spec's terms. */
function extractionMethodOf(document: MarkdownOutcome): ExtractionMethod {
  if (document.website) return "dom+text";
  if (document.extraction_method === "ocr") return "ocr";
  // a PDF with a text layer and some OCRed pages (or pictures) counts as OCR when most pages were OCRed
  const pages = document.pages ?? [];
  const ocrPages = pages.filter((p) => p.method === "ocr").length;
  return ocrPages > 0 && ocrPages >= pages.length - ocrPages ? "ocr" : "text";
}

async function answerWithProvider(
  document: MarkdownOutcome,
  options: ExtractOptions,
  provider: NonNullable<ExtractDeps["provider"]>,
  method: ExtractionMethod,
  ocrQuality: number | null,
  pageOcr: number[],
  images: Uint8Array[],
  signal: AbortSignal | undefined,
): Promise<FieldAnswers> {
  const result = await extractWithProvider({
    client: provider.client,
    models: provider.models,
    schema: options.schema,
    text: document.markdown,
    model: options.model,
    ocrQuality,
    method,
    signal: signal ?? new AbortController().signal,
    images,
  });
  const names = Object.keys(options.schema);
  return {
    data: result.data,
    confidence: result.confidence,
    citations: result.citations,
    modelUsed: result.modelUsed,
    engine: result.model,
    signals: qualitySignals({
      pageOcrConfidences: pageOcr,
      tokenProbabilities: result.valueTokenProbabilities,
      selfReports: names.map((n) => result.selfReports[n] ?? 0),
      fieldTokenProbabilities: names.map((n) => result.tokenProbabilities[n] ?? null),
    }),
  };
}

/**
 * answerLocally reads the fields with the local engine, on a worker thread so that a long document does not hold
 * the event loop (and the requests behind it); ocrQuality bounds what it read from OCR text (null: a text layer).
 */
async function answerLocally(document: MarkdownOutcome, schema: TypedSchema, ocrSignals: QualitySignals, ocrQuality: number | null, pool: LocalEngineWorkers, signal: AbortSignal | undefined): Promise<FieldAnswers> {
  const local = await pool.run("extractLocal", { markdown: document.markdown, schema, options: { ocrQuality } }, signal);
  const data: Record<string, unknown> = {};
  const confidence: Record<string, number> = {};
  const citations: Record<string, string | null> = {};
  for (const [name, field] of Object.entries(local)) {
    data[name] = field.found ? field.value : null;
    confidence[name] = field.found ? field.confidence : 0;
    citations[name] = field.citation;
  }
  return { data, confidence, citations, modelUsed: "fast", engine: "local", signals: ocrSignals };
}

/** shape builds the spec's Extraction result: success, per-field status, missing required fields. */
function shape(document: MarkdownOutcome, schema: TypedSchema, answers: FieldAnswers, method: ExtractionMethod, warnings: string[]): ExtractionOutcome {
  const fieldStatus: ExtractionOutcome["field_status"] = {};
  const citations: Record<string, string> = {};
  const confidence: Record<string, number> = {};
  const data: Record<string, unknown> = {};
  const missing: string[] = [];
  for (const [name, def] of Object.entries(schema) as Array<[string, FieldDefinition]>) {
    const value = answers.data[name] ?? null;
    const found = !isMissing(value);
    data[name] = found ? value : null;
    confidence[name] = found ? round3(answers.confidence[name] ?? 0) : 0;
    const citation = answers.citations[name];
    if (found && citation) citations[name] = citation;
    fieldStatus[name] = { confidence: confidence[name]!, required: def.required === true, status: found ? "found" : "not_found", type: def.type };
    if (!found && def.required) missing.push(name);
  }
  if (Object.values(fieldStatus).every((f) => f.status === "not_found")) {
    throw new AppError("empty_document", `none of the ${Object.keys(schema).length} schema field(s) was found in '${document.filename}'; check the field names and descriptions against the document`);
  }
  return {
    success: missing.length === 0,
    data,
    confidence,
    citations,
    field_status: fieldStatus,
    filename: document.source_url ?? document.filename,
    model_used: answers.modelUsed,
    engine: answers.engine,
    extraction_method: method,
    text_length: document.text_length,
    content_type: document.content_type,
    pages_processed: document.total_pages,
    total_pages: document.total_pages,
    schema_format: "typed",
    ...(missing.length ? { missing_required_fields: missing } : {}),
    quality_signals: answers.signals,
    warnings,
    website: document.website,
    billedPages: document.billedPages,
  };
}
