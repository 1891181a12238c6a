/**
 * boilerplate: page chrome known by what it holds, not by its name (a notice that the browser is
 * outdated, the button that reopens a cookie banner, an author's box opened by a plain label), a lead
 * that a description cut short without "..." opens, the text after a "related" block of picture
 * links, and the page's headline when a site bar's <nav> holds an h1 copy of it.
 */
import { describe, expect, test } from "bun:test";
import { htmlToMarkdown, parseDocument } from "../src/convert/html";
import { putBackTwins, twinSections } from "../src/convert/boilerplateSiblings";
import type { DomNode } from "../src/convert/htmlDom";

const TITLE = "Ferry crossings resume in the valley";
const BODY = [
  "The ferry left the northern landing at seven in the morning with twelve cars and a school class on board, the first crossing since the water rose over the quay in March.",
  "Engineers spent three weeks clearing mud from the slipway and replacing the cables that guide the boat across the current, which is still faster than usual for the season.",
  "Shop owners in both towns say their takings fell by a third while the crossing was closed, because customers from the other bank had to drive forty minutes round by the bridge.",
  "The operator plans to add an evening crossing on Fridays in the summer and asks passengers to buy tickets online to keep the queues at the landings short.",
];
const paragraphs = (texts: string[]) => texts.map((p) => `<p>${p}</p>`).join("\n");
const convert = (html: string) => htmlToMarkdown(html, { mainContent: true, baseUrl: "https://news.example/ferry" }).markdown;

describe("boilerplate: chrome known by what it holds", () => {
  test("a notice that the browser is outdated, linking to other browsers, is not the article", () => {
    const notice = `<div id="IE-overlay"><div class="wrapper"><div class="close"><a><img src="/close.jpg"></a></div>
<h1>Dear readers, dear fans,</h1>
<p>We are glad about your visit to our association's homepage. Unfortunately you are using Internet Explorer, an outdated browser that no longer supports our latest technologies. For the best display of our content we recommend one of these browsers:</p>
<ul><li><a href="https://www.mozilla.org/de/firefox/new/">Mozilla Firefox</a></li><li><a href="https://www.google.com/intl/de/chrome/">Google Chrome</a></li><li><a href="https://www.microsoft.com/edge">Microsoft Edge</a></li></ul>
<p>If you have questions, write to us at any time. Thank you for your understanding! Kind regards, your team of the association</p></div></div>`;
    const html = `<!doctype html><html><head><title>${TITLE}</title></head><body>${notice}
<div class="page"><h1>${TITLE}</h1><section class="news">${paragraphs(BODY.slice(0, 2))}</section></div></body></html>`;
    const text = convert(html);
    expect(text).toContain(BODY[0]!);
    expect(text).toContain(BODY[1]!);
    expect(text).not.toContain("outdated browser");
    expect(text).not.toContain("Dear readers");
    // a page about browsers that links to them in its text keeps its text
    const review = `<!doctype html><html><head><title>Which browser to use</title></head><body><article><h1>Which browser to use</h1>
<p>We tried the three big browsers for a month. <a href="https://www.mozilla.org/firefox/">Firefox</a> was the quickest to start, and its tab handling is the best of the three on a small laptop screen.</p>
<p><a href="https://www.google.com/chrome/">Chrome</a> used the most memory in our tests, but its extensions worked without trouble on every site we visited during the month.</p>
${paragraphs(BODY)}</article></body></html>`;
    expect(convert(review)).toContain("tab handling is the best");
  });

  test("the button that reopens the cookie banner, floating at the page's top level, is not text", () => {
    const html = `<!doctype html><html><head><title>${TITLE}</title></head><body><div class="cc-revoke dp--revoke"><i class="icon"></i><span>Cookies</span></div>
<h1>${TITLE}</h1>${BODY.map((p) => `<section class="co"><div class="text"><p>${p}</p></div></section>`).join("")}</body></html>`;
    const text = convert(html);
    expect(text).toContain(BODY[0]!);
    expect(text).toContain(BODY[3]!);
    expect(text).not.toMatch(/^Cookies$/m);
  });

  test("an author's box opened by a plain label over a name heading and a bio goes", () => {
    const box = `<p><span><div class="highlight clearfix"><div class="content wide"><div class="header">AUTOR</div><h3>Dr. Ann Smith</h3>
<p>is a founding partner of a law firm in Berlin. Her fields include banking and capital markets law, consumer protection and internet law.</p></div></div></span></p>`;
    const html = `<!doctype html><html><head><title>${TITLE}</title></head><body><div class="post"><h1>${TITLE}</h1>${paragraphs(BODY)}
<blockquote><p>${BODY[0]} ${BODY[1]}</p>${box}</blockquote></div></body></html>`;
    const text = convert(html);
    expect(text).toContain(BODY[3]!);
    expect(text).not.toContain("founding partner");
    expect(text).not.toContain("Dr. Ann Smith");
  });
});

describe("boilerplate: the lead and the text around teasers", () => {
  test("a lead that the page's description opens, cut at a word without a mark, comes back (an h2 after an ad's label)", () => {
    const lead = "With dismay the ferry association, which speaks for the boat owners of the valley, has reacted to the closing of the crossing in March, the regional paper reports today.";
    const description = lead.slice(0, 150).replace(/\s+\S*$/, "");
    // a page builder's rows: Readability takes the paragraphs' row and leaves the lead's out
    const row = (inner: string) => `<div class="tdc-row"><div class="vc_row wpb_row"><div class="vc_column wpb_column"><div class="wpb_wrapper"><div class="wpb_text_column"><div class="wpb_wrapper">${inner}</div></div></div></div></div></div>`;
    const html = `<!doctype html><html><head><title>${TITLE}</title><meta name="description" content="${description}"></head><body>
<div class="menu"><a href="/">Home</a> <a href="/news">News</a></div>
<article><header><h1>${TITLE}</h1></header><div class="post-content"><div class="code-block"><span class="adspot-title">ANZEIGE</span><div id="gpt-ad-1"></div></div>
${row(`<h2>${lead}</h2>`)}${row(paragraphs(BODY))}</div></article></body></html>`;
    const text = convert(html);
    expect(text).toContain(lead);
    expect(text.indexOf(lead)).toBeLessThan(text.indexOf(BODY[0]!));
  });

  test("the one paragraph in the headline's own box (a header in all but name) is the lead", () => {
    const lead = "For a cheap loan the interest rate decides most. What drives the rate and how the interest on your loan is worked out, you learn here.";
    const html = `<!doctype html><html><head><title>${TITLE}</title></head><body><div class="menu"><a href="/">Home</a> <a href="/loans">Loans</a></div>
<div id="module-1" class="container-fluid guide-header-module"><div class="container"><div class="row"><div class="col-12"><div class="form-head"><div class="text-wrapper">
<h1><span class="headline">${TITLE}</span></h1><div class="text"><p>${lead}</p></div></div></div></div></div></div><a class="scrolldown" href="#content">down</a></div>
<div id="content" class="container"><div class="row"><div class="col-8">${paragraphs(BODY)}</div></div></div></body></html>`;
    const text = convert(html);
    expect(text).toContain(lead);
    expect(text.indexOf(lead)).toBeLessThan(text.indexOf(BODY[0]!));
  });

  test("after a 'related' heading over picture links, the article's next paragraph is text again", () => {
    const teasers = `<h4 class="crp-list-title">Auch interessant</h4><ul class="crp-list">${[1, 2, 3].map((i) => `<li class="crp-list-item"><a href="/story-${i}"><img src="/t${i}.jpg"></a></li>`).join("")}</ul>`;
    const html = `<!doctype html><html><head><title>${TITLE}</title></head><body><div class="entry-content"><h1>${TITLE}</h1>${paragraphs(BODY.slice(0, 2))}${teasers}${paragraphs(BODY.slice(2))}</div></body></html>`;
    const text = convert(html);
    expect(text).toContain(BODY[2]!);
    expect(text).toContain(BODY[3]!);
    expect(text).not.toContain("Auch interessant");
  });

  test("the page's heading is not an h1 copy of the title in a site bar's <nav>", () => {
    const html = `<!doctype html><html><head><title>Welcome | Valley Courier</title></head><body><nav class="sticky"><h1>Valley Courier: Welcome to the news</h1><a href="/">Home</a></nav>
<div class="story">${paragraphs(BODY)}</div></body></html>`;
    const text = convert(html);
    expect(text).toContain(BODY[0]!);
    expect(text).not.toContain("# Valley Courier: Welcome to the news");
  });

});

describe("boilerplate: a body section Readability dropped beside its twins", () => {
  const first = "In spite of difficult supply chains and a shortage of materials the heating industry reports a good year on the home market up to the third quarter.";
  const section = (inner: string) => `<section class="co coTextmedia co--small"><div class="co__container"><div class="rteContent">${inner}</div></div></section>`;
  const banner = `<section class="co co--content-banner"><ins><a href="https://ads.example/c"><img src="/banner.jpg"></a></ins></section>`;
  const teaser = `<section class="co coTextmedia co--small"><div class="co__container"><div class="rteContent"><a href="/other"><img src="/t.jpg"></a><h3>Other story</h3><p>${BODY[3]}</p></div></div></section>`;
  /** readabilityDropped: the page's body, and what Readability made of it on zfk.de: the first section dropped (its paragraph retagged and cleaned away), the twins kept and retagged. */
  function readabilityDropped(extra = ""): { body: DomNode; article: DomNode } {
    const document = parseDocument(`<!doctype html><html><head><title>${TITLE}</title></head><body><article><h1>${TITLE}</h1><section class="content">${section(`<p>${first}</p>`)}${banner}${section(paragraphs(BODY.slice(0, 2)))}${extra}</section></article></body></html>`);
    const article = parseDocument(`<!doctype html><html><body><div id="readability-page-1"><div class="content"><div class="co coTextmedia co--small"><div class="co__container"><div class="rteContent">${paragraphs(BODY.slice(0, 2))}</div></div></div></div></div></body></html>`);
    return { body: document.body as unknown as DomNode, article: article.body.firstElementChild as unknown as DomNode };
  }

  test("the dropped section of running text comes back before its twin, once; a teaser card beside it does not", () => {
    const { body, article } = readabilityDropped(teaser);
    const twins = twinSections(body);
    expect(putBackTwins(article, twins)).toBe(1);
    const text = (article.textContent ?? "").replace(/\s+/g, " ");
    expect(text.indexOf(first)).toBeGreaterThanOrEqual(0);
    expect(text.indexOf(first)).toBeLessThan(text.indexOf(BODY[0]!));
    expect(text.split(first).length).toBe(2);
    expect(text).not.toContain("Other story");
    // nothing more to put back the second time
    expect(putBackTwins(article, twins)).toBe(0);
  });
});
