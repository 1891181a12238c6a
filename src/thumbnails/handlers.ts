/**
 * The thumbnail handler table: which handler draws each input format. It is derived from the
 * markdown FORMATS table (one list of extensions and MIME types for the whole service), so a format
 * the service learns to read gets a thumbnail handler by its family, or is listed as unsupported.
 *
 *   image         sharp (HEIC through heif-convert)
 *   pdf           first page, pdftoppm
 *   office        LibreOffice -> PDF -> first page (documents, iWork Pages)
 *   spreadsheet   LibreOffice -> PDF -> first page (first sheet)
 *   presentation  LibreOffice -> PDF -> first page (first slide)
 *   video         a frame from 10 % in, ffmpeg
 *   audio         a waveform, ffmpeg showwavespic
 *   web           a Chromium screenshot (a URL, or an uploaded HTML file)
 *   text          the first lines drawn as an SVG and rendered by sharp (text, markdown, code, data)
 */
import { FORMATS, formatOf, type Format } from "../convert/formats";
import { extensionOf } from "../ingest/sniff";

export const HANDLERS = ["image", "pdf", "office", "spreadsheet", "presentation", "video", "audio", "web", "text"] as const;
export type HandlerName = (typeof HANDLERS)[number];

const HANDLER_LABEL: Record<HandlerName, string> = {
  image: "Images, resized with sharp (GIF: first frame; TIFF: first page; HEIC through libheif)",
  pdf: "PDF: the first page",
  office: "Office and iWork documents: converted to PDF by LibreOffice, first page",
  spreadsheet: "Spreadsheets: converted to PDF by LibreOffice, first page of the first sheet",
  presentation: "Presentations: converted to PDF by LibreOffice, first slide",
  video: "Video: a frame from about 10 % into the video",
  audio: "Audio: a waveform of the whole file",
  web: "Web pages (a URL) and HTML files: a screenshot of the rendered page (1280x800)",
  text: "Text, markdown, code and data: the first lines, rendered",
};

/** AUDIO_EXTENSIONS are the media formats drawn as a waveform; other media files get a video frame (or a waveform when they have no picture). */
const AUDIO_EXTENSIONS = new Set(["mp3", "wav", "m4a", "aac", "ogg", "oga", "opus", "flac"]);

/** handlerOfFormat picks the handler of one format; undefined when thumbnails do not support it (archives, EPUB, Outlook MSG). */
export function handlerOfFormat(format: Format): HandlerName | undefined {
  switch (format.engine) {
    case "image":
      return "image";
    case "pdf":
      return "pdf";
    case "docx":
    case "office:docx":
      return "office";
    case "xlsx":
    case "office:xlsx":
    case "delimited":
      return "spreadsheet";
    case "pptx":
    case "office:pptx":
      return "presentation";
    case "media":
      return AUDIO_EXTENSIONS.has(format.ext) ? "audio" : "video";
    case "html":
      return "web";
    case "text":
    case "code":
    case "json":
    case "yaml":
    case "xml":
    case "feed":
    case "notebook":
    case "eml":
      return "text";
    default:
      return undefined;
  }
}

/** HandledInput is an input's format and the handler that draws it. */
export interface HandledInput {
  format: Format;
  handler: HandlerName;
}

/** handlerOf finds the format and handler of a detected document; undefined when unsupported. */
export function handlerOf(detected: { contentType: string; ext: string; filename: string }): HandledInput | undefined {
  const format = formatOf(detected, extensionOf(detected.filename));
  if (!format) return undefined;
  const handler = handlerOfFormat(format);
  return handler ? { format, handler } : undefined;
}

/** supportedThumbnailTypes groups every supported extension and MIME type by handler, for GET supported-types. */
export function supportedThumbnailTypes() {
  const handlers = HANDLERS.map((handler) => {
    const members = FORMATS.filter((f) => handlerOfFormat(f) === handler);
    return { handler, description: HANDLER_LABEL[handler], extensions: members.map((f) => f.ext), mime_types: [...new Set(members.map((f) => f.mime))] };
  });
  return { success: true as const, total_extensions: handlers.reduce((n, h) => n + h.extensions.length, 0), handlers };
}
