/**
 * FORMATS is the table of every input format markdown conversion accepts: extension, MIME type,
 * family and the engine that converts it. `GET /api/v1/markdown/supported` lists it, the dispatcher
 * in index.ts routes by it, and a test converts one real file of every extension in it.
 */
import { EXTENSION_MIME } from "../ingest/sniff";
import { SOURCE_LANGUAGES } from "./code";

export const FAMILIES = ["documents", "spreadsheets", "presentations", "images", "audio_video", "web", "code_and_data", "archives"] as const;
export type Family = (typeof FAMILIES)[number];

/**
 * Engine names how a format is converted. "office:docx" means LibreOffice first turns the file into
 * DOCX, which the native DOCX converter then reads (headings, lists and tables survive the trip);
 * "office:pdf" (drawings) goes through a PDF, read by the PDF converter (text, else OCR). "xps" is
 * turned into a PDF by mutool (LibreOffice cannot open XPS).
 */
export type Engine =
  | "pdf"
  | "docx"
  | "xlsx"
  | "pptx"
  | "office:docx"
  | "office:xlsx"
  | "office:pptx"
  | "office:pdf"
  | "xps"
  | "epub"
  | "delimited"
  | "text"
  | "asciidoc"
  | "subtitles"
  | "code"
  | "json"
  | "yaml"
  | "xml"
  | "feed"
  | "html"
  | "notebook"
  | "eml"
  | "msg"
  | "mbox"
  | "image"
  | "media"
  | "archive";

export interface Format {
  ext: string;
  mime: string;
  family: Family;
  engine: Engine;
}

const FAMILY_LABEL: Record<Family, string> = {
  documents:
    "Documents: headings, lists, tables as GFM tables, links; PDF pages without text are OCRed; AsciiDoc as markdown; WebVTT and SRT captions as a transcript with speakers",
  spreadsheets: "Spreadsheets: one heading and one GFM table per sheet",
  presentations: "Presentations: slide by slide, with titles, body, tables and speaker notes",
  images: "Images: OCR text (tesseract) plus a metadata block; drawings (EMF, WMF, Visio VSDX) through LibreOffice as PDF: their text, else OCR",
  audio_video: "Audio and video: metadata always; a transcript when a speech-to-text provider is configured",
  web: "Web pages and HTML: rendered with JavaScript (URLs), boilerplate stripped, links absolute",
  code_and_data:
    "Code and data: fenced code with its language, notebooks as cells, email as headers plus body; XML journal articles (JATS: PubMed Central, eLife, PLOS) and USPTO patents (grants and applications) as structured documents, other XML fenced",
  archives: "Archives (ZIP, tar, 7z; tar or one document compressed with gzip, bzip2 or xz): each document inside converted under a heading with its path, within the decompressed-size limit",
};

const rows: Array<[Family, Engine, string[]]> = [
  ["documents", "pdf", ["pdf"]],
  ["documents", "docx", ["docx", "docm", "dotx"]],
  ["documents", "office:docx", ["doc", "dot", "odt", "ott", "fodt", "rtf", "pages", "wps"]],
  ["documents", "epub", ["epub"]],
  ["documents", "xps", ["xps", "oxps"]],
  ["documents", "text", ["txt", "text", "md", "markdown", "rst", "org", "tex", "log"]],
  ["documents", "asciidoc", ["adoc", "asciidoc"]],
  ["documents", "subtitles", ["vtt", "srt"]],
  ["documents", "eml", ["eml"]],
  ["documents", "msg", ["msg"]],
  ["documents", "mbox", ["mbox"]],
  ["spreadsheets", "xlsx", ["xlsx", "xlsm", "xltx"]],
  ["spreadsheets", "office:xlsx", ["xls", "xlt", "xlsb", "ods", "ots", "fods", "numbers"]],
  ["spreadsheets", "delimited", ["csv", "tsv"]],
  ["presentations", "pptx", ["pptx", "pptm", "potx", "ppsx"]],
  ["presentations", "office:pptx", ["ppt", "pps", "pot", "odp", "otp", "fodp", "key"]],
  ["images", "office:pdf", ["emf", "wmf", "vsdx"]],
  ["images", "image", ["jpg", "jpeg", "jpe", "png", "gif", "webp", "svg", "tif", "tiff", "bmp", "heic", "heif", "avif"]],
  ["audio_video", "media", ["mp4", "m4v", "mov", "webm", "mkv", "avi", "ogv", "mp3", "wav", "m4a", "aac", "ogg", "oga", "opus", "flac"]],
  ["web", "html", ["html", "htm", "xhtml"]],
  ["web", "feed", ["rss", "atom"]],
  ["code_and_data", "json", ["json", "jsonl", "ndjson", "geojson"]],
  ["code_and_data", "yaml", ["yaml", "yml"]],
  ["code_and_data", "xml", ["xml", "nxml", "xsd", "xsl", "xslt"]],
  ["code_and_data", "notebook", ["ipynb"]],
  ["archives", "archive", ["zip", "tar", "tar.gz", "tgz", "gz", "tar.bz2", "tbz2", "bz2", "tar.xz", "txz", "xz", "7z"]],
];

function buildFormats(): Format[] {
  const formats: Format[] = [];
  const seen = new Set<string>();
  const add = (family: Family, engine: Engine, ext: string) => {
    if (seen.has(ext)) return;
    seen.add(ext);
    formats.push({ ext, mime: EXTENSION_MIME[ext] ?? (engine === "code" ? "text/plain" : "application/octet-stream"), family, engine });
  };
  for (const [family, engine, exts] of rows) for (const ext of exts) add(family, engine, ext);
  for (const ext of Object.keys(SOURCE_LANGUAGES)) add("code_and_data", "code", ext);
  return formats;
}

export const FORMATS: readonly Format[] = buildFormats();

const BY_EXT = new Map(FORMATS.map((f) => [f.ext, f]));
const BY_MIME = new Map<string, Format>();
for (const f of FORMATS) if (!BY_MIME.has(f.mime)) BY_MIME.set(f.mime, f);

/** formatByExt finds a format by extension (lower case, no dot). */
export function formatByExt(ext: string): Format | undefined {
  return BY_EXT.get(ext.toLowerCase());
}

/**
 * CONTAINER_TYPES are detections that many formats share (any text, any XML, any ZIP or OLE2
 * file): for them the filename's extension decides, so a .py file is code and a .fodt file is a
 * document, while a PNG named report.pdf stays a PNG.
 */
const CONTAINER_TYPES = new Set([
  "text/plain",
  "application/xml",
  "text/xml",
  "application/zip",
  "application/x-ole-storage",
  "application/octet-stream",
  "application/json",
]);

/** formatOf picks the format of a document from its detected type and its filename's extension. */
export function formatOf(detected: { contentType: string; ext: string }, nameExt: string): Format | undefined {
  const byName = nameExt ? BY_EXT.get(nameExt) : undefined;
  if (byName && (byName.mime === detected.contentType || CONTAINER_TYPES.has(detected.contentType))) return byName;
  return (detected.ext ? BY_EXT.get(detected.ext) : undefined) ?? BY_MIME.get(detected.contentType) ?? (detected.contentType.startsWith("text/") ? BY_EXT.get("txt") : undefined);
}

/**
 * NO_READER_ADVICE: formats that are recognised but that no program on the server reads, by MIME
 * type, with what the caller can do instead; the 415 for them says so rather than "not supported".
 */
const NO_READER_ADVICE: Record<string, string> = {
  "application/onenote":
    "a OneNote notebook file (.one, .onetoc2), which no program on this server can read; in OneNote, export the page or section as PDF or Word (File > Export) and upload that file",
};

/** noReaderAdvice says what a recognised but unreadable type is and what to upload instead; undefined for other types. */
export function noReaderAdvice(contentType: string): string | undefined {
  return NO_READER_ADVICE[contentType];
}

/** supportedFormats groups the table by family for the API and the README. */
export function supportedFormats(): Array<{ family: Family; description: string; extensions: string[]; mime_types: string[] }> {
  return FAMILIES.map((family) => {
    const members = FORMATS.filter((f) => f.family === family);
    return {
      family,
      description: FAMILY_LABEL[family],
      extensions: members.map((f) => f.ext),
      mime_types: [...new Set(members.map((f) => f.mime))],
    };
  });
}
