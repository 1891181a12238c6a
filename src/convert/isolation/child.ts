/**
 * runConversionChild is the main loop of a conversion process (see index.ts): it reads one
 * ConvertRequest at a time from stdin, runs convertDocument with tools that call back to the
 * service, and writes the result to stdout. The process holds no secret and no store; it ends at
 * the end of stdin (the service closed the pipe or died). The service kills it at the deadline or
 * when it uses more memory than allowed, so nothing here watches the clock.
 */
import { convertDocument } from "../index";
import { checkMarkdownSize } from "../markdown";
import type { ConvertContext, ConvertTools, ConvertWorkers } from "../types";
import { detectIsolation } from "../../tools/sandbox";
import { decodeFrame, encodeFrame, errorFromWire, errorToWire, FrameReader, type ConvertRequest, type ToChildMessage, type ToolMethod, type ToServiceMessage } from "./protocol";

export async function runConversionChild(): Promise<number> {
  // stdout carries the frames: a library that logs must not write into them
  console.log = console.info = console.debug = console.error;
  const out = Bun.stdout.writer();
  const send = async (message: ToServiceMessage, input?: Uint8Array) => {
    for (const part of encodeFrame(message, input)) out.write(part);
    await out.flush();
  };
  const reader = new FrameReader(Bun.stdin.stream().getReader());
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: unknown) => void }>();
  let current: ConvertRequest | null = null;
  let nextCall = 1;
  let isolationDetected = false;

  const callTool = (method: ToolMethod, args: unknown[]): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const call = nextCall++;
      pending.set(call, { resolve, reject });
      send({ type: "toolCall", call, method, args }, current?.input.bytes).catch(reject);
    });

  await send({ type: "ready" });
  for (let frame = await reader.read(); frame; frame = await reader.read()) {
    const message = decodeFrame(frame, current?.input.bytes) as ToChildMessage;
    if (message.type === "toolReply") {
      const waiter = pending.get(message.call);
      pending.delete(message.call);
      if (message.ok) waiter?.resolve(message.value);
      else waiter?.reject(errorFromWire(message.error));
      continue;
    }
    if (!current && !isolationDetected) {
      detectIsolation(message.bwrapPath); // as the service did at start, for the programs this process runs itself
      isolationDetected = true;
    }
    current = message;
    void convertOne(message, callTool).then(async (done) => {
      await send(done);
      current = null;
      pending.clear();
    });
  }
  return 0;
}

/** convertOne runs one conversion and reports its result or error. */
async function convertOne(request: ConvertRequest, callTool: (method: ToolMethod, args: unknown[]) => Promise<unknown>): Promise<ToServiceMessage> {
  const ctx: ConvertContext = {
    // the service kills this process at the deadline, so the converters' own checks never fire here
    signal: new AbortController().signal,
    tools: remoteTools(callTool, request.hasTranscriber),
    limits: request.limits,
    page: request.page,
    keepPageTexts: request.keepPageTexts,
  };
  try {
    const conversion = await convertDocument(request.input, ctx);
    checkMarkdownSize(conversion.markdown.length, request.limits, `'${request.input.filename}'`);
    return { type: "done", ok: true, conversion };
  } catch (error) {
    return { type: "done", ok: false, error: errorToWire(error) };
  }
}

/** remoteTools are the converters' tools as calls to the service, which runs the real ones. */
function remoteTools(call: (method: ToolMethod, args: unknown[]) => Promise<any>, hasTranscriber: boolean): ConvertTools {
  const unused = async () => {};
  return {
    pool: { run: (name: string, args: unknown) => call("pool.run", [name, args]) } as unknown as ConvertWorkers,
    office: { convert: (bytes, fromExt, toExt) => call("office.convert", [bytes, fromExt, toExt]), close: unused },
    ocr: { recognize: (image, _signal, options) => call("ocr.recognize", [image, options]), orientation: (image) => call("ocr.orientation", [image]) },
    media: {
      probe: (bytes) => call("media.probe", [bytes]),
      audioForTranscription: (bytes) => call("media.audioForTranscription", [bytes]),
    },
    browser: { render: (url, { signal: _signal, ...options }) => call("browser.render", [url, options]), close: unused },
    transcriber: hasTranscriber ? { transcribe: (audio) => call("transcriber.transcribe", [audio]) } : undefined,
  };
}

if (import.meta.main) process.exit(await runConversionChild());
