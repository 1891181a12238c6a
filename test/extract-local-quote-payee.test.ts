/**
 * The local extraction engine on two kinds the sixth fresh set brought (bench/expected/invoices-fresh6.json):
 * a quote read with an invoice's schema (its number is in its title line, "Angebot 2024-023"), and an invoice
 * whose issuer is printed only as a logo, so no name heads the page, while its payment instructions name the
 * payee ("Account Name: ..."): who is paid is who issued it, never at a confident level. Text fixtures are
 * made up, in the shape the converter gives such documents; none is a copy of a collected document.
 */
import { describe, expect, test } from "bun:test";
import { extractInvoice } from "./helpers/invoiceSchema";

const QUOTE =
  "Angebot 2024-118 Angebotsdatum: 04.03.2024\n\nSehr geehrte Frau Berger,\n\nwir bieten Ihnen folgende Leistungen an:\n\n" +
  "| Leistung | Stunden | Betrag |\n| --- | --- | --- |\n| Gartenplanung | 6 | 540,00 € |\n| Bepflanzung | 10 | 900,00 € |\n\n" +
  "Gesamtbetrag: 1.440,00 €\n\nDas Angebot gilt 30 Tage.\n";

const INVOICE_AFTER_QUOTE =
  "# Rechnung 2024-207\n\nRechnungsdatum: 02.05.2024\n\nAngebot 2024-118 vom 04.03.2024\n\n" +
  "| Leistung | Betrag |\n| --- | --- |\n| Gartenplanung | 540,00 € |\n\nGesamtbetrag: 540,00 €\n";

describe("a quote read with an invoice's schema", () => {
  test("its number is the one its title line gives ('Angebot 2024-118')", () => {
    expect(extractInvoice(QUOTE).invoice_number?.value).toBe("2024-118");
  });

  test("an invoice that names the quote it follows keeps its own number", () => {
    expect(extractInvoice(INVOICE_AFTER_QUOTE).invoice_number?.value).toBe("2024-207");
  });

  test("a line that opens with 'Estimate' and a small count names no quote", () => {
    const text = "Estimate 2 hours of work a week for the garden.\n\nAmount due: 80.00 USD\n";
    expect(extractInvoice(text).invoice_number?.value ?? null).toBeNull();
  });
});

const LOGO_ONLY =
  "INVOICE\n\nInvoice No: 0412\nDate: 14/02/2024\n\nBill to: Northwind Stores\n12 Harbour Road\n\n" +
  "| Description | Amount |\n| --- | --- |\n| Illustration work | 1,200.00 |\n\nTotal: 1,200.00 USD\n\n" +
  "Payment details\nBank: First Coast Bank\nAccount Name: Lena Fischer\nAccount No: 000123456\n";

describe("an invoice whose issuer is printed only as a logo", () => {
  test("the payee of its payment instructions is the issuer, below the confident band", () => {
    const vendor = extractInvoice(LOGO_ONLY).vendor;
    expect(vendor?.value).toBe("Lena Fischer");
    expect(vendor!.confidence).toBeLessThan(0.8);
  });

  test("printed again (a signature), the payee's name is surer, still below the confident band", () => {
    const once = extractInvoice(LOGO_ONLY).vendor!.confidence;
    const twice = extractInvoice(`${LOGO_ONLY}\nThank you for your business.\n\nLena Fischer\n`).vendor;
    expect(twice?.value).toBe("Lena Fischer");
    expect(twice!.confidence).toBeGreaterThan(once);
    expect(twice!.confidence).toBeLessThan(0.8);
  });
});
