/**
 * src/tools/tesseract: the warm OCR processes (libtesseract loaded once) against the tesseract
 * program, on a text card drawn here: the same text and confidence, the deadline and abort kill the
 * process and the next image gets a new one, an uninstalled language is the client's error and
 * leaves the process serving, images that are not a PGM go to the program.
 */
import { describe, expect, test } from "bun:test";
import sharp from "sharp";
import { toPgm } from "../src/convert/ocrPrep";
import { AppError } from "../src/errors";
import { Tesseract } from "../src/tools/tesseract";
import { FrameReader } from "../src/tools/tesseract/ocrProcess";
import { parsePgm } from "../src/tools/tesseract/warm";

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
