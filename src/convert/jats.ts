/**
 * JATS (and its predecessor, the NLM Journal Publishing / Archiving DTDs) journal articles, as
 * PubMed Central, eLife, PLOS, F1000 and bioRxiv publish them -> markdown: the article title as
 * `#`, the authors and affiliations, the abstracts, the body's sections as headings by nesting
 * depth, paragraphs, lists, tables (with caption, spans and footnotes), figure captions, boxed text,
 * acknowledgements, appendices, footnotes, the references as a numbered list, and sub-articles
 * (eLife's decision letter and author response). Recognised by the root element, not the name.
 */
import { AppError } from "../errors";
import type { Converter } from "./types";
import {
  calsTableHtml,
  childElements,
  blockFlow,
  element,
  escapeHtmlText,
  findAll,
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

/**
 * isJats says whether XML text is a JATS/NLM article: root `article` with a JATS/NLM doctype, a
 * `dtd-version`, the XLink or MathML namespace JATS declares, or a `front` in the first KB.
 */
export function isJats(text: string): boolean {
  const root = rootElementOf(text);
  if (!root) return false;
  // PubMed Central's E-utilities wrap the article in <pmc-articleset>
  if (root.name === "pmc-articleset") return /<article[\s>]/.test(text.slice(0, 16384));
  if (root.name.replace(/^.*:/, "") !== "article") return false;
  if (/JATS|NLM|journalpublishing|archivearticle|articleauthoring/i.test(root.doctype)) return true;
  if (/\bdtd-version\s*=|xmlns(:\w+)?\s*=\s*["']http:\/\/jats\.nlm\.nih\.gov/.test(root.tag)) return true;
  return /xmlns:(xlink|mml)\s*=/.test(root.tag) && /<front[\s>]/.test(text.slice(0, 16384));
}

/** HEADING_BASE: the level of a top-level section's heading (the article title is level 1) */
const HEADING_BASE = 2;

/** SKIPPED: elements that are not content a reader sees in the article (or are written elsewhere) */
const SKIPPED = new Set([
  "object-id", "graphic", "inline-graphic", "media", "alternatives-graphic", "permissions", "license",
  "kwd-group", "funding-group", "history", "pub-date", "counts", "custom-meta-group", "related-article",
  "article-categories", "journal-meta", "self-uri", "processing-meta", "alt-text", "long-desc",
  "article-id", "author-notes", "contrib-group",
  "aff", "title-group", "abstract", "trans-abstract", "ext-link-group", "table-wrap-foot",
]);

/** INLINE: JATS inline elements and the HTML element each becomes ("" = only its content) */
const INLINE: Record<string, string> = {
  italic: "em", bold: "strong", monospace: "code", underline: "", sc: "", sup: "sup", sub: "sub",
  "styled-content": "", named_content: "", "named-content": "", roman: "", "sans-serif": "", overline: "",
  strike: "s", xref: "", abbrev: "", "inline-formula": "", "chem-struct": "", "inline-supplementary-material": "",
  "std": "", "email": "", "fn": "", "target": "", "private-char": "",
};

interface JatsContext {
  /** footnotes: `fn` elements met inside paragraphs, written at the end */
  footnotes: XNode[];
  /** noteIds: the id given to each footnote without one (an `fn` written inside a paragraph) */
  noteIds: Map<XNode, string>;
}

/**
 * noteId gives a footnote's id, the one a reference links to: the markdown walker (htmlDom.ts)
 * writes a footnote reference (`xref ref-type="fn"`) as `[^label]` and the footnote it points to
 * at the end as `[^label]: text`.
 */
function noteId(fn: XNode, ctx: JatsContext): string {
  const id = fn.attrs.id;
  if (id) return id;
  let made = ctx.noteIds.get(fn);
  if (!made) ctx.noteIds.set(fn, (made = `jats-fn-${ctx.noteIds.size + 1}`));
  return made;
}

/** sectionTitle writes a section's label and title ("2.1 Methods"). */
function labelled(node: XNode, ctx: JatsContext, depth: number): string {
  const label = rawText(firstChild(node, "label"));
  const title = firstChild(node, "title");
  const text = title ? inline(title, ctx, depth + 1) : "";
  return [label ? escapeHtmlText(label) : "", text].filter(Boolean).join(" ");
}

/** inline writes the content of an element as inline HTML. */
function inline(node: XNode, ctx: JatsContext, depth: number): string {
  if (depth > MAX_XML_DEPTH) return escapeHtmlText(rawText(node));
  let out = "";
  for (const c of node.children) {
    if (typeof c === "string") {
      out += escapeHtmlText(c);
      continue;
    }
    out += inlineElement(c, ctx, depth + 1);
  }
  return out;
}

function inlineElement(el: XNode, ctx: JatsContext, depth: number): string {
  switch (el.name) {
    case "ext-link":
    case "uri": {
      const href = el.attrs["xlink:href"] ?? (el.name === "uri" ? rawText(el) : "");
      const text = inline(el, ctx, depth);
      return /^(https?|ftp|mailto):/i.test(href) ? element("a", text || escapeHtmlText(href), { href }) : text;
    }
    case "break":
      return "<br>";
    case "fn": {
      ctx.footnotes.push(el);
      const label = rawText(firstChild(el, "label")) || String(ctx.footnotes.length);
      return element("sup", element("a", escapeHtmlText(label), { href: `#${noteId(el, ctx)}`, class: "footnote-ref" }));
    }
    case "xref": {
      // A reference to a footnote (of the article or of a table) links to it; citations and
      // figure references stay their text.
      const inner = inline(el, ctx, depth);
      const rid = (el.attrs.rid ?? "").trim().split(/\s+/)[0];
      const type = el.attrs["ref-type"] ?? "";
      return rid && (type === "fn" || type === "table-fn") ? element("a", inner, { href: `#${rid}`, class: "footnote-ref" }) : inner;
    }
    case "tex-math":
      return escapeHtmlText(` $${rawText(el).replace(/^\\begin\{document\}|\\end\{document\}$/g, "").trim()}$ `);
    case "mml:math":
    case "math":
      return mathText(el);
    case "alternatives": {
      const tex = firstChild(el, "tex-math");
      const math = firstChild(el, "mml:math") ?? firstChild(el, "math");
      return math ? mathText(math) : tex ? inlineElement(tex, ctx, depth) : inline(el, ctx, depth);
    }
    case "label":
      return "";
    case "name": {
      // a name in a citation: "Surname Given" as the reference styles print it
      const parts = [firstChild(el, "surname"), firstChild(el, "given-names"), firstChild(el, "suffix")].filter((n): n is XNode => n !== undefined);
      return parts.map((n) => inline(n, ctx, depth)).join(" ");
    }
    default: {
      if (SKIPPED.has(el.name)) return "";
      const tag = INLINE[el.name];
      const inner = inline(el, ctx, depth);
      return tag ? element(tag, inner) : inner;
    }
  }
}

/** mathText writes MathML as its text (identifiers, numbers, operators in order). */
function mathText(el: XNode): string {
  const alt = el.attrs.alttext;
  if (alt) return escapeHtmlText(` $${alt.trim()}$ `);
  return escapeHtmlText(rawText(el).replace(/\s+/g, " "));
}

/** blocks writes the content of a container element (body, sec, caption, list-item, ...) as HTML blocks. */
function blocks(node: XNode, ctx: JatsContext, depth: number, level: number): string {
  return blockFlow(node, depth, (c, d) => blockElement(c, ctx, d, level), (c, d) => inlineElement(c, ctx, d));
}

/** blockElement writes one block element, or returns null for an inline one. */
function blockElement(el: XNode, ctx: JatsContext, depth: number, level: number): string | null {
  switch (el.name) {
    case "title":
    case "label":
      return ""; // written by the element they belong to
    case "sec":
    case "app":
    case "ack":
    case "glossary":
    case "notes":
    case "fn-group": // a group of notes under its title ("Competing interests", "Author contributions") is a section of them
    case "bio": {
      const title = labelled(el, ctx, depth) || (el.name === "ack" ? "Acknowledgements" : "");
      const heading = title ? element(`h${Math.min(6, level)}`, title) : "";
      return heading + blocks(el, ctx, depth, level + 1);
    }
    case "app-group":
    case "sec-meta":
      return blocks(el, ctx, depth, level);
    case "p":
      return paragraph(el, ctx, depth, level);
    case "list":
      return list(el, ctx, depth, level);
    case "def-list":
      return defList(el, ctx, depth, level);
    case "disp-quote":
      return element("blockquote", blocks(el, ctx, depth, level));
    case "boxed-text":
    case "statement":
    case "speech":
    case "verse-group":
    case "floats-group":
    case "body":
    case "back":
      return (labelled(el, ctx, depth) ? element("p", element("strong", labelled(el, ctx, depth))) : "") + blocks(el, ctx, depth, level);
    case "fig":
    case "fig-group":
    case "supplementary-material":
    case "chem-struct-wrap":
      return captioned(el, ctx, depth, level);
    case "table-wrap":
    case "table-wrap-group":
      return tableWrap(el, ctx, depth, level);
    case "table":
      return htmlTable(el, ctx, depth);
    case "disp-formula": {
      const label = rawText(firstChild(el, "label"));
      return element("p", inline(el, ctx, depth) + (label ? ` ${escapeHtmlText(label)}` : ""));
    }
    case "preformat":
    case "code":
      return element("pre", escapeHtmlText(textWithBreaks(el)));
    case "fn":
      return footnote(el, ctx, depth, level);
    case "ref-list":
      return refList(el, ctx, depth, level);
    case "caption":
      return blocks(el, ctx, depth, level);
    case "attrib":
      return element("p", inline(el, ctx, depth));
    case "hr":
      return "<hr>";
    default:
      if (SKIPPED.has(el.name)) return "";
      return null;
  }
}

function textWithBreaks(node: XNode): string {
  return node.children.map((c) => (typeof c === "string" ? c : textWithBreaks(c))).join("");
}

/** paragraph writes a `p`; lists, tables and figures inside it become blocks of their own after its text. */
function paragraph(el: XNode, ctx: JatsContext, depth: number, level: number): string {
  let out = "";
  let text = "";
  for (const c of el.children) {
    if (typeof c === "string") text += escapeHtmlText(c);
    else if (["list", "table-wrap", "fig", "disp-quote", "def-list", "boxed-text", "disp-formula", "preformat", "supplementary-material"].includes(c.name)) {
      if (text.trim()) out += element("p", text);
      text = "";
      out += blockElement(c, ctx, depth + 1, level) ?? "";
    } else text += inlineElement(c, ctx, depth + 1);
  }
  if (text.trim()) out += element("p", text);
  return out;
}

function list(el: XNode, ctx: JatsContext, depth: number, level: number): string {
  const type = el.attrs["list-type"] ?? "";
  const ordered = /order|alpha|roman/.test(type);
  const items = childElements(el, "list-item")
    .map((item) => {
      const label = rawText(firstChild(item, "label"));
      const body = blocks(item, ctx, depth + 1, level);
      return element("li", (label && !ordered ? `${escapeHtmlText(label)} ` : "") + body);
    })
    .join("");
  const title = labelled(el, ctx, depth);
  return (title ? element("p", element("strong", title)) : "") + element(ordered ? "ol" : "ul", items);
}

function defList(el: XNode, ctx: JatsContext, depth: number, level: number): string {
  const title = labelled(el, ctx, depth);
  const items = childElements(el, "def-item")
    .map((item) => {
      const term = firstChild(item, "term");
      const defs = childElements(item, "def").map((d) => blocks(d, ctx, depth + 1, level).replace(/^<p>|<\/p>$/g, ""));
      return element("li", (term ? element("strong", inline(term, ctx, depth + 1)) + ": " : "") + defs.join(" "));
    })
    .join("");
  return (title ? element("p", element("strong", title)) : "") + element("ul", items);
}

/** captioned writes a figure or supplementary file as its label and caption ("Figure 1. Title. Text"). */
function captioned(el: XNode, ctx: JatsContext, depth: number, level: number): string {
  const label = rawText(firstChild(el, "label"));
  const caption = firstChild(el, "caption");
  const title = caption ? firstChild(caption, "title") : undefined;
  const lead = [label ? element("strong", escapeHtmlText(label)) : "", title ? inline(title, ctx, depth + 1) : ""].filter(Boolean).join(" ");
  const body = caption ? blocks(caption, ctx, depth + 1, level) : "";
  let out = lead ? element("p", lead) : "";
  out += body;
  // fig-group, chem-struct-wrap: nested figures and content other than the caption
  for (const c of childElements(el)) {
    if (c.name === "fig" || c.name === "table-wrap" || c.name === "p" || c.name === "disp-formula") out += blockElement(c, ctx, depth + 1, level) ?? "";
  }
  return out;
}

/** tableWrap writes a table's label and caption, the table, then its footnotes. */
function tableWrap(el: XNode, ctx: JatsContext, depth: number, level: number): string {
  let out = captioned({ ...el, children: el.children.filter((c) => typeof c === "string" || c.name === "label" || c.name === "caption") }, ctx, depth, level);
  for (const c of childElements(el)) {
    if (c.name === "table" || c.name === "oasis:table") out += htmlTable(c, ctx, depth + 1);
    else if (c.name === "alternatives") {
      const table = firstChild(c, "table") ?? firstChild(c, "oasis:table");
      if (table) out += htmlTable(table, ctx, depth + 1);
    } else if (c.name === "table-wrap" || c.name === "table-wrap-foot") out += c.name === "table-wrap" ? tableWrap(c, ctx, depth + 1, level) : blocks(c, ctx, depth + 1, level);
  }
  return out;
}

/** htmlTable writes a JATS table: the XHTML table model as is (with its spans), or an OASIS (CALS) table. */
function htmlTable(table: XNode, ctx: JatsContext, depth: number): string {
  const cell = (node: XNode, d: number) => cellContent(node, ctx, d);
  if (firstChild(table, "tgroup") || firstChild(table, "oasis:tgroup")) return calsTableHtml(table, cell, depth);
  const rows: string[] = [];
  const walk = (node: XNode, d: number) => {
    for (const c of childElements(node)) {
      if (c.name === "tr") {
        const cells = childElements(c, "td", "th")
          .map((cellEl) => element(cellEl.name, cell(cellEl, d + 1), { colspan: cellEl.attrs.colspan, rowspan: cellEl.attrs.rowspan }))
          .join("");
        rows.push(element("tr", cells));
      } else if ((c.name === "thead" || c.name === "tbody" || c.name === "tfoot") && d < MAX_XML_DEPTH) walk(c, d + 1);
    }
  };
  walk(table, depth);
  return rows.length ? element("table", rows.join("")) : "";
}

/** cellContent writes a table cell's content inline (paragraphs and breaks as line breaks). */
function cellContent(node: XNode, ctx: JatsContext, depth: number): string {
  if (depth > MAX_XML_DEPTH) return escapeHtmlText(rawText(node));
  let out = "";
  for (const c of node.children) {
    if (typeof c === "string") out += escapeHtmlText(c);
    else if (c.name === "p" || c.name === "list-item") out += (out.trim() ? "<br>" : "") + cellContent(c, ctx, depth + 1);
    else if (c.name === "list") out += cellContent(c, ctx, depth + 1);
    else out += inlineElement(c, ctx, depth + 1);
  }
  return out;
}

/** footnote writes a footnote as a block with its id (the target of its references) and its label before its text. */
function footnote(el: XNode, ctx: JatsContext, depth: number, level: number): string {
  const label = rawText(firstChild(el, "label"));
  const body = blocks(el, ctx, depth + 1, level);
  return element("div", label ? body.replace(/^<p>/, `<p>${escapeHtmlText(label)} `) : body, { id: noteId(el, ctx), class: "fn" });
}

/** refList writes the references as a numbered list under their title. */
function refList(el: XNode, ctx: JatsContext, depth: number, level: number): string {
  const title = labelled(el, ctx, depth) || "References";
  const refs = childElements(el, "ref").map((ref) => element("li", referenceText(ref, ctx, depth + 1)));
  let out = element(`h${Math.min(6, level)}`, title) + (refs.length ? element("ol", refs.join("")) : "");
  for (const c of childElements(el)) if (c.name === "ref-list" || c.name === "p") out += blockElement(c, ctx, depth + 1, level + 1) ?? "";
  return out;
}

/** CITATIONS: the elements that hold one reference */
const CITATIONS = ["mixed-citation", "element-citation", "citation", "nlm-citation"];

/**
 * referenceText writes one reference. A mixed citation carries its own punctuation and is written
 * as is; an element citation (fields only) is written as "Authors. Year. Title. Source Volume:
 * Pages. DOI".
 */
function referenceText(ref: XNode, ctx: JatsContext, depth: number): string {
  const citation = childElements(ref).find((c) => CITATIONS.includes(c.name));
  if (!citation) return inline(ref, ctx, depth);
  const hasPunctuation = citation.children.some((c) => typeof c === "string" && /[.,;:]/.test(c));
  if (citation.name !== "element-citation" && hasPunctuation) return inline(citation, ctx, depth).replace(/\s+/g, " ");
  const names = findAll(citation, "person-group").flatMap((group) =>
    childElements(group, "name", "string-name", "collab", "etal").map((n) =>
      n.name === "name" ? [rawText(firstChild(n, "surname")), rawText(firstChild(n, "given-names"))].filter(Boolean).join(" ") : n.name === "etal" ? "et al." : rawText(n),
    ),
  );
  for (const collab of childElements(citation, "collab")) names.push(rawText(collab));
  const field = (name: string) => {
    const node = firstChild(citation, name);
    return node ? inline(node, ctx, depth + 1).replace(/\s+/g, " ").trim() : "";
  };
  const year = field("year");
  const title = field("article-title") || field("chapter-title") || field("data-title") || field("part-title");
  const source = field("source");
  const volume = field("volume");
  const issue = field("issue");
  const pages = field("fpage") ? field("fpage") + (field("lpage") ? `–${field("lpage")}` : "") : field("elocation-id");
  const doi = childElements(citation, "pub-id").find((p) => p.attrs["pub-id-type"] === "doi");
  // "Development 127(4):3981–3992" as citations print it: the volume and the pages told apart by a colon
  const volumeIssue = volume ? `${volume}${issue ? `(${issue})` : ""}` : "";
  const where = [source, volumeIssue && pages ? `${volumeIssue}:${pages}` : volumeIssue || pages].filter(Boolean).join(" ");
  const parts = [escapeHtmlText(names.filter(Boolean).join(", ")), year, title, where, doi ? `doi: ${escapeHtmlText(rawText(doi))}` : ""];
  const text = parts.filter((p) => p && p.trim()).map((p) => p.trim().replace(/[.]$/, "")).join(". ");
  return text ? `${text}.` : inline(citation, ctx, depth);
}

/** personName writes a contributor's name as given names then surname. */
function personName(contrib: XNode): string {
  const name = firstChild(contrib, "name") ?? firstChild(contrib, "name-alternatives")?.children.find((c): c is XNode => typeof c !== "string" && c.name === "name");
  if (name) return [rawText(firstChild(name, "prefix")), rawText(firstChild(name, "given-names")), rawText(firstChild(name, "surname")), rawText(firstChild(name, "suffix"))].filter(Boolean).join(" ");
  const stringName = firstChild(contrib, "string-name");
  if (stringName) return rawText(stringName);
  const collab = firstChild(contrib, "collab");
  // a collaboration's name is its own text; its members (a nested contrib-group) are listed on their own
  return collab ? rawText({ ...collab, children: collab.children.filter((c) => typeof c === "string" || c.name !== "contrib-group") }) : "";
}

/** authorAffiliations lists the `aff` elements of the article's front, leaving out those inside a non-author contributor (an editor's). */
function authorAffiliations(meta: XNode): XNode[] {
  const out: XNode[] = [];
  const notAuthors = new Set(
    findAll(meta, "contrib")
      .filter((c) => (c.attrs["contrib-type"] ?? "author") !== "author")
      .flatMap((c) => findAll(c, "xref").flatMap((x) => (x.attrs.rid ?? "").split(/\s+/))),
  );
  const walk = (node: XNode, depth: number) => {
    for (const c of childElements(node)) {
      if (c.name === "aff") {
        if (!notAuthors.has(c.attrs.id ?? "")) out.push(c);
      }
      else if (c.name === "contrib" && (c.attrs["contrib-type"] ?? "author") !== "author") continue;
      else if (depth < MAX_XML_DEPTH && c.name !== "abstract" && c.name !== "trans-abstract") walk(c, depth + 1);
    }
  };
  walk(meta, 0);
  return out;
}

/** frontMatter writes the title, authors, affiliations and abstracts of an article (or a sub-article's front stub). */
function frontMatter(meta: XNode | undefined, ctx: JatsContext, depth: number, titleLevel: number): string {
  if (!meta) return "";
  let out = "";
  const titleGroup = firstChild(meta, "title-group");
  const title = firstChild(titleGroup, "article-title");
  if (title) {
    const subtitle = firstChild(titleGroup, "subtitle");
    out += element(`h${titleLevel}`, inline(title, ctx, depth) + (subtitle ? `: ${inline(subtitle, ctx, depth)}` : ""));
  }
  const authors = findAll(meta, "contrib")
    .filter((c) => (c.attrs["contrib-type"] ?? "author") === "author")
    .map(personName)
    .filter(Boolean);
  if (authors.length) out += element("p", escapeHtmlText(authors.join(", ")));
  const affs = authorAffiliations(meta).map((aff) => {
    const label = rawText(firstChild(aff, "label"));
    const parts = aff.children.filter((c) => typeof c === "string" || c.name !== "label");
    const text = rawText({ ...aff, children: parts }).replace(/\s+([,.;])/g, "$1").replace(/^[,;\s]+/, "");
    return (label ? `${label} ` : "") + text;
  });
  const uniqueAffs = [...new Set(affs.filter(Boolean))];
  if (uniqueAffs.length) out += element("p", uniqueAffs.map(escapeHtmlText).join("<br>"));
  for (const abstract of childElements(meta, "abstract", "trans-abstract")) {
    const type = abstract.attrs["abstract-type"] ?? "";
    if (/^(toc|teaser|web-summary)$/.test(type)) continue;
    const heading = labelled(abstract, ctx, depth) || "Abstract";
    out += element(`h${titleLevel + 1}`, heading) + blocks(abstract, ctx, depth + 1, titleLevel + 2);
  }
  return out;
}

/** articleHtml writes one article (or sub-article) as HTML. */
function articleHtml(article: XNode, ctx: JatsContext, depth: number, titleLevel: number): string {
  const front = firstChild(article, "front") ?? firstChild(article, "front-stub");
  const meta = firstChild(front, "article-meta") ?? front;
  let out = frontMatter(meta, ctx, depth + 1, titleLevel);
  for (const part of childElements(article, "body", "back", "floats-group")) out += blocks(part, ctx, depth + 1, titleLevel + 1);
  for (const sub of childElements(article, "sub-article", "response")) out += articleHtml(sub, ctx, depth + 1, titleLevel + 1);
  return out;
}

/** convertJats writes a JATS article as markdown. */
export const convertJats: Converter = async (input, convertCtx) => {
  const text = readXmlText(input, "JATS");
  const tree = parseXmlTree(text);
  const root = findFirst(tree, "article");
  if (!root) throw new AppError("unreadable_document", `${input.filename} has no <article> element; send a JATS article or the file as plain XML.`);
  convertCtx.signal.throwIfAborted();
  const ctx: JatsContext = { footnotes: [], noteIds: new Map() };
  let html = articleHtml(root, ctx, 0, 1);
  // Footnotes written inside paragraphs: each was referenced where it stood, and is written at the end.
  if (ctx.footnotes.length) html += ctx.footnotes.map((fn) => footnote(fn, { footnotes: [], noteIds: ctx.noteIds }, 1, 3)).join("");
  const markdown = xmlHtmlToMarkdown(html);
  if (!markdown.trim()) throw new AppError("empty_document", `JATS article '${input.filename}' has no text to convert.`);
  const title = /^# (.+)$/m.exec(markdown)?.[1]?.trim() ?? null;
  return { markdown, title, totalPages: 0, method: "jats", warnings: flattenedWarnings(tree) };
};
