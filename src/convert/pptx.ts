/**
 * PPTX -> markdown, natively: slides in presentation order, each with its title, the text of its
 * shapes top-to-bottom and left-to-right (bullets kept as list items with levels), tables as GFM,
 * charts as a title plus a table of their series, pictures with alt text and OCR, and speaker
 * notes. LibreOffice's PPTX output (from PPT, ODP, KEY) goes through the same path.
 */
import { checkMarkdownSize, escapeText, fence, gfmTable, heading, joinBlocks, tidyMarkdown, withoutWholeBold } from "./markdown";
import { assertWithinPageLimit, baseName, child, childrenNamed, codeSpans, descendants, hardBreaks, firstDescendant, imageAlt, ImageCollector, isSymbolFace, metadataOrEmpty, OoxmlPackage, path, renderChartPart, renderDiagramOf, symbolFontText, textContent, type XmlElement } from "./ooxml";
import { isMonoFontName } from "./monoFont";
import { autoNumberLabel } from "./wordNumbering";
import type { ConvertContext, Converter } from "./types";
import { embeddedSheet } from "./xlsx";

/** convertPptx turns a PowerPoint presentation into markdown, one section per slide. */
export const convertPptx: Converter = async (input, ctx) => {
  ctx.signal.throwIfAborted();
  const pkg = OoxmlPackage.open(input, ctx, "PPTX");
  const presentationPart = pkg.mainPart("ppt/presentation.xml", "p:presentation");
  const slideParts = listSlides(pkg, presentationPart);
  assertWithinPageLimit(slideParts.length, ctx, pkg.what, "slides");
  if (slideParts.length === 0) return metadataOrEmpty(pkg.properties(), pkg.what, "has no slides");
  const images = new ImageCollector(pkg);
  const proseFace = deckProseFace(pkg, slideParts);
  const sections: string[] = [];
  let firstTitle: string | null = null;
  let written = 0;
  for (const [index, slidePart] of slideParts.entries()) {
    ctx.signal.throwIfAborted();
    const slide = new SlideReader(pkg, slidePart, images, proseFace, ctx);
    const { markdown, title } = slide.render(index + 1);
    firstTitle ??= title;
    sections.push(markdown);
    checkMarkdownSize((written += markdown.length), ctx.limits, pkg.what);
  }
  const warnings: string[] = [];
  const { markdown, ocrAdded } = await images.resolve(joinBlocks(sections), ctx, warnings);
  const props = pkg.properties();
  return {
    markdown: tidyMarkdown(markdown),
    title: props.title ?? firstTitle,
    totalPages: slideParts.length,
    method: ocrAdded ? "text+ocr" : "text",
    warnings,
  };
};

/**
 * deckProseFace: the face a deck is typed in throughout when every run with text on every slide asks
 * for an explicit monospace face (a deck set in Courier): its prose, not code. The face of most of
 * the text is the prose face; a box in another monospace face is still a listing. null when any run
 * is in another face or a theme font (then every monospace run is code).
 */
function deckProseFace(pkg: OoxmlPackage, slideParts: string[]): string | null {
  const chars = new Map<string, number>();
  for (const part of slideParts) {
    for (const run of descendants(pkg.xml(part), "a:r")) {
      const text = textContent(child(run, "a:t")).trim();
      if (!text) continue;
      const face = runFace(child(run, "a:rPr"));
      if (!isMonoFontName(face)) return null;
      chars.set(face, (chars.get(face) ?? 0) + text.length);
    }
  }
  let best: string | null = null;
  for (const [face, n] of chars) if (best === null || n > chars.get(best)!) best = face;
  return best;
}

/** listSlides returns slide part paths in the order of presentation.xml's slide list. */
function listSlides(pkg: OoxmlPackage, presentationPart: string): string[] {
  const rels = pkg.rels(presentationPart);
  const ids = descendants(path(pkg.xml(presentationPart), "p:presentation", "p:sldIdLst"), "p:sldId");
  const parts: string[] = [];
  for (const id of ids) {
    const rel = rels.get(id.attrs["r:id"] ?? "");
    if (rel && !rel.external && pkg.zip.has(rel.target)) parts.push(rel.target);
  }
  if (parts.length === 0) {
    // Some producers omit the slide list: fall back to the slide parts in numeric order.
    const found = pkg.zip.names("ppt/slides/").filter((n) => /^ppt\/slides\/slide\d+\.xml$/.test(n));
    found.sort((a, b) => Number(/(\d+)\.xml$/.exec(a)![1]) - Number(/(\d+)\.xml$/.exec(b)![1]));
    parts.push(...found);
  }
  return parts;
}

/** Positioned is one rendered shape with its place on the slide, for reading order. */
interface Positioned {
  x: number;
  y: number;
  order: number;
  blocks: TextBlock[];
}

/** TextBlock is rendered markdown; consecutive list items are joined without blank lines. */
interface TextBlock {
  kind: "para" | "list";
  text: string;
}

interface Offset {
  x: number;
  y: number;
}

/** SlideReader renders one slide, resolving placeholder positions through its layout and master. */
class SlideReader {
  private readonly rels;
  private title: string | null = null;
  private layoutOffsets: Array<Map<string, Offset>> | null = null;

  constructor(
    private readonly pkg: OoxmlPackage,
    private readonly part: string,
    private readonly images: ImageCollector,
    /** proseFace: the monospace face the whole deck is typed in (deckProseFace), not code; null for most decks */
    readonly proseFace: string | null,
    private readonly ctx: ConvertContext,
  ) {
    this.rels = pkg.rels(part);
  }

  render(number: number): { markdown: string; title: string | null } {
    const root = child(this.pkg.xml(this.part), "p:sld");
    const tree = path(root, "p:cSld", "p:spTree");
    const shapes = this.renderTree(tree);
    const hidden = root?.attrs["show"] === "0" || root?.attrs["show"] === "false";
    const headingText = `Slide ${number}${this.title ? `: ${this.title}` : ""}${hidden ? " (hidden)" : ""}`;
    const body = blocksToMarkdown(shapes.flatMap((s) => s.blocks));
    const notes = this.renderNotes();
    return {
      markdown: joinBlocks([heading(2, headingText), body, notes ? `### Notes\n\n${notes}` : ""]),
      title: this.title,
    };
  }

  /** renderTree renders the shapes of a shape tree (or group) sorted top-to-bottom, left-to-right. */
  private renderTree(tree: XmlElement | undefined): Positioned[] {
    const out: Positioned[] = [];
    let order = 0;
    const visit = (nodes: XmlElement[]) => {
      for (const node of nodes) {
        if (node.name === "mc:AlternateContent") {
          visit(childrenNamed(child(node, "mc:Choice") ?? child(node, "mc:Fallback")));
          continue;
        }
        const shape = this.renderShape(node);
        if (shape) out.push({ ...shape, order: order++ });
      }
    };
    visit(childrenNamed(tree));
    out.sort((a, b) => a.y - b.y || a.x - b.x || a.order - b.order);
    return out;
  }

  private renderShape(node: XmlElement): Omit<Positioned, "order"> | null {
    switch (node.name) {
      case "p:sp":
        return this.renderTextShape(node);
      case "p:grpSp": {
        const children = this.renderTree(node);
        const at = offsetOf(path(node, "p:grpSpPr", "a:xfrm")) ?? children[0] ?? { x: 0, y: 0 };
        return { x: at.x, y: at.y, blocks: children.flatMap((c) => c.blocks) };
      }
      case "p:graphicFrame": {
        const at = offsetOf(child(node, "p:xfrm")) ?? { x: 0, y: 0 };
        const data = path(node, "a:graphic", "a:graphicData");
        const table = child(data, "a:tbl");
        if (table) return { ...at, blocks: [{ kind: "para", text: renderTable(table, this) }] };
        const chart = firstDescendant(data, "c:chart");
        if (chart) return { ...at, blocks: [{ kind: "para", text: this.renderChart(chart.attrs["r:id"] ?? "") }] };
        const diagram = renderDiagramOf(this.pkg, this.rels, data);
        if (diagram !== undefined) return { ...at, blocks: [{ kind: "para", text: diagram }] };
        const ole = firstDescendant(data, "p:oleObj");
        const sheet = ole ? this.renderEmbeddedSheet(ole) : null;
        return sheet ? { ...at, blocks: [{ kind: "para", text: sheet }] } : null;
      }
      case "p:pic": {
        const at = offsetOf(path(node, "p:spPr", "a:xfrm")) ?? this.placeholderOffset(node, "p:nvPicPr") ?? { x: 0, y: 0 };
        return { ...at, blocks: [{ kind: "para", text: this.renderPicture(node) }] };
      }
      default:
        return null;
    }
  }

  /** renderTextShape renders a text shape; the title placeholder becomes the slide's title instead. */
  private renderTextShape(sp: XmlElement): Omit<Positioned, "order"> | null {
    const ph = path(sp, "p:nvSpPr", "p:nvPr", "p:ph");
    const type = ph?.attrs["type"];
    const body = child(sp, "p:txBody");
    if ((type === "title" || type === "ctrTitle") && this.title === null) {
      // the title is written inside the converter's "Slide N: ..." heading, so heading()'s rule is applied to it here
      const text = withoutWholeBold(
        paragraphsOf(body, this)
          .map((p) => p.text)
          .join(" ")
          .replace(/\s+/g, " ")
          .trim(),
      );
      if (text) {
        this.title = text;
        return null;
      }
    }
    if (type === "sldNum" || type === "dt" || type === "ftr" || type === "hdr") return null;
    if (!body) return null;
    const at = offsetOf(path(sp, "p:spPr", "a:xfrm")) ?? this.placeholderOffset(sp, "p:nvSpPr") ?? { x: 0, y: Number.MAX_SAFE_INTEGER };
    // Content placeholders (no type, "body", "obj") show bullets unless a paragraph says otherwise.
    const bulletDefault = ph !== undefined && (type === undefined || type === "body" || type === "obj");
    const blocks = renderParagraphs(body, this, bulletDefault);
    return blocks.length ? { ...at, blocks } : null;
  }

  /** placeholderOffset finds where the layout (or master) puts a placeholder without its own position. */
  private placeholderOffset(shape: XmlElement, nvName: string): Offset | undefined {
    const ph = path(shape, nvName, "p:nvPr", "p:ph");
    if (!ph) return undefined;
    this.layoutOffsets ??= this.readLayoutOffsets();
    const keys = [ph.attrs["idx"] ? `idx:${ph.attrs["idx"]}` : "", `type:${normalisePlaceholderType(ph.attrs["type"])}`];
    for (const offsets of this.layoutOffsets) {
      for (const key of keys) {
        const found = key ? offsets.get(key) : undefined;
        if (found) return found;
      }
    }
    return undefined;
  }

  private readLayoutOffsets(): Array<Map<string, Offset>> {
    const result: Array<Map<string, Offset>> = [];
    const layout = [...this.rels.values()].find((r) => r.type.endsWith("/slideLayout") && !r.external)?.target;
    const master = layout ? [...this.pkg.rels(layout).values()].find((r) => r.type.endsWith("/slideMaster") && !r.external)?.target : undefined;
    for (const part of [layout, master]) {
      if (!part) continue;
      const offsets = new Map<string, Offset>();
      for (const sp of descendants(this.pkg.xml(part), "p:sp")) {
        const ph = path(sp, "p:nvSpPr", "p:nvPr", "p:ph");
        const at = offsetOf(path(sp, "p:spPr", "a:xfrm"));
        if (!ph || !at) continue;
        if (ph.attrs["idx"]) offsets.set(`idx:${ph.attrs["idx"]}`, at);
        const typeKey = `type:${normalisePlaceholderType(ph.attrs["type"])}`;
        if (!offsets.has(typeKey)) offsets.set(typeKey, at);
      }
      result.push(offsets);
    }
    return result;
  }

  /** link resolves a hyperlink relationship of this slide to its URL (external targets only). */
  link(id: string | undefined): string | null {
    const rel = id ? this.rels.get(id) : undefined;
    return rel?.external ? rel.target : null;
  }

  private renderPicture(pic: XmlElement): string {
    const cNvPr = path(pic, "p:nvPicPr", "p:cNvPr");
    const alt = cNvPr?.attrs["descr"] || cNvPr?.attrs["title"] || "";
    const blip = path(pic, "p:blipFill", "a:blip");
    const rel = this.rels.get(blip?.attrs["r:embed"] ?? "");
    if (rel && !rel.external && this.pkg.zip.has(rel.target)) {
      return `![${imageAlt(alt)}](${baseName(rel.target)})${this.images.token(rel.target, false)}`;
    }
    return alt ? `![${imageAlt(alt)}](image)` : "";
  }

  /** renderEmbeddedSheet renders an OLE object that embeds a workbook (an Excel sheet or chart pasted as an object) as the sheet it shows; null for other objects */
  private renderEmbeddedSheet(ole: XmlElement): string | null {
    const rel = this.rels.get(ole.attrs["r:id"] ?? "");
    if (!rel || rel.external || !/\.xls[xm]$/i.test(rel.target)) return null;
    const bytes = this.pkg.zip.read(rel.target);
    return bytes ? embeddedSheet(bytes, baseName(rel.target), this.ctx) : null;
  }

  private renderChart(relId: string): string {
    const rel = this.rels.get(relId);
    return rel && !rel.external ? renderChartPart(this.pkg, rel.target) : "";
  }

  /** renderNotes reads the speaker notes of the slide (the notes page's body placeholder). */
  private renderNotes(): string {
    const rel = [...this.rels.values()].find((r) => r.type.endsWith("/notesSlide") && !r.external);
    if (!rel) return "";
    const tree = path(child(this.pkg.xml(rel.target), "p:notes"), "p:cSld", "p:spTree");
    const blocks: TextBlock[] = [];
    for (const sp of descendants(tree, "p:sp")) {
      const type = path(sp, "p:nvSpPr", "p:nvPr", "p:ph")?.attrs["type"];
      if (type !== "body") continue;
      blocks.push(...renderParagraphs(child(sp, "p:txBody"), this, false));
    }
    return blocksToMarkdown(blocks);
  }
}

function normalisePlaceholderType(type: string | undefined): string {
  if (type === "ctrTitle") return "title";
  if (type === undefined || type === "obj") return "body";
  return type;
}

function offsetOf(xfrm: XmlElement | undefined): Offset | undefined {
  const off = child(xfrm, "a:off");
  if (!off) return undefined;
  const x = Number(off.attrs["x"]);
  const y = Number(off.attrs["y"]);
  return Number.isFinite(x) && Number.isFinite(y) ? { x, y } : undefined;
}

function blocksToMarkdown(blocks: TextBlock[]): string {
  let out = "";
  let previous: TextBlock["kind"] | null = null;
  for (const block of blocks) {
    if (!block.text.trim()) continue;
    if (previous !== null) out += previous === "list" && block.kind === "list" ? "\n" : "\n\n";
    out += block.text;
    previous = block.kind;
  }
  return out;
}

/** RunContext is what a run's markdown needs of its slide: its links and the deck's prose face. */
interface RunContext {
  link(id: string | undefined): string | null;
  /** proseFace: a run in this monospace face is prose (deckProseFace); null: every monospace run is code */
  readonly proseFace: string | null;
}

/** SlideParagraph is one paragraph as inline markdown; startAt is where an auto-numbered list begins. */
interface SlideParagraph {
  text: string;
  level: number;
  bullet: "none" | "char" | "number" | "inherit";
  startAt: number;
  /** scheme: an auto-numbered paragraph's a:buAutoNum type ("arabicPeriod", "alphaLcParenR", "romanUcPeriod") */
  scheme: string;
}

/** paragraphsOf renders the paragraphs of a text body to inline markdown with their list levels. */
function paragraphsOf(body: XmlElement | undefined, links: RunContext): SlideParagraph[] {
  const out: SlideParagraph[] = [];
  for (const p of childrenNamed(body, "a:p")) {
    const pPr = child(p, "a:pPr");
    let text = "";
    const nodes = childrenNamed(p);
    for (let i = 0; i < nodes.length; i++) {
      const node = nodes[i]!;
      if (node.name === "a:r" || node.name === "a:fld") {
        // Runs in a row written alike are one span: one code span, one bold or italic stretch
        // (Office splits a line into runs freely: a spelling mark, a language, a size).
        let raw = runText(node);
        while (node.name === "a:r" && nodes[i + 1]?.name === "a:r" && sameLook(child(node, "a:rPr"), child(nodes[i + 1]!, "a:rPr"), links.proseFace)) raw += runText(nodes[++i]!);
        text += runMarkdown(node, links, raw);
      } else if (node.name === "a:br") text += "\n";
    }
    const autoNum = child(pPr, "a:buAutoNum");
    const bullet = child(pPr, "a:buNone") ? "none" : autoNum ? "number" : child(pPr, "a:buChar") || child(pPr, "a:buBlip") ? "char" : "inherit";
    const startAt = Math.max(1, Math.min(32_767, Math.floor(Number(autoNum?.attrs["startAt"] ?? 1)) || 1));
    out.push({ text: text.trim(), level: Math.max(0, Math.min(8, Number(pPr?.attrs["lvl"] ?? 0) || 0)), bullet, startAt, scheme: autoNum?.attrs["type"] ?? "arabicPeriod" });
  }
  return out;
}

/** runMarkdown renders one text run with bold/italic/strike and its hyperlink. */
function runMarkdown(run: XmlElement, links: RunContext, raw = textContent(child(run, "a:t"))): string {
  if (!raw) return "";
  const rPr = child(run, "a:rPr");
  let text = isCodeRun(rPr, links.proseFace) ? codeSpans(raw) : escapeText(raw).replace(/^(\s*)\\([#>+-]|\d+\.)/, "$1$2");
  const core = text.trim();
  if (!core) return text;
  const lead = /^\s*/.exec(text)![0];
  const trail = /\s*$/.exec(text)![0];
  let marked = core;
  if (rPr?.attrs["i"] === "1" || rPr?.attrs["i"] === "true") marked = `*${marked}*`;
  if (rPr?.attrs["b"] === "1" || rPr?.attrs["b"] === "true") marked = `**${marked}**`;
  if (rPr?.attrs["strike"] && rPr.attrs["strike"] !== "noStrike") marked = `~~${marked}~~`;
  const href = links.link(child(rPr, "a:hlinkClick")?.attrs["r:id"]);
  if (href) marked = `[${marked}](${href.replace(/ /g, "%20").replace(/\)/g, "%29")})`;
  text = lead + marked + trail;
  return text;
}

/** sameLook: two runs are written alike (face, emphasis, link), so their texts can be one */
function sameLook(a: XmlElement | undefined, b: XmlElement | undefined, proseFace: string | null): boolean {
  const look = (rPr: XmlElement | undefined) => [isCodeRun(rPr, proseFace), rPr?.attrs["b"] ?? "", rPr?.attrs["i"] ?? "", rPr?.attrs["strike"] ?? "", child(rPr, "a:hlinkClick")?.attrs["r:id"] ?? ""].join("|");
  return look(a) === look(b);
}

/**
 * runText: a run's text as it shows: a run set in the Symbol face draws Greek and signs
 * (symbolFontText); with Symbol only as its symbol face (`a:sym`), its private-use characters
 * F020-F0FF (an inserted symbol) do, its letters stay letters.
 */
function runText(run: XmlElement): string {
  const rPr = child(run, "a:rPr");
  const text = textContent(child(run, "a:t"));
  if (isSymbolFace(runFace(rPr))) return symbolFontText(text);
  if (isSymbolFace(child(rPr, "a:sym")?.attrs["typeface"])) return text.replace(/[\uf020-\uf0ff]/g, (ch) => symbolFontText(ch));
  return text;
}

/** runFace: the face a run asks for (`a:latin typeface="Consolas"`); "" when it names none */
function runFace(rPr: XmlElement | undefined): string {
  return child(rPr, "a:latin")?.attrs["typeface"] ?? "";
}

/**
 * isCodeRun: the run asks for a monospace face other than the deck's prose face (deckProseFace); a
 * theme font ("+mn-lt") is not one
 */
function isCodeRun(rPr: XmlElement | undefined, proseFace: string | null): boolean {
  const face = runFace(rPr);
  return isMonoFontName(face) && face !== proseFace;
}

/**
 * isCodeBody: every run with text of a text body (more than one line of it) is set in a monospace
 * face, not the deck's prose face: a listing on a slide, written as one fenced block. One monospace
 * line among prose, or a single monospace line, stays inline (a code span).
 */
function isCodeBody(body: XmlElement | undefined, proseFace: string | null): boolean {
  const runs = descendants(body, "a:r").filter((r) => textContent(child(r, "a:t")).trim());
  const lines = childrenNamed(body, "a:p").filter((p) => descendants(p, "a:t").some((t) => textContent(t).trim())).length + descendants(body, "a:br").length;
  return runs.length > 0 && lines > 1 && runs.every((r) => isCodeRun(child(r, "a:rPr"), proseFace));
}

/** codeText: a listing's text as typed, one line per paragraph or line break, no markdown escapes */
function codeText(body: XmlElement): string {
  return childrenNamed(body, "a:p")
    .map((p) => childrenNamed(p).map((node) => (node.name === "a:br" ? "\n" : node.name === "a:r" || node.name === "a:fld" ? textContent(child(node, "a:t")) : "")).join(""))
    .join("\n")
    .replace(/^\s*\n|\s+$/g, "");
}

/**
 * renderParagraphs renders a text body as list items and plain paragraphs. Nesting follows the
 * paragraph levels, but never deeper than one below the previous item (markdown needs a parent),
 * and each level is indented to its parent's content column.
 */
function renderParagraphs(body: XmlElement | undefined, links: RunContext, bulletDefault: boolean): TextBlock[] {
  if (isCodeBody(body, links.proseFace)) return [{ kind: "para", text: fence(codeText(body!)) }];
  const blocks: TextBlock[] = [];
  const counters: number[] = [];
  let stack: Array<{ indent: number; width: number }> = [];
  for (const p of paragraphsOf(body, links)) {
    if (!p.text) continue;
    const bullet = p.bullet === "inherit" ? (bulletDefault ? "char" : "none") : p.bullet;
    if (bullet === "none") {
      counters.length = 0;
      stack = [];
      blocks.push({ kind: "para", text: hardBreaks(p.text).replace(/^(\s*)([#>+-]|\d+\.)(\s)/gm, "$1\\$2$3") });
      continue;
    }
    const depth = Math.min(p.level, stack.length);
    stack.length = depth;
    counters.length = depth + 1;
    counters[depth] = (counters[depth] ?? p.startAt - 1) + 1;
    // a number markdown's ordered lists show ("3.", "3)") is the marker; any other ("(c)", "iv.") is written at the item's start
    const shown = bullet === "number" ? autoNumberLabel(counters[depth]!, p.scheme) : null;
    const marker = shown?.plain ? shown.label : "-";
    const label = shown && !shown.plain ? `${escapeText(shown.label).replace(/^\d{1,9}[.)]$/, "\\$&")} ` : "";
    const parent = stack[depth - 1];
    const indent = parent ? parent.indent + parent.width : 0;
    stack.push({ indent, width: marker.length + 1 });
    const pad = " ".repeat(indent);
    blocks.push({ kind: "list", text: `${pad}${marker} ${label}${hardBreaks(p.text).replace(/\n/g, `\n${pad}${" ".repeat(marker.length + 1)}`)}` });
  }
  return blocks;
}

/** renderTable renders a:tbl as a GFM table over its declared grid; merged-over cells stay empty. */
function renderTable(tbl: XmlElement, links: RunContext): string {
  const rows: string[][] = [];
  for (const tr of childrenNamed(tbl, "a:tr")) {
    const row: string[] = [];
    for (const tc of childrenNamed(tr, "a:tc")) {
      const merged = tc.attrs["hMerge"] === "1" || tc.attrs["vMerge"] === "1" || tc.attrs["hMerge"] === "true" || tc.attrs["vMerge"] === "true";
      row.push(merged ? "" : paragraphsOf(child(tc, "a:txBody"), links).map((p) => p.text).filter(Boolean).join("\n"));
    }
    rows.push(row);
  }
  return gfmTable(rows, Math.min(64, childrenNamed(child(tbl, "a:tblGrid"), "a:gridCol").length));
}
