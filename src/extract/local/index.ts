/**
 * extractLocal: typed extraction from a document's markdown without an AI provider. Deterministic:
 * the markdown is read into label/value candidates (parse.ts), each schema field is matched to the
 * candidates by its name, description and business synonyms (labels.ts), and the winning value is
 * coerced to the field's type (values.ts). Fields with no labelled value fall back to typed patterns
 * (an email, a date, a currency) at a lower confidence.
 *
 * Confidence: 0.9+ only for an exact label with a well-typed value; fuzzy labels stay below 0.8 and
 * pattern-only values below 0.65, unless evidence the page gives settles them (0.8-0.85): the same
 * value printed in two places alike (a form's header and footer, a slip's two parts, a letterhead and
 * its sender line, a date heading the page and written again), arithmetic (net plus tax, cash less
 * change, a tax row), a check digit (IBAN, payment reference), a statement of the currency, a parties
 * sentence set against the reader. OCR-read text is settled by less: its letters and digits may be
 * misread (names stay below 0.8; dates and amounts need a repeat, arithmetic or a till's timestamp).
 * Every citation is a verbatim slice of the markdown.
 */
import type { FieldDefinition, TypedSchema } from "../../schema/typed";
import { conceptOf, fieldLabels, isPartyNameMember, labelScore, labelVocabulary, normaliseLabel, splitWords, type FieldLabels } from "./labels";
import { parseDocument, type Candidate, type Line, type ParsedDocument, type Table } from "./parse";
import { findIssuer, nameLike } from "./parties";
import { addedUpTotals, cashTendered, lostLeadingDigit, netPlusTax, netTaxRounded, oneDigitOff, receiptPayment, slipAmount, taxSummaryRow, totalEvidence, type SlipAmount } from "./amounts";
import { mt940Value } from "./mt940";
import { itemRoles, lineItems } from "./lineItems";
import { agreementProvider } from "./agreements";
import { formHeaderValue } from "./formHeader";
import { issuerOfReceiptStub, numberWithSeries } from "./fiscal";
import {
  CURRENCY_CODES, DOLLAR_SIGN, escapeRe, EMAIL_RE, ID_RE, PHONE_RE, URL_RE, allDates, dateReadings, ocrRepairedDates, type DecimalMark, allMatches, allNumbers, cleanText, firstMatch, parseBoolean, parseCurrency, parseDate, parseNumber,
} from "./values";

export interface LocalFieldResult {
  /** value: type-conformant to the field, or null when not found */
  value: unknown;
  /** confidence: 0..1; 0 when not found */
  confidence: number;
  /** citation: the source line(s) the value came from, verbatim, or null */
  citation: string | null;
  found: boolean;
}

interface FieldOutcome extends LocalFieldResult {
  /** offsets of the citation in the markdown */
  span: [number, number] | null;
  /** ocrSettled: the page settles the OCR-read value by two readings alike, so the OCR caps of ocrCalibrated do not apply */
  ocrSettled?: boolean;
}

const NOT_FOUND: FieldOutcome = { value: null, confidence: 0, citation: null, found: false, span: null };

/** KIND_CONFIDENCE: confidence of an exact label with a well-typed value, by how the pair was found. */
const KIND_CONFIDENCE: Record<Candidate["kind"], number> = {
  colon: 0.95, cell: 0.95, "cell-last": 0.9, inline: 0.9, "next-line": 0.85, column: 0.88, "column-sum": 0.9, prefix: 0.85, phrase: 0.7, title: 0.85, "header-row": 0.7,
};

export interface LocalOptions {
  /** ocrQuality: the document's ocr_quality (0..1) when its text came from OCR; null or absent = a text layer */
  ocrQuality?: number | null;
}

/** extractLocal extracts every field of the schema from the markdown. */
export function extractLocal(markdown: string, schema: TypedSchema, options: LocalOptions = {}): Record<string, LocalFieldResult> {
  const doc = parseDocument(markdown, labelVocabulary(schemaWords(schema)));
  doc.ocrQuality = options.ocrQuality ?? null;
  const out: Record<string, LocalFieldResult> = {};
  for (const [name, def] of Object.entries(schema)) {
    const { span: _span, ocrSettled, ...result } = extractField(doc, name, def, null);
    const calibrated = doc.ocrQuality === null || !result.found || ocrSettled ? result : { ...result, confidence: ocrCalibrated(result.confidence, fieldLabels(name, def.description, null), doc.ocrQuality) };
    out[name] = isLabelText(calibrated.value, name, schema) ? { ...calibrated, confidence: Math.min(calibrated.confidence, LABEL_TEXT_CONFIDENCE) } : calibrated;
  }
  return out;
}

/** LABEL_TEXT_CONFIDENCE: the most a value that reads as label text may get (below the spec's 0.8 band). */
const LABEL_TEXT_CONFIDENCE = 0.6;

/** LABEL_OPENING: label phrases that open a party's line on payment slips and bills ("Payable to ..."). */
const LABEL_OPENING = /^(payable (to|by)|pay to|zahlbar (an|durch)|payable par|pagabile (a|da)|pagar a|te betalen aan)\b/i;

/**
 * isLabelText tells whether a string value is itself label text rather than what a label names: it
 * opens with a label phrase ("Payable to Robert Schneider AG" under "Account / Payable to"), or it
 * holds the names of two or more of the schema's other fields ("HEIGHT WEIGHT CHARACTER NAME EYES",
 * a form's row of labels read as the value of the label before it). Such a value may still be right
 * (a name that contains a label word), so it is kept, but never settled.
 */
function isLabelText(value: unknown, field: string, schema: TypedSchema): boolean {
  if (typeof value !== "string") return false;
  const words = value.split(/\s+/);
  if (LABEL_OPENING.test(value)) return true;
  for (let n = 2; n <= 3 && n <= words.length; n++) if (conceptOf(normaliseLabel(words.slice(0, n).join(" ")))) return true;
  const own = new Set(splitWords(field));
  const others = new Set(Object.keys(schema).filter((k) => k !== field).flatMap(splitWords).filter((w) => !own.has(w)));
  const named = new Set(words.map((w) => w.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "")).filter((w) => others.has(w)));
  return named.size >= 2;
}

/** schemaWords collects the words of every field name, nested ones included. */
function schemaWords(schema: TypedSchema): string[] {
  const words: string[] = [];
  const visit = (fields: Record<string, FieldDefinition>) => {
    for (const [name, def] of Object.entries(fields)) {
      words.push(...splitWords(name));
      if (def.properties) visit(def.properties);
      if (def.items?.properties) visit(def.items.properties);
    }
  };
  visit(schema);
  return words;
}

function extractField(doc: ParsedDocument, name: string, def: FieldDefinition, parent: FieldLabels | null): FieldOutcome {
  const labels = fieldLabels(name, def.description, parent);
  if (def.type === "object") return extractObject(doc, name, def, labels, parent);
  if (def.type === "array") return extractArray(doc, name, def, parent);
  // an MT940 statement's tags fix what each value is: read from its tag, it is settled
  const tagged = parent ? null : mt940Value(doc, labels, def.type);
  if (tagged) return cite(doc, tagged.value, 0.9, tagged.start, tagged.end);
  // a purchase order is issued by its buyer: a "Ship to" block there names where the goods go, not who orders them
  const placer = !parent && labels.concept === "customer" && purchaseOrder(doc);
  const labelled = extractScalar(doc, def, placer ? { ...labels, exact: new Set([...labels.exact].filter((p) => !DELIVERY_LABEL.test(p))) } : labels, parent);
  if (placer && !labelled) {
    const issuer = findIssuer(doc);
    if (issuer) return cite(doc, issuer.name, Math.min(issuer.confidence, ORDER_PLACER_CAP), issuer.start, issuer.end);
  }
  // an official form's number, title, year and agency stand in its header, unlabelled; a settled label still wins
  // a payment slip's "Currency / Amount" part says what is to pay
  if (!parent && def.type === "number" && (labels.concept === "total" || labels.nameWords.at(-1) === "amount")) {
    const slip = slipAmount(doc);
    if (slip) return slipSettled(doc, slip, labelled);
  }
  const unsettled = !parent && def.type === "string" && !(labelled && labelled.confidence >= 0.8);
  const header = unsettled ? formHeaderValue(doc, labels) : null;
  if (header) return cite(doc, header.value, header.confidence, header.start, header.end);
  // an NF-e's number beside its series and its issuer in the receipt stub, when no settled label says otherwise
  const fiscal = !unsettled ? null : labels.concept === "invoice_number" ? numberWithSeries(doc) : labels.concept === "vendor" ? issuerOfReceiptStub(doc) : null;
  if (fiscal && fiscal.confidence >= (labelled?.confidence ?? 0)) return cite(doc, fiscal.value, fiscal.confidence, fiscal.start, fiscal.end);
  return settleOcrDate(doc, labels, labelled ?? patternFallback(doc, def, labels) ?? NOT_FOUND);
}

/** ORDER_TITLE: a purchase order's title in the languages orders come in. */
const ORDER_TITLE = /^(?:[\p{L}&.,' -]{0,60}\s)?(purchase order|order form|bestellung|bon de commande|orden de compra|ordine d'acquisto|ordine di acquisto|pedido de compra|inkooporder|zam[óo]wienie)\b/iu;

/** purchaseOrder says whether the document is a purchase order: its title, among its first lines, says so. */
function purchaseOrder(doc: ParsedDocument): boolean {
  return doc.lines.filter((l) => l.plain).slice(0, 4).some((l) => ORDER_TITLE.test(l.plain));
}

/** DELIVERY_LABEL: a customer label that names where goods are delivered ("ship to", "Lieferadresse"), not who ordered them. */
const DELIVERY_LABEL = /^(ship to|deliver to|lieferadresse|adresse de livraison)$/;

/** ORDER_PLACER_CAP: the most an order's buyer read as its issuer gets (the role is inferred from the title, unsettled). */
const ORDER_PLACER_CAP = 0.75;

/**
 * settleOcrDate: an OCR-read date is settled when the page prints it twice (again inside an invoice
 * number too), stamps it as a till does, or was read well (ocr_quality >= 0.8: 28 of 29 such dates
 * right on SROIE); otherwise one reading may hold a misread digit, and it stays at OCR_UNSETTLED_CAP
 * at most. With no date read, or one years ahead, a date with a known OCR misread put back is
 * returned below 0.6 (repairedOcrDate).
 */
function settleOcrDate(doc: ParsedDocument, labels: FieldLabels, outcome: FieldOutcome): FieldOutcome {
  if (doc.ocrQuality === null || !isDateField(labels)) return outcome;
  const repaired = repairedOcrDate(doc, outcome);
  if (repaired) return repaired;
  if (!outcome.found || typeof outcome.value !== "string") return outcome;
  const stamp = tillStamp(doc, outcome.value, outcome.span);
  // "19/10/2018 20:49:59", "Date: 03 Mar 2018": the till's timestamp or a labelled date, in full, on a page read
  // fairly well (on SROIE none of these is wrong from ocr_quality 0.7; the misread dates sit on pages below 0.67);
  // a timestamp written in one consistent form ("22/12/2017 14:03", not "6/08/2015 20:01") from ocr_quality 0.5
  if ((stamp && doc.ocrQuality >= OCR_FAIR) || (stamp === "timed" && doc.ocrQuality >= OCR_POOR && consistentDigits(outcome.value))) {
    const open = parseDate(outcome.value)?.ambiguous && !doc.dateOrderKnown;
    return { ...outcome, confidence: round(Math.max(outcome.confidence, open ? outcome.confidence : TILL_STAMP_CONFIDENCE)) };
  }
  if (dateInNumber(doc, outcome.value)) return { ...outcome, confidence: round(Math.max(outcome.confidence, TILL_STAMP_CONFIDENCE)) };
  if (doc.ocrQuality >= OCR_WELL_READ) return outcome;
  const readings = allDates(doc.markdown).filter((d) => d.text === outcome.value).length;
  return readings >= 2 ? outcome : { ...outcome, confidence: Math.min(outcome.confidence, OCR_UNSETTLED_CAP) };
}

/**
 * dateInNumber says whether the page prints the date again inside a longer number, as tills number
 * their invoices by the day ("12/03/18" and "Tax Invoice: BATO2201803120255"): the year, month and day
 * of one of its readings, eight digits in a row, within a run of at least ten digits. Two readings of
 * the same digits settle them, and the order of day and month.
 */
function dateInNumber(doc: ParsedDocument, value: string): boolean {
  const d = parseDate(value);
  if (!d || d.text !== value.trim()) return false;
  const runs = [...doc.markdown.matchAll(/\d{10,}/g)].map((m) => m[0]);
  const readings = dateReadings(d).map((r) => r.replace(/-/g, ""));
  return runs.some((run) => readings.some((r) => run.includes(r)));
}

/** REPAIRED_DATE: the confidence of a date read once an OCR misread is put back: a reading, not what the page prints. */
const REPAIRED_DATE = 0.5;

/**
 * repairedOcrDate: when OCR text yields no date, or only one years ahead ("10/03/2078"), the date
 * that reads as one once a known misread is put back (values.ts ocrRepairedDates), preferring one
 * under a date label or beside a time of day as a till prints it. Returned with the misread
 * characters put back, cited as read, below 0.6. Null when the outcome stands.
 */
function repairedOcrDate(doc: ParsedDocument, outcome: FieldOutcome): FieldOutcome | null {
  const thisYear = new Date().getUTCFullYear();
  const read = outcome.found && typeof outcome.value === "string" ? parseDate(outcome.value) : null;
  if (outcome.found && !(read && +read.iso.slice(0, 4) > thisYear + 1)) return null;
  const repairs = ocrRepairedDates(doc.markdown, thisYear);
  const stamped = repairs.find((r) => followedByTime(doc.markdown, r.index + r.raw.length) || DATE_LABEL_END.test(doc.markdown.slice(Math.max(0, r.index - 24), r.index).split("\n").at(-1) ?? ""));
  const pick = stamped ?? (repairs.length && repairs.every((r) => r.iso === repairs[0]!.iso) ? repairs[0] : undefined);
  return pick ? cite(doc, pick.text, REPAIRED_DATE, pick.index, pick.index + pick.raw.length) : null;
}

/** followedByTime says whether a time of day ("09:03", "20:54:50") follows the offset on its line, as a till prints it after the date. */
function followedByTime(text: string, offset: number): boolean {
  const time = text.slice(offset, offset + 12).match(/^[ \t]{1,3}(\d{1,2}):\s?(\d{2})(?!\d)/);
  return time !== null && +time[1]! < 24 && +time[2]! < 60;
}

/** OCR_FAIR: the ocr_quality from which a date printed as a till's timestamp or under its label is trusted as read. */
const OCR_FAIR = 0.7;
/** OCR_POOR: the ocr_quality from which a till's timestamp written in one consistent form is trusted as read. */
const OCR_POOR = 0.5;

/**
 * consistentDigits says whether a numeric date pads its day and month alike: a till prints one fixed
 * form, zero-padded ("06/03/2018") or not ("6/3/2018", "16/3/2018"), so a single digit beside a
 * zero-padded one ("6/08/2015") holds a misread or lost digit. Dates with a month name pass.
 */
function consistentDigits(value: string): boolean {
  const m = value.match(/^(\d{1,4})[/.-](\d{1,2})[/.-](\d{1,4})$/);
  if (!m) return true;
  // year first ("2018-03-06"): month and day; else day and month (either order)
  const [a, b] = m[1]!.length === 4 ? [m[2]!, m[3]!] : [m[1]!, m[2]!];
  const padded = (x: string) => x.length === 2 && x.startsWith("0");
  return !((padded(a) && b.length === 1) || (padded(b) && a.length === 1));
}
const TILL_STAMP_CONFIDENCE = 0.85;

/**
 * tillStamp says whether a date is printed as a receipt prints its purchase date: a plausible purchase
 * date (not years ahead) with a time of day right after it, or in full (a four-digit year) under a
 * date label of its own.
 */
function tillStamp(doc: ParsedDocument, value: string, span: [number, number] | null): "timed" | "labelled" | null {
  const d = parseDate(value);
  if (!d || +d.iso.slice(0, 4) > new Date().getUTCFullYear() + 1) return null;
  const at = doc.markdown.indexOf(value, span?.[0] ?? 0);
  if (at < 0) return null;
  // "12-01-19 21:13": a till prints a two-digit year too, with the time beside it, or under its own
  // label ("29-12-2017 Time : 20:17"), or the time first on the line ("06:20PM #468008 20-02-18")
  const after = doc.markdown.slice(at + value.length, at + value.length + 20).match(/^\s{0,3}(?:(?:time|masa|zeit|heure|hora)\s*[:.]?\s*)?(\d{1,2}):\s?(\d{2})/i);
  const before = doc.markdown.slice(Math.max(0, at - 24), at).split("\n").at(-1) ?? "";
  const earlier = before.match(/(?<![\d:])(\d{1,2}):(\d{2})(?::\d{2})?\s?(?:[AP]M)?(?![\d:])/i);
  const time = after ?? earlier;
  if (time && +time[1]! < 24 && +time[2]! < 60) return "timed";
  if (!/\d{4}/.test(value)) return null;
  // "Date: 19/10/2018", "DATE 19/10/2018", "BIZDATE: 12/03/2018": under a date label of its own, or one
  // OCR misread by a letter ("Dale:", "Nate :")
  return DATE_LABEL_END.test(before) ? "labelled" : null;
}

/**
 * DATE_LABEL_END: a date label right before a value: "Date", a word ending in it ("BIZDATE", "InvDate"),
 * its Malay, German, Spanish and Portuguese words, and "date" with one letter misread as OCR does on
 * thermal paper (D read as N, T, F, O; t as l).
 */
const DATE_LABEL_END = /(?<!\p{L})(\p{L}{0,4}date|tarikh|datum|fecha|data|[dntfo]ate|da[l1]e)\s*[:;.]?\s*$/iu;

/** SLIP_SETTLED: the confidence of the amount a slip prints in its receipt and its payment part alike. */
const SLIP_SETTLED = 0.85;

/**
 * slipSettled weighs a labelled amount against the payment slip's: the same amount is settled; a
 * different one under a settled label stays (a slip may ask for a part) but unsettled, and under a
 * weak label gives way to the slip's, printed on it twice.
 */
function slipSettled(doc: ParsedDocument, slip: SlipAmount, labelled: FieldOutcome | null): FieldOutcome {
  const settled = slip.times >= 2 ? SLIP_SETTLED : 0.7;
  if (labelled && typeof labelled.value === "number" && Math.abs(labelled.value - slip.value) < 0.005) return { ...labelled, confidence: round(Math.max(labelled.confidence, settled)) };
  if (labelled && labelled.confidence >= 0.9) return { ...labelled, confidence: Math.min(labelled.confidence, 0.75) };
  return cite(doc, slip.value, settled, slip.start, slip.end);
}

/** cite builds a field outcome whose citation is the markdown slice [start, end). */
function cite(doc: ParsedDocument, value: unknown, confidence: number, start: number, end: number): FieldOutcome {
  return { value, confidence: round(confidence), citation: doc.markdown.slice(start, end), found: true, span: [start, end] };
}

const sameAmount = (a: number, b: number) => Math.abs(a - b) < 0.005;
const round = (x: number) => Math.round(Math.max(0, Math.min(1, x)) * 1000) / 1000;

interface Scored {
  candidate: Candidate;
  value: unknown;
  confidence: number;
  rank: number;
}

/** extractScalar picks the best labelled candidate for a string, number, integer or boolean field. */
function extractScalar(doc: ParsedDocument, def: FieldDefinition, labels: FieldLabels, parent: FieldLabels | null): FieldOutcome | null {
  const scored: Scored[] = [];
  const all = [...doc.candidates, ...phraseCandidates(doc, labels)];
  for (const candidate of all) {
    if (candidate.block && labels.concept !== "address") continue;
    // "1 SUB TOTAL 159,00" read both as "SUB TOTAL" and as "TOTAL": the longer label is the line's, and names something else
    if (all.some((o) => o !== candidate && o.start === candidate.start && o.value === candidate.value && normaliseLabel(o.label).endsWith(` ${normaliseLabel(candidate.label)}`) && labelScore(o.label, labels) === 0)) continue;
    let score = labelScore(candidate.label, labels);
    // the lines of a "BILL TO:" block are its owner's address
    if (score === 0 && candidate.block && labels.concept === "address" && parent && labelScore(candidate.label, parent) > 0) score = 0.9;
    // "Name: Lieferant GmbH" in the seller's block ("### Verkäufer") names the seller
    if (score === 0 && isPartyField(labels) && !parent && PARTY_NAME_LABEL.test(normaliseLabel(candidate.label)) && candidate.section && (labelScore(candidate.section, labels) === 1 || sideBySideOwner(candidate, all, labels))) score = 1;
    if (score === 0) continue;
    // "Company rio; 1474703-K", "from the date of purchase": one unpunctuated word is no party label
    if (isPartyField(labels) && (candidate.kind === "prefix" || candidate.kind === "phrase") && normaliseLabel(candidate.label).split(" ").length < 2) continue;
    // an item table's "Total" column holds line totals, not the document's
    if (candidate.kind === "column" && isAmountField(labels) && (candidate.tableWidth ?? 0) >= 3) continue;
    // "GST Summary ... Total 5.57 0.33": the tax breakdown's sum row (taxable amount and tax), not the amount paid
    if (labels.concept === "total" && taxSummaryRow(doc, candidate.start)) continue;
    // "... MSFTGE99 Sub" / "... 9876543 Total 150.00": OCR split "Sub Total" over two lines, the total is the subtotal
    if (labels.concept === "total" && doc.ocrQuality !== null && subSplitOff(doc, candidate)) continue;
    const coerced = coerce(candidate, def, labels, parent, doc.decimalMark);
    if (!coerced) continue;
    // "Betrag" over "0) /": a bare zero without cents on the line under a total's label is OCR's noise, not an amount
    if (labels.concept === "total" && candidate.kind === "next-line" && coerced.value === 0 && !/\d[.,]\d{2}(?!\d)/.test(candidate.value)) continue;
    let base = KIND_CONFIDENCE[candidate.kind];
    // a column of several values is a list, its first cell one of them; but the first cell under a party's own title
    // ("| Sprzedawca | Nabywca |" over "| Systemy Internetowe S.A. | ... |") is the party's name, heading its address block
    const partyBlock = isPartyField(labels) && score === 1 && hasCompanyForm(String(coerced.value));
    if (candidate.kind === "column" && (candidate.columnValues ?? 1) > 1 && !partyBlock) base = 0.55;
    // a name read from the line under a label or after an unpunctuated word may be a title ("Physiotherapeutin")
    if (isPartyField(labels) && ["next-line", "prefix", "phrase"].includes(candidate.kind) && !hasCompanyForm(String(coerced.value))) base = Math.min(base, 0.75);
    let confidence = score === 1 ? base : Math.min(0.75, 0.45 + 0.3 * score) * (base / 0.95);
    confidence *= coerced.quality * dateDoubt(coerced, doc);
    // "Datum: 30.10.2024 Zeit: 04:59:13 Seite: 1": when the page was printed, not the document's date
    if (isDateField(labels) && PRINT_STAMP.test(doc.markdown.slice(candidate.start, candidate.end))) confidence *= 0.75;
    let rank = confidence + meaningBonus(candidate.label, labels);
    if (parent && candidate.section && labelScore(candidate.section, parent) > 0) rank += 0.2;
    scored.push({ candidate, value: coerced.value, confidence, rank });
  }
  if (labels.concept === "total" && def.type === "number" && !parent) scored.push(...netAfterSubtotal(doc, all));
  if (scored.length === 0) return null;
  scored.sort((a, b) => b.rank - a.rank || a.candidate.order - b.candidate.order);
  let best = scored[0]!;
  // "Verkäufer:" over "Physiotherapeutin" / "Tanja Tinder": a trade's title heads a sole trader's block, and the name
  // under it is the one the page gives again (the account's holder, the e-mail's local part)
  if (isPartyField(labels) && best.candidate.kind === "next-line") {
    const named = nameUnderTitle(doc, best.candidate, all);
    if (named) best = { ...best, candidate: named, value: named.value };
  }
  let confidence = best.confidence;
  // another equally good label with a different value makes the pick uncertain
  const rival = scored.find((s) => s !== best && s.rank >= best.rank - 0.05 && JSON.stringify(s.value) !== JSON.stringify(best.value));
  if (rival) confidence = Math.min(confidence - 0.1, 0.85);
  if (labels.concept === "total" && typeof best.value === "number" && !parent) {
    const evidence = totalEvidence(doc, best.candidate, best.value);
    if (evidence.better) {
      best = { candidate: evidence.better.candidate, value: evidence.better.value, confidence: evidence.betterConfidence, rank: best.rank };
      confidence = evidence.betterConfidence;
    }
    // a rival label's amount that nothing on the page confirms does not unsettle one that the page adds up to
    else if (rival && evidence.corroborated && typeof rival.value === "number" && !totalEvidence(doc, rival.candidate, rival.value).corroborated) confidence = best.confidence;
    if (evidence.contradicted) confidence *= 0.75;
    // "Total RM 3145" on a page of two-decimal amounts: OCR lost the point ("TOTAL 343." kept its point and lost the cents)
    const digits = cleanText(best.candidate.value).match(/^\D*?(\d{3,5})(?!\s?[.,])\D*$/)?.[1];
    if (!evidence.better && !evidence.corroborated && doc.ocrQuality !== null && digits && Number(digits) === best.value && twoDecimalPage(doc)) {
      best = { ...best, value: Number(digits) / 100 };
      confidence = Math.min(confidence, ROUNDED_TOTAL_CAP);
    }
    // "TOTAL 343." on a page of two-decimal amounts: OCR lost the cents after the point; the amount is not what was paid as read
    if (!evidence.better && !evidence.corroborated && doc.ocrQuality !== null && /\d\s?[.,]\s*$/.test(cleanText(best.candidate.value)) && twoDecimalPage(doc)) {
      confidence = Math.min(confidence, CUT_AMOUNT_CAP);
    }
    // "Total Sales RM 64 13" on a page that prints its amounts so ("RM 5 83", "RM 0 02"): OCR read the point as a space
    const spaced = cleanText(best.candidate.value).match(/^\D*?(?<![\d.,])(\d{1,5}) (\d{2})\D*$/);
    if (!evidence.better && !evidence.corroborated && doc.ocrQuality !== null && spaced && Number(spaced[1]) === best.value && spacedPointPage(doc, best.candidate.start)) {
      best = { ...best, value: Number(`${spaced[1]}.${spaced[2]}`) };
      confidence = Math.min(confidence, ROUNDED_TOTAL_CAP);
    }
    // "TOTAL 60.31 / ROUNDING ADJ -0.01": a page that rounds its cash total to 5 cents is paid the rounded amount
    const read = Number(best.value);
    const rounded = Math.round(read * 20) / 20;
    const offGrid = Math.abs(rounded - read) > 0.0049 && ROUNDING_LINE.test(doc.markdown);
    if (!evidence.better && !evidence.corroborated && offGrid) {
      best = { ...best, value: rounded };
      confidence = Math.min(confidence, ROUNDED_TOTAL_CAP);
    }
    // "Total Sales (Inclusive of GST) : 400.96" paid with "CASH 101.00": more than was handed over, a digit was misread;
    // the subtotal, tax and cash rounding that add up to no more than the cash are what was paid, computed (below 0.6)
    const tendered = doc.ocrQuality !== null && !evidence.corroborated ? cashTendered(doc) : null;
    const computed = tendered !== null && Number(best.value) > tendered + 0.005 ? netTaxRounded(doc) : null;
    if (computed && tendered !== null && computed.value <= tendered + 0.005) {
      best = { ...best, candidate: computed.candidate, value: computed.value };
      confidence = NET_TAX_ROUNDED;
    }
    // "TOTAL 53.35" under a subtotal 144.68, tax 8.68 and rounding 0.01; "Total Sales 75,06" over a tax summary row
    // "70.75 4,25": a total that cannot be what was paid (below the subtotal, or off the 5-cent grid that the sum
    // lands on) lost or misread a digit, where the page's other amounts add up to one sum a digit away; the sum is
    // what was paid, computed (below 0.6). A plausible total a digit away from a sum stays as printed, unless the sum's
    // subtotal and tax confirm each other ("Total Sales (Excluding GST) 51.42 / Total GST 3.08", 6 %: "64.50" is 54.50).
    if (doc.ocrQuality !== null && !evidence.corroborated && !evidence.better && best.candidate.label !== "subtotal") {
      const read = Number(best.value);
      const onGrid = (x: number) => Math.round(x * 100) % 5 === 0;
      const near = addedUpTotals(doc).filter(
        (s) =>
          !sameAmount(s.value, read) &&
          ((lostLeadingDigit(read, s.value) && read < s.value / 2) || (oneDigitOff(read, s.value) && ((!onGrid(read) && onGrid(s.value)) || s.wholeRate))),
      );
      if (near.length && near.every((s) => sameAmount(s.value, near[0]!.value))) {
        const start = Math.min(...near.map((s) => s.start));
        best = { ...best, candidate: { ...best.candidate, start, end: Math.max(start, near[0]!.end) }, value: near[0]!.value };
        confidence = NET_TAX_ROUNDED;
      }
    }
    // digits read by OCR are settled only when the page repeats or adds up to them
    if (doc.ocrQuality !== null && !evidence.corroborated) confidence = Math.min(confidence, OCR_UNSETTLED_CAP);
    // a confirmed amount off the 5-cent grid on a page that rounds cash totals: the sum the page adds up to,
    // but what was paid may be the rounded amount, so it is not settled
    else if (evidence.corroborated && offGrid) confidence = Math.min(confidence, OCR_UNSETTLED_CAP);
    // an amount the page confirms (paid less change, a tax row, a payment line) is settled by the data, however loosely labelled
    else if (evidence.corroborated && !evidence.contradicted) confidence = Math.max(confidence, CORROBORATED_TOTAL);
  }
  return cite(doc, best.value, confidence, best.candidate.start, best.candidate.end);
}

/**
 * nameUnderTitle reads the second line of a party's block as its name when the first is no company's name, is given
 * nowhere else, and the second is given again as a value ("Kontoname : Tanja Tinder") or as an e-mail's local part
 * ("tanja.tinder@..."): the first is a title over the name. The candidate returned cites the label to the name.
 */
function nameUnderTitle(doc: ParsedDocument, picked: Candidate, all: Candidate[]): Candidate | null {
  const block = all.find((o) => o.kind === "next-line" && o.block && o.start === picked.start)?.block;
  if (!block || block.length < 2 || block[0] !== picked.value || hasCompanyForm(block[0]!)) return null;
  const name = block[1]!;
  if (!nameLike(name) || !givenAgain(doc, name) || givenAgain(doc, block[0]!)) return null;
  const line = doc.lines.find((l) => l.start > picked.start && l.plain === name);
  return line ? { ...picked, value: name, end: line.end } : null;
}

/** givenAgain says whether a name is some field's whole value ("Kontoname : X", "| Account name | X |") or an e-mail's local part. */
function givenAgain(doc: ParsedDocument, name: string): boolean {
  const asValue = new RegExp(`[:|][ \\t]*${escapeRe(name)}[ \\t]*(?:\\||$)`, "mu");
  const key = name.toLowerCase().replace(/[^\p{L}]/gu, "");
  // (tried from a word's start only: from inside a long word too, the search is quadratic in its length)
  const local = [...doc.markdown.matchAll(/(?<![\p{L}.+-])([\p{L}.+-]+)@[a-z0-9-]+\./giu)].some((m) => m[1]!.toLowerCase().replace(/[^\p{L}]/gu, "") === key);
  return asValue.test(doc.markdown) || local;
}

/**
 * subSplitOff says whether a total label's "Sub" closes the line above it, as OCR reads a "Sub" / "Total" printed
 * in one narrow box over two lines, beside other columns.
 */
function subSplitOff(doc: ParsedDocument, candidate: Candidate): boolean {
  const at = doc.lines.findIndex((l) => l.start === candidate.start);
  if (at <= 0 || !/^total\b/i.test(normaliseLabel(candidate.label))) return false;
  const above = doc.lines.slice(0, at).filter((l) => l.plain).at(-1);
  const label = new RegExp(`(?:^|\\s)${escapeRe(candidate.label)}\\s`, "i");
  return above !== undefined && /(?:^|\s)sub[-\s]?$/i.test(above.plain) && label.test(doc.lines[at]!.plain);
}

/** NET_FINAL: a receipt's "NET TOTAL", "Nett Amount", "Net Amt": after a subtotal and the charges, the amount to pay. */
const NET_FINAL = /^(net|nett) (total|amount)$/;
/** GROSS_OR_SUB: the amount before a receipt's tax and service charge ("SUB TOTAL", "Gross Amt"). */
const GROSS_OR_SUB = /\b(sub ?total|sub|gross)\b/;

/**
 * netAfterSubtotal: on a receipt a "NET TOTAL" printed below a larger-than-it subtotal or gross amount
 * ("SUB TOTAL 159.00 ... NET TOTAL 174.90") is what is paid, not the net of an invoice (which is
 * at most its subtotal). Ranked below an exact total label, and never above 0.75 on its own.
 */
function netAfterSubtotal(doc: ParsedDocument, candidates: Candidate[]): Scored[] {
  const out: Scored[] = [];
  const amount = (c: Candidate) => parseNumber(cleanText(c.value), doc.decimalMark);
  for (const c of candidates) {
    if (c.kind === "column" || !NET_FINAL.test(normaliseLabel(c.label))) continue;
    const n = amount(c);
    if (!n || n.percent || n.value <= 0) continue;
    const below = candidates.some((o) => o.start < c.start && o.kind !== "column" && GROSS_OR_SUB.test(normaliseLabel(o.label)) && (amount(o)?.value ?? Infinity) < n.value);
    if (below) out.push({ candidate: c, value: n.value, confidence: 0.75, rank: 0.7 });
  }
  return out;
}

/**
 * ocrCalibrated bounds a value read from OCR text by how well the page was read: on a poor scan
 * (ocr_quality below 0.7) a value that nothing on the page confirms is ambiguous evidence (below
 * 0.6), and a name, whose letters nothing can confirm, is so below 0.8. Measured on the SROIE
 * receipts: names are right 41 % of the time below 0.7, 53 % from 0.7 to 0.8, 76 % above.
 */
function ocrCalibrated(confidence: number, labels: FieldLabels, ocrQuality: number): number {
  if (isPartyField(labels) && ocrQuality < 0.8) return Math.min(confidence, 0.59);
  if (ocrQuality < 0.7 && confidence <= OCR_UNSETTLED_CAP) return Math.min(confidence, 0.59);
  return confidence;
}

/** OCR_WELL_READ: the ocr_quality from which tesseract's digits are trusted as read. */
const OCR_WELL_READ = 0.8;

/** twoDecimalPage says whether the page writes its amounts with two decimals (at least three such). */
function twoDecimalPage(doc: ParsedDocument): boolean {
  const amounts = [...doc.markdown.matchAll(/(?<![\d.,])\d{1,5}[.,]\d{2}(?![\d])/g)].length;
  return amounts >= 3;
}

/**
 * spacedPointPage says whether the page, outside the line at `except`, ends three or more lines with
 * an amount whose point OCR read as a space ("RM 5 83", "58 30"): the page's own way of printing them.
 */
function spacedPointPage(doc: ParsedDocument, except: number): boolean {
  return doc.lines.filter((l) => l.start !== except && /(?<![\d.,])\d{1,5} \d{2}$/.test(l.plain)).length >= 3;
}

/** ROUNDING_LINE: a line of the cash rounding to 5 cents ("ROUNDING ADJ. -0.01", "Rounding (RM): 0.02"). */
const ROUNDING_LINE = /^\W*(total\s+)?round(ing|ed)?\b(?!.*\btotal\b)/im;
/** ROUNDED_TOTAL_CAP: a total rounded by the engine, not read: the page does not print it as such. */
const ROUNDED_TOTAL_CAP = 0.6;

/** CUT_AMOUNT_CAP: a total whose cents OCR lost after the point ("343."): its whole part only, below 0.6. */
const CUT_AMOUNT_CAP = 0.5;

/** NET_TAX_ROUNDED: a total computed from the subtotal, the tax and the cash rounding: no line prints it, so below 0.6. */
const NET_TAX_ROUNDED = 0.5;
/** CORROBORATED_TOTAL: the confidence of a total that other amounts of the page confirm. */
const CORROBORATED_TOTAL = 0.85;

/** OCR_UNSETTLED_CAP: the highest confidence of an OCR-read amount that nothing else on the page confirms. */
const OCR_UNSETTLED_CAP = 0.75;

/** PRINT_STAMP: a line with a time of day and a page number, as printing systems stamp each page. */
const PRINT_STAMP = /\b\d{1,2}:\d{2}(:\d{2})?\b[^]*\b(seite|page|pag|blatt|strona|pagina)\b\.?\s{0,3}:?\s{0,3}\d|\b(seite|page|pag|blatt|strona|pagina)\b\.?\s{0,3}:?\s{0,3}\d[^]*\b\d{1,2}:\d{2}(:\d{2})?\b/i;

/**
 * sideBySideOwner: "## Sprzedawca Nabywca" over "Nazwa: A Nazwa: B" (seller and buyer in two columns, one
 * line read across both): a heading that names two parties side by side gives a line's first name to the
 * party it names first and its second name to the other. False unless the line holds exactly those two.
 */
function sideBySideOwner(candidate: Candidate, all: Candidate[], labels: FieldLabels): boolean {
  const words = normaliseLabel(candidate.section).split(" ");
  for (let cut = 1; cut < words.length; cut++) {
    const first = conceptOf(words.slice(0, cut).join(" ")), second = conceptOf(words.slice(cut).join(" "));
    if (!first || !second || first === second || !PARTIES.has(first) || !PARTIES.has(second)) continue;
    if (labels.concept !== first && labels.concept !== second) return false;
    const label = normaliseLabel(candidate.label);
    const line = all.filter((o) => o.start === candidate.start && normaliseLabel(o.label) === label).sort((x, y) => x.order - y.order);
    return line.length === 2 && line[labels.concept === first ? 0 : 1] === candidate;
  }
  return false;
}

/** PARTIES: the concepts that name a party, which a heading over two side-by-side blocks may name both of */
const PARTIES = new Set(["vendor", "customer"]);

/** PARTY_NAME_LABEL: the label of a party's name inside its block. */
const PARTY_NAME_LABEL = /^(name|company|company name|firma|firmenname|nom|raison sociale|naam|bedrijfsnaam|nombre|razon social|nome|ragione sociale|nazwa|nazwa firmy)$/;

const isPartyField = (l: FieldLabels) => l.concept === "vendor" || l.concept === "customer";
const isAmountField = (l: FieldLabels) => l.concept === "total" || l.concept === "subtotal" || l.concept === "tax";
const hasCompanyForm = (s: string) => LEGAL_NAME.test(s) || /\b(GmbH|SARL|SAS|Sdn\.? ?Bhd|B\.?V\.?|S\.?A\.?|S\.r\.l\.|Sp\. z o\.o\.|Ltda\.?|EIRELI)\b/i.test(s);

/**
 * FINAL_AMOUNT: labels of the amount that is finally paid (grand total, amount due, TTC, brutto),
 * preferred over a plain "total" when a document prints several.
 */
const FINAL_AMOUNT = /\b(grand|due|payable|pay|payer|paid|incl|inkl|including|inclusive|ttc|brutto|gesamtbetrag|bruttosumme|bruttobetrag|endsumme|endbetrag|zahlbetrag|zahlen|rechnungsbetrag|totaal|betalen|pagar|pagare|zaplaty|razem|rounded|nett)\b/;

/** SECONDARY_DATE: labels of dates other than the document's own (an order's, a delivery's, a print's). */
const SECONDARY_DATE = /\b(order|po|purchase|bestellung|bestelldatum|auftrag|commande|bestelling|pedido|ordine|zamowienia|stylesheet)\b/;

/** meaningBonus ranks labels by what they mean for the field: the final amount over a plain total, the document's date over an order's. */
function meaningBonus(label: string, labels: FieldLabels): number {
  const norm = normaliseLabel(label);
  // "Total (Inclusive of GST)": the note in parentheses says it is the final amount
  if (labels.concept === "total") return FINAL_AMOUNT.test(norm) || FINAL_AMOUNT.test(splitWords(label).join(" ")) ? 0.06 : 0;
  if (labels.concept === "date" && !labels.nameWords.some((w) => SECONDARY_DATE.test(w))) return SECONDARY_DATE.test(norm) ? -0.1 : 0;
  return 0;
}

/** MIDLINE_ID: a value that opens with an identifier: digits, possibly with letters, joined by dashes, slashes or dots ("1545-0074", "AB-2024/17"). */
const MIDLINE_ID = /^[A-Z]{0,4}[-/.]?\d[\dA-Z]*(?:[-/.][\dA-Z]+)*(?![\w])/;

/** HEADING_RUN_ON: words that join a label's words to more of a heading ("Law and Venue", "Name & Address", "Datum und Ort"). */
const HEADING_RUN_ON = /^(?:and|or|und|oder|et|ou|en|of|oraz|AND|OR|UND|OF|ET)(?!\p{L})|^&|^[yeo]\s/u;

/** isSentence: text that ends as a sentence does and holds three lowercase words or more ("Apollo was a program.") */
function isSentence(text: string): boolean {
  return /[.!?]$/.test(text.trim()) && (text.match(/(?<!\p{L})\p{Ll}+/gu) ?? []).length >= 3;
}

/** phraseCandidates finds the field's own label phrases written without a colon ("Due Date January 17, 2024", "Plan Basic"). */
function phraseCandidates(doc: ParsedDocument, labels: FieldLabels): Candidate[] {
  const out: Candidate[] = [];
  doc.lines.forEach((line, index) => {
    if (line.isTable || !line.plain) return;
    const words = [...line.plain.matchAll(/\S+/g)];
    for (let p = 0; p < words.length; p++) {
      let own = 0;
      let longest = 0;
      for (let n = 1; n <= 5 && p + n <= words.length; n++) {
        const phrase = normaliseLabel(words.slice(p, p + n).map((w) => w[0]).join(" "));
        if (labels.exact.has(phrase)) own = n;
        if (labels.exact.has(phrase) || conceptOf(phrase)) longest = n;
      }
      // "Invoice Date ..." is a date label, not the invoice number's
      if (own === 0 || longest > own) continue;
      // "SUB TOTAL 159,00": the word before makes it another concept's label
      if (p > 0) {
        const wider = normaliseLabel(words.slice(p - 1, p + own).map((w) => w[0]).join(" "));
        const other = conceptOf(wider);
        if (other && other !== labels.concept) continue;
      }
      const last = words[p + own - 1]!;
      const value = line.plain.slice(last.index! + last[0].length).replace(/^[\s:|.\-–]+/, "");
      // "Governing Law and Venue": a heading runs on after the label's words, it names no value
      if (!value || HEADING_RUN_ON.test(value)) continue;
      // mid-line, only a capitalised label right after a value ("... 2024 Currency USD"), not prose; or an
      // identifier's own capitalised label with the identifier beside it ("Moving Expenses OMB No. 1545-0074")
      const besideId = isIdField(labels) && /^[A-Z]/.test(words[p]![0]) && MIDLINE_ID.test(value);
      if (p > 0 && !besideId && !(/^[A-Z]/.test(words[p]![0]) && /\d|\|$|^[A-Z]{2,}$/.test(words[p - 1]![0]))) continue;
      // "Total GST Amt : 2.40": the label runs on to the colon, and names something else
      if (/^[^\d:]*\p{L}[^\d:]*:/u.test(value)) continue;
      // without a colon, a label word that opens a name or a sentence is part of it: "Hotel am Großen Garten",
      // "Project Apollo was a program." name no hotel and no project: the text after it opens with a lowercase word (not an
      // abbreviation: "Faktura č. 1989"), or is a sentence. Not for numbers and dates ("Facture du 11/12/2022 N° 4471").
      if (p === 0 && own === 1 && !isIdField(labels) && !isDateField(labels) && /^\p{Lu}\p{Ll}/u.test(words[0]![0]) && (/^\p{Ll}{2,}(?![\p{L}.])/u.test(value) || isSentence(value))) continue;
      // an identifier right after its own exact label is an inline pair ("OMB No. 1545-0074"), not a phrase of prose
      const kind = p === 0 ? "prefix" : besideId ? "inline" : "phrase";
      out.push({ label: words.slice(p, p + own).map((w) => w[0]).join(" "), value, kind, start: line.start, end: line.end, section: "", order: 1_000_000 + index * 100 + p });
    }
  });
  return out;
}

/** LEGAL_NAME: a company name ends at its legal form ("Fabrikam Tools GmbH Industriestrasse 5" -> "Fabrikam Tools GmbH"). */
const LEGAL_NAME = /^(.{2,60}?\b(?:GmbH|Inc\.?|LLC|Ltd\.?|Limited|Corp\.?|Corporation|Co\.|AG|PLC|S\.A\.|SARL|B\.?V\.?|Pty Ltd))(?=[\s,;]|$)/;

interface Coerced {
  value: unknown;
  /** quality: 1 for a clean typed value, less when the value needed interpretation */
  quality: number;
  /** openDateOrder: a numeric date whose day and month could be swapped ("02/12/2017") */
  openDateOrder?: boolean;
}

/**
 * UNSETTLED_DATE_QUALITY: a numeric date whose day/month order nothing on the page settles is a
 * guess between two dates, so it stays below 0.8 even under an exact label (0.95 x 0.8 = 0.76).
 */
const UNSETTLED_DATE_QUALITY = 0.8;

/** dateDoubt is the factor for a value whose day/month order the document leaves open, else 1. */
const dateDoubt = (coerced: Coerced, doc: ParsedDocument) => (coerced.openDateOrder && !doc.dateOrderKnown ? UNSETTLED_DATE_QUALITY : 1);

const isPercentField = (l: FieldLabels) => l.nameWords.some((w) => ["percent", "percentage", "pct", "rate"].includes(w)) || l.descriptionWords.has("percent") || l.descriptionWords.has("percentage");
const isDateField = (l: FieldLabels) => l.concept === "date" || l.concept === "due_date" || l.nameWords.includes("date") || l.nameWords.includes("dob") || (l.nameWords.at(-1) === "on" && l.nameWords.length > 1);
const isIdField = (l: FieldLabels) =>
  ["invoice_number", "po_number", "transaction_id"].includes(l.concept ?? "") || ["number", "id", "code", "reference", "sku", "vin"].includes(l.nameWords.at(-1) ?? "");

/** coerce turns a candidate's text into the field's type, or null when it does not fit. */
function coerce(candidate: Candidate, def: FieldDefinition, labels: FieldLabels, parent: FieldLabels | null, mark: DecimalMark): Coerced | null {
  if (candidate.block && labels.concept === "address") {
    // a "BILL TO:" block under its owner: the address is the lines after the name
    const lines = parent && labelScore(candidate.label, parent) > 0 ? candidate.block.slice(1) : candidate.block;
    return lines.length ? { value: lines.join(", "), quality: 0.85 } : null;
  }
  return coerceText(candidate.value, def, labels, mark, candidate.label);
}

/** NUMBER_NOT_DATE_LABEL: a label that names a number ("Numer faktury", "Invoice No", "N° de facture") and no date. */
const NUMBER_NOT_DATE_LABEL = (label: string): boolean => {
  const words = splitWords(label);
  return words.includes("number") || words.some((w) => /^(?:nummer|numer|numero)$/.test(w))
    ? !words.some((w) => /^(?:date|datum|data|fecha|dated)$/.test(w))
    : false;
};

/** ITEM_COUNT: a whole number of one to three digits in brackets or parentheses that opens a value ("[3] EUR 152,00"). */
const ITEM_COUNT = /^\s*[[(]\s*\d{1,3}\s*[\])]\s*/;

/**
 * coerceText turns a value's text into the field's type, or null when it does not fit. label: the document's
 * label the value was read under ("" when none), which may say what a value of doubtful shape is.
 */
export function coerceText(raw: string, def: FieldDefinition, labels: FieldLabels, mark: DecimalMark = null, label = ""): Coerced | null {
  let text = cleanText(raw);
  if (!text) return null;
  switch (def.type) {
    case "number":
    case "integer": {
      // "SUMME [3] EUR 152,00", "SUMME (1) € 49,90": a till receipt's count of items beside the label, before the amount
      const count = ITEM_COUNT.exec(text);
      if (count && parseNumber(text.slice(count[0].length), mark)) text = text.slice(count[0].length);
      const n = parseNumber(text, mark);
      if (!n) return null;
      if (def.type === "integer" && !Number.isInteger(n.value)) return null;
      if (def.enum && !def.enum.includes(n.value)) return null;
      let quality = 1;
      if (n.percent !== isPercentField(labels)) quality = n.percent ? 0.5 : 0.85;
      const rest = (text.slice(0, n.index) + text.slice(n.end)).replace(/[\s$€£¥%.,:()-]/g, "");
      if (/[A-Za-z]{3,}/.test(rest)) quality *= 0.8;
      // "TOTAL: 26.00 1.86": a row of several amounts, the label names only one of them
      if (allNumbers(text.slice(n.end)).some((m) => !m.percent)) quality *= 0.85;
      return { value: n.value, quality };
    }
    case "boolean": {
      const b = parseBoolean(text);
      return b === null ? null : { value: b, quality: 1 };
    }
    case "string":
      return coerceString(text, def, labels, label);
    default:
      return null;
  }
}

/** coerceString reads emails, phones, URLs, currencies, dates (as written), IDs and enums out of a value. */
function coerceString(text: string, def: FieldDefinition, labels: FieldLabels, label: string): Coerced | null {
  if (def.enum) return matchEnum(text, def.enum as string[]);
  const words = labels.nameWords;
  if (labels.concept === "email" || words.includes("email")) return wrap(firstMatch(EMAIL_RE, text));
  if (labels.concept === "phone" || words.includes("phone") || words.includes("fax")) return wrap(firstMatch(PHONE_RE, text));
  if (labels.concept === "website" || words.includes("url") || words.includes("website")) return wrap(firstMatch(URL_RE, text));
  if (labels.concept === "currency") return wrap(parseCurrency(text));
  if (isDateField(labels)) {
    // the date as the document writes it: the spec returns values literally present in the source
    const d = parseDate(text);
    if (!d) return null;
    // "10/03/2078": a document date more than ten years ahead is more likely a misread digit
    const implausible = +d.iso.slice(0, 4) > new Date().getUTCFullYear() + 10;
    return { value: d.text, quality: (d.text.length >= text.length - 3 ? 1 : 0.9) * (implausible ? 0.6 : 1), openDateOrder: d.ambiguous };
  }
  // "Date de facture 16/11/2017": a date is not a document number, unless the label says number and not date
  // ("Numer faktury / 2/11/2023", "Invoice No: 7/03/2024"): then the whole value is the number, still in doubt
  if (isIdField(labels)) {
    const d = parseDate(text);
    if (d && d.index === 0 && d.text.length === text.length && NUMBER_NOT_DATE_LABEL(label)) return { value: text, quality: 0.8 };
    if (d && d.index === 0 && d.text.length >= text.length - 1) return null;
  }
  // "Facture du 11/12/2022 N° 4471-AB", "... N° 12 345 678 901 62,86 €": the identifier after the number's own word, not the date before it
  const numbered = isIdField(labels) ? text.match(AFTER_NUMBER_WORD) : null;
  if (numbered && numbered.index! > 0) return { value: numbered[1]!, quality: 0.9 };
  // "Referencia: #1721": the number sign glued to the identifier is the label's, not the number's
  const signed = isIdField(labels) ? text.match(SIGNED_ID) : null;
  if (signed) return { value: signed[1]!, quality: 1 };
  if (isIdField(labels) && /[\s()]/.test(text)) {
    const id = firstMatch(ID_RE, text);
    if (!id) return null;
    // "# Faktura" over "Nr 1/2014": the number's own word opens the value, the identifier and nothing after it
    if (NUMBER_WORD_ID.test(text) && text.trim().endsWith(id)) return { value: id, quality: 1 };
    // "RE-20170509/505 von 09.05.2017": an identifier with digits opening the value, a word after it, is read whole;
    // "12 345" may be one number split by a space, so an identifier followed by digits stays in doubt
    const whole = text.startsWith(id) && /\d/.test(id) && /[-/.]/.test(id) && /^\s+\p{L}/u.test(text.slice(id.length));
    return { value: id, quality: whole || !/\s/.test(text) ? 1 : 0.9 };
  }
  // "Account / Payable to Robert Schneider AG": an account number has digits
  if (isAccountField(labels) && !/\d/.test(text)) return null;
  if (isIdField(labels) && !/\d/.test(text) && !/[A-Z]{2,}/.test(text)) return null;
  // "FATURA / DUPLICATAS": a word without a digit after a document-number label is more likely a
  // heading's other half than the number, so it never comes back settled
  if (isIdField(labels) && !/\d/.test(text)) return { value: text, quality: 0.6 };
  if (labels.concept === "vendor" || labels.concept === "customer") {
    // "Store #0342 ...", "Customer 1042": a number, not the party's name; "COMPTE :" is a label
    if (/^[#\d]/.test(text) || /:$/.test(text)) return null;
    // "To MICROSOFT LTD", "Buyer contact name": a line that opens with the other party's label names the other party
    if (OTHER_PARTY_OPENING[labels.concept].test(text)) return null;
    // "Musterstr. 99", "GLN 4333741000005 Lief-Nr: 549910": an address or a number line, not a name
    if (!nameLike(text.match(LEGAL_NAME)?.[1] ?? text)) return null;
    const legal = text.match(LEGAL_NAME);
    if (legal && legal[1]!.length < text.length) return { value: legal[1]!.replace(/,$/, ""), quality: 0.9 };
  }
  return { value: text, quality: 1 };
}

/** AFTER_NUMBER_WORD: a number's word inside a value and the identifier after it ("du 11/12/2022 N°12345678901"); digits grouped by spaces ("N° 12 345 678 901") are one identifier, an amount after them is not part of it. */
const AFTER_NUMBER_WORD = /(?:^|\s)(?:n[°º]|nr\.?|no\.)\s?(\d{1,3}(?: \d{3})+(?![.,]?\d)|[A-Z0-9][A-Z0-9/.-]*\d[A-Z0-9/-]*)/i;

/** SIGNED_ID: an identifier with a digit, the number sign glued before it and nothing after ("#1721", "#INV-0042"). */
const SIGNED_ID = /^#((?=[A-Z0-9/.-]*\d)[A-Z0-9][A-Z0-9/.-]*)$/i;

/** NUMBER_WORD_ID: a value that is a number's word and the identifier ("Nr 1/2014", "No. 4711", "N° F-12"), a title's label carried on to the next line. */
const NUMBER_WORD_ID = /^(?:nr|no|n[°ºo]|#|number|nummer|numer|numero|número|num)\.?\s*:?\s*\S+$/i;

/** OTHER_PARTY_OPENING: the first word of a line that names the customer (for a vendor field) or the vendor (for a customer field). */
const OTHER_PARTY_OPENING: Record<"vendor" | "customer", RegExp> = {
  vendor: /^(to|bill(ed)? to|ship(ped)? to|sold to|invoice to|buyer|client|customer|kunde|rechnungsempf[aä]nger|acheteur|destinataire|klant|afnemer|cliente|comprador|destinatario|nabywca|odbiorca)(?!\p{L})/iu,
  customer: /^(from|seller|vendor|supplier|verk[aä]ufer|lieferant|vendeur|fournisseur|leverancier|vendedor|proveedor|fornitore|fornecedor|sprzedawca|dostawca)(?!\p{L})/iu,
};

const wrap = (value: string | null): Coerced | null => (value === null ? null : { value, quality: 1 });

/** matchEnum maps text to an allowed value: case-insensitive equality, else an allowed word inside. */
function matchEnum(text: string, allowed: string[]): Coerced | null {
  const lower = text.toLowerCase();
  const exact = allowed.find((a) => a.toLowerCase() === lower);
  if (exact !== undefined) return { value: exact, quality: 1 };
  const inside = allowed.filter((a) => new RegExp(`(^|[^a-z0-9])${escapeRe(a.toLowerCase())}($|[^a-z0-9])`).test(lower));
  if (inside.length === 1) return { value: inside[0], quality: 0.85 };
  return null;
}

/** lineAt returns the span of the line that holds offset. */
function lineAt(doc: ParsedDocument, offset: number): [number, number] {
  const line = doc.lines.find((l) => l.start <= offset && offset <= l.end) ?? doc.lines[0]!;
  return [line.start, line.end];
}

/** isAccountField: a bank account number or IBAN field ("account", "iban", "account_number"). */
const isAccountField = (l: FieldLabels) => l.nameWords.includes("iban") || (l.nameWords.includes("account") && !l.nameWords.some((w) => ["name", "holder", "owner"].includes(w)));

/** IBAN: an IBAN, compact or in groups of four ("CH44 3199 9123 0008 8901 2"). */
const IBAN = /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b/g;

/** ibanValid checks an IBAN's check digits (ISO 13616, mod 97). */
function ibanValid(iban: string): boolean {
  const s = iban.replace(/ /g, "");
  return s.length >= 15 && s.length <= 34 && mod97(s) === 1;
}

/** mod97 moves the first four characters of a code to its end, letters as 10..35, and returns the number mod 97 (IBAN and RF checks). */
function mod97(code: string): number {
  const digits = (code.slice(4) + code.slice(0, 4)).replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let rest = 0;
  for (const d of digits) rest = (rest * 10 + Number(d)) % 97;
  return rest;
}

/** PAYMENT_REFERENCE: an RF creditor reference (ISO 11649) or a Swiss QR reference (27 digits, "21 00000 00003 13947 14300 09017"). */
const PAYMENT_REFERENCE = /\bRF\d{2}(?: ?[A-Z0-9]{1,4}){1,6}\b|\b\d{2}(?: \d{5}){5}\b/g;

/** referenceValid checks a payment reference's check digits: mod 97 for RF, mod 10 recursive for a QR reference. */
function referenceValid(ref: string): boolean {
  const s = ref.replace(/ /g, "");
  if (s.startsWith("RF")) return s.length >= 5 && s.length <= 25 && mod97(s) === 1;
  const table = [0, 9, 4, 6, 8, 2, 7, 1, 3, 5];
  let carry = 0;
  for (const d of s.slice(0, -1)) carry = table[(carry + Number(d)) % 10]!;
  return (10 - carry) % 10 === Number(s.at(-1));
}

/** paymentReference finds the page's payment reference whose check digits hold: 0.85 when it is the only one, else the first at 0.45. */
function paymentReference(doc: ParsedDocument): { value: string; confidence: number; index: number } | null {
  const found = [...doc.markdown.matchAll(PAYMENT_REFERENCE)].filter((m) => referenceValid(m[0]));
  if (!found.length) return null;
  const distinct = new Set(found.map((m) => m[0].replace(/ /g, "")));
  return { value: found[0]![0], confidence: distinct.size === 1 ? 0.85 : 0.45, index: found[0]!.index! };
}

/**
 * ibanOnPage finds the page's IBAN: one whose check digits hold, and the only one on the page, is
 * settled (0.85: the check digits rule out a misread, and there is no other account to mix it
 * up with); with several different ones on the page, the first at 0.45.
 */
function ibanOnPage(doc: ParsedDocument): { value: string; confidence: number; index: number } | null {
  // "RF18 5390 0754 7034" is a creditor reference (ISO 11649), checked the same way
  const found = [...doc.markdown.matchAll(IBAN)].filter((m) => !m[0].startsWith("RF") && ibanValid(m[0]));
  if (!found.length) return null;
  const distinct = new Set(found.map((m) => m[0].replace(/ /g, "")));
  return { value: found[0]![0], confidence: distinct.size === 1 ? 0.85 : 0.45, index: found[0]!.index! };
}

/** PAYEE_WORDS: field names for whom a payment slip is paid to. */
const PAYEE_WORDS = new Set(["creditor", "payee", "beneficiary"]);
/** PAYEE_LABEL: the payee label of payment slips in English, German, French, Italian and Romansh, and what follows it. */
const PAYEE_LABEL = /\b(payable to|zahlbar an|payable à|pagabile a|pajabel a|da pajar a)(?=[\s:|]|$)\s*[:|]?\s*(.*)$/i;

/**
 * PAYEE_REPEATED: a payee the slip prints again on a line or in a cell of its own (its receipt part
 * and its payment part), whole: two places that agree settle the name.
 */
const PAYEE_REPEATED = 0.85;

/**
 * printedAgain says whether a name is printed elsewhere than on the line at `except` as a whole line
 * or cell, or opening a line with its postcode after it ("ABC AG 3000 Bern"): not a fragment of a
 * longer name.
 */
function printedAgain(doc: ParsedDocument, name: string, except: number): boolean {
  const re = new RegExp(`(?:^|\\|)[ \\t]*${escapeRe(name)}(?=[ \\t]*(?:\\||$)|\\s+\\d{4,5}\\s+\\p{L})`, "gmu");
  return [...doc.markdown.matchAll(re)].some((m) => lineAt(doc, m.index!)[0] !== except);
}

/** PAYEE_UNDER_LINES: how many lines under a payee label its name is looked for (the account comes first) */
const PAYEE_UNDER_LINES = 3;
/** LEADING_ACCOUNT: an IBAN written in groups at a line's start ("CH44 3199 9123 0008 8901 2 "), each group with a digit */
const LEADING_ACCOUNT = /^[A-Z]{2}\d{2}(?: (?=[A-Z0-9]*\d)[A-Z0-9]{1,4})+(?:\s+|$)/;
/** TRAILING_PLACE: a postcode and town closing a name's line ("Salvation Army Foundation 3000 Berne") */
const TRAILING_PLACE = /\s+(?:[A-Z]{1,2}\s?[-–]\s?)?\d{4,5}\s+\p{L}.*$/u;

/**
 * payeeUnder: the payee a label on a line of its own names ("Konto / Zahlbar an" over "CH37 0900 ...",
 * then "Salvation Army Foundation Switzerland"): the first line under it, after the account (on a
 * line of its own or opening the name's), that reads as a name; its postcode and town left off.
 */
function payeeUnder(doc: ParsedDocument, labelIndex: number): { name: string; line: Line } | null {
  let seen = 0;
  for (let i = labelIndex + 1; i < doc.lines.length && seen < PAYEE_UNDER_LINES; i++) {
    const line = doc.lines[i]!;
    if (!line.plain) continue;
    seen++;
    if (line.isTable || line.isHeading || PAYEE_LABEL.test(line.plain) || LABEL_OPENING.test(line.plain)) return null;
    const name = line.plain.replace(LEADING_ACCOUNT, "").replace(TRAILING_PLACE, "").trim();
    if (!name) continue;
    return nameLike(name) ? { name, line } : null;
  }
  return null;
}

/** PROVIDER_WORDS: field names for the party that offers an agreement. */
const PROVIDER_WORDS = new Set(["provider", "licensor", "offeror", "company"]);

/** DOC_TITLE: lines that name the kind of document, not its issuer. */
const DOC_TITLE = /^(invoice|tax invoice|receipt|sales receipt|estimate|quote|quotation|purchase order|order|bill|statement|credit note|rechnung)\b/i;

/** BROWSER_FOOTER: a web browser's print footer, the page's address and its page count ("https://mail.example.com/... 1/1"). */
const BROWSER_FOOTER = /^\s*https?:\/\/\S+\s+\d{1,3}\/\d{1,3}\s*$/m;
/** BROWSER_HEADER: a web browser's print header, the date and time of printing before the page's title ("11/10/2021, 16:42 receipt.png"). */
const BROWSER_HEADER = /^\d{1,4}[./-]\d{1,2}[./-]\d{1,4},?\s+\d{1,2}:\d{2}(?:\s?[AP]M)?\b/i;

/** OTHER_DATE_WORD: words that name a date other than the document's own (due, delivery, expiry, a bill's next meter reading) on the line before a date. */
const OTHER_DATE_WORD = /\b(due|payment|pay by|next|scheduled|read|reading|meter|deliver(y|ed)?|ship(ped|ping)?|expir\w*|valid|birth|f[aä]llig\w*|zahlbar|liefer\w*|[eé]ch[eé]ance|livraison|vervaldatum|levering|vencimiento|entrega|scadenza|consegna|vencimento|termin)\b/i;

/** patternFallback finds an unlabelled value by its shape: the only way left, so never confident. */
function patternFallback(doc: ParsedDocument, def: FieldDefinition, labels: FieldLabels): FieldOutcome | null {
  const md = doc.markdown;
  const at = (value: unknown, confidence: number, offset: number) => {
    const [s, e] = lineAt(doc, offset);
    return cite(doc, value, confidence, s, e);
  };
  const words = labels.nameWords;
  if (def.type === "string" && def.enum) return enumFallback(doc, def.enum as string[], at);
  if (def.type === "string") {
    if (labels.concept === "email" || words.includes("email")) return regexFallback(md, EMAIL_RE, 0.6, at);
    if (labels.concept === "phone" || words.includes("phone")) return regexFallback(md, PHONE_RE, 0.5, at);
    if (labels.concept === "website" || words.includes("url") || words.includes("website")) return regexFallback(md, URL_RE, 0.55, at);
    if (labels.concept === "currency") return currencyOfAmounts(doc);
    if (labels.concept === "date" || (words.length === 1 && words[0] === "date")) {
      // a page with one date (written once or repeated) settles it (35 of 35 on the real sets); with several, the first is a guess
      // a page printed from a browser: the date and time heading it are the printing's, not the document's
      const printedAt = BROWSER_FOOTER.test(md) ? doc.lines.find((l) => l.plain) : undefined;
      const dates = allDates(md).filter((x) => !(printedAt && BROWSER_HEADER.test(printedAt.plain) && printedAt.start <= x.index && x.index < printedAt.end));
      // "TAXINV :G02-1550040 19/03/16 ... 18/03/18 09:03": of several dates, a receipt's own is the one its till stamps with the time
      const d = (doc.ocrQuality !== null ? dates.find((x) => followedByTime(md, x.index + x.text.length)) : undefined) ?? dates[0];
      if (!d) return null;
      // "DUE DATE | WH 216138 ... 02/13/2014": the one date the page prints may be another date's, named on its line
      const [ls] = lineAt(doc, d.index);
      const single = dates.every((x) => x.iso === d.iso) && !OTHER_DATE_WORD.test(md.slice(ls, d.index));
      const doubt = d.ambiguous && !doc.dateOrderKnown ? UNSETTLED_DATE_QUALITY : 1;
      // the date heading the page, printed again in another form ("2017-05-09" on top, "Rechnung ... von 09.05.2017"):
      // two writings of one date agree, and the document's own date is the one it heads with
      const header = doc.lines.filter((l) => l.plain).slice(0, HEADER_DATE_LINES).some((l) => l.start <= d.index && d.index < l.end);
      const again = dates.some((x) => x !== d && x.iso === d.iso && x.text !== d.text);
      return at(d.text, (single ? 0.85 : header && again && doc.ocrQuality === null ? HEADER_DATE_AGAIN : 0.5) * doubt, d.index);
    }
    if (labels.concept === "vendor") {
      const issuer = findIssuer(doc);
      if (issuer) return { ...cite(doc, issuer.name, issuer.confidence, issuer.start, issuer.end), ocrSettled: issuer.ocrSettled };
      // the first line that reads as a name: not a file name, a document title or an address line
      const pick = doc.lines
        .filter((l) => l.plain && !l.isTable)
        .slice(0, 10)
        .find((l) => l.plain.length <= 60 && /^[A-Za-z]/.test(l.plain) && !/:|@|\.[a-z0-9]{2,4}$/i.test(l.plain) && !DOC_TITLE.test(l.plain) && !OTHER_PARTY_OPENING.vendor.test(l.plain) && nameLike(l.plain));
      return pick ? cite(doc, pick.plain, 0.4, pick.start, pick.end) : null;
    }
    // "Account / Payable to Robert Schneider AG": on a payment slip the payee follows its label on the line
    if (labels.nameWords.some((w) => PAYEE_WORDS.has(w))) {
      const alone: number[] = [];
      for (const [i, line] of doc.lines.entries()) {
        const m = line.plain.match(PAYEE_LABEL);
        const name = m?.[2]?.replace(/\s*\|.*$/, "").trim();
        if (name && nameLike(name)) return cite(doc, name, printedAgain(doc, name, line.start) ? PAYEE_REPEATED : 0.6, line.start, line.end);
        if (m && !m[2]!.trim()) alone.push(i);
      }
      // "Account / Payable to" on a line of its own over the account and the payee: the name under the label
      for (const i of alone) {
        const under = payeeUnder(doc, i);
        if (under) return cite(doc, under.name, printedAgain(doc, under.name, under.line.start) ? PAYEE_REPEATED : 0.6, under.line.start, under.line.end);
      }
    }
    // a payment reference has check digits; a field that does not say it is a payment's may mean another reference
    if (labels.nameWords.includes("reference")) {
      const ref = paymentReference(doc);
      const payment = labels.nameWords.includes("payment") || labels.descriptionWords.has("payment");
      if (ref) return cite(doc, ref.value, payment ? ref.confidence : Math.min(ref.confidence, 0.6), ...lineAt(doc, ref.index));
    }
    if (isIdField(labels)) return idFallback(doc, labels, at);
    if (isAccountField(labels)) {
      const iban = ibanOnPage(doc);
      if (iban) return cite(doc, iban.value, iban.confidence, ...lineAt(doc, iban.index));
    }
    // "a legal agreement between you and GitHub, Inc.": the party offering an agreement
    if (!labels.concept && words.some((w) => PROVIDER_WORDS.has(w))) {
      const party = agreementProvider(doc);
      if (party) return cite(doc, party.name, party.confidence, ...lineAt(doc, party.start));
    }
  }
  if ((def.type === "number") && labels.concept === "total") {
    // no total label a reader can make out ("Due payable: 571.04 €"): the amount that adds the net and the tax
    const added = netPlusTax(doc);
    if (added) return cite(doc, added.value, CORROBORATED_TOTAL, added.candidate.start, added.candidate.end);
    // "TOR: RM 73. 00": what the payment lines say was paid
    const payment = receiptPayment(doc);
    if (payment) return payment.confirmedAt ? cite(doc, payment.value, 0.85, ...payment.confirmedAt) : cite(doc, payment.value, 0.5, payment.start, payment.end);
    // "SUB-TOTAL (EX) 26.00 / TOTAL TAX 1.56 / ROUNDING -0.01": the net amount, its tax and the cash rounding add up to what was paid
    const rounded = netTaxRounded(doc);
    if (rounded) return cite(doc, rounded.value, NET_TAX_ROUNDED, rounded.candidate.start, rounded.candidate.end);
    // "Rechnungsbetrag" / "Vielen Dank ..." / "310,00 EURO": OCR read the label column apart from the amounts
    const apart = amountBelowLabel(doc, labels);
    if (apart) return apart;
    const money = allNumbers(md).filter((n) => n.currency && !n.percent);
    if (!money.length) return null;
    const largest = money.reduce((a, b) => (b.value > a.value ? b : a));
    return at(largest.value, 0.4, largest.index);
  }
  return null;
}

/**
 * currencyOfAmounts reads the currency the document's amounts are written in. One currency written
 * three times or more and no other is settled by the data (0.85); once or twice, 0.6; when several
 * appear, the most frequent at 0.45. A bare "$" is the sign of a dozen currencies: it reads as USD
 * only below 0.8 unless the page settles it ("USD", "US$"), or prints a US address (a state and ZIP
 * code, or a line ending in "USA") and names no other country of a dollar: the sign and the address
 * agree on USD, settled however often the sign is printed.
 */
function currencyOfAmounts(doc: ParsedDocument): FieldOutcome | null {
  const counts = new Map<string, { n: number; bare: boolean; line: { start: number; end: number } }>();
  for (const line of doc.lines) {
    for (const m of line.plain.matchAll(CURRENCY_MENTION)) {
      const code = parseCurrency(m[0]);
      if (!code) continue;
      const bare = m[0] === "$";
      const seen = counts.get(code);
      if (seen) {
        seen.n++;
        seen.bare &&= bare;
      } else counts.set(code, { n: 1, bare, line });
    }
  }
  const ranked = [...counts.entries()].sort((a, b) => b[1].n - a[1].n);
  const best = ranked[0];
  if (!best) return rupeesByGrouping(doc) ?? euroByLetter(doc);
  const usAddress = US_ADDRESS.test(doc.markdown) || US_COUNTRY_LINE.test(doc.markdown);
  // a bare "$" on a page that prints a US address and no other currency: the sign and the address agree on USD
  const dollarsOfUs = best[1].bare && best[0] === "USD" && usAddress && !OTHER_DOLLAR_COUNTRY.test(doc.markdown);
  let confidence = ranked.length > 1 ? 0.45 : best[1].n >= 3 || (best[1].n >= 2 && underCurrencyLabel(doc, best[0])) || amountsStatedIn(doc, best[0]) || dollarsOfUs ? 0.85 : 0.6;
  if (best[1].bare && !dollarsOfUs) confidence = Math.min(confidence, 0.6);
  return cite(doc, best[0], confidence, best[1].line.start, best[1].line.end);
}

/** LONE_AMOUNT: a line that is one two-decimal amount and its currency, nothing else ("310,00 EURO", "$12.50"). */
const LONE_AMOUNT = /^(?:[$€£]\s?)?(\d[\d.,' ]*[.,]\d{2})\s?(?:€|£|EUR|EURO|USD|GBP|CHF|PLN|zł)?$/u;
/** AMOUNT_APART: the confidence of an amount read below its label, lines apart: the layout pairs them, nothing confirms it. */
const AMOUNT_APART = 0.5;

/**
 * amountBelowLabel: a line that is the field's exact label alone ("Rechnungsbetrag"), OCR having read the
 * label column apart from the amount column, takes the first line below it (within four, with no digit between)
 * that is an amount alone ("310,00 EURO"), below 0.6. Null when no such pair is printed.
 */
function amountBelowLabel(doc: ParsedDocument, labels: FieldLabels): FieldOutcome | null {
  const content = doc.lines.filter((l) => l.plain && !l.isTable);
  for (let i = 0; i < content.length; i++) {
    if (/\d/.test(content[i]!.plain) || labelScore(content[i]!.plain, labels) !== 1) continue;
    for (const below of content.slice(i + 1, i + 5)) {
      const m = below.plain.match(LONE_AMOUNT);
      const n = m ? parseNumber(m[1]!, doc.decimalMark) : null;
      if (n && n.value > 0) return cite(doc, n.value, AMOUNT_APART, content[i]!.start, below.end);
      if (/\d/.test(below.plain)) break;
    }
  }
  return null;
}

/** LAKH_AMOUNT: an amount in Indian digit grouping, lakhs and crores ("7,08,000.00", "%6,54,321.00" with OCR's reading of ₹). */
const LAKH_AMOUNT = /(?<![\d,])\d{1,2}(?:,\d{2})+,\d{3}(?:\.\d{2})?(?![\d,])/g;
/** INDIA_MARK: words only an Indian invoice prints: the country, its GST number, its tax codes. */
const INDIA_MARK = /\b(India|GSTIN|IGST|CGST|SGST)\b/;

/**
 * rupeesByGrouping: a page that marks no currency, writes two or more amounts in Indian digit grouping and
 * prints the marks of an Indian invoice (GSTIN, IGST, India) is in rupees; the grouping and the marks are
 * indirect, so below 0.8.
 */
function rupeesByGrouping(doc: ParsedDocument): FieldOutcome | null {
  const lakhs = [...doc.markdown.matchAll(LAKH_AMOUNT)];
  if (lakhs.length < 2 || !INDIA_MARK.test(doc.markdown)) return null;
  const [s, e] = lineAt(doc, lakhs[0]!.index!);
  return cite(doc, "INR", 0.6, s, e);
}

/** EURO_LETTER: an amount closed by a lone "e", the Finnish abbreviation of euro ("248,00 e"), at a cell's or line's end. */
const EURO_LETTER = /\d[.,]\d{2}\s?e(?=[ \t]*(?:\||$))/gm;
/** EURO_UNIT_TITLE: a column title that names its unit with the same letter ("Veroton e", "ALV e", "Hinta e"). */
const EURO_UNIT_TITLE = /(?:^|\|)[ \t]*\p{L}[\p{L}-]*[ \t]+e[ \t]*(?=\||$)/gmu;

/**
 * euroByLetter: a page that marks no currency and writes euros as Finnish invoices do, with a lone "e" closing
 * an amount ("Maksettava 248,00 e") and naming the unit of its columns ("Veroton e"), is in euros: two such marks
 * at least (in Italian and Portuguese "e" is "and", and a line can end on it after an amount); the letter is
 * indirect, so below 0.8.
 */
function euroByLetter(doc: ParsedDocument): FieldOutcome | null {
  const amounts = [...doc.markdown.matchAll(EURO_LETTER)];
  if (!amounts.length || amounts.length + [...doc.markdown.matchAll(EURO_UNIT_TITLE)].length < 2) return null;
  const [s, e] = lineAt(doc, amounts[0]!.index!);
  return cite(doc, "EUR", 0.6, s, e);
}

/** HEADER_DATE_LINES: how many lines from the top a document's own unlabelled date stands in. */
const HEADER_DATE_LINES = 4;
/** HEADER_DATE_AGAIN: the confidence of the heading date written again in another form. */
const HEADER_DATE_AGAIN = 0.8;

/** CURRENCY_LABEL: the word "currency" as documents print it above or before the code (Währung, Monnaie, Valuta, ...). */
const CURRENCY_LABEL = /(?<!\p{L})(currency|w[äa]hrung|devise|monnaie|valuta|moneda|divisa|moeda|waluta)(?!\p{L})/iu;

/**
 * underCurrencyLabel says whether the page prints the code under or after its own label ("Währung
 * Betrag" over "CHF 199.95", "Currency: EUR"): a label in the document's language with a value of
 * the field's type next to it.
 */
function underCurrencyLabel(doc: ParsedDocument, code: string): boolean {
  const content = doc.lines.filter((l) => l.plain);
  return content.some((line, i) => {
    const m = line.plain.match(CURRENCY_LABEL);
    if (!m) return false;
    const after = line.plain.slice(m.index! + m[0].length).replace(/^[\s:|]+/, "");
    const next = content[i + 1]?.plain ?? "";
    return [after, next].some((t) => {
      const first = t.split(/[\s|]+/).find(Boolean);
      return first !== undefined && (first === code || parseCurrency(first) === code);
    });
  });
}

/** AMOUNTS_IN: a sentence or heading that says what the amounts are written in ("Beträge in EUR", "Amounts in USD", "Montants en EUR"). */
const AMOUNTS_IN = /(?<!\p{L})(betr[äa]ge|amounts|all amounts|prices|preise|montants|prix|bedragen|prijzen|importes|precios|importi|prezzi|valores|pre[çc]os|kwoty|ceny)\s+(?:in|en|em|w)\s+([A-Z]{3})(?!\p{L})/iu;

/** amountsStatedIn says whether the page states that its amounts are in the currency: the document settles it in words. */
function amountsStatedIn(doc: ParsedDocument, code: string): boolean {
  return doc.lines.some((l) => parseCurrency(l.plain.match(AMOUNTS_IN)?.[2] ?? "") === code);
}

/** CURRENCY_MENTION: a currency code or symbol as amounts carry it ("R$" and "NZ$" whole, not as "$"; a code glued to its amount, "17 115,45PLN"), or its sign or name after an amount ("3500,00 zł", "310,00 EURO"), or the Czech koruna's sign on either side ("Kč 12.100,-"). */
const CURRENCY_MENTION = new RegExp(`${DOLLAR_SIGN.source}|[€£¥₹]|\\b(?:${CURRENCY_CODES.join("|")})\\b|(?<=\\d[.,]\\d\\d)(?:${CURRENCY_CODES.join("|")})\\b|(?<=\\d\\s?)(?:zł|[Ee]uros?|EUROS?)(?![A-Za-zżźćńółęąś])|(?<![A-Za-z])Kč(?![A-Za-z])`, "g");
/** US_ADDRESS: a US state's code and a ZIP code ("Austin, TX 78701", "New York, NY, 10001"), which settles a bare "$" as USD. */
const US_ADDRESS = /,\s*(?:A[KLRZ]|C[AOT]|D[CE]|FL|GA|HI|I[ADLN]|K[SY]|LA|M[ADEINOST]|N[CDEHJMVY]|O[HKR]|PA|RI|S[CD]|T[NX]|UT|V[AT]|W[AIVY]),?\s+\d{5}(?:-\d{4})?\b/;
/** US_COUNTRY_LINE: an address line that ends with the country ("Anytown, USA", "Denver, CO, United States"). */
const US_COUNTRY_LINE = /,\s*(?:USA|U\.S\.A\.?|United States(?: of America)?)\s*(?:\||$)/m;
/** OTHER_DOLLAR_COUNTRY: countries whose own dollar a bare "$" may be, named on the page: then the address settles nothing. */
const OTHER_DOLLAR_COUNTRY = /\b(Canada|Australia|New Zealand|Singapore|Hong Kong|Mexico|M[ée]xico|Taiwan|Brasil|Brazil|Chile|Argentina|Colombia)\b/i;

function regexFallback(md: string, re: RegExp, confidence: number, at: (v: unknown, c: number, o: number) => FieldOutcome): FieldOutcome | null {
  const m = md.match(re);
  return m && m.index !== undefined ? at(m[0].replace(/[.,;:]+$/, ""), confidence, m.index) : null;
}

/** enumFallback finds an allowed value written in the document as a whole word. */
function enumFallback(doc: ParsedDocument, allowed: string[], at: (v: unknown, c: number, o: number) => FieldOutcome): FieldOutcome | null {
  const lower = doc.markdown.toLowerCase();
  const hits = allowed
    .map((a) => ({ a, i: lower.search(new RegExp(`(^|[^a-z0-9])${escapeRe(a.toLowerCase())}($|[^a-z0-9])`)) }))
    .filter((h) => h.i >= 0)
    .sort((x, y) => x.i - y.i);
  if (!hits.length) return null;
  return at(hits[0]!.a, hits.length === 1 ? 0.45 : 0.3, hits[0]!.i + 1);
}

/** idFallback finds a code whose letters abbreviate the field ("INV-..." for an invoice number). */
function idFallback(doc: ParsedDocument, labels: FieldLabels, at: (v: unknown, c: number, o: number) => FieldOutcome): FieldOutcome | null {
  const prefixes = new Set<string>();
  for (const w of labels.nameWords) if (w.length >= 3 && !["number", "reference", "code"].includes(w)) prefixes.add(w.slice(0, 3));
  if (labels.concept === "po_number") prefixes.add("po");
  if (labels.concept === "transaction_id") prefixes.add("txn").add("trx");
  if (prefixes.size === 0) return null;
  for (const m of doc.markdown.matchAll(new RegExp(ID_RE.source, "g"))) {
    const token = m[0];
    const letters = token.toLowerCase().match(/^[a-z]+/)?.[0] ?? "";
    if (letters && [...prefixes].some((p) => letters.startsWith(p))) return at(token, 0.45, m.index!);
  }
  return null;
}

/** extractObject extracts each member; the object is found when any member is. */
function extractObject(doc: ParsedDocument, objectName: string, def: FieldDefinition, labels: FieldLabels, parent: FieldLabels | null): FieldOutcome {
  const value: Record<string, unknown> = {};
  const found: FieldOutcome[] = [];
  let sum = 0;
  const members = Object.entries(def.properties ?? {});
  for (const [name, member] of members) {
    // "seller": { "name" }: a top-level party's name is read as the party itself ("seller" as a field of its own)
    const asParty = !parent && member.type === "string" && isPartyNameMember(labels, name);
    const r = asParty ? extractField(doc, objectName, { ...member, description: member.description ?? def.description }, null) : extractField(doc, name, member, labels);
    value[name] = r.value;
    sum += r.confidence;
    if (r.found) found.push(r);
  }
  if (found.length === 0) return NOT_FOUND;
  return { ...citeSpan(doc, found), value, confidence: round(sum / members.length), found: true };
}

/** citeSpan cites the slice covering every member's citation when it is short, else the best one. */
function citeSpan(doc: ParsedDocument, parts: FieldOutcome[]): { citation: string; span: [number, number] } {
  const spans = parts.map((p) => p.span!).filter(Boolean);
  const start = Math.min(...spans.map((s) => s[0]));
  const end = Math.max(...spans.map((s) => s[1]));
  if (end - start <= 800) return { citation: doc.markdown.slice(start, end), span: [start, end] };
  const best = parts.reduce((a, b) => (b.confidence > a.confidence ? b : a));
  return { citation: best.citation!, span: best.span! };
}

/** singular drops a plural ending from a field name ("line_items" -> "line_item", "emails" -> "email"). */
function singular(name: string): string {
  return name.replace(/(ies)$/i, "y").replace(/([^s])s$/i, "$1");
}

/** extractArray: a table for arrays of objects; a table column, labels or patterns for scalars. */
function extractArray(doc: ParsedDocument, name: string, def: FieldDefinition, parent: FieldLabels | null): FieldOutcome {
  const items = def.items!;
  if (items.type === "object") return itemObjects(doc, items) ?? tableObjects(doc, items) ?? NOT_FOUND;
  if (items.type === "array") return NOT_FOUND;
  const labels = fieldLabels(singular(name), def.description ?? items.description, parent);
  return columnValues(doc, items, labels) ?? labelledValues(doc, items, labels) ?? patternValues(doc, items, labels) ?? NOT_FOUND;
}

/**
 * itemObjects reads an array of line items (members for a description and a quantity, price or
 * amount, lineItems.ts) from the document's item table, cited by its rows. Null when the members are
 * not line items, or no item table reads; then a plain table read (tableObjects) is capped below 0.8,
 * as nothing checked its rows.
 */
function itemObjects(doc: ParsedDocument, items: FieldDefinition): FieldOutcome | null {
  const roles = itemRoles(Object.entries(items.properties ?? {}));
  const numeric = roles.filter((r) => r && r !== "description").length;
  if (!(numeric >= 2 || (numeric >= 1 && roles.includes("description")))) return null;
  const read = lineItems(doc, items);
  if (read) return cite(doc, read.value, read.confidence, read.span[0], read.span[1]);
  const plain = tableObjects(doc, items);
  return plain && { ...plain, confidence: Math.min(plain.confidence, UNCHECKED_ITEMS) };
}

/** UNCHECKED_ITEMS: the most a table read as line items gets when no row could be checked by its arithmetic. */
const UNCHECKED_ITEMS = 0.6;

/** columnValues reads every cell of the table column named like the field. */
function columnValues(doc: ParsedDocument, items: FieldDefinition, labels: FieldLabels): FieldOutcome | null {
  let best: { table: Table; col: number; score: number } | null = null;
  for (const table of doc.tables) {
    if (table.rows.length < 2) continue;
    table.header.forEach((h, col) => {
      const score = labelScore(h, labels);
      if (score > 0 && (!best || score > best.score)) best = { table, col, score };
    });
  }
  if (!best) return null;
  const { table, col, score } = best as { table: Table; col: number; score: number };
  const values: unknown[] = [];
  let doubt = 1;
  for (const row of table.rows) {
    if (TOTAL_ROW.test(row.find((x) => x) ?? "")) continue;
    const c = row[col] ? coerceText(row[col]!, items, labels, doc.decimalMark) : null;
    if (c) doubt = Math.min(doubt, dateDoubt(c, doc));
    if (c && !values.some((v) => JSON.stringify(v) === JSON.stringify(c.value))) values.push(c.value);
  }
  if (!values.length) return null;
  return cite(doc, values, (score === 1 ? 0.85 : 0.6) * doubt, table.start, table.end);
}

/** labelledValues gathers the values of every label that names the field. */
function labelledValues(doc: ParsedDocument, items: FieldDefinition, labels: FieldLabels): FieldOutcome | null {
  const hits: { value: unknown; c: Candidate; conf: number }[] = [];
  for (const c of doc.candidates) {
    if (c.kind === "column" || c.kind === "cell-last" || c.block) continue;
    const score = labelScore(c.label, labels);
    if (score < 0.5) continue;
    const v = coerceText(c.value, items, labels, doc.decimalMark);
    if (v && !hits.some((h) => JSON.stringify(h.value) === JSON.stringify(v.value))) hits.push({ value: v.value, c, conf: (score === 1 ? 0.85 : 0.6) * v.quality * dateDoubt(v, doc) });
  }
  if (!hits.length) return null;
  const start = Math.min(...hits.map((h) => h.c.start));
  const end = Math.max(...hits.map((h) => h.c.end));
  const span: [number, number] = end - start <= 800 ? [start, end] : [hits[0]!.c.start, hits[0]!.c.end];
  return cite(doc, hits.map((h) => h.value), Math.min(...hits.map((h) => h.conf)), span[0], span[1]);
}

/** patternValues gathers every email, phone, URL or date in the document for a list of them. */
function patternValues(doc: ParsedDocument, items: FieldDefinition, labels: FieldLabels): FieldOutcome | null {
  if (items.type !== "string") return null;
  const words = labels.nameWords;
  let values: { v: string; i: number }[] = [];
  const collect = (re: RegExp) => [...doc.markdown.matchAll(new RegExp(re.source, "g"))].map((m) => ({ v: m[0].replace(/[.,;:]+$/, ""), i: m.index! }));
  if (labels.concept === "email" || words.includes("email")) values = collect(EMAIL_RE);
  else if (labels.concept === "phone" || words.includes("phone")) values = collect(PHONE_RE);
  else if (labels.concept === "website" || words.includes("url") || words.includes("link")) values = collect(URL_RE);
  else if (isDateField(labels)) values = allDates(doc.markdown).map((d) => ({ v: d.text, i: d.index }));
  const unique = values.filter((x, k) => values.findIndex((y) => y.v === x.v) === k);
  if (!unique.length) return null;
  const [s] = lineAt(doc, unique[0]!.i);
  const [, e] = lineAt(doc, unique.at(-1)!.i);
  const span: [number, number] = e - s <= 800 ? [s, e] : lineAt(doc, unique[0]!.i);
  return cite(doc, unique.map((x) => x.v), 0.6, span[0], span[1]);
}

/** TOTAL_ROW: rows that sum a table rather than being one of its items. */
const TOTAL_ROW = /^(sub\s*-?\s*total|totals?|grand total|tax|vat|gst|sales tax|shipping|discount|balance|amount due)\b/i;

/** ITEM_WORDS: member names that mean "what the row is" (its description). */
const ITEM_WORDS = new Set(["item", "description", "name", "product", "service", "label", "line", "article", "category", "type"]);

/** tableObjects builds one object per row of the table whose headers best match the item members. */
function tableObjects(doc: ParsedDocument, items: FieldDefinition): FieldOutcome | null {
  const members = Object.entries(items.properties ?? {});
  const memberLabels = members.map(([n, d]) => fieldLabels(n, d.description, null));
  let best: { table: Table; columns: number[]; scores: number[]; total: number } | null = null;
  for (const table of doc.tables) {
    if (table.rows.length === 0) continue;
    const used = new Set<number>();
    const columns: number[] = [];
    const scores: number[] = [];
    memberLabels.forEach((labels) => {
      let bestCol = -1;
      let bestScore = 0;
      table.header.forEach((h, col) => {
        const s = used.has(col) ? 0 : labelScore(h, labels);
        if (s > bestScore) [bestCol, bestScore] = [col, s];
      });
      if (bestCol >= 0) used.add(bestCol);
      columns.push(bestCol);
      scores.push(bestScore);
    });
    // rows labelled in an unnamed first column ("| Parts | | | 2,100 |") name the item
    const nameless = memberLabels.findIndex((l, k) => columns[k] === -1 && members[k]![1].type === "string" && l.nameWords.some((w) => ITEM_WORDS.has(w)));
    if (nameless >= 0 && !table.header[0] && !used.has(0)) [columns[nameless], scores[nameless]] = [0, 0.5];
    const total = scores.reduce((a, b) => a + b, 0);
    const matched = scores.filter((s) => s > 0).length;
    if (matched >= Math.min(2, members.length) && (!best || total > best.total)) best = { table, columns, scores, total };
  }
  if (!best) return null;
  const { table, columns, scores } = best;
  const rows: Record<string, unknown>[] = [];
  let filled = 0;
  for (const row of table.rows) {
    const first = row.find((c) => c) ?? "";
    if (!first || TOTAL_ROW.test(first)) continue;
    const obj: Record<string, unknown> = {};
    let any = false;
    members.forEach(([n, d], k) => {
      const cell = columns[k]! >= 0 ? row[columns[k]!] : undefined;
      const c = cell ? coerceText(cell, d, memberLabels[k]!, doc.decimalMark) : null;
      obj[n] = c ? c.value : null;
      if (c) {
        any = true;
        filled++;
      }
    });
    if (any) rows.push(obj);
  }
  if (!rows.length) return null;
  const headerQuality = scores.reduce((a, b) => a + b, 0) / members.length;
  const fillRate = filled / (rows.length * members.length);
  return cite(doc, rows, 0.95 * headerQuality * (0.6 + 0.4 * fillRate), table.start, table.end);
}
