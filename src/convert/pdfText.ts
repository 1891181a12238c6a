/**
 * PDF text extraction with the pdf.js build that pdf.js-extract bundles, run inside the pool's
 * worker threads (listed in src/pool/functions.ts). Each call loads the document from its bytes, reads
 * a range of pages with `getTextContent` only, analyses each page's layout (pdfLayout.ts) and
 * releases the page before the next, so a worker holds one page's text items at a time.
 *
 * Bold: pdf.js gives no font weight with the text, and the operator list that would hold the font
 * objects costs as much as the text again; `patches/pdf.js-extract@1.0.1.patch` (applied by `bun
 * install`) adds each font's name to getTextContent's `styles`, and the name tells a bold face.
 *
 * Why not PDFExtract itself: it also builds every page's operator list (all drawing operations,
 * images decoded) and its annotations, which doubles the time per page for text we never use.
 *
 * pdf.js runs its "worker" in this same thread: the worker module is imported statically (and set
 * as `globalThis.pdfjsWorker`), which is also what makes it work inside the compiled binary (a
 * dynamically loaded worker script does not exist there), and talks to the API over an
 * InThreadPort that hands text and operator chunks over without a structured clone. The package
 * exports only its index, so the bundled build is imported by path.
 */
// @ts-ignore pdf.js-extract ships no types for its bundled pdf.js build
import * as pdfjsWorker from "../../node_modules/pdf.js-extract/lib/pdfjs/pdf.worker.mjs";
// @ts-ignore pdf.js-extract ships no types for its bundled pdf.js build
import * as pdfjsModule from "../../node_modules/pdf.js-extract/lib/pdfjs/pdf.mjs";
import { fileURLToPath } from "node:url";
import { isCompiled } from "../runtime/embedded";
import { isMonoFont } from "./pdfCode";
import { analyzePage, type OutlineEntry } from "./pdfLayout";
import type { PageLayout, PdfTextItem } from "./pdfLayoutTypes";
import { pageBatches } from "./pdfBatches";
import { hiddenTextRuns, rulesFromOperators, type HiddenRun } from "./pdfRules";

(globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = pdfjsWorker;

/** The small part of the pdf.js API used here. */
interface PdfjsTextItem {
  str?: string;
  transform: number[];
  width: number;
  dir?: string;
  fontName?: string;
}
interface PdfjsPage {
  view: number[];
  getViewport(opts: { scale: number }): { transform: number[]; width: number; height: number };
  /** styles: per font of the page, its name in the PDF ("ABCDEF+Arial-BoldMT"), which package.json's patch of pdf.js adds */
  getTextContent(): Promise<{ items: PdfjsTextItem[]; styles: Record<string, PdfjsTextStyle> }>;
  getAnnotations(): Promise<PdfjsAnnotation[]>;
  getOperatorList(): Promise<{ fnArray: ArrayLike<number>; argsArray: ArrayLike<unknown> }>;
  cleanup(): boolean;
}
/** PdfjsTextStyle: a font of the page: its name in the PDF ("ABCDEF+Arial-BoldMT", which package.json's patch of pdf.js adds) and pdf.js's CSS fallback family ("serif" when the FontDescriptor's flags say so, "monospace", else "sans-serif") */
interface PdfjsTextStyle {
  fontName?: string;
  fontFamily?: string;
}
/** PdfjsAnnotation: the fields of a form widget that fillableValues reads. */
interface PdfjsAnnotation {
  subtype?: string;
  /** fieldType: "Tx" text field, "Ch" choice (list or combo box), "Btn" button, "Sig" signature */
  fieldType?: string;
  fieldValue?: unknown;
  /** rect: [x1, y1, x2, y2] in PDF user space (y up) */
  rect?: number[];
  hidden?: boolean;
  defaultAppearanceData?: { fontSize?: number };
}
interface PdfjsDocument {
  numPages: number;
  getPage(n: number): Promise<PdfjsPage>;
  getMetadata(): Promise<{ info?: Record<string, unknown>; metadata?: { get(name: string): unknown } | null }>;
  getOutline(): Promise<PdfjsOutlineItem[] | null>;
  destroy(): Promise<void>;
}
interface PdfjsOutlineItem {
  title?: string;
  items?: PdfjsOutlineItem[];
}
interface PdfjsLoadingTask {
  promise: Promise<PdfjsDocument>;
  destroy(): Promise<void>;
}
const pdfjs = pdfjsModule as { getDocument(src: Record<string, unknown>): PdfjsLoadingTask; PDFWorker: new (options: { port: InThreadPort }) => unknown };
const pdfjsWorkerSide = pdfjsWorker as { WorkerMessageHandler: { initializeFromPort(port: InThreadPort): void } };

type PortListener = (event: { data: unknown }) => void;

/** ENQUEUE: pdf.js's message kind for a chunk of a stream (src/shared/message_handler.js StreamKind). */
const ENQUEUE = 4;

/**
 * InThreadPort is the channel between pdf.js's API and its worker side, both in this thread: what
 * pdf.js's own LoopbackPort does (each message delivered in a microtask, as a structured clone),
 * except for the chunks of getTextContent. Those are passed as they are: the worker side makes a new
 * items array and styles object after sending each (evaluator.js enqueueChunk) and never touches the
 * sent ones again, so the copy only cost time (about a tenth of reading a page's text). The chunk's
 * own object is reused by the worker side, so it is copied (shallow).
 */
class InThreadPort {
  #listeners = new Set<PortListener>();
  postMessage(message: unknown, transfer?: Transferable[]): void {
    const data = isTextChunk(message)
      ? { ...message, chunk: { ...message.chunk } }
      : isOperatorChunk(message)
        ? { ...message, chunk: { ...message.chunk, fnArray: [...message.chunk.fnArray], argsArray: [...message.chunk.argsArray] } }
        : structuredClone(message, transfer ? { transfer } : undefined);
    void Promise.resolve().then(() => {
      for (const listener of this.#listeners) listener.call(this, { data });
    });
  }
  addEventListener(_name: string, listener: PortListener, options?: { signal?: AbortSignal }): void {
    if (options?.signal?.aborted) return;
    this.#listeners.add(listener);
    options?.signal?.addEventListener("abort", () => this.#listeners.delete(listener), { once: true });
  }
  removeEventListener(_name: string, listener: PortListener): void {
    this.#listeners.delete(listener);
  }
  terminate(): void {
    this.#listeners.clear();
  }
}

/** isTextChunk: a stream chunk of text content ({ items, styles }) sent by the worker side. */
function isTextChunk(message: unknown): message is { chunk: { items: unknown[]; styles: unknown } } {
  const m = message as { stream?: number; chunk?: { items?: unknown; styles?: unknown } } | null;
  return m?.stream === ENQUEUE && Array.isArray(m.chunk?.items) && typeof m.chunk?.styles === "object";
}

/**
 * isOperatorChunk: a stream chunk of an operator list ({ fnArray, argsArray }). The worker side
 * empties both arrays in place after sending (operator_list.js flush), so they are copied; the
 * operations' arguments it does not touch again. Cloning them (every glyph of every text run) cost
 * a good part of reading a page's drawing, which is read only for its ruling lines.
 */
function isOperatorChunk(message: unknown): message is { chunk: { fnArray: unknown[]; argsArray: unknown[] } } {
  const m = message as { stream?: number; chunk?: { fnArray?: unknown; argsArray?: unknown } } | null;
  return m?.stream === ENQUEUE && Array.isArray(m.chunk?.fnArray) && Array.isArray(m.chunk?.argsArray);
}

/** inThreadWorker: this thread's pdf.js worker, on an InThreadPort, shared by the documents it opens. */
let inThreadWorker: unknown = null;
function pdfjsWorkerOfThread(): unknown {
  if (!inThreadWorker) {
    const port = new InThreadPort();
    pdfjsWorkerSide.WorkerMessageHandler.initializeFromPort(port);
    inThreadWorker = new pdfjs.PDFWorker({ port });
  }
  return inThreadWorker;
}

/** PdfFailure says why pdf.js refused the document; errors are returned, not thrown, so the reason survives the thread boundary. */
export interface PdfFailure {
  ok: false;
  reason: "encrypted" | "unreadable";
  message: string;
}

/** PdfFacts: what a PDF says about itself, read by the first batch's job. */
export interface PdfFacts {
  /** title: the document information Title, else the XMP dc:title; null when absent */
  title: string | null;
  /** author: the document information Author, else the XMP dc:creator; null when absent */
  author: string | null;
  /** outline: the bookmarks' titles in document order with their depth (1 = top level); empty when the PDF has none */
  outline: OutlineEntry[];
}

/** MAX_OUTLINE_ENTRIES: bookmarks read from one PDF (a damaged outline may loop). */
const MAX_OUTLINE_ENTRIES = 5000;

export interface PdfPagesResult {
  ok: true;
  pages: PageLayout[];
  /** failedPages: pages whose text could not be read (left for OCR) */
  failedPages: Array<{ page: number; message: string }>;
}

/** CMAP_DIR: pdf.js's character maps for CJK fonts; not embedded in the compiled binary. */
const CMAP_DIR = isCompiled() ? undefined : fileURLToPath(new URL("../../node_modules/pdf.js-extract/lib/cmaps/", import.meta.url));

/** openDocument starts loading; pdf.js takes over (detaches) `bytes`, so each job passes its own copy. */
function openDocument(bytes: Uint8Array): PdfjsLoadingTask {
  return pdfjs.getDocument({
    data: bytes,
    worker: pdfjsWorkerOfThread(),
    verbosity: 0,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: false,
    ...(CMAP_DIR ? { cMapUrl: `${CMAP_DIR.replace(/\/?$/, "/")}`, cMapPacked: true } : {}),
  });
}

function failure(error: unknown): PdfFailure {
  const name = (error as { name?: string } | null)?.name ?? "";
  const message = error instanceof Error ? error.message : String(error);
  return { ok: false, reason: name === "PasswordException" ? "encrypted" : "unreadable", message };
}

/** withDocument loads the PDF, runs `fn` and always destroys the document. */
async function withDocument<T>(bytes: Uint8Array, fn: (doc: PdfjsDocument) => Promise<T>): Promise<T | PdfFailure> {
  const task = openDocument(bytes);
  let doc: PdfjsDocument;
  try {
    doc = await task.promise;
  } catch (error) {
    await task.destroy().catch(() => {});
    return failure(error);
  }
  try {
    return await fn(doc);
  } catch (error) {
    return failure(error);
  } finally {
    await doc.destroy().catch(() => {});
  }
}

/** documentFacts: the title, author and outline a PDF's first batch job reports with its pages. */
async function documentFacts(doc: PdfjsDocument): Promise<PdfFacts> {
  const meta = await doc.getMetadata().catch(() => null);
  const outline = await doc.getOutline().catch(() => null);
  return { title: titleOf(meta), author: authorOf(meta), outline: flattenOutline(outline ?? []) };
}

/** flattenOutline lists the bookmarks depth first, at most MAX_OUTLINE_ENTRIES, at most 6 deep. */
function flattenOutline(items: PdfjsOutlineItem[]): OutlineEntry[] {
  const out: OutlineEntry[] = [];
  const visit = (list: PdfjsOutlineItem[], level: number) => {
    for (const item of list) {
      if (out.length >= MAX_OUTLINE_ENTRIES) return;
      const title = (item.title ?? "").replace(/\s+/g, " ").trim();
      if (title) out.push({ title, level: Math.min(6, level) });
      if (item.items?.length && level < 6) visit(item.items, level + 1);
    }
  };
  visit(items, 1);
  return out;
}

function titleOf(meta: Awaited<ReturnType<PdfjsDocument["getMetadata"]>> | null): string | null {
  const candidates = [meta?.info?.Title, meta?.metadata?.get("dc:title")];
  for (const value of candidates) {
    if (typeof value !== "string") continue;
    const title = value.replace(/^Microsoft (?:Word|PowerPoint|Excel) - /, "").replace(/\s+/g, " ").trim();
    if (title && !/^(?:untitled|\(anonymous\)|\(unspecified\)|none)$/i.test(title)) return title;
  }
  return null;
}

function authorOf(meta: Awaited<ReturnType<PdfjsDocument["getMetadata"]>> | null): string | null {
  const creator = meta?.metadata?.get("dc:creator");
  for (const value of [meta?.info?.Author, Array.isArray(creator) ? creator.join(", ") : creator]) {
    const author = typeof value === "string" ? value.replace(/\s+/g, " ").trim() : "";
    if (author && !/^(?:unknown|\(anonymous\)|\(unspecified\)|none)$/i.test(author)) return author;
  }
  return null;
}

/** extractPdfPages is a worker job: the layout of pages `first` to `last` (1-based, inclusive). */
export async function extractPdfPages(args: { bytes: Uint8Array; first: number; last: number }): Promise<PdfPagesResult | PdfFailure> {
  return withDocument(args.bytes, (doc) => extractRange(doc, args.first, args.last));
}

/** PdfBatchResult: one batch's pages with the page count, and the document's facts when the job was asked for them. */
export type PdfBatchResult = PdfPagesResult & { numPages: number; facts?: PdfFacts };

/**
 * extractPdfBatch is a worker job that needs no page count beforehand: it opens the PDF, takes batch
 * `batch` of pageBatches(numPages) (none when the count is 0 or above `maxPages`, 0 = no limit, or
 * the batch does not exist), and with `facts` also reads the title, author and outline. The
 * converter starts the first two batches at once with it, so no job opens the document only to count
 * its pages.
 */
export async function extractPdfBatch(args: { bytes: Uint8Array; batch: number; maxPages: number; facts: boolean }): Promise<PdfBatchResult | PdfFailure> {
  return withDocument(args.bytes, async (doc) => {
    const numPages = doc.numPages;
    const facts = args.facts ? await documentFacts(doc) : undefined;
    const range = numPages > 0 && (args.maxPages <= 0 || numPages <= args.maxPages) ? pageBatches(numPages)[args.batch] : undefined;
    const { pages, failedPages } = range ? await extractRange(doc, range[0], range[1]) : { pages: [], failedPages: [] };
    return { ok: true as const, numPages, ...(facts ? { facts } : {}), pages, failedPages };
  });
}

async function extractRange(doc: PdfjsDocument, first: number, lastAsked: number): Promise<PdfPagesResult> {
  const pages: PageLayout[] = [];
  const failedPages: PdfPagesResult["failedPages"] = [];
  const last = Math.min(lastAsked, doc.numPages);
  for (let n = Math.max(1, first); n <= last; n++) {
    try {
      pages.push({ ...(await pageLayout(doc, n)), filePages: doc.numPages });
    } catch (error) {
      failedPages.push({ page: n, message: error instanceof Error ? error.message : String(error) });
      pages.push({ page: n, width: 0, height: 0, chars: 0, blocks: [] });
    }
  }
  return { ok: true as const, pages, failedPages };
}

async function pageLayout(doc: PdfjsDocument, n: number): Promise<PageLayout> {
  const page = await doc.getPage(n);
  try {
    const viewport = page.getViewport({ scale: 1 });
    const content = await page.getTextContent();
    const items: PdfTextItem[] = [];
    const styles = content.styles ?? {};
    const boldFonts = fontsWhere(styles, (style) => isBoldFontName(style.fontName ?? ""));
    for (const name of accentFonts(content.items, styles)) boldFonts.add(name);
    const monoFonts = fontsWhere(styles, (style) => isMonoFont(style.fontName ?? "", style.fontFamily));
    const euroFonts = fontsWhere(styles, (style) => EUROSYM_FONT.test(style.fontName ?? ""));
    const fields = await formFields(page);
    const labelsUnder = labelsUnderFields(fields, content.items);
    for (const item of content.items) {
      if (typeof item.str !== "string" || !item.transform || labelsUnder.has(item)) continue;
      const m = multiply(viewport.transform, item.transform);
      if (Math.abs(m[1]!) > Math.abs(m[0]!) * 0.1) continue; // rotated or vertical text: not in line layout
      const str = item.fontName && euroFonts.has(item.fontName) ? euroSigns(item.str) : item.str;
      items.push({ str, x: m[4]!, y: m[5]!, width: item.width, size: Math.hypot(m[2]!, m[3]!), ...(item.dir === "rtl" ? { rtl: true } : {}), ...(item.fontName && boldFonts.has(item.fontName) ? { bold: true } : {}), ...(item.fontName ? { font: item.fontName } : {}), ...(item.fontName && monoFonts.has(item.fontName) ? { mono: true } : {}) });
    }
    composeSpacingAccents(items);
    items.push(...formFieldItems(fields, labelsUnder, viewport.transform, medianSize(items)));
    // The drawing is read only on pages whose text has lines of cells: it costs about as much as the text.
    const copy = items.map((item) => ({ ...item }));
    const layout = analyzePage(items, n, viewport.width, viewport.height);
    if (!layout.tabular) return layout;
    const ops = await page.getOperatorList();
    const rules = rulesFromOperators(ops.fnArray, ops.argsArray, viewport.transform);
    const hidden = hiddenTextRuns(ops.fnArray, ops.argsArray, viewport.transform);
    const seen = hidden.length && hidden.length <= MAX_HIDDEN_RUNS ? withoutHiddenText(copy, hidden) : copy;
    return rules.length || seen !== copy ? analyzePage(seen, n, viewport.width, viewport.height, rules) : layout;
  } finally {
    page.cleanup();
  }
}

/** MAX_HIDDEN_RUNS: white runs a page may hold for them to be cut from its text (a table's nesting dots are tens to hundreds; a page past it is read as drawn) */
const MAX_HIDDEN_RUNS = 5000;

/**
 * withoutHiddenText: the page's text items less the text drawn in white over nothing (pdfRules
 * hiddenTextRuns) where pdf.js joins it to visible text in one item (".Total", "Table 4.—borrowed"):
 * an item that a run on its baseline starts or ends loses the run's letters there (its box shrinks
 * by the run's width). An item that one run covers from end to end stays (a whole hidden line, as
 * the Federal Register's "VerDate ..." slug at a page's foot: taking it out moves where the layout
 * ends a column, and it reads as a line of its own), and so does a run inside an item (pdf.js may give one letter where a
 * white glyph lies on a black one: a caption's dash drawn twice). Returns `items` itself when
 * nothing was cut.
 */
function withoutHiddenText(items: PdfTextItem[], runs: HiddenRun[]): PdfTextItem[] {
  const byLine = new Map<number, HiddenRun[]>();
  for (const run of runs) {
    const key = Math.round(run.y);
    const line = byLine.get(key);
    if (line) line.push(run);
    else byLine.set(key, [run]);
  }
  let cut = false;
  const kept: PdfTextItem[] = [];
  for (const item of items) {
    const near = [-1, 0, 1].flatMap((d) => byLine.get(Math.round(item.y) + d) ?? []);
    let left: PdfTextItem = item;
    for (const run of near.sort((a, b) => a.x1 - b.x1)) {
      const tolerance = left.size * 0.3;
      const end = left.x + left.width;
      if (Math.abs(run.y - left.y) > tolerance || run.x2 <= left.x + 0.01 || run.x1 >= end - 0.01) continue;
      const letters = run.text.trim();
      if (run.x1 <= left.x + tolerance && run.x2 >= end - tolerance) continue;
      if (run.x1 <= left.x + tolerance && left.str.trimStart().startsWith(letters)) {
        const str = left.str.trimStart().slice(letters.length);
        const shift = Math.min(left.width, Math.max(0, run.x2 - left.x));
        left = { ...left, str, x: left.x + shift, width: left.width - shift };
      } else if (run.x2 >= end - tolerance && left.str.trimEnd().endsWith(letters)) {
        const str = left.str.trimEnd().slice(0, -letters.length);
        left = { ...left, str, width: Math.max(0, run.x1 - left.x) };
      } else continue;
    }
    if (left === item) kept.push(item);
    else if (left.str.trim() !== "") {
      cut = true;
      kept.push(left);
    } else cut = true;
  }
  return cut ? kept : items;
}

/** fontsWhere: the names of the page's fonts whose style passes `test` */
function fontsWhere(styles: Record<string, PdfjsTextStyle>, test: (style: PdfjsTextStyle) => boolean): Set<string> {
  return new Set(Object.entries(styles).filter(([, style]) => test(style)).map(([name]) => name));
}

/**
 * EUROSYM_FONT: the fonts of LaTeX's eurosym package (feymr10, feybr10, feymo10, feybo10), whose
 * letters are shapes of the euro sign ("e" the official one, "a" to "d" drawn ones): their PDFs
 * map the glyphs to the letters, so "€ 1 710,00" reads "e 1 710,00".
 */
const EUROSYM_FONT = /fey[mb][ro]10/i;

/** euroSigns gives a run of the eurosym font as the euro signs it shows. */
function euroSigns(text: string): string {
  return text.replace(/[a-eA-E]/g, "€");
}

/**
 * COMBINING: the combining mark of each spacing accent a font may draw on its own over a letter
 * (ˆ ˜ ¸ ¨ ´ ` ¯ ˘ ˇ ˚ ˙ ˝ ˛).
 */
const COMBINING: Record<string, string> = { "\u02c6": "\u0302", "\u02dc": "\u0303", "\u00b8": "\u0327", "\u00a8": "\u0308", "\u00b4": "\u0301", "`": "\u0300", "\u00af": "\u0304", "\u02d8": "\u0306", "\u02c7": "\u030c", "\u02da": "\u030a", "\u02d9": "\u0307", "\u02dd": "\u030b", "\u02db": "\u0328" };

/** ACCENT_OVERLAP: how far (in font sizes) an accent's run must reach back over the run before it to be drawn on that run's last letter */
const ACCENT_OVERLAP = 0.1;

/**
 * composeSpacingAccents puts accents drawn as glyphs of their own back on their letters, in place:
 * typesetters that lack a precomposed glyph ("ê" in a Government Publishing Office font, "é" in
 * TeX's OT1 fonts) draw the letter, then a spacing accent moved back over it, and pdf.js gives
 * "Ageˆncia" or "Aviac¸a˜o". A run that starts with such an accent and reaches back over the
 * end of the run before it on the same baseline puts it on that run's last letter (the rest of the
 * run joins that run when both are set in the same font and size); a run that ends with such an
 * accent (pdf.js joins TeX's accent to the run before it: "Ren´") and that the next run starts
 * back inside of puts it on the next run's first letter. The letter and its mark are composed (NFC)
 * when Unicode has the letter; so are a dotless i or j and the accent over it (DOTLESS_ACCENTED).
 */
export function composeSpacingAccents(items: PdfTextItem[]): void {
  const sameLine = (a: PdfTextItem, b: PdfTextItem) => Math.abs(a.y - b.y) < a.size * 0.3 && Math.abs(a.size - b.size) < 0.1;
  const endsInLetter = (s: string) => /\p{L}$/u.test(s);
  // Both passes compact the array in place (kept items move down), so a page of many accents stays linear.
  let kept = 0;
  for (const item of items) {
    const before = kept > 0 ? items[kept - 1]! : undefined;
    const mark = COMBINING[item.str.charAt(0)];
    if (before && mark && sameLine(before, item) && endsInLetter(before.str) && item.x < before.x + before.width - item.size * ACCENT_OVERLAP) {
      before.str = (before.str + mark).normalize("NFC");
      const rest = item.str.slice(1);
      if (rest && item.font === before.font && !rest.startsWith(" ")) {
        before.str += rest;
        before.width = Math.max(before.x + before.width, item.x + item.width) - before.x;
        continue;
      }
      if (!rest) continue;
      item.str = rest;
    }
    items[kept++] = item;
  }
  items.length = kept;
  kept = 0;
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    const after = items[i + 1];
    const mark = COMBINING[item.str.slice(-1)];
    if (after && mark && sameLine(item, after) && /^\p{L}/u.test(after.str) && after.x < item.x + item.width) {
      after.str = (after.str.charAt(0) + mark).normalize("NFC") + after.str.slice(1);
      item.str = item.str.slice(0, -1);
      if (!item.str) continue;
    }
    items[kept++] = item;
  }
  items.length = kept;
  for (const item of items) if (item.str.includes("\u0131") || item.str.includes("\u0237")) item.str = item.str.replace(DOTLESS_ACCENTED, (letter) => (letter === "\u0131" ? "i" : "j")).normalize("NFC");
}

/**
 * DOTLESS_ACCENTED: a dotless i or j under a combining accent: TeX builds "ï", "í", "ĵ" from the
 * dotless letter and an accent ("Aı̈t-Kaci"), which reads as another letter than the accented i
 * (no Unicode normalization joins them); the dotted letter with the accent composes to it.
 */
const DOTLESS_ACCENTED = /[\u0131\u0237](?=[\u0300-\u036f])/g;

/** MAX_FIELD_LINES: lines read from one form field's value (a long text area is cut there). */
const MAX_FIELD_LINES = 200;

/** FIELD_TEXT_MAX_SIZE: the largest size (points) a field value is laid out at; a value typed in a big box is body text, never a heading. */
const FIELD_TEXT_MAX_SIZE = 11;

/** FormField: a filled text or choice field of the page: its value's lines and its box in PDF space (y up). */
interface FormField {
  lines: string[];
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  /** size: the size (points) its value is laid out at */
  size: number;
}

/**
 * formFields: the values typed into the page's form fields (AcroForm text fields and choice boxes).
 * getTextContent reads only the page's own content; a filled form's values live in widget
 * annotations, so without them a filled form reads as its blank labels. Buttons (check boxes, radio
 * buttons) and signatures are left out: their state is not text.
 */
async function formFields(page: PdfjsPage): Promise<FormField[]> {
  const annotations = await page.getAnnotations().catch(() => [] as PdfjsAnnotation[]);
  const fields: FormField[] = [];
  for (const a of annotations) {
    if (a.subtype !== "Widget" || a.hidden || (a.fieldType !== "Tx" && a.fieldType !== "Ch") || !a.rect || a.rect.length !== 4) continue;
    const value = Array.isArray(a.fieldValue) ? a.fieldValue.filter((v) => typeof v === "string").join(", ") : typeof a.fieldValue === "string" ? a.fieldValue : "";
    const lines = value.split(/\r\n|\r|\n/).map((l) => l.replace(/\s+/g, " ").trim()).slice(0, MAX_FIELD_LINES);
    if (!lines.some((l) => l)) continue;
    const [ax, ay, bx, by] = a.rect as [number, number, number, number];
    const [x1, x2, y1, y2] = [Math.min(ax, bx), Math.max(ax, bx), Math.min(ay, by), Math.max(ay, by)];
    const fontSize = a.defaultAppearanceData?.fontSize ?? 0;
    // font size 0 means "auto": the viewer fits the text to the box
    const size = Math.max(4, Math.min(fontSize > 0 ? fontSize : (y2 - y1) * 0.7, y2 - y1, FIELD_TEXT_MAX_SIZE));
    fields.push({ lines, x1, y1, x2, y2, size });
  }
  return fields;
}

/** LABEL_UNDER_GAP: how far (points) under a field's box its label may start ("CHARACTER NAME" printed under the line it is written on). */
const LABEL_UNDER_GAP = 12;

/**
 * labelsUnderFields pairs each filled one-line field with the label printed under its box, as
 * paper forms do ("____ / AGE"): a short run of the page's own text that starts inside the box's
 * column band and whose top is within LABEL_UNDER_GAP of the box's bottom, when no text stands to
 * the box's left on its line or right above it (then the label is there, and the reading order
 * already puts it first). Returns each paired label run with its field.
 */
function labelsUnderFields(fields: FormField[], items: PdfjsTextItem[]): Map<PdfjsTextItem, FormField> {
  const paired = new Map<PdfjsTextItem, FormField>();
  const runs = items.filter((it) => typeof it.str === "string" && it.str.trim() && it.transform);
  const sizeOf = (it: PdfjsTextItem) => Math.hypot(it.transform[2]!, it.transform[3]!) || 1;
  // top down: a label already paired with the box above is no longer text above the next box
  for (const f of [...fields].sort((a, b) => b.y2 - a.y2)) {
    if (f.lines.filter(Boolean).length !== 1) continue;
    const under = runs.filter((it) => {
      const [x, y] = [it.transform[4]!, it.transform[5]!];
      const top = y + sizeOf(it);
      return x >= f.x1 - 4 && x < f.x2 && top <= f.y1 + 2 && top >= f.y1 - LABEL_UNDER_GAP && isShortLabel(it.str!);
    });
    if (under.length !== 1 || paired.has(under[0]!)) continue;
    const beside = runs.some((it) => {
      if (paired.has(it)) return false;
      const [x, y] = [it.transform[4]!, it.transform[5]!];
      const left = x + it.width <= f.x1 + 2 && x + it.width >= f.x1 - 150 && y >= f.y1 - 2 && y <= f.y2;
      const above = x < f.x2 && x + it.width > f.x1 && y >= f.y2 - 2 && y <= f.y2 + 2 * sizeOf(it);
      return left || above;
    });
    if (!beside) paired.set(under[0]!, f);
  }
  return paired;
}

/** medianSize: the middle font size of the page's text runs (FIELD_TEXT_MAX_SIZE when the page has none). */
function medianSize(items: PdfTextItem[]): number {
  const sizes = items.map((it) => it.size).sort((a, b) => a - b);
  return sizes.length ? sizes[Math.floor(sizes.length / 2)]! : FIELD_TEXT_MAX_SIZE;
}

/** isShortLabel: a run that reads as a field's label ("AGE", "CHARACTER NAME", "Date of birth"), not a sentence or a number. */
const isShortLabel = (text: string) => {
  const t = text.trim();
  return t.length <= 40 && /\p{L}/u.test(t) && !/[.!?]$/.test(t) && t.split(/\s+/).length <= 5;
};

/**
 * formFieldItems lays out the fields' values as text items where their boxes sit: each value line
 * starts at the box's left edge; a single-line value sits on the box's lower part, a multi-line one
 * runs down from its top. A field whose label is printed under its box is written "LABEL: value"
 * there, and the label run is left out of the page's text, so the pair reads as one.
 */
function formFieldItems(fields: FormField[], labelsUnder: Map<PdfjsTextItem, FormField>, transform: number[], bodySize: number): PdfTextItem[] {
  const labelOf = new Map([...labelsUnder].map(([item, field]) => [field, item.str!.trim().replace(/:$/, "")]));
  const items: PdfTextItem[] = [];
  for (const f of fields) {
    const label = labelOf.get(f);
    f.lines.forEach((line, i) => {
      if (!line) return;
      // PDF space, y up: one line on the box's baseline area; several from the top down
      const baseline = f.lines.length === 1 ? f.y1 + (f.y2 - f.y1 - f.size) / 2 + f.size * 0.2 : f.y2 - f.size * (1.15 * i + 1);
      const m = multiply(transform, [1, 0, 0, 1, f.x1 + 2, baseline]);
      const str = label ? `${label}: ${line}` : line;
      // typed in a box larger than the page's print, a value is still body text, never a heading
      const size = Math.min(f.size, bodySize);
      items.push({ str, x: m[4]!, y: m[5]!, width: str.length * size * 0.5, size });
    });
  }
  return items;
}

/**
 * BOLD_FONT: the weight in a font's name ("ABCDEF+Arial-BoldMT", "LiberationSerif-Bold",
 * "Calibri,Bold", "SourceSansPro-Semibold", "Roboto-Black"; TeX's "CMBX10"): the text layer gives
 * no weight, but embedded fonts are named by their face. A face named for heads ("AhabSubhead", an
 * Arabic gazette's article heads in the body's size; "...Heading", "...Headline") sets text apart as
 * bold does. URW's Times, which LaTeX's times packages and REVTeX set papers in, names its bold
 * "NimbusRomNo9L-Medi" (medium; not "Medium" in other families, nor URW Chancery's "MediItal", its
 * regular face).
 */
const BOLD_FONT = /bold|black|heavy|(?:^|[-,_ ])(?:demi|semi)(?:$|[-,_ ])|^CMBX|^SFBX|^NimbusRomNo9L-Medi|sub-?head|heading|headline/i;
/**
 * ADVENT_BOLD: Advent 3B2, which typesets many publishers' journals (BMC, Springer, Elsevier),
 * names its faces by a hash with the weight after a dot or dash ("AdvTTaf7f9f4f.B", "AdvTimes-b";
 * ".I" and "-i" are italic)
 */
const ADVENT_BOLD = /^Adv\w*(?:\.B|-b)i?(?:\+\d+)?$/i;

/** isBoldFontName: the font's name, after its subset tag, names a bold face */
export function isBoldFontName(name: string): boolean {
  const face = name.replace(/^[A-Z]{6}\+/, "");
  return BOLD_FONT.test(face) || ADVENT_BOLD.test(face);
}

/** ITALIC_FONT: an italic or oblique face by its name ("Times-Italic", "Arial-ItalicMT", Advent 3B2's "AdvTT7329fd89.I", "AdvTimes-i") */
const ITALIC_FONT = /italic|oblique|(?:\.I|-i)(?:\+\d+)?$/i;

/**
 * accentFonts: the page's fonts that set headings apart from a serif body by their family alone, read
 * as bold. Journal typesetters (Advent 3B2 for BMC and Springer) set section titles in a sans face
 * whose name is a hash and whose FontDescriptor gives no weight (no /FontWeight, StemV 0, no
 * ForceBold flag): only the Serif flag of the body's face and its absence in the title's tell them
 * apart. Such a face counts when its letters are few beside the body's (a fifth at most) and no run of
 * it is longer than a title, so that a table or sidebar set in a sans face stays as it is.
 */
function accentFonts(items: PdfjsTextItem[], styles: Record<string, PdfjsTextStyle>): string[] {
  const letters = new Map<string, number>();
  const longest = new Map<string, number>();
  for (const item of items) {
    if (!item.fontName || typeof item.str !== "string") continue;
    const n = item.str.replace(/[^\p{L}]/gu, "").length;
    letters.set(item.fontName, (letters.get(item.fontName) ?? 0) + n);
    longest.set(item.fontName, Math.max(longest.get(item.fontName) ?? 0, item.str.trim().length));
  }
  const [body, bodyLetters] = [...letters].reduce((a, b) => (b[1] > a[1] ? b : a), ["", 0]);
  if (styles[body]?.fontFamily !== "serif" || bodyLetters < 500) return [];
  return [...letters]
    .filter(([name, n]) => {
      const style = styles[name];
      return n > 0 && 5 * n <= bodyLetters && (longest.get(name) ?? 0) <= 80 && style?.fontFamily === "sans-serif" && !ITALIC_FONT.test((style.fontName ?? "").replace(/^[A-Z]{6}\+/, ""));
    })
    .map(([name]) => name);
}

/** multiply composes two affine transforms [a b c d e f] (m1 applied after m2). */
function multiply(m1: number[], m2: number[]): number[] {
  const [a1, b1, c1, d1, e1, f1] = m1 as [number, number, number, number, number, number];
  const [a2, b2, c2, d2, e2, f2] = m2 as [number, number, number, number, number, number];
  return [a1 * a2 + c1 * b2, b1 * a2 + d1 * b2, a1 * c2 + c1 * d2, b1 * c2 + d1 * d2, a1 * e2 + c1 * f2 + e1, b1 * e2 + d1 * f2 + f1];
}
