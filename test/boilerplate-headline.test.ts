/**
 * boilerplate: the page's heading when a site's menu sets an h1 of its own before the article's (a
 * news site's "Ahora / Últimas noticias" bar, as prensalibre.com does): the h1 that the page's
 * <title> names is the heading, not the first h1 of the page.
 */
import { describe, expect, test } from "bun:test";
import { htmlToMarkdown } from "../src/convert/html";

const HEADLINE = "Fuel prices in the valley keep rising, but slowly, says the ministry";
const BODY = [
  "Fuel prices at the pumps of the valley rose again this week even though the subsidy approved in March is still paid to every station.",
  "The ministry expects the rise to go on at a slower pace, because the price of crude oil has been steady on the international markets for a fortnight.",
  "Hauliers say the subsidy covers less than half of what they pay more than a year ago, and ask for it to be extended to the end of the year.",
];

/** page: a news page whose header bar holds a menu h1 ("Now / Latest news") before the article's own h1. */
function page(menuH1: boolean): string {
  const bar = menuH1 ? `<div class="heading-now"><h1 class="heading-now-left">Now Latest news</h1><ul><li><a href="/a">Markets open higher</a></li><li><a href="/b">Storm warning for the coast</a></li></ul></div>` : "";
  return `<!doctype html><html><head><title>${HEADLINE} – Valley Courier</title></head><body>
<header class="site-header"><a href="/">Valley Courier</a></header>${bar}
<article><h1 class="story-title">${HEADLINE}</h1>${BODY.map((p) => `<p>${p}</p>`).join("\n")}</article>
<footer><a href="/imprint">Imprint</a></footer></body></html>`;
}

describe("boilerplate: the heading when a menu's h1 comes first", () => {
  test("the h1 that the title names is the page's heading; the menu's h1 is not", () => {
    for (const menuH1 of [true, false]) {
      const text = htmlToMarkdown(page(menuH1), { mainContent: true, baseUrl: "https://news.example/fuel" }).markdown;
      expect({ menuH1, start: text.split("\n")[0] }).toEqual({ menuH1, start: `# ${HEADLINE}` });
      expect(text).not.toContain("Now Latest news");
      expect(text).toContain(BODY[2]!);
    }
  });
});
