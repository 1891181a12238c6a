/**
 * POST /api/v1/extract on documents other people made, through the real server, with the
 * plain-English schemas a user sends: a German ZUGFeRD invoice and a French credit note
 * (test/fixtures/zugferd, Apache-2.0) and a scanned Malaysian receipt (test/fixtures/sroie, MIT).
 * The local engine reads them without an AI provider; the provider path (our Groq-protocol server)
 * gets the receipt's OCR text and the same confidence rules: grounding in the source, OCR quality.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { api, form, type TestServer, withServer } from "./helpers/server";
import { extractionReply, withGroqProvider, type GroqServer } from "./helpers/groqServer";

const FIXTURES = join(import.meta.dir, "fixtures");
const file = (dir: string, name: string, type: string) => new File([readFileSync(join(FIXTURES, dir, name))], name, { type });

const INVOICE_SCHEMA = JSON.stringify({
  invoice_number: { type: "string", description: "The invoice number" },
  invoice_date: { type: "string", description: "The date the invoice was issued" },
  total: { type: "number", description: "Total amount to pay, tax included" },
  currency: { type: "string", description: "Currency of the total as an ISO 4217 code" },
  vendor: { type: "string", description: "Name of the company that issued the invoice" },
});

const RECEIPT_SCHEMA = JSON.stringify({
  merchant: { type: "string", description: "Name of the shop or company that issued the receipt" },
  date: { type: "string", description: "The date of the purchase" },
  total: { type: "number", description: "Total amount paid, tax included" },
});

const extract = (server: TestServer, key: string, fields: Record<string, string | Blob>) => api(server, key, "POST", "/api/v1/extract", form(fields));

describe("local engine on real documents", () => {
  let server: TestServer;
  let key: string;
  withServer({}, (served) => ({ server, key } = served));

  test("German invoice: number from the title line, date as written, the amount due, the seller's name from its block", async () => {
    const { status, body } = await extract(server, key, { schema: INVOICE_SCHEMA, file: file("zugferd", "invoice_de_en16931.pdf", "application/pdf") });
    expect({ status, error: body.error }).toEqual({ status: 200, error: undefined });
    expect(body.data).toEqual({ invoice_number: "471102", invoice_date: "15.11.2024", total: 529.87, currency: "EUR", vendor: "Lieferant GmbH" });
    expect(body.engine).toBe("local");
    expect(body.extraction_method).toBe("text");
    // stated under their own labels: top band; every citation is a slice of the document's text
    expect(body.confidence.invoice_number).toBeGreaterThanOrEqual(0.8);
    expect(body.confidence.total).toBeGreaterThanOrEqual(0.8);
    expect(body.citations.invoice_number).toContain("Nr. 471102 vom 15.11.2024");
    expect(body.citations.total).toContain("529,87");
  });

  test("French credit note: 'Total TTC' over 'Total HT', negative as printed; the issuer from the sender line, settled by its e-mail domain", async () => {
    const { status, body } = await extract(server, key, { schema: INVOICE_SCHEMA, file: file("zugferd", "credit_note_fr_facturx.pdf", "application/pdf") });
    expect({ status, error: body.error }).toEqual({ status: 200, error: undefined });
    expect(body.data.invoice_number).toBe("AV-2017-0005");
    expect(body.data.total).toBe(-233.47);
    expect(body.data.invoice_date).toBe("16/11/2017");
    expect(body.data.vendor).toBe("Au bon moulin SARL");
    // a name found by layout, with no label, is inferred; the page settles it by writing it again as its e-mail
    // domain (tony.dubois@aubonmoulin.fr: the name's letters, its legal form aside)
    expect(body.confidence.vendor).toBeGreaterThanOrEqual(0.8);
    expect(body.citations.vendor).toContain("Au bon moulin SARL");
  });

  test("scanned receipt: merchant from the letterhead and the total it repeats as the amount paid; OCR caps the name below 0.8", async () => {
    const key_ = JSON.parse(readFileSync(join(FIXTURES, "sroie", "receipt_restaurant_gst.json"), "utf8")) as { company: string; total: string };
    const { status, body } = await extract(server, key, { schema: RECEIPT_SCHEMA, file: file("sroie", "receipt_restaurant_gst.jpg", "image/jpeg") });
    expect({ status, error: body.error }).toEqual({ status: 200, error: undefined });
    expect(body.extraction_method).toBe("ocr");
    expect(body.quality_signals.ocr_quality).toBeGreaterThan(0.5);
    expect(body.data.merchant.toUpperCase()).toBe(key_.company);
    expect(body.data.total).toBe(Number(key_.total));
    expect(body.confidence.total).toBeGreaterThanOrEqual(0.8);
    expect(body.confidence.merchant).toBeLessThan(0.8);
    // the receipt's day-first date comes back as printed ("18/01/2018": the day is above 12)
    expect(body.data.date).toBe("18/01/2018");
  });

  test("a numeric date whose day/month order the page does not settle stays literal and below 0.8; another date with a day above 12 settles it", async () => {
    const schema = JSON.stringify({ date: { type: "string", description: "The date of the purchase" }, total: { type: "number", description: "Total amount paid" } });
    const open = new File(["CORNER SHOP\nDate: 02/12/2017\nTotal: 12.40\n"], "receipt.txt", { type: "text/plain" });
    const a = await extract(server, key, { schema, file: open });
    expect(a.status).toBe(200);
    expect(a.body.data.date).toBe("02/12/2017");
    expect(a.body.confidence.date).toBeLessThan(0.8);
    expect(a.body.confidence.date).toBeGreaterThanOrEqual(0.6);
    const settled = new File(["CORNER SHOP\nDate: 02/12/2017\nTotal: 12.40\nReturns accepted until 27/12/2017\n"], "receipt.txt", { type: "text/plain" });
    const b = await extract(server, key, { schema, file: settled });
    expect(b.body.data.date).toBe("02/12/2017");
    expect(b.body.confidence.date).toBeGreaterThanOrEqual(0.8);
  });
});

describe("provider path on a real scan (our Groq-protocol server)", () => {
  let groq: GroqServer;
  let server: TestServer;
  let key: string;
  withGroqProvider({}, (served) => ({ groq, server, key } = served));

  test("the model gets the OCR text; a grounded value it is sure of lands in the top band, an ungrounded one below 0.6 whatever it claims", async () => {
    groq.reply(
      "chat",
      extractionReply({
        merchant: { value: "GERBANG ALAF RESTAURANTS SDN BHD", quote: "Gerbang Alaf Restaurants Sdn Bhd", confidence: 0.97 },
        date: { value: "18/01/2018", quote: "18/01/2018", confidence: 0.95 },
        // not on the receipt: the model's 0.99 must not carry it
        total: { value: 99.99, quote: "TOTAL 99.99", confidence: 0.99 },
      }),
    );
    const { status, body } = await extract(server, key, { schema: RECEIPT_SCHEMA, file: file("sroie", "receipt_restaurant_gst.jpg", "image/jpeg"), model: "fast" });
    expect({ status, error: body.error }).toEqual({ status: 200, error: undefined });
    expect(body.extraction_method).toBe("ocr");
    const prompt = JSON.stringify(groq.requests.at(-1)!.json.messages);
    expect(prompt.toUpperCase()).toContain("GERBANG ALAF");
    // grounded (case and spacing aside), high self-report, the page's OCR quality in the composite
    expect(body.confidence.merchant).toBeGreaterThanOrEqual(0.8);
    expect(body.confidence.total).toBeLessThan(0.6);
    expect(body.data.total).toBe(99.99);
  });
});
