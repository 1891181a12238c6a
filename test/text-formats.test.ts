/**
 * Text-like formats end to end through their converters: every source extension, text in several
 * charsets, markdown, JSON/JSONL, YAML, XML, a real notebook, a built EML and a real Outlook MSG.
 */
import { failureOf } from "./helpers/loopback";
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { convertCode, SOURCE_LANGUAGES } from "../src/convert/code";
import { convertJson, convertXml, convertYaml } from "../src/convert/data";
import { convertEml, convertMsg } from "../src/convert/email";
import { convertNotebook } from "../src/convert/notebook";
import { convertText } from "../src/convert/text";
import type { ConvertInput } from "../src/convert/types";
import { convertContext } from "./helpers/convert";

const FIXTURES = join(import.meta.dir, "fixtures");

const context = () => convertContext();

function input(bytes: Uint8Array | string, filename: string, extra: Partial<ConvertInput> = {}): ConvertInput {
  const data = typeof bytes === "string" ? new TextEncoder().encode(bytes) : bytes;
  return { bytes: data, filename, contentType: "text/plain", ext: filename.split(".").pop()!.toLowerCase(), ...extra };
}

async function fixture(name: string): Promise<Uint8Array> {
  return new Uint8Array(await Bun.file(join(FIXTURES, name)).arrayBuffer());
}

describe("source code", () => {
  test("the table covers at least 60 extensions", () => {
    expect(Object.keys(SOURCE_LANGUAGES).length).toBeGreaterThanOrEqual(60);
    for (const ext of ["ts", "py", "go", "rs", "sql", "dockerfile", "makefile", "toml", "vue"]) expect(SOURCE_LANGUAGES[ext]).toBeTruthy();
  });

  test("every extension is fenced with its language and keeps the source", async () => {
    for (const [ext, language] of Object.entries(SOURCE_LANGUAGES)) {
      const source = `first line of ${ext}\n  indented = "value ${ext}"\n`;
      const result = await convertCode(input(source, `sample.${ext}`), context());
      expect(result.method).toBe("text");
      expect(result.title).toBe(`sample.${ext}`);
      expect(result.markdown).toBe(`# sample.${ext}\n\n\`\`\`${language}\n${source.trimEnd()}\n\`\`\`\n`);
    }
  });

  test("a Dockerfile is recognised by its name and backticks in code lengthen the fence", async () => {
    const docker = await convertCode(input("FROM debian:bookworm\nRUN echo ```\n", "Dockerfile", { ext: "" }), context());
    expect(docker.markdown).toContain("````dockerfile\nFROM debian:bookworm\nRUN echo ```\n````");
  });

  test("an empty source file is empty_document", async () => {
    expect((await failureOf(convertCode(input("  \n", "empty.py"), context()))).code).toBe("empty_document");
  });
});

describe("plain text", () => {
  const text = "Première ligne.\nDeuxième ligne du paragraphe.\n\nSecond paragraph.\n";

  test("UTF-8 keeps paragraphs", async () => {
    const result = await convertText(input(text.replace(/\n/g, "\r\n"), "notes.txt"), context());
    expect(result.markdown).toBe(text);
    expect(result.method).toBe("text");
  });

  test("UTF-16 LE with a byte order mark", async () => {
    const body = new Uint8Array(Buffer.from(text, "utf16le"));
    const bytes = new Uint8Array([0xff, 0xfe, ...body]);
    expect((await convertText(input(bytes, "notes.txt"), context())).markdown).toBe(text);
  });

  test("UTF-16 BE with a byte order mark", async () => {
    const le = Buffer.from(text, "utf16le");
    const be = new Uint8Array(le.length);
    for (let i = 0; i < le.length; i += 2) [be[i], be[i + 1]] = [le[i + 1]!, le[i]!];
    expect((await convertText(input(new Uint8Array([0xfe, 0xff, ...be]), "notes.txt"), context())).markdown).toBe(text);
  });

  test("Shift-JIS is detected and decoded", async () => {
    const japanese = "日本語のテキストです。\nこれは二番目の段落です。\n";
    // encoded by Python's codec, not by the decoder under test
    const encoded = Bun.spawnSync(["python3", "-c", "import sys; sys.stdout.buffer.write(sys.stdin.read().encode('shift_jis'))"], { stdin: Buffer.from(japanese) });
    expect(encoded.exitCode).toBe(0);
    const bytes = new Uint8Array(encoded.stdout);
    expect(bytes.length).toBeLessThan(Buffer.byteLength(japanese)); // really two bytes a character, not UTF-8
    const result = await convertText(input(bytes, "japanese.txt"), context());
    expect(result.markdown).toBe(japanese);
  });

  test("a short Shift-JIS file from the corpus (where chardet alone guesses windows-1252)", async () => {
    const result = await convertText(input(await fixture("test_mskanji.csv"), "names.txt"), context());
    expect(result.markdown).toContain("名前,年齢,住所");
    expect(result.markdown).toContain("髙橋淳,35,名古屋");
  });

  test("windows-1252 é is decoded", async () => {
    const bytes = new Uint8Array(Buffer.from("Caf\xe9 au lait, r\xe9sum\xe9 d\xe9j\xe0 envoy\xe9.\n", "latin1"));
    expect((await convertText(input(bytes, "menu.txt"), context())).markdown).toBe("Café au lait, résumé déjà envoyé.\n");
  });

  test("markdown passes through unchanged and gives the title", async () => {
    const md = "# Release notes\n\n- item *one*\n- item `two`\n\n| a | b |\n|---|---|\n| 1 | 2 |\n";
    const result = await convertText(input(md, "README.md", { contentType: "text/markdown" }), context());
    expect(result.markdown).toBe(md);
    expect(result.title).toBe("Release notes");
  });

  test("empty and whitespace-only files are empty_document", async () => {
    expect((await failureOf(convertText(input("", "empty.txt"), context()))).code).toBe("empty_document");
    expect((await failureOf(convertText(input(" \n\t\n", "blank.txt"), context()))).code).toBe("empty_document");
  });

  test("binary data sent as text is unreadable_document", async () => {
    const bytes = new Uint8Array(2000).map((_, i) => (i * 7) % 32);
    expect((await failureOf(convertText(input(bytes, "data.txt"), context()))).code).toBe("unreadable_document");
  });
});

describe("JSON, YAML, XML", () => {
  test("JSON is re-indented with numbers kept exactly", async () => {
    const result = await convertJson(input('{"id":12345678901234567890,"tags":["a","b"],"empty":{}}', "data.json"), context());
    expect(result.markdown).toBe('# data.json\n\n```json\n{\n  "id": 12345678901234567890,\n  "tags": [\n    "a",\n    "b"\n  ],\n  "empty": {}\n}\n```\n');
  });

  test("the corpus JSON converts", async () => {
    const bytes = await fixture("test.json");
    const result = await convertJson(input(bytes, "test.json"), context());
    expect(result.markdown).toStartWith("# test.json\n\n```json\n");
    // every string value of the file is in the output
    const strings = JSON.stringify(JSON.parse(new TextDecoder().decode(bytes))).match(/"[^"]{4,}"/g)!;
    for (const s of strings.slice(0, 20)) expect(result.markdown).toContain(s);
  });

  test("invalid JSON names line and column", async () => {
    const { code, detail } = await failureOf(convertJson(input('{\n  "a": 1,\n  "b": }\n', "broken.json"), context()));
    expect(code).toBe("unreadable_document");
    expect(detail).toContain("line 3, column 8");
    expect(detail).toContain("broken.json");
  });

  test("JSON Lines: one block, a record count, each line validated", async () => {
    const result = await convertJson(input('{"n":1}\n\n{"n": 2, "s": "x"}\n[3]\n', "events.jsonl"), context());
    expect(result.markdown).toContain("3 JSON record(s), one per line.");
    expect(result.markdown).toContain('```json\n{"n":1}\n{"n":2,"s":"x"}\n[3]\n```');
    const { code, detail } = await failureOf(convertJson(input('{"n":1}\n{"n":}\n', "events.ndjson"), context()));
    expect(code).toBe("unreadable_document");
    expect(detail).toContain("line 2");
  });

  test("GeoJSON gets a feature count", async () => {
    const geo = JSON.stringify({ type: "FeatureCollection", features: [{ type: "Feature", geometry: { type: "Point", coordinates: [2.35, 48.85] }, properties: { name: "Paris" } }] });
    const result = await convertJson(input(geo, "places.geojson", { contentType: "application/geo+json" }), context());
    expect(result.markdown).toContain("GeoJSON FeatureCollection with 1 feature(s).");
    expect(result.markdown).toContain('"name": "Paris"');
  });

  test("YAML is kept as written", async () => {
    const yaml = "# deployment\nservice:\n  name: docintel   # trailing comment\n  ports: [8080, 8443]\n";
    const result = await convertYaml(input(yaml, "deploy.yaml"), context());
    expect(result.markdown).toBe(`# deploy.yaml\n\n\`\`\`yaml\n${yaml.trimEnd()}\n\`\`\`\n`);
  });

  test("well-formed XML is fenced, broken XML refused", async () => {
    const xml = '<?xml version="1.0"?>\n<!DOCTYPE note>\n<note lang="en"><!-- c --><to>Ann</to><body><![CDATA[a < b]]></body><empty/></note>\n';
    expect((await convertXml(input(xml, "note.xml"), context())).markdown).toContain(`\`\`\`xml\n${xml.trimEnd()}\n\`\`\``);
    for (const broken of ["<note><to>Ann</note>", "<note><to>Ann</to>", "just text"]) {
      expect((await failureOf(convertXml(input(broken, "broken.xml"), context()))).code).toBe("unreadable_document");
    }
  });
});

describe("notebook", () => {
  test("the corpus notebook: cells in order, python fences, outputs", async () => {
    const result = await convertNotebook(input(await fixture("test_notebook.ipynb"), "test_notebook.ipynb"), context());
    expect(result.title).toBe("Test Notebook");
    expect(result.markdown).toBe(
      '# Test Notebook\n\n```python\nprint("markitdown")\n```\n\n```output\nmarkitdown\n```\n\n## Code Cell Below\n\n```python\n# comment in code\nprint(42)\n```\n\n```output\n42\n```\n\nEnd\n\n---\n',
    );
  });

  test("kernel language, execute results and images", async () => {
    const notebook = {
      nbformat: 4,
      metadata: { kernelspec: { language: "R", name: "ir" }, title: "Stats" },
      cells: [
        { cell_type: "code", source: ["x <- 1:3\n", "summary(x)"], outputs: [{ output_type: "execute_result", data: { "text/plain": ["Min. 1"] } }, { output_type: "display_data", data: { "image/png": "iVBOR", "text/plain": "<Figure>" } }] },
      ],
    };
    const result = await convertNotebook(input(JSON.stringify(notebook), "stats.ipynb"), context());
    expect(result.title).toBe("Stats");
    expect(result.markdown).toContain("```r\nx <- 1:3\nsummary(x)\n```");
    expect(result.markdown).toContain("```output\nMin. 1\n```");
    expect(result.markdown).toContain("*[image output: image/png]*");
  });

  test("a cell whose source nests arrays 50 000 deep (not nbformat's lines) gives its string lines, not a stack overflow", async () => {
    const nested = `${"[".repeat(50_000)}"deep"${"]".repeat(50_000)}`;
    const text = `{"nbformat":4,"metadata":{},"cells":[{"cell_type":"markdown","source":["# Title\\n",${nested}]},{"cell_type":"markdown","source":"Body"}]}`;
    const result = await convertNotebook(input(text, "deep.ipynb"), context());
    expect(result.markdown).toContain("# Title");
    expect(result.markdown).toContain("Body");
  });

  test("not a notebook is unreadable_document", async () => {
    expect((await failureOf(convertNotebook(input("{not json", "bad.ipynb"), context()))).code).toBe("unreadable_document");
    expect((await failureOf(convertNotebook(input('{"a":1}', "bad.ipynb"), context()))).code).toBe("unreadable_document");
  });
});

describe("e-mail", () => {
  /** buildEml writes a multipart/mixed message: alternative text (quoted-printable) + HTML, and a CSV attachment. */
  function buildEml(withPlain: boolean): string {
    const subject = `=?UTF-8?B?${Buffer.from("Quartalsbericht – Q1 2025").toString("base64")}?=`;
    const plain = ["--alt", "Content-Type: text/plain; charset=utf-8", "Content-Transfer-Encoding: quoted-printable", "", "Gr=C3=BC=C3=9Fe Ann, the totals for Q1 are in the attached fil=", "e.", ""];
    return [
      `From: =?UTF-8?B?${Buffer.from("Jürgen Müller").toString("base64")}?= <juergen@example.com>`,
      "To: Ann Smith <ann@example.com>, bob@example.com",
      "Cc: carol@example.com",
      "Date: Mon, 03 Mar 2025 10:00:00 +0100",
      `Subject: ${subject}`,
      "MIME-Version: 1.0",
      'Content-Type: multipart/mixed; boundary="mix"',
      "",
      "--mix",
      'Content-Type: multipart/alternative; boundary="alt"',
      "",
      ...(withPlain ? plain : []),
      "--alt",
      "Content-Type: text/html; charset=utf-8",
      "",
      "<html><body><p>Hello <b>Ann</b>, see the <a href=\"https://example.com/q1\">Q1 report</a>.</p></body></html>",
      "--alt--",
      "--mix",
      'Content-Type: text/csv; name="totals.csv"',
      'Content-Disposition: attachment; filename="totals.csv"',
      "Content-Transfer-Encoding: base64",
      "",
      Buffer.from("region,total\nnorth,10\n").toString("base64"),
      "--mix--",
      "",
    ].join("\r\n");
  }

  test("EML: decoded headers, quoted-printable plain body preferred, attachment listed", async () => {
    const result = await convertEml(input(buildEml(true), "q1.eml", { contentType: "message/rfc822" }), context());
    expect(result.title).toBe("Quartalsbericht – Q1 2025");
    expect(result.markdown).toContain("- **From:** Jürgen Müller <juergen@example.com>");
    expect(result.markdown).toContain("- **To:** Ann Smith <ann@example.com>, bob@example.com");
    expect(result.markdown).toContain("- **Cc:** carol@example.com");
    expect(result.markdown).toContain("- **Subject:** Quartalsbericht – Q1 2025");
    expect(result.markdown).toContain("Grüße Ann, the totals for Q1 are in the attached file.");
    expect(result.markdown).not.toContain("<b>");
    expect(result.markdown).toContain("| totals.csv | text/csv | 22 B |");
  });

  test("EML with only an HTML body converts the HTML", async () => {
    const result = await convertEml(input(buildEml(false), "q1.eml"), context());
    expect(result.markdown).toContain("Hello **Ann**");
    expect(result.markdown).toContain("[Q1 report](https://example.com/q1)");
  });

  test("text that is not a message is unreadable_document", async () => {
    expect((await failureOf(convertEml(input("just some words\nand more", "notmail.eml"), context()))).code).toBe("unreadable_document");
  });

  test("MSG from the corpus: subject, sender, recipient, body", async () => {
    const result = await convertMsg(input(await fixture("test_outlook_msg.msg"), "test_outlook_msg.msg"), context());
    expect(result.title).toBe("Test Email Message");
    expect(result.markdown).toContain("- **From:** M. C. Kurtuluş <test.sender@example.com>");
    expect(result.markdown).toContain("- **To:** test.recipient@example.com");
    expect(result.markdown).toContain("- **Date:** Sun, 22 Dec 2024 08:23:00 GMT");
    expect(result.markdown).toContain("This is the body of the test email message");
  });

  test("MSG: a non-CFB file and a CFB that is not a message are unreadable_document", async () => {
    expect((await failureOf(convertMsg(input("hello", "x.msg"), context()))).code).toBe("unreadable_document");
    expect((await failureOf(convertMsg(input(await fixture("test.xls"), "x.msg"), context()))).code).toBe("unreadable_document");
  });
});
