/**
 * POST /mcp: the MCP endpoint (streamable HTTP, stateless). It is an operation like the others: the
 * key is checked and the request counted against the key's rate limit before the handler runs
 * (createApp), so every MCP request (initialize, tools/list, tools/call) costs one request of the
 * limit; tool calls are charged credits by the operations they run. GET /mcp answers 405: this
 * server offers no server-to-client event stream, which the MCP transport allows.
 */
import type { Route } from "../http/route";
import { AppError } from "../errors";
import { handleMcpRequest, type McpDeps } from "./server";
import { MCP_TOOLS } from "./tools";

export const MCP_PATH = "/mcp";

const tag = "MCP";

export const mcpRoutes: Route<McpDeps>[] = [
  {
    op: {
      method: "POST",
      path: MCP_PATH,
      tag,
      summary: "MCP endpoint (streamable HTTP)",
      description: `Model Context Protocol over streamable HTTP, stateless, JSON responses; authenticate with X-API-Key as elsewhere. Tools: ${MCP_TOOLS.map((t) => t.spec.name).join(", ")}; their input schemas come from the operations they run, and each call is charged as that operation. Files travel base64-encoded (file_base64 with filename). Each request counts against the key's rate limit. Desktop clients that speak MCP over stdio use \`docintel mcp\`, a bridge to this endpoint.`,
      // files travel base64-encoded in the JSON body: a third larger than the upload limit
      maxRequestBytes: 0,
      responses: {
        200: { description: "JSON-RPC response(s)" },
        202: { description: "Accepted (notifications and responses only)" },
        400: "Not a JSON-RPC message",
        406: "The Accept header does not allow application/json and text/event-stream",
        413: "The request is larger than the upload limit (base64 included)",
      },
    },
    handler: async ({ request, ctx, services, set }) => {
      // one file of the upload limit, base64-encoded, plus the JSON-RPC envelope and other arguments
      const limit = Math.ceil((services.config.maxUploadBytes * 4) / 3) + 1_000_000;
      const declared = Number(request.headers.get("content-length") ?? Number.NaN);
      if (declared > limit) throw new AppError("payload_too_large", `The MCP request is larger than ${Math.round(limit / 1_000_000)} MB: files may be at most ${Math.round(services.config.maxUploadBytes / 1_000_000)} MB each before base64 encoding.`);
      const response = await handleMcpRequest(request, { services, ctx, signal: request.signal }, limit);
      for (const [name, value] of Object.entries(set.headers)) response.headers.set(name, String(value));
      return response;
    },
  },
  {
    op: {
      method: "GET",
      path: MCP_PATH,
      tag,
      summary: "MCP event stream (not offered)",
      description: "Answers 405 with Allow: POST: the MCP endpoint is stateless and sends no server-initiated messages; MCP clients then use POST only.",
      public: true,
      responses: { 405: "Only POST is served at /mcp" },
    },
    handler: () => {
      throw new AppError("method_not_allowed", "GET /mcp: this MCP endpoint offers no event stream; send MCP requests with POST /mcp.", { headers: { Allow: "POST" } });
    },
  },
];
