/**
 * AsciiDoc -> markdown, line by line as Asciidoctor reads it: section titles (`=` to `======`, or
 * `#`) as headings, paragraphs, ordered, unordered, checklist and description lists, delimited
 * blocks (listing and source as fenced code with their language, literal, example, sidebar, quote,
 * open, passthrough; comments dropped), admonitions (`NOTE:` and `[NOTE]` blocks) as a bold label
 * before their text, block titles, tables (`|===`, `,===`, with header rows, column and row spans),
 * and the inline markup (bold, italic, monospace, links, cross references, footnotes, attribute
 * references). Conditionals (`ifdef::`, `ifndef::`) keep or leave out their lines by the attributes
 * defined above them, as Asciidoctor's preprocessor does; `include::` is dropped: an upload never makes
 * the server open another file.
 */
import { AppError } from "../errors";
import { decodedText } from "./text";
import { fence, gfmTable, heading, tidyMarkdown } from "./markdown";
import type { Converter } from "./types";

/** ADMONITIONS: AsciiDoc admonition labels and how they are written */
const ADMONITIONS: Record<string, string> = { NOTE: "Note", TIP: "Tip", IMPORTANT: "Important", WARNING: "Warning", CAUTION: "Caution" };

/** MAX_ATTRIBUTE_GROWTH: attribute references are replaced once per line, and a line may grow at most this much */
const MAX_ATTRIBUTE_GROWTH = 10_000;

interface AdocState {
  attributes: Map<string, string>;
  footnotes: string[];
}

/** BUILT_IN_ATTRIBUTES: the character-replacement attributes every Asciidoctor document has (`{plus}`, `{vbar}`, `{pp}`, ...) */
const BUILT_IN_ATTRIBUTES: Array<[string, string]> = [
  ["plus", "+"], ["pp", "++"], ["cpp", "C++"], ["vbar", "|"], ["amp", "&"], ["lt", "<"], ["gt", ">"], ["startsb", "["], ["endsb", "]"],
  ["caret", "^"], ["asterisk", "*"], ["tilde", "~"], ["backslash", "\\"], ["backtick", "`"], ["apos", "'"], ["quot", '"'],
  ["two-colons", "::"], ["two-semicolons", ";;"], ["empty", ""], ["blank", ""], ["sp", " "], ["nbsp", "\u00a0"], ["zwsp", "\u200b"],
  ["wj", "\u2060"], ["deg", "°"], ["ldquo", "\u201c"], ["rdquo", "\u201d"], ["lsquo", "\u2018"], ["rsquo", "\u2019"], ["brvbar", "¦"],
];

/** newState: a document's attributes (the built-in ones) and no footnotes yet */
function newState(): AdocState {
  return { attributes: new Map(BUILT_IN_ATTRIBUTES), footnotes: [] };
}

/** expandAttributes replaces the attribute references of a line (`{name}`) once; an unknown one stays as written, and a line grows at most MAX_ATTRIBUTE_GROWTH characters per reference. */
function expandAttributes(line: string, state: AdocState): string {
  return line.replace(/(\\?)\{([\w-]+)\}/g, (whole, escape: string, name: string) => {
    if (escape) return whole;
    const value = state.attributes.get(name.toLowerCase());
    return value !== undefined && value.length < MAX_ATTRIBUTE_GROWTH ? value : whole;
  });
}

/**
 * imageAlt: the alt text of an image macro's attribute list as Asciidoctor takes it: the first
 * positional attribute (quoted, it may hold commas: `["Build status", link=...]`); none (empty, or the
 * list opens with a named attribute such as `link=`) gives the target's file name without its extension,
 * `-` and `_` as spaces.
 */
function imageAlt(attrList: string, target: string): string {
  const list = attrList.trim();
  const quoted = list.startsWith('"') ? list.slice(1).split('"')[0]! : null;
  const first = quoted ?? list.split(",")[0]!.trim();
  if (first && (quoted !== null || !first.includes("="))) return first.trim();
  const file = target.split("/").pop() ?? "";
  return file.replace(/\.[^.]*$/, "").replace(/[-_]/g, " ");
}

/**
 * calloutsShown writes a code line's trailing callout markers (`<1>`, several in a row, after a line
 * comment's `//`, `#`, `--` or `;;`) as Asciidoctor shows them: " (1) (2)", the comment mark gone. Read
 * from the end by hand: no pattern that backtracks over a long line of markers.
 */
function calloutsShown(line: string): string {
  const marks: string[] = [];
  let end = line.length;
  for (;;) {
    let j = end;
    while (j > 0 && /\s/.test(line[j - 1]!)) j--;
    if (j === 0 || line[j - 1] !== ">") break;
    let k = j - 1;
    while (k > 0 && /\d/.test(line[k - 1]!)) k--;
    if (k === j - 1 || k === 0 || line[k - 1] !== "<" || j - 1 - k > 4) break;
    marks.push(`(${line.slice(k, j - 1)})`);
    end = k - 1;
  }
  if (!marks.length) return line;
  let body = line.slice(0, end).trimEnd();
  const comment = ["//", "#", "--", ";;"].find((mark) => body.endsWith(mark));
  if (comment) body = body.slice(0, -comment.length).trimEnd();
  const shown = marks.reverse().join(" ");
  return body ? `${body} ${shown}` : shown;
}

/** inlineMarkup rewrites AsciiDoc inline markup on one line as markdown. */
function inlineMarkup(line: string, state: AdocState): string {
  let text = expandAttributes(line, state);
  const code: string[] = [];
  // monospace first, so markup inside it stays literal
  const protect = (literal: string, asCode = true) => {
    code.push(asCode ? codeSpan(literal) : literal);
    return `\u0000${code.length - 1}\u0000`;
  };
  text = text
    // passthroughs first, as Asciidoctor extracts them before any other markup: their text is shown as
    // written (markdown's marks in it escaped); a keyboard or button macro and a formula show their text.
    // (The text inside a macro's brackets is bounded: an unclosed "pass:[" repeated along a line stays linear.)
    .replace(/\b(?:pass:[a-z,]{0,20}|kbd:|btn:|stem:|latexmath:|asciimath:)\[([^\]]{0,2000})\]/g, (_, inner: string) => protect(inner.replace(/[\\`*_]/g, "\\$&"), false))
    .replace(/``(?=\S)([^`]*?\S)``/g, (_, inner: string) => protect(inner))
    .replace(/`\+?([^`]+?)\+?`/g, (_, inner: string) => protect(inner))
    // +text+ and +++text+++ pass their text through literally (often markup: "+<h1>+")
    .replace(/(^|[^\w+\\])\+{1,3}([^+\s](?:[^+]*?[^+\s])?|[^+\s])\+{1,3}(?![\w+])/g, (_, pre: string, inner: string) => pre + protect(inner));
  text = text
    .replace(/footnote:[\w-]{0,100}\[((?:[^\]\\]|\\.){0,2000})\]/g, (_, note: string) => {
      state.footnotes.push(note);
      return `[^${state.footnotes.length}]`;
    })
    .replace(/\bicon:[\w-]{1,100}\[[^\]]{0,2000}\]/g, "")
    .replace(/\bmenu:([^[\s]{1,200})\[([^\]]{0,2000})\]/g, (_, first: string, rest: string) => [first, ...rest.split(/\s*>\s*/)].filter(Boolean).join(" > "))
    .replace(/\bimage:{1,2}([^\s[]{1,2000})\[([^\]]{0,2000})\]/g, (_, src: string, attrList: string) => `![${imageAlt(attrList, src)}](${src})`)
    .replace(/<<([^,>]{1,200})(?:,\s*([^>]{1,2000}))?>>/g, (_, id: string, label?: string) => label ?? id.replace(/[-_]/g, " "))
    .replace(/\bxref:([^[\s]{1,2000})\[([^\]]{0,2000})\]/g, (_, target: string, label: string) => label || target)
    .replace(/\b(link:|mailto:)([^[\s]{1,2000})\[([^\]]{0,2000})\]/g, (_, scheme: string, url: string, label: string) => `[${label.replace(/\^$/, "").split(",")[0] || url}](${scheme === "mailto:" ? scheme : ""}${url})`)
    .replace(/(^|[\s(])((?:https?|ftp):\/\/[^\s[\]]{1,2000})\[([^\]]{0,2000})\]/g, (_, pre: string, url: string, label: string) => `${pre}[${label.replace(/\^$/, "").split(",")[0] || url}](${url})`)
    .replace(/\[\[[^\]]{0,500}\]\]/g, "")
    .replace(/\[[#.][\w.#-]*\]#([^#]+)#/g, "$1")
    // a role or id before quoted text (`[.path]_images_`, `[#term]*wibble*`) is for the style sheet
    .replace(/\[[#.][\w.#-]*\](?=[*_`#])/g, "")
    // unconstrained marks, inside words too (`**C**reate`, `fan__freakin__tastic`, `##mark##up`)
    .replace(/\*\*(?=\S)([^*]*?\S)\*\*/g, "\u0001$1\u0001")
    .replace(/__(?=\S)([^_]*?\S)__/g, "\u0002$1\u0002")
    .replace(/##(?=\S)([^#]*?\S)##/g, "$1")
    .replace(/(^|[^\w*])\*(?=\S)([^*]*?\S)\*(?![\w*])/g, "$1**$2**")
    .replace(/(^|[^\w_])_(?=\S)([^_]*?\S)_(?![\w_])/g, "$1*$2*")
    .replace(/(^|[^\w#])#(?=\S)([^#]*?\S)#(?![\w#])/g, "$1$2")
    .replace(/\u0001/g, "**")
    .replace(/\u0002/g, "*")
    // Asciidoctor's replacements: (C), (R), (TM), an em dash between words
    .replace(/\(C\)/g, "©")
    .replace(/\(R\)/g, "®")
    .replace(/\(TM\)/g, "™")
    // (between two words, or standing alone between spaces; a command's "--verbose" in prose keeps its dashes)
    .replace(/(\w)--(?=\w)|(^|\s)--(?=\s|$)/g, (_, word: string | undefined, space: string | undefined) => `${word ?? space ?? ""}—`)
    .replace(/\^([^^\s]+)\^/g, "$1")
    .replace(/~([^~\s]+)~/g, "$1")
    .replace(/[ \t]\+$/gm, "  ");
  // a passthrough inside a code span leaves a placeholder in the span's text: put back, a few levels deep
  // (bounded: a NUL the source itself holds must not loop)
  let shown = text.replace(/\\([*_`#'+{[])/g, "$1");
  for (let pass = 0; pass < 4 && /\u0000\d+\u0000/.test(shown); pass++) shown = shown.replace(/\u0000(\d+)\u0000/g, (_, i: string) => code[Number(i)] ?? "");
  return shown;
}

/** codeSpan writes literal text as a code span long enough for the backticks inside it. */
function codeSpan(literal: string): string {
  const longest = Math.max(0, ...Array.from(literal.matchAll(/`+/g), (m) => m[0].length));
  const ticks = "`".repeat(longest + 1);
  const pad = literal.startsWith("`") || literal.endsWith("`") ? " " : "";
  return `${ticks}${pad}${literal}${pad}${ticks}`;
}

/** Attrs are the parsed contents of a block attribute line (`[source,python]`, `[NOTE]`, `[cols="1,2",options="header"]`). */
interface Attrs {
  style: string;
  positional: string[];
  named: Record<string, string>;
}

function parseAttrs(body: string): Attrs {
  const positional: string[] = [];
  const named: Record<string, string> = {};
  for (const m of body.matchAll(/\s*(?:([\w-]+)\s*=\s*)?("[^"]*"|'[^']*'|[^,]*)\s*(?:,|$)/g)) {
    if (m[0] === "") break;
    const value = m[2]!.replace(/^["']|["']$/g, "").trim();
    if (m[1]) named[m[1].toLowerCase()] = value;
    else positional.push(value);
  }
  const first = positional[0] ?? "";
  // [%header], [source%linenums,python]: the style is the part before any shorthand
  const style = first.replace(/[%#.].*$/, "");
  for (const option of first.match(/%[\w-]+/g) ?? []) named[`${option.slice(1)}-option`] = "";
  return { style, positional, named };
}

/** DELIMITERS: block delimiters and the kind of block each opens (the closing line is the same) */
const DELIMITERS: Array<[RegExp, string]> = [
  [/^-{4,}$/, "listing"],
  [/^\.{4,}$/, "literal"],
  [/^={4,}$/, "example"],
  [/^\*{4,}$/, "sidebar"],
  [/^_{4,}$/, "quote"],
  [/^\+{4,}$/, "pass"],
  [/^\/{4,}$/, "comment"],
  [/^--$/, "open"],
  [/^```.*$/, "fenced"],
  [/^[|,:!]={3,}$/, "table"],
];

function delimiterKind(line: string): string | null {
  for (const [pattern, kind] of DELIMITERS) if (pattern.test(line)) return kind;
  return null;
}

/** LIST_ITEM: unordered (`*`, `-`), ordered (`.`, `1.`, `a.`) and checklist items */
const LIST_ITEM = /^\s*(\*{1,5}|-|\.{1,5}|\d+\.|[a-zA-Z]\.|[ivxIVX]+\)|<\d{1,4}>)\s+(.*)$/;
const DESCRIPTION_ITEM = /^\s*(\S.*?)(:{2,4}|;;)(?:\s+(.*))?$/;

/** CONDITIONAL: a preprocessor conditional line: directive, attribute names, and the text of its one-line form */
const CONDITIONAL = /^(ifdef|ifndef|ifeval|endif)::([^[]*)\[(.*)\]\s*$/;

/**
 * preprocess applies the conditionals as Asciidoctor's preprocessor does, line by line: `ifdef::a[]`
 * keeps its lines when `a` is defined (`a,b`: any of them; `a+b`: all), `ifndef::` when not, up to
 * the matching `endif::`; the one-line form `ifdef::a[text]` keeps its text. An attribute is defined
 * by the entries (`:a:`, unset by `:a!:` or `:!a:`) on the lines kept above it. `ifeval::` cannot be
 * evaluated without running the document's expressions: its lines are kept. One pass, a stack as deep as the nesting.
 */
function preprocess(lines: string[], state: AdocState): string[] {
  const defined = new Set(state.attributes.keys());
  const skipping: boolean[] = [];
  const out: string[] = [];
  for (const line of lines) {
    const skipped = skipping.length > 0 && skipping[skipping.length - 1]!;
    const m = CONDITIONAL.exec(line);
    if (!m) {
      if (skipped) continue;
      const entry = /^:(!?)([\w-]+)(!?):/.exec(line);
      if (entry) (entry[1] || entry[3] ? defined.delete(entry[2]!.toLowerCase()) : defined.add(entry[2]!.toLowerCase()));
      out.push(line);
      continue;
    }
    const [, directive, target, text] = m as unknown as [string, string, string, string];
    if (directive === "endif") {
      skipping.pop();
      continue;
    }
    let keep = true;
    if (directive !== "ifeval") {
      const all = target.includes("+");
      const names = target.split(all ? "+" : ",").map((n) => n.trim().toLowerCase()).filter(Boolean);
      const set = names.map((n) => defined.has(n));
      keep = directive === "ifdef" ? (all ? set.every(Boolean) : set.some(Boolean)) : all ? !set.every(Boolean) : !set.some(Boolean);
    }
    if (directive !== "ifeval" && text.trim()) {
      // the one-line form: its text is the line
      if (!skipped && keep) out.push(text);
      continue;
    }
    skipping.push(skipped || !keep);
  }
  return out;
}

/** renderBlocks writes a run of AsciiDoc lines as markdown blocks. */
function renderBlocks(lines: string[], state: AdocState, depth: number): string[] {
  const out: string[] = [];
  let paragraph: string[] = [];
  let attrs: Attrs | null = null;
  let title = "";
  const flush = () => {
    if (paragraph.length) {
      const first = paragraph[0]!;
      const admonition = /^(NOTE|TIP|IMPORTANT|WARNING|CAUTION):\s+(.*)$/.exec(first);
      const style = attrs?.style.toUpperCase() ?? "";
      if (title) out.push(`**${inlineMarkup(title, state)}**`);
      if (admonition) paragraph[0] = `**${ADMONITIONS[admonition[1]!]}:** ${admonition[2]}`;
      else if (ADMONITIONS[style]) paragraph[0] = `**${ADMONITIONS[style]}:** ${first}`;
      // inline markup on the whole paragraph: a link's label or a bold run may go over a line end
      const text = inlineMarkup(paragraph.map((l) => l.trim()).join("\n"), state);
      if (style === "QUOTE" || style === "VERSE") out.push(text.split("\n").map((l) => `> ${l}`).join("\n"));
      else if (style === "SOURCE" || style === "LISTING" || style === "LITERAL") out.push(fence(paragraph.join("\n"), attrs?.positional[1] ?? ""));
      else out.push(text);
    }
    paragraph = [];
    attrs = null;
    title = "";
  };
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    const trimmed = line.trimEnd();
    // comments and preprocessor directives
    if (/^\/\/(?!\/\/)/.test(trimmed) || /^(?:include|ifdef|ifndef|ifeval|endif)::/.test(trimmed)) {
      i++;
      continue;
    }
    if (trimmed === "") {
      flush();
      i++;
      continue;
    }
    const kind = delimiterKind(trimmed);
    if (kind && paragraph.length === 0) {
      let end = i + 1;
      while (end < lines.length && lines[end]!.trimEnd() !== trimmed && !(kind === "fenced" && /^```\s*$/.test(lines[end]!.trimEnd()))) end++;
      const inner = lines.slice(i + 1, end);
      out.push(...delimitedBlock(kind, trimmed, inner, attrs, title, state, depth));
      attrs = null;
      title = "";
      i = end + 1;
      continue;
    }
    if (paragraph.length === 0) {
      const section = /^(={1,6}|#{1,6})\s+(.+?)(?:\s+\1)?$/.exec(trimmed);
      if (section) {
        out.push(heading(section[1]!.length, inlineMarkup(section[2]!, state)));
        attrs = null;
        title = "";
        i++;
        continue;
      }
      const attributeEntry = /^:(!?[\w-]+!?):\s*(.*)$/.exec(trimmed);
      if (attributeEntry) {
        const name = attributeEntry[1]!.replace(/!/g, "").toLowerCase();
        if (attributeEntry[1]!.includes("!")) state.attributes.delete(name);
        // the value's own references are replaced when it is defined, as Asciidoctor does (`:url-repo: {url-org}/x`)
        else state.attributes.set(name, expandAttributes(attributeEntry[2]!, state));
        i++;
        continue;
      }
      const blockAttrs = /^\[([^\]]*)\]$/.exec(trimmed);
      if (blockAttrs && !/^\[\[/.test(trimmed)) {
        attrs = parseAttrs(blockAttrs[1]!);
        i++;
        continue;
      }
      if (/^\[\[[^\]]*\]\]$/.test(trimmed)) {
        i++;
        continue;
      }
      const blockTitle = /^\.([^.\s].*)$/.exec(trimmed);
      if (blockTitle) {
        title = blockTitle[1]!;
        i++;
        continue;
      }
      if (/^(?:'{3,}|-{3}|\*{3})$/.test(trimmed)) {
        out.push("---");
        i++;
        continue;
      }
      if (/^<<<$/.test(trimmed)) {
        i++;
        continue;
      }
      if (/^(?:video|audio)::[^[\s]+\[[^\]]*\]$/.test(trimmed)) {
        // a video or audio player: no text to show
        title = "";
        attrs = null;
        i++;
        continue;
      }
      const blockImage = /^image::([^[]+)\[([^\]]*)\]$/.exec(trimmed);
      if (blockImage) {
        const alt = imageAlt(blockImage[2]!, blockImage[1]!);
        if (title || alt) out.push(`![${inlineMarkup(title || alt, state)}](${expandAttributes(blockImage[1]!, state)})`);
        title = "";
        attrs = null;
        i++;
        continue;
      }
      if (LIST_ITEM.test(line) || (DESCRIPTION_ITEM.test(trimmed) && /(:{2,4}|;;)(\s|$)/.test(trimmed))) {
        const start = i;
        i++;
        while (i < lines.length) {
          const next = lines[i]!.trimEnd();
          if (next === "" || delimiterKind(next) !== null) {
            // a blank line ends the list unless another item (or a continuation) follows
            let j = i;
            while (j < lines.length && lines[j]!.trim() === "") j++;
            if (j < lines.length && next === "" && (LIST_ITEM.test(lines[j]!) || /(:{2,4}|;;)(\s|$)/.test(lines[j]!.trimEnd()))) {
              i = j;
              continue;
            }
            if (delimiterKind(next) !== null && attachedBlock(lines, i)) {
              const close = next;
              i++;
              while (i < lines.length && lines[i]!.trimEnd() !== close) i++;
              i++;
              continue;
            }
            break;
          }
          if (/^(={1,6})\s/.test(next) || (/^\[[^\]]*\]$/.test(next) && !attachedBlock(lines, i))) break;
          i++;
        }
        if (title) out.push(`**${inlineMarkup(title, state)}**`);
        out.push(listBlock(lines.slice(start, i), state, depth));
        attrs = null;
        title = "";
        continue;
      }
      if (/^\s+\S/.test(line) && !attrs) {
        // a literal paragraph: indented lines, shown as written
        const start = i;
        while (i < lines.length && /^\s+\S/.test(lines[i]!)) i++;
        const block = lines.slice(start, i);
        const indent = Math.min(...block.map((l) => /^\s*/.exec(l)![0].length));
        out.push(fence(block.map((l) => l.slice(indent)).join("\n")));
        continue;
      }
    }
    paragraph.push(trimmed);
    i++;
  }
  flush();
  return out;
}

/**
 * attachedBlock: line `i` follows a list continuation (`+`), with only block attribute lines
 * (`[source,ruby]`, `[subs=attributes+]`) or a block title between: the block belongs to the item.
 */
function attachedBlock(lines: string[], i: number): boolean {
  for (let k = i - 1; k >= 0 && k >= i - 4; k--) {
    const line = lines[k]!.trim();
    if (line === "+") return true;
    if (!/^\[[^\]]*\]$/.test(line) && !/^\.[^.\s]/.test(line)) return false;
  }
  return false;
}

/** delimitedBlock writes one delimited block by its kind and the attributes above it. */
function delimitedBlock(kind: string, delimiter: string, inner: string[], attrs: Attrs | null, title: string, state: AdocState, depth: number): string[] {
  const style = attrs?.style.toUpperCase() ?? "";
  const caption = title ? `**${inlineMarkup(title, state)}**` : "";
  const nested = () => (depth < 20 ? renderBlocks(inner, state, depth + 1) : [inner.join("\n")]);
  switch (kind) {
    case "comment":
      return [];
    case "listing":
    case "literal":
    case "fenced": {
      // `[source,ruby]`, or `[,ruby]` on a listing (source is its default style)
      const language = kind === "fenced" ? delimiter.replace(/^```/, "").trim() : style === "SOURCE" || (style === "" && kind === "listing") ? (attrs?.positional[1] ?? attrs?.named.language ?? "") : "";
      // a callout marker (`<1>`, after a line comment's `#` or `//`) is shown as "(1)"
      const withAttributes = /\battributes\b/.test(attrs?.named.subs ?? "") ? inner.map((l) => expandAttributes(l, state)) : inner;
      const code = withAttributes.map(calloutsShown).join("\n");
      return [caption, fence(code, language)].filter(Boolean);
    }
    case "pass":
      return [caption, inner.map((l) => l.replace(/<[^>]+>/g, "").trim()).filter(Boolean).join("\n")].filter(Boolean);
    case "table":
      return [caption, tableBlock(delimiter[0]!, inner, attrs, state)].filter(Boolean);
    case "quote": {
      const body = nested().join("\n\n");
      const by = attrs?.positional[1] ? `\n>\n> — ${attrs.positional[1]}${attrs.positional[2] ? `, ${attrs.positional[2]}` : ""}` : "";
      return [caption, body.split("\n").map((l) => (l ? `> ${l}` : ">")).join("\n") + by].filter(Boolean);
    }
    default: {
      const blocks = nested();
      if (ADMONITIONS[style] && blocks.length) blocks[0] = `**${ADMONITIONS[style]}:** ${blocks[0]}`;
      return [caption, ...blocks].filter(Boolean);
    }
  }
}

/** isWrappedLine: a list line that goes on with the text above it (not blank, no continuation "+", no item, term, block delimiter or attribute line) */
function isWrappedLine(line: string): boolean {
  const trimmed = line.trim();
  if (!trimmed || trimmed === "+" || LIST_ITEM.test(line) || delimiterKind(trimmed) !== null || /^\[[^\]]*\]$/.test(trimmed)) return false;
  return !(DESCRIPTION_ITEM.test(line) && /(:{2,4}|;;)(\s|$)/.test(trimmed));
}

/** listBlock writes list lines: nesting by marker length, continuations (`+`) and description lists. */
function listBlock(lines: string[], state: AdocState, depth: number): string {
  const out: string[] = [];
  const levels: string[] = []; // marker kinds in nesting order
  let counters: number[] = [];
  let indent = "";
  let blockAttrs: Attrs | null = null;
  /** levelOf: the nesting level of an item of this kind: the level of the list of that kind open above, else one deeper (Asciidoctor nests a list by its marker, description lists too) */
  const levelOf = (kind: string): number => {
    let level = levels.indexOf(kind);
    if (level < 0) {
      levels.push(kind);
      level = levels.length - 1;
    }
    levels.length = level + 1;
    counters = counters.slice(0, level + 1);
    return level;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trimEnd();
    if (line.trim() === "") continue;
    if (line.trim() === "+") continue; // continuation: the next block joins the item
    const attributeLine = /^\s*\[([^\]]*)\]$/.exec(line);
    if (attributeLine && i + 1 < lines.length && delimiterKind(lines[i + 1]!.trim()) !== null) {
      blockAttrs = parseAttrs(attributeLine[1]!);
      continue;
    }
    const item = LIST_ITEM.exec(line);
    const description = item ? null : DESCRIPTION_ITEM.exec(line);
    if (item) {
      const marker = item[1]!;
      const kind = /^\*+$/.test(marker) || marker === "-" ? `u${marker}` : /^\.+$/.test(marker) ? `o${marker}` : marker.startsWith("<") ? "c" : "o1";
      const level = levelOf(kind);
      counters[level] = kind === "c" ? Number(marker.slice(1, -1)) : (counters[level] ?? 0) + 1;
      indent = "   ".repeat(level);
      const ordered = kind.startsWith("o") || kind === "c";
      let text = item[2]!;
      // the item's wrapped lines are its text: a link's label may run over a line end
      while (i + 1 < lines.length && isWrappedLine(lines[i + 1]!)) text += `\n${lines[++i]!.trim()}`;
      const check = /^\[([ xX*])\]\s+(.*)$/.exec(text);
      if (check) text = `[${check[1] === " " ? " " : "x"}] ${check[2]}`;
      const wrapped = `\n${indent}   `;
      out.push(`${indent}${ordered ? `${counters[level]}.` : "-"} ${inlineMarkup(text, state).split("\n").join(wrapped)}`);
      indent += "   ";
    } else if (description && /(:{2,4}|;;)(\s|$)/.test(line)) {
      const term = inlineMarkup(description[1]!.trim(), state);
      const level = levelOf(`d${description[2]}`);
      const body = description[3] ? inlineMarkup(description[3], state) : "";
      out.push(`${"   ".repeat(level)}- **${term}**${body ? `: ${body}` : ""}`);
      indent = "   ".repeat(level + 1);
    } else if (delimiterKind(line.trim()) !== null) {
      const delimiter = line.trim();
      let end = i + 1;
      while (end < lines.length && lines[end]!.trim() !== delimiter) end++;
      const blocks = delimitedBlock(delimiterKind(delimiter)!, delimiter, lines.slice(i + 1, end), blockAttrs, "", state, depth + 1);
      blockAttrs = null;
      for (const block of blocks) out.push("\n" + block.split("\n").map((l) => (l ? indent + l : l)).join("\n"));
      i = end;
    } else {
      out.push(`${indent}${inlineMarkup(line.trim(), state)}`);
    }
  }
  return out.join("\n");
}

/** CellSpec: a table cell's span and text */
interface AdocCell {
  text: string;
  colspan: number;
  rowspan: number;
}

/** tableBlock writes an AsciiDoc table (PSV `|===`, CSV `,===`, DSV `:===`) as a GFM table. */
function tableBlock(separator: string, inner: string[], attrs: Attrs | null, state: AdocState): string {
  const named = attrs?.named ?? {};
  const colsSpec = named.cols ?? "";
  let columns = 0;
  if (colsSpec) {
    for (const part of colsSpec.split(/[,;]/)) {
      const repeat = /^(\d+)\*/.exec(part.trim());
      columns += repeat ? Number(repeat[1]) : 1;
    }
  }
  const explicitHeader = "header-option" in named || /\bheader\b/.test(named.options ?? "");
  const noHeader = "noheader-option" in named || /\bnoheader\b/.test(named.options ?? "");
  const cells: AdocCell[] = [];
  let firstLineCells = 0;
  let firstLineAlone = false;
  const nonBlank = inner.findIndex((l) => l.trim() !== "");
  if (separator === "," || separator === ":") {
    for (const line of inner) {
      if (!line.trim()) continue;
      const values = separator === "," ? splitCsv(line) : line.split(":");
      if (!columns) columns = values.length;
      for (const v of values) cells.push({ text: inlineMarkup(v.trim(), state), colspan: 1, rowspan: 1 });
    }
    firstLineAlone = true;
  } else {
    const sep = separator === "!" ? "!" : "|";
    const body = inner.join("\n");
    const spec = new RegExp(`(?:^|(?<=\\s))((?:\\d+)?(?:\\.\\d+)?[+*]?[<^>]?(?:\\.[<^>])?[adehlmsv]?)\\${sep}`, "g");
    const parts: Array<{ spec: string; start: number; end: number }> = [];
    for (const m of body.matchAll(spec)) {
      if (m.index! > 0 && body[m.index! - 1] === "\\") continue;
      parts.push({ spec: m[1]!, start: m.index!, end: m.index! + m[0].length });
    }
    for (let k = 0; k < parts.length; k++) {
      const part = parts[k]!;
      const text = body.slice(part.end, k + 1 < parts.length ? parts[k + 1]!.start : body.length);
      const span = /^(\d+)?(?:\.(\d+))?\+/.exec(part.spec);
      const dup = /^(\d+)\*/.exec(part.spec);
      const cell = {
        text: text.trim().split(/\n\s*\n/).map((p) => inlineMarkup(p.replace(/\s*\n\s*/g, " ").replaceAll(`\\${sep}`, sep), state)).join("<br>"),
        colspan: span?.[1] ? Math.min(Number(span[1]), 100) : 1,
        rowspan: span?.[2] ? Math.min(Number(span[2]), 100) : 1,
      };
      for (let n = 0; n < (dup ? Math.min(Number(dup[1]), 100) : 1); n++) cells.push({ ...cell });
    }
    if (nonBlank >= 0) {
      const firstLine = inner[nonBlank]!;
      firstLineCells = parts.filter((p) => p.start < body.indexOf(firstLine) + firstLine.length && p.start >= body.indexOf(firstLine)).length;
      firstLineAlone = (inner[nonBlank + 1] ?? "").trim() === "";
    }
    if (!columns) columns = firstLineCells || 1;
  }
  // place the cells row by row on a grid, spans leaving empty cells
  const rows: string[][] = [];
  const carried: number[] = [];
  let row: string[] = [];
  let col = 0;
  const nextRow = () => {
    rows.push(row);
    row = [];
    col = 0;
    for (let c = 0; c < columns; c++) if ((carried[c] ?? 0) > 0) carried[c]!--;
  };
  const skipCarried = () => {
    while (col < columns && (carried[col] ?? 0) > 0) {
      row[col] = "";
      col++;
    }
    if (col >= columns) nextRow();
  };
  for (const cell of cells) {
    skipCarried();
    skipCarried();
    row[col] = cell.text;
    for (let k = 1; k < cell.colspan && col + k < columns; k++) row[col + k] = "";
    if (cell.rowspan > 1) for (let k = 0; k < cell.colspan && col + k < columns; k++) carried[col + k] = cell.rowspan;
    col += cell.colspan;
    if (col >= columns) nextRow();
  }
  if (row.length) rows.push(row);
  if (!rows.length) return "";
  const header = !noHeader && (explicitHeader || (firstLineAlone && rows.length > 1 && (firstLineCells === columns || separator !== "|")));
  if (!header) rows.unshift(rows[0]!.map(() => ""));
  return gfmTable(rows);
}

/** splitCsv splits one CSV line, honouring double quotes. */
function splitCsv(line: string): string[] {
  const out: string[] = [];
  let cur = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === '"') {
      if (quoted && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else quoted = !quoted;
    } else if (ch === "," && !quoted) {
      out.push(cur);
      cur = "";
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

/** convertAsciiDoc converts an AsciiDoc file; the document title (`= Title`) is the title. */
export const convertAsciiDoc: Converter = async (input) => {
  const text = decodedText(input, "is not text (it contains binary data); send an AsciiDoc text file.");
  let lines = text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n").split("\n");
  if (!lines.some((l) => l.trim())) throw new AppError("empty_document", `${input.filename} contains no text; send a file with content.`);
  const state = newState();
  lines = preprocess(lines, state);
  // The header: a level-0 title, then an author line and a revision line directly under it.
  let start = 0;
  while (start < lines.length && (lines[start]!.trim() === "" || /^\/\//.test(lines[start]!))) start++;
  let title: string | null = null;
  const header: string[] = [];
  const titleMatch = /^[=#]\s+(.+)$/.exec(lines[start] ?? "");
  if (titleMatch) {
    title = inlineMarkup(titleMatch[1]!.trim(), state);
    header.push(heading(1, title));
    start++;
    for (let k = 0; k < 2 && start < lines.length; k++) {
      const line = lines[start]!.trim();
      if (!line || line.startsWith(":") || line.startsWith("//")) break;
      header.push(inlineMarkup(line.replace(/\s*<[^>\s]+@[^>\s]+>/g, ""), state));
      start++;
    }
  }
  const blocks = renderBlocks(lines.slice(start), state, 0);
  const notes = state.footnotes.map((note, i) => `[^${i + 1}]: ${note}`);
  const markdown = tidyMarkdown([...header, ...blocks, notes.join("\n")].filter((b) => b.trim()).join("\n\n"));
  if (!title) title = /^#{1,2} (.+)$/m.exec(markdown)?.[1] ?? null;
  return { markdown, title, totalPages: 0, method: "text", warnings: [] };
};
