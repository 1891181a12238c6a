/**
 * multipart/form-data (RFC 7578, framing of RFC 2046 section 5.1) parsed from one buffer holding
 * the whole body. File parts come out as views of that buffer (Upload), never copies: Bun's own
 * `formData()` copied each file part out of its buffered body, and every 2 MB copy on the main thread
 * cost page faults and garbage collections (bench/README.md, thumbnails.ts).
 *
 *   preamble CRLF? --boundary [LWSP] CRLF headers CRLF CRLF content CRLF --boundary ... CRLF --boundary-- epilogue
 *
 * A part is a file when its Content-Disposition has a filename (or filename*), a text field otherwise
 * (its bytes read as UTF-8). Parts without a name are skipped, as browsers and Bun do. A body without
 * its closing delimiter is refused (MultipartError): it was cut off.
 */
import { Upload } from "../ingest/upload";

/** MultipartError: the body is not well-formed multipart/form-data; the message says where. */
export class MultipartError extends Error {}

/** FormPart: one named part, text or file, in body order. */
export interface FormPart {
  name: string;
  value: string | Upload;
}

const CR = 13;
const LF = 10;
const DASH = 45;
const CRLF_CRLF = Buffer.from("\r\n\r\n");
const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * boundaryOf reads the boundary parameter of a multipart Content-Type, quoted or not (RFC 2045
 * token or quoted-string); null when there is none.
 */
export function boundaryOf(contentType: string): string | null {
  const match = /;\s*boundary\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))/i.exec(contentType);
  if (!match) return null;
  const boundary = match[1] !== undefined ? unescapeQuoted(match[1]) : match[2]!;
  return boundary === "" ? null : boundary;
}

/** parseMultipart splits `body` at `boundary` into its named parts; file contents are views of `body`. */
export function parseMultipart(body: Uint8Array, boundary: string): FormPart[] {
  const buf = Buffer.from(body.buffer, body.byteOffset, body.byteLength); // a view: Buffer's native indexOf
  const dashBoundary = Buffer.from(`--${boundary}`);
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  // the first boundary opens the body, or follows a preamble and its CRLF
  const first = buf.subarray(0, dashBoundary.length).equals(dashBoundary) ? 0 : buf.indexOf(delimiter);
  if (first === -1) throw new MultipartError("the body holds no boundary line; it is empty or cut off");
  let at = first === 0 ? dashBoundary.length : first + delimiter.length;
  const parts: FormPart[] = [];
  for (;;) {
    if (buf[at] === DASH && buf[at + 1] === DASH) return parts; // the closing delimiter; the epilogue is ignored
    while (buf[at] === 32 || buf[at] === 9) at++; // transport padding after a boundary
    if (buf[at] !== CR || buf[at + 1] !== LF) throw new MultipartError("missing final boundary: a boundary line does not end with CRLF");
    at += 2;
    let contentStart: number;
    let headers: string;
    if (buf[at] === CR && buf[at + 1] === LF) {
      headers = "";
      contentStart = at + 2;
    } else {
      const headersEnd = buf.indexOf(CRLF_CRLF, at);
      if (headersEnd === -1) throw new MultipartError("missing final boundary: a part's headers do not end");
      headers = utf8.decode(buf.subarray(at, headersEnd));
      contentStart = headersEnd + 4;
    }
    const contentEnd = buf.indexOf(delimiter, contentStart);
    if (contentEnd === -1) throw new MultipartError("missing final boundary");
    const part = partOf(headers, body.subarray(contentStart, contentEnd));
    if (part) parts.push(part);
    at = contentEnd + delimiter.length;
  }
}

/** partOf makes a part of its header block and content; null for a part without a form-data name. */
function partOf(headers: string, content: Uint8Array): FormPart | null {
  let disposition = "";
  let type = "";
  for (const line of headers.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon === -1) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (name === "content-disposition") disposition = line.slice(colon + 1).trim();
    else if (name === "content-type") type = line.slice(colon + 1).trim();
  }
  if (!/^form-data\s*(;|$)/i.test(disposition)) return null;
  const params = parametersOf(disposition);
  const name = params.get("name");
  if (name === undefined) return null;
  const filename = params.has("filename*") ? extendedValueOf(params.get("filename*")!) : params.get("filename");
  if (filename === undefined) return { name, value: utf8.decode(content) };
  return { name, value: new Upload(content, filename, type) };
}

/**
 * parametersOf reads the `; key=value` parameters of a header value (keys lower-cased, values
 * token or quoted-string); a `;` inside quotes belongs to the value.
 */
function parametersOf(value: string): Map<string, string> {
  const params = new Map<string, string>();
  const pattern = /;\s*([^=;\s]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/g;
  for (const match of value.matchAll(pattern)) {
    const key = match[1]!.toLowerCase();
    if (!params.has(key)) params.set(key, match[2] !== undefined ? unescapeQuoted(match[2]) : match[3]!.trim());
  }
  return params;
}

/**
 * unescapeQuoted undoes a quoted-string's escapes of `"` and `\` only: a Windows path sent unescaped
 * ("C:\dir\a.txt", old browsers) keeps its separators, so its last component is still found.
 */
function unescapeQuoted(text: string): string {
  return text.replace(/\\(["\\])/g, "$1");
}

/** extendedValueOf decodes an RFC 8187 value (`UTF-8''r%C3%A9sum%C3%A9.pdf`); ISO-8859-1 too, as RFC 8187 allows. */
function extendedValueOf(value: string): string {
  const match = /^([^']*)'[^']*'(.*)$/.exec(value);
  if (!match) return value;
  const encoded = match[2]!;
  if (/^iso-8859-1$/i.test(match[1]!)) return encoded.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  try {
    return decodeURIComponent(encoded);
  } catch {
    return encoded; // a stray % or invalid UTF-8: the name as sent
  }
}
