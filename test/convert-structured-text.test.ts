/**
 * Text formats with structure that Docling also reads, through the real server: JATS journal
 * articles and USPTO patents (XML, recognised by their root element), AsciiDoc, and WebVTT / SRT
 * captions. Fixtures are real files from public repositories (test/fixtures/formats/README.md).
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { api, form, type TestServer, withServer } from "./helpers/server";

let server: TestServer;
let key: string;

withServer({}, (served) => ({ server, key } = served));

const FORMATS = join(import.meta.dir, "fixtures", "formats");

const convert = (bytes: Uint8Array | string, name: string) =>
  api(server, key, "POST", "/api/v1/markdown/convert", form({ file: new File([typeof bytes === "string" ? bytes : (bytes as Uint8Array<ArrayBuffer>)], name) }));

const fixture = (name: string) => new Uint8Array(readFileSync(join(FORMATS, name)));

describe("JATS journal articles", () => {
  test("PLOS ONE: title, authors, abstract, nested sections, lists, tables with captions, references", async () => {
    const { status, body } = await convert(fixture("jats_plos_one_cyanobacteria_tables.xml"), "pone.0178565.xml");
    expect(status).toBe(200);
    const md: string = body.markdown;
    expect(md).toStartWith("# Gene essentiality, conservation index and co-evolution of genes in cyanobacteria\n");
    expect(body.title).toBe("Gene essentiality, conservation index and co-evolution of genes in cyanobacteria");
    expect(md).toContain("\nGopi Siva Sai Tiruveedula, Pramod P. Wangikar\n");
    expect(md).toContain("\n## Abstract\n\nCyanobacteria, a group of photosynthetic prokaryotes");
    expect(md).toContain("\n## Materials and methods\n\n### Phylogenetic profile construction\n");
    expect(md).toContain("\n1. Conserved; with a GCI score of ≥ 95%,\n2. Semi-conserved;");
    expect(md).toContain("**Table 1** List of representatives of the conserved genes in our analysis.");
    expect(md).toContain("| UniProt IDs of Query Proteins | Protein Name | Gene Name | GO (Biological Process) | Pathway |");
    expect(md).toContain("| B1XP79 | Aconitate hydratase B | acnB<br>SYNPCC7002_A1683 |");
    expect(md).toContain("**Fig 4** Histogram of gene conservation index (GCI)");
    expect(md).toContain("\n## References\n\n1. Garcia-Pichel F, Belnap J, Neuer S, Schanz F. Estimates of global cyanobacterial biomass");
    // not the XML source, not the journal's metadata, not the academic editor's affiliation
    expect(md).not.toContain("```xml");
    expect(md).not.toContain("<mixed-citation");
    expect(md).not.toContain("National Center for Biotechnology Information");
  });

  test("recognised by its root element whatever the name, and the DTD's entities are never expanded or fetched", async () => {
    const hostile = [
      '<?xml version="1.0"?>',
      '<!DOCTYPE article PUBLIC "-//NLM//DTD JATS (Z39.96) Journal Publishing DTD v1.2 20190208//EN" "http://127.0.0.1:9/JATS.dtd" [',
      '  <!ENTITY secret SYSTEM "file:///etc/passwd">',
      '  <!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">',
      "]>",
      '<article xmlns:xlink="http://www.w3.org/1999/xlink" dtd-version="1.2"><front><article-meta><title-group><article-title>Budget &amp; units</article-title></title-group></article-meta></front>',
      "<body><sec><title>Findings</title><p>Leak: &secret; Bomb: &c; Dash: &#x2013; &mdash;</p></sec></body></article>",
    ].join("\n");
    const { status, body } = await convert(hostile, "upload.bin.xml");
    expect(status).toBe(200);
    expect(body.markdown).toStartWith("# Budget & units\n");
    expect(body.markdown).toContain("\n## Findings\n");
    expect(body.markdown).toContain("Dash: – —");
    expect(body.markdown).not.toContain("root:");
    expect(body.markdown).not.toContain("aaaaaaaaaa");
  });
});

describe("JATS articles nested deep (patents are parsed the same way)", () => {
  const nested = (depth: number) =>
    [
      '<?xml version="1.0"?><!DOCTYPE article PUBLIC "-//NLM//DTD JATS (Z39.96) Journal Archiving and Interchange DTD v1.2 20190208//EN" "JATS-archivearticle1.dtd">',
      "<article><front><article-meta><title-group><article-title>Nested</article-title></title-group></article-meta></front>",
      "<body><p>First paragraph.</p>",
      "<sec><title>Part</title><p>Words of one part.</p>".repeat(depth),
      "</sec>".repeat(depth),
      "<p>Last paragraph.</p></body></article>",
    ].join("");

  test("sections nested past the structure cap keep every word, flattened, and the response says so", async () => {
    const { status, body } = await convert(nested(300), "deep.xml");
    expect(status).toBe(200);
    expect(body.markdown.match(/Words of one part\./g)?.length).toBe(300);
    expect(body.markdown).toContain("Last paragraph.");
    expect(body.warnings.join(" ")).toContain("below 200 their text is written as plain paragraphs");
  });

  test("an article nested thousands deep is refused as unreadable, not cut to its first sections", async () => {
    const { status, body } = await convert(nested(50_000), "deeper.xml");
    expect(status).toBe(400);
    expect(body.error).toBe("unreadable_document");
    expect(body.detail).toContain("nests its elements more than 2000 deep");
  });

  test("an article of usual depth has no warning", async () => {
    const { status, body } = await convert(nested(5), "shallow.xml");
    expect(status).toBe(200);
    expect(body.markdown).toContain("###### Part");
    expect(body.warnings).toEqual([]);
  });
});

describe("superscripts, subscripts and footnotes in JATS and patents", () => {
  test("PLOS ONE (CC BY): <sup>/<sub> kept as tags, table footnote references as [^a] with the notes at the end", async () => {
    const { status, body } = await convert(fixture("jats_plos_one_cyanobacteria_tables.xml"), "pone.0178565.xml");
    expect(status).toBe(200);
    const md: string = body.markdown;
    expect(md).toContain("dominate the earth with ~ 10<sup>15</sup> g wet biomass");
    expect(md).toContain("and <sup>13</sup>C metabolic flux analysis (<sup>13</sup>C-MFA)");
    expect(md).toContain("\n- P<sub>1</sub> = Profile of gene 1, and\n");
    expect(md).toContain("| Pathway | Gene Name | Protein Name | GCI[^a] | Essentiality[^b] | Core Set[^c] | Structural Gene[^d] |");
    expect(md).toContain("\n[^a]: Gene Conservation Index: I: Conserved (present in ≥ 95% of organism cluster), II: Semi-conserved");
    expect(md).toContain("\n[^c]: Core Set \\[7\\]: Y: Yes (Conserved), N: No (Not Conserved).");
    expect(md.indexOf("[^a]: Gene Conservation")).toBeGreaterThan(md.indexOf("## References"));
    expect(md.match(/Gene Conservation Index: I/g)).toHaveLength(1);
  });

  test("JATS: an article footnote (fn-group) and a footnote written inside a paragraph as [^n]; a citation in superscript stays <sup>", async () => {
    // written for this test in the shape of a JATS 1.2 article
    const xml = [
      '<?xml version="1.0"?>',
      '<!DOCTYPE article PUBLIC "-//NLM//DTD JATS (Z39.96) Journal Archiving and Interchange DTD v1.2 20190208//EN" "JATS-archivearticle1.dtd">',
      '<article xmlns:xlink="http://www.w3.org/1999/xlink" dtd-version="1.2"><front><article-meta><title-group><article-title>Heavy water, D<sub>2</sub>O</article-title></title-group></article-meta></front>',
      '<body><sec><title>Results</title><p>Exchange rates near 10<sup>15</sup> s<sup>−1</sup> were seen<xref ref-type="fn" rid="fn1"><sup>1</sup></xref>, as reported before<sup><xref ref-type="bibr" rid="R1">4</xref></sup>.<fn id="fn2"><label>2</label><p>Measured at 25 °C.</p></fn></p></sec></body>',
      '<back><fn-group><fn id="fn1"><label>1</label><p>Recent approaches, see the methods.</p></fn></fn-group><ref-list><ref id="R1"><mixed-citation>Smith J. Isotopes. 2020.</mixed-citation></ref></ref-list></back></article>',
    ].join("\n");
    const { status, body } = await convert(xml, "article.xml");
    expect(status).toBe(200);
    expect(body.markdown).toStartWith("# Heavy water, D<sub>2</sub>O\n");
    expect(body.markdown).toContain("Exchange rates near 10<sup>15</sup> s<sup>−1</sup> were seen[^1], as reported before<sup>4</sup>.[^2]");
    expect(body.markdown).toEndWith("[^1]: Recent approaches, see the methods.\n[^2]: Measured at 25 °C.\n");
  });

  test("JATS: a titled group of notes in the back matter ('Competing interests') is a heading under its section's", async () => {
    // written for this test in the shape of an eLife article's back matter
    const xml = [
      '<?xml version="1.0"?>',
      '<article dtd-version="1.1"><front><article-meta><title-group><article-title>Segments</article-title></title-group></article-meta></front>',
      "<body><sec><title>Results</title><p>Domains are sharp.</p></sec></body>",
      '<back><sec sec-type="additional-information"><title>Additional information</title>',
      '<fn-group content-type="competing-interest"><title>Competing interests</title><fn fn-type="conflict" id="conf1"><p>The authors declare that no competing interests exist.</p></fn></fn-group>',
      '<fn-group content-type="author-contribution"><title>Author contributions</title><fn fn-type="con" id="con1"><p>SKB, Conception and design</p></fn></fn-group>',
      "</sec></back></article>",
    ].join("\n");
    const { status, body } = await convert(xml, "article.xml");
    expect(status).toBe(200);
    expect(body.markdown).toContain("## Additional information\n\n### Competing interests\n\nThe authors declare that no competing interests exist.\n\n### Author contributions\n\nSKB, Conception and design\n");
  });

  test("JATS: an element-citation prints its volume and pages apart, 'Development 127(4):3981–3992', and an article number after the volume", async () => {
    const xml = [
      '<?xml version="1.0"?>',
      '<article dtd-version="1.1"><front><article-meta><title-group><article-title>Homing</article-title></title-group></article-meta></front><body><p>Text.</p></body>',
      '<back><ref-list><title>References</title>',
      '<ref id="bib1"><element-citation publication-type="journal"><person-group person-group-type="author"><name><surname>Bender</surname><given-names>W</given-names></name><name><surname>Hudson</surname><given-names>A</given-names></name></person-group><year>2000</year><article-title>P element homing to the bithorax complex</article-title><source>Development</source><volume>127</volume><issue>4</issue><fpage>3981</fpage><lpage>3992</lpage></element-citation></ref>',
      '<ref id="bib2"><element-citation publication-type="journal"><person-group person-group-type="author"><name><surname>Bowman</surname><given-names>SK</given-names></name></person-group><year>2014</year><article-title>Domains</article-title><source>eLife</source><volume>3</volume><elocation-id>e02833</elocation-id></element-citation></ref>',
      "</ref-list></back></article>",
    ].join("\n");
    const { status, body } = await convert(xml, "article.xml");
    expect(status).toBe(200);
    expect(body.markdown).toContain("1. Bender W, Hudson A. 2000. P element homing to the bithorax complex. Development 127(4):3981–3992.\n");
    expect(body.markdown).toContain("2. Bowman SK. 2014. Domains. eLife 3:e02833.\n");
  });

  test("USPTO grant: sub and sup elements as <sub>/<sup>, spaces outside the tags", async () => {
    // written for this test in the shape of the grant DTD v4.5 (chemical formulas and units in claims and description)
    const xml = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<!DOCTYPE us-patent-grant SYSTEM "us-patent-grant-v45-2014-04-03.dtd" [ ]>',
      '<us-patent-grant lang="EN" dtd-version="v4.5 2014-04-03"><us-bibliographic-data-grant><invention-title id="d2e53">Carbon capture sorbent</invention-title></us-bibliographic-data-grant>',
      '<description id="description"><heading id="h-0001" level="1">DETAILED DESCRIPTION</heading><p id="p-0001" num="0001">The sorbent binds CO<sub>2 </sub>at 10<sup>5 </sup>Pa and 2 m<sup>2</sup>/g of Fe<sub>2</sub>O<sub>3</sub>.</p></description>',
      '<claims id="claims"><claim id="CLM-00001" num="00001"><claim-text>1. A sorbent that binds CO<sub>2</sub>.</claim-text></claim></claims></us-patent-grant>',
    ].join("\n");
    const { status, body } = await convert(xml, "US7654321.xml");
    expect(status).toBe(200);
    expect(body.markdown).toContain("The sorbent binds CO<sub>2</sub> at 10<sup>5</sup> Pa and 2 m<sup>2</sup>/g of Fe<sub>2</sub>O<sub>3</sub>.");
    expect(body.markdown).toContain("\n## Claims\n\n1. A sorbent that binds CO<sub>2</sub>.\n");
  });
});

describe("USPTO patents", () => {
  test("grant, DTD v4.5: title, abstract, description headings, claims as a numbered list with their steps", async () => {
    const { status, body } = await convert(fixture("uspto_grant_v45_wheeled_hand_truck.xml"), "US11147202-20211019.XML");
    expect(status).toBe(200);
    const md: string = body.markdown;
    expect(md).toStartWith("# Wheeled hand truck\n\n## Abstract\n\n");
    expect(md).toContain("\n## Description\n\n### FIELD OF THE INVENTION\n");
    expect(md).toContain("\n### DETAILED DESCRIPTION OF A PREFERRED EMBODIMENT\n");
    expect(md).toContain("\n## Claims\n\n1. A wheeled hand truck comprising:\n\n   (a) a footplate having front and rear ends;");
    expect(md).toMatch(/\n2\. The wheeled hand truck of claim 1 further comprising a “U” handle/);
    expect(md.indexOf("## Description")).toBeLessThan(md.indexOf("## Claims"));
    expect(md).not.toContain("<claim");
  });

  test("application, DTD v4.5: the description's headings", async () => {
    const { status, body } = await convert(fixture("uspto_application_v45_seed_distributor.xml"), "US20220159901A1.xml");
    expect(status).toBe(200);
    expect(body.markdown).toStartWith("# SEED DISTRIBUTOR USED FOR AGRICULTURAL MACHINES\n");
    expect(body.markdown).toContain("\n### SUMMARY OF THE INVENTION\n");
    expect(body.markdown).toContain("\n## Claims\n\n1. ");
  });

  test("grant in the older PATDOC DTD v2.5: sections from H elements, claims from CLM, reference numerals plain", async () => {
    const { status, body } = await convert(fixture("uspto_patdoc_v25_vacuum_cleaner.xml"), "US06530116.xml");
    expect(status).toBe(200);
    const md: string = body.markdown;
    expect(md).toStartWith("# Vacuum cleaner with muffled detachable blower exhaust\n\n## Abstract\n\nA vacuum cleaner includes a housing");
    expect(md).toContain("\n### BACKGROUND OF THE INVENTION\n");
    expect(md).toContain("FIG. 1 shows an embodiment of a vacuum cleaner 20 according to the present invention.");
    expect(md).toContain("\n## Claims\n\nWe claim:\n\n1. A vacuum cleaner comprising:\n\n   a housing having a housing passage");
    expect(md).toContain("\n2. The vacuum cleaner according to claim 1, wherein the housing is substantially circular");
  });
});

describe("USPTO patent tables", () => {
  test("a CALS table (spanning title row, column and row spans, entries placed by colname) as a GFM table", async () => {
    // written for this test in the shape of the grant DTD v4.5's tables (no permissively licensed sample with tables was found)
    const xml = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<!DOCTYPE us-patent-grant SYSTEM "us-patent-grant-v45-2014-04-03.dtd" [ ]>',
      '<us-patent-grant lang="EN" dtd-version="v4.5 2014-04-03"><us-bibliographic-data-grant><invention-title id="d2e53">Kinase inhibitors</invention-title></us-bibliographic-data-grant>',
      '<description id="description"><heading id="h-0001" level="1">EXAMPLES</heading><p id="p-0001" num="0001">Table 1 lists IC<sub>50 </sub>values.</p>',
      '<p id="p-0002" num="0002"><tables id="TABLE-US-00001" num="00001"><table frame="none" colsep="0" rowsep="0"><tgroup align="left" colsep="0" rowsep="0" cols="3">',
      '<colspec colname="1" colwidth="70pt"/><colspec colname="2" colwidth="70pt"/><colspec colname="3" colwidth="70pt"/>',
      '<thead><row><entry namest="1" nameend="3" rowsep="1">TABLE 1</entry></row>',
      '<row><entry morerows="1">Compound</entry><entry namest="2" nameend="3">IC50 (nM)</entry></row>',
      "<row><entry colname=\"2\">Kinase A</entry><entry>Kinase B</entry></row></thead>",
      '<tbody valign="top"><row><entry>1</entry><entry>12</entry><entry>340</entry></row><row><entry>2</entry><entry colname="3">5</entry></row></tbody>',
      "</tgroup></table></tables></p></description>",
      '<claims id="claims"><claim id="CLM-00001" num="00001"><claim-text>1. A compound of formula I.</claim-text></claim></claims></us-patent-grant>',
    ].join("\n");
    const { status, body } = await convert(xml, "US1234567.xml");
    expect(status).toBe(200);
    expect(body.markdown).toContain(
      ["| TABLE 1 |  |  |", "| --- | --- | --- |", "| Compound | IC50 (nM) |  |", "|  | Kinase A | Kinase B |", "| 1 | 12 | 340 |", "| 2 |  | 5 |"].join("\n"),
    );
    expect(body.markdown).toContain("\n## Claims\n\n1. A compound of formula I.\n");
  });
});

describe("USPTO patents in the APS text format (1976-2001)", () => {
  // excerpt of US 4,375,702 as the USPTO's APS full text holds it (a U.S. patent: public domain)
  const APS = [
    "HHHHHT        APS1        ISSUE - 830308",
    "PATN",
    "WKU  043757022",
    "APN  2745224",
    "TTL  Device for mounting an earmuff on a helmet",
    "ISD  19830308",
    "INVT",
    "NAM  Lundin; Tord R.",
    "ABST",
    "PAL  An attachment device in the form of a bearing housing (10) and an arm (38)",
    "      projecting out through an opening (44) in the housing.",
    "BSUM",
    "PAC  BACKGROUND OF THE INVENTION",
    "PAR  The present invention is concerned with an attachment device including a",
    "      bearing housing designed for mounting on a helmet.",
    "CLMS",
    "STM  I claim:",
    "NUM  1.",
    "PAR  1. An attachment device including a bearing housing (10) designed for",
    "      mounting on a helmet.",
    "NUM  2.",
    "PAR  2. An attachment device as claimed in claim 1, characterized in that the",
    "      spring element (44) is annular.",
    "",
  ].join("\r\n");

  test("a .txt record: title, abstract, headings, claims numbered, continuation lines joined", async () => {
    const { status, body } = await convert(APS, "pftaps19830308.txt");
    expect(status).toBe(200);
    expect(body.markdown).toBe(
      [
        "# Device for mounting an earmuff on a helmet",
        "## Abstract",
        "An attachment device in the form of a bearing housing (10) and an arm (38) projecting out through an opening (44) in the housing.",
        "## Description",
        "### BACKGROUND OF THE INVENTION",
        "The present invention is concerned with an attachment device including a bearing housing designed for mounting on a helmet.",
        "## Claims",
        "I claim:",
        "1. An attachment device including a bearing housing (10) designed for mounting on a helmet.\n2. An attachment device as claimed in claim 1, characterized in that the spring element (44) is annular.\n",
      ].join("\n\n"),
    );
  });
});

describe("AsciiDoc", () => {
  test("title, admonition, sections and |=== tables with their header rows", async () => {
    const { status, body } = await convert(fixture("asciidoc_upgrade_tables_admonition.adoc"), "upgrade.adoc");
    expect(status).toBe(200);
    const md: string = body.markdown;
    expect(md).toStartWith("# Upgrade from Asciidoctor 1.5.x to 2.0\n\n**Important:** This page if for users upgrading");
    expect(body.title).toBe("Upgrade from Asciidoctor 1.5.x to 2.0");
    expect(md).toContain("\n## Updated and deprecated features\n");
    expect(md).toContain("\n### Table of contents\n\n| Feature | Deprecated | New | Notes |\n| --- | --- | --- | --- |\n| Scrollable, left margin TOC | `toc2` | `:toc: left` |");
    expect(md).not.toContain("|===");
  });

  test("header author line, attribute references, passthrough, block titles, listing and literal blocks", async () => {
    const { status, body } = await convert(fixture("asciidoc_markdown_basics_listings.adoc"), "mdbasics.adoc");
    expect(status).toBe(200);
    const md: string = body.markdown;
    expect(md).toStartWith("# Markdown: Basics\n\nJohn Gruber\n");
    expect(md).toContain("the [Dingus](/projects/markdown/dingus) is a");
    expect(md).toContain("**Note:** This document is itself written using Markdown");
    expect(md).toContain("Setext-style headers for `<h1>` and `<h2>` are created by");
    expect(md).toContain("**Markdown:**\n\n```\nA First Level Header\n====================");
    expect(md).not.toContain(":s: link:");
    expect(md).not.toContain("<ul id=");
  });
});

describe("captions", () => {
  test("WebVTT: the cue text as a transcript, without cue numbers or timings", async () => {
    const { status, body } = await convert(fixture("webvtt_elephants_dream_captions.vtt"), "captions.en.vtt");
    expect(status).toBe(200);
    const md: string = body.markdown;
    expect(md).toStartWith("At the left we can see... At the right we can see the... ...the head-snarlers Everything is safe. Perfectly safe.");
    expect(md).not.toContain("-->");
    expect(md).not.toMatch(/^\d+$/m);
    expect(md).not.toContain("00:00");
  });

  test("WebVTT voices become speaker labels; a caption file is recognised without its name", async () => {
    const vtt = [
      "WEBVTT",
      "",
      "NOTE from the WebVTT specification",
      "",
      "00:11.000 --> 00:13.000",
      "<v Roger Bingham>We are in New York City",
      "",
      "00:13.000 --> 00:16.000",
      "<v Roger Bingham>We’re actually at the Lucern Hotel, just down the street",
      "",
      "00:16.000 --> 00:18.000",
      "<v Neil deGrasse Tyson><i>Yes</i> &amp; welcome",
      "",
    ].join("\n");
    const { status, body } = await convert(vtt, "recording");
    expect(status).toBe(200);
    expect(body.markdown).toBe("**Roger Bingham:** We are in New York City We’re actually at the Lucern Hotel, just down the street\n\n**Neil deGrasse Tyson:** Yes & welcome\n");
  });

  test("SRT: numbers, timings and font tags dropped", async () => {
    const srt = "1\r\n00:00:01,000 --> 00:00:02,500\r\nThe budget was <b>approved</b>\r\n\r\n2\r\n00:00:02,600 --> 00:00:04,000\r\non Monday.\r\n";
    const { status, body } = await convert(srt, "meeting.srt");
    expect(status).toBe(200);
    expect(body.markdown).toBe("The budget was approved on Monday.\n");
  });
});

describe("supported list", () => {
  test("markdown/supported names the new extensions", async () => {
    const { status, body } = await api(server, key, "GET", "/api/v1/markdown/supported");
    expect(status).toBe(200);
    const extensions = body.families.flatMap((f: { extensions: string[] }) => f.extensions);
    for (const ext of ["nxml", "xml", "adoc", "asciidoc", "vtt", "srt"]) expect(extensions).toContain(ext);
  });
});
