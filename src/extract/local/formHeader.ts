/**
 * Official forms (tax returns, declarations, applications): their key facts sit in a header block
 * with no label before them. The form number is printed as "Form 3903" beside the title and again
 * in the footer of each page as "Form 3903 (2013)", the title is the large text of the header, the
 * tax year stands alone beside it and the issuing agency is named as "Department of the Treasury"
 * or "Internal Revenue Service". formHeaderValue reads these for fields that ask for them (a form's
 * number or title, a year, an agency or authority) when the document has such a header.
 *
 * Confidence: each value is read from the page's layout, not under a label, so it stays below 0.8
 * (FORM_SETTLED at most, when the page repeats it as its own footer), except a form number or year
 * that the header and the page's own footer both print (FORM_AGREED): two places agree.
 */
import type { FieldLabels } from "./labels";
import type { ParsedDocument } from "./parse";

export interface HeaderValue {
  value: string;
  confidence: number;
  start: number;
  end: number;
}

/** FORM_WORD: "Form" in the languages users send (Formular, Formulaire, Formulier, Modelo, Modello, Formularz). */
const FORM_WORD = "(?:Form|Formular|Formulaire|Formulier|Formulario|Modelo|Modello|Formularz)";
/** FORM_ID: a form's number ("1040", "1040EZ", "W-2", "1099-INT", "2441"). */
const FORM_ID = "(?:[A-Z]{1,3}-?)?\\d[\\dA-Z]*(?:-[\\dA-Z]+)*";
const FORM_REF = new RegExp(`(?<![\\w/])${FORM_WORD}\\s+(${FORM_ID})(?![\\w-])`, "g");
/** FOOTER_REF: "Form 3903 (2013)", "Form 1040 (Rev. 10-2005)": a page's footer naming its own form. */
const FOOTER_REF = new RegExp(`(?<![\\w/])${FORM_WORD}\\s+(${FORM_ID})\\s+\\((?:Rev\\.?\\s*[^)]*|(?:19|20)\\d\\d)\\)`, "g");
/** CROSS_REFERENCE: words before "Form X" that point to another form ("Attach to Form 1040", "see Form 8863"). */
const CROSS_REFERENCE = /\b(to|on|or|see|from|and|of|with|in|complete|file|attach|also|use|enter|include|per)\s*,?\s*$/i;
/** OMB_LABEL: a control number's label, which marks a government form's header. */
const OMB_LABEL = /\b(OMB|Control)\s+([Nn][Oo]\.?|Number|NUMBER|#)\s*/;

/** HEADER_LINES: how many non-empty lines from the top make a form's header. */
const HEADER_LINES = 8;
/** FORM_SETTLED: the confidence of a header value the page repeats as its own footer. */
const FORM_SETTLED = 0.75;
/**
 * FORM_AGREED: the confidence of a form number or year that the header and the page's own footer
 * ("Form 3903 (2013)") both print: two places of the layout that agree settle it.
 */
const FORM_AGREED = 0.85;
/** FORM_GUESS: the confidence of a header value read once. */
const FORM_GUESS = 0.6;

/** headerLines: the first HEADER_LINES non-empty lines outside tables, with their offsets. */
function headerLines(doc: ParsedDocument) {
  return doc.lines.filter((l) => l.plain).slice(0, HEADER_LINES);
}

/** isFormDocument: a line of the header names a form ("Form 2120") or a control number ("OMB No."). */
export function isFormDocument(doc: ParsedDocument): boolean {
  return headerLines(doc).some((l) => new RegExp(FORM_REF.source).test(l.plain) || OMB_LABEL.test(l.plain));
}

type HeaderKind = "form_number" | "form_title" | "year" | "agency";

/** headerKindOf says which header fact a field asks for, from its name and description, or null. */
export function headerKindOf(labels: FieldLabels): HeaderKind | null {
  const words = new Set([...labels.nameWords, ...labels.descriptionWords]);
  const name = labels.nameWords;
  if (name.includes("year")) return "year";
  if (["agency", "authority", "ministry", "department"].some((w) => name.includes(w) || labels.descriptionWords.has(w))) return "agency";
  if (name.includes("title") && words.has("form")) return "form_title";
  // "omb_number", "The OMB control number of the form": another number the form prints, under its own label
  if (name.includes("form") && ["number", "no", "nr", "id", "code"].some((w) => name.includes(w))) return "form_number";
  return null;
}

/** formHeaderValue reads a header fact for the field, or null when the field asks for none or the page has no form header. */
export function formHeaderValue(doc: ParsedDocument, labels: FieldLabels): HeaderValue | null {
  const kind = headerKindOf(labels);
  if (!kind || !isFormDocument(doc)) return null;
  switch (kind) {
    case "form_number":
      return formNumber(doc);
    case "form_title":
      return formTitle(doc);
    case "year":
      return formYear(doc);
    case "agency":
      return agency(doc);
  }
}

/**
 * formNumber: the form the page names itself: each "Form X (YYYY)" footer counts 3, a "Form X" in
 * the header 2, any other "Form X" 1, and one after a pointing word ("Attach to Form 1040") none.
 */
function formNumber(doc: ParsedDocument): HeaderValue | null {
  const md = doc.markdown;
  const score = new Map<string, { points: number; footer: boolean; header: boolean; at: number }>();
  const headerEnd = headerLines(doc).at(-1)?.end ?? 0;
  const add = (id: string, points: number, at: number, footer = false) => {
    const s = score.get(id) ?? { points: 0, footer: false, header: false, at };
    s.points += points;
    s.footer ||= footer;
    s.header ||= !footer && at < headerEnd;
    s.at = Math.min(s.at, at);
    score.set(id, s);
  };
  for (const m of md.matchAll(FORM_REF)) {
    if (CROSS_REFERENCE.test(md.slice(Math.max(0, m.index - 25), m.index))) continue;
    add(m[1]!, m.index < headerEnd ? 2 : 1, m.index);
  }
  for (const m of md.matchAll(FOOTER_REF)) add(m[1]!, 2, m.index, true);
  const ranked = [...score.entries()].sort((a, b) => b[1].points - a[1].points || a[1].at - b[1].at);
  const best = ranked[0];
  if (!best) return null;
  const [id, s] = best;
  const runner = ranked[1]?.[1].points ?? 0;
  const settled = s.footer && s.points >= 2 * runner;
  // "1040 Department of the Treasury", "# Form ... / # 1040EZ Joint Filers": the header prints the number on its own too
  const headerText = headerLines(doc).map((l) => l.text).join("\n");
  s.header ||= new RegExp(`(?<![\\w/-])${id}(?![\\w-])`).test(headerText);
  // the only number the page's footers name, printed in the header too: settled however often other forms are cited
  const agreed = s.footer && s.header && ranked.filter(([, o]) => o.footer).length === 1;
  const confidence = agreed ? FORM_AGREED : settled ? FORM_SETTLED : s.points > runner ? FORM_GUESS : 0.45;
  return { value: id, confidence, start: s.at, end: s.at + md.slice(s.at).indexOf(id) + id.length };
}

/** formYear: the year of the form's own footer ("Form 3903 (2013)"), else the year the header prints on its own. */
function formYear(doc: ParsedDocument): HeaderValue | null {
  const md = doc.markdown;
  const years = new Map<string, number>();
  let first: RegExpMatchArray | null = null;
  for (const m of md.matchAll(FOOTER_REF)) {
    const y = m[0].match(/\((?:19|20)\d\d\)/)?.[0].slice(1, 5);
    if (!y) continue;
    years.set(y, (years.get(y) ?? 0) + 1);
    first ??= m;
  }
  const alone = headerYear(doc);
  if (years.size === 1 && first) {
    const [y] = [...years.keys()];
    const at = first.index! + first[0].lastIndexOf(y!);
    // the header's own year and the footer's agree: settled
    return { value: y!, confidence: alone?.value === y ? FORM_AGREED : FORM_SETTLED, start: at, end: at + 4 };
  }
  return alone;
}

/** headerYear: "U.S. Individual Income Tax Return 2013": a year standing alone in the header, not a revision date. */
function headerYear(doc: ParsedDocument): HeaderValue | null {
  for (const line of headerLines(doc)) {
    const m = line.text.match(/(?<![\d./-])((?:19|20)\d\d)(?![\d./-])/);
    if (m && !/\b(rev|revised|revision)\b\.?[^)]*$/i.test(line.text.slice(0, m.index))) {
      const at = line.start + m.index!;
      return { value: m[1]!, confidence: FORM_GUESS, start: at, end: at + 4 };
    }
  }
  return null;
}

/** AGENCY: how a government body is named ("Department of the Treasury", "Internal Revenue Service", "Bundeszentralamt für Steuern", "Agenzia delle Entrate"). */
const AGENCY = new RegExp(
  [
    "(?:(?:U\\.S\\.|United States|Federal|State|National)\\s+)?(?:Department|Ministry|Office|Bureau|Board)\\s+(?:of|for)\\s+(?:the\\s+)?[A-Z][\\w&.'-]*(?:\\s+(?:and\\s+|&\\s+)?[A-Z][\\w&.'-]*)*",
    "(?:[A-Z][\\w.'-]+\\s+){1,4}(?:Service|Agency|Administration|Authority|Bureau|Commission)\\b",
    "(?:Bundes\\p{L}*(?:amt|ministerium)|Finanzamt|Minist[eè]re|Ministerio|Ministero|Ministerie|Ministerstwo|Agencia|Agenzia|Agence|Urz[aą]d|Direction g[ée]n[ée]rale)(?:\\s+(?:de|des|du|der|für|fur|van|del|della|delle|dei|degli|di|la|le|l'|y|e|et)?\\s*[\\p{Lu}][\\p{L}'-]*){1,4}",
    "Belastingdienst",
  ].join("|"),
  "gu",
);

/** agency: the first government body the header names. */
function agency(doc: ParsedDocument): HeaderValue | null {
  for (const line of doc.lines.filter((l) => l.plain).slice(0, HEADER_LINES * 2)) {
    for (const m of line.text.matchAll(AGENCY)) {
      const name = m[0].replace(/\s*\(\d+\)$/, "").trim();
      if (name.split(/\s+/).length < 2 && name !== "Belastingdienst") continue;
      const at = line.start + m.index!;
      return { value: name, confidence: FORM_GUESS, start: at, end: at + m[0].length };
    }
  }
  return null;
}

/** SMALL_WORDS: words a title leaves in lower case ("Income Tax Return for Single and Joint Filers"). */
const SMALL_WORDS = new Set(["a", "an", "and", "as", "at", "by", "for", "from", "in", "of", "on", "or", "the", "to", "with", "und", "der", "die", "des", "für", "de", "du", "des", "et", "la", "le", "les", "van", "voor", "en", "het", "y", "del", "e", "di", "da", "do", "i", "w", "z", "dla"]);

/** titleLike: two or more capitalised words and no lower-case word other than SMALL_WORDS ("Moving Expenses", not "Do not write or staple"). */
function titleLike(text: string): boolean {
  const words = text.split(/\s+/).filter(Boolean);
  const capitals = words.filter((w) => /^[\p{Lu}][\p{L}.'’-]*$/u.test(w));
  return capitals.length >= 2 && words.every((w) => /^[\p{Lu}]/u.test(w) || SMALL_WORDS.has(w.toLowerCase()));
}

/**
 * formTitle: the header's title text: each header line with the form number, control number, year,
 * agency, revision date, dot leaders and parenthesised codes taken out, split where those stood;
 * the first title-like piece wins, joined with the next piece when the title runs on ("Income Tax
 * Return for Single and" / "Joint Filers With No Dependents").
 */
function formTitle(doc: ParsedDocument): HeaderValue | null {
  const pieces: { text: string; start: number; end: number; line: number }[] = [];
  headerLines(doc).forEach((line, index) => {
    let text = line.text;
    const blank = (re: RegExp) => {
      text = text.replace(re, (m) => "\u0000".repeat(m.length));
    };
    blank(/^#{1,6}\s/);
    blank(new RegExp(`${FORM_WORD}(\\s+${FORM_ID})?(?![\\w-])`, "g"));
    blank(new RegExp(`${OMB_LABEL.source}[\\d-]*`, "g"));
    blank(new RegExp(AGENCY.source, "gu"));
    blank(/\((?:Rev|Revised)\.?[^)]*\)|\(\d+\)|(?:19|20)\d\d|(?:\s*\.){3,}.*$|\s[a-z]\s(?=[A-Z])|—|\u2014|`/g);
    blank(/(?<![\w-])\d[\dA-Z-]*(?![\w-])/g);
    for (const m of text.matchAll(/[^\u0000]+/g)) {
      const piece = m[0].trim();
      if (!piece) continue;
      const start = line.start + m.index! + m[0].indexOf(piece);
      pieces.push({ text: piece, start, end: start + piece.length, line: index });
    }
  });
  const i = pieces.findIndex((p) => titleLike(p.text));
  if (i < 0) return null;
  let title = pieces[i]!;
  let text = title.text;
  let end = title.end;
  // the title runs on into the next piece when one ends or the other starts with a small word
  const next = pieces[i + 1];
  if (next && next.line - title.line <= 1 && /^[\p{L}\s.'’-]+$/u.test(next.text) && (SMALL_WORDS.has(text.split(/\s+/).at(-1)!.toLowerCase()) || SMALL_WORDS.has(next.text.split(/\s+/)[0]!.toLowerCase())) && (titleLike(next.text) || titleLike(`X ${next.text}`))) {
    text = `${text} ${next.text}`;
    end = next.end;
  }
  return { value: text, confidence: FORM_GUESS, start: title.start, end: Math.max(end, title.end) };
}
