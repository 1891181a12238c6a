/**
 * Ingest is the one way documents enter the service: an uploaded file or a URL becomes bytes, a
 * filename and a detected type. Limits and the SSRF guard apply here, before any work starts.
 */
import { AppError } from "../errors";
import { describeBytes } from "../runtime/values";
import { guardedFetch, parseUrlHeaders } from "../security/ssrf";
import { extensionOf, sniffType } from "./sniff";
import { bytesOf, filenameOf, type UploadedFile } from "./upload";

const SERVER_PAGE_EXTENSIONS = new Set(["php", "asp", "aspx", "jsp", "cgi"]);

export interface IngestedDocument {
  bytes: Uint8Array;
  /** filename: the client's name, or one derived from the URL; never contains a path */
  filename: string;
  /** contentType: the detected MIME type without parameters */
  contentType: string;
  /** ext: the extension matching contentType, lower case without the dot; "" when unknown */
  ext: string;
  source: "upload" | "url";
  /** url: the URL the client sent */
  url?: string;
  /** finalUrl: the URL after redirects */
  finalUrl?: string;
}

export interface IngestLimits {
  /** maxBytes: largest accepted document in bytes */
  maxBytes: number;
  /** fetchTimeoutMs: deadline for fetching one URL, redirects included, in milliseconds */
  fetchTimeoutMs: number;
  /** allowPrivateUrls: true lets URLs reach loopback, private and metadata addresses */
  allowPrivateUrls: boolean;
}

/**
 * ingestUpload accepts an uploaded file: checks size and emptiness, then detects its type. An
 * Upload's bytes are handed on as they are (a view of the request body), a File's are read.
 */
export async function ingestUpload(file: UploadedFile | Blob, limits: IngestLimits, field = "file"): Promise<IngestedDocument> {
  const filename = cleanFilename(filenameOf(file)) || "document";
  if (file.size > limits.maxBytes) {
    throw new AppError(
      "payload_too_large",
      `${field}: '${filename}' is ${describeBytes(file.size)}, larger than the ${describeBytes(limits.maxBytes)} limit; send a smaller file`,
    );
  }
  if (file.size === 0) throw new AppError("invalid_document", `${field}: the uploaded file '${filename}' is empty`);

  const bytes = await bytesOf(file);
  const { mime, ext } = sniffType(bytes, filename, file.type);
  return { bytes, filename, contentType: mime, ext, source: "upload" };
}

/** ingestUrl fetches a document under the SSRF guard, the byte limit and the fetch deadline. */
export async function ingestUrl(
  url: string,
  headers: Record<string, string>,
  limits: IngestLimits,
  opts: { signal?: AbortSignal; field?: string } = {},
): Promise<IngestedDocument> {
  const field = opts.field ?? "url";
  const fetched = await guardedFetch(url.trim(), {
    allowPrivate: limits.allowPrivateUrls,
    headers,
    maxBytes: limits.maxBytes,
    timeoutMs: limits.fetchTimeoutMs,
    signal: opts.signal,
    field,
  });
  if (fetched.bytes.byteLength === 0) {
    throw new AppError("invalid_document", `${field}: the document at '${fetched.finalUrl}' is empty (0 bytes)`);
  }

  const filename = filenameFromResponse(fetched.finalUrl, fetched.headers.get("content-disposition"));
  // A path ending in .php or .aspx names the program that answered, not the document: trust the header.
  const nameForSniff = SERVER_PAGE_EXTENSIONS.has(extensionOf(filename)) ? undefined : filename;
  const { mime, ext } = sniffType(fetched.bytes, nameForSniff, fetched.contentType ?? undefined);
  return { bytes: fetched.bytes, filename, contentType: mime, ext, source: "url", url, finalUrl: fetched.finalUrl };
}

/** ingestOne takes exactly one of an uploaded file or a URL (with optional url_headers JSON). */
export async function ingestOne(input: { file?: UploadedFile; url?: string; urlHeaders?: string }, limits: IngestLimits): Promise<IngestedDocument> {
  const url = typeof input.url === "string" ? input.url.trim() : "";
  const hasUrlHeaders = typeof input.urlHeaders === "string" && input.urlHeaders.trim() !== "";
  if (input.file && url) throw new AppError("bad_request", "send either a 'file' or a 'url', not both");
  if (input.file) {
    if (hasUrlHeaders) throw new AppError("bad_request", "url_headers: only applies to a 'url'; remove it when sending a 'file'");
    return ingestUpload(input.file, limits);
  }
  if (url) return ingestUrl(url, parseUrlHeaders(input.urlHeaders), limits);
  throw new AppError("missing_input", "send a document as the 'file' form field or a 'url'");
}

/** filenameFromResponse prefers Content-Disposition, then the last path segment, then the host. */
export function filenameFromResponse(finalUrl: string, contentDisposition: string | null): string {
  const fromHeader = contentDisposition ? filenameFromDisposition(contentDisposition) : "";
  if (fromHeader) return fromHeader;
  const url = new URL(finalUrl);
  const lastSegment = url.pathname.split("/").filter(Boolean).pop() ?? "";
  return cleanFilename(safeDecode(lastSegment)) || url.hostname;
}

function filenameFromDisposition(header: string): string {
  // RFC 6266: filename* (RFC 5987, percent-encoded with a charset) wins over filename.
  const extended = header.match(/filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i);
  if (extended) return cleanFilename(safeDecode(extended[2]!.trim()));
  const plain = header.match(/filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/i);
  if (plain) return cleanFilename((plain[1] ?? plain[2]!).replace(/\\(.)/g, "$1").trim());
  return "";
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** cleanFilename keeps the last path component and drops control characters; "" when nothing is left. */
function cleanFilename(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  const cleaned = base.replace(/[\u0000-\u001f\u007f]/g, "").trim();
  return cleaned === "." || cleaned === ".." ? "" : cleaned.slice(0, 255);
}
