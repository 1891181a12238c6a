/**
 * What a browser finds at the root: a small landing page at GET / (what this is, where the explorer
 * and the health check are, a quick start), /favicon.ico and /robots.txt. None needs a key and none
 * says anything about the operator's set-up.
 */
import { Elysia } from "elysia";
import { INTERFACE_VERSION, VERSION } from "../version";

export const LANDING_PATH = "/";
export const FAVICON_PATH = "/favicon.ico";
export const ROBOTS_PATH = "/robots.txt";
/** LANDING_PUBLIC_ROUTES: the GET routes below, which need no key. */
export const LANDING_PUBLIC_ROUTES = [LANDING_PATH, FAVICON_PATH, ROBOTS_PATH];

/** FAVICON_PNG: a 32x32 document icon (PNG, 248 bytes), served inside an ICO container. */
const FAVICON_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAACAAAAAgCAMAAABEpIrGAAAAKlBMVEVMaXEfTnkfTXkqVX8fTXgfTngeTXgeTnkfTngfTnlbfZ3///84Yoj3+fqGjKwnAAAACXRSTlMAiOUG5uSH54nr09jZAAAACXBIWXMAAAsTAAALEwEAmpwYAAAAX0lEQVQ4y93Tyw6AIAxEUQr4qE7//3ddMtHGRiEuvFtO0i5oSmMqa9VTWQoBUSchUD2wEFC34QAbhSuA7ZThOQhH/G1J+KDtYHgHwhFffJg+kL33KTqcmU9P8v3p9XQAgxsWaW4ZogsAAAAASUVORK5CYII=",
  "base64",
);

/** icoOf wraps one PNG image in an ICO file (ICONDIR + one ICONDIRENTRY), which every browser reads. */
function icoOf(png: Buffer, size: number): Uint8Array<ArrayBuffer> {
  const header = Buffer.alloc(22);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(1, 4); // one image
  header.writeUInt8(size, 6);
  header.writeUInt8(size, 7);
  header.writeUInt16LE(1, 10); // colour planes
  header.writeUInt16LE(32, 12); // bits per pixel
  header.writeUInt32LE(png.length, 14);
  header.writeUInt32LE(22, 18); // offset of the image
  return new Uint8Array(Buffer.concat([header, png]));
}

const FAVICON = icoOf(FAVICON_PNG, 32);

/** landingHtml: the page, its curl lines under --public-url when there is one (else a HOST placeholder: the Host header is never used). */
const landingHtml = (base: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>docintel</title>
<link rel="icon" href="/favicon.ico">
<style>
body { font: 16px/1.5 system-ui, sans-serif; max-width: 46rem; margin: 2rem auto; padding: 0 1rem; color: #1d2330; }
code, pre { font: 14px/1.45 ui-monospace, monospace; background: #f3f5f8; border-radius: 4px; }
pre { padding: .8rem 1rem; overflow-x: auto; }
a { color: #1f4e79; }
</style>
</head>
<body>
<h1>docintel</h1>
<p>Self-hosted document intelligence: documents and web pages to markdown, screenshots, thumbnails,
typed extraction, analysis, decisions and diffs, with async tasks and signed webhooks.
Version ${VERSION}, interface ${INTERFACE_VERSION}.</p>
<ul>
<li><a href="/docs">/docs</a>: the API explorer (every operation, its fields, errors and credits), and <a href="/docs/json">/docs/json</a>, the OpenAPI document</li>
<li><a href="/healthz">/healthz</a>: liveness (<code>?deep=true</code> also checks the store and the worker threads)</li>
</ul>
<h2>Quick start</h2>
<p>Every operation except these pages needs an API key, sent as <code>X-API-Key: KEY</code> or
<code>Authorization: Bearer KEY</code>. The operator makes one with <code>docintel keys create --plan free</code>.</p>
<pre>
# a file to markdown (JSON; add -H 'Accept: text/markdown' for the markdown alone)
curl -H "X-API-Key: $KEY" -F file=@report.pdf ${base}/api/v1/markdown/convert

# a web page to markdown
curl -H "X-API-Key: $KEY" ${base}/md/https://example.com

# a screenshot
curl -H "X-API-Key: $KEY" -o shot.jpg ${base}/https://example.com

# typed extraction
curl -H "X-API-Key: $KEY" -F file=@invoice.pdf \\
  -F 'schema={"total": {"type": "number", "required": true}}' ${base}/api/v1/extract
</pre>
<p>The README that ships with docintel has the full quick start, and the explorer has every field.</p>
</body>
</html>
`;

const ROBOTS = "User-agent: *\nDisallow: /\n";

/** landingPlugin serves the landing page, the favicon and robots.txt. */
export function landingPlugin(publicUrl: string | undefined) {
  const html = landingHtml(publicUrl ?? "http://HOST");
  return new Elysia({ name: "docintel-landing" })
    .get(LANDING_PATH, () => new Response(html, { headers: { "content-type": "text/html; charset=utf-8", "cache-control": "public, max-age=300" } }), { detail: { hide: true } })
    .get(FAVICON_PATH, () => new Response(FAVICON, { headers: { "content-type": "image/x-icon", "cache-control": "public, max-age=86400" } }), { detail: { hide: true } })
    .get(ROBOTS_PATH, () => new Response(ROBOTS, { headers: { "content-type": "text/plain; charset=utf-8" } }), { detail: { hide: true } });
}
