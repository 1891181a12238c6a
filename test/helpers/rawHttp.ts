/**
 * rawChunkedPost: an HTTP/1.1 POST with `Transfer-Encoding: chunked` over a plain TCP socket, whose
 * body the test sends piece by piece (and may never finish), while the server's answer is read as
 * soon as it comes. fetch cannot do this: it either buffers the body or hides an early answer.
 */
import { connect, type Socket } from "node:net";

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface RawChunkedPost {
  /** send writes one chunk; resolves once the socket took it (false when the connection is gone) */
  send(bytes: Uint8Array): Promise<boolean>;
  /** end sends the last chunk */
  end(): void;
  /** destroy drops the connection mid-body */
  destroy(): void;
  /** answered: the server's answer, once complete (null when the connection closed without one) */
  answered(): RawAnswer | null;
  answer: Promise<RawAnswer | null>;
  closed(): boolean;
}

/** parseAnswer reads a complete HTTP/1.1 response from `raw`, or null while it is incomplete. */
function parseAnswer(raw: Buffer): RawAnswer | null {
  const headEnd = raw.indexOf("\r\n\r\n");
  if (headEnd < 0) return null;
  const [statusLine, ...lines] = raw.subarray(0, headEnd).toString("latin1").split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const rest = raw.subarray(headEnd + 4);
  let body: Buffer;
  if (headers["content-length"] !== undefined) {
    const length = Number(headers["content-length"]);
    if (rest.length < length) return null;
    body = rest.subarray(0, length);
  } else if ((headers["transfer-encoding"] ?? "").includes("chunked")) {
    const parts: Buffer[] = [];
    let at = 0;
    for (;;) {
      const lineEnd = rest.indexOf("\r\n", at);
      if (lineEnd < 0) return null;
      const size = Number.parseInt(rest.subarray(at, lineEnd).toString("latin1"), 16);
      if (size === 0) break;
      if (rest.length < lineEnd + 2 + size + 2) return null;
      parts.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
      at = lineEnd + 2 + size + 2;
    }
    body = Buffer.concat(parts);
  } else {
    body = rest;
  }
  return { status: Number(statusLine!.split(" ")[1]), headers, body: body.toString("utf8") };
}

export function rawChunkedPost(port: number, path: string, headers: Record<string, string>): RawChunkedPost {
  const socket: Socket = connect(port, "127.0.0.1");
  let received = Buffer.alloc(0);
  let answer: RawAnswer | null = null;
  let isClosed = false;
  let settle: (a: RawAnswer | null) => void = () => {};
  const answerPromise = new Promise<RawAnswer | null>((resolve) => (settle = resolve));
  socket.on("data", (data: Buffer) => {
    received = Buffer.concat([received, data]);
    answer ??= parseAnswer(received);
    if (answer) settle(answer);
  });
  socket.on("error", () => {});
  socket.on("close", () => {
    isClosed = true;
    settle(answer);
  });
  const head = [`POST ${path} HTTP/1.1`, "Host: 127.0.0.1", "Transfer-Encoding: chunked", ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`), "", ""].join("\r\n");
  socket.write(head);
  return {
    send(bytes) {
      if (isClosed || socket.destroyed) return Promise.resolve(false);
      return new Promise((resolve) => {
        socket.write(`${bytes.byteLength.toString(16)}\r\n`);
        socket.write(bytes);
        const flushed = socket.write("\r\n", (error) => resolve(!error));
        if (!flushed) socket.once("drain", () => resolve(!socket.destroyed));
      });
    },
    end() {
      if (!socket.destroyed) socket.write("0\r\n\r\n");
    },
    destroy() {
      socket.destroy();
    },
    answered: () => answer,
    answer: answerPromise,
    closed: () => isClosed,
  };
}
