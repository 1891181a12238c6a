/**
 * PDF fixtures for the layout tests, written as flat ODF text documents (.fodt) and printed to PDF
 * by LibreOffice in one soffice run (a temp profile, the tool sandbox). Fonts are DejaVu (Debian's
 * fonts-dejavu-core, which LibreOffice depends on), so every machine prints the same lines.
 *
 * What each carries, for tests to assert:
 * - paper: three pages of a paper in 10 pt with a running header "Optimized Table Tokenization" and a page
 *   number in the footer; an 18 pt title "Table Structure Recognition"; numbered section titles in
 *   bold 10 pt ("1 Introduction", "2 Method", "2.1 Hyper Parameter Optimization", "3 Results") and
 *   an unnumbered "Acknowledgements" the same way; footnotes 1 and 2 (after "approaches," and
 *   "benchmarks."); words with soft hyphens ("lever­age", "trans­form­ers", "archi­tec­ture") in
 *   justified paragraphs; a numbered list with a hanging indent right after a paragraph; a table
 *   with a two-row header (a "Score" group over "Precision" and "Recall") and rows grouped under
 *   "Printed" and "Handwritten".
 * - twocolumn: a title across the page, then a two-column section: the left column's paragraphs
 *   start "Left column paragraph N", the right column's "Right column paragraph N".
 * - cells: a table of three columns (Identifier 3 cm, Description 7 cm, Units 3 cm) whose identifier
 *   "49e168b7-d2ae-407f-a055-2167576f39a1" and descriptions wrap over several lines in their cells.
 * - grouped: a table whose header cells sit at the bottom of a two-row header: "Tables" spans "TEDS"
 *   and "mAP" and stands alone on the first line; "Split", "Model", "Speed" span both rows. Rows:
 *   PubTabNet OTSL 0.95 0.88 2.1 / FinTabNet OTSL 0.96 0.90 1.9 / PubTables HTML 0.93 0.85 4.4.
 * - lists: a bullet list in OpenSymbol bullets with a nested level: Clothes (Two shirts, A warm
 *   jacket), Documents (Passport), Snacks; between "Bring the following:" and "Check the weather
 *   before leaving."
 * - outline: headings in bold 10 pt like the text, as outline levels that LibreOffice exports as
 *   bookmarks: "Overview" (1), "Scope and Limits" (2), "Procedure" (1), each over a paragraph.
 * - book: about six pages under "Chapter One" whose running header alternates: odd pages
 *   "Optimized Table Tokenization N", even pages "N M. Lysak, A. Nassar et al.".
 * - letter: two pages with the header "ACME Corp, Customer Support" and the footer "Page N of 2",
 *   from "Dear customer," to "Kind regards, the support team".
 * - manual: about three pages under outline headings in bold 10 pt ("Field Operations Manual" (1), "Daily
 *   Checks" (2), "Weekly Checks" (2)), with a two-line running header whose first line is the
 *   first heading's title ("Field Operations Manual" / "Revision 3, internal use only") and page numbers.
 * - slides: two pages like slides: a 36 pt title ("Quarterly Review", "Slide 2") over 32 pt text.
 * - bold: headings in bold 10 pt like the text, unnumbered and not a usual section name ("Getting
 *   Started", "Choosing a Site", "Packing Up"), each over a paragraph, under an 18 pt title "Field
 *   Guide"; and bold text that is not a heading: the list lead-in "You will need:" over bullets
 *   ("A tent", "A stove"), a bold word opening a paragraph ("Note the weather changes fast in the
 *   hills."), a table whose header row is bold (Item | Weight; Tent | 2 kg; Stove | 1 kg) and a
 *   bold label "Total:" over "3 kg in all."; an address in bold, its first line ending a
 *   paragraph ("Send the kit ahead to the site:" / "NORTH RIDGE CAMP"), its second a paragraph of
 *   its own ("HIGHLAND, SCOTLAND") over prose.
 * - inventory: a table of 90 rows over three pages under the running header "Parts Inventory",
 *   its header row (Code | Part | Stock) repeated on each page; rows "P-001 | Part 1 | 11" to
 *   "P-090 | Part 90 | 100" (stock right-aligned); "All parts were counted in March ..." before, "Missing parts are
 *   reordered at the end of the month." after.
 * - wrappedHeader, typewriter, titles: see wrappedHeaderBody, typewriterBody and titlesBody below.
 * - arabic: an Arabic heading "الإنتاجية الزراعية" and the paragraph "تحسين الإنتاجية في المزارع الصغيرة",
 *   a Hebrew paragraph "שלום עולם", the paragraph "لا يقبل الطلب خلال العطلة" (two lam-alef ligatures outside
 *   the article), a long Arabic paragraph in a left-to-right paragraph (RTL_IN_LTR_PARAGRAPH), and a right-to-left table (its first column at the right):
 *   المنطقة | الإنتاج | المزارع over two rows of a region and two figures.
 * - arabicColumns: a right-to-left report in two columns (arabicColumnsBody).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runProcess } from "../../src/tools/process";

const NS = [
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"',
  'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"',
  'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"',
  'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"',
  'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"',
  'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"',
].join(" ");

/** fodt wraps body XML in a flat ODF text document with the styles the fixtures use. */
function fodt(body: string, o: { header?: string; headerLeft?: string; footer?: string; pageNumbers?: boolean; font?: string } = {}): string {
  const font = o.font ?? "DejaVu Serif";
  return `<?xml version="1.0" encoding="UTF-8"?>
<office:document ${NS} office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">
<office:styles>
  <style:default-style style:family="paragraph"><style:paragraph-properties fo:hyphenation-ladder-count="no-limit"/><style:text-properties fo:font-family="'${font}'" fo:font-size="10pt" fo:language="en" fo:country="US"/></style:default-style>
  <style:style style:name="Standard" style:family="paragraph"><style:paragraph-properties fo:margin-bottom="0.2cm" fo:text-align="justify"/></style:style>
  <style:style style:name="Title" style:family="paragraph"><style:paragraph-properties fo:margin-bottom="0.4cm" fo:text-align="center"/><style:text-properties fo:font-size="18pt" fo:font-weight="bold"/></style:style>
  <style:style style:name="Section" style:family="paragraph"><style:paragraph-properties fo:margin-top="0.3cm" fo:margin-bottom="0.15cm"/><style:text-properties fo:font-weight="bold"/></style:style>
  <style:style style:name="Cell" style:family="paragraph"><style:text-properties fo:font-size="9pt"/></style:style>
  <style:style style:name="Header" style:family="paragraph"><style:paragraph-properties fo:text-align="center"/><style:text-properties fo:font-size="8pt" fo:font-style="italic"/></style:style>
  <style:style style:name="Footnote" style:family="paragraph"><style:text-properties fo:font-size="8pt"/></style:style>
  <text:list-style style:name="Numbered">
    <text:list-level-style-number text:level="1" style:num-suffix="." style:num-format="1"><style:list-level-properties text:list-level-position-and-space-mode="label-alignment"><style:list-level-label-alignment text:label-followed-by="listtab" text:list-tab-stop-position="1cm" fo:text-indent="-0.6cm" fo:margin-left="1cm"/></style:list-level-properties></text:list-level-style-number>
  </text:list-style>
  <text:list-style style:name="Bullets">
    <text:list-level-style-bullet text:level="1" text:bullet-char="•"><style:list-level-properties text:list-level-position-and-space-mode="label-alignment"><style:list-level-label-alignment text:label-followed-by="listtab" text:list-tab-stop-position="1cm" fo:text-indent="-0.5cm" fo:margin-left="1cm"/></style:list-level-properties><style:text-properties style:font-name="OpenSymbol"/></text:list-level-style-bullet>
    <text:list-level-style-bullet text:level="2" text:bullet-char="◦"><style:list-level-properties text:list-level-position-and-space-mode="label-alignment"><style:list-level-label-alignment text:label-followed-by="listtab" text:list-tab-stop-position="2cm" fo:text-indent="-0.5cm" fo:margin-left="2cm"/></style:list-level-properties><style:text-properties style:font-name="OpenSymbol"/></text:list-level-style-bullet>
  </text:list-style>
  <text:notes-configuration text:note-class="footnote" style:num-format="1" text:start-value="0" text:footnotes-position="page" text:start-numbering-at="document"/>
</office:styles>
<office:automatic-styles>
  <style:page-layout style:name="pm1"><style:page-layout-properties fo:page-width="21cm" fo:page-height="29.7cm" fo:margin-top="1.5cm" fo:margin-bottom="1.5cm" fo:margin-left="2.5cm" fo:margin-right="2.5cm"/><style:header-style><style:header-footer-properties fo:min-height="0.6cm" fo:margin-bottom="0.4cm"/></style:header-style><style:footer-style><style:header-footer-properties fo:min-height="0.6cm" fo:margin-top="0.4cm"/></style:footer-style></style:page-layout>
  <style:style style:name="TwoColumns" style:family="section"><style:section-properties><style:columns fo:column-count="2" fo:column-gap="1cm"/></style:section-properties></style:style>
  <style:style style:name="Rtl" style:family="paragraph" style:parent-style-name="Standard"><style:paragraph-properties style:writing-mode="rl-tb" fo:text-align="end"/></style:style>
  <style:style style:name="LeftAligned" style:family="paragraph" style:parent-style-name="Standard"><style:paragraph-properties fo:text-align="start"/></style:style>
  <style:style style:name="RtlColumns" style:family="section"><style:section-properties style:writing-mode="rl-tb"><style:columns fo:column-count="2" fo:column-gap="1cm"/></style:section-properties></style:style>
  <style:style style:name="RtlCentred" style:family="paragraph" style:parent-style-name="Rtl"><style:paragraph-properties fo:text-align="center"/><style:text-properties fo:font-size="18pt" fo:font-weight="bold" style:font-size-complex="18pt" style:font-weight-complex="bold"/></style:style>
  <style:style style:name="RtlHead" style:family="paragraph" style:parent-style-name="Rtl"><style:paragraph-properties fo:margin-top="0.3cm"/><style:text-properties fo:font-size="13pt" fo:font-weight="bold" style:font-size-complex="13pt" style:font-weight-complex="bold"/></style:style>
  <style:style style:name="RtlHeadNextColumn" style:family="paragraph" style:parent-style-name="Rtl"><style:paragraph-properties fo:break-before="column"/><style:text-properties fo:font-size="13pt" fo:font-weight="bold" style:font-size-complex="13pt" style:font-weight-complex="bold"/></style:style>
  <style:style style:name="RtlTitle" style:family="paragraph" style:parent-style-name="Rtl"><style:text-properties fo:font-size="16pt" fo:font-weight="bold" style:font-size-complex="16pt" style:font-weight-complex="bold"/></style:style>
  <style:style style:name="Break" style:family="paragraph" style:parent-style-name="Section"><style:paragraph-properties fo:break-before="page"/></style:style>
  <style:style style:name="Bottom" style:family="table-cell"><style:table-cell-properties style:vertical-align="bottom"/></style:style>
  <style:style style:name="Narrow" style:family="table-column"><style:table-column-properties style:column-width="3cm"/></style:style>
  <style:style style:name="Wide" style:family="table-column"><style:table-column-properties style:column-width="7cm"/></style:style>
  <style:style style:name="CellRight" style:family="paragraph" style:parent-style-name="Cell"><style:paragraph-properties fo:text-align="end"/></style:style>
  <style:style style:name="Ruled" style:family="table-cell"><style:table-cell-properties fo:padding="0.05cm" fo:border="0.5pt solid #000000"/></style:style>
  <style:style style:name="Strong" style:family="text"><style:text-properties fo:font-weight="bold"/></style:style>
  <style:style style:name="SlideTitle" style:family="paragraph"><style:paragraph-properties fo:text-align="center" fo:margin-bottom="3cm"/><style:text-properties fo:font-size="36pt"/></style:style>
  <style:style style:name="SlideText" style:family="paragraph"><style:paragraph-properties fo:text-align="center"/><style:text-properties fo:font-size="32pt"/></style:style>
  <style:style style:name="CentreBold" style:family="paragraph"><style:paragraph-properties fo:text-align="center" fo:margin-top="0.3cm" fo:margin-bottom="0.15cm"/><style:text-properties fo:font-weight="bold"/></style:style>
  <style:style style:name="CaptionLabel" style:family="paragraph"><style:paragraph-properties fo:margin-top="0.3cm"/><style:text-properties fo:font-size="8pt" fo:font-weight="bold"/></style:style>
  <style:style style:name="CaptionTitle" style:family="paragraph"><style:paragraph-properties fo:margin-bottom="0.2cm"/><style:text-properties fo:font-weight="bold"/></style:style>
  <style:style style:name="Super" style:family="text"><style:text-properties style:text-position="45% 58%"/></style:style>
  <style:style style:name="Sub" style:family="text"><style:text-properties style:text-position="-33% 58%"/></style:style>
  <style:style style:name="HangingBold" style:family="paragraph"><style:paragraph-properties fo:margin-top="0.3cm" fo:margin-bottom="0.15cm" fo:margin-left="0.6cm" fo:text-indent="-0.6cm" fo:text-align="start"/><style:text-properties fo:font-weight="bold"/></style:style>
  <style:style style:name="CellSpaced" style:family="paragraph" style:parent-style-name="Cell"><style:paragraph-properties fo:margin-bottom="0.2cm"/></style:style>
  <style:style style:name="GridHead" style:family="paragraph"><style:paragraph-properties fo:margin-top="0cm" fo:margin-bottom="0cm" fo:text-align="start"/><style:text-properties fo:font-weight="bold"/></style:style>
  <style:style style:name="GridText" style:family="paragraph"><style:paragraph-properties fo:margin-top="0cm" fo:margin-bottom="0cm" fo:text-align="justify"/></style:style>
  <style:style style:name="Mono" style:family="paragraph"><style:paragraph-properties fo:text-align="start"/><style:text-properties style:font-name="DejaVu Sans Mono" fo:font-family="'DejaVu Sans Mono'" fo:font-size="9pt"/></style:style>
  <style:style style:name="PaddedBottom" style:family="table-cell"><style:table-cell-properties fo:padding="0.1cm" style:vertical-align="bottom"/></style:style>
  <style:style style:name="RtlTable" style:family="table"><style:table-properties style:width="8cm" table:align="right" style:writing-mode="rl-tb"/></style:style>
  <style:style style:name="SlimTable" style:family="table"><style:table-properties style:width="9.5cm" table:align="left"/></style:style>
  <style:style style:name="Slim" style:family="table-column"><style:table-column-properties style:column-width="1.9cm"/></style:style>
  <style:style style:name="SlideBreak" style:family="paragraph"><style:paragraph-properties fo:text-align="center" fo:margin-bottom="3cm" fo:break-before="page"/><style:text-properties fo:font-size="36pt"/></style:style>
</office:automatic-styles>
<office:master-styles><style:master-page style:name="Standard" style:page-layout-name="pm1">${o.header ? `<style:header><text:p text:style-name="Header">${o.header}</text:p></style:header>` : ""}${o.headerLeft ? `<style:header-left><text:p text:style-name="Header">${o.headerLeft}</text:p></style:header-left>` : ""}${o.pageNumbers ? `<style:footer><text:p text:style-name="Header"><text:page-number text:select-page="current"/></text:p></style:footer>` : ""}${o.footer ? `<style:footer><text:p text:style-name="Header">${o.footer}</text:p></style:footer>` : ""}</style:master-page></office:master-styles>
<office:body><office:text>
${body}
</office:text></office:body></office:document>`;
}

const p = (text: string, style = "Standard") => `<text:p text:style-name="${style}">${text}</text:p>`;
const note = (n: number, text: string) => `<text:note text:id="ftn${n}" text:note-class="footnote"><text:note-citation>${n}</text:note-citation><text:note-body>${p(text, "Footnote")}</text:note-body></text:note>`;

/** FILLER: sentences for justified paragraphs; words with soft hyphens (U+00AD) may break at a line end. */
const FILLER = [
  "Modern document pipelines lever\u00adage trans\u00adform\u00aders to read page images, and their archi\u00adtec\u00adture decides how much of the layout survives.",
  "Table structure recognition is the hardest part, because rows and columns are implied by alignment rather than drawn.",
  "We compare token sequences that describe cells with sequences that describe tags, and we report both speed and accuracy on public collections.",
  "Each experiment was repeated five times with different seeds, and the variation between runs stayed below one point.",
];

function paragraph(seed: number, sentences = 5): string {
  return Array.from({ length: sentences }, (_, i) => FILLER[(seed + i) % FILLER.length]).join(" ");
}

function paperBody(): string {
  const cell = (text: string, attrs = "") => `<table:table-cell office:value-type="string"${attrs}>${p(text, "Cell")}</table:table-cell>`;
  const covered = "<table:covered-table-cell/>";
  const table = `<table:table table:name="Results"><table:table-column table:number-columns-repeated="4"/>
    <table:table-header-rows>
      <table:table-row>${cell("Split", ' table:number-rows-spanned="2"')}${cell("Model", ' table:number-rows-spanned="2"')}${cell("Score", ' table:number-columns-spanned="2"')}${covered}</table:table-row>
      <table:table-row>${covered}${covered}${cell("Precision")}${cell("Recall")}</table:table-row>
    </table:table-header-rows>
    <table:table-row>${cell("Printed", ' table:number-rows-spanned="2"')}${cell("Baseline")}${cell("0.91")}${cell("0.88")}</table:table-row>
    <table:table-row>${covered}${cell("Ours")}${cell("0.95")}${cell("0.93")}</table:table-row>
    <table:table-row>${cell("Handwritten", ' table:number-rows-spanned="2"')}${cell("Baseline")}${cell("0.72")}${cell("0.69")}</table:table-row>
    <table:table-row>${covered}${cell("Ours")}${cell("0.81")}${cell("0.78")}</table:table-row>
  </table:table>`;
  const list = `<text:list text:style-name="Numbered">${[
    "Collect the pages and print every document to PDF with the same settings, so that the layouts are comparable across the whole set of files.",
    "Convert each PDF and compare the structure found with the structure of the source document, heading by heading and cell by cell.",
    "Report the share of headings and table cells that were found.",
  ]
    .map((item) => `<text:list-item>${p(item)}</text:list-item>`)
    .join("")}</text:list>`;
  return [
    p("Table Structure Recognition", "Title"),
    p("1 Introduction", "Section"),
    p(`${paragraph(0)} Earlier work used rule-based approaches,${note(1, "Rule-based systems date back to the early nineties.")} which break on unusual layouts. ${paragraph(1)}`),
    p(paragraph(2, 8)),
    p("2 Method", "Section"),
    p(`${paragraph(3, 6)} Our evaluation follows three steps:`),
    list,
    p(paragraph(1, 8)),
    p("2.1 Hyper Parameter Optimization", "Break"),
    p(`${paragraph(2, 6)} We tuned on public benchmarks.${note(2, "The benchmarks are listed in the appendix.")} ${paragraph(0, 4)}`),
    p(paragraph(3, 8)),
    p("3 Results", "Section"),
    p("Table 1 gives the scores per split and model."),
    table,
    p(paragraph(0, 8)),
    p(paragraph(2, 10)),
    p(paragraph(1, 10)),
    p("Acknowledgements", "Section"),
    p("We thank the maintainers of the public collections."),
  ].join("\n");
}

function twoColumnBody(): string {
  const column = (side: string) => Array.from({ length: 4 }, (_, i) => p(`${side} column paragraph ${i + 1}. ${paragraph(i, 3)}`)).join("\n");
  return [p("Two Column Report", "Title"), `<text:section text:style-name="TwoColumns" text:name="Body">${column("Left")}\n<text:soft-page-break/>${column("Right")}</text:section>`].join("\n");
}

function groupHeaderBody(): string {
  const cell = (text: string, attrs = "") => `<table:table-cell table:style-name="Bottom" office:value-type="string"${attrs}>${p(text, "Cell")}</table:table-cell>`;
  const covered = "<table:covered-table-cell/>";
  const row = (...cells: string[]) => `<table:table-row>${cells.join("")}</table:table-row>`;
  return [
    p("Results by split and model, on the held-out pages of each collection."),
    `<table:table table:name="Grouped"><table:table-column table:number-columns-repeated="5"/>
      ${row(cell("Split", ' table:number-rows-spanned="2"'), cell("Model", ' table:number-rows-spanned="2"'), cell("Tables", ' table:number-columns-spanned="2"'), covered, cell("Speed", ' table:number-rows-spanned="2"'))}
      ${row(covered, covered, cell("TEDS"), cell("mAP"), covered)}
      ${row(cell("PubTabNet"), cell("OTSL"), cell("0.95"), cell("0.88"), cell("2.1"))}
      ${row(cell("FinTabNet"), cell("OTSL"), cell("0.96"), cell("0.90"), cell("1.9"))}
      ${row(cell("PubTables"), cell("HTML"), cell("0.93"), cell("0.85"), cell("4.4"))}
    </table:table>`,
    p("Speed is in seconds per page."),
  ].join("\n");
}

function wrappedCellsBody(): string {
  const cell = (text: string) => `<table:table-cell office:value-type="string">${p(text, "Cell")}</table:table-cell>`;
  const row = (...cells: string[]) => `<table:table-row>${cells.map(cell).join("")}</table:table-row>`;
  return [
    p("Components", "Title"),
    p("The parts below are tracked by identifier."),
    `<table:table table:name="Parts"><table:table-column table:style-name="Narrow"/><table:table-column table:style-name="Wide"/><table:table-column table:style-name="Narrow"/>
      ${row("Identifier", "Description", "Units")}
      ${row("49e168b7-d2ae-407f-a055-2167576f39a1", "Pressure sensor for the intake manifold, calibrated at the factory and sealed against moisture", "12")}
      ${row("A-100", "Bracket", "4")}
      ${row("B-220", "Wiring harness with connectors on both ends and a protective sleeve over its whole length", "2")}
    </table:table>`,
    p("All parts were counted on the first of the month."),
  ].join("\n");
}

function listsBody(): string {
  const item = (text: string, sub = "") => `<text:list-item>${p(text)}${sub}</text:list-item>`;
  const list = (items: string) => `<text:list text:style-name="Bullets">${items}</text:list>`;
  return [
    p("Packing list", "Title"),
    p("Bring the following:"),
    list(item("Clothes", list(item("Two shirts") + item("A warm jacket"))) + item("Documents", list(item("Passport"))) + item("Snacks")),
    p("Check the weather before leaving."),
  ].join("\n");
}

function bookBody(): string {
  return [p("Chapter One", "Title"), ...Array.from({ length: 22 }, (_, i) => p(paragraph(i, 7)))].join("\n");
}

function letterBody(): string {
  return [p("Dear customer,"), ...Array.from({ length: 9 }, (_, i) => p(paragraph(i, 6))), p("Kind regards, the support team")].join("\n");
}

function outlineBody(): string {
  const h = (level: number, text: string) => `<text:h text:style-name="Section" text:outline-level="${level}">${text}</text:h>`;
  return [h(1, "Overview"), p(paragraph(0, 3)), h(2, "Scope and Limits"), p(paragraph(1, 3)), h(1, "Procedure"), p(paragraph(2, 3))].join("\n");
}

function manualBody(): string {
  const h = (level: number, text: string) => `<text:h text:style-name="Section" text:outline-level="${level}">${text}</text:h>`;
  return [h(1, "Field Operations Manual"), p(paragraph(0, 6)), h(2, "Daily Checks"), ...Array.from({ length: 5 }, (_, i) => p(paragraph(i, 7))), h(2, "Weekly Checks"), ...Array.from({ length: 5 }, (_, i) => p(paragraph(i + 1, 7)))].join("\n");
}

function slideBody(): string {
  return [p("Quarterly Review", "SlideTitle"), p("Revenue grew", "SlideText"), p("Slide 2", "SlideBreak"), p("Costs held flat", "SlideText")].join("\n");
}

function boldBody(): string {
  const strong = (text: string) => `<text:span text:style-name="Strong">${text}</text:span>`;
  const cell = (text: string) => `<table:table-cell office:value-type="string">${p(text, "Cell")}</table:table-cell>`;
  const row = (...cells: string[]) => `<table:table-row>${cells.map(cell).join("")}</table:table-row>`;
  const item = (text: string) => `<text:list-item>${p(text)}</text:list-item>`;
  return [
    p("Field Guide", "Title"),
    p("Getting Started", "Section"),
    p(paragraph(0, 3)),
    p("Choosing a Site", "Section"),
    p(paragraph(1, 3)),
    p("You will need:", "Section"),
    `<text:list text:style-name="Bullets">${item("A tent")}${item("A stove")}</text:list>`,
    p(`${strong("Note")} the weather changes fast in the hills.`),
    `<table:table table:name="Kit"><table:table-column table:number-columns-repeated="2"/>
      ${row(strong("Item"), strong("Weight"))}
      ${row("Tent", "2 kg")}
      ${row("Stove", "1 kg")}
    </table:table>`,
    p("Total:", "Section"),
    p("3 kg in all."),
    p(`Send the kit ahead to the site:<text:line-break/>${strong("NORTH RIDGE CAMP")}`),
    p(strong("HIGHLAND, SCOTLAND")),
    p(paragraph(3, 2)),
    p("Packing Up", "Section"),
    p(paragraph(2, 2)),
  ].join("\n");
}

function inventoryBody(): string {
  const cell = (text: string, style = "Cell") => `<table:table-cell office:value-type="string">${p(text, style)}</table:table-cell>`;
  const row = (code: string, part: string, stock: string) => `<table:table-row>${cell(code)}${cell(part)}${cell(stock, "CellRight")}</table:table-row>`;
  const rows = Array.from({ length: 90 }, (_, i) => row(`P-${String(i + 1).padStart(3, "0")}`, `Part ${i + 1}`, String(i + 11)));
  return [
    p("All parts were counted in March at the main warehouse, shelf by shelf."),
    `<table:table table:name="Inventory"><table:table-column table:number-columns-repeated="3"/>
      <table:table-header-rows>${row("Code", "Part", "Stock")}</table:table-header-rows>
      ${rows.join("\n")}
    </table:table>`,
    p("Missing parts are reordered at the end of the month."),
  ].join("\n");
}

function arabicBody(): string {
  return [
    p("الإنتاجية الزراعية", "RtlTitle"),
    p("تحسين الإنتاجية في المزارع الصغيرة", "Rtl"),
    p("שלום עולם", "Rtl"),
    p("لا يقبل الطلب خلال العطلة", "Rtl"),
    p(RTL_IN_LTR_PARAGRAPH, "LeftAligned"),
    `<table:table table:name="Regions" table:style-name="RtlTable"><table:table-column table:number-columns-repeated="3"/>
      ${[["المنطقة", "الإنتاج", "المزارع"], ["الشمال", "120", "14"], ["الجنوب", "95", "9"]].map((cells) => `<table:table-row>${cells.map((text) => `<table:table-cell office:value-type="string">${p(text, "Rtl")}</table:table-cell>`).join("")}</table:table-row>`).join("\n")}
    </table:table>`,
  ].join("\n");
}

/** RTL_IN_LTR_PARAGRAPH: Arabic set in a left-to-right paragraph aligned at its start (lines start at the left), long enough to wrap */
export const RTL_IN_LTR_PARAGRAPH =
  "تقدم الجمعية خدمات التدريب المهني للشباب في القرى والمدن الصغيرة وتساعدهم على إيجاد عمل مناسب بعد التخرج من المدارس الثانوية والمعاهد الفنية في جميع المحافظات ومن ثم متابعة تقدمهم في العمل";

/** RTL_COLUMN_PARAGRAPHS: the paragraphs of arabicColumnsBody, as typed */
export const RTL_COLUMN_PARAGRAPHS = [
  "تعتمد الزراعة في المناطق الريفية على مياه الأمطار والآبار الجوفية، ويعمل فيها أكثر من نصف السكان في مواسم الحصاد. وقد ساعدت برامج التدريب المزارعين على استخدام أساليب حديثة للري وتحسين جودة البذور.",
  "تواجه القرى نقصا في الطرق المعبدة ومرافق التخزين، مما يرفع تكلفة نقل المحاصيل إلى الأسواق في المدن ويقلل دخل الأسر.",
  "نمت الصناعة في المدن الكبيرة بفضل الاستثمار في الطاقة والنقل، وارتفع عدد المصانع الصغيرة التي تنتج مواد البناء والأغذية والمنسوجات للسوق المحلية والتصدير.",
];

/**
 * arabicColumnsBody: a report written right to left in two columns, its first column at the right:
 * a centred title over both, "الزراعة" and two paragraphs in the right column, "الصناعة" and one
 * paragraph in the left (a column break before it); paragraphs ragged at their left, where a line
 * written right to left ends.
 */
function arabicColumnsBody(): string {
  const [farming, villages, industry] = RTL_COLUMN_PARAGRAPHS;
  return [
    p("تقرير التنمية المحلية", "RtlCentred"),
    `<text:section text:style-name="RtlColumns" text:name="RtlBody">${[p("الزراعة", "RtlHead"), p(farming!, "Rtl"), p(villages!, "Rtl"), p("الصناعة", "RtlHeadNextColumn"), p(industry!, "Rtl")].join("\n")}</text:section>`,
  ].join("\n");
}

/**
 * ruledBody: a table drawn with rules on every cell, cells close together (padding 0.05 cm): a
 * header spanning two columns over two labels, a label spanning two rows, an empty cell, a row
 * with one cell of text, a cell of two lines; then a ruled table of 60 rows that goes on to the
 * next page with its header repeated.
 */
function ruledBody(): string {
  const cell = (text: string, attrs = "") => `<table:table-cell table:style-name="Ruled" office:value-type="string"${attrs}>${text ? p(text, "Cell") : ""}</table:table-cell>`;
  const covered = "<table:covered-table-cell/>";
  const row = (...cells: string[]) => `<table:table-row>${cells.join("")}</table:table-row>`;
  const long = Array.from({ length: 60 }, (_, i) => row(cell(`L-${String(i + 1).padStart(3, "0")}`), cell(i % 3 ? "open" : "closed"), cell(String(10 + i)))).join("\n");
  return [
    p("Ruled Tables", "Title"),
    p("Sales by region and year, as reported by each office."),
    `<table:table table:name="Sales"><table:table-column table:number-columns-repeated="4"/>
      ${row(cell("Region", ' table:number-rows-spanned="2"'), cell("Sales", ' table:number-columns-spanned="2"'), covered, cell("Notes", ' table:number-rows-spanned="2"'))}
      ${row(covered, cell("2023"), cell("2024"), covered)}
      ${row(cell("North"), cell("12"), cell("15"), cell(""))}
      ${row(cell("South"), cell(""), cell("9"), cell("opened in 2024"))}
      ${row(cell("West"), cell("7"), cell("8"), cell(`first line<text:line-break/>second line`))}
      ${row(cell("Total"), cell(""), cell(""), cell(""))}
    </table:table>`,
    p("Every ticket of the quarter follows."),
    `<table:table table:name="Tickets"><table:table-column table:number-columns-repeated="3"/>
      <table:table-header-rows>${row(cell("Ticket"), cell("State"), cell("Hours"))}</table:table-header-rows>
      ${long}
    </table:table>`,
    p("The quarter closed with these tickets."),
  ].join("\n");
}

/**
 * ruledFormBody: a form drawn with rules on every box, as tax forms and invoice headers are: boxes
 * of differing widths row by row (spanning the grid's columns), holding a label over its value,
 * then boxes each holding a "Label: value". Its text must stay text, not become a table.
 */
function ruledFormBody(): string {
  const cell = (text: string, span = 1) =>
    `<table:table-cell table:style-name="Ruled" office:value-type="string"${span > 1 ? ` table:number-columns-spanned="${span}"` : ""}>${p(text, "Cell")}</table:table-cell>`;
  const covered = (n: number) => "<table:covered-table-cell/>".repeat(n);
  const row = (...cells: string[]) => `<table:table-row>${cells.join("")}</table:table-row>`;
  const field = (label: string, value: string, span = 1) => cell(`${label}<text:line-break/>${value}`, span) + covered(span - 1);
  return [
    p("Application Form", "Title"),
    p("Fill in every box in capitals."),
    `<table:table table:name="Applicant"><table:table-column table:number-columns-repeated="6"/>
      ${row(field("Name", "Jane Example", 3), field("Date of birth", "12/03/1980", 2), field("Phone", "555 0142"))}
      ${row(field("Address", "12 Oak Street", 4), field("ZIP code", "62704", 2))}
      ${row(field("Employer", "Acme Tools Ltd", 2), field("Start date", "01/09/2015"), field("Salary", "48,200.00", 3))}
    </table:table>`,
    p("Billing details follow."),
    `<table:table table:name="Billing"><table:table-column table:number-columns-repeated="6"/>
      ${row(cell("Invoice no: 4471", 2) + covered(1), cell("Due date: 2024-05-01", 4) + covered(3))}
      ${row(cell("Customer: Acme Ltd", 3) + covered(2), cell("Account: 00912"), cell("Currency: EUR", 2) + covered(1))}
      ${row(cell("Order: PO-5512", 5) + covered(4), cell("Tax: 21.40"))}
    </table:table>`,
    p("Sign and date the form."),
  ].join("\n");
}

/**
 * ruledCellsBody: ruled tables of close cells (padding 0.05 cm). Payments: a right-aligned amount
 * ends at its column's rule and the next cell's text starts just after it, so pdf.js gives both as
 * one text run across the rule ("1,250.00 EUR"); each must still land in its own cell. Terms: two
 * columns of words, one row under a bold header row (no figure tells it from a form's labels and values but
 * the bold). Batches: a code too long for its column, which LibreOffice breaks where it meets
 * the cell's edge, and a row whose one filled cell holds two lines. Boxes: a grid of figures only,
 * some boxes empty (no header of words, no two rows alike).
 */
function ruledCellsBody(): string {
  const cell = (text: string, style = "Cell") => `<table:table-cell table:style-name="Ruled" office:value-type="string">${text ? p(text, style) : ""}</table:table-cell>`;
  const row = (...cells: string[]) => `<table:table-row>${cells.join("")}</table:table-row>`;
  const payment = (item: string, amount: string, currency: string, state: string) => row(cell(item), cell(amount, "CellRight"), cell(currency), cell(state));
  const bold = (text: string) => `<text:span text:style-name="Strong">${text}</text:span>`;
  return [
    p("Payments received in May, by item, as the bank reported them at the end of the month."),
    `<table:table table:name="Payments"><table:table-column table:number-columns-repeated="4"/>
      ${payment("Item", "Amount", "Currency", "State")}
      ${payment("Widgets", "1,250.00", "EUR", "paid")}
      ${payment("Gears", "980.50", "USD", "open")}
      ${payment("Bolts", "12,400.75", "GBP", "paid")}
    </table:table>`,
    p("Open items are chased weekly. The terms used in this report are explained below."),
    `<table:table table:name="Terms"><table:table-column table:number-columns-repeated="2"/>
      ${row(cell(bold("Meaning")), cell(bold("Term")))}
      ${row(cell("Working days from an order until it is delivered"), cell("Lead time"))}
    </table:table>`,
    p("Every batch shipped in May carries a tracking code."),
    `<table:table table:name="Batches"><table:table-column table:number-columns-repeated="3"/>
      ${row(cell(bold("Batch")), cell(bold("Tracking code")), cell(bold("Site")))}
      ${row(cell("B-17"), cell("7f3a9c2e1b4d6f8a0c2e4b6d8f0a1b2c3d4e5f6a"), cell("Leeds"))}
      ${row(cell("Pending<text:line-break/>approval"), cell(""), cell(""))}
      ${row(cell("B-18"), cell("short-code"), cell("York"))}
    </table:table>`,
    p("Batches are kept for a year. Boxes packed per line and shift:"),
    `<table:table table:name="Boxes"><table:table-column table:number-columns-repeated="3"/>
      ${row(cell("110"), cell("120"), cell("130"))}
      ${row(cell("140"), cell(""), cell("160"))}
      ${row(cell(""), cell(""), cell("190"))}
    </table:table>`,
    p("Empty boxes mean the line stood still."),
  ].join("\n");
}

/**
 * wrappedHeaderBody: a table without rules in columns of 1.9 cm (cells padded 0.1 cm) whose header
 * cells wrap over two to four lines, set at the bottom of the header row: "Dose (ppm)", then "Body Weight (g)" and "Weight
 * Relative to Controls (%)" for day 1 and again for day 7, over rows of figures in two groups, each
 * under a row of one label ("Male", "Female").
 */
function wrappedHeaderBody(): string {
  const cell = (text: string, style = "Cell") => `<table:table-cell table:style-name="PaddedBottom" office:value-type="string">${p(text, style)}</table:table-cell>`;
  const row = (...cells: string[]) => `<table:table-row>${cells.map((c) => (c ? cell(c) : `<table:table-cell table:style-name="PaddedBottom"/>`)).join("")}</table:table-row>`;
  return [
    p("Mean body weights by dose, as weighed on days 1 and 7 of the study."),
    `<table:table table:name="Weights" table:style-name="SlimTable"><table:table-column table:style-name="Slim" table:number-columns-repeated="5"/>
      ${row("Dose (ppm)", "Body Weight (g)", "Weight Relative to Controls (%)", "Body Weight (g)", "Weight Relative to Controls (%)")}
      ${row("Male", "", "", "", "")}
      ${row("0", "5.8", "100", "13.5", "100")}
      ${row("250", "5.9", "102", "13.6", "101")}
      ${row("500", "6.0", "103", "13.0", "96")}
      ${row("Female", "", "", "", "")}
      ${row("0", "5.4", "100", "12.7", "100")}
      ${row("250", "5.6", "104", "12.9", "102")}
      ${row("1,000", "5.5", "102", "12.4", "98")}
    </table:table>`,
    p("Weights were taken before feeding."),
  ].join("\n");
}

/**
 * typewriterBody: a table typed in a monospaced font, its figures right-aligned in fixed-width
 * fields, so the widest figures of neighbouring columns are one space apart (rows 12-19 and
 * 20-29), the others two or more.
 */
function typewriterBody(): string {
  const spaced = (text: string) => text.replace(/ {2,}/g, (run) => ` <text:s text:c="${run.length - 1}"/>`);
  const rows = [
    ["Age", "Male", "Female", "Total"],
    ["1-2", "647,701", "639,327", "1,287,028"],
    ["3-5", "935,862", "938,510", "1,874,372"],
    ["6-11", "1,770,525", "1,732,954", "3,503,479"],
    ["12-19", "12,191,327", "12,218,406", "24,409,733"],
    ["20-29", "12,194,990", "12,776,284", "24,971,274"],
    ["80+", "138,000", "338,819", "476,819"],
  ];
  const line = (cells: string[]) => cells[0]!.padEnd(6) + cells.slice(1).map((cell) => cell.padStart(11)).join("");
  return [p("Population by age group and sex, from the combined sample."), ...rows.map((cells) => p(spaced(line(cells)), "Mono")), p("Counts are weighted to the census totals.")].join("\n");
}

/**
 * titlesBody: headings of two lines and a caption of three. "SECTION III" over "Age-adjustment and
 * trends analyses" in bold 10 pt at the left, broken by hand, over a paragraph; "Results of the
 * Survey" over "by Region and Year" in bold 10 pt, centred, over a paragraph; a caption "TABLE 6"
 * in bold 8 pt over its title in bold 10 pt on two lines ("Mean Weights of Parts" / "by Batch and
 * Shift"), over a table of figures.
 */
function titlesBody(): string {
  const cell = (text: string) => `<table:table-cell office:value-type="string">${p(text, "Cell")}</table:table-cell>`;
  const row = (...cells: string[]) => `<table:table-row>${cells.map(cell).join("")}</table:table-row>`;
  return [
    p("Survey Methods", "Title"),
    p(paragraph(0, 3)),
    p("SECTION III<text:line-break/>Age-adjustment and trends analyses", "Section"),
    p(paragraph(1, 3)),
    p("Results of the Survey<text:line-break/>by Region and Year", "CentreBold"),
    p(paragraph(2, 3)),
    p("TABLE 6", "CaptionLabel"),
    p("Mean Weights of Parts<text:line-break/>by Batch and Shift", "CaptionTitle"),
    `<table:table table:name="PartWeights"><table:table-column table:number-columns-repeated="3"/>
      ${row("Batch", "Early", "Late")}
      ${row("A", "12.5", "12.9")}
      ${row("B", "11.8", "12.1")}
      ${row("C", "12.2", "12.4")}
    </table:table>`,
    p(paragraph(3, 2)),
  ].join("\n");
}

/**
 * reportBody: a report's shapes. Numbered bold titles ending in a full stop, the second over two
 * lines with a hanging indent ("1. Estimation of current average exposure of wildlife on a
 * nationwide basis." and "2. Estimation of deposition on a regional scale ... of each species."),
 * each over prose (the first after a sentence with a subscript and superscripts: "H" + lowered "2" + "O",
 * "10" + raised "22", "1" + raised "st"); a borderless table (Quantity | Name | Symbol, a bold header) whose symbols carry
 * raised superscripts ("m" + "2" raised 45% of the size), followed by the bold title "4.2", a tab,
 * "Derived units"; a ruled table of one band holding three rows without rules between them: a bold
 * group label "Stationary:", then "Major" and "Area" whose definitions and examples are paragraphs
 * starting on their label's line (Source | Definition | Examples); a bold "Counting Words" over the
 * short sentence "Perform a word count on content."; and, on a page of its own under
 * a bold "Methods", a two-column section whose left column has a bold title "Study Approach and
 * Sampling" on the line grid, beside the right column's prose at the same baseline.
 */
function reportBody(): string {
  const sup = (text: string) => `<text:span text:style-name="Super">${text}</text:span>`;
  const sub = (text: string) => `<text:span text:style-name="Sub">${text}</text:span>`;
  const bold = (text: string) => `<text:span text:style-name="Strong">${text}</text:span>`;
  const plainCell = (text: string) => `<table:table-cell office:value-type="string">${p(text, "Cell")}</table:table-cell>`;
  const plainRow = (...cells: string[]) => `<table:table-row>${cells.map(plainCell).join("")}</table:table-row>`;
  const ruledCell = (...paras: string[]) => `<table:table-cell table:style-name="Ruled" office:value-type="string">${paras.map((text) => p(text, "CellSpaced")).join("")}</table:table-cell>`;
  const ruledRow = (...cells: string[]) => `<table:table-row>${cells.join("")}</table:table-row>`;
  return [
    p("Exposure of Wildlife", "Title"),
    p(paragraph(0, 2)),
    p(`Water, H${sub("2")}O, holds about 3.3 × 10${sup("22")} molecules per gram in the 1${sup("st")} sample.`),
    p("1. Estimation of current average exposure of wildlife on a nationwide basis.", "HangingBold"),
    p(paragraph(1, 3)),
    p("2. Estimation of deposition on a regional scale and comparison of these deposition data with the distribution of each species.", "HangingBold"),
    p(paragraph(2, 3)),
    p("Table 1 gives the symbols of some derived units."),
    `<table:table table:name="Units"><table:table-column table:number-columns-repeated="3"/>
      ${plainRow(bold("Quantity"), bold("Name"), bold("Symbol"))}
      ${plainRow("area", "square meter", `m${sup("2")}`)}
      ${plainRow("volume", "cubic meter", `m${sup("3")}`)}
      ${plainRow("acceleration", "meter per second squared", `m/s${sup("2")}`)}
      ${plainRow("wavenumber", "reciprocal meter", `m${sup("-1")}`)}
    </table:table>`,
    p("4.2<text:tab/>Derived units", "Section"),
    p(paragraph(3, 2)),
    p("Table 2 lists the sources of air toxics."),
    `<table:table table:name="Sources"><table:table-column table:number-columns-repeated="3"/>
      ${ruledRow(ruledCell(bold("Source")), ruledCell(bold("Definition")), ruledCell(bold("Examples")))}
      ${ruledRow(
        ruledCell(bold("Stationary:"), "Major<text:line-break/> ", "Area"),
        ruledCell("", "Emissions of ten tons a year or more<text:line-break/>of any one air toxic", "Emissions of less than ten tons a year"),
        ruledCell("", "Refineries and steel<text:line-break/>manufacturers", "Dry cleaners and gas stations"),
      )}
    </table:table>`,
    p("Counting Words", "Section"),
    p("Perform a word count on content."),
    p(paragraph(1, 2)),
    p(paragraph(0, 2)),
    p("Methods", "Break"),
    `<text:section text:style-name="TwoColumns" text:name="Columns">
      ${p(paragraph(1, 2))}
      ${p("Study Approach and Sampling", "GridHead")}
      ${p(paragraph(2, 4))}
      ${p(paragraph(3, 4))}
    </text:section>`,
  ].join("\n");
}

export const PDF_FIXTURES = {
  report: () => fodt(reportBody()),
  paper: () => fodt(paperBody(), { header: "Optimized Table Tokenization", pageNumbers: true }),
  twocolumn: () => fodt(twoColumnBody()),
  arabic: () => fodt(arabicBody(), { font: "DejaVu Sans" }),
  arabicColumns: () => fodt(arabicColumnsBody(), { font: "DejaVu Sans" }),
  cells: () => fodt(wrappedCellsBody()),
  grouped: () => fodt(groupHeaderBody()),
  lists: () => fodt(listsBody()),
  outline: () => fodt(outlineBody()),
  book: () => fodt(bookBody(), { header: `Optimized Table Tokenization <text:page-number text:select-page="current"/>`, headerLeft: `<text:page-number text:select-page="current"/> M. Lysak, A. Nassar et al.` }),
  letter: () => fodt(letterBody(), { header: "ACME Corp, Customer Support", footer: `Page <text:page-number text:select-page="current"/> of <text:page-count/>` }),
  manual: () => fodt(manualBody(), { header: "Field Operations Manual<text:line-break/>Revision 3, internal use only", pageNumbers: true }),
  slides: () => fodt(slideBody(), { font: "DejaVu Sans" }),
  bold: () => fodt(boldBody()),
  inventory: () => fodt(inventoryBody(), { header: "Parts Inventory", pageNumbers: true }),
  ruled: () => fodt(ruledBody(), { header: "Quarterly Report", pageNumbers: true }),
  ruledForm: () => fodt(ruledFormBody()),
  ruledCells: () => fodt(ruledCellsBody()),
  wrappedHeader: () => fodt(wrappedHeaderBody()),
  typewriter: () => fodt(typewriterBody()),
  titles: () => fodt(titlesBody()),
};

/** makePdfFixtures prints every fixture to `dir`/NAME.pdf in one soffice run and returns the PDFs' bytes by name. */
export async function makePdfFixtures(dir: string): Promise<Record<keyof typeof PDF_FIXTURES, Uint8Array>> {
  mkdirSync(dir, { recursive: true });
  const names = Object.keys(PDF_FIXTURES) as Array<keyof typeof PDF_FIXTURES>;
  for (const name of names) writeFileSync(join(dir, `${name}.fodt`), PDF_FIXTURES[name]());
  await runProcess("soffice", ["--headless", "--norestore", `-env:UserInstallation=file://${join(dir, "profile")}`, "--convert-to", "pdf", "--outdir", dir, ...names.map((n) => join(dir, `${n}.fodt`))], {
    timeoutMs: 180_000,
    what: "print the PDF layout fixtures",
    sandbox: { dirs: [dir] },
  });
  return Object.fromEntries(names.map((n) => [n, new Uint8Array(readFileSync(join(dir, `${n}.pdf`)))])) as Record<keyof typeof PDF_FIXTURES, Uint8Array>;
}
