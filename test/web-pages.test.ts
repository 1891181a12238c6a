/**
 * Web pages given by URL through the real server and real Chromium, served from loopback:
 * the `render` option (auto chooses between the rendered page and the served HTML by evidence,
 * never skips the browser, always takes the rendered page) on every operation that reads a URL,
 * and the page chrome main-content extraction drops: tracking pixels, escaped markup, share bars,
 * breadcrumb trails and cookie banners.
 */
import { describe, expect, test } from "bun:test";
import { api, form, type TestServer, withServer } from "./helpers/server";
import { loopbackServers } from "./helpers/loopback";

const serve = loopbackServers();
let server: TestServer;
let key: string;

withServer({ args: ["--allow-private-urls", "--convert-timeout-ms", "60000"] }, (served) => ({ server, key } = served));

const ARTICLE = `<h1>Harbour cranes return</h1>
<p>The old harbour cranes were lifted back onto their rails on Tuesday, after three years of repairs in the shipyard across the bay, and the city plans a festival for their first day of work.</p>
<p>Engineers replaced every cable and most of the gears, and painted the frames in the original red that sailors used as a landmark when they came home through the fog.</p>
<p>The cranes will unload timber and grain again from the spring, said the port authority, which expects forty ships in the first season.</p>
<p>Ships expected: 40</p>`;

/** SHELL_PAGE: the served HTML holds the article; its script replaces the body with an error shell (a failed hydration). */
const SHELL_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>Harbour cranes return</title></head><body>
<article>${ARTICLE}</article>
<script>document.body.innerHTML = "<div id='root'><p>This page is not available right now</p></div>";</script>
</body></html>`;

/** INJECTED_PAGE: an app shell whose article only its script adds. */
const INJECTED_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>Harbour cranes return</title></head><body>
<div id="root"></div>
<noscript>You need to enable JavaScript to run this app.</noscript>
<script>document.getElementById("root").innerHTML = ${JSON.stringify(`<article>${ARTICLE}</article>`)};</script>
</body></html>`;

/** pageWith puts page chrome (`before` the title, `after` the second paragraph) inside the article's container, where Readability keeps it. */
const pageWith = (before: string, after = "") => {
  const [title, ...paragraphs] = ARTICLE.split("\n");
  return `<!doctype html><html><head><meta charset="utf-8"><title>Harbour cranes return</title></head><body>
<div class="page"><div class="post">${before}${title}${paragraphs.slice(0, 2).join("\n")}${after}${paragraphs.slice(2).join("\n")}</div></div></body></html>`;
};

const PAGES: Record<string, string> = {
  "/shell": SHELL_PAGE,
  "/injected": INJECTED_PAGE,
  "/pixel": pageWith("", `<img src="https://sb.scorecardresearch.com/p?c1=2&c2=6035&cv=2.0&cj=1" alt="">`),
  "/escaped": pageWith("", `<p>&lt;img src="https://sb.scorecardresearch.com/p?c1=2" /&gt;</p>`),
  "/share": pageWith(
    `<p class="tools"><a href="https://api.whatsapp.com/send?text=cranes">Whatsapp</a> <a href="https://www.facebook.com/sharer.php?u=cranes">Facebook</a> <a href="https://pinterest.com/pin/create/button/?url=cranes">Pint</a> <a href="/cranes.pdf">Baixar</a></p>`,
  ),
  "/share-buttons": pageWith(`<div class="td-post-x"><span>Whatsapp</span> <span>Facebook</span> <span>Pint</span> <span>Baixar</span></div>`),
  "/breadcrumbs": pageWith(`<p class="path"><a href="/">Home</a> › <a href="/news">News</a> › <a href="/news/city">City</a></p>`),
  "/breadcrumb-list": pageWith(`<ol itemscope itemtype="https://schema.org/BreadcrumbList"><li><a href="/">Home</a></li><li><a href="/news">News</a></li></ol>`),
  "/cookies": pageWith(
    "",
    `<div id="cmpbox"><p>We use cookies to improve your experience, to show you relevant offers and to measure traffic. By continuing you agree to our use of cookies.</p><p><a href="#" class="btn">Accept all</a></p></div>`,
  ),
};

const site = serve((req) => {
  const page = PAGES[new URL(req.url).pathname];
  return page ? new Response(page, { headers: { "content-type": "text/html; charset=utf-8" } }) : new Response("not found", { status: 404 });
});

const convert = (fields: Record<string, string>) => api(server, key, "POST", "/api/v1/markdown/convert", form(fields));
const ARTICLE_WORDS = /after three years of repairs in the shipyard/;

describe("render=auto|never|always", () => {
  test("auto: a page whose script leaves an error shell gives the served article, with a warning", async () => {
    const { status, body } = await convert({ url: `${site.origin}/shell` });
    expect(status).toBe(200);
    expect(body.markdown).toMatch(ARTICLE_WORDS);
    expect(body.markdown).not.toContain("not available");
    expect(body.extraction_method).toBe("html");
    expect(body.warnings.join(" ")).toContain("served HTML");
  });

  test("always: the same page gives the rendered shell", async () => {
    const { status, body } = await convert({ url: `${site.origin}/shell`, render: "always" });
    expect(status).toBe(200);
    expect(body.markdown).toContain("This page is not available right now");
    expect(body.markdown).not.toMatch(ARTICLE_WORDS);
    expect(body.extraction_method).toBe("browser");
  });

  test("never: the served article without a browser, also on GET /md/{url}", async () => {
    const r = await fetch(`${server.url}/md/${site.origin}/shell?render=never`, { headers: { "X-API-Key": key } });
    expect(r.status).toBe(200);
    expect(r.headers.get("x-extraction-method")).toBe("html");
    const markdown = await r.text();
    expect(markdown).toMatch(ARTICLE_WORDS);
    expect(markdown).toContain("# Harbour cranes return");
  });

  test("auto: an article injected by script is taken from the rendered page", async () => {
    const { status, body } = await convert({ url: `${site.origin}/injected` });
    expect(status).toBe(200);
    expect(body.markdown).toMatch(ARTICLE_WORDS);
    expect(body.extraction_method).toBe("browser");
    expect(body.warnings.join(" ")).not.toContain("served HTML");
  });

  test("never: an app shell without text is 400 empty_document naming render, and costs nothing", async () => {
    const before = ((await (await fetch(`${server.url}/api/v1/usage`, { headers: { "X-API-Key": key } })).json()) as any).credits_remaining;
    const { status, body } = await convert({ url: `${site.origin}/injected`, render: "never" });
    expect(status).toBe(400);
    expect(body).toMatchObject({ success: false, error: "empty_document" });
    expect(body.detail).toContain("render=auto");
    const after = ((await (await fetch(`${server.url}/api/v1/usage`, { headers: { "X-API-Key": key } })).json()) as any).credits_remaining;
    expect(after).toBe(before);
  });

  test("a render value outside auto, never, always is a 422 naming the field", async () => {
    const { status, body } = await convert({ url: `${site.origin}/shell`, render: "sometimes" });
    expect(status).toBe(422);
    expect(JSON.stringify(body.detail)).toContain("render");
  });

  test("extract reads the URL as render asks: always sees only the shell, auto the article", async () => {
    const schema = JSON.stringify({ ships_expected: { type: "number", description: "ships expected in the first season", required: true } });
    const always = await api(server, key, "POST", "/api/v1/extract", form({ url: `${site.origin}/shell`, schema, render: "always" }));
    expect(always.status).toBe(400);
    expect(always.body.error).toBe("empty_document");
    const auto = await api(server, key, "POST", "/api/v1/extract", form({ url: `${site.origin}/shell`, schema }));
    expect(auto.status).toBe(200);
    expect(auto.body.data.ships_expected).toBe(40);
  });

  test("diff compares what render asks for: the shell against the served article", async () => {
    const { status, body } = await api(server, key, "POST", "/api/v1/diff", form({ url_a: `${site.origin}/shell`, url_b: `${site.origin}/shell`, render: "never" }));
    expect(status).toBe(200);
    expect(body.similarity).toBe(1);
    expect(JSON.stringify(body.blocks)).toMatch(ARTICLE_WORDS);
  });

  test("the OpenAPI document describes render on every operation that reads URLs", async () => {
    const doc = (await (await fetch(`${server.url}/docs/json`)).json()) as any;
    const md = doc.paths["/md/{url}"].get.parameters.find((p: any) => p.name === "render");
    expect(md?.in).toBe("query");
    for (const path of ["/api/v1/markdown/convert", "/api/v1/extract", "/api/v1/extract/batch", "/api/v1/analyze", "/api/v1/analyze/batch", "/api/v1/analyze/cross", "/api/v1/decide", "/api/v1/diff"]) {
      const field = doc.paths[path].post.requestBody.content["multipart/form-data"].schema.properties.render;
      expect(field, path).toBeDefined();
      expect(field.enum).toEqual(["auto", "never", "always"]);
      expect(field.description).toContain("served");
    }
  });
});

describe("page chrome is not content", () => {
  const markdownOf = async (path: string) => {
    const { status, body } = await convert({ url: `${site.origin}${path}` });
    expect(status).toBe(200);
    expect(body.markdown).toMatch(ARTICLE_WORDS);
    return body.markdown as string;
  };

  test("a tracking pixel from a beacon host (no size given) is dropped", async () => {
    expect(await markdownOf("/pixel")).not.toContain("scorecardresearch");
  });

  test("markup written as text never comes out as raw HTML", async () => {
    const markdown = await markdownOf("/escaped");
    expect(markdown).not.toMatch(/(^|[^\\])<img/);
  });

  test("a share bar of share links is dropped", async () => {
    const markdown = await markdownOf("/share");
    expect(markdown).not.toMatch(/Whatsapp|Pint|Baixar|sharer/);
  });

  test("a share bar of script buttons (network names only) is dropped", async () => {
    expect(await markdownOf("/share-buttons")).not.toMatch(/Whatsapp|Pint/);
  });

  test("a breadcrumb trail of links between separators is dropped", async () => {
    const markdown = await markdownOf("/breadcrumbs");
    expect(markdown).not.toContain("[Home]");
    expect(markdown).not.toContain("›");
  });

  test("a schema.org BreadcrumbList is dropped", async () => {
    expect(await markdownOf("/breadcrumb-list")).not.toContain("[Home]");
  });

  test("a cookie banner is dropped", async () => {
    const markdown = await markdownOf("/cookies");
    expect(markdown).not.toMatch(/cookies|Accept all/);
  });

  test("main_content=false keeps the share bar and the trail (the whole page)", async () => {
    const { body } = await convert({ url: `${site.origin}/breadcrumbs`, main_content: "false" });
    expect(body.markdown).toContain("[Home]");
  });
});
