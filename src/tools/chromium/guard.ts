/**
 * The request guard of one Chromium page: every request the page makes (the main document and its
 * redirects, sub-resources, iframes in any process, fetch/XHR, dedicated workers) is paused by
 * puppeteer's request interception and continued only when `checkUrl` accepts it. The client's
 * url_headers are added only to requests for the main document's origin.
 *
 * WebSockets and WebRTC do not pass through request interception (the DevTools Fetch domain never
 * pauses them; Network.setBlockedURLs does not stop them either, measured with Chromium 156), so
 * the guard removes those constructors from every page, frame and worker before page scripts run.
 * Popups would be new pages outside this guard: window.open is removed, Chromium's popup blocker
 * stays on (no user gesture ever happens), and the supervisor closes any other page that appears.
 * Dialogs (alert, confirm) are dismissed so they cannot block the page's script.
 *
 * The guard is the layer that explains refusals (url_refused for the main document, url_headers
 * by origin). What holds is beneath it: Chromium's only route to the network is the egress proxy
 * (src/security/egressProxy.ts), which checks and pins every connection, intercepted or not.
 *
 *   page request -> scheme allowed? -> checkUrl(url) -> same origin as main doc? add url_headers -> continue
 *                                   \-> refused: abort (blockedbyclient); main document: remember the AppError
 */
import type { HTTPRequest, HTTPResponse, Page, WebWorker } from "puppeteer";
import { AppError } from "../../errors";
import { EGRESS_HEADER } from "../../security/egressProxy";

/** CheckUrl throws (usually AppError url_refused or url_unreachable) when a URL must not be fetched. */
export type CheckUrl = (url: string, allowPrivateUrls: boolean) => Promise<void>;

export interface GuardOptions {
  checkUrl: CheckUrl;
  allowPrivateUrls: boolean;
  /** headers: the client's url_headers, sent only to the main document's origin */
  headers: Record<string, string>;
  /** mainUrl: the URL the caller will open; when absent the first main-frame navigation decides the origin */
  mainUrl?: string;
}

/** MainResponse is what the server said about the main document (after redirects). */
export interface MainResponse {
  url: string;
  status: number;
  headers: Record<string, string>;
}

/** PageGuard reports what the guard saw on one page. */
export interface PageGuard {
  /** mainRefusal: why a main-frame navigation (the main document, a redirect of it) was first refused */
  readonly mainRefusal: unknown;
  /** mainFailure: Chromium's network error code for the main document, e.g. "net::ERR_CONNECTION_REFUSED" */
  readonly mainFailure: string | null;
  /** mainResponse: the last response to a main-frame navigation */
  readonly mainResponse: MainResponse | null;
  /** refusedUrls: every URL the guard aborted, in order (for logs and tests) */
  readonly refusedUrls: readonly string[];
  /** contentRequests: requests in flight that can change the DOM (documents, scripts, fetch, XHR) */
  contentRequests(): number;
}

/**
 * CONTENT_TYPES are the resource types whose answer can still change the DOM. Images, fonts, media,
 * beacons and long-lived streams are left out so they cannot hold the network settle open.
 */
const CONTENT_TYPES = new Set(["document", "script", "xhr", "fetch"]);

/** Schemes the page may use without a network check: they carry their content in the URL or the page. */
const LOCAL_SCHEMES = new Set(["data:", "blob:", "about:"]);

/**
 * NETWORK_STUB removes the APIs that open connections outside request interception. It runs in
 * every document before its scripts and in every dedicated worker before its script continues.
 */
const NETWORK_STUB = `(() => {
  for (const name of ["WebSocket", "WebSocketStream", "WebTransport", "RTCPeerConnection", "webkitRTCPeerConnection", "SharedWorker"]) {
    try { Object.defineProperty(globalThis, name, { value: undefined, configurable: false, writable: false }); } catch {}
  }
  try { if (typeof window !== "undefined") window.open = () => null; } catch {}
  try {
    if (globalThis.ServiceWorkerContainer) {
      ServiceWorkerContainer.prototype.register = () => Promise.reject(new DOMException("service workers are disabled", "SecurityError"));
    }
  } catch {}
})()`;

/** guardPage installs interception and the network stub on a fresh page, before it navigates anywhere. */
export async function guardPage(page: Page, opts: GuardOptions): Promise<PageGuard> {
  const state = {
    mainRefusal: null as unknown,
    mainFailure: null as string | null,
    mainResponse: null as MainResponse | null,
    refusedUrls: [] as string[],
    contentRequests: () => inFlight.size,
  };
  const inFlight = new Set<HTTPRequest>();
  let mainOrigin = opts.mainUrl ? originOf(opts.mainUrl) : null;
  const extraHeaders = Object.keys(opts.headers).length > 0 ? opts.headers : null;

  const isMainDocument = (request: HTTPRequest) => request.isNavigationRequest() && request.frame() === page.mainFrame();

  /** decide checks one paused request and continues or aborts it; it never throws. */
  async function decide(request: HTTPRequest): Promise<void> {
    const url = request.url();
    const main = isMainDocument(request);
    try {
      await assertAllowed(url, opts);
    } catch (refusal) {
      state.refusedUrls.push(url);
      if (main && state.mainRefusal === null) state.mainRefusal = refusal;
      await request.abort("blockedbyclient").catch(() => {});
      return;
    }
    if (main && mainOrigin === null) mainOrigin = originOf(url);
    const addHeaders = extraHeaders && mainOrigin !== null && originOf(url) === mainOrigin;
    const overrides = addHeaders ? { headers: { ...request.headers(), ...extraHeaders } } : {};
    await request.continue(overrides).catch(() => {}); // the page may close while we checked
  }

  page.on("request", (request) => {
    if (CONTENT_TYPES.has(request.resourceType())) inFlight.add(request);
    if (request.isInterceptResolutionHandled()) return;
    void decide(request);
  });
  page.on("requestfinished", (request) => inFlight.delete(request));
  page.on("requestfailed", (request) => {
    inFlight.delete(request);
    if (isMainDocument(request)) state.mainFailure = request.failure()?.errorText ?? null;
  });
  page.on("response", (response: HTTPResponse) => {
    if (!isMainDocument(response.request())) return;
    state.mainResponse = { url: response.url(), status: response.status(), headers: response.headers() };
    // The egress proxy answered itself: its refusal is the answer, not a page to render.
    const egress = response.headers()[EGRESS_HEADER.toLowerCase()];
    if (egress !== undefined && state.mainRefusal === null) state.mainRefusal = egressRefusal(egress, response.url());
  });
  page.on("dialog", (dialog) => void dialog.dismiss().catch(() => {}));
  page.on("workercreated", (worker: WebWorker) => {
    worker.client.send("Runtime.evaluate", { expression: NETWORK_STUB }).catch(() => {});
  });

  return state;
}

/**
 * preparePage does the guard's request-independent set-up on a fresh page: service workers
 * bypassed, WebSocket/WebRTC stubs installed before any script, every request paused for
 * `guardPage`'s check. It runs when the page is opened (ahead of the request, for a spare page);
 * the page must get `guardPage` before it navigates, or its requests stay paused.
 */
export async function preparePage(page: Page): Promise<void> {
  await page.setBypassServiceWorker(true);
  await page.evaluateOnNewDocument(NETWORK_STUB);
  await page.setRequestInterception(true);
}

/** egressRefusal turns the egress proxy's header ("refused; <why>" or "unreachable; <why>") into the error the client sees. */
function egressRefusal(header: string, url: string): AppError {
  const [kind = "", ...why] = header.split("; ");
  const reason = why.join("; ");
  if (kind === "refused") return new AppError("url_refused", reason.startsWith("url: ") ? reason : `url: '${truncate(url)}' was refused: ${reason}`);
  return new AppError("url_unreachable", `url: could not load '${truncate(url)}' (${reason}); check that the URL is reachable from the server`);
}

/** assertMainUrl checks the URL a caller asks to render: http or https only, then checkUrl. */
export async function assertMainUrl(url: string, checkUrl: CheckUrl, allowPrivateUrls: boolean): Promise<void> {
  const protocol = schemeOf(url);
  if (protocol !== "http:" && protocol !== "https:") {
    throw new AppError("url_refused", `url: '${truncate(url)}' is not an http or https URL; send e.g. https://example.com/article`);
  }
  await checkUrl(url, allowPrivateUrls);
}

/** assertAllowed refuses schemes that are neither local nor http(s), and asks checkUrl about the rest. */
async function assertAllowed(url: string, opts: GuardOptions): Promise<void> {
  const protocol = schemeOf(url);
  if (LOCAL_SCHEMES.has(protocol)) return;
  if (protocol !== "http:" && protocol !== "https:") {
    throw new AppError("url_refused", `url: the page requested '${truncate(url)}' with scheme '${protocol.replace(/:$/, "")}', which is not fetched; only http and https are`);
  }
  await opts.checkUrl(url, opts.allowPrivateUrls);
}

function schemeOf(url: string): string {
  const match = /^([a-z][a-z0-9+.-]*:)/i.exec(url);
  return match ? match[1]!.toLowerCase() : "";
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

function truncate(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max)}...` : text;
}
