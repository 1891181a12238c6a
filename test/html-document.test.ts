/**
 * An uploaded HTML file is the user's document (a saved article, a manual or spec page): convertHtml
 * keeps all of it but the site's own chrome (menus, banner, footer, skip links, what the page leaves out
 * of a printed copy), with its notes where the document has them. Boilerplate removal stays for web
 * pages fetched by URL (htmlToMarkdown with mainContent, as the web service calls it).
 */
import { describe, expect, test } from "bun:test";
import { convertHtml, htmlToMarkdown } from "../src/convert/html";
import type { ConvertContext, ConvertInput } from "../src/convert/types";

const input = (html: string): ConvertInput => ({ bytes: new TextEncoder().encode(html), filename: "saved.html", contentType: "text/html", ext: "html" });
const context = (mainContent = true): ConvertContext => ({
  signal: AbortSignal.timeout(30_000),
  limits: { maxDecompressedBytes: 1e8, maxPixels: 1e8, maxPages: 100 },
  page: { mainContent, waitMs: 0 },
  tools: {} as ConvertContext["tools"],
});

/** manualPage: a saved manual page: a site menu and footer around a page with a contents box, a summary table, sections, a short "See also" list and notes */
function manualPage(): string {
  const sections = ["Usage", "Configuration", "Troubleshooting"]
    .map((name, i) => `<h2 id="s${i}">${name}</h2><p>The ${name.toLowerCase()} section explains how the frobnicator module is used in practice, with an example<sup><a href="#note${i + 1}">[${i + 1}]</a></sup>.</p><pre>Frobnicate on\nFrobLevel ${i + 2}</pre>`)
    .join("\n");
  return `<!DOCTYPE html><html><head><title>mod_frob - Server Manual</title></head><body>
<a href="#content" class="skip">Skip to content</a>
<div id="page-header" role="banner"><p class="menu"><a href="/mod/">Modules</a> | <a href="/faq/">FAQ</a> | <a href="/glossary">Glossary</a></p></div>
<nav class="site"><ul><li><a href="/">Home</a></li><li><a href="/docs/">Docs</a></li><li><a href="/download">Download</a></li></ul></nav>
<div id="content">
<h1>Module mod_frob</h1>
<table><tr><th>Status:</th><td>Extension</td></tr><tr><th>Source File:</th><td>mod_frob.c</td></tr></table>
<div id="quickview"><h3>Topics</h3><ul><li><a href="#s0">Usage</a></li><li><a href="#s1">Configuration</a></li><li><a href="#s2">Troubleshooting</a></li></ul>
<h3>See also</h3><ul><li><a href="/mod/mod_proxy.html">mod_proxy</a></li><li><a href="/env.html">Environment variables</a></li></ul></div>
${sections}
<h2>Notes</h2>
<ol><li id="note1">First released in version 2.1.</li><li id="note2">Levels above 3 are experimental.</li><li id="note3">See the error log.</li></ol>
<h2>Changes</h2><p>Version 2.4 added the FrobLevel directive.<span class="noprint"> [edit]</span></p>
</div>
<div id="footer" role="contentinfo"><p>Copyright 2025 The Frob Foundation. <a href="/privacy">Privacy policy</a></p></div>
</body></html>`;
}

describe("an uploaded HTML file is the user's document", () => {
  test("the contents box, the See also list and every section stay; the site's menu, banner, footer and skip link go", async () => {
    const { markdown } = await convertHtml(input(manualPage()), context());
    expect(markdown).toContain("# Module mod_frob");
    expect(markdown).toMatch(/^#{2,3} Topics$/m);
    expect(markdown).toMatch(/^- \[Troubleshooting\]\(#s2\)$/m);
    expect(markdown).toMatch(/^#{2,3} See also$/m);
    expect(markdown).toMatch(/^- \[Environment variables\]\(\/env\.html\)$/m);
    expect(markdown).toMatch(/^\| Source File: \| mod_frob\.c \|$/m);
    for (const name of ["Usage", "Configuration", "Troubleshooting", "Changes"]) expect(markdown).toContain(`## ${name}\n`);
    expect(markdown).toContain("FrobLevel 4");
    for (const chrome of ["Skip to content", "Modules", "Download", "Privacy policy", "Copyright 2025", "[edit]"]) expect(markdown).not.toContain(chrome);
  });

  test("notes stay where the document has them, under their heading, in their numbers", async () => {
    const { markdown } = await convertHtml(input(manualPage()), context());
    const notes = markdown.indexOf("## Notes\n");
    expect(notes).toBeGreaterThan(markdown.indexOf("## Troubleshooting"));
    expect(notes).toBeLessThan(markdown.indexOf("## Changes"));
    expect(markdown.slice(notes)).toMatch(/^## Notes\n\n1\. First released in version 2\.1\.\n2\. Levels above 3 are experimental\.\n3\. See the error log\.$/m);
    expect(markdown).not.toContain("[^");
  });

  test("main_content=false still keeps everything; a web page fetched by URL still loses its contents box and its notes go last", async () => {
    const whole = (await convertHtml(input(manualPage()), context(false))).markdown;
    for (const chrome of ["Modules", "Privacy policy"]) expect(whole).toContain(chrome);
    const web = htmlToMarkdown(manualPage(), { mainContent: true }).markdown;
    expect(web).not.toContain("Privacy policy");
    // the service converts a page fetched by URL through convertHtml too, with its URL: a web page
    const fetched = (await convertHtml({ ...input(manualPage()), url: "https://example.org/mod_frob.html" }, context())).markdown;
    expect(fetched).toBe(web);
  });

  test("a landmark inside the document's main part is the document's (a wiki's navigation box of related articles)", async () => {
    const html = `<html><body><nav><a href="/">Home</a></nav><main><h1>Kiwi</h1><p>The kiwi is a flightless bird endemic to New Zealand, of the genus Apteryx.</p>
<div role="navigation" class="navbox"><p>Birds of New Zealand: <a href="/k">Kea</a> · <a href="/t">Takahe</a></p></div></main>
<footer role="contentinfo"><p>Site footer text</p></footer></body></html>`;
    const { markdown } = await convertHtml(input(html), context());
    expect(markdown).toContain("Birds of New Zealand");
    expect(markdown).not.toContain("Home");
    expect(markdown).not.toContain("Site footer text");
  });

  test("hostile nesting stays bounded: 2 000 landmarks each under 200 nested elements, and 100 000 nested elements", async () => {
    const landmarks = `${"<div>".repeat(200)}<nav><a href="/">menu</a></nav>${"</div>".repeat(200)}`.repeat(2000);
    const deep = landmarks + "<div>".repeat(100_000) + "<p>deep text</p>" + "</div>".repeat(100_000);
    const started = performance.now();
    const { markdown } = await convertHtml(input(`<html><body>${deep}</body></html>`), context());
    expect(markdown).toContain("deep text");
    expect(markdown).not.toContain("menu");
    expect(performance.now() - started).toBeLessThan(20_000);
  }, 30_000);
});
