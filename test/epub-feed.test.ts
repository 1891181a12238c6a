/**
 * EPUB books (chapters in spine order, metadata, zip bombs, truncation, DRM) and RSS/Atom feeds.
 */
import { failureOf } from "./helpers/loopback";
import { zipOf } from "./helpers/zip";
import { describe, expect, test } from "bun:test";
import { convertEpub } from "../src/convert/epub";
import { convertFeed, isFeed } from "../src/convert/feed";
import { tooDeep } from "../src/convert/nesting";
import type { ConvertInput } from "../src/convert/types";
import { convertContext } from "./helpers/convert";

const fixtureBytes = async (name: string) => new Uint8Array(await Bun.file(new URL(`./fixtures/${name}`, import.meta.url)).arrayBuffer());

const context = () => convertContext({ timeoutMs: 30_000 });

function input(bytes: Uint8Array, filename: string, contentType: string, ext: string): ConvertInput {
  return { bytes, filename, contentType, ext };
}

const CONTAINER = `<?xml version="1.0"?><container xmlns="urn:oasis:names:tc:opendocument:xmlns:container" version="1.0"><rootfiles><rootfile full-path="OEBPS/book.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`;
const OPF = `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Bomb</dc:title></metadata>
<manifest><item id="c1" href="ch1.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="c1"/></spine></package>`;

describe("EPUB", () => {
  test("test.epub: metadata, then the chapters in spine order with their headings, lists and quotes", async () => {
    const result = await convertEpub(input(await fixtureBytes("test.epub"), "test.epub", "application/epub+zip", "epub"), context());
    expect(result.title).toBe("Test EPUB Document");
    expect(result.totalPages).toBe(3); // nav, chapter 1, chapter 2: the spine
    expect(result.markdown.startsWith("# Test EPUB Document\n\n- **Author:** Test Author\n- **Language:** en\n")).toBe(true);
    const one = result.markdown.indexOf("# Chapter 1: Test Content\n\nThis is a **test** paragraph with some formatting.\n\nIt includes:\n\n- A bullet point\n- Another point\n");
    const two = result.markdown.indexOf("# Chapter 2: More Content\n\nHere's a second chapter with a *different* style.\n\n> This is a blockquote for testing.\n");
    expect(one).toBeGreaterThan(0);
    expect(two).toBeGreaterThan(one);
    expect(result.pages?.map((p) => p.method)).toEqual(["text", "text", "text"]);
  });

  test("a zip bomb (one chapter inflating past the budget) is document_too_large", async () => {
    const huge = "<p>" + "A".repeat(50 * 1024 * 1024) + "</p>";
    const bomb = zipOf([
      { name: "mimetype", data: "application/epub+zip", stored: true },
      { name: "META-INF/container.xml", data: CONTAINER },
      { name: "OEBPS/book.opf", data: OPF },
      { name: "OEBPS/ch1.xhtml", data: `<html><body>${huge}</body></html>` },
    ]);
    expect(bomb.length).toBeLessThan(200_000);
    const ctx = { ...context(), limits: { maxDecompressedBytes: 10 * 1024 * 1024, maxPixels: 100e6, maxPages: 2000 } };
    const error = await failureOf(convertEpub(input(bomb, "bomb.epub", "application/epub+zip", "epub"), ctx));
    expect(error.code).toBe("document_too_large");
  });

  test("a truncated EPUB is unreadable_document", async () => {
    const bytes = await fixtureBytes("test.epub");
    const error = await failureOf(convertEpub(input(bytes.subarray(0, Math.floor(bytes.length * 0.6)), "cut.epub", "application/epub+zip", "epub"), context()));
    expect(error.code).toBe("unreadable_document");
  });

  test("an EPUB whose chapters are DRM-encrypted is encrypted_document; obfuscated fonts alone are fine", async () => {
    const encryption = (algorithm: string, uri: string) =>
      `<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#"><enc:EncryptedData><enc:EncryptionMethod Algorithm="${algorithm}"/><enc:CipherData><enc:CipherReference URI="${uri}"/></enc:CipherData></enc:EncryptedData></encryption>`;
    const book = (encryptionXml: string) =>
      zipOf([
        { name: "mimetype", data: "application/epub+zip", stored: true },
        { name: "META-INF/container.xml", data: CONTAINER },
        { name: "META-INF/encryption.xml", data: encryptionXml },
        { name: "OEBPS/book.opf", data: OPF },
        { name: "OEBPS/ch1.xhtml", data: "<html><body><h1>One</h1><p>Readable text.</p></body></html>" },
      ]);
    const drm = await failureOf(convertEpub(input(book(encryption("http://www.w3.org/2001/04/xmlenc#aes128-cbc", "OEBPS/ch1.xhtml")), "drm.epub", "application/epub+zip", "epub"), context()));
    expect(drm.code).toBe("encrypted_document");
    const fonts = await convertEpub(input(book(encryption("http://www.idpf.org/2008/embedding", "OEBPS/fonts/a.otf")), "fonts.epub", "application/epub+zip", "epub"), context());
    expect(fonts.markdown).toContain("# One\n\nReadable text.");
  });
});

describe("RSS and Atom feeds", () => {
  test("isFeed recognises RSS 2.0, RSS 1.0 and Atom by the root element", async () => {
    const rss = new TextDecoder().decode((await fixtureBytes("test_rss.xml")).subarray(0, 4096));
    expect(isFeed(rss)).toBe(true);
    expect(isFeed(`<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>x</title></feed>`)).toBe(true);
    expect(isFeed(`<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"><channel/></rdf:RDF>`)).toBe(true);
    expect(isFeed(`<?xml version="1.0"?><!-- rss --><catalog><book>rss feed</book></catalog>`)).toBe(false);
  });

  test("test_rss.xml: channel title, then each item with its date, link and converted content", async () => {
    const result = await convertFeed(input(await fixtureBytes("test_rss.xml"), "test_rss.xml", "application/rss+xml", "rss"), context());
    expect(result.title).toBe("The Official Microsoft Blog");
    expect(result.markdown.startsWith("# The Official Microsoft Blog\n")).toBe(true);
    expect(result.markdown).toContain(
      "## Ignite 2024: Why nearly 70% of the Fortune 500 now use Microsoft 365 Copilot\n\n- **Published:** Tue, 19 Nov 2024 13:30:02 +0000\n- **Author:** Frank X. Shaw\n- **Link:** https://blogs.microsoft.com/blog/2024/11/19/ignite-2024-why-nearly-70-of-the-fortune-500-now-use-microsoft-365-copilot/\n\nTwo things can be true at the same time.",
    );
    expect(result.markdown).toContain("[**Microsoft Ignite**](https://ignite.microsoft.com/en-US/home)");
    expect(result.markdown.match(/^## /gm)?.length).toBe(10);
    expect(result.markdown).not.toContain("<p>");
  });

  test("an Atom feed with html and xhtml content", async () => {
    const atom = `<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Example Atom</title><subtitle>Notes</subtitle><link href="https://example.org/"/>
<entry><title>First &amp; best</title><link rel="alternate" href="/posts/1"/><updated>2024-01-02T03:04:05Z</updated><author><name>Ann</name></author><content type="html">&lt;p&gt;Hello &lt;b&gt;world&lt;/b&gt;&lt;/p&gt;</content></entry>
<entry><title>Second</title><link href="https://example.org/posts/2"/><content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>An <a href="/x">xhtml</a> entry</p></div></content></entry></feed>`;
    const result = await convertFeed(input(new TextEncoder().encode(atom), "a.atom", "application/atom+xml", "atom"), context());
    expect(result.markdown).toBe(
      "# Example Atom\n\nNotes\n\n## First & best\n\n- **Published:** 2024-01-02T03:04:05Z\n- **Author:** Ann\n- **Link:** https://example.org/posts/1\n\nHello **world**\n\n## Second\n\n- **Link:** https://example.org/posts/2\n\nAn [xhtml](https://example.org/x) entry\n",
    );
  });

  test("a feed whose item nests its elements 50 000 deep is unreadable_document, not a stack overflow (an internal error before)", async () => {
    const rss = `<?xml version="1.0"?><rss version="2.0"><channel><title>T</title><item><title>I</title><description>${"<b>".repeat(50_000)}core${"</b>".repeat(50_000)}</description></item></channel></rss>`;
    const error = await failureOf(convertFeed(input(new TextEncoder().encode(rss), "deep.rss", "application/rss+xml", "rss"), context()));
    expect(error.code).toBe("unreadable_document");
    expect(error.message).toContain("2000 deep");
  });

  test("a converter that runs the stack out answers unreadable_document, naming the file; other errors pass as they are", () => {
    expect(tooDeep(new RangeError("Maximum call stack size exceeded."), "deep.x")).toMatchObject({ code: "unreadable_document", detail: "deep.x nests its structure too deep to read" });
    expect(tooDeep(new RangeError("Invalid array length"), "a.x")).toBeNull();
    expect(tooDeep(new Error("other"), "a.x")).toBeNull();
  });

  test("XML that is not a feed is unreadable_document", async () => {
    const error = await failureOf(convertFeed(input(new TextEncoder().encode("<catalog><book/></catalog>"), "c.xml", "application/xml", "xml"), context()));
    expect(error.code).toBe("unreadable_document");
  });
});
