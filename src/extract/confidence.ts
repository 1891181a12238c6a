/**
 * Per-field confidence for extraction: grounding (is the value really in the document?), the
 * composite confidence the spec asks for, and the document-level quality signals.
 *
 * Composite confidence (documented in the README):
 *
 *   c = sum(w_s * s_s) / sum(w_s)  over the available signals s in {self-report, token probability, OCR quality}
 *   then, when the value is not grounded in the source text: c = min(c, 0.59)
 *
 * with weights by extraction method (a signal that is null is left out and the others renormalised):
 *
 *   method       self-report  token probability  OCR quality
 *   text         0.4          0.6                -
 *   dom+text     0.4          0.6                -
 *   ocr          0.3          0.4                0.3
 *   ocr+vision   0.35         0.4                0.25
 *   vision       0.5          0.5                -
 *
 * Token probability gets the larger share because models' self-reports cluster near 0.9 whatever
 * the truth; OCR quality only counts when the text came from OCR (for vision the model read the
 * image itself, so the OCR of that page says little).
 */
import { round3 } from "../runtime/values";

export type ExtractionMethod = "text" | "ocr" | "ocr+vision" | "vision" | "dom+text";

/** UNGROUNDED_CAP: the highest confidence a value that is not found in the source can get (below 0.6). */
export const UNGROUNDED_CAP = 0.59;

/** METHOD_WEIGHTS: the composite's weight of each signal by extraction method (0 = not used). */
export const METHOD_WEIGHTS: Readonly<Record<ExtractionMethod, { selfReport: number; tokenProbability: number; ocrQuality: number }>> = Object.freeze({
  text: { selfReport: 0.4, tokenProbability: 0.6, ocrQuality: 0 },
  "dom+text": { selfReport: 0.4, tokenProbability: 0.6, ocrQuality: 0 },
  ocr: { selfReport: 0.3, tokenProbability: 0.4, ocrQuality: 0.3 },
  "ocr+vision": { selfReport: 0.35, tokenProbability: 0.4, ocrQuality: 0.25 },
  vision: { selfReport: 0.5, tokenProbability: 0.5, ocrQuality: 0 },
});

export interface CompositeInput {
  /** selfReport: the model's own confidence, 0..1 */
  selfReport: number;
  /** tokenProbability: geometric mean probability of the value's tokens, 0..1; null = the provider gave none */
  tokenProbability: number | null;
  /** ocrQuality: the document's ocr_quality, 0..1; null = the text did not come from OCR */
  ocrQuality: number | null;
  grounded: boolean;
  method: ExtractionMethod;
}

/** compositeConfidence is the weighted mean described in the header, rounded to 3 decimals. */
export function compositeConfidence(input: CompositeInput): number {
  const weights = METHOD_WEIGHTS[input.method];
  const signals: Array<[number, number | null]> = [
    [weights.selfReport, input.selfReport],
    [weights.tokenProbability, input.tokenProbability],
    [weights.ocrQuality, input.ocrQuality],
  ];
  let sum = 0;
  let weight = 0;
  for (const [w, value] of signals) {
    if (w <= 0 || value === null || !Number.isFinite(value)) continue;
    sum += w * clamp01(value);
    weight += w;
  }
  const mean = weight > 0 ? sum / weight : 0;
  const capped = input.grounded ? mean : Math.min(mean, UNGROUNDED_CAP);
  return Math.round(capped * 1000) / 1000;
}

export interface QualitySignalsInput {
  /** pageOcrConfidences: mean word confidence of each OCRed page, 0..1; empty = no OCR */
  pageOcrConfidences: number[];
  /** tokenProbabilities: probabilities (0..1) of the tokens of the model's answer values; empty = none returned */
  tokenProbabilities: number[];
  /** selfReports: the model's confidence per field, paired by index with fieldTokenProbabilities */
  selfReports: number[];
  /** fieldTokenProbabilities: each field's token probability (same order as selfReports); null = unknown */
  fieldTokenProbabilities?: Array<number | null>;
}

export interface QualitySignals {
  ocr_quality?: number;
  doc_quality?: number;
  signal_disagreement?: number;
}

/**
 * qualitySignals computes the spec's quality signals; a signal without data is absent.
 *   ocr_quality = 0.7 * mean + 0.3 * 10th percentile of the page OCR confidences (linear interpolation)
 *   doc_quality = geometric mean of the token probabilities
 *   signal_disagreement = mean |self-report - token probability| over the fields that have both; the
 *     field token probabilities default to `tokenProbabilities` paired by index when not given separately
 */
export function qualitySignals(input: QualitySignalsInput): QualitySignals {
  const out: QualitySignals = {};
  const pages = input.pageOcrConfidences.filter(Number.isFinite).map(clamp01);
  if (pages.length) out.ocr_quality = round3(0.7 * mean(pages) + 0.3 * percentile(pages, 0.1));
  const tokens = input.tokenProbabilities.filter(Number.isFinite).map(clamp01);
  if (tokens.length) out.doc_quality = round3(geometricMean(tokens));
  const perField = input.fieldTokenProbabilities ?? input.tokenProbabilities;
  const gaps: number[] = [];
  input.selfReports.forEach((self, i) => {
    const token = perField[i];
    if (token === null || token === undefined || !Number.isFinite(token) || !Number.isFinite(self)) return;
    gaps.push(Math.abs(clamp01(self) - clamp01(token)));
  });
  if (gaps.length) out.signal_disagreement = round3(mean(gaps));
  return out;
}

function mean(values: number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length;
}

/** percentile with linear interpolation between closest ranks (numpy's default); q in 0..1. */
export function percentile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = q * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (rank - low);
}

/** geometricMean of probabilities; a zero probability is floored at 1e-6 so one token cannot zero the mean. */
export function geometricMean(probabilities: number[]): number {
  const logs = probabilities.map((p) => Math.log(Math.max(p, 1e-6)));
  return Math.exp(mean(logs));
}

function clamp01(v: number): number {
  return Math.min(1, Math.max(0, v));
}

// ---------------------------------------------------------------------------------------------
// Grounding

export interface Grounding {
  grounded: boolean;
  /** reason: why the value is not grounded (absent when grounded) */
  reason?: string;
}

/**
 * groundingOf says whether `value` can be found in `source`, the text the model read:
 * - text is compared with case, whitespace, quotes and dashes normalised; short values (under 4
 *   characters) must stand as a whole word; longer ones also match with punctuation ignored
 *   ("INV-2024-001" = "INV 2024 001", "(555) 123-4567" = "555.123.4567");
 * - numbers are compared by value against every number written in the source, whichever of
 *   1,234.50 / 1.234,50 / 1'234.50 it uses (and 15% for 0.15);
 * - dates (ISO or written) match any common rendering: 2024-03-05, 05/03/2024, 3/5/24, 5 March 2024,
 *   Mar 5, 2024, 05.03.2024;
 * - booleans, and labels without digits of at most 4 words (enum-like answers), are grounded by the
 *   verbatim quote being in the source, since their wording is the model's;
 * - arrays and objects are grounded when every text and number inside them is.
 */
export function groundingOf(value: unknown, quote: string | null, source: string): Grounding {
  const text = indexedSource(source);
  const quoteFound = quote !== null && quote.trim() !== "" && containsText(text, quote);
  return groundValue(value, quoteFound, text);
}

function groundValue(value: unknown, quoteFound: boolean, text: IndexedSource): Grounding {
  if (value === null || value === undefined) return { grounded: false, reason: "no value was found" };
  if (typeof value === "number") {
    return containsNumber(text, value) ? { grounded: true } : { grounded: false, reason: `the number ${value} does not appear in the document` };
  }
  if (typeof value === "boolean") {
    return quoteFound ? { grounded: true } : { grounded: false, reason: "no verbatim quote from the document supports this yes/no answer" };
  }
  if (typeof value === "string") {
    if (containsText(text, value) || containsDate(text, value)) return { grounded: true };
    if (quoteFound && isLabel(value)) return { grounded: true };
    return { grounded: false, reason: `"${value.slice(0, 80)}" does not appear in the document` };
  }
  const leaves = checkableLeaves(value);
  if (leaves.length === 0) return quoteFound ? { grounded: true } : { grounded: false, reason: "no verbatim quote from the document supports this answer" };
  for (const leaf of leaves) {
    const result = groundValue(leaf, quoteFound, text);
    if (!result.grounded) return result;
  }
  return { grounded: true };
}

/** isLabel: a short wording without digits (a category or enum answer) that a quote can support. */
function isLabel(value: string): boolean {
  return !/\d/.test(value) && value.trim().split(/\s+/).length <= 4;
}

/** checkableLeaves: the strings and numbers inside an array or object (booleans cannot be found as text). */
function checkableLeaves(value: unknown): Array<string | number> {
  const out: Array<string | number> = [];
  const visit = (v: unknown) => {
    if (typeof v === "string" || typeof v === "number") out.push(v);
    else if (Array.isArray(v)) v.forEach(visit);
    else if (v && typeof v === "object") Object.values(v).forEach(visit);
  };
  visit(value);
  return out;
}

/** sourceLineOf returns the first line of `source` that contains `needle` (normalised), trimmed to 300 characters. */
export function sourceLineOf(source: string, needle: string): string | null {
  const wanted = normalizeText(needle);
  if (!wanted) return null;
  for (const line of source.split(/\r?\n/)) {
    if (normalizeText(line).includes(wanted)) return line.trim().slice(0, 300);
  }
  return null;
}

/** normalizeText folds case, compatibility characters, curly quotes, dashes and runs of whitespace. */
export function normalizeText(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\u2018\u2019\u201a\u2032]/g, "'")
    .replace(/[\u201c\u201d\u201e\u2033]/g, '"')
    .replace(/[\u2010-\u2015\u2212]/g, "-")
    .replace(/\s+/g, " ")
    .trim();
}

interface IndexedSource {
  normalized: string;
  alphanumeric: string;
  /** dated: normalized text with commas, periods after letters and ordinal suffixes removed, for dates */
  dated: string;
  /** numbers: every number written in the source, by value (rounded to 6 decimals) */
  numbers: Set<string>;
}

let lastSource: { source: string; indexed: IndexedSource } | undefined;

/** indexedSource prepares the source once; extraction asks about the same source for every field. */
function indexedSource(source: string): IndexedSource {
  if (lastSource?.source === source) return lastSource.indexed;
  const normalized = normalizeText(source);
  const indexed: IndexedSource = {
    normalized,
    alphanumeric: alphanumericOf(normalized),
    dated: dateNormalized(normalized),
    numbers: numbersIn(source),
  };
  lastSource = { source, indexed };
  return indexed;
}

function alphanumericOf(text: string): string {
  return text.replace(/[^\p{L}\p{N}]+/gu, "");
}

function containsText(text: IndexedSource, needle: string): boolean {
  const wanted = normalizeText(needle);
  if (!wanted) return false;
  if (wanted.length < 4) return new RegExp(`(?:^|[^\\p{L}\\p{N}])${escapeRegExp(wanted)}(?:$|[^\\p{L}\\p{N}])`, "u").test(text.normalized);
  if (text.normalized.includes(wanted)) return true;
  const compact = alphanumericOf(wanted);
  return compact.length >= 6 && text.alphanumeric.includes(compact);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

const SOURCE_NUMBER = /\d(?:[\d,.'\u00a0\u202f]*\d)?%?/g;

/** numbersIn reads every number token of the source under both decimal conventions (and as a percentage). */
function numbersIn(source: string): Set<string> {
  const out = new Set<string>();
  for (const match of source.matchAll(SOURCE_NUMBER)) {
    const token = match[0].replace(/%$/, "");
    const percent = match[0].endsWith("%");
    for (const n of readings(token)) {
      out.add(numberKey(n));
      if (percent) out.add(numberKey(n / 100));
    }
  }
  return out;
}

/** readings: the values a token can mean: US (1,234.50), European (1.234,50), and digits only. */
function readings(token: string): number[] {
  const clean = token.replace(/['\u00a0\u202f]/g, "");
  const us = Number(clean.replace(/,/g, ""));
  const eu = Number(clean.replace(/\./g, "").replace(",", "."));
  const digits = Number(clean.replace(/[^\d]/g, ""));
  return [us, eu, digits].filter(Number.isFinite);
}

function numberKey(n: number): string {
  return Math.abs(n).toFixed(6);
}

function containsNumber(text: IndexedSource, value: number): boolean {
  return Number.isFinite(value) && text.numbers.has(numberKey(value));
}

// Dates -----------------------------------------------------------------------------------------

const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];

function dateNormalized(normalized: string): string {
  return normalized
    .replace(/([a-z])\./g, "$1")
    .replace(/,/g, " ")
    .replace(/(\d)(st|nd|rd|th)\b/g, "$1")
    .replace(/\s+/g, " ");
}

/** dateOf reads a calendar date from an answer: ISO 2024-03-05 (with or without time) or a written date with a 4-digit year. */
function dateOf(value: string): { y: number; m: number; d: number } | undefined {
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(value.trim());
  if (iso) return { y: Number(iso[1]), m: Number(iso[2]), d: Number(iso[3]) };
  if (!/\b\d{4}\b/.test(value) || !/[a-z]/i.test(value)) return undefined;
  const parsed = new Date(value);
  if (Number.isNaN(parsed.getTime())) return undefined;
  return { y: parsed.getFullYear(), m: parsed.getMonth() + 1, d: parsed.getDate() };
}

/** dateRenderings: the ways a document may write the date, in dateNormalized form. */
function dateRenderings({ y, m, d }: { y: number; m: number; d: number }): string[] {
  const pad = (n: number) => String(n).padStart(2, "0");
  const years = [String(y), pad(y % 100)];
  const days = [String(d), pad(d)];
  const monthsNumeric = [String(m), pad(m)];
  const name = MONTHS[m - 1]!;
  const names = [name, name.slice(0, 3), ...(name === "september" ? ["sept"] : [])];
  const out: string[] = [`${y}-${pad(m)}-${pad(d)}`, `${y}/${pad(m)}/${pad(d)}`];
  for (const yy of years) {
    for (const dd of days) {
      for (const mm of monthsNumeric) {
        for (const sep of ["/", ".", "-"]) out.push(`${dd}${sep}${mm}${sep}${yy}`, `${mm}${sep}${dd}${sep}${yy}`);
      }
      for (const month of names) out.push(`${month} ${dd} ${yy}`, `${dd} ${month} ${yy}`, `${dd}-${month}-${yy}`);
    }
  }
  return out;
}

function containsDate(text: IndexedSource, value: string): boolean {
  const date = dateOf(value);
  if (!date || date.m < 1 || date.m > 12 || date.d < 1 || date.d > 31) return false;
  return dateRenderings(date).some((rendering) => new RegExp(`(?:^|[^\\d])${escapeRegExp(rendering)}(?:$|[^\\d])`).test(text.dated));
}
