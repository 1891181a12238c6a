/**
 * Fiscal documents that print their number as "number and series" and name their issuer in a
 * receipt stub: the Brazilian NF-e and NFC-e (DANFE: "N°. 44525 / SÉRIE 1", "NFC-e nº 1629 Série 1",
 * "RECEBEMOS DE <issuer> OS PRODUTOS ..."), and Spanish, Portuguese and Italian invoices numbered
 * within a series ("Número 123 Serie A"). Neither is under a label the engine knows as the invoice
 * number's or the vendor's, so both are read here: below 0.8 when printed once, 0.85 when the page
 * prints the same value twice (the stub and the header).
 */
import type { ParsedDocument } from "./parse";

export interface FiscalValue {
  value: string;
  confidence: number;
  start: number;
  end: number;
}

/** NUMBER_BEFORE_SERIES: a number sign or "Número" with its number, then the series ("N°. 44525 ## SÉRIE 1", "NUMERO | 992346 SERIE 1"). */
const NUMBER_BEFORE_SERIES = /(?<!\p{L})(?:N[°º]\.?|No\.|Nr\.|N[úu]mero|NUMER\p{L}*)\s*[:|]?\s*(\d[\d.]*)\s*[|\n#\s]*S[ÉEée]rie\b/giu;

/** SERIES_NUMBER_SETTLED: the confidence of a number the page prints twice with its series, alike (the DANFE's stub and its header). */
const SERIES_NUMBER_SETTLED = 0.85;
const SERIES_NUMBER_ONCE = 0.65;

/** numberWithSeries: the document's number printed with its series, or null. */
export function numberWithSeries(doc: ParsedDocument): FiscalValue | null {
  const found = [...doc.markdown.matchAll(NUMBER_BEFORE_SERIES)];
  const first = found[0];
  if (!first) return null;
  const value = first[1]!.replace(/\.$/, "");
  const distinct = new Set(found.map((m) => m[1]!.replace(/\.$/, "")));
  const confidence = distinct.size > 1 ? 0.5 : found.length > 1 ? SERIES_NUMBER_SETTLED : SERIES_NUMBER_ONCE;
  const start = first.index! + first[0].indexOf(first[1]!);
  return { value, confidence, start: first.index!, end: Math.max(start + value.length, first.index! + first[0].trimEnd().length) };
}

/** RECEIPT_STUB: a DANFE's receipt stub, which names the issuer ("RECEBEMOS DE KRON INSTRUMENTOS ELETRICOS LTDA OS PRODUTOS ..."). */
const RECEIPT_STUB = /\bRECEBEMOS DE\s+(.{2,80}?)\s+OS PRODUTOS\b/i;

/** issuerOfReceiptStub: the issuer a receipt stub names, or null. */
export function issuerOfReceiptStub(doc: ParsedDocument): FiscalValue | null {
  const m = doc.markdown.match(RECEIPT_STUB);
  if (!m) return null;
  const at = m.index! + m[0].indexOf(m[1]!);
  // the stub's issuer printed again (the DANFE's header block) is settled by the two places agreeing
  const again = doc.markdown.split(m[1]!).length - 1 >= 2;
  return { value: m[1]!, confidence: again ? 0.85 : 0.75, start: m.index!, end: at + m[1]!.length };
}
