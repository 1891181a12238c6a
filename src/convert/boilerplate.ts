/**
 * boilerplate finds the main content of a web page. Readability.js proposes the article; a second,
 * independent estimate (text density after dropping navigation, headers, footers, sidebars, share
 * bars, comments, cookie banners and ads) checks it, and replaces it when Readability finds nothing
 * or clearly too little (search results, listings, pages without an article structure). Both paths
 * render through the same filter, so boilerplate that Readability keeps (share bars, navboxes,
 * "related" lists) is still dropped.
 */
import { Readability } from "@mozilla/readability";
import { DROPPED_TAGS, isHidden, type DomElement, type DomNode } from "./htmlDom";

/** MainContent is what to render and which filter to render it with. */
export interface MainContent {
  roots: DomNode[];
  skip: (el: DomElement) => boolean;
  /** method: "readability", "marked" (the page's own articleBody or single <article>) or "density" (the fallback) */
  method: "readability" | "marked" | "density";
}

/** MIN_ARTICLE_CHARS: a Readability article shorter than this (non-space characters) is "too little" */
const MIN_ARTICLE_CHARS = 200;
/** MIN_SHARE_OF_DENSITY: Readability must keep at least this share of the density estimate's text */
const MIN_SHARE_OF_DENSITY = 0.45;
/**
 * LONG_ARTICLE_CHARS: a Readability article with this much text (non-space, non-link characters,
 * some 300 words) is an article even when the density estimate found more: that estimate is then
 * a mega-menu or a teaser list with descriptions.
 */
const LONG_ARTICLE_CHARS = 1500;
/**
 * READABILITY_MAX_DEPTH, READABILITY_MAX_ELEMENTS: Readability's cost grows with depth times size
 * (10 000 nested divs take minutes); past these, the density estimate decides alone.
 */
const READABILITY_MAX_DEPTH = 150;
const READABILITY_MAX_ELEMENTS = 60_000;
/** DESCEND_SHARE: the density search moves into a child holding at least this share of the text */
const DESCEND_SHARE = 0.8;

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
function hasHiddenName(cls: string): boolean {
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
const KEEP_TAGS = new Set(["html", "body", "main", "article"]);
/** CONTENT_TAGS are never dropped for their class or id alone: headings and paragraphs carry theme classes too */
const CONTENT_TAGS = new Set(["h1", "h2", "h3", "h4", "h5", "h6", "p", "pre", "code", "table", "thead", "tbody", "tr", "td", "th", "blockquote", "figure", "img"]);

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

/** CAPTION_WORDS: a class or id word that names an image caption or credit ("wp-caption-text", "image-credits") */
const CAPTION_WORDS = new Set(["caption", "captions", "credit", "credits", "copyright", "subcaption", "imagecaption", "imagedescription", "bildunterschrift"]);
/**
 * PHOTO_CREDIT: a short line that names or describes a picture ("Foto: dpa", "Crédits photos : Bestimage",
 * "Credit:", "(Credit: ...)", "Beitragsbild: ...", "Abbildung 4: ...", "Image illustrative : ...", "Photograph by ...")
 */
const PHOTO_CREDIT = /^\s*\(?\s*(?:(?:fotos?|photos?|bild(?:er)?|credits?|crédits?(?: photos?)?|imagen|image(?: illustrative)?|fotografía|picture|beitragsbild|titelbild|titelfoto|headerbild|symbolbild|bildquelle|fotoquelle|abbildung(?:\s*\d+)?|illustration)\s*:|(?:(?:featured|header|hero|cover|lead|top|title|main)\s+)?(?:photo(?:graph)?s?|foto|picture|image)\s+(?:by|von|de|di|courtesy)\s)/i;
/**
 * SOURCE_LINE: a short line that names where a picture or the report came from ("Quelle: dpa",
 * "(Quelle: Fleischmann/Unsplash/DJV)", "Źródło: Eurostat", "Fuente: EFE", "Source: Reuters")
 */
const SOURCE_LINE = /^\s*\(?\s*(?:quellen?|źródło|źródła|fuente|fuentes|source|sources|fonte|fontes|bron|kilde|källa)\s*:/i;
/**
 * CREDIT_SUFFIX: a picture's credit closing a line, after a separator or a sentence ("... Mut zu. |
 * © Augusta National/Getty Images", "... el año escolar. Foto: Andina"); CREDITED_CAPTION_MAX_CHARS:
 * such a caption is a sentence or two (non-space characters)
 */
const CREDIT_SUFFIX = /(?:\s[|–—-]|[.!?)])\s*\(?\s*(?:©|\(c\)|fotos?\s*:|photos?\s*:|bild\s*:|credits?\s*:|image\s*:|foto\s*©)\s*[^.!?]{1,60}\)?\s*$/i;
const CREDITED_CAPTION_MAX_CHARS = 250;
/** PHOTO_CREDIT_MAX_CHARS: a credit line is short (non-space characters) */
const PHOTO_CREDIT_MAX_CHARS = 80;

/**
 * isCaption: a figure caption or photo credit (figcaption, or a class/id that says caption or credit
 * on a block without the image itself). Main-content extraction drops them as trafilatura does: they
 * describe a picture, not the article ("Photo: AP", "Imagen: Télam"); the image stays.
 */
export function isCaption(el: DomElement, stats: Map<DomNode, TextStats>): boolean {
  const tag = el.nodeName.toLowerCase();
  if (tag === "figcaption") return true;
  // A date on its own (the byline's <time>, "Updated: 03.04.2020") is page furniture; one inside a sentence stays.
  if (tag === "time") return !isDuration(el) && !insideProse(el);
  if (CONTENT_TAGS.has(tag) && tag !== "p") return false;
  // Lines short enough to be a credit or a date: the measured size first, the subtree only then.
  const chars = stats.get(el)?.text ?? 0;
  if ((tag === "p" || tag === "div" || tag === "span") && chars <= DATE_LINE_MAX_CHARS && (isDateLine(el) || isDateStamp(el.textContent ?? ""))) return true;
  if (tag === "p" || tag === "span" || tag === "div" || tag === "small" || tag === "em") {
    if (chars > 0 && chars <= PHOTO_CREDIT_MAX_CHARS && (PHOTO_CREDIT.test(el.textContent ?? "") || SOURCE_LINE.test(el.textContent ?? "")) && el.querySelectorAll("img, picture").length === 0) return true;
    // A short line that ends in a picture's credit is that picture's caption, written without markup.
    if (chars > 0 && chars <= CREDITED_CAPTION_MAX_CHARS && CREDIT_SUFFIX.test(el.textContent ?? "") && el.querySelectorAll("img, picture, p, li").length === 0) return true;
    // Text beside the picture inside a <figure> describes it.
    if (chars > 0 && inPictureFigure(el) && el.querySelectorAll("img, picture, video, table, pre, blockquote").length === 0) return true;
  }
  const names = `${el.getAttribute("class") ?? ""} ${el.getAttribute("id") ?? ""}`;
  if (!/caption|credit|copyright|description|bildunterschrift/i.test(names)) return false;
  // A caption word split in two ("image-description", "image_caption", "bild-unterschrift") is that word.
  const named = names.split(/\s+/).some((name) => nameWords(name).some((w, i, words) => CAPTION_WORDS.has(w) || CAPTION_WORDS.has(w + (words[i + 1] ?? ""))));
  return named && el.querySelectorAll("img, picture, video").length === 0;
}

/** GALLERY_MIN_CAPTIONS, GALLERY_CAPTION_SHARE: an article with this many figure captions holding this share of its text is a gallery */
const GALLERY_MIN_CAPTIONS = 3;
const GALLERY_CAPTION_SHARE = 0.4;

/**
 * isGallery: the article is a picture gallery or a listicle of slides ("84. Alex From A Clockwork
 * Orange" and a paragraph under each picture): its text is mostly in figure captions, and those are
 * then the article, not descriptions of its pictures.
 */
function isGallery(root: DomNode): boolean {
  const captions = (root as unknown as DomElement).querySelectorAll?.("figcaption") ?? [];
  if (captions.length < GALLERY_MIN_CAPTIONS) return false;
  let chars = 0;
  for (let i = 0; i < captions.length; i++) chars += countChars(captions[i]!.textContent ?? "");
  return chars >= GALLERY_CAPTION_SHARE * countChars(root.textContent ?? "");
}

/** captionTest: isCaption for the article under `root`, except that a gallery's captions are its text. */
function captionTest(root: DomNode, stats: Map<DomNode, TextStats>): (el: DomElement) => boolean {
  if (isGallery(root)) return (el) => isEnlargeLink(el) || (!inPictureFigure(el) && el.nodeName.toLowerCase() !== "figcaption" && isCaption(el, stats));
  const described = altCaptions(root);
  return (el) => described.has(el) || isEnlargeLink(el) || isCaption(el, stats);
}

/**
 * ENLARGE: the words of a lightbox button beside a picture ("Vergrößern", "Zum Vergrößern bitte
 * anklicken", "Click to enlarge", "Agrandir", "Ampliar", "Powiększ"), at the start of a caption, or a
 * step picture's toggle ("Bild anzeigen", "Bild schließen").
 */
const ENLARGE = /^\s*(?:(?:zum |bild |foto )?vergrößern(?: bitte)?(?: (?:an)?klicken)?|(?:click (?:here )?to |)enlarge(?: image| photo| picture)?|view (?:larger|full[- ]size)(?: image)?|bild (?:anzeigen|schließen)|(?:show|hide|close) (?:image|picture|photo)|agrandir(?: l'image)?|ampliar(?: imagen| foto)?|powiększ(?: zdjęcie)?|ingrandisci|vergroten)\s*[:.]?\s*/i;
/** ENLARGE_MAX_CHARS: the longest lightbox button (non-space characters) */
const ENLARGE_MAX_CHARS = 32;

/** isEnlargeLink: a link (or a short text block) that is only a lightbox button's words, without the picture. */
function isEnlargeLink(el: DomElement): boolean {
  const tag = el.nodeName.toLowerCase();
  if (tag !== "a" && tag !== "span" && tag !== "button" && tag !== "p") return false;
  const text = el.textContent ?? "";
  if (countChars(text) > ENLARGE_MAX_CHARS) return false;
  const match = ENLARGE.exec(text);
  // The button may wrap the picture itself ("click to enlarge <img>"): the picture stays.
  return match !== null && match[0].length === text.length && el.querySelectorAll("img, picture").length === 0;
}

/** ALT_CAPTION_MIN_CHARS: an image's alt text this long (non-space characters) is a sentence a caption can repeat; ALT_CAPTION_EXTRA_CHARS: what a caption adds to it (a credit) */
const ALT_CAPTION_MIN_CHARS = 15;
const ALT_CAPTION_EXTRA_CHARS = 120;
/** CAPTION_TEXT_TAGS: the elements a caption without markup is written in */
const CAPTION_TEXT_TAGS = new Set(["p", "div", "span", "small", "strong", "em", "sub", "i", "b"]);

/**
 * altCaptions finds the captions that repeat their picture's alt text: a short block just after the
 * image (or after the small wrapper it sits in, up to three levels) whose text opens with the alt
 * text ("Golf im TV: Die Übertragungszeiten ... (Foto: Getty)" under an image of that alt). Such a
 * caption describes the picture, like a figcaption; the image stays.
 */
function altCaptions(root: DomNode): Set<DomNode> {
  const found = new Set<DomNode>();
  const images = (root as unknown as DomElement).querySelectorAll?.("img[alt]") ?? [];
  // the article's first paragraph with text, looked up once for every caption box (isCaptionThenCredits)
  let first: DomElement | null | undefined;
  const firstParagraph = () => (first === undefined ? (first = firstTextParagraph(root)) : first);
  for (let i = 0; i < images.length; i++) {
    const img = images[i]!;
    const alt = normalizeSpace(img.getAttribute("alt") ?? "").toLowerCase();
    const altChars = countChars(alt);
    if (altChars < ALT_CAPTION_MIN_CHARS) continue;
    let node: DomElement = img;
    for (let up = 0; up < 3 && node !== root; up++) {
      for (let next = nextElement(node), seen = 0; next && seen < 3; next = nextElement(next), seen++) {
        if (!CAPTION_TEXT_TAGS.has(next.nodeName.toLowerCase())) continue;
        // A lightbox button in front of the caption ("Vergrößern Kommt das iPhone 14 ohne Notch?") is not its text.
        const text = normalizeSpace(next.textContent ?? "").toLowerCase().replace(ENLARGE, "");
        if (!text) continue;
        if (countChars(text) <= altChars + ALT_CAPTION_EXTRA_CHARS && text.startsWith(alt) && next.querySelectorAll("img, picture, video, table").length === 0 && (next.querySelectorAll("p + p").length === 0 || isCaptionThenCredits(next, firstParagraph()))) found.add(next);
        break;
      }
      const parent = node.parentNode as DomElement | null;
      if (!parent || parent.nodeType !== 1 || countChars(parent.textContent ?? "") > altChars + ALT_CAPTION_EXTRA_CHARS) break;
      node = parent;
    }
  }
  return found;
}

/**
 * isCaptionThenCredits: a caption box of paragraphs (its first the caption, as altCaptions found it)
 * whose later paragraphs are each a picture's credit ("© Jon Prosser & Renders by Rian", "Foto: dpa"),
 * set after the article's first paragraph. A box whose second paragraph says more (a product's
 * description) is text, and so is one that holds the article's first paragraph: under the top
 * picture, news sites write their lead as its caption (elespectador's "La Operación Orión ...").
 */
function isCaptionThenCredits(box: DomElement, firstParagraph: DomElement | null): boolean {
  const paragraphs = box.querySelectorAll("p");
  if (paragraphs.length < 2 || paragraphs[0] === firstParagraph) return false;
  for (let i = 1; i < paragraphs.length; i++) {
    const text = normalizeSpace(paragraphs[i]!.textContent ?? "");
    if (countChars(text) > PHOTO_CREDIT_MAX_CHARS || !(/^\s*(?:©|\(c\))/i.test(text) || PHOTO_CREDIT.test(text) || SOURCE_LINE.test(text))) return false;
  }
  return true;
}

/** firstTextParagraph: the page's first <p> with text, or null */
function firstTextParagraph(root: DomNode): DomElement | null {
  const all = (root as unknown as DomElement).querySelectorAll?.("p") ?? [];
  for (let i = 0; i < all.length; i++) if (normalizeSpace(all[i]!.textContent ?? "")) return all[i]!;
  return null;
}

/** inPictureFigure: the element sits (within three levels) in a <figure> that holds a picture. */
function inPictureFigure(el: DomElement): boolean {
  let p = el.parentNode;
  for (let up = 0; up < 3 && p && p.nodeType === 1; up++, p = p.parentNode) {
    if (p.nodeName.toLowerCase() === "figure") return (p as DomElement).querySelectorAll("img, picture").length > 0;
  }
  return false;
}

/** PROSE_MIN_CHARS, PROSE_MAX_LINK_DENSITY: a block with this much paragraph text and few links reads as article text */
const PROSE_MIN_CHARS = 300;
const PROSE_MAX_LINK_DENSITY = 0.2;

/**
 * isProse: the element holds paragraphs of running text (at least PROSE_MIN_CHARS non-space
 * characters in <p> outside links) and few links. Chrome (menus, share bars, teaser lists,
 * newsletter boxes) is short or made of links; a section of the article is not.
 */
function isProse(el: DomElement): boolean {
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
function nameWords(name: string): string[] {
  return name.replace(/([a-z])([A-Z])/g, "$1-$2").toLowerCase().split(/[-_:.]+/);
}

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

/** DATE_LINE_LABEL_CHARS: the words a date line adds to its <time> ("Updated:", "Published on"); DATE_LINE_MAX_CHARS: its whole length */
const DATE_LINE_LABEL_CHARS = 30;
const DATE_LINE_MAX_CHARS = 80;

/** isDateLine: a short block that is a <time> and a label around it (Readability turns such divs into paragraphs). */
function isDateLine(el: DomElement): boolean {
  const times = Array.from(el.querySelectorAll("time")).filter((t) => !isDuration(t));
  if (times.length === 0) return false;
  let timeChars = 0;
  for (const time of times) timeChars += countChars(time.textContent ?? "");
  return countChars(el.textContent ?? "") - timeChars <= DATE_LINE_LABEL_CHARS;
}

/**
 * DATE_TOKEN: a written date or clock time ("23.10.2018", "05. Februar 2020", "May 6, 2014",
 * "2020-03-04", "3:59 PM", "19:49 Uhr"); MONTH_OR_DAY: month and weekday names of the languages seen.
 */
const DATE_TOKEN = /\b\d{1,2}\.\s?\d{1,2}\.\s?(?:\d{4}|\d{2})\b|\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}\/\d{1,2}\/\d{2,4}\b|\b\d{1,2}:\d{2}(?::\d{2})?(?:\s?(?:am|pm|uhr|h)\b)?|\b\d{1,2}\.?\s+\p{L}{3,}\.?\s+\d{4}\b|\b\p{L}{3,}\.?\s+\d{1,2},?\s+\d{4}\b/giu;
/** DATE_STAMP_LABEL_CHARS: the label a date stamp may carry ("Aktualisiert am", "Last Modified:", "Erstellt am Dienstag") */
const DATE_STAMP_LABEL_CHARS = 28;
/** DATE_STAMP_MAX_CHARS: a date stamp is one short line (non-space characters) */
const DATE_STAMP_MAX_CHARS = 50;

/**
 * isDateStamp: a short line that is a date or a time with at most a short label ("23.10.2018",
 * "Erstellt am Dienstag 6. Mai 2014", "Last Modified: 2019-05-02", "3:59 PM"), the page's filing
 * stamp rather than its text; a sentence that holds a date is longer or has more words around it.
 */
function isDateStamp(text: string): boolean {
  const chars = countChars(text);
  if (chars === 0 || chars > DATE_STAMP_MAX_CHARS) return false;
  const rest = text.replace(DATE_TOKEN, "");
  if (rest.length === text.length) return false;
  return countChars(rest.replace(/[|·•,–—-]/g, "")) <= DATE_STAMP_LABEL_CHARS && !/[.!?]\s+\p{Lu}/u.test(rest);
}

/** isDuration: a <time> that is a duration (a recipe's "15 Min", datetime="PT15M"), content rather than a date stamp. */
function isDuration(time: DomElement): boolean {
  return /^P/i.test(time.getAttribute("datetime") ?? "") || /(?:prep|cook|total|perform)Time|duration/i.test(time.getAttribute("itemprop") ?? "");
}

function insideProse(el: DomElement): boolean {
  for (let p = el.parentNode; p && p.nodeType === 1; p = p.parentNode) {
    const tag = p.nodeName.toLowerCase();
    if (tag === "p" || tag === "li" || tag === "td" || tag === "th" || tag === "blockquote" || tag === "dd") return true;
    if (BLOCK_LIKE.has(tag)) return false;
  }
  return false;
}

const BLOCK_LIKE = new Set(["div", "section", "article", "header", "footer", "main", "body", "aside", "figure"]);

function insideArticle(el: DomElement): boolean {
  for (let p = el.parentNode; p && p.nodeType === 1; p = p.parentNode) {
    const tag = p.nodeName.toLowerCase();
    if (tag === "article" || tag === "main") return true;
    if ((p as DomElement).getAttribute("role") === "main") return true;
  }
  return false;
}

/** TextStats are the visible text of a subtree, boilerplate excluded: all of it and the part inside links. */
interface TextStats {
  text: number;
  linkText: number;
}

/**
 * measureText computes TextStats for every element under `root` in one pass (no recursion),
 * leaving invisible subtrees and those `excluded` (boilerplate by default) out of the counts.
 */
function measureText(root: DomNode, excluded: (el: DomElement) => boolean = isBoilerplate): Map<DomNode, TextStats> {
  const stats = new Map<DomNode, TextStats>();
  const order: DomNode[] = [];
  const stack: DomNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node !== root) {
      const el = node as DomElement;
      const tag = node.nodeName.toLowerCase();
      if (DROPPED_TAGS.has(tag) || isHidden(el) || excluded(el)) continue;
    }
    order.push(node);
    const kids = node.childNodes;
    for (let i = 0; i < kids.length; i++) if (kids[i]!.nodeType === 1) stack.push(kids[i]!);
  }
  for (let i = order.length - 1; i >= 0; i--) {
    const node = order[i]!;
    const own: TextStats = { text: 0, linkText: 0 };
    const kids = node.childNodes;
    for (let k = 0; k < kids.length; k++) {
      const kid = kids[k]!;
      if (kid.nodeType === 3) own.text += countChars(kid.textContent ?? "");
      else if (kid.nodeType === 1) {
        const s = stats.get(kid);
        if (s) {
          own.text += s.text;
          own.linkText += s.linkText;
        }
      }
    }
    if (node.nodeName.toLowerCase() === "a") own.linkText = own.text;
    stats.set(node, own);
  }
  return stats;
}

/** contentOf: the non-link characters of a measured node (0 when it was left out). */
function contentOf(stats: Map<DomNode, TextStats>, node: DomNode): number {
  const s = stats.get(node);
  return s ? s.text - s.linkText : 0;
}

/** pageShape counts the elements of a page and its deepest nesting, without recursion. */
function pageShape(root: DomNode): { maxDepth: number; elements: number } {
  const stack: Array<[DomNode, number]> = [[root, 0]];
  let maxDepth = 0;
  let elements = 0;
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    elements++;
    if (depth > maxDepth) maxDepth = depth;
    const kids = node.childNodes;
    for (let i = 0; i < kids.length; i++) if (kids[i]!.nodeType === 1) stack.push([kids[i]!, depth + 1]);
  }
  return { maxDepth, elements };
}

/** countChars: the non-space characters of a text (the unit of every length in main-content finding) */
export function countChars(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 32 && c !== 160) n++;
  }
  return n;
}

/** DensityPick is the fallback's choice of main content and its size in non-link characters. */
interface DensityPick {
  element: DomNode;
  contentChars: number;
  stats: Map<DomNode, TextStats>;
  /** excluded: the chrome test the pick was measured with */
  excluded: (el: DomElement) => boolean;
}

/**
 * densityPick starts at the body and moves into the child that holds most of the non-link text
 * while one child dominates, so it stops at the tightest container of the page's main text.
 */
function densityPick(body: DomNode, excluded: (el: DomElement) => boolean = isBoilerplate): DensityPick {
  const stats = measureText(body, excluded);
  const content = (n: DomNode) => {
    const s = stats.get(n);
    return s ? s.text - s.linkText : 0;
  };
  let node = body;
  for (;;) {
    const total = content(node);
    let best: DomNode | null = null;
    let bestScore = -1;
    const kids = node.childNodes;
    for (let i = 0; i < kids.length; i++) {
      const kid = kids[i]!;
      if (kid.nodeType !== 1 || !stats.has(kid)) continue;
      const score = content(kid);
      if (score > bestScore) {
        bestScore = score;
        best = kid;
      }
    }
    if (!best || total <= 0 || bestScore < DESCEND_SHARE * total) break;
    node = best;
  }
  return { element: node, contentChars: content(node), stats, excluded };
}

/**
 * isLinkList is true for blocks that are mostly links (menus and "related" lists without telling
 * class names); the density fallback drops them.
 */
function isLinkList(el: DomElement, stats: Map<DomNode, TextStats>): boolean {
  const tag = el.nodeName.toLowerCase();
  if (tag !== "ul" && tag !== "ol" && tag !== "div" && tag !== "section" && tag !== "table" && tag !== "p" && tag !== "dl") return false;
  const s = stats.get(el);
  if (!s || s.text === 0) return false;
  return s.linkText / s.text > 0.6 && s.text - s.linkText < 200;
}

/** MarkedArticle is the element a page marks as its article, as a path of child indices from the body, and probes of its text. */
interface MarkedArticle {
  path: number[];
  probes: string[];
  /** contentChars: its non-link characters, chrome left out */
  contentChars: number;
}

/** PROBE_CHARS: the length of each probe of a marked article's paragraphs; MAX_PROBES of them at most */
const PROBE_CHARS = 30;
const MAX_PROBES = 8;

/**
 * markedArticle finds the element the page marks as its article: the one [itemprop=articleBody],
 * else the one outermost <article> (of several, the one holding an h1), when it holds paragraphs of
 * visible text; null otherwise.
 */
function markedArticle(body: DomNode, stats: Map<DomNode, TextStats>): MarkedArticle | null {
  const root = body as unknown as DomElement;
  let found = Array.from(root.querySelectorAll('[itemprop="articleBody"]'));
  if (found.length !== 1) found = Array.from(root.querySelectorAll("article")).filter((a) => !hasAncestor(a, "article"));
  // Several articles (teasers are articles too): the one that holds the page's headline.
  if (found.length > 1) found = found.filter((a) => a.querySelectorAll("h1").length > 0);
  if (found.length !== 1 || !stats.has(found[0]!)) return null;
  const el = found[0]!;
  const probes = probesOf(el, stats);
  if (probes.length < 2) return null;
  const path: number[] = [];
  for (let node: DomNode = el; node !== body; node = node.parentNode!) {
    const parent = node.parentNode!;
    path.unshift(Array.prototype.indexOf.call(parent.childNodes, node));
  }
  return { path, probes, contentChars: contentOf(stats, el) };
}

/** probesOf takes up to MAX_PROBES snippets of PROBE_CHARS from the middle of the visible paragraphs under `el`. */
function probesOf(el: DomElement, stats: Map<DomNode, TextStats>): string[] {
  const probes: string[] = [];
  // The densest block may be one paragraph itself (a short news item of a single paragraph).
  const paragraphs = el.nodeName.toLowerCase() === "p" ? [el] : el.querySelectorAll("p");
  for (let i = 0; i < paragraphs.length && probes.length < MAX_PROBES; i++) {
    const text = normalizeSpace(paragraphs[i]!.textContent ?? "");
    if (text.length < 2 * PROBE_CHARS || !stats.has(paragraphs[i]!)) continue;
    const start = Math.floor((text.length - PROBE_CHARS) / 2);
    probes.push(text.slice(start, start + PROBE_CHARS));
  }
  return probes;
}

function hasAncestor(el: DomElement, tag: string): boolean {
  for (let p = el.parentNode; p && p.nodeType === 1; p = p.parentNode) if (p.nodeName.toLowerCase() === tag) return true;
  return false;
}

function followPath(root: DomNode, path: number[]): DomNode | null {
  let node: DomNode | undefined = root;
  for (const i of path) node = node?.childNodes[i];
  return node ?? null;
}

function normalizeSpace(text: string): string {
  return text.replace(/[\s\u00a0]+/g, " ").trim();
}

/** MARKED_GROWTH: the marked article wins over Readability's when it holds this many times more text */
const MARKED_GROWTH = 1.5;

/** DENSITY_GROWTH: the density estimate wins over a Readability article that shares none of its text when it holds this many times more */
const DENSITY_GROWTH = 1.5;

/** SHARED_PROBES: Readability's article holds the marked article when it contains this share of its probes */
const SHARED_PROBES = 0.3;

function sharesText(article: DomNode, probes: string[]): boolean {
  const text = normalizeSpace(article.textContent ?? "");
  return probes.filter((p) => text.includes(p)).length > SHARED_PROBES * probes.length;
}

/** LEAD_WORDS: a class or id word that names the lead (standfirst) under an article's headline */
const LEAD_WORDS = new Set(["lead", "lede", "leadtext", "intro", "introduction", "excerpt", "standfirst", "subtitle", "subheadline", "dek", "abstract", "summary", "teasertext", "description", "leader", "subline",
  "deck", "bajada", "copete", "entradilla", "chapo", "chapeau"]);
/** LEAD_MIN_CHARS, LEAD_MAX_CHARS: a lead is a sentence or a short paragraph (non-space characters) */
const LEAD_MIN_CHARS = 40;
const LEAD_MAX_CHARS = 800;
/** LEAD_SEARCH_ELEMENTS: the lead is looked for among this many elements after the headline */
const LEAD_SEARCH_ELEMENTS = 200;

/**
 * leadParagraph finds the lead under the page's headline: the first element after it whose class or
 * id says lead, intro, excerpt, standfirst, subtitle, deck or summary (or a language's word for it:
 * "bajada", "chapô"), or, when the headline sits in a <header> or <hgroup>, a paragraph or
 * subheading of that same header (the article's header holds its headline, its standfirst and its
 * byline); one short paragraph of text with few links, not a date line. Returns a copy (Readability
 * rewrites the page) and its text.
 */
function leadParagraph(body: DomNode, stats: Map<DomNode, TextStats>, titles: string[], descriptions: PageDescription[] = []): Lead | null {
  const all = (body as unknown as DomElement).querySelectorAll("*");
  const found = headlineOf(all, stats, titles);
  if (!found) return null;
  const { from, matched } = found;
  const headline = all[from]!;
  const header = closestHeader(headline);
  for (let i = from + 1; i < all.length && i <= from + LEAD_SEARCH_ELEMENTS; i++) {
    const el = all[i]!;
    if ((headline as unknown as Element).contains(el as unknown as Node)) continue;
    const named = hasLeadName(el) && !isAuthorNamed(el) && !isCaption(el, stats);
    const inHeader = !named && header !== null && LEAD_IN_HEADER_TAGS.has(el.nodeName.toLowerCase()) && closestHeader(el) === header;
    if (!named && !inHeader && !(LEAD_DESCRIBED_TAGS.has(el.nodeName.toLowerCase()) && (stats.get(el)?.text ?? 0) <= LEAD_MAX_CHARS && isDescribed(el, descriptions))) continue;
    if (!shownOrInPageHeader(el, stats, matched ? headline : null)) continue;
    const s = stats.get(el) ?? textStatsOf(el);
    if (s.text < LEAD_MIN_CHARS || s.text > LEAD_MAX_CHARS || s.linkText > 0.3 * s.text) continue;
    // One block: a subheading alone ("<div class=lead><h2>..</h2></div>") is the lead; several blocks, a list, a picture are not.
    const headings = el.querySelectorAll("h1, h2, h3");
    if (el.querySelectorAll("h1, p + p, table, img, time").length > 0 || headings.length > 1) continue;
    if (el.querySelectorAll("li").length > 0 && !(named && isSummaryList(el))) continue;
    if (headings.length === 1 && countChars(headings[0]!.textContent ?? "") < s.text - 5) continue;
    const text = normalizeSpace(el.textContent ?? "");
    // A box asking to subscribe or follow under the headline is not its lead, nor is a date or a byline.
    if (SUBSCRIBE_WORDS.test(text) || isFollowUs(text) || isDateStamp(text) || isDateLine(el) || BYLINE_START.test(text)) continue;
    return { element: (el as unknown as Element).cloneNode(true) as unknown as DomNode, text };
  }
  return null;
}

/** BYLINE_START: the words a byline or a publication line opens with ("Veröffentlicht am 03.02.2022 von ...", "By Ann Smith") */
const BYLINE_START = /^(?:(?:veröffentlicht|publiziert|aktualisiert|erschienen|published|posted|updated|publicado|publié|pubblicato|opublikowano)\s|(?:von|by|por|par|di)\s+\p{Lu}\p{L}+\s+\p{Lu})/iu;

/** SUMMARY_MAX_ITEMS: a lead written as bullets ("Das Wichtigste in Kürze") has a few of them */
const SUMMARY_MAX_ITEMS = 5;

/**
 * isSummaryList: the element's text is one list of a few sentences, each closed by its stop, none a
 * link: a news lead written as bullets under the picture (kirche-und-leben's "teaser-text"), not a
 * list of teasers or a menu.
 */
function isSummaryList(el: DomElement): boolean {
  const lists = el.querySelectorAll("ul, ol");
  const items = el.querySelectorAll("li");
  if (lists.length !== 1 || items.length < 2 || items.length > SUMMARY_MAX_ITEMS || el.querySelectorAll("a").length > 0) return false;
  for (const item of Array.from(items)) if (!/\p{L}.*[.!?]["“”«»']?$/u.test(normalizeSpace(item.textContent ?? ""))) return false;
  return true;
}

/** LEAD_DESCRIBED_TAGS: the elements a lead that the page's description repeats is written in, whatever their class */
const LEAD_DESCRIBED_TAGS = new Set(["p", "div", "h2", "h3", "h4", "strong", "b", "em", "span"]);
/** DESCRIPTION_CUT: the marks a description cut short ends with ("... aus der Region ...", "[…]") */
const DESCRIPTION_CUT = /\s*(?:\.{3}|…|\[(?:…|\.{3})\])\s*$/;

/**
 * isDescribed: the element's text is the page's description (meta or og:description): the same
 * text, or the text the description was cut from ("Das mobile Reisen boomt ... An fünf Messetagen
 * ..." over a description that stops with "..."). Sites fill the description from the standfirst,
 * so a block of that text under the headline is the lead, whatever its markup (an <h3> after the
 * share buttons, a <div itemprop=description>, a bold paragraph).
 */
function isDescribed(el: DomElement, descriptions: PageDescription[]): boolean {
  if (descriptions.length === 0) return false;
  const text = normalizeSpace(el.textContent ?? "");
  if (countChars(text) < LEAD_MIN_CHARS) return false;
  return descriptions.some(({ whole, cut }) => text === whole || (cut !== null && text.startsWith(cut)));
}

/** Lead is the lead found under the headline: a copy of its element and its text, spaces normalised. */
interface Lead {
  element: DomNode;
  text: string;
}

/**
 * withLead puts the lead above the main content unless the content holds it already: the lead's
 * whole text, not a part of it (a deck that the body's own sentence repeats, "... which will invest
 * US$1 billion over the next four years ...", is still missing).
 */
function withLead(lead: Lead | null, root: DomNode): DomNode[] {
  if (!lead || normalizeSpace(root.textContent ?? "").includes(lead.text)) return [root];
  return [lead.element, root];
}

/** LEAD_IN_HEADER_TAGS: the elements of an article's header that can hold its lead without naming it */
const LEAD_IN_HEADER_TAGS = new Set(["p", "h2"]);
/** HEADLINE_MIN_CHARS: an h1 this long that the page's title holds is the headline (a shorter one, "News", may be a section's name) */
const HEADLINE_MIN_CHARS = 10;

/**
 * headlineOf finds the page's headline among all elements: the h1 whose text the page's title
 * holds (or that holds the title's first part), wherever it sits (a headline inside a breadcrumb
 * list or a "rating" wrapper is still the headline: `matched`), else such an h2 (the page's h1 is
 * its logo); else the first shown h1 with text (an empty h1 is a logo). An h1 that only copies the
 * headline (isHeadlineCopy) gives way to a later h1 or h2 that matches the title.
 */
function headlineOf(all: ArrayLike<DomElement>, stats: Map<DomNode, TextStats>, titles: string[]): { from: number; matched: boolean } | null {
  const wanted = titles.map((title) => normalizeSpace(title).toLowerCase()).filter(Boolean);
  const matches = (el: DomElement) => {
    // A space before a colon is markup's ("<span>Abrechnung</span><span>: </span>"), not the title's.
    const text = normalizeSpace(el.textContent ?? "").replace(/\s+(?=[:,;])/g, "").toLowerCase();
    if (text.length < HEADLINE_MIN_CHARS) return false;
    return wanted.some((title) => {
      const parts = title.split(/\s[-–—|:·»]\s/);
      // The site's name after the headline ("KOA039 Live ... | Knowledge on Air") names the logo's h1, not the headline.
      if (parts.length > 1 && text === parts[parts.length - 1]!.trim()) return false;
      const firstPart = parts[0] ?? "";
      return title.includes(text) || (firstPart.length >= HEADLINE_MIN_CHARS && text.includes(firstPart));
    });
  };
  let fallback = -1;
  let subheading = -1;
  let copy = -1;
  for (let i = 0; i < all.length; i++) {
    const el = all[i]!;
    const tag = el.nodeName.toLowerCase();
    if (tag === "h2" && subheading < 0 && matches(el)) {
      if (copy >= 0 && !isHeadlineCopy(el)) return { from: i, matched: true };
      subheading = i;
    }
    if (tag !== "h1") continue;
    if (matches(el)) {
      // A copy of the headline (in a sticky bar's <nav>, or for screen readers) comes before the
      // article's own: the lead is looked for under the article's headline, a later heading with the same text.
      if (!isHeadlineCopy(el)) return { from: i, matched: true };
      if (copy < 0) copy = i;
      continue;
    }
    if (fallback < 0 && countChars(el.textContent ?? "") > 0 && shownOrInPageHeader(el, stats, null)) fallback = i;
  }
  if (copy >= 0) return { from: copy, matched: true };
  // No h1 is the title: a page whose h1 is its logo and whose headline is an h2.
  if (subheading >= 0) return { from: subheading, matched: true };
  return fallback >= 0 ? { from: fallback, matched: false } : null;
}

/** SCREEN_READER_ONLY: the class of a heading printed for screen readers only ("visuallyhidden", "sr-only") */
const SCREEN_READER_ONLY = /(?:^|\s)(?:sr-only|visually-?hidden|screen-reader-text|element-invisible)(?:\s|$)/i;

/**
 * isHeadlineCopy: a heading that repeats the headline away from the article: in a <nav> (a site bar
 * that shows the headline while the page scrolls, faz.net) or printed for screen readers only at
 * the page's top (umweltbundesamt's "visuallyhidden" h1).
 */
function isHeadlineCopy(el: DomElement): boolean {
  if (SCREEN_READER_ONLY.test(el.getAttribute("class") ?? "")) return true;
  for (let p = el.parentNode; p && p.nodeType === 1; p = p.parentNode) if (p.nodeName.toLowerCase() === "nav") return true;
  return false;
}

/** closestHeader: the nearest <header> or <hgroup> around an element, or null. */
function closestHeader(el: DomElement): DomElement | null {
  for (let p = el.parentNode; p && p.nodeType === 1; p = p.parentNode) {
    const tag = p.nodeName.toLowerCase();
    if (tag === "header" || tag === "hgroup") return p as DomElement;
    if (tag === "body") return null;
  }
  return null;
}

/**
 * shownOrInPageHeader: the element was measured, or was left out only because it sits in a page
 * <header> (outside <article>/<main>, the headline and its lead often do), not in a menu, a
 * sidebar or a hidden block.
 */
function shownOrInPageHeader(el: DomElement, stats: Map<DomNode, TextStats>, headline: DomElement | null): boolean {
  for (let p: DomNode | null = el; p && !stats.has(p); p = p.parentNode) {
    if (p.nodeType !== 1) return false;
    // A block the headline (found by the page's title) shares is the article's head, whatever its name.
    if (headline && (p as unknown as Element).contains(headline as unknown as Node)) return true;
    const tag = p.nodeName.toLowerCase();
    if (DROPPED_TAGS.has(tag) || isHidden(p as DomElement)) return false;
    if (tag !== "header" && chromeKind(p as DomElement) !== null) return false;
  }
  return true;
}

/** textStatsOf measures one element that measureText left out (a page header's lead). */
function textStatsOf(el: DomElement): TextStats {
  let linkText = 0;
  for (const a of Array.from(el.querySelectorAll("a"))) linkText += countChars(a.textContent ?? "");
  return { text: countChars(el.textContent ?? ""), linkText };
}

/** AUTHOR_WORDS: a class or id word that names the author's box or byline, whose "description" is the author's bio, not the article's lead */
const AUTHOR_WORDS = new Set(["author", "authors", "autor", "autorin", "autoren", "auteur", "byline", "bio", "avatar"]);

/**
 * isAuthorNamed: the element's own class or id names the author ("m-author__description",
 * "byline-description"): its "description" is the author's bio, not the article's lead. A lead
 * inside a wrapper named for the byline ("<div class=author>By ... <p class=excerpt>") stays a lead.
 */
function isAuthorNamed(el: DomElement): boolean {
  const names = `${el.getAttribute("class") ?? ""} ${el.getAttribute("id") ?? ""}`.trim();
  return names !== "" && names.split(/\s+/).some((name) => nameWords(name).some((w) => AUTHOR_WORDS.has(w)));
}

function hasLeadName(el: DomElement): boolean {
  const names = `${el.getAttribute("class") ?? ""} ${el.getAttribute("id") ?? ""}`.trim();
  if (!names) return false;
  for (const name of names.split(/\s+/)) {
    const words = nameWords(name);
    if (words.some((w) => LEAD_WORDS.has(w)) || /teaser-?text/i.test(name)) return true;
  }
  return false;
}

/** CTA_MAX_CHARS: a call to action is one short paragraph (non-space characters) */
const CTA_MAX_CHARS = 250;
/** SUBSCRIBE_WORDS: asking the reader to subscribe or sign up, in the languages of the pages seen */
const SUBSCRIBE_WORDS = /\b(?:subscribe|subscription|subscribers?|sign(?:ing)? up|newsletter|abonnieren|abonnement|abonnez|abónate|suscr[ií]b[ea]|suscripci[oó]n|hazte miembro|assine|assinatura|subskrypc\p{L}*|prenumer\p{L}*|iscriviti)\b/iu;

/**
 * QUOTED: a quotation in the text, between straight or typographic quotation marks ("...", „...“,
 * “...”, «...», »...«), of at most 300 characters each.
 */
const QUOTED = /"[^"]{1,300}"|„[^“”"]{1,300}[“”"]|“[^”]{1,300}”|«[^»]{1,300}»|»[^«]{1,300}«/g;

/**
 * withoutQuotes: the text with its quotations left out. A word that asks to subscribe inside quotation
 * marks is someone's reported words in the article ("Kein Abonnement erforderlich", the NASA wrote
 * of its streaming service), not the site asking the reader.
 */
function withoutQuotes(text: string): string {
  return text.replace(QUOTED, " ");
}

/** FOLLOW_VERB, FOLLOW_PLACE: asking the reader to follow the site, join its channel or install its app ("Follow us on Twitter", "Únete a nuestro canal de Telegram") */
const FOLLOW_VERB = /\b(?:follow|síguenos|siguenos|sigue|siga|folgen sie|folge uns|folgt uns|suivez|seguici|segue|únete|unete|join|download|descarga|descargue|baixe|installier\p{L}*|lade)\b|\b(?:our|nuestro|nuestra|unser\p{L}*|notre|nosso)\s+(?:canal|channel|kanal|chaîne)\b/iu;
const FOLLOW_PLACE = /\b(?:twitter|facebook|instagram|telegram|whatsapp|youtube|tiktok|linkedin|google news|apps?|canal|channel|kanal)\b/i;

/**
 * PRINT_ACTION: a print button's label, alone or before the buttons beside it ("Rezept drucken Bei
 * Pinterest speichern", "drukuj", "Print this article", "Imprimir"); PRINT_MAX_CHARS: such a row is short
 */
const PRINT_ACTION = /^(?:(?:rezept|artikel|seite|beitrag|recipe|article|page|this page)\s+)?(?:drucken|ausdrucken|print(?:\s+(?:this|recipe|article|page)(?:\s+(?:article|page|recipe))?)?|drukuj|wydrukuj|imprimir|imprimer|stampa|afdrukken|skriv ut)(?:$|\s+(?:\S+\s+){0,3}(?:speichern|teilen|merken|save|share|pin)$)/i;
const PRINT_MAX_CHARS = 40;
/**
 * TOGGLE_ACTION: the words of an accordion's toggle ("Quellen ausblenden", "Mehr anzeigen", "Show
 * sources", "Hide details"): a block of only these words is a button, the box it opens stays
 */
const TOGGLE_ACTION = /^(?:(?:alle )?(?:quellen|quellenangaben|mehr|weniger|details|inhaltsverzeichnis|einzelnachweise)\s+(?:anzeigen|ausblenden|einblenden|verbergen|zeigen)|(?:show|hide) (?:all )?(?:sources|references|more|less|details|table of contents))\s*[+−-]?$/i;

function isFollowUs(text: string): boolean {
  return FOLLOW_VERB.test(text) && FOLLOW_PLACE.test(text);
}

/**
 * MORE_LINK: the text of a link that leads on to another page's text ("Weiterlesen", "Read more",
 * "Mehr erfahren", "Lire la suite", "Czytaj dalej"); a block that is only such a link is a teaser's
 * tail or a button, never the article's text.
 */
const MORE_LINK = /^(?:jetzt |hier )?(?:weiter ?lesen|mehr lesen|mehr erfahren|mehr|mehr infos?|mehr entdecken|mehr zum (?:inhalt|thema)|zum (?:ganzen )?(?:artikel|beitrag)|read (?:more|on)|read the (?:full )?(?:story|article|post)|continue reading|learn more|more|see more|find out more|more info|lire la suite|lire plus|en savoir plus|leer más|seguir leyendo|ver más|leia mais|saiba mais|continua(?: a leggere)?|leggi (?:tutto|di più|l'articolo)|czytaj (?:dalej|więcej)|więcej|lees (?:verder|meer)|meer lezen)\s*(?:…|\.{3}|»|›|>|→|\+)?$/i;

/**
 * DOWNLOAD_LINK: a link that offers a file ("Porträtfotos ... zum Download", "Pobierz pdf", "Download
 * references"): set apart as a block of its own it is a button beside the text, not a sentence of it.
 */
const DOWNLOAD_LINK = /\b(?:download\p{L}*|herunterladen|descarga\p{L}*|descargar|télécharg\p{L}*|scarica\p{L}*|pobierz|baixe|baixar)\b/iu;
/** MORE_LINK_MAX_CHARS, DOWNLOAD_LINK_MAX_CHARS: the longest such link block (non-space characters) */
const MORE_LINK_MAX_CHARS = 30;
const DOWNLOAD_LINK_MAX_CHARS = 100;

/**
 * READING_TIME: a teaser's reading time beside its "read more" link ("5 Minuten", "3 min read",
 * "Lesezeit: 4 Min."), the only words such a button row adds to its link
 */
const READING_TIME = /^(?:(?:lesezeit|reading time|tiempo de lectura|temps de lecture)\s*:?\s*)?(?:ca\.\s*)?\d{1,3}\s*(?:min(?:uten?|utes?|s)?\.?|minuten?)(?:\s+(?:read|lesezeit|lesen|de lectura|de lecture))?$/i;

/** isMoreLink: the block's whole text is one link that reads MORE_LINK (with at most a READING_TIME beside it) or offers a download. */
function isMoreLink(el: DomElement, s: TextStats): boolean {
  if (s.text > DOWNLOAD_LINK_MAX_CHARS) return false;
  const links = el.querySelectorAll("a");
  if (links.length !== 1) return false;
  const text = normalizeSpace(links[0]!.textContent ?? "");
  if (s.linkText !== s.text) {
    const rest = normalizeSpace((el.textContent ?? "").replace(links[0]!.textContent ?? "", " "));
    return s.linkText > 0 && MORE_LINK.test(text) && countChars(text) <= MORE_LINK_MAX_CHARS && READING_TIME.test(rest);
  }
  return (s.text <= MORE_LINK_MAX_CHARS && MORE_LINK.test(text)) || DOWNLOAD_LINK.test(text);
}

/**
 * ARROW_TEASER: a link to another story set between arrows or behind one (">> Wegen Corona: ... <<",
 * "→ Die besten Tipps"): a block that is only such a link is a promotion set into the article, not
 * its text. The arrow is followed by a space. A single "»" is not one: German quotes open with it,
 * and computerbild's labels count its "» Zum Angebot: ..." line as the article's.
 */
const ARROW_TEASER = /^(?:>>|→|►|▶|➔|➜)\s/;

/**
 * SIGNUP_LINK: a link that asks to click and register, subscribe or order ("Einfach hier klicken und
 * für das digitale DHB registrieren!", "Click here to subscribe"): the box it closes is the site's
 * own promotion
 */
const SIGNUP_LINK = /\b(?:hier klicken|click here)\b.{0,60}\b(?:registrieren|anmelden|abonnieren|bestellen|register|subscribe|sign up)\b/i;

/** isPromotionLink: the block's whole text is one link behind an arrow (ARROW_TEASER), or it closes with a SIGNUP_LINK. */
function isPromotionLink(el: DomElement, s: TextStats): boolean {
  const links = el.querySelectorAll("a");
  if (links.length !== 1) return false;
  const text = normalizeSpace(links[0]!.textContent ?? "");
  if (s.linkText === s.text && s.text >= TEASER_MIN_CHARS && ARROW_TEASER.test(text)) return true;
  return SIGNUP_LINK.test(text);
}

/**
 * OFFER_ACTION: the text of an affiliate offer's button ("Apply now" under a credit card, "View deal",
 * "Zum Angebot"): the box it closes is an offer set into the article, not its text. A shop's own
 * "Buy now" is not one of them: on a product page the editions it sells are the page's content.
 */
const OFFER_ACTION = /^(?:apply (?:now|here|today|online)|get (?:this |the )?deal|(?:view|see) (?:the )?deal|check (?:the )?price|jetzt (?:beantragen|sichern)|zum angebot|zum deal|voir l'offre|ver oferta|vai all'offerta)\s*[»›>→]?$/i;
/** OFFER_MAX_CHARS: the longest offer box (non-space characters): a product's name, its figures, a few highlights */
const OFFER_MAX_CHARS = 1500;

/** OFFER_MAX_SHARE: an offer box is under half of the article's text (a page of offers is about them) */
const OFFER_MAX_SHARE = 0.5;

/**
 * offerBoxTest: a block (div, section) of at most OFFER_MAX_CHARS and OFFER_MAX_SHARE of `root`'s
 * text that closes with its own offer button and holds more than the button (a credit card's
 * name, bonus and terms); a button alone, as in a shop table's cell, stays.
 */
function offerBoxTest(root: DomNode, stats: Map<DomNode, TextStats>): (el: DomElement) => boolean {
  const limit = Math.min(OFFER_MAX_CHARS, OFFER_MAX_SHARE * contentOf(stats, root));
  return (el) => {
    const tag = el.nodeName.toLowerCase();
    if (tag !== "div" && tag !== "section") return false;
    const s = stats.get(el);
    if (!s || s.text === 0 || s.text > limit) return false;
    const button = offerButtonChars(el);
    return button > 0 && s.text > 2 * button;
  };
}

/** offerButtonChars: the characters of the block's offer button (0 when it has none): one of its own children is a link that reads OFFER_ACTION, or holds only such a link. */
function offerButtonChars(el: DomElement): number {
  const kids = el.childNodes;
  for (let i = 0; i < kids.length; i++) {
    const kid = kids[i] as DomElement;
    if (kid.nodeType !== 1) continue;
    const tag = kid.nodeName.toLowerCase();
    const links = tag === "a" ? [kid] : kid.querySelectorAll("a");
    if (links.length !== 1) continue;
    const text = normalizeSpace(links[0]!.textContent ?? "");
    if (text.length <= 30 && OFFER_ACTION.test(text) && normalizeSpace(kid.textContent ?? "") === text) return countChars(text);
  }
  return 0;
}

/**
 * isCallToAction: a short paragraph that asks the reader to subscribe or sign up (paywall and
 * newsletter boxes inside the article), that is a print button's row ("Rezept drucken"), or that
 * points to other articles ("Lesen Sie auch: <link>", a lone "Weiterlesen" or download link).
 */
function isCallToAction(el: DomElement, stats: Map<DomNode, TextStats>): boolean {
  const tag = el.nodeName.toLowerCase();
  const heading = HEADING_TAGS.has(tag);
  if (tag !== "p" && tag !== "div" && tag !== "blockquote" && !heading) return false;
  const s = stats.get(el);
  if (!s || s.text === 0 || s.text > CTA_MAX_CHARS) return false;
  const text = normalizeSpace(el.textContent ?? "");
  // A quote set apart that points to another article ("PUEDES VER: <link>") is a teaser, not a quote.
  if (tag === "blockquote") return READ_ALSO.test(text) && s.linkText > 0;
  // A heading over the box is the box's title: "Unterstütze RosaMag!", "Artikel gefallen? Vergiss nicht zu teilen!"
  if (heading) return s.text <= ENGAGE_HEADING_MAX_CHARS && ENGAGE_ASK.test(text);
  if (tag === "div" && el.querySelectorAll("p, div, ul, ol, table, h1, h2, h3, h4, h5, h6").length > 0) return false;
  if (isMoreLink(el, s) || isPromotionLink(el, s)) return true;
  if (SUBSCRIBE_WORDS.test(withoutQuotes(text)) || isFollowUs(text) || ENGAGE_ASK.test(text)) return true;
  if (s.text <= PRINT_MAX_CHARS && (PRINT_ACTION.test(text) || TOGGLE_ACTION.test(text))) return true;
  // A paragraph that is only a "related" label ("À lire aussi", "Auch lesen:") acts as its heading.
  if (isRelatedLabel(text)) return true;
  return READ_ALSO.test(text) && s.linkText > 0;
}

/** RELATED_LABEL_MAX_CHARS: a "related" label that ends in a colon may add a few words ("Lesen Sie auch die folgenden Beiträge:") */
const RELATED_LABEL_MAX_CHARS = 60;

/** isRelatedLabel: the text is only a "related" label ("À lire aussi »", "Auch lesen:"), or one with a few more words that ends in a colon. */
function isRelatedLabel(text: string): boolean {
  if (text.length > RELATED_LABEL_MAX_CHARS) return false;
  const label = relatedLabel(text);
  const found = RELATED_HEADING.exec(label);
  if (!found) return false;
  return (text.length <= 40 && found[0].length >= label.length) || /:\s*$/.test(text);
}

/**
 * ENGAGE_ASK: a line that asks the reader for something other than the article's subject, at its
 * start: to support or donate to the site, to rate or share the article, to write in, to read on
 * behind a login, not to miss its news ("If you enjoyed reading this post", "Gefällt dir unser
 * Klettermagazin?", "Valora esta noticia", "Pour lire la suite", "Verpasse keine News").
 */
const ENGAGE_ASK = new RegExp(
  "^(?:if you (?:enjoyed|liked|like|appreciate)\\b|(?:did you )?(?:enjoy|like)(?:d)? (?:this|our) (?:article|post|story|magazine)|we want to hear what you think|submit (?:your|a) letter|" +
    "gefällt (?:dir|ihnen|euch) (?:unser|unsere|dieser|diese|der|das)\\b|(?:artikel|beitrag) gefallen\\?|unterstütze (?:uns|unser\\p{L}*|\\p{Lu}\\p{L}*)|unterstützen sie (?:uns|unser\\p{L}*)|verpasse keine|(?:\\d{4} )?nichts mehr (?:verpassen|versäumen)|" +
    "support (?:us|our|independent)\\b|valora esta|califica esta|apoya (?:nuestro|el periodismo)|pour lire la suite|soutenez(?:-nous)?\\b|" +
    "get (?:the latest|our|breaking) (?:news|updates|stories|headlines)\\b|download (?:our|the \\S+) app\\b|become a (?:member|subscriber|supporter)\\b|werden sie (?:jetzt )?mitglied|werde (?:jetzt )?mitglied|" +
    "(?:kennt ihr|kennst du|kennen sie) (?:schon |bereits )?unser\\p{L}*|(?:have you|did you) (?:seen|tried|heard (?:of|about)) our\\b|check out our\\b)",
  "iu",
);
/** ENGAGE_HEADING_MAX_CHARS: a box's title that asks the reader for something is short (non-space characters) */
const ENGAGE_HEADING_MAX_CHARS = 80;

/** NOTICE_MAX_CHARS: a notice (copyright line, ad label, comment counter, filing line) is short (non-space characters) */
const NOTICE_MAX_CHARS = 300;
/**
 * CITATION_NOTICE: the site's suggested citation of the post, a label then the reference
 * ("SUGGESTED CITATION Sauer, Heiko: ...", "Zitiervorschlag: ...", "Cite this article as: ...");
 * the label must be followed by a colon or by the author's name, so a sentence about citing stays.
 */
const CITATION_NOTICE = /^(?:suggested citation|zitiervorschlag|zitierhinweis|citation suggérée|cita sugerida|cite this (?:article|post|page) as|how to cite this (?:article|post|page))\s*(?::|\p{Lu}[\p{L}'’-]+,)/iu;
/** SITE_NOTICE_MAX_CHARS: a site's disclosure or notice runs to a few sentences, no more */
const SITE_NOTICE_MAX_CHARS = 800;
/** RIGHTS_NOTICE: a copyright line in the languages of the pages seen ("© 2020 CBS Interactive Inc.", "Alle Rechte vorbehalten") */
const RIGHTS_NOTICE = /^\s*(?:©|\(c\)\s*\d{4}|copyright\b)|all rights reserved|alle rechte vorbehalten|todos los derechos reservados|tous droits réservés|tutti i diritti riservati|wszelkie prawa zastrzeżone|todos os direitos reservados|copyrighted property|materiał chroniony prawem/i;
/** AD_LABEL: the label that marks an advertisement ("Anzeige", "- Anzeige -", "ANZEIGE - ...", "Publicidad"), alone or opening the block */
const AD_LABEL = /^[\s\-–—|*]*(?:anzeige|werbung|advertisement|advertising|publicidad|publicité|pubblicità|reklama|sponsored|gesponsert)\s*(?:$|[-–—:|,(])/i;
/** COMMENT_NOTICE: a comment counter or prompt ("Kommentare insgesamt: 0", "Keine Kommentare", "Leave a reply", "Comments are closed") */
const COMMENT_NOTICE = new RegExp(
  "^(?:\\d+\\s+)?(?:kommentare?|comments?|comentarios?|commentaires?|commenti|komentarz\\p{L}*)(?:\\s+(?:insgesamt|total|geschlossen|closed|are closed|sind geschlossen))?\\s*:?\\s*\\d*$|" +
    "^(?:keine|no|sin|aucun|nessun|brak)\\s+(?:kommentare|comments|comentarios|commentaires?|commenti|komentarzy)|" +
    "^(?:leave a (?:comment|reply)|schreibe einen kommentar|hinterlasse einen kommentar|deja (?:un|tu) comentario|laisser un commentaire|lascia un commento)",
  "iu",
);
/** VIEW_COUNTER: a post's view counter ("(Visited 215 times, 55 visits today)", "Views: 184", "37 views", "Aufrufe: 12"); VIEW_COUNTER_MAX_CHARS: it is one short line (non-space characters) */
const VIEW_COUNTER = /^\(?(?:visited|viewed|gelesen|aufgerufen)\s+[\d.,]+\s*(?:times|mal|x)\b|^(?:aufrufe|views|hits|zugriffe|visualizaciones|vues|visite|lecturas)\s*:?\s*[\d.,]*$|^[\d.,]+\s+(?:views|aufrufe|hits|zugriffe|lecturas|vues|visualizaciones|visite)$|^(?:\d+\s*x|[\d.,]+\s+mal)\s+gelesen$/i;
const VIEW_COUNTER_MAX_CHARS = 50;
/**
 * POSTED_LINE: a blog theme's filing footer ("This entry was posted on <date> and is filed under
 * <categories>. You can follow any responses ...", "Der Beitrag wurde am ... veröffentlicht")
 */
const POSTED_LINE = /^(?:this (?:entry|post) was posted|(?:der|dieser) (?:beitrag|eintrag|artikel) wurde (?:am|veröffentlicht|publiziert)|cette entrée a été publiée|esta entrada (?:fue publicada|se publicó)|questa voce è stata pubblicata|ten wpis (?:został )?opublikowan)/i;
/** POSTED_LINE_MAX_CHARS: such a footer, with its sentences on comments and trackbacks, is this long at most (non-space characters) */
const POSTED_LINE_MAX_CHARS = 500;
/** COMMENT_WORD, LOGIN_WORD: a line that says one must log in to comment ("Sie müssen eingeloggt sein, um Kommentare zu schreiben", "You must be logged in to post a comment") */
const COMMENT_WORD = /\b(?:kommentar\p{L}*|kommentier\p{L}*|comment\p{L}*|comentar\p{L}*|commentaire\p{L}*|commentare|komentarz\p{L}*)/iu;
const LOGIN_WORD = /\b(?:eingeloggt|angemeldet|einloggen|anmelden|logged in|log in|login|sign in|signed in|registriert|registered|iniciar sesión|inicia sesión|connecté|connectez|zalogowany|zaloguj)\b/iu;
/** POST_FOOTER: a blog post's footer line of feeds and trackbacks ("Kommentarfeed | Kommentare geschlossen | Trackback-URL") */
const POST_FOOTER = /\b(?:trackback(?:-url)?|kommentarfeed|comments? (?:rss )?feed|rss 2\.0 feed)\b/i;
/** POST_FOOTER_MAX_CHARS: such a footer line is short (non-space characters); a paragraph that explains trackbacks is longer */
const POST_FOOTER_MAX_CHARS = 120;
/** TAXONOMY_PATH: a link to a category, tag or author page ("/category/linux/", "/tag/bilt/", "/author/ts/") */
const TAXONOMY_PATH = /\/(?:tags?|[\w-]*category|[\w-]*categories|kategorie|kategorien|categoria|categorie|categorías?|author|authors|autor|autoren|auteur|schlagwort|schlagworte|stichwort)\//i;
/**
 * FILING_MAX_OWN_CHARS: a filing line ("Posted on <date> in <category>, <category>") has this much
 * text of its own at most, beside its links; FILING_SHORT_CHARS: with one such link (a byline to
 * the author page, "Posted in <category>"), this much
 */
const FILING_MAX_OWN_CHARS = 120;
const FILING_SHORT_CHARS = 50;
/** INLINE_TAG_PATH: tag pages, which news sites also link from sentences of the article: one such link counts only on a line of FILING_TAG_CHARS */
const INLINE_TAG_PATH = /\/(?:tags?|schlagworte?|stichwort)\//i;
const FILING_TAG_CHARS = 30;

/**
 * isPageNotice: a short block that is about the page, not part of its text: a copyright line, an
 * advertisement's label, a comment counter or prompt, or a filing line whose links go to the site's
 * category, tag or author pages ("Erstellt am ... und abgelegt unter Linux, Tutorials").
 */
function isPageNotice(el: DomElement, stats: Map<DomNode, TextStats>): boolean {
  const tag = el.nodeName.toLowerCase();
  // A layout table of one short line ("Kommentare insgesamt: 0" in a CMS's table under the entry) is a block too.
  if (tag !== "p" && tag !== "div" && tag !== "small" && tag !== "span" && tag !== "section" && tag !== "table") return false;
  const s = stats.get(el);
  if (!s || s.text === 0 || s.text > POSTED_LINE_MAX_CHARS) return false;
  if (tag !== "p" && el.querySelectorAll("p, ul, ol, table, h1, h2, h3, h4, h5, h6, blockquote, pre").length > 0) return false;
  if (tag === "span" && insideProse(el)) return false;
  const text = normalizeSpace(el.textContent ?? "");
  // The theme's filing footer also says how to follow the comments and trackbacks: it runs longer.
  if (POSTED_LINE.test(text)) return true;
  // A site's notice (a disclosure, a warning in capitals) runs to a few sentences; a block longer than that
  // (a wrapper of an article on sponsorship that says "this article is ... sponsored") is text.
  if (isConsentPlaceholder(text, s) || (text.length <= SITE_NOTICE_MAX_CHARS && isSiteNotice(lineText(el)))) return true;
  if (s.text > NOTICE_MAX_CHARS) return false;
  if (RIGHTS_NOTICE.test(text) || AD_LABEL.test(text) || COMMENT_NOTICE.test(text) || CITATION_NOTICE.test(text) || (s.text <= VIEW_COUNTER_MAX_CHARS && VIEW_COUNTER.test(text))) return true;
  if (isFilingRow(text)) return true;
  // A tags line: its label, then links to topic pages ("Themen: Pressefreiheit", "Tags: EU, Wahlen").
  const tagsLabel = TAGS_LABEL.exec(text);
  if (tagsLabel && s.linkText > 0 && s.text - s.linkText <= countChars(tagsLabel[0]) + FILING_TAG_CHARS) return true;
  if (POST_FOOTER.test(text) && s.text <= POST_FOOTER_MAX_CHARS && s.linkText > 0) return true;
  if (COMMENT_WORD.test(text) && LOGIN_WORD.test(text)) return true;
  if (s.text - s.linkText > FILING_MAX_OWN_CHARS) return false;
  const links = el.querySelectorAll("a[href]");
  let taxonomy = 0;
  let tags = 0;
  for (let i = 0; i < links.length; i++) {
    const href = links[i]!.getAttribute("href") ?? "";
    if (TAXONOMY_PATH.test(href)) taxonomy++;
    if (INLINE_TAG_PATH.test(href)) tags++;
  }
  if (taxonomy === 0 || taxonomy * 2 < links.length) return false;
  // A sentence of the article that links some of its names to tag pages ("<a>Dee Dee Myers</a> — a
  // White House press secretary for <a>Bill Clinton</a> — is exiting ...") is no filing line.
  if (taxonomy >= 2 && isSentenceAroundLinks(el)) return false;
  return taxonomy >= 2 || s.text - s.linkText <= (tags > 0 ? FILING_TAG_CHARS : FILING_SHORT_CHARS);
}

/**
 * CONSENT_ASK, CONSENT_EMBED, CONSENT_BLOCKED: the placeholder a page shows instead of an embedded
 * post, video or map until the reader consents ("Wir respektieren deine Privatsphäre und stellen
 * deshalb ohne dein Einverständnis keine Verbindung zu Twitter her", "This content is blocked.
 * Accept cookies to view it", "Externer Inhalt: ... erst nach Ihrer Zustimmung geladen"): it speaks
 * of consent, cookies or privacy settings, of a third party's content, and of showing or loading it.
 */
const CONSENT_ASK = /\b(?:einverständnis|einwilligung|zustimmung|zustimmen|datenschutz\p{L}*|cookies?|consent|privacy|akzeptier\p{L}*|accept\p{L}*|consentimiento|consentement|acepta\p{L}*|aceptar|privacidad|confidentialité|autoriz\p{L}*)\b/iu;
const CONSENT_EMBED = /\b(?:externe[nrms]?|external|third[- ]party|drittanbieter\p{L}*|eingebettete?[nrms]?|embedded|embed|inhalte?|content|contenido|contenu|twitter|youtube|instagram|facebook|vimeo|spotify|soundcloud|podigee|tiktok|google maps|maps|social[- ]media(?:-\p{L}+)?|datawrapper|video|videos|podcast)\b/iu;
const CONSENT_BLOCKED = /\b(?:blockiert|blocked|bloqueado|bloqué|nicht angezeigt|not (?:be )?(?:shown|displayed|loaded)|keine verbindung|verbindung zu|geladen|laden|load(?:ed)?|anzeigen|angezeigt|show|display(?:ed)?|aktivier\p{L}*|enable|activate|freigeben|zulassen|allow|mostrar|cargar|afficher|charger)\b/iu;
/** CONSENT_MAX_CHARS: such a placeholder is a few sentences (non-space characters) */
const CONSENT_MAX_CHARS = 400;
/** CONSENT_BUTTON: the button under the placeholder ("Datenschutzeinstellungen verwalten", "Inhalt laden", "Accept cookies") */
const CONSENT_BUTTON = /^(?:(?:datenschutz|privacy|cookie|consent)[- ]?(?:einstellungen|settings|preferences)(?: (?:verwalten|ändern|anpassen|manage|öffnen))?|(?:manage|change|open) (?:privacy|cookie|consent) (?:settings|preferences)|(?:externe[nrm]? )?inhalte? (?:laden|anzeigen|aktivieren|entsperren)|(?:load|show|view|enable|unblock) (?:the )?(?:external )?(?:content|video|post|tweet|map)|(?:alle )?(?:cookies )?(?:akzeptieren|zustimmen)(?: und (?:laden|anzeigen|fortfahren))?|accept(?: all)?(?: cookies)?(?: and (?:load|continue|show))?|aceptar(?: cookies)?|accepter(?: les cookies)?)$/i;
const CONSENT_BUTTON_MAX_CHARS = 60;

/** isConsentPlaceholder: the text is a consent placeholder for embedded content, or the button under one. */
function isConsentPlaceholder(text: string, s: TextStats): boolean {
  if (s.text <= CONSENT_BUTTON_MAX_CHARS && CONSENT_BUTTON.test(text.replace(/[.!›»→]+$/, "").trim())) return true;
  return s.text <= CONSENT_MAX_CHARS && CONSENT_ASK.test(text) && CONSENT_EMBED.test(text) && CONSENT_BLOCKED.test(text) && CONSENT_SETTINGS.test(text);
}
/** CONSENT_SETTINGS: the placeholder sends the reader to a choice (settings, a button, cookies, a consent) rather than reporting one */
const CONSENT_SETTINGS = /\b(?:einstellungen|settings|preferences|klick\p{L}*|click|button|schaltfläche|consent|einverständnis|einwilligung|zustimm\p{L}*|akzeptier\p{L}*|accept\p{L}*|aceptar|accepter|configuración|paramètres)\b/iu;

/**
 * PAID_WORDS, DISCLOSING: a disclosure of sponsored content or affiliate links ("Diese Seite zeigt
 * gesponserten Marketing-Inhalt ...", "*Disclosure: Some of the links above are affiliate links,
 * meaning ... Fandom will earn a commission"): it names paid content and says what the page does or earns.
 */
const PAID_WORDS = /\b(?:gesponsert\p{L}*|sponsored|sponsoris\p{L}*|patrocinad\p{L}*|affiliate(?:[- ]links?)?|provisions?-?links?|partner-?links?|werbelinks?|bezahlte[nr]? (?:inhalt|beitrag|partnerschaft)|paid (?:post|content|partnership)|marketing-inhalt\p{L}*|our advertisers|advertising partners?|unsere[rn]? werbepartner\p{L}*)\b/iu;
const DISCLOSING = /\b(?:disclosure|offenlegung|transparenz\p{L}*|commissions?|provision(?:en)?|earn|verdien\p{L}*|erhalten wir|we (?:may )?receive|(?:this|the) (?:page|post|article|site|content) (?:contains|shows|is|was)|diese[rs]? (?:seite|beitrag|artikel|inhalt) (?:zeigt|enthält|ist|wurde)|esta (?:página|nota) (?:contiene|es)|cette page contient)\b/iu;
/** SITE_NOTICE_LABEL: a notice set apart in capitals at a paragraph's start ("AVISO IMPORTANTE:", "WICHTIGER HINWEIS:", "DISCLAIMER:") */
const SITE_NOTICE_LABEL = /^\W*(?:AVISO(?: IMPORTANTE| LEGAL)?|AVVISO|WICHTIGER HINWEIS|HAFTUNGSAUSSCHLUSS|DISCLAIMER|IMPORTANT NOTICE|AVIS IMPORTANT|NOTE TO (?:OUR )?READERS)\s*[:!]/u;
/**
 * BROADCAST_NOTE, NETWORK_NOTE: a broadcaster's line on when the story was on air ("Über dieses
 * Thema berichtete Inforadio am 29. April 2020 um 09:53 Uhr", "Dieses Thema im Programm: ..."), and
 * a newsroom's line on the network it belongs to ("fr.de ist Teil des bundesweiten Ippen-Redaktionsnetzwerks")
 */
const BROADCAST_NOTE = /^(?:über dieses thema berichtete|dieses thema im programm|darüber berichtete)\b/i;
const NETWORK_NOTE = /^\W*\S+ (?:ist|is) (?:teil|part|ein teil|mitglied|a member) (?:des|der|of the|of) .{0,40}(?:netzwerk|network|verbund)\p{L}*\W*$/iu;

/** lineText: an element's text with a space where a <br> breaks its lines ("Hinweis zu der Meldung<br>Diese Seite ..."), spaces normalised. */
function lineText(el: DomElement): string {
  let text = "";
  const walk = (node: DomNode): void => {
    for (let i = 0; i < node.childNodes.length; i++) {
      const child = node.childNodes[i]!;
      if (child.nodeType === 3) text += child.textContent ?? "";
      else if (child.nodeType === 1) {
        if (child.nodeName.toLowerCase() === "br") text += " ";
        else walk(child);
      }
    }
  };
  walk(el);
  return normalizeSpace(text);
}

/** isSiteNotice: the text is one of the site's own notices: a disclosure of paid content, a notice in capitals, a broadcast or network line. */
function isSiteNotice(text: string): boolean {
  return (PAID_WORDS.test(text) && DISCLOSING.test(text)) || SITE_NOTICE_LABEL.test(text) || BROADCAST_NOTE.test(text) || NETWORK_NOTE.test(text);
}

/** TAGS_LABEL: the label of a tags line, in the languages of the pages seen */
const TAGS_LABEL = /^(?:tags?|themen|thema|topics?|schlagw(?:orte|örter)|stichw(?:orte|örter)|keywords|etiquetas|temas|mots-clés|tagi|tematy|argomenti)\s*:/i;

/** FILING_ROW_PART_CHARS: each part of a filing row ("1.12.2022 | Quelle: Shanghai Electric | solarserver.de © Solarthemen Media GmbH") is short (non-space characters) */
const FILING_ROW_PART_CHARS = 60;

/** isFilingRow: a line of two or more short parts set apart by bars or dots, one of them a date, a source or a copyright: the article's filing stamp, not its text. */
function isFilingRow(text: string): boolean {
  const parts = text.split(/\s[|•·]\s/).map((part) => part.trim()).filter(Boolean);
  if (parts.length < 2 || parts.some((part) => countChars(part) > FILING_ROW_PART_CHARS)) return false;
  return parts.some((part) => isDateStamp(part) || SOURCE_LINE.test(part) || /©|\(c\)\s*\d{4}/i.test(part) || VIEW_COUNTER.test(part));
}

/** SENTENCE_GAP_WORDS: this many words between two links to tag or category pages make the line a sentence; a filing line has its labels there ("und getaggt als", "in", ",") */
const SENTENCE_GAP_WORDS = 6;

/** isSentenceAroundLinks: somewhere between two of the element's links to tag or category pages run SENTENCE_GAP_WORDS words or more. */
function isSentenceAroundLinks(el: DomElement): boolean {
  let gap = -1;
  let longest = 0;
  const walk = (node: DomNode): void => {
    for (let i = 0; i < node.childNodes.length; i++) {
      const child = node.childNodes[i]!;
      if (child.nodeType === 3) {
        if (gap >= 0) gap += (child.textContent ?? "").split(/\s+/).filter((w) => /\p{L}{2,}/u.test(w)).length;
      } else if (child.nodeType === 1 && child.nodeName.toLowerCase() === "a") {
        if (TAXONOMY_PATH.test((child as DomElement).getAttribute("href") ?? "")) {
          if (gap >= 0) longest = Math.max(longest, gap);
          gap = 0;
        } else if (gap >= 0) gap += (child.textContent ?? "").split(/\s+/).filter((w) => /\p{L}{2,}/u.test(w)).length;
      } else if (child.nodeType === 1) walk(child);
    }
  };
  walk(el);
  return longest >= SENTENCE_GAP_WORDS;
}

/** isReadAlsoHeading: a heading that is a link to another article behind a "Read also:" label ("MIRA: ...", "VEA TAMBIÉN: ..."). */
function isReadAlsoHeading(el: DomElement, stats: Map<DomNode, TextStats>): boolean {
  if (!HEADING_TAGS.has(el.nodeName.toLowerCase())) return false;
  const s = stats.get(el);
  return !!s && s.linkText > 0 && READ_ALSO.test(normalizeSpace(el.textContent ?? ""));
}

/** TEASER_LINK_SHARE: a block whose text is at least this share link text is a link; TEASER_MIN_CHARS: and says something (non-space characters) */
const TEASER_LINK_SHARE = 0.9;
const TEASER_MIN_CHARS = 15;

/** isLinkBlock: a paragraph or heading that is nothing but a link to another page ("<p><a>Headline of another story</a></p>"). */
function isLinkBlock(el: DomElement, stats: Map<DomNode, TextStats>): boolean {
  const tag = el.nodeName.toLowerCase();
  if (tag !== "p" && !HEADING_TAGS.has(tag)) return false;
  const s = stats.get(el);
  return !!s && s.text >= TEASER_MIN_CHARS && s.linkText >= TEASER_LINK_SHARE * s.text;
}

/**
 * isTeaserRun: a link-only paragraph or heading next to another one: a rail of teasers to other
 * stories written as paragraphs, which the link-list test (lists and divs) does not see. One link on
 * its own line between paragraphs of text ("the full report") stays.
 */
function isTeaserRun(el: DomElement, stats: Map<DomNode, TextStats>): boolean {
  if (!isLinkBlock(el, stats)) return false;
  const next = nextElement(el);
  if (next && isLinkBlock(next, stats)) return true;
  const previous = previousElement(el);
  return previous !== null && isLinkBlock(previous, stats);
}

/**
 * isTeaserList: inside Readability's article, a list or block of links ("Read also: ...", a
 * teaser rail) is dropped like in the fallback; a paragraph that is one link, or a list of links in
 * a table cell (an infobox's "Founders"), is content.
 */
function isTeaserList(el: DomElement, stats: Map<DomNode, TextStats>): boolean {
  if (el.nodeName.toLowerCase() === "p" || !isLinkList(el, stats)) return false;
  for (let p = el.parentNode; p && p.nodeType === 1; p = p.parentNode) {
    const tag = p.nodeName.toLowerCase();
    if (tag === "td" || tag === "th") return false;
    if (tag === "table" || tag === "article" || tag === "body") break;
  }
  return true;
}

/**
 * isChromeUnlessProse: chrome by markup, or by name unless the block holds running text. The density
 * estimate falls back to it when the strict test leaves almost no text (the page's content sits in a
 * wrapper named "cb-sidebar-right" or the like).
 */
function isChromeUnlessProse(el: DomElement): boolean {
  const kind = chromeKind(el);
  return kind === "markup" || (kind === "name" && !isProse(el));
}

/** PAGE_WRAPPER_SHARE: a block named like chrome that holds this share of the whole page's text is the page's layout wrapper */
const PAGE_WRAPPER_SHARE = 0.7;

/**
 * pageWrapperTest: a block named like chrome, no chrome by markup, that holds the page's headline
 * and PAGE_WRAPPER_SHARE of its visible text. One measuring pass and one walk up from each h1, so
 * that nested blocks named like chrome (10 000 of them on a hostile page) cost no more than one.
 */
function pageWrapperTest(body: DomNode): (el: DomElement) => boolean {
  const all = measureText(body, () => false);
  const pageChars = all.get(body)?.text ?? 0;
  const holders = new Set<DomNode>();
  const headlines = (body as DomElement).querySelectorAll("h1");
  for (let i = 0; i < headlines.length; i++) {
    for (let node: DomNode | null = headlines[i]!; node && node !== body && !holders.has(node); node = node.parentNode) holders.add(node);
  }
  return (el) => holders.has(el) && (all.get(el)?.text ?? 0) > PAGE_WRAPPER_SHARE * pageChars && chromeKind(el) === "name";
}

/** densityEstimate: the density pick with the strict chrome test, or with the broad one when the strict one finds too little. */
function densityEstimate(body: DomNode): DensityPick {
  const strict = densityPick(body);
  if (strict.contentChars >= MIN_ARTICLE_CHARS) return strict;
  let broad = densityPick(body, isChromeUnlessProse);
  if (broad.contentChars < MIN_ARTICLE_CHARS) {
    // A page-wide wrapper named like chrome ("page-banner", "ad-layout") holds the whole page:
    // within the page, as within an article, such a name on a block holding much of it is a layout name.
    const isPageWrapper = pageWrapperTest(body);
    const wrapped = densityPick(body, (el) => isBoilerplate(el) && !isPageWrapper(el));
    if (wrapped.contentChars > broad.contentChars) broad = wrapped;
  }
  return broad.contentChars > 2 * strict.contentChars ? broad : strict;
}

/** pageTitlesOf: the page's <title> and its og:title (a newsroom's title tag and its headline often differ: "Lübeck: So war die Auktion ..." over "So lief die Auktion ..."). */
function pageTitlesOf(document: Document): string[] {
  const title = document.querySelector("title")?.textContent ?? "";
  const og = document.querySelector('meta[property="og:title"]')?.getAttribute("content") ?? "";
  return [title, og].filter((t) => t.trim());
}

/**
 * pageDescriptionsOf: the page's own summary in its head (meta description, og:description,
 * twitter:description), spaces normalised; newsrooms and blog engines fill it from the standfirst.
 */
function pageDescriptionsOf(document: Document): PageDescription[] {
  const metas = document.querySelectorAll('meta[name="description"], meta[property="og:description"], meta[name="twitter:description"], meta[property="twitter:description"]');
  const found = new Map<string, PageDescription>();
  for (let i = 0; i < metas.length; i++) {
    const whole = normalizeSpace(metas[i]!.getAttribute("content") ?? "");
    if (countChars(whole) < LEAD_MIN_CHARS || found.has(whole)) continue;
    const cut = whole.replace(DESCRIPTION_CUT, "");
    found.set(whole, { whole, cut: cut !== whole && countChars(cut) >= LEAD_MIN_CHARS ? cut : null });
  }
  return [...found.values()];
}

/** PageDescription: a page's description, and the text before its "..." when it was cut short (else null) */
interface PageDescription {
  whole: string;
  cut: string | null;
}

/** bodyOf: the page's body, or its root element when it has none. */
function bodyOf(document: Document): DomNode {
  return (document.body ?? document.documentElement) as unknown as DomNode;
}

/**
 * chromeWithin is the chrome test inside an article of `total` characters: a chrome-like class name
 * ("post-related-wrap", "item-content__row--sidebar") on a block that holds much of the article's
 * text, or running text, names a layout wrapper, not chrome. Memoized per element.
 */
function chromeWithin(total: number, byName = true): (el: DomElement) => boolean {
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

/**
 * findMainContent picks the main content of a parsed page. `reparse` yields a fresh copy of the page,
 * needed only when the page's marked article or the fallback wins (Readability rewrites the document it reads).
 */
export function findMainContent(document: Document, reparse: () => Document): MainContent {
  const body = bodyOf(document);
  const density = densityEstimate(body);
  const shape = pageShape(body);
  const readable = shape.maxDepth <= READABILITY_MAX_DEPTH && shape.elements <= READABILITY_MAX_ELEMENTS;
  const marked = markedArticle(body, density.stats);
  const lead = leadParagraph(body, density.stats, pageTitlesOf(document), pageDescriptionsOf(document));
  const densityProbes = probesOf(density.element as DomElement, density.stats);
  const article = readable ? runReadability(document) : null;
  const articleChars = article ? countChars(article.textContent ?? "") : 0;
  let articleChrome = chromeWithin(articleChars);
  let articleStats = article ? measureText(article, articleChrome) : null;
  // What is left of the article once its chrome is out must still be "enough" (not a cookie notice).
  let keptChars = article ? contentOf(articleStats!, article) : 0;
  if (article && articleChars >= MIN_ARTICLE_CHARS && keptChars < NAMED_CHROME_LEFT * articleChars) {
    // Chrome by class name took nearly all of Readability's article: its parts are named like chrome
    // ("live-match-comment" entries of a live ticker, "post" blocks of a thread), and only chrome by
    // markup (nav, footer, aside, ...) is left out.
    articleChrome = chromeWithin(articleChars, false);
    articleStats = measureText(article, articleChrome);
    keptChars = contentOf(articleStats, article);
  }
  const enough = articleChars >= Math.min(MIN_ARTICLE_CHARS, density.contentChars) && (keptChars >= MIN_SHARE_OF_DENSITY * density.contentChars || keptChars >= LONG_ARTICLE_CHARS);
  if (marked && article && enough && (!sharesText(article, marked.probes) || marked.contentChars > MARKED_GROWTH * keptChars)) {
    // The page marks its article (articleBody, a single <article>) and Readability took another part
    // of the page (a login box, a teaser block), or only a part of the article (its text is split
    // over sibling blocks): the page's own mark wins.
    const fresh = followPath(bodyOf(reparse()), marked.path);
    if (fresh) {
      const chrome = chromeWithin(countChars(fresh.textContent ?? ""));
      const stats = measureText(fresh, chrome);
      const related = relatedBlocks(fresh, stats);
      const caption = captionTest(fresh, stats);
      const offer = offerBoxTest(fresh, stats);
      const base = (el: DomElement) => related.has(el) || chrome(el) || caption(el) || offer(el) || isLinkList(el, stats) || isCallToAction(el, stats) || isPageNotice(el, stats) || isReadAlsoHeading(el, stats) || isTeaserRun(el, stats);
      return { roots: withLead(lead, fresh), skip: withTeaserSections(fresh, stats, base), method: "marked" };
    }
  }
  // The density estimate's paragraphs, read before Readability rewrites the page: when Readability's
  // article holds none of them and less text, Readability took a box beside the article (an
  // advertiser disclosure, a newsletter form) and the density estimate wins.
  // When the page's own mark and Readability agree on the article, the density estimate (a long
  // comment thread, a directory of posts) does not overrule them.
  const agreed = marked !== null && article !== null && sharesText(article, marked.probes);
  // The density estimate is one paragraph (a short news item): its one probe says where it is.
  const densityMinProbes = (density.element as DomElement).nodeName.toLowerCase() === "p" ? 1 : 2;
  const elsewhere = article && enough && !agreed && densityProbes.length >= densityMinProbes && density.contentChars > DENSITY_GROWTH * keptChars && !sharesText(article, densityProbes);
  if (article && enough && !elsewhere) {
    const stats = articleStats!;
    const related = relatedBlocks(article, stats);
    const caption = captionTest(article, stats);
    const offer = offerBoxTest(article, stats);
    const skip = withTeaserSections(article, stats, (el: DomElement) => related.has(el) || caption(el) || offer(el) || isTeaserList(el, stats) || isCallToAction(el, stats) || isPageNotice(el, stats) || isReadAlsoHeading(el, stats) || isTeaserRun(el, stats) || articleChrome(el));
    // Readability often leaves out the lead under the headline (it sits in the article's header).
    return { roots: withLead(lead, article), skip, method: "readability" };
  }
  // Readability rewrites the document it reads: measure a fresh copy (unless it never ran).
  const pick = readable ? densityPick(bodyOf(reparse()), density.excluded) : density;
  const related = relatedBlocks(pick.element, pick.stats);
  const caption = captionTest(pick.element, pick.stats);
  const offer = offerBoxTest(pick.element, pick.stats);
  const base = (el: DomElement) => related.has(el) || pick.excluded(el) || caption(el) || offer(el) || isLinkList(el, pick.stats) || isCallToAction(el, pick.stats) || isPageNotice(el, pick.stats) || isReadAlsoHeading(el, pick.stats) || isTeaserRun(el, pick.stats);
  return { roots: withLead(lead, pick.element), skip: withTeaserSections(pick.element, pick.stats, base), method: "density" };
}

/**
 * RELATED_HEADING: a heading that opens a block of links to other pages ("Related articles", "Auch
 * interessant", "Lesen Sie auch", "Te puede interesar", "À lire aussi"), or the author's box.
 */
const RELATED_HEADING = new RegExp(
  "^(?:related(?: articles| posts| stories| content| reading)?|more (?:from|on|in|stories|articles|news)\\b|read (?:more|also|next)|see also|you (?:may|might) (?:also )?like|recommended(?: for you)?|most (?:read|popular)|about the author|(?:(?:the|der|die|el|la|l') ?)?(?:author|authors|autor|autorin|autoren|autora|auteur|autore)$|zur person$|o autorze|sobre (?:el|la|o|a) autora?|à propos de l'auteur|" +
    "auch interessant|auch lesen|lies auch|siehe auch|schon gelesen|(?:das|dies|dieses)(?: thema| artikel)? könnte (?:dich|sie|euch) (?:auch )?interessieren|entdecke (?:weitere|mehr)\\b|noch mehr (?:infos|artikel|beiträge|themen|tipps|geschichten)\\b|mehr (?:zum thema|zu|zum|aus|von|themen)\\b|weitere (?:artikel|beiträge|informationen|themen|links|nachrichten|meldungen)|weiterführende links|(?:vorschau auf )?(?:den |die )?nächsten? (?:artikel|beitrag|folge)$|(?:preview of )?(?:the )?next (?:article|post|story)$|zum weiterlesen|lesen sie (?:auch|mehr)|über (?:den autor|die autorin)|neueste (?:artikel|beiträge)|ähnliche (?:artikel|beiträge|rezepte|produkte)|verwandte (?:artikel|beiträge|themen\\w*)|(?:[\\w ]+ )?similar (?:articles|posts|stories|recipes|dishes|products)\\b|meistgelesen|" +
    "(?:te|le) puede interesar|te recomendamos|noticias relacionadas|lee también|artículos relacionados|más noticias|à lire aussi|lire aussi|articles similaires|sur le même sujet|leggi anche|articoli correlati|(?:czytaj|zobacz) (?:też|także|również)|polecamy|(?:veja|leia) também|mais lidas|more like this|keep reading|you may also be interested|à découvrir aussi|découvrez aussi)",
  "i",
);
/** READ_ALSO: a paragraph that opens with "Read also:", "Lea:", "Mehr Themen:" and then links */
const READ_ALSO = new RegExp(
  `^(?:${RELATED_HEADING.source.slice(4, -1)}|siehe auch|schon gelesen|lesen sie (?:hier|dazu|weiter)|hier lesen sie|mehr dazu|(?:also|further) read(?:ing)?|watch|dowiedz się (?:więcej|też|także)|więcej|saiba mais|leia mais|guarda anche|vedi anche|(?:lea|lee|mira|mire|ver|vea|véase|puedes ver|voir|leia|veja|czytaj|zobacz)(?:\\s+(?:también|tambien|más|mas|además|aussi|mais|também|też|także|również|więcej|dalej))?)\\s*[:?»›→]`,
  "i",
);
/** relatedLabel: a heading's or label's text, spaces normalised, without trailing punctuation or arrows ("Lesen Sie auch:" -> "Lesen Sie auch"), for RELATED_HEADING */
function relatedLabel(text: string): string {
  return normalizeSpace(text).replace(/[:.…»›>?!\s]+$/, "");
}
const HEADING_TAGS = new Set(["h1", "h2", "h3", "h4", "h5", "h6"]);
/** RELATED_MAX_CHARS: a block after a related heading with more non-link text than this is article text again */
const RELATED_MAX_CHARS = 400;

/**
 * relatedBlocks finds the "related" headings under `root` and the short blocks that follow each
 * one up to the next heading: teaser lists and author boxes that Readability keeps in the article.
 */
function relatedBlocks(root: DomNode, stats: Map<DomNode, TextStats>): Set<DomNode> {
  const found = new Set<DomNode>();
  const headings = (root as unknown as DomElement).querySelectorAll?.("h1, h2, h3, h4, h5, h6") ?? [];
  for (let i = 0; i < headings.length; i++) {
    const heading = headings[i]!;
    const text = relatedLabel(heading.textContent ?? "");
    if (!text || text.length > 60 || !RELATED_HEADING.test(text)) continue;
    // A heading alone in its wrapper ("<div class=title><h2>..</h2></div>"): the wrapper's siblings follow it.
    let unit: DomElement = heading;
    for (let up = 0; up < 2; up++) {
      const parent = unit.parentNode as DomElement | null;
      if (!parent || parent === root || parent.nodeType !== 1 || countChars(parent.textContent ?? "") > countChars(heading.textContent ?? "") + 5) break;
      unit = parent;
    }
    found.add(unit);
    // Once the heading's links are passed, a paragraph of running text is the article again (a
    // "Related" box set between two paragraphs of the body): the blocks go up to it.
    let linksSeen = false;
    for (let next = nextElement(unit); next; next = nextElement(next)) {
      if (HEADING_TAGS.has(next.nodeName.toLowerCase())) break;
      const cards = next.querySelectorAll("h1, h2, h3, h4, h5, h6").length > 0;
      if (cards && !isTeaserCards(next, stats)) break;
      const s = stats.get(next);
      if (s && s.text - s.linkText > RELATED_MAX_CHARS) break;
      if (s && linksSeen && next.nodeName.toLowerCase() === "p" && s.text - hrefText(next) > RESUMED_TEXT_CHARS) break;
      // No links at all under a "Related" heading (Readability took the list out): a paragraph of
      // running text right after it is the article going on. An author's heading has its bio there.
      if (s && !linksSeen && !found.has(next) && next === nextElement(unit) && !AUTHOR_HEADING.test(text) && next.nodeName.toLowerCase() === "p" && hrefText(next) === 0 && s.text > RESUMED_TEXT_CHARS && /[.!?…"“”»]\s*$/.test(normalizeSpace(next.textContent ?? ""))) break;
      // The links: a block of links, or one left out as chrome that holds links (a "related_links" list).
      if (cards || (s ? s.text > 0 && hrefText(next) >= TEASER_LINK_SHARE * s.text : hrefText(next) > 0)) linksSeen = true;
      found.add(next);
    }
  }
  // A paragraph that is only a "related" label ("Schon gelesen?", "Das Thema könnte dich auch
  // interessieren:") heads the links under it: the blocks after it that are links (embeds of other
  // posts, teaser lines) go with it, up to the first one with text of its own.
  const paragraphs = (root as unknown as DomElement).querySelectorAll?.("p") ?? [];
  for (let i = 0; i < paragraphs.length; i++) {
    const label = paragraphs[i]!;
    const ls = stats.get(label);
    if (!ls || ls.text === 0 || ls.text > RELATED_LABEL_MAX_CHARS || ls.linkText > 0 || !isRelatedLabel(normalizeSpace(label.textContent ?? ""))) continue;
    found.add(label);
    for (let next = nextElement(label); next; next = nextElement(next)) {
      const s = stats.get(next);
      if (!s) continue;
      if (HEADING_TAGS.has(next.nodeName.toLowerCase()) || s.text - s.linkText > LABELLED_LINK_OWN_CHARS || hrefText(next) === 0) break;
      found.add(next);
    }
  }
  return found;
}

/**
 * isTeaserCards: a block of teaser cards under a "related" heading ("Weitere Beiträge zum Thema" over
 * cards of a headline and a picture that links to the story): every heading in it sits beside a link
 * to another page, and it says next to nothing outside its headings and links.
 */
function isTeaserCards(el: DomElement, stats: Map<DomNode, TextStats>): boolean {
  const s = stats.get(el);
  if (!s) return false;
  const headings = el.querySelectorAll("h1, h2, h3, h4, h5, h6");
  let headingChars = 0;
  for (let i = 0; i < headings.length; i++) headingChars += countChars(headings[i]!.textContent ?? "") - hrefText(headings[i]!);
  const links = Array.from(el.querySelectorAll("a[href]")).filter((a) => !/^(?:#|javascript:)/i.test(a.getAttribute("href") ?? ""));
  return links.length >= headings.length && s.text - hrefText(el) - headingChars <= TEASER_SECTION_OWN_CHARS * headings.length;
}

/** AUTHOR_HEADING: a "related" heading that opens the author's box, whose bio is running text */
const AUTHOR_HEADING = /author|autor|auteur|autore|zur person|über (?:den|die)/i;

/** RESUMED_TEXT_CHARS: a paragraph after a "related" heading's links with this much text outside links (non-space characters) is the article's text again */
const RESUMED_TEXT_CHARS = 80;

/** LABELLED_LINK_OWN_CHARS: a block under a "related" label paragraph is one of its links while its text outside links is this short (non-space characters) */
const LABELLED_LINK_OWN_CHARS = 20;

/** TEASER_SECTION_OWN_CHARS: a section under a heading with at most this much text outside links (non-space characters) says nothing of its own */
const TEASER_SECTION_OWN_CHARS = 30;

/**
 * withTeaserSections adds to `skip` the headings whose section (what follows the heading up to the
 * next heading of its level or above) holds no text of its own once `skip` has dropped its chrome:
 * a heading over links only ("Empfohlene Beiträge", "Audios et vidéos sur le sujet" and a rail of
 * teasers), a teaser whose headline is the link, or a heading left with nothing under it at the end
 * of the article. Such a section goes with its heading; a heading over text, a picture or a table stays.
 */
function withTeaserSections(root: DomNode, stats: Map<DomNode, TextStats>, skip: (el: DomElement) => boolean): (el: DomElement) => boolean {
  const dropped = new Set<DomNode>();
  const outer = skip;
  // Last heading first: a subsection found empty leaves its parent section empty too.
  skip = (el) => dropped.has(el) || outer(el);
  const headings = (root as unknown as DomElement).querySelectorAll?.("h2, h3, h4, h5, h6") ?? [];
  let shownHeadings = 0;
  let linkedHeadings = 0;
  for (let i = headings.length - 1; i >= 0; i--) {
    const heading = headings[i]!;
    const hs = stats.get(heading);
    if (!hs || hs.text === 0 || outer(heading)) continue;
    shownHeadings++;
    const headlineLink = hrefText(heading) >= TEASER_LINK_SHARE * hs.text;
    if (headlineLink) linkedHeadings++;
    const level = Number(heading.nodeName[1]);
    // A heading alone in its wrapper ("<div class=title><h2>..</h2></div>"): the wrapper's siblings follow it.
    let unit: DomElement = heading;
    for (let up = 0; up < 3; up++) {
      const parent = unit.parentNode as DomElement | null;
      if (!parent || parent === root || parent.nodeType !== 1 || countChars(parent.textContent ?? "") > countChars(heading.textContent ?? "") + 5) break;
      unit = parent;
    }
    const section: DomElement[] = [];
    let own = 0;
    let links = 0;
    let solid = false;
    for (let next = nextElement(unit); next; next = nextElement(next)) {
      if (endsSection(next, level)) break;
      section.push(next);
      if (skip(next)) continue;
      const s = stats.get(next);
      if (!s) continue;
      const linked = hrefText(next);
      own += Math.max(0, s.text - linked);
      links += Math.min(s.text, linked);
      if (next.querySelectorAll("table, pre, video, iframe").length > 0 || ["table", "pre", "video", "iframe"].includes(next.nodeName.toLowerCase())) solid = true;
      if (own > TEASER_SECTION_OWN_CHARS || solid) break;
    }
    if (own > TEASER_SECTION_OWN_CHARS || solid) continue;
    // A long heading is a pull quote or a lead set as a heading, text of its own.
    if (!headlineLink && hs.text > TEASER_HEADING_MAX_CHARS) continue;
    const shown = section.filter((el) => !skip(el) && stats.has(el));
    if (links === 0 && !headlineLink) {
      // No links under it and the heading not a link: only a heading left with nothing after it goes.
      if (shown.some((el) => stats.get(el)!.text > 0 || el.nodeName.toLowerCase() === "img" || el.querySelectorAll("img, picture").length > 0)) continue;
      if (hs.text > ORPHAN_HEADING_MAX_CHARS || textFollows(unit, root, stats, skip)) continue;
    }
    dropped.add(unit);
    for (const el of section) dropped.add(el);
  }
  // Most headings link elsewhere: the page is a listing (search results, an archive), its teasers are its content.
  if (dropped.size === 0 || (linkedHeadings >= LISTING_MIN_HEADINGS && linkedHeadings * 2 >= shownHeadings)) return outer;
  // Teasers trail an article; sections that are most of what is shown are the page itself (a short
  // page whose headline, set as an h2 by Readability, sits over a line and its links).
  let droppedText = 0;
  for (const el of dropped) if (!outer(el as DomElement)) droppedText += stats.get(el)?.text ?? 0;
  if (droppedText > TEASER_MAX_SHARE * (stats.get(root)?.text ?? 0)) return outer;
  return skip;
}

/** TEASER_MAX_SHARE: teaser sections are dropped only while they hold at most this share of the shown text */
const TEASER_MAX_SHARE = 0.5;

/** LISTING_MIN_HEADINGS: this many headings that are links, half of all, make a page a listing */
const LISTING_MIN_HEADINGS = 3;

/** TEASER_HEADING_MAX_CHARS: a section title is short (non-space characters) */
const TEASER_HEADING_MAX_CHARS = 80;

/** ORPHAN_HEADING_MAX_CHARS: a heading with nothing after it goes when it is a short label ("Empfohlene Beiträge"); a longer one closes the article (a pull quote) */
const ORPHAN_HEADING_MAX_CHARS = 40;

/** LINK_MAX_CHARS: a link's text is a title or a teaser (non-space characters); a longer "link" is text an unclosed <a> swallowed */
const LINK_MAX_CHARS = 250;

/** hrefText: the characters of an element's text inside links to a page (an anchor without href, or to "#...", or swallowing paragraphs, is no link). */
function hrefText(el: DomElement): number {
  const tag = el.nodeName.toLowerCase();
  const links = tag === "a" ? [el] : Array.from(el.querySelectorAll("a[href]"));
  let n = 0;
  for (const a of links) {
    const href = a.getAttribute("href") ?? "";
    const chars = countChars(a.textContent ?? "");
    if (href && !href.startsWith("#") && chars <= LINK_MAX_CHARS) n += chars;
  }
  return n;
}

/** textFollows: some shown text comes after `el` inside `root`, in document order. */
function textFollows(el: DomElement, root: DomNode, stats: Map<DomNode, TextStats>, skip: (el: DomElement) => boolean): boolean {
  for (let node: DomNode | null = el; node && node !== root; node = node.parentNode) {
    for (let next = nextElement(node); next; next = nextElement(next)) {
      const s = stats.get(next);
      if (s && s.text > 0 && !skip(next)) return true;
    }
  }
  return false;
}

/** endsSection: the element is, or holds, a heading of `level` or above (h1..h<level>). */
function endsSection(el: DomElement, level: number): boolean {
  const tag = el.nodeName.toLowerCase();
  if (HEADING_TAGS.has(tag)) return Number(tag[1]) <= level;
  const inner = el.querySelectorAll("h1, h2, h3, h4, h5, h6");
  for (let i = 0; i < inner.length; i++) if (Number(inner[i]!.nodeName[1]) <= level) return true;
  return false;
}

function previousElement(node: DomNode): DomElement | null {
  for (let n = (node as unknown as Element).previousSibling as unknown as DomNode | null; n; n = (n as unknown as Element).previousSibling as unknown as DomNode | null) {
    if (n.nodeType === 1) return n as DomElement;
  }
  return null;
}

function nextElement(node: DomNode): DomElement | null {
  for (let n = (node as unknown as Element).nextSibling as unknown as DomNode | null; n; n = (n as unknown as Element).nextSibling as unknown as DomNode | null) {
    if (n.nodeType === 1) return n as DomElement;
  }
  return null;
}

/** NAMED_CHROME_LEFT: when chrome by name leaves less than this share of Readability's article, its names are not chrome */
const NAMED_CHROME_LEFT = 0.2;

/** WRAPPER_SHARE: a block with a chrome-like name holding more than this share of the article's text is a wrapper of content */
const WRAPPER_SHARE = 0.3;

/** holdsMuchOf: the element is not a chrome tag (nav, footer, aside, ...) and holds over WRAPPER_SHARE of `total` characters. */
function holdsMuchOf(el: DomElement, total: number): boolean {
  if (BOILERPLATE_TAGS.has(el.nodeName.toLowerCase())) return false;
  return countChars(el.textContent ?? "") > WRAPPER_SHARE * total;
}

/** runReadability returns Readability's article element, or null when it finds none or fails. */
function runReadability(document: Document): DomNode | null {
  try {
    const reader = new Readability<DomNode>(document, { keepClasses: true, serializer: (el) => el as unknown as DomNode });
    const result = reader.parse();
    return result?.content ?? null;
  } catch {
    // Readability throws on some malformed documents; the density fallback then decides alone.
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// Page chrome recognised by its content: share bars, breadcrumb trails and cookie banners often
// carry class names no word list foresees ("td-post-sharing-visible", "path", "cc-window").

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

/**
 * BYLINE: a line that only names the author ("Von Cosima Künzel", "By Jane Doe", "Text: Anna Muster",
 * "Por Redacción"): up to four capitalised names (with particles) after the word that says who wrote it.
 */
const BYLINE = /^(?:von|by|por|par|di|door|text|texte|autor|autorin|author|redaktion)\s*:?\s+(?:(?:\p{Lu}[\p{L}'’.-]*|von|van|der|de|del|la|le|di|da|dos|und|and|y|et)\s*,?\s*){1,6}$/u;
/** SIGN_OFF: a blog's sign-off ("Liebe Grüße", "Deine Mady", "Love"), the author's own words; a footnote ("* Name geändert") is text too */
const SIGN_OFF = /^(?:liebe|lieben|liebste|viele|beste|herzliche|herzlichst|deine|dein|eure|euer|love|cheers|xoxo|xo|best|yours|grüße|gruß|saludos|besos|bisous|bises|ciao|baci|pozdrawiam)\b/i;
/** EDGE_LABEL_MAX_CHARS: a label left at the article's end is short (non-space characters): "Anzeigen", "zurück", "Editors’ Recommendations:" */
const EDGE_LABEL_MAX_CHARS = 40;
const EDGE_WORD_MAX_CHARS = 12;
const BYLINE_MAX_CHARS = 60;

/** HARD_BREAK_MARK: the `\` a line ends with when it is a hard break (<br>); an even run of backslashes is escaped text */
const HARD_BREAK_MARK = /(?<!\\)((?:\\\\)*)\\$/gm;

/** edgeText: a markdown block's text without links' targets, pictures, emphasis and escapes. */
function edgeText(block: string): string {
  return normalizeSpace(
    block
      .replace(HARD_BREAK_MARK, "$1")
      .replace(/!\[[^\]]*\]\([^)]*\)/g, " ")
      .replace(/\[([^\]]*)\]\((?:[^()]|\([^)]*\))*\)/g, "$1")
      .replace(/\\([\\`*_{}[\]()#+\-.!|>~<])/g, "$1")
      .replace(/(\*\*|__|\*|_)/g, ""),
  );
}

/** isEdgeLabel: a block at the article's end that only labels what came after it on the page: a byline, a label ending in a colon, one or two words. */
function isEdgeLabel(block: string, atEnd: boolean): boolean {
  if (/^\s*(?:[-*+]\s|\d+[.)]\s|\||```|>)/.test(block)) return false;
  const text = edgeText(block);
  const chars = countChars(text);
  if (chars === 0) return false;
  if (chars <= BYLINE_MAX_CHARS && BYLINE.test(text.replace(/^\S+/, (word) => word.toLowerCase()))) return true;
  if (!atEnd) return false;
  // A byline's label alone ("Von:", "By:"); other labels ending in a colon ("Das Konzeptpapier finden Sie hier:") are text.
  if (/^(?:von|by|por|par|autor|autorin|author|text|texte|fotos?|photos?)\s*:$/i.test(text)) return true;
  // One or two words of a button or a name ("Anzeigen", "Seite teilen", "Götz Warnke"); a sign-off with its mark ("x Franzi") stays.
  if (SIGN_OFF.test(text) || /^\s*\\\*\s/.test(block)) return false;
  return chars <= EDGE_WORD_MAX_CHARS && text.split(" ").length <= 2 && /^\p{L}{3,}[\p{L}’'-]*(?: \p{L}{3,}[\p{L}’'-]*)?$/u.test(text);
}

/** AGENCY_SIGN: a news agency's or reporter's sign closing a report ("erb/ots", "dpa/lnw", "(AFP)", "(dpa)") */
const AGENCY_SIGN = /^\(?\p{L}{2,8}(?:\s?\/\s?\p{L}{2,8})+\)?$|^\((?:dpa|afp|ap|reuters|kna|epd|apa|sda|efe|ansa|sid|ots|dts|red)\)$/iu;

/**
 * isCreditBlock: a block whose every line is a picture's credit, a source or an agency's sign
 * ("erb/ots" over "Foto: dahancoo / Pixabay (Symbolbild)"): the report's credits, left at its end
 * when written as one paragraph with line breaks, which the caption test (a line that opens with
 * "Foto:") does not see.
 */
function isCreditBlock(block: string): boolean {
  if (/^\s*(?:[-*+]\s|\d+[.)]\s|\||```|>)/.test(block)) return false;
  const lines = block.split("\n").map(edgeText).filter(Boolean);
  if (lines.length === 0) return false;
  return lines.every((line) => countChars(line) <= PHOTO_CREDIT_MAX_CHARS && (PHOTO_CREDIT.test(line) || SOURCE_LINE.test(line) || AGENCY_SIGN.test(line))) && lines.some((line) => PHOTO_CREDIT.test(line) || SOURCE_LINE.test(line));
}

/**
 * trimArticleEdges (with the page's headline when the markdown has no "# " heading of its own) drops what an article's markdown keeps at its edges but is not its text: a byline
 * set as its own paragraph right under the headline or at the end ("Von Cosima Künzel"), and labels
 * left at the end once the blocks they headed were dropped ("Editors’ Recommendations:", "Anzeigen",
 * "zurück").
 */
export function trimArticleEdges(markdown: string, pageHeadline: string | null = null): string {
  // Blocks and the blank lines between them, kept as they were (code blocks keep their blank lines).
  const parts = markdown.split(/(\n[^\S\n]*\n\s*)/);
  const blocks: string[] = [];
  const gaps: string[] = [];
  for (let i = 0; i < parts.length; i += 2) {
    blocks.push(parts[i]!);
    gaps.push(parts[i + 1] ?? "");
  }
  const fence = blocks.findIndex((b) => /^\s*(?:```|~~~)/m.test(b));
  if (fence >= 0) return markdown;
  const isHeading = (b: string) => /^\s{0,3}#{1,6}\s/.test(b);
  const shown = (b: string) => edgeText(b).length > 0 && !isHeading(b);
  let end = blocks.length;
  for (;;) {
    let i = end - 1;
    while (i >= 0 && !edgeText(blocks[i]!)) i--;
    if (i < 0) break;
    const block = blocks[i]!;
    // A heading left last that is a label ("Editors’ Recommendations:") headed the links that were dropped.
    const label = isHeading(block) ? countChars(edgeText(block.replace(/^\s*#+\s*/, ""))) <= EDGE_LABEL_MAX_CHARS && /:$/.test(edgeText(block)) : isEdgeLabel(block, true) || isCreditBlock(block);
    if (!label) break;
    end = i;
  }
  const kept = blocks.slice(0, end);
  const keptGaps = gaps.slice(0, end);
  const remove = (i: number) => {
    kept.splice(i, 1);
    keptGaps.splice(i, 1);
  };
  let start = 0;
  while (start < kept.length && !shown(kept[start]!)) start++;
  if (start < kept.length && isEdgeLabel(kept[start]!, false) && kept.slice(start + 1).some(shown)) remove(start);
  // A kicker over the headline ("Pflege" above "## Pflegefinanzierung: ...") and the headline set
  // again under the page's own: the first is a label, the second a repeat.
  // The headline: the markdown's own "# " heading, or the page's (set above the markdown later).
  const title = kept.findIndex((b) => /^\s{0,3}#\s/.test(b));
  if (title >= 0 || pageHeadline) {
    const headline = (title >= 0 ? edgeText(kept[title]!.replace(/^\s*#+\s*/, "")) : normalizeSpace(pageHeadline!)).toLowerCase();
    for (let i = title + 1; i < Math.min(kept.length, title + 4); i++) {
      const b = kept[i]!;
      if (!edgeText(b)) continue;
      const text = edgeText(b.replace(/^\s*#+\s*/, ""));
      const next = kept.slice(i + 1).find((x) => edgeText(x));
      if (isHeading(b) && text.toLowerCase() === headline) {
        remove(i);
        i--;
        continue;
      }
      if (!isHeading(b) && next !== undefined && isHeading(next) && edgeText(next.replace(/^\s*#+\s*/, "")).toLowerCase() === headline && countChars(text) <= EDGE_WORD_MAX_CHARS * 2 && !/[.!?]$/.test(text)) {
        remove(i);
        i--;
        continue;
      }
      break;
    }
  }
  if (kept.length === blocks.length) return markdown;
  return kept.map((b, i) => (i < kept.length - 1 ? b + keptGaps[i] : b)).join("");
}
