/**
 * ChromiumSupervisor owns the one shared headless Chromium: it launches it lazily, hands out guarded
 * pages (at most `maxConcurrentPages` at once, each in its own browser context so cookies never pass
 * between requests), enforces a deadline per request, and relaunches the browser after a crash or
 * after `pagesPerBrowser` pages. Chromium reaches the network only through the supervisor's egress
 * proxy (src/security/egressProxy.ts), runs with a minimal environment, and keeps its sandbox unless
 * the service runs as root.
 *
 *   render(url) = [wait for a page slot, take the spare page (opened and prepared ahead) or open one,
 *                  guard it, navigate (DOMContentLoaded), open the next spare, settle (no document/script/fetch/XHR open,
 *                  no short timer pending, DOM unchanged, for 50 ms; capped), waitMs, capture]
 *
 *   browser generation: launch -> serve pages -> (pagesPerBrowser reached) retiring -> idle -> closed
 *                                             \-> (crash/disconnect) dead: pages in flight fail, next call relaunches
 */
import { untilAborted } from "../../runtime/signals";
import { access, constants, mkdir, mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import puppeteer, { type Browser as PuppeteerBrowser, type BrowserContext, type HTTPResponse, type Page } from "puppeteer";
import type { Browser, RenderedPage, RenderOptions } from "../types";
import { AppError } from "../../errors";
import { EgressProxy, type EgressProxyOptions } from "../../security/egressProxy";
import { assertFetchableUrl } from "../../security/ssrf";
import { killProcessGroup, toolUnavailable } from "../process";
import { Semaphore } from "../semaphore";
import { assertMainUrl, guardPage, preparePage, type CheckUrl, type PageGuard } from "./guard";

export type { CheckUrl } from "./guard";

export interface ChromiumOptions {
  /** executablePath: the Chromium binary, normally /usr/lib/chromium/chromium-headless-shell (see CHROMIUM_CANDIDATES) */
  executablePath: string;
  /** maxConcurrentPages: pages open at once; further callers wait for a slot (or their signal) */
  maxConcurrentPages: number;
  /** pagesPerBrowser: the browser is replaced after serving this many pages (once its last page closes) */
  pagesPerBrowser: number;
  /** userDataRoot: directory under which each launch gets a fresh profile dir, removed when that browser closes */
  userDataRoot: string;
  /** launchTimeoutMs: how long Chromium may take to start, in ms */
  launchTimeoutMs: number;
  /**
   * egress: the policy of the egress proxy, Chromium's only route to the network (see
   * src/security/egressProxy.ts); its `allowPrivate` is the server's --allow-private-urls
   */
  egress: EgressProxyOptions;
  /** checkUrl: the SSRF check for every request a page makes; default assertFetchableUrl with egress.resolve */
  checkUrl?: CheckUrl;
  /** sandbox: run Chromium in its own sandbox; default true unless the service runs as root (where Chromium refuses it) */
  sandbox?: boolean;
  /** networkSettleCapMs: longest wait for the network to settle after DOMContentLoaded, in ms; default 5000 */
  networkSettleCapMs?: number;
}

/** GuardedPageOptions are the per-request settings of withPage. */
export interface GuardedPageOptions {
  headers: Record<string, string>;
  allowPrivateUrls: boolean;
  /** timeoutMs: deadline for opening the page and everything `fn` does with it, in ms */
  timeoutMs: number;
  signal: AbortSignal;
}

/** LoadedPageOptions are render's settings plus the screenshot's page preparation. */
export interface LoadedPageOptions extends RenderOptions {
  /** beforeNavigate: runs on the guarded page before it opens the URL (set the viewport, emulate dark mode) */
  beforeNavigate?: (page: Page) => Promise<void>;
  /** captureReserveMs: deadline share kept for the caller's work after the settle wait, in ms; default 300 */
  captureReserveMs?: number;
}

/** LoadedPage is a page after navigation and settling, as withLoadedPage hands it over. */
export interface LoadedPage {
  page: Page;
  response: HTTPResponse | null;
  /** status: HTTP status of the main document (200 when Chromium reported none) */
  status: number;
  /** deadlineAt: when the request's deadline strikes, in epoch ms */
  deadlineAt: number;
}

/** Chromium's flags: headless on a machine without GPU or internet (see PLATFORM-NOTES); launch adds the proxy and sandbox. */
const CHROMIUM_ARGS = [
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--no-default-browser-check",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-default-apps",
  "--disable-extensions",
  "--disable-domain-reliability",
  "--disable-client-side-phishing-detection",
  "--disable-breakpad",
  "--dns-prefetch-disable",
  "--mute-audio",
  "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
  "--disable-dev-shm-usage",
  // the headless shell has no popup blocker: without this a scripted click on a target=_blank link
  // opens a page outside the request guard (the full browser ignores the switch and blocks popups)
  "--block-new-web-contents",
  // Speculative loading (speculation rules prefetch and prerender, <link rel=prefetch>) cannot be
  // switched off in Chromium 156's headless shell: --disable-features=Prerender2,NoStatePrefetch,
  // SpeculationRulesPrefetchProxy, --disable-blink-features=SpeculationRules and the preference
  // net.network_prediction_options=2 all left those requests going out (measured). They go through
  // the egress proxy like every other request, which is what holds them (test/chromium-egress.test.ts).
];

/**
 * egressArgs route every connection of Chromium through the egress proxy at `proxy` (host:port):
 * loopback is not exempt (<-loopback> removes Chromium's implicit bypass of localhost and
 * 127.0.0.0/8), and Chromium resolves no name itself, so a connection that somehow skipped the
 * proxy could not find a host by name either.
 */
function egressArgs(proxy: string): string[] {
  return [`--proxy-server=http://${proxy}`, "--proxy-bypass-list=<-loopback>", `--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1`];
}

/**
 * QUIET_MS: a page counts as settled when, for this long, no request that can change the DOM
 * (document, script, fetch, XHR) was open and the DOM did not change, in ms.
 */
const QUIET_MS = 50;
/** NETWORK_ONLY_QUIET_MS: a quiet network for this long settles a page whose DOM keeps changing (clocks, animations) */
const NETWORK_ONLY_QUIET_MS = 1_000;
const SETTLE_POLL_MS = 10;
/** SHORT_TIMER_MS: timers up to this delay count as work about to change the page (a fetch after 300 ms, say) */
const SHORT_TIMER_MS = 1_000;
/**
 * PAGE_ACTIVITY_TRACKER runs before the page's scripts: it notes when the DOM last changed (page
 * clock, ms) and counts short timers that have not fired yet and fetch/XHR calls that have not
 * finished, as the page sees them: a request the page just started counts before its network event
 * reaches us, so settling cannot slip between the two.
 */
const PAGE_ACTIVITY_TRACKER = `(() => {
  const mark = () => { globalThis.__docintelDomChangedAt = performance.now(); };
  mark();
  new MutationObserver(mark).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  const pending = new Set();
  const setTimer = globalThis.setTimeout, clearTimer = globalThis.clearTimeout;
  globalThis.setTimeout = function (handler, delay, ...args) {
    if (typeof handler !== "function" || !(Number(delay) <= ${SHORT_TIMER_MS})) return setTimer.call(this, handler, delay, ...args);
    const id = setTimer.call(this, function () { pending.delete(id); return handler.apply(this, arguments); }, delay, ...args);
    pending.add(id);
    return id;
  };
  globalThis.clearTimeout = function (id) { pending.delete(id); return clearTimer.call(this, id); };
  let requests = 0;
  const pageFetch = globalThis.fetch;
  if (typeof pageFetch === "function") {
    globalThis.fetch = function (...args) {
      requests++;
      let started;
      try { started = pageFetch.apply(this, args); } catch (error) { requests--; throw error; }
      return started.finally(() => { requests--; });
    };
  }
  const xhr = globalThis.XMLHttpRequest && globalThis.XMLHttpRequest.prototype;
  if (xhr) {
    const send = xhr.send;
    xhr.send = function (...args) {
      requests++;
      this.addEventListener("loadend", () => { requests--; }, { once: true });
      return send.apply(this, args);
    };
  }
  globalThis.__docintelPendingWork = () => pending.size + requests;
  // waitIdle resolves true once the DOM has been still for quietMs with no short timer or request
  // pending, or false after maxMs: the page waits by itself, so settling costs one round trip, not a poll
  globalThis.__docintelWaitIdle = (quietMs, maxMs) => new Promise((resolve) => {
    const until = performance.now() + maxMs;
    const check = () => {
      const now = performance.now();
      const still = now - globalThis.__docintelDomChangedAt;
      if (still >= quietMs && pending.size + requests === 0) return resolve(true);
      if (now >= until) return resolve(false);
      setTimer.call(globalThis, check, Math.max(1, Math.min(quietMs - still, until - now, 10)));
    };
    check();
  });
})();`;
const DEFAULT_SETTLE_CAP_MS = 5_000;
/** CAPTURE_RESERVE_MS: time kept back from the settle wait for waitMs' neighbours: reading the DOM and the title */
const CAPTURE_RESERVE_MS = 300;
/** CLOSE_TIMEOUT_MS: how long a graceful close may take before the process is killed */
const CLOSE_TIMEOUT_MS = 3_000;
const VIEWPORT = { width: 1280, height: 900 };

/** Generation is one launched browser process and its bookkeeping. */
interface Generation {
  browser: PuppeteerBrowser;
  userDataDir: string;
  /** served: pages opened on this browser */
  served: number;
  open: number;
  /** retiring: no new pages; closed when `open` reaches 0 */
  retiring: boolean;
  dead: boolean;
}

/** Spare is a context and page opened ahead of need on one generation: a request then skips that cost (about 170 ms). */
interface Spare {
  generation: Generation;
  ready: Promise<{ context: BrowserContext; page: Page } | null>;
}

/** Lease is one page in its own browser context, on one generation. */
interface Lease {
  generation: Generation;
  context: BrowserContext;
  page: Page;
}

export class ChromiumSupervisor implements Browser {
  private readonly slots: Semaphore;
  private readonly checkUrl: CheckUrl;
  private current: Generation | null = null;
  private launching: Promise<Generation> | null = null;
  private readonly generations = new Set<Generation>();
  private closed = false;
  private launches = 0;
  private pagesServed = 0;
  private openPages = 0;
  private spare: Spare | null = null;
  private readonly egress: EgressProxy;

  constructor(private readonly options: ChromiumOptions) {
    this.slots = new Semaphore(Math.max(1, options.maxConcurrentPages));
    const resolve = options.egress.resolve;
    this.checkUrl = options.checkUrl ?? ((url, allowPrivate) => assertFetchableUrl(url, { allowPrivate, field: "url", resolve }).then(() => {}));
    this.egress = new EgressProxy(options.egress);
  }

  /** render opens `url` with JavaScript, waits for the network to settle plus `waitMs`, and returns the DOM as HTML. */
  render(url: string, opts: RenderOptions): Promise<RenderedPage> {
    return this.withLoadedPage(url, opts, ({ page, response }) => capture(page, response));
  }

  /**
   * withLoadedPage is render's navigation for callers that want the page itself (screenshots):
   * `opts.beforeNavigate` prepares the page (viewport, media features), then the page is opened and
   * settled like render does, and `fn` works on it within the same deadline. `opts.captureReserveMs`
   * is the part of the deadline kept for `fn` when the network will not settle (default 300 ms).
   */
  withLoadedPage<T>(url: string, opts: LoadedPageOptions, fn: (loaded: LoadedPage) => Promise<T>): Promise<T> {
    return this.guarded({ ...opts, mainUrl: url }, async (page, guard, deadlineAt) => {
      if (opts.beforeNavigate) await opts.beforeNavigate(page);
      const response = await navigate(page, url, guard);
      // a main document the egress proxy refused or could not reach arrives as the proxy's own answer
      if (guard.mainRefusal) throw guard.mainRefusal;
      // the next request's page is opened now, while this one settles: opened together with this
      // navigation it slowed it down (two cores: one renderer starting, another loading)
      this.prepareSpare();
      opts.signal.throwIfAborted();
      const reserve = opts.captureReserveMs ?? CAPTURE_RESERVE_MS;
      await settlePage(page, guard, Math.min(this.options.networkSettleCapMs ?? DEFAULT_SETTLE_CAP_MS, deadlineAt - Date.now() - opts.waitMs - reserve));
      if (opts.waitMs > 0) await Bun.sleep(opts.waitMs);
      opts.signal.throwIfAborted();
      return fn({ page, response, status: response?.status() ?? 200, deadlineAt });
    });
  }

  /** withPage hands `fn` a guarded page (interception, downloads denied, deadline) and closes it afterwards. */
  withPage<T>(opts: GuardedPageOptions, fn: (page: Page) => Promise<T>): Promise<T> {
    return this.guarded(opts, (page) => fn(page));
  }

  /** close shuts every browser down and removes their profiles; later calls fail with shutting_down. */
  async close(): Promise<void> {
    this.closed = true;
    this.spare = null; // its context goes with its browser
    const launching = this.launching;
    if (launching) await launching.catch(() => {});
    this.current = null;
    await Promise.all([...this.generations].map((generation) => this.shutDown(generation)));
    await this.egress.close();
  }

  stats(): { launches: number; pagesServed: number; openPages: number } {
    return { launches: this.launches, pagesServed: this.pagesServed, openPages: this.openPages };
  }

  /** browserPid is the process id of the browser that serves new pages, or null when none runs (for diagnostics and tests). */
  browserPid(): number | null {
    return this.current?.browser.process()?.pid ?? null;
  }

  // -------------------------------------------------------------------------------------------
  // One guarded request

  /**
   * guarded waits for a page slot, then runs `work` on a fresh guarded page under one deadline of
   * `timeoutMs`; on expiry the page's context is closed and AppError timeout is thrown.
   */
  private guarded<T>(
    opts: GuardedPageOptions & { mainUrl?: string },
    work: (page: Page, guard: PageGuard, deadlineAt: number) => Promise<T>,
  ): Promise<T> {
    const what = opts.mainUrl ? `render '${opts.mainUrl}'` : "use a browser page";
    return this.slots.run(async () => {
      if (this.closed) throw new AppError("shutting_down", `Chromium: cannot ${what}, the server is shutting down; retry on another instance`);
      const deadlineAt = Date.now() + opts.timeoutMs;
      const deadline = AbortSignal.timeout(opts.timeoutMs);
      const signal = AbortSignal.any([deadline, opts.signal]);
      const held: { lease: Lease | null; guard: PageGuard | null } = { lease: null, guard: null };
      // A refused URL is answered before any page opens; the guard checks it again with every redirect.
      const checked = opts.mainUrl ? untilAborted(assertMainUrl(opts.mainUrl, this.checkUrl, opts.allowPrivateUrls), signal) : Promise.resolve();
      const opened = checked.then(() => this.openPage(signal)).then((lease) => (held.lease = lease));
      const steps = opened.then(async (lease) => {
        signal.throwIfAborted();
        held.guard = await guardPage(lease.page, { checkUrl: this.checkUrl, allowPrivateUrls: opts.allowPrivateUrls, headers: opts.headers, mainUrl: opts.mainUrl });
        signal.throwIfAborted();
        return work(lease.page, held.guard, deadlineAt);
      });
      try {
        return await untilAborted(steps, signal);
      } catch (error) {
        if (opts.signal.aborted) throw opts.signal.reason ?? error;
        if (deadline.aborted) {
          throw new AppError("timeout", `Chromium: could not ${what} within ${opts.timeoutMs} ms (the page deadline); the page was closed. Try a larger timeout or a lighter page`, { cause: error });
        }
        throw explainFailure(error, what, held.guard, held.lease?.generation ?? null);
      } finally {
        this.prepareSpare(); // when the work did not navigate (withPage) or failed before it did
        steps.catch(() => {}); // after an abort the steps fail once their page is closed
        // A page still opening when the deadline struck is closed as soon as it exists.
        if (held.lease) void this.releasePage(held.lease);
        else void opened.then((lease) => this.releasePage(lease), () => {});
      }
    }, opts.signal);
  }

  // -------------------------------------------------------------------------------------------
  // Pages and browser generations

  /** openPage opens a page in a new browser context (downloads denied) on the current browser. */
  private async openPage(signal: AbortSignal): Promise<Lease> {
    const generation = await untilAborted(this.currentGeneration(), signal);
    generation.served++;
    generation.open++;
    this.pagesServed++;
    this.openPages++;
    if (generation.served >= this.options.pagesPerBrowser) this.retire(generation);
    let context: BrowserContext | null = null;
    try {
      const prepared = (await this.takeSpare(generation)) ?? (await newContextPage(generation));
      context = prepared.context;
      return { generation, context, page: prepared.page };
    } catch (error) {
      if (context && !generation.dead) await withTimeout(context.close(), CLOSE_TIMEOUT_MS).catch(() => {});
      await this.leave(generation);
      throw error;
    }
  }

  /** takeSpare hands out the spare page when it belongs to `generation` and opened fine; otherwise null. */
  private async takeSpare(generation: Generation): Promise<{ context: BrowserContext; page: Page } | null> {
    const spare = this.spare;
    if (!spare) return null;
    this.spare = null;
    const prepared = await spare.ready;
    if (!prepared) return null;
    if (spare.generation !== generation || generation.dead || prepared.page.isClosed()) {
      if (!spare.generation.dead) void withTimeout(prepared.context.close(), CLOSE_TIMEOUT_MS).catch(() => {});
      return null;
    }
    return prepared;
  }

  /** prepareSpare opens the next request's context and page in the background on the current browser. */
  private prepareSpare(): void {
    const generation = this.current;
    if (this.closed || this.spare || !generation || generation.retiring || generation.dead) return;
    this.spare = { generation, ready: newContextPage(generation).catch(() => null) };
  }

  /**
   * releasePage ends a page's use at once (it no longer counts as open) and closes its context in the
   * background, so the answer does not wait for Chromium's teardown; the browser stays until it is done.
   */
  private releasePage(lease: Lease): Promise<void> {
    this.openPages--;
    return (async () => {
      if (!lease.generation.dead) await withTimeout(lease.context.close(), CLOSE_TIMEOUT_MS).catch(() => {});
      await this.leaveGeneration(lease.generation);
    })();
  }

  /** leave counts a page as closed and shuts a retiring or dead browser down once its last page is gone. */
  private async leave(generation: Generation): Promise<void> {
    this.openPages--;
    await this.leaveGeneration(generation);
  }

  /** leaveGeneration counts a page's context as closed; a retiring or dead browser shuts down after its last. */
  private async leaveGeneration(generation: Generation): Promise<void> {
    generation.open--;
    if ((generation.retiring || generation.dead) && generation.open === 0) await this.shutDown(generation);
  }

  /** currentGeneration returns the browser that serves new pages, launching one when there is none. */
  private currentGeneration(): Promise<Generation> {
    if (this.closed) return Promise.reject(new AppError("shutting_down", "Chromium: the server is shutting down; retry on another instance"));
    if (this.current && !this.current.dead && !this.current.retiring) return Promise.resolve(this.current);
    this.launching ??= this.launch().finally(() => {
      this.launching = null;
    });
    return this.launching;
  }

  /** retire stops giving out pages from a generation; it is closed when its last page is released. */
  private retire(generation: Generation): void {
    generation.retiring = true;
    if (this.current === generation) this.current = null;
  }

  /** launch starts Chromium with a fresh profile dir. */
  private async launch(): Promise<Generation> {
    const { executablePath, userDataRoot, launchTimeoutMs } = this.options;
    try {
      await access(executablePath, constants.X_OK);
    } catch (cause) {
      throw toolUnavailable(`Chromium (${executablePath})`, "chromium-headless-shell", cause);
    }
    await mkdir(userDataRoot, { recursive: true });
    const proxy = await this.egress.start();
    const userDataDir = await mkdtemp(join(userDataRoot, "chromium-"));
    const sandbox = this.options.sandbox ?? process.getuid?.() !== 0;
    let browser: PuppeteerBrowser;
    try {
      browser = await puppeteer.launch({
        executablePath,
        // the headless shell takes the old --headless switch; the full browser takes --headless=new
        headless: /headless[-_]shell/.test(executablePath) ? "shell" : true,
        pipe: true, // DevTools over file descriptors: no debugging port on the machine
        userDataDir,
        args: [...CHROMIUM_ARGS, ...egressArgs(proxy), ...(sandbox ? [] : ["--no-sandbox"])],
        // Chromium gets no secrets: not the provider key, not the operator's settings, only what it needs to run
        env: { PATH: "/usr/local/bin:/usr/bin:/bin", HOME: userDataRoot, LANG: "C.UTF-8" },
        timeout: launchTimeoutMs,
        ignoreDefaultArgs: ["--disable-popup-blocking"], // no user gesture ever happens, so no popup opens
        protocolTimeout: Math.max(30_000, launchTimeoutMs),
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
      });
    } catch (cause) {
      await rm(userDataDir, { recursive: true, force: true }).catch(() => {});
      throw new AppError("tool_unavailable", `Chromium (${executablePath}) could not start (time limit ${launchTimeoutMs} ms); run docintel doctor and check the server's memory`, { cause });
    }
    this.launches++;
    const generation: Generation = { browser, userDataDir, served: 0, open: 0, retiring: false, dead: false };
    this.generations.add(generation);
    const died = () => {
      if (generation.dead) return;
      generation.dead = true;
      if (this.current === generation) this.current = null;
      if (generation.open === 0) void this.shutDown(generation);
    };
    browser.once("disconnected", died);
    // When the launched process is a wrapper script (Debian's /usr/bin/chromium-headless-shell does
    // not exec), its death leaves the real browser holding the DevTools pipe and "disconnected" never
    // comes: the process' exit ends this generation, and its process group goes with it.
    const child = browser.process();
    child?.once("exit", () => {
      died();
      killProcessGroup(child);
      void browser.disconnect().catch(() => {});
    });
    if (this.closed) {
      await this.shutDown(generation);
      throw new AppError("shutting_down", "Chromium: the server is shutting down; retry on another instance");
    }
    this.current = generation;
    return generation;
  }

  /** shutDown closes a browser (killing it when it does not close in time) and removes its profile dir. */
  private async shutDown(generation: Generation): Promise<void> {
    if (!this.generations.delete(generation)) return;
    if (this.current === generation) this.current = null;
    const child = generation.browser.process();
    if (!generation.dead) await withTimeout(generation.browser.close(), CLOSE_TIMEOUT_MS).catch(() => {});
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      killProcessGroup(child);
      await withTimeout(exited, CLOSE_TIMEOUT_MS).catch(() => {});
    }
    await rm(generation.userDataDir, { recursive: true, force: true }).catch(() => {});
  }
}

// ---------------------------------------------------------------------------------------------
// Render steps

/** navigate opens the main document and waits for DOMContentLoaded; the deadline is enforced by the caller. */
async function navigate(page: Page, url: string, guard: PageGuard): Promise<HTTPResponse | null> {
  try {
    return await page.goto(url, { waitUntil: "domcontentloaded", timeout: 0 });
  } catch (error) {
    throw mainDocumentFailure(error, url, guard);
  }
}

/**
 * settlePage waits until no document, script, fetch or XHR request has been in flight and the DOM
 * has not changed for QUIET_MS, with no short timer pending (a quiet network alone settles it after
 * NETWORK_ONLY_QUIET_MS, for pages with clocks or animations), or until `capMs` passes so that
 * chatty pages are still captured. The page side is waited for inside the page (waitIdle).
 */
async function settlePage(page: Page, guard: PageGuard, capMs: number): Promise<void> {
  const giveUpAt = Date.now() + capMs;
  let quietSince: number | null = null;
  const networkQuietMs = () => {
    if (guard.contentRequests() > 0) quietSince = null;
    else quietSince ??= Date.now();
    return quietSince === null ? 0 : Date.now() - quietSince;
  };
  while (Date.now() < giveUpAt) {
    if (networkQuietMs() >= NETWORK_ONLY_QUIET_MS) return;
    const idle = await pageIdleWithin(page, Math.min(giveUpAt - Date.now(), NETWORK_ONLY_QUIET_MS));
    if (idle && networkQuietMs() >= QUIET_MS) return;
    await Bun.sleep(SETTLE_POLL_MS);
  }
}

/**
 * pageIdleWithin waits (in the page) up to `maxMs` for the DOM to be still for QUIET_MS with no short
 * timer or page request pending; false when it is not by then, or when it cannot tell.
 */
async function pageIdleWithin(page: Page, maxMs: number): Promise<boolean> {
  if (maxMs <= 0) return false;
  try {
    return await page.evaluate(
      (quietMs, waitMs) => {
        const g = globalThis as { __docintelWaitIdle?: (quietMs: number, maxMs: number) => Promise<boolean> };
        return typeof g.__docintelWaitIdle === "function" ? g.__docintelWaitIdle(quietMs, waitMs) : false;
      },
      QUIET_MS,
      maxMs,
    );
  } catch {
    return false;
  }
}

/** capture reads the rendered DOM, final URL and title, and the main document's status and type. */
async function capture(page: Page, response: HTTPResponse | null): Promise<RenderedPage> {
  const html = await page.content();
  const title = await page.title();
  const contentType = response?.headers()["content-type"] ?? "";
  return {
    html,
    finalUrl: page.url(),
    title,
    status: response?.status() ?? 200,
    contentType: contentType.split(";")[0]!.trim().toLowerCase() || "text/html",
  };
}

// ---------------------------------------------------------------------------------------------
// Errors

/** mainDocumentFailure explains why the main document could not be opened, or returns `error` when the guard saw nothing. */
function mainDocumentFailure(error: unknown, url: string, guard: PageGuard): unknown {
  if (guard.mainRefusal) return guard.mainRefusal;
  const response = guard.mainResponse;
  if (response && (response.status === 204 || response.status === 205)) {
    return new AppError("empty_document", `url: '${response.url}' answered HTTP ${response.status} (no content); there is no page to render`, { cause: error });
  }
  if (response && guard.mainFailure === "net::ERR_ABORTED") {
    const type = response.headers["content-type"]?.split(";")[0] ?? "unknown type";
    const disposition = response.headers["content-disposition"];
    return new AppError(
      "unsupported_media_type",
      `url: '${response.url}' answered with a file download (${type}${disposition ? `, Content-Disposition: ${disposition}` : ""}), not a web page; downloads are blocked when rendering. Send the file itself, or its URL as a document to convert`,
      { cause: error },
    );
  }
  if (guard.mainFailure) {
    return new AppError("url_unreachable", `url: could not load '${url}' (${guard.mainFailure}); check that the URL is reachable from the server`, { cause: error });
  }
  return error;
}

/** explainFailure turns what went wrong with a page into an AppError that names the cause. */
function explainFailure(error: unknown, what: string, guard: PageGuard | null, generation: Generation | null): unknown {
  if (error instanceof AppError) return error;
  if (generation?.dead) {
    return new AppError("tool_unavailable", `Chromium crashed or closed while trying to ${what}; it restarts by itself, retry the request`, { cause: error });
  }
  const explained = guard ? mainDocumentFailure(error, guard.mainResponse?.url ?? "the page", guard) : error;
  if (explained instanceof AppError) return explained;
  return new AppError("internal_error", `Chromium: could not ${what}`, { cause: error });
}

/** newContextPage opens a fresh browser context (downloads denied) with one page in it. */
async function newContextPage(generation: Generation): Promise<{ context: BrowserContext; page: Page }> {
  const context = await generation.browser.createBrowserContext({ downloadBehavior: { policy: "deny" } });
  try {
    const page = await context.newPage();
    closeOtherPages(context, page);
    await Promise.all([page.setViewport(VIEWPORT), preparePage(page), page.evaluateOnNewDocument(PAGE_ACTIVITY_TRACKER)]);
    // The first document (about:blank) existed before those scripts were registered: a fresh one gets
    // them, so HTML set as the page's content (uploads, page.setContent) runs with the stubs too.
    await page.goto("about:blank");
    return { context, page };
  } catch (error) {
    await withTimeout(context.close(), CLOSE_TIMEOUT_MS).catch(() => {});
    throw error;
  }
}

/** closeOtherPages closes any page that opens in the context besides ours (a popup would escape the guard). */
function closeOtherPages(context: BrowserContext, ours: Page): void {
  context.on("targetcreated", (target) => {
    if (target.type() !== "page") return;
    void target.page().then(
      (page) => {
        if (page && page !== ours) void page.close().catch(() => {});
      },
      () => {},
    );
  });
}

// ---------------------------------------------------------------------------------------------
// Small helpers

/** withTimeout rejects when `promise` takes longer than `ms` milliseconds. */
function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expiry = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`did not finish within ${ms} ms`)), ms);
  });
  return Promise.race([promise, expiry]).finally(() => clearTimeout(timer));
}
