/**
 * Line items: the rows of an invoice's or order's item table read as objects (description, quantity,
 * unit price, amount), from whatever shape the converter left them in: a markdown pipe table, a pipe
 * table whose columns ran together ("| Copy paper A4 10 | $4.50 | $45.00 |"), aligned text columns
 * of a PDF text layer ("1 Trennblätter A4 9,9000 20 Stk 19% 198,00") or OCR text ("Lunch buffet |40
 * |$18.50 $740.00").
 *
 * Cells are not trusted to hold one column each, so a row is read by its numbers: after a header line
 * that names at least two of the columns (in English, German, French, Dutch, Spanish, Italian,
 * Portuguese or Polish), each line until the subtotal or total line is a row when it holds a
 * description and the numbers the header promises. Which number is which is settled by arithmetic
 * where the row allows it (quantity x unit price = amount, the rightmost such three), and by the
 * header's order of quantity and price; the description is the longest stretch of words left once the
 * numbers, units, rates and the position number are taken out.
 *
 * Confidence (the spec's bands): every row reconciles and the amounts add up to the subtotal printed
 * under them, 0.95; every row reconciles and no subtotal is printed, 0.88; rows that cannot be checked
 * (no amount column), 0.7; any row that does not reconcile, or amounts that do not add up to the
 * subtotal printed, 0.6 at most: such an array is never at >= 0.8.
 */
import type { FieldDefinition } from "../../schema/typed";
import type { Line, ParsedDocument } from "./parse";
import { cleanText, normaliseDigits, type DecimalMark } from "./values";

/** ItemRole: what a member of a line item holds. */
export type ItemRole = "description" | "quantity" | "unit_price" | "amount";
type NumericRole = Exclude<ItemRole, "description">;

/** SCHEMA_ROLES: words of a member's name (first) or description that say its role, most specific first. */
const SCHEMA_ROLES: [ItemRole, RegExp][] = [
  ["quantity", /\b(qty|quantity|quantities|count|number of (units|items|pieces)|menge|anzahl|quantit[eé]|aantal|cantidad|quantit[aà]|quantidade|ilo[sś][cć])\b/i],
  ["unit_price", /\b(unit[ _]?price|price|unit[ _]?cost|rate|per unit|einzelpreis|preis|prix|prijs|precio|prezzo|pre[cç]o|cena)\b/i],
  ["amount", /\b(amount|line[ _]?total|total|subtotal|sum|extended|betrag|gesamt|montant|bedrag|importe|importo|kwota|warto[sś][cć])\b/i],
  ["description", /\b(description|descr|desc|item|product|name|service|article|label|designation|d[eé]signation|libell[eé]|beschreibung|bezeichnung|artikel|omschrijving|descripci[oó]n|concepto|descrizione|articolo|descri[cç][aã]o|produto|opis|nazwa|text)\b/i],
];

/** CODE_NAME: a member name that holds a code or number of the item rather than its description. */
const CODE_NAME = /\b(code|id|sku|number|no|nr|ref|reference|gtin|ean)\b/i;

/** itemRoles reads the role of each member from its name, else its description; null = none of the four. */
export function itemRoles(members: [string, FieldDefinition][]): (ItemRole | null)[] {
  const taken = new Set<ItemRole>();
  return members.map(([name, def]) => {
    const numeric = def.type === "number" || def.type === "integer";
    // "product_code", "item_id", "article_number": a code of the item, not what it is
    if (!numeric && CODE_NAME.test(name.replace(/_/g, " "))) return null;
    for (const text of [name.replace(/_/g, " "), def.description ?? ""]) {
      const role = SCHEMA_ROLES.find(([r, re]) => re.test(text) && (r === "description") !== numeric && !taken.has(r))?.[0];
      if (role) {
        taken.add(role);
        return role;
      }
    }
    return null;
  });
}

/** HEADER_WORDS: a header cell's word (lowercased, punctuation trimmed) per role; compound words (Nettopreis, Gesamtbetrag) by their stem. */
const HEADER_WORDS: Record<ItemRole, RegExp> = {
  description: /^(description|descr\.?|item|items|product|products|produkt|article|artikel\p{L}*|service|services|leistung|bezeichnung|beschreibung|d[eé]signation|libell[eé]|omschrijving|descripci[oó]n|concepto|producto|descrizione|articolo|descri[cç][aã]o|produto|opis|nazwa|towar|particulars|details)$/u,
  quantity: /^(qty|qté|qte|quantity|quantité|quantite|\p{L}*menge|anzahl|aantal|cantidad|cant|quantità|quantita|qtà|qta|quantidade|qtd|ilość|ilosc|hours|hrs|stunden|uren|horas)$/u,
  unit_price: /^(price|rate|unit ?price|unit ?cost|\p{L}*preis(\/\p{L}*)?|einzel\p{L}*|e-preis|prix|p\.?u\.?|\p{L}*prijs|tarief|precio|prezzo|preço|preco|cena|vl|each)$/u,
  amount: /^(amount|total|\p{L}*betrag|gesamt\p{L}*|summe|montant|bedrag|totaal|importe|importo|kwota|wartość|wartosc|valor|entgelt|netto|net)$/u,
};

/** POSITION_WORD: a first header word that names the row's position number ("Pos", "Nr.", "#", "Ligne"). */
const POSITION_WORD = /^(pos|position|nr|no|n°|#|line|ligne|lp|poz|posten|regel)$/;

/** UNIT_WORD: a unit printed beside a quantity ("20 Stk", "120 h", "3 Piece"): not part of the description. */
const UNIT_WORD = /^(stk|stck|st|stück|stueck|pcs?|pce|pieces?|piece|h|hrs?|hours?|std|days?|tage?|m|meter|kg|g|l|x|ea|each|units?|lot|szt|c62|xct|un|und|uds|pz|pzs|pièces?|pcs\.|unité|unités|eenheid|stuks?|mal)$/i;

/** STOP_LINE: a line that sums the items or follows them (subtotal, total, tax, shipping, discount) in the supported languages. */
const STOP_LINE = /^(sub\s*-?\s*total|zwischensumme|total|totals|grand total|net total|invoice total|order total|gesamt\p{L}*|summe|\p{L}*summe|endsumme|rechnungs\p{L}*|positionen netto|nettobetrag|netto|brutto|mehrwertsteuer|umsatzsteuer|sous[\s-]total|montant|subtotaal|totaal|subtotal|importe|base imponible|totale|imponibile|razem|suma|warto[sś][cć]|tax|taxe|taxes|vat|mwst|ust|tva|iva|btw|shipping|freight|versand\p{L}*|discount|rabatt|remise|balance|amount due)(?!\p{L})/iu;

/** TAX_SUMMARY: a tax breakdown's words anywhere on a line: the items are over. */
const TAX_SUMMARY = /(umsatzsteuer|steuerbetrag|mehrwertsteuer|aufschlüsselung|tax breakdown|vat breakdown|détail tva|tax summary)/i;

/** HeaderLine: a line naming the item columns, with where each role's word stands in it. */
interface HeaderLine {
  index: number;
  roles: Map<ItemRole, number>;
  /** positionFirst: the first column is the row's position number */
  positionFirst: boolean;
}

/** headerWords splits a header line into lowercase words, pipes and punctuation trimmed. */
function headerWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[\s|/]+/)
    .map((w) => w.replace(/^[^\p{L}\p{N}#°]+|[^\p{L}\p{N}°/.]+$/gu, "").replace(/\.$/, ""))
    .filter(Boolean);
}

/** readHeader tells whether a line names the item columns: two roles or more, one of them a number. */
function readHeader(line: Line, index: number): HeaderLine | null {
  if (line.text.length > 240 || /\d[.,]\d/.test(line.text)) return null;
  const words = headerWords(line.text);
  const roles = new Map<ItemRole, number>();
  let descriptions = 0;
  words.forEach((w, k) => {
    // "unit price" and "line total" are one word each
    const pair = `${w} ${words[k + 1] ?? ""}`;
    const phrase = /^unit (price|cost)$/.test(pair) ? "unit price" : w;
    for (const role of Object.keys(HEADER_WORDS) as ItemRole[]) {
      if (!HEADER_WORDS[role].test(phrase)) continue;
      if (role === "description") descriptions++;
      if (!roles.has(role)) roles.set(role, k);
      break;
    }
  });
  const numeric = ["quantity", "unit_price", "amount"].filter((r) => roles.has(r as ItemRole)).length;
  if (roles.size < 2 || numeric === 0) return null;
  const first = words[0] ?? "";
  // "Item | Description | Qty": the item column is the position when another word names the description
  const positionFirst = POSITION_WORD.test(first) || ((first === "item" || first === "art") && descriptions >= 2);
  if (positionFirst && roles.get("description") === 0) {
    const next = words.findIndex((w, k) => k > 0 && HEADER_WORDS.description.test(w));
    if (next > 0) roles.set("description", next);
  }
  return { index, roles, positionFirst };
}

interface RowNumber {
  value: number;
  /** raw: the digits as printed */
  raw: string;
  start: number;
  end: number;
  percent: boolean;
}

/**
 * ROW_NUMBER: a number standing on its own in a row: not glued to letters ("A4", "EQ4", "mmx1.25"), not
 * part of a date, an IP address, a time or a code ("1908-S", "303-21-3", "#57811"); a currency sign
 * before or after it is part of it. Thousands are grouped by "." "," "'" or a no-break space, never a
 * plain space (in aligned columns a space separates two numbers).
 */
const ROW_NUMBER = /(?<![\p{L}\p{N}#.,/:'’\-–])(?:[-−]\s?)?(?:(?:R\$|US\$|\$|€|£|¥|CHF|EUR|USD|GBP|PLN|zł)\s?)?(?:\d{1,3}(?:[.,'’\u00a0\u202f]\d{3})+(?:[.,]\d+)?|\d+(?:[.,]\d+)?)(?:\s?(?:€|\$|£|zł|CHF|EUR|USD|GBP|PLN)(?!\p{L}))?(?![\p{L}\p{N}]|[.,:/\-–][\p{L}\p{N}])/gu;

/** rowNumbers lists the numbers of a row line with their offsets in it; article numbers and GTINs (seven digits or more, ungrouped) are codes. */
function rowNumbers(text: string, mark: DecimalMark): RowNumber[] {
  const out: RowNumber[] = [];
  for (const m of text.matchAll(ROW_NUMBER)) {
    const digits = m[0].replace(/[^\d.,'’\u00a0\u202f]/g, "");
    if (/^\d{7,}$/.test(digits)) continue;
    const value = normaliseDigits(digits, mark);
    if (value === null) continue;
    const end = m.index! + m[0].length;
    const negative = /^[-−]/.test(m[0].trim());
    out.push({ value: negative ? -value : value, raw: digits, start: m.index!, end, percent: /^\s?%/.test(text.slice(end)) });
  }
  return out;
}

/** near: two amounts equal to the cent, allowing a unit price printed with more decimals than the amount (41,1765 x 1 = 41,18). */
const near = (a: number, b: number) => Math.abs(a - b) <= 0.0101;

export interface ItemRow {
  values: Partial<Record<ItemRole, number | string>>;
  /** reconciled: the row's quantity times its unit price is its amount, as printed */
  reconciled: boolean;
  start: number;
  end: number;
}

/** readRow reads one line as an item row, or null when it is not one. */
function readRow(line: Line, header: HeaderLine, mark: DecimalMark): ItemRow | null {
  const text = line.text;
  let numbers = rowNumbers(text, mark);
  // the position number opens the row ("1 Trennblätter", "| 2 | Drill bit set |")
  const firstContent = text.search(/[^\s|#]/);
  if (header.positionFirst && numbers[0] && numbers[0].start <= firstContent + 1 && /^\d{1,4}$/.test(numbers[0].raw)) numbers = numbers.slice(1);
  const usable = numbers.filter((n) => !n.percent);
  const used = new Map<NumericRole, RowNumber>();
  const triple = reconcilingTriple(usable);
  if (triple) {
    const [x, y, z] = triple;
    const priceFirst = (header.roles.get("unit_price") ?? Infinity) < (header.roles.get("quantity") ?? Infinity);
    // without the header's word: the whole number is the quantity, else the first
    const xIsQuantity = header.roles.has("unit_price") && header.roles.has("quantity") ? !priceFirst : Number.isInteger(x.value) || !Number.isInteger(y.value);
    used.set("quantity", xIsQuantity ? x : y).set("unit_price", xIsQuantity ? y : x).set("amount", z);
  } else {
    const promised = (["quantity", "unit_price", "amount"] as NumericRole[]).filter((r) => header.roles.has(r)).sort((a, b) => header.roles.get(a)! - header.roles.get(b)!);
    // "Description Quantité Rem. Prix HT": a number after the named ones is the line's amount
    if (!header.roles.has("amount") && usable.length > promised.length) promised.push("amount");
    const last = usable.slice(-promised.length);
    if (last.length === promised.length) promised.forEach((r, k) => used.set(r, last[k]!));
    // "| Transport | Pauschal | | 120,00 | 120,00 |": no quantity printed, the price is the amount
    else if (promised.length === 3 && last.length === 2 && near(last[0]!.value, last[1]!.value)) used.set("unit_price", last[0]!).set("amount", last[1]!);
    else return null;
  }
  const description = rowDescription(text, [...used.values(), ...numbers.filter((n) => n.percent)], firstContent);
  if (!description) return null;
  const values: ItemRow["values"] = { description };
  for (const [role, n] of used) values[role] = n.value;
  return { values, reconciled: triple !== null, start: line.start, end: line.end };
}

/**
 * reconcilingTriple finds three numbers of the row, in order, where the first two multiply to the
 * third: the rightmost such amount, then the factors nearest to it. A zero amount needs a zero factor.
 */
function reconcilingTriple(numbers: RowNumber[]): [RowNumber, RowNumber, RowNumber] | null {
  for (let l = numbers.length - 1; l >= 2; l--) {
    for (let j = l - 1; j >= 1; j--) {
      for (let i = j - 1; i >= 0; i--) {
        const [x, y, z] = [numbers[i]!, numbers[j]!, numbers[l]!];
        if (near(x.value * y.value, z.value) && !(z.value === 0 && x.value !== 0 && y.value !== 0)) return [x, y, z];
      }
    }
  }
  return null;
}

/**
 * rowDescription: the longest stretch of words of the row once the numbers read (and rates) are cut
 * out and cells are split at their pipes; a unit alone ("Stk", "Piece") is no description, and a
 * position number opening the stretch is dropped.
 */
function rowDescription(text: string, cut: RowNumber[], firstContent: number): string | null {
  let masked = text;
  for (const n of cut) masked = masked.slice(0, n.start) + "|".repeat(n.end - n.start) + masked.slice(n.end);
  masked = masked.replace(/(?<=\|)\s?%\S*/g, "|");
  let best: string | null = null;
  let offset = 0;
  for (const part of masked.split("|")) {
    const at = offset;
    offset += part.length + 1;
    let words = cleanText(part);
    if (at <= firstContent + 1) words = words.replace(/^\d{1,4}[.)]?\s+(?=\p{L})/u, "");
    words = words.replace(ARTICLE_LABEL, "").replace(/^[#:.\-\s]+|[\s:]+$/g, "");
    const letters = (words.match(/\p{L}/gu) ?? []).length;
    if (letters < 2 || words.split(/\s+/).every((w) => UNIT_WORD.test(w.replace(/\.$/, "")))) continue;
    if (!best || letters > (best.match(/\p{L}/gu) ?? []).length) best = words;
  }
  return best;
}

/** ARTICLE_LABEL: an article number's label opening a row's text ("Art-Nr-Kunde: Schweinesteak"): not the description. */
const ARTICLE_LABEL = /^(art(ikel)?[.\s-]*nr[.\w-]*|item (no|code)|sku|r[eé]f(erence)?\.?)\s*:\s*/iu;

/** MAX_GAP: how many non-row lines may stand between two item rows (article numbers, periods, a gross price). */
const MAX_GAP = 8;

export interface ItemTable {
  rows: ItemRow[];
  header: HeaderLine;
  /** sums: the amounts add up to a subtotal or total printed after the rows (true), to none of those printed (false), or nothing is printed (null) */
  sums: boolean | null;
}

/**
 * readItemTable reads the rows under the header at `index` up to the line that sums them; with
 * `wraps`, a description's wrapped end on the line under its row is joined (text layers only: under
 * an OCR row, such a line is as often noise read from a stamp or a crease).
 */
function readItemTable(lines: Line[], header: HeaderLine, mark: DecimalMark, wraps: boolean): ItemTable | null {
  const rows: ItemRow[] = [];
  let gap = 0;
  let stop = -1;
  for (let i = header.index + 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line.plain || /^\|?[\s|:-]+\|?$/.test(line.text.trim())) continue;
    const words = line.text.replace(/^[\s|#]+/, "").replace(/^\d{1,4}\s*\|/, "").replace(/^[\s|]+/, "");
    if (STOP_LINE.test(words) || TAX_SUMMARY.test(line.text)) {
      stop = i;
      break;
    }
    if (rows.length && readHeader(line, i)) break;
    const row = readRow(line, header, mark);
    if (row) {
      rows.push(row);
      gap = 0;
    } else if (wraps && rows.length && gap === 0 && continuesDescription(line, rows.at(-1)!)) {
      const last = rows.at(-1)!;
      last.values.description = joinDescription(String(last.values.description), line.plain.trim());
      last.end = line.end;
      gap = 1;
    } else if (rows.length && (line.isHeading || ++gap > MAX_GAP)) break;
    else if (!rows.length && ++gap > 2) break;
  }
  if (!rows.length) return null;
  return { rows, header, sums: stop < 0 ? null : amountsSum(lines, stop, rows, mark) };
}

/**
 * CONTINUATION: the rest of a description wrapped onto the line under its row ("4 minimale 15,5500 2
 * Stk 19 % 31,10" / "Selbstbeteiligung"): one to three words of letters, no digits, no label colon.
 */
const CONTINUATION = /^\p{L}[\p{L}'’&./-]*(?: [\p{L}'’&./-]+){0,2}$/u;

/**
 * continuesDescription: the first non-empty line after a row is its description's wrapped end: a
 * plain line of CONTINUATION's shape, not a list item, heading, table row or a summing line, under a
 * row whose description is one or two words (a wrapped cell; a longer one is whole).
 */
function continuesDescription(line: Line, row: ItemRow): boolean {
  const words = String(row.values.description ?? "").split(/\s+/).length;
  if (line.isTable || line.isHeading || /^\s*(?:[-*•+]|\d+[.)])\s/.test(line.text) || words > 2) return false;
  const text = line.plain.trim();
  return CONTINUATION.test(text) && !STOP_LINE.test(text) && !TAX_SUMMARY.test(text) && !UNIT_WORD.test(text);
}

/** joinDescription joins a wrapped description: "Personen-" + "Unfallversicherung" keeps the hyphen before a capital, "Selbst-" + "beteiligung" drops it. */
function joinDescription(head: string, tail: string): string {
  if (!head.endsWith("-")) return `${head} ${tail}`;
  return /^\p{Lu}/u.test(tail) ? head + tail : head.slice(0, -1) + tail;
}

/** SUM_WINDOW: how many non-empty lines from the first summing line a subtotal or total may stand. */
const SUM_WINDOW = 12;

/**
 * amountsSum says whether the rows' amounts add up to an amount printed under them (true); false when
 * the summing line itself prints amounts and none of those nearby is the sum (a tax breakdown opening
 * the summing lines settles nothing); null when a row has no amount or nothing is printed.
 */
function amountsSum(lines: Line[], stop: number, rows: ItemRow[], mark: DecimalMark): boolean | null {
  const amounts = rows.map((r) => r.values.amount);
  if (amounts.some((a) => typeof a !== "number")) return null;
  const sum = (amounts as number[]).reduce((a, b) => a + b, 0);
  const window = lines.slice(stop).filter((l) => l.plain).slice(0, SUM_WINDOW);
  const printed = window.flatMap((l) => rowNumbers(l.text, mark).filter((n) => !n.percent));
  if (printed.some((n) => Math.abs(n.value - sum) < 0.005 * Math.max(1, rows.length))) return true;
  const summing = lines[stop]!;
  return !TAX_SUMMARY.test(summing.text) && rowNumbers(summing.text, mark).some((n) => !n.percent) ? false : null;
}

/** findItemTable picks the header whose rows read best: most reconciled rows, then most rows. */
export function findItemTable(doc: ParsedDocument): ItemTable | null {
  let best: ItemTable | null = null;
  const score = (t: ItemTable) => t.rows.filter((r) => r.reconciled).length * 2 + t.rows.length;
  doc.lines.forEach((line, i) => {
    const header = readHeader(line, i);
    if (!header) return;
    const table = readItemTable(doc.lines, header, doc.decimalMark, doc.ocrQuality === null);
    if (table && (!best || score(table) > score(best))) best = table;
  });
  return best;
}

/** ITEM_CONFIDENCE: by what checks the rows (module comment). */
const ITEM_CONFIDENCE = { summed: 0.95, reconciled: 0.88, unchecked: 0.7, contradicted: 0.6, unreconciled: 0.4 };
/** OCR_ITEMS_CAP: OCR-read rows: the arithmetic settles the digits, not the description's letters. */
const OCR_ITEMS_CAP = 0.85;
const OCR_POOR_ITEMS_CAP = 0.7;

/**
 * lineItems reads the item table as the schema's objects, with its confidence and the span of its rows;
 * null when the document has no item table or the members name none of the roles. Members with no
 * role are null.
 */
export function lineItems(doc: ParsedDocument, items: FieldDefinition): { value: Record<string, unknown>[]; confidence: number; span: [number, number] } | null {
  const members = Object.entries(items.properties ?? {});
  const roles = itemRoles(members);
  const table = findItemTable(doc);
  if (!table) return null;
  const value = table.rows.map((row) => {
    const obj: Record<string, unknown> = {};
    members.forEach(([name, def], k) => {
      const role = roles[k];
      const v = role ? row.values[role] : undefined;
      obj[name] = v === undefined ? null : def.type === "integer" && typeof v === "number" && !Number.isInteger(v) ? null : v;
    });
    return obj;
  });
  const checks = table.rows.every((r) => r.reconciled);
  const hasAmounts = table.rows.some((r) => typeof r.values.amount === "number");
  // amounts promised and no row multiplying out: the numbers may not be what the header names
  const none = !table.rows.some((r) => r.reconciled);
  let confidence = none && hasAmounts ? ITEM_CONFIDENCE.unreconciled : !checks && hasAmounts ? ITEM_CONFIDENCE.contradicted : table.sums === false ? ITEM_CONFIDENCE.contradicted : !checks ? ITEM_CONFIDENCE.unchecked : table.sums ? ITEM_CONFIDENCE.summed : ITEM_CONFIDENCE.reconciled;
  // a member the table does not fill leaves every row incomplete
  if (roles.some((r, k) => r !== null && value.every((v) => v[members[k]![0]] === null))) confidence = Math.min(confidence, ITEM_CONFIDENCE.contradicted);
  if (doc.ocrQuality !== null) confidence = Math.min(confidence, doc.ocrQuality >= 0.85 ? OCR_ITEMS_CAP : OCR_POOR_ITEMS_CAP);
  return { value, confidence, span: [table.rows[0]!.start, table.rows.at(-1)!.end] };
}
