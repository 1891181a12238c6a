/**
 * Label matching for the local extractor: a field's name (snake_case or camelCase) and description
 * become words and label phrases, widened by synonyms for common business fields; labelScore says
 * how well a label found in the document names the field (1 = exact phrase, 0 = unrelated).
 */

/** CONCEPTS: common business fields and the labels documents use for them (normalised words). */
export const CONCEPTS: Record<string, string[]> = {
  total: [
    "total", "grand total", "amount due", "total amount", "total due", "balance due", "balance", "total amount due", "invoice total", "total payable", "order total", "amount payable", "total price", "total cost", "total to pay", "amount to pay", "total incl tax", "total including tax", "total inc vat",
    "total incl vat", "total including vat", "total inclusive gst", "total incl gst", "total inclusive", "total amount payable", "rounded total", "total rounded", "total sales", "total sales inclusive gst", "total amount incl gst", "nett total", "net total amount",
    // de, fr, nl, es, it, pt, pl
    "gesamtbetrag", "gesamtsumme", "rechnungsbetrag", "rechnungssumme", "rechnungssumme brutto", "bruttobetrag", "bruttosumme", "endsumme", "endbetrag", "zahlbetrag", "zu zahlen", "zu zahlender betrag", "summe", "gesamt", "betrag", "rechnungsendbetrag", "gesamtbetrag brutto", "summe brutto",
    "total ttc", "montant ttc", "montant total ttc", "total net ttc", "net ttc", "montant net ttc", "net a payer", "total a payer", "montant a payer", "montant total", "montant du", "reste a payer", "ttc",
    "totaal", "totaalbedrag", "te betalen", "totaal te betalen", "totaal incl btw", "totaalbedrag incl btw", "te betalen bedrag",
    "importe total", "total a pagar", "importe a pagar", "total factura",
    "totale", "totale da pagare", "totale fattura", "importo totale", "totale documento",
    "valor total", "valor total da nota", "valor total da nf", "valor total da nf e", "total da nota", "total da nf e", "total da fatura", "valor a pagar",
    "razem", "do zaplaty", "razem do zaplaty", "suma", "wartosc brutto", "kwota do zaplaty", "kwota naleznosci ogolem", "kwota naleznosci", "naleznosc ogolem", "ogolem do zaplaty",
    "total con iva", "total iva incluido", "importe total factura", "totale a pagare", "importo da pagare", "totale complessivo", "montante a pagar", "valor total a pagar", "total com iva",
    // fi, sv, no, da
    "maksettava", "yhteensa", "loppusumma", "maksettava yhteensa", "att betala", "summa att betala", "totalt", "totalbelopp", "a betale", "belop a betale", "at betale", "total at betale", "totalt a betale",
    // cs, el
    "celkem", "celkem k uhrade", "k uhrade", "celkova castka", "celkem vcetne dph", "συνολο", "πληρωτεο", "συνολικο ποσο", "πληρωτεο ποσο",
  ],
  subtotal: ["subtotal", "sub total", "net total", "total before tax", "total excl tax", "net amount", "amount before tax", "zwischensumme", "nettobetrag", "summe netto", "rechnungssumme netto", "total ht", "montant ht", "sous total", "subtotaal", "subtotale", "totaal excl btw", "base imponible", "imponibile", "wartosc netto"],
  tax: ["tax", "vat", "gst", "hst", "sales tax", "tax amount", "vat amount", "gst amount", "total tax", "taxes", "mwst", "ust", "umsatzsteuer", "steuerbetrag", "mehrwertsteuer", "tva", "montant tva", "total tva", "btw", "iva", "imposta", "imposta iva", "total iva", "totale iva", "podatek vat", "kwota vat", "alv", "arvonlisavero", "moms", "mva", "merverdiavgift", "mw st", "zzgl mwst", "zzgl mw st", "zzgl ust", "inkl mwst", "inkl mw st", "enthaltene mwst", "enthaltene mw st", "mwst betrag", "mw st betrag", "ust betrag", "mehrwertsteuerbetrag", "umsatzsteuerbetrag"],
  date: [
    "date", "invoice date", "issue date", "issued", "date issued", "issued on", "issued at", "dated", "order date", "receipt date", "transaction date", "document date", "purchase date", "date of issue", "bill date", "po date", "tax invoice date", "inv date", "invoice date time", "date time", "billing date", "invoice issue date", "date of purchase",
    "datum", "rechnungsdatum", "belegdatum", "ausstellungsdatum", "rechnungs datum", "date de facture", "date facture", "date d emission", "date de la facture", "factuurdatum", "datum factuur", "fecha", "fecha de factura", "fecha factura", "fecha de emision", "fecha de expedicion", "fecha expedicion", "fecha emision",
    "data", "data fattura", "data documento", "data di emissione", "data emissione", "data da fatura", "data de emissao", "data da emissao", "data emissao", "emitida em", "emitido em", "data wystawienia", "data faktury", "tarikh",
    "paivamaara", "laskun paivamaara", "laskupaiva", "paivays", "fakturadatum", "fakturadato", "dato",
    "datum vydani", "datum vystaveni", "ημερομηνια", "ημερομηνια εκδοσης", "ημερομηνια τιμολογιου",
  ],
  due_date: ["due date", "payment due", "due", "pay by", "due by", "payment due date", "date due", "falligkeitsdatum", "fallig am", "zahlbar bis", "date d echeance", "echeance", "vervaldatum", "fecha de vencimiento", "vencimiento", "data di scadenza", "scadenza", "data de vencimento", "termin platnosci", "erapaiva", "forfallodatum", "forfallodag", "forfallsdato", "forfaldsdato", "betalingsfrist",
    "fallig bis", "zahlbar bis zum", "zahlungsziel", "date limite de paiement", "date limite de reglement", "a payer avant le", "payable avant le", "fecha limite de pago", "pagar antes de", "uiterste betaaldatum", "te betalen voor"],
  invoice_number: [
    "invoice number", "invoice", "invoice id", "inv number", "invoice ref", "invoice reference", "bill number", "invoice no", "tax invoice number", "invoice number number", "credit note number", "document number",
    "rechnungsnummer", "rechnungsnr", "rechnung number", "rechnungs number", "rechnung", "belegnummer", "beleg number", "gutschrift number", "gutschriftsnummer",
    "facture number", "number de facture", "numero de facture", "numero facture", "facture", "avoir number", "number d avoir",
    "factuurnummer", "factuur number", "factuurnr", "factuur",
    "numero de factura", "factura number", "number de factura", "factura", "factura n", "n de factura",
    "numero fattura", "fattura number", "number fattura", "fattura", "fattura n", "numero documento",
    "numero da fatura", "fatura number", "number da fatura", "fatura", "fatura n",
    "faktura number", "numer faktury", "number faktury", "faktura vat number", "faktura",
    "laskun number", "laskunumero", "laskun numero", "lasku number", "lasku", "fakturanummer", "fakturanumber",
    "cislo faktury", "faktura cislo", "τιμολογιο number", "number τιμολογιου",
  ],
  vendor: [
    "vendor", "seller", "merchant", "company", "from", "supplier", "store", "issued by", "sold by", "biller", "payee", "business", "company name", "vendor name", "supplier name", "merchant name", "store name", "seller name",
    "verkaufer", "lieferant", "rechnungssteller", "rechnungsersteller", "leistungserbringer", "vendeur", "fournisseur", "emetteur", "leverancier", "verkoper", "vendedor", "proveedor", "emisor", "fornitore", "cedente", "cedente prestatore", "venditore", "fornecedor", "emitente", "sprzedawca", "dostawca",
    "prodejce", "dodavatel", "prodavajici", "poskytovatel",
  ],
  customer: [
    "customer", "bill to", "billed to", "sold to", "client", "buyer", "customer name", "purchaser", "client name", "invoice to", "ship to", "deliver to",
    "kunde", "kaufer", "rechnungsempfanger", "leistungsempfanger", "kaufer leistungsempfanger", "lieferadresse", "rechnungsadresse", "acheteur", "destinataire", "adresse de facturation", "adresse de livraison", "klant", "afnemer", "koper", "cliente", "comprador", "destinatario", "cessionario", "cessionario committente", "nabywca", "odbiorca",
    "kupujici", "odberatel", "objednatel",
    // "Rechnung an:", "Facturé à :", "Facturar a:", "Factuur aan:", "Spett.le": the block the invoice is addressed to
    "rechnung an", "rechnungsanschrift", "facture a", "facturer a", "adresse de facture", "factura a", "facturar a", "facturado a", "fatturare a", "fatturato a", "spett le", "spettabile",
    "factuur aan", "gefactureerd aan", "factuuradres",
  ],
  // a party's VAT or tax registration number ("USt-IdNr.", "N° TVA intracommunautaire", "Partita IVA"): no tax amount
  vat_id: [
    "vat id", "vat number", "vat id number", "vat reg number", "vat registration number", "vat registration", "tax id", "tax number", "tax id number", "tin", "gst reg number", "gst number", "gst id", "gst registration number", "abn",
    "ust id", "ust id number", "ust number", "umsatzsteuer id", "umsatzsteuer id number", "umsatzsteuer identifikationsnummer", "steuernummer", "steuer number",
    "number tva", "numero de tva", "numero tva", "tva intracommunautaire", "number tva intracommunautaire", "numero tva intracommunautaire", "number de tva intracommunautaire",
    "btw nummer", "btw number", "btw id", "partita iva", "p iva", "nif", "cif", "nif cif", "nip", "dic",
  ],
  currency: ["currency", "currency code", "invoice currency", "wahrung", "rechnungswahrung", "devise", "devise de facturation", "monnaie", "valuta", "factuurvaluta", "moneda", "divisa", "moeda", "waluta", "waluta faktury"],
  email: ["email", "email address", "contact email", "mail", "e mail"],
  phone: ["phone", "telephone", "tel", "phone number", "mobile", "cell", "contact number", "ph"],
  address: ["address", "street address", "billing address", "mailing address", "street"],
  po_number: ["purchase order", "po", "po number", "purchase order number", "order number", "order", "order id", "po ref"],
  transaction_id: ["transaction id", "txn", "transaction", "trans id", "transaction number", "txn id", "receipt number", "receipt id"],
  payment_method: ["payment method", "paid by", "payment", "tender", "payment type", "method of payment"],
  discount: ["discount", "discount amount", "total discount"],
  shipping: ["shipping", "freight", "delivery", "shipping cost", "shipping and handling", "postage"],
  website: ["website", "web", "url", "site", "web site"],
  payment_terms: ["terms", "payment terms", "net terms"],
};

/**
 * OTHER_EVENT_DATE: words that make a date label another event's date on a bill ("Next scheduled read date",
 * "Meter read on"): label words, so that the line's longer label is read and names no issue date.
 */
const OTHER_EVENT_DATE = ["next", "scheduled", "read", "reading", "meter"];

/** EXCLUDED: words that, in a label, mean it is not the concept (a "Total Points" is no total). */
const EXCLUDED: Record<string, string[]> = {
  total: [
    "sub", "subtotal", "tax", "vat", "gst", "points", "discount", "savings", "items", "quantity", "qty", "pts", "shows", "hours", "weight", "pages", "before", "excl", "net",
    "netto", "ht", "exkl", "ohne", "zwischensumme", "positionssumme", "anzahlung", "anzahlungen", "skonto", "rabatt", "change", "cash", "tendered", "rounding", "adj", "adjustment",
    "ust", "mwst", "tva", "btw", "iva", "steuer", "steuerbetrag", "der", "veroton", "alv", "moms", "mva", "zuschlage", "abschlage", "excluding", "exclusive", "saved", "paid", "received", "erhaltene", "acompte",
  ],
  date: [
    "due", "birth", "delivery", "ship", "start", "end", "expiry", "expiration", "print", "printed", "liefer", "lieferdatum", "leistungsdatum", "livraison", "echeance", "prestation", "debut", "fin",
    "fallig", "falligkeit", "vervaldatum", "levering", "leverdatum", "vencimiento", "scadenza", "entrega", "consegna", "bestellung", "stylesheet", "version", "geburtsdatum", "zahlbar", "skonto", "payment",
    "associee", "associated", "related", "original", "preceding", "previous", "corrected", "ursprungliche", "ursprunglichen", ...OTHER_EVENT_DATE,
    "erapaiva", "forfallodatum", "forfallodag", "forfallsdato", "forfaldsdato", "leveransdatum", "leveringsdato", "toimituspaiva",
  ],
  tax: ["rate", "id", "number", "registration"],
  // "N° DE FACTURE ASSOCIÉE", "Original invoice number": the number of another invoice this one refers to
  invoice_number: ["date", "total", "amount", "to", "due", "associee", "associated", "related", "original", "preceding", "previous", "corrected", "ursprungliche", "ursprunglichen", "korrigierte"],
  customer: ["id", "number", "email", "phone", "address", "information", "info", "category", "service", "signature", "code"],
  vendor: ["id", "number", "email", "phone", "address", "information", "info", "code", "policy", "signature"],
  po_number: ["date", "type", "total", "status", "desc", "description"],
  transaction_id: ["date", "type", "total", "amount"],
  phone: ["email"],
  email: ["phone"],
};

/** WORD_ALIASES: spellings read as one word ("no", "#", "num" all mean number). */
const WORD_ALIASES: Record<string, string> = {
  no: "number", nr: "number", nro: "number", num: "number", "#": "number", nbr: "number", αριθμος: "number",
  amt: "amount", qty: "quantity", addr: "address", telephone: "phone", tel: "phone", "e-mail": "email",
  inv: "invoice", txn: "transaction", trans: "transaction", ref: "reference", desc: "description",
  // "Referencia: #1721", "Riferimento", "Referenz", "Referentie", "Referencja": the word reference in the languages read
  referencia: "reference", riferimento: "reference", referenz: "reference", referentie: "reference", referencja: "reference",
  subtotal: "subtotal", sub: "sub", "p.o": "po", "p.o.": "po", dt: "date", cust: "customer",
  // the word total as OCR misreads it on scanned receipts (a/o, l/i/t confusions)
  tatal: "total", totai: "total", tota: "total", totat: "total", tolal: "total", iotal: "total", t0tal: "total", tota1: "total",
};

const STOP = new Set(["the", "a", "an", "of", "for", "on", "in", "to", "and", "or", "is", "as", "at", "by", "this", "that", "with", "from", "its", "it", "be", "which", "what", "value", "document", "field", "extract", "if", "any", "name"]);

/** splitWords turns "invoiceNumber", "invoice_number" or "Invoice #:" into normalised words. */
export function splitWords(text: string): string[] {
  return text
    .replace(/\b[Nn][°º]|№/g, " number ")
    // "Num´ero", "Date d’´ech´eance": a LaTeX text layer writes an accent as a character of its own beside its letter
    .replace(/(?<=\p{L})[\u00b4\u0060\u00a8\u02c6\u02dc\u00b8\u02c7](?=\p{L})|(?<=\p{L}[’'])[\u00b4\u0060\u02c6](?=\p{L})/gu, "")
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/ß/g, "ss")
    .replace(/ł/g, "l")
    .replace(/Ł/g, "L")
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/#/g, " # ")
    .toLowerCase()
    .replace(/e-mail/g, "email")
    .replace(/p\.o\./g, "po")
    .split(/[^a-z0-9#\u03b1-\u03c9]+/)
    .filter(Boolean)
    .map((w) => WORD_ALIASES[w] ?? (OCR_TOTAL.test(w) ? "total" : w));
}

/**
 * OCR_TOTAL: the word total as OCR reads it on scans, each letter read as one it is often confused
 * with (t/i/j/l/1, o/0/a, a/e, l/i/1): "iotel", "jotal", "tota1". No word of the label languages has
 * this shape but total itself.
 */
const OCR_TOTAL = /^[tijl1][o0a][tl1i][ae][l1i]$/;

/** RATE_AT_END: a tax rate closing a label, or before the tax's name closing it ("VAT 20%", "zzgl. 19% MwSt") */
const RATE_AT_END = /(?<![\d.,])\d{1,2}(?:[.,]\d{1,2})?\s?%(\s*(?:MwSt|USt|VAT|TVA|IVA|BTW|GST|MWST|UST)\.?)?$/;

/**
 * withoutRate drops the tax rate that closes a label ("VAT 20%", "MwSt 19 %:", "zzgl. 19% MwSt"): the tax's rate, no
 * word of its label. A rate inside the label stays ("TVA 0% export", a tax table's row whose cells are the base and
 * the tax, not the tax alone). The label's end is trimmed by string methods, not a pattern: whitespace runs of a
 * hostile label would make a pattern's nested quantifiers take cubic time.
 */
function withoutRate(label: string): string {
  const end = label.trimEnd().replace(/:$/, "").trimEnd();
  const m = RATE_AT_END.exec(end);
  return m ? `${end.slice(0, m.index)} ${m[1] ?? ""}` : label;
}

/** normaliseLabel returns a label's words joined by one space, without parenthesised notes. */
export function normaliseLabel(label: string): string {
  // "VALOR TOTAL R$", "Total US$": a dollar sign's currency letters are no label word
  const words = splitWords(withoutRate(label.replace(/\([^)]*\)/g, " ").replace(/(?<![\p{L}])(?:R|US|C|A|NZ|HK|S|MX)\$/gu, " ")));
  // "Total Incl. GST RM", "Betrag EUR": the currency after a label is the amount's, not the label's
  while (words.length > 1 && CURRENCY_WORDS.has(words.at(-1)!)) words.pop();
  return words.join(" ");
}

const CURRENCY_WORDS = new Set(["rm", "myr", "eur", "usd", "gbp", "chf", "pln", "sgd", "aud", "cad", "inr", "jpy", "sek", "nok", "dkk", "czk", "huf"]);

/** INCLUSIVE: words that say an amount includes the tax ("Total Incl. GST", "Total TTC"). */
const INCLUSIVE = new Set(["incl", "inkl", "includes", "including", "inclusive", "inc", "ttc", "brutto", "gross"]);
/** TAX_EXCLUDED: words that say an amount is before tax ("Total (Excluding GST)", "Total HT"). */
const TAX_EXCLUDED = new Set(["excl", "exkl", "excluding", "exclusive", "excluded", "ht", "before", "bez"]);
const TOTAL_HEADS = new Set(["total", "grand", "amount", "gesamt", "gesamtbetrag", "summe", "montant", "totaal", "totale", "importe", "valor", "razem"]);

export interface FieldLabels {
  /** phrases that count as an exact label (normalised) */
  exact: Set<string>;
  /** words of the name, for fuzzy matching */
  nameWords: string[];
  /** content words of the description */
  descriptionWords: Set<string>;
  /** the business concept the field is, if any */
  concept: string | null;
}

const GENERIC_SUFFIX = new Set(["name", "value", "text", "info", "details", "amount", "str"]);

/** conceptByPhrase maps each phrase (and each concept's own name) to the first concept that lists it */
let conceptByPhrase: Map<string, string> | null = null;

/** conceptOf finds the business concept that a phrase names exactly, or null. */
export function conceptOf(phrase: string): string | null {
  if (!phrase) return null;
  if (!conceptByPhrase) {
    conceptByPhrase = new Map();
    for (const [concept, phrases] of Object.entries(CONCEPTS)) {
      for (const p of [concept.replace(/_/g, " "), ...phrases]) if (!conceptByPhrase.has(p)) conceptByPhrase.set(p, concept);
    }
  }
  return conceptByPhrase.get(phrase) ?? null;
}

/**
 * FIELD_NAME_CONCEPTS: field names that schemas give common fields (invoice2data's "issuer", "amount",
 * "amount_untaxed"), which as a document's labels would say too little ("Amount" heads a column of line amounts)
 */
const FIELD_NAME_CONCEPTS: Record<string, string> = {
  issuer: "vendor", "invoice issuer": "vendor", emitter: "vendor", "billed by": "vendor", sender: "vendor", "invoiced by": "vendor",
  shop: "vendor",
  sum: "total", "amount paid": "total", "total paid": "total", "paid amount": "total",
  amount: "total", "invoice amount": "total", "amount total": "total", "gross amount": "total", "amount gross": "total", "amount incl tax": "total",
  "amount untaxed": "subtotal", "untaxed amount": "subtotal", "amount net": "subtotal", "amount excl tax": "subtotal", "amount before tax": "subtotal",
  "amount tax": "tax", "tax total": "tax", "amount vat": "tax",
  // members of a totals object ("totals": { "net", "tax", "gross" })
  net: "subtotal", gross: "total", "gross total": "total",
};

/** NAME_MEMBERS: the member of a party's object that holds its name ("seller": { "name" }): it is the party itself */
const NAME_MEMBERS = new Set(["name", "company", "company name", "business name", "full name", "legal name"]);

/** isPartyNameMember says whether a member of an object is the name of the party the object is ("seller": { "name" }). */
export function isPartyNameMember(object: FieldLabels, member: string): boolean {
  return (object.concept === "vendor" || object.concept === "customer") && NAME_MEMBERS.has(splitWords(member).join(" "));
}

/** fieldLabels builds the label phrases of a field from its name, description and parent's context. */
export function fieldLabels(name: string, description: string | undefined, parent: FieldLabels | null = null): FieldLabels {
  const nameWords = splitWords(name);
  const phrase = nameWords.join(" ");
  let concept = conceptOf(phrase) ?? FIELD_NAME_CONCEPTS[phrase] ?? null;
  if (!concept && nameWords.length > 1 && GENERIC_SUFFIX.has(nameWords.at(-1)!)) {
    const head = nameWords.slice(0, -1).join(" ");
    concept = conceptOf(head) ?? FIELD_NAME_CONCEPTS[head] ?? null;
  }
  if (!concept && parent && isPartyNameMember(parent, name)) concept = parent.concept;
  if (!concept && nameWords.length > 1 && nameWords[0] === "total") concept = conceptOf(nameWords.slice(1).join(" ")) === "tax" ? "tax" : null;
  const descriptionWords = new Set(splitWords(description ?? "").filter((w) => !STOP.has(w)));
  if (!concept && description) concept = conceptInDescription(splitWords(description), nameWords);
  const exact = new Set<string>([phrase]);
  if (concept) for (const p of CONCEPTS[concept]!) exact.add(p);
  if (nameWords.length > 1 && GENERIC_SUFFIX.has(nameWords.at(-1)!)) exact.add(nameWords.slice(0, -1).join(" "));
  if (parent) {
    // "vendor.name" is also labelled "Vendor Name", and a bare "Vendor:" label names the vendor itself
    for (const p of parent.exact) exact.add(`${p} ${phrase}`);
    if (["name", "company", "company name", "business name", "full name"].includes(phrase)) for (const p of parent.exact) exact.add(p);
  }
  return { exact, nameWords, descriptionWords, concept };
}

/** conceptInDescription finds a concept whose phrase the description contains and the name agrees with. */
function conceptInDescription(words: string[], nameWords: string[]): string | null {
  const text = ` ${words.join(" ")} `;
  let best: { concept: string; length: number } | null = null;
  for (const [concept, phrases] of Object.entries(CONCEPTS)) {
    for (const p of phrases) {
      if (p.length < 4 || !text.includes(` ${p} `)) continue;
      // only trust the description when the name shares a word with the concept's phrases
      const shares = phrases.some((q) => q.split(" ").some((w) => nameWords.includes(w)));
      if (shares && (!best || p.length > best.length)) best = { concept, length: p.length };
    }
  }
  return best?.concept ?? null;
}

const isParty = (field: FieldLabels) => field.concept === "vendor" || field.concept === "customer";

/** PLACE_DATED: a town and the word a letter's date follows ("München, den", "Paris, le", "Madrid, el", "Roma, lì") */
const PLACE_DATED = /^\p{Lu}[\p{L}. -]{1,40},\s*(?:den|le|el|il|lì|li)$/u;

/** labelScore rates how well a document label names the field: 1 exact, 0.5..0.99 fuzzy, 0 none. */
export function labelScore(label: string, field: FieldLabels): number {
  const norm = normaliseLabel(label);
  if (!norm) return 0;
  const words = norm.split(" ");
  // "Liefer- und Rechnungsdatum": a compound label word that ends the label names the field
  const head = words.at(-1)!;
  // (not for parties: "LE FOURNISSEUR" is a company's name, not a label)
  const compoundHead = words.length > 1 && head.length >= 8 && field.exact.has(head) && field.concept !== "vendor" && field.concept !== "customer";
  // "Total Includes GST", "Gesamtbetrag inkl. MwSt": a total that says it includes the tax
  // "Total Sales (Excluding GST)", "Total (Inclusive of GST)": a note in parentheses says which total it is
  const noted = label.includes("(") ? splitWords(label) : words;
  if (field.concept === "total" && noted.some((w) => TAX_EXCLUDED.has(w))) return 0;
  if (field.concept === "total" && TOTAL_HEADS.has(words[0]!) && noted.some((w) => INCLUSIVE.has(w)) && !noted.some((w) => ["sub", "net", "netto", "qty"].includes(w))) return 1;
  if (field.concept && EXCLUDED[field.concept]?.some((w) => words.includes(w)) && !field.exact.has(norm) && !compoundHead) return 0;
  if (field.exact.has(norm)) return 1;
  if (compoundHead) return 0.85;
  // "München, den 01.11.2024", "Paris, le 3 mars 2024": a letter dated at its place, the date it was written
  if (field.concept === "date" && PLACE_DATED.test(label.trim())) return 0.9;
  // "Enter your favorite superhero", "Select your favorite planet": a form's prompt around the field's own words;
  // the words after the prompt name the field, but a "Select" prompt may be followed by its options, so not settled
  const prompted = promptedLabel(words);
  if (prompted && field.exact.has(prompted.rest)) return prompted.entry ? 1 : 0.9;
  // a word broken by the text layer ("Br uttosumme", "Zahlbetr ag")
  if (words.length > 1 && field.exact.has(words.join(""))) return 0.9;
  // a label that exactly names another concept ("TOTAL" for a tax field) is that concept's
  const other = conceptOf(norm);
  if (other && other !== field.concept) return 0;
  let best = 0;
  // "LOGO LE FOURNISSEUR FACTURE N°": a heading run into the label, whose last two words name the field exactly
  // (not settled: the words before may qualify it; not for parties, whose names end in label words)
  if (words.length > 2 && field.exact.has(words.slice(-2).join(" ")) && !isParty(field)) best = 0.75;
  const content = words.filter((w) => !STOP.has(w));
  if (content.length === 0) return 0;
  for (const phrase of field.exact) {
    const p = phrase.split(" ");
    const shared = content.filter((w) => p.includes(w)).length;
    const union = new Set([...content, ...p]).size;
    best = Math.max(best, shared / union);
  }
  // a label made only of description words ("Amount Payable" for a described total) is a weak match
  const inDescription = content.filter((w) => field.descriptionWords.has(w)).length / content.length;
  if (inDescription === 1 && content.length >= 2) best = Math.max(best, 0.5);
  return best >= 0.5 ? Math.min(0.9, best) : 0;
}

/** PROMPT_WORDS: the words a form's prompt opens with before naming what it asks for ("Please enter your", "Bitte geben Sie Ihre", "Saisissez votre"). */
const PROMPT_WORDS = new Set([
  "please", "enter", "select", "choose", "type", "provide", "write", "fill", "in", "pick", "specify", "indicate", "your", "the", "a", "an",
  "bitte", "geben", "sie", "ihre", "ihren", "ihr", "wahlen", "eingeben", "saisissez", "entrez", "indiquez", "choisissez", "votre", "vos", "veuillez", "saisir",
  "vul", "uw", "kies", "voer", "introduzca", "ingrese", "seleccione", "su", "inserisci", "seleziona", "il", "tuo", "la", "tua", "digite", "selecione", "informe", "seu", "sua", "podaj", "wybierz", "wpisz",
]);
/** PROMPT_OPENERS: the words that make a label a prompt rather than a title ("Your Name" is a label too: "your" alone counts). */
const PROMPT_OPENERS = new Set(["please", "enter", "select", "choose", "type", "provide", "write", "fill", "pick", "specify", "indicate", "your", "bitte", "saisissez", "entrez", "indiquez", "choisissez", "veuillez", "votre", "vul", "kies", "voer", "uw", "introduzca", "ingrese", "seleccione", "inserisci", "seleziona", "digite", "selecione", "informe", "podaj", "wybierz", "wpisz"]);

/**
 * ENTRY_PROMPTS: prompt words that ask for text typed in ("Enter your name"), whose answer is the one
 * value under the prompt; a "Select" prompt may be followed by all its options.
 */
const ENTRY_PROMPTS = new Set(["enter", "type", "write", "fill", "provide", "eingeben", "saisissez", "entrez", "saisir", "vul", "voer", "introduzca", "ingrese", "inserisci", "digite", "wpisz", "podaj"]);

/**
 * promptedLabel: the words after a form prompt's opening ("enter your favorite superhero" -> "favorite
 * superhero") and whether the prompt asks for typed text, or null when the label is no prompt.
 */
function promptedLabel(words: string[]): { rest: string; entry: boolean } | null {
  let i = 0;
  while (i < words.length - 1 && PROMPT_WORDS.has(words[i]!)) i++;
  const opening = words.slice(0, i);
  if (i === 0 || !opening.some((w) => PROMPT_OPENERS.has(w))) return null;
  return { rest: words.slice(i).join(" "), entry: opening.some((w) => ENTRY_PROMPTS.has(w)) };
}

/** conceptWords: every word of every concept phrase, plus the usual label words (built once) */
let conceptWords: Set<string> | null = null;

/** labelVocabulary collects every word that may be part of a label, for splitting "A: x B C: y". */
export function labelVocabulary(extra: Iterable<string>): Set<string> {
  if (!conceptWords) {
    conceptWords = new Set<string>(["number", "date", "id", "code", "reference", "no", "total", "amount", "name", "due", "address", ...INCLUSIVE, ...CURRENCY_WORDS, "excluding", "exclusive", "excl", ...OTHER_EVENT_DATE]);
    for (const phrases of Object.values(CONCEPTS)) for (const p of phrases) for (const w of p.split(" ")) conceptWords.add(w);
  }
  const vocab = new Set(conceptWords);
  for (const w of extra) vocab.add(w);
  return vocab;
}
