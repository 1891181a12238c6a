/**
 * Images through the real tesseract: the corpus photos, the same text image in every supported
 * format (made here with sharp, heif-enc and a hand-written BMP), the pixel limit checked before
 * decoding, corrupt input and an image without text.
 */
import { failureOf } from "./helpers/loopback";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deflateSync } from "node:zlib";
import sharp from "sharp";
import { convertImage } from "../src/convert/image";
import type { ConvertInput } from "../src/convert/types";
import { Tesseract } from "../src/tools/tesseract";
import { convertContext } from "./helpers/convert";

const FIXTURES = join(import.meta.dir, "fixtures");
const ocr = new Tesseract({ concurrency: 2, timeoutMs: 60000 });

const context = () => convertContext({ tools: { ocr } });

function input(bytes: Uint8Array, filename: string): ConvertInput {
  const ext = filename.split(".").pop()!.toLowerCase();
  return { bytes, filename, contentType: `image/${ext}`, ext };
}

/** TEXT_SVG is a white card with two lines of dark text: the image every format variant carries. */
function textSvg(line1: string, line2: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="220">
  <title>Delivery note</title>
  <rect width="100%" height="100%" fill="#ffffff"/>
  <text x="30" y="90" font-family="DejaVu Sans" font-size="44" fill="#111111">${line1}</text>
  <text x="30" y="170" font-family="DejaVu Sans" font-size="44" fill="#111111">${line2}</text>
</svg>`;
}

const SVG = textSvg("Invoice 4711", "Total 98.50 EUR");

/** bmp24 writes an uncompressed bottom-up 24-bit BMP (BITMAPINFOHEADER) from raw RGB pixels. */
function bmp24(rgb: Uint8Array, width: number, height: number): Uint8Array {
  const rowSize = Math.ceil((width * 3) / 4) * 4;
  const out = new Uint8Array(54 + rowSize * height);
  const view = new DataView(out.buffer);
  out.set([0x42, 0x4d]);
  view.setUint32(2, out.length, true);
  view.setUint32(10, 54, true);
  view.setUint32(14, 40, true);
  view.setInt32(18, width, true);
  view.setInt32(22, height, true);
  view.setUint16(26, 1, true);
  view.setUint16(28, 24, true);
  view.setInt32(38, 3780, true); // 96 dpi in pixels per metre
  view.setInt32(42, 3780, true);
  for (let y = 0; y < height; y++) {
    const row = 54 + (height - 1 - y) * rowSize;
    for (let x = 0; x < width; x++) {
      const p = (y * width + x) * 3;
      out[row + x * 3] = rgb[p + 2]!;
      out[row + x * 3 + 1] = rgb[p + 1]!;
      out[row + x * 3 + 2] = rgb[p]!;
    }
  }
  return out;
}

/** bmp8 writes a top-down 8-bit BMP with a 256-level grey palette from raw grey pixels. */
function bmp8(grey: Uint8Array, width: number, height: number): Uint8Array {
  const rowSize = Math.ceil(width / 4) * 4;
  const offset = 54 + 256 * 4;
  const out = new Uint8Array(offset + rowSize * height);
  const view = new DataView(out.buffer);
  out.set([0x42, 0x4d]);
  view.setUint32(2, out.length, true);
  view.setUint32(10, offset, true);
  view.setUint32(14, 40, true);
  view.setInt32(18, width, true);
  view.setInt32(22, -height, true); // negative height: rows stored top-down
  view.setUint16(26, 1, true);
  view.setUint16(28, 8, true);
  view.setUint32(46, 256, true);
  for (let i = 0; i < 256; i++) out.set([i, i, i, 0], 54 + i * 4);
  for (let y = 0; y < height; y++) out.set(grey.subarray(y * width, (y + 1) * width), offset + y * rowSize);
  return out;
}

/** pngChunk frames one PNG chunk: length, type, data, CRC. */
function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const body = new Uint8Array([...new TextEncoder().encode(type), ...data]);
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(body, 4);
  view.setUint32(8 + data.length, Bun.hash.crc32(body));
  return out;
}

/** pngDeclaring is a PNG whose header declares a size but whose pixel data is a few bytes. */
function pngDeclaring(width: number, height: number): Uint8Array {
  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const idat = new Uint8Array(deflateSync(new Uint8Array(64)));
  return new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...pngChunk("IHDR", ihdr), ...pngChunk("IDAT", idat), ...pngChunk("IEND", new Uint8Array())]);
}

let dir = "";
const variants: Record<string, Uint8Array> = {};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "docintel-image-test-"));
  const svg = Buffer.from(SVG);
  variants.png = new Uint8Array(await sharp(svg).png().toBuffer());
  variants.webp = new Uint8Array(await sharp(svg).webp({ quality: 90 }).toBuffer());
  variants.avif = new Uint8Array(await sharp(svg).avif({ quality: 80 }).toBuffer());
  variants.svg = new Uint8Array(svg);
  // two frames (GIF): the text card first, a second card after it; the TIFF is the card alone
  const second = await sharp(Buffer.from(textSvg("Second page", "not read"))).png().toBuffer();
  const frames = [await sharp(svg).png().toBuffer(), second];
  variants.gif = new Uint8Array(await sharp(frames, { join: { animated: true } }).gif().toBuffer());
  variants.tiff = new Uint8Array(await sharp(frames[0]!).tiff({ compression: "lzw" }).toBuffer());
  const rgb = await sharp(svg).flatten({ background: "#ffffff" }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  variants.bmp = bmp24(new Uint8Array(rgb.data), rgb.info.width, rgb.info.height);
  const grey = await sharp(svg).flatten({ background: "#ffffff" }).greyscale().raw().toBuffer({ resolveWithObject: true });
  variants.bmp8 = bmp8(new Uint8Array(grey.data), grey.info.width, grey.info.height);
  // HEIC with the real encoder from libheif-examples
  await writeFile(join(dir, "card.png"), variants.png);
  const enc = Bun.spawnSync(["heif-enc", "-q", "90", "-o", join(dir, "card.heic"), join(dir, "card.png")]);
  if (enc.exitCode !== 0) throw new Error(`heif-enc failed: ${enc.stderr.toString()}`);
  variants.heic = new Uint8Array(await readFile(join(dir, "card.heic")));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("corpus images", () => {
  test("test_llm.jpg: OCR finds the code string", async () => {
    const bytes = new Uint8Array(await Bun.file(join(FIXTURES, "test_llm.jpg")).arrayBuffer());
    const result = await convertImage(input(bytes, "test_llm.jpg"), context());
    expect(result.method).toBe("ocr");
    expect(result.markdown).toStartWith("# test_llm.jpg\n\n");
    expect(result.markdown).toContain("5bda1dd6");
    expect(result.markdown).toContain("- **Dimensions:** 1692 x 948 px");
    expect(result.pages![0]!.method).toBe("ocr");
    expect(result.pages![0]!.ocrQuality!).toBeGreaterThan(0.5);
    expect(result.pages![0]!.chars).toBeGreaterThan(50);
  });

  test("test.jpg: metadata with EXIF date and XMP title, plus OCR text", async () => {
    const bytes = new Uint8Array(await Bun.file(join(FIXTURES, "test.jpg")).arrayBuffer());
    const result = await convertImage(input(bytes, "test.jpg"), context());
    const meta = result.markdown.slice(result.markdown.indexOf("## Image metadata"));
    expect(meta).toContain("- **Format:** JPEG");
    expect(meta).toContain("- **Dimensions:** 1615 x 1967 px");
    expect(meta).toContain("- **DPI:** 240");
    expect(meta).toContain("- **Date taken:** 2024-03-14 22:10:00");
    expect(meta).toContain("- **Title:** AutoGen: Enabling Next-Gen LLM Applications via Multi-Agent Conversation");
    expect(meta).toContain("- **Author:** AutoGen Authors");
    expect(result.title).toBe("AutoGen: Enabling Next-Gen LLM Applications via Multi-Agent Conversation");
    expect(result.markdown).toContain("Multi-Agent Conversation");
    expect(result.markdown.indexOf("Abstract")).toBeLessThan(result.markdown.indexOf("## Image metadata"));
  });
});

describe("the same text image in every format", () => {
  const cases: Array<[string, string, string]> = [
    ["png", "card.png", "PNG"],
    ["webp", "card.webp", "WEBP"],
    ["avif", "card.avif", "AVIF"],
    ["gif", "card.gif", "GIF"],
    ["tiff", "card.tiff", "TIFF"],
    ["bmp", "card.bmp", "BMP"],
    ["bmp8", "card-8bit.bmp", "BMP"],
    ["heic", "card.heic", "HEIC"],
    ["svg", "card.svg", "SVG"],
  ];
  for (const [key, filename, format] of cases) {
    test(`${filename}: OCR reads the text`, async () => {
      const result = await convertImage(input(variants[key]!, filename), context());
      expect(result.markdown).toStartWith(`# ${filename}\n\n`);
      expect(result.markdown).toContain("Invoice 4711");
      expect(result.markdown).toContain("98.50");
      expect(result.markdown).toContain(`- **Format:** ${format}`);
      expect(result.markdown).toContain("- **Dimensions:** 640 x 220 px");
      expect(result.pages).toEqual([{ page: 1, method: "ocr", ocrQuality: expect.any(Number), chars: expect.any(Number) }]);
      expect(result.pages![0]!.ocrQuality!).toBeGreaterThan(0.6);
    });
  }

  test("multi-frame GIF: the first frame read, the frame count noted (a multi-page TIFF is read page by page: image-tiff-pages.test.ts)", async () => {
    const result = await convertImage(input(variants.gif!, "card.gif"), context());
    expect(result.markdown).toContain("- **Pages/frames:** 2 (the first was read)");
    expect(result.markdown).not.toContain("Second page");
    expect(result.warnings).toContain("only the first of 2 frames was read");
    expect(result.totalPages).toBe(2);
  });

  test("SVG: text elements are read as text too", async () => {
    const result = await convertImage(input(variants.svg!, "card.svg"), context());
    expect(result.method).toBe("text+ocr");
    expect(result.markdown).toContain("## Text in the SVG\n\nDelivery note\n\nInvoice 4711\n\nTotal 98.50 EUR");
  });
});

describe("limits and bad input", () => {
  test("a PNG header declaring 30000 x 30000 is refused before decoding", async () => {
    const { code, detail } = await failureOf(convertImage(input(pngDeclaring(30000, 30000), "huge.png"), context()));
    expect(code).toBe("document_too_large");
    expect(detail).toContain("900000000 pixels");
    expect(detail).toContain("100000000");
  });

  test("a BMP header declaring 20000 x 20000 is refused before decoding", async () => {
    const bmp = bmp24(new Uint8Array(3), 1, 1);
    new DataView(bmp.buffer).setInt32(18, 20000, true);
    new DataView(bmp.buffer).setInt32(22, 20000, true);
    expect((await failureOf(convertImage(input(bmp, "huge.bmp"), context()))).code).toBe("document_too_large");
  });

  test("corrupt and truncated images are unreadable_document", async () => {
    const garbage = new Uint8Array(4096).map((_, i) => (i * 31 + 7) % 251);
    expect((await failureOf(convertImage(input(garbage, "garbage.png"), context()))).code).toBe("unreadable_document");
    const truncated = variants.png!.subarray(0, 120);
    expect((await failureOf(convertImage(input(truncated, "truncated.png"), context()))).code).toBe("unreadable_document");
    const truncatedBmp = variants.bmp!.subarray(0, 2000);
    expect((await failureOf(convertImage(input(truncatedBmp, "truncated.bmp"), context()))).code).toBe("unreadable_document");
    const badHeic = variants.heic!.slice(0, variants.heic!.length / 2);
    expect((await failureOf(convertImage(input(badHeic, "truncated.heic"), context()))).code).toBe("unreadable_document");
  });

  test("an image without text keeps its metadata and warns", async () => {
    const blank = new Uint8Array(await sharp({ create: { width: 400, height: 300, channels: 3, background: "#ffffff" } }).png().toBuffer());
    const result = await convertImage(input(blank, "blank.png"), context());
    expect(result.warnings).toContain("no text found in the image");
    expect(result.pages).toEqual([{ page: 1, method: "empty", chars: 0 }]);
    expect(result.markdown).toContain("## Image metadata");
    expect(result.markdown).toContain("- **Dimensions:** 400 x 300 px");
  });
});
