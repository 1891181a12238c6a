/**
 * thumbnailOf is the one thumbnail operation, shared by the sync routes, the background jobs and the
 * preview: take a file or URL in, pick the handler by the detected format, let the handler draw a
 * picture, and fit that into the box as JPEG.
 *
 *   [ingest (size limit, SSRF guard, sniff), pick handler (415), draw, fit + encode]   under one deadline
 */
import { AppError } from "../errors";
import type { UploadedFile } from "../ingest/upload";
import { underDeadline } from "../runtime/deadline";
import { ingestUpload, ingestUrl, type IngestedDocument, type IngestLimits } from "../ingest";
import { headersForOrigin } from "../security/ssrf";
import type { ConvertTools } from "../convert/types";
import type { Config } from "../config";
import type { MarkdownDeps } from "../markdown/service";
import { heifToPng } from "../tools/heif";
import { renderPdfPage } from "../tools/poppler";
import { FfmpegTools } from "../tools/ffmpeg";
import { screenshotDepsOf, screenshotHtml, screenshotOf, type ScreenshotDeps } from "../screenshots/service";
import { handlerOf, type HandledInput, type HandlerName } from "./handlers";
import { assertPixels, fitJpeg } from "./image";
import { textPreviewSvg } from "./textPreview";

export interface ThumbnailDeps {
  tools: ConvertTools;
  ingest: IngestLimits;
  /** maxPixels: largest picture decoded (width x height); larger: 413 */
  maxPixels: number;
  /** timeoutMs: deadline for one thumbnail, fetch included, in ms */
  timeoutMs: number;
  /** screenshotTimeoutMs: deadline of the browser part for web pages, in ms */
  screenshotTimeoutMs: number;
}

export interface ThumbnailSource {
  file?: UploadedFile;
  url?: string;
  urlHeaders?: Record<string, string>;
}

export interface ThumbnailSize {
  /** width, height: the box the thumbnail fits inside, in pixels */
  width: number;
  height: number;
  /** quality: JPEG quality 1-100 */
  quality: number;
}

export interface ThumbnailOutcome {
  jpeg: Uint8Array;
  width: number;
  height: number;
  handler: HandlerName;
  filename: string;
  /** sourceType: the detected MIME type of the input */
  sourceType: string;
}

/** thumbnailDepsOf is what thumbnails need, from the config and the markdown service's tools and limits. */
export function thumbnailDepsOf(config: Config, markdown: MarkdownDeps): ThumbnailDeps {
  return {
    tools: markdown.tools,
    ingest: markdown.ingest,
    maxPixels: config.convert.maxPixels,
    timeoutMs: config.convert.timeoutMs,
    screenshotTimeoutMs: config.chromium.screenshotTimeoutMs,
  };
}

/** WEB_VIEWPORT: web pages are drawn as a desktop browser window shows them */
const WEB_VIEWPORT = { width: 1280, height: 800 };
const IMAGE_TYPES_VIA_HEIF = new Set(["heic", "heif"]);
/** PDF_PNG_LIMIT: largest PNG pdftoppm may write for one page, in bytes */
const PDF_PNG_LIMIT = 200_000_000;

/** thumbnailOf draws the thumbnail of one file or URL; `signal` ends it early. Past the deadline: 504 timeout. */
export async function thumbnailOf(source: ThumbnailSource, size: ThumbnailSize, deps: ThumbnailDeps, signal?: AbortSignal): Promise<ThumbnailOutcome> {
  const timedOut = () => `the thumbnail took longer than ${Math.round(deps.timeoutMs / 1000)} s (the server's --convert-timeout-ms)`;
  return underDeadline(deps.timeoutMs, signal, timedOut, async (combined) => {
    const document = await ingest(source, deps, combined);
    combined.throwIfAborted();
    const handled = handlerOf(document);
    if (!handled) {
      throw new AppError("unsupported_media_type", `'${document.filename}' is ${document.contentType}, which has no thumbnail handler; see GET /api/v1/thumbnails/supported-types`);
    }
    const picture = await draw(document, handled, size, source.urlHeaders ?? {}, deps, combined);
    combined.throwIfAborted();
    const fitted = await fitJpeg(picture, { ...size, maxPixels: deps.maxPixels }, `'${document.filename}'`);
    return { ...fitted, handler: handled.handler, filename: document.filename, sourceType: document.contentType };
  });
}

function ingest(source: ThumbnailSource, deps: ThumbnailDeps, signal: AbortSignal): Promise<IngestedDocument> {
  if (source.file) return ingestUpload(source.file, deps.ingest);
  if (source.url) return ingestUrl(source.url, source.urlHeaders ?? {}, deps.ingest, { signal });
  throw new AppError("missing_input", "send the input as the 'file' form field or as 'url'");
}

/** draw lets the input's handler make a picture (any format sharp reads) of its first page, frame or view. */
async function draw(document: IngestedDocument, { format, handler }: HandledInput, size: ThumbnailSize, headers: Record<string, string>, deps: ThumbnailDeps, signal: AbortSignal): Promise<Uint8Array> {
  const { tools } = deps;
  const name = `'${document.filename}'`;
  switch (handler) {
    case "image":
      if (IMAGE_TYPES_VIA_HEIF.has(format.ext)) return heifToPng(document.bytes, name, deps.timeoutMs, signal);
      if (format.ext === "bmp") {
        const { width, height } = bmpSize(document.bytes, name);
        assertPixels(width, height, deps.maxPixels, name);
        return mediaOf(deps).stillToPng(document.bytes, "bmp", signal);
      }
      return document.bytes;
    case "pdf":
      return firstPdfPage(document.bytes, size, deps, signal);
    case "office":
    case "spreadsheet":
    case "presentation":
      return firstPdfPage(await tools.office.convert(document.bytes, format.ext, "pdf", signal), size, deps, signal);
    case "video": {
      const frame = await mediaOf(deps).videoFrame(document.bytes, 0.1, deps.maxPixels, signal);
      return frame ?? mediaOf(deps).waveform(document.bytes, size.width, size.height, signal);
    }
    case "audio":
      return mediaOf(deps).waveform(document.bytes, size.width, size.height, signal);
    case "web":
      return drawWebPage(document, headers, deps, signal);
    case "text":
      return textPreviewSvg(document.bytes, format.ext === "md" || format.ext === "markdown");
  }
}

/** firstPdfPage renders page 1 with its longer side as long as the box's longer side (sharp then fits it). */
function firstPdfPage(pdf: Uint8Array, size: ThumbnailSize, deps: ThumbnailDeps, signal: AbortSignal): Promise<Uint8Array> {
  return renderPdfPage(pdf, { page: 1, dpi: 72, gray: false, timeoutMs: deps.timeoutMs, maxBytes: PDF_PNG_LIMIT, scaleTo: Math.max(size.width, size.height) }, signal);
}

/** drawWebPage screenshots a URL's page in Chromium, or an uploaded HTML file set as the page's content. */
async function drawWebPage(document: IngestedDocument, headers: Record<string, string>, deps: ThumbnailDeps, signal: AbortSignal): Promise<Uint8Array> {
  const shots = browserDepsOf(deps);
  if (document.source === "upload") return screenshotHtml(new TextDecoder().decode(document.bytes), WEB_VIEWPORT, shots, signal);
  const options = { viewportWidth: WEB_VIEWPORT.width, viewportHeight: WEB_VIEWPORT.height, fullPage: false, darkMode: false, format: "jpeg" as const, quality: 90, waitMs: 0, deviceScaleFactor: 1 };
  const url = document.finalUrl ?? document.url!;
  // the page drawn is the URL after redirects: the client's headers only when that is still its origin
  return (await screenshotOf(url, options, shots, signal, headersForOrigin(headers, document.url!, url))).bytes;
}

function browserDepsOf(deps: ThumbnailDeps): ScreenshotDeps {
  return screenshotDepsOf(deps.tools, { timeoutMs: deps.screenshotTimeoutMs, allowPrivateUrls: deps.ingest.allowPrivateUrls, maxPixels: deps.maxPixels });
}

function mediaOf(deps: ThumbnailDeps): FfmpegTools {
  if (!(deps.tools.media instanceof FfmpegTools)) throw new AppError("tool_unavailable", "video and audio thumbnails need ffmpeg, which this server was not built with");
  return deps.tools.media;
}

/** bmpSize reads a BMP's dimensions from its header (sharp cannot read BMP, so the pixel cap is checked here). */
function bmpSize(bytes: Uint8Array, name: string): { width: number; height: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 26 || bytes[0] !== 0x42 || bytes[1] !== 0x4d) throw new AppError("unreadable_document", `${name}: not a BMP image (the header is missing or truncated)`);
  const core = view.getUint32(14, true) === 12; // BITMAPCOREHEADER: 16-bit sizes
  const width = core ? view.getUint16(18, true) : Math.abs(view.getInt32(18, true));
  const height = core ? view.getUint16(20, true) : Math.abs(view.getInt32(22, true));
  if (!width || !height) throw new AppError("unreadable_document", `${name}: the BMP header states no dimensions`);
  return { width, height };
}
