/**
 * Every file of the MarkItDown test corpus (copied into test/fixtures with its LICENSE) is uploaded
 * to the real server: each converts with its real content (headings, table rows, key strings) or,
 * for the one random binary, gets a clear 4xx.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { form, type TestServer, withServer } from "./helpers/server";

const FIXTURES = join(import.meta.dir, "fixtures");
let server: TestServer;
let key: string;

withServer({ plan: "enterprise" }, (served) => ({ server, key } = served));

interface Expectation {
  /** method: the extraction_method the file must report */
  method: string | RegExp;
  /** contains: strings and patterns the markdown must contain (headings, table rows, key strings) */
  contains: Array<string | RegExp>;
  /** absent: boilerplate that must not survive */
  absent?: string[];
}

const row = (...cells: string[]) => new RegExp(`^\\|\\s*${cells.map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("\\s*\\|\\s*")}\\s*\\|`, "m");

const CORPUS: Record<string, Expectation> = {
  "MEDRPT-2024-PAT-3847_medical_report_scan.pdf": { method: "ocr", contains: [/^#{2,3} COMPREHENSIVE MEDICAL REPORT$/m, /^\| Heart Rate \| 78 bpm \| 60-100 bpm \| NORMAL \|$/m, /^- Hypertension \(diagnosed 2019\)/m, "MEDRPT-2024-PAT-3847", "SEATTLE GENERAL HOSPITAL"] },
  "RECEIPT-2024-TXN-98765_retail_purchase.pdf": { method: "text+ocr", contains: ["> [Image text] MEMBER EXCLUSIVE", "Promo: TECHSAVE2024", /^# TECHMART ELECTRONICS$/m, "TXN-98765-2024", "Cashier: Emily Rodriguez", "$349.99"] },
  "REPAIR-2022-INV-001_multipage.pdf": { method: "text", contains: [row("Insured name", "Gabriel Diaz"), "ZAVA AUTO REPAIR", "Grand Cherokee"] },
  "SPARSE-2024-INV-1234_borderless_table.pdf": { method: "text+ocr", contains: ["> [Image text] APPROVED FOR PROCESSING", "Audit Code: AUD-2024-7842", row("Product Code", "Location", "Expected", "Actual", "Variance", "Status"), row("SKU-8847", "A-12", "450"), "Sarah Martinez"] },
  "masterformat_partial_numbering.pdf": { method: "text", contains: ["RFP for Construction Management Services", "Section 00 00 43", "Instructions to Respondents"] },
  "movie-theater-booking-2024.pdf": { method: "text", contains: [row("Order / Rev:", "2024-12-5678"), "STARLIGHT CINEMAS", "Sarah Johnson"] },
  "ocr_pdf_complex_layout.pdf": { method: "text+ocr", contains: ["Complex Layout Document", "Widget A", "> [Image text] WARNING: Handle with care"] },
  "ocr_pdf_multipage.pdf": {
    method: "text+ocr",
    contains: ["This is important text that appears BEFORE the image.", "This text appears AFTER the image on page 1.", "PAGE 1 IMAGE: Section A", "PAGE 2 IMAGE: Contact Info", "PAGE 3 IMAGE: Header Banner"],
  },
  "ocr_pdf_scanned_invoice.pdf": { method: "ocr", contains: [/^## INVOICE$/m, "TechCorp Industries", "INV-2024-001", "Acme Corporation"] },
  "equations.docx": { method: "text", contains: ["\\frac{m\\lambda}{a}", "\\sin \\theta", "$"] },
  "ocr_docx_multiple_images.docx": { method: "text+ocr", contains: [/^# Multi-Image Document$/m, "Chart 1: Revenue Growth", "Chart 2: Customer Satisfaction"] },
  "rlink.docx": { method: "text", contains: ["Testing Linked Images"] },
  "test.docx": { method: /^text/, contains: [/^# AutoGen: Enabling Next-Gen LLM Applications via Multi-Agent Conversation$/m, /^# Abstract$/m, /^\| .* \|$/m, "Qingyun Wu"] },
  "test_with_comment.docx": { method: "text", contains: [/^## Comments$/m, "This is a test comment. 12df-321a", "Yet another comment in the doc. 55yiyi-asd09"] },
  "ocr_pptx_multiple_images.pptx": { method: "text+ocr", contains: [/^## Slide 1/m, "Before: 50% Efficiency", "After: 95% Efficiency"] },
  "test.pptx": { method: /^text/, contains: [/^## Slide 1: AutoGen: Enabling Next-Gen LLM Applications via Multi-Agent Conversation$/m, /^## Slide 2: 2cdda5c8-e50e-4db4-b5f0-9722a649f455$/m, /^\| .* \|$/m] },
  "ocr_xlsx_multiple_images.xlsx": { method: "text+ocr", contains: [/^## Overview$/m, row("Status: Active"), "KPI: 95% Success Rate", "Uptime: 99.9%"] },
  "test.xlsx": { method: "text", contains: [/^## Sheet1$/m, /^## 09060124-b5e7-4717-9d07-3c046eb$/m, row("Alpha", "Beta", "Gamma", "Delta"), "6ff4173b-42a5-4784-9b19-f49caff4d93d"] },
  "test.xls": { method: "libreoffice+text", contains: [/^## Sheet1$/m, row("Alpha", "Beta", "Gamma", "Delta"), "6ff4173b-42a5-4784-9b19-f49caff4d93d"] },
  "test.epub": { method: "text", contains: [/^# Test EPUB Document$/m, "Test Author", /^# Chapter 1: Test Content$/m, "> This is a blockquote for testing."] },
  "test.pdf": { method: "text", contains: [/^# 1 Introduction$/m, "Large language models (LLMs) are becoming a crucial building block"] },
  "test.rtf": { method: "libreoffice+text", contains: [/^# This is a Sample RTF File$/m, "correctly convert RTF files"] },
  "test.json": { method: "text", contains: [/^```json$/m, '"5b64c88c-b3c3-4510-bcb8-da0b200602d8": "uuid_key"', "9700dc99-6685-40b4-9a3a-5e406dcb37f3"] },
  "test_notebook.ipynb": { method: "text", contains: [/^# Test Notebook$/m, /^## Code Cell Below$/m, /^```python$/m] },
  "test_outlook_msg.msg": { method: "text", contains: [/^# Test Email Message$/m, "test.sender@example.com", "test.recipient@example.com", "This is the body of the test email message"] },
  "test_mskanji.csv": { method: "text", contains: [row("名前", "年齢", "住所"), row("佐藤太郎", "30", "東京"), row("三木英子", "25", "大阪")] },
  "test_blog.html": {
    method: "html",
    contains: [/^# Does Model and Inference Parameter Matter in LLM Applications\? - A Case Study for MATH$/m, /^## Experiment Setup$/m],
  },
  "test_wikipedia.html": { method: "html", contains: [/^# Microsoft$/m, /^## History$/m, row("Founded", "April 4, 1975 in [Albuquerque, New Mexico](/wiki/Albuquerque,_New_Mexico), U.S.")], absent: ["Jump to content", "Privacy policy"] },
  "test_serp.html": { method: "html", contains: ["Microsoft Corporation is", "History of Microsoft - Wikipedia"] },
  "test_rss.xml": { method: "feed", contains: [/^# The Official Microsoft Blog$/m, "## Ignite 2024: Why nearly 70% of the Fortune 500 now use Microsoft 365 Copilot"] },
  "test_files.zip": { method: "archive", contains: [/^## test\.docx$/m, /^## test_wikipedia\.html$/m, /^## test\.xlsx$/m, "6ff4173b-42a5-4784-9b19-f49caff4d93d", "Qingyun Wu"] },
  "test.jpg": { method: "ocr", contains: [/^## Image metadata$/m, "2024-03-14"] },
  "test_llm.jpg": { method: "ocr", contains: ["5bda1dd6"] },
  "test.mp3": { method: "metadata", contains: [/0:00:06/, "mp3"] },
  "test.m4a": { method: "metadata", contains: [/0:00:\d\d/, "aac"] },
  "test.wav": { method: "metadata", contains: [/0:00:06/, "pcm_s16le"] },
};

test("the corpus list covers every corpus file in the fixtures", () => {
  const copied = readFileSync(join(FIXTURES, "LICENSE-markitdown"), "utf8");
  expect(copied).toContain("MIT");
  expect(Object.keys(CORPUS).length + 1).toBe(37); // + random.bin, which must be refused
});

test.each(Object.entries(CORPUS))("%s converts with its real content", async (name, expected) => {
  const r = await fetch(`${server.url}/api/v1/markdown/convert`, {
    method: "POST",
    body: form({ file: new File([readFileSync(join(FIXTURES, name))], name) }),
    headers: { "X-API-Key": key },
  });
  const body = (await r.json()) as any;
  expect({ status: r.status, error: body.error, detail: body.detail }).toEqual({ status: 200, error: undefined, detail: undefined });
  if (typeof expected.method === "string") expect(body.extraction_method).toBe(expected.method);
  else expect(body.extraction_method).toMatch(expected.method);
  for (const part of expected.contains) {
    if (typeof part === "string") expect(body.markdown).toContain(part);
    else expect(body.markdown).toMatch(part);
  }
  for (const part of expected.absent ?? []) expect(body.markdown).not.toContain(part);
  if (body.extraction_method === "ocr" && name.endsWith(".pdf")) {
    const ocrPages = body.pages.filter((p: any) => p.method === "ocr");
    expect(ocrPages.length).toBeGreaterThan(0);
    for (const p of ocrPages) expect(p.ocr_quality).toBeGreaterThan(0.5);
  }
}, 120_000);

test("random.bin gets a clear 415, not a guess", async () => {
  const r = await fetch(`${server.url}/api/v1/markdown/convert`, {
    method: "POST",
    body: form({ file: new File([readFileSync(join(FIXTURES, "random.bin"))], "random.bin") }),
    headers: { "X-API-Key": key },
  });
  expect(r.status).toBe(415);
  expect(await r.json()).toMatchObject({ success: false, error: "unsupported_media_type", detail: expect.stringContaining("/api/v1/markdown/supported") });
});
