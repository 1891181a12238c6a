/**
 * Formats added for issue 16, through the real server and real tools: mbox (a section per message),
 * XPS (mutool), Visio VSDX, EMF and WMF (LibreOffice, as PDF), and office documents whose only
 * content is their metadata (the title and author with a warning, not empty_document). Fixtures are
 * made here: mbox as text, VSDX and XPS by hand (test/helpers/drawings.ts), EMF and WMF by
 * LibreOffice from an SVG, DOCX/XLSX/PPTX packages by hand.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { api, form, tempDir, type TestServer, withServer } from "./helpers/server";
import { vsdxOf, xpsOf } from "./helpers/drawings";
import { zipOf } from "./helpers/zip";
import { runProcess } from "../src/tools/process";

let server: TestServer;
let key: string;
const work = tempDir("docintel-more-formats-");

withServer({ args: ["--convert-timeout-ms", "120000"] }, (served) => ({ server, key } = served));

const convert = (bytes: Uint8Array | string, name: string) =>
  api(server, key, "POST", "/api/v1/markdown/convert", form({ file: new File([typeof bytes === "string" ? bytes : (bytes as Uint8Array<ArrayBuffer>)], name) }));

const MBOX = [
  "From ana@example.com Mon Jan  1 10:00:00 2024",
  "From: Ana <ana@example.com>",
  "To: Bo <bo@example.com>",
  "Subject: Budget approved",
  "Date: Mon, 1 Jan 2024 10:00:00 +0000",
  "",
  "The budget was approved on Monday.",
  ">From the minutes: all units agreed.",
  "",
  "From bo@example.com Tue Jan  2 09:30:00 2024",
  "From: Bo <bo@example.com>",
  "To: Ana <ana@example.com>",
  "Subject: Re: Budget approved",
  "Date: Tue, 2 Jan 2024 09:30:00 +0000",
  "",
  "Thanks, the cranes can be ordered now.",
  "",
].join("\n");

describe("mbox", () => {
  test("a section per message, each with its headers and body", async () => {
    const { status, body } = await convert(MBOX, "inbox.mbox");
    expect(status).toBe(200);
    expect(body.markdown).toContain("# inbox.mbox");
    expect(body.markdown).toContain("## Budget approved");
    expect(body.markdown).toContain("## Re: Budget approved");
    expect(body.markdown).toContain("The budget was approved on Monday.");
    expect(body.markdown).toContain("Thanks, the cranes can be ordered now.");
    // mboxrd's quoted ">From " body line comes back as written
    expect(body.markdown).toContain("From the minutes: all units agreed.");
    expect(body.markdown).not.toContain(">From");
  });

  test("a mailbox is recognised by its bytes without the .mbox name", async () => {
    const { status, body } = await convert(MBOX, "mail-export");
    expect(status).toBe(200);
    expect(body.content_type).toBe("application/mbox");
    expect(body.markdown).toContain("## Re: Budget approved");
  });
});

describe("XPS and drawings", () => {
  test("XPS: the text of its pages, through mutool", async () => {
    const { status, body } = await convert(xpsOf(["Quarterly budget", "Approved by the board"]), "report.xps");
    expect(status).toBe(200);
    expect(body.markdown).toMatch(/Quarterly budget[\s\S]*Approved by the board/);
    expect(body.extraction_method).toMatch(/^mutool\+/);
  });

  test("Visio VSDX: the text of its shapes, through LibreOffice", async () => {
    const { status, body } = await convert(vsdxOf(["Quarterly budget flow", "Approved by the board"]), "flow.vsdx");
    expect(status).toBe(200);
    expect(body.markdown).toMatch(/Quarterly budget flow[\s\S]*Approved by the board/);
  }, 120_000);

  test("EMF and WMF: the text they draw, through LibreOffice", async () => {
    const svg = join(work, "budget.svg");
    writeFileSync(svg, `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="240"><rect width="100%" height="100%" fill="white"/><text x="40" y="150" font-family="DejaVu Sans" font-size="72" fill="black">Budget 4711</text></svg>`);
    for (const ext of ["emf", "wmf"]) {
      await runProcess("soffice", ["--headless", "--norestore", `-env:UserInstallation=file://${join(work, "profile")}`, "--convert-to", ext, "--outdir", work, svg], { timeoutMs: 120_000, what: `${ext} fixture`, sandbox: { dirs: [work] } });
      const { status, body } = await convert(new Uint8Array(readFileSync(join(work, `budget.${ext}`))), `budget.${ext}`);
      expect(status).toBe(200);
      expect(body.markdown).toContain("Budget 4711");
    }
  }, 300_000);

  test("the supported list names the new formats", async () => {
    const { body } = await api(server, key, "GET", "/api/v1/markdown/supported");
    const all = body.families.flatMap((f: any) => f.extensions);
    for (const ext of ["mbox", "xps", "oxps", "vsdx", "emf", "wmf"]) expect(all).toContain(ext);
  });
});

/** ooxmlPackage writes an office package with an empty main part and the given core properties. */
function ooxmlPackage(kind: "docx" | "xlsx" | "pptx", props: { title?: string; creator?: string }): Uint8Array {
  const core = `<?xml version="1.0" encoding="UTF-8"?><cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/">${props.title ? `<dc:title>${props.title}</dc:title>` : ""}${props.creator ? `<dc:creator>${props.creator}</dc:creator>` : ""}</cp:coreProperties>`;
  const main = {
    docx: { part: "word/document.xml", type: "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml", xml: `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p/></w:body></w:document>` },
    xlsx: {
      part: "xl/workbook.xml",
      type: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml",
      xml: `<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    },
    pptx: { part: "ppt/presentation.xml", type: "application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml", xml: `<p:presentation xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"/>` },
  }[kind];
  const entries = [
    { name: "[Content_Types].xml", data: `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/${main.part}" ContentType="${main.type}"/><Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/></Types>` },
    { name: "_rels/.rels", data: `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="${main.part}"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/></Relationships>` },
    { name: main.part, data: main.xml },
    { name: "docProps/core.xml", data: core },
  ];
  if (kind === "xlsx") {
    entries.push({ name: "xl/_rels/workbook.xml.rels", data: `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>` });
    entries.push({ name: "xl/worksheets/sheet1.xml", data: `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData/></worksheet>` });
  }
  return zipOf(entries);
}

describe("a document whose only content is its metadata", () => {
  for (const kind of ["docx", "xlsx", "pptx"] as const) {
    test(`${kind.toUpperCase()}: the title and author with a warning, not empty_document`, async () => {
      const { status, body } = await convert(ooxmlPackage(kind, { title: "Harbour budget 2025", creator: "Ana Lima" }), `empty.${kind}`);
      expect(status).toBe(200);
      expect(body.title).toBe("Harbour budget 2025");
      expect(body.markdown).toContain("# Harbour budget 2025");
      expect(body.markdown).toContain("Ana Lima");
      expect(body.extraction_method).toBe("metadata");
      expect(body.warnings.join(" ")).toContain("only its metadata");
    });
  }

  test("without title or author it is still 400 empty_document", async () => {
    const { status, body } = await convert(ooxmlPackage("docx", {}), "blank.docx");
    expect(status).toBe(400);
    expect(body.error).toBe("empty_document");
  });
});
