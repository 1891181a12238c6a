/**
 * HTML -> markdown: the markdown writer on small pages, boilerplate removal on the real pages of the
 * corpus (Wikipedia, a Docusaurus blog post, a Bing results page) and on synthetic pages whose main
 * text is known, scored with token-level precision, recall and F1.
 */
import { describe, expect, test } from "bun:test";
import { AppError } from "../src/errors";
import { convertHtml, htmlToMarkdown, parseDocument } from "../src/convert/html";
import type { ConvertContext, ConvertInput } from "../src/convert/types";
import { convertContext } from "./helpers/convert";

const fixture = (name: string) => Bun.file(new URL(`./fixtures/${name}`, import.meta.url)).text();

const context = (page: Partial<ConvertContext["page"]> = {}) => convertContext({ page, timeoutMs: 30_000 });

function htmlInput(bytes: Uint8Array, extra: Partial<ConvertInput> = {}): ConvertInput {
  return { bytes, filename: "page.html", contentType: "text/html", ext: "html", ...extra };
}

/** plain strips markdown syntax (links keep their text, images and URLs go) to compare text. */
function plain(markdown: string): string {
  return markdown
    .replace(/!\[[^\]]*\]\([^)]*\)/g, " ")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\\([\\`*_[\]<>#+.!|~-])/g, "$1")
    .replace(/[*`|]/g, " ")
    .replace(/\s+/g, " ");
}

function tokens(text: string): string[] {
  return (plain(text).toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
}

/** scoreTokens is token-level precision/recall/F1 of extracted text against the known main text (bags of words). */
function scoreTokens(extracted: string, gold: string): { precision: number; recall: number; f1: number } {
  const want = new Map<string, number>();
  for (const t of tokens(gold)) want.set(t, (want.get(t) ?? 0) + 1);
  const got = tokens(extracted);
  const goldCount = [...want.values()].reduce((a, b) => a + b, 0);
  let overlap = 0;
  for (const t of got) {
    const n = want.get(t) ?? 0;
    if (n > 0) {
      overlap++;
      want.set(t, n - 1);
    }
  }
  const precision = got.length ? overlap / got.length : 0;
  const recall = goldCount ? overlap / goldCount : 0;
  return { precision, recall, f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0 };
}

describe("markdown writer", () => {
  test("headings, paragraphs, emphasis, code, strike and line breaks", () => {
    const { markdown } = htmlToMarkdown(
      `<h1>Title</h1><p>Some <b>bold </b>and <i>italic</i>, <code>x = 1</code>, <del>gone</del>.<br>Next line</p><h3>Sub   heading</h3><hr><p>after</p>`,
      { mainContent: false },
    );
    expect(markdown).toBe("# Title\n\nSome **bold** and *italic*, `x = 1`, ~~gone~~.\\\nNext line\n\n### Sub heading\n\n---\n\nafter\n");
  });

  test("a <br> inside a paragraph is a hard break (an address, a verse, a signature); a run of <br> ends the paragraph; none at a block's edges; <br> in a table cell", () => {
    const html = `<p>Acme Ltd<br>1 High Street<br>Leeds LS1 4AP</p>
<blockquote>Roses are red,<br>violets are blue</blockquote>
<p><br>Kind regards,<br>Jane Doe<br></p>
<p>First part<br><br>second part <br> <br> <br> third part</p>
<ul><li>Step one<br>then wait</li></ul>
<table><tr><th>Name</th><th>Address</th></tr><tr><td>Acme</td><td>1 High Street<br>Leeds</td></tr></table>
<figure><img src="map.png" alt="map"><figcaption>The route<br>from Leeds</figcaption></figure>
<h2>Two<br>lines</h2>`;
    const { markdown } = htmlToMarkdown(html, { mainContent: false });
    expect(markdown).toContain("Acme Ltd\\\n1 High Street\\\nLeeds LS1 4AP\n\n");
    expect(markdown).toContain("> Roses are red,\\\n> violets are blue\n\n");
    expect(markdown).toContain("\n\nKind regards,\\\nJane Doe\n\n");
    expect(markdown).toContain("\n\nFirst part\n\nsecond part\n\nthird part\n\n");
    expect(markdown).toContain("- Step one\\\n  then wait\n");
    expect(markdown).toContain("| Acme | 1 High Street<br>Leeds |");
    expect(markdown).toContain("*The route from Leeds*");
    expect(markdown).toContain("## Two lines");
    expect(markdown).not.toMatch(/\\\n(?:\n|$)|\\$/);
  });

  test("nested lists keep their start numbers and indentation", () => {
    const { markdown } = htmlToMarkdown(`<ol start="3"><li>three<ul><li>a</li><li>b<ol><li>deep</li></ol></li></ul></li><li>four</li></ol>`, { mainContent: false });
    expect(markdown).toBe("3. three\n   - a\n   - b\n     1. deep\n4. four\n");
  });

  test("ruby annotations (furigana) are left out; the base text and text beside the ruby stay", () => {
    const html = "<p><ruby>子<rp>(</rp><rt>こ</rt><rp>)</rp></ruby>どもへの<ruby>虐待<rt>ぎゃくたい</rt></ruby>をなくすための<ruby>法律<rt>ほうりつ</rt></ruby>ができました。</p>";
    const md = htmlToMarkdown(html, { mainContent: false }).markdown;
    expect(md).toContain("子どもへの虐待をなくすための法律ができました。");
    expect(md).not.toContain("ぎゃくたい");
    expect(md).not.toContain("(こ)");
  });

  test("tables: header from th, colspan filled, nested table flattened, one-cell layout table unwrapped", () => {
    const { markdown } = htmlToMarkdown(
      `<table><tr><td><p>Layout wrapper</p>
        <table><thead><tr><th>Name</th><th>Q1</th><th>Q2</th></tr></thead>
        <tbody><tr><td colspan="2">Merged | cell</td><td>7</td></tr>
        <tr><td>Nested</td><td><table><tr><td>x</td><td>y</td></tr></table></td><td>9</td></tr></tbody></table>
      </td></tr></table>`,
      { mainContent: false },
    );
    expect(markdown).toBe("Layout wrapper\n\n| Name | Q1 | Q2 |\n| --- | --- | --- |\n| Merged \\| cell |  | 7 |\n| Nested | x y | 9 |\n");
  });

  test("a list in a table of one row nested inside a cell reads as a horizontal list: a · b · c, numbers kept", () => {
    // a topic row of links inside a table's cell
    const { markdown } = htmlToMarkdown(
      `<table><tr><th>Box</th><th>Topics</th></tr><tr><td>Country</td><td>
        <table><tr><th>History</th><td><div><ul><li><a href="/t">Timeline</a></li><li>Military history</li><li>Archaeology</li></ul></div></td>
        <td><ol><li>Plan</li><li>Build</li></ol></td></tr></table>
      </td></tr></table>`,
      { mainContent: false },
    );
    expect(markdown).toBe("| Box | Topics |\n| --- | --- |\n| Country | History [Timeline](/t) · Military history · Archaeology 1. Plan 2. Build |\n");
  });

  test("a table holding a table of several rows lays out blocks: its cells are written in reading order, the inner table as a table", () => {
    // a wiki's navigation box: a title row, a group row of links, and a group whose cell holds a table of subgroups
    const { markdown } = htmlToMarkdown(
      `<table><tr><th colspan="2">Country articles</th></tr>
        <tr><th>History</th><td><ul><li>Timeline</li><li>Military history</li></ul></td></tr>
        <tr><th>Geography</th><td><table><tr><th>Cities</th><td>Auckland, Wellington</td></tr><tr><th>Rivers</th><td>Waikato</td></tr></table></td></tr>
      </table>`,
      { mainContent: false },
    );
    expect(markdown).toBe(
      "Country articles\n\nHistory\n\n- Timeline\n- Military history\n\nGeography\n\n| Cities | Auckland, Wellington |\n| --- | --- |\n| Rivers | Waikato |\n",
    );
  });

  test("an end tag a browser ignores inside a table (an old page's <center><table></center><tr>) does not end the table", () => {
    const { markdown } = htmlToMarkdown(
      `<p>Composition</p><center><table border="1"></center><tr><td><b>C</b></td><td><b>Si</b></td></tr><tr><td>0.39</td><td>0.2</td></tr></table>
       <div><span>After</span></div><p>Last <b>bold</b> words</p>`,
      { mainContent: false },
    );
    expect(markdown).toBe("Composition\n\n| **C** | **Si** |\n| --- | --- |\n| 0.39 | 0.2 |\n\nAfter\n\nLast **bold** words\n");
  });

  test("stray end tags: a page of unclosed comments, tags and tables parses in linear time", () => {
    for (const hostile of ["<table><td>" + "</div>".repeat(50_000), "<!--" + "<b>".repeat(50_000), "<center><table><tr><td>" + "<i>x</i>".repeat(3_000) + "</center>".repeat(50_000), "<script>" + "<a>".repeat(50_000)]) {
      const started = performance.now();
      htmlToMarkdown(hostile, { mainContent: false });
      expect(performance.now() - started).toBeLessThan(3000);
    }
  });

  test("links and images become absolute against <base href>; data URIs and pixels are dropped", () => {
    const longData = "data:image/png;base64," + "A".repeat(200);
    const { markdown } = htmlToMarkdown(
      `<html><head><base href="/docs/"></head><body><p><a href="guide.html#x">Guide</a> <img src="img/a.png" alt="A [chart]">
       <img src="${longData}" alt="inline"> <img src="/t.gif" width="1" height="1" alt="px"> <a href="javascript:void(0)">js</a></p></body></html>`,
      { mainContent: false, baseUrl: "https://example.com/start/page" },
    );
    expect(markdown).toBe("[Guide](https://example.com/docs/guide.html#x) ![A \\[chart\\]](https://example.com/docs/img/a.png) js\n");
  });

  test("code blocks are fenced with their language; text that looks like markdown is escaped", () => {
    const { markdown } = htmlToMarkdown(
      `<pre><code class="language-ts">const a = \`x\`;\nif (a) {\n  run();\n}</code></pre><p># not a heading, 1. not a list, *stars* and [brackets] and snake_case _under_</p>`,
      { mainContent: false },
    );
    expect(markdown).toBe("```ts\nconst a = `x`;\nif (a) {\n  run();\n}\n```\n\n\\# not a heading, 1. not a list, \\*stars\\* and \\[brackets\\] and snake_case \\_under\\_\n");
  });

  test("blockquotes, definition lists and figure captions", () => {
    const { markdown } = htmlToMarkdown(
      `<blockquote><p>Quoted</p><p>twice</p></blockquote><dl><dt>Term</dt><dd>Meaning</dd></dl><figure><img src="https://x.org/f.png" alt="F"><figcaption>The caption</figcaption></figure>`,
      { mainContent: false },
    );
    expect(markdown).toBe("> Quoted\n>\n> twice\n\n**Term**\n\nMeaning\n\n![F](https://x.org/f.png)\n\n*The caption*\n");
  });

  test("title comes from og:title, then <title>, then h1", () => {
    expect(htmlToMarkdown(`<html><head><meta property="og:title" content="OG"><title>T</title></head><body><h1>H</h1></body></html>`, { mainContent: false }).title).toBe("OG");
    expect(htmlToMarkdown(`<html><head><title> The  title </title></head><body><h1>H</h1></body></html>`, { mainContent: false }).title).toBe("The title");
    expect(htmlToMarkdown(`<h1>Only heading</h1><p>x</p>`, { mainContent: false }).title).toBe("Only heading");
  });

  test("selector converts only the matching elements; a selector that matches nothing is a 400", () => {
    const html = `<div id="a"><p>first</p></div><div class="keep"><p>second</p></div><div class="keep"><p>third</p></div>`;
    expect(htmlToMarkdown(html, { mainContent: true, selector: ".keep" }).markdown).toBe("second\n\nthird\n");
    const miss = (() => {
      try {
        htmlToMarkdown(html, { mainContent: true, selector: "#nope" });
      } catch (error) {
        return error;
      }
    })();
    expect(miss).toBeInstanceOf(AppError);
    expect((miss as AppError).code).toBe("bad_request");
    expect((miss as AppError).detail).toBe("selector: '#nope' matched nothing on the page");
  });

  test("a page with <head> and <body> but no <html> tag keeps its body (found on a real page of trafilatura's evaluation set)", () => {
    const page = `<!DOCTYPE html><head><title>Market</title><link rel="stylesheet" href="/a.css" /></head><body><h2>Historic market</h2><dl><dt>Address:</dt><dd>Görlitzer Str. 45</dd></dl><p>While you stroll over the market, your children weave baskets.</p></body></html>`;
    const whole = htmlToMarkdown(page, { mainContent: false }).markdown;
    expect(whole).toContain("## Historic market");
    expect(whole).toContain("Görlitzer Str. 45");
    expect(htmlToMarkdown(page, { mainContent: true }).markdown).toContain("While you stroll over the market");
  });

  test("<html> tags inside IE conditional comments, with markup before them, leave the article whole", () => {
    const page = `<script src="/head.js"></script><style>.x{color:red}</style><!DOCTYPE html>
<!--[if IE 7]><html class="ie ie7" lang="de"><![endif]-->
<!--[if !(IE 7)]><!--><html lang="de"><!--<![endif]--><head><title>Ressourcen</title></head>
<body class="single"><nav><a href="/">Start</a></nav><article><h1>Warum es ein Ressourcenschutzgesetz braucht</h1>
<p>Der jährliche Rohstoffkonsum in Deutschland muss bis Mitte des Jahrhunderts mindestens halbiert werden, und dafür braucht es eine Verbindlichkeit.</p>
<p>Es besteht ein direkter Zusammenhang zwischen Rohstoffnutzung und Auswirkungen auf den Zustand der Umwelt und Ökosysteme.</p></article>
<footer>Impressum</footer></body></html>`;
    const text = htmlToMarkdown(page, { mainContent: true }).markdown;
    expect(text).toContain("mindestens halbiert werden");
    expect(text).toContain("Es besteht ein direkter Zusammenhang zwischen Rohstoffnutzung");
    // what must stay out: the stray style and the page chrome
    expect(text).not.toContain("color:red");
    expect(text).not.toContain("Impressum");
  });

  test("a second <html><body> pasted inside the article, and markup before <html>, do not end or empty the body (as in browsers)", () => {
    const nested = `<!DOCTYPE html><html><head><title>Wolves</title></head><body><nav><a href="/">Home</a></nav><article><h1>Wolves near the village</h1><html><body><p>Last week two wolves were seen near the village school, and the hunters' association asked walkers to keep their dogs on a lead.</p></body></html><p>The association will meet the mayor on Friday to talk about fences for the sheep.</p></article><footer>Imprint</footer></body></html>`;
    const text = htmlToMarkdown(nested, { mainContent: true }).markdown;
    expect(text).toContain("two wolves were seen near the village school");
    expect(text).toContain("meet the mayor on Friday");
    const strayStyle = `<style>.grid { display: grid; }</style>\n<!DOCTYPE html><html lang="en"><head><title>Plants</title></head><body><main><h1>Plants as storytellers</h1><p>I try to position plants as storytellers, living archives that reflect the legacy of the places where they grow and of the people who tended them.</p><p>The exhibition opens in the old greenhouse next month and runs until the end of the summer.</p></main></body></html>`;
    expect(htmlToMarkdown(strayStyle, { mainContent: false }).markdown).toContain("position plants as storytellers");
    expect(htmlToMarkdown(strayStyle, { mainContent: true }).markdown).toContain("position plants as storytellers");
  });

  test("a hostile page (10 000 nested elements) converts without exhausting the stack", () => {
    const html = "<div>".repeat(10000) + "deep text" + "</div>".repeat(10000);
    expect(htmlToMarkdown(html, { mainContent: false }).markdown).toContain("deep text");
    expect(htmlToMarkdown(html, { mainContent: true }).markdown).toContain("deep text");
    // nested blocks named like chrome around the headline: each one is a page-wrapper candidate (boilerplate.ts pageWrapperTest)
    const wrapped = '<div class="sidebar">'.repeat(10000) + "<h1>Deep headline</h1><p>deep text</p>" + "</div>".repeat(10000);
    expect(htmlToMarkdown(wrapped, { mainContent: true }).markdown).toContain("# Deep headline");
  }, 30_000);

  test("a page of 80 000 nested elements is read in linear time: no element's text is gathered again for each of its ancestors (it took minutes)", () => {
    // a page of 0.9 MB; asking each of 80 000 nested blocks for its
    // textContent (share bars, breadcrumb trails) walked the whole chain under it each time
    const html = "<div>".repeat(80000) + "<p>deep text</p>" + "</div>".repeat(80000);
    expect(htmlToMarkdown(html, { mainContent: true }).markdown).toContain("deep text");
  }, 30_000);
});

describe("convertHtml (uploaded HTML files)", () => {
  test("decodes the charset named by <meta charset>", async () => {
    const head = new TextEncoder().encode(`<html><head><meta charset="windows-1252"><title>Caf`);
    const rest = new TextEncoder().encode(`</title></head><body><p>Cr`);
    const tail = new TextEncoder().encode(` br\u00fbl\u00e9e</p></body></html>`.replace(/[\u00fb\u00e9]/g, "?"));
    const bytes = new Uint8Array([...head, 0xe9, ...rest, 0xe8, 0x6d, 0x65, ...tail]);
    const result = await convertHtml(htmlInput(bytes), context({ mainContent: false }));
    expect(result.title).toBe("Café");
    expect(result.markdown).toContain("Crème");
    expect(result.method).toBe("html");
  });

  /** POLISH: a paragraph with every Polish letter, to decode in the charsets Polish pages are served in. */
  const POLISH = "Zażółć gęślą jaźń. Kolejne organizacje sprzeciwiają się atakom; uchwałę przyjęło Stowarzyszenie na Rzecz Zrównoważonego Rozwoju. Łódź, Świnoujście, Źródło.";

  /** encodeLegacy writes text in a single-byte charset, by inverting the charset's own decoder. */
  function encodeLegacy(text: string, charset: string): Uint8Array {
    const decoder = new TextDecoder(charset);
    const byChar = new Map<string, number>();
    for (let b = 0; b < 256; b++) byChar.set(decoder.decode(new Uint8Array([b])), b);
    return new Uint8Array(Array.from(text, (ch) => {
      const b = byChar.get(ch);
      if (b === undefined) throw new Error(`'${ch}' is not in ${charset}`);
      return b;
    }));
  }

  const page = (charset: string, text: string) => [`<html><head><meta charset="${charset}"><title>Strona</title></head><body><p>`, text, "</p></body></html>"];

  test("a page declared windows-1250 or iso-8859-2 whose bytes are valid UTF-8 decodes as UTF-8", async () => {
    for (const declared of ["windows-1250", "iso-8859-2"]) {
      const [head, text, tail] = page(declared, POLISH);
      const bytes = new TextEncoder().encode(head! + text + tail);
      const result = await convertHtml(htmlInput(bytes), context({ mainContent: false }));
      expect(result.markdown).toContain(POLISH);
    }
  });

  test("a page declared UTF-8 whose bytes are windows-1250 or iso-8859-2 decodes in the charset of its bytes", async () => {
    for (const actual of ["windows-1250", "iso-8859-2"]) {
      const [head, text, tail] = page("utf-8", POLISH);
      const bytes = new Uint8Array([...new TextEncoder().encode(head), ...encodeLegacy(text!, actual), ...new TextEncoder().encode(tail)]);
      const result = await convertHtml(htmlInput(bytes), context({ mainContent: false }));
      expect(result.markdown).toContain(POLISH);
    }
  });

  test("UTF-8 text with a few broken sequences (a truncated teaser, a legacy include) stays UTF-8 whatever the declaration", async () => {
    for (const declared of ["utf-8", "windows-1250", "iso-8859-2"]) {
      const [head, text, tail] = page(declared, POLISH);
      const utf8 = new TextEncoder().encode(head! + text);
      // "papieros" cut inside its "ó" (0xC3 without its second byte), and one byte of a legacy include.
      const truncated = new Uint8Array([...new TextEncoder().encode(" Przemyt paczek papieros"), 0xc3, ...new TextEncoder().encode("... Cena 5"), 0xa4]);
      const bytes = new Uint8Array([...utf8, ...truncated, ...new TextEncoder().encode(tail)]);
      const result = await convertHtml(htmlInput(bytes), context({ mainContent: false }));
      expect(result.markdown).toContain(POLISH);
      expect(result.markdown).toContain("Przemyt paczek papieros");
      expect(result.markdown).toContain("Cena 5");
    }
  });

  test("a page without any text is empty_document", async () => {
    const bytes = new TextEncoder().encode("<html><body><script>var a = 1;</script><div></div></body></html>");
    const error = await convertHtml(htmlInput(bytes), context()).catch((e) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("empty_document");
  });
});

describe("boilerplate removal on the corpus", () => {
  test("Wikipedia: article text, infobox rows and section headings kept; navigation, sidebars and footer dropped", async () => {
    const html = await fixture("test_wikipedia.html");
    const main = htmlToMarkdown(html, { mainContent: true, baseUrl: "https://en.wikipedia.org/wiki/Microsoft" });
    const text = plain(main.markdown);
    expect(main.title).toBe("Microsoft - Wikipedia");
    expect(main.markdown.startsWith("# Microsoft\n")).toBe(true);
    expect(main.markdown).toContain("\n## History\n");
    expect(main.markdown).toContain("\n### 1972–1985: Founding\n");
    expect(main.markdown).toContain("\n## Corporate affairs\n");
    expect(text).toContain("Microsoft Corporation is an American multinational corporation and technology company headquartered in Redmond, Washington.");
    expect(main.markdown).toMatch(/\n\| Founders \| .*Bill Gates.*Paul Allen.* \|\n/);
    expect(main.markdown).toMatch(/\n\| Number of employees \| 221,000 \(2023\) \|\n/);
    expect(main.markdown).toContain("[Bill Gates](https://en.wikipedia.org/wiki/Bill_Gates)");
    for (const chrome of ["Jump to content", "Main page", "Random article", "Privacy policy", "Cookie statement", "Create account", "What links here", "Authority control", "Retrieved from"]) {
      expect(text).not.toContain(chrome);
    }
    const full = plain(htmlToMarkdown(html, { mainContent: false, baseUrl: "https://en.wikipedia.org/wiki/Microsoft" }).markdown);
    for (const chrome of ["Jump to content", "Main page", "Random article", "Privacy policy", "Cookie statement"]) expect(full).toContain(chrome);
    expect(full).toContain("Microsoft Corporation is an American multinational corporation");
  });

  test("blog post: title and body paragraphs kept; site navigation, tags and footer dropped", async () => {
    const html = await fixture("test_blog.html");
    const main = htmlToMarkdown(html, { mainContent: true, baseUrl: "https://microsoft.github.io/autogen/blog/2023/04/21/LLM-tuning-math" });
    const text = plain(main.markdown);
    expect(main.markdown.startsWith("# Does Model and Inference Parameter Matter in LLM Applications? - A Case Study for MATH\n")).toBe(true);
    expect(main.markdown).toContain("\n## Experiment Setup\n");
    expect(main.markdown).toContain("\n## For Further Reading\n");
    expect(text).toContain("Large language models (LLMs) are powerful tools that can generate natural language texts for various applications");
    expect(text).toContain("The need for model selection, parameter tuning and cost saving is not specific to the math problems.");
    for (const chrome of ["Recent posts", "Newer Post", "Copyright ©", "Skip to main content", "Tags:"]) expect(text).not.toContain(chrome);
    const full = plain(htmlToMarkdown(html, { mainContent: false }).markdown);
    for (const chrome of ["Recent posts", "Newer Post", "Copyright ©"]) expect(full).toContain(chrome);
  });

  test("search results page: the results list, each result linked", async () => {
    const html = await fixture("test_serp.html");
    const main = htmlToMarkdown(html, { mainContent: true, baseUrl: "https://www.bing.com/search?q=Microsoft+wikipedia" });
    expect(main.title).toBe("Microsoft wikipedia - Bing");
    const results = main.markdown.match(/^\s*(?:\d+\. )?## \[[^\]]+\]\(https:\/\/www\.bing\.com\/ck\/a\?[^)]+\)$/gm) ?? [];
    expect(results.length).toBeGreaterThanOrEqual(8);
    expect(main.markdown).toContain("[Timeline of Microsoft - Wikipedia]");
    expect(plain(main.markdown)).toContain("Microsoft Corporation is a leading developer of computer software");
  });
});

/**
 * SYNTHETIC_PAGES are pages with a known main text (inside the MAIN marker comments) wrapped in heavy
 * boilerplate: menus, breadcrumbs, share bars, related links, comments, newsletter forms, cookie
 * banners and footers, with semantic markup, with telling class names, and with neither.
 */
const SYNTHETIC_PAGES: Record<string, string> = {
  "news article (semantic markup)": `<!doctype html><html><head><title>Harbour bridge reopens | Daily Gazette</title></head><body>
<div class="cookie-banner"><p>We use cookies to improve your experience. By continuing you accept our cookie policy.</p><button>Accept all</button></div>
<header><a href="/">Daily Gazette</a><nav><ul><li><a href="/news">News</a></li><li><a href="/sport">Sport</a></li><li><a href="/business">Business</a></li><li><a href="/culture">Culture</a></li><li><a href="/opinion">Opinion</a></li></ul></nav></header>
<ol class="breadcrumbs"><li><a href="/">Home</a></li><li><a href="/news">News</a></li><li><a href="/news/local">Local</a></li></ol>
<main><article>
<!--MAIN--><h1>Harbour bridge reopens after two years of repairs</h1>
<p>The old harbour bridge reopened to traffic on Monday morning after a restoration that took twenty six months and cost the city forty million euros.</p>
<p>Engineers replaced every one of the four hundred steel cables that hold the deck, and the concrete piers were reinforced against the winter storms that damaged them in the flood of the previous decade.</p>
<h2>A slow start for commuters</h2>
<p>The first drivers crossed shortly after six o'clock. Many said the new speed limit of forty kilometres per hour would lengthen their daily journey, but the mayor defended the rule as necessary to protect the structure.</p>
<p>Cyclists now have a separate lane on the eastern side, protected by a low wall, and pedestrians keep the western walkway with its view of the lighthouse.</p>
<blockquote><p>We built it to last another century, said the chief engineer at the opening ceremony.</p></blockquote>
<p>Ferry operators, who carried most of the traffic during the closure, expect their passenger numbers to fall by half before the summer.</p><!--/MAIN-->
<div class="share-bar"><a href="https://facebook.com/share">Share on Facebook</a> <a href="https://twitter.com/share">Tweet this</a> <a href="mailto:?">Email a friend</a></div>
<footer class="article-footer">Tags: <a href="/t/bridges">bridges</a> <a href="/t/traffic">traffic</a></footer>
</article>
<section class="related-articles"><h2>Related stories</h2><ul><li><a href="/a1">Council approves new tram line to the airport</a></li><li><a href="/a2">Storm damage closes coastal road for a week</a></li><li><a href="/a3">Lighthouse museum celebrates its fiftieth year</a></li></ul></section>
<section id="comments"><h2>Comments (3)</h2><div class="comment"><p>Finally! I have been waiting for this for ages.</p></div><div class="comment"><p>Forty km per hour is ridiculous, nobody will respect that limit.</p></div><div class="comment"><p>Great work by the engineers, the lights look beautiful at night.</p></div></section>
</main>
<aside><h3>Most read</h3><ol><li><a href="/m1">Celebrity chef opens restaurant in old fish market</a></li><li><a href="/m2">Ten things to do this weekend in the city</a></li></ol></aside>
<footer><p><a href="/about">About us</a> | <a href="/contact">Contact</a> | <a href="/privacy">Privacy policy</a> | <a href="/terms">Terms of use</a></p><p>Copyright 2024 Daily Gazette Media Group. All rights reserved.</p></footer>
</body></html>`,

  "documentation page (div soup with class names)": `<html><head><title>Configuring the cache - Widgetron docs</title></head><body>
<div id="top-menu" class="menu"><a href="/">Widgetron</a> <a href="/docs">Docs</a> <a href="/blog">Blog</a> <a href="/pricing">Pricing</a> <a href="/login">Log in</a></div>
<div class="layout">
<div class="sidebar"><div class="sidebar-title">Guides</div><ul><li><a href="/docs/install">Installation</a></li><li><a href="/docs/quickstart">Quick start</a></li><li><a href="/docs/cache">Configuring the cache</a></li><li><a href="/docs/deploy">Deployment</a></li><li><a href="/docs/faq">Frequently asked questions</a></li></ul></div>
<div class="doc-content">
<!--MAIN--><h1>Configuring the cache</h1>
<p>Widgetron keeps rendered widgets in a cache so that repeated requests are answered without rendering again. The cache is stored on disk by default and survives restarts.</p>
<h2>Cache size</h2>
<p>The maximum size is set in megabytes with the <code>cache_size</code> option. When the cache is full the least recently used entries are removed first.</p>
<pre><code class="language-yaml">cache_size: 512
cache_dir: /var/lib/widgetron</code></pre>
<h2>Expiry</h2>
<p>Entries expire after the number of seconds given by the expiry option. Expired entries are removed lazily, the next time they are requested.</p>
<table><tr><th>Option</th><th>Default</th><th>Meaning</th></tr><tr><td>cache_size</td><td>256</td><td>largest cache in megabytes</td></tr><tr><td>expiry</td><td>3600</td><td>lifetime of an entry in seconds</td></tr></table><!--/MAIN-->
<div class="pagination-nav"><a href="/docs/quickstart">Previous: Quick start</a> <a href="/docs/deploy">Next: Deployment</a></div>
<div class="newsletter-signup"><h3>Stay up to date</h3><p>Subscribe to our newsletter for product news and release notes.</p><form><input type="email"><button>Subscribe</button></form></div>
</div></div>
<div class="site-footer"><p>Widgetron is a product of Example Labs. <a href="/imprint">Imprint</a> <a href="/privacy">Privacy</a></p></div>
</body></html>`,

  "plain page (no semantic tags, no class names)": `<html><head><title>Growing tomatoes on a balcony</title></head><body>
<div><div><a href="/">Home</a> <a href="/garden">Garden</a> <a href="/kitchen">Kitchen</a> <a href="/travel">Travel</a> <a href="/about">About</a> <a href="/contact">Contact</a></div></div>
<div>
<div>
<!--MAIN--><h1>Growing tomatoes on a balcony</h1>
<p>Tomatoes grow well in pots if they get at least six hours of sun a day. A south facing balcony is ideal, but east or west will do for cherry varieties.</p>
<p>Choose a pot of at least twenty litres for each plant and fill it with a rich compost mixed with a handful of grit for drainage. Small pots dry out quickly in July and the fruit splits.</p>
<p>Water deeply in the morning rather than a little every evening, and feed once a week with a potash rich fertiliser as soon as the first flowers appear.</p>
<p>Tall varieties need a cane or a string tied to the railing. Pinch out the side shoots that grow between the stem and the leaves so that the plant puts its energy into the fruit.</p>
<p>Pick the tomatoes when they are fully coloured and slightly soft. Green fruit left at the end of the season ripens indoors on a sunny windowsill next to a banana.</p><!--/MAIN-->
</div>
<div><b>You may also like</b><ul><li><a href="/p1">Ten herbs for a shady window</a></li><li><a href="/p2">How to make your own compost</a></li><li><a href="/p3">Chilli peppers from seed</a></li><li><a href="/p4">Watering systems for holidays</a></li></ul></div>
</div>
<div><p><a href="/privacy">Privacy</a> <a href="/terms">Terms</a> <a href="/sitemap">Sitemap</a> <a href="/rss">RSS</a></p></div>
</body></html>`,
};

/** goldText is the known main text of a synthetic page: the markup between the MAIN markers as text. */
function goldText(html: string): string {
  const inner = html.slice(html.indexOf("<!--MAIN-->") + 11, html.indexOf("<!--/MAIN-->"));
  return inner.replace(/<[^>]+>/g, " ").replace(/&#39;/g, "'").replace(/\s+/g, " ");
}

describe("boilerplate removal on synthetic pages with known main text", () => {
  for (const [name, html] of Object.entries(SYNTHETIC_PAGES)) {
    test(`${name}: token F1 >= 0.9 with mainContent, boilerplate kept with mainContent:false`, () => {
      const gold = goldText(html);
      const main = htmlToMarkdown(html, { mainContent: true, baseUrl: "https://example.com/page" }).markdown;
      const full = htmlToMarkdown(html, { mainContent: false, baseUrl: "https://example.com/page" }).markdown;
      const kept = scoreTokens(main, gold);
      const whole = scoreTokens(full, gold);
      console.log(
        `${name}: main content P=${kept.precision.toFixed(3)} R=${kept.recall.toFixed(3)} F1=${kept.f1.toFixed(3)}; ` +
          `whole page P=${whole.precision.toFixed(3)} R=${whole.recall.toFixed(3)} F1=${whole.f1.toFixed(3)}`,
      );
      expect(kept.f1).toBeGreaterThanOrEqual(0.9);
      expect(kept.f1).toBeGreaterThan(whole.f1);
      expect(whole.recall).toBeGreaterThan(0.97);
    });
  }

  test("the boilerplate named on each page is gone with mainContent and present without", () => {
    const cases: Array<[string, string[]]> = [
      ["news article (semantic markup)", ["We use cookies", "Share on Facebook", "Related stories", "Finally! I have been waiting", "Most read", "All rights reserved", "Business"]],
      ["documentation page (div soup with class names)", ["Pricing", "Frequently asked questions", "Subscribe to our newsletter", "Next: Deployment", "Imprint"]],
      ["plain page (no semantic tags, no class names)", ["Kitchen", "You may also like", "Chilli peppers from seed", "Sitemap"]],
    ];
    for (const [name, chrome] of cases) {
      const html = SYNTHETIC_PAGES[name]!;
      const main = plain(htmlToMarkdown(html, { mainContent: true }).markdown);
      const full = plain(htmlToMarkdown(html, { mainContent: false }).markdown);
      for (const text of chrome) {
        expect({ name, text, inMain: main.includes(text) }).toEqual({ name, text, inMain: false });
        expect({ name, text, inFull: full.includes(text) }).toEqual({ name, text, inFull: true });
      }
    }
  });

  test("the documentation page keeps its code block and table", () => {
    const { markdown } = htmlToMarkdown(SYNTHETIC_PAGES["documentation page (div soup with class names)"]!, { mainContent: true });
    expect(markdown).toContain("```yaml\ncache_size: 512\ncache_dir: /var/lib/widgetron\n```");
    expect(markdown).toContain("| Option | Default | Meaning |\n| --- | --- | --- |\n| cache_size | 256 | largest cache in megabytes |");
    expect(markdown.startsWith("# Configuring the cache\n")).toBe(true);
  });
});

/** PARAGRAPHS: article prose long enough for Readability to take its container as the article. */
const PARAGRAPHS = [
  "The river ferry between the two old market towns resumed its crossings this week after the spring floods had closed the landing stages for almost a month.",
  "The ferryman, who has worked the route for thirty years, said the water had never risen so high, and that the new stone landing built last autumn had saved the boat from being torn loose.",
  "Farmers on the eastern bank depend on the ferry to bring their vegetables to the Saturday market, because the nearest bridge lies twenty kilometres downstream.",
  "The town council has promised to study a second landing further upstream, where the banks are higher and the current is slower in the flood season.",
];

/** articlePage wraps `inner` (the article's body) in a page with a menu and a footer. */
const articlePage = (inner: string) => `<!doctype html><html><head><title>Ferry crossings resume</title></head><body>
<div class="menu"><a href="/">Home</a> <a href="/news">News</a> <a href="/sport">Sport</a></div>
<div class="content"><div class="post"><h1>Ferry crossings resume after the floods</h1>${inner}</div></div>
<div class="site-footer"><a href="/imprint">Imprint</a> <a href="/privacy">Privacy</a></div></body></html>`;

const paragraphs = (from = 0, to = PARAGRAPHS.length) => PARAGRAPHS.slice(from, to).map((p) => `<p>${p}</p>`).join("\n");

describe("main content: chrome and content inside the article", () => {
  const main = (html: string) => plain(htmlToMarkdown(html, { mainContent: true, baseUrl: "https://example.com/a" }).markdown);

  test("sections of running text keep their place though their class or id names chrome ('Section--Ads', 'TOC_TITLE_2'); a short ad block goes", () => {
    // The article is long enough that neither named block holds a large share of it (a wrapper's share).
    const html = articlePage(`${paragraphs()}${paragraphs().replace(/ferry/g, "boat")}
<section class="Report__Section Report__Section--Ads" id="Der-Preis"><h2>The price</h2>${paragraphs(1, 4)}</section>
<div class="content_body" id="TOC_TITLE_2"><p>${PARAGRAPHS[1]!.replace("ferryman", "harbour master")}</p><p>${PARAGRAPHS[2]!.replace("Farmers", "Bakers")}</p><p>${PARAGRAPHS[3]}</p></div>
<div class="ad-slot"><p>Advertisement</p><p>Cheap flights to the coast</p></div>`);
    const text = main(html);
    expect(text).toContain("The price");
    expect(text).toContain("The town council has promised to study a second landing");
    expect(text).toContain("The harbour master, who has worked the route");
    expect(text).toContain("Bakers on the eastern bank");
    expect(text).not.toContain("Cheap flights");
  });

  test("a page-wide wrapper named like chrome ('page-banner') does not hide the article: the marked article wins over a long table in it", () => {
    const rows = Array.from({ length: 300 }, (_, i) => `<tr><td>Landing ${i + 1} on the eastern bank</td><td>Ferryman ${i + 1} of the upper river</td><td><a href="mailto:ferryman.${i + 1}@river-landings.example">ferryman.${i + 1}@river-landings.example</a></td></tr>`).join("");
    const html = `<!doctype html><html><head><title>Ferry crossings resume</title></head><body>
<div class="page page-banner"><div class="menu"><a href="/">Home</a> <a href="/news">News</a></div>
<h1>Ferry crossings resume after the floods</h1>
<div itemprop="articleBody">${paragraphs()}<div class="news"><table><caption>LANDINGS, FERRYMEN AND EMAIL ADDRESSES</caption><tbody><tr><th>Landing</th><th>Ferryman</th><th>Email</th></tr>${rows}</tbody></table></div></div>
</div></body></html>`;
    const text = main(html);
    expect(text).toContain(PARAGRAPHS[0]!);
    expect(text).toContain(PARAGRAPHS[3]!);
  });

  test("an affiliate offer box closed by its own 'Apply now' button goes; a lone offer link in a table cell stays", () => {
    const html = articlePage(`${paragraphs()}
<table><tr><th>Boat</th><th>Shop</th></tr><tr><td>River skiff</td><td><div><a href="https://shop.example/skiff">Zum Angebot</a></div></td></tr></table>
<section class="feature"><div class="sub-header">Riverbank Rewards Card</div>
<p><strong>WELCOME OFFER:</strong> 60,000 points after you spend $4,000 in the first three months</p>
<ul><li>2X points on ferry tickets and dining</li><li>No foreign transaction fees</li></ul>
<a href="https://cards.example/apply/riverbank" class="apply">Apply Now</a></section>`);
    const markdown = htmlToMarkdown(html, { mainContent: true, baseUrl: "https://example.com/a" }).markdown;
    expect(plain(markdown)).toContain(PARAGRAPHS[3]!);
    expect(markdown).not.toContain("Riverbank Rewards Card");
    expect(markdown).not.toContain("WELCOME OFFER");
    expect(markdown).not.toContain("Apply Now");
    expect(markdown).toContain("[Zum Angebot](https://shop.example/skiff)");
  });

  test("figure captions and photo credits are dropped, the image stays", () => {
    const html = articlePage(`${paragraphs(0, 2)}
<figure><img src="/ferry.jpg" alt="The ferry at the landing"><figcaption>The ferry at the eastern landing. Photo: J. Smith</figcaption></figure>
<div class="wp-caption"><img src="/flood.jpg" alt="Flood"><p class="wp-caption-text">The flood in April</p></div>
<p><span class="image-credit">Photo: River Archive</span></p>
<figure class="media"><img src="/mill.jpg" alt="The mill"><span class="media-text">The old mill above the landing</span></figure>
<p>Foto: dpa</p>
${paragraphs(2)}`);
    const markdown = htmlToMarkdown(html, { mainContent: true, baseUrl: "https://example.com/a" }).markdown;
    expect(markdown).toContain("![The ferry at the landing](https://example.com/ferry.jpg)");
    expect(markdown).toContain("![Flood](https://example.com/flood.jpg)");
    expect(markdown).not.toContain("Photo: J. Smith");
    expect(markdown).not.toContain("The flood in April");
    expect(markdown).not.toContain("River Archive");
    expect(markdown).not.toContain("The old mill above the landing");
    expect(markdown).not.toContain("Foto: dpa");
    expect(plain(markdown)).toContain(PARAGRAPHS[3]!);
  });

  test("a caption that repeats its picture's alt text goes; a 'related' label paragraph goes with its links; asks of the reader go", () => {
    const html = articlePage(`${paragraphs(0, 2)}
<div class="img-wrap"><img src="/pier.jpg" alt="The new pier at the eastern landing"></div>
<p class="text-center"><small>The new pier at the eastern landing. (Foto: River Archive)</small></p>
${paragraphs(2)}
<p><strong>Schon gelesen?</strong></p>
<blockquote class="wp-embedded-content"><a href="https://example.com/other-story">A bridge for the valley, forty years on</a></blockquote>
<blockquote class="wp-embedded-content"><a href="https://example.com/third-story">The last ferryman of the upper river</a></blockquote>
<p>If you enjoyed reading this post, would you consider supporting our work? Just click <a href="https://example.com/support">here</a>.</p>
<h4>Artikel gefallen? Vergiss nicht zu teilen!</h4>`);
    const markdown = htmlToMarkdown(html, { mainContent: true, baseUrl: "https://example.com/a" }).markdown;
    expect(markdown).toContain("![The new pier at the eastern landing](https://example.com/pier.jpg)");
    expect(markdown).not.toContain("River Archive");
    for (const gone of ["Schon gelesen", "A bridge for the valley", "The last ferryman", "If you enjoyed", "Artikel gefallen"]) expect(markdown).not.toContain(gone);
    expect(plain(markdown)).toContain(PARAGRAPHS[3]!);
  });

  test("a line saying one must log in to comment, and a post footer of feeds and trackbacks, go", () => {
    const html = articlePage(`${paragraphs()}
<p>Sie müssen eingeloggt sein, um Kommentare zu schreiben!</p>
<p><a href="https://example.com/a/feed/">Kommentarfeed</a> | Kommentare geschlossen | <a href="https://example.com/a/trackback/">Trackback-URL</a></p>`);
    const text = main(html);
    expect(text).toContain(PARAGRAPHS[3]!);
    expect(text).not.toContain("eingeloggt");
    expect(text).not.toContain("Trackback");
  });

  test("'Read also' labels in more languages go with their link ('Lesen Sie hier:', 'Dowiedz się więcej:'), also set as a quote ('PUEDES VER:'); a quote stays", () => {
    const html = articlePage(`${paragraphs(0, 2)}
<p>Lesen Sie hier: <a href="https://example.com/other"><em>The ferry that never came back</em></a></p>
<p><strong>Dowiedz się więcej: <a href="https://example.com/third"><em>A bridge for the valley</em></a></strong></p>
<blockquote><strong>PUEDES VER:</strong> <a href="https://example.com/fourth">¿Qué es el río y para qué sirve?</a></blockquote>
<blockquote><p>The water had never risen so high in living memory, the ferryman told the council.</p></blockquote>
${paragraphs(2)}`);
    const text = main(html);
    for (const gone of ["Lesen Sie hier", "The ferry that never came back", "Dowiedz", "A bridge for the valley", "PUEDES VER", "para qué sirve"]) expect(text).not.toContain(gone);
    expect(text).toContain("The water had never risen so high in living memory");
    expect(text).toContain(PARAGRAPHS[3]!);
  });

  test("asks of the reader to get the site's app or news, to become a member, to try the site's own tools go; a box named 'news-letter' is a newsletter box", () => {
    const html = articlePage(`${paragraphs(0, 2)}
<p><b>Get the latest news straight to your phone with the River Times app.</b></p>
<p>Werden Sie Mitglied bei <b>River Times</b> und erhalten Sie exklusive Angebote!</p>
<p>Kennt ihr schon unseren Fährfinder? Ab sofort findet ihr mit unserem <a href="/finder">Fährfinder</a> alle Fähren am Fluss.</p>
<div class="news-letter-section"><div class="text-holder"><span class="lead">News, tips and trends... we have many stories for you!</span></div></div>
${paragraphs(2)}`);
    const text = main(html);
    for (const gone of ["Get the latest news", "Werden Sie Mitglied", "Kennt ihr schon", "we have many stories"]) expect(text).not.toContain(gone);
    expect(text).toContain(PARAGRAPHS[1]!);
    expect(text).toContain(PARAGRAPHS[3]!);
  });

  test("'related' headings for the next article, related topics and similar recipes go with what follows them", () => {
    const html = articlePage(`${paragraphs()}
<h3>Vorschau auf den nächsten Artikel</h3>
<p>Next week we look at the bridges of the lower valley and what they cost.</p>
<h4><i>NEW AND EXCITING SIMILAR DISHES FOR YOU TO TRY OUT</i></h4>
<ul><li><a href="/r/1">Fish from the river</a></li><li><a href="/r/2">Market day soup</a></li></ul>
<div>Verwandte Themenbereiche</div>`);
    const text = main(html);
    for (const gone of ["Vorschau", "bridges of the lower valley", "SIMILAR DISHES", "Market day soup", "Verwandte Themenbereiche"]) expect(text).not.toContain(gone);
    expect(text).toContain(PARAGRAPHS[3]!);
  });

  test("a blog theme's long filing footer, a filing line to a 'newscategory' page and a comment section named in German go", () => {
    const html = articlePage(`${paragraphs()}
<p class="postmetadata">Der Beitrag wurde am Mittwoch, den 27. November 2019 um 15:21 Uhr veröffentlicht und wurde unter <a href="/category/allgemein">Allgemein</a>, <a href="/category/events">Events</a> abgelegt. Du kannst die Kommentare zu diesen Eintrag durch den <a href="/a/feed">RSS 2.0</a> Feed verfolgen. Du kannst einen Kommentar schreiben, oder einen Trackback auf deiner Seite einrichten.</p>
<p>News date : 04/21/2022 Category : <a href="https://example.com/newscategory/10/Press_Releases.html">Press Releases</a></p>
<div class="kommentarModul"><p class="strong">Sie sind aktuell nicht eingeloggt.</p><p>Ihre Meinung ist uns wichtig.</p></div>`);
    const text = main(html);
    for (const gone of ["Der Beitrag wurde am", "Press Releases", "nicht eingeloggt", "Ihre Meinung"]) expect(text).not.toContain(gone);
    expect(text).toContain(PARAGRAPHS[3]!);
  });

  test("a short line that ends in a picture's credit ('... | © Getty Images', '... Foto: Andina') is a caption written without markup and goes; a sentence naming a photographer stays", () => {
    const html = articlePage(`${paragraphs(0, 2)}
<div class="image"><img src="/elder.jpg"></div>
<div class="text">The ferryman at the landing in 1975. | © River Archive/Getty Images</div>
<p>Son tres los periodos de crecida durante el año. Foto: Andina</p>
<p>The photographer Anna Berg spent a week on the ferry and her pictures hang in the town hall now.</p>
${paragraphs(2)}`);
    const text = main(html);
    for (const gone of ["The ferryman at the landing in 1975", "Getty Images", "periodos de crecida", "Andina"]) expect(text).not.toContain(gone);
    expect(text).toContain("The photographer Anna Berg spent a week on the ferry");
    expect(text).toContain(PARAGRAPHS[3]!);
  });

  test("a gallery whose text is in its figure captions keeps the captions: they are the article", () => {
    const slides = PARAGRAPHS.concat(PARAGRAPHS.map((p) => p.replace(/ferry/g, "barge")))
      .map((p, i) => `<figure class="slide"><h2><a href="/slide/${i + 1}">${i + 1}. Crossing number ${i + 1}</a></h2><div class="image"><img src="/s${i + 1}.jpg" alt="Slide ${i + 1}"></div><figcaption><p>Idea ${i + 1}:</p><p>${p}</p></figcaption></figure>`)
      .join("\n");
    const text = main(articlePage(`<p>Eight crossings of the valley, told in pictures.</p>${slides}`));
    expect(text).toContain(PARAGRAPHS[0]!);
    expect(text).toContain(PARAGRAPHS[3]!.replace(/ferry/g, "barge"));
  });

  test("a live ticker whose entries are named like comments ('live-match-comment') is the article, not chrome", () => {
    const moments = ["The home side press high from the first whistle and win two corners in a row.", "A long ball over the defence finds the striker, but the goalkeeper comes out to clear it.", "The referee shows a yellow card after a late tackle in the middle of the pitch.", "A free kick from the edge of the box curls just over the bar.", "The visitors equalise with a header from a corner at the far post.", "The corner kick comes to nothing and the keeper catches the ball.", "Both teams look tired now and the game slows down in the heat.", "Full time at the stadium: the home side held on for a draw against the leaders."];
    const entries = moments.map((m, i) => `<div class="live-match-comment"><div class="live-match-comment-time"><span>${(i + 1) * 11}'</span></div><div class="live-match-comment-body">${m}</div></div>`).join("\n");
    const html = `<!doctype html><html><head><title>Valley FC vs River United</title></head><body>
<div class="menu"><a href="/">Home</a> <a href="/football">Football</a> <a href="/tennis">Tennis</a></div>
<div class="live-match"><h1>Valley FC vs River United</h1><div class="live-match-comments">${entries}</div></div>
<div class="site-footer"><a href="/imprint">Imprint</a> <a href="/privacy">Privacy</a></div></body></html>`;
    const text = main(html);
    expect(text).toContain("The corner kick comes to nothing and the keeper catches the ball.");
    expect(text).toContain("Full time at the stadium");
    expect(text).not.toContain("Imprint");
  });

  test("a page's marked article that Readability agrees with wins over a comment thread with more text", () => {
    // The article is long enough to stand on its own; the thread below holds most of the page's text (the density estimate picks it).
    const comments = Array.from({ length: 60 }, (_, i) => `<li class="post"><h4><a href="/user/${i}">Reader${i}</a></h4><p>Comment ${i}: I have lived in this valley for ${20 + i} years and I can tell you that nobody at the town hall ever asks us before deciding anything, so I doubt that this time will be any different from the last ${i + 2} times.</p></li>`).join("\n");
    const html = `<!doctype html><html><head><title>Ferry crossings resume</title></head><body>
<div class="menu"><a href="/">Home</a> <a href="/news">News</a></div>
<article itemscope itemtype="https://schema.org/NewsArticle"><h1>Ferry crossings resume after the floods</h1><div itemprop="articleBody">${paragraphs()}<p>${PARAGRAPHS[1]!.replace("ferryman", "harbour master")}</p>${paragraphs().replace(/ferry/g, "barge")}${paragraphs().replace(/river/g, "canal")}</div></article>
<div class="community"><h3>Comments</h3><ul class="sectbody directory">${comments}</ul></div></body></html>`;
    const text = main(html);
    expect(text).toContain(PARAGRAPHS[0]!);
    expect(text).toContain("The harbour master, who has worked the route");
    expect(text).not.toContain("Comment 3: I have lived in this valley");
  });

  test("a 'related' heading and the teaser links under it are dropped, in any of several languages; the next section stays", () => {
    for (const label of ["Related articles", "Lesen Sie auch:", "Te puede interesar", "À lire aussi", "Mehr zum Thema"]) {
      const html = articlePage(`${paragraphs(0, 2)}
<h3>${label}</h3><ul><li><a href="/x1">Bridge tolls rise again</a></li><li><a href="/x2">New bus timetable for the valley</a></li></ul>
<h2>What comes next</h2>${paragraphs(2)}`);
      const text = main(html);
      expect({ label, kept: text.includes(label.replace(":", "")) }).toEqual({ label, kept: false });
      expect(text).not.toContain("Bridge tolls rise again");
      expect(text).toContain("What comes next");
      expect(text).toContain(PARAGRAPHS[3]!);
    }
  });

  test("a teaser list of links inside the article is dropped; a paragraph that is one link and the links of a table cell stay", () => {
    const html = articlePage(`${paragraphs(0, 2)}
<ul class="more"><li><a href="/y1">Storm warning for the coast</a></li><li><a href="/y2">Market hall reopens</a></li><li><a href="/y3">School holidays start early</a></li></ul>
<p><a href="https://example.org/timetable">Timetable of the ferry</a></p>
<table><tr><th>Operators</th><td><ul><li><a href="/o1">River Line</a></li><li><a href="/o2">Valley Boats</a></li></ul></td></tr><tr><th>Founded</th><td>1921</td></tr></table>
${paragraphs(2)}`);
    const text = main(html);
    expect(text).not.toContain("Storm warning for the coast");
    expect(text).toContain("Timetable of the ferry");
    expect(text).toContain("River Line");
    expect(text).toContain("Valley Boats");
  });

  test("the author's box under the article is dropped, also when it is a paragraph with a chrome class", () => {
    const html = articlePage(`${paragraphs()}
<div class="author-box"><img src="/jane.jpg" alt=""><div class="author-box__text"><b>Jane Doe</b> has written about rivers and boats for the Valley Courier since 2009 and lives on a houseboat near the old mill.</div></div>
<p class="newsletter-teaser">Get the Valley Courier newsletter every morning</p>`);
    const text = main(html);
    expect(text).toContain(PARAGRAPHS[3]!);
    expect(text).not.toContain("lives on a houseboat");
    expect(text).not.toContain("newsletter every morning");
  });

  test("the lead under the headline, which Readability leaves out, comes back before the article", () => {
    const html = `<!doctype html><html><head><title>Ferry crossings resume</title></head><body>
<div class="menu"><a href="/">Home</a> <a href="/news">News</a></div>
<div class="page"><div class="header-area"><h1>Ferry crossings resume after the floods</h1><div class="article-lead">After a month of closure the valley's only ferry is running again, and the market towns on both banks are relieved.</div></div>
<div class="article-body">${paragraphs()}</div></div></body></html>`;
    const text = main(html);
    expect(text).toContain("the market towns on both banks are relieved");
    expect(text.indexOf("are relieved")).toBeLessThan(text.indexOf(PARAGRAPHS[0]!));
    expect(text).toContain(PARAGRAPHS[3]!);
  });

  test("the lead comes back when the headline and lead sit in the page's <header>, also when named 'description'", () => {
    const page = (leadClass: string) => `<!doctype html><html><head><title>Ferry crossings resume</title></head><body>
<nav><a href="/">Home</a> <a href="/news">News</a></nav>
<div class="top"><header class="story-head"><div class="title-wrap"><h1>Ferry crossings resume after the floods</h1></div><div class="${leadClass}">After a month of closure the valley's only ferry is running again, and the market towns on both banks are relieved.</div></header></div>
<div class="layout"><div class="col-main"><div class="article-body">${paragraphs()}</div></div><div class="col-side"><a href="/a">Weather</a> <a href="/b">Sports</a></div></div>
<footer><p class="site-description">The Valley Courier, news from both banks of the river since 1921.</p></footer></body></html>`;
    for (const leadClass of ["uk-text-lead", "news-description"]) {
      const text = main(page(leadClass));
      expect(text).toContain("the market towns on both banks are relieved");
      expect(text.indexOf("are relieved")).toBeLessThan(text.indexOf(PARAGRAPHS[0]!));
      expect(text).toContain(PARAGRAPHS[3]!);
      // what must stay out: the menu and the footer's own description of the site
      expect(text).not.toContain("news from both banks of the river since 1921");
      expect(text).not.toContain("Home");
    }
  });

  test("the lead comes back when the headline is found by the page's title: an empty logo h1 first, the headline in a breadcrumb or 'rating' wrapper", () => {
    const wrappers = [(h1: string) => `<div class="title-rating-wrapper">${h1}<span>4.5 stars</span></div>`, (h1: string) => `<ul class="breadcrumb"><li><a href="/">Home</a></li><li>${h1}</li></ul>`, (h1: string) => h1];
    // The logo's h1 comes before a long menu (more elements than the lead is looked for in after a headline).
    const logo = `<div class="top-bar"><h1 class="logo"><a href="/"><img src="/logo.png" alt=""></a></h1></div><nav>${Array.from({ length: 250 }, (_, i) => `<a href="/s${i}">Section ${i}</a>`).join(" ")}</nav>`;
    const page = (wrap: (h1: string) => string) => `<!doctype html><html><head><title>Ferry crossings resume after the floods - The Valley Courier</title></head><body>
${wrap === wrappers[2] ? logo : ""}<div class="page"><div class="header-area">${wrap("<h1>Ferry crossings resume after the floods</h1>")}<div class="article-intro">After a month of closure the valley's only ferry is running again, and the market towns on both banks are relieved.</div></div>
<div class="article-body">${paragraphs()}</div></div></body></html>`;
    for (const wrap of wrappers) {
      const text = main(page(wrap));
      expect(text).toContain("the market towns on both banks are relieved");
      expect(text.indexOf("are relieved")).toBeLessThan(text.indexOf(PARAGRAPHS[0]!));
      expect(text).toContain(PARAGRAPHS[3]!);
    }
  });

  test("the lead comes back when it is the paragraph or subheading of the article's <header> or <hgroup> without a telling name, or a 'deck' or 'bajada' holding a subheading", () => {
    const page = (head: string) => `<!doctype html><html><head><title>Ferry crossings resume after the floods</title></head><body>
<nav><a href="/">Home</a> <a href="/news">News</a></nav>
<main><article class="story">${head}<div class="article-body">${paragraphs()}</div></article></main>
<footer><p>The Valley Courier, news from both banks of the river since 1921.</p></footer></body></html>`;
    const lead = "After a month of closure the valley's only ferry is running again, and the market towns on both banks are relieved.";
    const heads = [
      `<header class="sc-1x2"><h1>Ferry crossings resume after the floods</h1><div class="sc-9k"><p>${lead}</p></div><div class="sc-3j"><span>By Ann Smith</span></div></header>`,
      `<header><hgroup><h1>Ferry crossings resume after the floods</h1><h2>${lead}</h2></hgroup></header>`,
      `<div class="story-head"><h1>Ferry crossings resume after the floods</h1><div class="article-deck"><h2>${lead}</h2></div></div>`,
      `<div class="story-head"><h1>Ferry crossings resume after the floods</h1><div class="texto-bajada"><p>${lead}</p></div></div>`,
    ];
    for (const head of heads) {
      const text = main(page(head));
      expect(text).toContain("the market towns on both banks are relieved");
      expect(text.indexOf("are relieved")).toBeLessThan(text.indexOf(PARAGRAPHS[0]!));
      expect(text).toContain(PARAGRAPHS[3]!);
      expect(text).not.toContain("news from both banks of the river since 1921");
    }
  });

  test("a date or a byline in the article's <header> is not taken for its lead", () => {
    const html = `<!doctype html><html><head><title>Ferry crossings resume after the floods</title></head><body>
<main><article><header><h1>Ferry crossings resume after the floods</h1><p>Published on <time datetime="2021-05-03">3 May 2021, 10:42</time> in the morning edition</p></header>
<div class="article-body">${paragraphs()}</div></article></main></body></html>`;
    expect(main(html)).not.toContain("morning edition");
  });

  test("a heading over links only (a teaser rail without a telling title) goes with its links; a short heading left with nothing after it at the article's end goes; a heading over text, a picture or a table stays", () => {
    const teasers = ["Bridge repairs start in June", "Market day moves to Friday", "New bus line to the station"].map((t, i) => `<li><a href="/news/${i}">${t}</a></li>`).join("");
    const html = articlePage(`${paragraphs(0, 2)}
<h2>The new landing</h2>${paragraphs(2, 4)}
<h3>Photos of the day</h3><figure><img src="/landing.jpg" alt=""></figure>
<h3>Timetable</h3><table><tr><td>Monday</td><td>8:00</td></tr><tr><td>Tuesday</td><td>9:00</td></tr></table>
<h2>Handpicked for you</h2><ul class="cards">${teasers}</ul>
<h4>Our partners</h4>`);
    const text = main(html);
    for (const kept of ["The new landing", PARAGRAPHS[3]!, "Photos of the day", "Timetable", "Monday"]) expect(text).toContain(kept);
    expect(text).not.toContain("Handpicked for you");
    expect(text).not.toContain("Bridge repairs start in June");
    expect(text).not.toContain("Our partners");
  });

  test("a short page whose headline sits over one line and its links keeps them: teaser sections are never most of the page", () => {
    const html = `<!doctype html><html><head><title>ACME</title></head><body><main><h1>ACME Ltd</h1><p>Company: ACME Ltd</p><p><a href="/about">About us</a> <a href="/contact">Contact</a></p></main></body></html>`;
    const text = main(html);
    expect(text).toContain("Company: ACME Ltd");
    expect(text).toContain("About us");
  });

  test("a long heading at the article's end is text (a pull quote), and a section of text inside an unclosed link is text", () => {
    const html = articlePage(`${paragraphs()}<h2><a name="why">Why the ferry matters</a></h2><blockquote><p><a href="https://club.example.org/">The club<a/> says ${PARAGRAPHS[0]!.toLowerCase()}</p></blockquote>
<h4>The ferryman says the river has never been this high, and he has seen thirty springs.</h4>`);
    const text = main(html);
    expect(text).toContain("Why the ferry matters");
    expect(text).toContain("the river has never been this high");
  });

  test("an article served inside <noscript> (drawn by a script) is read; a notice or pixel in <noscript> is not", () => {
    const html = `<!doctype html><html><head><title>Ferry crossings resume</title></head><body>
<noscript><p>Please enable JavaScript to use all features of this site.</p><img src="https://pixel.example/t.gif" alt=""></noscript>
<div class="menu"><a href="/">Home</a> <a href="/news">News</a></div>
<div class="post"><h1>Ferry crossings resume after the floods</h1><div class="post-body"><script>renderPost()</script><noscript>${paragraphs()}</noscript></div></div>
</body></html>`;
    const text = main(html);
    expect(text).toContain(PARAGRAPHS[0]!);
    expect(text).toContain(PARAGRAPHS[3]!);
    expect(text).not.toContain("enable JavaScript");
    expect(text).not.toContain("pixel.example");
  });

  test("the page's single <article> wins when Readability takes another block of the page", () => {
    const legal = Array.from({ length: 6 }, (_, i) => `<p>Clause ${i + 1}: by creating an account, you agree that your personal data, including your name, address, and payment details, may be stored, processed, and shared with partners, as described in our terms, which may change at any time.</p>`).join("");
    const html = `<!doctype html><html><head><title>Ferry crossings resume</title></head><body>
<div class="account-panel"><h2>Create your account</h2>${legal}</div>
<article><h1>Ferry crossings resume after the floods</h1><p>${PARAGRAPHS[0]}</p><p>${PARAGRAPHS[2]}</p></article></body></html>`;
    const text = main(html);
    expect(text).toContain(PARAGRAPHS[0]!);
    expect(text).toContain(PARAGRAPHS[2]!);
    expect(text).not.toContain("by creating an account");
  });

  test("calls to subscribe, 'Read also:' paragraphs and rating widgets inside the article are dropped", () => {
    const html = articlePage(`${paragraphs(0, 2)}
<p><strong>Lesen Sie auch:</strong> <a href="/z1">Neue Brücke für das Tal geplant</a></p>
<p><strong>Auch lesen:</strong></p>
${paragraphs(2)}
<p>To view the full story, please subscribe to the Valley Courier.</p>
<p>HAZTE MIEMBRO Y DISFRUTA DE BENEFICIOS EXCLUSIVOS</p>
<div class="rating-box"><span class="post-ratings"><strong>Was this article useful?</strong> (No ratings yet)</span><div class="rating-stars"><img src="/stars.png" alt=""></div></div>`);
    const text = main(html);
    expect(text).toContain(PARAGRAPHS[2]!);
    expect(text).toContain(PARAGRAPHS[3]!);
    for (const chrome of ["Lesen Sie auch", "Auch lesen", "Neue Brücke", "please subscribe", "HAZTE MIEMBRO", "Was this article useful"]) {
      expect({ chrome, kept: text.includes(chrome) }).toEqual({ chrome, kept: false });
    }
  });

  test("a form that wraps running text (a shop's product form) is content; a search form is not", () => {
    const html = articlePage(`${paragraphs(0, 1)}
<form class="product-form" action="/cart"><div class="product-description"><p>${PARAGRAPHS[1]}</p><p>${PARAGRAPHS[2]}</p><p>Delivery time: 3 to 5 days.</p></div><select name="size"><option>S</option></select><button>Add to cart</button></form>
<form class="search-form" action="/search"><label>Search the site for ferries and bridges</label><input name="q"><button>Go</button></form>`);
    const text = main(html);
    expect(text).toContain(PARAGRAPHS[1]!);
    expect(text).toContain("Delivery time: 3 to 5 days.");
    expect(text).not.toContain("Search the site");
  });

  test("text density finds the article in a wrapper named like chrome ('layout-sidebar-right') when nothing else holds text", () => {
    // 160 nested divs in the footer make the page too deep for Readability: the density estimate decides alone.
    const html = `<!doctype html><html><head><title>Ferry</title></head><body>
<div class="menu"><a href="/">Home</a> <a href="/news">News</a> <a href="/sport">Sport</a></div>
<div class="post-wrap layout-sidebar-right"><div class="entry"><h1>Ferry crossings resume</h1>${paragraphs()}</div></div>
<div class="site-footer">${"<div>".repeat(160)}<a href="/imprint">Imprint</a>${"</div>".repeat(160)}</div></body></html>`;
    const text = main(html);
    expect(text).toContain(PARAGRAPHS[0]!);
    expect(text).toContain(PARAGRAPHS[3]!);
    expect(text).not.toContain("Sport");
  });

  test("a date on its own (a <time> and a label) is dropped; a <time> inside a sentence and a duration stay", () => {
    const html = articlePage(`<div class="entry-dates">Updated: <time datetime="2020-04-03">03.04.2020</time></div>${paragraphs(0, 2)}
<p>The first crossing after the flood left on <time datetime="2020-04-06">Monday 6 April</time> at seven.</p>${paragraphs(2)}
<div class="recipe-times">Crossing: <time itemprop="totalTime" datetime="PT20M">20 Min</time></div>`);
    const text = main(html);
    expect(text).not.toContain("03.04.2020");
    expect(text).toContain("left on Monday 6 April at seven.");
    expect(text).toContain("Crossing: 20 Min");
  });

  test("a date stamp written as text ('23.10.2018', 'Erstellt am Dienstag 6. Mai 2014', '3:59 PM') is dropped; a sentence with a date stays", () => {
    const html = articlePage(`<p>23.10.2018</p><div class="meta">Erstellt am Dienstag 6. Mai 2014</div>${paragraphs(0, 2)}
<p>The ferry first crossed on 12.05.1921, when the old bridge had been closed for repairs for a whole summer.</p>${paragraphs(2)}
<div><span>3:59 PM</span></div><p>Last Modified: 2019-05-02</p>`);
    const text = main(html);
    expect(text).not.toContain("23.10.2018");
    expect(text).not.toContain("6. Mai 2014");
    expect(text).not.toContain("3:59 PM");
    expect(text).not.toContain("2019-05-02");
    expect(text).toContain("The ferry first crossed on 12.05.1921, when the old bridge");
    expect(text).toContain(PARAGRAPHS[3]!);
  });

  test("of several <article> elements, the one with the headline wins when Readability takes another block of the page", () => {
    const legal = Array.from({ length: 6 }, (_, i) => `<p>Clause ${i + 1}: by creating an account, you agree that your personal data, including your name, address, and payment details, may be stored, processed, and shared with partners, as described in our terms, which may change at any time.</p>`).join("");
    const html = `<!doctype html><html><head><title>Ferry crossings resume</title></head><body>
<div class="account-panel"><h2>Create your account</h2>${legal}</div>
<article><h1>Ferry crossings resume after the floods</h1><p>${PARAGRAPHS[0]}</p><p>${PARAGRAPHS[2]}</p></article>
<article class="teaser"><h2><a href="/t1">Bridge tolls rise again</a></h2><p>The council will raise the tolls on the old bridge by a tenth from the first of May, it said.</p></article></body></html>`;
    const text = main(html);
    expect(text).toContain(PARAGRAPHS[0]!);
    expect(text).toContain(PARAGRAPHS[2]!);
    expect(text).not.toContain("by creating an account");
    expect(text).not.toContain("raise the tolls");
  });

  test("page notices are dropped: copyright lines, ad labels, comment counters, filing lines to tag, category and author pages", () => {
    const html = articlePage(`${paragraphs(0, 2)}
<p>- Anzeige -</p>
<p>ANZEIGE - Heute mal ausgehen? Wie wäre es mit dem Café am Fluss</p>
${paragraphs(2)}
<p>Posted on <a href="/2020/05/">May 5, 2020</a> in <a href="/category/river/">River</a>, <a href="/category/towns/">Towns</a></p>
<div>Publiziert von <a href="/author/jane/">Jane Doe</a></div>
<p>Kommentare insgesamt: 0</p>
<p>Keine Kommentare</p>
<p>© 2020 Valley Courier Inc. All Rights Reserved.</p>`);
    const text = main(html);
    expect(text).toContain(PARAGRAPHS[3]!);
    for (const chrome of ["Anzeige", "ANZEIGE", "Café am Fluss", "Posted on", "Publiziert von", "Kommentare insgesamt", "Keine Kommentare", "All Rights Reserved"]) {
      expect({ chrome, kept: text.includes(chrome) }).toEqual({ chrome, kept: false });
    }
  });

  test("a sentence of the article that links one topic page, and a paragraph about advertising, stay", () => {
    const html = articlePage(`${paragraphs(0, 2)}
<p>Travellers from the <a href="/tag/valley/">valley</a> must register before the crossing.</p>
<p>Werbung für die Fähre hängt jetzt an jeder Haltestelle im Tal.</p>
${paragraphs(2)}`);
    const text = main(html);
    expect(text).toContain("Travellers from the valley must register before the crossing.");
    expect(text).toContain("Werbung für die Fähre hängt jetzt an jeder Haltestelle");
  });

  test("'Read also' headings and paragraphs in Spanish, and prompts to follow the site or install its app, are dropped", () => {
    const html = articlePage(`${paragraphs(0, 2)}
<h3><a href="/n1">MIRA: Madre se acerca a conocer los motivos</a></h3>
<p><strong>Lea también:</strong> <a href="/n2">Impiden ingreso a reportero</a></p>
<p>VEA TAMBIÉN: <a href="/n3">Estrella de la educación no brilla</a></p>
${paragraphs(2)}
<p>For the latest stories download the Valley Courier apps for iOS and Android.</p>
<p>Follow the Courier on Twitter and Instagram @ValleyCourier.</p>
<p>¡Únete a nuestro canal de Telegram!</p>`);
    const text = main(html);
    expect(text).toContain(PARAGRAPHS[3]!);
    for (const chrome of ["Madre se acerca", "Lea también", "Impiden ingreso", "VEA TAMBIÉN", "download the Valley Courier apps", "Follow the Courier", "canal de Telegram"]) {
      expect({ chrome, kept: text.includes(chrome) }).toEqual({ chrome, kept: false });
    }
  });

  test("a run of link-only paragraphs (a teaser rail) is dropped; one link on its own line between paragraphs stays", () => {
    const html = articlePage(`${paragraphs(0, 2)}
<p><a href="https://example.org/report">The full report of the river authority</a></p>
${paragraphs(2)}
<p><a href="/t1">Bears in the zoo woke up early this winter</a></p>
<p><a href="/t2">Record snow in the north, none in the capital</a></p>
<p><a href="/t3">The year brought cold, heat and drought</a></p>`);
    const text = main(html);
    expect(text).toContain("The full report of the river authority");
    expect(text).toContain(PARAGRAPHS[3]!);
    expect(text).not.toContain("Bears in the zoo");
    expect(text).not.toContain("Record snow in the north");
  });

  test("picture lines are dropped like captions: 'Beitragsbild:', 'Abbildung 4:', 'Photograph by', '(Credit: ...)', a credit with a link", () => {
    const html = articlePage(`${paragraphs(0, 2)}
<p>Beitragsbild: Titelseite vom 2.4.2019, Ausriss.</p>
<p>Abbildung 4: klassische Schwachschicht.</p>
<div>Photograph by Jane Doe</div>
<p><em>(Credit: Clayton River / Lock Archive)</em></p>
<p>Image illustrative : <a href="https://flickr.com/p/1">Lots of boats</a></p>
${paragraphs(2)}`);
    const text = main(html);
    expect(text).toContain(PARAGRAPHS[3]!);
    for (const chrome of ["Beitragsbild", "Schwachschicht", "Photograph by", "Lots of boats", "Lock Archive"]) {
      expect({ chrome, kept: text.includes(chrome) }).toEqual({ chrome, kept: false });
    }
  });

  test("source lines are dropped like credits ('Quelle:', '(Quelle: ...)', 'Źródło:', 'Fuente:', 'Source:'); a long paragraph that opens with 'Source:' stays", () => {
    const html = articlePage(`${paragraphs(0, 2)}
<p>Quelle: Landesregierung</p>
<div>(Quelle: Fleischmann/Unsplash/DJV)</div>
<p>Źródło: Eurostat</p>
<span>Fuente: EFE</span>
<p>Source: Reuters</p>
<p>Source: the river authority counted the boats on every lock of the canal for three summers and found that traffic doubled.</p>
${paragraphs(2)}`);
    const text = main(html);
    expect(text).toContain(PARAGRAPHS[3]!);
    expect(text).toContain("the river authority counted the boats on every lock of the canal");
    for (const chrome of ["Landesregierung", "Fleischmann", "Eurostat", "EFE", "Reuters"]) {
      expect({ chrome, kept: text.includes(chrome) }).toEqual({ chrome, kept: false });
    }
  });

  test("a print button's row is dropped ('Rezept drucken Bei Pinterest speichern', 'drukuj', 'Print this article'); a sentence that opens with 'Drucken' stays", () => {
    const html = articlePage(`${paragraphs(0, 2)}
<div class="recipe-buttons"><a href="/print/413209">Rezept drucken</a> <a href="https://pinterest.com/pin">Bei Pinterest speichern</a></div>
<div class="print-container"><div class="print-button"><i class="fa fa-print"></i> <span>drukuj</span></div></div>
<p><a href="/print">Print this article</a></p>
<p>Drucken ist teuer geworden, sagt der Verband.</p>
${paragraphs(2)}`);
    const text = main(html);
    expect(text).toContain(PARAGRAPHS[3]!);
    expect(text).toContain("Drucken ist teuer geworden, sagt der Verband.");
    for (const chrome of ["Rezept drucken", "Pinterest", "drukuj", "Print this article"]) {
      expect({ chrome, kept: text.includes(chrome) }).toEqual({ chrome, kept: false });
    }
  });

  test("a page with a commented-out <body> in its head keeps its article (linkedom took the comment's tag and left the page in <head>); the head's scripts stay out", () => {
    const html = `<!DOCTYPE html><html lang="en">
<head>
<title>Ferry crossings resume</title>
<script>var tracking = "head script text";</script>
 <!-- </head>
<body text="#000000" bgcolor="#FFFFFF">
--></head>
<body><div class="content"><h1>Ferry crossings resume after the floods</h1>
${paragraphs()}
</div>
</body>
</html>`;
    const document = parseDocument(html);
    expect(document.body.textContent).toContain(PARAGRAPHS[0]!);
    expect(document.head.textContent).not.toContain(PARAGRAPHS[0]!);
    const text = main(html);
    for (const paragraph of PARAGRAPHS) expect(text).toContain(paragraph);
    expect(text).not.toContain("head script text");
  });

  test("an <aside> that holds all of <main> is the article's wrapper; a custom element named for navigation is chrome", () => {
    const html = `<!doctype html><html><head><title>Ferry</title></head><body>
<pp-navigation><ul>${Array.from({ length: 30 }, (_, i) => `<li><a href="/m${i}">Menu entry ${i}</a> Short description of the section number ${i} of the site, with a few words.</li>`).join("")}</ul></pp-navigation>
<main><aside class="content-area"><h1>Ferry crossings resume after the floods</h1>${paragraphs()}</aside></main>
<aside class="sidebar"><p>Weather in the valley: sunny</p></aside></body></html>`;
    const text = main(html);
    expect(text).toContain(PARAGRAPHS[0]!);
    expect(text).toContain(PARAGRAPHS[3]!);
    expect(text).not.toContain("Menu entry 3");
    expect(text).not.toContain("Weather in the valley");
  });

  test("the page's article wins when Readability takes a box beside it (an advertiser disclosure) that holds little of its text", () => {
    const disclosure = `<div class="disclosure"><h2>Advertiser Disclosure</h2><p>Many of the offers on this site come from companies from which the Courier receives compensation. This compensation may impact how and where products appear on this site, including the order in which they appear.</p><p>The site does not include all companies or all offers available in the marketplace, and our editors choose the stories independently of our partners.</p></div>`;
    const body = [...PARAGRAPHS, ...PARAGRAPHS.map((p) => p.replace(/ferry/g, "boat"))].map((p) => `<div class="text-block"><p>${p}</p></div>`).join("");
    const html = `<!doctype html><html><head><title>Ferry</title></head><body>${disclosure}<div class="article-body"><h1>Ferry crossings resume after the floods</h1>${body}</div></body></html>`;
    const text = main(html);
    expect(text).toContain(PARAGRAPHS[0]!);
    expect(text).toContain(PARAGRAPHS[3]!.replace(/ferry/g, "boat"));
  });

  test("soft hyphens (U+00AD) are dropped from the text", () => {
    const { markdown } = htmlToMarkdown(`<p>Mit\u00adtel\u00adal\u00adter and Fluss&shy;fähre</p>`, { mainContent: false });
    expect(markdown).toBe("Mittelalter and Flussfähre\n");
  });
});

describe("main content: the whole article body, and nothing at its edges", () => {
  const markdown = (html: string) => htmlToMarkdown(html, { mainContent: true, baseUrl: "https://example.com/a" }).markdown;
  const main = (html: string) => plain(markdown(html));

  test("a 'Related' heading between paragraphs of the body takes its links with it, and the paragraphs after them stay", () => {
    const html = articlePage(`${paragraphs(0, 2)}
<h2>Related</h2>
<ul class="related_links"><li><a href="/r1">How one town turns river mud into bricks</a></li><li><a href="/r2">The last ferryman of the north</a></li></ul>
${paragraphs(2)}`);
    const text = main(html);
    expect(text).toContain(PARAGRAPHS[2]!);
    expect(text).toContain(PARAGRAPHS[3]!);
    expect(text).not.toContain("river mud into bricks");
  });

  test("an author's box keeps going after its heading: the bio is dropped with it", () => {
    const html = articlePage(`${paragraphs()}
<h3>About the author</h3>
<p>Jane Doe has written about rivers, boats and the people who live by them for the Valley Courier since 2009, and she lives in the eastern market town.</p>`);
    const text = main(html);
    expect(text).toContain(PARAGRAPHS[3]!);
    expect(text).not.toContain("Jane Doe has written");
  });

  test("teaser cards under a 'Related' heading (a headline and a picture linking to the story) go; a section of text with a link after the article's own heading stays", () => {
    const card = (title: string, href: string) => `<div class="Teaser__root"><article class="Teaser__article"><div class="Teaser__overlay"><header class="Teaser__overlay_inner"><h3>${title}</h3></header></div><a class="Teaser__img" href="${href}"><div class="Thumbnail__wrapper"><img src="${href}.jpg" alt=""><figcaption></figcaption></div></a></article></div>`;
    const html = articlePage(`${paragraphs()}
<h2>More on this topic</h2>
<div class="cards">${card("The Motor Chain: respect for the classic cars of the sixties", "/motor-chain")}${card("Bugatti: remembering the founder's son at the museum in Molsheim", "/bugatti")}</div>
<p>The ferry's timetable for the winter months will be published by the council in the first week of December, together with the new fares.</p>`);
    const text = main(html);
    expect(text).toContain(PARAGRAPHS[3]!);
    expect(text).toContain("The ferry's timetable for the winter months");
    expect(text).not.toContain("respect for the classic");
    expect(text).not.toContain("the founder's son");
    const kept = main(articlePage(`${paragraphs(0, 2)}
<h2>The timetable</h2>
<div class="box"><h3>Summer</h3><p>Boats leave every hour from six in the morning, and the <a href="/fares">fares</a> stay as they were last year for every passenger.</p></div>
${paragraphs(2)}`));
    expect(kept).toContain("Boats leave every hour from six in the morning");
  });

  test("a view counter goes ('(Visited 215 times, 55 visits today)', 'Views: 184', '37 views'); a sentence about views stays", () => {
    for (const counter of ["(Visited 215 times, 55 visits today)", "Views: 184", "37 views", "Aufrufe: 12"]) {
      const text = main(articlePage(`${paragraphs()}<p>${counter}</p>`));
      expect(text).toContain(PARAGRAPHS[3]!);
      expect(text).not.toContain(counter);
    }
    const sentence = "37 views of the valley were painted by the ferryman's daughter.";
    expect(main(articlePage(`${paragraphs()}<p>${sentence}</p>`))).toContain(sentence);
  });

  test("a suggested citation of the post goes ('SUGGESTED CITATION Sauer, Heiko: ...', 'Zitiervorschlag: ...'); a sentence about citing stays", () => {
    for (const citation of [
      `<div class="citate"><span class="citate-sign">SUGGESTED&nbsp;CITATION&nbsp;</span> Brandt, Anna:<em> Boats in the Fog, ValleyBlog,</em> 2020/4/09, https://example.org/boats/.</div>`,
      `<p>Zitiervorschlag: Brandt, Anna: Boote im Nebel, TalBlog, 9.4.2020.</p>`,
      `<p>Cite this article as: Brandt A (2020) Boats in the fog. Valley Review 3:12.</p>`,
    ]) {
      const text = main(articlePage(`${paragraphs()}${citation}`));
      expect(text).toContain(PARAGRAPHS[3]!);
      expect(text).not.toContain("Brandt");
    }
    const sentence = "Suggested citation styles differ between the valley's two journals, and the ferryman never used either of them.";
    expect(main(articlePage(`${paragraphs()}<p>${sentence}</p>`))).toContain(sentence);
  });

  test("a sentence whose names link to tag pages stays; a filing line of tags ('veröffentlicht in X und getaggt als Y, Z') goes", () => {
    const html = articlePage(`<p><a href="/2018/12/05/profile/">Dee Dee Myers</a> — a White House press secretary for <a href="/tag/bill-clinton">Bill Clinton</a> — is exiting her role as communications head at studio <a href="/tag/warner-bros">Warner Bros</a>. after five years.</p>
${paragraphs()}
<p>Dieser Eintrag wurde veröffentlicht in <a href="/category/politik/">Politik</a> und getaggt als <a href="/tag/demokratie/">Demokratie</a>, <a href="/tag/eu/">EU</a>. Setze ein Lesezeichen auf den <a href="/2019/europa/">Permalink</a>.</p>`);
    const text = main(html);
    expect(text).toContain("Dee Dee Myers — a White House press secretary for Bill Clinton — is exiting her role");
    expect(text).toContain(PARAGRAPHS[3]!);
    expect(text).not.toContain("getaggt als");
  });

  test("placeholders of embedded posts and videos that ask for consent are dropped with their button; a paragraph about privacy stays", () => {
    const html = articlePage(`${paragraphs(0, 2)}
<div class="embed"><p>Wir respektieren deine Privatsphäre und stellen deshalb ohne dein Einverständnis keine Verbindung zu Twitter her. Hier kannst du deine Einstellungen verwalten, um eine Verbindung zu den Social-Media-Kanälen herzustellen.</p><p><a href="/user/third-party-services">Datenschutzeinstellungen verwalten</a></p></div>
<p>This content is blocked. Accept cookies to load the YouTube video.</p>
<p>Externer Inhalt: Hier steht ein Video von Vimeo. Mit einem Klick auf den Button wird es geladen, und Sie stimmen der Datenschutzerklärung zu.</p>
${paragraphs(2)}
<p>The council says the new ticket machines store no personal data and set no cookies, and that the privacy of passengers is protected by law.</p>`);
    const text = main(html);
    expect(text).toContain(PARAGRAPHS[3]!);
    expect(text).toContain("set no cookies");
    for (const chrome of ["Wir respektieren deine Privatsphäre", "Datenschutzeinstellungen verwalten", "This content is blocked", "Externer Inhalt"]) {
      expect({ chrome, kept: text.includes(chrome) }).toEqual({ chrome, kept: false });
    }
  });

  test("a byline set as its own paragraph under the headline or at the end, and labels left at the end, are dropped", () => {
    const html = articlePage(`<p>Von Cosima Künzel</p>
${paragraphs()}
<p><em>Von Cosima Künzel</em></p>
<p>Von:</p>
<p>Anzeigen</p>`);
    const out = markdown(html);
    const blocks = out.split(/\n\s*\n/).filter((b) => !b.startsWith("#"));
    expect(plain(blocks[0]!).trim()).toBe(PARAGRAPHS[0]!);
    expect(plain(blocks[blocks.length - 1]!).trim()).toBe(PARAGRAPHS[3]!);
  });

  test("a filing row of date, source and copyright set apart by bars is dropped; a sentence with a bar stays", () => {
    const html = articlePage(`${paragraphs()}
<p>1.12.2022 | Quelle: <a href="https://example.org/">Shanghai Electric</a> | solarserver.de © Solarthemen Media GmbH</p>
<p>Die Fähre fährt | wie immer | auch am Sonntag, teilte die Gemeinde am Freitag mit.</p>`);
    const text = main(html);
    expect(text).toContain(PARAGRAPHS[3]!);
    expect(text).toContain("auch am Sonntag, teilte die Gemeinde");
    expect(text).not.toContain("Quelle: Shanghai Electric");
  });

  test("a label heading left last ('Editors’ Recommendations:'), a kicker over the headline and the headline set twice are dropped", () => {
    const html = `<!doctype html><html><head><title>Ferry crossings resume</title></head><body>
<div class="menu"><a href="/">Home</a> <a href="/news">News</a></div>
<article><h1>Ferry crossings resume after the floods</h1><div class="kicker">Verkehr</div><h2>Ferry crossings resume after the floods</h2>${paragraphs()}
<h4>Editors’ Recommendations:</h4><img src="/logo.png"></article></body></html>`;
    const out = markdown(html);
    expect(out.match(/Ferry crossings resume after the floods/g)?.length).toBe(1);
    expect(out).not.toContain("Verkehr");
    expect(out).not.toContain("Editors’ Recommendations");
    expect(plain(out)).toContain(PARAGRAPHS[3]!);
  });

  test("a tags line under the headline or at the end is dropped ('Themen: <link>', 'Tags: <link>, <link>'); a sentence that opens with 'Thema:' stays", () => {
    const html = articlePage(`<p>Themen: <a href="/themen/pressefreiheit">Pressefreiheit</a></p>
${paragraphs()}
<p>Thema: Die Fähre wird im Winter nur an Wochenenden fahren, weil zu wenige Pendler sie nutzen.</p>
<p>Tags: <a href="/t/eu">EU</a>, <a href="/t/wahlen">Wahlen</a></p>`);
    const text = main(html);
    expect(text).toContain(PARAGRAPHS[3]!);
    expect(text).toContain("Thema: Die Fähre wird im Winter");
    expect(text).not.toContain("Pressefreiheit");
    expect(text).not.toContain("Wahlen");
  });

  test("the lead comes back when only the og:title names the headline (the <title> words it otherwise), and when the body repeats part of it", () => {
    const lead = "The valley's ferry runs again, and the council will study a second landing further upstream where the banks are higher.";
    const page = (body: string) => `<!doctype html><html><head><title>Valley: ferry back in service after a month</title><meta property="og:title" content="Ferry crossings resume after the floods"></head><body>
<nav><a href="/">Home</a> <a href="/news">News</a></nav>
<div class="article-teaser"><div class="article-teaser-breadcrumb"><span>Free until 19:34</span><h1><span>Ferry crossings resume after the floods</span></h1></div>
<div class="article-teaser-intro"><p>${lead}</p></div></div>
<div class="layout"><div class="col-main"><div class="article-body">${body}</div></div><div class="col-side"><a href="/a">Weather</a> <a href="/b">Sports</a></div></div></body></html>`;
    for (const body of [paragraphs(), `${paragraphs(0, 3)}<p>Next spring the council will study a second landing further upstream where the banks are higher, the mayor said on Tuesday.</p>`]) {
      const text = main(page(body));
      expect(text).toContain(lead);
      expect(text.indexOf(lead)).toBeLessThan(text.indexOf(PARAGRAPHS[0]!));
      expect(text).toContain(PARAGRAPHS[2]!);
    }
  });

  test("an author's bio named 'description' and a caption named 'image-description' are not the lead, and the caption goes", () => {
    const html = `<!doctype html><html><head><title>Ferry crossings resume after the floods</title></head><body>
<nav><a href="/">Home</a> <a href="/news">News</a></nav>
<div class="page"><div class="title-area"><h1>Ferry crossings resume after the floods</h1></div>
<div class="block-image"><section><picture><img src="/ferry.jpg" alt="A ferry at the landing"></picture><p class="image-description">The ferry at the new stone landing on the eastern bank (archive picture)</p><p class="image-copyright">&copy; Valley Courier</p></section></div>
<div class="article-body">${paragraphs()}</div>
<div class="m-author"><div class="m-author__name">Jane Doe</div><div class="m-author__description">Jane Doe has written about rivers and boats for the Valley Courier since 2009 and lives on a houseboat.</div></div></div></body></html>`;
    const text = main(html);
    expect(text).toContain(PARAGRAPHS[0]!);
    expect(text).toContain(PARAGRAPHS[3]!);
    expect(text).not.toContain("archive picture");
    expect(text).not.toContain("lives on a houseboat");
  });

  test("a block under the headline that the page's description repeats is the lead, whatever its markup; a teaser elsewhere with other text is not", () => {
    const lead = "After a month of closure the valley's only ferry is running again, and the market towns on both banks are relieved.";
    const page = (description: string, block: string) => `<!doctype html><html><head><title>Ferry crossings resume after the floods</title><meta name="description" content="${description}"></head><body>
<nav><a href="/">Home</a> <a href="/news">News</a></nav>
<div class="top"><h1>Ferry crossings resume after the floods</h1><ul class="icons"><li><a href="/share"><img src="/mail.png" alt="Mail"></a></li></ul>${block}</div>
<div class="article-body">${paragraphs()}</div></body></html>`;
    for (const [description, block] of [
      [lead, `<h3>${lead}</h3>`],
      [lead, `<div class="font-bold" itemprop="description"><div>${lead}</div></div>`],
      ["After a month of closure the valley's only ferry is running again ...", `<h3>${lead}</h3>`],
    ]) {
      const text = main(page(description!, block!));
      expect(text).toContain("the market towns on both banks are relieved");
      expect(text.indexOf("are relieved")).toBeLessThan(text.indexOf(PARAGRAPHS[0]!));
      expect(text).toContain(PARAGRAPHS[3]!);
    }
    const other = main(page("A ferry story from the valley, with the timetable and the prices of the season.", `<h3>${lead}</h3>`));
    expect(other).not.toContain("the market towns on both banks are relieved");
  });

  test("the lead comes back on a page too large for Readability, where the text density finds the article", () => {
    const filler = `<div hidden>${"<i></i>".repeat(61_000)}</div>`;
    const html = `<!doctype html><html><head><title>Ferry crossings resume after the floods</title></head><body>
<nav><a href="/">Home</a> <a href="/news">News</a></nav>
<div class="header_wrapper"><h1>Ferry crossings resume after the floods</h1><div class="field-lead">After a month of closure the valley's only ferry is running again, and the market towns on both banks are relieved.</div></div>
<div class="article-body">${paragraphs()}</div>${filler}</body></html>`;
    const text = main(html);
    expect(text).toContain("the market towns on both banks are relieved");
    expect(text.indexOf("are relieved")).toBeLessThan(text.indexOf(PARAGRAPHS[0]!));
    expect(text).toContain(PARAGRAPHS[3]!);
  });

  test("the site's notices go: a disclosure of sponsored content or affiliate links, a notice in capitals, a broadcast line, a network line; sentences on sponsors and notices stay", () => {
    const html = articlePage(`<p>*Disclosure: Some of the links below are affiliate links, meaning, at no additional cost to you, we will earn a commission if you click through.</p>
${paragraphs()}
<p>The ferry company said the new landing was sponsored by the two market towns, which share its cost.</p>
<p>Important notice: the timetable changes on Monday.</p>
<p><strong>AVISO IMPORTANTE: Cualquier comunicación que tenga el diario con sus lectores será iniciada de un correo oficial; otros mensajes pueden ser fraudulentos.</strong></p>
<p>Über dieses Thema berichtete Inforadio am 29. April 2020 um 09:53 Uhr.</p>
<p><em>*courier.example ist Teil des bundesweiten Valley-Redaktionsnetzwerks</em></p>
<p><a href="/hinweis">Hinweis zu der Meldung</a><br>Diese Seite zeigt gesponserten Marketing-Inhalt sowie extern eingespielte Banner.</p>`);
    const text = main(html);
    expect(text).toContain(PARAGRAPHS[0]!);
    expect(text).toContain(PARAGRAPHS[3]!);
    expect(text).toContain("was sponsored by the two market towns");
    expect(text).toContain("Important notice: the timetable changes on Monday.");
    for (const notice of ["affiliate links", "AVISO IMPORTANTE", "berichtete Inforadio", "Redaktionsnetzwerks", "gesponserten Marketing-Inhalt"]) expect(text).not.toContain(notice);
  });

  test("an article whose paragraphs name a sponsor and earnings, in wrappers, is not taken for the site's disclosure", () => {
    const section = `<section class="story-part"><h2>The festival</h2><p>The crossing festival was sponsored by the two market towns again this year.</p>${paragraphs(1, 4).replace(/ferry/g, "boat")}<p>Stallholders earn most of their income in those three days.</p></section>`;
    const text = main(articlePage(`${paragraphs()}${paragraphs().replace(/ferry/g, "barge")}${section}`));
    expect(text).toContain("sponsored by the two market towns");
    expect(text).toContain("Stallholders earn most");
    expect(text).toContain(PARAGRAPHS[0]!);
    expect(text).toContain(PARAGRAPHS[3]!);
  });

  test("a last paragraph of credits (an agency's sign over a photo credit) goes; a last sentence naming a source stays", () => {
    const credits = articlePage(`${paragraphs()}
<p>erb/ots<br>Foto: <a href="https://pixabay.com/users/x">dahancoo</a> / Pixabay (Symbolbild)</p>`);
    const text = main(credits);
    expect(text).toContain(PARAGRAPHS[3]!);
    expect(text).not.toContain("erb/ots");
    expect(text).not.toContain("Symbolbild");
    const sentence = articlePage(`${paragraphs()}
<p>Quelle: the council's report on the landing, which the ferry company has asked to see before the summer.</p>`);
    expect(main(sentence)).toContain("which the ferry company has asked to see");
  });

  test("a short last paragraph that is a sentence, a label of a link that stays a sentence, and a sign-off stay", () => {
    const html = articlePage(`${paragraphs()}
<p>Von Montag an fährt die Fähre wieder stündlich.</p>
<p>Thanks, Anna!</p>
<p>Das Konzeptpapier finden Sie hier:</p>
<p>Liebe Grüße</p>
<p>x Franzi</p>`);
    const text = main(html);
    expect(text).toContain("Liebe Grüße");
    expect(text).toContain("Das Konzeptpapier finden Sie hier:");
    expect(text).toContain("x Franzi");
    expect(text).toContain("Von Montag an fährt die Fähre wieder stündlich.");
    expect(text).toContain("Thanks, Anna!");
  });
});

describe("main content: text no reader sees, and boxes around the article", () => {
  const markdown = (html: string) => htmlToMarkdown(html, { mainContent: true, baseUrl: "https://example.com/a" }).markdown;
  const main = (html: string) => plain(markdown(html));

  test("screen-reader-only text under any common or site-specific hiding class goes, on every tag; classes that hide only on some screens or hide something else stay", () => {
    const html = articlePage(`${paragraphs(0, 2)}
<div class="box"><span class="hideCompletely">Weitere Informationen</span><p>${PARAGRAPHS[2]}</p><span class="hideCompletely">Ende der weiteren Informationen</span></div>
<p>${PARAGRAPHS[3]!.replace("promised", '<a href="https://example.org/plan">promised<span class="element-invisible"> (link is external)</span></a>')}</p>
<p class="u-screen-reader-text">Article continues below</p>
<h2 class="is-hidden">Navigation for readers of screens</h2>
<div class="hidden-xs"><p>The ferry's timetable is printed on the back of the market leaflet.</p></div>
<div class="field field--label-hidden"><p>Tickets cost two euros for adults and one for children.</p></div>
<p class="hidden md:block">On wider screens the harbour map sits beside this paragraph.</p>`);
    const text = main(html);
    expect(text).toContain(PARAGRAPHS[2]!);
    expect(text).toContain(PARAGRAPHS[3]!);
    expect(text).not.toContain("Weitere Informationen");
    expect(text).not.toContain("link is external");
    expect(text).not.toContain("Article continues below");
    expect(text).not.toContain("Navigation for readers of screens");
    expect(text).toContain("printed on the back of the market leaflet");
    expect(text).toContain("Tickets cost two euros");
    // Tailwind's "hidden md:block" hides it on small screens only
    expect(text).toContain("On wider screens the harbour map sits beside this paragraph.");
  });

  test("an article inside an 'above-footer' wrapper wins over the advertiser disclosure beside it; the disclosure, the sign-up box, the author blurb and a featured-image credit go", () => {
    const disclosure = "Many of the credit card offers that appear on the website are from credit card companies from which the Ferry Guide receives compensation. This compensation may impact how and where products appear on this site (including the order in which they appear). This site does not include all credit card companies or all available credit card offers, and the offers change every month. Please view our advertising policy page for more information on how we choose the cards we write about.";
    const html = `<!doctype html><html><head><title>Ferry crossings resume</title></head><body>
<div class="menu"><a href="/">Home</a> <a href="/news">News</a></div>
<div class="above-footer"><div class="post-content"><h1>Ferry crossings resume after the floods</h1>
<section class="editorial-disclosure"><p>This post contains references to products from one or more of our advertisers. We may receive compensation when you click on links to those products.</p></section>
${paragraphs()}
${paragraphs().replace(/ferry/g, "boat")}
${paragraphs().replace(/ferry/g, "barge")}
${paragraphs().replace(/ferry/g, "raft")}
${paragraphs().replace(/ferry/g, "punt")}
<p><em>Featured image by J. Smith/The Ferry Guide.</em></p>
<section class="article-email-capture"><div class="iterable-show-success"><h3>Sign-up successful!</h3><p>Welcome to the Ferry Guide!</p></div></section>
<div class="article-body-content--author-blurb"><p>Jane Doe is a senior river reporter at the Ferry Guide. She joined the team in June 2019 after seven years at the Valley Courier.</p></div>
</div></div>
<section class="advertiser-disclosure-body"><h3>Advertiser Disclosure</h3><p>${disclosure}</p><p>Editorial Note: Opinions expressed here are the author's alone, not those of any bank, credit card issuer or ferry line, and have not been reviewed, approved or otherwise endorsed by any of these entities.</p></section>
</body></html>`;
    const text = main(html);
    for (const paragraph of PARAGRAPHS) expect(text).toContain(paragraph);
    expect(text).not.toContain("Many of the credit card offers");
    expect(text).not.toContain("one or more of our advertisers");
    expect(text).not.toContain("Featured image by");
    expect(text).not.toContain("Sign-up successful");
    expect(text).not.toContain("Jane Doe is a senior river reporter");
  });

  test("a block that is only a 'read more' link ('Weiterlesen', 'Mehr erfahren', 'Read more …') goes; a sentence with such a link stays", () => {
    const html = articlePage(`${paragraphs(0, 2)}
<p><a href="/teaser-1">Weiterlesen</a></p>
<div><a href="/teaser-2">Mehr erfahren</a></div>
${paragraphs(2)}
<p><a href="/abo">Jetzt weiterlesen</a></p>
<p><a href="/teaser-3">Read more …</a></p>
<p>The full timetable is on the council's page: <a href="/timetable">read more</a>.</p>`);
    const text = main(html);
    expect(text).toContain(PARAGRAPHS[3]!);
    expect(text).not.toMatch(/weiterlesen|Mehr erfahren|Read more …/i);
    expect(text).toContain("The full timetable is on the council's page: read more.");
  });

  test("a block that is only a link offering a download (press photos) goes; a sentence that links a file stays", () => {
    const html = articlePage(`${paragraphs()}
<p>The council's flood report is online as a PDF: <a href="/flood-report.pdf">download the report</a>.</p>
<p><strong><a href="/press/portraits.zip">Portraits of the ferryman can be found here for download.</a></strong></p>`);
    const text = main(html);
    expect(text).toContain(PARAGRAPHS[3]!);
    expect(text).not.toContain("Portraits of the ferryman");
    expect(text).toContain("The council's flood report is online as a PDF: download the report.");
  });

  test("a teaser's 'weiterlesen' button row with its reading time ('weiterlesen 5 Minuten') goes; a sentence that gives minutes beside a link stays", () => {
    const html = articlePage(`${paragraphs(0, 2)}
<p><a href="/story-2" class="list__more"><span>weiterlesen</span></a> <span class="list__read">5 Minuten</span></p>
${paragraphs(2)}
<p><a href="/story-3">Read more</a> <span>3 min read</span></p>
<p>The crossing takes <a href="/timetable">about</a> 12 minutes.</p>`);
    const text = main(html);
    expect(text).toContain(PARAGRAPHS[3]!);
    expect(text).not.toMatch(/weiterlesen|5 Minuten|Read more|3 min read/);
    expect(text).toContain("The crossing takes about 12 minutes.");
  });

  test("a promotion set into the text goes: a link to another story between '>>' and '<<', a box that asks to click and register; a quote in » « and a sentence with 'click here' stay", () => {
    const html = articlePage(`${paragraphs(0, 2)}
<p><a href="/other-story">&gt;&gt; Ferryman retires after forty years on the river &lt;&lt;</a></p>
${paragraphs(2)}
<p><span class="linkbox"><strong>The Ferry Guide is now digital!</strong><a href="https://kiosk.example.com/register">Einfach hier klicken und für die digitale Ausgabe registrieren!</a></span></p>
<p><a href="/quote">»Wir fahren wieder«, sagte der Fährmann am Montag.</a></p>
<p>The timetable for the summer is <a href="/timetable">here, click here to see it</a>.</p>`);
    const text = main(html);
    expect(text).toContain(PARAGRAPHS[3]!);
    expect(text).not.toContain("Ferryman retires");
    expect(text).not.toContain("now digital");
    expect(text).not.toContain("registrieren");
    expect(text).toContain("»Wir fahren wieder«, sagte der Fährmann am Montag.");
    expect(text).toContain("The timetable for the summer is here, click here to see it.");
  });

  test("a layout table of one comment counter under the entry ('Kommentare insgesamt: 0') goes; a data table of comment counts stays", () => {
    const html = articlePage(`${paragraphs()}
<table width="100%"><tr><td width="60%">Kommentare insgesamt: <b>0</b></td><td align="right"></td></tr></table>
<table><tr><th>Month</th><th>Comments</th></tr><tr><td>May</td><td>12</td></tr><tr><td>June</td><td>30</td></tr></table>`);
    const text = main(html);
    expect(text).toContain(PARAGRAPHS[3]!);
    expect(text).not.toContain("Kommentare insgesamt");
    expect(text).toContain("June");
  });

  test("a CMS's entry row of a view counter and labels set apart by bars ('Aufrufe: 1120 | Hinzugefügt von: Posh | Rating: 0.0/0') goes; a sentence with a bar and a count stays", () => {
    const html = articlePage(`${paragraphs()}
<p>Aufrufe: 1120 | Hinzugefügt von: Posh | Rating: 0.0/0</p>
<p>The ferry carried 1120 passengers in May | more than in any month before the floods.</p>`);
    const text = main(html);
    expect(text).toContain(PARAGRAPHS[3]!);
    expect(text).not.toContain("Hinzugefügt von");
    expect(text).toContain("The ferry carried 1120 passengers in May");
  });

  test("a lightbox button beside a picture ('Vergrößern', 'click to enlarge') goes with the caption that repeats the alt text; the picture stays, also when the button wraps it", () => {
    const html = articlePage(`${paragraphs(0, 2)}
<div class="visual inline"><picture><img src="/fog.jpg" alt="The ferry at the eastern landing in the morning fog."></picture><div class="description"><a class="btn" href="/fog_original.jpg"><strong>Vergrößern</strong></a><strong class="title">The ferry at the eastern landing in the morning fog.</strong><div class="box"><span class="copy"></span></div></div></div>
<p><a href="/pier_original.jpg"><span>click to enlarge</span> <img src="/pier.jpg" alt="The new pier"></a></p>
${paragraphs(2)}`);
    const md = markdown(html);
    expect(md).toContain("![The ferry at the eastern landing in the morning fog.](https://example.com/fog.jpg)");
    expect(md).toContain("![The new pier](https://example.com/pier.jpg)");
    expect(md).not.toMatch(/Vergrößern|click to enlarge/i);
    expect(md.match(/The ferry at the eastern landing in the morning fog/g)).toHaveLength(1);
    expect(main(html)).toContain(PARAGRAPHS[3]!);
  });

  test("a caption box that repeats the alt text and closes with a '©' credit paragraph goes with its credit; a box whose second paragraph says more stays", () => {
    const alt = "The new ferry at the eastern landing on its first morning.";
    const html = articlePage(`${paragraphs(0, 2)}
<div><picture><img src="/ferry.jpg" alt="${alt}"></picture><div><p><a href="/ferry_original.jpg"><strong>Vergrößern</strong></a> <strong>${alt}</strong></p><p><span>© Jane Doe &amp; River Photos</span></p></div></div>
${paragraphs(2)}
<div><picture><img src="/pier.jpg" alt="The old pier before the floods in spring."></picture><div><p><strong>The old pier before the floods in spring.</strong></p><p>The council will rebuild the pier in stone next year, with a ramp for bicycles and a shelter for the waiting passengers.</p></div></div>`);
    const md = markdown(html);
    expect(md).toContain(`![${alt}](https://example.com/ferry.jpg)`);
    expect(md.match(/The new ferry at the eastern landing/g)).toHaveLength(1);
    expect(md).not.toContain("Jane Doe");
    expect(main(html)).toContain("The council will rebuild the pier in stone next year");
    expect(main(html)).toContain(PARAGRAPHS[3]!);
    // Above the article's first paragraph, the same box is the lead written under the top picture.
    const lead = "The ferry crossings resume on Monday after three weeks of floods, the council said, and the fares stay as they were.";
    const top = articlePage(`<div><picture><img src="/top.jpg" alt="${lead}"></picture><div><p>${lead}</p><p>Foto: River Photos</p></div></div>
${paragraphs()}`);
    expect(main(top)).toContain(lead);
  });

  test("a step picture's toggle buttons ('Bild anzeigen', 'Bild schließen') go; the step's text and picture stay", () => {
    const html = articlePage(`${paragraphs(0, 2)}
<ol><li><p>Fette den Boden der Springform mit etwas Butter ein.</p><div role="button" class="image-toggle"><span class="open">Bild anzeigen</span> <span class="close">Bild schließen</span></div><div class="step-image"><img src="/step1.jpg" alt="Die gefettete Springform"></div></li>
<li><p>Heize den Ofen auf 180 °C vor und zeige das Bild anzeigen lassen den Gästen nicht.</p></li></ol>
${paragraphs(2)}`);
    const md = markdown(html);
    expect(md).not.toMatch(/Bild anzeigen\s*Bild schließen|^Bild anzeigen$/m);
    expect(md).toContain("Fette den Boden der Springform mit etwas Butter ein.");
    expect(md).toContain("![Die gefettete Springform](https://example.com/step1.jpg)");
    expect(md).toContain("zeige das Bild anzeigen lassen");
  });

  test("an accordion's toggle ('Quellen ausblenden', 'Show sources') goes and the sources it opens stay; a sentence asking to show the sources stays", () => {
    const html = articlePage(`${paragraphs()}
<div class="citation js-accordion"><div class="citation__toggle js-accordion-toggle">Quellen ausblenden</div><div class="citation__content"><p>River Council (2021): Annual ferry report 2021, with the crossings of every month, page 12.</p></div></div>
<div class="refs"><div class="toggle">Show sources</div></div>
<p>Readers can ask the council to show the sources of the report.</p>`);
    const text = main(html);
    expect(text).toContain(PARAGRAPHS[3]!);
    expect(text).not.toContain("Quellen ausblenden");
    expect(text).not.toContain("Show sources");
    expect(text).toContain("Annual ferry report 2021");
    expect(text).toContain("Readers can ask the council to show the sources of the report.");
  });
});

describe("main content: the article a page holds only in its data scripts", () => {
  const convert = (html: string) => htmlToMarkdown(html, { mainContent: true, baseUrl: "https://example.com/a" });
  const TITLE = "Ferry crossings resume after the floods";
  /** story: the four paragraphs twice (the second time about the boat), as HTML */
  const storyHtml = [...PARAGRAPHS, ...PARAGRAPHS.map((p) => p.replace(/ferry/g, "boat"))].map((p) => `<p>${p}</p>`).join("");
  const json = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");

  test("a Next.js page with an empty app root gives the article of __NEXT_DATA__, converted like HTML: no raw HTML, no script, no related story", () => {
    const data = {
      props: {
        pageProps: {
          article: { title: TITLE, summary: "Short summary of the ferry story for teasers.", body: `${storyHtml}<script>alert("data")</script><img src="x.png" onerror="alert(1)">` },
          related: [
            { title: "Bridge repairs to start in May", body: "<p>The council has approved the repair of the old stone bridge, which will close for six weeks from the first of May while the arches are secured.</p>" },
            { title: "Market moves to the church square", body: "<p>The Saturday market will move to the church square for the summer, the traders association said, because the quay is being rebuilt.</p>" },
          ],
        },
      },
    };
    const html = `<!doctype html><html><head><title>${TITLE} | Courier</title></head><body><div id="__next"></div>
<script id="__NEXT_DATA__" type="application/json">${json(data)}</script></body></html>`;
    const { markdown, warnings } = convert(html);
    const text = plain(markdown);
    for (const p of PARAGRAPHS) expect(text).toContain(p);
    expect(text).toContain(PARAGRAPHS[3]!.replace(/ferry/g, "boat"));
    expect(markdown).toStartWith(`# ${TITLE}`);
    expect(markdown).not.toMatch(/<\/?(?:p|script|img)\b/);
    expect(markdown).not.toContain("alert");
    expect(text).not.toContain("stone bridge");
    expect(text).not.toContain("church square");
    expect(warnings.join(" ")).toContain("data script");
  });

  test("a page showing a teaser gives the ld+json articleBody, with its description as the lead, each paragraph once", () => {
    const lead = "The ferry is back: after a month of floods the crossings between the market towns run again.";
    const article = { "@context": "https://schema.org", "@type": "NewsArticle", headline: TITLE, description: lead, articleBody: [...PARAGRAPHS, ...PARAGRAPHS.map((p) => p.replace(/ferry/g, "boat"))].join("\n") };
    const html = `<!doctype html><html><head><title>${TITLE}</title><script type="application/ld+json">${json(article)}</script></head><body>
<div class="menu"><a href="/">Home</a> <a href="/news">News</a></div>
<article><h1>${TITLE}</h1><p class="lead">${lead}</p><p>${PARAGRAPHS[0]}</p><div class="paywall"><p>Subscribe to read the whole story.</p></div></article>
<div class="site-footer"><a href="/imprint">Imprint</a></div></body></html>`;
    const markdown = convert(html).markdown;
    const text = plain(markdown);
    expect(text).toContain(lead);
    for (const p of PARAGRAPHS) expect(text).toContain(p);
    expect(text).toContain(PARAGRAPHS[2]!.replace(/ferry/g, "boat"));
    expect(text.split(PARAGRAPHS[0]!).length - 1).toBe(1);
    expect(text.split(lead).length - 1).toBe(1);
    expect(text).not.toContain("Subscribe");
  });

  test("a full article in the page stays as it is beside a long unrelated string in a window state script, and a listing's JSON is never taken", () => {
    const unrelated = Array.from({ length: 12 }, (_, i) => `Catalogue entry ${i}: a sturdy oak table with four chairs, delivered flat-packed with tools and instructions, in stock at the warehouse.`).join("\n");
    const state = { shop: { product: { title: "Oak table", body: unrelated } } };
    const listing = { items: Array.from({ length: 6 }, (_, i) => ({ title: `Story number ${i} of the week`, body: `<p>${PARAGRAPHS[i % 4]!.replace(/ferry/g, `barge ${i}`)} ${PARAGRAPHS[(i + 1) % 4]}</p>` })) };
    const page = (extra: string) => articlePage(`${paragraphs()}${extra}`);
    const plainPage = page("");
    const withState = page(`<script>window.__INITIAL_STATE__ = ${json(state)};</script><script type="application/json">${json(listing)}</script>`);
    expect(convert(withState).markdown).toBe(convert(plainPage).markdown);
    expect(plain(convert(withState).markdown)).not.toContain("Catalogue entry");
    // An empty app root with only a listing in its data: the listing is not taken as the article.
    const shell = `<!doctype html><html><head><title>Top stories</title></head><body><div id="root"><p>Loading the latest stories for you.</p></div><script id="__NEXT_DATA__" type="application/json">${json({ props: { pageProps: listing } })}</script></body></html>`;
    const shellText = plain(convert(shell).markdown);
    expect(shellText).not.toContain("barge");
  });
});

describe("superscripts, subscripts and footnotes", () => {
  // A Wikipedia-like article written for these tests (test/fixtures/article_sup_footnotes.html).
  const page = () => fixture("article_sup_footnotes.html");
  const base = "https://example.org/wiki/Heavy_water";

  for (const mainContent of [false, true]) {
    test(`${mainContent ? "main content" : "whole page"}: <sup>/<sub> kept as tags, references to the page's notes as [^n] with the notes at the end`, async () => {
      const { markdown } = htmlToMarkdown(await page(), { baseUrl: base, mainContent });
      expect(markdown).toContain("(deuterium oxide, D<sub>2</sub>O)");
      expect(markdown).toContain("about 1.5 × 10<sup>−4</sup> deuterium atoms");
      expect(markdown).toContain("1.1056 g/cm<sup>3</sup>, about eleven percent above that of ordinary water.[^a]");
      expect(markdown).toContain("hydrogen in ordinary water.[^1] The presence");
      expect(markdown).toContain("molecules of HDO.[^1] Its density");
      expect(markdown).toContain("recent approaches to its production[^3] use less energy");
      // each note once, at the end, in the order of its first reference; its links back are gone
      expect(markdown).toEndWith(
        [
          "[^1]: IUPAC, *Nomenclature of Inorganic Chemistry* (2005), p. 306.",
          "[^2]: Miller, *Isotopes in water*, 2nd ed., 1998.",
          "[^a]: At 25 °C the difference is 10.6 percent.",
          "[^3]: A 2019 review of membrane separation.",
          "",
        ].join("\n"),
      );
      expect(markdown.match(/IUPAC/g)).toHaveLength(1);
      // a heading whose section held only notes heads nothing once they are at the end
      expect(markdown).not.toContain("## Notes");
      if (mainContent) expect(markdown).not.toContain("## References");
      expect(markdown).not.toContain("cite_ref");
      expect(markdown).not.toContain("↩");
    });
  }

  test("sup and sub are the only tags: markup written as text stays escaped, attributes and other tags never come through", async () => {
    const { markdown } = htmlToMarkdown(await page(), { baseUrl: base, mainContent: true });
    expect(markdown).toContain("\\<sup>like this\\</sup> or \\<img src=x onerror=alert(1)>, and it stays text.<sup>†</sup>");
    const tags = markdown.match(/(?<!\\)<\/?[a-z][^>]*>/gi) ?? [];
    expect(tags.length).toBeGreaterThan(0);
    expect(tags.filter((tag) => !/^<\/?su[bp]>$/.test(tag))).toEqual([]);
    expect(markdown).not.toMatch(/onclick|style=/);
  });

  test("a superscript link to something other than a note stays a link inside <sup>; a note nobody references stays where it is", () => {
    const html = [
      "<p>Energy E = mc<sup>2</sup>; see x<sup><a href='https://example.org/errata'>1</a></sup> and the table<sup><a href='#t1'>2</a></sup>.</p>",
      "<table id='t1'><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>",
      "<div class='footnotes'><p id='fn9'>An unreferenced note.</p></div>",
    ].join("");
    const { markdown } = htmlToMarkdown(html, { mainContent: false });
    expect(markdown).toContain("E = mc<sup>2</sup>; see x<sup>[1](https://example.org/errata)</sup> and the table<sup>[2](#t1)</sup>.");
    expect(markdown).toContain("\n\nAn unreferenced note.");
    expect(markdown).not.toContain("[^");
  });

  test("a superscript link to a whole section of references (not one note) stays a link and the section stays in place", () => {
    const refs = Array.from({ length: 60 }, (_, i) => `<p>Reference ${i + 1}: Author, a title long enough to fill the line, a journal, ${1950 + i}.</p>`).join("");
    const { markdown } = htmlToMarkdown(`<p>Claim<sup><a href="#refs">1</a></sup>.</p><div class="references" id="refs">${refs}</div>`, { mainContent: false });
    expect(markdown).toContain("Claim<sup>[1](#refs)</sup>.");
    expect(markdown).toContain("\n\nReference 60: Author");
    expect(markdown).not.toContain("[^");
  });

  test("a subscript or superscript that spans a line break is kept as plain text", () => {
    const { markdown } = htmlToMarkdown("<p>CO<sub>2<br>emissions</sub> and x<sup> </sup>y</p>", { mainContent: false });
    expect(markdown).toContain("CO2\\\nemissions and x y");
  });
});
