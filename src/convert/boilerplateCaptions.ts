/**
 * boilerplateCaptions: what describes a picture or files the page rather than telling its text:
 * figure captions, photo credits and source lines, lightbox buttons, captions that repeat an image's
 * alt text, and date lines and stamps (a gallery's captions are its text and stay).
 */
import { CONTENT_TAGS, nameWords } from "./boilerplateChrome";
import { countChars, nextElement, normalizeSpace, type TextStats } from "./boilerplateText";
import type { DomElement, DomNode } from "./htmlDom";

/** CAPTION_WORDS: a class or id word that names an image caption or credit ("wp-caption-text", "image-credits") */
const CAPTION_WORDS = new Set(["caption", "captions", "credit", "credits", "copyright", "subcaption", "imagecaption", "imagedescription", "bildunterschrift"]);
/**
 * PHOTO_CREDIT: a short line that names or describes a picture ("Foto: dpa", "Crédits photos : Bestimage",
 * "Credit:", "(Credit: ...)", "Beitragsbild: ...", "Abbildung 4: ...", "Image illustrative : ...", "Photograph by ...")
 */
export const PHOTO_CREDIT = /^\s*\(?\s*(?:(?:fotos?|photos?|bild(?:er)?|credits?|crédits?(?: photos?)?|imagen|image(?: illustrative)?|fotografía|picture|beitragsbild|titelbild|titelfoto|headerbild|symbolbild|bildquelle|fotoquelle|abbildung(?:\s*\d+)?|illustration)\s*:|(?:(?:featured|header|hero|cover|lead|top|title|main)\s+)?(?:photo(?:graph)?s?|foto|picture|image)\s+(?:by|von|de|di|courtesy)\s)/i;
/**
 * SOURCE_LINE: a short line that names where a picture or the report came from ("Quelle: dpa",
 * "(Quelle: Fleischmann/Unsplash/DJV)", "Źródło: Eurostat", "Fuente: EFE", "Source: Reuters")
 */
export const SOURCE_LINE = /^\s*\(?\s*(?:quellen?|źródło|źródła|fuente|fuentes|source|sources|fonte|fontes|bron|kilde|källa)\s*:/i;
/**
 * CREDIT_SUFFIX: a picture's credit closing a line, after a separator or a sentence ("... Mut zu. |
 * © Augusta National/Getty Images", "... el año escolar. Foto: Andina"); CREDITED_CAPTION_MAX_CHARS:
 * such a caption is a sentence or two (non-space characters)
 */
const CREDIT_SUFFIX = /(?:\s[|–—-]|[.!?)])\s*\(?\s*(?:©|\(c\)|fotos?\s*:|photos?\s*:|bild\s*:|credits?\s*:|image\s*:|foto\s*©)\s*[^.!?]{1,60}\)?\s*$/i;
const CREDITED_CAPTION_MAX_CHARS = 250;
/** PHOTO_CREDIT_MAX_CHARS: a credit line is short (non-space characters) */
export const PHOTO_CREDIT_MAX_CHARS = 80;

/**
 * isCaption: a figure caption or photo credit (figcaption, or a class/id that says caption or credit
 * on a block without the image itself). Main-content extraction drops them as trafilatura does: they
 * describe a picture, not the article ("Photo: AP", "Imagen: Télam"); the image stays.
 */
export function isCaption(el: DomElement, stats: Map<DomNode, TextStats>): boolean {
  const tag = el.nodeName.toLowerCase();
  if (tag === "figcaption") return true;
  // A date on its own (the byline's <time>, "Updated: 03.04.2020") is page furniture; one inside a sentence stays.
  if (tag === "time") return !isDuration(el) && !insideProse(el);
  if (CONTENT_TAGS.has(tag) && tag !== "p") return false;
  // Lines short enough to be a credit or a date: the measured size first, the subtree only then.
  const chars = stats.get(el)?.text ?? 0;
  if ((tag === "p" || tag === "div" || tag === "span") && chars <= DATE_LINE_MAX_CHARS && (isDateLine(el) || isDateStamp(el.textContent ?? ""))) return true;
  if (tag === "p" || tag === "span" || tag === "div" || tag === "small" || tag === "em") {
    if (chars > 0 && chars <= PHOTO_CREDIT_MAX_CHARS && (PHOTO_CREDIT.test(el.textContent ?? "") || SOURCE_LINE.test(el.textContent ?? "")) && el.querySelectorAll("img, picture").length === 0) return true;
    // A short line that ends in a picture's credit is that picture's caption, written without markup.
    if (chars > 0 && chars <= CREDITED_CAPTION_MAX_CHARS && CREDIT_SUFFIX.test(el.textContent ?? "") && el.querySelectorAll("img, picture, p, li").length === 0) return true;
    // Text beside the picture inside a <figure> describes it.
    if (chars > 0 && inPictureFigure(el) && el.querySelectorAll("img, picture, video, table, pre, blockquote").length === 0) return true;
  }
  const names = `${el.getAttribute("class") ?? ""} ${el.getAttribute("id") ?? ""}`;
  if (!/caption|credit|copyright|description|bildunterschrift/i.test(names)) return false;
  // A caption word split in two ("image-description", "image_caption", "bild-unterschrift") is that word.
  const named = names.split(/\s+/).some((name) => nameWords(name).some((w, i, words) => CAPTION_WORDS.has(w) || CAPTION_WORDS.has(w + (words[i + 1] ?? ""))));
  return named && el.querySelectorAll("img, picture, video").length === 0;
}

/** GALLERY_MIN_CAPTIONS, GALLERY_CAPTION_SHARE: an article with this many figure captions holding this share of its text is a gallery */
const GALLERY_MIN_CAPTIONS = 3;
const GALLERY_CAPTION_SHARE = 0.4;

/**
 * isGallery: the article is a picture gallery or a listicle of slides ("84. Alex From A Clockwork
 * Orange" and a paragraph under each picture): its text is mostly in figure captions, and those are
 * then the article, not descriptions of its pictures.
 */
function isGallery(root: DomNode): boolean {
  const captions = (root as unknown as DomElement).querySelectorAll?.("figcaption") ?? [];
  if (captions.length < GALLERY_MIN_CAPTIONS) return false;
  let chars = 0;
  for (let i = 0; i < captions.length; i++) chars += countChars(captions[i]!.textContent ?? "");
  return chars >= GALLERY_CAPTION_SHARE * countChars(root.textContent ?? "");
}

/** captionTest: isCaption for the article under `root`, except that a gallery's captions are its text. */
export function captionTest(root: DomNode, stats: Map<DomNode, TextStats>): (el: DomElement) => boolean {
  if (isGallery(root)) return (el) => isEnlargeLink(el) || (!inPictureFigure(el) && el.nodeName.toLowerCase() !== "figcaption" && isCaption(el, stats));
  const described = altCaptions(root);
  return (el) => described.has(el) || isEnlargeLink(el) || isCaption(el, stats);
}

/**
 * ENLARGE: the words of a lightbox button beside a picture ("Vergrößern", "Zum Vergrößern bitte
 * anklicken", "Click to enlarge", "Agrandir", "Ampliar", "Powiększ"), at the start of a caption, or a
 * step picture's toggle ("Bild anzeigen", "Bild schließen").
 */
const ENLARGE = /^\s*(?:(?:zum |bild |foto )?vergrößern(?: bitte)?(?: (?:an)?klicken)?|(?:click (?:here )?to |)enlarge(?: image| photo| picture)?|view (?:larger|full[- ]size)(?: image)?|bild (?:anzeigen|schließen)|(?:show|hide|close) (?:image|picture|photo)|agrandir(?: l'image)?|ampliar(?: imagen| foto)?|powiększ(?: zdjęcie)?|ingrandisci|vergroten)\s*[:.]?\s*/i;
/** ENLARGE_MAX_CHARS: the longest lightbox button (non-space characters) */
const ENLARGE_MAX_CHARS = 32;

/** isEnlargeLink: a link (or a short text block) that is only a lightbox button's words, without the picture. */
function isEnlargeLink(el: DomElement): boolean {
  const tag = el.nodeName.toLowerCase();
  if (tag !== "a" && tag !== "span" && tag !== "button" && tag !== "p") return false;
  const text = el.textContent ?? "";
  if (countChars(text) > ENLARGE_MAX_CHARS) return false;
  const match = ENLARGE.exec(text);
  // The button may wrap the picture itself ("click to enlarge <img>"): the picture stays.
  return match !== null && match[0].length === text.length && el.querySelectorAll("img, picture").length === 0;
}

/** ALT_CAPTION_MIN_CHARS: an image's alt text this long (non-space characters) is a sentence a caption can repeat; ALT_CAPTION_EXTRA_CHARS: what a caption adds to it (a credit) */
const ALT_CAPTION_MIN_CHARS = 15;
const ALT_CAPTION_EXTRA_CHARS = 120;
/** CAPTION_TEXT_TAGS: the elements a caption without markup is written in */
const CAPTION_TEXT_TAGS = new Set(["p", "div", "span", "small", "strong", "em", "sub", "i", "b"]);

/**
 * altCaptions finds the captions that repeat their picture's alt text: a short block just after the
 * image (or after the small wrapper it sits in, up to three levels) whose text opens with the alt
 * text ("Golf im TV: Die Übertragungszeiten ... (Foto: Getty)" under an image of that alt). Such a
 * caption describes the picture, like a figcaption; the image stays.
 */
function altCaptions(root: DomNode): Set<DomNode> {
  const found = new Set<DomNode>();
  const images = (root as unknown as DomElement).querySelectorAll?.("img[alt]") ?? [];
  // the article's first paragraph with text, looked up once for every caption box (isCaptionThenCredits)
  let first: DomElement | null | undefined;
  const firstParagraph = () => (first === undefined ? (first = firstTextParagraph(root)) : first);
  for (let i = 0; i < images.length; i++) {
    const img = images[i]!;
    const alt = normalizeSpace(img.getAttribute("alt") ?? "").toLowerCase();
    const altChars = countChars(alt);
    if (altChars < ALT_CAPTION_MIN_CHARS) continue;
    let node: DomElement = img;
    for (let up = 0; up < 3 && node !== root; up++) {
      for (let next = nextElement(node), seen = 0; next && seen < 3; next = nextElement(next), seen++) {
        if (!CAPTION_TEXT_TAGS.has(next.nodeName.toLowerCase())) continue;
        // A lightbox button in front of the caption ("Vergrößern Kommt das iPhone 14 ohne Notch?") is not its text.
        const text = normalizeSpace(next.textContent ?? "").toLowerCase().replace(ENLARGE, "");
        if (!text) continue;
        if (countChars(text) <= altChars + ALT_CAPTION_EXTRA_CHARS && text.startsWith(alt) && next.querySelectorAll("img, picture, video, table").length === 0 && (next.querySelectorAll("p + p").length === 0 || isCaptionThenCredits(next, firstParagraph()))) found.add(next);
        break;
      }
      const parent = node.parentNode as DomElement | null;
      if (!parent || parent.nodeType !== 1 || countChars(parent.textContent ?? "") > altChars + ALT_CAPTION_EXTRA_CHARS) break;
      node = parent;
    }
  }
  return found;
}

/**
 * isCaptionThenCredits: a caption box of paragraphs (its first the caption, as altCaptions found it)
 * whose later paragraphs are each a picture's credit ("© Jon Prosser & Renders by Rian", "Foto: dpa"),
 * set after the article's first paragraph. A box whose second paragraph says more (a product's
 * description) is text, and so is one that holds the article's first paragraph: under the top
 * picture, news sites write their lead as its caption (elespectador's "La Operación Orión ...").
 */
function isCaptionThenCredits(box: DomElement, firstParagraph: DomElement | null): boolean {
  const paragraphs = box.querySelectorAll("p");
  if (paragraphs.length < 2 || paragraphs[0] === firstParagraph) return false;
  for (let i = 1; i < paragraphs.length; i++) {
    const text = normalizeSpace(paragraphs[i]!.textContent ?? "");
    if (countChars(text) > PHOTO_CREDIT_MAX_CHARS || !(/^\s*(?:©|\(c\))/i.test(text) || PHOTO_CREDIT.test(text) || SOURCE_LINE.test(text))) return false;
  }
  return true;
}

/** firstTextParagraph: the page's first <p> with text, or null */
function firstTextParagraph(root: DomNode): DomElement | null {
  const all = (root as unknown as DomElement).querySelectorAll?.("p") ?? [];
  for (let i = 0; i < all.length; i++) if (normalizeSpace(all[i]!.textContent ?? "")) return all[i]!;
  return null;
}

/** inPictureFigure: the element sits (within three levels) in a <figure> that holds a picture. */
function inPictureFigure(el: DomElement): boolean {
  let p = el.parentNode;
  for (let up = 0; up < 3 && p && p.nodeType === 1; up++, p = p.parentNode) {
    if (p.nodeName.toLowerCase() === "figure") return (p as DomElement).querySelectorAll("img, picture").length > 0;
  }
  return false;
}

/** DATE_LINE_LABEL_CHARS: the words a date line adds to its <time> ("Updated:", "Published on"); DATE_LINE_MAX_CHARS: its whole length */
const DATE_LINE_LABEL_CHARS = 30;
const DATE_LINE_MAX_CHARS = 80;

/** isDateLine: a short block that is a <time> and a label around it (Readability turns such divs into paragraphs). */
export function isDateLine(el: DomElement): boolean {
  const times = Array.from(el.querySelectorAll("time")).filter((t) => !isDuration(t));
  if (times.length === 0) return false;
  let timeChars = 0;
  for (const time of times) timeChars += countChars(time.textContent ?? "");
  return countChars(el.textContent ?? "") - timeChars <= DATE_LINE_LABEL_CHARS;
}

/**
 * DATE_TOKEN: a written date or clock time ("23.10.2018", "05. Februar 2020", "May 6, 2014",
 * "2020-03-04", "3:59 PM", "19:49 Uhr"); MONTH_OR_DAY: month and weekday names of the languages seen.
 */
const DATE_TOKEN = /\b\d{1,2}\.\s?\d{1,2}\.\s?(?:\d{4}|\d{2})\b|\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}\/\d{1,2}\/\d{2,4}\b|\b\d{1,2}:\d{2}(?::\d{2})?(?:\s?(?:am|pm|uhr|h)\b)?|\b\d{1,2}\.?\s+\p{L}{3,}\.?\s+\d{4}\b|\b\p{L}{3,}\.?\s+\d{1,2},?\s+\d{4}\b/giu;
/** DATE_STAMP_LABEL_CHARS: the label a date stamp may carry ("Aktualisiert am", "Last Modified:", "Erstellt am Dienstag") */
const DATE_STAMP_LABEL_CHARS = 28;
/** DATE_STAMP_MAX_CHARS: a date stamp is one short line (non-space characters) */
const DATE_STAMP_MAX_CHARS = 50;

/**
 * isDateStamp: a short line that is a date or a time with at most a short label ("23.10.2018",
 * "Erstellt am Dienstag 6. Mai 2014", "Last Modified: 2019-05-02", "3:59 PM"), the page's filing
 * stamp rather than its text; a sentence that holds a date is longer or has more words around it.
 */
export function isDateStamp(text: string): boolean {
  const chars = countChars(text);
  if (chars === 0 || chars > DATE_STAMP_MAX_CHARS) return false;
  const rest = text.replace(DATE_TOKEN, "");
  if (rest.length === text.length) return false;
  return countChars(rest.replace(/[|·•,–—-]/g, "")) <= DATE_STAMP_LABEL_CHARS && !/[.!?]\s+\p{Lu}/u.test(rest);
}

/** isDuration: a <time> that is a duration (a recipe's "15 Min", datetime="PT15M"), content rather than a date stamp. */
function isDuration(time: DomElement): boolean {
  return /^P/i.test(time.getAttribute("datetime") ?? "") || /(?:prep|cook|total|perform)Time|duration/i.test(time.getAttribute("itemprop") ?? "");
}

/** insideProse: the element sits inside a paragraph, list item, cell, quote or definition, not directly in a block (BLOCK_LIKE). */
export function insideProse(el: DomElement): boolean {
  for (let p = el.parentNode; p && p.nodeType === 1; p = p.parentNode) {
    const tag = p.nodeName.toLowerCase();
    if (tag === "p" || tag === "li" || tag === "td" || tag === "th" || tag === "blockquote" || tag === "dd") return true;
    if (BLOCK_LIKE.has(tag)) return false;
  }
  return false;
}

const BLOCK_LIKE = new Set(["div", "section", "article", "header", "footer", "main", "body", "aside", "figure"]);
