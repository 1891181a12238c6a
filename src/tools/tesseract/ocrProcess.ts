/**
 * The warm OCR process: libtesseract loaded once (bun:ffi), then one image after another from stdin.
 * Started by WarmOcr (warm.ts) under the same sandbox as the tesseract program; it reads nothing but
 * the raw grey pixels it is sent (no file decoding), so what it runs is tesseract's layout analysis and
 * recognition alone. A tesseract program run costs ~0.25 s of CPU before it reads a pixel (loading the
 * language model and the universal ambiguity table), as much as recognising a receipt; this process
 * pays it once. Its TSV is the program's, byte for byte (same library, same parameters).
 *
 * This file imports nothing of the project: under bwrap only it (and the Bun binary) is mounted.
 *
 * Wire (both ways little-endian u32 length + bytes):
 *   start:    -> {"ready":true} | {"error":"..."}
 *   request:  <- JSON {lang, psm, dpi, width, height}, then a frame of width*height grey pixels
 *   answer:   -> JSON {"tsv":"..."} | {"error":"...", "language":true}
 * EOF on stdin ends the process.
 */
import { CString, dlopen, FFIType, ptr, type Pointer } from "bun:ffi";

/** OcrRequest is the header of one image. */
export interface OcrRequest {
  lang: string;
  /** psm: tesseract's page segmentation mode (3 auto, 6 one block) */
  psm: number;
  /** dpi: the image's resolution; 0 = tesseract estimates it */
  dpi: number;
  width: number;
  height: number;
}

/** LIBRARY: Debian's libtesseract (package libtesseract5, a dependency of tesseract-ocr) */
const LIBRARY = "libtesseract.so.5";

function openLibrary() {
  return dlopen(LIBRARY, {
    TessBaseAPICreate: { args: [], returns: FFIType.ptr },
    TessBaseAPIInit3: { args: [FFIType.ptr, FFIType.ptr, FFIType.cstring], returns: FFIType.i32 },
    TessBaseAPISetPageSegMode: { args: [FFIType.ptr, FFIType.i32], returns: FFIType.void },
    TessBaseAPISetImage: { args: [FFIType.ptr, FFIType.ptr, FFIType.i32, FFIType.i32, FFIType.i32, FFIType.i32], returns: FFIType.void },
    TessBaseAPISetSourceResolution: { args: [FFIType.ptr, FFIType.i32], returns: FFIType.void },
    TessBaseAPIGetTsvText: { args: [FFIType.ptr, FFIType.i32], returns: FFIType.ptr },
    TessBaseAPIClear: { args: [FFIType.ptr], returns: FFIType.void },
    TessDeleteText: { args: [FFIType.ptr], returns: FFIType.void },
  }).symbols;
}

/**
 * FrameReader takes the bytes of a pipe as they arrive and hands back the whole length-prefixed
 * frames they complete. Chunks are kept as they came and joined once, when a frame is complete (a
 * page's pixels arrive in many 64 KB chunks: joining at each chunk would copy them over and over).
 * The frames it returns are views, never written to again. Both ends of the warm OCR pipe use it.
 */
export class FrameReader {
  private chunks: Uint8Array[] = [];
  private size = 0;

  push(chunk: Uint8Array): Uint8Array[] {
    this.chunks.push(chunk);
    this.size += chunk.length;
    const frames: Uint8Array[] = [];
    while (this.size >= 4) {
      let joined = this.chunks[0]!.length >= 4 ? this.chunks[0]! : this.join();
      const length = new DataView(joined.buffer, joined.byteOffset, 4).getUint32(0, true);
      if (this.size < 4 + length) break;
      joined = this.join();
      frames.push(joined.subarray(4, 4 + length));
      const rest = joined.subarray(4 + length);
      this.chunks = rest.length ? [rest] : [];
      this.size = rest.length;
    }
    return frames;
  }

  /** join makes the chunks one (a copy only when there are several) */
  private join(): Uint8Array {
    if (this.chunks.length !== 1) {
      const joined = new Uint8Array(this.size);
      let at = 0;
      for (const chunk of this.chunks) {
        joined.set(chunk, at);
        at += chunk.length;
      }
      this.chunks = [joined];
    }
    return this.chunks[0]!;
  }
}

/**
 * lengthPrefix: the 4 bytes (little-endian u32) that stand before a frame of `length` bytes on the pipe.
 * Written apart from the body, so that a page's pixels are never copied to make a frame.
 */
export function lengthPrefix(length: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, length, true);
  return out;
}

/** runOcrProcess serves requests on stdin until it closes; the exit code is 0 then. */
export async function runOcrProcess(): Promise<number> {
  const writer = Bun.stdout.writer();
  const send = (message: object) => {
    const body = new TextEncoder().encode(JSON.stringify(message));
    writer.write(lengthPrefix(body.length));
    writer.write(body);
    void writer.flush();
  };
  let lib: ReturnType<typeof openLibrary>;
  try {
    lib = openLibrary();
  } catch (error) {
    send({ error: `${LIBRARY} could not be loaded: ${error instanceof Error ? error.message : String(error)}` });
    return 1;
  }
  /** apis: one initialised engine per language (init is the cost this process exists to pay once) */
  const apis = new Map<string, Pointer | null>();
  const apiOf = (lang: string): Pointer | null => {
    if (!apis.has(lang)) {
      const api = lib.TessBaseAPICreate() as Pointer;
      apis.set(lang, lib.TessBaseAPIInit3(api, null, Buffer.from(`${lang}\0`)) === 0 ? api : null);
    }
    return apis.get(lang)!;
  };
  if (!apiOf("eng")) {
    send({ error: "tesseract could not load its 'eng' language data" });
    return 1;
  }
  send({ ready: true });

  const frames = new FrameReader();
  let header: OcrRequest | null = null;
  const reader = Bun.stdin.stream().getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    for (const body of frames.push(read.value)) {
      if (!header) {
        header = JSON.parse(new TextDecoder().decode(body)) as OcrRequest;
        continue;
      }
      const request = header;
      header = null;
      const api = apiOf(request.lang);
      if (!api) {
        send({ error: `tesseract could not load the language '${request.lang}'`, language: true });
        continue;
      }
      if (body.length !== request.width * request.height) {
        send({ error: `expected ${request.width * request.height} pixels, got ${body.length}` });
        continue;
      }
      lib.TessBaseAPISetPageSegMode(api, request.psm);
      lib.TessBaseAPISetImage(api, ptr(body), request.width, request.height, 1, request.width);
      if (request.dpi > 0) lib.TessBaseAPISetSourceResolution(api, request.dpi);
      const text = lib.TessBaseAPIGetTsvText(api, 0);
      const tsv = text ? new CString(text).toString() : "";
      if (text) lib.TessDeleteText(text);
      lib.TessBaseAPIClear(api);
      send(text ? { tsv } : { error: "tesseract recognised nothing (no TSV)" });
    }
  }
  await writer.flush();
  return 0;
}

if (import.meta.main) process.exit(await runOcrProcess());
