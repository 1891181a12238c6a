/**
 * GET /{url} screenshots against the real server and Chromium, of pages served on loopback: the
 * JPEG's size follows the viewport and scale, full_page captures the whole page, dark_mode reaches
 * prefers-color-scheme, a selector captures one element (400 when nothing matches), gif and mp4 are
 * real animations, the deadline ends a page that never loads, and private addresses are refused
 * unless the server allows them.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import sharp from "sharp";
import { startServer, tempDir, type TestServer } from "./helpers/server";
import { loopbackServers } from "./helpers/loopback";

const serve = loopbackServers();
let server: TestServer;
let key: string;
let page: string;

const PAGE = `<!doctype html><html><head><style>
  body { margin: 0; background: #ffffff; color: #000; }
  @media (prefers-color-scheme: dark) { body { background: #000000; color: #fff; } }
  #card { width: 300px; height: 120px; background: #1f6fd0; margin: 40px; }
  .tall { height: 3000px; }
</style></head><body><div id="card">card</div><div class="tall">long page</div><div id="hidden" style="display:none">x</div></body></html>`;

beforeAll(async () => {
  server = await startServer({ args: ["--allow-private-urls", "--screenshot-timeout-ms", "4000"] });
  ({ key } = await server.key("enterprise"));
  page = serve(() => new Response(PAGE, { headers: { "content-type": "text/html" } })).origin;
});
afterAll(() => server.stop());

async function shot(target: string, query = "", base = server.url, apiKey = key) {
  const r = await fetch(`${base}/${target}${query}`, { headers: { "X-API-Key": apiKey } });
  const bytes = new Uint8Array(await r.arrayBuffer());
  return { status: r.status, headers: r.headers, bytes, json: () => JSON.parse(new TextDecoder().decode(bytes)) };
}

describe("GET /{url} as PNG and WebP (issue 19)", () => {
  test.each([
    ["png", "image/png"],
    ["webp", "image/webp"],
  ])("format=%s answers %s of the viewport", async (format, type) => {
    const { status, headers, bytes } = await shot(`${page}/`, `?format=${format}&viewport_width=640&viewport_height=480`);
    expect(status).toBe(200);
    expect(headers.get("content-type")).toBe(type);
    expect(await sharp(bytes).metadata()).toMatchObject({ format, width: 640, height: 480 });
  });

  test("a selector works with png too", async () => {
    const { status, bytes } = await shot(`${page}/`, "?format=png&selector=%23card");
    expect(status).toBe(200);
    expect((await sharp(bytes).metadata()).format).toBe("png");
  });
});

describe("GET /{url} as JPEG", () => {
  test("the default is a 1280x800 JPEG of the viewport, for 1 credit", async () => {
    const { status, headers, bytes } = await shot(`${page}/`);
    expect(status).toBe(200);
    expect(headers.get("content-type")).toBe("image/jpeg");
    expect(headers.get("x-credits-used")).toBe("1");
    expect(headers.get("x-page-status")).toBe("200");
    expect(await sharp(bytes).metadata()).toMatchObject({ format: "jpeg", width: 1280, height: 800 });
  });

  test("viewport and device_scale_factor set the size; full_page captures the whole page", async () => {
    const scaled = await shot(`${page}/`, "?viewport_width=640&viewport_height=480&device_scale_factor=2");
    expect(await sharp(scaled.bytes).metadata()).toMatchObject({ width: 1280, height: 960 });
    const full = await shot(`${page}/`, "?viewport_width=800&viewport_height=600&full_page=true");
    const meta = await sharp(full.bytes).metadata();
    expect(meta.width).toBe(800);
    expect(meta.height).toBeGreaterThan(3000);
  });

  test("dark_mode switches the page's prefers-color-scheme", async () => {
    const light = await sharp((await shot(`${page}/`)).bytes).stats();
    const dark = await sharp((await shot(`${page}/`, "?dark_mode=true")).bytes).stats();
    expect(light.dominant.r).toBeGreaterThan(200);
    expect(dark.dominant.r).toBeLessThan(50);
  });

  test("a selector captures that element only", async () => {
    const { status, bytes } = await shot(`${page}/`, `?selector=${encodeURIComponent("#card")}`);
    expect(status).toBe(200);
    expect(await sharp(bytes).metadata()).toMatchObject({ width: 300, height: 120 });
    const { dominant } = await sharp(bytes).stats();
    expect(dominant.b).toBeGreaterThan(150);
  });

  test("a selector that matches nothing, or a hidden element, is a 400", async () => {
    const none = await shot(`${page}/`, `?selector=${encodeURIComponent("#missing")}`);
    expect(none.status).toBe(400);
    expect(none.json()).toMatchObject({ success: false, error: "bad_request" });
    expect(none.json().detail).toContain("#missing");
    const hidden = await shot(`${page}/`, `?selector=${encodeURIComponent("#hidden")}`);
    expect(hidden.status).toBe(400);
    const invalid = await shot(`${page}/`, `?selector=${encodeURIComponent("div[")}`);
    expect(invalid.status).toBe(400);
  });

  test("the target's own query string is kept when percent-encoded", async () => {
    let seen = "";
    const { origin } = serve((req) => {
      const url = new URL(req.url);
      if (url.pathname === "/search") seen = url.search; // not the favicon request that follows
      return new Response("<h1>q</h1>", { headers: { "content-type": "text/html" } });
    });
    const { status } = await shot(encodeURIComponent(`${origin}/search?q=docs&page=2`), "?quality=50");
    expect(status).toBe(200);
    expect(seen).toBe("?q=docs&page=2");
  });
});

describe("GET /{url} as GIF and MP4", () => {
  test("format=gif is an animated GIF that scrolls", async () => {
    const { status, headers, bytes } = await shot(`${page}/`, "?format=gif&viewport_width=640&viewport_height=400");
    expect(status).toBe(200);
    expect(headers.get("content-type")).toBe("image/gif");
    const meta = await sharp(bytes, { pages: -1 }).metadata();
    expect(meta).toMatchObject({ format: "gif", width: 640 });
    expect(meta.pages).toBeGreaterThan(1);
  });

  test("format=mp4 is H.264 video of the viewport's size", async () => {
    const { status, headers, bytes } = await shot(`${page}/`, "?format=mp4&viewport_width=640&viewport_height=400");
    expect(status).toBe(200);
    expect(headers.get("content-type")).toBe("video/mp4");
    const path = join(tempDir("docintel-shot-"), "capture.mp4");
    await Bun.write(path, bytes);
    const probe = Bun.spawnSync(["ffprobe", "-v", "error", "-print_format", "json", "-show_streams", path]);
    const stream = JSON.parse(probe.stdout.toString()).streams[0];
    expect(stream).toMatchObject({ codec_name: "h264", width: 640, height: 400, pix_fmt: "yuv420p" });
    expect(Number(stream.nb_frames)).toBeGreaterThan(10);
  });

  test("a selector with format=gif is a 400", async () => {
    const { status } = await shot(`${page}/`, "?format=gif&selector=%23card");
    expect(status).toBe(400);
  });
});

describe("failures", () => {
  test("a page that never finishes loading ends at the deadline with 504", async () => {
    const { origin } = serve(() => new Promise<Response>(() => {}));
    const { status, json } = await shot(`${origin}/never`);
    expect(status).toBe(504);
    expect(json()).toMatchObject({ success: false, error: "timeout" });
    const after = await shot(`${page}/`);
    expect(after.status).toBe(200);
  });

  test("bad options are 422 with the field named", async () => {
    const { status, json } = await shot(`${page}/`, "?format=bmp");
    expect(status).toBe(422);
    expect(json().detail[0].loc).toEqual(["query", "format"]);
  });

  test("without --allow-private-urls, loopback targets and sub-requests are refused", async () => {
    const strict = await startServer();
    try {
      const { key: strictKey } = await strict.key("pro");
      const refused = await shot(`${page}/`, "", strict.url, strictKey);
      expect(refused.status).toBe(400);
      expect(refused.json()).toMatchObject({ error: "url_refused" });
    } finally {
      await strict.stop();
    }
  });
});
