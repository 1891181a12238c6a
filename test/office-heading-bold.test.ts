/**
 * One rule for bold in headings, whatever the format: a heading whose whole text is bold (a page's
 * `<h2><strong>`, a Word heading typed in bold runs, a slide title in bold runs) is written without
 * `**` marks, since a heading is set apart already; bold over part of a heading stays, it marks a
 * word against the rest (markdown.ts withoutWholeBold, used by heading()). Through the real server.
 */
import { describe, expect, test } from "bun:test";
import { withoutWholeBold } from "../src/convert/markdown";
import { zipTuples } from "./helpers/office";
import { api, form, type TestServer, withServer } from "./helpers/server";

let server: TestServer;
let key: string;
withServer({}, (served) => ({ server, key } = served));

const convert = (file: File) => api(server, key, "POST", "/api/v1/markdown/convert", form({ file, main_content: "false" }));

const W = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"`;
const BOLD = "<w:rPr><w:b/></w:rPr>";
const run = (text: string, rPr = "") => `<w:r>${rPr}<w:t xml:space="preserve">${text}</w:t></w:r>`;
const styled = (style: string, runs: string) => `<w:p><w:pPr><w:pStyle w:val="${style}"/></w:pPr>${runs}</w:p>`;

/** docxOf builds a DOCX of the given body paragraphs with Heading1 and Heading2 styles. */
function docxOf(body: string): Uint8Array {
  const styles = `<w:styles ${W}><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style><w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/></w:style></w:styles>`;
  return zipTuples([
    ["[Content_Types].xml", `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/></Types>`],
    ["_rels/.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`],
    ["word/document.xml", `<w:document ${W}><w:body>${body}</w:body></w:document>`],
    ["word/_rels/document.xml.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`],
    ["word/styles.xml", styles],
  ]);
}

describe("bold in headings through POST /api/v1/markdown/convert", () => {
  test("an HTML heading wholly in <strong> or <b> is a heading without ** marks; bold over one word of a heading stays", async () => {
    const html = `<!doctype html><html><head><title>Budget notes</title></head><body>
<h2><strong>Budget summary</strong></h2><p>The budget grew by <b>four</b> percent.</p>
<h3><b>Staff</b> <b>costs</b></h3><p>Salaries rose.</p>
<h3>The <b>new</b> travel rule</h3><p>Trips need approval.</p></body></html>`;
    const { status, body } = await convert(new File([html], "budget-notes.html", { type: "text/html" }));
    expect(status).toBe(200);
    expect(body.markdown).toContain("## Budget summary\n");
    expect(body.markdown).toContain("### Staff costs\n");
    expect(body.markdown).toContain("### The **new** travel rule\n");
    expect(body.markdown).toContain("grew by **four** percent");
  });

  test("a DOCX heading whose runs are all bold is a heading without ** marks; a heading bold in part keeps its bold word", async () => {
    const bytes = docxOf(
      [
        styled("Heading1", `${run("Annual", BOLD)}${run(" ", BOLD)}${run("report", BOLD)}`),
        `<w:p>${run("Sales were ")}${run("flat", BOLD)}${run(".")}</w:p>`,
        styled("Heading2", `${run("Scope", BOLD)}${run(" of the review")}`),
      ].join(""),
    );
    const { status, body } = await convert(new File([new Uint8Array(bytes)], "annual-report.docx"));
    expect(status).toBe(200);
    expect(body.markdown).toContain("# Annual report\n");
    expect(body.markdown).toContain("Sales were **flat**.");
    expect(body.markdown).toContain("## **Scope** of the review\n");
  });
});

describe("a heading of plain text (a file name, a page title) through POST /api/v1/markdown/convert", () => {
  test("keeps its own asterisks and underscores as written: escaped, neither bold nor dropped", async () => {
    const html = `<!doctype html><html><head><title>**Quarterly report**</title></head><body><article><p>Revenue rose by a tenth over the quarter, led by the northern stores, while costs held steady for the third quarter running.</p></article></body></html>`;
    const file = new File([html], "report.html", { type: "text/html" });
    const page = await api(server, key, "POST", "/api/v1/markdown/convert", form({ file, main_content: "true" }));
    expect(page.status).toBe(200);
    expect(page.body.markdown).toContain("# \\*\\*Quarterly report\\*\\*\n");
    const data = await convert(new File([`{"total": 3}`], "__main__.json", { type: "application/json" }));
    expect(data.status).toBe(200);
    expect(data.body.markdown).toContain("# \\_\\_main\\_\\_.json\n");
    const plain = await convert(new File([`{"total": 3}`], "daily_totals_v2.json", { type: "application/json" }));
    expect(plain.body.markdown).toContain("# daily_totals_v2.json\n");
  });
});

describe("withoutWholeBold", () => {
  test("drops strong marks only when bold covers every visible character", () => {
    expect(withoutWholeBold("**New** **Contracts**")).toBe("New Contracts");
    expect(withoutWholeBold("***Preface***")).toBe("*Preface*");
    expect(withoutWholeBold("__Terms__")).toBe("Terms");
    expect(withoutWholeBold("**[Contact](https://example.org/a_b)**")).toBe("[Contact](https://example.org/a_b)");
    expect(withoutWholeBold("[**Contact**](https://example.org/a_b)")).toBe("[Contact](https://example.org/a_b)");
    expect(withoutWholeBold("**Total**:")).toBe("**Total**:");
    expect(withoutWholeBold("**Step 1** and **Step 2**")).toBe("**Step 1** and **Step 2**");
  });

  test("escaped asterisks, code spans and marks inside a word are not bold", () => {
    expect(withoutWholeBold("\\*\\*Draft\\*\\*")).toBe("\\*\\*Draft\\*\\*");
    expect(withoutWholeBold("`**kwargs`")).toBe("`**kwargs`");
    expect(withoutWholeBold("2**3**4")).toBe("2**3**4");
  });

  test("reads a long hostile heading in linear time", () => {
    const started = performance.now();
    withoutWholeBold(`**${"_a *b `c [d](".repeat(40_000)}**`);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
