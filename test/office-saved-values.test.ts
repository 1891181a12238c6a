/**
 * A spreadsheet's volatile formulas read as saved. LibreOffice recalculates TODAY() and NOW() on
 * every load, so an OpenDocument expense report saved with `=IF(B2="";"";TODAY())` showing
 * 2021-02-05 came out with today's date (src/convert/odsSaved.ts). The saved values are read from
 * the file and laid over LibreOffice's grid; a formula that is not volatile keeps LibreOffice's result.
 */
import { describe, expect, test } from "bun:test";
import { savedVolatileCells } from "../src/convert/odsSaved";
import { convertContext } from "./helpers/convert";
import { zipOf } from "./helpers/zip";
import { api, form, startServer } from "./helpers/server";

const NS = `xmlns:of="urn:oasis:names:tc:opendocument:xmlns:of:1.2" xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"`;

/** the body of an expense report: two dated rows (TODAY() saved on 2021-02-05), a third with no item (its date formula saved empty), a sum, and a NOW() stamp */
const BODY = `<office:body><office:spreadsheet><table:table table:name="Expenses">
 <table:table-row><table:table-cell office:value-type="string"><text:p>Date</text:p></table:table-cell><table:table-cell office:value-type="string"><text:p>Item</text:p></table:table-cell><table:table-cell office:value-type="string"><text:p>Amount</text:p></table:table-cell></table:table-row>
 <table:table-row><table:table-cell table:formula="of:=IF([.B2]=&quot;&quot;;&quot;&quot;;TODAY())" office:value-type="date" office:date-value="2021-02-05"><text:p>02/05/21</text:p></table:table-cell><table:table-cell office:value-type="string"><text:p>Hotel</text:p></table:table-cell><table:table-cell office:value-type="float" office:value="300"><text:p>300</text:p></table:table-cell></table:table-row>
 <table:table-row><table:table-cell table:formula="of:=IF([.B3]=&quot;&quot;;&quot;&quot;;TODAY())" office:value-type="date" office:date-value="2021-02-05"><text:p>02/05/21</text:p></table:table-cell><table:table-cell office:value-type="string"><text:p>Train</text:p></table:table-cell><table:table-cell office:value-type="float" office:value="90"><text:p>90</text:p></table:table-cell></table:table-row>
 <table:table-row><table:table-cell table:formula="of:=IF([.B4]=&quot;&quot;;&quot;&quot;;TODAY())" office:value-type="string" office:string-value=""><text:p/></table:table-cell><table:table-cell/><table:table-cell/></table:table-row>
 <table:table-row><table:table-cell table:formula="of:=NOW()" office:value-type="date" office:date-value="2021-02-05T17:30:00"><text:p>02/05/21 17:30</text:p></table:table-cell><table:table-cell office:value-type="string"><text:p>Total</text:p></table:table-cell><table:table-cell table:formula="of:=SUM([.C2:.C3])" office:value-type="float" office:value="390"><text:p>390</text:p></table:table-cell></table:table-row>
</table:table></office:spreadsheet></office:body>`;

const FODS = `<?xml version="1.0" encoding="UTF-8"?>
<office:document ${NS} office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.spreadsheet">${BODY}</office:document>`;

/** odsOf packs the same sheet as a zipped ODS */
function odsOf(): Uint8Array {
  return zipOf([
    { name: "mimetype", data: "application/vnd.oasis.opendocument.spreadsheet" },
    {
      name: "META-INF/manifest.xml",
      data: `<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>`,
    },
    { name: "content.xml", data: `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${NS} office:version="1.2">${BODY}</office:document-content>` },
  ]);
}

describe("savedVolatileCells", () => {
  test("reads the volatile cells, dates as ISO, an empty result as empty; a formula copied over repeated rows and columns is each copy", () => {
    const input = { bytes: new TextEncoder().encode(FODS), filename: "report.fods", contentType: "application/vnd.oasis.opendocument.spreadsheet", ext: "fods" };
    const saved = savedVolatileCells(input, "fods", convertContext());
    expect(saved?.get("Expenses")).toEqual(
      new Map([
        ["1:0", "2021-02-05"],
        ["2:0", "2021-02-05"],
        ["3:0", ""],
        ["4:0", "2021-02-05 17:30:00"],
      ]),
    );
    const repeated = `<office:document ${NS}><office:body><office:spreadsheet><table:table table:name="Draw"><table:table-row table:number-rows-repeated="2"><table:table-cell table:number-columns-repeated="2"/><table:table-cell table:number-columns-repeated="2" table:formula="of:=RAND()" office:value-type="float" office:value="0.25"><text:p>0.25</text:p></table:table-cell></table:table-row></table:table></office:spreadsheet></office:body></office:document>`;
    expect(savedVolatileCells({ ...input, bytes: new TextEncoder().encode(repeated) }, "fods", convertContext())?.get("Draw")).toEqual(
      new Map([
        ["0:2", "0.25"],
        ["0:3", "0.25"],
        ["1:2", "0.25"],
        ["1:3", "0.25"],
      ]),
    );
    const plain = FODS.replace(/TODAY\(\)|NOW\(\)/g, "1");
    expect(savedVolatileCells({ ...input, bytes: new TextEncoder().encode(plain) }, "fods", convertContext())).toBeNull();
  });
});

test("through the service: an ODS and a flat ODS keep their saved dates; today's date appears nowhere", async () => {
  const server = await startServer();
  try {
    const key = (await server.key()).key;
    const today = new Date().toISOString().slice(0, 10);
    for (const [name, bytes] of [
      ["report.ods", odsOf()],
      ["report.fods", new TextEncoder().encode(FODS)],
    ] as const) {
      const response = await api(server, key, "POST", "/api/v1/markdown/convert", form({ file: new File([Buffer.from(bytes)], name, { type: "application/octet-stream" }) }));
      expect(response.status).toBe(200);
      const markdown: string = response.body.markdown;
      // before odsSaved.ts: "| <today> | Hotel | 300 |", "| <today> | Train | 90 |" and "<today> hh:mm:ss" for NOW()
      expect(markdown).toContain("| 2021-02-05 | Hotel | 300 |");
      expect(markdown).toContain("| 2021-02-05 | Train | 90 |");
      expect(markdown).toContain("| 2021-02-05 17:30:00 | Total | 390 |");
      expect(markdown).not.toContain(today);
    }
  } finally {
    await server.stop();
  }
}, 180_000);
