/**
 * src/tools/tesseract: the warm OCR processes (libtesseract loaded once) against the tesseract
 * program, on a text card drawn here: the same text and confidence, the deadline and abort kill the
 * process and the next image gets a new one, an uninstalled language is the client's error and
 * leaves the process serving, images that are not a PGM go to the program. On a server: a warm
 * process is held to --convert-memory-mb (413 naming the flag), one killed with SIGKILL mid-image
 * costs its request nothing (the program reads the image again), and there are never more of them
 * than --ocr-concurrency.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import sharp from "sharp";
import { toPgm } from "../src/convert/ocrPrep";
import { AppError } from "../src/errors";
import { processTree } from "../src/tools/memory";
import { Tesseract } from "../src/tools/tesseract";
import { FrameReader } from "../src/tools/tesseract/ocrProcess";
import { parsePgm } from "../src/tools/tesseract/warm";
import { api, form, startServer, type TestServer } from "./helpers/server";

const CARD = `<svg xmlns="http://www.w3.org/2000/svg" width="700" height="260">
  <rect width="100%" height="100%" fill="#ffffff"/>
  <text x="30" y="90" font-family="DejaVu Sans" font-size="40" fill="#111111">Invoice 4711 Harbour Supplies</text>
  <text x="30" y="170" font-family="DejaVu Sans" font-size="40" fill="#111111">Total 98.50 EUR paid</text>
</svg>`;

/** card: the text card as an 8-bit grey PGM (what prepareScan hands to OCR) and as a PNG */
async function card(): Promise<{ pgm: Uint8Array; png: Uint8Array }> {
  const raw = await sharp(Buffer.from(CARD)).flatten({ background: "#ffffff" }).toColourspace("b-w").raw({ depth: "uchar" }).toBuffer({ resolveWithObject: true });
  const pgm = toPgm({ data: new Uint8Array(raw.data.buffer, raw.data.byteOffset, raw.data.length), width: raw.info.width, height: raw.info.height });
  const png = new Uint8Array(await sharp(Buffer.from(CARD)).png().toBuffer());
  return { pgm, png };
}

const never = () => new AbortController().signal;

describe("warm OCR processes", () => {
  test("read what the tesseract program reads, in both segmentations and with a resolution", async () => {
    const { pgm } = await card();
    const warm = new Tesseract({ concurrency: 1, timeoutMs: 60_000 });
    const program = new Tesseract({ concurrency: 1, timeoutMs: 60_000, warm: false });
    try {
      for (const options of [{ segmentation: "block" as const }, { segmentation: "auto" as const, dpi: 150 }]) {
        const a = await warm.recognize(pgm, never(), options);
        const b = await program.recognize(pgm, never(), options);
        expect(a.text).toContain("Invoice 4711");
        expect(a.text).toContain("98.50");
        expect(a).toEqual(b);
      }
    } finally {
      warm.close();
    }
  }, 120_000);

  test("several images at once on two slots, and again on the same processes", async () => {
    const { pgm } = await card();
    const ocr = new Tesseract({ concurrency: 2, timeoutMs: 60_000 });
    try {
      for (let round = 0; round < 2; round++) {
        const results = await Promise.all([1, 2, 3].map(() => ocr.recognize(pgm, never(), { segmentation: "block" })));
        for (const r of results) expect(r).toEqual(results[0]!);
        expect(results[0]!.text).toContain("Harbour");
      }
    } finally {
      ocr.close();
    }
  }, 120_000);

  test("the deadline ends the image with a timeout; the next image gets a new process", async () => {
    const { pgm } = await card();
    const short = new Tesseract({ concurrency: 1, timeoutMs: 1 });
    try {
      const error = await short.recognize(pgm, never()).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe("timeout");
    } finally {
      short.close();
    }
    const ocr = new Tesseract({ concurrency: 1, timeoutMs: 60_000 });
    const controller = new AbortController();
    try {
      await ocr.recognize(pgm, never()); // started and warm
      const aborted = ocr.recognize(pgm, controller.signal);
      controller.abort(new Error("client went away"));
      expect(((await aborted.catch((e: unknown) => e)) as Error).message).toBe("client went away");
      const after = await ocr.recognize(pgm, never(), { segmentation: "block" });
      expect(after.text).toContain("Invoice 4711");
    } finally {
      ocr.close();
    }
  }, 120_000);

  test("an image needing more than memoryBytes: 413 document_too_large naming --convert-memory-mb, from a warm process (PGM) and from the program (PNG); then the card reads", async () => {
    const { pgm } = await card();
    const grid = new Uint8Array(await (await dotGrid(4000)).arrayBuffer());
    const gridPgm = toPgm({ data: dotGridPixels(4000), width: 4000, height: 4000 });
    const ocr = new Tesseract({ concurrency: 1, timeoutMs: 120_000, memoryBytes: 160 * 1024 * 1024 });
    try {
      for (const image of [gridPgm, grid]) {
        const error = await ocr.recognize(image, never()).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(AppError);
        expect((error as AppError).code).toBe("document_too_large");
        expect((error as AppError).detail).toContain("more than 160 MiB of memory, the server's --convert-memory-mb");
      }
      expect((await ocr.recognize(pgm, never(), { segmentation: "block" })).text).toContain("Invoice 4711");
    } finally {
      ocr.close();
    }
  }, 180_000);

  test("a language that is not installed is a bad request, and the process keeps serving", async () => {
    const { pgm } = await card();
    const ocr = new Tesseract({ concurrency: 1, timeoutMs: 60_000 });
    try {
      const error = await ocr.recognize(pgm, never(), { lang: "zzz" }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe("bad_request");
      expect((error as AppError).detail).toContain("tesseract-ocr-zzz");
      expect((await ocr.recognize(pgm, never(), { segmentation: "block" })).text).toContain("Total 98.50");
    } finally {
      ocr.close();
    }
  }, 120_000);

  test("an image that is not an 8-bit PGM goes to the program", async () => {
    const { pgm, png } = await card();
    expect(parsePgm(png)).toBeNull();
    expect(parsePgm(pgm)).toMatchObject({ width: 700, height: 260 });
    expect(parsePgm(pgm.subarray(0, pgm.length - 1))).toBeNull(); // truncated
    const ocr = new Tesseract({ concurrency: 1, timeoutMs: 60_000 });
    try {
      const fromPng = await ocr.recognize(png, never(), { segmentation: "block" });
      expect(fromPng.text).toContain("Invoice 4711");
    } finally {
      ocr.close();
    }
  }, 120_000);
});

describe("FrameReader (the warm OCR pipe's framing)", () => {
  /** framed: length-prefixed messages, as both ends of the pipe write them */
  const framed = (...bodies: Uint8Array[]) => {
    const out = new Uint8Array(bodies.reduce((n, b) => n + 4 + b.length, 0));
    let at = 0;
    for (const body of bodies) {
      new DataView(out.buffer).setUint32(at, body.length, true);
      out.set(body, at + 4);
      at += 4 + body.length;
    }
    return out;
  };
  const bodies = [new TextEncoder().encode('{"lang":"eng"}'), Uint8Array.from({ length: 300 }, (_, i) => i % 251), new Uint8Array(0), new TextEncoder().encode("ok")];
  const stream = framed(...bodies);

  test("frames come out whole and in order however the bytes are cut into chunks", () => {
    for (const size of [1, 2, 3, 5, 7, 64, stream.length]) {
      const reader = new FrameReader();
      const out: number[][] = [];
      for (let at = 0; at < stream.length; at += size) for (const frame of reader.push(stream.slice(at, at + size))) out.push([...frame]);
      expect(out).toEqual(bodies.map((b) => [...b]));
    }
  });

  test("a frame is not handed back before its last byte, and the bytes after it wait for theirs", () => {
    const reader = new FrameReader();
    expect(reader.push(stream.slice(0, 4 + bodies[0]!.length - 1))).toEqual([]);
    const next = reader.push(stream.slice(4 + bodies[0]!.length - 1, 4 + bodies[0]!.length + 6));
    expect(next.map((f) => new TextDecoder().decode(f))).toEqual(['{"lang":"eng"}']);
  });
});

/** dotGridPixels: `side` x `side` grey pixels covered with 2 x 2 px dots every 5 px: no text, but a blob per dot for tesseract (~290 MiB for 4000 px) */
function dotGridPixels(side: number): Uint8Array {
  const pixels = new Uint8Array(side * side).fill(255);
  for (let y = 0; y < side; y += 5) for (let x = 0; x < side; x += 5) for (const at of [y * side + x, y * side + x + 1, (y + 1) * side + x, (y + 1) * side + x + 1]) pixels[at] = 0;
  return pixels;
}

/** dotGrid: the dot grid as a PNG */
async function dotGrid(side: number): Promise<File> {
  const png = await sharp(dotGridPixels(side), { raw: { width: side, height: side, channels: 1 } }).png().toBuffer();
  return new File([png], `dot_grid_${side}px.png`, { type: "image/png" });
}

/** cardPage: the text card repeated `across` x `down` times, as a PNG (several seconds of OCR for 2 x 4) */
async function cardPage(across: number, down: number): Promise<File> {
  const tile = await sharp(Buffer.from(CARD)).png().toBuffer();
  const composite = Array.from({ length: across * down }, (_, i) => ({ input: tile, left: (i % across) * 700, top: Math.floor(i / across) * 260 }));
  const png = await sharp({ create: { width: 700 * across, height: 260 * down, channels: 3, background: "#ffffff" } }).composite(composite).png().toBuffer();
  return new File([png], `invoice_card_${across}x${down}.png`, { type: "image/png" });
}

/** ocrProcesses: the server's warm OCR processes (the Bun processes running ocrProcess.ts, below bwrap when it confines them) */
function ocrProcesses(server: TestServer): number[] {
  return processTree(server.proc.pid).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "latin1").includes("ocrProcess") && processTree(pid).length === 1;
    } catch {
      return false;
    }
  });
}

/** cpuTicks: user + system CPU time of a process, in clock ticks */
function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "latin1").split(") ")[1]!.split(" ");
  return Number(fields[11]) + Number(fields[12]);
}

function convert(server: TestServer, key: string, file: File) {
  return api(server, key, "POST", "/api/v1/markdown/convert", form({ file }));
}

describe("warm OCR processes on a server", () => {
  let server: TestServer;
  let key: string;

  beforeAll(async () => {
    // 256 MiB: the conversion process of the dot grid stays near 200 MiB, its OCR passes 290 MiB
    server = await startServer({ args: ["--convert-memory-mb", "256", "--ocr-concurrency", "1", "--convert-processes", "1"] });
    key = (await server.key()).key;
  });
  afterAll(async () => {
    await server.stop();
  });

  test("an image whose OCR needs more than --convert-memory-mb: 413 document_too_large naming the flag, and the next image is read", async () => {
    const tooBig = await convert(server, key, await dotGrid(4000));
    expect(tooBig.status).toBe(413);
    expect(tooBig.body).toMatchObject({ success: false, error: "document_too_large" });
    expect(tooBig.body.detail).toContain("OCR of a 4000 x 4000 px image");
    expect(tooBig.body.detail).toContain("--convert-memory-mb");
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    const next = await convert(server, key, await cardPage(1, 1));
    expect(next.status).toBe(200);
    expect(next.body.markdown).toContain("Invoice 4711");
    expect(ocrProcesses(server).length).toBe(1);
  }, 180_000);

  test("a warm OCR process killed with SIGKILL mid-image: the program reads the image instead (200), a new process serves the next one, never more than --ocr-concurrency", async () => {
    const warmUp = await convert(server, key, await cardPage(1, 1));
    expect(warmUp.status).toBe(200);
    const [victim, ...others] = ocrProcesses(server);
    expect(victim).toBeDefined();
    expect(others).toEqual([]);
    const idleTicks = cpuTicks(victim!);
    // twelve cards in two columns: eight took only 0.16 s of CPU on a fast 2026 core, so the mark below (0.06 s) falls well inside the reading
    const page = await cardPage(2, 6);
    let answered = false;
    const reading = convert(server, key, page).finally(() => (answered = true));
    // mid-image: the process has spent 0.06 s of CPU on this request's pixels and not answered yet
    const deadline = Date.now() + 60_000;
    while (cpuTicks(victim!) < idleTicks + 6 && Date.now() < deadline) await Bun.sleep(5);
    expect(answered).toBe(false);
    process.kill(victim!, "SIGKILL");
    const read = await reading;
    expect(read.status).toBe(200);
    expect(read.body.markdown).toContain("Harbour Supplies");
    const next = await convert(server, key, await cardPage(1, 1));
    expect(next.status).toBe(200);
    expect(next.body.markdown).toContain("Total 98.50");
    const now = ocrProcesses(server);
    expect(now.length).toBe(1);
    expect(now[0]).not.toBe(victim);
  }, 180_000);
});
