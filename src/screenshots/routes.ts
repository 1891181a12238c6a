import { Fields } from "../app/fields";
import { Type } from "@sinclair/typebox";
import type { Route } from "../app/route";
import { notBuiltYet } from "../app/route";
import { AppError } from "../errors";
import { contextOf } from "../app/context";
import { assertFetchableUrl } from "../security/ssrf";
import { ScreenshotQuery } from "./schema";

/**
 * targetUrlOf reads the target URL from the raw path: everything after `prefix` (percent-decoded
 * once). A target with its own query string sends it percent-encoded; our query is the options.
 */
export function targetUrlOf(request: Request, prefix: string): string {
  const path = contextOf(request).url.pathname;
  let raw = path.slice(prefix.length);
  try {
    raw = decodeURIComponent(raw);
  } catch {
    throw new AppError("bad_request", "url: the target URL in the path is not valid percent-encoding");
  }
  if (!raw) throw new AppError("missing_input", `Put the target URL after '${prefix}', e.g. ${prefix}https://example.com`);
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `https://${raw}`;
}

export const screenshotRoutes: Route[] = [
  {
    op: {
      method: "GET",
      path: "/*",
      docPath: "/{url}",
      tag: "Screenshots",
      summary: "Screenshot of a URL",
      description:
        "Everything after the first `/` is the target URL (percent-encode its own query string); options are query parameters. Answers image/jpeg, image/gif or video/mp4. 1 credit.",
      params: Fields({ url: Type.String({ description: "target URL, e.g. https://example.com" }) }),
      query: ScreenshotQuery,
      responses: {
        200: { description: "The screenshot", contentType: "image/jpeg" },
        400: "The URL is invalid, refused (private address) or unreachable",
        402: "Not enough credits",
        501: "Not available in this version yet",
      },
    },
    handler: async ({ query, request, services }) => {
      void query;
      const url = targetUrlOf(request, "/");
      await assertFetchableUrl(url, { allowPrivate: services.config.allowPrivateUrls, field: "url" });
      notBuiltYet("GET /{url} (screenshots)");
    },
  },
];
