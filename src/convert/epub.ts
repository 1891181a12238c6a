/**
 * EPUB -> markdown: META-INF/container.xml names the package (OPF); its metadata gives title,
 * creators, language, publisher and date, and its spine gives the chapters in reading order. Each
 * chapter's XHTML is converted whole (no boilerplate removal: a book has none). All inflating goes
 * through one ZipArchive budget, so a zip bomb fails with document_too_large.
 */
import { posix } from "node:path";
import { DOMParser } from "linkedom";
import { AppError } from "../errors";
import { ZipArchive } from "../ingest/zip";
import { htmlToMarkdown } from "./html";
import { checkMarkdownSize, textHeading, joinBlocks, metadataBlock, tidyMarkdown } from "./markdown";
import type { Converter, PageReport } from "./types";

/** EpubPackage is what the OPF says about the book. */
interface EpubPackage {
  title: string;
  creators: string[];
  language: string;
  publisher: string;
  date: string;
  /** chapters: archive paths of the spine documents, in reading order */
  chapters: string[];
}

const XHTML_TYPES = new Set(["application/xhtml+xml", "text/html", "application/x-dtbook+xml"]);

/** convertEpub converts an EPUB 2 or 3 book chapter by chapter. */
export const convertEpub: Converter = async (input, ctx) => {
  const what = `EPUB '${input.filename}'`;
  const zip = new ZipArchive(input.bytes, ctx.limits.maxDecompressedBytes, what);
  refuseDrm(zip, what);
  const opfPath = packagePath(zip, what);
  const pkg = readPackage(zip, opfPath, what);
  if (pkg.chapters.length > ctx.limits.maxPages) {
    throw new AppError("document_too_large", `${what}: ${pkg.chapters.length} chapters, more than the ${ctx.limits.maxPages} accepted; split the book`);
  }
  const warnings: string[] = [];
  const pages: PageReport[] = [];
  const blocks: string[] = [
    textHeading(1, pkg.title || input.filename),
    metadataBlock([["Author", pkg.creators.join(", ")], ["Language", pkg.language], ["Publisher", pkg.publisher], ["Date", pkg.date]]),
  ];
  for (const [index, path] of pkg.chapters.entries()) {
    ctx.signal.throwIfAborted();
    const xhtml = zip.text(path);
    if (xhtml === undefined) {
      warnings.push(`chapter ${index + 1} ('${path}') is listed in the spine but missing from the archive`);
      pages.push({ page: index + 1, method: "empty", chars: 0 });
      continue;
    }
    const chapter = htmlToMarkdown(xhtml, { mainContent: false }).markdown.trim();
    pages.push({ page: index + 1, method: chapter ? "text" : "empty", chars: chapter.length });
    blocks.push(chapter);
    checkMarkdownSize(pages.reduce((sum, p) => sum + p.chars, 0), ctx.limits, what);
  }
  if (!pages.some((p) => p.chars > 0)) throw new AppError("empty_document", `${what}: the book's chapters hold no text`);
  return {
    markdown: tidyMarkdown(joinBlocks(blocks)),
    title: pkg.title || null,
    totalPages: pkg.chapters.length,
    method: "text",
    warnings,
    pages,
  };
};

/**
 * refuseDrm rejects books whose content is encrypted (Adobe ADEPT, Readium LCP, Apple FairPlay).
 * Font obfuscation (IDPF/Adobe algorithms) also lives in encryption.xml and is harmless.
 */
function refuseDrm(zip: ZipArchive, what: string): void {
  if (zip.has("META-INF/rights.xml") || zip.has("META-INF/license.lcpl")) {
    throw new AppError("encrypted_document", `${what}: the book is DRM-protected; send a DRM-free EPUB`);
  }
  const encryption = zip.text("META-INF/encryption.xml");
  if (!encryption) return;
  const document = new DOMParser().parseFromString(encryption, "text/xml") as unknown as Document;
  const encrypted = Array.from(document.querySelectorAll("*")).filter((el) => /(^|:)EncryptedData$/i.test(el.tagName));
  const content = encrypted.filter((el) => {
    const algorithm = Array.from(el.querySelectorAll("*")).find((c) => /(^|:)EncryptionMethod$/i.test(c.tagName))?.getAttribute("Algorithm") ?? "";
    const uri = Array.from(el.querySelectorAll("*")).find((c) => /(^|:)CipherReference$/i.test(c.tagName))?.getAttribute("URI") ?? "";
    const fontObfuscation = /idpf\.org\/2008\/embedding|ns\.adobe\.com\/pdf\/enc#RC/i.test(algorithm);
    return !fontObfuscation && !/\.(otf|ttf|woff2?)$/i.test(uri);
  });
  if (content.length > 0) throw new AppError("encrypted_document", `${what}: ${content.length} content files are encrypted (DRM); send a DRM-free EPUB`);
}

/** packagePath reads the OPF location from META-INF/container.xml (or finds the only .opf). */
function packagePath(zip: ZipArchive, what: string): string {
  const container = zip.text("META-INF/container.xml");
  const fromContainer = container ? /<(?:\w+:)?rootfile\b[^>]*\bfull-path\s*=\s*["']([^"']+)["']/i.exec(container)?.[1] : undefined;
  if (fromContainer && zip.has(decodeURIComponentSafe(fromContainer))) return decodeURIComponentSafe(fromContainer);
  const opfs = zip.names().filter((n) => n.toLowerCase().endsWith(".opf"));
  if (opfs.length === 1) return opfs[0]!;
  throw new AppError("unreadable_document", `${what}: no package document (META-INF/container.xml names none that exists); the file is not a valid EPUB`);
}

/** readPackage parses the OPF: Dublin Core metadata and the spine resolved through the manifest. */
function readPackage(zip: ZipArchive, opfPath: string, what: string): EpubPackage {
  const opf = zip.text(opfPath);
  if (!opf) throw new AppError("unreadable_document", `${what}: the package document '${opfPath}' is empty`);
  const document = new DOMParser().parseFromString(opf, "text/xml") as unknown as Document;
  const all = Array.from(document.querySelectorAll("*"));
  const local = (el: Element) => el.tagName.replace(/^.*:/, "").toLowerCase();
  const texts = (name: string) =>
    all.filter((el) => local(el) === name && /(^|:)metadata$/i.test((el.parentNode as Element | null)?.tagName ?? "")).map((el) => (el.textContent ?? "").replace(/\s+/g, " ").trim()).filter(Boolean);
  const manifest = new Map<string, { href: string; type: string }>();
  for (const item of all.filter((el) => local(el) === "item")) {
    const id = item.getAttribute("id");
    const href = item.getAttribute("href");
    if (id && href) manifest.set(id, { href, type: (item.getAttribute("media-type") ?? "").toLowerCase() });
  }
  const dir = posix.dirname(opfPath);
  const chapters: string[] = [];
  for (const ref of all.filter((el) => local(el) === "itemref")) {
    if (ref.getAttribute("linear") === "no") continue;
    const item = manifest.get(ref.getAttribute("idref") ?? "");
    if (!item || (item.type && !XHTML_TYPES.has(item.type))) continue;
    const path = posix.normalize(posix.join(dir === "." ? "" : dir, decodeURIComponentSafe(item.href.replace(/#.*$/, ""))));
    if (!chapters.includes(path)) chapters.push(path);
  }
  if (chapters.length === 0) throw new AppError("unreadable_document", `${what}: the package document lists no chapters in its spine`);
  return {
    title: texts("title")[0] ?? "",
    creators: texts("creator"),
    language: texts("language")[0] ?? "",
    publisher: texts("publisher")[0] ?? "",
    date: texts("date")[0] ?? "",
    chapters,
  };
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
