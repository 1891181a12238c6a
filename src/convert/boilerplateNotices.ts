/**
 * boilerplateNotices: short blocks about the page, not part of its text: copyright lines, ad labels,
 * comment counters and prompts, view counters, filing and tags lines, suggested citations, the site's
 * own disclosures and notices, and consent placeholders for embedded content (isPageNotice).
 */
import { insideProse, isDateStamp, SOURCE_LINE } from "./boilerplateCaptions";
import { countChars, normalizeSpace, type TextStats } from "./boilerplateText";
import type { DomElement, DomNode } from "./htmlDom";

/** NOTICE_MAX_CHARS: a notice (copyright line, ad label, comment counter, filing line) is short (non-space characters) */
const NOTICE_MAX_CHARS = 300;
/**
 * CITATION_NOTICE: the site's suggested citation of the post, a label then the reference
 * ("SUGGESTED CITATION Sauer, Heiko: ...", "Zitiervorschlag: ...", "Cite this article as: ...");
 * the label must be followed by a colon or by the author's name, so a sentence about citing stays.
 */
const CITATION_NOTICE = /^(?:suggested citation|zitiervorschlag|zitierhinweis|citation suggérée|cita sugerida|cite this (?:article|post|page) as|how to cite this (?:article|post|page))\s*(?::|\p{Lu}[\p{L}'’-]+,)/iu;
/** SITE_NOTICE_MAX_CHARS: a site's disclosure or notice runs to a few sentences, no more */
const SITE_NOTICE_MAX_CHARS = 800;
/** RIGHTS_NOTICE: a copyright line in the languages of the pages seen ("© 2020 CBS Interactive Inc.", "Alle Rechte vorbehalten") */
const RIGHTS_NOTICE = /^\s*(?:©|\(c\)\s*\d{4}|copyright\b)|all rights reserved|alle rechte vorbehalten|todos los derechos reservados|tous droits réservés|tutti i diritti riservati|wszelkie prawa zastrzeżone|todos os direitos reservados|copyrighted property|materiał chroniony prawem/i;
/** AD_LABEL: the label that marks an advertisement ("Anzeige", "- Anzeige -", "ANZEIGE - ...", "Publicidad"), alone or opening the block */
const AD_LABEL = /^[\s\-–—|*]*(?:anzeige|werbung|advertisement|advertising|publicidad|publicité|pubblicità|reklama|sponsored|gesponsert)\s*(?:$|[-–—:|,(])/i;
/** COMMENT_NOTICE: a comment counter or prompt ("Kommentare insgesamt: 0", "Keine Kommentare", "Leave a reply", "Comments are closed") */
const COMMENT_NOTICE = new RegExp(
  "^(?:\\d+\\s+)?(?:kommentare?|comments?|comentarios?|commentaires?|commenti|komentarz\\p{L}*)(?:\\s+(?:insgesamt|total|geschlossen|closed|are closed|sind geschlossen))?\\s*:?\\s*\\d*$|" +
    "^(?:keine|no|sin|aucun|nessun|brak)\\s+(?:kommentare|comments|comentarios|commentaires?|commenti|komentarzy)|" +
    "^(?:leave a (?:comment|reply)|schreibe einen kommentar|hinterlasse einen kommentar|deja (?:un|tu) comentario|laisser un commentaire|lascia un commento)",
  "iu",
);
/** VIEW_COUNTER: a post's view counter ("(Visited 215 times, 55 visits today)", "Views: 184", "37 views", "Aufrufe: 12"); VIEW_COUNTER_MAX_CHARS: it is one short line (non-space characters) */
const VIEW_COUNTER = /^\(?(?:visited|viewed|gelesen|aufgerufen)\s+[\d.,]+\s*(?:times|mal|x)\b|^(?:aufrufe|views|hits|zugriffe|visualizaciones|vues|visite|lecturas)\s*:?\s*[\d.,]*$|^[\d.,]+\s+(?:views|aufrufe|hits|zugriffe|lecturas|vues|visualizaciones|visite)$|^(?:\d+\s*x|[\d.,]+\s+mal)\s+gelesen$/i;
const VIEW_COUNTER_MAX_CHARS = 50;
/**
 * POSTED_LINE: a blog theme's filing footer ("This entry was posted on <date> and is filed under
 * <categories>. You can follow any responses ...", "Der Beitrag wurde am ... veröffentlicht")
 */
const POSTED_LINE = /^(?:this (?:entry|post) was posted|(?:der|dieser) (?:beitrag|eintrag|artikel) wurde (?:am|veröffentlicht|publiziert)|cette entrée a été publiée|esta entrada (?:fue publicada|se publicó)|questa voce è stata pubblicata|ten wpis (?:został )?opublikowan)/i;
/** POSTED_LINE_MAX_CHARS: such a footer, with its sentences on comments and trackbacks, is this long at most (non-space characters) */
const POSTED_LINE_MAX_CHARS = 500;
/** COMMENT_WORD, LOGIN_WORD: a line that says one must log in to comment ("Sie müssen eingeloggt sein, um Kommentare zu schreiben", "You must be logged in to post a comment") */
const COMMENT_WORD = /\b(?:kommentar\p{L}*|kommentier\p{L}*|comment\p{L}*|comentar\p{L}*|commentaire\p{L}*|commentare|komentarz\p{L}*)/iu;
const LOGIN_WORD = /\b(?:eingeloggt|angemeldet|einloggen|anmelden|logged in|log in|login|sign in|signed in|registriert|registered|iniciar sesión|inicia sesión|connecté|connectez|zalogowany|zaloguj)\b/iu;
/** POST_FOOTER: a blog post's footer line of feeds and trackbacks ("Kommentarfeed | Kommentare geschlossen | Trackback-URL") */
const POST_FOOTER = /\b(?:trackback(?:-url)?|kommentarfeed|comments? (?:rss )?feed|rss 2\.0 feed)\b/i;
/** POST_FOOTER_MAX_CHARS: such a footer line is short (non-space characters); a paragraph that explains trackbacks is longer */
const POST_FOOTER_MAX_CHARS = 120;
/** TAXONOMY_PATH: a link to a category, tag or author page ("/category/linux/", "/tag/bilt/", "/author/ts/") */
const TAXONOMY_PATH = /\/(?:tags?|[\w-]*category|[\w-]*categories|kategorie|kategorien|categoria|categorie|categorías?|author|authors|autor|autoren|auteur|schlagwort|schlagworte|stichwort)\//i;
/**
 * FILING_MAX_OWN_CHARS: a filing line ("Posted on <date> in <category>, <category>") has this much
 * text of its own at most, beside its links; FILING_SHORT_CHARS: with one such link (a byline to
 * the author page, "Posted in <category>"), this much
 */
const FILING_MAX_OWN_CHARS = 120;
const FILING_SHORT_CHARS = 50;
/** INLINE_TAG_PATH: tag pages, which news sites also link from sentences of the article: one such link counts only on a line of FILING_TAG_CHARS */
const INLINE_TAG_PATH = /\/(?:tags?|schlagworte?|stichwort)\//i;
const FILING_TAG_CHARS = 30;

/**
 * isPageNotice: a short block that is about the page, not part of its text: a copyright line, an
 * advertisement's label, a comment counter or prompt, or a filing line whose links go to the site's
 * category, tag or author pages ("Erstellt am ... und abgelegt unter Linux, Tutorials").
 */
export function isPageNotice(el: DomElement, stats: Map<DomNode, TextStats>): boolean {
  const tag = el.nodeName.toLowerCase();
  // A layout table of one short line ("Kommentare insgesamt: 0" in a CMS's table under the entry) is a block too.
  if (tag !== "p" && tag !== "div" && tag !== "small" && tag !== "span" && tag !== "section" && tag !== "table") return false;
  const s = stats.get(el);
  if (!s || s.text === 0 || s.text > POSTED_LINE_MAX_CHARS) return false;
  if (tag !== "p" && el.querySelectorAll("p, ul, ol, table, h1, h2, h3, h4, h5, h6, blockquote, pre").length > 0) return false;
  if (tag === "span" && insideProse(el)) return false;
  const text = normalizeSpace(el.textContent ?? "");
  // The theme's filing footer also says how to follow the comments and trackbacks: it runs longer.
  if (POSTED_LINE.test(text)) return true;
  // A site's notice (a disclosure, a warning in capitals) runs to a few sentences; a block longer than that
  // (a wrapper of an article on sponsorship that says "this article is ... sponsored") is text.
  if (isConsentPlaceholder(text, s) || (text.length <= SITE_NOTICE_MAX_CHARS && isSiteNotice(lineText(el)))) return true;
  if (s.text > NOTICE_MAX_CHARS) return false;
  if (RIGHTS_NOTICE.test(text) || AD_LABEL.test(text) || COMMENT_NOTICE.test(text) || CITATION_NOTICE.test(text) || (s.text <= VIEW_COUNTER_MAX_CHARS && VIEW_COUNTER.test(text))) return true;
  if (isFilingRow(text)) return true;
  // A tags line: its label, then links to topic pages ("Themen: Pressefreiheit", "Tags: EU, Wahlen").
  const tagsLabel = TAGS_LABEL.exec(text);
  if (tagsLabel && s.linkText > 0 && s.text - s.linkText <= countChars(tagsLabel[0]) + FILING_TAG_CHARS) return true;
  if (POST_FOOTER.test(text) && s.text <= POST_FOOTER_MAX_CHARS && s.linkText > 0) return true;
  if (COMMENT_WORD.test(text) && LOGIN_WORD.test(text)) return true;
  if (s.text - s.linkText > FILING_MAX_OWN_CHARS) return false;
  const links = el.querySelectorAll("a[href]");
  let taxonomy = 0;
  let tags = 0;
  for (let i = 0; i < links.length; i++) {
    const href = links[i]!.getAttribute("href") ?? "";
    if (TAXONOMY_PATH.test(href)) taxonomy++;
    if (INLINE_TAG_PATH.test(href)) tags++;
  }
  if (taxonomy === 0 || taxonomy * 2 < links.length) return false;
  // A sentence of the article that links some of its names to tag pages ("<a>Dee Dee Myers</a> — a
  // White House press secretary for <a>Bill Clinton</a> — is exiting ...") is no filing line.
  if (taxonomy >= 2 && isSentenceAroundLinks(el)) return false;
  return taxonomy >= 2 || s.text - s.linkText <= (tags > 0 ? FILING_TAG_CHARS : FILING_SHORT_CHARS);
}

/**
 * CONSENT_ASK, CONSENT_EMBED, CONSENT_BLOCKED: the placeholder a page shows instead of an embedded
 * post, video or map until the reader consents ("Wir respektieren deine Privatsphäre und stellen
 * deshalb ohne dein Einverständnis keine Verbindung zu Twitter her", "This content is blocked.
 * Accept cookies to view it", "Externer Inhalt: ... erst nach Ihrer Zustimmung geladen"): it speaks
 * of consent, cookies or privacy settings, of a third party's content, and of showing or loading it.
 */
const CONSENT_ASK = /\b(?:einverständnis|einwilligung|zustimmung|zustimmen|datenschutz\p{L}*|cookies?|consent|privacy|akzeptier\p{L}*|accept\p{L}*|consentimiento|consentement|acepta\p{L}*|aceptar|privacidad|confidentialité|autoriz\p{L}*)\b/iu;
const CONSENT_EMBED = /\b(?:externe[nrms]?|external|third[- ]party|drittanbieter\p{L}*|eingebettete?[nrms]?|embedded|embed|inhalte?|content|contenido|contenu|twitter|youtube|instagram|facebook|vimeo|spotify|soundcloud|podigee|tiktok|google maps|maps|social[- ]media(?:-\p{L}+)?|datawrapper|video|videos|podcast)\b/iu;
const CONSENT_BLOCKED = /\b(?:blockiert|blocked|bloqueado|bloqué|nicht angezeigt|not (?:be )?(?:shown|displayed|loaded)|keine verbindung|verbindung zu|geladen|laden|load(?:ed)?|anzeigen|angezeigt|show|display(?:ed)?|aktivier\p{L}*|enable|activate|freigeben|zulassen|allow|mostrar|cargar|afficher|charger)\b/iu;
/** CONSENT_MAX_CHARS: such a placeholder is a few sentences (non-space characters) */
const CONSENT_MAX_CHARS = 400;
/** CONSENT_BUTTON: the button under the placeholder ("Datenschutzeinstellungen verwalten", "Inhalt laden", "Accept cookies") */
const CONSENT_BUTTON = /^(?:(?:datenschutz|privacy|cookie|consent)[- ]?(?:einstellungen|settings|preferences)(?: (?:verwalten|ändern|anpassen|manage|öffnen))?|(?:manage|change|open) (?:privacy|cookie|consent) (?:settings|preferences)|(?:externe[nrm]? )?inhalte? (?:laden|anzeigen|aktivieren|entsperren)|(?:load|show|view|enable|unblock) (?:the )?(?:external )?(?:content|video|post|tweet|map)|(?:alle )?(?:cookies )?(?:akzeptieren|zustimmen)(?: und (?:laden|anzeigen|fortfahren))?|accept(?: all)?(?: cookies)?(?: and (?:load|continue|show))?|aceptar(?: cookies)?|accepter(?: les cookies)?)$/i;
const CONSENT_BUTTON_MAX_CHARS = 60;

/** isConsentPlaceholder: the text is a consent placeholder for embedded content, or the button under one. */
function isConsentPlaceholder(text: string, s: TextStats): boolean {
  if (s.text <= CONSENT_BUTTON_MAX_CHARS && CONSENT_BUTTON.test(text.replace(/[.!›»→]+$/, "").trim())) return true;
  return s.text <= CONSENT_MAX_CHARS && CONSENT_ASK.test(text) && CONSENT_EMBED.test(text) && CONSENT_BLOCKED.test(text) && CONSENT_SETTINGS.test(text);
}
/** CONSENT_SETTINGS: the placeholder sends the reader to a choice (settings, a button, cookies, a consent) rather than reporting one */
const CONSENT_SETTINGS = /\b(?:einstellungen|settings|preferences|klick\p{L}*|click|button|schaltfläche|consent|einverständnis|einwilligung|zustimm\p{L}*|akzeptier\p{L}*|accept\p{L}*|aceptar|accepter|configuración|paramètres)\b/iu;

/**
 * PAID_WORDS, DISCLOSING: a disclosure of sponsored content or affiliate links ("Diese Seite zeigt
 * gesponserten Marketing-Inhalt ...", "*Disclosure: Some of the links above are affiliate links,
 * meaning ... Fandom will earn a commission"): it names paid content and says what the page does or earns.
 */
const PAID_WORDS = /\b(?:gesponsert\p{L}*|sponsored|sponsoris\p{L}*|patrocinad\p{L}*|affiliate(?:[- ]links?)?|provisions?-?links?|partner-?links?|werbelinks?|bezahlte[nr]? (?:inhalt|beitrag|partnerschaft)|paid (?:post|content|partnership)|marketing-inhalt\p{L}*|our advertisers|advertising partners?|unsere[rn]? werbepartner\p{L}*)\b/iu;
const DISCLOSING = /\b(?:disclosure|offenlegung|transparenz\p{L}*|commissions?|provision(?:en)?|earn|verdien\p{L}*|erhalten wir|we (?:may )?receive|(?:this|the) (?:page|post|article|site|content) (?:contains|shows|is|was)|diese[rs]? (?:seite|beitrag|artikel|inhalt) (?:zeigt|enthält|ist|wurde)|esta (?:página|nota) (?:contiene|es)|cette page contient)\b/iu;
/** SITE_NOTICE_LABEL: a notice set apart in capitals at a paragraph's start ("AVISO IMPORTANTE:", "WICHTIGER HINWEIS:", "DISCLAIMER:") */
const SITE_NOTICE_LABEL = /^\W*(?:AVISO(?: IMPORTANTE| LEGAL)?|AVVISO|WICHTIGER HINWEIS|HAFTUNGSAUSSCHLUSS|DISCLAIMER|IMPORTANT NOTICE|AVIS IMPORTANT|NOTE TO (?:OUR )?READERS)\s*[:!]/u;
/**
 * BROADCAST_NOTE, NETWORK_NOTE: a broadcaster's line on when the story was on air ("Über dieses
 * Thema berichtete Inforadio am 29. April 2020 um 09:53 Uhr", "Dieses Thema im Programm: ..."), and
 * a newsroom's line on the network it belongs to ("fr.de ist Teil des bundesweiten Ippen-Redaktionsnetzwerks")
 */
const BROADCAST_NOTE = /^(?:über dieses thema berichtete|dieses thema im programm|darüber berichtete)\b/i;
const NETWORK_NOTE = /^\W*\S+ (?:ist|is) (?:teil|part|ein teil|mitglied|a member) (?:des|der|of the|of) .{0,40}(?:netzwerk|network|verbund)\p{L}*\W*$/iu;

/** lineText: an element's text with a space where a <br> breaks its lines ("Hinweis zu der Meldung<br>Diese Seite ..."), spaces normalised. */
function lineText(el: DomElement): string {
  let text = "";
  const walk = (node: DomNode): void => {
    for (let i = 0; i < node.childNodes.length; i++) {
      const child = node.childNodes[i]!;
      if (child.nodeType === 3) text += child.textContent ?? "";
      else if (child.nodeType === 1) {
        if (child.nodeName.toLowerCase() === "br") text += " ";
        else walk(child);
      }
    }
  };
  walk(el);
  return normalizeSpace(text);
}

/** isSiteNotice: the text is one of the site's own notices: a disclosure of paid content, a notice in capitals, a broadcast or network line. */
function isSiteNotice(text: string): boolean {
  return (PAID_WORDS.test(text) && DISCLOSING.test(text)) || SITE_NOTICE_LABEL.test(text) || BROADCAST_NOTE.test(text) || NETWORK_NOTE.test(text);
}

/** TAGS_LABEL: the label of a tags line, in the languages of the pages seen */
const TAGS_LABEL = /^(?:tags?|themen|thema|topics?|schlagw(?:orte|örter)|stichw(?:orte|örter)|keywords|etiquetas|temas|mots-clés|tagi|tematy|argomenti)\s*:/i;

/** FILING_ROW_PART_CHARS: each part of a filing row ("1.12.2022 | Quelle: Shanghai Electric | solarserver.de © Solarthemen Media GmbH") is short (non-space characters) */
const FILING_ROW_PART_CHARS = 60;

/** isFilingRow: a line of two or more short parts set apart by bars or dots, one of them a date, a source or a copyright: the article's filing stamp, not its text. */
function isFilingRow(text: string): boolean {
  const parts = text.split(/\s[|•·]\s/).map((part) => part.trim()).filter(Boolean);
  if (parts.length < 2 || parts.some((part) => countChars(part) > FILING_ROW_PART_CHARS)) return false;
  return parts.some((part) => isDateStamp(part) || SOURCE_LINE.test(part) || /©|\(c\)\s*\d{4}/i.test(part) || VIEW_COUNTER.test(part));
}

/** SENTENCE_GAP_WORDS: this many words between two links to tag or category pages make the line a sentence; a filing line has its labels there ("und getaggt als", "in", ",") */
const SENTENCE_GAP_WORDS = 6;

/** isSentenceAroundLinks: somewhere between two of the element's links to tag or category pages run SENTENCE_GAP_WORDS words or more. */
function isSentenceAroundLinks(el: DomElement): boolean {
  let gap = -1;
  let longest = 0;
  const walk = (node: DomNode): void => {
    for (let i = 0; i < node.childNodes.length; i++) {
      const child = node.childNodes[i]!;
      if (child.nodeType === 3) {
        if (gap >= 0) gap += (child.textContent ?? "").split(/\s+/).filter((w) => /\p{L}{2,}/u.test(w)).length;
      } else if (child.nodeType === 1 && child.nodeName.toLowerCase() === "a") {
        if (TAXONOMY_PATH.test((child as DomElement).getAttribute("href") ?? "")) {
          if (gap >= 0) longest = Math.max(longest, gap);
          gap = 0;
        } else if (gap >= 0) gap += (child.textContent ?? "").split(/\s+/).filter((w) => /\p{L}{2,}/u.test(w)).length;
      } else if (child.nodeType === 1) walk(child);
    }
  };
  walk(el);
  return longest >= SENTENCE_GAP_WORDS;
}
