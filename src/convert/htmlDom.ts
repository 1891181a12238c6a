/**
 * htmlDom walks a DOM subtree (linkedom) and writes GitHub-flavoured markdown: ATX headings,
 * paragraphs, nested lists with start numbers, GFM tables, fenced code with its language, absolute
 * links and images, emphasis, blockquotes, definition lists and figure captions. Superscripts and
 * subscripts stay `<sup>`/`<sub>` (the only tags the markdown holds; markup written as text is
 * escaped); a superscript link to a footnote of the page becomes `[^label]` with the note's text at
 * the end as `[^label]: text` (footnotes.ts finds them). Text is collapsed the way a browser
 * collapses it and escaped only where it would otherwise become markdown syntax.
 */
import { findFootnotes, NO_FOOTNOTES, noteDefinitionText, type Footnotes } from "./footnotes";
import { fence, gfmTable, heading, joinBlocks, withoutWholeBold } from "./markdown";

/** DomNode is the small part of the DOM Node interface the walker uses (linkedom implements it). */
export interface DomNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
  parentNode: DomNode | null;
}

/** DomElement is a DomNode of type 1. */
export interface DomElement extends DomNode {
  tagName: string;
  getAttribute(name: string): string | null;
  hasAttribute(name: string): boolean;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
}

/** WalkOptions configure one rendering. */
export interface WalkOptions {
  /** baseUrl: absolute URL relative links and images are resolved against; undefined keeps them as written */
  baseUrl?: string;
  /** skip: elements for which this returns true are left out with their subtree (boilerplate filter) */
  skip?: (el: DomElement) => boolean;
  /**
   * notesInPlace: a page's notes stay where the document has them (its "Notes" list with the marks that
   * point to it, as a reader sees them), for an uploaded document written as it reads; by default
   * (web pages) notes referenced from the text become `[^label]` footnotes written at the end.
   */
  notesInPlace?: boolean;
}

const TEXT_NODE = 3;
const ELEMENT_NODE = 1;
/** MAX_DEPTH: nesting beyond this is written as plain text, so hostile pages cannot exhaust the stack */
const MAX_DEPTH = 400;
/** MAX_DATA_URI: data: images longer than this many characters are dropped (they bloat the markdown) */
const MAX_DATA_URI = 100;
/** BREAK stands for a <br> until a block is finished (a hard break in a paragraph, <br> in a table cell, a space in a heading) */
const BREAK = "\u0001";
/** PARAGRAPH_BREAK: two or more <br> in a row (with only spaces between) end a paragraph, as they look on the page */
const PARAGRAPH_BREAK = /(?:[ ]*\u0001){2,}/;
/** NOTES_MOVED: a block left where footnotes were taken out to the end (dropEmptiedHeadings reads it, then it goes) */
const NOTES_MOVED = "\u0002";

/**
 * DROPPED_TAGS are never content, in any mode. rt and rp are ruby annotations (the furigana over
 * Japanese kanji): read inline they would split every word ("子こども").
 */
export const DROPPED_TAGS = new Set([
  "script", "style", "noscript", "template", "svg", "canvas", "iframe", "object", "embed", "head",
  "title", "meta", "link", "input", "button", "select", "option", "textarea", "audio", "video",
  "source", "track", "map", "area", "dialog", "base", "rt", "rp",
]);

/** BLOCK_TAGS start a new block in the output. */
const BLOCK_TAGS = new Set([
  "address", "article", "aside", "blockquote", "body", "center", "dd", "details", "dialog", "dir",
  "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4",
  "h5", "h6", "header", "hgroup", "hr", "html", "legend", "li", "main", "menu", "nav", "ol", "p",
  "pre", "section", "summary", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul", "caption",
  "frameset", "noframes", "search",
]);

interface Ctx {
  base: URL | null;
  skip?: (el: DomElement) => boolean;
  /** inTable: inside a table cell, where headings become bold text and tables flatten to text */
  inTable: boolean;
  /** plainBreaks: a <br> stays a newline (a table cell writes it <br>, a caption a space), not a hard break */
  plainBreaks?: boolean;
  /** blocky: elements whose subtree holds a block element (computed once per render) */
  blocky: Set<DomNode>;
  /** notes: the footnote references and footnotes of this rendering (written `[^label]`, the notes at the end) */
  notes: Footnotes;
}

/** renderMarkdown writes the markdown of the given elements (each with its subtree), in order. */
export function renderMarkdown(roots: DomNode[], opts: WalkOptions = {}): string {
  const ctx: Ctx = { base: parseBase(opts.baseUrl), skip: opts.skip, inTable: false, blocky: new Set(), notes: NO_FOOTNOTES };
  if (!opts.notesInPlace) ctx.notes = findFootnotes(roots, (el) => skipped(el as unknown as DomElement, ctx), ctx.base);
  const blocks: string[] = [];
  for (const root of roots) {
    markBlocky(root, ctx.blocky);
    if (root.nodeType === ELEMENT_NODE && isBlockElement(root as DomElement, ctx)) blocks.push(...blockElement(root as DomElement, ctx, 0));
    else blocks.push(...childBlocks(root, ctx, 0));
  }
  const kept = ctx.notes.labels.size > 0 ? dropEmptiedHeadings(blocks).filter((b) => b !== NOTES_MOVED) : blocks;
  kept.push(noteDefinitions(ctx));
  return joinBlocks(kept).replaceAll(NOTES_MOVED, "");
}

/**
 * dropEmptiedHeadings drops a heading ("Notes", "References") whose section held nothing but the
 * footnotes now written at the end (and rules): left, it would head nothing.
 */
function dropEmptiedHeadings(blocks: string[]): string[] {
  const levelOf = (block: string) => /^(#{1,6}) /.exec(block)?.[1]!.length ?? 0;
  const drop = new Set<number>();
  for (let i = 0; i < blocks.length; i++) {
    const level = levelOf(blocks[i]!);
    if (!level) continue;
    let moved = false;
    let j = i + 1;
    for (; j < blocks.length; j++) {
      const block = blocks[j]!.trim();
      const next = levelOf(block);
      if (next && next <= level) break;
      if (block === NOTES_MOVED) moved = true;
      else if (block !== "" && block !== "---") break;
    }
    if (moved && (j === blocks.length || (levelOf(blocks[j]!) > 0 && levelOf(blocks[j]!) <= level))) for (let k = i; k < j; k++) drop.add(k);
  }
  return blocks.filter((_, i) => !drop.has(i));
}

/** noteDefinitions writes the footnotes referenced in the text as `[^label]: text`, one a line, in the order of their first reference. */
function noteDefinitions(ctx: Ctx): string {
  const lines: string[] = [];
  const inner: Ctx = { ...ctx, inTable: true };
  for (const [note, label] of ctx.notes.labels) {
    const text = noteDefinitionText(childBlocks(note, inner, 1).join(" "), ctx.notes.marks.get(note) ?? label);
    lines.push(`[^${label}]: ${text || label}`);
  }
  return lines.join("\n");
}

function parseBase(baseUrl: string | undefined): URL | null {
  if (!baseUrl) return null;
  try {
    return new URL(baseUrl);
  } catch {
    return null;
  }
}

/** markBlocky records, bottom-up, every element that contains a block element, without recursion. */
function markBlocky(root: DomNode, blocky: Set<DomNode>): void {
  const stack: DomNode[] = [root];
  const order: DomNode[] = [];
  while (stack.length > 0) {
    const node = stack.pop()!;
    order.push(node);
    const kids = node.childNodes;
    for (let i = 0; i < kids.length; i++) if (kids[i]!.nodeType === ELEMENT_NODE) stack.push(kids[i]!);
  }
  for (let i = order.length - 1; i >= 0; i--) {
    const node = order[i]!;
    const parent = node.parentNode;
    if (!parent) continue;
    const tag = tagOf(node);
    if (BLOCK_TAGS.has(tag) || blocky.has(node)) blocky.add(parent);
  }
}

function tagOf(node: DomNode): string {
  return node.nodeName.toLowerCase().replace(/^.*:/, "");
}

function isBlockElement(el: DomElement, ctx: Ctx): boolean {
  return BLOCK_TAGS.has(tagOf(el)) || ctx.blocky.has(el);
}

/** isHidden is true for elements a browser would not show. */
export function isHidden(el: DomElement): boolean {
  if (el.hasAttribute("hidden")) return true;
  if (el.getAttribute("aria-hidden") === "true") return true;
  const style = el.getAttribute("style");
  return style !== null && /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)/i.test(style);
}

function skipped(el: DomElement, ctx: Ctx): boolean {
  if (DROPPED_TAGS.has(tagOf(el)) || isHidden(el)) return true;
  if (ctx.notes.labels.has(el)) return true; // a footnote: written at the end
  return ctx.skip ? ctx.skip(el) : false;
}

// ---------------------------------------------------------------------------------------------
// Blocks

/** childBlocks renders the children of `parent` as a list of markdown blocks. */
function childBlocks(parent: DomNode, ctx: Ctx, depth: number): string[] {
  const out: string[] = [];
  let inline = "";
  const flush = () => {
    if (ctx.inTable || ctx.plainBreaks) {
      const para = finishInline(inline);
      if (para) out.push(para);
    } else {
      // Outside a table a run of <br> is a paragraph break, a single one a hard break (an address, a verse).
      for (const part of inline.split(PARAGRAPH_BREAK)) {
        const para = hardBreaks(finishInline(part));
        if (para) out.push(para);
      }
    }
    inline = "";
  };
  const kids = parent.childNodes;
  for (let i = 0; i < kids.length; i++) {
    const node = kids[i]!;
    if (node.nodeType === TEXT_NODE) {
      inline += escapeInline(collapse(node.textContent ?? ""));
    } else if (node.nodeType === ELEMENT_NODE) {
      const el = node as DomElement;
      if (skipped(el, ctx)) {
        if (ctx.notes.labels.has(el) && isBlockElement(el, ctx)) {
          flush();
          out.push(NOTES_MOVED);
        }
        continue;
      }
      if (depth > MAX_DEPTH) {
        inline += " " + escapeInline(collapse(el.textContent ?? "")) + " ";
      } else if (isBlockElement(el, ctx)) {
        flush();
        out.push(...blockElement(el, ctx, depth + 1));
      } else {
        inline += inlineElement(el, ctx, depth + 1);
      }
    }
  }
  flush();
  return out;
}

/** blockElement renders one block-level element (or an inline element that holds blocks). */
function blockElement(el: DomElement, ctx: Ctx, depth: number): string[] {
  const tag = tagOf(el);
  switch (tag) {
    case "h1": case "h2": case "h3": case "h4": case "h5": case "h6": {
      const text = finishInline(inlineChildren(el, ctx, depth)).replace(/\n/g, " ");
      if (!text) return [];
      // in a table cell a heading is bold text, its own bold marks dropped as heading() drops them ("****x****" is literal asterisks)
      return [ctx.inTable ? `**${withoutWholeBold(text)}**` : heading(Number(tag[1]), text)];
    }
    case "ul": case "ol": case "menu": case "dir":
      return [listBlock(el, ctx, depth)];
    case "table":
      return tableBlocks(el, ctx, depth);
    case "pre":
      return [preBlock(el)];
    case "blockquote": {
      const inner = joinBlocks(childBlocks(el, ctx, depth));
      return inner ? [inner.split("\n").map((line) => (line ? `> ${line}` : ">")).join("\n")] : [];
    }
    case "hr":
      return ctx.inTable ? [] : ["---"];
    case "dt": {
      const text = finishInline(inlineChildren(el, ctx, depth));
      return text ? [`**${text}**`] : [];
    }
    case "figcaption":
    case "caption": {
      const text = joinBlocks(childBlocks(el, { ...ctx, plainBreaks: true }, depth));
      return text ? [`*${text.replace(/\n+/g, " ")}*`] : [];
    }
    case "summary": {
      const text = finishInline(inlineChildren(el, ctx, depth));
      return text ? [`**${text}**`] : [];
    }
    case "a":
      return linkedBlocks(el, ctx, depth);
    default:
      return childBlocks(el, ctx, depth);
  }
}

/** linkedBlocks renders a link that wraps blocks (a card): the first line of text becomes the link. */
function linkedBlocks(el: DomElement, ctx: Ctx, depth: number): string[] {
  const blocks = childBlocks(el, ctx, depth);
  const href = linkTarget(el, ctx);
  if (!href) return blocks;
  const at = blocks.findIndex((b) => /^(#{1,6} )?[^\n|>`!-]/.test(b) && !b.includes("\n"));
  if (at < 0) return blocks;
  blocks[at] = blocks[at]!.replace(/^(#{1,6} )?(.*)$/, (_, hashes: string | undefined, text: string) => `${hashes ?? ""}[${text}](${href})`);
  return blocks;
}

/** listBlock renders ul/ol with nested lists indented under their item; ol keeps its start number. */
function listBlock(el: DomElement, ctx: Ctx, depth: number): string {
  const ordered = tagOf(el) === "ol";
  const startAttr = Number.parseInt(el.getAttribute("start") ?? "1", 10);
  let number = Number.isFinite(startAttr) ? startAttr : 1;
  const items: string[] = [];
  let moved = false;
  const kids = el.childNodes;
  for (let i = 0; i < kids.length; i++) {
    const node = kids[i]!;
    if (node.nodeType !== ELEMENT_NODE) continue;
    const child = node as DomElement;
    if (skipped(child, ctx)) {
      if (ctx.notes.labels.has(child)) moved = true;
      continue;
    }
    const childTag = tagOf(child);
    if (childTag === "ul" || childTag === "ol") {
      // A list directly inside a list (invalid HTML, common in practice) nests under the previous item.
      const nested = indent(listBlock(child, ctx, depth + 1), ordered ? 3 : 2);
      if (items.length > 0 && nested.trim()) items[items.length - 1] += "\n" + nested;
      else if (nested.trim()) items.push(nested.trimStart());
      continue;
    }
    const body = childTag === "li" ? itemBody(child, ctx, depth + 1) : joinBlocks(childBlocks(child, ctx, depth + 1));
    if (!body) continue;
    const valueAttr = childTag === "li" ? Number.parseInt(child.getAttribute("value") ?? "", 10) : NaN;
    if (ordered && Number.isFinite(valueAttr)) number = valueAttr;
    const marker = ordered ? `${number}. ` : "- ";
    number++;
    items.push(marker + indent(body, marker.length).slice(marker.length));
  }
  return items.length === 0 && moved ? NOTES_MOVED : items.join("\n");
}

/** itemBody joins the blocks of one list item: a nested list follows its text on the next line. */
function itemBody(li: DomElement, ctx: Ctx, depth: number): string {
  const blocks = childBlocks(li, ctx, depth).filter((b) => b.trim());
  let out = "";
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i]!;
    if (i === 0) out = block;
    else out += (/^(?:[-*+]|\d+[.)]) /.test(block) ? "\n" : "\n\n") + block;
  }
  return out;
}

function indent(text: string, width: number): string {
  const pad = " ".repeat(width);
  return text.split("\n").map((line) => (line ? pad + line : line)).join("\n");
}

/** preBlock fences preformatted text with the language named by class="language-x" or "lang-x". */
function preBlock(el: DomElement): string {
  const code = preText(el).replace(/^\n/, "");
  if (!code.trim()) return "";
  return fence(code, codeLanguage(el));
}

function preText(node: DomNode): string {
  let out = "";
  const kids = node.childNodes;
  for (let i = 0; i < kids.length; i++) {
    const child = kids[i]!;
    if (child.nodeType === TEXT_NODE) out += (child.textContent ?? "").replace(/\u00a0/g, " ");
    else if (child.nodeType === ELEMENT_NODE) {
      const tag = tagOf(child);
      if (tag === "br") out += "\n";
      else if (tag === "script" || tag === "style") continue;
      else {
        out += preText(child);
        if (BLOCK_TAGS.has(tag) && !out.endsWith("\n")) out += "\n";
      }
    }
  }
  return out;
}

function codeLanguage(el: DomElement): string {
  const candidates: DomElement[] = [el];
  const kids = el.childNodes;
  for (let i = 0; i < kids.length; i++) if (tagOf(kids[i]!) === "code") candidates.push(kids[i] as DomElement);
  let parent = el.parentNode;
  for (let i = 0; i < 2 && parent && parent.nodeType === ELEMENT_NODE; i++, parent = parent.parentNode) candidates.push(parent as DomElement);
  for (const candidate of candidates) {
    const match = /(?:^|\s)(?:language|lang|highlight-source|brush:?)-?([\w+#.-]+)/i.exec(candidate.getAttribute("class") ?? "");
    if (match) return match[1]!.toLowerCase();
    const data = candidate.getAttribute("data-language") ?? candidate.getAttribute("data-lang");
    if (data && /^[\w+#.-]+$/.test(data)) return data.toLowerCase();
  }
  return "";
}

// ---------------------------------------------------------------------------------------------
// Tables

interface Cell {
  text: string;
  colspan: number;
  rowspan: number;
  header: boolean;
}

/** tableBlocks renders a data table as GFM; one-cell and presentation tables are unwrapped. */
function tableBlocks(table: DomElement, ctx: Ctx, depth: number): string[] {
  const rowEls = tableRows(table);
  if (ctx.inTable) {
    // A table inside a table cell cannot be a GFM table: flatten it to lines of text.
    const lines = rowEls.map((row) => rowCells(row).map((c) => flatCell(c, ctx, depth)).filter(Boolean).join(" "));
    return [lines.filter(Boolean).join("\n")];
  }
  const cellEls = rowEls.map(rowCells);
  const cellCount = cellEls.reduce((n, r) => n + r.length, 0);
  const layout = table.getAttribute("role") === "presentation" || table.getAttribute("role") === "none" || holdsTable(cellEls);
  if (cellCount <= 1 || layout || cellEls.every((r) => r.length <= 1)) {
    // Layout tables: their cells are ordinary content, in reading order.
    return cellEls.flat().flatMap((cell) => childBlocks(cell, ctx, depth + 1));
  }
  const blocks: string[] = [];
  const caption = directChild(table, "caption");
  if (caption && !skipped(caption, ctx)) {
    const text = finishInline(inlineChildren(caption, ctx, depth)).replace(/\n/g, " ");
    if (text) blocks.push(`**${text}**`);
  }
  const inner: Ctx = { ...ctx, inTable: true };
  const rows: Cell[][] = cellEls.map((cells) =>
    cells.map((cell) => ({
      text: cellMarkdown(cell, inner, depth + 1),
      colspan: spanOf(cell.getAttribute("colspan")),
      rowspan: spanOf(cell.getAttribute("rowspan")),
      header: tagOf(cell) === "th",
    })),
  );
  const grid = layoutGrid(rows);
  const nonEmpty = grid.filter((row) => row.some((c) => c !== ""));
  if (nonEmpty.length === 0) return blocks;
  if (nonEmpty.length === 1) nonEmpty.unshift(nonEmpty[0]!.map(() => ""));
  blocks.push(gfmTable(nonEmpty));
  return blocks;
}

/**
 * holdsTable: a table with a table of several rows in one of its cells lays out blocks (a wiki's
 * navigation box around its groups, an old page's columns): a pipe table's cell cannot hold rows, so
 * its cells are written as the blocks they hold and each inner table as a table of its own. An inner
 * table of one row still reads on one line of its cell ("x y").
 */
function holdsTable(cellEls: DomElement[][]): boolean {
  return cellEls.some((row) => row.some((cell) => Array.from(cell.querySelectorAll("table")).some((inner) => tableRows(inner).length > 1)));
}

function spanOf(value: string | null): number {
  const n = Number.parseInt(value ?? "1", 10);
  return Number.isFinite(n) && n >= 1 ? Math.min(n, 100) : 1;
}

/** layoutGrid places cells on a grid: spanned columns and rows get empty cells so columns line up. */
function layoutGrid(rows: Cell[][]): string[][] {
  const grid: string[][] = [];
  const carried: number[] = []; // carried[col] = rows still covered by a rowspan from above
  for (let r = 0; r < rows.length; r++) {
    const out: string[] = [];
    let col = 0;
    const take = () => {
      while ((carried[col] ?? 0) > 0) {
        carried[col]!--;
        out[col] = "";
        col++;
      }
    };
    for (const cell of rows[r]!) {
      take();
      out[col] = cell.text;
      for (let k = 0; k < cell.colspan; k++) {
        if (k > 0) out[col + k] = "";
        if (cell.rowspan > 1) carried[col + k] = Math.max(carried[col + k] ?? 0, cell.rowspan - 1);
      }
      col += cell.colspan;
    }
    // Remaining rowspans to the right of the last cell.
    for (let c = col; c < carried.length; c++) {
      if ((carried[c] ?? 0) > 0) {
        carried[c]!--;
        out[c] = "";
      }
    }
    grid.push(Array.from(out, (v) => v ?? ""));
  }
  return grid;
}

/** tableRows lists the rows of a table (not of nested tables): thead rows first, tfoot rows last. */
function tableRows(table: DomElement): DomElement[] {
  const head: DomElement[] = [];
  const body: DomElement[] = [];
  const foot: DomElement[] = [];
  const kids = table.childNodes;
  for (let i = 0; i < kids.length; i++) {
    const node = kids[i]!;
    const tag = tagOf(node);
    if (tag === "tr") body.push(node as DomElement);
    else if (tag === "thead" || tag === "tbody" || tag === "tfoot") {
      const target = tag === "thead" ? head : tag === "tfoot" ? foot : body;
      const rows = node.childNodes;
      for (let j = 0; j < rows.length; j++) if (tagOf(rows[j]!) === "tr") target.push(rows[j] as DomElement);
    }
  }
  return [...head, ...body, ...foot];
}

function rowCells(row: DomElement): DomElement[] {
  const cells: DomElement[] = [];
  const kids = row.childNodes;
  for (let i = 0; i < kids.length; i++) {
    const tag = tagOf(kids[i]!);
    if ((tag === "td" || tag === "th") && !isHidden(kids[i] as DomElement)) cells.push(kids[i] as DomElement);
  }
  return cells;
}

function directChild(el: DomElement, tag: string): DomElement | null {
  const kids = el.childNodes;
  for (let i = 0; i < kids.length; i++) if (tagOf(kids[i]!) === tag) return kids[i] as DomElement;
  return null;
}

/** cellMarkdown renders one cell; its blocks become lines (gfmTable turns them into <br>). */
function cellMarkdown(cell: DomElement, ctx: Ctx, depth: number): string {
  return childBlocks(cell, ctx, depth).filter((b) => b !== NOTES_MOVED).join("\n");
}

/**
 * flatCell writes a cell of a table inside a table cell on one line. A bulleted list in it reads as a
 * horizontal list does on the page, "a · b · c" (a navbox's links), not "- a - b - c"; numbers stay.
 */
function flatCell(cell: DomElement, ctx: Ctx, depth: number): string {
  let out = "";
  let afterItem = false;
  for (const block of childBlocks(cell, { ...ctx, inTable: true }, depth + 1)) {
    for (const raw of block.split("\n")) {
      const line = raw.trim();
      if (!line) continue;
      const item = BULLET_LINE.test(line);
      if (out) out += item && afterItem ? " · " : " ";
      out += item ? line.replace(BULLET_LINE, "") : line;
      afterItem = item;
    }
  }
  return out.replace(/\s+/g, " ").trim();
}

/** BULLET_LINE: the "- " a bulleted list item's line starts with */
const BULLET_LINE = /^[-*+] (?=\S)/;

// ---------------------------------------------------------------------------------------------
// Inline

function inlineChildren(el: DomNode, ctx: Ctx, depth: number): string {
  let out = "";
  const kids = el.childNodes;
  for (let i = 0; i < kids.length; i++) {
    const node = kids[i]!;
    if (node.nodeType === TEXT_NODE) out += escapeInline(collapse(node.textContent ?? ""));
    else if (node.nodeType === ELEMENT_NODE) {
      const child = node as DomElement;
      if (skipped(child, ctx)) continue;
      if (depth > MAX_DEPTH) out += escapeInline(collapse(child.textContent ?? ""));
      else if (BLOCK_TAGS.has(tagOf(child))) out += " " + inlineChildren(child, ctx, depth + 1) + " ";
      else out += inlineElement(child, ctx, depth + 1);
    }
  }
  return out;
}

/** inlineElement renders an element that holds no blocks. */
function inlineElement(el: DomElement, ctx: Ctx, depth: number): string {
  const tag = tagOf(el);
  switch (tag) {
    case "br":
      return BREAK;
    case "wbr":
      return "";
    case "img":
      return imageMarkdown(el, ctx);
    case "a": {
      const note = ctx.notes.references.get(el);
      return note ? `[^${note}]` : linkMarkdown(el, ctx, depth);
    }
    case "sup": case "sub": {
      const note = ctx.notes.references.get(el);
      if (note) return `[^${note}]`;
      return wrapTag(inlineChildren(el, ctx, depth), tag);
    }
    case "b": case "strong":
      return wrap(inlineChildren(el, ctx, depth), "**");
    case "i": case "em": case "cite": case "dfn": case "var":
      return wrap(inlineChildren(el, ctx, depth), "*");
    case "del": case "s": case "strike":
      return wrap(inlineChildren(el, ctx, depth), "~~");
    case "code": case "kbd": case "samp": case "tt":
      return codeSpan(el.textContent ?? "");
    case "math":
      return mathMarkdown(el);
    case "q":
      return `"${inlineChildren(el, ctx, depth)}"`;
    default:
      return inlineChildren(el, ctx, depth);
  }
}

/**
 * wrap puts emphasis markers around text, keeping surrounding spaces outside the markers. Markdown
 * emphasis cannot span a line break, so a run that holds <br> is marked line by line
 * (`<b>a<br>b</b>` is `**a**` and `**b**` on two lines): both lines stay bold, as the page shows.
 */
function wrap(inner: string, marker: string): string {
  if (inner.includes(BREAK)) return inner.split(/([\s\u0001]*\u0001[\s\u0001]*)/).map((part, i) => (i % 2 ? part : wrap(part, marker))).join("");
  const match = /^(\s*)([\s\S]*?)(\s*)$/.exec(inner)!;
  const core = match[2]!;
  if (!core) return inner;
  return `${match[1]}${marker}${core}${marker}${match[3]}`;
}

/**
 * wrapTag writes a superscript or subscript as its HTML tag around the markdown of its content
 * (GitHub and CommonMark read markdown between inline tags); spaces stay outside. A line break
 * inside cannot be held by one inline tag: the content is kept plain.
 */
function wrapTag(inner: string, tag: "sup" | "sub"): string {
  const match = /^([\s\u0001]*)([\s\S]*?)([\s\u0001]*)$/.exec(inner)!;
  const core = match[2]!;
  if (!core || core.includes(BREAK)) return inner;
  return `${match[1]}<${tag}>${core}</${tag}>${match[3]}`;
}

function codeSpan(text: string): string {
  const code = text.replace(/[\s\u00a0]+/g, " ");
  if (!code.trim()) return code ? " " : "";
  const longest = Math.max(0, ...Array.from(code.matchAll(/`+/g), (m) => m[0].length));
  const ticks = "`".repeat(longest + 1);
  const pad = code.startsWith("`") || code.endsWith("`") ? " " : "";
  return `${ticks}${pad}${code}${pad}${ticks}`;
}

/** mathMarkdown writes MathML as TeX when the page carries the TeX source (KaTeX, MediaWiki). */
function mathMarkdown(el: DomElement): string {
  const annotations = el.querySelectorAll("annotation");
  for (let i = 0; i < annotations.length; i++) {
    const a = annotations[i]!;
    if (/tex/i.test(a.getAttribute("encoding") ?? "")) return `$${(a.textContent ?? "").trim()}$`;
  }
  const alt = el.getAttribute("alttext");
  if (alt) return `$${alt.trim()}$`;
  return escapeInline(collapse(el.textContent ?? ""));
}

function linkTarget(el: DomElement, ctx: Ctx): string | null {
  const href = (el.getAttribute("href") ?? "").trim();
  if (!href || /^(?:javascript|vbscript|data):/i.test(href)) return null;
  return destination(absoluteUrl(href, ctx));
}

function linkMarkdown(el: DomElement, ctx: Ctx, depth: number): string {
  const inner = inlineChildren(el, ctx, depth);
  const href = linkTarget(el, ctx);
  // A footnote's link back to its reference ("↩", "^") has no place once the note is at the end.
  if (ctx.notes.backLinks.has(el)) return "";
  const match = /^([\s\u0001]*)([\s\S]*?)([\s\u0001]*)$/.exec(inner)!;
  const text = match[2]!.replace(new RegExp(BREAK, "g"), " ");
  // Heading permalinks ("¶", "#", a zero-width space) carry no text worth keeping.
  if (/^[\s\u200b-\u200d\u2060\ufeff¶§#\\]*$/.test(text)) return match[1]! + match[3]!;
  if (!href) return inner;
  return `${match[1]}[${text}](${href})${match[3]}`;
}

function imageMarkdown(el: DomElement, ctx: Ctx): string {
  let src = (el.getAttribute("src") ?? "").trim();
  const lazy = el.getAttribute("data-src") ?? el.getAttribute("data-original") ?? el.getAttribute("data-lazy-src");
  if ((!src || src.startsWith("data:")) && lazy) src = lazy.trim();
  if (!src) {
    const srcset = el.getAttribute("srcset") ?? el.getAttribute("data-srcset") ?? "";
    src = srcset.trim().split(/\s+/)[0] ?? "";
  }
  if (!src || /^(?:javascript|vbscript):/i.test(src)) return "";
  if (src.startsWith("data:") && src.length > MAX_DATA_URI) return "";
  if (isTrackingPixel(el, src)) return "";
  const alt = collapse(el.getAttribute("alt") ?? "").trim().replace(/([\\[\]])/g, "\\$1");
  return `![${alt}](${destination(src.startsWith("data:") ? src : absoluteUrl(src, ctx))})`;
}

/**
 * BEACON_HOSTS are analytics and ad servers whose images are counters, never content (matched on
 * the host and its parent domains).
 */
const BEACON_HOSTS = new Set([
  "scorecardresearch.com", "doubleclick.net", "google-analytics.com", "googletagmanager.com", "googlesyndication.com",
  "quantserve.com", "quantcount.com", "bat.bing.com", "pixel.wp.com", "stats.wp.com", "omtrdc.net", "2o7.net",
  "chartbeat.net", "adnxs.com", "krxd.net", "demdex.net", "everesttech.net", "adsrvr.org", "ads-twitter.com",
  "analytics.twitter.com", "t.co", "pixel.facebook.com", "mc.yandex.ru", "counter.yadro.ru", "top-fwz1.mail.ru",
  "hotjar.com", "newrelic.com", "nr-data.net", "imrworldwide.com", "cxense.com", "parsely.com", "mathtag.com",
  "bluekai.com", "rlcdn.com", "taboola.com", "outbrain.com", "criteo.com", "criteo.net", "amazon-adsystem.com",
  "gemius.pl", "hit.gemius.pl", "spotxchange.com", "moatads.com",
]);
/** BEACON_PATH matches paths of first-party hosts that serve counters (facebook.com/tr, /pixel.gif, ...). */
const BEACON_PATH = /^\/(?:tr|px|pixel|beacon|collect|b\/ss|p)(?:[/.?]|$)/i;

function isTrackingPixel(el: DomElement, src: string): boolean {
  const width = Number.parseInt(el.getAttribute("width") ?? "", 10);
  const height = Number.parseInt(el.getAttribute("height") ?? "", 10);
  if ((Number.isFinite(width) && width <= 2) || (Number.isFinite(height) && height <= 2)) return true;
  const style = el.getAttribute("style") ?? "";
  if (/(?:^|;)\s*(?:width|height)\s*:\s*[0-2](?:\.\d+)?px/i.test(style)) return true;
  if (/[/_.-](?:pixel|beacon|tracking|1x1|spacer)(?:[/_.?-]|$)/i.test(src)) return true;
  return isBeaconUrl(src);
}

/** isBeaconUrl: the image comes from an analytics or ad server (BEACON_HOSTS), or facebook.com/tr and the like. */
function isBeaconUrl(src: string): boolean {
  let url: URL;
  try {
    url = new URL(src, "https://page.invalid/");
  } catch {
    return false;
  }
  const labels = url.hostname.toLowerCase().split(".");
  for (let i = 0; i < labels.length - 1; i++) if (BEACON_HOSTS.has(labels.slice(i).join("."))) return true;
  return /(?:^|\.)(?:facebook|linkedin|reddit|pinterest|snapchat|tiktok)\.com$/i.test(url.hostname) && BEACON_PATH.test(url.pathname);
}

/** absoluteUrl resolves a link against the page base; relative links stay as written without a base. */
export function absoluteUrl(href: string, ctx: { base: URL | null }): string {
  if (!ctx.base) return href;
  try {
    return new URL(href, ctx.base).href;
  } catch {
    return href;
  }
}

/** destination makes a URL safe inside (...) of a markdown link. */
function destination(url: string): string {
  return url.replace(/[\s<>]/g, (c) => encodeURIComponent(c)).replace(/\(/g, "%28").replace(/\)/g, "%29");
}

// ---------------------------------------------------------------------------------------------
// Text

/**
 * collapse turns every run of HTML whitespace into one space; no-break spaces become spaces. Soft
 * hyphens (U+00AD, a browser shows them only where it breaks a line) are dropped: kept, they split
 * words for every reader of the markdown ("Mit\u00adtel\u00adal\u00adter").
 */
function collapse(text: string): string {
  return text.replace(/\u00ad/g, "").replace(/[ \t\n\r\f\u00a0]+/g, " ");
}

/** escapeInline escapes characters that would start markdown syntax inside running text. */
function escapeInline(text: string): string {
  return text
    .replace(/[\\`*[\]]/g, "\\$&")
    .replace(/<(?=[a-zA-Z/!?])/g, "\\<")
    .replace(/(^|[^\p{L}\p{N}])_|_(?=$|[^\p{L}\p{N}])/gu, (m) => m.replace("_", "\\_"))
    .replace(/~~/g, "\\~\\~");
}

/**
 * hardBreaks marks each line break of a finished paragraph as a markdown hard break (`\` at the
 * line's end); finishInline has already dropped the breaks at its start and end.
 */
function hardBreaks(paragraph: string): string {
  return paragraph.replace(/\n/g, "\\\n");
}

/** finishInline turns accumulated inline markdown into a paragraph: trimmed, one space, line starts escaped. */
function finishInline(inline: string): string {
  if (!inline) return "";
  return inline
    .replace(/ {2,}/g, " ")
    .replace(/ ?\u0001 ?/g, "\n")
    .replace(/^\n+|\n+$/g, "")
    .replace(/\n{2,}/g, "\n")
    .trim()
    .replace(/^( *)(#{1,6}(?=\s|$)|>|[-+](?= )|=+$|(\d+)([.)])(?= ))/gm, (_m, lead: string, marker: string, digits?: string, dot?: string) =>
      digits ? `${lead}${digits}\\${dot}` : `${lead}\\${marker}`,
    );
}
