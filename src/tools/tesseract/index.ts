/**
 * The tesseract OCR engine: at most `concurrency` images at once, each in a warm OCR process
 * (warm.ts, ocrProcess.ts: libtesseract loaded once, the grey pixels of a PGM sent over a pipe), so
 * that an image does not pay the ~0.25 s of CPU a tesseract program spends loading its model.
 * Anything else (an image that is not an 8-bit PGM, a machine without the library, a warm process
 * that died on the image) runs the tesseract program: one process per image, the image on stdin
 * (never a path in a shell command). Both with OMP_THREAD_LIMIT=1 because tesseract's own threads
 * make a page 5x slower on two cores, so pages are parallelised by us instead. Both are held to the
 * conversion processes' memory cap (tools/memory.ts): a process that passes it on an image is
 * killed and the image fails with 413, not retried.
 */
import { AppError } from "../../errors";
import type { OcrEngine, OcrResult, OcrWord, Orientation, RecognizeOptions } from "../types";
import { ProcessError, runProcess, toolUnavailable } from "../process";
import { leftLarge, memoryLimitError } from "../memory";
import { Semaphore } from "../semaphore";
import { parsePgm, WarmOcrError, WarmOcrProcess } from "./warm";
import { languageOfScript, latinLanguageOf, manyFigures, parseScript, POOR_FOR_SCRIPT, poorInLetters, READS_AS_SCRIPT, SCRIPT_MODELS, SURE_SCRIPT } from "./language";

export interface TesseractOptions {
  /** concurrency: tesseract processes running at once */
  concurrency: number;
  /** timeoutMs: deadline for one image */
  timeoutMs: number;
  /**
   * memoryBytes: resident memory an OCR process (warm or the program) may reach while it reads an
   * image (the server's --convert-memory-mb, the conversion processes' cap); past it the image fails
   * with 413 document_too_large, and a warm process left above a share of it is replaced. 0 or
   * absent = unlimited
   */
  memoryBytes?: number;
  /** binary: the tesseract executable */
  binary?: string;
  /** warm: recognise PGM images in warm OCR processes (default true); false runs the program for every image */
  warm?: boolean;
  /** onWarmUnavailable: told once why warm processes cannot start here (the server logs it: OCR then costs a program start per image) */
  onWarmUnavailable?: (why: string) => void;
}

export class Tesseract implements OcrEngine {
  private readonly slots: Semaphore;
  /** idle: warm OCR processes not serving a request (at most `concurrency` exist: one per slot) */
  private readonly idle: WarmOcrProcess[] = [];
  /** warmUnavailable: why warm processes cannot start here (then every image runs the program) */
  private warmUnavailable: string | null = null;
  /** languages: the language data installed here, asked of tesseract once */
  private languages: Promise<Set<string>> | null = null;
  /** lastOsd: the last image's orientation and script report (the same bytes are asked twice: script, then orientation); the image is not kept alive for it */
  private lastOsd: { image: WeakRef<Uint8Array>; report: Promise<string | null> } | null = null;

  constructor(private readonly options: TesseractOptions) {
    this.slots = new Semaphore(Math.max(1, options.concurrency));
    if (options.warm === false) this.warmUnavailable = "turned off";
  }

  /**
   * recognize reads an image with the language asked for; without one, in the language it is written
   * in (language.ts): read with English, then again with another installed model when the page's
   * script or its function words call for it (otherLanguages), the reading with the higher mean word
   * confidence kept. A page already read in another language (`sameAs`, e.g. a scanned PDF page's
   * stored image after its rendering) is read in that one only: one reading instead of two or three.
   */
  async recognize(image: Uint8Array, signal: AbortSignal, options: RecognizeOptions = {}): Promise<OcrResult> {
    if (options.lang) return this.read(image, signal, options, options.lang);
    if (options.sameAs) return { ...dotlessOnes(await this.read(image, signal, options, options.sameAs)), language: options.sameAs };
    const english = await this.read(image, signal, options, "eng");
    let best: OcrResult = english;
    for (const other of await this.otherLanguages(image, english, signal)) {
      const again = await this.read(image, signal, options, other.lang);
      if (again.confidence > best.confidence && again.confidence >= other.floor) best = { ...dotlessOnes(again), language: other.lang };
    }
    return best;
  }

  /**
   * otherLanguages lists the installed language data that may read better than English what English
   * read as `reading`: none; the one of the page's script or Latin language; or, when the reading's
   * words of letters read as a script the English model does not know and tesseract's detector does
   * not name an installed one, each installed script's, kept only from READS_AS_SCRIPT. The detector
   * is led by figures: a Hebrew table, most of it figures, was "Greek" at 2.4 as rendered and "Latin"
   * at 4.0 as prepared for OCR.
   */
  private async otherLanguages(image: Uint8Array, reading: OcrResult, signal: AbortSignal): Promise<Array<{ lang: string; floor: number }>> {
    const installed = await this.installedLanguages();
    if (installed.size <= 1) return [];
    const lettersPoor = poorInLetters(reading.words ?? []);
    if ((reading.confidence < POOR_FOR_SCRIPT || lettersPoor) && installed.has("osd")) {
      const found = parseScript((await this.osdReport(image, signal)) ?? "");
      const sure = found && found.confidence >= SURE_SCRIPT ? found.script : null;
      const lang = sure ? languageOfScript(sure) : null;
      // a page of figures (a table) is read with English beside: the script models read figures worse ("2.6" as "26"); a page of prose
      // is read with the script's alone (the Arabic gazette: text agreement 0.715 alone, 0.611 with English)
      const model = (script: string) => (manyFigures(reading.words ?? []) ? `${script}+eng` : script);
      if (lang && installed.has(lang)) return [{ lang: model(lang), floor: 0 }];
      // a guess: kept only when the script's model reads the page as surely as a page in that script reads (a blurred photo of a
      // Latin receipt, its letters at 0.3-0.4 in English, reads as much or more in Arabic or Hebrew: noise at 0.40-0.52)
      if (lettersPoor) return SCRIPT_MODELS.filter((l) => installed.has(l)).map((l) => ({ lang: model(l), floor: READS_AS_SCRIPT }));
      if (lang) return [];
    }
    // with English beside it: the German or French model alone reads some receipts' digits and names worse than English
    // does ("Nestfalen Tankst2lle"); together, each word is read by the model surer of it
    const lang = latinLanguageOf(reading.text);
    return lang && installed.has(lang) ? [{ lang: `${lang}+eng`, floor: 0 }] : [];
  }

  /** installedLanguages lists the language data tesseract finds here (`tesseract --list-langs`, asked once); English alone when it cannot tell. */
  private installedLanguages(): Promise<Set<string>> {
    this.languages ??= runProcess(this.options.binary ?? "tesseract", ["--list-langs"], { timeoutMs: 10_000, maxStdoutBytes: 100_000, what: "list tesseract's languages" })
      .then((result) => new Set(`${result.stdout.toString("utf8")}\n${result.stderr}`.split("\n").map((l) => l.trim()).filter((l) => /^[a-z_]+$/i.test(l))))
      .catch(() => new Set(["eng"]));
    return this.languages;
  }

  /** read reads an image with one language's data, in a slot. */
  private read(image: Uint8Array, signal: AbortSignal, options: RecognizeOptions, lang: string): Promise<OcrResult> {
    const psm = options.segmentation === "block" ? "6" : "3";
    return this.slots.run(async () => {
      const pgm = this.warmUnavailable ? null : parsePgm(image);
      if (pgm) {
        const tsv = await this.recognizeWarm({ lang, psm: Number(psm), dpi: options.dpi ? Math.round(options.dpi) : 0, width: pgm.width, height: pgm.height }, pgm.pixels, signal);
        if (tsv !== null) return parseTsv(tsv);
      }
      let tsv: string;
      try {
        tsv = await this.runProgram(["-l", lang, "--psm", psm, ...(options.dpi ? ["--dpi", String(Math.round(options.dpi))] : []), "tsv"], image, signal, 50_000_000, "OCR an image");
      } catch (error) {
        if (error instanceof ProcessError && error.reason === "spawn") throw toolUnavailable("tesseract", "tesseract-ocr tesseract-ocr-eng", error);
        if (error instanceof ProcessError && error.reason === "timeout") throw new AppError("timeout", `OCR of one image took longer than ${this.options.timeoutMs} ms`, { cause: error });
        if (error instanceof ProcessError && error.reason === "aborted") throw signal.reason ?? error;
        if (error instanceof ProcessError && error.reason === "memory") throw memoryLimitError("OCR of one image", this.options.memoryBytes ?? 0, error);
        if (error instanceof ProcessError && /Failed loading language/i.test(error.stderr)) {
          throw new AppError("bad_request", `OCR language '${lang}' is not installed on this server (Debian package tesseract-ocr-${lang})`, { cause: error });
        }
        throw new AppError("unreadable_document", "OCR: tesseract could not read the image (corrupt or unsupported image data)", { cause: error });
      }
      return parseTsv(tsv);
    }, signal);
  }

  /**
   * orientation is the turn tesseract's orientation detection gives one image (osdReport). It is asked
   * only of pages that read poorly (convert/ocrOrientation.ts), so it does not get a warm process. Null
   * when tesseract cannot tell (too few letters, no osd data); an aborted request still throws.
   */
  async orientation(image: Uint8Array, signal: AbortSignal): Promise<Orientation | null> {
    return parseOrientation((await this.osdReport(image, signal)) ?? "");
  }

  /**
   * osdReport runs the tesseract program's orientation and script detection (`--psm 0 -l osd`) on one
   * image, in a slot like a reading, held to the same deadline and memory cap; the last image's report
   * is kept, as a poor reading asks for its script (recognize) and then for its orientation
   * (convert/ocrOrientation.ts). Null when tesseract cannot tell (too few letters, no osd data); an
   * aborted request still throws.
   */
  private osdReport(image: Uint8Array, signal: AbortSignal): Promise<string | null> {
    if (this.lastOsd?.image.deref() === image) return this.lastOsd.report;
    const report = this.slots.run(async () => {
      try {
        return await this.runProgram(["--psm", "0", "-l", "osd"], image, signal, 100_000, "detect the orientation of an image");
      } catch (error) {
        if (error instanceof ProcessError && error.reason === "aborted") throw signal.reason ?? error;
        if (error instanceof ProcessError && error.reason === "spawn") throw toolUnavailable("tesseract", "tesseract-ocr tesseract-ocr-eng", error);
        return null; // too few letters (tesseract exits 1), a timeout or the memory cap: the page is read as it is
      }
    }, signal);
    this.lastOsd = { image: new WeakRef(image), report };
    report.catch(() => {
      if (this.lastOsd?.report === report) this.lastOsd = null;
    });
    return report;
  }

  /** runProgram runs the tesseract program on one image (stdin to stdout, single-threaded, held to the deadline and memory cap) and gives its output. */
  private async runProgram(args: string[], image: Uint8Array, signal: AbortSignal, maxStdoutBytes: number, what: string): Promise<string> {
    const result = await runProcess(this.options.binary ?? "tesseract", ["stdin", "stdout", ...args], {
      stdin: image,
      timeoutMs: this.options.timeoutMs,
      signal,
      env: { OMP_THREAD_LIMIT: "1" },
      maxStdoutBytes,
      memoryBytes: this.options.memoryBytes ?? 0,
      what,
    });
    return result.stdout.toString("utf8");
  }

  /** close stops the warm OCR processes (they also end when the server's pipe to them closes). */
  close(): void {
    for (const warm of this.idle.splice(0)) warm.kill();
  }

  /**
   * recognizeWarm OCRs in a warm process (inside a slot: an idle one, or a new one); null when the
   * program must do it instead (no warm process can start here, or this one died on the image).
   */
  private async recognizeWarm(request: Parameters<WarmOcrProcess["recognize"]>[0], pixels: Uint8Array, signal: AbortSignal): Promise<string | null> {
    let warm = this.idle.pop();
    while (warm && !warm.usable) {
      warm.kill();
      warm = this.idle.pop();
    }
    const memoryBytes = this.options.memoryBytes ?? 0;
    warm ??= new WarmOcrProcess(memoryBytes);
    try {
      const tsv = await warm.recognize(request, pixels, this.options.timeoutMs, signal);
      if (warm.usable && !leftLarge(warm.residentBytes(), memoryBytes)) this.idle.push(warm);
      else warm.kill();
      return tsv;
    } catch (error) {
      if (!(error instanceof WarmOcrError)) {
        warm.kill();
        throw error;
      }
      if (error.reason === "language") {
        this.idle.push(warm);
        throw new AppError("bad_request", `OCR language '${request.lang}' is not installed on this server (Debian package tesseract-ocr-${request.lang})`, { cause: error });
      }
      warm.kill();
      if (error.reason === "timeout") throw new AppError("timeout", `OCR of one image took longer than ${this.options.timeoutMs} ms`, { cause: error });
      if (error.reason === "aborted") throw signal.reason ?? error;
      // not retried by the program, which would take as much
      if (error.reason === "memory") throw memoryLimitError(`OCR of a ${request.width} x ${request.height} px image`, memoryBytes, error);
      if (error.reason === "start") {
        this.warmUnavailable = error.message; // e.g. no libtesseract: the program from now on
        this.options.onWarmUnavailable?.(error.message);
      }
      return null;
    }
  }
}

/** DOTLESS_ONE: a dotless ı alone or beside a digit ("Abs. ı", "ı4 Tagen"), which the German and French models read for a 1 */
const DOTLESS_ONE = /(?<![\p{L}])ı(?![\p{L}])|(?<=\d)ı|ı(?=\d)/gu;

/** dotlessOnes puts back the 1s a Latin model other than English read as a dotless ı (no language the engine picks writes one). */
export function dotlessOnes(result: OcrResult): OcrResult {
  if (!result.text.includes("ı")) return result;
  return { ...result, text: result.text.replace(DOTLESS_ONE, "1"), words: result.words?.map((w) => (w.text.includes("ı") ? { ...w, text: w.text.replace(DOTLESS_ONE, "1") } : w)) };
}

/** parseOrientation reads tesseract's OSD report ("Rotate: 90", "Orientation confidence: 8.13"); null when either is missing or odd. */
export function parseOrientation(report: string): Orientation | null {
  const rotate = Number(/^Rotate:\s*(\d+)\s*$/m.exec(report)?.[1]);
  const confidence = Number(/^Orientation confidence:\s*([\d.]+)\s*$/m.exec(report)?.[1]);
  if (!(rotate === 0 || rotate === 90 || rotate === 180 || rotate === 270) || !Number.isFinite(confidence)) return null;
  return { rotate, confidence };
}

/**
 * parseTsv rebuilds text from tesseract's TSV (level 5 rows are words): words joined by spaces
 * within a line, lines by newlines, paragraphs and blocks by a blank line. The confidence is the
 * mean over words, from 0 to 1; 0 when no word was found. The words are kept with their boxes, and
 * the image's size from the page row (level 1).
 */
export function parseTsv(tsv: string): OcrResult {
  const paragraphs: string[] = [];
  let lines: string[] = [];
  let words: string[] = [];
  let lineKey = "";
  let paraKey = "";
  let confSum = 0;
  let confCount = 0;
  const found: OcrWord[] = [];
  let width = 0;
  let height = 0;
  const flushLine = () => {
    if (words.length) lines.push(words.join(" "));
    words = [];
  };
  const flushParagraph = () => {
    flushLine();
    if (lines.length) paragraphs.push(lines.join("\n"));
    lines = [];
  };
  for (const row of tsv.split("\n")) {
    const cols = row.split("\t");
    if (cols.length >= 10 && cols[0] === "1") {
      width = Number(cols[8]) || 0;
      height = Number(cols[9]) || 0;
    }
    if (cols.length < 12 || cols[0] !== "5") continue;
    // the right-to-left models write direction marks around numbers ("\u200e2022\u200f"): no letters of the page
    const text = cols[11]!.replace(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, "").trim();
    const conf = Number(cols[10]);
    if (!text || conf < 0) continue;
    const para = `${cols[2]}/${cols[3]}`;
    const line = `${para}/${cols[4]}`;
    if (para !== paraKey) flushParagraph();
    else if (line !== lineKey) flushLine();
    paraKey = para;
    lineKey = line;
    words.push(text);
    found.push({ text, left: Number(cols[6]), top: Number(cols[7]), width: Number(cols[8]), height: Number(cols[9]), confidence: conf / 100, line, paragraph: para });
    confSum += conf;
    confCount++;
  }
  flushParagraph();
  return { text: paragraphs.join("\n\n"), confidence: confCount ? Math.round((confSum / confCount) * 10) / 1000 : 0, words: found, width, height };
}
