/**
 * footnotes finds the footnote references of an HTML page and the notes they point to, so that the
 * markdown walker (htmlDom.ts) writes a reference as `[^label]` and the note's text at the end as
 * `[^label]: text`, the form the PDF and DOCX converters write.
 *
 * A reference is a link to a fragment of the same page that is a superscript (`<sup><a href="#fn3">3</a></sup>`,
 * `<a href="#fn3"><sup>3</sup></a>`, Wikipedia's `<sup class="reference"><a href="#cite_note-3">[3]</a></sup>`)
 * or says it is one (role="doc-noteref", class "footnote-ref"), with a short text (a number, a letter).
 * Its target is a note only when that is clear: an item of a list, or a block whose own or
 * ancestors' id, class or role name footnotes, endnotes, notes or references. Anything else stays
 * a link (in its `<sup>`).
 */

/** NoteNode is the DOM node as the walker sees it (htmlDom.ts's DomNode); repeated here so the two files import one way only. */
export interface NoteNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<NoteNode>;
  parentNode: NoteNode | null;
}

/** NoteElement is a NoteNode of type 1. */
interface NoteElement extends NoteNode {
  getAttribute(name: string): string | null;
}

/** Footnotes are the references and notes of one rendering. */
export interface Footnotes {
  /** labels: each note element -> its label, in the order of the first reference to it */
  labels: Map<NoteNode, string>;
  /** references: the element written as `[^label]` (a `sup` or an `a`) -> the label */
  references: Map<NoteNode, string>;
  /** backLinks: links from a note back to its reference ("↩", "^"), left out */
  backLinks: Set<NoteNode>;
  /** marks: each note -> the text of its first reference ("3", "*"), taken off the front of the note's text */
  marks: Map<NoteNode, string>;
}

export const NO_FOOTNOTES: Footnotes = { labels: new Map(), references: new Map(), backLinks: new Set(), marks: new Map() };

const ELEMENT_NODE = 1;
/** MAX_NOTES: a page with more references than this is a list of links, not notes (and bounds the work) */
const MAX_NOTES = 2000;
/** MAX_NOTE_CHARS: a target holding more text than this is a section of the page (a list of all the references), not one note */
const MAX_NOTE_CHARS = 3000;
/** NOTE_NAMES: id, class or role words of a footnote, a list of footnotes, or a reference list */
const NOTE_NAMES = /foot-?notes?|end-?notes?|(?:^|[\s_:-])fn(?:[\s_:-]|\d|$)|(?:^|[\s_-])notes?(?:[\s_-]|\d|$)|references?|reflist|cite[_-]?note|citations?|bibliograph|doc-(?:foot|end)note/i;
/** NOTE_REF_NAMES: class or role words of a footnote reference */
const NOTE_REF_NAMES = /footnote-?ref|fn-?ref|noteref|doc-noteref/i;
/** BACK_LINK_NAMES: class words of a note's link back to its reference */
const BACK_LINK_NAMES = /footnote-?back|back-?ref|reversefootnote|cite-backlink|fn-?back/i;
/** BACK_LINK_TEXT: the text of a link back ("↩", "^", "↑") */
const BACK_LINK_TEXT = /^[\s^↑↩\u21a9\ufe0e\ufe0f]*$/u;
/** MARK: what a reference's text is once brackets are taken off: a number, a letter, a short word, a symbol ("*", "†") */
const MARK = /^(?:[\p{L}\p{N}]{1,6}|[*†‡§¶#]{1,3})$/u;
/** LABEL: a mark that is a footnote label as it is; other marks are numbered */
const LABEL = /^[\p{L}\p{N}]{1,6}$/u;
/** NOTE_BLOCKS: elements a note can be (a target inside one, such as an empty anchor, climbs to it) */
const NOTE_BLOCKS = new Set(["li", "p", "div", "aside", "section", "dd", "td", "footer"]);

function tagOf(node: NoteNode): string {
  return node.nodeName.toLowerCase().replace(/^.*:/, "");
}

function names(el: NoteElement): string {
  return `${el.getAttribute("id") ?? ""} ${el.getAttribute("class") ?? ""} ${el.getAttribute("role") ?? ""}`;
}

/** labelText takes the brackets, spaces and commas off a reference's text ("[3]" -> "3"). */
function labelText(text: string | null): string {
  return (text ?? "").replace(/[\s\u00a0\u200b[\](){},;]+/g, "");
}

/** fragmentOf gives the id a link points to on the same page, or null. */
function fragmentOf(href: string | null, base: URL | null): string | null {
  if (!href) return null;
  const raw = href.trim();
  let hash: string;
  if (raw.startsWith("#")) hash = raw;
  else {
    if (!base) return null;
    let url: URL;
    try {
      url = new URL(raw, base);
    } catch {
      return null;
    }
    if (!url.hash || url.origin !== base.origin || url.pathname !== base.pathname || url.search !== base.search) return null;
    hash = url.hash;
  }
  try {
    return decodeURIComponent(hash.slice(1)) || null;
  } catch {
    return hash.slice(1) || null;
  }
}

function contains(outer: NoteNode, inner: NoteNode): boolean {
  for (let n: NoteNode | null = inner; n; n = n.parentNode) if (n === outer) return true;
  return false;
}

/** noteOf gives the note a reference's target belongs to, or null when the target is not clearly a note. */
function noteOf(target: NoteElement): NoteElement | null {
  // A link to a reference (a note's link back, a reference to a reference) points at no note.
  if (tagOf(target) === "sup" || (tagOf(target) === "a" && target.getAttribute("href"))) return null;
  let note = target as NoteNode | null;
  for (let i = 0; note && note.nodeType === ELEMENT_NODE && !NOTE_BLOCKS.has(tagOf(note)); i++) {
    if (i >= 3) return null;
    note = note.parentNode;
  }
  if (!note || note.nodeType !== ELEMENT_NODE) return null;
  const block = note as NoteElement;
  if (tagOf(block) === "li") {
    const list = block.parentNode;
    return list && /^(ol|ul)$/.test(tagOf(list)) ? block : null;
  }
  let n: NoteNode | null = target;
  for (let i = 0; n && n.nodeType === ELEMENT_NODE && i < 8; i++, n = n.parentNode) if (NOTE_NAMES.test(names(n as NoteElement))) return block;
  return null;
}

/** referenceOf gives the element a footnote link is written in place of (its `sup` when the link is all of it), or null when the link is no reference. */
function referenceOf(a: NoteElement): NoteNode | null {
  const label = labelText(a.textContent);
  if (!MARK.test(label)) return null;
  let sup: NoteNode | null = null;
  for (let n = a.parentNode, i = 0; n && n.nodeType === ELEMENT_NODE && i < 2; n = n.parentNode, i++) {
    if (tagOf(n) === "sup") {
      sup = n;
      break;
    }
  }
  if (sup && labelText(sup.textContent) === label) return sup;
  if (sup) return a;
  if (NOTE_REF_NAMES.test(`${a.getAttribute("class") ?? ""} ${a.getAttribute("role") ?? ""}`)) return a;
  const kids = a.childNodes;
  for (let i = 0; i < kids.length; i++) {
    const kid = kids[i]!;
    if (kid.nodeType === ELEMENT_NODE && tagOf(kid) === "sup" && labelText(kid.textContent) === label) return a;
  }
  return null;
}

/**
 * findFootnotes walks the rendered roots (not into `skipped` elements) and pairs each footnote
 * reference with its note. `base` resolves links written as the page's own address plus a fragment.
 */
export function findFootnotes(roots: NoteNode[], skipped: (el: NoteElement) => boolean, base: URL | null): Footnotes {
  const byId = new Map<string, NoteElement>();
  const links: Array<{ a: NoteElement; fragment: string }> = [];
  const stack: NoteNode[] = [...roots].reverse();
  while (stack.length > 0) {
    const top = stack.pop()!;
    if (top.nodeType !== ELEMENT_NODE) continue;
    const node = top as NoteElement;
    if (!roots.includes(node) && skipped(node)) continue;
    const id = node.getAttribute("id") ?? (tagOf(node) === "a" ? node.getAttribute("name") : null);
    if (id && !byId.has(id)) byId.set(id, node);
    if (tagOf(node) === "a") {
      const fragment = fragmentOf(node.getAttribute("href"), base);
      if (fragment) links.push({ a: node, fragment });
    }
    const kids = node.childNodes;
    for (let i = kids.length - 1; i >= 0; i--) if (kids[i]!.nodeType === ELEMENT_NODE) stack.push(kids[i]!);
  }
  if (links.length === 0) return NO_FOOTNOTES;
  const found: Footnotes = { labels: new Map(), references: new Map(), backLinks: new Set(), marks: new Map() };
  const used = new Set<string>();
  /** referenceIds: ids on a reference and the elements around it (the place a note links back to) */
  const referenceIds = new Set<string>();
  for (const { a, fragment } of links) {
    if (found.labels.size >= MAX_NOTES) break;
    const target = byId.get(fragment);
    if (!target) continue;
    const reference = referenceOf(a);
    if (!reference) continue;
    const note = noteOf(target);
    const noteChars = (note?.textContent ?? "").trim().length;
    if (!note || noteChars === 0 || noteChars > MAX_NOTE_CHARS || contains(note, a) || contains(a, note)) continue;
    let label = found.labels.get(note);
    if (label === undefined) {
      const mark = labelText(a.textContent);
      const wanted = LABEL.test(mark) ? mark : String(found.labels.size + 1);
      label = wanted;
      for (let k = 2; used.has(label); k++) label = `${wanted}-${k}`;
      used.add(label);
      found.labels.set(note, label);
      found.marks.set(note, mark);
    }
    found.references.set(reference, label);
    for (let n: NoteNode | null = a, i = 0; n && n.nodeType === ELEMENT_NODE && i < 3; n = n.parentNode, i++) {
      const id = (n as NoteElement).getAttribute("id");
      if (id) referenceIds.add(id);
    }
  }
  const inNote = (a: NoteNode) => {
    for (let n = a.parentNode; n; n = n.parentNode) if (found.labels.has(n)) return true;
    return false;
  };
  for (const { a, fragment } of links) {
    if (found.references.has(a)) continue;
    if (referenceIds.has(fragment) || ((BACK_LINK_NAMES.test(a.getAttribute("class") ?? "") || BACK_LINK_TEXT.test(a.textContent ?? "")) && inNote(a))) found.backLinks.add(a);
  }
  return found.labels.size > 0 ? found : NO_FOOTNOTES;
}

/**
 * noteDefinitionText makes a note's markdown one line: what is left of its links back ("^",
 * "↑", "↩") and its own label in front ("<sup>3</sup>", "3.") are taken off.
 */
export function noteDefinitionText(markdown: string, mark: string): string {
  const escaped = mark.replace(/[*]/g, "\\*").replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return markdown
    .replace(/\s*\n\s*/g, " ")
    .replace(/^(?:[\s^↑↩\ufe0e\ufe0f]|\\\^)+/u, "")
    .replace(/(?:[\s↑↩\ufe0e\ufe0f])+$/u, "")
    .replace(new RegExp(`^(?:<sup>\\\\?\\[?${escaped}\\\\?\\]?</sup>|\\\\?\\[${escaped}\\\\?\\]|${escaped}[.)]|${escaped}(?=\\s))\\s*`), "")
    .trim();
}
