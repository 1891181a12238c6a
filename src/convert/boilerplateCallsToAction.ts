/**
 * boilerplateCallsToAction: short blocks that ask the reader to do something other than read on:
 * subscribe, follow, print, support the site, read another page ("Weiterlesen", "» ..." teasers) or
 * take an affiliate offer (offer boxes closed by their button).
 */
import { HEADING_TAGS, isRelatedLabel, READ_ALSO, TEASER_MIN_CHARS } from "./boilerplateRelated";
import { contentOf, countChars, normalizeSpace, type TextStats } from "./boilerplateText";
import type { DomElement, DomNode } from "./htmlDom";

/** CTA_MAX_CHARS: a call to action is one short paragraph (non-space characters) */
const CTA_MAX_CHARS = 250;
/** SUBSCRIBE_WORDS: asking the reader to subscribe or sign up, in the languages of the pages seen */
export const SUBSCRIBE_WORDS = /\b(?:subscribe|subscription|subscribers?|sign(?:ing)? up|newsletter|abonnieren|abonnement|abonnez|abónate|suscr[ií]b[ea]|suscripci[oó]n|hazte miembro|assine|assinatura|subskrypc\p{L}*|prenumer\p{L}*|iscriviti)\b/iu;

/**
 * QUOTED: a quotation in the text, between straight or typographic quotation marks ("...", „...“,
 * “...”, «...», »...«), of at most 300 characters each.
 */
const QUOTED = /"[^"]{1,300}"|„[^“”"]{1,300}[“”"]|“[^”]{1,300}”|«[^»]{1,300}»|»[^«]{1,300}«/g;

/**
 * withoutQuotes: the text with its quotations left out. A word that asks to subscribe inside quotation
 * marks is someone's reported words in the article ("Kein Abonnement erforderlich", the NASA wrote
 * of its streaming service), not the site asking the reader.
 */
function withoutQuotes(text: string): string {
  return text.replace(QUOTED, " ");
}

/** FOLLOW_VERB, FOLLOW_PLACE: asking the reader to follow the site, join its channel or install its app ("Follow us on Twitter", "Únete a nuestro canal de Telegram") */
const FOLLOW_VERB = /\b(?:follow|síguenos|siguenos|sigue|siga|folgen sie|folge uns|folgt uns|suivez|seguici|segue|únete|unete|join|download|descarga|descargue|baixe|installier\p{L}*|lade)\b|\b(?:our|nuestro|nuestra|unser\p{L}*|notre|nosso)\s+(?:canal|channel|kanal|chaîne)\b/iu;
const FOLLOW_PLACE = /\b(?:twitter|facebook|instagram|telegram|whatsapp|youtube|tiktok|linkedin|google news|apps?|canal|channel|kanal)\b/i;

/**
 * PRINT_ACTION: a print button's label, alone or before the buttons beside it ("Rezept drucken Bei
 * Pinterest speichern", "drukuj", "Print this article", "Imprimir"); PRINT_MAX_CHARS: such a row is short
 */
const PRINT_ACTION = /^(?:(?:rezept|artikel|seite|beitrag|recipe|article|page|this page)\s+)?(?:drucken|ausdrucken|print(?:\s+(?:this|recipe|article|page)(?:\s+(?:article|page|recipe))?)?|drukuj|wydrukuj|imprimir|imprimer|stampa|afdrukken|skriv ut)(?:$|\s+(?:\S+\s+){0,3}(?:speichern|teilen|merken|save|share|pin)$)/i;
const PRINT_MAX_CHARS = 40;
/**
 * TOGGLE_ACTION: the words of an accordion's toggle ("Quellen ausblenden", "Mehr anzeigen", "Show
 * sources", "Hide details"): a block of only these words is a button, the box it opens stays
 */
const TOGGLE_ACTION = /^(?:(?:alle )?(?:quellen|quellenangaben|mehr|weniger|details|inhaltsverzeichnis|einzelnachweise)\s+(?:anzeigen|ausblenden|einblenden|verbergen|zeigen)|(?:show|hide) (?:all )?(?:sources|references|more|less|details|table of contents))\s*[+−-]?$/i;

/** isFollowUs: the text asks the reader to follow the site, join its channel or install its app (FOLLOW_VERB and FOLLOW_PLACE). */
export function isFollowUs(text: string): boolean {
  return FOLLOW_VERB.test(text) && FOLLOW_PLACE.test(text);
}

/**
 * MORE_LINK: the text of a link that leads on to another page's text ("Weiterlesen", "Read more",
 * "Mehr erfahren", "Lire la suite", "Czytaj dalej"); a block that is only such a link is a teaser's
 * tail or a button, never the article's text.
 */
const MORE_LINK = /^(?:jetzt |hier )?(?:weiter ?lesen|mehr lesen|mehr erfahren|mehr|mehr infos?|mehr entdecken|mehr zum (?:inhalt|thema)|zum (?:ganzen )?(?:artikel|beitrag)|read (?:more|on)|read the (?:full )?(?:story|article|post)|continue reading|learn more|more|see more|find out more|more info|lire la suite|lire plus|en savoir plus|leer más|seguir leyendo|ver más|leia mais|saiba mais|continua(?: a leggere)?|leggi (?:tutto|di più|l'articolo)|czytaj (?:dalej|więcej)|więcej|lees (?:verder|meer)|meer lezen)\s*(?:…|\.{3}|»|›|>|→|\+)?$/i;

/**
 * DOWNLOAD_LINK: a link that offers a file ("Porträtfotos ... zum Download", "Pobierz pdf", "Download
 * references"): set apart as a block of its own it is a button beside the text, not a sentence of it.
 */
const DOWNLOAD_LINK = /\b(?:download\p{L}*|herunterladen|descarga\p{L}*|descargar|télécharg\p{L}*|scarica\p{L}*|pobierz|baixe|baixar)\b/iu;
/** MORE_LINK_MAX_CHARS, DOWNLOAD_LINK_MAX_CHARS: the longest such link block (non-space characters) */
const MORE_LINK_MAX_CHARS = 30;
const DOWNLOAD_LINK_MAX_CHARS = 100;

/**
 * READING_TIME: a teaser's reading time beside its "read more" link ("5 Minuten", "3 min read",
 * "Lesezeit: 4 Min."), the only words such a button row adds to its link
 */
const READING_TIME = /^(?:(?:lesezeit|reading time|tiempo de lectura|temps de lecture)\s*:?\s*)?(?:ca\.\s*)?\d{1,3}\s*(?:min(?:uten?|utes?|s)?\.?|minuten?)(?:\s+(?:read|lesezeit|lesen|de lectura|de lecture))?$/i;

/** isMoreLink: the block's whole text is one link that reads MORE_LINK (with at most a READING_TIME beside it) or offers a download. */
function isMoreLink(el: DomElement, s: TextStats): boolean {
  if (s.text > DOWNLOAD_LINK_MAX_CHARS) return false;
  const links = el.querySelectorAll("a");
  if (links.length !== 1) return false;
  const text = normalizeSpace(links[0]!.textContent ?? "");
  if (s.linkText !== s.text) {
    const rest = normalizeSpace((el.textContent ?? "").replace(links[0]!.textContent ?? "", " "));
    return s.linkText > 0 && MORE_LINK.test(text) && countChars(text) <= MORE_LINK_MAX_CHARS && READING_TIME.test(rest);
  }
  return (s.text <= MORE_LINK_MAX_CHARS && MORE_LINK.test(text)) || DOWNLOAD_LINK.test(text);
}

/**
 * ARROW_TEASER: a link to another story set between arrows or behind one (">> Wegen Corona: ... <<",
 * "→ Die besten Tipps"): a block that is only such a link is a promotion set into the article, not
 * its text. The arrow is followed by a space. A single "»" is not one: German quotes open with it,
 * and computerbild's labels count its "» Zum Angebot: ..." line as the article's.
 */
const ARROW_TEASER = /^(?:>>|→|►|▶|➔|➜)\s/;

/**
 * SIGNUP_LINK: a link that asks to click and register, subscribe or order ("Einfach hier klicken und
 * für das digitale DHB registrieren!", "Click here to subscribe"): the box it closes is the site's
 * own promotion
 */
const SIGNUP_LINK = /\b(?:hier klicken|click here)\b.{0,60}\b(?:registrieren|anmelden|abonnieren|bestellen|register|subscribe|sign up)\b/i;

/** isPromotionLink: the block's whole text is one link behind an arrow (ARROW_TEASER), or it closes with a SIGNUP_LINK. */
function isPromotionLink(el: DomElement, s: TextStats): boolean {
  const links = el.querySelectorAll("a");
  if (links.length !== 1) return false;
  const text = normalizeSpace(links[0]!.textContent ?? "");
  if (s.linkText === s.text && s.text >= TEASER_MIN_CHARS && ARROW_TEASER.test(text)) return true;
  return SIGNUP_LINK.test(text);
}

/**
 * OFFER_ACTION: the text of an affiliate offer's button ("Apply now" under a credit card, "View deal",
 * "Zum Angebot"): the box it closes is an offer set into the article, not its text. A shop's own
 * "Buy now" is not one of them: on a product page the editions it sells are the page's content.
 */
const OFFER_ACTION = /^(?:apply (?:now|here|today|online)|get (?:this |the )?deal|(?:view|see) (?:the )?deal|check (?:the )?price|jetzt (?:beantragen|sichern)|zum angebot|zum deal|voir l'offre|ver oferta|vai all'offerta)\s*[»›>→]?$/i;
/** OFFER_MAX_CHARS: the longest offer box (non-space characters): a product's name, its figures, a few highlights */
const OFFER_MAX_CHARS = 1500;

/** OFFER_MAX_SHARE: an offer box is under half of the article's text (a page of offers is about them) */
const OFFER_MAX_SHARE = 0.5;

/**
 * offerBoxTest: a block (div, section) of at most OFFER_MAX_CHARS and OFFER_MAX_SHARE of `root`'s
 * text that closes with its own offer button and holds more than the button (a credit card's
 * name, bonus and terms); a button alone, as in a shop table's cell, stays.
 */
export function offerBoxTest(root: DomNode, stats: Map<DomNode, TextStats>): (el: DomElement) => boolean {
  const limit = Math.min(OFFER_MAX_CHARS, OFFER_MAX_SHARE * contentOf(stats, root));
  return (el) => {
    const tag = el.nodeName.toLowerCase();
    if (tag !== "div" && tag !== "section") return false;
    const s = stats.get(el);
    if (!s || s.text === 0 || s.text > limit) return false;
    const button = offerButtonChars(el);
    return button > 0 && s.text > 2 * button;
  };
}

/** offerButtonChars: the characters of the block's offer button (0 when it has none): one of its own children is a link that reads OFFER_ACTION, or holds only such a link. */
function offerButtonChars(el: DomElement): number {
  const kids = el.childNodes;
  for (let i = 0; i < kids.length; i++) {
    const kid = kids[i] as DomElement;
    if (kid.nodeType !== 1) continue;
    const tag = kid.nodeName.toLowerCase();
    const links = tag === "a" ? [kid] : kid.querySelectorAll("a");
    if (links.length !== 1) continue;
    const text = normalizeSpace(links[0]!.textContent ?? "");
    if (text.length <= 30 && OFFER_ACTION.test(text) && normalizeSpace(kid.textContent ?? "") === text) return countChars(text);
  }
  return 0;
}

/**
 * isCallToAction: a short paragraph that asks the reader to subscribe or sign up (paywall and
 * newsletter boxes inside the article), that is a print button's row ("Rezept drucken"), or that
 * points to other articles ("Lesen Sie auch: <link>", a lone "Weiterlesen" or download link).
 */
export function isCallToAction(el: DomElement, stats: Map<DomNode, TextStats>): boolean {
  const tag = el.nodeName.toLowerCase();
  const heading = HEADING_TAGS.has(tag);
  if (tag !== "p" && tag !== "div" && tag !== "blockquote" && !heading) return false;
  const s = stats.get(el);
  if (!s || s.text === 0 || s.text > CTA_MAX_CHARS) return false;
  const text = normalizeSpace(el.textContent ?? "");
  // A quote set apart that points to another article ("PUEDES VER: <link>") is a teaser, not a quote.
  if (tag === "blockquote") return READ_ALSO.test(text) && s.linkText > 0;
  // A heading over the box is the box's title: "Unterstütze RosaMag!", "Artikel gefallen? Vergiss nicht zu teilen!"
  if (heading) return s.text <= ENGAGE_HEADING_MAX_CHARS && ENGAGE_ASK.test(text);
  if (tag === "div" && el.querySelectorAll("p, div, ul, ol, table, h1, h2, h3, h4, h5, h6").length > 0) return false;
  if (isMoreLink(el, s) || isPromotionLink(el, s)) return true;
  if (SUBSCRIBE_WORDS.test(withoutQuotes(text)) || isFollowUs(text) || ENGAGE_ASK.test(text)) return true;
  if (s.text <= PRINT_MAX_CHARS && (PRINT_ACTION.test(text) || TOGGLE_ACTION.test(text))) return true;
  // A paragraph that is only a "related" label ("À lire aussi", "Auch lesen:") acts as its heading.
  if (isRelatedLabel(text)) return true;
  return READ_ALSO.test(text) && s.linkText > 0;
}

/**
 * ENGAGE_ASK: a line that asks the reader for something other than the article's subject, at its
 * start: to support or donate to the site, to rate or share the article, to write in, to read on
 * behind a login, not to miss its news ("If you enjoyed reading this post", "Gefällt dir unser
 * Klettermagazin?", "Valora esta noticia", "Pour lire la suite", "Verpasse keine News").
 */
const ENGAGE_ASK = new RegExp(
  "^(?:if you (?:enjoyed|liked|like|appreciate)\\b|(?:did you )?(?:enjoy|like)(?:d)? (?:this|our) (?:article|post|story|magazine)|we want to hear what you think|submit (?:your|a) letter|" +
    "gefällt (?:dir|ihnen|euch) (?:unser|unsere|dieser|diese|der|das)\\b|(?:artikel|beitrag) gefallen\\?|unterstütze (?:uns|unser\\p{L}*|\\p{Lu}\\p{L}*)|unterstützen sie (?:uns|unser\\p{L}*)|verpasse keine|(?:\\d{4} )?nichts mehr (?:verpassen|versäumen)|" +
    "support (?:us|our|independent)\\b|valora esta|califica esta|apoya (?:nuestro|el periodismo)|pour lire la suite|soutenez(?:-nous)?\\b|" +
    "get (?:the latest|our|breaking) (?:news|updates|stories|headlines)\\b|download (?:our|the \\S+) app\\b|become a (?:member|subscriber|supporter)\\b|werden sie (?:jetzt )?mitglied|werde (?:jetzt )?mitglied|" +
    "(?:kennt ihr|kennst du|kennen sie) (?:schon |bereits )?unser\\p{L}*|(?:have you|did you) (?:seen|tried|heard (?:of|about)) our\\b|check out our\\b)",
  "iu",
);
/** ENGAGE_HEADING_MAX_CHARS: a box's title that asks the reader for something is short (non-space characters) */
const ENGAGE_HEADING_MAX_CHARS = 80;
