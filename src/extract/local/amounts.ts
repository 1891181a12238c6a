/**
 * The arithmetic of a document's amounts, as evidence for the total the label matching picked:
 * a receipt prints its total again as the amount paid ("CASH 21.20"), and an invoice's total is its
 * net amount plus the tax. A total that another line repeats, or that the net amount and the tax
 * add up to, is settled by the data; one that equals the net amount while a tax is charged on top
 * is probably the net amount, and the amount that adds the tax to it is the total.
 */
import { fieldLabels, labelScore, normaliseLabel } from "./labels";
import type { Candidate, Line, ParsedDocument } from "./parse";
import { cleanText, parseNumber } from "./values";

/** PAID: labels of the amount handed over or charged (cash, card), which repeat the total. */
const PAID = /\b(cash|tendered|paid|payment|card|visa|mastercard|master|debit|credit|amex|bezahlt|gegeben|bar|especes|contant|pagado|pagato|zaplacono)\b/;
/** CHANGE: labels of the change given back. */
const CHANGE = /\b(change|kembalian|ruckgeld|wechselgeld|rendu|wisselgeld|cambio|resto|reszta)\b/;
/** TOTALISH: labels that sum something up, whatever the total concept's exclusions say ("Net Total", "Rounded"). */
const TOTALISH = /\b(total|tota|totaal|totale|summe|gesamt|rounded|nett|amount|betrag|montant|importe|razem)\b/;

interface Amount {
  value: number;
  candidate: Candidate;
}

/**
 * PAID_LINE / CHANGE_LINE: a receipt's payment lines as OCR reads them ("CASH RM 50.00", "CA. : RM
 * = 73. 00", "Paid Amount 100.00", "CHANGE: RM 0.00", "CASH CHANGE 71.40"), read off the raw lines
 * because OCR often leaves no clean label for the parser; "GASH" and "Sash" are cash with its C
 * misread (a payment line counts only with a change line under it); one stray character OCR read
 * before the label ("2 CASH RM = 11.40", a speck at the paper's edge) is passed over.
 */
const PAID_LINE = /^\W*(?:[\p{L}\d]\W+)?([cgs]ash|ca\.|tunai|tendered|paid|paid amount|amount paid|payment|card|visa|master(card)?|debit card|credit card)(?![\p{L}])/iu;
const CHANGE_LINE = /^\W*(cash\s+)?(change|kembalian|baki|ruckgeld|wechselgeld|rendu)(?![\p{L}])/iu;

/** OCR_AMOUNT: a two-decimal amount, tolerating the spaces OCR puts around its point ("73. 00", "28 .60"). */
const OCR_AMOUNT = /(?<![\d.,])(\d{1,6})\s?[.,]\s?(\d{2})(?![\d])/g;

/** ocrAmounts lists the two-decimal amounts of a line, in order. */
export function ocrAmounts(text: string): { value: number; index: number }[] {
  return [...text.matchAll(OCR_AMOUNT)].map((m) => ({ value: Number(`${m[1]}.${m[2]}`), index: m.index! }));
}

/** TAX_SUMMARY: the heading of a receipt's tax breakdown as OCR reads it ("GST SUMMARY", "GST Sunmary Amount Tax", "Tax Summary"). */
const TAX_SUMMARY = /\b(gst|tax|vat|sst)\s*s[a-z]{2,5}ar[yi]/i;
/** TAX_SUMMARY_REACH: how many lines below its heading a tax breakdown's rows reach. */
const TAX_SUMMARY_REACH = 6;

/**
 * taxSummaryRow says whether the line at a markdown offset is a row of a receipt's tax breakdown:
 * two or more amounts (the taxable amount and the tax) within TAX_SUMMARY_REACH lines below a tax
 * summary heading. Its "Total" sums the breakdown, not what was paid.
 */
export function taxSummaryRow(doc: ParsedDocument, offset: number): boolean {
  const at = doc.lines.findIndex((l) => l.start <= offset && offset <= l.end);
  if (at < 0 || ocrAmounts(doc.lines[at]!.plain).length < 2) return false;
  return doc.lines.slice(Math.max(0, at - TAX_SUMMARY_REACH), at).some((l) => TAX_SUMMARY.test(l.plain));
}

export interface Payment {
  /** value: the amount handed over less the change given back: what was paid, the total */
  value: number;
  start: number;
  end: number;
  /** confirmedAt: the offsets of another line of the page that prints the same amount, if any */
  confirmedAt: [number, number] | null;
}

/**
 * receiptPayment reads what a receipt says was paid: the amount on a payment line less the change on
 * the change line just below it (the change 0.00 when paid exactly). Cash minus change is the total
 * by arithmetic, from two numbers the total line does not share; when a third line prints the same
 * amount, or a tax summary row adds up to it, three readings agree.
 */
export function receiptPayment(doc: ParsedDocument): Payment | null {
  const lines = doc.lines.map((l, i) => ({ l, i })).filter((x) => x.l.plain && !x.l.isTable);
  for (let j = 0; j < lines.length; j++) {
    const change = lines[j]!;
    if (!CHANGE_LINE.test(change.l.plain)) continue;
    const c = ocrAmounts(change.l.plain).at(-1);
    if (!c) continue;
    for (const paid of lines.slice(Math.max(0, j - 3), j).reverse()) {
      if (!PAID_LINE.test(paid.l.plain) || CHANGE_LINE.test(paid.l.plain)) continue;
      const p = ocrAmounts(paid.l.plain).at(-1);
      if (!p || p.value <= c.value) break;
      const value = Math.round((p.value - c.value) * 100) / 100;
      const other = lines.find((x) => x !== paid && x !== change && ocrAmounts(x.l.plain).some((a) => same(a.value, value)))?.l ?? taxRowOf(doc, value, paid.l.start, change.l.end);
      return { value, start: paid.l.start, end: change.l.end, confirmedAt: other ? [other.start, other.end] : null };
    }
  }
  return null;
}

/**
 * taxRowAddsUp says whether another line of the page prints two amounts that add up to the total, the
 * smaller at most 30 % of the larger: a tax summary's net amount and tax ("SR 6% 9.34 0.56" under a
 * total of 9.90). Lines that print the total itself, and the picked line, do not count.
 */
function taxRowAddsUp(doc: ParsedDocument, picked: Candidate, value: number): boolean {
  return taxRowOf(doc, value, picked.start, picked.end) !== null || taxLinesAddUp(doc, picked, value);
}

/** RATE: a tax rate as a receipt prints it ("6%", "6 %"). */
const RATE = /(?<![\d.,])(\d{1,2})\s?%/;

/**
 * taxLinesAddUp says whether two lines in a row print the taxable amount and its tax at the same rate,
 * adding up to the total ("TAX AMT (S) 6% RM 13.30" / "GST 6% RM 0.80" under a total of 14.10): the
 * tax is the rate of the amount (to the cent), and neither line is the picked one. Two readings the
 * total line does not share, held together by the rate.
 */
function taxLinesAddUp(doc: ParsedDocument, picked: Candidate, value: number): boolean {
  if (value <= 0) return false;
  const lines = doc.lines.filter((l) => l.plain && !l.isTable && !(l.start < picked.end && l.end > picked.start));
  return lines.some((l, i) => {
    const next = lines[i + 1];
    if (!next) return false;
    const rate = l.plain.match(RATE)?.[1];
    if (!rate || rate === "0" || next.plain.match(RATE)?.[1] !== rate) return false;
    const [a, b] = [ocrAmounts(l.plain), ocrAmounts(next.plain)];
    if (a.length !== 1 || b.length !== 1) return false;
    const [net, tax] = [a[0]!.value, b[0]!.value];
    return tax > 0 && Math.abs(net * (Number(rate) / 100) - tax) <= 0.01 && same(net + tax, value);
  });
}

/** taxRowOf finds a line outside [start, end) whose two amounts, the smaller at most 30 % of the larger, add up to value. */
function taxRowOf(doc: ParsedDocument, value: number, start: number, end: number): Line | null {
  if (value <= 0) return null;
  return doc.lines.find((l) => {
    if (!l.plain || (l.start < end && l.end > start)) return false;
    const amounts = ocrAmounts(l.plain).map((a) => a.value);
    if (amounts.some((a) => same(a, value))) return false;
    return amounts.some((a, i) => amounts.some((b, j) => i !== j && b > 0 && b <= 0.3 * a && same(a + b, value)));
  }) ?? null;
}

/** TOTAL_LINE: a line that opens with a total and names no quantity, net amount or tax ("Total Rounded 99.80"). */
const TOTAL_LINE = /^\W*(grand |nett? )?total(?![\p{L}])(?!.*\b(qty|quantity|items?|excl\w*|tax|gst|vat)\b)/iu;
/**
 * TAX_INCLUSIVE_TOTAL_LINE: a total that says the tax is in it ("Total RM Including GST 6% 99.80", its
 * "Inclusive" or "Including" as OCR misreads it: "Tneluding", "Inclusive"), never an excluding one.
 */
const TAX_INCLUSIVE_TOTAL_LINE = /^\W*total(?![\p{L}])(?!.*\b(qty|quantity|items?|ex\w*)\b).*(?<![\p{L}])(?!ex)\p{L}{0,4}lu(?:d|s)\p{L}*\s+(?:of\s+)?(gst|tax|vat|mwst)\b/iu;

/** repeatedOnPaymentLine says whether another line that pays or totals ("Visa RN 85.54", "Total Gross RM 85.54") prints the amount again. */
function repeatedOnPaymentLine(doc: ParsedDocument, picked: Candidate, value: number): boolean {
  if (value <= 0) return false;
  return doc.lines.some(
    (l) => l.plain && !(l.start < picked.end && l.end > picked.start) && !taxSummaryRow(doc, l.start) && (PAID_LINE.test(l.plain) || TOTAL_LINE.test(l.plain) || TAX_INCLUSIVE_TOTAL_LINE.test(l.plain)) && ocrAmounts(l.plain).some((a) => same(a.value, value)),
  );
}

/** oneDigitOff says whether two amounts differ by one misread digit (9.85 / 9.65) or a lost point (7950 / 79.50). */
export function oneDigitOff(read: number, paid: number): boolean {
  if (same(read, paid * 100)) return true;
  const a = read.toFixed(2), b = paid.toFixed(2);
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) diff++;
  return diff === 1;
}

export interface TotalEvidence {
  /** corroborated: another line repeats the amount, or the net amount and the tax add up to it */
  corroborated: boolean;
  /** contradicted: the amount equals the net amount while a tax is charged on top of it */
  contradicted: boolean;
  /** better: the amount that adds the tax to the picked one, when the pick was the net amount, or what the payment lines say was paid */
  better: Amount | null;
  /** betterConfidence: how sure the better amount is */
  betterConfidence: number;
}

const same = (a: number, b: number) => Math.abs(a - b) < 0.005;

let subtotalLabels: ReturnType<typeof fieldLabels> | null = null;
let taxLabels: ReturnType<typeof fieldLabels> | null = null;

/** amountsOf reads every labelled amount of the document, once per line and value. */
function amountsOf(doc: ParsedDocument): { all: (Amount & { kind: "sub" | "tax" | "paid" | "change" | "total" | "other" })[] } {
  subtotalLabels ??= fieldLabels("subtotal", undefined);
  taxLabels ??= fieldLabels("tax", undefined);
  const all: (Amount & { kind: "sub" | "tax" | "paid" | "change" | "total" | "other" })[] = [];
  for (const c of doc.candidates) {
    if (c.kind === "column") continue;
    // "N° TVA : 765432-1": a registration number under a tax's label is no amount
    if (/^\d+-\d+$/.test(cleanText(c.value).trim())) continue;
    const n = parseNumber(cleanText(c.value), doc.decimalMark);
    if (!n || n.percent) continue;
    const label = normaliseLabel(c.label);
    const kind = labelScore(c.label, subtotalLabels) === 1
      ? "sub"
      : labelScore(c.label, taxLabels) > 0 && n.value !== 0
        ? "tax"
        : CHANGE.test(label)
          ? "change"
          : PAID.test(label)
            ? "paid"
            : TOTALISH.test(label) && !/\b(qty|quantity|items?|pcs|menge|anzahl)\b/.test(label)
              ? "total"
              : "other";
    all.push({ value: n.value, candidate: c, kind });
  }
  return { all };
}

/**
 * netPlusTax: with no total label a reader can make out ("Due payable: 571.04 €"), the amount printed
 * below a labelled net amount and its tax that adds them up is the total, settled by the arithmetic;
 * null when none or several different amounts do.
 */
export function netPlusTax(doc: ParsedDocument): Amount | null {
  const { all } = amountsOf(doc);
  // "Gross Amount : 40.00 / Total GST Amt : 2.40 / Sub Total : 42.40": a receipt's gross amount is before its tax, and
  // the subtotal below both adds them up
  const gross = (a: (typeof all)[number]) => /\bgross\b/i.test(a.candidate.label);
  const subs = all.filter((a) => a.kind === "sub" || gross(a));
  const taxes = all.filter((a) => a.kind === "tax" && a.value > 0);
  const adds = all.filter((a) => a.kind !== "tax" && !gross(a) && a.value > 0 && subs.some((s) => s.candidate.start < a.candidate.start && taxes.some((t) => t.candidate.start < a.candidate.start && same(s.value + t.value, a.value))));
  const values = new Set(adds.map((a) => a.value.toFixed(2)));
  return values.size === 1 ? adds[0]! : null;
}

/** totalEvidence weighs the picked total against the document's other amounts. */
export function totalEvidence(doc: ParsedDocument, picked: Candidate, value: number): TotalEvidence {
  const { all } = amountsOf(doc);
  const subs = all.filter((a) => a.kind === "sub");
  const taxes = all.filter((a) => a.kind === "tax" && a.value > 0);
  // a tax breakdown's sum row ("GST SUMMARY ... TOTAL: 52.00 3.12") repeats the taxable amount, not the total
  const elsewhere = all.filter((a) => a.candidate.start !== picked.start && (a.kind === "total" || a.kind === "paid") && !taxSummaryRow(doc, a.candidate.start));
  const sums = subs.flatMap((s) => taxes.map((t) => s.value + t.value));
  const changes = all.filter((a) => a.kind === "change");
  const paid = all.filter((a) => a.kind === "paid");
  let corroborated =
    elsewhere.some((a) => same(a.value, value)) ||
    sums.some((s) => same(s, value)) ||
    paid.some((p) => changes.some((c) => c.value > 0 && same(p.value - c.value, value)));
  // a subtotal may include the tax (receipts print "Sub Total" after the GST): it is the net amount only when
  // nothing says the tax is in it: a tax labelled inclusive, a tax row whose net and tax add up to it, or the payment
  const payment = receiptPayment(doc);
  const inclusiveTax = taxes.some((t) => /\b(inclusive|incl|inkl|included|including)\b/i.test(doc.markdown.slice(t.candidate.start, t.candidate.end)));
  const taxIncluded = inclusiveTax || taxRowAddsUp(doc, picked, value) || (payment !== null && same(payment.value, value));
  const equalsSub = subs.some((s) => s.candidate.start !== picked.start && same(s.value, value));
  const isNet = equalsSub && taxes.length > 0 && !sums.some((s) => same(s, value)) && !taxIncluded;
  // "Sub-total: 593,10 / (Inclusive) GST 6% 33,57 / Total: 593.10": the subtotal holds the tax, and the total repeats it
  if (equalsSub && inclusiveTax) corroborated = true;
  // repeating the net amount settles nothing when a tax is charged on top of it
  if (isNet) corroborated = false;
  let better: Amount | null = null;
  if (value > 0 && (isNet || !corroborated)) {
    // "Total 20.00, GST 1.20, Net Total 21.20": the amount with the tax added, printed below, is the total
    const withTax = all.find(
      (a) => a.candidate.start > picked.start && (a.kind === "total" || a.kind === "sub") && taxes.some((t) => t.candidate.start < a.candidate.start && same(a.value, value + t.value)),
    );
    if (withTax) {
      better = withTax;
      corroborated = true;
    }
  }
  if (!corroborated && !isNet && (taxRowAddsUp(doc, picked, value) || repeatedOnPaymentLine(doc, picked, value) || zeroRatedRow(doc, value) || chargesAddUp(doc, picked, value, subs))) corroborated = true;
  let betterConfidence = 0.85;
  if (payment && same(payment.value, value)) corroborated = true;
  else if (payment && !better && !corroborated) {
    // "Total Sales 60.91 ... CASH 100.00 Change 19.10" with 80.90 printed above: what was paid, printed again, is the total;
    // "Total 9.85 ... Cash 50.00 Change 40.35": the total line misread one digit
    const at = payment.confirmedAt ?? [payment.start, payment.end];
    const candidate: Candidate = { label: "paid", value: payment.value.toFixed(2), kind: "colon", start: at[0], end: at[1], section: "", order: picked.order };
    if (payment.confirmedAt) {
      better = { value: payment.value, candidate };
      corroborated = true;
    } else if (oneDigitOff(value, payment.value)) {
      better = { value: payment.value, candidate };
      betterConfidence = 0.7;
    }
  }
  return { corroborated, contradicted: isNet && !better, better, betterConfidence };
}

/** DEDUCTION: the label of an amount taken off between a subtotal and the total (a discount, an allowance). */
const DEDUCTION = /(?<!\p{L})(discounts?|less|rabatt|nachlass|skonto|remise|escompte|descuento|sconto|korting|desconto|rabat|upust)(?!\p{L})/iu;
/** LINE_END_AMOUNT: a two-decimal amount closing a line, its currency sign or code before or after it ("$4,699.67", "0,00€"). */
const LINE_END_AMOUNT = /(?:[$€£]\s?)?(\d[\d.,' ]*[.,]\d{2})\s?(?:€|£|EUR|USD|GBP|CHF|PLN|zł)?\s*$/u;

/**
 * chargesAddUp says whether the amounts printed between the subtotal line and the total line, each on a
 * line of its own under a label (a tax, zero included, shipping, a discount taken off), add the subtotal
 * up to the total, to the cent: "Subtotal 22,379.39 / Discounts (21%) 4,699.67 / Tax (10%) 1,767.97 /
 * Shipping 199.99 / Total 19,647.68"; "Sous total 40,00 / TVA 0,00 / Montant TTC 40,00". The page's own
 * arithmetic confirms the total's digits. A payment line between them, or a line without a label and an
 * amount, settles nothing.
 */
function chargesAddUp(doc: ParsedDocument, picked: Candidate, value: number, subs: Amount[]): boolean {
  const lineOf = (offset: number) => doc.lines.findIndex((l) => l.start <= offset && offset <= l.end);
  const totalLine = lineOf(picked.start);
  const sub = subs.filter((s) => lineOf(s.candidate.start) < totalLine).at(-1);
  if (!sub || totalLine < 0) return false;
  const between = doc.lines.slice(lineOf(sub.candidate.start) + 1, totalLine).filter((l) => l.plain);
  if (between.length === 0 || between.length > 6) return false;
  let sum = sub.value;
  for (const line of between) {
    const m = line.plain.match(LINE_END_AMOUNT);
    const label = m ? line.plain.slice(0, m.index).trim() : "";
    if (!m || !/^\p{L}{2,}/u.test(label) || PAID.test(normaliseLabel(label))) return false;
    const n = parseNumber(m[1]!, doc.decimalMark);
    if (!n || n.percent) return false;
    sum += DEDUCTION.test(label) ? -n.value : n.value;
  }
  return same(sum, value);
}

/** SLIP_HEADER: the payment part's "Currency Amount" heading of a QR-bill or payment slip, in its four languages. */
const SLIP_HEADER = /\b(Currency|W[äa]hrung|Monnaie|Valuta)\b[\s|:-]{1,12}\b(Amount|Betrag|Montant|Importo)\b/gi;
/** SLIP_AMOUNT: the amount under it ("CHF 1 756.05", "| CHF | 123 949.75 |"). */
const SLIP_AMOUNT = /\b(CHF|EUR)\b[\s|]{1,6}(\d{1,3}(?:[ ’'\u00a0]\d{3})*[.,]\d{2})(?!\d)/;

export interface SlipAmount {
  value: number;
  /** times: how often the page prints it under a "Currency Amount" heading (a QR-bill's receipt and payment part: twice) */
  times: number;
  start: number;
  end: number;
}

/**
 * slipAmount: the amount a payment slip's "Currency / Amount" part asks for (Swiss QR-bill, in
 * English, German, French or Italian), which is the amount to pay; null when the page has no such part
 * or the parts disagree.
 */
export function slipAmount(doc: ParsedDocument): SlipAmount | null {
  const md = doc.markdown;
  const found: { value: number; start: number; end: number }[] = [];
  for (const h of md.matchAll(SLIP_HEADER)) {
    const after = h.index! + h[0].length;
    const window = md.slice(after, after + 300);
    // each heading's amount, and the one beside it when the page sets receipt and payment part side by side
    for (const m of window.matchAll(new RegExp(SLIP_AMOUNT.source, "g"))) {
      const value = Number(m[2]!.replace(/[ ’'\u00a0]/g, "").replace(",", "."));
      const start = after + m.index!;
      if (!found.some((f) => f.start === start)) found.push({ value, start, end: start + m[0].length });
      if (found.length >= 4) break;
    }
  }
  const first = found[0];
  if (!first || found.some((f) => !same(f.value, first.value))) return null;
  return { value: first.value, times: found.length, start: first.start, end: first.end };
}

/** ROUNDING_ROW: a receipt's cash rounding line and its signed adjustment ("ROUNDING ; -0,01", "Rounding Adj 0.02"). */
const ROUNDING_ROW = /^\W*round(?:ing|ed)?\b(?:\s*adj\w*)?[^\d-]{0,12}(-?)\s?0\s?[.,]\s?0(\d)\s*$/i;

/**
 * netTaxRounded: with no total that can be read, a receipt's subtotal, its tax and its cash rounding,
 * printed in that order, add up to what was paid, and the sum lands on a multiple of 5 cents as
 * cash rounding does. Computed, not printed: the caller keeps it below 0.6. Null when any of the
 * three is missing or ambiguous.
 */
export function netTaxRounded(doc: ParsedDocument): Amount | null {
  const lines = doc.lines.filter((l) => l.plain && !l.isTable);
  const subAt = lines.findIndex((l) => SUB_ROW.test(l.plain) && ocrAmounts(l.plain).length === 1);
  if (subAt < 0 || lines.slice(subAt + 1).some((l) => SUB_ROW.test(l.plain))) return null;
  const sub = ocrAmounts(lines[subAt]!.plain)[0]!.value;
  const rest = lines.slice(subAt + 1, subAt + 5);
  const taxLine = rest.find((l) => TAX_ROW.test(l.plain) && ocrAmounts(l.plain).length === 1);
  const row = rest.find((l) => ROUNDING_ROW.test(l.plain));
  if (!taxLine || !row || row.start < taxLine.start) return null;
  const tax = ocrAmounts(taxLine.plain)[0]!.value;
  if (!(tax > 0 && tax <= 0.3 * sub)) return null;
  const m = ROUNDING_ROW.exec(row.plain)!;
  const adjust = ((m[1] ? -1 : 1) * Number(m[2])) / 100;
  const value = Math.round((sub + tax + adjust) * 100) / 100;
  if (adjust === 0 || Math.round(value * 100) % 5 !== 0) return null;
  const start = lines[subAt]!.start;
  return { value, candidate: { label: "subtotal", value: value.toFixed(2), kind: "colon", start, end: row.end, section: "", order: 0 } };
}

/** SUB_ROW / TAX_ROW: a receipt's subtotal line ("SUB-TOTAL (EX)", "Total Sales (Excluding GST)") and its tax line, as OCR reads them. */
const SUB_ROW = /^\W*sub\s*-?\s*total\b|^\W*total\b[^\d]{0,12}\(?\s*(excl\w*|before (tax|gst))\b/i;
const TAX_ROW = /^\W*(total\s+)?(tax|gst|vat|sst)\b(?!.*\b(summary|code|rate)\b)/i;

/**
 * cashTendered reads the amount a receipt says was handed over: a cash or payment line with a change
 * line under it (the change itself may be unreadable). A total above it cannot be what was paid: a
 * digit of it was misread ("Total Sales (Inclusive of GST) : 400.96" paid with "CASH 101.00"). Null
 * when the page has no such pair.
 */
export function cashTendered(doc: ParsedDocument): number | null {
  const lines = doc.lines.filter((l) => l.plain && !l.isTable);
  for (let j = 0; j < lines.length; j++) {
    if (!CHANGE_LINE.test(lines[j]!.plain)) continue;
    const paid = lines.slice(Math.max(0, j - 3), j).reverse().find((l) => PAID_LINE.test(l.plain) && !CHANGE_LINE.test(l.plain));
    const amount = paid ? ocrAmounts(paid.plain).at(-1) : undefined;
    if (amount) return amount.value;
  }
  return null;
}

/**
 * zeroRatedRow says whether the tax summary prints the total as its zero-rated row ("Z 0% 9.90 0.00",
 * "z= 0% 9.90 00"): with no tax on it, the taxable amount is what was paid, a second reading of it.
 * The row's other amounts, if any, are zero.
 */
function zeroRatedRow(doc: ParsedDocument, value: number): boolean {
  if (value <= 0) return false;
  return doc.lines.some((l, at) => {
    if (!l.plain || !/(?<![\d.,])0\s?%/.test(l.plain)) return false;
    if (!doc.lines.slice(Math.max(0, at - TAX_SUMMARY_REACH), at).some((h) => TAX_SUMMARY.test(h.plain))) return false;
    const amounts = ocrAmounts(l.plain).map((a) => a.value);
    return amounts.some((a) => same(a, value)) && amounts.every((a) => same(a, value) || a === 0);
  });
}

/** ROUNDING_AMOUNT_LINE: a cash rounding line, however OCR garbled what stands between its word and its amount ("ROUNDING) 7 3 Le 0.01"). */
const ROUNDING_AMOUNT_LINE = /^\W*round(?:ing|ed)?\b(?!.*\btotal\b)/i;

/**
 * addedUpTotals lists what a receipt's other amounts add up to, as totals a misread total line can be
 * checked against: its subtotal and tax (with the cash rounding of a rounding line, either sign,
 * landing on 5 cents), and each row of its tax summary (taxable amount and tax; on 5 cents too when
 * the page rounds). Each is a sum of amounts the total line does not share; the list is empty when
 * the page prints none. A subtotal whose point OCR lost ("Total Sales (Excluding GST) 5142" on a page
 * of two-decimal amounts) is read in cents. `wholeRate` marks a subtotal and tax that agree with each
 * other: the tax is a whole percent of the subtotal (3.08 of 51.42 at 6 %) and nothing else is charged
 * or taken off between them and no cash rounding added, two readings that confirm each other.
 */
export function addedUpTotals(doc: ParsedDocument): AddedUp[] {
  const lines = doc.lines.filter((l) => l.plain && !l.isTable);
  const out: AddedUp[] = [];
  const subAt = lines.findIndex((l) => SUB_ROW.test(l.plain) && subtotalOf(doc, l.plain) !== null);
  if (subAt >= 0 && !lines.slice(subAt + 1).some((l) => SUB_ROW.test(l.plain))) {
    const sub = subtotalOf(doc, lines[subAt]!.plain)!;
    const rest = lines.slice(subAt + 1, subAt + 5);
    const taxLine = rest.find((l) => TAX_ROW.test(l.plain) && ocrAmounts(l.plain).length === 1);
    const tax = taxLine ? ocrAmounts(taxLine.plain)[0]!.value : 0;
    if (taxLine && tax > 0 && tax <= 0.3 * sub) {
      const row = rest.find((l) => ROUNDING_AMOUNT_LINE.test(l.plain) && l.start > taxLine.start);
      const adjust = row ? ocrAmounts(row.plain).at(-1)?.value : 0;
      const end = row ? row.end : taxLine.end;
      // nothing else charged or taken off between the subtotal and the tax or rounding ("Discount 0.00" is nothing)
      const between = rest.filter((l) => l.start < end && l !== taxLine && l !== row);
      // with a cash rounding of either sign the sum has more ways to land a digit away; only an unrounded sum is held against the total
      const wholeRate = wholePercent(sub, tax) && !adjust && between.every((l) => ocrAmounts(l.plain).every((a) => a.value === 0));
      if (adjust !== undefined && adjust < 0.05) {
        for (const sign of adjust === 0 ? [1] : [1, -1]) {
          const value = Math.round((sub + tax + sign * adjust) * 100) / 100;
          if (!row || Math.round(value * 100) % 5 === 0) out.push({ value, start: lines[subAt]!.start, end, wholeRate });
        }
      }
    }
  }
  // a page that rounds its cash total pays a summary row's sum only when it lands on 5 cents
  const rounds = lines.some((l) => ROUNDING_AMOUNT_LINE.test(l.plain));
  for (const l of lines) {
    if (!taxSummaryRow(doc, l.start)) continue;
    const amounts = ocrAmounts(l.plain).map((a) => a.value);
    if (amounts.length !== 2) continue;
    const [a, b] = amounts as [number, number];
    const value = Math.round((a + b) * 100) / 100;
    if (b > 0 && b <= 0.3 * a && !(rounds && Math.round(value * 100) % 5 !== 0)) out.push({ value, start: l.start, end: l.end, wholeRate: false });
  }
  return out;
}

/** AddedUp: a sum of a receipt's amounts, the markdown span it was read from, and whether its parts confirm each other. */
export interface AddedUp {
  value: number;
  start: number;
  end: number;
  wholeRate: boolean;
}

/**
 * subtotalOf reads a subtotal line's one amount; an amount of 3 to 6 digits ending the line on a page
 * of two-decimal amounts lost its point and is read in cents ("5142" as 51.42). Null when neither.
 */
function subtotalOf(doc: ParsedDocument, plain: string): number | null {
  const amounts = ocrAmounts(plain);
  if (amounts.length === 1) return amounts[0]!.value;
  if (amounts.length > 1) return null;
  const digits = plain.match(/(?<![\d.,])(\d{3,6})\s*$/)?.[1];
  return digits && ocrAmounts(doc.markdown).length >= 3 ? Number(digits) / 100 : null;
}

/**
 * wholePercent says whether a tax is a whole percent (1 to 30) of the amount it is charged on, to the
 * cent. Below 10.00 every tax is some whole percent of the amount, so the test says nothing there.
 */
export function wholePercent(amount: number, tax: number): boolean {
  if (amount < 10 || tax <= 0) return false;
  for (let rate = 1; rate <= 30; rate++) if (Math.abs((amount * rate) / 100 - tax) <= 0.0101) return true;
  return false;
}

/** lostLeadingDigit says whether `read` is `sum` with its first digit lost ("53.35" read for 153.35). */
export function lostLeadingDigit(read: number, sum: number): boolean {
  const a = read.toFixed(2), b = sum.toFixed(2);
  return b.length === a.length + 1 && b.slice(1) === a;
}
