/**
 * screenshotOf is the one screenshot operation, used by GET /{url} and by the thumbnail handler for
 * web pages. The page is opened on the shared Chromium (its SSRF guard sees every request the page
 * makes), then captured as one JPEG, or as a short scroll through the page encoded by ffmpeg.
 *
 *   [prepare page (viewport, scale, colour scheme), navigate + settle, wait_ms,
 *    capture (viewport | full page | one element | scroll frames), encode (gif/mp4)]   under one deadline
 */
import type { Page } from "puppeteer";
import { AppError } from "../errors";
import { underDeadline } from "../runtime/deadline";
import type { ConvertTools } from "../convert/types";
import { ChromiumSupervisor } from "../tools/chromium";
import { FfmpegTools } from "../tools/ffmpeg";
import { isStill, type ScreenshotFormat, type StillFormat } from "./schema";

export interface ScreenshotOptions {
  viewportWidth: number;
  viewportHeight: number;
  fullPage: boolean;
  darkMode: boolean;
  /** selector: capture only the first element matching this CSS selector (JPEG only) */
  selector?: string;
  format: ScreenshotFormat;
  /** quality: JPEG quality 1-100 (the frames of gif/mp4 too) */
  quality: number;
  /** waitMs: extra wait after the page settled, in ms */
  waitMs: number;
  deviceScaleFactor: number;
}

export interface ScreenshotDeps {
  browser: ChromiumSupervisor;
  media: FfmpegTools;
  /** timeoutMs: deadline for the whole screenshot, encoding included, in ms */
  timeoutMs: number;
  allowPrivateUrls: boolean;
  /** maxPixels: largest capture (width x height in device pixels); a taller full page is cut */
  maxPixels: number;
}

export interface Screenshot {
  bytes: Uint8Array;
  contentType: (typeof SCREENSHOT_CONTENT_TYPES)[ScreenshotFormat];
  /** status: HTTP status of the page's main document */
  status: number;
  /** truncated: a full-page capture was cut at the pixel limit */
  truncated: boolean;
}

export const SCREENSHOT_CONTENT_TYPES = { jpeg: "image/jpeg", png: "image/png", webp: "image/webp", gif: "image/gif", mp4: "video/mp4" } as const;

/** imageOptions: puppeteer's encoding of a still capture (png takes no quality). */
function imageOptions(opts: ScreenshotOptions): { type: StillFormat; quality?: number } {
  const type = isStill(opts.format) ? opts.format : "jpeg";
  return type === "png" ? { type } : { type, quality: opts.quality };
}

/** ANIMATION_FRAMES at ANIMATION_FPS make the 3-second scroll of a gif or mp4 capture. */
const ANIMATION_FRAMES = 24;
const ANIMATION_FPS = 8;
/** ANIMATION_RESERVE_MS: deadline share kept for taking the frames when the page will not settle */
const ANIMATION_RESERVE_MS = 6_000;
/** MAX_CAPTURE_SIDE: Chromium cannot capture a surface taller or wider than this many device pixels */
const MAX_CAPTURE_SIDE = 16_384;

/** screenshotDepsOf picks the shared browser and ffmpeg out of the converters' tools. */
export function screenshotDepsOf(tools: ConvertTools, limits: { timeoutMs: number; allowPrivateUrls: boolean; maxPixels: number }): ScreenshotDeps {
  if (!(tools.browser instanceof ChromiumSupervisor) || !(tools.media instanceof FfmpegTools)) {
    throw new AppError("tool_unavailable", "screenshots need the Chromium supervisor and ffmpeg, which this server was not built with");
  }
  return { browser: tools.browser, media: tools.media, ...limits };
}

/** screenshotOf captures `url`; `signal` ends it early (client gone). Past the deadline: 504 timeout. */
export async function screenshotOf(url: string, opts: ScreenshotOptions, deps: ScreenshotDeps, signal?: AbortSignal, headers: Record<string, string> = {}): Promise<Screenshot> {
  if (opts.selector && !isStill(opts.format)) {
    throw new AppError("bad_request", "selector: applies to the still formats (jpeg, png, webp) only; gif and mp4 scroll through the whole page");
  }
  const timedOut = () =>
    `the screenshot of '${url}' took longer than ${Math.round(deps.timeoutMs / 1000)} s (the server's --screenshot-timeout-ms); the page may never finish loading: try a lighter page`;
  return underDeadline(deps.timeoutMs, signal, timedOut, async (combined) => {
    const captured = await deps.browser.withLoadedPage(
      url,
      {
        headers,
        waitMs: opts.waitMs,
        timeoutMs: deps.timeoutMs,
        allowPrivateUrls: deps.allowPrivateUrls,
        signal: combined,
        captureReserveMs: isStill(opts.format) ? 1_000 : ANIMATION_RESERVE_MS,
        beforeNavigate: (page) => preparePage(page, opts),
      },
      async ({ page, status }) => ({ status, ...(await capture(page, opts, deps.maxPixels)) }),
    );
    combined.throwIfAborted();
    const bytes = isStill(opts.format) ? captured.frames[0]! : await deps.media.encodeFrames(captured.frames, ANIMATION_FPS, opts.format, combined);
    return { bytes, contentType: SCREENSHOT_CONTENT_TYPES[opts.format], status: captured.status, truncated: captured.truncated };
  });
}

/**
 * screenshotHtml captures an uploaded HTML document: it becomes the content of a guarded page (its
 * sub-resources pass the SSRF guard like any page's), loaded for at most the screenshot deadline.
 */
export function screenshotHtml(html: string, viewport: { width: number; height: number }, deps: ScreenshotDeps, signal: AbortSignal): Promise<Uint8Array> {
  const what = "the uploaded HTML";
  return deps.browser
    .withPage({ headers: {}, allowPrivateUrls: deps.allowPrivateUrls, timeoutMs: deps.timeoutMs, signal }, async (page) => {
      await page.setViewport({ ...viewport, deviceScaleFactor: 1 });
      await page.setContent(html, { waitUntil: "load", timeout: 0 });
      return bytesOf(await page.screenshot({ type: "jpeg", quality: 90 }));
    })
    .catch((error) => {
      if (error instanceof AppError) throw error;
      throw new AppError("unreadable_document", `Chromium could not draw ${what}`, { cause: error });
    });
}

/** preparePage sets the viewport, the pixel ratio and the colour scheme before the page loads. */
async function preparePage(page: Page, opts: ScreenshotOptions): Promise<void> {
  await page.setViewport({ width: opts.viewportWidth, height: opts.viewportHeight, deviceScaleFactor: opts.deviceScaleFactor });
  await page.emulateMediaFeatures([{ name: "prefers-color-scheme", value: opts.darkMode ? "dark" : "light" }]);
}

/** capture takes the still image (one frame: jpeg, png, webp) or the scroll frames (gif/mp4) of a loaded page. */
async function capture(page: Page, opts: ScreenshotOptions, maxPixels: number): Promise<{ frames: Uint8Array[]; truncated: boolean }> {
  if (!isStill(opts.format)) return { frames: await scrollFrames(page, opts), truncated: false };
  if (opts.selector) return { frames: [await captureElement(page, opts.selector, opts)], truncated: false };
  if (!opts.fullPage) return { frames: [bytesOf(await page.screenshot(imageOptions(opts)))], truncated: false };
  return captureFullPage(page, opts, maxPixels);
}

/**
 * captureFullPage captures the whole scrollable page, cut at the pixel limit and at Chromium's
 * largest surface, so an endless page cannot make an endless image.
 */
async function captureFullPage(page: Page, opts: ScreenshotOptions, maxPixels: number): Promise<{ frames: Uint8Array[]; truncated: boolean }> {
  const fullHeight = await page.evaluate(() => Math.max(document.documentElement.scrollHeight, document.body?.scrollHeight ?? 0));
  const scale = opts.deviceScaleFactor;
  const limit = Math.floor(Math.min(MAX_CAPTURE_SIDE / scale, maxPixels / (opts.viewportWidth * scale * scale)));
  const height = Math.max(opts.viewportHeight, Math.min(fullHeight, limit));
  const shot = await page.screenshot({
    ...imageOptions(opts),
    clip: { x: 0, y: 0, width: opts.viewportWidth, height },
    captureBeyondViewport: true,
  });
  return { frames: [bytesOf(shot)], truncated: fullHeight > height };
}

/** captureElement captures the first element matching `selector`; 400 when nothing (visible) matches. */
async function captureElement(page: Page, selector: string, opts: ScreenshotOptions): Promise<Uint8Array> {
  let element;
  try {
    element = await page.$(selector);
  } catch (cause) {
    throw new AppError("bad_request", `selector: '${selector}' is not a valid CSS selector`, { cause });
  }
  if (!element) throw new AppError("bad_request", `selector: '${selector}' matched no element on the page; check the selector against the rendered page`);
  const box = await element.boundingBox();
  if (!box || box.width < 1 || box.height < 1) {
    throw new AppError("bad_request", `selector: '${selector}' matched an element that is not displayed (it has no size), so there is nothing to capture`);
  }
  return bytesOf(await element.screenshot(imageOptions(opts)));
}

/** scrollFrames takes ANIMATION_FRAMES viewport captures while scrolling from the top to the bottom of the page. */
async function scrollFrames(page: Page, opts: ScreenshotOptions): Promise<Uint8Array[]> {
  const scrollable = await page.evaluate(() => Math.max(0, document.documentElement.scrollHeight - window.innerHeight));
  const frames: Uint8Array[] = [];
  for (let i = 0; i < ANIMATION_FRAMES; i++) {
    // Ease in and out, so the first and last views stay on screen a moment.
    const t = i / (ANIMATION_FRAMES - 1);
    const y = Math.round(scrollable * (0.5 - Math.cos(Math.PI * t) / 2));
    await page.evaluate((top) => window.scrollTo(0, top), y);
    frames.push(bytesOf(await page.screenshot({ type: "jpeg", quality: opts.quality })));
  }
  return frames;
}

function bytesOf(data: Uint8Array | string): Uint8Array {
  return typeof data === "string" ? new TextEncoder().encode(data) : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}
