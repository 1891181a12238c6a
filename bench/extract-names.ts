/**
 * extract-names: does the local engine read the same value whatever a schema calls a field? Users name fields as
 * their own code does (invoice2data's templates say `issuer`, `amount`, `date`; others `supplier`, `grand_total`,
 * `invoice_no`), often without a description. On the invoices, the bank statements and the SROIE receipts of
 * bench/extract-real.ts (documents other people made), each field of the set's described schema ("vendor: Name of
 * the company that issued the invoice") is read again under other names, bare (no description) and with the
 * described field's description, and the value compared with the described field's; the invoices' vendor and total
 * are also asked as an object's member (`seller.name`, `totals.gross`).
 *
 * It reads the markdown bench/extract-real.ts keeps in BENCH_MD_CACHE (run that first with the same directory);
 * documents without a cached markdown are left out. Printed: each name that reads another value than the
 * described field on some documents, and the share of all (document, name) pairs that agree, bare and with the
 * description. Goal: >= 0.95 each.
 *
 *   BENCH_MD_CACHE=/tmp/md-cache bun bench/extract-names.ts
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { extractLocal } from "../src/extract/local";
import { parseTypedSchema } from "../src/schema/typed";
import { qualitySignals } from "../src/extract/confidence";

const ROOT = resolve(import.meta.dir, "..");
const CACHE = process.env.BENCH_MD_CACHE ?? "";
const SETS = ["invoices", "invoices-more", "invoices-intl", "invoices-fresh", ...[2, 3, 4, 5, 6, 7].map((n) => `invoices-fresh${n}`), "bank-statements"];
const GOAL = 0.95;

/** NAMES: the other names a schema gives each field of the described invoice schema */
const NAMES: Record<string, string[]> = {
  vendor: ["issuer", "supplier", "seller", "company", "vendor_name", "company_name", "issuer_name", "seller_name", "supplier_name", "billed_by", "sender", "from"],
  total: ["amount", "total_amount", "grand_total", "amount_due", "invoice_total", "total_price", "amount_total", "total_due", "sum", "gross_amount", "totalAmount", "total_incl_vat"],
  invoice_date: ["date", "issue_date", "date_issued", "billing_date", "invoice_issue_date", "document_date", "issued_on", "date_of_issue", "invoiceDate"],
  invoice_number: ["invoice_no", "invoice_id", "invoice_num", "document_number", "bill_number", "invoiceNumber", "inv_no"],
  currency: ["currency_code", "invoice_currency", "currencyCode"],
  merchant: ["company", "store", "shop", "store_name", "merchant_name", "shop_name", "vendor", "business_name", "seller"],
  date: ["purchase_date", "transaction_date", "receipt_date", "date_of_purchase"],
  account_number: ["iban", "account", "account_no", "bank_account"],
  closing_balance: ["ending_balance", "final_balance", "end_balance", "new_balance", "balance"],
};

/** NESTED: fields asked as an object's member ("seller": { "name" }, "totals": { "gross" }): [described field, object, member] */
const NESTED: [string, string, string][] = [
  ["vendor", "seller", "name"], ["vendor", "supplier", "name"], ["vendor", "issuer", "name"], ["vendor", "vendor", "company_name"],
  ["total", "totals", "gross"], ["total", "totals", "total"], ["total", "summary", "total_amount"],
];

/** RECEIPT: extract-real's receipt schema, read on the SROIE receipts it keeps in the cache as NNN.jpg */
const RECEIPT = {
  merchant: { type: "string", description: "Name of the shop or company that issued the receipt" },
  date: { type: "string", description: "The date of the purchase" },
  total: { type: "number", description: "Total amount paid, tax included" },
};
const RECEIPT_TOTAL_NAMES = ["total_amount", "amount", "amount_paid", "total_paid", "grand_total", "total_price"];

if (!CACHE || !existsSync(CACHE)) {
  console.log("BENCH_MD_CACHE is not set or missing: run bench/extract-real.ts with it first");
  console.log("RESULT extract-names not run (no markdown cache)");
  process.exit(0);
}

const tally = new Map<string, { same: number; all: number }>();
/** the same names, each with the described field's description */
const withDescriptions = { same: 0, all: 0 };
let documents = 0;

/** compare reads one cached document with its described schema, then each field under its other names. */
function compare(cached: string, schema: Record<string, { type: string; description?: string }>, names: (field: string) => string[]): void {
  const fields = Object.keys(schema).filter((f) => names(f).length);
  if (!fields.length || !existsSync(cached)) return;
  documents++;
  const converted = JSON.parse(readFileSync(cached, "utf8")) as { markdown: string; pages?: { ocr_quality?: number }[] };
  const pageOcr = (converted.pages ?? []).flatMap((p) => (p.ocr_quality === undefined ? [] : [p.ocr_quality]));
  const ocrQuality = qualitySignals({ pageOcrConfidences: pageOcr, tokenProbabilities: [], selfReports: [] }).ocr_quality ?? null;
  const described = extractLocal(converted.markdown, parseTypedSchema(JSON.stringify(schema)), { ocrQuality });
  for (const field of fields) {
    const bare = Object.fromEntries(names(field).map((n) => [n, { type: schema[field]!.type }]));
    const read = extractLocal(converted.markdown, parseTypedSchema(JSON.stringify(bare)), { ocrQuality });
    const withDescription = Object.fromEntries(names(field).map((n) => [n, { type: schema[field]!.type, description: schema[field]!.description }]));
    const readDescribed = extractLocal(converted.markdown, parseTypedSchema(JSON.stringify(withDescription)), { ocrQuality });
    const want = JSON.stringify(described[field]!.value);
    // the invoice's fields asked as an object's member (the receipts' schema is left to its flat names)
    for (const [asked, object, member] of schema === RECEIPT ? [] : NESTED) {
      if (asked !== field) continue;
      const nested = { [object]: { type: "object", properties: { [member]: { type: schema[field]!.type } } } };
      const got = extractLocal(converted.markdown, parseTypedSchema(JSON.stringify(nested)), { ocrQuality })[object]!.value as Record<string, unknown> | null;
      const key = `${object}.${member}`;
      const t = tally.get(key) ?? { same: 0, all: 0 };
      t.all++;
      if (JSON.stringify(got?.[member] ?? null) === want) t.same++;
      tally.set(key, t);
    }
    for (const n of names(field)) {
      const t = tally.get(n) ?? { same: 0, all: 0 };
      t.all++;
      if (JSON.stringify(read[n]!.value) === want) t.same++;
      tally.set(n, t);
      withDescriptions.all++;
      if (JSON.stringify(readDescribed[n]!.value) === want) withDescriptions.same++;
    }
  }
}

for (const name of SETS) {
  const file = join(ROOT, "bench/expected", `${name}.json`);
  if (!existsSync(file)) continue;
  const spec = JSON.parse(readFileSync(file, "utf8"));
  for (const doc of spec.documents as { file: string; schema?: string }[]) {
    compare(join(CACHE, `${doc.file}.json`), spec.schema ?? spec.schemas[doc.schema!], (f) => NAMES[f] ?? []);
  }
}
for (let i = 0; i < 1000; i++) {
  compare(join(CACHE, `${String(i).padStart(3, "0")}.jpg.json`), RECEIPT, (f) => (f === "total" ? RECEIPT_TOTAL_NAMES : f === "date" ? NAMES.date! : NAMES[f] ?? []));
}

const same = [...tally.values()].reduce((a, t) => a + t.same, 0);
const all = [...tally.values()].reduce((a, t) => a + t.all, 0);
console.log(`${documents} documents, ${tally.size} names, ${all} (document, name) pairs`);
for (const [n, t] of tally) if (t.same < t.all) console.log(`  ${n.padEnd(20)} reads the described value on ${t.same} of ${t.all}`);
const share = all ? same / all : 0;
const withDesc = withDescriptions.all ? withDescriptions.same / withDescriptions.all : 0;
console.log(`RESULT extract-names bare names read the described field's value ${same}/${all} = ${share.toFixed(3)}, with its description ${withDescriptions.same}/${withDescriptions.all} = ${withDesc.toFixed(3)} (goal >= ${GOAL} each) ${share >= GOAL && withDesc >= GOAL ? "met" : "not met"}`);
