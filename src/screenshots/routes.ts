import { priceText } from "../credits/costs";
import { Fields } from "../http/fields";
import { Type } from "@sinclair/typebox";
import type { Route } from "../http/route";
import { AppError } from "../errors";
import { targetUrlOf } from "../http/context";
import { NOT_ENOUGH_CREDITS } from "../http/responses";
import { assertFetchableUrl } from "../security/ssrf";
import type { UrlPolicy } from "../documents/inputs";
import type { EngineDeps } from "../tasks/routes";
import { ScreenshotQuery, type ScreenshotFormat } from "./schema";
import type { Screenshot, ScreenshotOptions } from "./service";

/** ScreenshotRouteDeps: what the screenshot route uses of the services. */
export type ScreenshotRouteDeps = UrlPolicy & EngineDeps;

export const screenshotRoutes: Route<ScreenshotRouteDeps>[] = [
  {
    op: {
      method: "GET",
      path: "/*",
      docPath: "/{url}",
      anonymous: true,
      tag: "Screenshots",
      summary: "Screenshot of a URL",
      description:
        "Everything after the first `/` is the target URL (percent-encode its own query string: `/https%3A%2F%2Fexample.com%2Fa%3Fb%3D1`); options are query parameters. The page is rendered in the shared headless Chromium, every request it makes passes the SSRF guard, and it is captured once it settled (plus `wait_ms`). Answers image/jpeg, image/png, image/webp, image/gif or video/mp4 (H.264) with `X-Page-Status` (the page's HTTP status) and `X-Credits-Used`. A page that does not load within the server's screenshot deadline gets 504. " + priceText("screenshot"),
      params: Fields({ url: Type.String({ description: "target URL, e.g. https://example.com" }) }),
      query: ScreenshotQuery,
      responses: {
        200: { description: "The screenshot (image/jpeg, image/png, image/webp, image/gif or video/mp4)", contentType: "image/jpeg" },
        400: "The URL is invalid, refused (private address) or unreachable; or the selector matched nothing",
        402: NOT_ENOUGH_CREDITS,
        503: "Chromium or ffmpeg is unavailable",
        504: "The page did not load and settle within the screenshot deadline",
      },
    },
    handler: async ({ query, request, services, ctx, set }) => {
      const url = targetUrlOf(request, "/");
      await assertFetchableUrl(url, { allowPrivate: services.config.allowPrivateUrls, field: "url" });
      const { result, creditsUsed } = await services.tasks.runNow<Screenshot>(ctx.key!, "screenshot", { url, options: screenshotOptionsOf(query) }, ctx.id, request.signal);
      const headers = new Headers({
        "content-type": result.contentType,
        "x-page-status": String(result.status),
        "x-credits-used": String(creditsUsed),
        "cache-control": "no-store",
      });
      if (result.truncated) headers.set("x-truncated", "true");
      for (const [name, value] of Object.entries(set.headers)) headers.set(name, String(value));
      return new Response(result.bytes as Uint8Array<ArrayBuffer>, { headers });
    },
  },
];

/** screenshotOptionsOf reads the validated query (defaults already applied by the schema). */
function screenshotOptionsOf(query: Record<string, unknown>): ScreenshotOptions {
  const selector = typeof query.selector === "string" && query.selector.trim() ? query.selector.trim() : undefined;
  return {
    viewportWidth: Number(query.viewport_width ?? 1280),
    viewportHeight: Number(query.viewport_height ?? 800),
    fullPage: query.full_page === true,
    darkMode: query.dark_mode === true,
    selector,
    format: (query.format as ScreenshotFormat | undefined) ?? "jpeg",
    quality: Number(query.quality ?? 80),
    waitMs: Number(query.wait_ms ?? 0),
    deviceScaleFactor: Number(query.device_scale_factor ?? 1),
  };
}
