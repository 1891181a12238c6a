/**
 * boilerplateChrome: page chrome by markup and by name. A tag (nav, footer, aside, ...), an ARIA role,
 * a class that hides the element, or a word of its class or id ("sidebar", "share", "cookie") marks
 * an element as chrome (chromeKind); inside an article a chrome-like name on a block that holds much
 * of its text, or running text, is a layout wrapper instead (chromeWithin).
 */
import { countChars } from "./boilerplateText";
import { type DomElement, type DomNode, DROPPED_TAGS } from "./htmlDom";

const BOILERPLATE_TAGS = new Set(["nav", "footer", "aside", "form", "menu", "dialog", "fieldset"]);
const BOILERPLATE_ROLES = new Set([
  "navigation", "contentinfo", "complementary", "search", "menu", "menubar", "dialog", "alertdialog", "toolbar", "banner",
]);
/** BOILERPLATE_WORDS: a class or id made of one of these words (alone or between -, _ or case changes) marks boilerplate */
const BOILERPLATE_WORDS = new Set([
  "nav", "navbar", "navbox", "navigation", "navpanel", "menu", "menubar", "submenu", "megamenu", "breadcrumb", "breadcrumbs",
  "sidebar", "sidenav", "footer", "masthead", "share", "sharing", "sharebar", "social", "socials", "related", "recommended",
  "recommendations", "comment", "comments", "kommentar", "kommentare", "comentarios", "commentaires", "commenti", "komentarze", "disqus", "cookie", "cookies", "consent", "gdpr", "newsletter", "emailcapture", "optin", "subscribe",
  "subscription", "signup", "ad", "ads", "advert", "adverts", "advertisement", "adsbygoogle", "sponsor", "sponsored", "promo",
  "popup", "modal", "toolbar", "skip", "jump", "pagination", "pager", "widget", "widgets", "tags", "editsection",
  "catlinks", "noprint", "printfooter", "banner", "outbrain", "taboola", "toc", "sitenotice", "authority",
  "rating", "ratings", "crumb", "crumbs", "onetrust", "cookiebot", "cookielaw", "didomi", "usercentrics", "truste", "sharethis", "addthis", "addtoany", "shareaholic",
]);
/**
 * AUTHOR_BOX: the author's box under an article (portrait, bio, "more posts by"), named in a class or
 * id: "author-bio", "author-box", "about-the-author", "post-author", "author-blurb", "saboxplugin-wrap" and "m-a-box" (WordPress plugins).
 */
const AUTHOR_BOX = /(?:^|[\s_-])(?:author|autor|autorin)[-_]?(?:bio|box|info|description|card|about|details|profile|blurb)\b|about[-_]?(?:the[-_]?)?author|\b(?:post|entry|article)[-_]author\b|saboxplugin|\bm-a-box\b/i;
/**
 * HIDDEN_NAMES: a class that hides its element from the eye, as words (nameWords) after any short
 * namespace prefix ("u-", "is-", "o-", "h-", "uk-"): screen-reader-only text ("sr-only", "visually-hidden",
 * "element-invisible", "assistive-text"; "Skip to content", "Ende der weiteren Informationen") and the
 * plain hiding classes ("hidden", "hide", "hideCompletely"). A class with a breakpoint or a medium
 * after the word ("hidden-xs", "hide-for-print", "field--label-hidden") hides it only somewhere or
 * hides something else: not these.
 */
const HIDDEN_NAMES = new Set([
  "sr only", "sr only focusable", "sr text", "screen reader text", "screen reader only", "screenreader text", "screenreader only", "screenreader",
  "visually hidden", "visuallyhidden", "element invisible", "element hidden", "assistive text", "offscreen", "invisible",
  "hidden", "hide", "hide completely", "hidden completely", "hide text", "hidden text", "hidden link text",
]);
/** HIDDEN_PREFIXES: a namespace word before a hiding class ("u-screen-reader-text", "is-hidden", "sharing-screen-reader-text") */
const HIDDEN_PREFIXES = new Set(["u", "is", "o", "h", "uk", "c", "t", "a", "js", "sharing", "avia", "sbi", "wp"]);

/**
 * SHOWN_AT_BREAKPOINT: a utility class that shows the element again on some screens ("hidden md:block",
 * "invisible lg:visible" in Tailwind): such an element is hidden only on small screens.
 */
const SHOWN_AT_BREAKPOINT = /^(?:[\w-]+:)+(?:block|inline|inline-block|flex|inline-flex|grid|inline-grid|table|contents|flow-root|visible)$/;

/** hasHiddenName: one of the element's classes hides it from the eye (HIDDEN_NAMES), and none shows it again on some screens. */
export function hasHiddenName(cls: string): boolean {
  const names = cls.split(/\s+/);
  if (names.some((name) => SHOWN_AT_BREAKPOINT.test(name))) return false;
  for (const name of names) {
    if (!name) continue;
    const words = nameWords(name).filter(Boolean);
    let from = 0;
    while (from < words.length - 1 && HIDDEN_PREFIXES.has(words[from]!)) from++;
    if (HIDDEN_NAMES.has(words.slice(from).join(" "))) return true;
  }
  return false;
}
/** KEEP_TAGS: the page's and the article's frame, never chrome (and where a climb from a link to its bar stops) */
export const KEEP_TAGS = new Set(["html", "body", "main", "article"]);
/** CONTENT_TAGS are never dropped for their class or id alone: headings and paragraphs carry theme classes too */
export const CONTENT_TAGS = new Set(["h1", "h2", "h3", "h4", "h5", "h6", "p", "pre", "code", "table", "thead", "tbody", "tr", "td", "th", "blockquote", "figure", "img"]);

/**
 * isBoilerplate says whether an element (with its subtree) is page chrome rather than content.
 * `header` elements count only outside an article: an article's own header holds its title.
 */
export function isBoilerplate(el: DomElement): boolean {
  return chromeKind(el) !== null;
}

/**
 * chromeKind says why an element is page chrome: "markup" when its tag, role or hidden class says
 * so, "name" when only a word of its class or id does ("TestReport__Section--Ads", "TOC_TITLE_1"),
 * which is weaker evidence; null when it is not chrome.
 */
export function chromeKind(el: DomElement): "markup" | "name" | null {
  const tag = el.nodeName.toLowerCase();
  if (KEEP_TAGS.has(tag)) return null;
  const role = el.getAttribute("role");
  if (role === "main" || role === "article") return null;
  // A form is a search box, a login or a sign-up, unless it wraps the page's text (ASP.NET pages, shop product forms).
  if (tag === "form") return isProse(el) ? null : "markup";
  if (BOILERPLATE_TAGS.has(tag)) return tag === "aside" && fillsMain(el) ? null : "markup";
  if (role && BOILERPLATE_ROLES.has(role) && !(role === "banner" && insideArticle(el))) return "markup";
  if (tag === "header" && !insideArticle(el)) return "markup";
  // A custom element named for chrome ("pp-navigation", "site-footer") is chrome by name.
  if (tag.includes("-") && hasBoilerplateName(tag)) return "name";
  const cls = el.getAttribute("class") ?? "";
  // Text a browser shows to no one but screen readers is not content, whatever the tag.
  if (cls && hasHiddenName(cls)) return "markup";
  // A paragraph's class or id rarely names chrome, but Readability turns wrapper divs into <p> (their names kept).
  if (tag === "p") return hasBoilerplateName(cls) || hasBoilerplateName(el.getAttribute("id") ?? "") ? "name" : null;
  if (CONTENT_TAGS.has(tag)) return null;
  if (/breadcrumb/i.test(el.getAttribute("itemtype") ?? "")) return "markup";
  if (/cookie|consent|breadcrumb/i.test(el.getAttribute("aria-label") ?? "")) return "markup";
  if (AUTHOR_BOX.test(cls) || AUTHOR_BOX.test(el.getAttribute("id") ?? "")) return "markup";
  return hasBoilerplateName(cls) || hasBoilerplateName(el.getAttribute("id") ?? "") ? "name" : null;
}

/** FILLS_MAIN_SHARE: an <aside> holding this share of its <main> parent's text is the main content's wrapper, not a sidebar */
const FILLS_MAIN_SHARE = 0.8;

/** fillsMain: the element is a child of <main> (or role=main) and holds nearly all of its text. */
function fillsMain(el: DomElement): boolean {
  const parent = el.parentNode as DomElement | null;
  if (!parent || parent.nodeType !== 1) return false;
  if (parent.nodeName.toLowerCase() !== "main" && parent.getAttribute("role") !== "main") return false;
  const total = countChars(parent.textContent ?? "");
  return total > 0 && countChars(el.textContent ?? "") >= FILLS_MAIN_SHARE * total;
}

/** PROSE_MIN_CHARS, PROSE_MAX_LINK_DENSITY: a block with this much paragraph text and few links reads as article text */
const PROSE_MIN_CHARS = 300;
const PROSE_MAX_LINK_DENSITY = 0.2;

/**
 * isProse: the element holds paragraphs of running text (at least PROSE_MIN_CHARS non-space
 * characters in <p> outside links) and few links. Chrome (menus, share bars, teaser lists,
 * newsletter boxes) is short or made of links; a section of the article is not.
 */
export function isProse(el: DomElement): boolean {
  let text = 0;
  let links = 0;
  let paragraphs = 0;
  const stack: Array<[DomNode, boolean, boolean]> = [[el, false, false]];
  while (stack.length > 0) {
    const [node, inLink, inParagraph] = stack.pop()!;
    const kids = node.childNodes;
    for (let i = 0; i < kids.length; i++) {
      const kid = kids[i]!;
      if (kid.nodeType === 3) {
        const n = countChars(kid.textContent ?? "");
        text += n;
        if (inLink) links += n;
        else if (inParagraph) paragraphs += n;
      } else if (kid.nodeType === 1) {
        const tag = kid.nodeName.toLowerCase();
        if (DROPPED_TAGS.has(tag)) continue;
        stack.push([kid, inLink || tag === "a", inParagraph || tag === "p" || tag === "li" || tag === "dd" || tag === "blockquote"]);
      }
    }
  }
  return paragraphs >= PROSE_MIN_CHARS && links <= PROSE_MAX_LINK_DENSITY * text;
}

/** nameWords splits one class or id into lower-case words at dashes, underscores, colons, dots and camelCase ("TestReport__Section" -> test, report, section). */
export function nameWords(name: string): string[] {
  return name.replace(/([a-z])([A-Z])/g, "$1-$2").toLowerCase().split(/[-_:.]+/);
}

/** hasBoilerplateName: one of the class or id names holds a BOILERPLATE_WORDS word (alone or split in two). */
function hasBoilerplateName(names: string): boolean {
  if (!names) return false;
  for (const name of names.split(/\s+/)) {
    if (!name) continue;
    const words = nameWords(name);
    for (let i = 0; i < words.length; i++) {
      // "above-footer", "before-footer": the region between header and footer, where the article sits.
      if (words[i] === "footer" && i > 0 && (words[i - 1] === "above" || words[i - 1] === "before")) continue;
      if (BOILERPLATE_WORDS.has(words[i]!)) return true;
      // A chrome word split in two ("news-letter-section", "side-bar") is that word.
      if (i + 1 < words.length && BOILERPLATE_WORDS.has(words[i]! + words[i + 1]!)) return true;
    }
  }
  return false;
}

/** insideArticle: the element sits inside an <article>, a <main> or a role=main block. */
function insideArticle(el: DomElement): boolean {
  for (let p = el.parentNode; p && p.nodeType === 1; p = p.parentNode) {
    const tag = p.nodeName.toLowerCase();
    if (tag === "article" || tag === "main") return true;
    if ((p as DomElement).getAttribute("role") === "main") return true;
  }
  return false;
}

/**
 * chromeWithin is the chrome test inside an article of `total` characters: a chrome-like class name
 * ("post-related-wrap", "item-content__row--sidebar") on a block that holds much of the article's
 * text, or running text, names a layout wrapper, not chrome. Memoized per element.
 */
export function chromeWithin(total: number, byName = true): (el: DomElement) => boolean {
  const seen = new Map<DomElement, boolean>();
  return (el) => {
    let chrome = seen.get(el);
    if (chrome === undefined) {
      const kind = chromeKind(el);
      chrome = kind !== null && (byName || kind === "markup") && !holdsMuchOf(el, total) && !(kind === "name" && isProse(el));
      seen.set(el, chrome);
    }
    return chrome;
  };
}

/** WRAPPER_SHARE: a block with a chrome-like name holding more than this share of the article's text is a wrapper of content */
const WRAPPER_SHARE = 0.3;

/** holdsMuchOf: the element is not a chrome tag (nav, footer, aside, ...) and holds over WRAPPER_SHARE of `total` characters. */
function holdsMuchOf(el: DomElement, total: number): boolean {
  if (BOILERPLATE_TAGS.has(el.nodeName.toLowerCase())) return false;
  return countChars(el.textContent ?? "") > WRAPPER_SHARE * total;
}
