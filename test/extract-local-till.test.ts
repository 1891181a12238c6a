/**
 * The local extraction engine on kinds of document the seventh fresh set brought (bench/expected/invoices-fresh7.json):
 * German till receipts that print the number of items beside the total's label ("SUMME [3] EUR 152,00",
 * "SUMME (1) € 49,90"), and receipts whose first readable line is the document's title in another language
 * ("Quittung", "Kassenbon", "Reçu"); and, from the sixth set, a letter-invoice that greets its customer by name
 * ("Guten Tag Muster GmbH,"). Text fixtures are made up, in the shape the converter gives such
 * documents; none is a copy of a collected document.
 */
import { describe, expect, test } from "bun:test";
import { extractLocal, type LocalFieldResult } from "../src/extract/local";
import { nameLike } from "../src/extract/local/parties";
import { parseTypedSchema } from "../src/schema/typed";

const RECEIPT = {
  merchant: { type: "string", description: "Name of the shop or company that issued the receipt" },
  date: { type: "string", description: "The date of the purchase" },
  total: { type: "number", description: "Total amount paid, tax included" },
};

function run(md: string, ocrQuality = 0.85): Record<string, LocalFieldResult> {
  const r = extractLocal(md, parseTypedSchema(JSON.stringify(RECEIPT)), { ocrQuality });
  for (const [name, f] of Object.entries(r)) if (f.found) expect(md.includes(f.citation!), `citation of ${name}`).toBe(true);
  return r;
}

describe("the count of items beside a total's label", () => {
  test("'SUMME [3] EUR 152,00': the total is the amount, not the count in brackets", () => {
    const md = "# scan.jpg\n\nBAUMARKT NORD\nHafenweg 4\n12345 Neustadt\nART/EAN 4001234567890\n2 Rolle x 4,85\nKlebeband 9,70 1\nART/EAN 4001234567891\n1 Stk x 42,30\nLeiter 42,30 1\nSUMME [2] EUR 52,00\nGEGEBEN ec-Karte EUR 52,00\n";
    expect(run(md).total!.value).toBe(52);
  });

  test("'SUMME (1) € 49,90': the count in parentheses is not a negative amount", () => {
    const md = "# scan.jpg\n\nBuchladen Mitte\nMarktstr. 9\nRoman 9783000000000 49,90 1\nSUMME (1) € 49,90\nEC-Karte € 49,90\n";
    expect(run(md).total!.value).toBe(49.9);
  });

  test("a bracketed number alone after the label is still read", () => {
    const md = "# scan.jpg\n\nKIOSK AM ECK\nSUMME (4,50)\n";
    expect(run(md).total!.value).not.toBe(4);
  });
});

describe("a receipt's title in another language is not its issuer", () => {
  test.each(["Quittung", "Kassenbon", "Kassenbeleg", "Kundenbeleg", "Reçu", "Recibo", "Ricevuta", "Scontrino", "Kvitto", "Kvittering"])("'%s' is not a name", (title) => {
    expect(nameLike(title)).toBe(false);
  });

  test("a shop's name that opens with such a word's letters is still a name", () => {
    expect(nameLike("Recibolo Hardware")).toBe(true);
  });

  test("the title line of a receipt whose shop name OCR lost is not the merchant", () => {
    const md = "# scan.jpg\n\nQuittung\n\nBetrag\n\n0) /\n";
    const r = run(md, 0.5);
    expect(r.merchant!.value).not.toBe("Quittung");
  });
});

describe("the name a letter greets is its addressee, not its issuer", () => {
  const INVOICE = {
    invoice_number: { type: "string", description: "The invoice number" },
    vendor: { type: "string", description: "Name of the company that issued the invoice" },
  };
  test("'Guten Tag Beispiel GmbH,': the greeted company under the sender's block is the customer", () => {
    const md = "# letter.jpg\n\na) KLANGWERK\n\nTHE BEST SOUND AROUND\n\nKlangwerk\nRingstraße 3\n1010 Wien\n\nUID: ATU00000000\n\nBeispiel GmbH\nMustergasse 5\n1020 Wien\nRechnung 2024-007 Rechnungsdatum: 2024-03-01\nGuten Tag Beispiel GmbH,\nHiermit übermitteln wir Ihnen Ihre Rechnung Nr. 2024-007.\n\nEmpfianger: Klangwerk\n\nIBAN: AT021200012345678901\n\nKlangwerk\n\nKlangwerk EN 12345nHG Wien Bank: Beispielbank\n";
    const r = extractLocal(md, parseTypedSchema(JSON.stringify(INVOICE)), { ocrQuality: 0.88 });
    expect(r.vendor!.value).not.toBe("Beispiel GmbH");
  });

  test("'Dear Acme Ltd,' in English", () => {
    const md = "# letter.png\n\nNorthwind Studio\n4 Mill Lane\nLeeds LS1 4AB\n\nAcme Ltd\n9 High Street\nYork YO1 7HH\nInvoice 17 Date: 2024-03-01\nDear Acme Ltd,\nplease find our invoice below.\n";
    const r = extractLocal(md, parseTypedSchema(JSON.stringify(INVOICE)), { ocrQuality: 0.9 });
    expect(r.vendor!.value).not.toBe("Acme Ltd");
  });
});

describe("'Betrag:' in an invoice's payment box is the amount to pay", () => {
  const INVOICE = {
    invoice_number: { type: "string", description: "The invoice number" },
    total: { type: "number", description: "Total amount to pay, tax included" },
  };
  test("the transfer's amount under the payee and IBAN, not an item's merged quantity and price", () => {
    const md = "# letter.jpg\n\nKlangwerk\nRingstraße 3\n1010 Wien\n\nRechnung 2024-007 Rechnungsdatum: 2024-03-01\nPos. Bezeichnung Menge €/ Stk € Ges.\n1 Mischung 3 200.00 € 600.00 €\n2 Mastering 1 150.00 € 150.00 €\n\nKleinunternehmer, von der USt. befreit.\n\nEmpfänger: Klangwerk\n\nIBAN: AT021200012345678901\nBIC: TESTATW1\n\nBetrag: 750.00 €\n\nZahlungsreferenz: 2024-007\n";
    const r = extractLocal(md, parseTypedSchema(JSON.stringify(INVOICE)), { ocrQuality: 0.88 });
    expect(r.total!.value).toBe(750);
  });
});

describe("a bare zero under a total's label", () => {
  test("'Betrag' over OCR's noise '0) /' gives no total", () => {
    const md = "# scan.jpg\n\nQuittung\n\nBetrag\n\n0) /\n\n}\nj\n";
    expect(run(md, 0.5).total!.value).not.toBe(0);
  });

  test("a paid invoice's '0.00' under its label is still read", () => {
    const md = "# scan.jpg\n\nKIOSK AM ECK\nBetrag\n0,00 EUR\n";
    expect(run(md, 0.8).total!.value).toBe(0);
  });
});

describe("a label in another script", () => {
  test("'| Σύνολο: | e 1 710,00 |': a Greek total's label in a table, the euro sign rendered as 'e'", () => {
    const md = "| Αξία: | e 950,00 |\n| --- | --- |\n| ΦΠΑ 0%: | e 0,00 |\n| Σύνολο: | e 950,00 |\n";
    const r = extractLocal(md, parseTypedSchema(JSON.stringify({ total: RECEIPT.total })), {});
    expect(r.total!.value).toBe(950);
  });

  test("'Σύνολο: e 1 710,00' on a line", () => {
    const r = extractLocal("Σύνολο: e 1 710,00\n", parseTypedSchema(JSON.stringify({ total: RECEIPT.total })), {});
    expect(r.total!.value).toBe(1710);
  });
});
