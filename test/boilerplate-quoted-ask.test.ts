/**
 * boilerplate: a paragraph of a news article that quotes someone's words about a subscription ("No
 * subscription required", a space agency on its streaming service) is the article's text; a short
 * paragraph in which the site asks the reader to subscribe still goes, also when it quotes a name.
 */
import { describe, expect, test } from "bun:test";
import { htmlToMarkdown } from "../src/convert/html";

const QUOTE = '"We launch more than rockets," the agency wrote. "No subscription required. No ads. No cost. Family friendly."';
const ASK = 'Get the day\'s updates in our free newsletter "Questions of the Day". Subscribe here.';
const BODY = [
  "The space agency has as many spectacular things to show as the large media companies, and viewers will soon be able to see for themselves: next week it starts a streaming service of its own.",
  "The service starts next Wednesday and offers the agency's award-winning live coverage, videos of past, current and future missions and other programmes, the agency said.",
  "The launch is part of a broad overhaul of the agency's digital platforms announced in the summer, which also brought a new website and an upgraded app for phones.",
];

const page = `<!doctype html><html><head><title>Space agency starts a streaming service</title></head><body>
<nav><a href="/">Home</a> <a href="/news">News</a> <a href="/science">Science</a></nav>
<div id="content"><h1>Space agency starts a streaming service</h1>
${BODY[0]}<br/><br/>${BODY[1]}<br/><br/>
<h2>A broad overhaul</h2>
${QUOTE}<br/><br/>${BODY[2]}<br/><br/>
<p>${ASK}</p>
</div><footer><a href="/imprint">Imprint</a></footer></body></html>`;

describe("boilerplate: quoted words about a subscription", () => {
  test("a quotation that says 'No subscription required' stays in the article; the site's own newsletter ask goes", () => {
    const text = htmlToMarkdown(page, { mainContent: true, baseUrl: "https://news.example/streaming" }).markdown;
    expect(text).toContain("No subscription required.");
    expect(text).toContain(BODY[2]!);
    expect(text).not.toContain("Subscribe here");
  });
});
