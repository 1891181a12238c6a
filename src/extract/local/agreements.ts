/**
 * Agreements name their parties in a sentence, not after a label: "a legal agreement between you
 * (...) and GitHub, Inc.". agreementProvider reads the party that offers the agreement from there,
 * or, failing that, the company the text names most.
 */
import type { ParsedDocument } from "./parse";
import { escapeRe } from "./values";

/** AgreementParty: a party's name with the offsets of where it is written. */
export interface AgreementParty {
  name: string;
  confidence: number;
  start: number;
  end: number;
}

/** AGREEMENT: words that say the document is an agreement or terms. */
const AGREEMENT = /\b(agreement|terms of service|terms and conditions|contract|vertrag|contrat|overeenkomst|contrato|contratto|umowa)\b/i;
/** COMPANY: a company name with its legal form ("GitHub, Inc.", "Acme Widgets GmbH"). */
const COMPANY = /\b([A-Z][\w&'-]*(?: [A-Z][\w&'-]*){0,4}),? (?:Inc|LLC|Ltd|Limited|GmbH|AG|Corporation|Corp|S\.A|SARL|B\.V|N\.V|PLC)\b\.?/g;
/** BETWEEN: the parties sentence, cut at its end. */
const BETWEEN = /\bbetween\s+([^.;]{1,160}?)\s+and\s+([^;]{1,80})/gi;

/**
 * agreementProvider finds the company offering an agreement: the company (with its legal form) the
 * text names most often, counting its bare name too ("GitHub" for "GitHub, Inc."). When a parties
 * sentence ("between you and GitHub, Inc.") names it as well, 0.75 (the sentence does not say which
 * party offers); else 0.45. A company named in a parties sentence but seldom elsewhere ("the NDA
 * between Microsoft Corporation and Partner") is another agreement's party.
 */
export function agreementProvider(doc: ParsedDocument): AgreementParty | null {
  const md = doc.markdown;
  if (!AGREEMENT.test(md)) return null;
  const counts = new Map<string, { n: number; start: number; end: number; name: string }>();
  for (const c of md.matchAll(COMPANY)) {
    const bare = c[1]!;
    if (counts.has(bare)) continue;
    const n = md.split(new RegExp(`\\b${escapeRe(bare)}\\b`)).length - 1;
    counts.set(bare, { n, start: c.index!, end: c.index! + c[0].length, name: c[0] });
  }
  const best = [...counts.values()].sort((a, b) => b.n - a.n)[0];
  if (!best) return null;
  for (const m of md.matchAll(BETWEEN)) {
    for (const party of [m[1]!, m[2]!]) {
      if (!party.startsWith(best.name)) continue;
      const start = m.index! + m[0].indexOf(party);
      return { name: best.name, confidence: 0.75, start, end: start + best.name.length };
    }
  }
  return { name: best.name, confidence: 0.45, start: best.start, end: best.end };
}
