/**
 * SWIFT MT940 bank statements: their fields are numbered tags at the start of a line, not labels
 * (":25:" the account, ":60F:" the opening and ":62F:" the closing balance, each balance written as
 * "C110201EUR4370,79": credit or debit, YYMMDD, currency, amount with a decimal comma). The format
 * fixes what each tag holds, so a value read from its tag is settled.
 */
import type { FieldLabels } from "./labels";
import type { ParsedDocument } from "./parse";

/** Mt940Value: a value read from a tag, with the offsets of its line. */
export interface Mt940Value {
  value: string | number;
  start: number;
  end: number;
}

/** MT940_TAG: a tag line (":25:...", ":62F:...") as markdown keeps it. */
const MT940_TAG = /^:(\d{2}[A-Z]?):(.*)$/;
/** BALANCE: the balance tags' value ("C110201EUR4370,79": sign, date, currency, amount). */
const BALANCE = /^([CD])(\d{6})([A-Z]{3})(\d+(?:,\d*)?)/;

interface Tag {
  tag: string;
  value: string;
  start: number;
  end: number;
}

/** mt940Tags lists the tag lines of a statement, or null when the document is not an MT940 file (":20:" and ":25:" and a balance). */
function mt940Tags(doc: ParsedDocument): Tag[] | null {
  const tags: Tag[] = [];
  for (const line of doc.lines) {
    // the raw line: the plain text has lost the tag's leading colon
    const m = doc.markdown.slice(line.start, line.end).trim().match(MT940_TAG);
    if (m) tags.push({ tag: m[1]!, value: m[2]!.trim(), start: line.start, end: line.end });
  }
  const has = (t: string) => tags.some((x) => x.tag === t);
  return has("20") && has("25") && (has("60F") || has("62F")) ? tags : null;
}

/** OPENING, CLOSING: the words a field's name says which balance with ("opening_balance", "ending_balance", "new_balance") */
const OPENING = new Set(["opening", "starting", "start", "beginning", "initial", "previous", "old"]);
const CLOSING = new Set(["closing", "ending", "end", "final", "new", "current"]);

/**
 * mt940Value reads the field from the statement's tags: the account (":25:"), the opening balance
 * (the first ":60F:"), the closing balance (the last ":62F:") and the currency of the balances; null
 * when the document is no MT940 file or the field is none of these.
 */
export function mt940Value(doc: ParsedDocument, labels: FieldLabels, type: string): Mt940Value | null {
  const tags = mt940Tags(doc);
  if (!tags) return null;
  const words = labels.nameWords;
  const balance = (tag: string, which: "first" | "last") => {
    const all = tags.filter((t) => t.tag === tag && BALANCE.test(t.value));
    return which === "first" ? all[0] : all.at(-1);
  };
  if (type === "string" && labels.concept === "currency") {
    const b = balance("62F", "last") ?? balance("60F", "first");
    return b ? { value: b.value.match(BALANCE)![3]!, start: b.start, end: b.end } : null;
  }
  if (type === "string" && (words.includes("account") || words.includes("iban"))) {
    const account = tags.find((t) => t.tag === "25");
    return account && account.value ? { value: account.value, start: account.start, end: account.end } : null;
  }
  if (type === "number" && words.includes("balance")) {
    const b = words.some((w) => OPENING.has(w)) ? balance("60F", "first") : words.some((w) => CLOSING.has(w)) || words.length === 1 ? balance("62F", "last") : null;
    if (!b) return null;
    const m = b.value.match(BALANCE)!;
    const amount = Number(m[4]!.replace(",", "."));
    return { value: m[1] === "D" ? -amount : amount, start: b.start, end: b.end };
  }
  return null;
}
