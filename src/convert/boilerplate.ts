/**
 * boilerplate finds the main content of a web page. Readability.js proposes the article; a second,
 * independent estimate (text density after dropping navigation, headers, footers, sidebars, share
 * bars, comments, cookie banners and ads) checks it, and replaces it when Readability finds nothing
 * or clearly too little (search results, listings, pages without an article structure). Both paths
 * render through the same filter, so boilerplate that Readability keeps (share bars, navboxes,
 * "related" lists) is still dropped.
 *
 * This file weighs the candidates (Readability's article, the page's own marked article, the density
 * estimate) and builds the chosen one's filter; the rules live beside it, each concern in one file:
 *
 *   boilerplateText.ts          the unit of length (countChars), TextStats, sibling steps
 *   boilerplateChrome.ts        chrome by tag, role, hidden class or class/id word (chromeKind, chromeWithin)
 *   boilerplateDensity.ts       measureText and the density estimate (the fallback candidate)
 *   boilerplateLead.ts          the page's headline and the lead under it (put back above the content)
 *   boilerplateCaptions.ts      figure captions, photo credits, date lines and stamps
 *   boilerplateRelated.ts       "related" headings and their blocks, teaser rails and sections, link lists
 *   boilerplateCallsToAction.ts subscribe/follow/print asks, "read more" and promotion links, offer boxes
 *   boilerplateNotices.ts       copyright, ad labels, comment counters, filing lines, consent placeholders
 *   boilerplateSiblings.ts      body sections Readability dropped beside their twins (same tag and class), put back
 *
 * Before and after: boilerplatePageChrome.ts strips share bars, breadcrumb trails and cookie banners
 * from the parsed page by what they hold, and boilerplateEdges.ts trims bylines and left-over labels
 * at the edges of the written markdown (html.ts calls both).
 */
import { Readability } from "@mozilla/readability";
import { isCallToAction, offerBoxTest } from "./boilerplateCallsToAction";
import { captionTest } from "./boilerplateCaptions";
import { chromeWithin } from "./boilerplateChrome";
import { densityEstimate, densityPick, measureText, MIN_ARTICLE_CHARS } from "./boilerplateDensity";
import { leadParagraph, pageDescriptionsOf, pageTitlesOf, withLead } from "./boilerplateLead";
import { isPageNotice } from "./boilerplateNotices";
import { putBackTwins, twinSections } from "./boilerplateSiblings";
import { isLinkList, isReadAlsoHeading, isTeaserList, isTeaserRun, relatedBlocks, withTeaserSections } from "./boilerplateRelated";
import { contentOf, countChars, normalizeSpace, type TextStats } from "./boilerplateText";
import type { DomElement, DomNode } from "./htmlDom";

/** MainContent is what to render and which filter to render it with. */
export interface MainContent {
  roots: DomNode[];
  skip: (el: DomElement) => boolean;
  /** method: "readability", "marked" (the page's own articleBody or single <article>) or "density" (the fallback) */
  method: "readability" | "marked" | "density";
}

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

/** hasAncestor: some element above `el` has the tag `tag` (lower case). */
function hasAncestor(el: DomElement, tag: string): boolean {
  for (let p = el.parentNode; p && p.nodeType === 1; p = p.parentNode) if (p.nodeName.toLowerCase() === tag) return true;
  return false;
}

/** followPath: the node reached from `root` by the child indices of `path` (markedArticle's), or null. */
function followPath(root: DomNode, path: number[]): DomNode | null {
  let node: DomNode | undefined = root;
  for (const i of path) node = node?.childNodes[i];
  return node ?? null;
}

/** MARKED_GROWTH: the marked article wins over Readability's when it holds this many times more text */
const MARKED_GROWTH = 1.5;

/** DENSITY_GROWTH: the density estimate wins over a Readability article that shares none of its text when it holds this many times more */
const DENSITY_GROWTH = 1.5;

/** SHARED_PROBES: Readability's article holds the marked article when it contains this share of its probes */
const SHARED_PROBES = 0.3;

/** sharesText: `article` holds more than SHARED_PROBES of the probes (snippets of another candidate's paragraphs). */
function sharesText(article: DomNode, probes: string[]): boolean {
  const text = normalizeSpace(article.textContent ?? "");
  return probes.filter((p) => text.includes(p)).length > SHARED_PROBES * probes.length;
}

/** bodyOf: the page's body, or its root element when it has none. */
function bodyOf(document: Document): DomNode {
  return (document.body ?? document.documentElement) as unknown as DomNode;
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
  // Sections of running text beside a twin (same tag and class), listed before Readability rewrites the page.
  const twins = readable ? twinSections(body) : [];
  const article = readable ? runReadability(document) : null;
  // Readability drops a short body section by its class's weight while keeping its twins: put it back.
  if (article) putBackTwins(article, twins);
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

/** NAMED_CHROME_LEFT: when chrome by name leaves less than this share of Readability's article, its names are not chrome */
const NAMED_CHROME_LEFT = 0.2;

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
