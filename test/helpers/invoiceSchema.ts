import { expect } from "bun:test";
import { extractLocal, type LocalFieldResult } from "../../src/extract/local";
import { parseTypedSchema } from "../../src/schema/typed";

/** INVOICE_SCHEMA: the plain-English invoice schema the local engine's kind tests read documents with. */
export const INVOICE_SCHEMA = {
  invoice_number: { type: "string", description: "The invoice number" },
  invoice_date: { type: "string", description: "The date the invoice was issued" },
  total: { type: "number", description: "Total amount to pay, tax included" },
  currency: { type: "string", description: "Currency of the total as an ISO 4217 code" },
  vendor: { type: "string", description: "Name of the company that issued the invoice" },
};

/** extractInvoice reads markdown with INVOICE_SCHEMA by the local engine and checks that every value found cites the markdown verbatim. */
export function extractInvoice(md: string): Record<string, LocalFieldResult> {
  const r = extractLocal(md, parseTypedSchema(JSON.stringify(INVOICE_SCHEMA)));
  for (const [name, f] of Object.entries(r)) if (f.found) expect(md.includes(f.citation!), `citation of ${name}`).toBe(true);
  return r;
}
