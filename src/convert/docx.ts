/**
 * DOCX -> markdown, natively: body paragraphs in order, headings from paragraph styles, lists from
 * numbering.xml, GFM tables, hyperlinks, emphasis, footnotes, comments, equations (OMML -> LaTeX)
 * and images (alt text, plus OCR of the embedded picture when an engine is given). LibreOffice's
 * DOCX output (from DOC, ODT, RTF, PAGES) goes through the same path.
 */
import { AppError } from "../errors";
import { checkMarkdownSize, escapeText, fence, gfmTable, heading, joinBlocks, markdownUrl, tidyMarkdown } from "./markdown";
import { isMonoFontName } from "./monoFont";
import { baseName, child, childrenNamed, codeSpans, hardBreaks, descendants, firstDescendant, imageAlt, ImageCollector, isOn, isSymbolFace, metadataOrEmpty, OoxmlPackage, path, renderChartPart, renderDiagramOf, symbolFontText, textContent, textOf, type XmlElement } from "./ooxml";
import type { Conversion, ConvertContext, Converter } from "./types";
import { leftIndent, type NumberLabel, WordNumbering } from "./wordNumbering";
import { embeddedSheet } from "./xlsx";

/** convertDocx turns a Word document into markdown. */
export const convertDocx: Converter = async (input, ctx) => {
  ctx.signal.throwIfAborted();
  const pkg = OoxmlPackage.open(input, ctx, "DOCX");
  const mainPart = pkg.mainPart("word/document.xml", "w:document");
  const doc = new DocxReader(pkg, mainPart, ctx);
  const body = path(pkg.xml(mainPart), "w:document", "w:body");
  if (!body) throw new AppError("unreadable_document", `${pkg.what}: word/document.xml has no <w:body>; the file is damaged`);
  ctx.signal.throwIfAborted();
  const blocks = doc.renderBlocks(body.children);
  const notes = doc.renderNotes();
  const comments = doc.renderComments();
  ctx.signal.throwIfAborted();
  const warnings: string[] = [...doc.warnings];
  const assembled = joinBlocks([blocksToMarkdown(blocks), notes, comments]);
  checkMarkdownSize(assembled.length, ctx.limits, pkg.what);
  const { markdown, ocrAdded } = await doc.images.resolve(assembled, ctx, warnings);
  const props = pkg.properties();
  const result: Conversion = {
    markdown: tidyMarkdown(markdown),
    title: props.title ?? doc.firstHeading,
    totalPages: props.pages,
    method: ocrAdded ? "text+ocr" : "text",
    warnings,
  };
  if (!result.markdown.trim()) return metadataOrEmpty(props, pkg.what, "contains no text, tables or images");
  return result;
};

/** Block is one rendered body element; consecutive list items are joined without blank lines. */
interface Block {
  /** kind: code is one line (paragraph) of a listing; consecutive ones are one fenced block */
  kind: "para" | "list" | "code";
  text: string;
  /** newList: a top-level item of a different list than the item before it */
  newList?: boolean;
}

function blocksToMarkdown(blocks: Block[]): string {
  let out = "";
  let previous: Block["kind"] | null = null;
  for (let i = 0; i < blocks.length; i++) {
    if (blocks[i]!.kind === "code") {
      // a listing's paragraphs, blank ones inside it kept, as one fence
      let end = i;
      while (blocks[end + 1]?.kind === "code") end++;
      const code = blocks.slice(i, end + 1).map((b) => b.text).join("\n").replace(/^\s*\n|\n\s*$/g, "");
      i = end;
      if (!code.trim()) continue;
      if (previous !== null) out += "\n\n";
      out += fence(code);
      previous = "code";
      continue;
    }
    const block = blocks[i]!;
    if (!block.text.trim()) continue;
    if (previous !== null) out += previous === "list" && block.kind === "list" && !block.newList ? "\n" : "\n\n";
    out += block.text;
    previous = block.kind;
  }
  return out;
}

/** Segment is one run of inline text with its formatting; raw segments are markdown already. */
interface Segment {
  text: string;
  raw: boolean;
  bold: boolean;
  italic: boolean;
  strike: boolean;
  script: Script;
  /** mono: set in a monospace face (a direct font or a code character style): written as a code span */
  mono: boolean;
  href: string | null;
  /** picture: a picture's `![alt](name)` or its reading's placeholder */
  picture?: boolean;
}

/** Script is a run's vertical alignment: superscript, subscript or "" (the baseline); written as `<sup>`/`<sub>`. */
type Script = "" | "sup" | "sub";

interface RunFormat {
  bold: boolean;
  italic: boolean;
  strike: boolean;
  script: Script;
  mono: boolean;
  href: string | null;
}

const PLAIN: RunFormat = { bold: false, italic: false, strike: false, script: "", mono: false, href: null };

/** FieldState is one open complex field (w:fldChar begin ... separate ... end). */
interface FieldState {
  instruction: string;
  showingResult: boolean;
  href: string | null;
}

/** ListEntry is one open list item of the nesting: where its text starts in the markdown, and the list, level and left indent (twips, null unknown) it has in the document */
interface ListEntry {
  indent: number;
  markerWidth: number;
  numId: string;
  ilvl: number;
  left: number | null;
}

/** StyleInfo is what the converter needs from one style of styles.xml. */
interface StyleInfo {
  name: string;
  basedOn: string | null;
  outlineLevel: number | null;
  numId: string | null;
  ilvl: number;
  bold: boolean;
  italic: boolean;
  strike: boolean;
  /** script: the style's vertical alignment, null when it sets none */
  script: Script | null;
  /** mono: the style sets a monospace font, or is one of Word's styles for code ("Macro Text", "HTML Preformatted") */
  mono: boolean;
  /** left: the style's left indent in twips (w:ind w:left or w:start), null when it sets none */
  left: number | null;
  /** size: the style's font size in half-points (w:sz), null when it sets none */
  size: number | null;
}

/** CODE_STYLE: names of paragraph and character styles for code (Word's, LibreOffice's "Preformatted Text" and "Source Text", and the usual custom ones) */
const CODE_STYLE = /^(?:macro(?: text)?|html (?:preformatted|code)|preformatted text|source text|source code|code(?: block)?)$/;
/** MAX_BOX_DEPTH: one-cell tables inside one-cell tables written as body text this deep; deeper ones are tables */
const MAX_BOX_DEPTH = 4;


/** MAX_SHAPE_LABELS: the shapes of one drawing whose text is read (a drawing of more is read up to this many) */
const MAX_SHAPE_LABELS = 2000;

/**
 * shapeLabels: the text of a drawing's DrawingML shapes (a:sp with a:txBody, or a:txSp's, as a
 * locked canvas holds them), one label a shape, its paragraphs on lines of their own, in reading
 * order: rows top to bottom (a shape whose top is above the middle of the row's first shape is in
 * its row), each row left to right. Offsets inside a group are the group's own space; the order is
 * the page's for the flat canvases Word writes.
 */
function shapeLabels(drawing: XmlElement): string[] {
  const shapes: Array<{ x: number; y: number; height: number; order: number; text: string }> = [];
  for (const sp of descendants(drawing, "a:sp")) {
    if (shapes.length >= MAX_SHAPE_LABELS) break;
    const body = child(sp, "a:txBody") ?? path(sp, "a:txSp", "a:txBody");
    if (!body) continue;
    const lines = childrenNamed(body, "a:p")
      .map((p) => p.children.map((run) => (typeof run === "string" ? "" : run.name === "a:br" ? " " : textOf(run, "a:t"))).join("").replace(/\s+/g, " ").trim())
      .filter(Boolean);
    if (!lines.length) continue;
    const xfrm = path(sp, "a:spPr", "a:xfrm");
    const off = child(xfrm, "a:off");
    const height = Number(child(xfrm, "a:ext")?.attrs["cy"]) || 0;
    shapes.push({ x: Number(off?.attrs["x"]) || 0, y: Number(off?.attrs["y"]) || 0, height, order: shapes.length, text: lines.map(escapeText).join("\n") });
  }
  shapes.sort((a, b) => a.y - b.y || a.x - b.x || a.order - b.order);
  const ordered: string[] = [];
  for (let start = 0; start < shapes.length; ) {
    const first = shapes[start]!;
    let end = start + 1;
    while (end < shapes.length && shapes[end]!.y < first.y + first.height / 2) end++;
    ordered.push(...shapes.slice(start, end).sort((a, b) => a.x - b.x || a.order - b.order).map((shape) => shape.text));
    start = end;
  }
  return ordered;
}

/** SAME_INDENT: twips within which two list paragraphs' left indents are one column (a sixteenth of an inch) */
const SAME_INDENT = 90;

/** Note is a footnote or endnote referenced in the body. */
interface Note {
  label: number;
  element: XmlElement | undefined;
  /** part: the footnotes or endnotes part that holds it, whose relationships resolve its links and pictures */
  part: string;
}

/** DocxReader holds one document's styles, numbering, relationships and the state of rendering. */
class DocxReader {
  readonly images: ImageCollector;
  readonly warnings: string[] = [];
  firstHeading: string | null = null;
  private readonly styles = new Map<string, StyleInfo>();
  private defaultParagraphStyle: string | null = null;
  /** defaultSize: the document's default font size in half-points (w:docDefaults), Word's 10 pt when it sets none */
  private defaultSize = 20;
  /**
   * documentIsMono: the default paragraph style is set in a monospace face (a document typed in one
   * throughout: its paragraphs are prose, its runs no code spans); read once, after the styles
   */
  private readonly documentIsMono: boolean;
  private numbering!: WordNumbering;
  private listStack: ListEntry[] = [];
  private fields: FieldState[] = [];
  private readonly footnotes = new Map<string, XmlElement>();
  private readonly endnotes = new Map<string, XmlElement>();
  private readonly notes: Note[] = [];
  private readonly noteLabels = new Map<string, number>();
  private pendingBlocks: Block[] = [];
  private cellDepth = 0;
  /** nestedTables: the tables nested in the cells of the body table being written, each written after it */
  private nestedTables: string[] = [];
  /** boxDepth: one-cell tables (boxCell) being written as body text, one inside another */
  private boxDepth = 0;
  /** relsPart is the part whose relationships resolve r:id (links, pictures): each part has its own. */
  private relsPart: string;
  /** inComment: a comment's paragraphs are one list item, so its heading styles give plain text. */
  private inComment = false;
  /** inNote: a footnote or endnote is one line, so its line breaks are spaces. */
  private inNote = false;

  constructor(
    private readonly pkg: OoxmlPackage,
    private readonly part: string,
    private readonly ctx: ConvertContext,
  ) {
    this.images = new ImageCollector(pkg);
    this.relsPart = part;
    this.readStyles();
    this.documentIsMono = [...this.styleChain(this.defaultParagraphStyle)].some((style) => style.mono);
    this.readNumbering();
    this.readNotes("footnotes", "w:footnote", this.footnotes);
    this.readNotes("endnotes", "w:endnote", this.endnotes);
  }

  /** partOf resolves the part related to the main document by relationship type, if any. */
  private partOf(type: string): string | undefined {
    const rel = this.pkg.relsOfType(this.part, type).find((r) => !r.external);
    return rel?.target;
  }

  private readStyles(): void {
    const part = this.partOf("styles") ?? "word/styles.xml";
    const root = this.pkg.xml(part);
    this.defaultSize = halfPoints(path(root, "w:styles", "w:docDefaults", "w:rPrDefault", "w:rPr", "w:sz")) ?? 20;
    for (const style of descendants(root, "w:style")) {
      const id = style.attrs["w:styleId"];
      if (!id) continue;
      const pPr = child(style, "w:pPr");
      const rPr = child(style, "w:rPr");
      const outline = child(pPr, "w:outlineLvl")?.attrs["w:val"];
      const numPr = child(pPr, "w:numPr");
      this.styles.set(id, {
        name: (child(style, "w:name")?.attrs["w:val"] ?? id).toLowerCase(),
        basedOn: child(style, "w:basedOn")?.attrs["w:val"] ?? null,
        outlineLevel: outline === undefined ? null : Number(outline),
        numId: child(numPr, "w:numId")?.attrs["w:val"] ?? null,
        ilvl: Number(child(numPr, "w:ilvl")?.attrs["w:val"] ?? 0) || 0,
        bold: isOn(child(rPr, "w:b")),
        italic: isOn(child(rPr, "w:i")),
        strike: isOn(child(rPr, "w:strike")) || isOn(child(rPr, "w:dstrike")),
        script: scriptOf(rPr),
        mono: isMonoFontName(child(rPr, "w:rFonts")?.attrs["w:ascii"] ?? "") || CODE_STYLE.test((child(style, "w:name")?.attrs["w:val"] ?? "").toLowerCase()),
        left: leftIndent(child(pPr, "w:ind")),
        size: halfPoints(child(rPr, "w:sz")),
      });
      if (style.attrs["w:type"] === "paragraph" && (style.attrs["w:default"] === "1" || style.attrs["w:default"] === "true")) {
        this.defaultParagraphStyle = id;
      }
    }
  }

  /** styleChain walks a style and the styles it is based on (cycles cut). */
  private *styleChain(id: string | null): Generator<StyleInfo> {
    const seen = new Set<string>();
    while (id && !seen.has(id)) {
      seen.add(id);
      const style = this.styles.get(id);
      if (!style) return;
      yield style;
      id = style.basedOn;
    }
  }

  /** headingLevel gives 1-6 for heading and title styles (by name or outline level), else 0. */
  private headingLevel(styleId: string | null, pPr: XmlElement | undefined): number {
    const direct = child(pPr, "w:outlineLvl")?.attrs["w:val"];
    if (direct !== undefined) return outlineToLevel(Number(direct));
    for (const style of this.styleChain(styleId)) {
      const named = /^heading\s*([1-9])$/.exec(style.name);
      if (named) return Math.min(6, Number(named[1]));
      if (style.name === "title") return 1;
      if (style.name === "subtitle") return 0;
      if (style.outlineLevel !== null) return outlineToLevel(style.outlineLevel);
    }
    return 0;
  }

  /** sizeOf gives the font size a paragraph style sets, through the styles it is based on, else the document's default (half-points) */
  private sizeOf(styleId: string | null): number {
    for (const style of this.styleChain(styleId)) if (style.size !== null) return style.size;
    return this.defaultSize;
  }

  /**
   * shownAsText: a paragraph that a heading style or an outline level would make a heading but whose
   * size shows it as text. In a larger heading style with every run of text set directly at the body's
   * size or smaller, it is a lead sentence of the body (a sentence typed in the heading's style and
   * shrunk to the text's size); a heading by its own outline level only, every run smaller than the
   * body (a masthead's contact lines in 8 pt), it is small print. At the body's size an outline level
   * keeps it a heading, as Word's navigation pane lists it.
   */
  private shownAsText(p: XmlElement, styleId: string | null): boolean {
    const body = this.sizeOf(this.defaultParagraphStyle);
    if (child(child(p, "w:pPr"), "w:outlineLvl")) {
      if (this.headingLevel(styleId, undefined) > 0) return false;
      const sizes = this.runSizes(p, styleId);
      return sizes.length > 0 && sizes.every((size) => size !== null && size < body);
    }
    if (this.sizeOf(styleId) <= body) return false;
    const sizes = this.runSizes(p, null);
    return sizes.length > 0 && sizes.every((size) => size !== null && size <= body);
  }

  /** runSizes lists the font size of each run of text of a paragraph: its own, else its style's (styleId), else null */
  private runSizes(p: XmlElement, styleId: string | null): Array<number | null> {
    const styled = styleId === null ? null : this.sizeOf(styleId);
    return descendants(p, "w:r")
      .filter((r) => textOf(r, "w:t").trim())
      .map((r) => halfPoints(child(child(r, "w:rPr"), "w:sz")) ?? styled);
  }

  private readNumbering(): void {
    const root = this.pkg.xml(this.partOf("numbering") ?? "word/numbering.xml");
    this.numbering = new WordNumbering(root, (styleId) => this.styles.get(styleId)?.numId ?? null);
  }

  /**
   * listMarker gives a numbered paragraph's markdown marker and the label written at its text's start:
   * a bullet "-"; a level that shows its own decimal counter ("3." or "3)") that number; any other
   * label ("(a)", "1.1", "iv.", "Article 3") "-" and the label as the page shows it, since markdown's
   * ordered lists show digits only. Null when the numbering shows nothing (format "none", an unknown list).
   */
  private listMarker(numId: string, ilvl: number): { marker: string; label: string } | null {
    const shown = this.numbering.next(numId, ilvl);
    if (!shown) return null;
    if (shown.bullet) return { marker: "-", label: "" };
    if (shown.plain) return { marker: shown.label, label: "" };
    const label = labelText(shown, true);
    return label ? { marker: "-", label } : null;
  }

  private readNotes(type: "footnotes" | "endnotes", tag: string, into: Map<string, XmlElement>): void {
    const part = this.partOf(type);
    if (!part) return;
    for (const note of descendants(this.pkg.xml(part), tag)) {
      const kind = note.attrs["w:type"];
      if (kind === "separator" || kind === "continuationSeparator" || kind === "continuationNotice") continue;
      into.set(note.attrs["w:id"] ?? "", note);
    }
  }

  /** renderBlocks renders body-level elements (paragraphs, tables, content controls) in order. */
  renderBlocks(nodes: XmlElement["children"]): Block[] {
    const blocks: Block[] = [];
    for (const node of nodes) {
      if (typeof node === "string") continue;
      switch (node.name) {
        case "w:p":
          blocks.push(...this.renderParagraph(node));
          break;
        case "w:tbl": {
          this.listStack = [];
          const box = this.boxCell(node);
          if (box) {
            this.boxDepth++;
            try {
              blocks.push(...this.renderBlocks(box.children));
            } finally {
              this.boxDepth--;
            }
            this.listStack = [];
          } else {
            // a grid nested in a cell is written as a table of its own after the table that holds it
            const outer = this.nestedTables;
            this.nestedTables = [];
            try {
              blocks.push({ kind: "para", text: this.renderTable(node) });
              for (const nested of this.nestedTables) blocks.push({ kind: "para", text: nested });
            } finally {
              this.nestedTables = outer;
            }
          }
          break;
        }
        case "w:sdt":
          blocks.push(...this.renderBlocks(child(node, "w:sdtContent")?.children ?? []));
          break;
        case "w:customXml":
        case "w:ins":
        case "w:moveTo":
        case "w:smartTag":
          blocks.push(...this.renderBlocks(node.children));
          break;
        case "mc:AlternateContent":
          blocks.push(...this.renderBlocks(child(node, "mc:Choice")?.children ?? child(node, "mc:Fallback")?.children ?? []));
          break;
      }
    }
    return blocks;
  }

  /** renderParagraph renders one w:p as a heading, list item or paragraph, plus any text boxes in it. */
  private renderParagraph(p: XmlElement): Block[] {
    const pPr = child(p, "w:pPr");
    const styleId = child(pPr, "w:pStyle")?.attrs["w:val"] ?? this.defaultParagraphStyle;
    const segments: Segment[] = [];
    const outer = this.pendingBlocks;
    this.pendingBlocks = [];
    this.collectInline(p.children, PLAIN, segments);
    const extra = this.pendingBlocks;
    this.pendingBlocks = outer;
    const rendered = renderSegments(segments).trim();
    // A line break (w:br) in body text is a hard break; a table cell's lines become <br>, a note's and comment's spaces.
    const text = this.cellDepth === 0 && !this.inComment && !this.inNote ? hardBreaks(rendered) : rendered;
    const blocks: Block[] = [];
    const numbering = this.numberingOf(pPr, styleId);
    // A numbered paragraph that is a heading only by its own outline level (no heading style) shows as a list item: its number is what a reader sees
    const level = text && !this.inComment && !(numbering && this.headingLevel(styleId, undefined) === 0) && !this.shownAsText(p, styleId) ? this.headingLevel(styleId, pPr) : 0;
    if (!level && !numbering && this.cellDepth === 0 && !this.inComment && this.isCode(p, styleId)) {
      this.listStack = [];
      blocks.push({ kind: "code", text: codeText(p) });
    } else if (level > 0) {
      // a picture in a heading is written beside it (headingPictures); a "heading" of pictures only is a paragraph of them
      const pictures = this.cellDepth === 0 ? headingPictures(segments) : null;
      const words = (pictures ? renderSegments(pictures.words).trim() : rendered).replace(/\s*\n\s*/g, " ");
      if (pictures?.before.length) blocks.push({ kind: "para", text: renderSegments(pictures.before).trim() });
      if (pictures && !words) return [...blocks, ...extra];
      // heading() drops bold that covers the whole heading; in a table cell the words stay as they are set.
      this.firstHeading ??= words.replace(/[*_~\\]/g, "") || null;
      this.listStack = [];
      // a numbered heading shows its number first ("1.1.1 Architectural Design", "II. Executive Summary")
      const shown = numbering ? this.numbering.next(numbering.numId, numbering.ilvl) : null;
      const label = shown ? labelText(shown, false) : "";
      const clean = label ? `${label} ${words}` : words;
      // A table cell holds inline text only: there a heading keeps its words without the '#' marker.
      blocks.push({ kind: "para", text: this.cellDepth > 0 ? clean : heading(level, clean) });
      if (pictures?.after.length) blocks.push({ kind: "para", text: renderSegments(pictures.after).trim() });
    } else if (numbering && text) {
      const shown = this.listMarker(numbering.numId, numbering.ilvl);
      if (shown) {
        // a new list: the first item after other text, or a top-level item of another list than the open top-level one
        const root = this.listStack[0]?.numId;
        const item = this.listItem(shown.marker, numbering, this.listIndent(pPr, styleId, numbering), shown.label ? `${shown.label} ${text}` : text);
        blocks.push({ kind: "list", text: item.text, newList: root === undefined || (item.depth === 0 && numbering.ilvl === 0 && numbering.numId !== root) });
      }
      else blocks.push({ kind: "para", text: escapeLineStarts(text) });
    } else if (text) {
      this.listStack = [];
      blocks.push({ kind: "para", text: escapeLineStarts(text) });
    }
    return [...blocks, ...extra];
  }

  /**
   * isCode: the paragraph is a line of a listing: its style is set in a monospace face or is a style
   * for code, or each of its runs with text is (a direct font, or a character style). A monospace
   * word inside a prose paragraph leaves it prose; a document whose default paragraph style is
   * monospace has no code.
   */
  private isCode(p: XmlElement, styleId: string | null): boolean {
    const monoStyle = (id: string | null) => [...this.styleChain(id)].some((style) => style.mono);
    // a document typed in a monospace face throughout: its paragraphs are its prose
    if (this.documentIsMono) return false;
    const runs = descendants(p, "w:r").filter((r) => childrenNamed(r, "w:t").some((t) => textContent(t).trim()));
    if (!runs.length) return monoStyle(styleId);
    const runIsMono = (r: XmlElement): boolean => {
      const rPr = child(r, "w:rPr");
      const font = child(rPr, "w:rFonts")?.attrs["w:ascii"];
      if (font !== undefined) return isMonoFontName(font);
      return monoStyle(child(rPr, "w:rStyle")?.attrs["w:val"] ?? null) || monoStyle(styleId);
    };
    return runs.every(runIsMono);
  }

  /**
   * runIsMono: a run is set in a monospace face by its own font or its character style (Word's
   * "HTML Code", a "Code" style): a command or a name inside prose, written as a code span. In a
   * document typed in a monospace face throughout nothing is.
   */
  private runIsMono(rPr: XmlElement | undefined, charStyle: StyleInfo | undefined): boolean {
    if (this.documentIsMono) return false;
    const font = child(rPr, "w:rFonts")?.attrs["w:ascii"];
    if (font !== undefined) return isMonoFontName(font);
    return charStyle !== undefined && [...this.styleChain(child(rPr, "w:rStyle")?.attrs["w:val"] ?? null)].some((style) => style.mono);
  }

  /** numberingOf finds the list membership of a paragraph: direct numPr, else its style's. */
  private numberingOf(pPr: XmlElement | undefined, styleId: string | null): { numId: string; ilvl: number } | null {
    const numPr = child(pPr, "w:numPr");
    let numId = child(numPr, "w:numId")?.attrs["w:val"] ?? null;
    let ilvl = Number(child(numPr, "w:ilvl")?.attrs["w:val"] ?? Number.NaN);
    if (numId === null || Number.isNaN(ilvl)) {
      for (const style of this.styleChain(styleId)) {
        if (style.numId !== null) {
          numId ??= style.numId;
          if (Number.isNaN(ilvl)) ilvl = style.ilvl;
          break;
        }
      }
    }
    if (numId === null || numId === "0") return null;
    return { numId, ilvl: Math.max(0, Math.min(8, Number.isNaN(ilvl) ? 0 : ilvl)) };
  }

  /** listIndent: a list paragraph's left indent in twips: its own, else its numbering level's, else its style's; null when none sets one */
  private listIndent(pPr: XmlElement | undefined, styleId: string | null, numbering: { numId: string; ilvl: number }): number | null {
    const own = leftIndent(child(pPr, "w:ind"));
    if (own !== null) return own;
    const level = this.numbering.level(numbering.numId, numbering.ilvl)?.left;
    if (level !== null && level !== undefined) return level;
    for (const style of this.styleChain(styleId)) if (style.left !== null) return style.left;
    return null;
  }

  /**
   * listItem indents an item under its parent's content column so nesting survives any marker width.
   * Its parent is the nearest open item above it that is a level up: of the same list, a lower level
   * (items of one level are siblings, also when a list opens at a deeper level); of another list, one
   * whose text starts left of this item's, as the page shows it (a list per level, each indented
   * under the item above); when an indent is unknown, a lower level.
   */
  private listItem(marker: string, numbering: { numId: string; ilvl: number }, left: number | null, text: string): { text: string; depth: number } {
    const { numId, ilvl } = numbering;
    const above = (entry: ListEntry): boolean =>
      entry.numId === numId || entry.left === null || left === null ? entry.ilvl < ilvl : entry.left < left - SAME_INDENT;
    while (this.listStack.length && !above(this.listStack[this.listStack.length - 1]!)) this.listStack.pop();
    const depth = this.listStack.length;
    const parent = this.listStack[depth - 1];
    const indent = parent ? parent.indent + parent.markerWidth : 0;
    this.listStack.push({ indent, markerWidth: marker.length + 1, numId, ilvl, left });
    const pad = " ".repeat(indent);
    const continuation = " ".repeat(indent + marker.length + 1);
    return { text: `${pad}${marker} ${text.replace(/\n/g, `\n${continuation}`)}`, depth };
  }

  /** collectInline walks paragraph content (runs, links, fields, math) into formatted segments. */
  private collectInline(nodes: XmlElement["children"], format: RunFormat, out: Segment[]): void {
    for (const node of nodes) {
      if (typeof node === "string") continue;
      switch (node.name) {
        case "w:r":
          this.collectRun(node, format, out);
          break;
        case "w:hyperlink": {
          const rel = node.attrs["r:id"] ? this.pkg.rels(this.relsPart).get(node.attrs["r:id"]) : undefined;
          const href = rel?.external ? rel.target + (node.attrs["w:anchor"] ? `#${node.attrs["w:anchor"]}` : "") : null;
          this.collectInline(node.children, { ...format, href: href ?? format.href }, out);
          break;
        }
        case "w:fldSimple": {
          const href = hyperlinkTarget(node.attrs["w:instr"] ?? "");
          this.collectInline(node.children, { ...format, href: href ?? format.href }, out);
          break;
        }
        case "w:ins":
        case "w:moveTo":
        case "w:smartTag":
        case "w:customXml":
        case "w:dir":
        case "w:bdo":
          this.collectInline(node.children, format, out);
          break;
        case "w:sdt":
          this.collectInline(child(node, "w:sdtContent")?.children ?? [], format, out);
          break;
        case "mc:AlternateContent":
          this.collectInline(child(node, "mc:Choice")?.children ?? [], format, out);
          break;
        case "m:oMath":
          out.push(rawSegment(`$${ommlToLatex(node).trim()}$`));
          break;
        case "m:oMathPara": {
          const display = childrenNamed(node, "m:oMath").map((m) => ommlToLatex(m).trim()).filter(Boolean);
          if (display.length) out.push(rawSegment(`\n\n$$${display.join(" \\\\ ")}$$\n\n`));
          break;
        }
      }
    }
  }

  /** collectRun reads one w:r: text, tabs, breaks, notes, drawings and field characters. */
  private collectRun(run: XmlElement, inherited: RunFormat, out: Segment[]): void {
    const rPr = child(run, "w:rPr");
    if (isOn(child(rPr, "w:vanish")) || isOn(child(rPr, "w:specVanish"))) return;
    const charStyle = this.styles.get(child(rPr, "w:rStyle")?.attrs["w:val"] ?? "");
    const field = this.fields[this.fields.length - 1];
    const format: RunFormat = {
      bold: inherited.bold || (child(rPr, "w:b") ? isOn(child(rPr, "w:b")) : (charStyle?.bold ?? false)),
      italic: inherited.italic || (child(rPr, "w:i") ? isOn(child(rPr, "w:i")) : (charStyle?.italic ?? false)),
      strike: inherited.strike || (child(rPr, "w:strike") || child(rPr, "w:dstrike") ? isOn(child(rPr, "w:strike")) || isOn(child(rPr, "w:dstrike")) : (charStyle?.strike ?? false)),
      script: scriptOf(rPr) ?? charStyle?.script ?? inherited.script,
      mono: inherited.mono || this.runIsMono(rPr, charStyle),
      href: inherited.href ?? field?.href ?? null,
    };
    const hiddenByField = this.fields.some((f) => !f.showingResult);
    const fonts = child(rPr, "w:rFonts");
    const symbolFace = isSymbolFace(fonts?.attrs["w:ascii"] ?? fonts?.attrs["w:hAnsi"]);
    const push = (text: string) => {
      if (!hiddenByField && text) out.push({ text, raw: false, ...format });
    };
    for (const node of run.children) {
      if (typeof node === "string") continue;
      switch (node.name) {
        case "w:t":
          push(symbolFace ? symbolFontText(textContent(node)) : textContent(node));
          break;
        case "w:tab":
        case "w:ptab":
          push(" ");
          break;
        case "w:br":
        case "w:cr":
          if (node.attrs["w:type"] !== "page" && node.attrs["w:type"] !== "column") push("\n");
          break;
        case "w:noBreakHyphen":
          push("-");
          break;
        case "w:sym":
          push(symbolChar(node.attrs["w:char"], node.attrs["w:font"]));
          break;
        case "w:fldChar":
          this.onFieldChar(node.attrs["w:fldCharType"] ?? "");
          break;
        case "w:instrText": {
          const open = this.fields[this.fields.length - 1];
          if (open && !open.showingResult) open.instruction += textContent(node);
          break;
        }
        case "w:footnoteReference":
        case "w:endnoteReference": {
          const label = this.noteLabel(node.name === "w:footnoteReference" ? "f" : "e", node.attrs["w:id"] ?? "");
          if (label !== null && !hiddenByField) out.push(rawSegment(`[^${label}]`));
          break;
        }
        case "w:drawing":
        case "w:pict":
        case "w:object":
          if (!hiddenByField) this.collectDrawing(node, out);
          break;
        case "mc:AlternateContent":
          if (!hiddenByField) this.collectRun({ ...run, children: child(node, "mc:Choice")?.children ?? [] }, inherited, out);
          break;
      }
    }
  }

  private onFieldChar(type: string): void {
    if (type === "begin") this.fields.push({ instruction: "", showingResult: false, href: null });
    else if (type === "separate") {
      const field = this.fields[this.fields.length - 1];
      if (field) {
        field.showingResult = true;
        field.href = hyperlinkTarget(field.instruction);
      }
    } else if (type === "end") this.fields.pop();
  }

  private noteLabel(kind: "f" | "e", id: string): number | null {
    const element = (kind === "f" ? this.footnotes : this.endnotes).get(id);
    if (!element) return null;
    const key = `${kind}${id}`;
    let label = this.noteLabels.get(key);
    if (label === undefined) {
      label = this.notes.length + 1;
      this.noteLabels.set(key, label);
      this.notes.push({ label, element, part: this.partOf(kind === "f" ? "footnotes" : "endnotes") ?? this.part });
    }
    return label;
  }

  /**
   * collectDrawing renders a picture as `![alt](name)` followed by its OCR placeholder, and the
   * paragraphs of text boxes as blocks after the current paragraph.
   */
  private collectDrawing(drawing: XmlElement, out: Segment[]): void {
    const textBoxes = [...descendants(drawing, "w:txbxContent")];
    for (const box of textBoxes) this.pendingBlocks.push(...this.renderBlocks(box.children));
    const rels = this.pkg.rels(this.relsPart);
    // A native chart is its cached data, and SmartArt its text: never a picture to OCR.
    const chart = firstDescendant(drawing, "c:chart");
    const chartRel = chart ? rels.get(chart.attrs["r:id"] ?? "") : undefined;
    if (chartRel && !chartRel.external) {
      const rendered = renderChartPart(this.pkg, chartRel.target);
      if (rendered) this.pendingBlocks.push({ kind: "para", text: rendered });
      return;
    }
    // A workbook embedded as an OLE object (an Excel sheet pasted into the body) is the sheet it shows, not its picture
    const ole = firstDescendant(drawing, "o:OLEObject");
    const oleRel = ole ? rels.get(ole.attrs["r:id"] ?? "") : undefined;
    if (oleRel && !oleRel.external && this.cellDepth === 0 && /\.xls[xm]$/i.test(oleRel.target)) {
      const bytes = this.pkg.zip.read(oleRel.target);
      const sheet = bytes ? embeddedSheet(bytes, baseName(oleRel.target), this.ctx) : null;
      if (sheet) {
        this.pendingBlocks.push({ kind: "para", text: sheet });
        return;
      }
    }
    const diagram = renderDiagramOf(this.pkg, rels, drawing);
    if (diagram !== undefined) {
      if (diagram) this.pendingBlocks.push({ kind: "para", text: diagram });
      return;
    }
    // A drawing of DrawingML shapes with text (Word 2007's locked canvas: a diagram of labelled boxes): their labels in reading order
    if (!textBoxes.length) {
      const labels = shapeLabels(drawing);
      if (labels.length) {
        for (const label of labels) this.pendingBlocks.push({ kind: "para", text: hardBreaks(label) });
        return;
      }
    }
    const docPr = firstDescendant(drawing, "wp:docPr");
    const shape = firstDescendant(drawing, "v:shape");
    const alt = docPr?.attrs["descr"] || docPr?.attrs["title"] || shape?.attrs["alt"] || "";
    const blip = firstDescendant(drawing, "a:blip");
    const vmlImage = firstDescendant(drawing, "v:imagedata");
    const embedId = blip?.attrs["r:embed"] ?? vmlImage?.attrs["r:id"];
    const linkId = blip?.attrs["r:link"];
    const embedded = embedId ? rels.get(embedId) : undefined;
    const linked = linkId ? rels.get(linkId) : undefined;
    if (embedded && !embedded.external) {
      out.push(pictureSegment(`![${imageAlt(alt)}](${baseName(embedded.target)})`));
      out.push(pictureSegment(this.images.token(embedded.target, this.cellDepth > 0)));
    } else if (linked || embedded?.external) {
      // Linked pictures are never fetched or read from disk: only their address is shown.
      const target = (linked ?? embedded)!.target;
      out.push(pictureSegment(`![${imageAlt(alt)}](${/^https?:\/\//i.test(target) ? markdownUrl(target) : "image"})`));
    } else if (alt && !textBoxes.length) {
      out.push(pictureSegment(`![${imageAlt(alt)}](image)`));
    }
  }

  /**
   * boxCell: the one cell of a table of one row and one cell in the body, a frame round text (a
   * report's "Box 1" of a heading, a list and paragraphs), whose content is written as the body's:
   * headings, lists and paragraphs, not one table cell of `<br>` lines. Not
   * inside a table cell, a note or a comment, and boxes in boxes only MAX_BOX_DEPTH deep.
   */
  private boxCell(tbl: XmlElement): XmlElement | undefined {
    if (this.cellDepth > 0 || this.inNote || this.inComment || this.boxDepth >= MAX_BOX_DEPTH) return undefined;
    const rows = tableRows(tbl);
    if (rows.length !== 1) return undefined;
    const cells = rowCells(rows[0]!);
    return cells.length === 1 ? cells[0] : undefined;
  }

  /** renderTable renders a w:tbl as a GFM table; merged cells keep their text in the first cell. */
  private renderTable(tbl: XmlElement): string {
    const rows: string[][] = [];
    for (const tr of tableRows(tbl)) {
      const row: string[] = [];
      const before = Number(path(tr, "w:trPr", "w:gridBefore")?.attrs["w:val"] ?? 0) || 0;
      for (let i = 0; i < Math.min(before, 64); i++) row.push("");
      for (const tc of rowCells(tr)) {
        const tcPr = child(tc, "w:tcPr");
        const span = Math.max(1, Math.min(64, Number(child(tcPr, "w:gridSpan")?.attrs["w:val"] ?? 1) || 1));
        const vMerge = child(tcPr, "w:vMerge");
        const continued = vMerge !== undefined && vMerge.attrs["w:val"] !== "restart";
        row.push(continued ? "" : this.renderCell(tc));
        for (let i = 1; i < span; i++) row.push("");
      }
      rows.push(row);
    }
    return gfmTable(rows);
  }

  /**
   * renderCell renders a cell's paragraphs as lines. A table nested in a body table's cell that is a
   * grid of text (two rows or more, one of them of two cells or more) is written as its own table after the
   * outer one, the cell saying so where it stood; other nested tables (a row, a column, a table in a
   * nested table) are flattened to lines of cells.
   */
  private renderCell(tc: XmlElement): string {
    this.cellDepth++;
    const savedList = this.listStack;
    this.listStack = [];
    try {
      const lines: string[] = [];
      for (const node of childrenNamed(tc)) {
        if (node.name === "w:tbl" && this.cellDepth === 1 && isGrid(node) && textOf(node, "w:t").trim()) {
          this.nestedTables.push(this.renderTable(node));
          lines.push("*(table below)*");
        } else if (node.name === "w:tbl") {
          for (const tr of tableRows(node)) {
            const cells = rowCells(tr).map((cell) => this.renderCell(cell)).filter(Boolean);
            if (cells.length) lines.push(cells.join("; "));
          }
        } else {
          for (const block of this.renderBlocks([node])) if (block.text.trim()) lines.push(block.text.trim());
        }
      }
      return lines.join("\n");
    } finally {
      this.listStack = savedList;
      this.cellDepth--;
    }
  }

  /**
   * renderNotes lists the referenced footnotes and endnotes as `[^N]: text`; a note of several
   * paragraphs keeps them apart, each further one indented four spaces (the footnote syntax of GFM
   * and Pandoc), the lines of one paragraph joined by spaces.
   */
  renderNotes(): string {
    const lines: string[] = [];
    // Notes may reference further notes; the list grows while it is walked.
    for (let i = 0; i < this.notes.length; i++) {
      const note = this.notes[i]!;
      this.relsPart = note.part;
      this.inNote = true;
      try {
        const text = this.renderBlocks(note.element?.children ?? [])
          .map((b) => b.text.trim().replace(/\s*\n\s*/g, " "))
          .filter(Boolean)
          .join("\n\n    ");
        lines.push(`[^${note.label}]: ${text}`);
      } finally {
        this.relsPart = this.part;
        this.inNote = false;
      }
    }
    return lines.join("\n");
  }

  /** renderComments appends the document's comments, with author and date, as a section. */
  renderComments(): string {
    const part = this.partOf("comments");
    if (!part) return "";
    const comments = descendants(this.pkg.xml(part), "w:comment");
    const items: string[] = [];
    this.relsPart = part;
    this.inComment = true;
    try {
      for (const comment of comments) {
        const text = this.renderBlocks(comment.children)
          .map((b) => b.text.trim())
          .filter(Boolean)
          .join(" ")
          .replace(/\s*\n\s*/g, " ");
        if (!text) continue;
        const author = comment.attrs["w:author"]?.trim() || "Unknown author";
        const date = comment.attrs["w:date"]?.slice(0, 10);
        items.push(`- **${escapeText(author)}**${date ? ` (${date})` : ""}: ${text}`);
      }
    } finally {
      this.relsPart = this.part;
      this.inComment = false;
    }
    return items.length ? `## Comments\n\n${items.join("\n")}` : "";
  }
}

/**
 * labelText writes a number's label as markdown text, its markup characters escaped; before a list
 * item's text (`item`), a label that would open a block there ("2.", "-", "#", ">") is escaped too.
 */
function labelText(shown: NumberLabel, item: boolean): string {
  const label = escapeText(shown.label.replace(/\s+/g, " ").trim());
  return item ? label.replace(/^(?:#{1,6}|[>+-]|\d{1,9}[.)])$/, "\\$&") : label;
}

/** isGrid: a table of two rows or more, one of them of two cells or more */
function isGrid(tbl: XmlElement): boolean {
  const rows = tableRows(tbl);
  return rows.length >= 2 && rows.some((tr) => rowCells(tr).length >= 2);
}

/** halfPoints reads a w:sz font size (half-points), null when absent or not a number */
function halfPoints(sz: XmlElement | undefined): number | null {
  const n = Number(sz?.attrs["w:val"]);
  return sz && Number.isFinite(n) && n > 0 ? n : null;
}

function outlineToLevel(outline: number): number {
  return Number.isFinite(outline) && outline >= 0 && outline < 6 ? outline + 1 : 0;
}

/** codeText: a listing paragraph's text as typed: tabs and line breaks kept, deleted and hidden runs left out, no markdown escapes */
function codeText(p: XmlElement): string {
  let text = "";
  const walk = (node: XmlElement) => {
    for (const c of node.children) {
      if (typeof c === "string") continue;
      if (c.name === "w:del" || c.name === "w:rPr" || c.name === "w:pPr" || c.name === "w:instrText") continue;
      if (c.name === "w:r" && (isOn(child(child(c, "w:rPr"), "w:vanish")) || isOn(child(child(c, "w:rPr"), "w:specVanish")))) continue;
      if (c.name === "w:t") text += textContent(c);
      else if (c.name === "w:tab") text += "\t";
      else if (c.name === "w:br" || c.name === "w:cr") text += "\n";
      else walk(c);
    }
  };
  walk(p);
  return text.replace(/\s+$/, "");
}

function rawSegment(text: string): Segment {
  return { text, raw: true, bold: false, italic: false, strike: false, script: "", mono: false, href: null };
}

function pictureSegment(text: string): Segment {
  return { ...rawSegment(text), picture: true };
}

/**
 * headingPictures parts a heading paragraph's pictures from its words (a masthead before a title, a
 * "top of page" icon after it): the pictures before its first word go before the heading, the others
 * after it, so the heading's text is its words (as a table of contents or an anchor reads it). Null
 * when the paragraph has no picture.
 */
function headingPictures(segments: Segment[]): { before: Segment[]; words: Segment[]; after: Segment[] } | null {
  if (!segments.some((s) => s.picture)) return null;
  const first = segments.findIndex((s) => !s.picture && s.text.trim() !== "");
  const before: Segment[] = [];
  const words: Segment[] = [];
  const after: Segment[] = [];
  segments.forEach((s, i) => (s.picture ? (first < 0 || i < first ? before : after) : words).push(s));
  return { before, words, after };
}

/** scriptOf reads a run's w:vertAlign: "sup", "sub", "" for an explicit baseline, null when the run sets none. */
function scriptOf(rPr: XmlElement | undefined): Script | null {
  const value = child(rPr, "w:vertAlign")?.attrs["w:val"];
  if (value === undefined) return null;
  return value === "superscript" ? "sup" : value === "subscript" ? "sub" : "";
}

/** hyperlinkTarget reads the URL of a HYPERLINK field instruction; null for other fields and anchors. */
function hyperlinkTarget(instruction: string): string | null {
  const match = /^\s*HYPERLINK\s+(?:"([^"]*)"|(\S+))/i.exec(instruction);
  const url = match?.[1] ?? match?.[2];
  if (!url || url.startsWith("\\")) return null;
  return url;
}

/** symbolChar: the character a `w:sym` shows: Symbol's Greek and signs by its table, another face's low byte as Latin-1 */
function symbolChar(hex: string | undefined, font: string | undefined): string {
  const code = Number.parseInt(hex ?? "", 16);
  if (!Number.isFinite(code)) return "";
  // Symbol-font characters live in the private area F000-F0FF; their low byte is the face's own code.
  const c = code >= 0xf000 ? code - 0xf000 : code;
  if (c < 0x20) return "";
  return isSymbolFace(font) ? symbolFontText(String.fromCodePoint(c)) : String.fromCodePoint(c);
}

/** escapeLineStarts stops paragraph text from being read as a heading, quote or list. */
function escapeLineStarts(text: string): string {
  return text.replace(/^(\s*)([#>+-]|\d+\.)(\s)/gm, "$1\\$2$3");
}

/**
 * renderSegments turns formatted segments into markdown: adjacent segments with the same format are
 * merged before markers are added, markers hug the text (spaces moved outside), links wrap their text.
 */
function renderSegments(segments: Segment[]): string {
  let out = "";
  let i = 0;
  while (i < segments.length) {
    const href = segments[i]!.href;
    let j = i;
    while (j < segments.length && segments[j]!.href === href) j++;
    const inner = renderFormatted(segments.slice(i, j));
    if (href && inner.trim()) {
      const lead = /^\s*/.exec(inner)![0];
      const trail = /\s*$/.exec(inner)![0];
      out += `${lead}[${inner.trim()}](${markdownUrl(href)})${trail}`;
    } else out += inner;
    i = j;
  }
  return out;
}

/** EMPHASIS: the run formats written as markdown delimiters, with their markers. */
const EMPHASIS = [
  ["strike", "~~"],
  ["bold", "**"],
  ["italic", "*"],
] as const;

/**
 * renderFormatted writes runs with nested emphasis: the format that covers the most text wraps
 * outermost, so a bold first letter inside an italic word gives `***A**rthur*`; wrapping each run
 * on its own gave `***A****rthur*`, which CommonMark reads as literal asterisks.
 */
function renderFormatted(segments: Segment[], formats: ReadonlyArray<(typeof EMPHASIS)[number]> = EMPHASIS): string {
  const isOn = (s: Segment, key: "strike" | "bold" | "italic") => !s.raw && s[key];
  const coverage = (key: "strike" | "bold" | "italic") => segments.reduce((sum, s) => sum + (isOn(s, key) ? s.text.length : 0), 0);
  const used = formats.filter(([key]) => segments.some((s) => isOn(s, key)));
  if (used.length === 0) return renderScripts(segments);
  const outer = used.reduce((best, f) => (coverage(f[0]) > coverage(best[0]) ? f : best));
  const rest = used.filter((f) => f !== outer);
  let out = "";
  let i = 0;
  while (i < segments.length) {
    const on = isOn(segments[i]!, outer[0]);
    let j = i;
    while (j < segments.length && isOn(segments[j]!, outer[0]) === on) j++;
    const inner = renderFormatted(segments.slice(i, j), rest);
    out += on ? wrapEmphasis(inner, outer[1]) : inner;
    i = j;
  }
  return out;
}

/** renderScripts writes runs without emphasis, a superscript or subscript run as `<sup>`/`<sub>` innermost. */
function renderScripts(segments: Segment[]): string {
  let out = "";
  let i = 0;
  while (i < segments.length) {
    const first = segments[i]!;
    if (first.raw) {
      out += first.text;
      i++;
      continue;
    }
    let text = "";
    let j = i;
    for (; j < segments.length && !segments[j]!.raw && segments[j]!.script === first.script && segments[j]!.mono === first.mono; j++) text += segments[j]!.text;
    const inline = first.mono ? codeSpans(text) : escapeInline(text);
    out += first.script ? wrapScript(inline, first.script) : inline;
    i = j;
  }
  return out;
}

/** wrapScript puts `<sup>`/`<sub>` around text, outside its leading and trailing spaces and on each line. */
function wrapScript(text: string, script: "sup" | "sub"): string {
  const core = text.trim();
  if (!core) return text;
  const lead = /^\s*/.exec(text)![0];
  const trail = /\s*$/.exec(text)![0];
  if (core.includes("\n")) return lead + core.split("\n").map((line) => wrapScript(line, script)).join("\n") + trail;
  return `${lead}<${script}>${core}</${script}>${trail}`;
}

function escapeInline(text: string): string {
  return text.replace(/([\\`*_[\]<>])/g, "\\$1");
}

/** wrapEmphasis puts a marker around text, outside its leading and trailing spaces and on each line. */
function wrapEmphasis(text: string, marker: string): string {
  // Closing punctuation at the start (an italic run begun at "., Title") stays outside: an opening
  // marker between a letter and a full stop cannot open in CommonMark (`S*., Title*` shows its asterisks).
  const opening = /^[\s.,;:!?)\]]+/.exec(text)?.[0] ?? "";
  if (opening.trim() && opening.length < text.length) return opening + wrapEmphasis(text.slice(opening.length), marker);
  const core = text.trim();
  if (!core) return text;
  const lead = /^\s*/.exec(text)![0];
  const trail = /\s*$/.exec(text)![0];
  // A line break inside emphasis would end it: mark each line on its own.
  if (core.includes("\n")) return lead + core.split("\n").map((line) => wrapEmphasis(line, marker)).join("\n") + trail;
  return `${lead}${marker}${core}${marker}${trail}`;
}

// ---------------------------------------------------------------------------------------------
// OMML (Office Math) -> LaTeX

const LATEX_SYMBOLS: Record<string, string> = {
  α: "\\alpha", β: "\\beta", γ: "\\gamma", δ: "\\delta", ε: "\\epsilon", ϵ: "\\epsilon", ζ: "\\zeta", η: "\\eta",
  θ: "\\theta", ϑ: "\\vartheta", ι: "\\iota", κ: "\\kappa", λ: "\\lambda", μ: "\\mu", ν: "\\nu", ξ: "\\xi", π: "\\pi",
  ρ: "\\rho", σ: "\\sigma", ς: "\\varsigma", τ: "\\tau", υ: "\\upsilon", φ: "\\phi", ϕ: "\\phi", χ: "\\chi", ψ: "\\psi",
  ω: "\\omega", Γ: "\\Gamma", Δ: "\\Delta", Θ: "\\Theta", Λ: "\\Lambda", Ξ: "\\Xi", Π: "\\Pi", Σ: "\\Sigma",
  Υ: "\\Upsilon", Φ: "\\Phi", Ψ: "\\Psi", Ω: "\\Omega",
  "×": "\\times", "·": "\\cdot", "⋅": "\\cdot", "÷": "\\div", "±": "\\pm", "∓": "\\mp", "≤": "\\leq", "≥": "\\geq",
  "≠": "\\neq", "≈": "\\approx", "≡": "\\equiv", "∝": "\\propto", "∞": "\\infty", "→": "\\rightarrow",
  "←": "\\leftarrow", "↔": "\\leftrightarrow", "⇒": "\\Rightarrow", "⇐": "\\Leftarrow", "⇔": "\\Leftrightarrow",
  "∈": "\\in", "∉": "\\notin", "⊂": "\\subset", "⊆": "\\subseteq", "⊃": "\\supset", "∪": "\\cup", "∩": "\\cap",
  "∅": "\\emptyset", "∂": "\\partial", "∇": "\\nabla", "∀": "\\forall", "∃": "\\exists", "¬": "\\neg", "∧": "\\wedge",
  "∨": "\\vee", "…": "\\ldots", "⋯": "\\cdots", "−": "-", "∗": "*", "°": "^{\\circ}", "′": "'", "″": "''",
  "ℏ": "\\hbar", "ℓ": "\\ell", "ℝ": "\\mathbb{R}", "ℕ": "\\mathbb{N}", "ℤ": "\\mathbb{Z}", "ℚ": "\\mathbb{Q}", "ℂ": "\\mathbb{C}",
  "\u2061": "", "\u2062": "", "\u2063": "", "\u200b": "",
};

const NARY_OPERATORS: Record<string, string> = {
  "∑": "\\sum", "∏": "\\prod", "∐": "\\coprod", "∫": "\\int", "∬": "\\iint", "∭": "\\iiint", "∮": "\\oint",
  "⋃": "\\bigcup", "⋂": "\\bigcap", "⋁": "\\bigvee", "⋀": "\\bigwedge",
};

const ACCENTS: Record<string, string> = {
  "\u0302": "\\hat", "\u0303": "\\tilde", "\u0304": "\\bar", "\u0305": "\\overline", "\u0307": "\\dot",
  "\u0308": "\\ddot", "\u20d7": "\\vec", "\u0301": "\\acute", "\u0300": "\\grave", "\u030c": "\\check",
};

const FUNCTION_NAMES = new Set(["sin", "cos", "tan", "cot", "sec", "csc", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "log", "ln", "lg", "exp", "lim", "max", "min", "sup", "inf", "det", "gcd", "deg", "arg", "dim", "ker"]);

/** latexText maps the characters of a math run to LaTeX, escaping what LaTeX or markdown would read. */
function latexText(text: string): string {
  let out = "";
  for (const ch of text) {
    const symbol = LATEX_SYMBOLS[ch];
    if (symbol !== undefined) out += symbol && symbol.startsWith("\\") && /^\\[a-zA-Z]+$/.test(symbol) ? `${symbol} ` : symbol;
    else if ("{}%#&$_".includes(ch)) out += `\\${ch}`;
    else out += ch;
  }
  return out;
}

function arg(el: XmlElement | undefined): string {
  return ommlToLatex(el).trim();
}

function braced(text: string): string {
  return `{${text}}`;
}

function mathProp(el: XmlElement, prop: string, name: string): string | undefined {
  return child(child(el, prop), name)?.attrs["m:val"];
}

/** ommlToLatex renders one OMML element (and its children) as LaTeX. */
export function ommlToLatex(el: XmlElement | undefined): string {
  if (!el) return "";
  switch (el.name) {
    case "m:r": {
      const raw = descendants(el, "m:t").map(textContent).join("") || descendants(el, "w:t").map(textContent).join("");
      const fn = /^([a-z]+)\u2061$/.exec(raw);
      if (fn && FUNCTION_NAMES.has(fn[1]!)) return `\\${fn[1]} `;
      return latexText(raw);
    }
    case "m:f": {
      const num = arg(child(el, "m:num"));
      const den = arg(child(el, "m:den"));
      const type = mathProp(el, "m:fPr", "m:type");
      if (type === "lin") return `${num}/${den}`;
      if (type === "noBar") return `\\genfrac{}{}{0pt}{}${braced(num)}${braced(den)}`;
      return `\\frac${braced(num)}${braced(den)}`;
    }
    case "m:sSup":
      return `${braced(arg(child(el, "m:e")))}^${braced(arg(child(el, "m:sup")))}`;
    case "m:sSub":
      return `${braced(arg(child(el, "m:e")))}_${braced(arg(child(el, "m:sub")))}`;
    case "m:sSubSup":
      return `${braced(arg(child(el, "m:e")))}_${braced(arg(child(el, "m:sub")))}^${braced(arg(child(el, "m:sup")))}`;
    case "m:sPre":
      return `{}_${braced(arg(child(el, "m:sub")))}^${braced(arg(child(el, "m:sup")))}${braced(arg(child(el, "m:e")))}`;
    case "m:rad": {
      const degree = arg(child(el, "m:deg"));
      const hidden = isOn(child(child(el, "m:radPr"), "m:degHide"));
      return degree && !hidden ? `\\sqrt[${degree}]${braced(arg(child(el, "m:e")))}` : `\\sqrt${braced(arg(child(el, "m:e")))}`;
    }
    case "m:nary": {
      const chr = mathProp(el, "m:naryPr", "m:chr") ?? "∫";
      const op = NARY_OPERATORS[chr] ?? latexText(chr);
      const sub = arg(child(el, "m:sub"));
      const sup = arg(child(el, "m:sup"));
      return `${op}${sub ? `_${braced(sub)}` : ""}${sup ? `^${braced(sup)}` : ""} ${arg(child(el, "m:e"))}`;
    }
    case "m:d": {
      const open = mathProp(el, "m:dPr", "m:begChr") ?? "(";
      const close = mathProp(el, "m:dPr", "m:endChr") ?? ")";
      const sep = mathProp(el, "m:dPr", "m:sepChr") ?? "|";
      const inner = childrenNamed(el, "m:e").map(arg).join(` ${latexDelimiter(sep)} `);
      return `\\left${latexDelimiter(open) || "."}${inner}\\right${latexDelimiter(close) || "."}`;
    }
    case "m:func": {
      const name = arg(child(el, "m:fName"));
      const plain = name.replace(/\s+/g, "");
      const fn = FUNCTION_NAMES.has(plain) ? `\\${plain}` : name;
      return `${fn} ${arg(child(el, "m:e"))}`;
    }
    case "m:limLow": {
      const base = arg(child(el, "m:e"));
      const limit = arg(child(el, "m:lim"));
      return /^\\?(lim|max|min|sup|inf)\s*$/.test(base) ? `\\${base.replace(/^\\|\s+$/g, "")}_${braced(limit)}` : `\\underset${braced(limit)}${braced(base)}`;
    }
    case "m:limUpp":
      return `\\overset${braced(arg(child(el, "m:lim")))}${braced(arg(child(el, "m:e")))}`;
    case "m:acc": {
      const chr = mathProp(el, "m:accPr", "m:chr") ?? "\u0302";
      return `${ACCENTS[chr] ?? "\\hat"}${braced(arg(child(el, "m:e")))}`;
    }
    case "m:bar":
      return `${mathProp(el, "m:barPr", "m:pos") === "top" ? "\\overline" : "\\underline"}${braced(arg(child(el, "m:e")))}`;
    case "m:groupChr": {
      const pos = mathProp(el, "m:groupChrPr", "m:pos") ?? "bot";
      return `${pos === "top" ? "\\overbrace" : "\\underbrace"}${braced(arg(child(el, "m:e")))}`;
    }
    case "m:m":
      return `\\begin{matrix}${childrenNamed(el, "m:mr").map((row) => childrenNamed(row, "m:e").map(arg).join(" & ")).join(" \\\\ ")}\\end{matrix}`;
    case "m:eqArr":
      return `\\begin{aligned}${childrenNamed(el, "m:e").map(arg).join(" \\\\ ")}\\end{aligned}`;
    default: {
      if (el.name.endsWith("Pr") || el.name === "m:ctrlPr" || el.name.startsWith("w:")) return "";
      let out = "";
      for (const c of el.children) if (typeof c !== "string") out += ommlToLatex(c);
      return out;
    }
  }
}

function latexDelimiter(chr: string): string {
  switch (chr) {
    case "":
      return "";
    case "{":
      return "\\{";
    case "}":
      return "\\}";
    case "|":
      return "|";
    case "‖":
      return "\\|";
    case "⟨":
    case "〈":
      return "\\langle ";
    case "⟩":
    case "〉":
      return "\\rangle ";
    case "⌊":
      return "\\lfloor ";
    case "⌋":
      return "\\rfloor ";
    case "⌈":
      return "\\lceil ";
    case "⌉":
      return "\\rceil ";
    default:
      return chr;
  }
}

/**
 * childrenThrough: the children of `parent` named `name`, with those inside content controls
 * (w:sdt, through their w:sdtContent) and custom XML wrappers (w:customXml) taken in place.
 */
function childrenThrough(parent: XmlElement, name: string): XmlElement[] {
  const found: XmlElement[] = [];
  for (const c of childrenNamed(parent)) {
    if (c.name === name) found.push(c);
    else if (c.name === "w:sdt" || c.name === "w:customXml") found.push(...childrenThrough(child(c, "w:sdtContent") ?? c, name));
  }
  return found;
}

/** tableRows: a table's rows (w:tr), rows wrapped in content controls included. */
function tableRows(tbl: XmlElement): XmlElement[] {
  return childrenThrough(tbl, "w:tr");
}
/** rowCells: a row's cells (w:tc), cells wrapped in content controls included. */
function rowCells(tr: XmlElement): XmlElement[] {
  return childrenThrough(tr, "w:tc");
}
