/**
 * boilerplateText: the measures every main-content rule shares: the unit of length (non-space
 * characters, countChars), a subtree's visible text and link text (TextStats), and sibling steps.
 */
import type { DomElement, DomNode } from "./htmlDom";

/** TextStats are the visible text of a subtree, boilerplate excluded: all of it and the part inside links. */
export interface TextStats {
  text: number;
  linkText: number;
}

/** contentOf: the non-link characters of a measured node (0 when it was left out). */
export function contentOf(stats: Map<DomNode, TextStats>, node: DomNode): number {
  const s = stats.get(node);
  return s ? s.text - s.linkText : 0;
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

/** normalizeSpace: the text with each run of spaces (no-break spaces too) made one space, trimmed. */
export function normalizeSpace(text: string): string {
  return text.replace(/[\s\u00a0]+/g, " ").trim();
}

/** nextElement: the next sibling that is an element, or null. */
export function nextElement(node: DomNode): DomElement | null {
  for (let n = (node as unknown as Element).nextSibling as unknown as DomNode | null; n; n = (n as unknown as Element).nextSibling as unknown as DomNode | null) {
    if (n.nodeType === 1) return n as DomElement;
  }
  return null;
}
