/**
 * Shared machinery of the Office Open XML converters (DOCX, PPTX, XLSX): opening the package
 * through ZipArchive with the decompressed-bytes budget, a small XML tree with namespace prefixes
 * made canonical (so `ns0:p` from an odd producer reads as `w:p`), relationships, core and app
 * properties, and OCR of embedded images.
 */
import { Parser } from "htmlparser2";
import sharp from "sharp";
import { AppError } from "../errors";
import { ZipArchive } from "../ingest/zip";
import { MAX_ELEMENT_DEPTH, nestedTooDeep } from "./nesting";
import { renderDateFormat, renderNumberFormat } from "./numberFormat";
import { escapeText, gfmTable, textHeading, joinBlocks, metadataBlock, tidyMarkdown } from "./markdown";
import type { Conversion, ConvertContext, ConvertInput } from "./types";

/** XmlElement is one element of a parsed part; names carry canonical prefixes ("w:p", "a:t", "c"). */
export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
}
export type XmlNode = XmlElement | string;

/**
 * CANONICAL_PREFIX maps namespace URIs (transitional and strict) to the prefix the converters use.
 * Namespaces mapped to "" are the default namespace of their parts (SpreadsheetML, relationships,
 * extended properties), so their elements are matched by local name.
 */
const CANONICAL_PREFIX: Record<string, string> = {
  "http://schemas.openxmlformats.org/wordprocessingml/2006/main": "w",
  "http://purl.oclc.org/ooxml/wordprocessingml/main": "w",
  "http://schemas.openxmlformats.org/drawingml/2006/main": "a",
  "http://purl.oclc.org/ooxml/drawingml/main": "a",
  "http://schemas.openxmlformats.org/presentationml/2006/main": "p",
  "http://purl.oclc.org/ooxml/presentationml/main": "p",
  "http://schemas.openxmlformats.org/officeDocument/2006/relationships": "r",
  "http://purl.oclc.org/ooxml/officeDocument/relationships": "r",
  "http://schemas.openxmlformats.org/officeDocument/2006/math": "m",
  "http://purl.oclc.org/ooxml/officeDocument/math": "m",
  "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing": "wp",
  "http://purl.oclc.org/ooxml/drawingml/wordprocessingDrawing": "wp",
  "http://schemas.openxmlformats.org/drawingml/2006/picture": "pic",
  "http://purl.oclc.org/ooxml/drawingml/picture": "pic",
  "http://schemas.openxmlformats.org/drawingml/2006/chart": "c",
  "http://purl.oclc.org/ooxml/drawingml/chart": "c",
  "http://schemas.openxmlformats.org/drawingml/2006/diagram": "dgm",
  "http://purl.oclc.org/ooxml/drawingml/diagram": "dgm",
  "http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing": "xdr",
  "http://purl.oclc.org/ooxml/drawingml/spreadsheetDrawing": "xdr",
  "http://schemas.openxmlformats.org/markup-compatibility/2006": "mc",
  "http://schemas.microsoft.com/office/word/2010/wordprocessingShape": "wps",
  "urn:schemas-microsoft-com:vml": "v",
  "urn:schemas-microsoft-com:office:office": "o",
  "http://schemas.openxmlformats.org/package/2006/metadata/core-properties": "cp",
  "http://purl.org/dc/elements/1.1/": "dc",
  "http://purl.org/dc/terms/": "dcterms",
  "http://schemas.openxmlformats.org/spreadsheetml/2006/main": "",
  "http://purl.oclc.org/ooxml/spreadsheetml/main": "",
  "http://schemas.openxmlformats.org/package/2006/relationships": "",
  "http://schemas.openxmlformats.org/officeDocument/2006/extended-properties": "",
  "http://purl.oclc.org/ooxml/officeDocument/extendedProperties": "",
};

type PrefixScope = Record<string, string>;

/** canonicalName rewrites `prefix:local` (or an unprefixed name) to the canonical prefix of its namespace. */
function canonicalName(name: string, scope: PrefixScope, isAttribute: boolean): string {
  const colon = name.indexOf(":");
  if (colon < 0) {
    // Unprefixed attributes belong to no namespace; unprefixed elements to the default one.
    if (isAttribute) return name;
    const prefix = scope[""];
    return prefix ? `${prefix}:${name}` : name;
  }
  const prefix = name.slice(0, colon);
  if (prefix === "xml" || prefix === "xmlns") return name;
  const canonical = scope[prefix];
  if (canonical === undefined) return name;
  const local = name.slice(colon + 1);
  return canonical ? `${canonical}:${local}` : local;
}

/** parseXml builds the element tree of one XML part; the returned root wraps the document element. */
export function parseXml(text: string): XmlElement {
  const root: XmlElement = { name: "#document", attrs: {}, children: [] };
  const stack: XmlElement[] = [root];
  const scopes: PrefixScope[] = [{}];
  const parser = new Parser(
    {
      onopentag(rawName, rawAttrs) {
        let scope = scopes[scopes.length - 1]!;
        for (const key in rawAttrs) {
          if (key === "xmlns" || key.startsWith("xmlns:")) {
            if (scope === scopes[scopes.length - 1]) scope = { ...scope };
            const prefix = key === "xmlns" ? "" : key.slice(6);
            const uri = rawAttrs[key]!;
            scope[prefix] = CANONICAL_PREFIX[uri] ?? (prefix || "");
          }
        }
        scopes.push(scope);
        const attrs: Record<string, string> = {};
        for (const key in rawAttrs) {
          if (key === "xmlns" || key.startsWith("xmlns:")) continue;
          attrs[canonicalName(key, scope, true)] = rawAttrs[key]!;
        }
        const element: XmlElement = { name: canonicalName(rawName, scope, false), attrs, children: [] };
        stack[stack.length - 1]!.children.push(element);
        stack.push(element);
        // group shapes nested 10 000 deep ran the stack out in the slide's walk (nesting.ts)
        if (stack.length > MAX_ELEMENT_DEPTH) throw nestedTooDeep("a part of the document", "office files nest tens deep");
      },
      ontext(data) {
        stack[stack.length - 1]!.children.push(data);
      },
      onclosetag() {
        if (stack.length > 1) stack.pop();
        if (scopes.length > 1) scopes.pop();
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.write(text);
  parser.end();
  return root;
}

/** child returns the first child element named `name`. */
export function child(el: XmlElement | undefined, name: string): XmlElement | undefined {
  if (!el) return undefined;
  for (const c of el.children) if (typeof c !== "string" && c.name === name) return c;
  return undefined;
}

/** childrenNamed returns the child elements named `name` (all child elements when omitted). */
export function childrenNamed(el: XmlElement | undefined, name?: string): XmlElement[] {
  if (!el) return [];
  const out: XmlElement[] = [];
  for (const c of el.children) if (typeof c !== "string" && (name === undefined || c.name === name)) out.push(c);
  return out;
}

/** path follows a chain of child names, e.g. path(sp, "p:nvSpPr", "p:nvPr", "p:ph"). */
export function path(el: XmlElement | undefined, ...names: string[]): XmlElement | undefined {
  let at = el;
  for (const n of names) at = child(at, n);
  return at;
}

/** descendants lists every element below `el` named `name`, in document order. */
export function descendants(el: XmlElement | undefined, name: string, out: XmlElement[] = []): XmlElement[] {
  if (!el) return out;
  for (const c of el.children) {
    if (typeof c === "string") continue;
    if (c.name === name) out.push(c);
    descendants(c, name, out);
  }
  return out;
}

/** firstDescendant is the first element below `el` named `name`. */
export function firstDescendant(el: XmlElement | undefined, name: string): XmlElement | undefined {
  if (!el) return undefined;
  for (const c of el.children) {
    if (typeof c === "string") continue;
    if (c.name === name) return c;
    const found = firstDescendant(c, name);
    if (found) return found;
  }
  return undefined;
}

/** textContent concatenates all text below `el`. */
export function textContent(el: XmlElement | undefined): string {
  if (!el) return "";
  let out = "";
  for (const c of el.children) out += typeof c === "string" ? c : textContent(c);
  return out;
}

/** textOf concatenates the text of every `textName` element below `el` (e.g. "a:t", "w:t"). */
export function textOf(el: XmlElement | undefined, textName: string): string {
  return descendants(el, textName).map(textContent).join("");
}

/** isOn reads an OOXML on/off property: present without val, or val 1/true/on. */
export function isOn(el: XmlElement | undefined): boolean {
  if (!el) return false;
  const val = el.attrs["w:val"] ?? el.attrs["m:val"] ?? el.attrs["val"];
  return val === undefined || val === "1" || val === "true" || val === "on";
}

/** Relationship is one entry of a part's .rels file, target resolved to a package path. */
export interface Relationship {
  id: string;
  type: string;
  /** target: package path (no leading slash) for internal targets, the raw URL for external ones */
  target: string;
  external: boolean;
}

/** relType gives the last segment of a relationship type URI, e.g. "image", "slide", "hyperlink". */
export function relType(rel: Relationship): string {
  return rel.type.slice(rel.type.lastIndexOf("/") + 1);
}

/** resolvePartPath resolves a relative target against the folder of `fromPart`. */
export function resolvePartPath(fromPart: string, target: string): string {
  if (target.startsWith("/")) return normalise(target.slice(1));
  const folder = fromPart.includes("/") ? fromPart.slice(0, fromPart.lastIndexOf("/") + 1) : "";
  return normalise(folder + target);
}

function normalise(p: string): string {
  const out: string[] = [];
  for (const seg of decodeURIComponentSafe(p).split("/")) {
    if (seg === "..") out.pop();
    else if (seg !== "." && seg !== "") out.push(seg);
  }
  return out.join("/");
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** CoreProperties are the facts of docProps/core.xml and docProps/app.xml the converters report. */
export interface PackageProperties {
  title: string | null;
  author: string | null;
  /** pages: app.xml <Pages>; 0 when absent */
  pages: number;
}

/**
 * metadataOnly is the answer for a package with no content but a title or author in its
 * properties: those facts, with a warning, instead of empty_document. Null when it has neither.
 */
export function metadataOnly(props: PackageProperties, what: string, nothing: string): Conversion | null {
  if (!props.title && !props.author) return null;
  const facts = metadataBlock([["Title", props.title], ["Author", props.author]]);
  return {
    markdown: tidyMarkdown(joinBlocks([props.title ? textHeading(1, props.title) : "", facts])),
    title: props.title,
    totalPages: props.pages,
    method: "metadata",
    warnings: [`${what} ${nothing}; only its metadata (title, author) was found`],
  };
}

/**
 * metadataOrEmpty is the answer for a package with no content: its metadata (metadataOnly) when
 * it has a title or author, else empty_document saying "<what> <nothing>".
 */
export function metadataOrEmpty(props: PackageProperties, what: string, nothing: string): Conversion {
  const facts = metadataOnly(props, what, nothing);
  if (facts) return facts;
  throw new AppError("empty_document", `${what} ${nothing}`);
}

const CFB_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

/** isCompoundFile tells whether bytes start with the OLE/CFB signature (legacy or encrypted Office). */
export function isCompoundFile(bytes: Uint8Array): boolean {
  return bytes.length >= 8 && CFB_MAGIC.every((b, i) => bytes[i] === b);
}

/** hasUtf16Name tells whether a CFB directory holds an entry with this (UTF-16LE) name. */
function hasUtf16Name(bytes: Uint8Array, name: string): boolean {
  const needle = Buffer.from(name, "utf16le");
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf(needle) >= 0;
}

/**
 * OoxmlPackage is one opened DOCX/XLSX/PPTX: parts are parsed on demand and cached, and every
 * inflate counts against the document's decompressed-bytes budget.
 */
export class OoxmlPackage {
  private readonly xmlCache = new Map<string, XmlElement | null>();
  private readonly relsCache = new Map<string, Map<string, Relationship>>();

  private constructor(
    readonly zip: ZipArchive,
    /** what: names the document in errors, e.g. "DOCX 'report.docx'" */
    readonly what: string,
  ) {}

  /**
   * open checks the container and returns the package. A CFB file with an EncryptedPackage stream
   * is a password-protected OOXML document (encrypted_document); another CFB file is a legacy
   * binary Office file misnamed (unreadable_document); anything but a ZIP is unreadable.
   */
  static open(input: ConvertInput, ctx: ConvertContext, kind: "DOCX" | "XLSX" | "PPTX"): OoxmlPackage {
    const what = `${kind} '${input.filename}'`;
    if (isCompoundFile(input.bytes)) {
      if (hasUtf16Name(input.bytes, "EncryptedPackage") || hasUtf16Name(input.bytes, "EncryptionInfo")) {
        throw new AppError("encrypted_document", `${what} is password-protected (an encrypted Office package); remove the password in Office and send it again`);
      }
      throw new AppError(
        "unreadable_document",
        `${what} is a legacy binary Office file (OLE compound file), not Office Open XML; send it with its real extension (.doc, .xls, .ppt)`,
      );
    }
    const zip = new ZipArchive(input.bytes, ctx.limits.maxDecompressedBytes, what);
    return new OoxmlPackage(zip, what);
  }

  /** xml parses one part; undefined when the part is absent. */
  xml(part: string): XmlElement | undefined {
    const cached = this.xmlCache.get(part);
    if (cached !== undefined) return cached ?? undefined;
    const text = this.zip.text(part);
    const parsed = text === undefined ? null : parseXml(text);
    this.xmlCache.set(part, parsed);
    return parsed ?? undefined;
  }

  /** rels reads the relationships of `part` ("" for the package root), keyed by id. */
  rels(part: string): Map<string, Relationship> {
    const cached = this.relsCache.get(part);
    if (cached) return cached;
    const slash = part.lastIndexOf("/");
    const relsPath = part === "" ? "_rels/.rels" : `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`;
    const map = new Map<string, Relationship>();
    for (const rel of descendants(this.xml(relsPath), "Relationship")) {
      const id = rel.attrs["Id"];
      const target = rel.attrs["Target"];
      if (!id || target === undefined) continue;
      const external = rel.attrs["TargetMode"] === "External";
      map.set(id, { id, type: rel.attrs["Type"] ?? "", external, target: external ? target : resolvePartPath(part, target) });
    }
    this.relsCache.set(part, map);
    return map;
  }

  /** relsOfType lists the relationships of `part` whose type ends with `/type`. */
  relsOfType(part: string, type: string): Relationship[] {
    return [...this.rels(part).values()].filter((r) => relType(r) === type);
  }

  /**
   * mainPart finds the package's main document through the root relationships, falling back to the
   * conventional path, and checks that its root element is `rootName` (so a workbook sent as .docx
   * is refused instead of read as an empty document).
   */
  mainPart(fallback: string, rootName: string): string {
    const rel = this.relsOfType("", "officeDocument")[0];
    const part = rel && !rel.external && this.zip.has(rel.target) ? rel.target : fallback;
    if (!this.zip.has(part) || !child(this.xml(part), rootName)) {
      throw new AppError("unreadable_document", `${this.what}: the package has no main part ('${fallback}'); the file is not a valid document of this type or is damaged`);
    }
    return part;
  }

  /** properties reads the title and author (core.xml) and page count (app.xml). */
  properties(): PackageProperties {
    const core = this.xml("docProps/core.xml");
    const app = this.xml("docProps/app.xml");
    const title = textContent(firstDescendant(core, "dc:title")).trim();
    const author = textContent(firstDescendant(core, "dc:creator")).trim();
    const pages = Number.parseInt(textContent(firstDescendant(app, "Pages")).trim(), 10);
    return { title: title || null, author: author || null, pages: Number.isFinite(pages) && pages > 0 ? pages : 0 };
  }
}

/** ImageJob is one embedded image waiting for OCR; `token` marks where its text goes in the markdown. */
export interface ImageJob {
  part: string;
  token: string;
  /** inline: the image sits in a table cell, so its text must stay on one line */
  inline: boolean;
}

/** MIN_OCR_SIDE: images narrower or shorter than this (px) are icons or rules, not worth OCR. */
const MIN_OCR_SIDE = 64;

/**
 * ImageCollector hands out placeholder tokens for images while markdown is built, then OCRs the
 * images concurrently (the engine bounds its own processes) and puts their text in place.
 */
export class ImageCollector {
  readonly jobs: ImageJob[] = [];
  private readonly seen = new Map<string, string>();

  constructor(private readonly pkg: OoxmlPackage) {}

  /** token returns the placeholder for one image part; a part shown twice is OCRed once. */
  token(part: string, inline: boolean): string {
    const token = `\u0000IMG${this.jobs.length}\u0000`;
    this.jobs.push({ part, token, inline });
    return token;
  }

  /**
   * resolve OCRs every collected image when an engine is present and replaces the tokens: a quote
   * `> [Image text] ...` under block images, `[Image text: ...]` inside table cells. Returns the
   * markdown and whether any text was added.
   */
  async resolve(markdown: string, ctx: ConvertContext, warnings: string[]): Promise<{ markdown: string; ocrAdded: boolean }> {
    const texts = new Map<string, Promise<string>>();
    const ocr = ctx.tools?.ocr;
    if (ocr) {
      for (const job of this.jobs) {
        if (!texts.has(job.part)) texts.set(job.part, this.ocrPart(job.part, ctx, warnings));
      }
    }
    const results = new Map<string, string>();
    await Promise.all([...texts].map(async ([part, p]) => results.set(part, await p)));
    ctx.signal.throwIfAborted();
    let ocrAdded = false;
    let out = markdown;
    for (const job of this.jobs) {
      const text = (results.get(job.part) ?? "").trim();
      let replacement = "";
      if (text) {
        ocrAdded = true;
        replacement = job.inline
          ? ` [Image text: ${escapeText(text.replace(/\s+/g, " "))}]`
          : `\n\n${text.split(/\n/).map((line, i) => (i === 0 ? `> [Image text] ${escapeText(line)}` : `> ${escapeText(line)}`).trimEnd()).join("\n")}\n\n`;
      }
      out = out.split(job.token).join(replacement);
    }
    return { markdown: out, ocrAdded };
  }

  /** ocrPart reads one image part and returns its OCR text; "" when skipped (with a warning when useful). */
  private async ocrPart(part: string, ctx: ConvertContext, warnings: string[]): Promise<string> {
    const name = part.slice(part.lastIndexOf("/") + 1);
    try {
      const bytes = this.pkg.zip.read(part);
      if (!bytes) return "";
      const kind = imageKind(bytes);
      if (kind === "vector") {
        warnings.push(`image '${name}' is a vector metafile (EMF/WMF); its text was not read`);
        return "";
      }
      if (kind === "unknown") return "";
      let image = bytes;
      if (kind !== "bmp") {
        const meta = await sharp(bytes, { limitInputPixels: false }).metadata();
        const width = meta.width ?? 0;
        const height = meta.height ?? 0;
        if (width < MIN_OCR_SIDE || height < MIN_OCR_SIDE) return "";
        if (width * height > ctx.limits.maxPixels) {
          warnings.push(`image '${name}' has ${width}x${height} pixels, more than the ${ctx.limits.maxPixels} read by OCR; its text was not read`);
          return "";
        }
        // GIF and multi-page TIFF become one PNG frame: tesseract reads those reliably.
        if (kind === "gif" || kind === "tiff") image = new Uint8Array(await sharp(bytes, { limitInputPixels: false }).png().toBuffer());
      } else {
        const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
        if (bytes.length < 26) return "";
        const width = Math.abs(view.getInt32(18, true));
        const height = Math.abs(view.getInt32(22, true));
        if (width < MIN_OCR_SIDE || height < MIN_OCR_SIDE) return "";
        if (width * height > ctx.limits.maxPixels) {
          warnings.push(`image '${name}' has ${width}x${height} pixels, more than the ${ctx.limits.maxPixels} read by OCR; its text was not read`);
          return "";
        }
      }
      const result = await ctx.tools.ocr.recognize(image, ctx.signal);
      return result.text;
    } catch (error) {
      if (ctx.signal.aborted) throw error;
      if (error instanceof AppError && (error.code === "document_too_large" || error.code === "timeout" || error.code === "tool_unavailable")) throw error;
      warnings.push(`image '${name}' could not be read by OCR (${error instanceof AppError ? error.detail : "undecodable image data"})`);
      return "";
    }
  }
}

/** imageKind recognises the raster formats OCR reads, and the vector metafiles it skips. */
export function imageKind(bytes: Uint8Array): "png" | "jpeg" | "gif" | "bmp" | "tiff" | "vector" | "unknown" {
  const b = (i: number) => bytes[i] ?? -1;
  if (b(0) === 0x89 && b(1) === 0x50 && b(2) === 0x4e && b(3) === 0x47) return "png";
  if (b(0) === 0xff && b(1) === 0xd8) return "jpeg";
  if (b(0) === 0x47 && b(1) === 0x49 && b(2) === 0x46) return "gif";
  if (b(0) === 0x42 && b(1) === 0x4d) return "bmp";
  if ((b(0) === 0x49 && b(1) === 0x49 && b(2) === 0x2a) || (b(0) === 0x4d && b(1) === 0x4d && b(3) === 0x2a)) return "tiff";
  // EMF starts with record type 1 and has " EMF" at offset 40; WMF with a placeable header or type 1/2.
  if (b(0) === 0x01 && b(1) === 0 && b(40) === 0x20 && b(41) === 0x45 && b(42) === 0x4d && b(43) === 0x46) return "vector";
  if (b(0) === 0xd7 && b(1) === 0xcd && b(2) === 0xc6 && b(3) === 0x9a) return "vector";
  if ((b(0) === 0x01 || b(0) === 0x02) && b(1) === 0 && b(2) === 0x09 && b(3) === 0) return "vector";
  return "unknown";
}

/** imageAlt makes alt text safe inside `![...]`: one line, brackets escaped. */
export function imageAlt(alt: string): string {
  return alt.replace(/\s+/g, " ").trim().replace(/([\\[\]])/g, "\\$1");
}

/** baseName is the last path segment of a part or URL. */
export function baseName(p: string): string {
  return p.slice(p.lastIndexOf("/") + 1);
}

/** assertWithinPageLimit refuses documents with more slides or sheets than `limits.maxPages` (0 = unlimited). */
export function assertWithinPageLimit(count: number, ctx: ConvertContext, what: string, unit: string): void {
  if (ctx.limits.maxPages > 0 && count > ctx.limits.maxPages) {
    throw new AppError("document_too_large", `${what} has ${count} ${unit}, more than the ${ctx.limits.maxPages} converted; split the document`);
  }
}

/** MAX_CHART_POINTS caps the categories rendered for one chart. */
const MAX_CHART_POINTS = 10_000;

/**
 * renderChartPart renders a DrawingML chart part as `### Chart: title` and a table of categories by
 * series, from the values cached in the chart (the embedded workbook is never opened).
 */
export function renderChartPart(pkg: OoxmlPackage, part: string): string {
  const space = path(pkg.xml(part), "c:chartSpace");
  const chart = child(space, "c:chart");
  if (!chart) return "";
  const date1904 = isOn(child(space, "c:date1904"));
  const titleElement = child(chart, "c:title");
  // a title typed in the chart, or taken from a cell (its cached text)
  let title = (textOf(titleElement, "a:t") || chartPoints(child(titleElement, "c:tx")).get(0) || "").trim();
  const series: Array<{ name: string; named: boolean; categories: Map<number, string>; values: Map<number, string> }> = [];
  for (const plot of childrenNamed(child(chart, "c:plotArea"))) {
    if (!plot.name.endsWith("Chart")) continue;
    for (const ser of childrenNamed(plot, "c:ser")) {
      const tx = child(ser, "c:tx");
      const name = chartPoints(tx).get(0) || textOf(tx, "a:t");
      series.push({
        name: name || `Series ${series.length + 1}`,
        named: Boolean(name),
        categories: chartPoints(child(ser, "c:cat") ?? child(ser, "c:xVal"), date1904),
        values: chartPoints(child(ser, "c:val") ?? child(ser, "c:yVal"), date1904),
      });
    }
  }
  // An empty c:title is Office's automatic title: a chart of one series shows the series' name (one of more series shows the placeholder "Chart Title", left out)
  if (titleElement && !title && series.length === 1 && series[0]!.named) title = series[0]!.name.trim();
  const blocks = [`### Chart${title ? `: ${escapeText(title.replace(/\s+/g, " "))}` : ""}`];
  const axes = axisTitles(child(chart, "c:plotArea"));
  if (axes.values.length) blocks.push(`${axes.values.length > 1 ? "Value axes" : "Value axis"}: ${axes.values.map(escapeText).join("; ")}`);
  if (series.length) {
    const count = Math.max(0, ...series.flatMap((s) => [...s.categories.keys(), ...s.values.keys()].map((k) => k + 1)));
    // the category column is named by its axis's title when the chart shows one
    const rows: string[][] = [[axes.category ?? "Category", ...series.map((s) => s.name)]];
    for (let i = 0; i < Math.min(count, MAX_CHART_POINTS); i++) {
      rows.push([series[0]!.categories.get(i) ?? String(i + 1), ...series.map((s) => s.values.get(i) ?? "")]);
    }
    blocks.push(gfmTable(rows));
  }
  return blocks.join("\n\n");
}

/**
 * axisTitles reads the titles a chart shows on its axes (typed, or taken from a cell): the category
 * axis's (a scatter chart's horizontal value axis) names the category column, the others are value
 * axes. A deleted axis is not drawn, nor its title.
 */
function axisTitles(plotArea: XmlElement | undefined): { category: string | undefined; values: string[] } {
  let category: string | undefined;
  const values: string[] = [];
  const axes = childrenNamed(plotArea).filter((a) => a.name === "c:catAx" || a.name === "c:dateAx" || a.name === "c:valAx" || a.name === "c:serAx");
  const hasCategoryAxis = axes.some((a) => a.name === "c:catAx" || a.name === "c:dateAx");
  for (const axis of axes) {
    if (isOn(child(axis, "c:delete"))) continue;
    const titleElement = child(axis, "c:title");
    const title = (textOf(titleElement, "a:t") || chartPoints(child(titleElement, "c:tx")).get(0) || "").replace(/\s+/g, " ").trim();
    if (!title) continue;
    const position = child(axis, "c:axPos")?.attrs["val"];
    const isCategory = axis.name === "c:catAx" || axis.name === "c:dateAx" || (!hasCategoryAxis && axis.name === "c:valAx" && (position === "b" || position === "t"));
    if (isCategory && category === undefined) category = title;
    else values.push(title);
  }
  return { category, values };
}

/** chartPoints reads the cached points of a chart data reference (string, number or literal). */
function chartPoints(ref: XmlElement | undefined, date1904 = false): Map<number, string> {
  const points = new Map<number, string>();
  if (!ref) return points;
  const multi = firstDescendant(ref, "c:multiLvlStrCache");
  const cache =
    firstDescendant(ref, "c:strCache") ??
    firstDescendant(ref, "c:numCache") ??
    firstDescendant(ref, "c:strLit") ??
    firstDescendant(ref, "c:numLit") ??
    (multi ? child(multi, "c:lvl") : undefined);
  if (cache) {
    // A cached number shows as its format code shows it on the chart's labels and axis (a point's own
    // code first): 0% as 63%, d-mmm-yy as 5-Jan-23, General as Excel shows it (writers store 19 as "19.0")
    const format = textContent(child(cache, "c:formatCode")).trim();
    const numeric = cache.name.startsWith("c:num");
    for (const pt of childrenNamed(cache, "c:pt")) {
      const value = textContent(child(pt, "c:v")).trim();
      const n = numeric && value !== "" ? Number(value) : Number.NaN;
      points.set(Number(pt.attrs["idx"] ?? points.size), Number.isFinite(n) ? shownNumber(n, (pt.attrs["formatCode"] ?? format).trim(), date1904) : value);
    }
  } else {
    const v = child(ref, "c:v");
    if (v) points.set(0, textContent(v).trim());
  }
  return points;
}

/** shownNumber writes a chart's cached number as its format code shows it: a date code as the date, a number code by renderNumberFormat, else the plain number */
function shownNumber(n: number, code: string, date1904: boolean): string {
  const plain = String(Number.parseFloat(n.toPrecision(15)));
  if (code === "" || /^general$/i.test(code)) return plain;
  return renderDateFormat(n, code, date1904) ?? renderNumberFormat(n, code) ?? plain;
}

/** MAX_DIAGRAM_DEPTH caps the nesting of a SmartArt outline (a cycle in a damaged part ends there). */
const MAX_DIAGRAM_DEPTH = 8;

/**
 * renderDiagramOf renders the SmartArt a drawing holds (its dgm:relIds names the data part among
 * `rels`, the relationships of the part the drawing sits in); undefined when it holds none.
 */
export function renderDiagramOf(pkg: OoxmlPackage, rels: Map<string, Relationship>, drawing: XmlElement | undefined): string | undefined {
  const diagram = firstDescendant(drawing, "dgm:relIds");
  const dataRel = diagram ? rels.get(diagram.attrs["r:dm"] ?? "") : undefined;
  return dataRel && !dataRel.external ? renderDiagramPart(pkg, dataRel.target) : undefined;
}

/**
 * renderDiagramPart renders the data part of a SmartArt diagram (dgm:dataModel) as a nested list of
 * its nodes' text, in the order of its parent-child connections, which is the reading order of the
 * outline the diagram was made from.
 */
export function renderDiagramPart(pkg: OoxmlPackage, part: string): string {
  const model = pkg.xml(part);
  const root = model?.name === "dgm:dataModel" ? model : child(model, "dgm:dataModel");
  if (!root) return "";
  const points = new Map<string, { type: string; text: string }>();
  for (const pt of childrenNamed(child(root, "dgm:ptLst"), "dgm:pt")) {
    const text = childrenNamed(child(pt, "dgm:t"), "a:p")
      .map((p) => textOf(p, "a:t").replace(/\s+/g, " ").trim())
      .filter(Boolean)
      .join(" ");
    points.set(pt.attrs["modelId"] ?? "", { type: pt.attrs["type"] ?? "node", text });
  }
  const childrenOf = new Map<string, Array<{ id: string; order: number }>>();
  for (const cxn of childrenNamed(child(root, "dgm:cxnLst"), "dgm:cxn")) {
    if ((cxn.attrs["type"] ?? "parOf") !== "parOf") continue;
    const list = childrenOf.get(cxn.attrs["srcId"] ?? "") ?? [];
    list.push({ id: cxn.attrs["destId"] ?? "", order: Number(cxn.attrs["srcOrd"] ?? list.length) });
    childrenOf.set(cxn.attrs["srcId"] ?? "", list);
  }
  const lines: string[] = [];
  const seen = new Set<string>();
  const visit = (id: string, depth: number) => {
    for (const { id: next } of (childrenOf.get(id) ?? []).sort((a, b) => a.order - b.order)) {
      const point = points.get(next);
      if (!point || seen.has(next) || depth > MAX_DIAGRAM_DEPTH) continue;
      seen.add(next);
      const shown = (point.type === "node" || point.type === "asst") && point.text !== "";
      if (shown) lines.push(`${"  ".repeat(depth)}- ${escapeText(point.text)}`);
      visit(next, shown ? depth + 1 : depth);
    }
  };
  for (const [id, point] of points) if (point.type === "doc") visit(id, 0);
  // Nodes no connection reaches (a damaged or partial part) still say what they hold.
  for (const [id, point] of points) if (!seen.has(id) && (point.type === "node" || point.type === "asst") && point.text) lines.push(`- ${escapeText(point.text)}`);
  return lines.join("\n");
}

/**
 * codeSpans writes text set in a monospace face inside prose as markdown code spans, one per line
 * (a span cannot cross a line break), spaces at either end left outside; the fence of backticks is
 * longer than any run of backticks in the text, so the text needs no escapes.
 */
export function codeSpans(text: string): string {
  return text
    .split("\n")
    .map((line) => {
      const core = line.trim();
      if (!core) return line;
      const lead = /^\s*/.exec(line)![0];
      const trail = /\s*$/.exec(line)![0];
      let longest = 0;
      for (const run of core.matchAll(/`+/g)) longest = Math.max(longest, run[0].length);
      const ticks = "`".repeat(longest + 1);
      const pad = core.startsWith("`") || core.endsWith("`") ? " " : "";
      return `${lead}${ticks}${pad}${core}${pad}${ticks}${trail}`;
    })
    .join("\n");
}

/**
 * hardBreaks writes each single line break inside a paragraph (DOCX `w:br`, PPTX `a:br`, as in an
 * address or a verse) as a markdown hard break, `\` at the end of the line; a soft break would
 * join the lines into one. A table cell's breaks are `<br>` (gfmTable), a heading's spaces. A blank
 * line (two breaks) and display math's own lines are left as they are.
 */
export function hardBreaks(text: string): string {
  return text.replace(/[ \t]*(?<!\n)\n(?!\n)[ \t]*/g, "\\\n");
}

/**
 * SYMBOL_FONT: what the Symbol face draws for each code 0x20-0xFF (Adobe's Symbol encoding as
 * Windows ships it, with the euro at 0xA0), one character per code; a code Symbol leaves empty is a space here and is kept as it is.
 * Word writes Symbol characters as `w:sym w:font="Symbol" w:char="F06B"` or as plain letters in a
 * run set in the Symbol face: both show Greek and mathematical signs, not the Latin letter.
 */
const SYMBOL_FONT =
  " !∀#∃%&∋()∗+,−./0123456789:;<=>?" +
  "≅ΑΒΧΔΕΦΓΗΙϑΚΛΜΝΟΠΘΡΣΤΥςΩΞΨΖ[∴]⊥_" +
  "‾αβχδεφγηιϕκλμνοπθρστυϖωξψζ{|}∼ " +
  "                                " +
  "€ϒ′≤⁄∞ƒ♣♦♥♠↔←↑→↓°±″≥×∝∂•÷≠≡≈…⏐⎯↵" +
  "ℵℑℜ℘⊗⊕∅∩∪⊃⊇⊄⊂⊆∈∉∠∇®©™∏√⋅¬∧∨⇔⇐⇑⇒⇓" +
  "◊〈®©™∑⎛⎜⎝⎡⎢⎣⎧⎨⎩⎪ 〉∫⌠⎮⌡⎞⎟⎠⎤⎥⎦⎫⎬⎭ ";
const SYMBOL_CHARS = Array.from(SYMBOL_FONT);

/** isSymbolFace: the run's face is Symbol, whose letters draw Greek and mathematical signs */
export function isSymbolFace(face: string | undefined): boolean {
  return (face ?? "").trim().toLowerCase() === "symbol";
}

/**
 * symbolFontText: text set in the Symbol face as it shows: each code 0x20-0xFF, or its private-use
 * twin F020-F0FF, becomes the character Symbol draws for it; any other character (real Greek, a
 * CJK sign) is kept.
 */
export function symbolFontText(text: string): string {
  let out = "";
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    const low = code >= 0xf020 && code <= 0xf0ff ? code - 0xf000 : code;
    const shown = low >= 0x20 && low <= 0xff ? SYMBOL_CHARS[low - 0x20] : undefined;
    out += shown === undefined || (shown === " " && low !== 0x20) ? ch : shown;
  }
  return out;
}
