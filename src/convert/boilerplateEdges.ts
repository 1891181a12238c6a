/**
 * boilerplateEdges: what an article's markdown keeps at its edges but is not its text: a byline under
 * the headline or at the end, labels left once the blocks they headed were dropped, credit lines, a
 * kicker over the headline (trimArticleEdges, called by html.ts on the written markdown).
 */
import { PHOTO_CREDIT, PHOTO_CREDIT_MAX_CHARS, SOURCE_LINE } from "./boilerplateCaptions";
import { countChars, normalizeSpace } from "./boilerplateText";

/**
 * BYLINE: a line that only names the author ("Von Cosima Künzel", "By Jane Doe", "Text: Anna Muster",
 * "Por Redacción"): up to four capitalised names (with particles) after the word that says who wrote it.
 */
const BYLINE = /^(?:von|by|por|par|di|door|text|texte|autor|autorin|author|redaktion)\s*:?\s+(?:(?:\p{Lu}[\p{L}'’.-]*|von|van|der|de|del|la|le|di|da|dos|und|and|y|et)\s*,?\s*){1,6}$/u;
/** SIGN_OFF: a blog's sign-off ("Liebe Grüße", "Deine Mady", "Love"), the author's own words; a footnote ("* Name geändert") is text too */
const SIGN_OFF = /^(?:liebe|lieben|liebste|viele|beste|herzliche|herzlichst|deine|dein|eure|euer|love|cheers|xoxo|xo|best|yours|grüße|gruß|saludos|besos|bisous|bises|ciao|baci|pozdrawiam)\b/i;
/** EDGE_LABEL_MAX_CHARS: a label left at the article's end is short (non-space characters): "Anzeigen", "zurück", "Editors’ Recommendations:" */
const EDGE_LABEL_MAX_CHARS = 40;
const EDGE_WORD_MAX_CHARS = 12;
const BYLINE_MAX_CHARS = 60;

/** HARD_BREAK_MARK: the `\` a line ends with when it is a hard break (<br>); an even run of backslashes is escaped text */
const HARD_BREAK_MARK = /(?<!\\)((?:\\\\)*)\\$/gm;

/** edgeText: a markdown block's text without links' targets, pictures, emphasis and escapes. */
function edgeText(block: string): string {
  return normalizeSpace(
    block
      .replace(HARD_BREAK_MARK, "$1")
      .replace(/!\[[^\]]*\]\([^)]*\)/g, " ")
      .replace(/\[([^\]]*)\]\((?:[^()]|\([^)]*\))*\)/g, "$1")
      .replace(/\\([\\`*_{}[\]()#+\-.!|>~<])/g, "$1")
      .replace(/(\*\*|__|\*|_)/g, ""),
  );
}

/** isEdgeLabel: a block at the article's end that only labels what came after it on the page: a byline, a label ending in a colon, one or two words. */
function isEdgeLabel(block: string, atEnd: boolean): boolean {
  if (/^\s*(?:[-*+]\s|\d+[.)]\s|\||```|>)/.test(block)) return false;
  const text = edgeText(block);
  const chars = countChars(text);
  if (chars === 0) return false;
  if (chars <= BYLINE_MAX_CHARS && BYLINE.test(text.replace(/^\S+/, (word) => word.toLowerCase()))) return true;
  if (!atEnd) return false;
  // A byline's label alone ("Von:", "By:"); other labels ending in a colon ("Das Konzeptpapier finden Sie hier:") are text.
  if (/^(?:von|by|por|par|autor|autorin|author|text|texte|fotos?|photos?)\s*:$/i.test(text)) return true;
  // One or two words of a button or a name ("Anzeigen", "Seite teilen", "Götz Warnke"); a sign-off with its mark ("x Franzi") stays.
  if (SIGN_OFF.test(text) || /^\s*\\\*\s/.test(block)) return false;
  return chars <= EDGE_WORD_MAX_CHARS && text.split(" ").length <= 2 && /^\p{L}{3,}[\p{L}’'-]*(?: \p{L}{3,}[\p{L}’'-]*)?$/u.test(text);
}

/** AGENCY_SIGN: a news agency's or reporter's sign closing a report ("erb/ots", "dpa/lnw", "(AFP)", "(dpa)") */
const AGENCY_SIGN = /^\(?\p{L}{2,8}(?:\s?\/\s?\p{L}{2,8})+\)?$|^\((?:dpa|afp|ap|reuters|kna|epd|apa|sda|efe|ansa|sid|ots|dts|red)\)$/iu;

/**
 * isCreditBlock: a block whose every line is a picture's credit, a source or an agency's sign
 * ("erb/ots" over "Foto: dahancoo / Pixabay (Symbolbild)"): the report's credits, left at its end
 * when written as one paragraph with line breaks, which the caption test (a line that opens with
 * "Foto:") does not see.
 */
function isCreditBlock(block: string): boolean {
  if (/^\s*(?:[-*+]\s|\d+[.)]\s|\||```|>)/.test(block)) return false;
  const lines = block.split("\n").map(edgeText).filter(Boolean);
  if (lines.length === 0) return false;
  return lines.every((line) => countChars(line) <= PHOTO_CREDIT_MAX_CHARS && (PHOTO_CREDIT.test(line) || SOURCE_LINE.test(line) || AGENCY_SIGN.test(line))) && lines.some((line) => PHOTO_CREDIT.test(line) || SOURCE_LINE.test(line));
}

/**
 * trimArticleEdges (with the page's headline when the markdown has no "# " heading of its own) drops what an article's markdown keeps at its edges but is not its text: a byline
 * set as its own paragraph right under the headline or at the end ("Von Cosima Künzel"), and labels
 * left at the end once the blocks they headed were dropped ("Editors’ Recommendations:", "Anzeigen",
 * "zurück").
 */
export function trimArticleEdges(markdown: string, pageHeadline: string | null = null): string {
  // Blocks and the blank lines between them, kept as they were (code blocks keep their blank lines).
  const parts = markdown.split(/(\n[^\S\n]*\n\s*)/);
  const blocks: string[] = [];
  const gaps: string[] = [];
  for (let i = 0; i < parts.length; i += 2) {
    blocks.push(parts[i]!);
    gaps.push(parts[i + 1] ?? "");
  }
  const fence = blocks.findIndex((b) => /^\s*(?:```|~~~)/m.test(b));
  if (fence >= 0) return markdown;
  const isHeading = (b: string) => /^\s{0,3}#{1,6}\s/.test(b);
  const shown = (b: string) => edgeText(b).length > 0 && !isHeading(b);
  let end = blocks.length;
  for (;;) {
    let i = end - 1;
    while (i >= 0 && !edgeText(blocks[i]!)) i--;
    if (i < 0) break;
    const block = blocks[i]!;
    // A heading left last that is a label ("Editors’ Recommendations:") headed the links that were dropped.
    const label = isHeading(block) ? countChars(edgeText(block.replace(/^\s*#+\s*/, ""))) <= EDGE_LABEL_MAX_CHARS && /:$/.test(edgeText(block)) : isEdgeLabel(block, true) || isCreditBlock(block);
    if (!label) break;
    end = i;
  }
  const kept = blocks.slice(0, end);
  const keptGaps = gaps.slice(0, end);
  const remove = (i: number) => {
    kept.splice(i, 1);
    keptGaps.splice(i, 1);
  };
  let start = 0;
  while (start < kept.length && !shown(kept[start]!)) start++;
  if (start < kept.length && isEdgeLabel(kept[start]!, false) && kept.slice(start + 1).some(shown)) remove(start);
  // A kicker over the headline ("Pflege" above "## Pflegefinanzierung: ...") and the headline set
  // again under the page's own: the first is a label, the second a repeat.
  // The headline: the markdown's own "# " heading, or the page's (set above the markdown later).
  const title = kept.findIndex((b) => /^\s{0,3}#\s/.test(b));
  if (title >= 0 || pageHeadline) {
    const headline = (title >= 0 ? edgeText(kept[title]!.replace(/^\s*#+\s*/, "")) : normalizeSpace(pageHeadline!)).toLowerCase();
    for (let i = title + 1; i < Math.min(kept.length, title + 4); i++) {
      const b = kept[i]!;
      if (!edgeText(b)) continue;
      const text = edgeText(b.replace(/^\s*#+\s*/, ""));
      const next = kept.slice(i + 1).find((x) => edgeText(x));
      if (isHeading(b) && text.toLowerCase() === headline) {
        remove(i);
        i--;
        continue;
      }
      if (!isHeading(b) && next !== undefined && isHeading(next) && edgeText(next.replace(/^\s*#+\s*/, "")).toLowerCase() === headline && countChars(text) <= EDGE_WORD_MAX_CHARS * 2 && !/[.!?]$/.test(text)) {
        remove(i);
        i--;
        continue;
      }
      break;
    }
  }
  if (kept.length === blocks.length) return markdown;
  return kept.map((b, i) => (i < kept.length - 1 ? b + keptGaps[i] : b)).join("");
}
