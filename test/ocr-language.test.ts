/**
 * OCR in the language a page is written in (src/tools/tesseract/language.ts): the engine reads with
 * English, then with the installed model of the page's script (a poor reading of Arabic) or of its
 * language (German, French, ... function words), and keeps the surer reading. Real tesseract on
 * generated pages: a German letter typeset and rendered at 150 dpi, an Arabic page drawn by sharp
 * with DejaVu Sans (Debian's fonts-dejavu-core, shaped by Pango), an English page that stays English.
 */
import { afterAll, describe, expect, test } from "bun:test";
import sharp from "sharp";
import { makeConvertPdf } from "../src/convert/pdf";
import { WorkerPool } from "../src/pool";
import { dotlessOnes, Tesseract } from "../src/tools/tesseract";
import { latinLanguageOf, manyFigures, parseScript, poorInLetters } from "../src/tools/tesseract/language";
import type { OcrEngine, RecognizeOptions } from "../src/tools/types";
import { convertContext } from "./helpers/convert";
import { imageOnlyPdf } from "./helpers/imageOnlyPdf";
import { scanAt150 } from "./helpers/scanAt150";

const tesseract = new Tesseract({ concurrency: 2, timeoutMs: 60_000 });
const pool = new WorkerPool({ threads: 2, maxQueue: 64 });
afterAll(async () => {
  tesseract.close();
  await pool.close();
});

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

/** HEBREW_TABLE: an economic table's rows in Hebrew, a label and six yearly figures each: far more figures than words */
const HEBREW_TABLE = [
  ["תוצר מקומי גולמי", "1.9", "5.8", "4.2", "3.0", "3.2", "2.6"],
  ["סך הכל לנפש", "0.1", "3.8", "2.3", "1.1", "1.3", "0.7"],
  ["הסקטור העסקי", "1.5", "6.8", "4.5", "2.9", "3.4", "2.5"],
  ["תעשייה ללא יהלומים", "-4.3", "12.0", "0.0", "2.9", "3.2", "0.3"],
  ["שימושים במקורות", "-2.5", "7.9", "5.8", "2.9", "2.4", "2.2"],
  ["הוצאה מקומית לביטחון", "2.9", "2.8", "2.7", "3.6", "3.5", "3.8"],
  ["יבוא ביטחוני", "4.8", "2.9", "3.6", "3.8", "3.1", "2.5"],
  ["מוצרים בני קיימא", "-17.0", "2.8", "0.1", "3.0", "4.7", "7.8"],
  ["ההשקעה בנכסים קבועים", "1.8", "0.4", "1.9", "1.4", "2.3", "8.6"],
  ["בנייה פרטית למגורים", "-20.6", "13.3", "6.4", "11.5", "6.8", "3.4"],
  ["עבודות בנייה אחרות", "0.4", "2.7", "1.0", "1.2", "1.4", "1.8"],
  ["מכונות וציוד", "1.2", "2.0", "0.8", "1.5", "1.4", "1.4"],
];

/** hebrewTableImage: the table drawn at 150 dpi in DejaVu Sans, its labels at the right and the figures in six columns to their left */
async function hebrewTableImage(): Promise<Uint8Array> {
  const rows = HEBREW_TABLE.map((row, i) => {
    const y = 120 + i * 48;
    const figures = row.slice(1).map((figure, j) => `<text x="${120 + j * 110}" y="${y}" font-family="DejaVu Sans" font-size="24" text-anchor="end">${figure}</text>`);
    return `<text x="1150" y="${y}" font-family="DejaVu Sans" font-size="24" text-anchor="end">${row[0]}</text>${figures.join("")}`;
  });
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1240" height="${200 + HEBREW_TABLE.length * 48}"><rect width="100%" height="100%" fill="white"/>${rows.join("")}</svg>`;
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

  test("a Hebrew table, its figures many and well read in English, is read in Hebrew, with English beside for its figures", async () => {
    const image = await hebrewTableImage();
    const english = await tesseract.recognize(image, AbortSignal.timeout(60_000), { lang: "eng" });
    // the English reading looks passable over all its words: the figures lift it
    expect(english.confidence).toBeGreaterThan(0.5);
    const read = await tesseract.recognize(image, AbortSignal.timeout(120_000));
    expect(read.language).toMatch(/^heb/);
    for (const label of ["תוצר מקומי גולמי", "ההשקעה בנכסים קבועים", "עבודות בנייה אחרות"]) expect(read.text).toContain(label);
    for (const figure of ["12.0", "-20.6", "13.3"]) expect(read.text).toContain(figure);
  }, 180_000);

  test("the words of letters of a reading say whether its letters read as a script the model does not know; its figures, whether it is a page of figures", () => {
    const word = (text: string, confidence: number) => ({ text, confidence });
    const figures = Array.from({ length: 200 }, (_, i) => word(`${i}.5`, 0.95));
    expect(poorInLetters([...figures, ...Array.from({ length: 30 }, () => word("nin", 0.28))])).toBe(true);
    expect(poorInLetters([...figures, ...Array.from({ length: 30 }, () => word("Straße", 0.8))])).toBe(false);
    // too few words of letters to say
    expect(poorInLetters([...figures, ...Array.from({ length: 10 }, () => word("nin", 0.2))])).toBe(false);
    // a table's page is mostly figures; a page of prose is not
    expect(manyFigures([...figures, ...Array.from({ length: 30 }, () => word("nin", 0.28))])).toBe(true);
    expect(manyFigures([...Array.from({ length: 200 }, () => word("words", 0.9)), word("(1)", 0.9), word("31.12.14", 0.9), word("-17.0", 0.9)])).toBe(false);
  });

  test("an English page is read once, with English", async () => {
    const image = await pageImage(["Thank you for staying with us from the ninth to the eleventh of July.", "Please pay the amount below within fourteen days to the account on the back of this letter.", "The invoice is valid without a signature, and we look forward to your next visit."]);
    const read = await tesseract.recognize(image, AbortSignal.timeout(60_000));
    expect(read.language).toBeUndefined();
    expect(read.text).toContain("Thank you for staying with us");
  }, 120_000);

  test("an image of a page already read in a language (sameAs) is read in that one at once, without English first", async () => {
    const image = await pageImage(["Thank you for staying with us from the ninth to the eleventh of July.", "Please pay the amount below within fourteen days to the account on the back of this letter."]);
    const read = await tesseract.recognize(image, AbortSignal.timeout(60_000), { sameAs: "deu+eng" });
    expect(read.language).toBe("deu+eng");
    expect(read.text).toContain("Thank you for staying with us");
  }, 120_000);
});

describe("a scanned PDF page is read in its language once", () => {
  test("the page's stored image is read in the language its rendering was found in: the German letter's umlauts, and no second English reading", async () => {
    const jpeg = new Uint8Array(await sharp(await pageImage(LETTER)).jpeg({ quality: 90 }).toBuffer());
    const asked: RecognizeOptions[] = [];
    const recording: OcrEngine = {
      recognize: (image, signal, options) => {
        asked.push(options ?? {});
        return tesseract.recognize(image, signal, options);
      },
      orientation: tesseract.orientation.bind(tesseract),
    };
    const ctx = convertContext({ tools: { pool, ocr: recording }, timeoutMs: 120_000 });
    const result = await makeConvertPdf({ outline: false })({ bytes: await imageOnlyPdf([jpeg], 150), filename: "hotel_letter_scan.pdf", contentType: "application/pdf", ext: "pdf" }, ctx);
    for (const word of ["für", "Straße", "Grüßen"]) expect(result.markdown).toContain(word);
    // the rendering, found German; then the stored image, in German with English at once
    expect(asked.length).toBe(2);
    expect(asked[0]!.sameAs).toBeUndefined();
    expect(asked[1]!.sameAs).toBe("deu+eng");
  }, 180_000);
});
