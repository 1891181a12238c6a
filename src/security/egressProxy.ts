/**
 * EgressProxy is Chromium's only way out: a small HTTP forward proxy inside the service, bound to
 * loopback on a random port, that applies the address policy of the plain guarded fetch
 * (assertFetchableUrl) to every connection and connects to exactly the address it checked.
 * Chromium is started with --proxy-server pointing here and --proxy-bypass-list=<-loopback>, so
 * every request, WebSocket, prefetch, prerender and TURN-over-TCP attempt of every page (URL or
 * uploaded HTML, any frame or worker) arrives here, whatever the in-page request guard saw.
 *
 *   client (Chromium) -> peer is a process of our own user? -> read request head
 *     CONNECT host:port          (https, wss, ws, TURN/TCP) -> check -> dial checked address -> 200 -> tunnel
 *     GET http://host:port/path  (plain http)               -> check -> dial checked address -> origin-form
 *                                                              request, Connection: close -> relay answer
 *     refused -> 403 with the reason; anything else -> 400 / 405
 *
 * DNS pinning: the name is resolved once, every answer is classified, and the socket is opened to
 * that same address; Chromium never resolves names itself (it hands every name to the proxy). A
 * hostile DNS server that answers "public" to the page's guard and "loopback" a moment later gets
 * the second answer refused here, and no answer is ever looked up twice for one connection.
 *
 * Who may use it: the port is random and on loopback only; each new connection's peer must be a
 * socket of the service's own user (read from /proc/net/tcp), so other users on the machine cannot
 * use the service's network access. Processes of the same user could read the service's memory
 * anyway.
 *
 * An operator's outbound proxy (HTTP_PROXY / HTTPS_PROXY, which the plain fetch follows too) is
 * used as the next hop: the request then names the checked address instead of the host, so the
 * next hop cannot resolve the name differently either.
 */
import { readFile } from "node:fs/promises";
import { createServer, connect, isIP, type Server, type Socket } from "node:net";
import { AppError } from "../errors";
import { assertFetchableUrl, pinnedAddress, type Resolver } from "./ssrf";

export interface EgressProxyOptions {
  /** allowPrivate: true lets loopback, private, link-local and metadata addresses through (--allow-private-urls) */
  allowPrivate: boolean;
  /** resolve: the name resolver of the check; default the system resolver */
  resolve?: Resolver;
  /**
   * upstream: the operator's outbound proxy as http://host:port, used as the next hop (null = connect
   * directly); `noProxy` lists hosts reached directly, as NO_PROXY does for the plain fetch
   */
  upstream?: { http: string | null; https: string | null; noProxy?: string | null };
  /** dial opens the outgoing TCP connection; default net.connect (tests route "public" addresses to loopback) */
  dial?: (address: string, port: number) => Socket;
  /** connectTimeoutMs: how long the outgoing connection may take to open, in ms; default 10000 */
  connectTimeoutMs?: number;
  /** idleTimeoutMs: a connection with no traffic either way for this long is closed, in ms; default 120000 */
  idleTimeoutMs?: number;
  /** observe: told about every decision (for logs and tests) */
  observe?: (event: EgressEvent) => void;
}

/** EgressEvent is one decision of the proxy: a connection opened to a checked address, or a refusal. */
export type EgressEvent =
  | { kind: "connected"; host: string; port: number; checkedAddress: string; remoteAddress: string | undefined }
  | { kind: "refused"; host: string; port: number; reason: string };

/**
 * EGRESS_HEADER marks an answer made by the proxy itself (not by the site): "refused; <why>" or
 * "unreachable; <why>". The page guard turns it into url_refused or url_unreachable for the main document.
 */
export const EGRESS_HEADER = "X-Docintel-Egress";

/** HEAD_LIMIT: largest request or response head accepted, in bytes */
const HEAD_LIMIT = 64 * 1024;
const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
const DEFAULT_IDLE_TIMEOUT_MS = 120_000;
/** HOP_HEADERS belong to one connection and are not passed on (RFC 9110 7.6.1), nor are the proxy's own. */
const HOP_HEADERS = new Set(["connection", "keep-alive", "proxy-connection", "proxy-authorization", "proxy-authenticate", "te", "trailer"]);

export class EgressProxy {
  private server: Server | null = null;
  private starting: Promise<string> | null = null;
  private readonly sockets = new Set<Socket>();
  private readonly ownUid = typeof process.getuid === "function" ? process.getuid() : null;

  constructor(private readonly options: EgressProxyOptions) {}

  /** start listens on 127.0.0.1 and a free port (once) and returns "127.0.0.1:port" for --proxy-server. */
  start(): Promise<string> {
    this.starting ??= new Promise<string>((resolve, reject) => {
      const server = createServer((socket) => void this.serve(socket));
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => {
        this.server = server;
        const address = server.address();
        if (address === null || typeof address === "string") return reject(new Error("the egress proxy has no TCP address"));
        resolve(`127.0.0.1:${address.port}`);
      });
    });
    return this.starting;
  }

  /** close stops listening and cuts every connection in flight. */
  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    this.starting = null;
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** serve handles one client connection: one CONNECT tunnel or one plain-http request. */
  private async serve(client: Socket): Promise<void> {
    this.track(client);
    client.setNoDelay(true);
    client.setTimeout(this.options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS, () => client.destroy());
    client.on("error", () => client.destroy());
    try {
      if (!(await this.isOwnUser(client))) return void client.destroy();
      const { head, rest } = await readHead(client);
      const request = parseRequestHead(head);
      if (request.method === "CONNECT") await this.tunnel(client, request.target, rest);
      else await this.forward(client, request, rest);
    } catch (error) {
      this.answerError(client, error);
    }
  }

  /** tunnel serves CONNECT host:port: the checked address is dialled and bytes pass unchanged both ways. */
  private async tunnel(client: Socket, target: string, rest: Buffer): Promise<void> {
    const { host, port } = parseAuthority(target);
    const address = await this.check(host, port, "https");
    const upstream = this.nextHop(host, port, this.options.upstream?.https ?? this.options.upstream?.http ?? null);
    const server = await this.open(host, port, address, upstream);
    if (upstream) await connectThrough(server, `${bracketed(address)}:${port}`);
    if (client.destroyed) return void server.destroy(); // Chromium gave up while we checked and dialled
    client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
    if (rest.length > 0) server.write(rest);
    pipeBoth(client, server);
  }

  /**
   * forward serves one absolute-form request (GET http://host/path): it goes to the checked address
   * in origin form with `Connection: close`, and the answer is relayed with `Connection: close` so
   * that Chromium sends its next request (perhaps for another host) on a new, newly checked connection.
   */
  private async forward(client: Socket, request: RequestHead, rest: Buffer): Promise<void> {
    let url: URL;
    try {
      url = new URL(request.target);
    } catch {
      throw new ProxyRefusal(400, `'${request.target}' is not an absolute http URL`);
    }
    if (url.protocol !== "http:") throw new ProxyRefusal(400, `only http URLs are forwarded; ${url.protocol} goes through CONNECT`);
    const host = url.hostname.replace(/^\[|\]$/g, "");
    const port = Number(url.port || 80);
    const address = await this.check(host, port, "http");
    const upstream = this.nextHop(host, port, this.options.upstream?.http ?? null);
    const server = await this.open(host, port, address, upstream);
    if (client.destroyed) return void server.destroy(); // Chromium gave up while we checked and dialled
    // Through a next hop the request names the checked address, so the next hop cannot resolve again.
    const requestTarget = upstream ? `http://${bracketed(address)}:${port}${url.pathname}${url.search}` : `${url.pathname}${url.search}`;
    const lines = [`${request.method} ${requestTarget} HTTP/1.1`];
    for (const [name, value] of request.headers) if (!HOP_HEADERS.has(name.toLowerCase())) lines.push(`${name}: ${value}`);
    if (!request.headers.some(([name]) => name.toLowerCase() === "host")) lines.push(`Host: ${url.host}`);
    const upgrade = request.headers.some(([name]) => name.toLowerCase() === "upgrade");
    lines.push(upgrade ? "Connection: Upgrade" : "Connection: close");
    server.write(`${lines.join("\r\n")}\r\n\r\n`);
    if (rest.length > 0) server.write(rest);
    client.pipe(server);
    relayResponse(server, client);
    closeTogether(client, server);
  }

  /** check applies the plain fetch's address policy to host:port and returns the address to connect to. */
  private async check(host: string, port: number, scheme: "http" | "https"): Promise<string> {
    try {
      const { addresses } = await assertFetchableUrl(`${scheme}://${bracketed(host)}:${port}/`, { allowPrivate: this.options.allowPrivate, resolve: this.options.resolve, field: "url" });
      return pinnedAddress(addresses);
    } catch (error) {
      const reason = error instanceof AppError ? error.detail : String(error);
      this.options.observe?.({ kind: "refused", host, port, reason });
      throw new ProxyRefusal(error instanceof AppError && error.code === "url_unreachable" ? 502 : 403, reason);
    }
  }

  /** open connects to the checked address (or to the next hop), within the connect timeout. */
  private open(host: string, port: number, address: string, upstream: string | null): Promise<Socket> {
    const hop = upstream ? parseProxyUrl(upstream) : { host: address, port };
    const socket = (this.options.dial ?? defaultDial)(hop.host, hop.port);
    this.track(socket);
    const timeoutMs = this.options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    return new Promise<Socket>((resolve, reject) => {
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new ProxyRefusal(504, `${host}:${port} (${address}) did not accept a connection within ${timeoutMs} ms`));
      }, timeoutMs);
      socket.once("connect", () => {
        clearTimeout(timer);
        socket.setNoDelay(true);
        socket.setTimeout(this.options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS, () => socket.destroy());
        this.options.observe?.({ kind: "connected", host, port, checkedAddress: address, remoteAddress: socket.remoteAddress });
        resolve(socket);
      });
      socket.once("error", (error) => {
        clearTimeout(timer);
        socket.destroy();
        reject(new ProxyRefusal(502, `could not connect to ${host}:${port} (${address}): ${(error as NodeJS.ErrnoException).code ?? error.message}`));
      });
    });
  }

  /** nextHop is the outbound proxy for host:port, or null when there is none or NO_PROXY names the host. */
  private nextHop(host: string, port: number, upstream: string | null): string | null {
    if (upstream === null) return null;
    return matchesNoProxy(host, port, this.options.upstream?.noProxy ?? null) ? null : upstream;
  }

  /** answerError tells the client why its request was not forwarded, then closes the connection. */
  private answerError(client: Socket, error: unknown): void {
    if (client.destroyed) return;
    const refusal = error instanceof ProxyRefusal ? error : new ProxyRefusal(400, "malformed proxy request");
    const body = `docintel egress: ${refusal.reason}\n`;
    const header = `${EGRESS_HEADER}: ${refusal.status === 403 ? "refused" : "unreachable"}; ${refusal.reason.replace(/[^\x20-\x7e]/g, "?")}\r\n`;
    const reasons: Record<number, string> = { 400: "Bad Request", 403: "Forbidden", 405: "Method Not Allowed", 502: "Bad Gateway", 504: "Gateway Timeout" };
    client.end(
      `HTTP/1.1 ${refusal.status} ${reasons[refusal.status] ?? "Error"}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${header}Connection: close\r\n\r\n${body}`,
    );
  }

  /**
   * isOwnUser tells whether the peer of a loopback connection is a socket of the service's own
   * user, from the kernel's socket table; true where that table cannot be read (not Linux).
   */
  private async isOwnUser(client: Socket): Promise<boolean> {
    if (this.ownUid === null || this.ownUid === 0) return true; // root may use any socket on the machine anyway
    const table = await readFile("/proc/net/tcp", "utf8").catch(() => null);
    if (table === null) return true;
    const local = `0100007F:${hex4(client.remotePort ?? 0)}`;
    const remote = `0100007F:${hex4(client.localPort ?? 0)}`;
    for (const line of table.split("\n")) {
      const fields = line.trim().split(/\s+/);
      if (fields[1] === local && fields[2] === remote) return Number(fields[7]) === this.ownUid;
    }
    return false;
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.once("close", () => this.sockets.delete(socket));
  }
}

/** ProxyRefusal is a request the proxy does not forward: the HTTP status it answers and why. */
class ProxyRefusal extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
  ) {
    super(reason);
  }
}

interface RequestHead {
  method: string;
  target: string;
  headers: [string, string][];
}

/** readHead reads from a socket up to the end of the HTTP head; `rest` is what came after it. */
function readHead(socket: Socket): Promise<{ head: string; rest: Buffer }> {
  return new Promise((resolve, reject) => {
    let buffered = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf("\r\n\r\n");
      if (end >= 0) {
        done();
        resolve({ head: buffered.subarray(0, end).toString("latin1"), rest: buffered.subarray(end + 4) });
      } else if (buffered.length > HEAD_LIMIT) {
        done();
        reject(new ProxyRefusal(400, `the request head is larger than ${HEAD_LIMIT} bytes`));
      }
    };
    const onEnd = () => {
      done();
      reject(new ProxyRefusal(400, "the connection closed before the request head ended"));
    };
    const done = () => {
      socket.off("data", onData);
      socket.off("end", onEnd);
      socket.pause();
    };
    socket.on("data", onData);
    socket.on("end", onEnd);
  });
}

function parseRequestHead(head: string): RequestHead {
  const [requestLine = "", ...headerLines] = head.split("\r\n");
  const match = /^([A-Z]+) (\S+) HTTP\/1\.[01]$/.exec(requestLine);
  if (!match) throw new ProxyRefusal(400, "malformed request line");
  const headers: [string, string][] = [];
  for (const line of headerLines) {
    const colon = line.indexOf(":");
    if (colon <= 0) throw new ProxyRefusal(400, "malformed header line");
    headers.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
  }
  return { method: match[1]!, target: match[2]!, headers };
}

/** parseAuthority splits CONNECT's host:port ([v6]:port for IPv6). */
function parseAuthority(target: string): { host: string; port: number } {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:\s/]+)):(\d{1,5})$/.exec(target);
  const port = match ? Number(match[3]) : 0;
  if (!match || port < 1 || port > 65535) throw new ProxyRefusal(400, `CONNECT needs host:port, got '${target.slice(0, 200)}'`);
  return { host: (match[1] ?? match[2]!).toLowerCase(), port };
}

/**
 * matchesNoProxy reads NO_PROXY as curl does: comma- or space-separated entries, "*" for every host,
 * "example.com" or ".example.com" for that domain and its subdomains, an optional ":port".
 */
export function matchesNoProxy(host: string, port: number, noProxy: string | null): boolean {
  if (!noProxy) return false;
  const name = host.toLowerCase().replace(/\.$/, "");
  for (const raw of noProxy.split(/[\s,]+/)) {
    const entry = raw.trim().toLowerCase();
    if (entry === "") continue;
    if (entry === "*") return true;
    const portMatch = /^(.*):(\d+)$/.exec(entry);
    if (portMatch && !portMatch[1]!.includes(":") && Number(portMatch[2]) !== port) continue;
    const domain = (portMatch && !portMatch[1]!.includes(":") ? portMatch[1]! : entry).replace(/^\*?\./, "").replace(/^\[|\]$/g, "");
    if (name === domain || name.endsWith(`.${domain}`)) return true;
  }
  return false;
}

function parseProxyUrl(raw: string): { host: string; port: number } {
  const url = new URL(raw);
  return { host: url.hostname.replace(/^\[|\]$/g, ""), port: Number(url.port || 80) };
}

/** connectThrough asks the next-hop proxy for a tunnel to `authority` and waits for its 2xx. */
async function connectThrough(server: Socket, authority: string): Promise<void> {
  server.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`);
  const { head, rest } = await readHead(server);
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0);
  if (status < 200 || status > 299) {
    server.destroy();
    throw new ProxyRefusal(502, `the outbound proxy refused CONNECT ${authority} (HTTP ${status || "?"})`);
  }
  if (rest.length > 0) server.unshift(rest);
  server.resume();
}

/**
 * relayResponse copies a response to the client with `Connection: close` in its final head (1xx
 * heads pass as they are; after 101 Switching Protocols the bytes pass unchanged).
 */
function relayResponse(server: Socket, client: Socket): void {
  let buffered = Buffer.alloc(0);
  const onData = (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    for (;;) {
      const end = buffered.indexOf("\r\n\r\n");
      if (end < 0) {
        if (buffered.length > HEAD_LIMIT) server.destroy();
        return;
      }
      const [statusLine = "", ...headerLines] = buffered.subarray(0, end).toString("latin1").split("\r\n");
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
      const rest = buffered.subarray(end + 4);
      if (status >= 100 && status < 200 && status !== 101) {
        client.write(buffered.subarray(0, end + 4));
        buffered = rest;
        continue;
      }
      const kept = status === 101 ? headerLines : headerLines.filter((line) => !HOP_HEADERS.has(line.slice(0, line.indexOf(":")).trim().toLowerCase()));
      if (status !== 101) kept.push("Connection: close", "Proxy-Connection: close");
      client.write(`${[statusLine, ...kept].join("\r\n")}\r\n\r\n`);
      if (rest.length > 0) client.write(rest);
      server.off("data", onData);
      server.pipe(client);
      return;
    }
  };
  server.on("data", onData);
}

/** pipeBoth joins two sockets both ways and closes each when the other ends. */
function pipeBoth(client: Socket, server: Socket): void {
  client.pipe(server);
  server.pipe(client);
  closeTogether(client, server);
  client.resume();
}

function closeTogether(a: Socket, b: Socket): void {
  a.once("close", () => b.destroy());
  b.once("close", () => a.destroy());
  a.on("error", () => a.destroy());
  b.on("error", () => b.destroy());
}

function defaultDial(address: string, port: number): Socket {
  return connect({ host: address, port });
}

function bracketed(host: string): string {
  return isIP(host) === 6 ? `[${host}]` : host;
}

function hex4(port: number): string {
  return port.toString(16).toUpperCase().padStart(4, "0");
}
