/**
 * boilerplatePageChrome: page chrome recognised by its content: share bars, breadcrumb trails,
 * cookie banners and their re-open buttons, notices that the browser is outdated, and author boxes
 * often carry class names no word list foresees ("td-post-sharing-visible", "path", "cc-window",
 * "IE-overlay", "highlight"). html.ts strips them from the parsed page before the main content is
 * looked for (Readability drops a box's label and keeps the rest, which is then known by nothing).
 */
import { KEEP_TAGS } from "./boilerplateChrome";
import { countChars, normalizeSpace } from "./boilerplateText";
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
/**
 * CONSENT_BUTTON: the whole text of the button that reopens a cookie banner ("Cookies", "Cookie
 * settings", "Datenschutzeinstellungen"), which consent tools float at the page's top level.
 */
const CONSENT_BUTTON = /^(?:cookies?|cookie[- ]?(?:settings|preferences|einstellungen)|(?:privacy|consent) (?:settings|preferences)|datenschutz-?einstellungen|manage (?:cookies|consent))$/i;
/**
 * BROWSER_DOWNLOADS: the download pages of browsers that a notice about an outdated browser links to
 * ("Leider verwendet Ihr mit dem Internet Explorer einen veralteten Browser ...: Firefox, Chrome, Edge").
 */
const BROWSER_DOWNLOADS = [
  /mozilla\.org\/(?:[\w-]+\/)*firefox|getfirefox\.com/i, /google\.[a-z.]+\/(?:[\w-]+\/)*chrome/i, /microsoft\.com\/(?:[\w-]+\/)*(?:microsoft-)?edge/i,
  /apple\.com\/(?:[\w-]+\/)*safari/i, /opera\.com/i,
];
/** BROWSER_NOTICE_WORDS: what an outdated-browser notice speaks of */
const BROWSER_NOTICE_WORDS = /\b(?:browser|navegador|navigateur|internet explorer)\b/i;
/**
 * AUTHOR_LABEL: the whole text of the label over an author's name and bio ("AUTOR", "Über den Autor",
 * "About the author"), set as a plain block, not a heading.
 */
const AUTHOR_LABEL = /^(?:(?:the |der |die )?(?:author|autor|autorin|autoren|auteur|autore|autora)|about the author|über (?:den autor|die autorin)|zur person|à propos de l'auteur|sobre (?:el|la|o|a) autora?)\s*:?$/i;
/** AUTHOR_BOX_MAX_CHARS: an author's box is a name and a bio of a few lines (non-space characters) */
const AUTHOR_BOX_MAX_CHARS = 800;

/**
 * stripPageChrome removes share bars, breadcrumb trails, cookie banners, outdated-browser notices and
 * labelled author boxes from a parsed page, by what they hold: links to share endpoints (or only
 * network names), links between separators, a short block about cookies with an "Accept" control (or
 * a top-level button that only says "Cookies"), a short block about the browser linking to two
 * browsers' download pages, an author label over a name heading and a bio. Returns the document,
 * changed in place.
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
  for (const el of Array.from(document.querySelectorAll("a[href]"))) {
    const notice = browserNoticeOf(el, text);
    if (notice) doomed.add(notice);
  }
  for (const el of Array.from(document.body.children)) {
    const label = text.get(el) ?? "";
    if (label.length <= LABEL_MAX_LENGTH && CONSENT_BUTTON.test(normalizeSpace(label))) doomed.add(el);
  }
  for (const el of Array.from(document.querySelectorAll("div, span, p, strong, b"))) {
    const box = authorBoxOf(el, text);
    if (box) doomed.add(box);
  }
  for (const el of doomed) el.remove();
  return document;
}

/**
 * browserNoticeOf: the notice around a link to a browser's download page that the browser is
 * outdated, if any: the first ancestor that links to two browsers and speaks of the browser, widened
 * to wrappers that add little text; short (a cookie banner's length), never the article or <main>.
 */
function browserNoticeOf(link: Element, texts: Map<Node, string>): Element | null {
  const href = link.getAttribute("href") ?? "";
  if (!BROWSER_DOWNLOADS.some((re) => re.test(href))) return null;
  let notice: Element | null = null;
  let noticeChars = 0;
  for (let p = link.parentElement; p && !KEEP_TAGS.has(p.tagName.toLowerCase()); p = p.parentElement) {
    const chars = countChars(texts.get(p) ?? "");
    if (chars > COOKIE_MAX_CHARS || p.querySelector("article, main") || (notice && chars > 1.2 * noticeChars)) break;
    if (notice || (BROWSER_NOTICE_WORDS.test(texts.get(p) ?? "") && browsersLinked(p) >= 2)) {
      notice = p;
      noticeChars = chars;
    }
  }
  return notice;
}

/** browsersLinked: how many different browsers' download pages the element links to. */
function browsersLinked(el: Element): number {
  const hrefs = Array.from(el.querySelectorAll("a[href]")).map((a) => a.getAttribute("href") ?? "");
  return BROWSER_DOWNLOADS.filter((re) => hrefs.some((href) => re.test(href))).length;
}

/**
 * authorBoxOf: the author's box that a label opens, if any: a block whose whole text is an author
 * label ("AUTOR") followed by a heading of a name, the two in a short box with the bio (a name
 * heading and a paragraph or two, AUTHOR_BOX_MAX_CHARS at most). A label over anything else, or in
 * a longer block, is not one.
 */
function authorBoxOf(label: Element, texts: Map<Node, string>): Element | null {
  const text = texts.get(label) ?? "";
  // A label is a few words: longer text is not read (every block of the page comes here).
  if (label.children.length > 1 || text.length > LABEL_MAX_LENGTH || !AUTHOR_LABEL.test(normalizeSpace(text))) return null;
  const name = label.nextElementSibling;
  if (!name || !/^H[2-6]$/.test(name.tagName) || countChars(texts.get(name) ?? "") > AUTHOR_NAME_MAX_CHARS) return null;
  const box = label.parentElement;
  if (!box || KEEP_TAGS.has(box.tagName.toLowerCase()) || countChars(texts.get(box) ?? "") > AUTHOR_BOX_MAX_CHARS) return null;
  if (box.querySelectorAll("h1, h2, h3, h4, h5, h6").length > 1 || box.querySelectorAll("p").length > 3) return null;
  return box;
}

/** LABEL_MAX_LENGTH: the raw length (spaces and all) past which a block's text is no author label or consent button */
const LABEL_MAX_LENGTH = 200;

/** AUTHOR_NAME_MAX_CHARS: a name heading is a name with a title or two (non-space characters) */
const AUTHOR_NAME_MAX_CHARS = 60;

/** shareBarOf climbs from a share link to the largest ancestor that is still only a short bar (no paragraph or heading). */
function shareBarOf(link: Element): Element {
  let bar: Element = link;
  for (let p = link.parentElement; p && !KEEP_TAGS.has(p.tagName.toLowerCase()); p = p.parentElement) {
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
  for (let p = control.parentElement; p && !KEEP_TAGS.has(p.tagName.toLowerCase()); p = p.parentElement) {
    const chars = countChars(p.textContent ?? "");
    if (chars > COOKIE_MAX_CHARS || (banner && (chars > 1.2 * bannerChars || p.querySelector("h1, article, main")))) break;
    if (banner || /\bcookies?\b|\bconsent\b|\bdatenschutz\b/i.test(p.textContent ?? "")) {
      banner = p;
      bannerChars = chars;
    }
  }
  return banner;
}
