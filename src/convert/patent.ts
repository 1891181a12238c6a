/**
 * USPTO patent full text in XML -> markdown: the title as `#`, then the abstract, the description
 * (with its headings, paragraphs, lists and tables) and the claims as a numbered list, in the order
 * the document gives them. Three generations of the format are read, each by its root element:
 * - `us-patent-grant` / `us-patent-application` (ICE DTDs v4.0 to v4.7, 2005 onwards);
 * - `patent-application-publication` (application DTD v1.5/v1.6, 2001 to 2004);
 * - `PATDOC` (grant DTD v2.4/v2.5, 2002 to 2004: SGML-style names such as B540, SDOAB, PARA, CLM);
 * - the APS text format of 1976 to 2001 is read by patentAps.ts.
 * Tables are CALS tables in all three.
 */
import { AppError } from "../errors";
import type { Converter } from "./types";
import {
  blockFlow,
  calsTableHtml,
  childElements,
  element,
  escapeHtmlText,
  findFirst,
  firstChild,
  flattenedWarnings,
  MAX_XML_DEPTH,
  parseXmlTree,
  rawText,
  readXmlText,
  rootElementOf,
  xmlHtmlToMarkdown,
  type XNode,
} from "./xmlMarkup";

/** PATENT_ROOTS: document elements of USPTO full-text XML, in lower case */
const PATENT_ROOTS = new Set(["us-patent-grant", "us-patent-application", "patent-application-publication", "patdoc"]);

/** isPatent says whether XML text is a USPTO patent grant or application, by its root element. */
export function isPatent(text: string): boolean {
  const root = rootElementOf(text);
  return root !== null && PATENT_ROOTS.has(root.name.toLowerCase());
}

/** INLINE: inline elements of the three DTDs (names in lower case) and the HTML element each becomes ("" = content only) */
const INLINE: Record<string, string> = {
  b: "strong", bold: "strong", i: "em", italic: "em", u: "", o: "", smallcaps: "", "small-caps": "", sup: "sup", sub: "sub",
  sp: "sup", sb: "sub", superscript: "sup", subscript: "sub", highlight: "", hil: "", figref: "", "figure-reference": "",
  "claim-ref": "", clref: "", "dependent-claim-reference": "", "cross-reference": "", "patent-citation": "", "nplcit": "",
  pdat: "", ptext: "", stext: "", "chemical-formula-and-image": "", "in-line-formula": "", "crossref": "", "bcitation": "",
  "us-claim-text": "", "claim-text-inline": "", "math": "", "mml:math": "", chem: "", ital: "em",
};

/** SKIPPED: elements a reader of the patent does not see as text (images, drawings, processing data) */
const SKIPPED = new Set([
  "img", "image", "emi", "figure", "drawings", "subdoc-drawings", "sdodr", "us-bibliographic-data-grant",
  "us-bibliographic-data-application", "subdoc-bibliographic-information", "sdobi", "number", "table-external-doc",
  "us-chemistry", "us-math", "chemistry", "maths", "us-sequence-list-doc", "sequence-list-doc", "dtext", "cwu",
]);

/** BLOCK_CONTAINERS: sections whose children are paragraphs, headings, lists and tables */
const BLOCK_CONTAINERS = new Set([
  "description", "abstract", "subdoc-abstract", "subdoc-description", "sdoab", "sdode", "btext", "brfsum", "drwdesc",
  "detdesc", "summary-of-invention", "brief-description-of-drawings", "detailed-description", "description-of-drawings",
  "cross-reference-to-related-applications", "background-of-invention", "technical-information", "section", "federal-research-statement",
  "description-of-embodiments", "disclosure", "tech-problem", "tech-solution", "advantageous-effects", "relapp", "govint",
  "related-apps", "government-interest", "invention-field", "background-art", "bibliographic-information",
  "continuity-data", "paragraph-group", "reference-to-sequence-listing", "best-mode", "industrial-applicability",
  "mode-for-invention", "us-claim-statement", "lvl", "sdocl",
]);

interface PatentContext {
  /** headingBase: the level of a level-1 description heading */
  headingBase: number;
}

/** inline writes an element's content as inline HTML. */
function inline(node: XNode, depth: number): string {
  if (depth > MAX_XML_DEPTH) return escapeHtmlText(rawText(node));
  let out = "";
  for (const c of node.children) {
    if (typeof c === "string") out += escapeHtmlText(c);
    else out += inlineElement(c, depth + 1);
  }
  return out;
}

function inlineElement(el: XNode, depth: number): string {
  if (el.name === "br") return "<br>";
  if (SKIPPED.has(el.name)) return "";
  const tag = INLINE[el.name];
  const inner = inline(el, depth);
  // Reference numerals ("tank 22", "FIG. 8") are bold in the XML; written bold they only add noise.
  if (tag === "strong" && REFERENCE_NUMERAL.test(inner)) return inner;
  return tag ? element(tag, inner) : inner;
}

/** REFERENCE_NUMERAL: a bold run that is a drawing's reference numeral or letter ("22", "54a", "2'") */
const REFERENCE_NUMERAL = /^\s*(?:<[^>]+>)*\s*[\dA-Za-z]{1,5}['\u2032]*\s*(?:<\/[^>]+>)*\s*$/;

/** blocks writes the content of a container as HTML blocks; loose text becomes a paragraph. */
function blocks(node: XNode, ctx: PatentContext, depth: number): string {
  return blockFlow(node, depth, (c, d) => blockElement(c, ctx, d), (c, d) => inlineElement(c, d));
}

/** blockElement writes one block element, or returns null for an inline one. */
function blockElement(el: XNode, ctx: PatentContext, depth: number): string | null {
  const name = el.name;
  if (SKIPPED.has(name)) return "";
  if (BLOCK_CONTAINERS.has(name)) return blocks(el, ctx, depth);
  switch (name) {
    case "heading":
    case "h": {
      const level = Number.parseInt(el.attrs.level ?? el.attrs.lvl ?? "1", 10);
      const text = inline(el, depth);
      return text.trim() ? element(`h${Math.min(6, ctx.headingBase + Math.max(0, (Number.isFinite(level) ? level : 1) - 1))}`, text) : "";
    }
    case "p":
    case "paragraph":
    case "para":
    case "clmstep":
      return paragraph(el, ctx, depth);
    case "ul":
    case "ol":
      return element(name, childElements(el, "li").map((li) => element("li", blocks(li, ctx, depth + 1))).join(""));
    case "dl":
      return element(
        "ul",
        childElements(el, "dt")
          .map((dt, i) => {
            const dd = childElements(el, "dd")[i];
            return element("li", element("strong", inline(dt, depth + 1)) + (dd ? `: ${inline(dd, depth + 1)}` : ""));
          })
          .join(""),
      );
    case "tables":
    case "table-us":
      return blocks(el, ctx, depth);
    case "table":
      return calsTableHtml(el, (cell, d) => cellContent(cell, d), depth);
    case "pre":
      return element("pre", escapeHtmlText(rawText(el)));
    case "claims":
    case "subdoc-claims":
    case "cl":
      return claims(el, ctx, depth);
    default:
      return null;
  }
}

/** paragraph writes a paragraph; tables and lists inside it follow as blocks of their own. */
function paragraph(el: XNode, ctx: PatentContext, depth: number): string {
  let out = "";
  let text = "";
  for (const c of el.children) {
    if (typeof c === "string") text += escapeHtmlText(c);
    else if (["tables", "table", "ul", "ol", "dl", "table-us", "pre"].includes(c.name)) {
      if (text.trim()) out += element("p", text);
      text = "";
      out += blockElement(c, ctx, depth + 1) ?? "";
    } else text += inlineElement(c, depth + 1);
  }
  if (text.trim()) out += element("p", text);
  return out;
}

function cellContent(node: XNode, depth: number): string {
  if (depth > MAX_XML_DEPTH) return escapeHtmlText(rawText(node));
  let out = "";
  for (const c of node.children) {
    if (typeof c === "string") out += escapeHtmlText(c);
    else if (c.name === "br") out += "<br>";
    else if (c.name === "p" || c.name === "para") out += (out.trim() ? "<br>" : "") + cellContent(c, depth + 1);
    else out += inlineElement(c, depth + 1);
  }
  return out;
}

/**
 * claims writes the claims as a numbered list. A claim's text begins with its number ("1. A
 * method ..."); the number becomes the list number, and the claim's nested elements (steps, each
 * a claim-text or CLMSTEP) follow as paragraphs of the item.
 */
function claims(el: XNode, ctx: PatentContext, depth: number): string {
  let out = "";
  const items: string[] = [];
  const flushItems = () => {
    if (items.length) out += element("ol", items.join(""));
    items.length = 0;
  };
  for (const c of childElements(el)) {
    if (c.name === "claim" || c.name === "clm") {
      const parts = claimParts(c, depth + 1);
      if (!parts.length) continue;
      const first = parts[0]!;
      const number = /^\s*(\d+)\s*\.\s*/.exec(first.replace(/<[^>]+>/g, ""));
      const num = number ? Number.parseInt(number[1]!, 10) : Number.parseInt(c.attrs.num ?? "", 10);
      if (number) parts[0] = first.replace(/^((?:\s*<[^/>][^>]*>)*\s*)\d+((?:\s*<\/[^>]+>)*)\s*\.\s*/, "$1$2");
      items.push(element("li", parts.map((p) => element("p", p)).join(""), { value: Number.isFinite(num) ? num : undefined }));
    } else if (c.name === "h" || c.name === "heading" || c.name === "us-claim-statement" || c.name === "claim-statement") {
      flushItems();
      const text = inline(c, depth + 1);
      if (text.trim()) out += element("p", text);
    } else if (c.name === "cl" || c.name === "claims") {
      flushItems();
      out += claims(c, ctx, depth + 1);
    }
  }
  flushItems();
  return out;
}

/** claimParts lists a claim's lines: its own text, then each nested claim-text (or CLMSTEP / PARA) in order. */
function claimParts(claim: XNode, depth: number): string[] {
  const parts: string[] = [];
  const walk = (node: XNode, d: number) => {
    let text = "";
    for (const c of node.children) {
      if (typeof c === "string") text += escapeHtmlText(c);
      else if (d < MAX_XML_DEPTH && ["claim-text", "clmstep", "para", "paragraph"].includes(c.name)) {
        if (text.trim()) parts.push(text.trim());
        text = "";
        walk(c, d + 1);
      } else text += inlineElement(c, d + 1);
    }
    if (text.trim()) parts.push(text.trim());
  };
  walk(claim, depth);
  return parts;
}

/** inventionTitle finds the title in any of the three generations. */
function inventionTitle(root: XNode): XNode | undefined {
  return findFirst(root, "invention-title") ?? findFirst(root, "title-of-invention") ?? findFirst(findFirst(root, "b540"), "stext") ?? findFirst(root, "b540");
}

/** SECTION_TITLES: the top-level parts of a patent and the heading each gets */
const SECTION_TITLES: Record<string, string> = {
  abstract: "Abstract", "subdoc-abstract": "Abstract", sdoab: "Abstract",
  description: "Description", "subdoc-description": "Description", sdode: "Description",
  claims: "Claims", "subdoc-claims": "Claims", sdocl: "Claims",
};

/** patentHtml writes the title and, in document order, the abstract, description and claims. */
function patentHtml(root: XNode): string {
  const ctx: PatentContext = { headingBase: 3 };
  const title = inventionTitle(root);
  let out = title ? element("h1", inline(title, 1)) : "";
  for (const part of childElements(root)) {
    const heading = SECTION_TITLES[part.name];
    if (!heading) continue;
    const body = part.name === "sdocl" || part.name === "claims" || part.name === "subdoc-claims" ? claims(part, ctx, 1) : blocks(part, ctx, 1);
    if (body.replace(/<[^>]+>/g, "").trim()) out += element("h2", heading) + body;
  }
  return out;
}

/** convertPatent writes a USPTO patent grant or application as markdown. */
export const convertPatent: Converter = async (input, convertCtx) => {
  const text = readXmlText(input, "patent");
  const tree = parseXmlTree(text);
  const root = childElements(tree).find((c) => PATENT_ROOTS.has(c.name));
  if (!root) throw new AppError("unreadable_document", `${input.filename} has no USPTO patent root element; send the patent's full-text XML or the file as plain XML.`);
  convertCtx.signal.throwIfAborted();
  const markdown = xmlHtmlToMarkdown(patentHtml(root));
  if (!markdown.trim()) throw new AppError("empty_document", `patent '${input.filename}' has no text to convert.`);
  const title = /^# (.+)$/m.exec(markdown)?.[1]?.trim() ?? null;
  return { markdown, title, totalPages: 0, method: "patent", warnings: flattenedWarnings(tree) };
};
