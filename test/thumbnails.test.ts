/**
 * Thumbnails over HTTP against the real server and the real tools (sharp, heif, pdftoppm,
 * LibreOffice, ffmpeg, Chromium): every handler family fits its JPEG inside the box with the aspect
 * ratio kept and never enlarged; bad inputs get their 4xx; async jobs, signed URLs and the preview
 * cache behave as documented.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { deflateSync } from "node:zlib";
import sharp from "sharp";
import { form, startServer, tempDir, type TestServer } from "./helpers/server";
import { loopbackServers } from "./helpers/loopback";
import { UrlSigner, SIGNED_URL_TTL_SECONDS, resolveUrlSigningKey } from "../src/thumbnails/signing";
import { fileSettings } from "../src/store/files";

const FIXTURES = join(import.meta.dir, "fixtures");
const SECRET = "thumbnail-test-secret-0123456789";
const serve = loopbackServers();
let server: TestServer;
let key: string;
let scratch: string;

beforeAll(async () => {
  scratch = tempDir("docintel-thumbs-");
  server = await startServer({ args: ["--allow-private-urls", "--webhook-secret", SECRET] });
  ({ key } = await server.key("enterprise"));
});
afterAll(() => server.stop());

const auth = () => ({ "X-API-Key": key });

async function generate(file: Blob, name: string, fields: Record<string, string> = {}) {
  const r = await fetch(`${server.url}/api/v1/thumbnails/generate`, { method: "POST", headers: auth(), body: form({ file: new File([file], name), ...fields }) });
  return { status: r.status, body: (await r.json()) as any };
}

async function generateJson(body: Record<string, unknown>) {
  const r = await fetch(`${server.url}/api/v1/thumbnails/generate/json`, { method: "POST", headers: { ...auth(), "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: r.status, body: (await r.json()) as any };
}

/** jpegOf decodes a base64 answer and checks it is a JPEG of the stated size. */
async function jpegOf(body: any) {
  const bytes = Buffer.from(body.image_base64, "base64");
  const meta = await sharp(bytes).metadata();
  expect(meta.format).toBe("jpeg");
  expect({ width: meta.width, height: meta.height }).toEqual({ width: body.width, height: body.height });
  return meta;
}

/** expectFits: the thumbnail fits the box, touches it on one side, and keeps the source's aspect ratio. */
function expectFits(body: any, box: { width: number; height: number }, aspect?: number) {
  expect(body.width).toBeLessThanOrEqual(box.width);
  expect(body.height).toBeLessThanOrEqual(box.height);
  expect(body.width === box.width || body.height === box.height).toBe(true);
  if (aspect) expect(Math.abs(body.width / body.height - aspect)).toBeLessThan(0.02);
}

const solid = (width: number, height: number, alpha = false) =>
  sharp({ create: { width, height, channels: alpha ? 4 : 3, background: alpha ? { r: 40, g: 90, b: 160, alpha: 0.5 } : "#285aa0" } });

/** bmpOf writes a 24-bit BMP by hand (sharp cannot write BMP). */
function bmpOf(width: number, height: number): Uint8Array {
  const row = Math.ceil((width * 3) / 4) * 4;
  const size = 54 + row * height;
  const b = Buffer.alloc(size);
  b.write("BM", 0);
  b.writeUInt32LE(size, 2);
  b.writeUInt32LE(54, 10);
  b.writeUInt32LE(40, 14);
  b.writeInt32LE(width, 18);
  b.writeInt32LE(height, 22);
  b.writeUInt16LE(1, 26);
  b.writeUInt16LE(24, 28);
  b.writeUInt32LE(row * height, 34);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) b.set([200, 100, 50], 54 + y * row + x * 3);
  return b;
}

/** pngHeaderOf is a PNG that claims width x height pixels but holds almost no data: a decompression bomb's header. */
function pngHeaderOf(width: number, height: number): Uint8Array {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(Bun.hash.crc32(body), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", ihdr), chunk("IDAT", deflateSync(Buffer.alloc(1000))), chunk("IEND", Buffer.alloc(0))]);
}

async function run(cmd: string[]) {
  const proc = Bun.spawn(cmd, { stdout: "ignore", stderr: "pipe" });
  const code = await proc.exited;
  if (code !== 0) throw new Error(`${cmd[0]} failed: ${await new Response(proc.stderr).text()}`);
}

const BOX = { width: "600", height: "400", response_type: "base64" };

describe("image handler", () => {
  const cases: Array<[string, () => Promise<Uint8Array>]> = [
    ["photo.jpg", async () => solid(1200, 900).jpeg().toBuffer()],
    ["alpha.png", async () => solid(1200, 900, true).png().toBuffer()],
    ["photo.webp", async () => solid(1200, 900).webp().toBuffer()],
    ["photo.gif", async () => solid(1200, 900).gif().toBuffer()],
    ["scan.tiff", async () => solid(1200, 900).tiff().toBuffer()],
    ["photo.avif", async () => solid(1200, 900).avif().toBuffer()],
    ["paint.bmp", async () => bmpOf(1200, 900)],
    ["logo.svg", async () => new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="900"><rect width="1200" height="900" fill="#3a7"/><circle cx="600" cy="450" r="300" fill="#fff"/></svg>')],
    [
      "photo.heic",
      async () => {
        const png = join(scratch, "heic-source.png");
        const heic = join(scratch, "photo.heic");
        await solid(1200, 900).png().toFile(png);
        await run(["heif-enc", "-q", "50", "-o", heic, png]);
        return readFileSync(heic);
      },
    ],
  ];
  for (const [name, make] of cases) {
    test(`${name}: a JPEG inside 600x400 with the 4:3 aspect ratio kept`, async () => {
      const { status, body } = await generate(new Blob([(await make()) as Uint8Array<ArrayBuffer>]), name, BOX);
      expect(status).toBe(200);
      expect(body).toMatchObject({ success: true, status: "completed", handler: "image", content_type: "image/jpeg", credits_used: 1, filename: name });
      expectFits(body, { width: 600, height: 400 }, 4 / 3);
      await jpegOf(body);
    });
  }

  test("a small image is never enlarged", async () => {
    const { status, body } = await generate(new Blob([await solid(200, 100).png().toBuffer()]), "small.png", BOX);
    expect(status).toBe(200);
    expect({ width: body.width, height: body.height }).toEqual({ width: 200, height: 100 });
  });

  test("the first frame of an animated GIF and quality change the JPEG", async () => {
    const frames = await sharp({ create: { width: 300, height: 200 * 3, channels: 3, background: "#c03030" } }).gif().toBuffer();
    const animated = await sharp(frames, { pages: -1 }).gif().toBuffer();
    const low = await generate(new Blob([animated]), "anim.gif", { ...BOX, quality: "10" });
    const high = await generate(new Blob([animated]), "anim.gif", { ...BOX, quality: "100" });
    expect(low.status).toBe(200);
    expect(Buffer.from(low.body.image_base64, "base64").length).toBeLessThan(Buffer.from(high.body.image_base64, "base64").length);
  });
});

describe("document, media, web and text handlers", () => {
  const fixture = (name: string) => new Blob([readFileSync(join(FIXTURES, name))]);

  test("PDF: the first page, portrait, inside the box", async () => {
    const { status, body } = await generate(fixture("test.pdf"), "test.pdf", BOX);
    expect(status).toBe(200);
    expect(body.handler).toBe("pdf");
    expectFits(body, { width: 600, height: 400 });
    expect(body.height).toBeGreaterThan(body.width);
    await jpegOf(body);
  });

  for (const [name, handler] of [["test.docx", "office"], ["test.xlsx", "spreadsheet"], ["test.pptx", "presentation"]] as const) {
    test(`${name}: LibreOffice to PDF, first page (${handler})`, async () => {
      const { status, body } = await generate(fixture(name), name, BOX);
      expect(status).toBe(200);
      expect(body.handler).toBe(handler);
      expectFits(body, { width: 600, height: 400 });
      await jpegOf(body);
    });
  }

  test("video: a 16:9 frame from 10 % in", async () => {
    const path = join(scratch, "clip.mp4");
    await run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=640x360:rate=10:duration=3", "-pix_fmt", "yuv420p", path]);
    const { status, body } = await generate(new Blob([readFileSync(path)]), "clip.mp4", BOX);
    expect(status).toBe(200);
    expect(body.handler).toBe("video");
    expectFits(body, { width: 600, height: 400 }, 16 / 9);
    await jpegOf(body);
  });

  test("audio: a waveform the size of the box", async () => {
    const { status, body } = await generate(fixture("test.mp3"), "test.mp3", { ...BOX, width: "500", height: "120" });
    expect(status).toBe(200);
    expect(body).toMatchObject({ handler: "audio", width: 500, height: 120 });
    await jpegOf(body);
  });

  test("markdown and code: the first lines, rendered", async () => {
    for (const [name, text] of [["notes.md", "# Plan\n\n- ship thumbnails\n- ship screenshots\n"], ["main.py", "def main():\n    print('hello')\n"]]) {
      const { status, body } = await generate(new Blob([text!]), name!, BOX);
      expect(status).toBe(200);
      expect(body.handler).toBe("text");
      expectFits(body, { width: 600, height: 400 });
      const stats = await sharp(Buffer.from(body.image_base64, "base64")).stats();
      expect(stats.channels[0]!.min).toBeLessThan(100); // dark text on the white page
    }
  });

  test("an uploaded HTML file is drawn by Chromium", async () => {
    const { status, body } = await generate(new Blob(["<html><body style='margin:0;background:#d02020'><h1>Hello</h1></body></html>"]), "page.html", BOX);
    expect(status).toBe(200);
    expect(body.handler).toBe("web");
    expectFits(body, { width: 600, height: 400 }, 1280 / 800);
    const { dominant } = await sharp(Buffer.from(body.image_base64, "base64")).stats();
    expect(dominant.r).toBeGreaterThan(150);
  });

  test("generate/json: a web page URL becomes a 1280x800 screenshot, url_headers reach the page", async () => {
    let seen = "";
    const { origin } = serve((req) => {
      seen = req.headers.get("authorization") ?? "";
      return new Response("<html><body style='background:#1060c0'><h1>Dashboard</h1></body></html>", { headers: { "content-type": "text/html" } });
    });
    const { status, body } = await generateJson({ url: `${origin}/dash`, url_headers: { Authorization: "Bearer t0k" }, width: 320, height: 320, response_type: "base64" });
    expect(status).toBe(200);
    expect(body).toMatchObject({ handler: "web", width: 320, height: 200 });
    expect(seen).toBe("Bearer t0k");
  });

  test("generate/json: a PDF behind a URL is drawn like an upload", async () => {
    const { origin } = serve(() => new Response(readFileSync(join(FIXTURES, "test.pdf")), { headers: { "content-type": "application/pdf" } }));
    const { status, body } = await generateJson({ url: `${origin}/files/report.pdf`, response_type: "base64" });
    expect(status).toBe(200);
    expect(body.handler).toBe("pdf");
  });
});

describe("bad input", () => {
  test("an unsupported type gets 415", async () => {
    const { status, body } = await generate(new Blob([readFileSync(join(FIXTURES, "random.bin"))]), "random.bin");
    expect(status).toBe(415);
    expect(body).toMatchObject({ success: false, error: "unsupported_media_type" });
  });

  test("a file over 50 MB gets 413", async () => {
    const { status, body } = await generate(new Blob([new Uint8Array(51_000_000)]), "big.txt");
    expect(status).toBe(413);
    expect(body.success).toBe(false);
  });

  test("a 50000x50000 PNG is refused by the pixel cap before decoding", async () => {
    const bomb = pngHeaderOf(50_000, 50_000);
    expect(bomb.length).toBeLessThan(2_000);
    const { status, body } = await generate(new Blob([bomb as Uint8Array<ArrayBuffer>]), "bomb.png");
    expect(status).toBe(413);
    expect(body).toMatchObject({ error: "document_too_large" });
    expect(body.detail).toContain("50000x50000");
  });

  test("a truncated JPEG and garbage named .png get 400, and the server keeps serving", async () => {
    const jpeg = await solid(800, 600).jpeg().toBuffer();
    const truncated = await generate(new Blob([jpeg.subarray(0, Math.floor(jpeg.length / 3))]), "cut.jpg");
    expect(truncated.status).toBe(400);
    expect(truncated.body.error).toBe("unreadable_document");
    const garbage = await generate(new Blob([crypto.getRandomValues(new Uint8Array(4096))]), "noise.png");
    expect(garbage.status).toBe(400);
    const fine = await generate(new Blob([jpeg]), "ok.jpg");
    expect(fine.status).toBe(200);
  });

  test("out-of-range options get 422", async () => {
    const { status, body } = await generate(new Blob(["x"]), "a.txt", { quality: "0" });
    expect(status).toBe(422);
    expect(body.detail[0].loc).toEqual(["body", "quality"]);
  });

  test("webhook_url with sync=true is a 400", async () => {
    const { status } = await generate(new Blob(["x"]), "a.txt", { webhook_url: "http://127.0.0.1:9/hook" });
    expect(status).toBe(400);
  });
});

describe("jobs", () => {
  /** gatedServer answers with an image only once `open()` is called. */
  function gatedServer() {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const { origin } = serve(async () => {
      await gate;
      return new Response(await solid(900, 600).png().toBuffer(), { headers: { "content-type": "image/png" } });
    });
    return { url: `${origin}/slow.png`, open };
  }

  async function poll(base: string, id: string, status: string) {
    for (let i = 0; i < 150; i++) {
      const body = (await (await fetch(`${base}/api/v1/thumbnails/jobs/${id}`, { headers: auth() })).json()) as any;
      if (body.status === status) return body;
      await Bun.sleep(200);
    }
    throw new Error(`job ${id} never reached ${status}`);
  }

  test("sync=false with webhook_url: the ended job's record arrives signed, with a delivery id", async () => {
    const received: Array<{ raw: string; signature: string | null; id: string | null }> = [];
    const hook = serve(async (request) => {
      received.push({ raw: await request.text(), signature: request.headers.get("x-svc-signature"), id: request.headers.get("x-svc-delivery-id") });
      return new Response("ok");
    });
    const png = await solid(900, 600).png().toBuffer();
    const accepted = await generate(new Blob([png]), "wide.png", { sync: "false", width: "300", webhook_url: `${hook.origin}/hook` });
    expect(accepted.status).toBe(202);
    for (let i = 0; i < 100 && received.length === 0; i++) await Bun.sleep(100);
    expect(received).toHaveLength(1);
    const { raw, signature, id } = received[0]!;
    const own = ((await (await fetch(`${server.url}/api/v1/webhooks/secret`, { headers: auth() })).json()) as any).secret;
    expect(signature).toBe("sha256=" + createHmac("sha256", own).update(raw, "utf8").digest("hex"));
    expect(id).toMatch(/^whd_/);
    expect(JSON.parse(raw)).toMatchObject({ job_id: accepted.body.job_id, status: "completed", handler: "image", width: 300, height: 200, credits_used: 1 });
  });

  test("sync=false: 202, 409 until completed, then the image; DELETE removes it", async () => {
    const gated = gatedServer();
    const accepted = await generateJson({ url: gated.url, sync: false, webhook_url: "http://127.0.0.1:9/hook" });
    expect(accepted.status).toBe(202);
    const id = accepted.body.job_id;
    expect(id).toMatch(/^thumb_[0-9a-f]+$/);
    expect(accepted.body).toMatchObject({ success: true, status: "pending", poll_url: `/api/v1/thumbnails/jobs/${id}`, image_url: `/api/v1/thumbnails/jobs/${id}/image` });

    const early = await fetch(`${server.url}/api/v1/thumbnails/jobs/${id}/image`, { headers: auth() });
    expect(early.status).toBe(409);
    expect(((await early.json()) as any).error).toBe("job_not_completed");

    gated.open();
    const done = await poll(server.url, id, "completed");
    const signedUrl: string = done.url;
    expect(signedUrl).toContain(`/api/v1/thumbnails/files/${id}?`);
    expect(done).toMatchObject({ handler: "image", width: 600, height: 400, credits_used: 1 });

    const image = await fetch(`${server.url}/api/v1/thumbnails/jobs/${id}/image`, { headers: auth() });
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/jpeg");
    expect(image.headers.get("cache-control")).toBe("private, max-age=3600");
    expect((await sharp(new Uint8Array(await image.arrayBuffer())).metadata()).width).toBe(600);

    const deleted = await fetch(`${server.url}/api/v1/thumbnails/jobs/${id}`, { method: "DELETE", headers: auth() });
    expect(await deleted.json()).toMatchObject({ success: true, job_id: id, deleted: true });
    expect((await fetch(`${server.url}/api/v1/thumbnails/jobs/${id}`, { headers: auth() })).status).toBe(404);
    expect((await fetch(server.url + signedUrl)).status).toBe(404);
  });

  test("a failed job reports its error and its image read is 409", async () => {
    const noise = readFileSync(join(FIXTURES, "random.bin"));
    const { origin } = serve(() => new Response(noise, { headers: { "content-type": "application/octet-stream" } }));
    const accepted = await generateJson({ url: `${origin}/blob.bin`, sync: false });
    const failed = await poll(server.url, accepted.body.job_id, "failed");
    expect(failed.error.error).toBe("unsupported_media_type");
    expect(failed.credits_used).toBe(0);
    expect((await fetch(`${server.url}/api/v1/thumbnails/jobs/${accepted.body.job_id}/image`, { headers: auth() })).status).toBe(409);
  });

  test("another key's job is 404, and an unknown id is 404", async () => {
    const { status, body } = await generate(new Blob([await solid(100, 100).png().toBuffer()]), "a.png");
    expect(status).toBe(200);
    const other = await server.key("pro");
    expect((await fetch(`${server.url}/api/v1/thumbnails/jobs/${body.job_id}`, { headers: { "X-API-Key": other.key } })).status).toBe(404);
    expect((await fetch(`${server.url}/api/v1/thumbnails/jobs/thumb_nothing`, { headers: auth() })).status).toBe(404);
  });

  test("a job in flight when the server stops is resumed after the restart", async () => {
    const dataDir = tempDir("docintel-thumbs-restart-");
    const first = await startServer({ dataDir, args: ["--allow-private-urls", "--webhook-secret", SECRET] });
    const { key: ownKey } = await first.key("pro");
    let answered = false;
    const hold = new Promise<void>(() => {}); // the first server's fetch never gets an answer
    let calls = 0;
    const { origin } = serve(async () => {
      calls++;
      if (calls === 1) await hold;
      answered = true;
      return new Response(await solid(800, 800).png().toBuffer(), { headers: { "content-type": "image/png" } });
    });
    const accept = await fetch(`${first.url}/api/v1/thumbnails/generate/json`, {
      method: "POST",
      headers: { "X-API-Key": ownKey, "content-type": "application/json" },
      body: JSON.stringify({ url: `${origin}/late.png`, sync: false }),
    });
    const id = ((await accept.json()) as any).job_id;
    while (calls === 0) await Bun.sleep(20);
    await first.stop();

    const second = await startServer({ dataDir, args: ["--allow-private-urls", "--webhook-secret", SECRET] });
    try {
      let body: any;
      // the second server takes the job over once the first one's lease is gone; on a loaded
      // machine that has taken 40 s, so wait by the clock rather than by a count of polls, once a
      // second: polling faster would spend the pro key's 120 requests a minute and end in a 429
      const deadline = Date.now() + 90_000;
      while (Date.now() < deadline) {
        body = await (await fetch(`${second.url}/api/v1/thumbnails/jobs/${id}`, { headers: { "X-API-Key": ownKey } })).json();
        if (body.status === "completed") break;
        await Bun.sleep(1_000);
      }
      expect(body).toMatchObject({ status: "completed", width: 400, height: 400 });
      expect(answered).toBe(true);
    } finally {
      await second.stop();
    }
  }, 150_000);
});

describe("signed URLs", () => {
  test("the url works without a key; an altered or expired one is 403", async () => {
    const { status, body } = await generate(new Blob([await solid(640, 480).jpeg().toBuffer()]), "a.jpg");
    expect(status).toBe(200);
    expect(body.image_base64).toBeUndefined();
    // without --public-url the URL is relative to the service
    expect(body.url).toStartWith(`/api/v1/thumbnails/files/${body.job_id}?`);
    const ok = await fetch(server.url + body.url);
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toBe("image/jpeg");
    expect(ok.headers.get("cache-control")).toBe("private, max-age=3600");
    expect((await sharp(new Uint8Array(await ok.arrayBuffer())).metadata()).width).toBe(body.width);
    expect(new Date(body.expires_at).getTime()).toBeGreaterThan(Date.now());

    const url = new URL(body.url, server.url);
    const altered = new URL(url);
    altered.searchParams.set("expires", String(Number(url.searchParams.get("expires")) + 3600));
    const tampered = await fetch(altered);
    expect(tampered.status).toBe(403);
    expect(((await tampered.json()) as any).error).toBe("forbidden");

    const signer = new UrlSigner(await resolveUrlSigningKey(fileSettings(server.dataDir)));
    const old = signer.signedUrl(server.url, body.job_id, Date.now() - 2 * SIGNED_URL_TTL_SECONDS * 1000);
    const expired = await fetch(old.url);
    expect(expired.status).toBe(403);
    expect(((await expired.json()) as any).detail).toContain("expired");
    const fresh = signer.signedUrl(server.url, body.job_id);
    expect((await fetch(fresh.url)).status).toBe(200);
  });
});

describe("preview and supported types", () => {
  test("preview answers a JPEG, serves the second call from the cache, and nocache draws again", async () => {
    let fetches = 0;
    const png = await solid(1000, 500).png().toBuffer();
    const { origin } = serve(() => {
      fetches++;
      return new Response(png, { headers: { "content-type": "image/png" } });
    });
    const url = `${server.url}/api/v1/thumbnails/preview?url=${encodeURIComponent(`${origin}/p.png`)}&width=300&height=300`;
    const first = await fetch(url, { headers: auth() });
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toBe("image/jpeg");
    expect(first.headers.get("x-cache")).toBe("miss");
    expect(first.headers.get("cache-control")).toBe("private, max-age=3600");
    expect(await sharp(new Uint8Array(await first.arrayBuffer())).metadata()).toMatchObject({ format: "jpeg", width: 300, height: 150 });
    const second = await fetch(url, { headers: auth() });
    expect(second.headers.get("x-cache")).toBe("hit");
    expect(fetches).toBe(1);
    const bypass = await fetch(`${url}&nocache=true`, { headers: auth() });
    expect(bypass.headers.get("x-cache")).toBe("miss");
    expect(fetches).toBe(2);
  });

  test("supported-types lists every handler with its extensions", async () => {
    const body = (await (await fetch(`${server.url}/api/v1/thumbnails/supported-types`, { headers: auth() })).json()) as any;
    const byHandler = Object.fromEntries(body.handlers.map((h: any) => [h.handler, h.extensions]));
    expect(Object.keys(byHandler).sort()).toEqual(["audio", "image", "office", "pdf", "presentation", "spreadsheet", "text", "video", "web"]);
    expect(byHandler.image).toEqual(expect.arrayContaining(["jpg", "png", "webp", "gif", "tiff", "bmp", "svg", "avif", "heic"]));
    expect(byHandler.office).toEqual(expect.arrayContaining(["docx", "doc", "odt", "rtf", "pages"]));
    expect(byHandler.presentation).toEqual(expect.arrayContaining(["pptx", "key"]));
    expect(byHandler.spreadsheet).toEqual(expect.arrayContaining(["xlsx", "numbers", "csv"]));
    expect(byHandler.video).toContain("mp4");
    expect(byHandler.audio).toContain("mp3");
    expect(byHandler.text).toEqual(expect.arrayContaining(["md", "txt", "py", "json"]));
  });
});
