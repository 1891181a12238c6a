/**
 * The shared headless Chromium against real pages served on loopback: JavaScript rendering, the
 * network settle and waitMs, the deadline, the request guard on every kind of request, url_headers
 * kept to the main origin, downloads blocked, relaunch after N pages and after a crash, and the
 * page concurrency limit.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config";
import { AppError } from "../src/errors";
import { assertFetchableUrl } from "../src/security/ssrf";
import { ChromiumSupervisor, type ChromiumOptions } from "../src/tools/chromium";
import { failureOf, loopbackServers } from "./helpers/loopback";

const serve = loopbackServers();
const dataRoot = mkdtempSync(join(tmpdir(), "docintel-chromium-test-"));
const supervisors: ChromiumSupervisor[] = [];
afterAll(async () => {
  await Promise.all(supervisors.map((s) => s.close()));
  rmSync(dataRoot, { recursive: true, force: true });
});

/** supervisor starts a ChromiumSupervisor with test defaults; it is closed after the file's tests. */
function supervisor(overrides: Partial<ChromiumOptions> = {}): ChromiumSupervisor {
  const chromium = new ChromiumSupervisor({
    executablePath: loadConfig({}).chromium.path,
    maxConcurrentPages: 2,
    pagesPerBrowser: 100,
    userDataRoot: join(dataRoot, `profiles-${supervisors.length}`),
    launchTimeoutMs: 20_000,
    egress: { allowPrivate: true },
    ...overrides,
  });
  supervisors.push(chromium);
  return chromium;
}

/** processesInGroup lists the live processes of a process group (puppeteer makes the browser a group leader). */
function processesInGroup(groupId: number): string[] {
  const ps = Bun.spawnSync(["ps", "-e", "-o", "pgid=,stat=,args="]);
  return ps.stdout
    .toString()
    .split("\n")
    .map((line) => /^\s*(\d+)\s+(\S+)\s+(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null && Number(m[1]) === groupId && !m[2]!.startsWith("Z"))
    .map((m) => m[3]!);
}

/** processesLeftInGroup waits up to `ms` for a process group to empty (killed processes take a moment to exit) and returns what is left. */
async function processesLeftInGroup(groupId: number, ms: number): Promise<string[]> {
  const giveUpAt = Date.now() + ms;
  let left = processesInGroup(groupId);
  while (left.length > 0 && Date.now() < giveUpAt) {
    await Bun.sleep(50);
    left = processesInGroup(groupId);
  }
  return left;
}

/** renderOptions are per-request options for loopback pages. */
function renderOptions(overrides: Partial<Parameters<ChromiumSupervisor["render"]>[1]> = {}) {
  return { headers: {}, waitMs: 0, timeoutMs: 15_000, allowPrivateUrls: true, signal: new AbortController().signal, ...overrides };
}

const html = (body: string, init: ResponseInit = {}) =>
  new Response(`<!doctype html><html><head><meta charset="utf-8">${body}`, { ...init, headers: { "content-type": "text/html; charset=utf-8", ...init.headers } });

/** hits records every request the site received: path and headers. */
const hits: Array<{ host: string; path: string; headers: Headers }> = [];
const never = () => new Promise<Response>(() => {});

const site = serve((req) => {
  const url = new URL(req.url);
  hits.push({ host: url.host, path: url.pathname, headers: req.headers });
  const other = `http://localhost:${url.port}`; // another site: iframes from it run out of process
  switch (url.pathname) {
    case "/js":
      return html(`<title>before</title></head><body><script>
        document.title = "Built in script";
        document.body.insertAdjacentHTML("beforeend", "<h1 id=built>Quarterly report built by script</h1>");
        setTimeout(() => fetch("/api/items").then((r) => r.json()).then((data) => {
          document.body.insertAdjacentHTML("beforeend", "<p id=fetched>Fetched " + data.count + " items</p>");
        }), 300);
      </script></body></html>`);
    case "/api/items": // slower than the quiet period: the settle must wait for the fetch itself
      return Bun.sleep(800).then(() => Response.json({ count: 42 }));
    case "/small":
      return html(`<title>Small</title></head><body><script>
        fetch("/api/fast").then((r) => r.json()).then((data) => document.body.insertAdjacentHTML("beforeend", "<p id=small>" + data.text + "</p>"));
      </script></body></html>`);
    case "/api/fast":
      return Response.json({ text: "small page content" });
    case "/late":
      return html(`</head><body><p>static</p><script>setTimeout(() => document.body.insertAdjacentHTML("beforeend", "<p id=late>arrived late</p>"), 1500)</script></body></html>`);
    case "/hang":
      return never();
    case "/blocking-script":
      return html(`<script src="/hang"></script></head><body>never parsed</body></html>`);
    case "/chatty":
      return html(`</head><body><p>chatty page</p><img src="/hang?1"><img src="/hang?2"><img src="/hang?3"></body></html>`);
    case "/guarded":
      return html(`</head><body><h1>guarded page</h1>
        <img src="/forbidden/image.png">
        <img src="/redirect-to-forbidden">
        <iframe src="/forbidden/frame.html"></iframe>
        <iframe src="${other}/frame"></iframe>
        <script>
          fetch("/forbidden/fetch").catch(() => {});
          new Worker("/worker.js");
          try { new WebSocket("ws://127.0.0.1:${url.port}/forbidden/websocket"); } catch {}
          window.open("/forbidden/popup-window-open");
          Object.assign(document.createElement("a"), { href: "/forbidden/popup-link", target: "_blank" }).click();
          alert("a dialog must not block the page");
          document.body.insertAdjacentHTML("beforeend", "<p>after the dialog</p>");
        </script></body></html>`);
    case "/frame":
      return html(`</head><body><img src="${other}/forbidden/from-frame.png"><script>fetch("/forbidden/frame-fetch").catch(() => {})</script></body></html>`);
    case "/worker.js":
      return new Response(`fetch("/forbidden/worker-fetch").catch(() => {});`, { headers: { "content-type": "text/javascript" } });
    case "/redirect-to-forbidden":
      return Response.redirect(`/forbidden/redirect-target`, 302);
    case "/redirect-main":
      return Response.redirect(`/forbidden/main-target`, 302);
    case "/with-headers":
      return html(`</head><body><p>headers page</p><img src="/pixel-same"><img src="${other}/pixel-other"><script>fetch("${other}/fetch-other").catch(() => {})</script></body></html>`);
    case "/missing":
      return html(`<title>Not here</title></head><body><p>custom 404 page</p></body></html>`, { status: 404 });
    case "/download":
      return new Response("PK\u0003\u0004 not really a zip", { headers: { "content-type": "application/zip", "content-disposition": 'attachment; filename="report.zip"' } });
    case "/concurrent":
      return html(`</head><body><script>setTimeout(() => document.body.insertAdjacentHTML("beforeend", "<p id=done>rendered ${url.searchParams.get("n")}</p>"), 200)</script></body></html>`);
    default:
      return new Response("", { status: 204 });
  }
});

const pathsHit = () => hits.map((h) => h.path);

describe("rendering", () => {
  const chromium = supervisor();

  test("content built by script and by a delayed fetch is in the HTML", async () => {
    const page = await chromium.render(`${site.origin}/js`, renderOptions());
    expect(page.html).toContain("Quarterly report built by script");
    expect(page.html).toContain("Fetched 42 items");
    expect(page.title).toBe("Built in script");
    expect(page.status).toBe(200);
    expect(page.contentType).toBe("text/html");
    expect(page.finalUrl).toBe(`${site.origin}/js`);
  });

  test("waitMs waits after the network settles", async () => {
    const quick = await chromium.render(`${site.origin}/late`, renderOptions());
    expect(quick.html).toContain("static");
    expect(quick.html).not.toContain('<p id="late">');

    const started = performance.now();
    const waited = await chromium.render(`${site.origin}/late`, renderOptions({ waitMs: 1_600 }));
    expect(waited.html).toContain('<p id="late">arrived late</p>');
    expect(performance.now() - started).toBeGreaterThanOrEqual(1_600);
  });

  test("a main document with HTTP 404 still renders and reports its status", async () => {
    const page = await chromium.render(`${site.origin}/missing`, renderOptions());
    expect(page.status).toBe(404);
    expect(page.html).toContain("custom 404 page");
    expect(page.title).toBe("Not here");
  });

  test("a chatty page is captured once the settle cap passes", async () => {
    const chatty = supervisor({ networkSettleCapMs: 1_000 });
    const started = performance.now();
    const page = await chatty.render(`${site.origin}/chatty`, renderOptions({ timeoutMs: 10_000 }));
    expect(page.html).toContain("chatty page");
    expect(performance.now() - started).toBeLessThan(8_000);
  });

  test("a main document that never answers fails with timeout at the deadline", async () => {
    const started = performance.now();
    const error = await failureOf(chromium.render(`${site.origin}/hang`, renderOptions({ timeoutMs: 1_500 })));
    const elapsed = performance.now() - started;
    expect(error.code).toBe("timeout");
    expect(elapsed).toBeGreaterThanOrEqual(1_400);
    expect(elapsed).toBeLessThan(1_500 + 5_000);
  });

  test("a parser-blocking script that never arrives fails with timeout at the deadline", async () => {
    const started = performance.now();
    const error = await failureOf(chromium.render(`${site.origin}/blocking-script`, renderOptions({ timeoutMs: 1_500 })));
    expect(error.code).toBe("timeout");
    expect(performance.now() - started).toBeLessThan(1_500 + 5_000);
    expect(chromium.stats().openPages).toBe(0);
  });

  test("the caller's signal aborts a render with the caller's reason", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new AppError("timeout", "conversion deadline")), 500);
    const error = await failureOf(chromium.render(`${site.origin}/hang`, renderOptions({ signal: controller.signal })));
    expect(error.detail).toBe("conversion deadline");
  });

  test("a link that downloads a file fails with a clear error", async () => {
    const error = await failureOf(chromium.render(`${site.origin}/download`, renderOptions()));
    expect(error.code).toBe("unsupported_media_type");
    expect(error.detail).toContain("download");
    expect(error.detail).toContain("application/zip");
    const after = await chromium.render(`${site.origin}/js`, renderOptions());
    expect(after.html).toContain("Quarterly report built by script");
  });

  test("a main document answering 204 fails with empty_document", async () => {
    const error = await failureOf(chromium.render(`${site.origin}/no-content`, renderOptions()));
    expect(error.code).toBe("empty_document");
    expect(error.detail).toContain("204");
  });

  test("a port where nothing listens fails with url_unreachable", async () => {
    const closed = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("") });
    const port = closed.port;
    closed.stop(true);
    const error = await failureOf(chromium.render(`http://127.0.0.1:${port}/`, renderOptions()));
    expect(error.code).toBe("url_unreachable");
    expect(error.detail).toContain("ECONNREFUSED"); // as the egress proxy saw it
  });

  test("url_headers go to the main document's origin only", async () => {
    hits.length = 0;
    await chromium.render(`${site.origin}/with-headers`, renderOptions({ headers: { "X-Docintel-Token": "secret-42" } }));
    const tokenOf = (path: string) => {
      const hit = hits.find((h) => h.path === path);
      expect(hit).toBeDefined();
      return hit!.headers.get("x-docintel-token");
    };
    expect(tokenOf("/with-headers")).toBe("secret-42");
    expect(tokenOf("/pixel-same")).toBe("secret-42");
    expect(tokenOf("/pixel-other")).toBeNull();
    expect(tokenOf("/fetch-other")).toBeNull();
  });

  test("four parallel renders with two page slots all succeed and never exceed two open pages", async () => {
    let mostOpen = 0;
    const watch = setInterval(() => (mostOpen = Math.max(mostOpen, chromium.stats().openPages)), 5);
    try {
      const pages = await Promise.all([1, 2, 3, 4].map((n) => chromium.render(`${site.origin}/concurrent?n=${n}`, renderOptions())));
      pages.forEach((page, i) => expect(page.html).toContain(`rendered ${i + 1}`));
    } finally {
      clearInterval(watch);
    }
    expect(mostOpen).toBe(2);
    expect(chromium.stats().openPages).toBe(0);
  });
});

describe("request guard", () => {
  const checked: string[] = [];
  /** refuseForbidden is a checkUrl that refuses every path under /forbidden/ and records what it saw. */
  async function refuseForbidden(url: string): Promise<void> {
    checked.push(url);
    if (new URL(url).pathname.startsWith("/forbidden/")) throw new AppError("url_refused", `url: '${url}' is forbidden in this test`);
  }
  const chromium = supervisor({ checkUrl: refuseForbidden });

  test("sub-resources, iframes, fetch, workers and redirect targets are all checked and blocked", async () => {
    hits.length = 0;
    const page = await chromium.render(`${site.origin}/guarded`, renderOptions());
    expect(page.html).toContain("guarded page");
    expect(page.html).toContain("<p>after the dialog</p>");

    const port = new URL(site.origin).port;
    const mustBeChecked = [
      `${site.origin}/forbidden/image.png`, // sub-resource
      `${site.origin}/forbidden/redirect-target`, // redirect of a sub-resource
      `${site.origin}/forbidden/frame.html`, // iframe
      `http://localhost:${port}/forbidden/from-frame.png`, // sub-resource of an out-of-process iframe
      `http://localhost:${port}/forbidden/frame-fetch`, // fetch from the iframe's script
      `${site.origin}/forbidden/fetch`, // fetch from the page's script
      `${site.origin}/forbidden/worker-fetch`, // fetch from a worker
    ];
    for (const url of mustBeChecked) expect(checked).toContain(url);
    expect(pathsHit()).toContain("/redirect-to-forbidden");
    expect(pathsHit()).toContain("/frame");
    expect(pathsHit().filter((path) => path.startsWith("/forbidden/"))).toEqual([]);
  });

  test("a refused main document fails with the checker's url_refused", async () => {
    hits.length = 0;
    const error = await failureOf(chromium.render(`${site.origin}/forbidden/main`, renderOptions()));
    expect(error.code).toBe("url_refused");
    expect(error.detail).toContain("forbidden in this test");
    expect(pathsHit()).toEqual([]);
  });

  test("a main document redirected to a refused URL fails with url_refused", async () => {
    hits.length = 0;
    const error = await failureOf(chromium.render(`${site.origin}/redirect-main`, renderOptions()));
    expect(error.code).toBe("url_refused");
    expect(error.detail).toContain("/forbidden/main-target");
    expect(pathsHit()).toEqual(["/redirect-main"]);
  });

  test("the default check refuses loopback when private URLs are not allowed", async () => {
    const strict = supervisor();
    hits.length = 0;
    const error = await failureOf(strict.render(`${site.origin}/js`, renderOptions({ allowPrivateUrls: false })));
    expect(error.code).toBe("url_refused");
    expect(error.detail).toContain("loopback");
    expect(pathsHit()).toEqual([]);
  });

  test("with the real SSRF check, loopback sub-resources of an allowed page are refused", async () => {
    const mainUrl = `${site.origin}/with-headers`;
    // Only the page itself is let through, as if it were public; everything it loads meets the real guard.
    const realGuard = supervisor({ checkUrl: async (url, allowPrivate) => void (url === mainUrl || (await assertFetchableUrl(url, { allowPrivate }))) });
    hits.length = 0;
    const page = await realGuard.render(mainUrl, renderOptions({ allowPrivateUrls: false }));
    expect(page.html).toContain("headers page");
    expect(pathsHit()).toEqual(["/with-headers"]);
  });

  test("withPage gives a guarded page that is closed afterwards", async () => {
    hits.length = 0;
    const seen = await chromium.withPage({ headers: {}, allowPrivateUrls: true, timeoutMs: 10_000, signal: new AbortController().signal }, async (page) => {
      await page.goto(`${site.origin}/guarded`, { waitUntil: "load" });
      return page.evaluate(() => document.querySelector("h1")?.textContent);
    });
    expect(seen).toBe("guarded page");
    expect(pathsHit().filter((path) => path.startsWith("/forbidden/"))).toEqual([]);
    expect(chromium.stats().openPages).toBe(0);
  });
});

describe("browser lifecycle", () => {
  test("the browser is relaunched after pagesPerBrowser pages", async () => {
    const chromium = supervisor({ pagesPerBrowser: 2 });
    for (let i = 0; i < 3; i++) {
      const page = await chromium.render(`${site.origin}/small`, renderOptions());
      expect(page.html).toContain("small page content");
    }
    expect(chromium.stats()).toEqual({ launches: 2, pagesServed: 3, openPages: 0 });
  });

  // Debian's /usr/bin/chromium-headless-shell is a shell script that does not exec: the pid
  // puppeteer knows is the script's, and the browser behind it must not outlive it.
  const launchers = [["the browser", loadConfig({}).chromium.path], ["a wrapper script", "/usr/bin/chromium-headless-shell"]] as const;
  for (const [what, executablePath] of launchers) {
    test(`a render in flight when ${what} dies fails clearly, nothing of it stays, and the next render works`, async () => {
      const chromium = supervisor({ executablePath });
      await chromium.render(`${site.origin}/small`, renderOptions());
      const pid = chromium.browserPid();
      expect(pid).toBeNumber();
      expect(processesInGroup(pid!).length).toBeGreaterThan(1); // the browser and its helpers

      const inFlight = failureOf(chromium.render(`${site.origin}/blocking-script`, renderOptions({ timeoutMs: 20_000 })));
      await Bun.sleep(700);
      const started = performance.now();
      process.kill(pid!, "SIGKILL");
      const error = await inFlight;
      expect(error.code).toBe("tool_unavailable");
      expect(error.detail).toContain("crashed");
      expect(performance.now() - started).toBeLessThan(5_000);
      expect(await processesLeftInGroup(pid!, 3_000)).toEqual([]);

      const page = await chromium.render(`${site.origin}/small`, renderOptions());
      expect(page.html).toContain("small page content");
      expect(chromium.stats().launches).toBe(2);
    });
  }

  test("--chromium-path auto takes the headless shell's own binary when installed; a given path is kept", () => {
    expect(loadConfig({}).chromium.path).toBe("/usr/lib/chromium/chromium-headless-shell");
    expect(loadConfig({ DOCINTEL_CHROMIUM_PATH: "/usr/bin/chromium" }).chromium.path).toBe("/usr/bin/chromium");
    expect(loadConfig({}, { "chromium-path": "/opt/chrome/chrome" }).chromium.path).toBe("/opt/chrome/chrome");
  });

  test("a missing Chromium executable fails with tool_unavailable", async () => {
    const chromium = supervisor({ executablePath: "/nonexistent/chromium" });
    const error = await failureOf(chromium.render(`${site.origin}/small`, renderOptions()));
    expect(error.code).toBe("tool_unavailable");
    expect(error.detail).toContain("chromium");
  });

  test("after close, renders fail with shutting_down", async () => {
    const chromium = supervisor();
    await chromium.render(`${site.origin}/small`, renderOptions());
    await chromium.close();
    const error = await failureOf(chromium.render(`${site.origin}/small`, renderOptions()));
    expect(error.code).toBe("shutting_down");
  });
});

describe("timing", () => {
  test("cold launch + first render, and warm render p50 of a small JS page", async () => {
    const chromium = supervisor();
    let started = performance.now();
    await chromium.render(`${site.origin}/small`, renderOptions());
    const cold = performance.now() - started;
    const warm: number[] = [];
    for (let i = 0; i < 10; i++) {
      started = performance.now();
      const page = await chromium.render(`${site.origin}/small`, renderOptions());
      warm.push(performance.now() - started);
      expect(page.html).toContain("small page content");
    }
    warm.sort((a, b) => a - b);
    const p50 = (warm[4]! + warm[5]!) / 2;
    console.log(`chromium: cold launch + first render ${cold.toFixed(0)} ms; warm render p50 ${p50.toFixed(0)} ms (min ${warm[0]!.toFixed(0)}, max ${warm[9]!.toFixed(0)})`);
    expect(chromium.stats().launches).toBe(1);
    expect(p50).toBeLessThan(cold);
  });
});
