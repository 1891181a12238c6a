/** INVOICE_SCHEMA: the plain-English invoice schema the local engine's kind tests read documents with. */
export const INVOICE_SCHEMA = {
  invoice_number: { type: "string", description: "The invoice number" },
  invoice_date: { type: "string", description: "The date the invoice was issued" },
  total: { type: "number", description: "Total amount to pay, tax included" },
  currency: { type: "string", description: "Currency of the total as an ISO 4217 code" },
  vendor: { type: "string", description: "Name of the company that issued the invoice" },
};
