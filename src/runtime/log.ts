/**
 * Log writes one JSON line per request to stdout (request id, key id, route, status, ms) and
 * unexpected causes to stderr. It never receives keys or document content.
 */
export interface RequestLogLine {
  request_id: string;
  key_id?: string;
  method: string;
  route: string;
  status: number;
  ms: number;
}

export interface Logger {
  request(line: RequestLogLine): void;
  error(requestId: string, what: string, cause: unknown): void;
  info(message: string, fields?: Record<string, unknown>): void;
}

/**
 * bufferedStdout collects lines and writes them once per event-loop turn (or at 64 KB), so a busy
 * server makes one write for many requests; what is still buffered is written at exit.
 */
function bufferedStdout(): (line: string) => void {
  let buffer: string[] = [];
  let size = 0;
  const flush = () => {
    if (buffer.length === 0) return;
    const text = buffer.join("\n") + "\n";
    buffer = [];
    size = 0;
    process.stdout.write(text);
  };
  process.on("exit", flush);
  return (line) => {
    if (buffer.length === 0) setImmediate(flush);
    buffer.push(line);
    size += line.length;
    if (size > 64 * 1024) flush();
  };
}

/**
 * isoNow is the current time in ISO 8601, formatted once per millisecond: a busy server logs
 * many lines per millisecond.
 */
let lastMs = -1;
let lastIso = "";
function isoNow(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}

export function createLogger(level: "info" | "error", write: (line: string) => void = bufferedStdout()): Logger {
  return {
    request(line) {
      if (level === "error" && line.status < 500) return;
      const { request_id, key_id, method, route, status, ms } = line;
      write(JSON.stringify({ ts: isoNow(), level: status >= 500 ? "error" : "info", msg: "request", request_id, key_id, method, route, status, ms }));
    },
    error(requestId, what, cause) {
      const err = cause instanceof Error ? { name: cause.name, message: cause.message, stack: cause.stack, cause: cause.cause ? String(cause.cause) : undefined } : { message: String(cause) };
      process.stderr.write(JSON.stringify({ ts: isoNow(), level: "error", msg: what, request_id: requestId, error: err }) + "\n");
    },
    info(message, fields = {}) {
      write(JSON.stringify({ ts: isoNow(), level: "info", msg: message, ...fields }));
    },
  };
}
