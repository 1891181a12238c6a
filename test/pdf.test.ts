/**
 * PDF -> markdown against real PDFs (MarkItDown's corpus, see fixtures/LICENSE-markitdown), with
 * the real worker pool (pdf.js in worker threads), pdftoppm and tesseract.
 *
 * fixtures/encrypted_password_secret.pdf was made with LibreOffice:
 * soffice --convert-to 'pdf:writer_pdf_Export:{"EncryptFile":...,"DocumentOpenPassword":{"type":"string","value":"secret"}}'
 */
import { failureOf } from "./helpers/loopback";
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { deflateSync } from "node:zlib";
import { convertPdf } from "../src/convert/pdf";
import { formatOcrText, joinWrapped } from "../src/convert/pdfParagraphs";
import { WorkerPool } from "../src/pool";
import { Tesseract } from "../src/tools/tesseract";
import { convertContext } from "./helpers/convert";
import { pdfObjects } from "./helpers/pdfObjects";

const FIXTURES = join(import.meta.dir, "fixtures");
const pool = new WorkerPool({ threads: 2, maxQueue: 64 });
const ocr = new Tesseract({ concurrency: 2, timeoutMs: 60_000 });

afterAll(async () => {
  await pool.close();
});

const context = (maxPages = 2000) => convertContext({ limits: { maxPages }, tools: { pool, ocr }, timeoutMs: 120_000 });

function convert(bytes: Uint8Array, filename: string, maxPages?: number) {
  return convertPdf({ bytes, filename, contentType: "application/pdf", ext: "pdf" }, context(maxPages));
}

function fixture(name: string) {
  return convert(new Uint8Array(readFileSync(join(FIXTURES, name))), name);
}

/** blankPdf is a valid one-page PDF with nothing on the page; `info` is its document information dictionary's body, e.g. "/Title (Q3 Plan)". */
function blankPdf(info = ""): Uint8Array {
  const objects = ["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>", "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>"];
  if (info) objects.push(`<< ${info} >>`);
  return pdfOf(objects, info !== "");
}

/** FormBox: a text field of formPdf: its name, value and box [x1, y1, x2, y2] in PDF points (y up). */
type FormBox = [name: string, value: string, rect: [number, number, number, number]];

/**
 * formPdf is a one-page filled form: `labels` printed on the page (text, x, baseline y, in points)
 * and text fields (AcroForm widgets) holding `fields`' values, as a form filler leaves them.
 */
function formPdf(labels: [string, number, number][], fields: FormBox[]): Uint8Array {
  const content = labels.map(([text, x, y]) => `BT /F1 7 Tf ${x} ${y} Td (${text}) Tj ET`).join("\n");
  const first = 6;
  const widgets = fields.map(([name, value, rect]) => `<< /Type /Annot /Subtype /Widget /FT /Tx /T (${name}) /V (${value}) /DA (/Helv 10 Tf 0 g) /Rect [${rect.join(" ")}] /P 3 0 R /F 4 >>`);
  const refs = widgets.map((_, i) => `${first + i} 0 R`).join(" ");
  return pdfOf([
    `<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [${refs}] /DA (/Helv 10 Tf 0 g) >> >>`,
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R /Annots [${refs}] >>`,
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ...widgets,
  ]);
}

/** pdfOf writes numbered objects (1, 2, ...); `info`: the last object is the document information dictionary. */
const pdfOf = (objects: string[], info = false) => pdfObjects(objects, { info: info ? objects.length : undefined });

describe("PDF text layer", () => {
  test("test.pdf: headings from font size, paragraphs joined across line wraps", async () => {
    const result = await fixture("test.pdf");
    expect(result.method).toBe("text");
    expect(result.totalPages).toBe(1);
    expect(result.pages).toEqual([{ page: 1, method: "text", chars: expect.any(Number) }]);
    expect(result.markdown).toMatch(/^#{1,3} 1 Introduction$/m);
    expect(result.title).toBe("1 Introduction");
    // one paragraph holds text that the PDF spreads over several lines
    expect(result.markdown).toContain("Large language models (LLMs) are becoming a crucial building block in developing powerful agents");
  });

  test("SPARSE borderless table: aligned columns become GFM tables, sparse cells stay empty", async () => {
    const result = await fixture("SPARSE-2024-INV-1234_borderless_table.pdf");
    expect(result.totalPages).toBe(2);
    expect(result.markdown).toMatch(/^#{1,3} INVENTORY RECONCILIATION REPORT$/m);
    expect(result.markdown).toContain("| Product Code | Location | Expected | Actual | Variance | Status |");
    expect(result.markdown).toContain("| SKU-8847 | A-12 | 450 |  |  |  |");
    expect(result.markdown).toContain("|  | B-07 |  | 289 | -23 |  |");
    expect(result.markdown).toContain("| SKU-4563 | D-22 |  | 156 |  | CRITICAL |");
    expect(result.markdown).toContain("| SKU-6678 | Software | $200.00 | $42,000.00 | 2024-10-25 | High Value |");
    expect(result.markdown).toContain("The primary variance driver is SKU-4563, which shows a -24 unit discrepancy");
  });

  test("borderless tables of right-aligned figures (public-domain pages, see fixtures/SOURCES-us-government.md): a column per figure under a two-row header, column groups across a gap, a typewriter table kept in cells without its leader dots, prose kept out", async () => {
    const usgs = (await fixture("usgs_borderless_figures_two_row_header.pdf")).markdown;
    // figures of different widths under one year: one column each, each group label over each of its years
    expect(usgs).toContain("|  | Fused aluminum oxide | Fused aluminum oxide | Silicon carbide | Silicon carbide |");
    expect(usgs).toContain("|  | 2009 | 2010 | 2009 | 2010 |");
    expect(usgs).toContain("| United States and Canada | 60,400 | 60,400 | 42,600 | 42,600 |");
    expect(usgs).toContain("| Argentina | — | — | 5,000 | 5,000 |");
    expect(usgs).toContain("| World total (rounded) | 1,190,000 | 1,190,000 | 1,010,000 | 1,010,000 |");
    expect(usgs).toMatch(/^Events, Trends, and Issues: Imports and higher operating costs/m);
    // a wide table whose column groups leave a gap down the page is one table, not two columns of text
    const ntp = (await fixture("ntp_wide_table_column_groups.pdf")).markdown;
    expect(ntp).toContain("| 250 | 30 | 5.9 | 102 | 10 | 9.0 | 102 | 13.6 | 101 | 26.2 | 102 | 35.8 | 102 |");
    expect(ntp).toContain("| 4,000 | 31 | 5.0** | 93 | 10 | 7.3* | 89 | 9.9** | 78 | 16.1** | 65 | 18.8** | 56 |");
    // rows of figures that fill the width are cells, not justified prose
    const nchs = (await fixture("nchs_typewriter_table_dot_leaders.pdf")).markdown;
    expect(nchs).toContain("| 0.95 | 160 | 176 | 192 | 208 | 224 | 240 | 256 |");
    expect(nchs).toContain("The suggestion for the presentation of population standard deviations");
    expect(nchs).not.toMatch(/^\|.*The suggestion for the presentation/m);
  });

  test("RECEIPT: lines of a narrow receipt keep their breaks, totals are present", async () => {
    const result = await fixture("RECEIPT-2024-TXN-98765_retail_purchase.pdf");
    expect(result.markdown).toMatch(/^#{1,3} TECHMART ELECTRONICS$/m);
    expect(result.title).toBe("TECHMART ELECTRONICS");
    expect(result.markdown).toContain("4567 Innovation Blvd\nSan Francisco, CA 94103");
    expect(result.markdown).toContain("AUDIO-5521 1 @ $349.99");
    expect(result.markdown).toContain("TOTAL $821.14");
    expect(result.markdown).toContain("Visa Card ending in 4782");
  });

  test("REPAIR multipage: key/value grids and totals as tables on every page", async () => {
    const result = await fixture("REPAIR-2022-INV-001_multipage.pdf");
    expect(result.totalPages).toBe(3);
    expect(result.pages!.map((p) => p.method)).toEqual(["text", "text", "text"]);
    expect(result.markdown).toContain("| Insured name | Gabriel Diaz | Year | 2022 |");
    expect(result.markdown).toContain("| Insured name | Bruce Wayne | Year | 2025 |");
    expect(result.markdown).toContain("| Body Labor | 2 | 150 | 300 |");
    // rows set tightly under one another stay rows (not a cell wrapping onto the next line)
    expect(result.markdown).toContain("| Email | gabriel@contoso.com | VIN | 1C4RJFBG2NC123456 |");
    expect(result.markdown).toContain("|  |  | Color | White |");
    expect(result.markdown).toContain("| GRAND TOTAL |  | 211,522 |");
    expect(result.markdown).toContain("Suspension damages may be present, but can not be determined");
  });

  test("a two-column journal paper (BMC, CC BY 2.0, bench/expected/pdf-born-digital): bold headings beside the other column, unmapped bullets as list items, running headers gone", async () => {
    const paper = join(import.meta.dir, "../bench/expected/pdf-born-digital/bmc-hsr-quality-malawi.pdf");
    const result = await convert(new Uint8Array(readFileSync(paper)), "bmc-hsr-quality-malawi.pdf");
    // "Methods" and "Results" are bold (an Advent 3B2 face, "AdvTTaf7f9f4f.B") at the baseline of the right column's prose
    expect(result.markdown).toMatch(/^#+ Methods$/m);
    expect(result.markdown).toMatch(/^#+ Results$/m);
    // its symbol font maps the bullets to a control character: they are list items, their wrapped lines joined
    expect(result.markdown).toContain("- the patient‘s perspective of the quality of healthcare delivery and\n\n- the patient’s satisfaction with services in the Medical Department");
    expect(result.markdown).not.toMatch(/[\u0001-\u0008\u000E-\u001F]/);
    expect(result.markdown).not.toContain("Page 2 of 10");
    expect(result.markdown).toContain("The structured outpatient questionnaire");
  });

  test("movie-theater booking: form grids and a totals table", async () => {
    const result = await fixture("movie-theater-booking-2024.pdf");
    expect(result.markdown).toMatch(/^#{1,3} STARLIGHT CINEMAS$/m);
    expect(result.markdown).toContain("| Order / Rev: | 2024-12-5678 | Cinema: | Downtown Multiplex |");
    expect(result.markdown).toContain("| Month | # Shows | Gross Amount | Net Amount | Occupancy |");
    expect(result.markdown).toContain("| December 2024 | 48 | $12,500.00 | $11,250.00 | 85% |");
    expect(result.markdown).toContain("| 12/20/24 | 12/31/24 | 48 | $12,500.00 | $11,250.00 |");
  });

  test("masterformat: numbered clauses and the running header grid", async () => {
    const result = await fixture("masterformat_partial_numbering.pdf");
    expect(result.markdown).toContain("| RFP for Construction Management Services | Section 00 00 43 |");
    expect(result.markdown).toContain("1. INTENT");
    expect(result.markdown).toContain("KEN SARGENT HOUSE");
    expect(result.markdown).toContain("Section 00 00 45 – Description");
  });

  test("ocr_pdf_multipage and complex_layout: text layers read as text, and the text inside their pictures OCRed onto the page", async () => {
    const multipage = await fixture("ocr_pdf_multipage.pdf");
    expect(multipage.method).toBe("text+ocr");
    expect(multipage.pages!.map((p) => p.method)).toEqual(["text", "text", "text"]);
    expect(multipage.markdown).toContain("This is important text that appears BEFORE the image.");
    expect(multipage.markdown).toContain("Content that follows the image.");
    // each picture's text lands on its own page, after that page's text layer
    const at = (s: string) => multipage.markdown.indexOf(s);
    expect(at("> [Image text] PAGE 1 IMAGE: Section A")).toBeGreaterThan(at("More content follows here."));
    expect(at("> [Image text] PAGE 2 IMAGE: Contact Info")).toBeGreaterThan(at("Final paragraph before image."));
    expect(at("> [Image text] PAGE 3 IMAGE: Header Banner")).toBeGreaterThan(at("This text is AFTER the image."));
    const complex = await fixture("ocr_pdf_complex_layout.pdf");
    expect(complex.markdown).toContain("Complex Layout Document");
    expect(complex.markdown).toContain("> [Image text] WARNING: Handle with care");
  });

  test("a page whose pictures together pass the pixel limit keeps its text, with a warning, and its pictures are not written out", async () => {
    // a 12 000 x 12 000 white picture (144 million pixels, over the 100 million limit) is a few hundred KB compressed;
    // writing it out (pdfimages) took 40 s on an idle machine and past the 60 s timeout on a loaded one, failing the whole PDF
    const side = 12_000;
    const picture = Buffer.from(deflateSync(Buffer.alloc(side * side, 255), { level: 9 })).toString("hex");
    const content = "BT /F1 12 Tf 72 720 Td (Quarterly report of the harbour authority) Tj 0 -16 Td (The harbour handled more ships this quarter than last.) Tj ET\nq 200 0 0 200 100 300 cm /Im0 Do Q";
    const pdf = pdfOf([
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> /XObject << /Im0 6 0 R >> >> /Contents 4 0 R >>",
      `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
      "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
      `<< /Type /XObject /Subtype /Image /Width ${side} /Height ${side} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter [/ASCIIHexDecode /FlateDecode] /Length ${picture.length + 1} >>\nstream\n${picture}>\nendstream`,
    ]);
    const result = await convert(pdf, "harbour.pdf");
    expect(result.markdown).toContain("The harbour handled more ships this quarter than last.");
    expect(result.warnings).toContainEqual(expect.stringMatching(/^page 1: its pictures were not checked for text \(144 million pixels together, over the limit of 100 million\)$/));
  });

  test("a text PDF without pictures is read as text only (no OCR)", async () => {
    const paper = await fixture("test.pdf");
    expect(paper.method).toBe("text");
    expect(paper.markdown).not.toContain("[Image text]");
  });
});

describe("PDF OCR", () => {
  test("scanned invoice: the page without text layer is OCRed, with its confidence", async () => {
    const result = await fixture("ocr_pdf_scanned_invoice.pdf");
    expect(result.method).toBe("ocr");
    expect(result.pages).toHaveLength(1);
    expect(result.pages![0]!.method).toBe("ocr");
    expect(result.pages![0]!.ocrQuality).toBeGreaterThan(0.5);
    expect(result.markdown).toContain("INVOICE");
    expect(result.markdown).toContain("INV-2024-001");
    expect(result.markdown).toMatch(/TechCorp Industries/);
  }, 60_000);

  test("MEDRPT scan: three scanned pages OCRed concurrently, headings formatted", async () => {
    const result = await fixture("MEDRPT-2024-PAT-3847_medical_report_scan.pdf");
    expect(result.method).toBe("ocr");
    expect(result.totalPages).toBe(3);
    for (const page of result.pages!) {
      expect(page.method).toBe("ocr");
      expect(page.ocrQuality).toBeGreaterThan(0.4);
      expect(page.chars).toBeGreaterThan(200);
    }
    // page 1 is laid out (ocrLayout.ts): the hospital name, its largest text, ranks first
    expect(result.markdown).toMatch(/^#{1,2} SEATTLE GENERAL HOSPITAL$/m);
    expect(result.markdown).toMatch(/^\| Blood Pressure \| 142\/88 mmHg \| 120\/80 mmHg \| ELEVATED \|$/m);
    expect(result.markdown).toContain("MEDRPT-2024-PAT-3847");
  }, 60_000);

  test("formatOcrText joins wrapped lines, keeps short lines, marks caps lines as headings", () => {
    const text = "PATIENT INFORMATION\n\nThe patient reports persistent headaches that occur several\ntimes per week with occasional dizziness and mild nau-\nsea in the mornings.\n\n- first item\n- second item";
    const md = formatOcrText(text);
    expect(md).toContain("## PATIENT INFORMATION");
    expect(md).toContain("occur several times per week with occasional dizziness and mild nausea in the mornings.");
    expect(md).toContain("- first item\n\n- second item");
    expect(joinWrapped("exam-", "ple")).toBe("example");
    expect(joinWrapped("Jean-", "Paul")).toBe("Jean-Paul"); // a real hyphen before a capital stays, without a space
  });
});

describe("PDF errors", () => {
  test("a blank page is an empty document, named with its page count", async () => {
    const error = await failureOf(convert(blankPdf(), "blank.pdf"));
    expect(error.code).toBe("empty_document");
    expect(error.detail).toContain("1 page");
    expect(error.detail).toContain("OCR found no text");
  }, 60_000);

  test("a blank page with a title and an author in its document information gives that metadata, with a warning", async () => {
    const result = await convert(blankPdf("/Title (Quarterly Plan) /Author (Dana Smith)"), "plan.pdf");
    expect(result.method).toBe("metadata");
    expect(result.title).toBe("Quarterly Plan");
    expect(result.markdown).toMatch(/^# Quarterly Plan$/m);
    expect(result.markdown).toContain("Dana Smith");
    expect(result.totalPages).toBe(1);
    expect(result.warnings.join(" ")).toContain("only its metadata (title, author) was found");
  }, 60_000);

  test("a truncated PDF is unreadable", async () => {
    const whole = readFileSync(join(FIXTURES, "test.pdf"));
    const error = await failureOf(convert(new Uint8Array(whole.subarray(0, Math.floor(whole.length / 3))), "cut.pdf"));
    expect(error.code).toBe("unreadable_document");
  });

  test("a password-protected PDF is reported as encrypted", async () => {
    const error = await failureOf(fixture("encrypted_password_secret.pdf"));
    expect(error.code).toBe("encrypted_document");
  });

  test("more pages than maxPages is refused before extraction", async () => {
    const bytes = new Uint8Array(readFileSync(join(FIXTURES, "REPAIR-2022-INV-001_multipage.pdf")));
    const error = await failureOf(convert(bytes, "repair.pdf", 2));
    expect(error.code).toBe("document_too_large");
    expect(error.detail).toContain("3 pages");
  });
});

describe("PDF form fields", () => {
  test("a filled form's values are read where their boxes sit; a label printed under its box is paired with the value", async () => {
    // paper-form style: the value is written on a line, its label printed under it ("24 years" over "AGE")
    const underLines = formPdf(
      [["AGE", 266, 719], ["HEIGHT", 378, 719], ["CHARACTER NAME", 70, 693]],
      [["Age", "24 years", [266, 725, 372, 741]], ["Height", "5 ft 1", [379, 725, 465, 741]], ["CharacterName", "Mario", [48, 706, 256, 727]]],
    );
    const under = await convert(underLines, "sheet.pdf");
    expect(under.markdown).toContain("AGE: 24 years");
    expect(under.markdown).toContain("HEIGHT: 5 ft 1");
    expect(under.markdown).toContain("CHARACTER NAME: Mario");
    // a label above its box reads first already: it stays as printed, the value on the line under it
    const aboveBox = formPdf([["Enter your favorite superhero:", 55, 700]], [["superhero", "One Punch Man", [55, 640, 256, 691]]]);
    const above = await convert(aboveBox, "favourites.pdf");
    expect(above.markdown).toMatch(/Enter your favorite superhero:\s+One Punch Man/);
    expect(above.markdown).not.toContain("superhero:: ");
    // an empty form reads as its labels alone
    const blank = await convert(formPdf([["AGE", 266, 719]], [["Age", "", [266, 725, 372, 741]]]), "blank-form.pdf");
    expect(blank.markdown.trim()).toBe("AGE");
  });
});
