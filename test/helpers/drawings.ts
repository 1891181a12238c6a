/**
 * Hand-written fixtures of formats no tool here can write: a minimal Visio drawing (VSDX, an OPC
 * package of XML parts) and a minimal XPS document (an OPC package whose page draws glyphs with an
 * embedded TrueType font). Each carries the given lines of text.
 */
import { readFileSync } from "node:fs";
import { zipOf } from "./zip";

const xml = (body: string) => `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${body}`;
const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;");

/** vsdxOf writes a one-page Visio drawing with one rectangle shape per line of text. */
export function vsdxOf(lines: string[]): Uint8Array<ArrayBuffer> {
  const shapes = lines
    .map(
      (line, i) => `<Shape ID="${i + 1}" Type="Shape">
  <Cell N="PinX" V="4.25"/><Cell N="PinY" V="${9 - i * 1.5}"/><Cell N="Width" V="6"/><Cell N="Height" V="1"/>
  <Cell N="LocPinX" V="3" F="Width*0.5"/><Cell N="LocPinY" V="0.5" F="Height*0.5"/>
  <Section N="Geometry" IX="0"><Row T="MoveTo" IX="1"><Cell N="X" V="0"/><Cell N="Y" V="0"/></Row><Row T="LineTo" IX="2"><Cell N="X" V="6"/><Cell N="Y" V="0"/></Row><Row T="LineTo" IX="3"><Cell N="X" V="6"/><Cell N="Y" V="1"/></Row><Row T="LineTo" IX="4"><Cell N="X" V="0"/><Cell N="Y" V="1"/></Row><Row T="LineTo" IX="5"><Cell N="X" V="0"/><Cell N="Y" V="0"/></Row></Section>
  <Text>${escape(line)}</Text>
</Shape>`,
    )
    .join("\n");
  const ns = 'xmlns="http://schemas.microsoft.com/office/visio/2012/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
  return zipOf([
    {
      name: "[Content_Types].xml",
      data: xml(`<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="xml" ContentType="application/xml"/>
<Override PartName="/visio/document.xml" ContentType="application/vnd.ms-visio.drawing.main+xml"/>
<Override PartName="/visio/pages/pages.xml" ContentType="application/vnd.ms-visio.pages+xml"/>
<Override PartName="/visio/pages/page1.xml" ContentType="application/vnd.ms-visio.page+xml"/>
</Types>`),
    },
    { name: "_rels/.rels", data: xml(`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.microsoft.com/visio/2010/relationships/document" Target="visio/document.xml"/></Relationships>`) },
    { name: "visio/document.xml", data: xml(`<VisioDocument ${ns}><DocumentSettings/><Colors/><FaceNames/><StyleSheets/></VisioDocument>`) },
    { name: "visio/_rels/document.xml.rels", data: xml(`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.microsoft.com/visio/2010/relationships/pages" Target="pages/pages.xml"/></Relationships>`) },
    { name: "visio/pages/pages.xml", data: xml(`<Pages ${ns}><Page ID="0" NameU="Page-1" Name="Page-1"><PageSheet><Cell N="PageWidth" V="8.5"/><Cell N="PageHeight" V="11"/></PageSheet><Rel r:id="rId1"/></Page></Pages>`) },
    { name: "visio/pages/_rels/pages.xml.rels", data: xml(`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.microsoft.com/visio/2010/relationships/page" Target="page1.xml"/></Relationships>`) },
    { name: "visio/pages/page1.xml", data: xml(`<PageContents ${ns}><Shapes>\n${shapes}\n</Shapes></PageContents>`) },
  ]);
}

/** FONT: a TrueType font Debian installs with fonts-dejavu-core (in the Makefile's packages). */
const FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";

/** xpsOf writes a one-page XPS document that draws each line of text with DejaVu Sans. */
export function xpsOf(lines: string[]): Uint8Array<ArrayBuffer> {
  const glyphs = lines.map((line, i) => `<Glyphs Fill="#ff000000" FontUri="/Resources/font.ttf" FontRenderingEmSize="24" OriginX="96" OriginY="${150 + i * 48}" UnicodeString="${escape(line)}"/>`).join("\n");
  return zipOf([
    {
      name: "[Content_Types].xml",
      data: xml(`<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="fdseq" ContentType="application/vnd.ms-package.xps-fixeddocumentsequence+xml"/>
<Default Extension="fdoc" ContentType="application/vnd.ms-package.xps-fixeddocument+xml"/>
<Default Extension="fpage" ContentType="application/vnd.ms-package.xps-fixedpage+xml"/>
<Default Extension="ttf" ContentType="application/vnd.ms-opentype"/>
</Types>`),
    },
    { name: "_rels/.rels", data: xml(`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="R0" Type="http://schemas.microsoft.com/xps/2005/06/fixedrepresentation" Target="/FixedDocumentSequence.fdseq"/></Relationships>`) },
    { name: "FixedDocumentSequence.fdseq", data: xml(`<FixedDocumentSequence xmlns="http://schemas.microsoft.com/xps/2005/06"><DocumentReference Source="/Documents/1/FixedDocument.fdoc"/></FixedDocumentSequence>`) },
    { name: "Documents/1/FixedDocument.fdoc", data: xml(`<FixedDocument xmlns="http://schemas.microsoft.com/xps/2005/06"><PageContent Source="/Documents/1/Pages/1.fpage"/></FixedDocument>`) },
    { name: "Documents/1/Pages/1.fpage", data: xml(`<FixedPage xmlns="http://schemas.microsoft.com/xps/2005/06" Width="816" Height="1056" xml:lang="en-US">\n${glyphs}\n</FixedPage>`) },
    { name: "Resources/font.ttf", data: new Uint8Array(readFileSync(FONT)) },
  ]);
}
