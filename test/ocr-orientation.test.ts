/**
 * A photo or scan stored turned (no EXIF rotation to honour) reads as noise; a poor reading asks
 * tesseract which way the text runs and reads the image again turned upright
 * (src/convert/ocrOrientation.ts). A real receipt (ICDAR 2019 SROIE, in test/fixtures/sroie) is
 * turned a quarter, a half and three quarters, as an image and as an image-only PDF; the real
 * tesseract decides. An upright receipt is read once, with no warning.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import sharp from "sharp";
import { convertImage } from "../src/convert/image";
import { parseOrientation } from "../src/tools/tesseract";
import { convertPdf } from "../src/convert/pdf";
import { POOR_READING, uprightTurn } from "../src/convert/ocrOrientation";
import { WorkerPool } from "../src/pool";
import { Tesseract } from "../src/tools/tesseract";
import type { OcrEngine, OcrResult } from "../src/tools/types";
import { convertContext } from "./helpers/convert";
import { imageOnlyPdf } from "./helpers/imageOnlyPdf";
import { api, form, startServer } from "./helpers/server";

const pool = new WorkerPool({ threads: 2, maxQueue: 64 });
const tesseract = new Tesseract({ concurrency: 2, timeoutMs: 60_000 });
afterAll(async () => {
  await pool.close();
  tesseract.close();
});

const RECEIPT = join(import.meta.dir, "fixtures/sroie/receipt_restaurant_gst.jpg");

/** counted: the engine, counting how often orientation is asked */
function counted(engine: Tesseract): OcrEngine & { asked: number } {
  const wrapper = {
    asked: 0,
    recognize: (image: Uint8Array, signal: AbortSignal, options?: Parameters<OcrEngine["recognize"]>[2]) => engine.recognize(image, signal, options),
    orientation: (image: Uint8Array, signal: AbortSignal) => {
      wrapper.asked++;
      return engine.orientation(image, signal);
    },
  };
  return wrapper;
}

async function turned(degrees: number): Promise<Uint8Array> {
  return new Uint8Array(await sharp(RECEIPT).rotate(degrees).jpeg({ quality: 90 }).toBuffer());
}

describe("orientation of stored images", () => {
  test("tesseract's orientation report is read; a report without a turn or a confidence is none", () => {
    expect(parseOrientation("Page number: 0\nOrientation in degrees: 270\nRotate: 90\nOrientation confidence: 8.13\nScript: Latin\n")).toEqual({ rotate: 90, confidence: 8.13 });
    expect(parseOrientation("Rotate: 45\nOrientation confidence: 3\n")).toBeNull();
    expect(parseOrientation("Too few characters. Skipping this page\n")).toBeNull();
  });

  test("an upright receipt reads well and is never asked about", async () => {
    const engine = counted(tesseract);
    const result = await convertImage({ bytes: await Bun.file(RECEIPT).bytes(), filename: "receipt.jpg", contentType: "image/jpeg", ext: "jpg" }, convertContext({ tools: { ocr: engine }, timeoutMs: 120_000 }));
    expect(result.markdown).toContain("Gerbang Alaf Restaurants");
    expect(result.warnings.join(" ")).not.toContain("turned");
    expect(engine.asked).toBe(0);
  }, 120_000);

  test("a receipt turned a quarter clockwise: tesseract's own layout analysis reads its sideways lines well, so it is not asked", async () => {
    const engine = counted(tesseract);
    const result = await convertImage({ bytes: await turned(90), filename: "receipt.jpg", contentType: "image/jpeg", ext: "jpg" }, convertContext({ tools: { ocr: engine }, timeoutMs: 120_000 }));
    expect(result.markdown).toContain("Gerbang Alaf Restaurants");
    expect(result.markdown).toContain("26.60");
    expect(engine.asked).toBe(0);
  }, 120_000);

  for (const degrees of [180, 270]) {
    test(`a receipt photographed turned ${degrees}° (it reads as noise): read upright, with a warning saying so`, async () => {
      const engine = counted(tesseract);
      const result = await convertImage({ bytes: await turned(degrees), filename: "receipt.jpg", contentType: "image/jpeg", ext: "jpg" }, convertContext({ tools: { ocr: engine }, timeoutMs: 120_000 }));
      expect(engine.asked).toBe(1);
      expect(result.markdown).toContain("Gerbang Alaf Restaurants");
      expect(result.markdown).toContain("26.60");
      expect(result.warnings).toContain(`the text ran ${degrees === 180 ? "upside down" : "sideways"}: it was read turned ${(360 - degrees) % 360}° clockwise`);
      expect(result.pages?.[0]?.ocrQuality ?? 0).toBeGreaterThanOrEqual(POOR_READING);
    }, 120_000);
  }

  test("an image-only PDF whose page image lies turned a quarter: the page is read upright, with a page warning", async () => {
    const pdf = await imageOnlyPdf([await turned(270)], 200);
    const result = await convertPdf({ bytes: pdf, filename: "receipt.pdf", contentType: "application/pdf", ext: "pdf" }, convertContext({ tools: { ocr: tesseract, pool }, timeoutMs: 180_000 }));
    expect(result.markdown).toContain("Gerbang Alaf Restaurants");
    expect(result.markdown).toContain("26.60");
    expect(result.warnings).toContain("page 1: the text ran sideways: it was read turned 90° clockwise");
  }, 180_000);

  test("a poor reading on an engine that cannot tell, or an unsure detector, stays as read", async () => {
    const poor: OcrResult = { text: "x", confidence: 0.2 };
    const signal = AbortSignal.timeout(5000);
    expect(await uprightTurn({ recognize: async () => poor }, poor, new Uint8Array(), signal)).toBeNull();
    expect(await uprightTurn({ recognize: async () => poor, orientation: async () => ({ rotate: 90, confidence: 1.2 }) }, poor, new Uint8Array(), signal)).toBeNull();
    expect(await uprightTurn({ recognize: async () => poor, orientation: async () => ({ rotate: 90, confidence: 6 }) }, poor, new Uint8Array(), signal)).toBe(90);
    expect(await uprightTurn({ recognize: async () => poor, orientation: async () => ({ rotate: 90, confidence: 6 }) }, { text: "fine", confidence: 0.8 }, new Uint8Array(), signal)).toBeNull();
  });
});

describe("orientation through the service (conversion processes ask the service's tesseract)", () => {
  test("POST /api/v1/markdown/convert of a receipt photographed upside down and of an image-only PDF lying turned: both read upright, each with its warning", async () => {
    const server = await startServer();
    try {
      const key = (await server.key()).key;
      const photo = await api(server, key, "POST", "/api/v1/markdown/convert", form({ file: new File([Buffer.from(await turned(180))], "receipt.jpg", { type: "image/jpeg" }) }));
      expect(photo.status).toBe(200);
      expect(photo.body.markdown).toContain("Gerbang Alaf Restaurants");
      expect(photo.body.warnings).toContain("the text ran upside down: it was read turned 180° clockwise");
      const pdf = await api(server, key, "POST", "/api/v1/markdown/convert", form({ file: new File([Buffer.from(await imageOnlyPdf([await turned(270)], 200))], "receipt.pdf", { type: "application/pdf" }) }));
      expect(pdf.status).toBe(200);
      expect(pdf.body.markdown).toContain("Gerbang Alaf Restaurants");
      expect(pdf.body.warnings).toContain("page 1: the text ran sideways: it was read turned 90° clockwise");
    } finally {
      await server.stop();
    }
  }, 240_000);
});
