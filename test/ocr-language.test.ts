/**
 * OCR in the language a page is written in (src/tools/tesseract/language.ts): the engine reads with
 * English, then with the installed model of the page's script (a poor reading of Arabic) or of its
 * language (German, French, ... function words), and keeps the surer reading. Real tesseract on
 * generated pages: a German letter typeset and rendered at 150 dpi, an Arabic page drawn by sharp
 * with DejaVu Sans (Debian's fonts-dejavu-core, shaped by Pango), an English page that stays English.
 */
import { afterAll, describe, expect, test } from "bun:test";
import sharp from "sharp";
import { dotlessOnes, Tesseract } from "../src/tools/tesseract";
import { latinLanguageOf, parseScript } from "../src/tools/tesseract/language";
import { scanAt150 } from "./helpers/scanAt150";

const tesseract = new Tesseract({ concurrency: 2, timeoutMs: 60_000 });
afterAll(() => tesseract.close());

/** LETTER: a German letter's lines, with the letters the English model cannot write (ä, ö, ü, ß) */
const LETTER = [
  "Sehr geehrte Frau Müller,",
  "für die Übernachtung vom 9. bis 11. Juli in unserem Haus an der Straße am Großen Garten",
  "berechnen wir Ihnen die unten stehenden Leistungen. Bitte überweisen Sie den Betrag",
  "innerhalb von vierzehn Tagen auf das Konto der Gesellschaft, das auf der Rückseite steht.",
  "Die Rechnung ist auch ohne Unterschrift gültig. Für Rückfragen stehen wir Ihnen gern zur",
  "Verfügung und danken Ihnen für Ihren Besuch, auf den wir uns auch im nächsten Jahr freuen.",
  "Mit freundlichen Grüßen aus dem Süden der Stadt",
];

function pageImage(lines: string[]): Promise<Uint8Array> {
  return scanAt150(lines.map((text, i) => ({ font: "Times-Roman", size: 12, x: 57, y: 760 - i * 18, text })));
}

/** ARABIC: lines of a law's preamble, each printed twice so that the script detector has letters enough */
const ARABIC = ["قانون المنشآت الفندقية والسياحية", "تسرى أحكام هذا القانون على جميع المنشآت", "باسم الشعب رئيس الجمهورية", "قرر مجلس النواب القانون الآتى نصه وقد أصدرناه", "المنصوص عليها فى المادة من القانون المرافق", "أو تديرها وزارة الدفاع أو وزارة الداخلية"];

async function arabicImage(): Promise<Uint8Array> {
  const lines = [...ARABIC, ...ARABIC];
  const text = lines.map((l, i) => `<text x="1150" y="${80 + i * 60}" font-family="DejaVu Sans" font-size="32" text-anchor="end">${l}</text>`).join("");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1240" height="${120 + lines.length * 60}"><rect width="100%" height="100%" fill="white"/>${text}</svg>`;
  return new Uint8Array(await sharp(Buffer.from(svg)).grayscale().png().toBuffer());
}

describe("the language of a reading", () => {
  test("German, French and Spanish prose are named by their function words; English, a short receipt and a Malay receipt are not", () => {
    expect(latinLanguageOf("Sehr geehrte Frau Muller, fiir die Ubernachtung in unserem Haus an der StraBe berechnen wir Ihnen die unten stehenden Leistungen. Bitte iiberweisen Sie den Betrag auf das Konto der Gesellschaft, das auf der Riickseite steht.")).toBe("deu");
    expect(latinLanguageOf("Nous vous remercions pour votre commande. Le montant de la facture est prélevé sur votre compte dans les cinq jours, et vous pouvez consulter vos factures sur notre site avec votre identifiant.")).toBe("fra");
    expect(latinLanguageOf("Gracias por su compra. El importe de la factura se carga en su cuenta en los cinco días siguientes, y puede consultar sus facturas en nuestro sitio con su usuario para ver los detalles del pedido.")).toBe("spa");
    expect(latinLanguageOf("Thank you for your order. The amount of the invoice is charged to your account within five days, and you can see your invoices on our site with your user name and the details of the order.")).toBeNull();
    expect(latinLanguageOf("DELPHIN APOTHEKE\nSumme EUR 19,90\nKreditkarte EUR 19,90\nVielen Dank und auf Wiedersehen")).toBeNull();
    expect(latinLanguageOf("KEDAI RUNCIT DAN MINI MARKET\nNO 12 JALAN DI TAMAN\nJUMLAH RM 12.00 TUNAI RM 20.00\nTERIMA KASIH SILA DATANG LAGI\nBARANG YANG DI BELI TIDAK BOLEH DI TUKAR")).toBeNull();
  });

  test("a dotless ı alone or beside a digit, as the German model reads a 1, is a 1; a word's ı stays", () => {
    const read = dotlessOnes({ text: "Gemäß § 6 Abs. ı Z 27\ninnerhalb von ı4 Tagen, Seite 2ı\nKırşehir", confidence: 0.9, words: [{ text: "ı", left: 0, top: 0, width: 5, height: 9, confidence: 0.8, line: "1/1/1", paragraph: "1/1" }] });
    expect(read.text).toBe("Gemäß § 6 Abs. 1 Z 27\ninnerhalb von 14 Tagen, Seite 21\nKırşehir");
    expect(read.words![0]!.text).toBe("1");
  });

  test("the script of tesseract's orientation and script report is read", () => {
    expect(parseScript("Page number: 0\nOrientation in degrees: 0\nRotate: 0\nOrientation confidence: 26.72\nScript: Arabic\nScript confidence: 96.11\n")).toEqual({ script: "Arabic", confidence: 96.11 });
    expect(parseScript("Rotate: 0\n")).toBeNull();
  });
});

describe("the engine reads a page in its language", () => {
  test("a German letter is read again with the German model beside the English one: its umlauts and ß come back, which the English model reads as 'fiir' and 'StraBe'", async () => {
    const image = await pageImage(LETTER);
    const english = await tesseract.recognize(image, AbortSignal.timeout(60_000), { lang: "eng" });
    expect(english.text).not.toContain("für");
    const read = await tesseract.recognize(image, AbortSignal.timeout(60_000));
    expect(read.language).toBe("deu+eng");
    expect(read.confidence).toBeGreaterThan(english.confidence);
    for (const word of ["für", "Straße", "Müller", "Grüßen", "gültig"]) expect(read.text).toContain(word);
  }, 120_000);

  test("an Arabic page, which English reads as noise, is read with the Arabic model in logical order", async () => {
    const image = await arabicImage();
    const english = await tesseract.recognize(image, AbortSignal.timeout(60_000), { lang: "eng" });
    expect(english.confidence).toBeLessThan(0.5);
    const read = await tesseract.recognize(image, AbortSignal.timeout(60_000));
    expect(read.language).toBe("ara");
    expect(read.confidence).toBeGreaterThan(0.8);
    expect(read.text).toContain("قانون المنشآت الفندقية والسياحية");
    // no direction marks among the words
    expect(read.text).not.toMatch(/[\u200e\u200f]/);
  }, 120_000);

  test("an English page is read once, with English", async () => {
    const image = await pageImage(["Thank you for staying with us from the ninth to the eleventh of July.", "Please pay the amount below within fourteen days to the account on the back of this letter.", "The invoice is valid without a signature, and we look forward to your next visit."]);
    const read = await tesseract.recognize(image, AbortSignal.timeout(60_000));
    expect(read.language).toBeUndefined();
    expect(read.text).toContain("Thank you for staying with us");
  }, 120_000);
});
