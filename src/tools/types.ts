/**
 * What the rest of the service sees of each external program: the interface its adapter under
 * src/tools implements behind its supervisor. Converters get them through ConvertTools
 * (src/convert/types.ts); features that use one tool take just that interface.
 */

/** OfficeConverter is LibreOffice behind its supervisor (src/tools/libreoffice). */
export interface OfficeConverter {
  /**
   * convert turns `bytes` (a document with extension `fromExt`) into `toExt`: "docx", "xlsx",
   * "pptx" or "pdf". Rejects with AppError unreadable_document / encrypted_document / timeout.
   */
  convert(bytes: Uint8Array, fromExt: string, toExt: "docx" | "xlsx" | "pptx" | "pdf", signal: AbortSignal): Promise<Uint8Array>;
  close(): Promise<void>;
}

/** OcrResult is the text of one image and tesseract's mean word confidence (0 to 1). */
export interface OcrResult {
  text: string;
  confidence: number;
  /** words: every word of `text` in its order, with its box (pixels of the image read); absent when the engine gives no boxes */
  words?: OcrWord[];
  /** width, height: size in pixels of the image read (the boxes' frame); 0 when unknown */
  width?: number;
  height?: number;
  /** language: the tesseract language data that read it, when the engine chose one other than English */
  language?: string;
}

/** OcrWord is one word as tesseract found it: its box in pixels (origin top left) and where it sits in tesseract's layout. */
export interface OcrWord {
  text: string;
  left: number;
  top: number;
  width: number;
  height: number;
  /** confidence: tesseract's for this word, 0 to 1 */
  confidence: number;
  /** line: tesseract's block/paragraph/line ids of the word, "b/p/l": words with one key are one line */
  line: string;
  /** paragraph: tesseract's block/paragraph ids, "b/p" */
  paragraph: string;
}

/** RecognizeOptions tune one OCR call. */
export interface RecognizeOptions {
  /** lang: tesseract language code(s) to read with, as asked; without it the engine finds the page's language (tesseract/language.ts) */
  lang?: string;
  /**
   * sameAs: the language another reading of the same page was found in (OcrResult.language): the
   * image is read in it at once, as a found language is, without reading it in English first
   */
  sameAs?: string;
  /**
   * segmentation: "auto" (default) finds columns and blocks (tesseract --psm 3); "block" reads the
   * image as one column of lines (--psm 6), which keeps a receipt's short lines and right-aligned
   * amounts in reading order
   */
  segmentation?: "auto" | "block";
  /** dpi: the image's resolution when known (tesseract sizes its layout analysis by it); undefined = tesseract estimates it */
  dpi?: number;
}

/** Orientation: the clockwise turn (degrees) that makes an image's text upright, and tesseract's confidence in it (above 2 is a clear reading; it is not a 0-1 score). */
export interface Orientation {
  rotate: 0 | 90 | 180 | 270;
  confidence: number;
}

/** OcrEngine is tesseract behind its supervisor (src/tools/tesseract). */
export interface OcrEngine {
  /** recognize reads the text of one image (PNG, JPEG, TIFF, PNM bytes) */
  recognize(image: Uint8Array, signal: AbortSignal, options?: RecognizeOptions): Promise<OcrResult>;
  /**
   * orientation asks which way the image's text runs (tesseract's orientation detection): the
   * clockwise turn that makes it upright and how sure the detector is; null when it cannot tell
   * (too few letters, no osd data). Absent on engines that cannot detect it.
   */
  orientation?(image: Uint8Array, signal: AbortSignal): Promise<Orientation | null>;
  /** close stops the processes it keeps warm, if any */
  close?(): void;
}

/** MediaInfo is what ffprobe says about an audio or video file. */
export interface MediaInfo {
  durationSeconds: number | null;
  formatName: string;
  title: string | null;
  tags: Record<string, string>;
  streams: Array<{ type: "video" | "audio" | "subtitle" | "other"; codec: string; width?: number; height?: number; sampleRate?: number; channels?: number; fps?: number }>;
}

/** MediaTools is ffprobe/ffmpeg behind src/tools/ffmpeg. */
export interface MediaTools {
  probe(bytes: Uint8Array, signal: AbortSignal): Promise<MediaInfo>;
  /** audioForTranscription extracts mono 16 kHz audio (compressed) small enough for speech-to-text */
  audioForTranscription(bytes: Uint8Array, signal: AbortSignal): Promise<{ audio: Uint8Array; filename: string; contentType: string }>;
}

/** RenderedPage is a web page after JavaScript ran. */
export interface RenderedPage {
  html: string;
  finalUrl: string;
  title: string;
  /** status: HTTP status of the main document */
  status: number;
  contentType: string;
}

export interface RenderOptions {
  headers: Record<string, string>;
  waitMs: number;
  /** timeoutMs: deadline for navigation, network settle and DOM capture */
  timeoutMs: number;
  allowPrivateUrls: boolean;
  signal: AbortSignal;
}

/** Browser is the shared headless Chromium behind src/tools/chromium. */
export interface Browser {
  render(url: string, opts: RenderOptions): Promise<RenderedPage>;
  close(): Promise<void>;
}
