/**
 * The local extraction engine on kinds of document the fourth fresh set brought (bench/expected/invoices-fresh4.json):
 * Nordic invoices (Finnish, Swedish, Norwegian labels; euros written "e"), amounts grouped by spaces, and a title with
 * its number that the converter laid out as a table row. Text fixtures are made up, in the shape the converter gives
 * such documents; none is a copy of a collected document.
 */
import { describe, expect, test } from "bun:test";
import { extractInvoice } from "./helpers/invoiceSchema";

const FINNISH =
  "Puutarha Oy LASKU\nPuutarhatie 3\n33100 TAMPERE\n\n" +
  "| Liisa Asiakas | Laskun nro: | 2087 | Maksettava: | 96,50 e |\n| --- | --- | --- | --- | --- |\n" +
  "| Kotikatu 9 | Päivämäärä: | 04.02.2022 | Eräpäivä: | 18.02.2022 |\n\n" +
  "| Tuote | Veroton e | ALV e | Verollinen e |\n| --- | --- | --- | --- |\n| Kukkalaatikko | 77,82 | 18,68 | 96,50 |\n| Maksettava | | | 96,50 |\n";

describe("a Finnish invoice", () => {
  test("Laskun nro, Päivämäärä and Maksettava name the number, the date and the amount to pay; Eräpäivä is the due date", () => {
    const r = extractInvoice(FINNISH);
    expect(r.invoice_number!.value).toBe("2087");
    expect(r.invoice_date!.value).toBe("04.02.2022");
    expect(r.total!.value).toBe(96.5);
  });

  test("amounts and column titles closed by a lone 'e' are euros, not settled", () => {
    const r = extractInvoice(FINNISH);
    expect(r.currency!.value).toBe("EUR");
    expect(r.currency!.confidence).toBeLessThan(0.8);
  });

  test("the title LASKU that closes the letterhead's line is not part of the issuer's name", () => {
    expect(extractInvoice(FINNISH).vendor!.value).toBe("Puutarha Oy");
  });

  test("an Italian line that ends on 'e' after an amount is no euro sign", () => {
    const r = extractInvoice("Preventivo\nPrezzo unitario tra 10,00 e\n20,00 secondo quantità\n");
    expect(r.currency!.value).toBeNull();
  });
});

describe("Swedish and Norwegian invoices", () => {
  test("Fakturanummer, Fakturadatum and Att betala, the due date apart", () => {
    const r = extractInvoice("Blomsterhandel AB\nFaktura\n\nFakturanummer: 5521\nFakturadatum: 2021-09-14\nFörfallodatum: 2021-10-14\n\nBelopp exkl. moms 1 000,00\nMoms 25% 250,00\nAtt betala: 1 250,00 kr\n");
    expect(r.invoice_number!.value).toBe("5521");
    expect(r.invoice_date!.value).toBe("2021-09-14");
    expect(r.total!.value).toBe(1250);
  });

  test("Fakturadato and Å betale, Forfallsdato apart", () => {
    const r = extractInvoice("Fjordbakeriet AS\nFaktura\n\nFakturanr: 88\nForfallsdato: 15.03.2023\nFakturadato: 01.03.2023\n\nMVA 25% 900,00\nÅ betale: 4 500,00\n");
    expect(r.invoice_date!.value).toBe("01.03.2023");
    expect(r.total!.value).toBe(4500);
  });
});

describe("an amount grouped by spaces after its label", () => {
  test("is read whole, not as its first group", () => {
    for (const [md, want] of [["Total 1 000,00\n", 1000], ["Total TTC 12 480,50 €\n", 12480.5], ["Att betala 1 250,00 kr\n", 1250]] as const) {
      const r = extractInvoice(md);
      expect(r.total!.value, md).toBe(want);
    }
  });

  test("with a decimal point, its first group is never the total ('Total 1 000.00' is not 1)", () => {
    for (const md of ["Total 1 000.00\n", "Amount due 12 480.50 USD\n", "Grand total 2 100.00\n"]) {
      const t = extractInvoice(md).total!;
      expect([1, 12, 2].includes(t.value as number), `${md} -> ${t.value}`).toBe(false);
    }
  });
});

describe("a title with its number in a table row", () => {
  test("the first cell 'Rechnung #2024-017' gives the number, not a piece of the date beside it", () => {
    const md =
      "Hans Kunde\nHauptstraße 1\n10115 Berlin\n\n| Rechnung #2024-017 | Leipzig, 12.05.2024 |  |\n| --- | --- | --- |\n" +
      "| Pos. Beschreibung |  | Preis |\n| 1. Beratung |  | 300,00€ |\n|  | Gesamt: | 300,00€ |\n";
    expect(extractInvoice(md).invoice_number!.value).toBe("2024-017");
  });

  test("a table listing several invoices gives no invoice number from its rows", () => {
    const md = "Kontoauszug\n\n| Rechnung 2024-101 | 12.01.2024 | 100,00 |\n| --- | --- | --- |\n| Rechnung 2024-102 | 19.01.2024 | 250,00 |\n\nSaldo 350,00\n";
    const n = extractInvoice(md).invoice_number!;
    expect(n.value === "2024-101" || n.value === "2024-102").toBe(false);
  });
});

describe("a Czech invoice (seller and buyer boxes side by side, each read whole)", () => {
  const CZECH =
    "# Faktura č. 2016-042\n\n### Prodejce\n\n### Jan Svoboda\n\nHlavní 12\n602 00 Brno\n\nIČ: 12345678\n\n" +
    "### Kupující\n\n### Eva Dvořáková\n\nNádražní 4\n702 00 Ostrava\n\nDatum vydání 05/03/2016\nDatum splatnosti 19/03/2016\n\n" +
    "| Položka | Počet | Cena | Celkem |\n| --- | --- | --- | --- |\n| Konzultace | 2 | Kč 500 | Kč 1.000 |\n\n## Celkem: Kč 1.000,-\n";
  test("the name under 'Prodejce' (seller) is the vendor, the one under 'Kupující' (buyer) is not", () => {
    expect(extractInvoice(CZECH).vendor!.value).toBe("Jan Svoboda");
  });
  test("a bilingual label ('Prodejce Provider') names the seller too", () => {
    const bilingual = CZECH.replace("### Prodejce", "### Prodejce Provider").replace("### Kupující", "Kupující Purchaser");
    expect(extractInvoice(bilingual).vendor!.value).toBe("Jan Svoboda");
  });
});

describe("a buyer's box under a plain label", () => {
  test("the name under 'Kupující Purchaser' (the buyer, in larger type than the seller's label) is not the issuer", () => {
    const md =
      "# Faktura č. 7\n\n### Invoice\n\n### Prodejce Provider\n\n## Petr Nový\n\nRolnická 1\n747 05 Opava\n\nIČ: 56565656\n\n" +
      "Kupující Purchaser\n\n## Adam Black\n\n8648 Acacia Rd.\nBrooklyn, NY 11203\n\n## Celkem: Kč 12.100,-\n";
    expect(extractInvoice(md).vendor!.value).toBe("Petr Nový");
  });
});
