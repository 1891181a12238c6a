/**
 * boilerplateRelated: links to other pages set into an article: "related" headings and labels and
 * the blocks under them, teaser cards, rails of link-only paragraphs, link lists, and sections whose
 * heading stands over links only (withTeaserSections).
 */
import { countChars, nextElement, normalizeSpace, type TextStats } from "./boilerplateText";
import type { DomElement, DomNode } from "./htmlDom";

/**
 * isLinkList is true for blocks that are mostly links (menus and "related" lists without telling
 * class names); the density fallback drops them.
 */
export function isLinkList(el: DomElement, stats: Map<DomNode, TextStats>): boolean {
  const tag = el.nodeName.toLowerCase();
  if (tag !== "ul" && tag !== "ol" && tag !== "div" && tag !== "section" && tag !== "table" && tag !== "p" && tag !== "dl") return false;
  const s = stats.get(el);
  if (!s || s.text === 0) return false;
  return s.linkText / s.text > 0.6 && s.text - s.linkText < 200;
}

/** RELATED_LABEL_MAX_CHARS: a "related" label that ends in a colon may add a few words ("Lesen Sie auch die folgenden Beiträge:") */
const RELATED_LABEL_MAX_CHARS = 60;

/** isRelatedLabel: the text is only a "related" label ("À lire aussi »", "Auch lesen:"), or one with a few more words that ends in a colon. */
export function isRelatedLabel(text: string): boolean {
  if (text.length > RELATED_LABEL_MAX_CHARS) return false;
  const label = relatedLabel(text);
  const found = RELATED_HEADING.exec(label);
  if (!found) return false;
  return (text.length <= 40 && found[0].length >= label.length) || /:\s*$/.test(text);
}

/** isReadAlsoHeading: a heading that is a link to another article behind a "Read also:" label ("MIRA: ...", "VEA TAMBIÉN: ..."). */
export function isReadAlsoHeading(el: DomElement, stats: Map<DomNode, TextStats>): boolean {
  if (!HEADING_TAGS.has(el.nodeName.toLowerCase())) return false;
  const s = stats.get(el);
  return !!s && s.linkText > 0 && READ_ALSO.test(normalizeSpace(el.textContent ?? ""));
}

/** TEASER_LINK_SHARE: a block whose text is at least this share link text is a link; TEASER_MIN_CHARS: and says something (non-space characters) */
const TEASER_LINK_SHARE = 0.9;
export const TEASER_MIN_CHARS = 15;

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
export function isTeaserRun(el: DomElement, stats: Map<DomNode, TextStats>): boolean {
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
export function isTeaserList(el: DomElement, stats: Map<DomNode, TextStats>): boolean {
  if (el.nodeName.toLowerCase() === "p" || !isLinkList(el, stats)) return false;
  for (let p = el.parentNode; p && p.nodeType === 1; p = p.parentNode) {
    const tag = p.nodeName.toLowerCase();
    if (tag === "td" || tag === "th") return false;
    if (tag === "table" || tag === "article" || tag === "body") break;
  }
  return true;
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
export const READ_ALSO = new RegExp(
  `^(?:${RELATED_HEADING.source.slice(4, -1)}|siehe auch|schon gelesen|lesen sie (?:hier|dazu|weiter)|hier lesen sie|mehr dazu|(?:also|further) read(?:ing)?|watch|dowiedz się (?:więcej|też|także)|więcej|saiba mais|leia mais|guarda anche|vedi anche|(?:lea|lee|mira|mire|ver|vea|véase|puedes ver|voir|leia|veja|czytaj|zobacz)(?:\\s+(?:también|tambien|más|mas|además|aussi|mais|também|też|także|również|więcej|dalej))?)\\s*[:?»›→]`,
  "i",
);
/** relatedLabel: a heading's or label's text, spaces normalised, without trailing punctuation or arrows ("Lesen Sie auch:" -> "Lesen Sie auch"), for RELATED_HEADING */
function relatedLabel(text: string): string {
  return normalizeSpace(text).replace(/[:.…»›>?!\s]+$/, "");
}
export const HEADING_TAGS = new Set(["h1", "h2", "h3", "h4", "h5", "h6"]);
/** RELATED_MAX_CHARS: a block after a related heading with more non-link text than this is article text again */
const RELATED_MAX_CHARS = 400;

/**
 * relatedBlocks finds the "related" headings under `root` and the short blocks that follow each
 * one up to the next heading: teaser lists and author boxes that Readability keeps in the article.
 */
export function relatedBlocks(root: DomNode, stats: Map<DomNode, TextStats>): Set<DomNode> {
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
      // Links of pictures alone (teaser cards whose title Readability took out) are links too.
      if (cards || (s ? (s.text > 0 ? hrefText(next) >= TEASER_LINK_SHARE * s.text : hasPictureLink(next)) : hrefText(next) > 0)) linksSeen = true;
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
export function withTeaserSections(root: DomNode, stats: Map<DomNode, TextStats>, skip: (el: DomElement) => boolean): (el: DomElement) => boolean {
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

/** hasPictureLink: the element holds a link to a page around a picture. */
function hasPictureLink(el: DomElement): boolean {
  const links = el.querySelectorAll("a[href]");
  for (let i = 0; i < links.length; i++) {
    const href = links[i]!.getAttribute("href") ?? "";
    if (href && !href.startsWith("#") && !/^javascript:/i.test(href) && links[i]!.querySelectorAll("img, picture").length > 0) return true;
  }
  return false;
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

/** previousElement: the previous sibling that is an element, or null. */
function previousElement(node: DomNode): DomElement | null {
  for (let n = (node as unknown as Element).previousSibling as unknown as DomNode | null; n; n = (n as unknown as Element).previousSibling as unknown as DomNode | null) {
    if (n.nodeType === 1) return n as DomElement;
  }
  return null;
}
