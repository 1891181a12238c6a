/**
 * `docintel mcp`: MCP over stdio for desktop clients (Claude Desktop, editors) that start a command
 * rather than call a URL. It is a bridge, not a second server: each JSON-RPC message read from
 * stdin is POSTed to a running service's /mcp with the API key, and each answer is written to
 * stdout, so tools, checks and credits are the service's own.
 *
 *   client --stdin--> bridge --POST /mcp (X-API-Key)--> docintel serve
 *   client <-stdout-- bridge <------- JSON-RPC answer --------'
 *
 * A request the service cannot be reached for (down, wrong URL, key refused) is answered on stdout
 * with a JSON-RPC error that says why, so the client shows the reason instead of waiting; the same
 * line goes to stderr, which desktop clients keep in their logs.
 */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { isJSONRPCRequest, isJSONRPCResultResponse, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { ConfigError, type OptionSpec } from "../config";
import { MCP_PATH } from "./routes";

/** MCP_BRIDGE_OPTIONS: where the service is and the key to call it with (flags or DOCINTEL_URL, DOCINTEL_API_KEY). */
export const MCP_BRIDGE_OPTIONS: OptionSpec[] = [
  { flag: "url", env: "DOCINTEL_URL", kind: "string", default: "http://127.0.0.1:8080", describe: "base URL of the running docintel service; the bridge talks to its /mcp" },
  { flag: "api-key", env: "DOCINTEL_API_KEY", kind: "string", describe: "the API key every call is billed to (prefer the variable: a flag shows in the process list)" },
];

export interface BridgeOptions {
  url: string;
  apiKey: string;
  /** log: one line for the operator (stderr) */
  log(line: string): void;
}

/** JSONRPC_SERVER_ERROR: the JSON-RPC code for a failure of the server side (the service unreachable or refusing). */
const JSONRPC_SERVER_ERROR = -32000;

/** mcpEndpointOf turns the service's base URL into its /mcp URL, keeping a path prefix (https://host/docintel). */
function mcpEndpointOf(base: string): URL {
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new ConfigError(`DOCINTEL_URL / --url must be the service's base URL such as http://127.0.0.1:8080, got '${base}'`);
  }
  if (!/^https?:$/.test(url.protocol)) throw new ConfigError(`DOCINTEL_URL / --url must be an http or https URL, got '${base}'`);
  return new URL(MCP_PATH.slice(1), url.href.endsWith("/") ? url.href : `${url.href}/`);
}

/** whyFailed says in one line why a message could not be delivered, with the service's own error when it sent one. */
function whyFailed(error: unknown, endpoint: URL): string {
  if (error instanceof StreamableHTTPError) {
    const body = /\{.*\}/s.exec(error.message)?.[0];
    let parsed: { error?: string; detail?: unknown } | undefined;
    try {
      parsed = body ? JSON.parse(body) : undefined;
    } catch {}
    const reason = parsed?.error ? `${parsed.error}: ${typeof parsed.detail === "string" ? parsed.detail : JSON.stringify(parsed.detail)}` : error.message;
    return `docintel at ${endpoint.origin} answered HTTP ${error.code}: ${reason}${error.code === 401 ? " (check DOCINTEL_API_KEY)" : ""}`;
  }
  const message = error instanceof Error ? error.message : String(error);
  return `docintel at ${endpoint.origin} could not be reached (${message}); is 'docintel serve' running there? (DOCINTEL_URL)`;
}

/** runStdioBridge relays MCP messages between stdio and the service until stdin ends; returns the exit code. */
export async function runStdioBridge(options: BridgeOptions): Promise<number> {
  if (!options.apiKey) throw new ConfigError("set DOCINTEL_API_KEY (or --api-key) to the API key the calls are billed to; 'docintel keys create' makes one");
  const endpoint = mcpEndpointOf(options.url);
  const http = new StreamableHTTPClientTransport(endpoint, { requestInit: { headers: { "X-API-Key": options.apiKey } } });
  const stdio = new StdioServerTransport();

  http.onmessage = (message: JSONRPCMessage) => {
    // the protocol version agreed at initialize goes on every later request, as the transport expects
    if (isJSONRPCResultResponse(message) && typeof message.result.protocolVersion === "string") http.setProtocolVersion(message.result.protocolVersion);
    void stdio.send(message);
  };
  http.onerror = (error) => options.log(`docintel mcp: ${whyFailed(error, endpoint)}`);

  // messages still on their way when stdin ends are answered before the bridge exits
  const inFlight = new Set<Promise<void>>();
  async function relay(message: JSONRPCMessage): Promise<void> {
    try {
      await http.send(message);
    } catch (error) {
      const why = whyFailed(error, endpoint);
      options.log(`docintel mcp: ${why}`);
      if (isJSONRPCRequest(message)) await stdio.send({ jsonrpc: "2.0", id: message.id, error: { code: JSONRPC_SERVER_ERROR, message: why } });
    }
  }
  stdio.onmessage = (message: JSONRPCMessage) => {
    const sent = relay(message).finally(() => inFlight.delete(sent));
    inFlight.add(sent);
  };
  stdio.onerror = (error) => options.log(`docintel mcp: stdin: ${error.message}`);

  await http.start();
  const ended = new Promise<void>((resolve) => {
    process.stdin.once("end", resolve);
    process.stdin.once("close", resolve);
  });
  await stdio.start();
  options.log(`docintel mcp: relaying MCP on stdio to ${endpoint.href}`);
  await ended;
  await Promise.all(inFlight);
  await stdio.close();
  await http.close();
  return 0;
}
