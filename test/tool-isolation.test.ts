/**
 * Tool isolation (src/tools/sandbox.ts) through the real server and the real programs:
 * LibreOffice never follows a document's links, neither http ones (to a loopback listener that
 * would answer with a red picture) nor file:/// ones (to a red picture on the server's disk),
 * whether the document is converted to markdown or drawn as a thumbnail; no program the server
 * starts can see its GROQ_API_KEY; and with bubblewrap unavailable the server still starts and
 * both its start-up log and `docintel doctor` say that isolation is off.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { runProcess } from "../src/tools/process";
import { isolationStatus } from "../src/tools/sandbox";
import { form, runCli, startServer, tempDir, type TestServer } from "./helpers/server";
import { zipOf } from "./helpers/zip";

const CANARY = "secret-canary-4c1d";

let server: TestServer;
let key: string;
let scratch: string;
let redPngPath: string;
let redPng: Uint8Array<ArrayBuffer>;
/** listener: the loopback site the documents link to; it answers every request with the red picture */
let listener: ReturnType<typeof Bun.serve>;
const heard: string[] = [];

beforeAll(async () => {
  scratch = tempDir("docintel-isolation-");
  redPng = new Uint8Array(await sharp({ create: { width: 200, height: 200, channels: 3, background: { r: 255, g: 0, b: 0 } } }).png().toBuffer());
  redPngPath = join(scratch, "red.png");
  writeFileSync(redPngPath, redPng);
  listener = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      heard.push(`${request.method} ${new URL(request.url).pathname}`);
      return new Response(redPng, { headers: { "content-type": "image/png" } });
    },
  });
  // GROQ_BASE_URL points at a closed port: nothing here may reach a real provider
  server = await startServer({ env: { GROQ_API_KEY: CANARY, GROQ_BASE_URL: "http://127.0.0.1:9" } });
  ({ key } = await server.key("enterprise"));
}, 60_000);

afterAll(async () => {
  await server.stop();
  listener.stop(true);
  rmSync(scratch, { recursive: true, force: true });
});

const site = (path: string) => `http://127.0.0.1:${listener.port}${path}`;

/** CM_15: 15 cm in EMU, the size of every picture below: it covers most of an A4 page's width */
const CM_15 = 5_400_000;

/** docxWithImage is a one-page DOCX whose only picture is linked (r:link, TargetMode="External") to `target`. */
function docxWithLinkedImage(target: string): Uint8Array<ArrayBuffer> {
  const document = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture">
<w:body>
<w:p><w:r><w:t>A linked picture follows.</w:t></w:r></w:p>
<w:p><w:r><w:drawing><wp:inline distT="0" distB="0" distL="0" distR="0"><wp:extent cx="${CM_15}" cy="${CM_15}"/><wp:docPr id="1" name="Picture 1"/>
<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic>
<pic:nvPicPr><pic:cNvPr id="1" name="linked.png"/><pic:cNvPicPr/></pic:nvPicPr>
<pic:blipFill><a:blip r:link="rIdLinked"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill>
<pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="${CM_15}" cy="${CM_15}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr>
</pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>
<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="720" w:right="720" w:bottom="720" w:left="720" w:header="0" w:footer="0" w:gutter="0"/></w:sectPr>
</w:body></w:document>`;
  return zipOf([
    {
      name: "[Content_Types].xml",
      data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
    },
    {
      name: "_rels/.rels",
      data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
    },
    { name: "word/document.xml", data: document },
    {
      name: "word/_rels/document.xml.rels",
      data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rIdLinked" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="${target}" TargetMode="External"/></Relationships>`,
    },
  ]);
}

/** fodtWithImage is a flat ODF text whose only picture is `image` (a <draw:image> element), 15 cm square. */
function fodtWithImage(image: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(`<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.text">
<office:body><office:text>
<text:p>A linked picture follows.</text:p>
<text:p><draw:frame draw:name="picture" text:anchor-type="as-char" svg:width="15cm" svg:height="15cm">${image}</draw:frame></text:p>
</office:text></office:body></office:document>`);
}

const linkedFodt = (href: string) => fodtWithImage(`<draw:image xlink:href="${href}" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad"/>`);
const embeddedFodt = () => fodtWithImage(`<draw:image><office:binary-data>${Buffer.from(redPng).toString("base64")}</office:binary-data></draw:image>`);

async function markdownOf(bytes: Uint8Array<ArrayBuffer>, filename: string) {
  const response = await fetch(`${server.url}/api/v1/markdown/convert`, { method: "POST", headers: { "X-API-Key": key }, body: form({ file: new File([bytes], filename) }) });
  return { status: response.status, body: (await response.json()) as any };
}

/** thumbnailOf asks for a 400x400 JPEG thumbnail and returns its decoded pixels' share of red */
async function redShareOfThumbnail(bytes: Uint8Array<ArrayBuffer>, filename: string): Promise<number> {
  const response = await fetch(`${server.url}/api/v1/thumbnails/generate`, {
    method: "POST",
    headers: { "X-API-Key": key },
    body: form({ file: new File([bytes], filename), width: "400", height: "400", response_type: "base64" }),
  });
  const body = (await response.json()) as any;
  expect({ status: response.status, handler: body.handler }).toEqual({ status: 200, handler: "office" });
  const { data, info } = await sharp(Buffer.from(body.image_base64, "base64")).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let red = 0;
  for (let i = 0; i < data.length; i += info.channels) if (data[i]! > 180 && data[i + 1]! < 90 && data[i + 2]! < 90) red++;
  return red / (info.width * info.height);
}

describe("LibreOffice does not follow a document's links", () => {
  test("markdown: a DOCX and an FODT whose pictures link to a loopback site convert without the site hearing anything", async () => {
    for (const [bytes, name] of [[docxWithLinkedImage(site("/docx-markdown.png")), "linked.docx"], [linkedFodt(site("/fodt-markdown.png")), "linked.fodt"]] as const) {
      const { status, body } = await markdownOf(bytes, name);
      expect({ name, status }).toEqual({ name, status: 200 });
      expect(body.markdown).toContain("A linked picture follows.");
    }
    expect(heard).toEqual([]);
  }, 120_000);

  test("thumbnails: the same documents are drawn through LibreOffice without the site hearing anything", async () => {
    expect(await redShareOfThumbnail(docxWithLinkedImage(site("/docx-thumbnail.png")), "linked.docx")).toBe(0);
    expect(await redShareOfThumbnail(linkedFodt(site("/fodt-thumbnail.png")), "linked.fodt")).toBe(0);
    expect(heard).toEqual([]);
  }, 120_000);

  test("thumbnails: a file:/// link to a red picture on the server's disk draws no red, while the same picture embedded does", async () => {
    const fileUrl = `file://${redPngPath}`;
    expect(await redShareOfThumbnail(docxWithLinkedImage(fileUrl), "file-link.docx")).toBe(0);
    expect(await redShareOfThumbnail(linkedFodt(fileUrl), "file-link.fodt")).toBe(0);
    // the control: the detector sees the picture when it is really part of the document
    expect(await redShareOfThumbnail(embeddedFodt(), "embedded.fodt")).toBeGreaterThan(0.05);
  }, 120_000);
});

describe("programs get no secrets from the server's environment", () => {
  test("the running LibreOffice processes of the server have no GROQ_API_KEY in their environment", async () => {
    await markdownOf(embeddedFodt(), "warm.fodt"); // makes sure a warm instance runs
    const serverEnv = readFileSync(`/proc/${server.proc.pid}/environ`, "latin1");
    expect(serverEnv).toContain(CANARY); // the canary is really in the server's environment
    const pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name) && name !== String(server.proc.pid)).filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "latin1").includes(server.dataDir);
      } catch {
        return false; // exited meanwhile
      }
    });
    const environments = pids.map((pid) => {
      try {
        return { pid, cmd: readFileSync(`/proc/${pid}/cmdline`, "latin1").split("\0")[0], env: readFileSync(`/proc/${pid}/environ`, "latin1") };
      } catch {
        return null;
      }
    }).filter((e) => e !== null);
    expect(environments.some((e) => e.cmd!.includes("soffice"))).toBe(true);
    for (const { pid, cmd, env } of environments) expect({ pid, cmd, leaks: env.includes(CANARY) }).toEqual({ pid, cmd, leaks: false });
  }, 120_000);

  test("a program run through runProcess sees only the allow-listed variables and cannot read the server's environ", async () => {
    process.env.GROQ_API_KEY = CANARY; // this test process plays the server
    try {
      const { stdout } = await runProcess("sh", ["-c", `env; cat /proc/${process.pid}/environ 2>/dev/null || echo unreadable`], { timeoutMs: 20_000, what: "print the environment" });
      const text = stdout.toString("latin1");
      expect(text).not.toContain(CANARY);
      const names = text.split("\n").filter((line) => /^[A-Z_]+=/.test(line)).map((line) => line.split("=")[0]).sort();
      expect(names.filter((n) => !["HOME", "LANG", "PATH", "PWD", "SHLVL", "TMPDIR", "_"].includes(n!))).toEqual([]);
      expect(text).toContain("unreadable");
    } finally {
      delete process.env.GROQ_API_KEY;
    }
  });

  test("the started server logs that isolation is on", () => {
    expect(isolationStatus().enabled).toBe(true); // bubblewrap is installed here (Makefile APT_PACKAGES)
    expect(server.stdout()).toContain('"msg":"tool isolation on"');
  });
});

describe("without bubblewrap", () => {
  test("the server starts, logs that isolation is off with how to enable it, and still converts", async () => {
    const plain = await startServer({ args: ["--bwrap-path", "/nonexistent/bwrap"] });
    try {
      const line = plain.stdout().split("\n").find((l) => l.includes("tool isolation"));
      expect(line).toContain('"msg":"tool isolation OFF"');
      expect(line).toContain("bubblewrap");
      const { key: plainKey } = await plain.key("enterprise");
      const response = await fetch(`${plain.url}/api/v1/thumbnails/generate`, {
        method: "POST",
        headers: { "X-API-Key": plainKey },
        body: form({ file: new File([readFileSync(join(import.meta.dir, "fixtures", "test.pdf"))], "test.pdf"), width: "200", height: "200", response_type: "base64" }),
      });
      expect(response.status).toBe(200); // pdftoppm ran, unconfined
    } finally {
      await plain.stop();
    }
  }, 60_000);

  test("docintel doctor says isolation is off, and how to turn it on", async () => {
    const { stdout } = await runCli(["doctor", "--bwrap-path", "/nonexistent/bwrap"]);
    expect(stdout).toMatch(/tool isolation \(bubblewrap\):\n\s+OFF\s+bubblewrap \('\/nonexistent\/bwrap'\) was not found/);
    expect(stdout).toContain("install the Debian package bubblewrap");
  }, 120_000);
});
