/**
 * The issuer of a document that does not label it ("Seller: ..."): invoices and receipts print
 * their issuer's name at the top, in the sender line above the address window ("Kraxi GmbH ·
 * Flugzeugallee 17 · 12345 Papierfeld"), again in the footer beside its bank and tax numbers, and
 * write their e-mail and web addresses under its name. The customer's name sits under a "Bill to",
 * "Käufer" or "Client" label. findIssuer scores every name-like line and cell by that evidence.
 */
import { conceptOf, splitWords } from "./labels";
import type { Line, ParsedDocument } from "./parse";

export interface Issuer {
  name: string;
  /** confidence: 0.4..0.75 from layout alone; ISSUER_SETTLED when the document prints the name twice, as its letterhead says an issuer's */
  confidence: number;
  /** ocrSettled: OCR read the name twice alike (on top and in the receipt's thank-you line), so its letters are settled */
  ocrSettled: boolean;
  /** evidence: what settled or weighed the pick (for the bench's diagnostics) */
  evidence: { score: number; margin: number; printed: number; legalForm: boolean; top: boolean };
  start: number;
  end: number;
}

/** LEGAL_FORM_WORDS: company forms written in any case (GmbH, SARL, Sdn Bhd, Sp. z o.o., ...). */
const LEGAL_FORM_WORDS = /(?<![\p{L}])(gmbh|sarl|s\.a\.r\.l\.?|sdn\.? ?bhd\.?|bhd\.?|s\/b|limited|corporation|incorporated|enterprises?|trading|sp\. ?z ?o\.? ?o\.?|s\.r\.l\.?|s\.p\.a\.?|pte\.? ltd\.?|gmbh & co\.? kg)(?![\p{L}])/iu;
/** LEGAL_FORM_CAPS: short company forms, only as written (AG, Gesellschaft mbH, SA, Ltd, Inc, B.V.). */
const LEGAL_FORM_CAPS = /(?<![\p{L}])(AG|mbH|GbR|KGaA|e\.K\.|e\.V\.|SA|SAS|SE|KG|OHG|UG|BV|B\.V\.|NV|N\.V\.|Ltd\.?|LTD\.?|Inc\.?|INC\.?|LLC|LLP|PLC|Co\.|CO\.|Lda|S\.L\.|S\.A\.)(?![\p{L}])/u;

/**
 * BUSINESS_PREFIX: words that open a Malay business name as "Trading" or "Enterprise" close an
 * English one ("PERNIAGAAN ZHENG HUI", "SYARIKAT ..."): the name is a registered business's.
 */
const BUSINESS_PREFIX = /^(perniagaan|syarikat|perusahaan)\s+\p{L}/iu;

const hasLegalForm = (s: string) => LEGAL_FORM_WORDS.test(s) || LEGAL_FORM_CAPS.test(s) || BUSINESS_PREFIX.test(s);

/** CUSTOMER_LABEL: lines that open the customer's block. */
const CUSTOMER_LABEL =
  /^(bill(ed)? to|sold to|ship to|deliver to|invoice to|customer|client|buyer|recipient|kunde|käufer|rechnungsempfänger|leistungsempfänger|lieferadresse|rechnungsadresse|adresse de (livraison|facturation)|destinataire|acheteur|klant|afnemer|cliente|destinatario|nabywca|odbiorca|purchaser|kupuj[ií]c[ií]|odb[eě]ratel|objednatel|rechnung an|factur[ée] [àa]|facturer [àa]|facturar a|facturado a|fatturat[oa] a|spett\.?\s?le|factuur aan|gefactureerd aan)(?![\p{L}])/iu;

/**
 * GREETING: a letter's salutation and the name it greets ("Guten Tag Muster GmbH,", "Dear Acme Ltd,", "Sehr geehrte
 * Frau Berger,"): who the letter is written to, the customer, never who issued it.
 */
const GREETING =
  /^(?:guten tag|sehr geehrte[rs]?|hallo|dear|hello|bonjour|cher|ch[eè]re|estimad[oa]s?|gentile|egregio|geachte|beste|hej|kære|kjære)\s+(?:(?:herr|frau|mr|mrs|ms|dr|m|mme|sr|sra)\.?\s+)?([^,!:]{3,60})[,!:]/iu;

/** TO_LABEL: "To MICROSOFT LTD", "TO: John Doe": the addressee's line, which opens with "To" before a name in capitals or a colon. */
const TO_LABEL = /^[Tt][Oo](?:\s*:|\s+(?=[A-Z][A-Z.&-]+(?:\s|$)))/;

/** DOC_WORDS: lines that name the document or a field, not a party (a receipt's title in German, French, Spanish, Italian and the Nordic languages too: 'Quittung', 'Kassenbon', 'Reçu', 'Scontrino', 'Kvitto'). */
const NOT_A_NAME =
  /^(invoice|tax invoice|receipt|sales receipt|estimate|quote|quotation|purchase order|order|bill|statement|credit note|rechnung|handelsrechnung|gutschrift|facture|avoir|factuur|factura|fattura|fatura|faktura|page|seite|date|datum|total|summe|tel|fax|phone|telefon|email|e-mail|www|http|iban|bic|ust|vat|gst|tva|btw|no\b|nr\b|payment\s+(?:details|information|instructions|terms)\b|bank\s+details\b|bankverbindung\b|zahlungs(?:informationen|bedingungen)\b|coordonn[ée]es\s+bancaires\b|(?:quittung|kassenbon|kassenbeleg|kundenbeleg|re[çc]u|recibo|ricevuta|scontrino|kvitto|kvittering|kuitti|τιμολ[οό]γιο|απ[οό]δειξη)(?![A-Za-zÀ-ÿ\u0370-\u03ff]))/iu;

/** FIELD_WORDS: words of a receipt's or invoice's fields and column headers, never part of an issuer's name. */
const FIELD_WORDS =
  /(?<!\p{L})(qty|quantity|description|amount|cash|cashier|cash[lt]er|casheer|change|shopping|tq|visit|terima|kasih|sub-?total|subtotal|total|price|item|items|discount|rounding|tax|gst|vat|thank|welcome|counter|operator|salesperson|served|member|points|menge|preis|betrag|summe|montant|prix|quantit[eé])(?!\p{L})/iu;

/** FIELD_LINE: a line that opens with a label of one or two words (or two such labels in two languages, "ΑΡΙΘΜΟΣ / NUMBER") and its colon, then a value ("TOKEN: CTI", "Cashier : ANN"). */
const FIELD_LINE = /^\p{L}[\p{L}.#]*(?:\s\p{L}[\p{L}.#]*)?(?:\s?\/\s?\p{L}[\p{L}.#]*(?:\s\p{L}[\p{L}.#]*)?)?\s?[:;]\s*\S/u;

/**
 * FORM_PLACEHOLDER: a template's or form's words where a party's details go ("Nom du client", "Adresse du membre",
 * "Customer Name", "Street Address, City, ST ZIP Code"): what the field asks for, no one's name
 */
const FORM_PLACEHOLDER =
  /(?<!\p{L})(?:nom|name|adresse|address|raison sociale|nombre|direcci[óo]n|indirizzo)\s+(?:du|de\s+la|de\s+l['’]|de|des|del|della|of(?:\s+the)?)\s*(?:client|cliente|membre|organisme|soci[ée]t[ée]|entreprise|fournisseur|acheteur|vendeur|destinataire|b[ée]n[ée]ficiaire|customer|company|member|buyer|seller|vendor|supplier|recipient|payee)(?!\p{L})|(?<!\p{L})(?:customer|client|company|business|your|recipient)\s+name(?!\p{L})|(?<!\p{L})street\s+address(?!\p{L})|(?<!\p{L})(?:zip|postal)\s+code(?!\p{L})/iu;

/**
 * LEGAL_STATUS: a line that states only what kind of body the issuer is ("Association de loi 1901", "Société par actions
 * simplifiée", "Einzelunternehmen", "Sole proprietorship"), printed under its name or logo: a status, not the name
 */
const LEGAL_STATUS =
  /^(?:association\s+(?:de\s+)?loi\s+(?:de\s+)?1901|soci[ée]t[ée]\s+(?:par\s+actions\s+simplifi[ée]e|anonyme|civile|[àa]\s+responsabilit[ée]\s+limit[ée]e)(?:\s+unipersonnelle)?|entreprise\s+individuelle|auto-?entrepreneur|micro-?entreprise|einzelunternehmen|eingetragener\s+verein|sole\s+(?:proprietorship|trader)|non-?profit\s+organi[sz]ation|registered\s+charity)(?:\s+au\s+capital\b.*)?[\s.,]*$/iu;

/** LABEL_END: text closed by a colon (a form's or a table's label: "Numéro de devis :", "Verkäufer:") */
const LABEL_END = /[:：]\s*$/;

/** NAME_FIELD: a field line's label that asks for a name ("Name:", "ΕΠΩΝΥΜΙΑ / NAME:"): whose, the line does not say */
const NAME_FIELD = /^(?:name|company|firma|nom|nombre|nome|naam|nazwa|επωνυμια|επωνυμία|ονομα|όνομα)(?:\s?\/\s?\p{L}+)?\s?:/iu;

/** SEPARATORS: how a sender line separates name, street and town. */
const SEPARATORS = /\s+[·•●|]\s+|\s+[-–]\s+/;
/** OCR_SEPARATORS: the same, with the signs OCR reads for a scanned middle dot ("KERSTIN HUMM « STRASSE 1 « 54321 POTSDAM"). */
const OCR_SEPARATORS = /\s+[·•●|«»]\s+|\s+[-–]\s+/;

/** nameLike says whether text reads as a name: mostly letters, a few words, no address or amount. */
export function nameLike(text: string): boolean {
  const t = text.trim();
  if (t.length < 3 || t.length > 60) return false;
  // (a name may open with any script's letter: "Ärztehaus", "ΠΑΝΑΓΙΩΤΗΣ")
  if (/@|https?:|:\s*$|^[^\p{L}\p{N}]/u.test(t) || NOT_A_NAME.test(t) || partyLabels(t) || FORM_PLACEHOLDER.test(t) || LEGAL_STATUS.test(t)) return false;
  const letters = (t.match(/\p{L}/gu) ?? []).length;
  const digits = (t.match(/\d/g) ?? []).length;
  if (letters < 4 || digits > letters / 3) return false;
  if (!/\p{L}{3,}/u.test(t)) return false;
  // a table header or a field of the document ("Item Qty Total", "CASH", "Sub-total")
  if (FIELD_WORDS.test(t)) return false;
  // OCR noise: most words one or two letters long; a legal form's short parts ("Sp. z o.o.") are no noise, the form read as one word
  if (mostlyShortWords(t) && mostlyShortWords(t.replace(LEGAL_FORM_WORDS, " Form "))) return false;
  if (addressLike(t)) return false;
  // "Details according to the decision", "Στοιχεία σύμφωνα με την Κ.Υ.Α.": three or more lowercase words, most of the
  // line's, two of them full words, is a sentence ("Compagnie des eaux", "Maria van der Berg" stay names)
  const words = t.split(/\s+/);
  const lower = words.filter((w) => /^\p{Ll}/u.test(w));
  if (lower.length >= 3 && lower.filter((w) => w.length >= 3).length >= 2 && lower.length > words.length - lower.length) return false;
  return true;
}

/**
 * partyLabels: text that is only the labels of parties, in one language or two ("Prodejce",
 * "Prodejce Provider", "Seller Buyer"): a block's title, no name. "Provider" is such a title beside
 * another language's label, though no label of the vendor field alone (a contract's provider field).
 */
function partyLabels(text: string): boolean {
  const words = splitWords(text);
  return words.length > 0 && words.length <= 4 && words.every((word) => {
    const concept = conceptOf(word);
    return concept === "vendor" || concept === "customer" || word === "provider";
  });
}

/** mostlyShortWords says whether most of three or more words are one or two letters long, as OCR noise reads. */
function mostlyShortWords(text: string): boolean {
  const words = text.trim().split(/\s+/);
  return words.length >= 3 && words.filter((w) => w.replace(/[^\p{L}]/gu, "").length <= 2).length > words.length / 2;
}

/** STREET_WORDS: words of street addresses in the languages documents come in. */
const STREET_WORDS = /(?<!\p{L})(str\.|straße|strasse|street|st\.|road|rd\.?|avenue|ave\.?|lane|drive|blvd|rue|chemin|boulevard|avenida|calle|via|rua|ulica|ul\.|weg|allee|platz|laan|straat|plein|jalan|jln\.?|lorong|taman|lot|blok|block|floor|suite|court|way|place|square|terrace|crescent|highway|close)(?!\p{L})/iu;

/** addressLike says whether a line reads as part of an address: a street with a number, or a postcode and town. */
function addressLike(t: string): boolean {
  if (STREET_WORDS.test(t) && /\d/.test(t)) return true;
  // German and Dutch street names are one word: "Musterstr. 99", "Lieferantenstraße 20", "Kerkstraat 5"
  if (/\p{L}(str\.|straße|strasse|straat|weg|allee|platz|gasse|damm|laan)\s*\d/iu.test(t)) return true;
  if (/^(?:[A-Z]{1,2}[- ])?\d{4,5}\s+\p{L}/u.test(t)) return true;
  // "109, SS21/1A,": a house number before a comma; Malaysian area and state lines ("TAMAN JOHOR JAYA", "SELANGOR DARUL EHSAN")
  if (/^(no\.?\s*)?\d+[A-Z]?(-\d+[A-Z]?)?\s*,/i.test(t)) return true;
  if (/^(taman|bandar|jalan|jln\.?|lorong|kampung|persiaran|lebuh)\s+\p{L}/iu.test(t) || /\bdarul\s+(ehsan|takzim|aman|naim|khusus|ridzuan|makmur)\b/i.test(t)) return true;
  return /,\s*\d{4,5}\b|\b\d{4,5}\s+\p{Lu}\p{L}+,/u.test(t);
}

/** REGISTRATION: a company registration or tax number line, printed under the issuer's name. */
const REGISTRATION = /^\(?\s*\d(?:\s?\d){4,11}\s?-?\s?[A-Z]\s*[)}\]]?$|\b(reg\.?|registration|company|co\.)\s*(no|nr|number)\b|\b(gst|vat|ust-?id|tva|btw|siret|siren|abn|tax id)\b|\(\d{4,}-[A-Z][)}\]]/i;

/** TRAILING_TITLE: the document's title closing a letterhead's line, in capitals ("Stanford Plumbing & Heating INVOICE"). */
const TRAILING_TITLE = /\s+(?:TAX INVOICE|INVOICE|PURCHASE ORDER|RECEIPT|RECHNUNG|FACTURE|FACTUUR|FACTURA|FATTURA|FATURA|FAKTURA|LASKU|QUOTATION|QUOTE|STATEMENT)$/;

/** withoutTitle drops the document's title a letterhead's name runs into ("Stanford Plumbing & Heating INVOICE" -> "Stanford Plumbing & Heating"). */
function withoutTitle(name: string): string {
  const cut = name.replace(TRAILING_TITLE, "");
  // "SIMPLIFIED TAX INVOICE": a title's own word before it is no name
  return cut !== name && /\S\s+\S/.test(cut) ? cut : name;
}

/** withoutLegalForm drops a name's closing legal form ("CONTOSO LTD." -> "CONTOSO", "Kraxi GmbH" -> "Kraxi"). */
function withoutLegalForm(name: string): string {
  const m = name.match(LEGAL_FORM_WORDS) ?? name.match(LEGAL_FORM_CAPS);
  return m && m.index !== undefined && /^[\s.,]*$/.test(name.slice(m.index + m[0].length)) ? name.slice(0, m.index) : name;
}

/** companyName cuts a name at its legal form ("Kraxi GmbH Flugzeugallee 17" -> "Kraxi GmbH"). */
function companyName(text: string): string {
  const m = text.match(LEGAL_FORM_WORDS) ?? text.match(LEGAL_FORM_CAPS);
  if (!m || m.index === undefined) return text.trim();
  const end = m.index + m[0].length;
  // keep a closing part such as "(M) SDN BHD" or "Sdn. Bhd." that belongs to the name
  return text.slice(0, end).replace(/[\s,;]+$/, "").trim() || text.trim();
}

/**
 * trimOcrNoise drops the specks OCR reads around a scanned line ("~ AEON CO. (M) BHD",
 * "PERNIAGAAN ZHENG HUI :"): punctuation before the first letter, and punctuation after a space at
 * the end of a line of two or more words (a one-word "Seller :" stays a label).
 */
export function trimOcrNoise(text: string): string {
  let t = text.replace(/^[^\p{L}\d(]+/u, "");
  // two words (tried from word starts only: from inside a long word too, the test is quadratic in its length)
  if (/(?<!\p{L})\p{L}{2,}\s+\p{L}{2,}/u.test(t)) t = t.replace(/(\s+[^\p{L}\d()\s&]+)+\s*$/u, "");
  return t;
}

/**
 * dropOcrTail cuts the specks OCR reads after a shop name printed in capitals ("99 SPEED MART Sh Bip",
 * "9 SPEED MART 6/8 (519537: vi"): two or more tokens closing the line, each without a letter or with
 * a lowercase letter among at most three, after at least two words in capitals and no lowercase
 * letter. One such token may be the name's last word read in the wrong case ("ZHENG Hui") and stays.
 */
export function dropOcrTail(text: string): string {
  const tokens = text.trim().split(/\s+/);
  let cut = tokens.length;
  while (cut > 0 && ocrSpeck(tokens[cut - 1]!)) cut--;
  if (tokens.length - cut < 2) return text;
  const head = tokens.slice(0, cut);
  if (head.some((t) => /\p{Ll}/u.test(t)) || head.filter((t) => /\p{Lu}{2,}/u.test(t)).length < 2) return text;
  return head.join(" ");
}

/**
 * ocrNameText reads a name OCR read: the specks around it dropped, and an exclamation mark closing a
 * word in capitals before another one put back as the I it is ("FUY! MINI MARKET").
 */
function ocrNameText(text: string): string {
  return dropOcrHead(dropOcrTail(trimOcrNoise(text))).replace(/(?<=\p{Lu})!(?=\s+\p{Lu})/gu, "I");
}

/**
 * dropOcrHead cuts the speck OCR reads off a logo before a shop name in capitals ("or DELPHIN"): one token of one
 * or two lowercase letters opening a line whose other words are capitals, none lowercase.
 */
function dropOcrHead(text: string): string {
  const m = text.match(/^\p{Ll}{1,2}\s+(?=\p{Lu}{3,})/u);
  if (!m || /\p{Ll}/u.test(text.slice(m[0].length))) return text;
  return text.slice(m[0].length);
}

/** ocrSpeck says whether a token reads as OCR noise after a name in capitals: no letter, or a lowercase letter among at most three. */
function ocrSpeck(token: string): boolean {
  const letters = token.match(/\p{L}/gu) ?? [];
  if (!letters.length) return token !== "&";
  return letters.length <= 3 && /\p{Ll}/u.test(token);
}

/**
 * ocrFixedForm reads a company form that OCR misread in a known way: "SON BHD" / "SDN 8HD" are
 * Sdn Bhd (Malaysian private limited; no other "Son Bhd" exists), "$/B" is S/B, and a yen sign
 * among capitals is a Y. Only these are corrected; the name's other letters stay as read.
 */
export function ocrFixedForm(text: string): string {
  return text
    .replace(/(?<![\p{L}\d])(S[O0D]N)(\.?,?\s*)([B8]H[D0O])(?![\p{L}\d])/giu, (_m, sdn: string, gap: string, bhd: string) => {
      const upper = sdn === sdn.toUpperCase();
      return `${upper ? "SDN" : "Sdn"}${gap.replace(",", "")}${upper ? "BHD" : "Bhd"}`;
    })
    .replace(/(?<![\p{L}\d])\$\/B(?![\p{L}\d])/gu, "S/B")
    // "MR.D.I.¥(M)": a yen sign among a name's capitals and initials is OCR's Y
    .replace(/(?<=[A-Z]\.?)¥(?=[.(\s]|[A-Z]|$)/g, "Y")
    // "Taste Of Ihe World": a capital I read for the T of "The"
    .replace(/(?<![\p{L}\d])I(he|HE)(?![\p{L}\d])/gu, "T$1")
    .replace(/\p{L}{8,}/gu, legalFormWord);
}

/** LONG_FORM_WORDS: the long words of company forms, which no other word lies one letter away from. */
const LONG_FORM_WORDS = ["enterprise", "enterprises", "corporation", "incorporated", "perniagaan", "perusahaan", "syarikat"];

/**
 * legalFormWord reads a long company-form word with one letter misread ("ENIERPRISE" is ENTERPRISE),
 * in the case the word was printed in; any other word stays as read.
 */
function legalFormWord(word: string): string {
  const lower = word.toLowerCase();
  for (const form of LONG_FORM_WORDS) {
    if (form.length !== lower.length || form === lower) continue;
    let diff = 0;
    for (let i = 0; i < form.length && diff < 2; i++) if (form[i] !== lower[i]) diff++;
    if (diff !== 1) continue;
    if (word === word.toUpperCase()) return form.toUpperCase();
    return word[0] === word[0]!.toUpperCase() ? form[0]!.toUpperCase() + form.slice(1) : form;
  }
  return word;
}

/** domainsOf lists the names in the document's e-mail and web addresses ("kraxi" from info@kraxi.com). */
function domainsOf(markdown: string): string[] {
  const out = new Set<string>();
  for (const m of markdown.matchAll(/(?:@|www\.|https?:\/\/(?:www\.)?)([a-z0-9-]+)\.[a-z]{2,}/gi)) if (m[1]!.length >= 4) out.add(m[1]!.toLowerCase().replace(/-/g, ""));
  return [...out];
}

const squash = (s: string) => s.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");

interface Mention {
  name: string;
  line: number;
  start: number;
  end: number;
  sender: boolean;
  /** last: the index of the mention's last line (a name printed over two lines ends below its first) */
  last: number;
  /** thanked: named by a receipt's thank-you line ("Thank you for shopping at ...") */
  thanked?: boolean;
}

/** THANKS_AT: a receipt's footer that thanks the customer for shopping at the shop it names ("Thank you for shopping at PASARAYA"). */
const THANKS_AT = /\b(?:thank\s*you|thanks|tq)\s+for\s+(?:shopping|dining|visiting)\s+(?:at|with)\s+(.+)$/i;
/** FAREWELL: the words of a receipt's closing lines, never the rest of a shop's name. */
const FAREWELL = /(?<!\p{L})(please|come|again|goods|sold|returnable|exchange|refund|thank|thanks|tq|terima|kasih|jumpa|lagi|visit|welcome|nice day)(?!\p{L})/iu;

/**
 * thanksMentions reads the shop a receipt's thank-you line names ("Thank you for shopping at FUYI MINI" /
 * "MARKET"), with the next line when it carries on the name in capitals; a web address ("shopping with
 * kedaiku.com") names a web shop, not the issuer.
 */
function thanksMentions(lines: Line[], clean: (text: string) => string): Mention[] {
  const out: Mention[] = [];
  lines.forEach((line, index) => {
    const m = line.isTable ? null : line.plain.match(THANKS_AT);
    if (!m) return;
    let name = clean(m[1]!.replace(/\*\*/g, ""));
    let last = index;
    const next = lines[index + 1];
    const carried = next?.plain && !next.isTable ? clean(next.plain) : "";
    if (carried && !/\p{Ll}/u.test(name + carried) && !FAREWELL.test(carried) && (nameLike(carried) || onlyLegalForm(carried))) {
      name = `${name} ${carried}`;
      last = index + 1;
    }
    name = companyName(ocrFixedForm(name));
    if (/\.[a-z]{2,4}\b/i.test(name) || !nameLike(name)) return;
    out.push({ name, line: index, last, start: line.start, end: lines[last]!.end, sender: false, thanked: true });
  });
  return out;
}

/** mentionsOf reads the name-like lines, table cells and sender-line heads of the document. */
function mentionsOf(lines: Line[], ocr: boolean): Mention[] {
  // OCR's specks after a name in capitals are cut; a text layer's words stay as printed
  const clean = (text: string) => (ocr ? ocrNameText(text) : trimOcrNoise(text));
  const out: Mention[] = [];
  lines.forEach((line, index) => {
    if (!line.plain) return;
    const pieces = line.isTable ? line.text.split("|").map((c) => c.trim()).filter(Boolean) : [line.plain];
    // "TOKEN: CTI", "TABLE: 12": a field's label and its value on a line of their own name no one, unless the value
    // is a company's name with its legal form ("Dimiliki: Banh Mi Cafe Sdn Bhd", owned by)
    const field = line.isTable ? null : line.plain.match(FIELD_LINE);
    if (field && (!hasLegalForm(line.plain.slice(field[0].length - 1)) || NAME_FIELD.test(line.plain))) return;
    for (const [at, piece] of pieces.entries()) {
      // "| Numéro de devis : | 2021-001-D |", "| Bestellung | : B123456789 |": a label cell, its colon closing it or
      // opening the value's cell beside it, names a field, never a party
      // and the cell beside a label holds that field's value ("| Numéro de bon de commande : | Aucun |"), a name only
      // with a company's legal form ("| Name: | Lieferant GmbH |"), as a field line's value
      const labelled = at > 0 && LABEL_END.test(pieces[at - 1]!) && !hasLegalForm(piece);
      if (line.isTable && (LABEL_END.test(piece) || /^[:：]/.test(pieces[at + 1] ?? "") || labelled)) continue;
      const segments = piece.split(ocr ? OCR_SEPARATORS : SEPARATORS);
      // "Name · Street 17 · 12345 Town": the sender line above the address window. A legal notice's registration
      // numbers ("Lorem SARL au capital de 10 000 € - RCS Paris - SIREN : 001 002 003") are no street or town.
      const sender = segments.length >= 2 && segments.slice(1).some((s) => /\b\d{4,5}\b|\b\d+\w?$/.test(s) && !REGISTRATION.test(s));
      const head = sender ? segments[0]! : piece;
      const name = withoutTitle(companyName(ocrFixedForm(clean(head.replace(/\*\*/g, "")))));
      // a name printed over two lines (the next, or the one after a blank line): "HOME MASTER HARDWARE &" /
      // "ELECTRICAL", "PASARAYA MAJU" / "SDN BHD"
      const nextIndex = lines[index + 1]?.plain ? index + 1 : index + 2;
      const next = line.isTable || sender ? null : lines[nextIndex];
      if (!next?.plain || next.isTable) {
        if (nameLike(name)) out.push({ name, line: index, last: index, start: line.start, end: line.end, sender });
        continue;
      }
      const second = ocrFixedForm(clean(next.plain.replace(/\*\*/g, "")));
      const first = ocrFixedForm(clean(head.replace(/\*\*/g, "")));
      const continues = /&$/.test(first)
        ? nameLike(second) && !hasLegalForm(first) && nameLike(first.replace(/\s*&$/, ""))
        : (onlyLegalForm(second) || kindOfShop(first, second)) && !hasLegalForm(first) && nameLike(first);
      const joined = companyName(`${first} ${second}`);
      if (continues && nameLike(joined)) out.push({ name: joined, line: index, last: nextIndex, start: line.start, end: next.end, sender: false });
      else if (nameLike(name)) out.push({ name, line: index, last: index, start: line.start, end: line.end, sender });
    }
  });
  return [...out, ...thanksMentions(lines, clean)];
}

/** LOGO_NAME_CONFIDENCE: a shop named only by its web address under a letterhead OCR did not read (below 0.6: a domain may be a brand or a platform). */
const LOGO_NAME_CONFIDENCE = 0.4;
/** WEB_ADDRESS: a web address as OCR reads it, spaces around its dots included ("www. popular. com. my"). */
const WEB_ADDRESS = /\bwww\s?\.\s?([a-z][a-z0-9-]{3,})\s?\.\s?[a-z]{2,}/gi;
/** PLATFORMS: web addresses of platforms and mail services, which name no shop. */
const PLATFORMS = /^(facebook|instagram|twitter|google|gmail|yahoo|hotmail|youtube|tiktok|shopee|lazada|grab|foodpanda)/i;

/**
 * logoNamedByWeb: on a receipt whose letterhead is a logo OCR did not read (a registration number among
 * its first three lines with no name-like line above it: "(Co. No. 113825-W)"), the shop's web address
 * ("www. popular. com. my") names it. The name is returned as the page prints it as a word elsewhere
 * ("BE A POPULAR CARD MEMBER"), else as in the address. Null when the page has a name on top, or no
 * web address of its own.
 */
function logoNamedByWeb(doc: ParsedDocument, content: Line[], mentions: Mention[]): { name: string; start: number; end: number } | null {
  const regAt = content.slice(0, 3).findIndex((l) => REGISTRATION.test(l.plain));
  if (regAt < 0 || mentions.some((m) => m.start < content[regAt]!.start)) return null;
  const web = [...doc.markdown.matchAll(WEB_ADDRESS)].find((m) => !PLATFORMS.test(m[1]!));
  if (!web) return null;
  const word = web[1]!;
  const printed = new RegExp(`(?<![\\p{L}.])${word}(?![\\p{L}.])`, "iu");
  for (const l of content) {
    const m = l.plain.match(printed);
    if (m && !/www|\.\s?com/i.test(l.plain)) {
      const at = l.start + (l.text.indexOf(m[0]) >= 0 ? l.text.indexOf(m[0]) : 0);
      return l.text.includes(m[0]) ? { name: m[0], start: at, end: at + m[0].length } : { name: m[0], start: l.start, end: l.end };
    }
  }
  const at = web.index! + web[0].indexOf(word);
  return { name: word, start: at, end: at + word.length };
}

/** INITIALS: a name's initials written with points ("D.I.Y.", "O.1.¥."), and the word before them ("MR"). */
const INITIALS = /(?<![\p{L}\d])(\p{L}{2,})\.?\s*((?:[^\s.()]\.){2,})/u;
/** OCR_LOOKALIKES: the characters OCR reads for a capital letter on receipts (D as O, I as 1, Y as ¥). */
const OCR_LOOKALIKES: Record<string, string> = { D: "O0Q", I: "1l|!JT", Y: "¥V", S: "5$", B: "8", Z: "2", G: "6", O: "0D", T: "I1" };

/**
 * initialsReadAgain puts back a name's initials that OCR read with a digit or a sign among them
 * ("MR O.1.¥. (JOHOR) SDN BHD") from another line that writes them without points after the same
 * word ("(MR DIY TESCO TERBAU)"), each letter there being the one read on top or a look-alike of it:
 * two readings of one name, the one in letters is the right one. Otherwise the name stays as read.
 */
function initialsReadAgain(name: string, others: string[]): string {
  const m = name.match(INITIALS);
  if (!m) return name;
  const units = m[2]!.split(".").filter(Boolean);
  if (units.every((u) => /^\p{Lu}$/u.test(u))) return name;
  const again = new RegExp(`(?<![\\p{L}])${m[1]}\\.?\\s+(\\p{Lu}{${units.length}})(?![\\p{L}])`, "u");
  for (const line of others) {
    const letters = line.match(again)?.[1];
    if (!letters || ![...letters].every((c, i) => c === units[i] || (OCR_LOOKALIKES[c] ?? "").includes(units[i]!))) continue;
    return name.replace(m[2]!, [...letters].map((c) => `${c}.`).join(""));
  }
  return name;
}

/**
 * capitalIReadAgain puts back a capital I that OCR read as a lowercase l at the start of a name's word ("Lorem lpsum"
 * under "... à l'ordre de Lorem Ipsum"): in a name whose other words are capitalised, a word opening with "l" and
 * lowercase after it is that look-alike when another line of the page prints the word with the I. Otherwise the
 * name stays as read.
 */
function capitalIReadAgain(name: string, others: string[]): string {
  const words = name.split(/\s+/);
  if (!words.some((w) => /^\p{Lu}/u.test(w))) return name;
  return words
    .map((word) => {
      if (!/^l\p{Ll}{2,}[.,]?$/u.test(word)) return word;
      const read = `I${word.slice(1).replace(/[.,]$/, "")}`;
      const printed = new RegExp(`(?<![\\p{L}])${read}(?![\\p{L}])`, "u");
      return others.some((line) => printed.test(line)) ? `I${word.slice(1)}` : word;
    })
    .join(" ");
}

/** SHOP_KIND: a word that names a kind of shop, printed under the shop's own name ("DELPHIN" / "APOTHEKE"). */
const SHOP_KIND =
  /^(?:apotheke|pharmacy|pharmacie|farmacia|apteka|drogerie|restaurant|restoran|ristorante|bistro|caf[eé]|b[äa]ckerei|boulangerie|panader[ií]a|bakery|hotel|supermarkt|supermarket|minimarket|markt|market|mart|kiosk|buchhandlung|bookstore|hardware|stationery|optik|metzgerei|boucherie)$/iu;

/**
 * kindOfShop says whether a line that holds only a kind of shop continues the name above it, both in capitals:
 * a receipt's letterhead prints "DELPHIN" over "APOTHEKE", one name.
 */
function kindOfShop(first: string, second: string): boolean {
  return SHOP_KIND.test(second.trim()) && !/\p{Ll}/u.test(first + second);
}

/** onlyLegalForm says whether a line holds nothing but a company form ("SDN BHD", "(M) SDN. BHD.", "S/B"). */
function onlyLegalForm(text: string): boolean {
  const m = text.match(LEGAL_FORM_WORDS) ?? text.match(LEGAL_FORM_CAPS);
  return m !== null && m.index !== undefined && /^[\s(]*(\(?[A-Z]\)\s*)?$/.test(text.slice(0, m.index)) && /^[\s.,]*$/.test(text.slice(m.index + m[0].length));
}

/** FILE_NAME: a heading that is a file's name ("# 065.jpg"), as the converter heads an image's text. */
const FILE_NAME = /^[^\s/\\]+\.(jpe?g|png|gif|bmp|tiff?|webp|heic|avif|svg)$/i;
/** CONVERTER_SECTION: the section the image converter appends after the text it read. */
const CONVERTER_SECTION = /^image metadata$/i;

/** ISSUER_SETTLED: the confidence of an issuer the letterhead settles (see findIssuer). */
const ISSUER_SETTLED = 0.85;
/** THANKED_WEIGHT: the layout points of a name a receipt's thank-you line gives (a legal form is worth 2, the page's first line 1). */
const THANKED_WEIGHT = 3;

/** ISSUER_MARGIN: how far (in layout points) the settled issuer must lead every other name. */
const ISSUER_MARGIN = 2;

/**
 * PAYEE_LABEL: the label of the payee in an invoice's payment instructions, in the languages invoices come in
 * ("make checks payable to", "Account Name", "Kontoinhaber", "Titulaire du compte", "t.n.v.", "Posiadacz rachunku").
 * A recipient's label ("Empfänger", "Odbiorca") is left out: on an invoice it may name the customer.
 */
const PAYEE_LABEL =
  /(?<!\p{L})(?:(?:make\s+(?:all\s+)?)?(?:checks|cheques)\s+payable\s+to|payable\s+to|account\s+name|account\s+holder|beneficiary(?:\s+name)?|kontoinhaber(?:in)?|titulaire(?:\s+du\s+compte)?|b[ée]n[ée]ficiaire|rekeninghouder|ten\s+name\s+van|t\.\s?n\.\s?v\.|titular(?:\s+de\s+la\s+cuenta)?|beneficiario|intestatario|intestato\s+a|posiadacz\s+rachunku|w[łl]a[śs]ciciel\s+rachunku)\s*:?\s+(.+)$/iu;

/**
 * payeeNamed says whether a line other than `except` names the issuer `key` (squashed) as the payee of the
 * page's payment instructions: the words after a payee label, up to a cell border or the name's legal form,
 * are the name letter for letter.
 */
function payeeNamed(lines: Line[], key: string, except: number): boolean {
  if (key.length < 4) return false;
  return lines.some((line, i) => {
    if (i === except || !line.plain) return false;
    const m = line.plain.match(PAYEE_LABEL);
    if (!m) return false;
    const text = m[1]!.split(/\s+\|\s+|\s{2,}/)[0]!;
    // "Account Name: Contoso LTD SUBTOTAL 600.00": a name run into the next column ends at its legal form
    const name = companyName(text);
    const words = name.split(/\s+/);
    // the name may be followed by other words on the line; its leading words are compared
    return words.some((_, n) => squash(words.slice(0, n + 1).join(" ")) === key);
  });
}

/** PAYEE_CONFIDENCE: an issuer read only from the payment instructions' payee; PAYEE_AGAIN when the page prints the name on another line too. */
const PAYEE_CONFIDENCE = 0.6;
const PAYEE_AGAIN = 0.7;
/** PAYEE_NAME: the capitalised words that open a payee label's text ("Samira Hadid ¥ . .": OCR's specks after it dropped). */
const PAYEE_NAME = /^\p{Lu}[\p{L}'&.-]*(?:\s\p{Lu}[\p{L}'&.-]*){0,5}/u;

/**
 * payeeIssuer: when no name heads the page (the issuer printed only in a logo, or signing at its foot), the payee of
 * its payment instructions ("Account Name: Samira Hadid", "Kontoinhaber: ...") is who issued it: who is paid is who
 * sent the invoice. Never settled: the label alone says it, and OCR's letters are read once (twice when the name is
 * printed again, as a signature or a footer).
 */
function payeeIssuer(lines: Line[]): Issuer | null {
  for (const [i, line] of lines.entries()) {
    const m = line.plain.match(PAYEE_LABEL);
    if (!m) continue;
    const text = m[1]!.split(/\s+\|\s+|\s{2,}/)[0]!.trim();
    const name = text.match(PAYEE_NAME)?.[0].replace(/[.,]+$/, "") ?? "";
    if (name.length < 4 || !nameLike(name) || NOT_A_NAME.test(name)) continue;
    const key = squash(name);
    const again = lines.some((l, j) => j !== i && squash(l.plain).includes(key));
    const at = line.start + line.text.indexOf(name);
    if (at < line.start) continue;
    return { name, confidence: again ? PAYEE_AGAIN : PAYEE_CONFIDENCE, ocrSettled: false, start: at, end: at + name.length, evidence: { score: 0, margin: 0, printed: again ? 2 : 1, legalForm: hasLegalForm(name), top: false } };
  }
  return null;
}

/** POSTCODE_TOWN: a line of a postcode and its town ("33102 Paderborn", "D-12345 Berlin"), the town captured. */
const POSTCODE_TOWN = /^(?:[A-Z]{1,2}[- ])?\d{4,5}\s+(\p{L}[\p{L}.-]*(?:\s\p{L}[\p{L}.-]*){0,2})$/u;

/** findIssuer picks the name that the document's layout and wording say issued it, or null. */
export function findIssuer(doc: ParsedDocument): Issuer | null {
  const lines = doc.lines;
  // the converter's own lines are not the document's: an image's file-name heading and its metadata section
  const metadataAt = lines.findIndex((l) => l.isHeading && CONVERTER_SECTION.test(l.plain));
  const content = lines
    .map((l, i) => ({ l, i }))
    .filter((x) => x.l.plain && !(x.l.isHeading && FILE_NAME.test(x.l.plain)) && (metadataAt < 0 || x.i < metadataAt));
  if (!content.length) return null;
  const topLines = new Set(content.slice(0, 12).map((x) => x.i));
  const firstLine = content[0]!.i;
  const footerFrom = content[Math.max(0, content.length - 12)]!.i;
  const domains = domainsOf(doc.markdown);
  // lines under a customer label, up to the next blank-separated block
  const customerLines = new Set<number>();
  lines.forEach((l, i) => {
    const cells = l.isTable ? l.text.split("|").map((c) => c.trim()) : [l.plain];
    if (!cells.some((c) => CUSTOMER_LABEL.test(c) || TO_LABEL.test(c))) return;
    for (let j = i; j < Math.min(lines.length, i + 6); j++) customerLines.add(j);
  });

  // the issuer's name heads its letterhead: the lines below it are its address, phone and registration
  const headsBlock = (line: number) => {
    const below = content.filter((x) => x.i > line).slice(0, 2);
    return below.some((x) => addressLike(x.l.plain) || REGISTRATION.test(x.l.plain) || /^(tel|phone|telefon|fax)\b/i.test(x.l.plain));
  };
  const inContent = new Set(content.map((x) => x.i));
  const mentions = mentionsOf(lines, doc.ocrQuality !== null).filter((m) => inContent.has(m.line));
  // the address window under a sender line holds the recipient
  for (const m of mentions.filter((x) => x.sender)) {
    for (const x of content.filter((c) => c.i > m.line).slice(0, 4)) if (!mentions.some((o) => o.sender && o.line === x.i)) customerLines.add(x.i);
  }
  // "Guten Tag Muster GmbH,": the name the letter greets is its addressee's
  const greeted = new Set(content.map((x) => GREETING.exec(x.l.text.trim())?.[1]).filter((n): n is string => n !== undefined).map((n) => squash(n)));
  const towns = new Set(content.map((x) => POSTCODE_TOWN.exec(x.l.plain.trim())?.[1]).filter((t): t is string => t !== undefined).map((t) => squash(t)));
  const byName = new Map<string, { mention: Mention; score: number; count: number; lines: Set<number>; top: boolean; thanked: boolean }>();
  for (const m of mentions) {
    const key = squash(m.name);
    // "To GLOBEX LTD": the addressee's line, not a name
    if (key.length < 3 || TO_LABEL.test(m.name)) continue;
    let score = 0;
    if (hasLegalForm(m.name)) score += 2;
    if (domains.some((d) => key.includes(d) || (key.length >= 4 && d.includes(key.slice(0, Math.max(4, key.length - 2)))))) score += 2;
    if (m.sender) score += 2;
    // "Thank you for shopping at ...": the receipt's own words name the shop
    if (m.thanked) score += THANKED_WEIGHT;
    if (topLines.has(m.line)) score += 1;
    // a receipt's or letterhead's name is printed in capitals; a lowercase line on top is a handwritten note or noise
    if (topLines.has(m.line) && /\p{Lu}{3,}/u.test(m.name) && !/\p{Ll}/u.test(m.name)) score += 0.5;
    // the first line heads the page; a line without a capital there is a handwritten note or OCR noise
    if (m.line === firstLine && /\p{Lu}/u.test(m.name)) score += 1;
    if (m.line >= footerFrom && !topLines.has(m.line)) score += 0.5;
    // a town line inside an address ("SELANGOR DARUL EHSAN") follows the street line
    const above = content.filter((x) => x.i < m.line).at(-1);
    const inAddress = above !== undefined && addressLike(above.l.plain);
    // the town of the page's postcode line printed on its own under a shop's name ("PADERBORN" and "33102 Paderborn")
    if (inAddress || towns.has(key)) score -= 1.5;
    else if (topLines.has(m.line) && headsBlock(m.last)) score += 1.5;
    if (REGISTRATION.test(m.name)) score -= 3;
    if (customerLines.has(m.line) || greeted.has(key)) score -= 3;
    const seen = byName.get(key);
    const top = topLines.has(m.line) && !customerLines.has(m.line);
    if (seen) {
      seen.count++;
      seen.lines.add(m.line);
      seen.top ||= top;
      seen.thanked ||= m.thanked === true;
      seen.score = Math.max(seen.score, score) + (seen.count <= 3 ? 0.5 : 0);
    } else byName.set(key, { mention: m, score, count: 1, lines: new Set([m.line]), top, thanked: m.thanked === true });
  }
  const ranked = [...byName.values()].sort((a, b) => b.score - a.score || a.mention.line - b.mention.line);
  const best = ranked[0];
  // a receipt whose name is a logo OCR did not read: its registration number heads the text, and its web address names it
  const logo = doc.ocrQuality !== null ? logoNamedByWeb(doc, content.map((x) => x.l), mentions) : null;
  if (logo && !(best && best.score >= 1 && (hasLegalForm(best.mention.name) || best.thanked || squash(best.mention.name).includes(squash(logo.name))))) {
    return { ...logo, confidence: LOGO_NAME_CONFIDENCE, ocrSettled: false, evidence: { score: 0, margin: 0, printed: 1, legalForm: false, top: false } };
  }
  if (!best || best.score < 1) return payeeIssuer(content.map((x) => x.l));
  // a part of the best name printed on its own ("BORONG PINTAR SDN BHD" under "Thank you for shopping at PASARAYA") is no rival
  const bestKey = squash(best.mention.name);
  const rivalScore = ranked.slice(1).find((r) => !(best.thanked && bestKey.includes(squash(r.mention.name))))?.score ?? 0;
  const margin = best.score - rivalScore;
  let confidence = Math.min(0.75, 0.45 + 0.04 * best.score) - (margin < 1 ? 0.1 : 0);
  // a company name (legal form) on top and printed again on other lines (sender line, footer), far
  // ahead of any other name: what a letterhead says of its issuer. Only in a text layer: OCR's letters
  // of a name are confirmed by nothing (on SROIE 1 in 10 such names holds a misread letter).
  if (doc.ocrQuality === null && best.top && best.lines.size >= 2 && hasLegalForm(best.mention.name) && margin >= ISSUER_MARGIN) confidence = ISSUER_SETTLED;
  // a receipt's name on top and again in its thank-you line ("Thank you for shopping at PASARAYA BORONG PINTAR SDN
  // BHD"), letter for letter: two readings of OCR's letters agree, and the receipt's own words say it is the shop
  // the name on top written again as the payee of the page's payment instructions ("Please make checks payable to:
  // East Repair Inc.", "Account Name: Contoso LTD"), or as the whole name of the page's e-mail or web domain ("CONTOSO
  // LTD." and rechnung@contoso.com), letter for letter: who is paid, and whose address the page gives, is who issued
  // the invoice, and two readings of the name agree (OCR's too)
  // an e-mail address whose local part is another name of the page ("Firstname.LASTNAME@company.dev") is that
  // party's own: its domain, though it spells the company's name, does not say the company sent the page
  const rivalKeys = new Set(ranked.slice(1).map((r) => squash(r.mention.name)));
  const personalDomains = new Set(
    [...doc.markdown.matchAll(/(?<![\w.+-])([\w.+-]+)@([a-z0-9-]+)\.[a-z]{2,}/gi)].filter((m) => rivalKeys.has(squash(m[1]!))).map((m) => m[2]!.toLowerCase().replace(/-/g, "")),
  );
  const bestDomain = squash(withoutLegalForm(best.mention.name));
  const payee = best.top && (payeeNamed(lines, bestKey, best.mention.line) || (margin >= 1 && domains.includes(bestDomain) && !personalDomains.has(bestDomain)));
  const ocrSettled = doc.ocrQuality !== null && best.top && ((best.thanked && best.lines.size >= 2 && margin >= ISSUER_MARGIN) || payee);
  if (ocrSettled || payee) confidence = ISSUER_SETTLED;
  const evidence = { score: best.score, margin, printed: best.lines.size, legalForm: hasLegalForm(best.mention.name), top: best.top };
  // the mention cited is the first, on top where the page names its issuer (thank-you lines are read last)
  const others = content.filter((x) => x.i !== best.mention.line).map((x) => x.l.plain);
  const read = initialsReadAgain(best.mention.name, others);
  return { name: doc.ocrQuality !== null ? capitalIReadAgain(read, others) : read, confidence, ocrSettled, start: best.mention.start, end: best.mention.end, evidence };
}
