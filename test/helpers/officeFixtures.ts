/**
 * makeOfficeFixtures writes three small source documents (flat ODF XML) and has LibreOffice store
 * each in every office format the service accepts, once per directory (files that exist are kept,
 * so a shared cache dir makes later runs instant). One soffice run does all of it: a Python UNO
 * script (Debian's /usr/bin/python3 with python3-uno) starts soffice, loads each source once and
 * stores it with each export filter.
 *
 * What each fixture carries, for tests to assert:
 * - text (doc, dot, docx, docm, dotx, odt, ott, fodt, rtf, txt): a "Quarterly Report" heading (Heading 1,
 *   also the document title), the paragraph "Sales grew in every region this quarter.", a bullet
 *   list "Revenue up 12%", "Two new customers", "Costs held flat", a 3x3 table
 *   Item | Qty | Price / Widgets | 42 | 3.50 / Gadgets | 7 | 12.00, then "End of report."
 *   (txt is plain UTF-8 text of the same content.)
 * - spreadsheet (xls, xlt, xlsx, xlsm, xltx, ods, ots, fods, csv): one sheet "Sales" with
 *   Region | Units / North | 120 / South | 80 (numbers are numeric cells; csv has no sheet name).
 * - presentation (ppt, pps, pot, pptx, pptm, potx, ppsx, odp, otp, fodp): slide 1 titled "Roadmap" with
 *   bullets "Ship version 2 in March", "Open the Berlin office" and the speaker note "Remember the
 *   demo"; slide 2 titled "Budget" with the bullet "Total spend 1.2 million".
 * - encrypted_odt, encrypted_doc, encrypted_xls: the text (or spreadsheet) document saved with the
 *   password "secret" (keys, not extensions: their files are named encrypted.<ext>).
 * - pages: an iWork Pages '09 document (a ZIP holding index.xml in Apple's "sl" XML, which
 *   LibreOffice reads through libetonyek) with the paragraphs "Quarterly Report",
 *   "Sales grew in every region this quarter." and "Widgets 42 3.50".
 * - numbers: an iWork Numbers '09 spreadsheet (index.xml in Apple's "ls" XML) with one table
 *   "Sales" (LibreOffice names the sheet after it): Region | Units / North | 120 / South | 80,
 *   the numbers as numeric cells.
 * - key: an iWork Keynote '09 presentation (index.apxl in Apple's "keynote2" XML) with the same two
 *   slides as the presentation formats: text boxes "Roadmap" and "Ship version 2 in March", "Open
 *   the Berlin office", the note "Remember the demo"; then "Budget" and "Total spend 1.2 million".
 *   The slide titles are plain text boxes, not title placeholders: without a theme, LibreOffice 7.4's
 *   libetonyek 0.1.10 imported a key:title-placeholder as an empty box.
 * - big_fodt: the text document's paragraph repeated 60,000 times (a slow conversion, for deadlines).
 * - corrupt_docx: a ZIP-looking file cut short, which no program can open.
 */
import { zipOf } from "./zip";

/** storedZip builds a ZIP without compression (method 0) from file names and texts. */
const storedZip = (files: Record<string, string>) => zipOf(Object.entries(files).map(([name, data]) => ({ name, data, stored: true })));
import { existsSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { runProcess } from "../../src/tools/process";

/** TEXT_FORMATS / SHEET_FORMATS / SLIDE_FORMATS: extension -> LibreOffice export filter */
const TEXT_FORMATS: Record<string, string> = {
  doc: "MS Word 97",
  dot: "MS Word 97 Vorlage",
  docx: "MS Word 2007 XML",
  docm: "MS Word 2007 XML VBA",
  dotx: "MS Word 2007 XML Template",
  odt: "writer8",
  ott: "writer8_template",
  rtf: "Rich Text Format",
};
const SHEET_FORMATS: Record<string, string> = {
  xls: "MS Excel 97",
  xlt: "MS Excel 97 Vorlage/Template",
  xlsx: "Calc MS Excel 2007 XML",
  xlsm: "Calc MS Excel 2007 VBA XML",
  xltx: "Calc MS Excel 2007 XML Template",
  ods: "calc8",
  ots: "calc8_template",
};
const SLIDE_FORMATS: Record<string, string> = {
  ppt: "MS PowerPoint 97",
  pps: "MS PowerPoint 97 AutoPlay",
  pot: "MS PowerPoint 97 Vorlage",
  pptx: "Impress MS PowerPoint 2007 XML",
  pptm: "Impress MS PowerPoint 2007 XML VBA",
  potx: "Impress MS PowerPoint 2007 XML Template",
  ppsx: "Impress MS PowerPoint 2007 XML AutoPlay",
  odp: "impress8",
  otp: "impress8_template",
};
/** ENCRYPTED: key -> [source, file name, filter]; stored with the password "secret" */
const ENCRYPTED: Record<string, [string, string, string]> = {
  encrypted_odt: ["report.fodt", "encrypted.odt", "writer8"],
  encrypted_doc: ["report.fodt", "encrypted.doc", "MS Word 97"],
  encrypted_xls: ["sales.fods", "encrypted.xls", "MS Excel 97"],
};

export const FIXTURE_PASSWORD = "secret";

export async function makeOfficeFixtures(dir: string): Promise<Record<string, string>> {
  await mkdir(dir, { recursive: true });
  const paths: Record<string, string> = {};
  const jobs: Array<{ src: string; out: string; filter: string; password?: string }> = [];
  const sources = { text: join(dir, "report.fodt"), sheet: join(dir, "sales.fods"), slides: join(dir, "roadmap.fodp") };
  await writeIfMissing(sources.text, REPORT_FODT);
  await writeIfMissing(sources.sheet, SALES_FODS);
  await writeIfMissing(sources.slides, ROADMAP_FODP);
  paths.fodt = sources.text;
  paths.fods = sources.sheet;
  paths.fodp = sources.slides;
  await writeIfMissing((paths.txt = join(dir, "report.txt")), REPORT_TXT);
  await writeIfMissing((paths.csv = join(dir, "sales.csv")), "Region,Units\nNorth,120\nSouth,80\n");
  await writeIfMissing((paths.big_fodt = join(dir, "big.fodt")), bigText(60_000));
  await writeIfMissing((paths.pages = join(dir, "report.pages")), storedZip({ "index.xml": PAGES_INDEX_XML }));
  await writeIfMissing((paths.numbers = join(dir, "sales.numbers")), storedZip({ "index.xml": NUMBERS_INDEX_XML }));
  await writeIfMissing((paths.key = join(dir, "roadmap.key")), storedZip({ "index.apxl": KEYNOTE_INDEX_APXL }));
  await writeIfMissing((paths.corrupt_docx = join(dir, "corrupt.docx")), CORRUPT_DOCX);

  const plan: Array<[string, string, Record<string, string>]> = [
    [sources.text, "report", TEXT_FORMATS],
    [sources.sheet, "sales", SHEET_FORMATS],
    [sources.slides, "roadmap", SLIDE_FORMATS],
  ];
  for (const [src, base, formats] of plan) {
    for (const [ext, filter] of Object.entries(formats)) {
      const out = join(dir, `${base}.${ext}`);
      paths[ext] = out;
      if (!existsSync(out)) jobs.push({ src, out, filter });
    }
  }
  for (const [key, [src, name, filter]] of Object.entries(ENCRYPTED)) {
    const out = join(dir, name);
    paths[key] = out;
    if (!existsSync(out)) jobs.push({ src: join(dir, src), out, filter, password: FIXTURE_PASSWORD });
  }
  if (jobs.length) {
    await storeWithLibreOffice(dir, jobs);
    await rm(join(dir, ".soffice"), { recursive: true, force: true });
  }
  for (const [key, path] of Object.entries(paths)) {
    if (!existsSync(path)) throw new Error(`office fixture ${key} was not produced at ${path}`);
  }
  return paths;
}

async function writeIfMissing(path: string, content: string | Uint8Array): Promise<void> {
  if (!existsSync(path)) await writeFile(path, content);
}

/** storeWithLibreOffice runs the UNO script once for all jobs, with a profile of its own */
async function storeWithLibreOffice(dir: string, jobs: Array<{ src: string; out: string; filter: string; password?: string }>): Promise<void> {
  const work = join(dir, ".soffice");
  await mkdir(work, { recursive: true });
  const script = join(work, "store.py");
  await writeFile(script, STORE_SCRIPT);
  const pipeName = `docintel_fixtures_${process.pid}_${Date.now()}`;
  await runProcess("/usr/bin/python3", [script, join(work, "profile"), pipeName], {
    stdin: JSON.stringify(jobs),
    timeoutMs: 240_000,
    what: "make office fixtures",
    sandbox: { dirs: [dir] }, // soffice and the script share the sandbox's /tmp, where the UNO pipe lives
  });
}

function bigText(paragraphs: number): string {
  const body = Array.from({ length: paragraphs }, (_, i) => `<text:p>Paragraph ${i + 1}: sales grew in every region this quarter, and the report goes on.</text:p>`).join("\n");
  return REPORT_FODT.replace("<text:p>End of report.</text:p>", `${body}\n<text:p>End of report.</text:p>`);
}



/** PAGES_INDEX_XML: the body text storage of a Pages '09 document, all libetonyek needs */
const PAGES_INDEX_XML = `<?xml version="1.0"?>
<sl:document xmlns:sfa="http://developer.apple.com/namespaces/sfa" xmlns:sf="http://developer.apple.com/namespaces/sf" xmlns:sl="http://developer.apple.com/namespaces/sl" sl:version="92008102400">
<sf:text-storage sf:kind="body" sfa:ID="SFWPStorage-0"><sf:text-body><sf:p>Quarterly Report</sf:p><sf:p>Sales grew in every region this quarter.</sf:p><sf:p>Widgets 42 3.50</sf:p></sf:text-body></sf:text-storage>
</sl:document>
`;

/**
 * NUMBERS_INDEX_XML: a Numbers '09 workspace holding one table, the path libetonyek's NUM1Parser
 * follows (ls:document > ls:workspace-array > ls:workspace > ls:page-info > sf:layers > sf:layer >
 * sf:drawables > sf:tabular-info > sf:tabular-model). The grid needs its column and row sizes before
 * the datasource; cells fill it row by row, and the first one moves to column 0 with sf:ct="0".
 */
const NUMBERS_INDEX_XML = `<?xml version="1.0"?>
<ls:document xmlns:sfa="http://developer.apple.com/namespaces/sfa" xmlns:sf="http://developer.apple.com/namespaces/sf" xmlns:ls="http://developer.apple.com/namespaces/ls" ls:version="92008102400">
<ls:workspace-array><ls:workspace><ls:page-info><sf:layers><sf:layer><sf:drawables>
<sf:tabular-info><sf:tabular-model sf:name="Sales"><sf:grid sf:numrows="3" sf:numcols="2">
<sf:columns><sf:grid-column sf:width="100"/><sf:grid-column sf:width="100"/></sf:columns>
<sf:rows><sf:grid-row sf:height="20"/><sf:grid-row sf:height="20"/><sf:grid-row sf:height="20"/></sf:rows>
<sf:datasource><sf:t sf:ct="0"><sf:ct sfa:s="Region"/></sf:t><sf:t><sf:ct sfa:s="Units"/></sf:t><sf:t><sf:ct sfa:s="North"/></sf:t><sf:n sf:v="120"/><sf:t><sf:ct sfa:s="South"/></sf:t><sf:n sf:v="80"/></sf:datasource>
</sf:grid></sf:tabular-model></sf:tabular-info>
</sf:drawables></sf:layer></sf:layers></ls:page-info></ls:workspace></ls:workspace-array>
</ls:document>
`;

/** keynoteTextBox: a rectangle shape at x,y (points) of w x h carrying the paragraphs; libetonyek drops a shape without a path */
function keynoteTextBox(x: number, y: number, w: number, h: number, paragraphs: string[]): string {
  const body = paragraphs.map((p) => `<sf:p>${p}</sf:p>`).join("");
  return `<sf:shape><sf:geometry><sf:naturalSize sfa:w="${w}" sfa:h="${h}"/><sf:position sfa:x="${x}" sfa:y="${y}"/></sf:geometry><sf:path><sf:scalar-path sf:type="0" sf:scalar="0"><sf:size sfa:w="${w}" sfa:h="${h}"/></sf:scalar-path></sf:path><sf:text><sf:text-storage sf:kind="textbox"><sf:text-body>${body}</sf:text-body></sf:text-storage></sf:text></sf:shape>`;
}

/** keynoteSlide: one slide of a title box, a body box and optionally a speaker note */
function keynoteSlide(title: string, bullets: string[], note?: string): string {
  const notes = note ? `<key:notes><sf:text-storage sf:kind="note"><sf:text-body><sf:p>${note}</sf:p></sf:text-body></sf:text-storage></key:notes>` : "";
  return `<key:slide><key:page><sf:layers><sf:layer><sf:drawables>
${keynoteTextBox(50, 30, 700, 80, [title])}
${keynoteTextBox(50, 150, 700, 300, bullets)}
</sf:drawables></sf:layer></sf:layers></key:page>${notes}</key:slide>`;
}

/** KEYNOTE_INDEX_APXL: a Keynote '09 (key:version 92008102400) presentation of two 800 x 600 slides, no theme */
const KEYNOTE_INDEX_APXL = `<?xml version="1.0"?>
<key:presentation xmlns:sfa="http://developer.apple.com/namespaces/sfa" xmlns:sf="http://developer.apple.com/namespaces/sf" xmlns:key="http://developer.apple.com/namespaces/keynote2" key:version="92008102400">
<key:size sfa:w="800" sfa:h="600"/>
<key:slide-list>
${keynoteSlide("Roadmap", ["Ship version 2 in March", "Open the Berlin office"], "Remember the demo")}
${keynoteSlide("Budget", ["Total spend 1.2 million"])}
</key:slide-list>
</key:presentation>
`;

/** CORRUPT_DOCX: a local ZIP header of word/document.xml and then nothing */
const CORRUPT_DOCX = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00, 0x08, 0x00, ...new TextEncoder().encode("word/document.xml garbage garbage garbage")]);

const REPORT_TXT = `Quarterly Report

Sales grew in every region this quarter.

- Revenue up 12%
- Two new customers
- Costs held flat

Item\tQty\tPrice
Widgets\t42\t3.50
Gadgets\t7\t12.00

End of report.
`;

const REPORT_FODT = `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0" office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">
 <office:meta><dc:title>Quarterly Report</dc:title></office:meta>
 <office:styles>
  <style:style style:name="Heading_20_1" style:display-name="Heading 1" style:family="paragraph" style:default-outline-level="1"><style:text-properties fo:font-size="18pt" fo:font-weight="bold"/></style:style>
 </office:styles>
 <office:automatic-styles>
  <text:list-style style:name="Bullets"><text:list-level-style-bullet text:level="1" text:bullet-char="•"><style:list-level-properties text:space-before="0.25in" text:min-label-width="0.25in"/></text:list-level-style-bullet></text:list-style>
 </office:automatic-styles>
 <office:body><office:text>
  <text:h text:style-name="Heading_20_1" text:outline-level="1">Quarterly Report</text:h>
  <text:p>Sales grew in every region this quarter.</text:p>
  <text:list text:style-name="Bullets">
   <text:list-item><text:p>Revenue up 12%</text:p></text:list-item>
   <text:list-item><text:p>Two new customers</text:p></text:list-item>
   <text:list-item><text:p>Costs held flat</text:p></text:list-item>
  </text:list>
  <table:table table:name="Products">
   <table:table-column table:number-columns-repeated="3"/>
   <table:table-row><table:table-cell office:value-type="string"><text:p>Item</text:p></table:table-cell><table:table-cell office:value-type="string"><text:p>Qty</text:p></table:table-cell><table:table-cell office:value-type="string"><text:p>Price</text:p></table:table-cell></table:table-row>
   <table:table-row><table:table-cell office:value-type="string"><text:p>Widgets</text:p></table:table-cell><table:table-cell office:value-type="string"><text:p>42</text:p></table:table-cell><table:table-cell office:value-type="string"><text:p>3.50</text:p></table:table-cell></table:table-row>
   <table:table-row><table:table-cell office:value-type="string"><text:p>Gadgets</text:p></table:table-cell><table:table-cell office:value-type="string"><text:p>7</text:p></table:table-cell><table:table-cell office:value-type="string"><text:p>12.00</text:p></table:table-cell></table:table-row>
  </table:table>
  <text:p>End of report.</text:p>
 </office:text></office:body>
</office:document>
`;

const SALES_FODS = `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.spreadsheet">
 <office:body><office:spreadsheet>
  <table:table table:name="Sales">
   <table:table-row><table:table-cell office:value-type="string"><text:p>Region</text:p></table:table-cell><table:table-cell office:value-type="string"><text:p>Units</text:p></table:table-cell></table:table-row>
   <table:table-row><table:table-cell office:value-type="string"><text:p>North</text:p></table:table-cell><table:table-cell office:value-type="float" office:value="120"><text:p>120</text:p></table:table-cell></table:table-row>
   <table:table-row><table:table-cell office:value-type="string"><text:p>South</text:p></table:table-cell><table:table-cell office:value-type="float" office:value="80"><text:p>80</text:p></table:table-cell></table:table-row>
  </table:table>
 </office:spreadsheet></office:body>
</office:document>
`;

const ROADMAP_FODP = `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.presentation">
 <office:styles/>
 <office:automatic-styles>
  <style:page-layout style:name="PM1"><style:page-layout-properties fo:page-width="28cm" fo:page-height="15.75cm" style:print-orientation="landscape"/></style:page-layout>
 </office:automatic-styles>
 <office:master-styles>
  <style:master-page style:name="Default" style:page-layout-name="PM1"/>
 </office:master-styles>
 <office:body><office:presentation>
  <draw:page draw:name="Roadmap" draw:master-page-name="Default" presentation:presentation-page-layout-name="AL1T1">
   <draw:frame presentation:class="title" svg:x="2cm" svg:y="1cm" svg:width="24cm" svg:height="2.5cm"><draw:text-box><text:p>Roadmap</text:p></draw:text-box></draw:frame>
   <draw:frame presentation:class="outline" svg:x="2cm" svg:y="4cm" svg:width="24cm" svg:height="10cm"><draw:text-box><text:list><text:list-item><text:p>Ship version 2 in March</text:p></text:list-item><text:list-item><text:p>Open the Berlin office</text:p></text:list-item></text:list></draw:text-box></draw:frame>
   <presentation:notes><draw:page-thumbnail presentation:class="page" svg:x="2cm" svg:y="2cm" svg:width="17cm" svg:height="9.5cm"/><draw:frame presentation:class="notes" svg:x="2cm" svg:y="13cm" svg:width="17cm" svg:height="10cm"><draw:text-box><text:p>Remember the demo</text:p></draw:text-box></draw:frame></presentation:notes>
  </draw:page>
  <draw:page draw:name="Budget" draw:master-page-name="Default" presentation:presentation-page-layout-name="AL1T1">
   <draw:frame presentation:class="title" svg:x="2cm" svg:y="1cm" svg:width="24cm" svg:height="2.5cm"><draw:text-box><text:p>Budget</text:p></draw:text-box></draw:frame>
   <draw:frame presentation:class="outline" svg:x="2cm" svg:y="4cm" svg:width="24cm" svg:height="10cm"><draw:text-box><text:list><text:list-item><text:p>Total spend 1.2 million</text:p></text:list-item></text:list></draw:text-box></draw:frame>
  </draw:page>
 </office:presentation></office:body>
</office:document>
`;

/**
 * STORE_SCRIPT: argv profile_dir pipe_name; stdin a JSON list of {src, out, filter, password?}.
 * Starts its own soffice (same process group, so runProcess's kill on timeout ends it too), loads
 * each source once and stores it with each filter, then terminates soffice.
 */
const STORE_SCRIPT = String.raw`
import json, subprocess, sys, time, uno
from com.sun.star.beans import PropertyValue

def prop(name, value):
    p = PropertyValue()
    p.Name = name
    p.Value = value
    return p

profile, pipe = sys.argv[1], sys.argv[2]
jobs = json.load(sys.stdin)
office = subprocess.Popen(["soffice", "--headless", "--invisible", "--norestore", "--nologo", "--nodefault",
    "-env:UserInstallation=" + uno.systemPathToFileUrl(profile), "--accept=pipe,name=%s;urp;" % pipe],
    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
local = uno.getComponentContext()
resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
deadline = time.time() + 120
while True:
    try:
        ctx = resolver.resolve("uno:pipe,name=%s;urp;StarOffice.ComponentContext" % pipe)
        break
    except Exception:
        if time.time() > deadline or office.poll() is not None:
            office.kill()
            sys.exit("soffice did not accept a connection")
        time.sleep(0.2)
desktop = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
failed = []
for src in sorted(set(job["src"] for job in jobs)):
    doc = desktop.loadComponentFromURL(uno.systemPathToFileUrl(src), "_blank", 0, (prop("Hidden", True),))
    if doc is None:
        failed.append(src)
        continue
    for job in jobs:
        if job["src"] != src:
            continue
        props = [prop("FilterName", job["filter"]), prop("Overwrite", True)]
        if job.get("password"):
            props.append(prop("Password", job["password"]))
        try:
            doc.storeToURL(uno.systemPathToFileUrl(job["out"]), tuple(props))
        except Exception as error:
            failed.append("%s (%s)" % (job["out"], error))
    doc.close(True)
try:
    desktop.terminate()
except Exception:
    pass
try:
    office.wait(timeout=30)
except Exception:
    office.kill()
if failed:
    sys.exit("could not produce: " + ", ".join(failed))
`;
