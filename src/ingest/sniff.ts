/**
 * sniffType decides what a document is. Pure: bytes and names in, a MIME type out.
 *
 *   magic bytes (binary signatures, zip and OLE2 containers, text formats with a clear start)
 *     -> filename extension -> declared Content-Type (when specific) -> UTF-8 text check -> octet-stream
 *
 * Bytes win over names: a PNG called report.pdf is a PNG. Names only refine a container that the
 * bytes cannot tell apart (an OLE2 file is .doc, .xls or .msg; an MP4 may be audio only).
 */

export interface SniffResult {
  /** mime: the detected type without parameters, e.g. "application/pdf" */
  mime: string;
  /** ext: the matching extension, lower case without the dot, e.g. "pdf"; "" when unknown */
  ext: string;
}

const KNOWN_EXTENSIONS = {
  // documents
  pdf: "application/pdf",
  doc: "application/msword",
  dot: "application/msword",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  docm: "application/vnd.ms-word.document.macroenabled.12",
  dotx: "application/vnd.openxmlformats-officedocument.wordprocessingml.template",
  dotm: "application/vnd.ms-word.template.macroenabled.12",
  odt: "application/vnd.oasis.opendocument.text",
  ott: "application/vnd.oasis.opendocument.text-template",
  fodt: "application/vnd.oasis.opendocument.text-flat-xml",
  rtf: "application/rtf",
  pages: "application/vnd.apple.pages",
  wpd: "application/vnd.wordperfect",
  wps: "application/vnd.ms-works",
  epub: "application/epub+zip",
  mobi: "application/x-mobipocket-ebook",
  djvu: "image/vnd.djvu",
  xps: "application/oxps",
  oxps: "application/oxps",
  ps: "application/postscript",
  eps: "application/postscript",
  // spreadsheets
  xls: "application/vnd.ms-excel",
  xlt: "application/vnd.ms-excel",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  xlsm: "application/vnd.ms-excel.sheet.macroenabled.12",
  xlsb: "application/vnd.ms-excel.sheet.binary.macroenabled.12",
  xltx: "application/vnd.openxmlformats-officedocument.spreadsheetml.template",
  ods: "application/vnd.oasis.opendocument.spreadsheet",
  ots: "application/vnd.oasis.opendocument.spreadsheet-template",
  fods: "application/vnd.oasis.opendocument.spreadsheet-flat-xml",
  numbers: "application/vnd.apple.numbers",
  csv: "text/csv",
  tsv: "text/tab-separated-values",
  // presentations and drawings
  ppt: "application/vnd.ms-powerpoint",
  pps: "application/vnd.ms-powerpoint",
  pot: "application/vnd.ms-powerpoint",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  pptm: "application/vnd.ms-powerpoint.presentation.macroenabled.12",
  ppsx: "application/vnd.openxmlformats-officedocument.presentationml.slideshow",
  potx: "application/vnd.openxmlformats-officedocument.presentationml.template",
  odp: "application/vnd.oasis.opendocument.presentation",
  otp: "application/vnd.oasis.opendocument.presentation-template",
  fodp: "application/vnd.oasis.opendocument.presentation-flat-xml",
  odg: "application/vnd.oasis.opendocument.graphics",
  key: "application/vnd.apple.keynote",
  vsd: "application/vnd.visio",
  vsdx: "application/vnd.ms-visio.drawing",
  pub: "application/x-mspublisher",
  one: "application/onenote",
  onetoc2: "application/onenote",
  // mail and notebooks
  eml: "message/rfc822",
  msg: "application/vnd.ms-outlook",
  mbox: "application/mbox",
  ics: "text/calendar",
  vcf: "text/vcard",
  ipynb: "application/x-ipynb+json",
  // images
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  jpe: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  tif: "image/tiff",
  tiff: "image/tiff",
  bmp: "image/bmp",
  heic: "image/heic",
  heif: "image/heif",
  avif: "image/avif",
  svg: "image/svg+xml",
  emf: "image/emf",
  wmf: "image/wmf",
  ico: "image/vnd.microsoft.icon",
  psd: "image/vnd.adobe.photoshop",
  jp2: "image/jp2",
  jxl: "image/jxl",
  // audio
  mp3: "audio/mpeg",
  wav: "audio/wav",
  m4a: "audio/mp4",
  aac: "audio/aac",
  ogg: "audio/ogg",
  oga: "audio/ogg",
  opus: "audio/ogg",
  flac: "audio/flac",
  aiff: "audio/aiff",
  aif: "audio/aiff",
  wma: "audio/x-ms-wma",
  mid: "audio/midi",
  midi: "audio/midi",
  amr: "audio/amr",
  // video
  mp4: "video/mp4",
  m4v: "video/x-m4v",
  mov: "video/quicktime",
  webm: "video/webm",
  mkv: "video/x-matroska",
  avi: "video/x-msvideo",
  wmv: "video/x-ms-wmv",
  mpeg: "video/mpeg",
  mpg: "video/mpeg",
  ogv: "video/ogg",
  "3gp": "video/3gpp",
  flv: "video/x-flv",
  // web and markup
  html: "text/html",
  htm: "text/html",
  xhtml: "application/xhtml+xml",
  xml: "application/xml",
  nxml: "application/xml",
  xsd: "application/xml",
  xsl: "application/xslt+xml",
  xslt: "application/xslt+xml",
  rss: "application/rss+xml",
  atom: "application/atom+xml",
  json: "application/json",
  jsonl: "application/jsonl",
  ndjson: "application/x-ndjson",
  geojson: "application/geo+json",
  yaml: "application/yaml",
  yml: "application/yaml",
  toml: "application/toml",
  ini: "text/plain",
  cfg: "text/plain",
  conf: "text/plain",
  env: "text/plain",
  log: "text/plain",
  txt: "text/plain",
  text: "text/plain",
  md: "text/markdown",
  markdown: "text/markdown",
  rst: "text/x-rst",
  adoc: "text/asciidoc",
  asciidoc: "text/asciidoc",
  org: "text/x-org",
  tex: "application/x-tex",
  bib: "application/x-bibtex",
  srt: "application/x-subrip",
  vtt: "text/vtt",
  css: "text/css",
  scss: "text/x-scss",
  sass: "text/x-sass",
  less: "text/x-less",
  // code (.ts is TypeScript here: a code upload is far likelier than an MPEG transport stream)
  js: "text/javascript",
  mjs: "text/javascript",
  cjs: "text/javascript",
  jsx: "text/jsx",
  ts: "text/x-typescript",
  tsx: "text/x-typescript",
  py: "text/x-python",
  pyi: "text/x-python",
  go: "text/x-go",
  rs: "text/x-rust",
  java: "text/x-java",
  kt: "text/x-kotlin",
  kts: "text/x-kotlin",
  scala: "text/x-scala",
  swift: "text/x-swift",
  c: "text/x-c",
  h: "text/x-c",
  cpp: "text/x-c++",
  cc: "text/x-c++",
  cxx: "text/x-c++",
  hpp: "text/x-c++",
  cs: "text/x-csharp",
  m: "text/x-objc",
  rb: "text/x-ruby",
  php: "application/x-httpd-php",
  pl: "text/x-perl",
  lua: "text/x-lua",
  r: "text/x-r",
  dart: "text/x-dart",
  ex: "text/x-elixir",
  exs: "text/x-elixir",
  erl: "text/x-erlang",
  hs: "text/x-haskell",
  clj: "text/x-clojure",
  sh: "application/x-sh",
  bash: "application/x-sh",
  zsh: "application/x-sh",
  ps1: "text/x-powershell",
  bat: "application/x-bat",
  sql: "application/sql",
  graphql: "application/graphql",
  proto: "text/x-protobuf",
  vue: "text/x-vue",
  svelte: "text/x-svelte",
  dockerfile: "text/x-dockerfile",
  makefile: "text/x-makefile",
  // archives
  zip: "application/zip",
  gz: "application/gzip",
  tgz: "application/gzip",
  "tar.gz": "application/gzip",
  tar: "application/x-tar",
  bz2: "application/x-bzip2",
  "tar.bz2": "application/x-bzip2",
  tbz2: "application/x-bzip2",
  xz: "application/x-xz",
  "tar.xz": "application/x-xz",
  txz: "application/x-xz",
  "7z": "application/x-7z-compressed",
  rar: "application/vnd.rar",
  jar: "application/java-archive",
};

/**
 * EXTENSION_MIME maps a lower-case extension (no dot) to its MIME type; it is the list of names we know.
 * Typed so that a named entry (EXTENSION_MIME.docx) is a string while a lookup by any string may be undefined.
 */
export const EXTENSION_MIME: Record<string, string> & typeof KNOWN_EXTENSIONS = KNOWN_EXTENSIONS;

/** MIME_EXTENSION is the reverse table: the first extension listed for each MIME type. */
const MIME_EXTENSION: Record<string, string> = {};
for (const [ext, mime] of Object.entries(EXTENSION_MIME)) MIME_EXTENSION[mime] ??= ext;
Object.assign(MIME_EXTENSION, {
  "application/x-ole-storage": "",
  "application/octet-stream": "",
  "text/plain": "txt",
  "application/vnd.oasis.opendocument.formula": "odf",
});

const GENERIC_TYPES = new Set(["application/octet-stream", "text/plain", "binary/octet-stream", "application/x-download", "application/unknown"]);

/** sniffType detects the type of a document from its bytes, then its filename, then the declared type. */
export function sniffType(bytes: Uint8Array, filename?: string, declared?: string): SniffResult {
  const nameExt = extensionOf(filename);
  const byBytes = sniffMagic(bytes, nameExt);
  if (byBytes) return result(byBytes, nameExt);

  const byName = EXTENSION_MIME[nameExt];
  if (byName && !GENERIC_TYPES.has(byName)) return result(byName, nameExt);

  const declaredMime = (declared ?? "").split(";")[0]!.trim().toLowerCase();
  if (/^[a-z]+\/[a-z0-9.+-]+$/.test(declaredMime) && !GENERIC_TYPES.has(declaredMime)) return result(declaredMime, nameExt);

  if (byName) return result(byName, nameExt);
  if (looksLikeText(bytes)) return result("text/plain", nameExt);
  return result("application/octet-stream", nameExt);
}

/** extensionOf returns the lower-case extension of a filename without the dot, or "" (bare Dockerfile/Makefile count). */
export function extensionOf(filename?: string): string {
  if (!filename) return "";
  const base = filename.split(/[\\/]/).pop()!.toLowerCase();
  if (base === "dockerfile" || base === "makefile") return base;
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(dot + 1) : "";
}

function result(mime: string, nameExt: string): SniffResult {
  // Keep the caller's spelling when it names the same type (.jpeg stays .jpeg, .yml stays .yml).
  if (nameExt && EXTENSION_MIME[nameExt] === mime) return { mime, ext: nameExt };
  return { mime, ext: MIME_EXTENSION[mime] ?? "" };
}

// ---------------------------------------------------------------------------------------------
// Magic bytes

const latin1 = new TextDecoder("latin1");

function ascii(bytes: Uint8Array, start: number, length: number): string {
  return latin1.decode(bytes.subarray(start, start + length));
}

function startsWith(bytes: Uint8Array, signature: number[], at = 0): boolean {
  if (bytes.length < at + signature.length) return false;
  return signature.every((b, i) => bytes[at + i] === b);
}

/** byteAt reads one byte, treating a read past the end as 0 (as the bitwise ops did with undefined). */
function byteAt(bytes: Uint8Array, at: number): number {
  return bytes[at] ?? 0;
}

function u16(bytes: Uint8Array, at: number): number {
  return byteAt(bytes, at) | (byteAt(bytes, at + 1) << 8);
}

function u32(bytes: Uint8Array, at: number): number {
  return (byteAt(bytes, at) | (byteAt(bytes, at + 1) << 8) | (byteAt(bytes, at + 2) << 16) | (byteAt(bytes, at + 3) << 24)) >>> 0;
}

function sniffMagic(bytes: Uint8Array, nameExt: string): string | null {
  const head = ascii(bytes, 0, 16);
  if (isPdf(bytes)) return "application/pdf";
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (head.startsWith("GIF87a") || head.startsWith("GIF89a")) return "image/gif";
  if (head.startsWith("RIFF")) {
    const form = ascii(bytes, 8, 4);
    if (form === "WEBP") return "image/webp";
    if (form === "WAVE") return "audio/wav";
    if (form === "AVI ") return "video/x-msvideo";
  }
  if (head.startsWith("FORM") && /^AIF[FC]$/.test(ascii(bytes, 8, 4))) return "audio/aiff";
  if (head.startsWith("II*\0") || head.startsWith("MM\0*")) return "image/tiff";
  if (head.startsWith("BM") && [12, 40, 52, 56, 64, 108, 124].includes(u32(bytes, 14))) return "image/bmp";
  if (head.startsWith("8BPS")) return "image/vnd.adobe.photoshop";
  if (u32(bytes, 0) === 1 && ascii(bytes, 40, 4) === " EMF") return "image/emf";
  // WMF: the placeable header's key, or a standard header (type 1 or 2, header size 9 words, version 0x100/0x300)
  if (startsWith(bytes, [0xd7, 0xcd, 0xc6, 0x9a]) || ((u16(bytes, 0) === 1 || u16(bytes, 0) === 2) && u16(bytes, 2) === 9 && (u16(bytes, 4) === 0x100 || u16(bytes, 4) === 0x300))) return "image/wmf";
  if (ONENOTE_FILE_TYPES.some((guid) => startsWith(bytes, guid))) return EXTENSION_MIME.one;
  if (ascii(bytes, 4, 4) === "ftyp") return sniffIsoMedia(bytes, nameExt);
  if (startsWith(bytes, [0x1a, 0x45, 0xdf, 0xa3])) return ascii(bytes, 0, 64).includes("webm") ? "video/webm" : "video/x-matroska";
  if (head.startsWith("OggS")) return ascii(bytes, 0, 64).includes("theora") ? "video/ogg" : "audio/ogg";
  if (head.startsWith("fLaC")) return "audio/flac";
  if (head.startsWith("MThd")) return "audio/midi";
  if (head.startsWith("ID3") || isMpegAudioFrame(bytes)) return "audio/mpeg";
  if (head.startsWith("PK\x03\x04") || head.startsWith("PK\x05\x06")) return sniffZip(bytes, nameExt);
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return sniffOle(bytes, nameExt);
  if (startsWith(bytes, [0x1f, 0x8b])) return "application/gzip";
  if (head.startsWith("7z\xbc\xaf\x27\x1c")) return "application/x-7z-compressed";
  if (head.startsWith("Rar!\x1a\x07")) return "application/vnd.rar";
  if (startsWith(bytes, [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00])) return "application/x-xz";
  if (head.startsWith("BZh")) return "application/x-bzip2";
  if (ascii(bytes, 257, 5) === "ustar") return "application/x-tar";
  return sniffTextFormat(bytes, nameExt);
}

/**
 * ONENOTE_FILE_TYPES: the GUIDs a OneNote file starts with ([MS-ONESTORE] 2.3.1 guidFileType for a
 * section .one and a table of contents .onetoc2; 2.8 guidFileFormat for the alternative packaging),
 * as stored: the first three fields little-endian.
 */
const ONENOTE_FILE_TYPES = [
  "7b5c52e4-d88c-4da7-aeb1-5378d02996d3",
  "43ff2fa1-efd9-4c76-9ee2-10ea5722765f",
  "638de92f-a6d4-4bc1-9a36-b3fc2511a5b7",
].map(guidBytes);

/** guidBytes turns "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" into its 16 bytes as a file stores them. */
function guidBytes(guid: string): number[] {
  const hex = guid.replace(/-/g, "");
  const bytes = Array.from({ length: 16 }, (_, i) => parseInt(hex.slice(i * 2, i * 2 + 2), 16));
  return [...bytes.slice(0, 4).reverse(), ...bytes.slice(4, 6).reverse(), ...bytes.slice(6, 8).reverse(), ...bytes.slice(8)];
}

/** isPdf accepts "%PDF-" at the start, or within the first 1 KB (as readers do) when the file also ends with %%EOF. */
function isPdf(bytes: Uint8Array): boolean {
  if (ascii(bytes, 0, 5) === "%PDF-") return true;
  return ascii(bytes, 0, 1024).includes("%PDF-") && ascii(bytes, Math.max(0, bytes.length - 1024), 1024).includes("%%EOF");
}

/** isMpegAudioFrame checks an MPEG audio frame header: 11 sync bits, a valid version, layer, bitrate and rate. */
function isMpegAudioFrame(bytes: Uint8Array): boolean {
  if (bytes.length < 4 || bytes[0] !== 0xff || (bytes[1]! & 0xe0) !== 0xe0) return false;
  const version = (bytes[1]! >> 3) & 0b11;
  const layer = (bytes[1]! >> 1) & 0b11;
  const bitrate = bytes[2]! >> 4;
  const rate = (bytes[2]! >> 2) & 0b11;
  return version !== 0b01 && layer !== 0b00 && bitrate !== 0b1111 && rate !== 0b11;
}

/** sniffIsoMedia reads the ftyp brands of an ISO base media file (MP4, MOV, HEIC, AVIF, M4A). */
function sniffIsoMedia(bytes: Uint8Array, nameExt: string): string {
  const boxSize = Math.min(u32(bytes, 0), 256, bytes.length);
  const brands: string[] = [ascii(bytes, 8, 4)];
  for (let at = 16; at + 4 <= boxSize; at += 4) brands.push(ascii(bytes, at, 4));
  const has = (...names: string[]) => brands.some((b) => names.includes(b));

  if (has("avif", "avis")) return "image/avif";
  if (has("heic", "heix", "hevc", "hevx", "heim", "heis")) return "image/heic";
  if (has("mif1", "msf1", "heif")) return "image/heif";
  if (brands[0] === "qt  ") return "video/quicktime";
  if (has("M4A ", "M4B ", "M4P ")) return "audio/mp4";
  if (brands[0]!.startsWith("3g2")) return "video/3gpp2";
  if (brands[0]!.startsWith("3gp")) return "video/3gpp";
  if (brands[0] === "M4V ") return "video/x-m4v";
  // Generic mp41/mp42/isom: the brands do not say whether there is a picture.
  if (nameExt === "m4a" || nameExt === "m4b") return "audio/mp4";
  if (nameExt === "m4v") return "video/x-m4v";
  if (nameExt === "mov") return "video/quicktime";
  const text = latin1.decode(bytes);
  if (!/hdlr[\s\S]{8}vide/.test(text) && /hdlr[\s\S]{8}soun/.test(text)) return "audio/mp4";
  return "video/mp4";
}

// ---------------------------------------------------------------------------------------------
// ZIP containers

const ZIP_BASED_EXTENSIONS = new Set(["jar", "docm", "dotx", "dotm", "xlsm", "xltx", "xlsb", "pptm", "ppsx", "potx", "vsdx", "pages", "numbers", "key", "xps", "oxps", "ott", "ots", "otp"]);

/**
 * zipEntries lists entry names from the central directory, or, when it is missing (a truncated
 * upload), from the local headers in the first 64 KB. The central directory wins because a stored
 * (uncompressed) member that is itself a ZIP, such as the workbook embedded behind a chart in a
 * PPTX, shows its own local headers ("xl/workbook.xml") inside the outer archive.
 */
export function zipEntries(bytes: Uint8Array): { names: Set<string>; mimetype: string | null } {
  const local = new Set<string>();
  const central = new Set<string>();
  let mimetype: string | null = null;

  const scanEnd = Math.min(bytes.length - 30, 64 * 1024);
  for (let at = 0; at < scanEnd; at++) {
    if (bytes[at] !== 0x50 || bytes[at + 1] !== 0x4b || bytes[at + 2] !== 3 || bytes[at + 3] !== 4) continue;
    const method = u16(bytes, at + 8);
    const size = u32(bytes, at + 18);
    const nameLength = u16(bytes, at + 26);
    const name = ascii(bytes, at + 30, nameLength);
    local.add(name);
    // ODF and EPUB store "mimetype" first and uncompressed, so its content is readable in place.
    if (name === "mimetype" && method === 0 && size > 0 && size < 256) {
      mimetype = ascii(bytes, at + 30 + nameLength + u16(bytes, at + 28), size).trim();
    }
  }

  const endRecord = findEndOfCentralDirectory(bytes);
  if (endRecord >= 0) {
    const count = u16(bytes, endRecord + 10);
    let at = u32(bytes, endRecord + 16);
    for (let i = 0; i < count && at + 46 <= bytes.length && u32(bytes, at) === 0x02014b50; i++) {
      const nameLength = u16(bytes, at + 28);
      central.add(ascii(bytes, at + 46, nameLength));
      at += 46 + nameLength + u16(bytes, at + 30) + u16(bytes, at + 32);
    }
  }
  return { names: central.size ? central : local, mimetype };
}

/** findEndOfCentralDirectory is the offset of a ZIP's end-of-central-directory record, or -1. */
export function findEndOfCentralDirectory(bytes: Uint8Array): number {
  const lowest = Math.max(0, bytes.length - 22 - 0xffff);
  for (let at = bytes.length - 22; at >= lowest; at--) {
    if (u32(bytes, at) === 0x06054b50) return at;
  }
  return -1;
}

function sniffZip(bytes: Uint8Array, nameExt: string): string {
  const { names, mimetype } = zipEntries(bytes);
  if (mimetype === "application/epub+zip" || mimetype?.startsWith("application/vnd.oasis.opendocument.")) return mimetype;

  const list = [...names];
  const anyStartsWith = (prefix: string) => list.some((n) => n.startsWith(prefix));
  const refine = (family: string) => (EXTENSION_MIME[nameExt]?.includes(family) && ZIP_BASED_EXTENSIONS.has(nameExt) ? EXTENSION_MIME[nameExt] : null);
  if (anyStartsWith("word/")) return refine("word") ?? EXTENSION_MIME.docx;
  if (names.has("xl/workbook.bin")) return EXTENSION_MIME.xlsb;
  if (anyStartsWith("xl/")) return refine("excel") ?? refine("spreadsheetml") ?? EXTENSION_MIME.xlsx;
  if (anyStartsWith("ppt/")) return refine("presentation") ?? refine("powerpoint") ?? EXTENSION_MIME.pptx;
  if (anyStartsWith("visio/")) return EXTENSION_MIME.vsdx;
  if (list.some((n) => n.toLowerCase().endsWith(".fdseq"))) return EXTENSION_MIME.xps;

  if (names.has("Index/Document.iwa")) {
    if (nameExt === "pages" || nameExt === "numbers" || nameExt === "key") return EXTENSION_MIME[nameExt];
    if (names.has("Index/CalculationEngine.iwa")) return EXTENSION_MIME.numbers;
    if (anyStartsWith("Index/Slide")) return EXTENSION_MIME.key;
    return EXTENSION_MIME.pages;
  }
  if (ZIP_BASED_EXTENSIONS.has(nameExt)) return EXTENSION_MIME[nameExt]!;
  if (names.has("META-INF/MANIFEST.MF")) return EXTENSION_MIME.jar;
  return "application/zip";
}

// ---------------------------------------------------------------------------------------------
// OLE2 compound files

const OLE_EXTENSIONS = new Set(["doc", "dot", "wps", "xls", "xlt", "ppt", "pps", "pot", "msg", "vsd", "pub"]);

/** sniffOle names an OLE2 file by its extension, else by the stream names stored in UTF-16 in its directory. */
function sniffOle(bytes: Uint8Array, nameExt: string): string {
  if (OLE_EXTENSIONS.has(nameExt)) return EXTENSION_MIME[nameExt]!;
  const text = latin1.decode(bytes);
  const hasStream = (name: string) => text.includes(name.replace(/./g, "$&\0"));
  if (hasStream("__substg1.0_")) return EXTENSION_MIME.msg;
  // Kingsoft WPS Writer keeps a Word binary document beside its own WpsCustomData stream (seen in its files)
  if (hasStream("WordDocument")) return hasStream("WpsCustomData") ? EXTENSION_MIME.wps : EXTENSION_MIME.doc;
  if (hasStream("Workbook") || hasStream("Book\0")) return EXTENSION_MIME.xls;
  if (hasStream("PowerPoint Document")) return EXTENSION_MIME.ppt;
  // Microsoft Works word processor files hold MatOST, or a CONTENTS stream (Works 2000-9 start it with
  // "CHNKWKS", as libwps checks; Tika looks for SPELLING beside it). No Works sample was at hand to check.
  if (hasStream("MatOST") || (hasStream("CONTENTS") && (hasStream("SPELLING") || text.includes("CHNKWKS")))) return EXTENSION_MIME.wps;
  return "application/x-ole-storage";
}

// ---------------------------------------------------------------------------------------------
// Text formats

/** sniffTextFormat recognises text formats with a clear start: RTF, SVG, HTML, XML, JSON, PostScript. */
function sniffTextFormat(bytes: Uint8Array, nameExt: string): string | null {
  let start = startsWith(bytes, [0xef, 0xbb, 0xbf]) ? 3 : 0;
  while (start < bytes.length && (bytes[start] === 0x20 || (bytes[start]! >= 0x09 && bytes[start]! <= 0x0d))) start++;
  const lead = ascii(bytes, start, 4096);
  const lower = lead.toLowerCase();

  if (lead.startsWith("{\\rtf")) return "application/rtf";
  if (lead.startsWith("%!PS")) return "application/postscript";
  if (/^WEBVTT(?:[ \t\r\n]|$)/.test(lead)) return EXTENSION_MIME.vtt!;
  // a mailbox: a "From sender date" separator line, then the first message's header lines
  if (/^From \S+ [^\r\n]*\d\d:\d\d[^\r\n]*\r?\n[!-9;-~]+:/.test(lead)) return EXTENSION_MIME.mbox;
  // Skip an XML declaration, comments and a doctype to find the first element.
  const firstElement = lower.replace(/^(?:<\?xml[\s\S]*?\?>\s*|<!--[\s\S]*?-->\s*|<!doctype\s+(?!html)[^>]*>\s*)*/, "");
  if (firstElement.startsWith("<svg")) return "image/svg+xml";
  if (/^<!doctype\s+html|^<html[\s>]|^<head[\s>]|^<body[\s>]/.test(firstElement)) {
    return nameExt === "xhtml" ? EXTENSION_MIME.xhtml : "text/html";
  }
  // XML without a declaration that starts with its document type (a JATS .nxml, a patent's full text)
  if (lower.startsWith("<?xml") || /^<!doctype\s+(?!html)[\w:.-]+\s+(?:public|system)\s/.test(lower)) {
    const byName = EXTENSION_MIME[nameExt];
    if (byName && (byName.endsWith("+xml") || byName.endsWith("/xml"))) return byName;
    if (firstElement.startsWith("<rss")) return EXTENSION_MIME.rss;
    if (firstElement.startsWith("<feed")) return EXTENSION_MIME.atom;
    return "application/xml";
  }
  if (lead.startsWith("{") || lead.startsWith("[")) {
    if (!looksLikeJson(bytes.subarray(start))) return null;
    const byName = EXTENSION_MIME[nameExt];
    return byName && byName.includes("json") ? byName : "application/json";
  }
  return null;
}

/**
 * JSON_SNIFF_BYTES: texts up to this size are checked with JSON.parse; of larger ones only this
 * much of the start is checked, by jsonPrefixValid. Parsing a whole upload here, on the event loop,
 * stalled the server (4 s for 3.9 MB of nested arrays); the converter checks every token anyway.
 */
const JSON_SNIFF_BYTES = 64 * 1024;

/** looksLikeJson: the text is valid JSON, or (when larger than JSON_SNIFF_BYTES) starts as valid JSON does. */
function looksLikeJson(bytes: Uint8Array): boolean {
  try {
    if (bytes.length <= JSON_SNIFF_BYTES) {
      JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
      return true;
    }
    // not fatal: a multi-byte character may be cut at the end of the head; binary fails the tokens
    return jsonPrefixValid(new TextDecoder().decode(bytes.subarray(0, JSON_SNIFF_BYTES)));
  } catch {
    return false;
  }
}

const JSON_SCALAR = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;

/**
 * jsonPrefixValid is true when `text` could be the start of a JSON text: every token is valid and in
 * a valid place up to where the text ends (a token cut by the end counts as valid).
 */
function jsonPrefixValid(text: string): boolean {
  const open: number[] = [];
  type Expect = "value" | "valueOrClose" | "key" | "keyOrClose" | "colon" | "commaOrClose";
  let expect = "value" as Expect;
  let pos = 0;
  while (pos < text.length) {
    const c = text.charCodeAt(pos);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
      pos++;
      continue;
    }
    const closes = c === 0x5d || c === 0x7d; // ] }
    if (expect === "colon") {
      if (c !== 0x3a) return false;
      expect = "value";
      pos++;
    } else if (expect === "commaOrClose" || (closes && (expect === "valueOrClose" || expect === "keyOrClose"))) {
      if (c === 0x2c && expect === "commaOrClose") expect = open.at(-1) === 0x7b ? "key" : "value";
      else if (closes && open.at(-1) === c - 2) {
        open.pop();
        expect = "commaOrClose";
      } else return false;
      pos++;
    } else if (c === 0x7b || c === 0x5b) {
      open.push(c);
      expect = c === 0x7b ? "keyOrClose" : "valueOrClose";
      pos++;
    } else {
      const isKey = (expect as Expect) === "key" || (expect as Expect) === "keyOrClose";
      if (isKey && c !== 0x22) return false;
      JSON_SCALAR.lastIndex = pos;
      const match = JSON_SCALAR.exec(text);
      if (!match) return tokenCutByEnd(text.slice(pos));
      pos += match[0].length;
      expect = isKey ? "colon" : "commaOrClose";
    }
    if (open.length === 0 && expect === "commaOrClose") return text.slice(pos).trim() === "";
  }
  return true;
}

/** tokenCutByEnd: `rest` (no valid token) is the start of a string, number or literal cut by the end of the head. */
function tokenCutByEnd(rest: string): boolean {
  if (rest.startsWith('"')) return !/[\u0000-\u001f]/.test(rest);
  return rest.length < 32 && /^(?:-?\d[\d.eE+-]*|t(?:r(?:u)?)?|f(?:a(?:l(?:s)?)?)?|n(?:u(?:l)?)?)$/.test(rest);
}

/**
 * looksLikeText is true for valid UTF-8 (or UTF-16 with a byte-order mark) without NUL bytes, and
 * for text in a legacy single-byte code page (a bank's MT940 export in CP852 or Windows-1252): no
 * control bytes other than tab, line breaks, form feed and the DOS end-of-file mark, and at least
 * LEGACY_TEXT_ASCII of the bytes printable ASCII.
 */
function looksLikeText(bytes: Uint8Array): boolean {
  if (startsWith(bytes, [0xff, 0xfe]) || startsWith(bytes, [0xfe, 0xff])) return true;
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return true;
  } catch {
    return looksLikeLegacyText(bytes);
  }
}

/** LEGACY_TEXT_ASCII: the least share of printable ASCII bytes in text of a legacy code page. */
const LEGACY_TEXT_ASCII = 0.9;

function looksLikeLegacyText(bytes: Uint8Array): boolean {
  let ascii = 0;
  for (const b of bytes) {
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0c && b !== 0x0d && b !== 0x1a) return false;
    if (b === 0x7f) return false;
    if (b < 0x80) ascii++;
  }
  return bytes.length > 0 && ascii / bytes.length >= LEGACY_TEXT_ASCII;
}
