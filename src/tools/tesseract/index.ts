/**
 * The tesseract OCR engine: one process per image, the image on stdin (never a path in a shell
 * command), OMP_THREAD_LIMIT=1 because tesseract's own threads make a page 5x slower on two cores,
 * and at most `concurrency` processes at once so pages are parallelised by us instead.
 */
import { AppError } from "../../errors";
import type { OcrEngine, OcrResult, RecognizeOptions } from "../types";
import { ProcessError, runProcess, toolUnavailable } from "../process";
import { Semaphore } from "../semaphore";

export interface TesseractOptions {
  /** concurrency: tesseract processes running at once */
  concurrency: number;
  /** timeoutMs: deadline for one image */
  timeoutMs: number;
  /** binary: the tesseract executable */
  binary?: string;
}

export class Tesseract implements OcrEngine {
  private readonly slots: Semaphore;

  constructor(private readonly options: TesseractOptions) {
    this.slots = new Semaphore(Math.max(1, options.concurrency));
  }

  recognize(image: Uint8Array, signal: AbortSignal, options: RecognizeOptions = {}): Promise<OcrResult> {
    const lang = options.lang ?? "eng";
    const psm = options.segmentation === "block" ? "6" : "3";
    return this.slots.run(async () => {
      let tsv: string;
      try {
        const result = await runProcess(this.options.binary ?? "tesseract", ["stdin", "stdout", "-l", lang, "--psm", psm, ...(options.dpi ? ["--dpi", String(Math.round(options.dpi))] : []), "tsv"], {
          stdin: image,
          timeoutMs: this.options.timeoutMs,
          signal,
          env: { OMP_THREAD_LIMIT: "1" },
          maxStdoutBytes: 50_000_000,
          what: "OCR an image",
        });
        tsv = result.stdout.toString("utf8");
      } catch (error) {
        if (error instanceof ProcessError && error.reason === "spawn") throw toolUnavailable("tesseract", "tesseract-ocr tesseract-ocr-eng", error);
        if (error instanceof ProcessError && error.reason === "timeout") throw new AppError("timeout", `OCR of one image took longer than ${this.options.timeoutMs} ms`, { cause: error });
        if (error instanceof ProcessError && error.reason === "aborted") throw signal.reason ?? error;
        if (error instanceof ProcessError && /Failed loading language/i.test(error.stderr)) {
          throw new AppError("bad_request", `OCR language '${lang}' is not installed on this server (Debian package tesseract-ocr-${lang})`, { cause: error });
        }
        throw new AppError("unreadable_document", "OCR: tesseract could not read the image (corrupt or unsupported image data)", { cause: error });
      }
      return parseTsv(tsv);
    }, signal);
  }
}

/**
 * parseTsv rebuilds text from tesseract's TSV (level 5 rows are words): words joined by spaces
 * within a line, lines by newlines, paragraphs and blocks by a blank line. The confidence is the
 * mean over words, from 0 to 1; 0 when no word was found.
 */
export function parseTsv(tsv: string): OcrResult {
  const paragraphs: string[] = [];
  let lines: string[] = [];
  let words: string[] = [];
  let lineKey = "";
  let paraKey = "";
  let confSum = 0;
  let confCount = 0;
  const flushLine = () => {
    if (words.length) lines.push(words.join(" "));
    words = [];
  };
  const flushParagraph = () => {
    flushLine();
    if (lines.length) paragraphs.push(lines.join("\n"));
    lines = [];
  };
  for (const row of tsv.split("\n").slice(1)) {
    const cols = row.split("\t");
    if (cols.length < 12 || cols[0] !== "5") continue;
    const text = cols[11]!.trim();
    const conf = Number(cols[10]);
    if (!text || conf < 0) continue;
    const para = `${cols[2]}/${cols[3]}`;
    const line = `${para}/${cols[4]}`;
    if (para !== paraKey) flushParagraph();
    else if (line !== lineKey) flushLine();
    paraKey = para;
    lineKey = line;
    words.push(text);
    confSum += conf;
    confCount++;
  }
  flushParagraph();
  return { text: paragraphs.join("\n\n"), confidence: confCount ? Math.round((confSum / confCount) * 10) / 1000 : 0 };
}
