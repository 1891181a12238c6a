/**
 * The arithmetic of a document's amounts, as evidence for the total the label matching picked:
 * a receipt prints its total again as the amount paid ("CASH 21.20"), and an invoice's total is its
 * net amount plus the tax. A total that another line repeats, or that the net amount and the tax
 * add up to, is settled by the data; one that equals the net amount while a tax is charged on top
 * is probably the net amount, and the amount that adds the tax to it is the total.
 */
import { fieldLabels, labelScore, normaliseLabel } from "./labels";
import type { Candidate, ParsedDocument } from "./parse";
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

export interface TotalEvidence {
  /** corroborated: another line repeats the amount, or the net amount and the tax add up to it */
  corroborated: boolean;
  /** contradicted: the amount equals the net amount while a tax is charged on top of it */
  contradicted: boolean;
  /** better: the amount that adds the tax to the picked one, when the pick was the net amount */
  better: Amount | null;
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

/** totalEvidence weighs the picked total against the document's other amounts. */
export function totalEvidence(doc: ParsedDocument, picked: Candidate, value: number): TotalEvidence {
  const { all } = amountsOf(doc);
  const subs = all.filter((a) => a.kind === "sub");
  const taxes = all.filter((a) => a.kind === "tax" && a.value > 0);
  const elsewhere = all.filter((a) => a.candidate.start !== picked.start && (a.kind === "total" || a.kind === "paid"));
  const sums = subs.flatMap((s) => taxes.map((t) => s.value + t.value));
  const changes = all.filter((a) => a.kind === "change");
  const paid = all.filter((a) => a.kind === "paid");
  let corroborated =
    elsewhere.some((a) => same(a.value, value)) ||
    sums.some((s) => same(s, value)) ||
    paid.some((p) => changes.some((c) => c.value > 0 && same(p.value - c.value, value)));
  const isNet = subs.some((s) => same(s.value, value)) && taxes.length > 0 && !sums.some((s) => same(s, value));
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
  return { corroborated, contradicted: isNet && !better, better };
}
