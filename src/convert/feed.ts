/**
 * RSS 2.0, RSS 1.0 (RDF) and Atom feeds -> markdown: the channel title and description, then one
 * section per item with its date, author, link and its HTML content converted like a web page.
 * Elements are matched by local name, so any namespace prefix works (content:encoded, ns3:encoded).
 */
import { Parser } from "htmlparser2";
import { AppError } from "../errors";
import { htmlToMarkdown, sniffCharset } from "./html";
import { escapeText, heading, textHeading, joinBlocks, metadataBlock, tidyMarkdown } from "./markdown";
import { decodeText } from "./charset";
import { MAX_ELEMENT_DEPTH, nestedTooDeep } from "./nesting";
import type { Converter } from "./types";

/** XmlNode is one element of the small tree the feed parser builds. */
interface XmlNode {
  /** name: local name in lower case, without namespace prefix */
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
  text: string;
  /** innerStart, innerEnd: offsets of the element's inner markup in the source (for XHTML content) */
  innerStart: number;
  innerEnd: number;
}

/** MAX_ITEMS: items converted from one feed; more are counted in a warning */
const MAX_ITEMS = 1000;

/** isFeed says whether XML text (its first few KB suffice) is an RSS or Atom feed, by its root element. */
export function isFeed(text: string): boolean {
  const head = text
    .slice(0, 8192)
    .replace(/^\uFEFF/, "")
    .replace(/<\?[\s\S]*?\?>/g, "")
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>/gi, "");
  const root = /<([\w.-]+:)?([\w.-]+)([^>]*)>/.exec(head);
  if (!root) return false;
  const name = root[2]!.toLowerCase();
  const attrs = root[3] ?? "";
  if (name === "rss") return true;
  if (name === "rdf") return /purl\.org\/rss\/1\.0/i.test(head);
  if (name === "feed") return /http:\/\/www\.w3\.org\/2005\/Atom/i.test(attrs) || /<([\w.-]+:)?entry[\s>]/i.test(head);
  return false;
}

/** parseXml builds an XmlNode tree; htmlparser2's XML mode tolerates the malformed feeds found in the wild. */
function parseXml(text: string): XmlNode {
  const root: XmlNode = { name: "#root", attrs: {}, children: [], text: "", innerStart: 0, innerEnd: text.length };
  const stack: XmlNode[] = [root];
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        const node: XmlNode = { name: name.replace(/^.*:/, "").toLowerCase(), attrs, children: [], text: "", innerStart: parser.endIndex + 1, innerEnd: parser.endIndex + 1 };
        stack[stack.length - 1]!.children.push(node);
        stack.push(node);
        // the tree is walked recursively (allText, find): 50 000 levels ran the stack out (nesting.ts)
        if (stack.length > MAX_ELEMENT_DEPTH) throw nestedTooDeep("the feed", "feeds nest a few deep");
      },
      ontext(data) {
        stack[stack.length - 1]!.text += data;
      },
      onclosetag() {
        if (stack.length <= 1) return;
        const node = stack.pop()!;
        node.innerEnd = Math.max(node.innerStart, parser.startIndex);
      },
    },
    { xmlMode: true, decodeEntities: true, recognizeCDATA: true },
  );
  parser.write(text);
  parser.end();
  return root;
}

function child(node: XmlNode | undefined, name: string): XmlNode | undefined {
  return node?.children.find((c) => c.name === name);
}

function childText(node: XmlNode | undefined, ...names: string[]): string {
  for (const name of names) {
    const found = child(node, name);
    const text = found ? allText(found).trim() : "";
    if (text) return text;
  }
  return "";
}

function allText(node: XmlNode): string {
  return node.text + node.children.map(allText).join("");
}

function find(node: XmlNode, name: string): XmlNode | undefined {
  if (node.name === name) return node;
  for (const c of node.children) {
    const hit = find(c, name);
    if (hit) return hit;
  }
  return undefined;
}

/** FeedItem is one RSS item or Atom entry, with its content still HTML. */
interface FeedItem {
  title: string;
  link: string;
  date: string;
  author: string;
  html: string;
}

interface Feed {
  title: string;
  description: string;
  link: string;
  items: FeedItem[];
}

/** readFeed reads the channel and items of an RSS 2.0, RSS 1.0 or Atom document. */
function readFeed(source: string, root: XmlNode): Feed | null {
  const top = root.children.find((c) => c.name === "rss" || c.name === "rdf" || c.name === "feed");
  if (!top) return null;
  if (top.name === "feed") {
    return {
      title: childText(top, "title"),
      description: childText(top, "subtitle"),
      link: atomLink(top),
      items: top.children.filter((c) => c.name === "entry").map((entry) => ({
        title: childText(entry, "title"),
        link: atomLink(entry),
        date: childText(entry, "published", "updated"),
        author: childText(child(entry, "author"), "name"),
        html: atomHtml(source, child(entry, "content") ?? child(entry, "summary")),
      })),
    };
  }
  const channel = child(top, "channel");
  // RSS 2.0 nests items in the channel; RSS 1.0 puts them beside it.
  const itemParent = channel?.children.some((c) => c.name === "item") ? channel : top;
  return {
    title: childText(channel, "title"),
    description: childText(channel, "description"),
    link: childText(channel, "link"),
    items: itemParent!.children.filter((c) => c.name === "item").map((item) => ({
      title: childText(item, "title"),
      link: childText(item, "link", "guid"),
      date: childText(item, "pubdate", "date", "published", "updated"),
      author: childText(item, "creator", "author"),
      html: childText(item, "encoded") || childText(item, "description"),
    })),
  };
}

function atomLink(node: XmlNode): string {
  const links = node.children.filter((c) => c.name === "link");
  const best = links.find((l) => !l.attrs.rel || l.attrs.rel === "alternate") ?? links[0];
  return best?.attrs.href ?? "";
}

/** atomHtml returns an Atom content element as HTML: text is escaped, xhtml is taken as written. */
function atomHtml(source: string, node: XmlNode | undefined): string {
  if (!node) return "";
  const type = (node.attrs.type ?? "text").toLowerCase();
  if (type === "xhtml") return source.slice(node.innerStart, node.innerEnd);
  const text = allText(node);
  if (type === "html" || type === "text/html") return text;
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/\n{2,}/g, "<br><br>");
}

/** convertFeed converts an RSS or Atom feed into one markdown document, item by item. */
export const convertFeed: Converter = async (input, ctx) => {
  const what = `feed '${input.filename}'`;
  const source = decodeText(input.bytes, input.declaredCharset ?? sniffCharset(input.bytes)).text;
  ctx.signal.throwIfAborted();
  const feed = readFeed(source, parseXml(source));
  if (!feed) throw new AppError("unreadable_document", `${what}: not an RSS or Atom feed (no <rss>, <rdf:RDF> or <feed> root element)`);
  const warnings: string[] = [];
  const base = feed.link || input.url;
  const blocks: string[] = [textHeading(1, feed.title || input.filename)];
  if (feed.description) blocks.push(itemMarkdown(feed.description, base, warnings));
  if (feed.items.length > MAX_ITEMS) warnings.push(`${feed.items.length} items; the first ${MAX_ITEMS} were converted`);
  for (const item of feed.items.slice(0, MAX_ITEMS)) {
    ctx.signal.throwIfAborted();
    const link = item.link ? absolute(item.link, base) : "";
    blocks.push(
      heading(2, escapeText(item.title || "(untitled)")),
      metadataBlock([["Published", item.date], ["Author", item.author], ["Link", link]]),
      itemMarkdown(item.html, link || base, warnings),
    );
  }
  const markdown = joinBlocks(blocks);
  if (!feed.title && feed.items.length === 0) throw new AppError("empty_document", `${what}: the feed has no title and no items`);
  return { markdown: tidyMarkdown(markdown), title: feed.title || null, totalPages: 0, method: "feed", warnings };
};

function itemMarkdown(html: string, base: string | undefined, warnings: string[]): string {
  if (!html.trim()) return "";
  const result = htmlToMarkdown(html, { baseUrl: base, mainContent: false });
  warnings.push(...result.warnings);
  // Headings inside an item sit below the item's own "##".
  return result.markdown.replace(/^(#{1,4}) /gm, "$1## ").trim();
}

function absolute(link: string, base: string | undefined): string {
  try {
    return new URL(link, base).href;
  } catch {
    return link;
  }
}
