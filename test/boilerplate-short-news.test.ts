/**
 * boilerplate: a short news item of one paragraph, on a page whose newsletter sign-up box (a heading,
 * a consent text, error messages) holds more text than the item: Readability takes the box; the
 * densest block, the item's one paragraph, shares none of its text and holds more than what is left of
 * the box once its form chrome is out, so the item wins.
 */
import { describe, expect, test } from "bun:test";
import { htmlToMarkdown } from "../src/convert/html";

const ITEM =
  "The national preparation meeting of the intercultural week takes place online on the eleventh and twelfth of February; the association's integration project will take part. Planned are workshops on intercultural work in the fire brigades, a panel on volunteering and an exchange with the organisers of local events.";

const menu = Array.from({ length: 40 }, (_, i) => `<li><a href="/s${i}">Section ${i}</a></li>`).join("");
const related = ["Expert on the emergency call system in a consumer programme", "Fire brigades at the fourth nationwide Twitter storm", "New guideline for forest fire fighting published"]
  .map((title, i) => `<li class="grid-item"><div class="item-content"><time datetime="2022-02-0${i + 1}">0${i + 1}.02.2022</time><a class="item-link" href="/n${i}"><h3 class="item-title">${title}</h3></a><div class="item-footer"><a class="button" href="/n${i}">Read more</a></div></div></li>`)
  .join("");
const page = `<!doctype html><html><head><title>Association at the preparation meeting of the intercultural week</title></head><body>
<header class="site"><nav><ul>${menu}</ul></nav></header>
<main class="mainContent"><article class="post">
<header class="post-header"><h1>Association at the preparation meeting of the intercultural week</h1><div class="meta"><time datetime="2022-02-04">04.02.2022</time>
<ul class="meta-categories"><li><a class="button" href="/c/info">Information</a></li><li><a class="button" href="/c/project">Project</a></li></ul></div></header>
<section class="post-main"><div class="flyntComponent componentSpacing"><div class="container centerMaxWidthContainer"><div class="content content--textLeft centerContentMaxWidth"><p>${ITEM}</p></div></div></div></section>
<footer class="post-footer"><section class="post-meta"><p class="social-title">Share:</p><ul class="social"><li><a href="https://facebook.example/share">f</a></li></ul></section>
<section class="post-related"><h2>Similar articles</h2><ul class="grid">${related}</ul><div class="allPostsLink"><a href="/news" class="button">All news</a></div></section>
<div class="flyntComponent componentSpacing"><div class="container centerMaxWidthContainer"><div class="wrap wrap-form centerContentMaxWidth">
<div class="wrap-preContent"><h4><b>Always up to date with our current</b></h4><h2><b>association news</b></h2></div>
<form class="form"><fieldset><label class="form-email"><input type="email" name="email" placeholder="Your e-mail address" required></label>
<div class="form-terms"><input type="checkbox" id="terms" name="consent" required><label for="terms" class="checkbox-label"><p>I agree that the national fire brigade association may send me current information about its activities at regular intervals.</p>
<p>I consent to the processing of my data according to the <a href="/privacy">privacy policy</a>. After signing up, I receive an e-mail to confirm by double opt-in. I can withdraw my consent at any time for the future.</p></label></div></fieldset>
<button type="submit" class="button form-submit">Send</button></form>
<div class="errorText hidden">Something went wrong. Please try again!</div>
<div class="errorText hidden">This address is already registered.</div>
<div class="errorText hidden">Error: enter a valid address.</div></div>
<div class="wrap wrap-success centerContentMaxWidth hidden"><div class="wrap-content"><h2>You have signed up!</h2>
<h4>You have received an e-mail to confirm by double opt-in. Thank you for your interest in our news!</h4></div></div></div></div>
</footer></article></main>
<footer class="site-footer"><a href="/imprint">Imprint</a> <a href="/privacy">Privacy</a></footer></body></html>`;


describe("boilerplate: a one-paragraph news item beside a newsletter box", () => {
  test("the item's paragraph is the article, not the sign-up box Readability takes", () => {
    const text = htmlToMarkdown(page, { mainContent: true, baseUrl: "https://association.example/meeting" }).markdown;
    expect(text).toContain(ITEM);
    expect(text).not.toContain("already registered");
    expect(text).not.toContain("Twitter storm");
  });
});
