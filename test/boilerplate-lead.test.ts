/**
 * boilerplate: the lead under a news article's headline when the page repeats the headline first (a
 * sticky bar's <nav> holding an <h1> copy, as faz.net does, or an h1 for screen readers only, as
 * umweltbundesamt.de does) and the article's own headline is a later heading whose parts are spans
 * ("<span>Floods</span><span>: </span><span>Ferry ...</span>").
 */
import { describe, expect, test } from "bun:test";
import { htmlToMarkdown } from "../src/convert/html";

const LEAD = "After a month of closure the valley's only ferry is running again, and the market towns on both banks are relieved.";
const BODY = [
  "The ferry left the northern landing at seven in the morning with twelve cars and a school class on board, the first crossing since the water rose over the quay in March.",
  "Engineers spent three weeks clearing mud from the slipway and replacing the cables that guide the boat across the current, which is still faster than usual for the season.",
  "Shop owners in both towns say their takings fell by a third while the crossing was closed, because customers from the other bank had to drive forty minutes round by the bridge.",
  "The operator plans to add an evening crossing on Fridays in the summer and asks passengers to buy tickets online to keep the queues at the landings short.",
];

/**
 * page: a news page whose top holds a copy of the headline as an h1 before a menu (more elements
 * than a lead is looked for in): in the menu bar's <nav>, or printed for screen readers only.
 */
function page(copy: "nav" | "screen reader" | "none"): string {
  const menu = Array.from({ length: 250 }, (_, i) => `<li><a href="/s${i}">Section ${i}</a></li>`).join("");
  const h1 = "<h1>Floods: Ferry crossings resume in the valley</h1>";
  const bar = copy === "nav" ? `<nav class="top-bar">${h1}<ul>${menu}</ul></nav>` : `${copy === "screen reader" ? h1.replace("<h1>", '<h1 class="visuallyhidden">') : ""}<div class="menu"><ul>${menu}</ul></div>`;
  return `<!doctype html><html><head><title>Floods: Ferry crossings resume in the valley</title></head><body>${bar}
<div class="story"><div class="story-top"><header class="story-header"><h2 class="story-headline"><span>Floods</span><span class="hidden-text">: </span><span>Ferry crossings resume in the valley</span></h2>
<p class="story-meta">Published on <span itemprop="datePublished" content="2020-01-28"></span> by Ann Smith, reporter for the Valley Courier in Northbridge</p>
<div class="story-intro"><div class="image-description"><p><span>The ferry at the northern landing.</span> <span>Photo: Valley Courier</span></p></div>
<p class="story-introtext">${LEAD}</p></div></header></div>
<div class="story-share"><a href="https://twitter.example/share">Share</a> <a href="mailto:?body=ferry">E-mail</a></div>
<div class="story-main"><div class="story-body">${BODY.map((p) => `<p>${p}</p>`).join("\n")}</div></div></div>
<footer><a href="/imprint">Imprint</a></footer></body></html>`;
}

describe("boilerplate: the lead under a headline that a menu bar repeats", () => {
  test("the lead comes back before the article when a <nav> or a screen-reader-only h1 copies the headline and the article's headline is a later h2", () => {
    for (const copy of ["nav", "screen reader", "none"] as const) {
      const text = htmlToMarkdown(page(copy), { mainContent: true, baseUrl: "https://news.example/ferry" }).markdown;
      expect({ copy, lead: text.includes(LEAD) }).toEqual({ copy, lead: true });
      expect(text.indexOf(LEAD)).toBeLessThan(text.indexOf(BODY[0]!));
      expect(text).toContain(BODY[3]!);
      expect(text).not.toContain("Section 12");
      // the publication line in the header is not the lead
      expect(text).not.toContain("by Ann Smith");
    }
  });
});

describe("boilerplate: a lead written as bullets", () => {
  /** bulletPage: a news page whose lead box, named "teaser-text", holds a list under the picture. */
  const bulletPage = (items: string[]) => `<!doctype html><html><head><title>Ferry crossings resume in the valley</title></head><body>
<div class="menu"><a href="/">Home</a> <a href="/news">News</a></div>
<div class="news-single"><div class="header"><h1>Ferry crossings resume in the valley</h1></div>
<div class="news-img-wrap"><img src="/ferry.jpg" alt="The ferry"><div class="news-img-caption"><span>The ferry at the northern landing.</span><span>Foto: Ann Smith</span></div></div>
<div class="teaser-text"><ul>${items.map((item) => `<li>${item}</li>`).join(" ")}</ul></div>
<div class="news-text-wrap"><div class="ad-slot"><div>Anzeige</div></div>${BODY.map((p) => `<p>${p}</p>`).join("\n")}</div></div>
<footer><a href="/imprint">Imprint</a></footer></body></html>`;

  test("a lead box that is a list of a few sentences comes back before the article; a list of links in it does not", () => {
    const bullets = ["The valley's only ferry is running again after a month.", "Engineers cleared the slipway and replaced the cables.", "Shops on both banks expect their customers back."];
    const text = htmlToMarkdown(bulletPage(bullets), { mainContent: true, baseUrl: "https://news.example/ferry" }).markdown;
    for (const bullet of bullets) expect(text).toContain(`- ${bullet}`);
    expect(text.indexOf(bullets[0]!)).toBeLessThan(text.indexOf(BODY[0]!));
    expect(text).toContain(BODY[3]!);
    const links = ['<a href="/weather">Weather on both banks this weekend.</a>', '<a href="/roads">Roads closed by the floods.</a>'];
    const linked = htmlToMarkdown(bulletPage(links), { mainContent: true, baseUrl: "https://news.example/ferry" }).markdown;
    expect(linked).not.toContain("Weather on both banks");
    expect(linked).toContain(BODY[3]!);
  });
});
