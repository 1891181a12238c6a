/**
 * Chromium's egress through the real server: pages that try every way a page can reach the network
 * (WebSocket, fetch, sendBeacon, <link rel=prefetch>, <link rel=preconnect>, speculation rules
 * prefetch and prerender, iframes, workers, EventSource, redirects, WebRTC STUN and TURN) at a
 * loopback listener that records every request, upgrade, TCP connection and UDP datagram. Nothing
 * may arrive unless the server runs with --allow-private-urls; with it, arrivals show that the
 * test sees them. Both uploaded HTML (a thumbnail of an .html upload) and URL pages (a screenshot
 * of http://8.8.8.8/...) are tried.
 *
 * The internet is played by a forward proxy in this test (the operator's HTTP_PROXY, which the
 * server's fetch and Chromium's egress proxy both use as their next hop): it serves the attack page
 * for 8.8.8.8 and passes everything else on, so a request that got past the server's policy would
 * reach the loopback listener through it.
 *
 * A WebSocket opened in an isolated world (where the page's WebSocket stub does not reach) shows
 * that the proxy alone holds WebSockets.
 *
 * Rebinding: the egress proxy with a scripted resolver (first answer public, second loopback)
 * connects to the address it checked and never to a second answer; Chromium whose page guard saw a
 * public answer loads nothing from a name that now resolves to loopback.
 *
 * Chromium's process: no secrets in its environment; as a non-root user (as under the systemd
 * unit) it runs in its own sandbox, and its egress proxy serves no other user.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, chownSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config";
import { EgressProxy, matchesNoProxy, type EgressEvent } from "../src/security/egressProxy";
import type { Resolver } from "../src/security/ssrf";
import { ChromiumSupervisor } from "../src/tools/chromium";
import { failureOf } from "./helpers/loopback";
import { form, ROOT, startServer, type TestServer } from "./helpers/server";

// ---------------------------------------------------------------------------------------------
// The loopback listener: every way of arriving is recorded, keyed by the scenario's path prefix.

/** arrivals lists what reached the listener: "GET /s1/fetch", "UPGRADE /s1/ws", "TCP", "UDP". */
const arrivals: string[] = [];
const listener = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  async fetch(req, server) {
    const url = new URL(req.url);
    if (req.headers.get("upgrade")?.toLowerCase() === "websocket") {
      arrivals.push(`UPGRADE ${url.pathname}`);
      if (server.upgrade(req)) return undefined;
    }
    arrivals.push(`${req.method} ${url.pathname}`);
    if (url.pathname.endsWith("/iframe")) return new Response("<p>iframe from loopback</p>", { headers: { "content-type": "text/html" } });
    // The page's load waits for its image, and the image waits for the page's worker to be heard from
    // (10 s at most): a worker starts on a thread of its own, and on a loaded machine the screenshot
    // was taken and the page closed before it ran, so the positive control missed "GET /worker".
    if (url.pathname.endsWith("/img")) {
      const worker = `GET ${url.pathname.replace(/\/img$/, "/worker")}`;
      for (const giveUpAt = Date.now() + 10_000; !arrivals.includes(worker) && Date.now() < giveUpAt; ) await Bun.sleep(50);
    }
    if (url.pathname.endsWith("/eventsource")) return new Response("data: hi\n\n", { headers: { "content-type": "text/event-stream" } });
    return new Response("loopback secret", { headers: { "access-control-allow-origin": "*" } });
  },
  websocket: { message() {} },
});
const L = `127.0.0.1:${listener.port}`;

/** rawTcp counts bare TCP connections (preconnect, TURN over TCP): nothing is ever answered. */
let tcpConnections = 0;
const rawTcp = Bun.listen({
  hostname: "127.0.0.1",
  port: 0,
  socket: {
    open() {
      tcpConnections++;
    },
    data() {},
  },
});
/** stun counts UDP datagrams (WebRTC STUN binding requests). */
let udpDatagrams = 0;
const stun = await Bun.udpSocket({
  hostname: "127.0.0.1",
  socket: {
    data() {
      udpDatagrams++;
    },
  },
});

/** attackPage is a page that tries every way out towards the listener, under the path prefix /s. */
function attackPage(s: string): string {
  const base = `http://${L}/${s}`;
  const rules = JSON.stringify({
    prefetch: [{ source: "list", urls: [`${base}/spec-prefetch`] }],
    prerender: [{ source: "list", urls: [`${base}/spec-prerender`] }],
  });
  return `<!doctype html><html><head><meta charset="utf-8"><title>attack</title>
<link rel="prefetch" href="${base}/link-prefetch">
<link rel="preconnect" href="http://127.0.0.1:${rawTcp.port}">
<link rel="dns-prefetch" href="http://rebind.example">
<link rel="stylesheet" href="${base}/style.css">
<script type="speculationrules">${rules}</script>
</head><body><h1>attack page</h1>
<img src="${base}/img">
<img src="http://8.8.8.8/redirect?to=${encodeURIComponent(`${base}/redirect-target`)}">
<iframe src="${base}/iframe"></iframe>
<iframe srcdoc="<script>fetch('${base}/srcdoc-fetch').catch(() => {})</script>"></iframe>
<script>
  fetch("${base}/fetch", { mode: "no-cors" }).catch(() => {});
  navigator.sendBeacon("${base}/beacon", "x");
  try { new EventSource("${base}/eventsource"); } catch {}
  try { new WebSocket("ws://${L}/${s}/ws"); } catch {}
  try { // a fresh about:blank frame's WebSocket, which a script run "on every new document" may not reach
    const frame = document.body.appendChild(document.createElement("iframe"));
    new frame.contentWindow.WebSocket("ws://${L}/${s}/frame-ws");
  } catch {}
  try {
    const worker = new Worker(URL.createObjectURL(new Blob(["fetch('${base}/worker').catch(() => {}); try { new WebSocket('ws://${L}/${s}/worker-ws') } catch {}"], { type: "text/javascript" })));
  } catch {}
  try {
    const pc = new RTCPeerConnection({ iceServers: [
      { urls: "stun:127.0.0.1:${stun.port}" },
      { urls: "turn:127.0.0.1:${rawTcp.port}?transport=tcp", username: "u", credential: "c" },
    ] });
    pc.createDataChannel("x");
    pc.createOffer().then((offer) => pc.setLocalDescription(offer)).catch(() => {});
  } catch {}
</script></body></html>`;
}

// ---------------------------------------------------------------------------------------------
// The internet: a forward proxy that serves 8.8.8.8 from a loopback site and passes the rest on.

/** served lists the attack pages the site delivered, so a test knows its page was drawn at all. */
const served: string[] = [];
const site = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch(req) {
    const url = new URL(req.url);
    if (url.pathname === "/redirect") return new Response(null, { status: 302, headers: { location: url.searchParams.get("to") ?? "/" } });
    const [, route, scenario] = url.pathname.split("/");
    served.push(url.pathname);
    if (route === "attack" && scenario) return new Response(attackPage(scenario), { headers: { "content-type": "text/html" } });
    if (route === "to-loopback" && scenario) return new Response(null, { status: 302, headers: { location: `http://${L}/${scenario}/main-redirect-target` } });
    return new Response("", { status: 404 });
  },
});
const internet = new EgressProxy({
  allowPrivate: true,
  dial: (address, port) => (address === "8.8.8.8" ? connect({ host: "127.0.0.1", port: site.port! }) : connect({ host: address, port })),
});
const internetUrl = `http://${await internet.start()}`;

let strict: TestServer;
let open: TestServer;
beforeAll(async () => {
  const env = { HTTP_PROXY: internetUrl, HTTPS_PROXY: internetUrl, GROQ_API_KEY: "gsk_secret_provider_key_for_egress_test" };
  [strict, open] = await Promise.all([
    startServer({ env, args: ["--screenshot-timeout-ms", "30000"] }),
    startServer({ env, args: ["--allow-private-urls", "--screenshot-timeout-ms", "30000"] }),
  ]);
});
afterAll(async () => {
  await Promise.all([strict?.stop(), open?.stop()]);
  await internet.close();
  listener.stop(true);
  site.stop(true);
  rawTcp.stop(true);
  stun.close();
});

let scenarios = 0;
/** LATE_ARRIVAL_MS: how long after the answer a beacon, prefetch or ICE attempt may still arrive (a loaded 2-core machine) */
const LATE_ARRIVAL_MS = 3_000;

/**
 * arrivalsOf runs one page against `server` and returns what reached the listener under its prefix:
 * after waiting until everything in `expected` arrived (at most 15 s), or LATE_ARRIVAL_MS when nothing is expected.
 */
async function arrivalsOf(server: TestServer, draw: (key: string, scenario: string) => Promise<Response>, expected: string[] = []): Promise<{ status: number; arrived: string[]; tcp: number; udp: number }> {
  const scenario = `s${++scenarios}`;
  const { key } = await server.key("enterprise");
  const before = { tcp: tcpConnections, udp: udpDatagrams };
  const response = await draw(key, scenario);
  await response.arrayBuffer();
  const arrived = () => arrivals.filter((a) => a.split(" ")[1]!.startsWith(`/${scenario}/`)).map((a) => a.replace(`/${scenario}/`, "/"));
  if (expected.length === 0) await Bun.sleep(LATE_ARRIVAL_MS);
  for (const giveUpAt = Date.now() + 15_000; expected.some((way) => !arrived().includes(way)) && Date.now() < giveUpAt; ) await Bun.sleep(100);
  return { status: response.status, arrived: arrived(), tcp: tcpConnections - before.tcp, udp: udpDatagrams - before.udp };
}

/** uploadedHtml asks for a thumbnail of the attack page uploaded as page.html. */
function uploadedHtml(server: TestServer) {
  return (key: string, scenario: string) =>
    fetch(`${server.url}/api/v1/thumbnails/generate`, {
      method: "POST",
      headers: { "X-API-Key": key },
      body: form({ file: new File([attackPage(scenario)], "page.html", { type: "text/html" }) }),
    });
}

/** urlPage asks for a screenshot of the attack page at http://8.8.8.8/attack. */
function urlPage(server: TestServer) {
  return async (key: string, scenario: string) => {
    const response = await fetch(`${server.url}/http://8.8.8.8/attack/${scenario}`, { headers: { "X-API-Key": key } });
    expect(served).toContain(`/attack/${scenario}`); // the page itself was drawn
    return response;
  };
}

describe("nothing a page does reaches loopback without --allow-private-urls", () => {
  test("uploaded HTML", async () => {
    const { status, arrived, tcp, udp } = await arrivalsOf(strict, uploadedHtml(strict));
    expect(status).toBe(200);
    expect(arrived).toEqual([]);
    expect({ tcp, udp }).toEqual({ tcp: 0, udp: 0 });
  });

  test("a URL page", async () => {
    const { status, arrived, tcp, udp } = await arrivalsOf(strict, urlPage(strict));
    expect(status).toBe(200);
    expect(arrived).toEqual([]);
    expect({ tcp, udp }).toEqual({ tcp: 0, udp: 0 });
  });

  test("a URL page redirected to loopback is refused, and nothing arrives", async () => {
    const { status, arrived } = await arrivalsOf(strict, (key, scenario) => fetch(`${strict.url}/http://8.8.8.8/to-loopback/${scenario}`, { headers: { "X-API-Key": key } }));
    expect(status).toBe(400);
    expect(arrived).toEqual([]);
  });
});

/** OPEN_ARRIVALS: the ways out that arrive when the policy lets them (WebSockets: see the isolated-world test below) */
const OPEN_ARRIVALS = ["GET /link-prefetch", "GET /eventsource", "GET /img", "GET /redirect-target", "GET /iframe", "GET /fetch", "POST /beacon", "GET /worker", "GET /srcdoc-fetch", "GET /style.css"];

describe("with --allow-private-urls the same pages do arrive (the test sees arrivals)", () => {
  test("uploaded HTML", async () => {
    const { status, arrived } = await arrivalsOf(open, uploadedHtml(open), OPEN_ARRIVALS);
    expect(status).toBe(200);
    for (const way of OPEN_ARRIVALS) expect(arrived).toContain(way);
  });

  test("a URL page", async () => {
    const { status, arrived } = await arrivalsOf(open, urlPage(open), OPEN_ARRIVALS);
    expect(status).toBe(200);
    for (const way of OPEN_ARRIVALS) expect(arrived).toContain(way);
  });
});

describe("a WebSocket where no page stub runs", () => {
  // The page's WebSocket stub does not reach an isolated world; there only the egress proxy decides.
  for (const allowPrivate of [false, true]) {
    test(`reaches loopback ${allowPrivate ? "with" : "never without"} allowPrivate`, async () => {
      const root = mkdtempSync(join(tmpdir(), "docintel-egress-"));
      const chromium = new ChromiumSupervisor({
        executablePath: loadConfig({}).chromium.path,
        maxConcurrentPages: 1,
        pagesPerBrowser: 100,
        userDataRoot: root,
        launchTimeoutMs: 20_000,
        egress: { allowPrivate },
      });
      const path = `/ws-isolated-${allowPrivate}`;
      try {
        const outcome = await chromium.withPage({ headers: {}, allowPrivateUrls: allowPrivate, timeoutMs: 20_000, signal: new AbortController().signal }, async (page) => {
          const cdp = await page.createCDPSession();
          const { frameTree } = await cdp.send("Page.getFrameTree");
          const { executionContextId } = await cdp.send("Page.createIsolatedWorld", { frameId: frameTree.frame.id, worldName: "egress-test" });
          const { result } = await cdp.send("Runtime.evaluate", {
            contextId: executionContextId,
            awaitPromise: true,
            expression: `new Promise((resolve) => { const ws = new WebSocket("ws://${L}${path}"); ws.onopen = () => resolve("open"); ws.onerror = () => resolve("error"); setTimeout(() => resolve("pending"), 5000); })`,
          });
          return result.value;
        });
        expect(outcome).toBe(allowPrivate ? "open" : "error");
        expect(arrivals.includes(`UPGRADE ${path}`)).toBe(allowPrivate);
      } finally {
        await chromium.close();
        rmSync(root, { recursive: true, force: true });
      }
    });
  }
});

describe("Chromium's process", () => {
  test("runs without the server's secrets in its environment", async () => {
    const { status } = await arrivalsOf(strict, urlPage(strict));
    expect(status).toBe(200);
    const browsers = chromiumProcessesOf(strict.dataDir);
    expect(browsers.length).toBeGreaterThan(0);
    for (const environ of browsers.map((pid) => readFileSync(`/proc/${pid}/environ`, "latin1"))) {
      expect(environ).not.toContain("GROQ_API_KEY");
      expect(environ).not.toContain("gsk_secret_provider_key_for_egress_test");
      expect(environ).not.toContain("HTTP_PROXY");
    }
  });
});

/**
 * AS_SERVICE_USER runs as a user other than root (as under the systemd unit): it renders a page
 * through a ChromiumSupervisor, lists its Chromium processes' switches, then starts an egress proxy
 * and waits, so that the test (another user) can try to use that proxy.
 */
const AS_SERVICE_USER = `
import { ChromiumSupervisor } from "${ROOT}/src/tools/chromium";
import { EgressProxy } from "${ROOT}/src/security/egressProxy";
const site = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("<h1>drawn as a service user</h1>", { headers: { "content-type": "text/html" } }) });
const chromium = new ChromiumSupervisor({ executablePath: process.argv[2], maxConcurrentPages: 1, pagesPerBrowser: 10, userDataRoot: process.argv[3] + "/profiles", launchTimeoutMs: 30000, egress: { allowPrivate: true } });
const page = await chromium.render("http://127.0.0.1:" + site.port + "/", { headers: {}, waitMs: 0, timeoutMs: 20000, allowPrivateUrls: true, signal: new AbortController().signal });
const pid = chromium.browserPid();
const switches = Bun.spawnSync(["ps", "-e", "-o", "pgid=,args="]).stdout.toString().split("\\n").filter((line) => Number(line.trim().split(" ")[0]) === pid);
await chromium.close();
site.stop(true);
const proxy = new EgressProxy({ allowPrivate: true });
console.log(JSON.stringify({ uid: process.getuid(), rendered: page.html.includes("drawn as a service user"), processes: switches.length, unsandboxed: switches.filter((line) => line.includes("--no-sandbox")).length, proxy: await proxy.start() }));
await Bun.stdin.text();
await proxy.close();
`;

describe("Chromium as a service user", () => {
  test("runs in its own sandbox, and its egress proxy serves no other user", async () => {
    const asRoot = process.getuid!() === 0;
    const dir = mkdtempSync(join(tmpdir(), "docintel-egress-user-"));
    writeFileSync(join(dir, "as-service-user.ts"), AS_SERVICE_USER);
    if (asRoot) {
      chmodSync(dir, 0o755);
      chownSync(dir, 65534, 65534);
    }
    const command = [process.execPath, join(dir, "as-service-user.ts"), loadConfig({}).chromium.path, dir];
    const child = Bun.spawn(asRoot ? ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", ...command] : command, {
      cwd: dir,
      env: { PATH: "/usr/local/bin:/usr/bin:/bin", HOME: dir },
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
    });
    try {
      const reader = child.stdout.getReader();
      let line = "";
      while (!line.includes("\n")) {
        const next = await reader.read();
        if (next.done) throw new Error(`the service user's script ended: ${await new Response(child.stderr).text()}`);
        line += new TextDecoder().decode(next.value);
      }
      const report = JSON.parse(line);
      expect(report.uid).not.toBe(0);
      expect(report.rendered).toBe(true);
      expect(report.processes).toBeGreaterThan(1);
      expect(report.unsandboxed).toBe(0);
      if (asRoot) {
        // root here is another user than the service: the proxy closes the connection unanswered
        const before = arrivals.length;
        expect(await rawRequest(report.proxy, `GET http://${L}/x/other-user HTTP/1.1\r\nHost: ${L}\r\n\r\n`)).toBe("");
        expect(arrivals.slice(before)).toEqual([]);
      }
    } finally {
      child.stdin.end();
      await child.exited;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** chromiumProcessesOf lists the pids of Chromium processes whose profile lies in `dataDir`. */
function chromiumProcessesOf(dataDir: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "latin1");
      if (cmdline.includes(`--user-data-dir=${dataDir}`)) pids.push(Number(entry));
    } catch {}
  }
  return pids;
}

// ---------------------------------------------------------------------------------------------
// DNS rebinding

/** rebindingResolver answers `first` to the first lookup of each name and `later` to every lookup after it. */
function rebindingResolver(first: string, later: string): { resolve: Resolver; lookups: string[] } {
  const lookups: string[] = [];
  const resolve: Resolver = async (host) => {
    const answer = lookups.includes(host) ? later : first;
    lookups.push(host);
    return [answer];
  };
  return { resolve, lookups };
}

describe("DNS rebinding", () => {
  test("the egress proxy connects to the address it checked, never to a later answer", async () => {
    const { resolve, lookups } = rebindingResolver("8.8.8.8", "127.0.0.1");
    const dialled: string[] = [];
    const events: EgressEvent[] = [];
    const proxy = new EgressProxy({
      allowPrivate: false,
      resolve,
      observe: (event) => events.push(event),
      // 8.8.8.8 is played by the loopback site; any other address would be dialled for real
      dial: (address, port) => {
        dialled.push(`${address}:${port}`);
        return address === "8.8.8.8" ? connect({ host: "127.0.0.1", port: site.port! }) : connect({ host: address, port });
      },
    });
    const address = await proxy.start();
    try {
      const before = arrivals.length;
      const first = await rawRequest(address, `GET http://rebind.example:${listener.port}/x/rebind HTTP/1.1\r\nHost: rebind.example:${listener.port}\r\n\r\n`);
      expect(first).toStartWith("HTTP/1.1 404"); // the site behind 8.8.8.8 answered
      expect(dialled).toEqual([`8.8.8.8:${listener.port}`]);
      expect(events[0]).toEqual({ kind: "connected", host: "rebind.example", port: listener.port!, checkedAddress: "8.8.8.8", remoteAddress: "127.0.0.1" });

      // the name now resolves to loopback: refused, nothing dialled, nothing arrives
      const second = await rawRequest(address, `CONNECT rebind.example:${listener.port} HTTP/1.1\r\nHost: rebind.example:${listener.port}\r\n\r\n`);
      expect(second).toStartWith("HTTP/1.1 403");
      expect(second).toContain("resolves to 127.0.0.1, a loopback address");
      expect(dialled).toEqual([`8.8.8.8:${listener.port}`]);
      expect(lookups).toEqual(["rebind.example", "rebind.example"]);
      expect(arrivals.slice(before)).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  test("a name that passes the page guard and then rebinds to loopback loads nothing in Chromium", async () => {
    // The page guard saw the first answer (public); every answer after it is loopback. Chromium
    // itself takes localhost.localdomain for loopback, so without the proxy's pinning it would connect.
    const guardSaw: string[] = [];
    const proxyLookups: string[] = [];
    const root = mkdtempSync(join(tmpdir(), "docintel-egress-"));
    const chromium = new ChromiumSupervisor({
      executablePath: loadConfig({}).chromium.path,
      maxConcurrentPages: 1,
      pagesPerBrowser: 100,
      userDataRoot: root,
      launchTimeoutMs: 20_000,
      egress: { allowPrivate: false, resolve: async (host) => (proxyLookups.push(host), ["127.0.0.1"]) },
      checkUrl: async (url) => void guardSaw.push(`${new URL(url).hostname} -> 8.8.8.8`),
    });
    try {
      const before = arrivals.length;
      const error = await failureOf(chromium.render(`http://localhost.localdomain:${listener.port}/x/rebound-main`, { headers: {}, waitMs: 0, timeoutMs: 15_000, allowPrivateUrls: false, signal: new AbortController().signal }));
      expect(error.code).toBe("url_refused");
      expect(error.detail).toContain("resolves to 127.0.0.1, a loopback address");
      expect(guardSaw).toContain("localhost.localdomain -> 8.8.8.8");
      expect(proxyLookups).toContain("localhost.localdomain");
      expect(arrivals.slice(before)).toEqual([]);
    } finally {
      await chromium.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("the egress proxy", () => {
  test("refuses a private address without allowPrivate, whatever the method", async () => {
    const proxy = new EgressProxy({ allowPrivate: false });
    const address = await proxy.start();
    try {
      const before = arrivals.length;
      for (const head of [
        `GET http://${L}/x/direct HTTP/1.1\r\nHost: ${L}\r\n\r\n`,
        `CONNECT ${L} HTTP/1.1\r\nHost: ${L}\r\n\r\n`,
        `GET http://[::ffff:127.0.0.1]:${listener.port}/x/mapped HTTP/1.1\r\nHost: x\r\n\r\n`,
        `CONNECT localhost:${listener.port} HTTP/1.1\r\nHost: localhost\r\n\r\n`,
      ]) {
        const answer = await rawRequest(address, head);
        expect(answer).toStartWith("HTTP/1.1 403");
        expect(answer).toContain("X-Docintel-Egress: refused");
      }
      expect(arrivals.slice(before)).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  test("forwards plain http and tunnels CONNECT when the policy allows, answering Connection: close", async () => {
    const proxy = new EgressProxy({ allowPrivate: true });
    const address = await proxy.start();
    try {
      const plain = await rawRequest(address, `GET http://${L}/x/allowed HTTP/1.1\r\nHost: ${L}\r\nConnection: keep-alive\r\n\r\n`);
      expect(plain).toStartWith("HTTP/1.1 200");
      expect(plain.toLowerCase()).toContain("connection: close");
      expect(plain).toEndWith("loopback secret");
      const tunnel = await rawRequest(address, `CONNECT ${L} HTTP/1.1\r\nHost: ${L}\r\n\r\nGET /x/tunnelled HTTP/1.1\r\nHost: ${L}\r\nConnection: close\r\n\r\n`);
      expect(tunnel).toStartWith("HTTP/1.1 200 Connection Established");
      expect(tunnel).toEndWith("loopback secret");
      expect(arrivals).toContain("GET /x/allowed");
      expect(arrivals).toContain("GET /x/tunnelled");
    } finally {
      await proxy.close();
    }
  });
});

describe("the outbound proxy as next hop", () => {
  test("requests name the checked address to the next hop; NO_PROXY hosts are reached directly", async () => {
    const nextHopSaw: EgressEvent[] = [];
    const nextHop = new EgressProxy({ allowPrivate: true, observe: (event) => nextHopSaw.push(event) });
    const nextHopUrl = `http://${await nextHop.start()}`;
    const resolve: Resolver = async () => ["127.0.0.1"];
    const viaNextHop = new EgressProxy({ allowPrivate: true, resolve, upstream: { http: nextHopUrl, https: null } });
    const direct = new EgressProxy({ allowPrivate: true, resolve, upstream: { http: nextHopUrl, https: null, noProxy: "intranet.example, .corp" } });
    try {
      const head = (path: string) => `GET http://intranet.example:${listener.port}${path} HTTP/1.1\r\nHost: intranet.example:${listener.port}\r\n\r\n`;
      expect(await rawRequest(await viaNextHop.start(), head("/x/via-next-hop"))).toEndWith("loopback secret");
      expect(nextHopSaw).toEqual([{ kind: "connected", host: "127.0.0.1", port: listener.port!, checkedAddress: "127.0.0.1", remoteAddress: "127.0.0.1" }]);
      expect(await rawRequest(await direct.start(), head("/x/direct"))).toEndWith("loopback secret");
      expect(nextHopSaw.length).toBe(1);
      expect(arrivals).toContain("GET /x/via-next-hop");
      expect(arrivals).toContain("GET /x/direct");
    } finally {
      await Promise.all([nextHop.close(), viaNextHop.close(), direct.close()]);
    }
  });

  test("NO_PROXY entries match as curl reads them", () => {
    expect(matchesNoProxy("a.corp", 80, "example.com, .corp")).toBe(true);
    expect(matchesNoProxy("corp", 80, ".corp")).toBe(true);
    expect(matchesNoProxy("notcorp", 80, ".corp")).toBe(false);
    expect(matchesNoProxy("example.com", 443, "example.com:80")).toBe(false);
    expect(matchesNoProxy("example.com", 80, "example.com:80")).toBe(true);
    expect(matchesNoProxy("anything", 80, "*")).toBe(true);
    expect(matchesNoProxy("anything", 80, null)).toBe(false);
  });
});

/** rawRequest writes `head` to the proxy at host:port and returns everything it answers until it closes. */
function rawRequest(address: string, head: string): Promise<string> {
  const [host, port] = address.split(":");
  return new Promise((resolve, reject) => {
    const socket: Socket = connect({ host: host!, port: Number(port) }, () => socket.write(head));
    let answer = "";
    socket.setTimeout(10_000, () => socket.destroy(new Error("the proxy did not close the connection")));
    socket.on("data", (chunk) => (answer += chunk.toString("latin1")));
    socket.on("close", () => resolve(answer));
    // a close while the request is still unread in the proxy's buffer reaches us as a reset: that is
    // closing unanswered too, and the answer so far is what the test asserts on
    socket.on("error", (error: NodeJS.ErrnoException) => (error.code === "ECONNRESET" ? resolve(answer) : reject(error)));
  });
}
