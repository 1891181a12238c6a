/**
 * Shared machinery of the converters for document XML (JATS articles, USPTO patents): a small
 * element tree whose text keeps its entity references as written, and writers that turn elements
 * into HTML, which the HTML walker (htmlDom.ts) then writes as markdown, so headings, lists and
 * tables (with their spans) come out exactly as for web pages.
 *
 * Safety: the document type declaration is never read. Its internal subset is cut away before
 * parsing, no external entity or DTD is fetched or opened, and entity references other than the
 * HTML ones are left as text, so a document cannot expand itself (no "billion laughs") or reach
 * the network or the file system. Nesting deeper than MAX_XML_DEPTH is written as plain text, with a warning;
 * a document nested past MAX_ELEMENT_DEPTH (nesting.ts) is refused.
 */
import { Parser } from "htmlparser2";
import { htmlToMarkdown } from "./html";
import { decodedText } from "./text";
import { AppError } from "../errors";
import { MAX_ELEMENT_DEPTH, nestedTooDeep } from "./nesting";
import type { ConvertInput } from "./types";

/** XNode is one element: name in lower case with its namespace prefix (`mml:math`), attributes as written. */
export interface XNode {
  name: string;
  attrs: Record<string, string>;
  children: Array<XNode | string>;
}

/** MAX_XML_DEPTH: elements nested deeper than this are written as their text only */
export const MAX_XML_DEPTH = 200;

/** DOCTYPE_SUBSET: a document type declaration with an internal subset (entity and notation declarations) */
const DOCTYPE_SUBSET = /<!DOCTYPE[^>[]*\[[\s\S]*?\]\s*>/i;

/** XmlTree is a parsed document: its root and how deep its elements nest. */
export interface XmlTree extends XNode {
  deepest: number;
}

/**
 * parseXmlTree parses document XML; entity references stay in the text as written (the HTML parser
 * decodes them once). A document nested past MAX_ELEMENT_DEPTH is refused as it is read: articles and
 * patents nest tens deep, and a deeper tree would be walked past the converters' depth caps.
 */
export function parseXmlTree(text: string): XmlTree {
  const head = text.slice(0, 1 << 20).replace(DOCTYPE_SUBSET, "");
  const source = text.length > 1 << 20 ? head + text.slice(1 << 20) : head;
  const root: XmlTree = { name: "#document", attrs: {}, children: [], deepest: 0 };
  const stack: XNode[] = [root];
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        const node: XNode = { name: name.toLowerCase(), attrs, children: [] };
        stack[stack.length - 1]!.children.push(node);
        stack.push(node);
        if (stack.length > MAX_ELEMENT_DEPTH) throw nestedTooDeep("the XML document", "articles and patents nest tens deep");
        root.deepest = Math.max(root.deepest, stack.length - 1);
      },
      ontext(data) {
        const top = stack[stack.length - 1]!;
        const last = top.children[top.children.length - 1];
        if (typeof last === "string") top.children[top.children.length - 1] = last + data;
        else top.children.push(data);
      },
      onclosetag() {
        if (stack.length > 1) stack.pop();
      },
    },
    { xmlMode: true, decodeEntities: false, recognizeCDATA: true },
  );
  parser.write(source);
  parser.end();
  return root;
}

/** readXmlText decodes an XML upload to text, refusing binary data and empty files. */
export function readXmlText(input: ConvertInput, what: string): string {
  const text = decodedText(input, `is not a ${what} XML file (it contains binary data).`);
  if (!text.trim()) throw new AppError("empty_document", `${input.filename} contains no text; send a file with content.`);
  return text;
}

/** rootElementOf finds the document element of an XML text from its first few KB: name (as written) and its start tag. */
export function rootElementOf(text: string): { name: string; tag: string; doctype: string } | null {
  const head = text.slice(0, 16384).replace(/^\uFEFF/, "");
  const doctype = /<!DOCTYPE\s+[^>[]*/i.exec(head)?.[0] ?? "";
  const rest = head
    .replace(/<\?[\s\S]*?\?>/g, "")
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>/gi, "");
  const root = /<([A-Za-z_][\w.:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/.exec(rest);
  return root ? { name: root[1]!, tag: root[0], doctype } : null;
}

/** firstChild is the first child element of `node` named `name`. */
export function firstChild(node: XNode | undefined, name: string): XNode | undefined {
  if (!node) return undefined;
  for (const c of node.children) if (typeof c !== "string" && c.name === name) return c;
  return undefined;
}

/** childElements lists the child elements of `node`, those named one of `names` when given. */
export function childElements(node: XNode | undefined, ...names: string[]): XNode[] {
  if (!node) return [];
  const out: XNode[] = [];
  for (const c of node.children) if (typeof c !== "string" && (names.length === 0 || names.includes(c.name))) out.push(c);
  return out;
}

/** findFirst is the first element named `name` at or below `node`, in document order (breadth of the depth cap). */
export function findFirst(node: XNode | undefined, name: string, depth = 0): XNode | undefined {
  if (!node || depth > MAX_XML_DEPTH) return undefined;
  if (node.name === name) return node;
  for (const c of node.children) {
    if (typeof c === "string") continue;
    const hit = findFirst(c, name, depth + 1);
    if (hit) return hit;
  }
  return undefined;
}

/** findAll lists every element named `name` below `node`, in document order. */
export function findAll(node: XNode | undefined, name: string, out: XNode[] = [], depth = 0): XNode[] {
  if (!node || depth > MAX_XML_DEPTH) return out;
  for (const c of node.children) {
    if (typeof c === "string") continue;
    if (c.name === name) out.push(c);
    findAll(c, name, out, depth + 1);
  }
  return out;
}

/** rawText is the text below `node` as written (entity references undecoded), whitespace collapsed; all of it (parseXmlTree bounds the depth). */
export function rawText(node: XNode | undefined): string {
  if (!node) return "";
  let out = "";
  for (const c of node.children) out += typeof c === "string" ? c : ` ${rawText(c)} `;
  return out.replace(/\s+/g, " ").trim();
}

/** flattenedWarnings says when part of `tree` nests past MAX_XML_DEPTH, where the converters write its text without its structure. */
export function flattenedWarnings(tree: XmlTree): string[] {
  return tree.deepest > MAX_XML_DEPTH
    ? [`elements nest ${tree.deepest} deep; below ${MAX_XML_DEPTH} their text is written as plain paragraphs, without headings, lists or tables`]
    : [];
}

/** escapeHtmlText escapes text for HTML but keeps entity references, which the HTML parser decodes. */
export function escapeHtmlText(text: string): string {
  return text.replace(/&(?!#\d+;|#x[\da-fA-F]+;|[A-Za-z][A-Za-z\d]*;)/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** escapeHtmlAttr escapes an attribute value for a double-quoted HTML attribute. */
export function escapeHtmlAttr(text: string): string {
  return escapeHtmlText(text).replace(/"/g, "&quot;");
}

/** element writes one HTML element around already-written inner HTML. */
export function element(tag: string, inner: string, attrs: Record<string, string | number | undefined> = {}): string {
  let open = tag;
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== "") open += ` ${k}="${escapeHtmlAttr(String(v))}"`;
  return `<${open}>${inner}</${tag}>`;
}

/**
 * blockFlow writes the content of a container element as HTML blocks: each child element goes to
 * `block` (one level deeper); when that returns null (an inline element) it goes to `inline` and,
 * like loose text, into the running paragraph, which is closed before the next block.
 */
export function blockFlow(node: XNode, depth: number, block: (el: XNode, depth: number) => string | null, inline: (el: XNode, depth: number) => string): string {
  if (depth > MAX_XML_DEPTH) return element("p", escapeHtmlText(rawText(node)));
  let out = "";
  let pending = "";
  const flush = () => {
    if (pending.trim()) out += element("p", pending);
    pending = "";
  };
  for (const c of node.children) {
    if (typeof c === "string") {
      pending += escapeHtmlText(c);
      continue;
    }
    const written = block(c, depth + 1);
    if (written === null) pending += inline(c, depth + 1);
    else {
      flush();
      out += written;
    }
  }
  flush();
  return out;
}

/** Render writes the HTML of one element's content (children); the converters pass their own. */
export type Render = (node: XNode, depth: number) => string;

/**
 * calsTableHtml writes a CALS (OASIS exchange) table (`tgroup`, `colspec`, `spanspec`, `row`,
 * `entry` with `namest`/`nameend`/`spanname` and `morerows`) as an HTML table with colspan and
 * rowspan; columns skipped by an entry's `colname` get empty cells so the columns line up.
 */
export function calsTableHtml(table: XNode, render: Render, depth: number): string {
  const rows: string[] = [];
  for (const group of childElements(table, "tgroup", "oasis:tgroup")) {
    const local = (n: XNode) => n.name.replace(/^oasis:/, "");
    const colIndex = new Map<string, number>();
    const spans = new Map<string, [string, string]>();
    let nextCol = 0;
    for (const c of childElements(group)) {
      if (local(c) === "colspec") {
        const num = Number.parseInt(c.attrs.colnum ?? "", 10);
        const index = Number.isFinite(num) && num >= 1 ? num - 1 : nextCol;
        if (c.attrs.colname) colIndex.set(c.attrs.colname, index);
        nextCol = index + 1;
      } else if (local(c) === "spanspec" && c.attrs.spanname) {
        spans.set(c.attrs.spanname, [c.attrs.namest ?? "", c.attrs.nameend ?? ""]);
      }
    }
    const occupied: number[] = [];
    for (const part of childElements(group)) {
      const section = local(part);
      if (section !== "thead" && section !== "tbody" && section !== "tfoot") continue;
      for (const row of childElements(part).filter((r) => local(r) === "row")) {
        let cells = "";
        let col = 0;
        const free = () => {
          while ((occupied[col] ?? 0) > 0) col++;
        };
        const taken: Array<[number, number, number]> = [];
        for (const entry of childElements(row).filter((e) => local(e) === "entry")) {
          const span = entry.attrs.spanname ? spans.get(entry.attrs.spanname) : undefined;
          const start = colIndex.get(entry.attrs.namest ?? span?.[0] ?? entry.attrs.colname ?? "");
          const end = colIndex.get(entry.attrs.nameend ?? span?.[1] ?? "");
          free();
          while (start !== undefined && col < start) {
            cells += "<td></td>";
            col++;
            free();
          }
          const colspan = start !== undefined && end !== undefined && end >= start ? Math.min(end - start + 1, 100) : 1;
          const more = Math.min(Math.max(0, Number.parseInt(entry.attrs.morerows ?? "0", 10) || 0), 100);
          const tag = section === "thead" ? "th" : "td";
          cells += element(tag, render(entry, depth + 1), { colspan: colspan > 1 ? colspan : undefined, rowspan: more > 0 ? more + 1 : undefined });
          if (more > 0) taken.push([col, colspan, more]);
          col += colspan;
        }
        for (let c = 0; c < occupied.length; c++) if ((occupied[c] ?? 0) > 0) occupied[c]!--;
        for (const [at, width, more] of taken) for (let k = 0; k < width; k++) occupied[at + k] = more;
        rows.push(element("tr", cells));
      }
    }
  }
  return rows.length ? element("table", rows.join("")) : "";
}

/** xmlHtmlToMarkdown writes the HTML built from a document's XML as markdown (the whole body, no boilerplate removal). */
export function xmlHtmlToMarkdown(html: string): string {
  return htmlToMarkdown(`<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>${html}</body></html>`, { mainContent: false }).markdown;
}
