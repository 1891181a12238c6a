/**
 * scriptArticle: the article text a page carries only in its data scripts. Pages built with Next.js
 * (`__NEXT_DATA__`), Apollo or Redux (`window.__APOLLO_STATE__ = {...}`), React on Rails
 * (`data-react-props`) or schema.org markup (`application/ld+json` `articleBody`) serve the article
 * as a JSON string and draw it with a script; a reader without scripts (and our extraction of the
 * served HTML) sees an empty app root or a teaser.
 *
 * Nothing here runs page code: a script is read only when it is JSON, or one assignment of a JSON
 * object (`var article = {...};`), and JSON.parse reads it inside a try. Scripts over
 * MAX_SCRIPT_CHARS are left alone. The result is an HTML string that html.ts converts through the
 * same parse and markdown walk as the page (so no raw HTML and no script gets through).
 */
import { countChars } from "./boilerplateText";

/** MAX_SCRIPT_CHARS: a data script or attribute longer than this (UTF-16 units) is not parsed */
const MAX_SCRIPT_CHARS = 4_000_000;
/** MAX_SOURCES: at most this many data scripts and attributes are parsed on one page */
const MAX_SOURCES = 40;
/** MAX_DEPTH: JSON nested deeper than this is not walked */
const MAX_DEPTH = 40;
/** ARTICLE_KEYS: keys whose plain-text value is an article body (markup strings count under any key) */
const ARTICLE_KEYS = /^(?:articlebody|articletext|body|bodytext|bodyhtml|content|contenthtml|text|html|fulltext|story|storybody)$/i;
/** PLAIN_MIN_CHARS: a plain string under an article key counts from this many characters (a teaser's summary is shorter) */
const PLAIN_MIN_CHARS = 400;
/** MARKUP_MIN_CHARS: an HTML string counts from this many text characters */
const MARKUP_MIN_CHARS = 40;
/** BLOCK_MARKUP: an HTML string that holds paragraphs, headings or line breaks (entity-escaped too) */
const BLOCK_MARKUP = /(?:<|&lt;)(?:p|h[1-6]|br|li|blockquote)(?:\s|\/|>|&gt;)/i;
/** DOMINANT_SHARE: the walk descends into a child holding this share of its parent's article text */
const DOMINANT_SHARE = 0.8;

/** ScriptArticle: the article found in a page's data: HTML to convert and its text size (non-space characters) */
export interface ScriptArticle {
  html: string;
  chars: number;
  /** text: the article's text, spaces collapsed */
  text: string;
  /** titled: an object that holds the article carries the page's title (it is the page's story, not another one) */
  titled: boolean;
}

interface Piece {
  html: string;
  text: string;
}

interface Tree {
  pieces: Piece[];
  chars: number;
  children: Tree[];
  /** lead: the object's own summary (schema.org `description`), which its body often leaves out */
  lead?: string;
  /** headline: the object's own title */
  headline?: string;
}

/** HEADLINE_KEYS: keys of an article object's title */
const HEADLINE_KEYS = ["headline", "title", "name", "heading"];
/** HEADLINE_MAX_CHARS: a longer string is no title */
const HEADLINE_MAX_CHARS = 300;

/** LEAD_KEYS: keys of an article object's summary, shown above its body */
const LEAD_KEYS = ["description", "abstract", "summary", "lead", "dek", "standfirst", "subtitle"];
/** LEAD_MIN_CHARS: a summary counts from this many characters */
const LEAD_MIN_CHARS = 40;

/**
 * scriptArticle returns the longest article held in the page's data scripts, or null. Within one
 * JSON object the article is the smallest part holding nearly all of its article strings (a story's
 * pages or steps are read in order; a page state with the story and a few teasers gives the story).
 */
export function scriptArticle(document: Document, pageTitles: string[]): ScriptArticle | null {
  const titles = pageTitles.map(normalizeTitle).filter((t) => t.length >= TITLE_MIN_CHARS);
  let best: ScriptArticle | null = null;
  // Several data scripts may hold articles (the story and a related one): the longest wins here,
  // html.ts then checks that it is the page's story.
  for (const source of dataSources(document)) {
    let value: unknown;
    try {
      value = JSON.parse(source);
    } catch {
      continue;
    }
    const tree = walk(value, "", 0);
    if (!tree || tree.chars === 0) continue;
    const found = articleOf(tree, titles);
    if (!found) continue;
    if (!best || found.chars > best.chars) best = found;
  }
  return best;
}

/** dataSources: the JSON texts of the page's data scripts and data-react-props attributes, size-capped */
function dataSources(document: Document): string[] {
  const sources: string[] = [];
  for (const script of Array.from(document.querySelectorAll("script"))) {
    if (sources.length >= MAX_SOURCES) break;
    if (script.hasAttribute("src")) continue;
    const text = script.textContent ?? "";
    if (text.length > MAX_SCRIPT_CHARS || text.length < PLAIN_MIN_CHARS) continue;
    const type = (script.getAttribute("type") ?? "").trim().toLowerCase();
    if (type === "application/ld+json" || type === "application/json") sources.push(text.trim());
    else if (type === "" || type === "text/javascript" || type === "application/javascript") {
      const json = assignedObject(text);
      if (json) sources.push(json);
    }
  }
  for (const el of Array.from(document.querySelectorAll("[data-react-props]"))) {
    if (sources.length >= MAX_SOURCES) break;
    const text = el.getAttribute("data-react-props") ?? "";
    if (text.length >= PLAIN_MIN_CHARS && text.length <= MAX_SCRIPT_CHARS) sources.push(text);
  }
  return sources;
}

/** ASSIGNMENT: the start of a script that is one assignment of an object literal */
const ASSIGNMENT = /^\s*(?:(?:var|let|const)\s+[\w$]+|(?:window|self|globalThis)(?:\.[\w$]+|\[\s*["'][\w$]+["']\s*\])+)\s*=\s*(?=\{)/;

/** assignedObject: the object of `var x = {...};` or `window.__STATE__ = {...}`, when the script is nothing else */
function assignedObject(script: string): string | null {
  const head = ASSIGNMENT.exec(script);
  if (!head) return null;
  const rest = script.slice(head[0].length).trim().replace(/;\s*$/, "");
  return rest.endsWith("}") ? rest : null;
}

function walk(value: unknown, key: string, depth: number): Tree | null {
  if (depth > MAX_DEPTH) return null;
  if (typeof value === "string") {
    const piece = articlePiece(value, key);
    return piece ? { pieces: [piece], chars: countChars(piece.text), children: [] } : null;
  }
  if (value === null || typeof value !== "object") return null;
  const children: Tree[] = [];
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value as Record<string, unknown>);
  for (const [k, v] of entries) {
    const child = walk(v, Array.isArray(value) ? key : k, depth + 1);
    if (child && child.chars > 0) children.push(child);
  }
  if (children.length === 0) return null;
  const record = Array.isArray(value) ? {} : (value as Record<string, unknown>);
  const lead = LEAD_KEYS.map((k) => record[k]).find((v): v is string => typeof v === "string" && v.trim().length >= LEAD_MIN_CHARS && !/[<>]/.test(v));
  const headline = HEADLINE_KEYS.map((k) => record[k]).find((v): v is string => typeof v === "string" && v.trim().length >= 5 && v.length <= HEADLINE_MAX_CHARS);
  return { pieces: [], chars: children.reduce((n, c) => n + c.chars, 0), children, lead, headline };
}

/** articlePiece: a string that is article text: HTML with paragraphs (any key), or long prose under an article key */
function articlePiece(value: string, key: string): Piece | null {
  if (BLOCK_MARKUP.test(value)) {
    // Some platforms store the HTML entity-escaped inside the JSON ("&lt;p&gt;").
    const html = /<(?:p|h[1-6]|br|li|blockquote)[\s/>]/i.test(value) ? value : unescapeMarkup(value);
    const text = html.replace(/<[^>]*>/g, " ");
    return countChars(text) >= MARKUP_MIN_CHARS ? { html, text } : null;
  }
  if (!ARTICLE_KEYS.test(key) || value.length < PLAIN_MIN_CHARS) return null;
  // Prose: words with spaces, not a URL, a token or a base64 blob.
  if ((value.match(/\s/g)?.length ?? 0) < value.length / 12) return null;
  const html = value
    .split(/\n\s*\n|\r?\n/)
    .map((para) => para.trim())
    .filter((para) => para !== "")
    .map((para) => `<p>${escapeText(para)}</p>`)
    .join("");
  return { html, text: value };
}

/** TITLE_MIN_CHARS: a page title or headline shorter than this tells nothing */
const TITLE_MIN_CHARS = 10;

/**
 * articleOf: descend while one child holds nearly all article text (or, among several, the one
 * titled like the page: the story beside a related one), then read the pieces in order, each text
 * once. A part that holds several titled objects and none is the page's story is a listing (teasers,
 * related articles): null.
 */
function articleOf(tree: Tree, titles: string[]): ScriptArticle | null {
  const isPageTitle = (headline: string | undefined) => headline !== undefined && sameTitle(headline, titles);
  let node = tree;
  let lead = tree.lead;
  let titled = isPageTitle(tree.headline);
  // Once at the page's story object, its parts (summary, steps, pages) are all read.
  while (!titled) {
    const dominant = node.children.find((c) => c.chars >= DOMINANT_SHARE * node.chars) ?? node.children.find((c) => isPageTitle(c.headline));
    if (!dominant) break;
    node = dominant;
    if (node.children.length > 0) lead = node.lead;
    titled ||= isPageTitle(node.headline);
  }
  if (isStoryList(node)) return null;
  const parts: string[] = [];
  const seen: string[] = [];
  let chars = 0;

  const read = (t: Tree) => {
    for (const piece of t.pieces) {
      const text = piece.text.replace(/\s+/g, " ").trim();
      if (seen.some((s) => s.includes(text))) continue; // the same story twice (body and bodyHtml)
      seen.push(text);
      parts.push(piece.html);
      chars += countChars(text);
    }
    // A list of other stories inside the story's object (related articles, teasers) is not read.
    for (const child of t.children) if (!isStoryList(child)) read(child);
  };
  read(node);
  const normalLead = lead?.replace(/\s+/g, " ").trim();
  if (normalLead && !seen.some((s) => s.includes(normalLead))) {
    parts.unshift(`<p>${escapeText(normalLead)}</p>`);
    chars += countChars(normalLead);
  }
  return { html: parts.join("\n"), chars, text: seen.join(" "), titled };
}

/** isStoryList: a part that holds two or more titled objects (teasers, related articles) */
function isStoryList(tree: Tree): boolean {
  return tree.children.filter((c) => c.headline !== undefined).length >= 2;
}

function normalizeTitle(text: string): string {
  return text.replace(/\s+/g, " ").trim().toLowerCase();
}

/** sameTitle: the headline is one of the page's titles, or a part of one ("Title | Site"), or its start cut with "..." */
function sameTitle(headline: string, titles: string[]): boolean {
  const own = normalizeTitle(headline);
  const cut = own.replace(/\s*(?:\.\.\.|…)$/, "");
  if (cut.length < TITLE_MIN_CHARS) return false;
  return titles.some((t) => t.includes(cut) || (cut === own && own.includes(t)));
}

function unescapeMarkup(text: string): string {
  return text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&amp;/g, "&");
}

function escapeText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

