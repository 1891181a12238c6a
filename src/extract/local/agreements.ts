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
 * sentence sets it against the reader ("between you and GitHub") and no other company comes near it
 * in mentions, 0.85; when a parties sentence names it otherwise, 0.75 (the sentence does not say
 * which party offers); else 0.45. A company named in a parties sentence but seldom elsewhere ("the NDA
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
  const ranked = [...counts.entries()].sort((a, b) => b[1].n - a[1].n);
  if (!ranked[0]) return null;
  const [bare, best] = ranked[0];
  // the text names it throughout and any other company seldom: the agreement's own party
  const dominant = best.n >= DOMINANT_MENTIONS && best.n >= 3 * (ranked[1]?.[1].n ?? 0);
  let named: AgreementParty | null = null;
  for (const m of md.matchAll(BETWEEN)) {
    // "between you (...) and GitHub": the reader is one party, so the other is the one offering the agreement
    if (dominant && /^you\b/i.test(m[1]!) && new RegExp(`^${escapeRe(bare)}\\b`).test(m[2]!)) {
      const start = m.index! + m[0].lastIndexOf(m[2]!);
      return { name: best.name, confidence: READER_AND_PROVIDER, start, end: start + m[2]!.indexOf(bare) + bare.length };
    }
    for (const party of [m[1]!, m[2]!]) {
      if (named || !party.startsWith(best.name)) continue;
      const start = m.index! + m[0].indexOf(party);
      named = { name: best.name, confidence: 0.75, start, end: start + best.name.length };
    }
  }
  return named ?? { name: best.name, confidence: 0.45, start: best.start, end: best.end };
}

/** DOMINANT_MENTIONS: how often the text must name a company (its bare name counted) to be the agreement's own. */
const DOMINANT_MENTIONS = 5;
/**
 * READER_AND_PROVIDER: the confidence of the company a parties sentence sets against the reader
 * ("between you and GitHub, Inc."), when the text names it throughout: the sentence says who offers.
 */
const READER_AND_PROVIDER = 0.85;
