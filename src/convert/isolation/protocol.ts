/**
 * The wire between the service and a conversion process (see index.ts): length-prefixed frames over
 * the child's stdin and stdout. Each frame is one JSON message whose byte arrays and long strings
 * travel beside it as raw attachments, so a 50 MB document crosses the pipe as 50 MB, not as JSON
 * numbers (Bun's own IPC channel moved about 14 MB/s when measured here, the frames over 20 MB/s).
 *
 *   frame = u32 jsonBytes | u32 attachments | u32 bytes of each attachment | JSON | attachments...
 *
 * In the JSON a byte array is `{"\u0000b": i}`, a long string `{"\u0000s": i}` (its UTF-8 is
 * attachment i) and the document being converted, when a tool call passes it back, `{"\u0000in": 0}`:
 * the service still holds those bytes, so a PDF's pages are extracted without sending it again.
 */
import { AppError, type ErrorCode } from "../../errors";
import type { Conversion, ConvertInput, ConvertLimits, PageOptions } from "../types";
import type { Format } from "../formats";

/** ConvertRequest asks the child to convert one document. */
export interface ConvertRequest {
  type: "convert";
  input: ConvertInput;
  limits: ConvertLimits;
  page: PageOptions;
  keepPageTexts: boolean;
  /** hasTranscriber: the service has a speech-to-text provider the child may call */
  hasTranscriber: boolean;
  /** bwrapPath: the service's --bwrap-path, for the programs the child runs itself (pdftoppm, heif-convert) */
  bwrapPath: string;
}

/** ToolReply answers one ToolCall. */
export type ToolReply = { type: "toolReply"; call: number; ok: true; value: unknown } | { type: "toolReply"; call: number; ok: false; error: WireError };

/** ToolCall asks the service to run one external tool (see TOOL_METHODS) for the conversion. */
export interface ToolCall {
  type: "toolCall";
  call: number;
  method: ToolMethod;
  args: unknown[];
}

/** ConvertDone ends a conversion. */
export type ConvertDone = { type: "done"; ok: true; conversion: Conversion & { format: Format } } | { type: "done"; ok: false; error: WireError };

export type ToServiceMessage = { type: "ready" } | ToolCall | ConvertDone;
export type ToChildMessage = ConvertRequest | ToolReply;

/** TOOL_METHODS are the tools a converter may call; they run in the service, next to their supervisors. */
export const TOOL_METHODS = ["pool.run", "office.convert", "ocr.recognize", "ocr.orientation", "media.probe", "media.audioForTranscription", "transcriber.transcribe", "browser.render"] as const;
export type ToolMethod = (typeof TOOL_METHODS)[number];

/** WireError is an error on the wire: an AppError keeps its code and detail, anything else its message. */
export type WireError = { code: ErrorCode; detail: string } | { code?: undefined; name: string; message: string };

const BYTES = "\u0000b";
const TEXT = "\u0000s";
const INPUT = "\u0000in";
/** LONG_STRING: strings from this many UTF-16 units on travel as UTF-8 attachments */
const LONG_STRING = 16_384;

/** encodeFrame turns a message into one frame; `input` (when given) is sent as a reference wherever it appears. */
export function encodeFrame(message: unknown, input?: Uint8Array): Uint8Array[] {
  const attachments: Uint8Array[] = [];
  const encoder = new TextEncoder();
  const json = JSON.stringify(message, function replace(this: unknown, key: string, value: unknown) {
    // JSON.stringify hands a Uint8Array's own value (not its toJSON) to the replacer: read it from the holder
    const raw = (this as Record<string, unknown>)[key];
    if (raw instanceof Uint8Array) {
      if (input !== undefined && raw === input) return { [INPUT]: 0 };
      attachments.push(raw);
      return { [BYTES]: attachments.length - 1 };
    }
    if (typeof raw === "string" && raw.length >= LONG_STRING) {
      attachments.push(encoder.encode(raw));
      return { [TEXT]: attachments.length - 1 };
    }
    return value;
  });
  const head = new Uint8Array(8 + 4 * attachments.length);
  const view = new DataView(head.buffer);
  const body = encoder.encode(json);
  view.setUint32(0, body.length, true);
  view.setUint32(4, attachments.length, true);
  attachments.forEach((a, i) => view.setUint32(8 + 4 * i, a.length, true));
  return [head, body, ...attachments];
}

/** decodeFrame is encodeFrame's inverse; `input` replaces the references to the document. */
export function decodeFrame(frame: Uint8Array, input?: Uint8Array): unknown {
  const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  const jsonBytes = view.getUint32(0, true);
  const count = view.getUint32(4, true);
  let at = 8 + 4 * count;
  const json = new TextDecoder().decode(frame.subarray(at, at + jsonBytes));
  at += jsonBytes;
  const attachments: Uint8Array[] = [];
  for (let i = 0; i < count; i++) {
    const length = view.getUint32(8 + 4 * i, true);
    attachments.push(frame.subarray(at, at + length));
    at += length;
  }
  const decoder = new TextDecoder();
  return JSON.parse(json, (_key, value: unknown) => {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
    const keys = Object.keys(value);
    if (keys.length !== 1) return value;
    const index = (value as Record<string, unknown>)[keys[0]!];
    if (typeof index !== "number") return value;
    if (keys[0] === BYTES) return attachments[index];
    if (keys[0] === TEXT) return decoder.decode(attachments[index]);
    if (keys[0] === INPUT && input) return input;
    return value;
  });
}

/** frameLength is the size of a whole frame given its first 8 bytes and the attachment table, or -1 when more bytes are needed. */
function frameLength(head: Uint8Array): number {
  if (head.length < 8) return -1;
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const count = view.getUint32(4, true);
  if (head.length < 8 + 4 * count) return -1;
  let total = 8 + 4 * count + view.getUint32(0, true);
  for (let i = 0; i < count; i++) total += view.getUint32(8 + 4 * i, true);
  return total;
}

/** FrameReader splits a byte stream into frames, copying each byte once. */
export class FrameReader {
  private chunks: Uint8Array[] = [];
  private buffered = 0;

  constructor(private readonly reader: ReadableStreamDefaultReader<Uint8Array>) {}

  /** read returns the next whole frame, or null at the end of the stream. */
  async read(): Promise<Uint8Array | null> {
    for (;;) {
      const length = this.buffered >= 8 ? frameLength(this.peek(Math.min(this.buffered, this.tableBytes()))) : -1;
      if (length >= 0 && this.buffered >= length) return this.take(length);
      const { value, done } = await this.reader.read();
      if (done) return null;
      this.chunks.push(value);
      this.buffered += value.length;
    }
  }

  /** tableBytes: bytes of the frame's head and attachment table (needs the first 8 bytes buffered) */
  private tableBytes(): number {
    const first = this.peek(8);
    return 8 + 4 * new DataView(first.buffer, first.byteOffset, 8).getUint32(4, true);
  }

  private peek(n: number): Uint8Array {
    if (this.chunks[0]!.length >= n) return this.chunks[0]!.subarray(0, n);
    const joined = this.take(this.buffered);
    this.chunks = [joined];
    this.buffered = joined.length;
    return joined.subarray(0, n);
  }

  private take(n: number): Uint8Array {
    const out = new Uint8Array(n);
    let at = 0;
    while (at < n) {
      const chunk = this.chunks[0]!;
      const k = Math.min(chunk.length, n - at);
      out.set(chunk.subarray(0, k), at);
      at += k;
      if (k === chunk.length) this.chunks.shift();
      else this.chunks[0] = chunk.subarray(k);
    }
    this.buffered -= n;
    return out;
  }
}

/** errorToWire keeps what the service needs of an error: an AppError's code and detail, else its message. */
export function errorToWire(error: unknown): WireError {
  if (error instanceof AppError) return { code: error.code, detail: error.detail };
  if (error instanceof Error) return { name: error.name, message: error.stack ?? error.message };
  return { name: "Error", message: String(error) };
}

/** errorFromWire rebuilds an error sent by errorToWire. */
export function errorFromWire(wire: WireError): Error {
  if (wire.code !== undefined) return new AppError(wire.code, wire.detail);
  const error = new Error(wire.message);
  error.name = wire.name;
  return error;
}
