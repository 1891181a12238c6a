/**
 * boilerplateLead: the page's headline (the h1 or h2 the page's title names) and the lead under it
 * (a standfirst named as such, in the article's header, or repeated by the page's description),
 * which Readability often leaves out; findMainContent puts it back above the content.
 */
import { isFollowUs, SUBSCRIBE_WORDS } from "./boilerplateCallsToAction";
import { isCaption, isDateLine, isDateStamp } from "./boilerplateCaptions";
import { chromeKind, hasHiddenName, nameWords } from "./boilerplateChrome";
import { countChars, normalizeSpace, type TextStats } from "./boilerplateText";
import { type DomElement, type DomNode, DROPPED_TAGS, isHidden } from "./htmlDom";

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
 * byline), or the one paragraph of the block the headline shares with nothing else (headlineBox); one short paragraph of text with few links, not a date line. Returns a copy (Readability
 * rewrites the page) and its text.
 */
export function leadParagraph(body: DomNode, stats: Map<DomNode, TextStats>, titles: string[], descriptions: PageDescription[] = []): Lead | null {
  const all = (body as unknown as DomElement).querySelectorAll("*");
  const found = headlineOf(all, stats, titles);
  if (!found) return null;
  const { from, matched } = found;
  const headline = all[from]!;
  const header = closestHeader(headline);
  const box = header === null ? headlineBox(headline) : null;
  for (let i = from + 1; i < all.length && i <= from + LEAD_SEARCH_ELEMENTS; i++) {
    const el = all[i]!;
    if ((headline as unknown as Element).contains(el as unknown as Node)) continue;
    const named = hasLeadName(el) && !isAuthorNamed(el) && !isCaption(el, stats);
    const inHeader = !named && LEAD_IN_HEADER_TAGS.has(el.nodeName.toLowerCase()) && (header !== null ? closestHeader(el) === header : box !== null && (box as unknown as Element).contains(el as unknown as Node) && !isCaption(el, stats));
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
 * ..." over a description that stops with "..."), or the text that a description cut at a word
 * without a mark opens (DESCRIPTION_CUT_MIN_CHARS long at least). Sites fill the description from
 * the standfirst, so a block of that text under the headline is the lead, whatever its markup (an
 * <h3> after the share buttons, a <div itemprop=description>, a bold paragraph, an <h2> after an
 * ad's label).
 */
function isDescribed(el: DomElement, descriptions: PageDescription[]): boolean {
  if (descriptions.length === 0) return false;
  const text = normalizeSpace(el.textContent ?? "");
  if (countChars(text) < LEAD_MIN_CHARS) return false;
  // A description cut at a word without a mark ("... auf den gestrigen Amoklauf in Heidelberg") opens the lead too.
  return descriptions.some(({ whole, cut }) => text === whole || (cut !== null && text.startsWith(cut)) || (countChars(whole) >= DESCRIPTION_CUT_MIN_CHARS && text.startsWith(whole)));
}

/** DESCRIPTION_CUT_MIN_CHARS: a description cut without a mark opens a lead when it is this long (non-space characters; a sentence or more, not a short tagline) */
const DESCRIPTION_CUT_MIN_CHARS = 100;

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
export function withLead(lead: Lead | null, root: DomNode): DomNode[] {
  if (!lead || normalizeSpace(root.textContent ?? "").includes(lead.text)) return [root];
  return [lead.element, root];
}

/** LEAD_IN_HEADER_TAGS: the elements of an article's header that can hold its lead without naming it */
const LEAD_IN_HEADER_TAGS = new Set(["p", "h2"]);
/** HEADLINE_MIN_CHARS: an h1 this long that the page's title holds is the headline (a shorter one, "News", may be a section's name) */
const HEADLINE_MIN_CHARS = 10;

/**
 * titleMatcher tests whether a heading is the headline the page's titles (<title>, og:title) name:
 * a title holds its text, or its text holds the title's first part (before " - ", " | ", " : ", ...),
 * and it is HEADLINE_MIN_CHARS long at least; the site's name after the headline is not one.
 */
export function titleMatcher(titles: string[]): (el: DomElement) => boolean {
  const wanted = titles.map((title) => normalizeSpace(title).toLowerCase()).filter(Boolean);
  return (el: DomElement) => {
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
}

/**
 * headlineOf finds the page's headline among all elements: the h1 whose text the page's title
 * holds (or that holds the title's first part), wherever it sits (a headline inside a breadcrumb
 * list or a "rating" wrapper is still the headline: `matched`), else such an h2 (the page's h1 is
 * its logo); else the first shown h1 with text (an empty h1 is a logo). An h1 that only copies the
 * headline (isHeadlineCopy) gives way to a later h1 or h2 that matches the title.
 */
function headlineOf(all: ArrayLike<DomElement>, stats: Map<DomNode, TextStats>, titles: string[]): { from: number; matched: boolean } | null {
  const matches = titleMatcher(titles);
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

/**
 * isHeadlineCopy: a heading that repeats the headline away from the article: in a <nav> (a site bar
 * that shows the headline while the page scrolls, faz.net) or hidden from the eye by its class
 * (hasHiddenName: umweltbundesamt's "visuallyhidden" h1 at the page's top, for screen readers only).
 */
export function isHeadlineCopy(el: DomElement): boolean {
  if (hasHiddenName(el.getAttribute("class") ?? "")) return true;
  for (let p = el.parentNode; p && p.nodeType === 1; p = p.parentNode) if (p.nodeName.toLowerCase() === "nav") return true;
  return false;
}

/** HEADLINE_BOX_LEVELS: how far up from the headline its box (the headline and its standfirst, unnamed) is looked for */
const HEADLINE_BOX_LEVELS = 3;

/**
 * headlineBox: the block the headline shares with its standfirst alone, a <header> in all but name
 * ("<div class=text-wrapper><h1>..</h1><div class=text><p>..</p></div></div>", smava's header
 * module): the nearest block above the headline (HEADLINE_BOX_LEVELS at most) with text of its
 * own, when that is one paragraph of a lead's length; else null.
 */
function headlineBox(headline: DomElement): DomElement | null {
  const own = countChars(headline.textContent ?? "");
  let p = headline.parentNode as DomElement | null;
  for (let level = 0; p && p.nodeType === 1 && level < HEADLINE_BOX_LEVELS; level++, p = p.parentNode as DomElement | null) {
    const tag = p.nodeName.toLowerCase();
    if (tag === "body" || tag === "main" || tag === "article") return null;
    const chars = countChars(p.textContent ?? "");
    if (chars <= own) continue;
    return chars - own <= LEAD_MAX_CHARS && p.querySelectorAll("p").length === 1 && p.querySelectorAll("h1, h2, h3, h4, h5, h6").length === 1 ? p : null;
  }
  return null;
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

/** hasLeadName: the element's class or id names a lead (LEAD_WORDS, "teaser-text"). */
function hasLeadName(el: DomElement): boolean {
  const names = `${el.getAttribute("class") ?? ""} ${el.getAttribute("id") ?? ""}`.trim();
  if (!names) return false;
  for (const name of names.split(/\s+/)) {
    const words = nameWords(name);
    if (words.some((w) => LEAD_WORDS.has(w)) || /teaser-?text/i.test(name)) return true;
  }
  return false;
}

/** pageTitlesOf: the page's <title> and its og:title (a newsroom's title tag and its headline often differ: "Lübeck: So war die Auktion ..." over "So lief die Auktion ..."). */
export function pageTitlesOf(document: Document): string[] {
  const title = document.querySelector("title")?.textContent ?? "";
  const og = document.querySelector('meta[property="og:title"]')?.getAttribute("content") ?? "";
  return [title, og].filter((t) => t.trim());
}

/**
 * pageDescriptionsOf: the page's own summary in its head (meta description, og:description,
 * twitter:description), spaces normalised; newsrooms and blog engines fill it from the standfirst.
 */
export function pageDescriptionsOf(document: Document): PageDescription[] {
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
