/**
 * The MCP server behind POST /mcp: the SDK's low-level `Server` (our tool schemas are JSON Schema
 * already, from the operation declarations) over its web-standard streamable HTTP transport, in
 * stateless mode: each HTTP request gets its own server, bound to the key that authenticated it, so
 * there is no session to keep and every request is checked like any other (key, rate limit).
 *
 * A tool call runs the HTTP operation's own handler (see tools.ts):
 *
 *   [decode files and JSON values, validate path/query/body as HTTP does, run the handler, shape the result]
 *
 * The handler gets a request of its own (the operation's path and method, `Accept: application/json`,
 * the call's abort signal) that shares the /mcp request's context: its id, key and rate decision.
 * Credits are charged by the handler as for HTTP. Errors come back as tool results with isError and
 * the spec's error body as text, so a client (or a model) reads the same `{success:false,error,detail}`.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { AppError, errorBody } from "../errors";
import { attachContext, type RequestContext } from "../http/context";
import type { HandlerInput } from "../http/operation";
import type { Logger } from "../runtime/log";
import { validateFields } from "../http/validate";
import { VERSION } from "../version";
import { MCP_TOOLS, mcpToolNamed, type McpTool, type McpToolDeps } from "./tools";

/** SERVER_NAME is how the server introduces itself to MCP clients. */
export const SERVER_NAME = "docintel";

/** INTERNAL_ORIGIN is the origin of the requests tool calls hand to the operations' handlers (never fetched). */
const INTERNAL_ORIGIN = "http://mcp.internal";

/** BASE64 accepts standard and URL-safe base64, with or without padding and line breaks. */
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/** decodeBase64 reads one file argument, or names the argument at fault. */
function decodeBase64(text: unknown, argument: string): Uint8Array {
  if (typeof text !== "string") throw new AppError("bad_request", `${argument}: must be the file's bytes as a base64 string`);
  const compact = text.replace(/\s+/g, "");
  if (!BASE64.test(compact)) throw new AppError("bad_request", `${argument}: is not valid base64 (only A-Z, a-z, 0-9, +, /, - and _ with = padding)`);
  return new Uint8Array(Buffer.from(compact, compact.includes("-") || compact.includes("_") ? "base64url" : "base64"));
}

/** fieldsOf turns MCP arguments into the form fields the operation declares: files as File, JSON values as text. */
function fieldsOf(tool: McpTool, args: Record<string, unknown>, maxUploadBytes: number): Record<string, unknown> {
  const fields: Record<string, unknown> = { ...args };
  for (const { field, base64, filename } of tool.files) {
    const content = fields[base64];
    const name = fields[filename];
    delete fields[base64];
    delete fields[filename];
    if (content === undefined || content === null) {
      if (name !== undefined) throw new AppError("bad_request", `${filename}: was sent without ${base64}; send the file's bytes base64-encoded in ${base64}`);
      continue;
    }
    // the decoded size is about 3/4 of the text: refuse what cannot fit before decoding it
    if (typeof content === "string" && content.length > (maxUploadBytes / 3) * 4 + 4096) {
      throw new AppError("payload_too_large", `${base64}: the file is larger than ${Math.round(maxUploadBytes / 1_000_000)} MB, the upload limit`);
    }
    const bytes = decodeBase64(content, base64);
    if (typeof name !== "string" || name.trim() === "") throw new AppError("bad_request", `${filename}: required with ${base64}: the file's name with its extension, e.g. report.pdf`);
    fields[field] = new File([bytes as Uint8Array<ArrayBuffer>], name.trim());
  }
  for (const name of tool.jsonFields) {
    const value = fields[name];
    if (value !== undefined && value !== null && typeof value === "object") fields[name] = JSON.stringify(value);
  }
  return fields;
}

/** pick keeps the fields a section (path, query or body) declares. */
function pick(fields: Record<string, unknown>, names: string[]): Record<string, unknown> {
  return Object.fromEntries(names.filter((n) => fields[n] !== undefined).map((n) => [n, fields[n]]));
}

/** unknownArguments names arguments no section declares: a typo must not pass silently. */
function checkArguments(tool: McpTool, args: Record<string, unknown>): void {
  const known = new Set(Object.keys(tool.inputSchema.properties));
  const unknown = Object.keys(args).filter((n) => !known.has(n));
  if (unknown.length) throw new AppError("bad_request", `unknown argument${unknown.length > 1 ? "s" : ""} ${unknown.map((n) => `'${n}'`).join(", ")} for ${tool.spec.name}; it takes ${[...known].join(", ")}`);
}

/** internalPath is the operation's path with its parameters filled in, as the handler reads it. */
function internalPath(tool: McpTool, params: Record<string, unknown>): string {
  const { path } = tool.route.op;
  if (path === "/*") return `/${encodeURIComponent(String(params.url ?? ""))}`;
  return path.replace(/:([a-z_]+)/g, (_, name: string) => encodeURIComponent(String(params[name] ?? "")));
}

/** McpDeps: what /mcp uses of the services: the tools' operations', the upload limit and the logger. */
export type McpDeps = McpToolDeps & {
  config: { maxUploadBytes: number };
  logger: Pick<Logger, "error">;
};

export interface McpCall {
  services: McpDeps;
  /** ctx: the /mcp request's context (its key, id and rate decision) */
  ctx: RequestContext;
  /** signal: aborts when the client of the /mcp request goes away, which ends the work as over HTTP */
  signal: AbortSignal;
}

/** runTool runs one tool call through its operation's handler and returns what the handler answered. */
async function runTool(tool: McpTool, args: Record<string, unknown>, call: McpCall, signal: AbortSignal): Promise<unknown> {
  checkArguments(tool, args);
  const { op, handler } = tool.route;
  const fields = fieldsOf(tool, args, call.services.config.maxUploadBytes);
  const names = (section: typeof op.body) => (section ? Object.keys(section.properties) : []);
  const params = op.params ? validateFields(op.params, pick(fields, names(op.params)), "path") : {};
  const query = op.query ? validateFields(op.query, pick(fields, names(op.query)), "query") : {};
  const body = op.body ? validateFields(op.body, pick(fields, names(op.body)), "body") : {};
  const request = new Request(`${INTERNAL_ORIGIN}${internalPath(tool, params)}`, { method: op.method, headers: { accept: "application/json" }, signal });
  const ctx: RequestContext = { ...call.ctx, url: new URL(request.url), route: op.path };
  attachContext(request, ctx);
  const input: HandlerInput<McpDeps> = { body, query, params, request, ctx, services: call.services, set: { headers: {} } };
  return handler(input);
}

/** resultOf shapes a handler's answer as MCP content: images as images, markdown as text, the rest as JSON. */
async function resultOf(tool: McpTool, answer: unknown): Promise<CallToolResult> {
  if (answer instanceof Response) {
    const type = (answer.headers.get("content-type") ?? "application/octet-stream").split(";")[0]!.trim();
    const bytes = new Uint8Array(await answer.arrayBuffer());
    const facts: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (name.startsWith("x-") && name !== "x-request-id") facts[name] = value;
    });
    const factsText = { type: "text" as const, text: JSON.stringify({ content_type: type, bytes: bytes.length, ...facts }) };
    if (type.startsWith("image/")) return { content: [{ type: "image", data: Buffer.from(bytes).toString("base64"), mimeType: type }, factsText] };
    if (type.startsWith("text/")) return { content: [{ type: "text", text: new TextDecoder().decode(bytes) }, factsText] };
    return { content: [{ type: "resource", resource: { uri: `docintel://${tool.spec.name}/result`, mimeType: type, blob: Buffer.from(bytes).toString("base64") } }, factsText] };
  }
  const json = answer as Record<string, unknown>;
  if (tool.spec.name === "convert_to_markdown" && typeof json.markdown === "string") {
    const { markdown, ...facts } = json;
    return { content: [{ type: "text", text: markdown }, { type: "text", text: JSON.stringify(facts) }], structuredContent: json };
  }
  return { content: [{ type: "text", text: JSON.stringify(json) }], structuredContent: json };
}

/** errorResult is a failed call as the HTTP API would have answered it (status included). */
function errorResult(error: unknown, call: McpCall, toolName: string): CallToolResult {
  const { status, body, logCause } = errorBody(error, call.ctx.id);
  if (logCause) call.services.logger.error(call.ctx.id, `MCP tool ${toolName} failed`, logCause);
  return { isError: true, content: [{ type: "text", text: JSON.stringify({ status, ...(body as object) }) }] };
}

/** createMcpServer builds the MCP server for one authenticated /mcp request. */
function createMcpServer(call: McpCall): Server {
  const server = new Server(
    { name: SERVER_NAME, version: VERSION },
    {
      capabilities: { tools: {} },
      instructions:
        "docintel converts documents and web pages to markdown, takes screenshots, extracts typed fields, analyzes and compares documents. Files go as base64 (`file_base64` with `filename`) or by `url`. Every call is billed to the API key as over HTTP; results carry credits_used.",
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: MCP_TOOLS.map((t) => ({ name: t.spec.name, title: t.spec.title, description: t.description, inputSchema: t.inputSchema })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const name = request.params.name;
    const tool = mcpToolNamed(name);
    if (!tool) return errorResult(new AppError("not_found", `no tool '${name}'; the tools are ${MCP_TOOLS.map((t) => t.spec.name).join(", ")}`), call, name);
    try {
      // the work stops when the client cancels the call (MCP) or closes the connection (HTTP)
      return await resultOf(tool, await runTool(tool, request.params.arguments ?? {}, call, AbortSignal.any([extra.signal, call.signal])));
    } catch (error) {
      return errorResult(error, call, name);
    }
  });
  return server;
}

/**
 * handleMcpRequest answers one POST /mcp with a fresh stateless server and transport (JSON
 * responses, no SSE), closed once the response is ready.
 */
export async function handleMcpRequest(request: Request, call: McpCall, maxRequestBytes: number): Promise<Response> {
  const server = createMcpServer(call);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true, maxRequestBodySize: maxRequestBytes });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request);
  } finally {
    await server.close();
  }
}
