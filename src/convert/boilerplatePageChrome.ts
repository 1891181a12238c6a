/**
 * boilerplatePageChrome: page chrome recognised by its content: share bars, breadcrumb trails and
 * cookie banners often carry class names no word list foresees ("td-post-sharing-visible", "path",
 * "cc-window"). html.ts strips them from the parsed page before the main content is looked for.
 */
import { countChars } from "./boilerplateText";
import type { DomElement } from "./htmlDom";

/** SHARE_TARGETS are the "share this page" endpoints of social networks and mail. */
const SHARE_TARGETS = [
  /facebook\.com\/(?:sharer|share\.php|dialog\/(?:share|feed))/i, /(?:twitter|x)\.com\/(?:intent\/|share\b)/i,
  /(?:api\.whatsapp\.com\/send|wa\.me\/\?|^whatsapp:)/i, /pinterest\.[a-z.]+\/pin\/create/i, /linkedin\.com\/(?:shareArticle|sharing\/share)/i,
  /reddit\.com\/submit/i, /(?:t|telegram)\.me\/share/i, /tumblr\.com\/(?:share|widgets\/share)/i, /vk\.com\/share\.php/i,
  /getpocket\.com\/(?:save|edit)/i, /line\.me\/R\/msg/i, /^mailto:\?/i, /news\.ycombinator\.com\/submitlink/i, /bsky\.app\/intent/i,
];
/** SHARE_WORDS: the whole text of a share bar whose buttons are scripts, not links ("Whatsapp Facebook Pint Baixar"). */
const SHARE_WORDS = new Set([
  "share", "shares", "sharing", "compartilhe", "compartilhar", "partager", "teilen", "condividi", "compartir", "delen", "udostępnij",
  "whatsapp", "facebook", "twitter", "x", "pinterest", "pint", "pin", "linkedin", "telegram", "reddit", "tumblr", "email", "e-mail", "mail",
  "print", "imprimir", "drucken", "imprimer", "messenger", "copy", "link", "copiar", "baixar", "download", "flipboard", "pocket", "vk", "line", "sms", "on", "this", "article", "via",
]);
const SOCIAL_NETWORKS = new Set(["whatsapp", "facebook", "twitter", "pinterest", "pint", "linkedin", "telegram", "reddit", "tumblr", "messenger", "flipboard", "vk"]);
/** SHARE_MAX_CHARS, TRAIL_MAX_CHARS, COOKIE_MAX_CHARS (non-space characters): share bars, trails and cookie banners are short; a longer block is content */
const SHARE_MAX_CHARS = 200;
const TRAIL_MAX_CHARS = 300;
const COOKIE_MAX_CHARS = 1500;
const TRAIL_SEPARATOR = /^[\s›»>/→|·•:-]*$/;
const ACCEPT_LABEL = /^\s*(?:accept|agree|allow|i agree|i accept|ok|okay|got it|understood|aceitar|aceptar|akzeptieren|zustimmen|accepter|j'accepte|accetta|accetto|godkänn|zgadzam|akkoord)\b/i;
const STRUCTURAL = new Set(["html", "body", "main", "article"]);

/**
 * stripPageChrome removes share bars, breadcrumb trails and cookie banners from a parsed page, by
 * what they hold: links to share endpoints (or only network names), links between separators, a
 * short block about cookies with an "Accept" control. Returns the document, changed in place.
 */
export function stripPageChrome(document: Document): Document {
  const body = document.body as unknown as DomElement | null;
  if (!body) return document;
  const doomed = new Set<Element>();
  const text = subtreeTexts(body as unknown as Node);
  for (const link of Array.from(document.querySelectorAll("a[href]"))) {
    const href = link.getAttribute("href") ?? "";
    if (SHARE_TARGETS.some((re) => re.test(href))) doomed.add(shareBarOf(link));
  }
  for (const el of Array.from(document.querySelectorAll("ul, ol, div, p, span, section"))) {
    if (isShareWords(el, text) || isTrail(el, text)) doomed.add(el);
  }
  for (const control of Array.from(document.querySelectorAll("button, a, [role=button], input[type=button], input[type=submit]"))) {
    const label = control.getAttribute("value") ?? control.textContent ?? "";
    if (ACCEPT_LABEL.test(label)) {
      const banner = cookieBannerOf(control);
      if (banner) doomed.add(banner);
    }
  }
  for (const el of doomed) el.remove();
  return document;
}

/** shareBarOf climbs from a share link to the largest ancestor that is still only a short bar (no paragraph or heading). */
function shareBarOf(link: Element): Element {
  let bar: Element = link;
  for (let p = link.parentElement; p && !STRUCTURAL.has(p.tagName.toLowerCase()); p = p.parentElement) {
    if (countChars(p.textContent ?? "") > SHARE_MAX_CHARS || p.querySelector("p, h1, h2, h3, h4, h5, h6, article, main")) break;
    bar = p;
  }
  return bar;
}

/**
 * subtreeTexts gives every node under `root` its text (what textContent gives), built once from the
 * leaves up: asking each element for its textContent walks its whole subtree, which on a page of
 * elements nested thousands deep is quadratic (10 000 nested divs: seconds). The strings are joined,
 * not copied, by the engine. Iterative, so depth cannot exhaust the stack.
 */
function subtreeTexts(root: Node): Map<Node, string> {
  const texts = new Map<Node, string>();
  // each node's children are listed once (a DOM's childNodes may be built anew on every read)
  const stack: Array<{ node: Node; kids: Node[]; next: number }> = [{ node: root, kids: Array.from(root.childNodes), next: 0 }];
  while (stack.length) {
    const top = stack[stack.length - 1]!;
    const kids = top.kids;
    if (top.next < kids.length) {
      const kid = kids[top.next++]!;
      if (kid.nodeType === 3 || kid.nodeType === 4) texts.set(kid, kid.nodeValue ?? "");
      else if (kid.nodeType === 1) stack.push({ node: kid, kids: Array.from(kid.childNodes), next: 0 });
      continue;
    }
    stack.pop();
    let joined = "";
    for (let i = 0; i < kids.length; i++) joined += texts.get(kids[i]!) ?? "";
    texts.set(top.node, joined);
  }
  return texts;
}

/** isShareWords: a short block whose words are all share words, naming at least two networks (`texts`: subtreeTexts of the page). */
function isShareWords(el: Element, texts: Map<Node, string>): boolean {
  const text = texts.get(el) ?? el.textContent ?? "";
  if (text.length > SHARE_MAX_CHARS) return false;
  const words = text.toLowerCase().split(/[\s|·•,/]+/).filter(Boolean);
  if (words.length < 2 || !words.every((w) => SHARE_WORDS.has(w))) return false;
  return new Set(words.filter((w) => SOCIAL_NETWORKS.has(w))).size >= 2;
}

/**
 * isTrail: a breadcrumb trail, two or more links between separators ("Home › News › World"),
 * optionally ending in the current page's name, and nothing else.
 */
function isTrail(el: Element, texts: Map<Node, string>): boolean {
  const textOf = (node: Node) => texts.get(node) ?? node.textContent ?? "";
  if (textOf(el).length > TRAIL_MAX_CHARS) return false;
  let links = 0;
  let separators = 0;
  let others = 0;
  for (const kid of Array.from(el.childNodes)) {
    if (kid.nodeType === 3) {
      const text = textOf(kid);
      if (!text.trim()) continue;
      if (!TRAIL_SEPARATOR.test(text)) return false;
      separators++;
    } else if (kid.nodeType === 1) {
      const child = kid as Element;
      const text = textOf(child).trim();
      if (!text) continue;
      if (child.tagName === "A" || (child.children.length === 1 && child.children[0]!.tagName === "A" && textOf(child.children[0]!).trim() === text)) links++;
      else if (TRAIL_SEPARATOR.test(text)) separators++;
      else if (others === 0 && !(kid.nextSibling ? textOf(kid.nextSibling).trim() : "")) others++;
      else return false;
    }
  }
  return links >= 2 && separators >= links - 1 + others;
}

/**
 * cookieBannerOf finds the short block around an "Accept" control that talks about cookies, if any:
 * the first ancestor that mentions them, widened to wrappers that add little text of their own.
 */
function cookieBannerOf(control: Element): Element | null {
  let banner: Element | null = null;
  let bannerChars = 0;
  for (let p = control.parentElement; p && !STRUCTURAL.has(p.tagName.toLowerCase()); p = p.parentElement) {
    const chars = countChars(p.textContent ?? "");
    if (chars > COOKIE_MAX_CHARS || (banner && (chars > 1.2 * bannerChars || p.querySelector("h1, article, main")))) break;
    if (banner || /\bcookies?\b|\bconsent\b|\bdatenschutz\b/i.test(p.textContent ?? "")) {
      banner = p;
      bannerChars = chars;
    }
  }
  return banner;
}
