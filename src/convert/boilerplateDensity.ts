/**
 * boilerplateDensity: the density estimate, the candidate that checks Readability's article and
 * replaces it when Readability finds too little: text measured with chrome left out (measureText),
 * then a walk from the body into the child holding most of the non-link text (densityPick).
 */
import { chromeKind, isBoilerplate, isProse } from "./boilerplateChrome";
import { countChars, type TextStats } from "./boilerplateText";
import { type DomElement, type DomNode, DROPPED_TAGS, isHidden } from "./htmlDom";

/** MIN_ARTICLE_CHARS: a Readability article shorter than this (non-space characters) is "too little" */
export const MIN_ARTICLE_CHARS = 200;
/** DESCEND_SHARE: the density search moves into a child holding at least this share of the text */
const DESCEND_SHARE = 0.8;

/**
 * measureText computes TextStats for every element under `root` in one pass (no recursion),
 * leaving invisible subtrees and those `excluded` (the caller's chrome test) out of the counts.
 */
export function measureText(root: DomNode, excluded: (el: DomElement) => boolean): Map<DomNode, TextStats> {
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
export function densityPick(body: DomNode, excluded: (el: DomElement) => boolean = isBoilerplate): DensityPick {
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
export function densityEstimate(body: DomNode): DensityPick {
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
