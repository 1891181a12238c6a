/**
 * HTML -> markdown: parse with linkedom, keep the main content (boilerplate.ts) or the whole body or
 * the elements a CSS selector names, and write markdown with our own walker (htmlDom.ts). Links and
 * images come out absolute, resolved against <base href> and the page URL.
 */
import { parseHTML } from "linkedom";
import { AppError } from "../errors";
import { findMainContent } from "./boilerplate";
import { isBoilerplate } from "./boilerplateChrome";
import { trimArticleEdges } from "./boilerplateEdges";
import { isHeadlineCopy, pageTitlesOf, titleMatcher } from "./boilerplateLead";
import { stripPageChrome } from "./boilerplatePageChrome";
import { countChars } from "./boilerplateText";
import { scriptArticle, type ScriptArticle } from "./scriptArticle";
import { renderMarkdown, type DomElement, type DomNode } from "./htmlDom";
import { textHeading, joinBlocks, tidyMarkdown } from "./markdown";
import { decodeText } from "./charset";
import type { Converter } from "./types";

/** HtmlOptions choose what part of a page becomes markdown. */
export interface HtmlOptions {
  /** baseUrl: the page's URL, to make relative links and images absolute */
  baseUrl?: string;
  /** mainContent: keep only the main content (no navigation, footers, ads); false keeps the whole body */
  mainContent: boolean;
  /** selector: convert only the elements matching this CSS selector (overrides mainContent) */
  selector?: string;
  /**
   * document: the HTML is a file the user uploaded (a saved article, a spec or manual page), not a
   * page fetched by URL: with mainContent, the whole body but the page's own chrome (siteChrome) is
   * the document, its contents box, side notes and notes lists (in their place) included; boilerplate removal
   * (findMainContent) is for web pages fetched by URL.
   */
  document?: boolean;
}

/** htmlToMarkdown converts one HTML document (or fragment) to tidy markdown. */
export function htmlToMarkdown(html: string, opts: HtmlOptions): { markdown: string; title: string | null; warnings: string[] } {
  const warnings: string[] = [];
  const document = parseDocument(html);
  const title = pageTitle(document);
  const baseUrl = effectiveBase(document, opts.baseUrl);
  const walk = { baseUrl };
  let body: string;
  if (opts.selector !== undefined && opts.selector.trim() !== "") {
    body = renderMarkdown(selected(document, opts.selector), walk);
  } else if (!opts.mainContent) {
    body = renderMarkdown([bodyOf(document)], walk);
  } else if (opts.document) {
    body = renderMarkdown([bodyOf(document)], { baseUrl, skip: siteChromeTest(), notesInPlace: true });
    // a document without a top heading is named by its <title>, as a web page is
    if (!/^# /m.test(body)) body = withTitleHeading(body, title);
  } else {
    const headline = headingText(titledH1(document) ?? firstH1(document));
    const fromScripts = scriptArticle(document, [title ?? "", headline ?? ""]);
    stripPageChrome(document);
    const main = findMainContent(document, () => stripPageChrome(parseDocument(html)));
    body = renderMarkdown(main.roots, { baseUrl, skip: main.skip });
    const extracted = markdownChars(body);
    const wanting = extracted < SHORT_EXTRACTION_CHARS ? SCRIPT_ARTICLE_GROWTH : SCRIPT_ARTICLE_GROWTH_OVER_LONG;
    if (fromScripts && fromScripts.chars >= SCRIPT_ARTICLE_MIN_CHARS && fromScripts.chars >= wanting * extracted && isPageStory(fromScripts, body)) {
      // The page draws its article from a data script (an empty app root, a teaser, page 1 of 30):
      // the script's article, converted like any HTML, holds clearly more of it.
      const fromData = renderMarkdown([bodyOf(parseDocument(fromScripts.html))], walk);
      if (markdownChars(fromData) >= wanting * extracted) {
        body = fromData;
        warnings.push("the article was read from the page's data script (the served page shows little of it)");
      }
    }
    const notes = FOOTNOTE_DEFINITIONS.exec(body)?.[0] ?? "";
    body = trimArticleEdges(body.slice(0, body.length - notes.length), /^# /m.test(body) ? null : (headline ?? title)) + notes;
    if (!/^# /m.test(body)) body = withTitleHeading(body, headline ?? title);
    if (main.method === "density") warnings.push("main content found by text density (Readability found no article)");
    if (!body.trim()) {
      // Everything looked like boilerplate (a page that is only a menu): better the whole page than nothing.
      body = renderMarkdown([bodyOf(parseDocument(html))], walk);
      if (body.trim()) warnings.push("no main content found; the whole page was converted");
    }
  }
  const markdown = body.trim() ? tidyMarkdown(body) : "";
  return { markdown, title, warnings };
}

/** SITE_CHROME_ROLES: the landmark roles of a site's own parts around a document (its menus, banner, footer, search box) */
const SITE_CHROME_ROLES = /^\s*(?:navigation|banner|contentinfo|search)\s*$/i;
/** PRINT_HIDDEN: the class a page gives what it leaves out of a printed copy (MediaWiki's "noprint", Bootstrap's "d-print-none" and "hidden-print"): the page's furniture, not its document */
const PRINT_HIDDEN = /(?:^|\s)(?:noprint|no-print|d-print-none|hidden-print|print-hidden)(?:\s|$)/i;
/** SKIP_LINK: the text of a link that jumps within the page past the site's menus ("Skip to main content", "Jump to navigation") */
const SKIP_LINK = /^\s*(?:skip|jump) to\b/i;

/**
 * siteChromeTest: what an uploaded saved page holds around its document that is the site's, not the
 * document's: a <nav>, an element whose role names a site landmark (navigation, banner, contentinfo,
 * search), outside the page's <main>, role=main or <article> (a navigation box inside the article, a
 * wiki's links to related articles, is the document's), and a link that skips to a place in the
 * page, and what the page leaves out of a printed copy (PRINT_HIDDEN: edit links, "48 years ago" after a
 * date, portal boxes). Nothing is judged by its text's length or its links' share: a document's table of contents,
 * lists of links and short notes stay. Whether an element is inside the main part is remembered for
 * each element asked about and its ancestors, so deep pages cost one walk up.
 */
function siteChromeTest(): (el: DomElement) => boolean {
  const inMain = new Map<DomNode, boolean>();
  const insideMain = (el: DomElement): boolean => {
    const path: DomNode[] = [];
    let answer = false;
    for (let node: DomNode | null = el.parentNode; node; node = node.parentNode) {
      const known = inMain.get(node);
      if (known !== undefined) {
        answer = known;
        break;
      }
      path.push(node);
      if (node.nodeType === 1 && isMainPart(node as DomElement)) {
        answer = true;
        break;
      }
    }
    for (const node of path) inMain.set(node, answer);
    return answer;
  };
  return (el) => {
    const tag = el.tagName.toLowerCase();
    if (PRINT_HIDDEN.test(el.getAttribute("class") ?? "")) return true;
    if (tag === "a") return (el.getAttribute("href") ?? "").startsWith("#") && SKIP_LINK.test(el.textContent ?? "");
    if (tag !== "nav" && !SITE_CHROME_ROLES.test(el.getAttribute("role") ?? "")) return false;
    return !insideMain(el);
  };
}

/** isMainPart: the element is the page's main part or an article (<main>, role=main, <article>) */
function isMainPart(el: DomElement): boolean {
  const tag = el.tagName.toLowerCase();
  return tag === "main" || tag === "article" || /^\s*main\s*$/i.test(el.getAttribute("role") ?? "");
}

/** SCRIPT_ARTICLE_MIN_CHARS: an article from a data script counts from this many non-space characters */
const SCRIPT_ARTICLE_MIN_CHARS = 500;
/**
 * SCRIPT_ARTICLE_GROWTH: the data script's article replaces a short extraction (under
 * SHORT_EXTRACTION_CHARS non-space characters: a shell, a teaser, page 1 of many) when it holds this
 * many times its text; a longer extraction is a real article and gives way only to
 * SCRIPT_ARTICLE_GROWTH_OVER_LONG times its text (a paywalled page whose data holds the whole story).
 */
const SCRIPT_ARTICLE_GROWTH = 2;
const SHORT_EXTRACTION_CHARS = 1500;
const SCRIPT_ARTICLE_GROWTH_OVER_LONG = 4;

/** STORY_PROBE_CHARS: a paragraph of the extraction this long (characters) is looked up in the data script's article */
const STORY_PROBE_CHARS = 60;

/**
 * isPageStory: the data script's article is the page's own story, not another one the page's data
 * carries (a related article, a product's long description): an object on its way holds the page's
 * title or headline, or the article holds a paragraph of what was extracted from the page.
 */
function isPageStory(article: ScriptArticle, extracted: string): boolean {
  const norm = (text: string) => text.replace(/\s+/g, " ").trim().toLowerCase();
  if (article.titled) return true;
  const text = norm(article.text);
  return extracted.split(/\n\s*\n/).some((block) => {
    if (/^\s*(?:#|!\[)/.test(block)) return false;
    const probe = norm(block.replace(/\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/[\\*_`]/g, ""));
    return probe.length >= STORY_PROBE_CHARS && text.includes(probe.slice(0, STORY_PROBE_CHARS));
  });
}

/** markdownChars: the text of markdown in non-space characters, link targets and images left out */
function markdownChars(markdown: string): number {
  return countChars(markdown.replace(/!\[[^\]]*\]\([^)]*\)/g, "").replace(/\]\([^)]*\)/g, "]").replace(/<\/?su[bp]>/g, ""));
}

/** FOOTNOTE_DEFINITIONS: the block of `[^label]: text` lines the walker puts last (kept out of the article-edge trimming) */
const FOOTNOTE_DEFINITIONS = /\n\n(?:\[\^[^\]\s]+\]: [^\n]*(?:\n|$))+$/;

/**
 * parseDocument parses a page or a fragment (asDocument) with linkedom and repairs the tree so that
 * <head> and <body> are the first two children of <html>: linkedom's document.body getter otherwise
 * creates an empty body when anything (a stray <script>) precedes <head>, and Readability then sees
 * an empty page.
 */
export function parseDocument(html: string): Document {
  const document = parseTree(html);
  unwrapProseNoscript(document);
  return document;
}

/** NOSCRIPT_PROSE_CHARS: a <noscript> with this much paragraph text (non-space characters) holds the page's text, not a notice */
const NOSCRIPT_PROSE_CHARS = 200;

/**
 * unwrapProseNoscript: some platforms (Blogger, script-rendered magazines) serve the article inside
 * <noscript> and draw it with a script; a reader without scripts sees that text. A <noscript> whose
 * paragraphs hold NOSCRIPT_PROSE_CHARS or more is replaced by its content; the usual ones (a
 * tracking pixel, "Please enable JavaScript") stay and are dropped as before.
 */
function unwrapProseNoscript(document: Document): void {
  for (const noscript of Array.from(document.body?.querySelectorAll("noscript") ?? [])) {
    let chars = 0;
    for (const p of Array.from(noscript.querySelectorAll("p"))) chars += (p.textContent ?? "").replace(/\s+/g, "").length;
    if (chars >= NOSCRIPT_PROSE_CHARS) noscript.replaceWith(...Array.from(noscript.childNodes));
  }
}

function parseTree(html: string): Document {
  const { document } = parseHTML(asDocument(withoutStrayEndTags(html)));
  const root = document.documentElement;
  if (!root) return document;
  // linkedom splits text at character references ("&lt;img" is "<" then "img"): joined again, the
  // walker's escaping sees "<img" whole, so escaped markup never comes out as raw HTML.
  root.normalize();
  const kids = Array.from(root.children);
  let head = kids.find((k) => k.tagName === "HEAD") ?? null;
  let body = kids.find((k) => k.tagName === "BODY") ?? null;
  if (head && body) moveContentOutOfHead(head, body);
  if (head && body && kids[0] === head && kids[1] === body && kids.length === 2) return document;
  if (!head) head = document.createElement("head");
  const hadBody = body !== null;
  if (!body) body = document.createElement("body");
  const before: Element[] = [];
  const after: Element[] = [];
  let seenBody = false;
  for (const kid of kids) {
    if (kid === head) continue;
    if (kid === body) seenBody = true;
    else if (seenBody || !hadBody) after.push(kid);
    else if (/^(SCRIPT|STYLE|META|LINK|TITLE|BASE)$/.test(kid.tagName)) head.appendChild(kid);
    else before.push(kid);
  }
  body.prepend(...before);
  body.append(...after);
  root.prepend(head);
  head.after(body);
  moveContentOutOfHead(head, body);
  return document;
}

/** VOID_TAGS: elements with no end tag */
const VOID_TAGS = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"]);
/** RAW_TEXT_TAGS: elements whose content is text up to their end tag (no tags inside) */
const RAW_TEXT_TAGS = new Set(["script", "style", "textarea", "title", "xmp"]);
/** SCOPE_TAGS: an end tag does not reach an element outside these (the HTML parser's "in scope") */
const SCOPE_TAGS = new Set(["table", "td", "th", "caption", "applet", "marquee", "object", "template"]);
/** TABLE_TAGS: end tags of a table's own parts, which close it as the table parser does */
const TABLE_TAGS = new Set(["table", "tbody", "thead", "tfoot", "tr", "td", "th", "caption", "colgroup"]);
/** TAG_NAME: a tag's name, read where a tag opens */
const TAG_NAME = /[a-zA-Z][a-zA-Z0-9:-]*/y;

/**
 * withoutStrayEndTags drops the end tags a browser ignores because a table lies between them and the
 * element they name: an old page's `<center><table ...></center><tr>...` keeps its rows in the table in
 * a browser, while linkedom ends the table at `</center>` and strips its rows to loose cells. One pass
 * over the tags with a stack of open elements (comments and raw text skipped, found by indexOf: no
 * pattern runs twice over the same text); the text is returned unchanged when nothing is dropped.
 */
function withoutStrayEndTags(html: string): string {
  const lower = html.toLowerCase();
  const open: string[] = [];
  /** where each name is open on the stack, innermost last; scopes: where the scope elements are */
  const positions = new Map<string, number[]>();
  const scopes: number[] = [];
  const closeTo = (length: number) => {
    while (open.length > length) {
      const name = open.pop()!;
      positions.get(name)!.pop();
      if (SCOPE_TAGS.has(name)) scopes.pop();
    }
  };
  const dropped: [number, number][] = [];
  let at = lower.indexOf("<");
  while (at >= 0 && at < html.length - 1) {
    if (lower.startsWith("<!--", at)) {
      const end = lower.indexOf("-->", at + 4);
      if (end < 0) break;
      at = lower.indexOf("<", end + 3);
      continue;
    }
    const closing = html[at + 1] === "/";
    TAG_NAME.lastIndex = at + (closing ? 2 : 1);
    const name = TAG_NAME.exec(lower)?.[0];
    const end = lower.indexOf(">", at + 1);
    if (end < 0) break;
    if (!name) {
      at = lower.indexOf("<", end + 1);
      continue;
    }
    if (!closing) {
      if (RAW_TEXT_TAGS.has(name)) {
        const close = lower.indexOf(`</${name}`, end + 1);
        if (close < 0) break;
        at = close;
        continue;
      }
      if (!VOID_TAGS.has(name)) {
        const list = positions.get(name) ?? [];
        positions.set(name, list);
        list.push(open.length);
        if (SCOPE_TAGS.has(name)) scopes.push(open.length);
        open.push(name);
      }
    } else {
      const index = positions.get(name)?.at(-1);
      if (index !== undefined) {
        if (!TABLE_TAGS.has(name) && (scopes.at(-1) ?? -1) > index) dropped.push([at, end + 1]);
        else closeTo(index);
      }
    }
    at = lower.indexOf("<", end + 1);
  }
  if (!dropped.length) return html;
  let out = "";
  let from = 0;
  for (const [start, stop] of dropped) {
    out += html.slice(from, start);
    from = stop;
  }
  return out + html.slice(from);
}

/** HEAD_TAGS: the elements a <head> holds; any other one opens the body in a browser */
const HEAD_TAGS = /^(?:SCRIPT|STYLE|META|LINK|TITLE|BASE|NOSCRIPT|TEMPLATE)$/;

/**
 * moveContentOutOfHead: a browser ends the <head> at its first element that belongs in the body
 * ("<div>" before "<body>", or a page that opens <body> twice); linkedom keeps that content in
 * <head>, where the walker never reads it. It goes to the start of the body, with what follows it.
 */
function moveContentOutOfHead(head: Element, body: Element): void {
  const nodes = Array.from(head.childNodes);
  const first = nodes.findIndex((n) => n.nodeType === 1 && !HEAD_TAGS.test((n as Element).tagName));
  if (first < 0) return;
  body.prepend(...nodes.slice(first));
}

/**
 * withTitleHeading gives the main content its "# title": Readability demotes the article's h1 to h2,
 * so a leading "## <title>" is promoted; otherwise the title is added on top.
 */
function withTitleHeading(body: string, top: string | null): string {
  if (!top) return body;
  const first = /^## (.*)\n?/.exec(body.trimStart());
  const norm = (text: string) => text.replace(/[\\*_`[\]]/g, "").replace(/\s+/g, " ").trim().toLowerCase();
  if (first && norm(first[1]!) === norm(top)) return body.trimStart().replace(/^## /, "# ");
  return joinBlocks([textHeading(1, top), body]);
}

/**
 * asDocument wraps a fragment (no <body>) in a document, so linkedom builds a body for it, and gives
 * a page without an <html> tag one: linkedom otherwise makes its <head> the root and loses the body.
 */
function asDocument(html: string): string {
  const bodyTag = /<body[\s>][^>]*>?/i.exec(html);
  if (bodyTag) {
    const repaired = withOneBody(html, bodyTag.index + bodyTag[0].length);
    if (/<html[\s>]/i.test(repaired)) return repaired;
    return `<!DOCTYPE html><html>${withoutProlog(repaired)}</html>`;
  }
  const head = /<head[\s>][\s\S]*?<\/head>/i.exec(html)?.[0] ?? "";
  const rest = withoutProlog(html.replace(/<head[\s>][\s\S]*?<\/head>/i, "").replace(/<\/?html[^>]*>/gi, ""));
  return `<!DOCTYPE html><html><head>${head.replace(/^<head[^>]*>|<\/head>$/gi, "")}</head><body>${rest}</body></html>`;
}

/** DOCUMENT_TAG: an <html>, <head> or <body> tag, opening or closing */
const DOCUMENT_TAG = /<\/?(?:html|head|body)(?:\s[^>]*)?>/gi;
/** PROLOG: what may precede <html> without being content: doctype, XML declaration, comments, space */
const PROLOG = /^(?:\s+|<!doctype[^>]*>|<\?xml[^>]*\?>|<!--[\s\S]*?-->)*/i;

/**
 * withOneBody repairs what browsers forgive and linkedom does not: a second <html><body> pasted into
 * the article by a CMS (linkedom ends the page's body there; browsers ignore the tags), and markup
 * before <html> (a stray <style>, which leaves linkedom's body empty; browsers move it into the body).
 * `end` is where the page's first <body> tag ends.
 */
function withOneBody(html: string, end: number): string {
  const rest = html.slice(end).replace(DOCUMENT_TAG, "");
  let before = html.slice(0, end);
  const htmlTag = firstTagOutsideComments(before, "html");
  if (htmlTag) {
    const prolog = PROLOG.exec(before)![0].length;
    if (htmlTag.index > prolog) {
      // Stray markup before <html>: it goes to the top of the body, where browsers put it.
      const stray = before.slice(prolog, htmlTag.index);
      before = before.slice(0, prolog) + before.slice(htmlTag.index) + stray;
    }
  }
  return before + rest;
}

/**
 * firstTagOutsideComments finds the first opening `tag` that is not inside a comment: IE's
 * conditional comments ("<!--[if IE 7]><html class=ie7><![endif]-->") hold <html> tags that are not the page's.
 */
function firstTagOutsideComments(html: string, tag: string): { index: number } | null {
  const re = new RegExp(`<!--[\\s\\S]*?(?:-->|$)|<${tag}[\\s>]`, "gi");
  for (let m = re.exec(html); m; m = re.exec(html)) if (!m[0].startsWith("<!--")) return { index: m.index };
  return null;
}

/** withoutProlog drops a leading XML declaration and the doctype. */
function withoutProlog(html: string): string {
  return html.replace(/^\s*<\?xml[^>]*\?>/i, "").replace(/<!doctype[^>]*>/i, "");
}

function bodyOf(document: Document): DomNode {
  return (document.body ?? document.documentElement) as unknown as DomNode;
}

/** selected returns the outermost elements matching a CSS selector, in document order. */
function selected(document: Document, selector: string): DomNode[] {
  let found: DomElement[];
  try {
    found = Array.from(document.querySelectorAll(selector) as unknown as ArrayLike<DomElement>);
  } catch (cause) {
    throw new AppError("bad_request", `selector: '${selector}' is not a valid CSS selector; send a selector such as 'article' or '#content'`, { cause });
  }
  if (found.length === 0) throw new AppError("bad_request", `selector: '${selector}' matched nothing on the page`);
  const set = new Set<DomNode>(found);
  return found.filter((el) => {
    for (let p = el.parentNode; p; p = p.parentNode) if (set.has(p)) return false;
    return true;
  });
}

/** pageTitle is og:title, else <title>, else the first h1; null when the page names none. */
function pageTitle(document: Document): string | null {
  const og = document.querySelector('meta[property="og:title"]')?.getAttribute("content");
  const candidates = [og, document.querySelector("title")?.textContent, headingText(document.querySelector("h1"))];
  for (const c of candidates) {
    const clean = (c ?? "").replace(/\s+/g, " ").trim();
    if (clean) return clean;
  }
  return null;
}

/**
 * titledH1: the first h1 that the page's <title> or og:title names (titleMatcher) and that is no
 * chrome, else null. A site's menu may set its own h1 before the article's ("Ahora Últimas noticias"
 * above "Tendencia de precios de los combustibles ...", which the title repeats). A copy of the
 * headline in a <nav> (a sticky bar's, a breadcrumb trail's last item) or hidden from the eye
 * (isHeadlineCopy) gives way to a later one that is none, and is taken only when there is none.
 */
function titledH1(document: Document): Element | null {
  const matches = titleMatcher(pageTitlesOf(document));
  const h1s = document.querySelectorAll("h1");
  let copy: Element | null = null;
  for (let i = 0; i < h1s.length; i++) {
    const h1 = h1s[i]!;
    if (!matches(h1 as unknown as DomElement) || headingText(h1) === null) continue;
    if (!isHeadlineCopy(h1 as unknown as DomElement)) return h1;
    copy ??= h1;
  }
  return copy;
}

/** firstH1: the page's first h1 unless it sits in a <nav> or is hidden (a logo's h1 in the menu bar is not the page's heading); null then, and the page's title is used. */
function firstH1(document: Document): Element | null {
  const h1 = document.querySelector("h1");
  return h1 && !isHeadlineCopy(h1 as unknown as DomElement) ? h1 : null;
}

/** headingText: a heading's text, spaces normalised; null when it is empty or chrome itself (isBoilerplate). */
function headingText(el: Element | null): string | null {
  if (!el || isBoilerplate(el as unknown as DomElement)) return null;
  const text = (el.textContent ?? "").replace(/\s+/g, " ").trim();
  return text || null;
}

/** effectiveBase resolves <base href> against the page URL; relative bases without a URL are ignored. */
function effectiveBase(document: Document, pageUrl: string | undefined): string | undefined {
  const href = document.querySelector("base[href]")?.getAttribute("href")?.trim();
  if (!href) return pageUrl;
  try {
    return new URL(href, pageUrl).href;
  } catch {
    return pageUrl;
  }
}

/** META_CHARSET finds <meta charset="x"> or <meta http-equiv content="...; charset=x"> */
const META_CHARSET = /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i;

/** sniffCharset reads the charset an HTML document declares in its first 4 KB, if any. */
export function sniffCharset(bytes: Uint8Array): string | undefined {
  const head = new TextDecoder("windows-1252").decode(bytes.subarray(0, 4096));
  const meta = META_CHARSET.exec(head)?.[1];
  if (meta) return meta;
  return /^\s*<\?xml[^>]+encoding\s*=\s*["']([\w.:-]+)/i.exec(head)?.[1];
}

/**
 * convertHtml converts an HTML file: the bytes are decoded (BOM, the declared charset,
 * <meta charset>, then detection), and the page options of the request apply. An uploaded file (no
 * URL) is the user's document (HtmlOptions.document); a page fetched by URL (input.url) is a web page.
 */
export const convertHtml: Converter = async (input, ctx) => {
  ctx.signal.throwIfAborted();
  const html = decodeText(input.bytes, input.declaredCharset ?? sniffCharset(input.bytes)).text;
  ctx.signal.throwIfAborted();
  // an upload has no URL; a page fetched by URL (the service converts it here too) is a web page
  const result = htmlToMarkdown(html, { baseUrl: input.url, mainContent: ctx.page.mainContent, selector: ctx.page.selector, document: input.url === undefined });
  if (!result.markdown.trim()) {
    throw new AppError("empty_document", `HTML '${input.filename}' has no text to convert${ctx.page.mainContent ? " (try main_content=false to keep the whole page)" : ""}`);
  }
  return { markdown: result.markdown, title: result.title, totalPages: 0, method: "html", warnings: result.warnings };
};
