/**
 * boilerplateSiblings: body sections that Readability drops beside their twins. A CMS writes the
 * article as a run of content elements of one kind ("<section class='co coTextmedia'>" each holding
 * a paragraph); Readability weighs each by its class ("media" in it costs 25 points) and drops a short
 * one whose few commas cannot pay that back, while its longer twins stay: the article then starts at
 * its second section. A section of running text whose twin beside it (same tag, same class) stayed in
 * Readability's article is the article's too, and is put back beside its twin.
 */
import { chromeKind } from "./boilerplateChrome";
import { countChars, normalizeSpace } from "./boilerplateText";
import type { DomElement, DomNode } from "./htmlDom";

/** TWIN_MIN_CHARS: a paragraph of running text this long (non-space characters) makes its section worth putting back */
const TWIN_MIN_CHARS = 100;
/** TWIN_MAX_LEVELS: how far up from the paragraph its section (the block with a twin) is looked for */
const TWIN_MAX_LEVELS = 6;
/** MAX_TWINS: an article is a few dozen sections; past this many (a listing of thousands of cards) no more are copied */
const MAX_TWINS = 100;
/** TWIN_OWN_SHARE: the section put back holds little besides its paragraph (this share of its text at least): no teaser card's label */
const TWIN_OWN_SHARE = 0.9;
/** TWIN_MAX_LINK_SHARE: the paragraph is text, not a teaser: at most this share of it is links */
const TWIN_MAX_LINK_SHARE = 0.2;

/**
 * Twins: a section of running text beside its twin, as found before Readability rewrote the page:
 * a copy of the section, its paragraph's text, its twin's paragraph's text and how deep that
 * paragraph sits in the twin (Readability moves and retags the page's blocks: a <section> beside
 * the top candidate becomes a <div>, so blocks are found again by their text).
 */
export interface Twins {
  copy: DomNode;
  text: string;
  twinText: string;
  twinDepth: number;
  /** before: the section comes before its twin */
  before: boolean;
}

/**
 * twinSections lists, before Readability runs, the sections of running text that have a twin beside
 * them: the nearest block above a paragraph (TWIN_MAX_LEVELS at most) whose next or previous element
 * (past an ad's slot or an empty one) has the same tag and class and holds a paragraph of running
 * text too. Chrome by markup or name is never one; MAX_TWINS at most.
 */
export function twinSections(body: DomNode): Twins[] {
  const found: Twins[] = [];
  const seen = new Map<DomElement, boolean>();
  const paragraphs = (body as DomElement).querySelectorAll("p");
  for (let i = 0; i < paragraphs.length && found.length < MAX_TWINS; i++) {
    const paragraph = paragraphs[i]!;
    if (!isRunningText(paragraph)) continue;
    let section: DomElement | null = paragraph.parentNode as DomElement | null;
    for (let level = 0; section && section.nodeType === 1 && section !== body && level < TWIN_MAX_LEVELS; level++, section = section.parentNode as DomElement | null) {
      const cls = section.getAttribute("class");
      if (!cls) continue;
      // Each block is asked once (a thousand paragraphs in one wrapper do not each weigh its siblings).
      const known = seen.get(section);
      if (known === false) continue;
      if (known === true) break;
      const next = elementSibling(section, 1);
      const previous = elementSibling(section, -1);
      const twin = [next, previous].find((t) => t !== null && t.nodeName === section!.nodeName && t.getAttribute("class") === cls) ?? null;
      seen.set(section, twin !== null);
      if (!twin) continue;
      const twinParagraph = Array.from(twin.querySelectorAll("p")).find(isRunningText);
      // The section is its paragraph (a body section of one kind of content element), not a teaser card around it.
      if (twinParagraph && chromeKind(section) === null && isParagraphOnly(section, paragraph)) {
        let twinDepth = 0;
        for (let p: DomNode | null = twinParagraph; p && p !== twin; p = p.parentNode) twinDepth++;
        found.push({ copy: (section as unknown as Element).cloneNode(true) as unknown as DomNode, text: normalizeSpace(paragraph.textContent ?? ""), twinText: normalizeSpace(twinParagraph.textContent ?? ""), twinDepth, before: twin === next });
      }
      break;
    }
  }
  return found;
}

/**
 * putBackTwins puts into Readability's `article` a copy of each listed section whose paragraph it
 * dropped while it kept the twin's, beside the twin as on the page (the block as far above the
 * twin's paragraph as the twin was). Returns how many it put back.
 */
export function putBackTwins(article: DomNode, twins: Twins[]): number {
  if (twins.length === 0) return 0;
  // The article's paragraphs by their text, read once: most sections are kept as they were.
  const paragraphs = new Map<string, DomElement>();
  const found = (article as DomElement).querySelectorAll("p");
  for (let i = 0; i < found.length; i++) {
    const text = normalizeSpace(found[i]!.textContent ?? "");
    if (!paragraphs.has(text)) paragraphs.set(text, found[i]!);
  }
  let text: string | null = null;
  let put = 0;
  for (const { copy, text: own, twinText, twinDepth, before } of twins) {
    const kept = paragraphs.get(twinText);
    if (!kept || paragraphs.has(own)) continue;
    // Kept in another block (Readability retags a paragraph with breaks as a <div>): not dropped.
    text ??= normalizeSpace(article.textContent ?? "");
    if (text.includes(own)) continue;
    let anchor: DomNode = kept;
    for (let level = 0; level < twinDepth && anchor.parentNode && anchor.parentNode !== article; level++) anchor = anchor.parentNode;
    const node = anchor as unknown as Element;
    node.parentNode!.insertBefore(copy as unknown as Node, before ? node : node.nextSibling);
    put++;
  }
  return put;
}

/** isParagraphOnly: the section holds its paragraph and little else (TWIN_OWN_SHARE of its text at least), no heading and no picture: not a teaser card. */
function isParagraphOnly(section: DomElement, paragraph: DomElement): boolean {
  if (section.querySelectorAll("h1, h2, h3, h4, h5, h6, img, picture").length > 0) return false;
  return countChars(paragraph.textContent ?? "") >= TWIN_OWN_SHARE * countChars(section.textContent ?? "");
}

/** isRunningText: a paragraph of TWIN_MIN_CHARS or more, few links, closed by a sentence's stop. */
function isRunningText(el: DomElement): boolean {
  const text = normalizeSpace(el.textContent ?? "");
  const chars = countChars(text);
  // A teaser's text cut short ("Doch auch eine...") is no paragraph of the article.
  if (chars < TWIN_MIN_CHARS || !/[.!?"“”»]$/.test(text) || /(?:\.{3}|…)$/.test(text)) return false;
  let links = 0;
  const anchors = el.querySelectorAll("a");
  for (let i = 0; i < anchors.length; i++) links += countChars(anchors[i]!.textContent ?? "");
  return links <= TWIN_MAX_LINK_SHARE * chars;
}

/** TWIN_MAX_STEPS: the twin is the next (or previous) element, past at most this many chrome or empty ones (an ad banner between two sections) */
const TWIN_MAX_STEPS = 3;

/**
 * elementSibling: the next (step 1) or previous (step -1) sibling element that is no chrome (an ad's
 * slot, a "co--content-banner") and holds text, at most TWIN_MAX_STEPS away; null when there is none.
 */
function elementSibling(el: DomElement, step: 1 | -1): DomElement | null {
  let node = el as unknown as Element | null;
  for (let steps = 0; steps < TWIN_MAX_STEPS; steps++) {
    node = step === 1 ? node!.nextElementSibling : node!.previousElementSibling;
    if (!node) return null;
    const sibling = node as unknown as DomElement;
    if (chromeKind(sibling) === null && countChars(node.textContent ?? "") > 0) return sibling;
  }
  return null;
}
