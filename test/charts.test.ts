/**
 * Charts and drawings in office documents, through the real server: a native chart is rendered as
 * its title and a table of the values cached in the chart part (not as a picture to OCR), SmartArt
 * as a list of its text, and a PPTX whose embedded chart workbook is stored uncompressed is still
 * a presentation (it was taken for an XLSX and refused: "no main part 'xl/workbook.xml'").
 *
 * Fixtures: chart_bar_two_series.odt is odfdo's tests/samples/chart.odt (Apache-2.0, see
 * fixtures/LICENSE-odfdo), a column chart of two series over four rows, which LibreOffice stores as
 * DOCX with word/charts/chart1.xml; test.pptx is MarkItDown's (MIT); the SmartArt DOCX is written here.
 */
import { describe, expect, test } from "bun:test";
import { copyFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ZipArchive } from "../src/ingest/zip";
import { runProcess } from "../src/tools/process";
import { api, form, tempDir, type TestServer, withServer } from "./helpers/server";
import { zipOf, type ZipEntryInput } from "./helpers/zip";

const FIXTURES = join(import.meta.dir, "fixtures");
let server: TestServer;
let key: string;
const work = tempDir("docintel-charts-");

withServer({ args: ["--convert-timeout-ms", "120000"] }, (served) => ({ server, key } = served));

const convert = (bytes: Uint8Array, name: string) =>
  api(server, key, "POST", "/api/v1/markdown/convert", form({ file: new File([bytes as Uint8Array<ArrayBuffer>], name) }));

/** officeCopy has LibreOffice store a fixture in another format (e.g. "docx:MS Word 2007 XML"). */
async function officeCopy(fixture: string, target: string): Promise<Uint8Array> {
  const source = join(work, fixture);
  copyFileSync(join(FIXTURES, fixture), source);
  await runProcess("soffice", ["--headless", "--norestore", `-env:UserInstallation=file://${join(work, "profile")}`, "--convert-to", target, "--outdir", work, source], {
    timeoutMs: 120_000,
    what: "store the chart fixture",
    sandbox: { dirs: [work] },
  });
  return new Uint8Array(readFileSync(join(work, fixture.replace(/\.[^.]+$/, `.${target.split(":")[0]}`))));
}

describe("charts", () => {
  test("a DOCX chart comes out as a table of its cached series values", async () => {
    const docx = await officeCopy("chart_bar_two_series.odt", "docx:MS Word 2007 XML");
    expect(new ZipArchive(docx, 10e6, "fixture").has("word/charts/chart1.xml")).toBe(true);
    const { status, body } = await convert(docx, "chart.docx");
    expect(status).toBe(200);
    expect(body.markdown).toContain("Some text");
    expect(body.markdown).toContain("### Chart");
    expect(body.markdown).toContain("| Category | Column 2 | Column 3 |");
    expect(body.markdown).toContain("| Row 1 | 10 | 20 |");
    expect(body.markdown).toContain("| Row 3 | 50 | 360 |");
    expect(body.markdown).toContain("| Row 4 | 9.02 | 6.2 |");
  }, 120_000);

  test("a PPTX whose chart workbook is stored uncompressed is read as a presentation, chart included", async () => {
    const original = new ZipArchive(new Uint8Array(readFileSync(join(FIXTURES, "test.pptx"))), 100e6, "test.pptx");
    // The embedded workbook first and every entry stored: its own local headers ("xl/workbook.xml")
    // are then the first names a scan of the bytes meets, as in PowerPoint files seen in the wild.
    const workbook = zipOf([
      { name: "[Content_Types].xml", data: `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`, stored: true },
      { name: "xl/workbook.xml", data: `<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"/>`, stored: true },
    ]);
    const entries: ZipEntryInput[] = [{ name: "ppt/embeddings/Microsoft_Excel_Worksheet.xlsx", data: workbook, stored: true }];
    for (const name of original.names()) entries.push({ name, data: original.read(name)!, stored: true });
    const { status, body } = await convert(zipOf(entries), "deck.pptx");
    expect(status).toBe(200);
    expect(body.markdown).toContain("A chart to test parsing");
    expect(body.markdown).toContain("| Category | Series 1 |");
    expect(body.markdown).toContain("| 2001 | 2001 |");
  }, 60_000);
});

describe("SmartArt", () => {
  test("a DOCX SmartArt diagram comes out as a list of its text in outline order", async () => {
    const W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";
    const R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
    const document = `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="${W}" xmlns:r="${R}" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram"><w:body>
      <w:p><w:r><w:t>Our process:</w:t></w:r></w:p>
      <w:p><w:r><w:drawing><wp:inline><wp:extent cx="5486400" cy="3200400"/><wp:docPr id="1" name="Diagram 1"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/diagram"><dgm:relIds r:dm="rId5" r:lo="rId6" r:qs="rId7" r:cs="rId8"/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>
      <w:p><w:r><w:t>End of process.</w:t></w:r></w:p></w:body></w:document>`;
    // Points in the part are out of order on purpose: the connections (srcOrd) give the order.
    const pt = (id: string, text: string, type = "") => `<dgm:pt modelId="${id}"${type ? ` type="${type}"` : ""}><dgm:t><a:bodyPr/><a:p><a:r><a:t>${text}</a:t></a:r></a:p></dgm:t></dgm:pt>`;
    const cxn = (src: string, dest: string, order: number) => `<dgm:cxn modelId="c${src}${dest}" srcId="${src}" destId="${dest}" srcOrd="${order}" destOrd="0"/>`;
    const data = `<?xml version="1.0" encoding="UTF-8"?><dgm:dataModel xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><dgm:ptLst>
      <dgm:pt modelId="0" type="doc"/>${pt("3", "Ship")}${pt("1", "Plan")}${pt("2", "Build")}${pt("21", "Write the code")}${pt("t1", "", "parTrans")}${pt("t2", "", "sibTrans")}
      </dgm:ptLst><dgm:cxnLst>${cxn("0", "3", 2)}${cxn("0", "1", 0)}${cxn("0", "2", 1)}${cxn("2", "21", 0)}</dgm:cxnLst></dgm:dataModel>`;
    const rels = `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId5" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/diagramData" Target="diagrams/data1.xml"/></Relationships>`;
    const docx = zipOf([
      { name: "[Content_Types].xml", data: `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>` },
      { name: "_rels/.rels", data: `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>` },
      { name: "word/document.xml", data: document },
      { name: "word/_rels/document.xml.rels", data: rels },
      { name: "word/diagrams/data1.xml", data },
    ]);
    const { status, body } = await convert(docx, "process.docx");
    expect(status).toBe(200);
    expect(body.markdown).toContain("Our process:");
    expect(body.markdown).toContain("- Plan\n- Build\n  - Write the code\n- Ship");
    expect(body.markdown.indexOf("Our process:")).toBeLessThan(body.markdown.indexOf("- Plan"));
    expect(body.markdown.indexOf("- Ship")).toBeLessThan(body.markdown.indexOf("End of process."));
  }, 60_000);
});
