/**
 * MCP_TOOLS are the operations offered to MCP clients, each one an HTTP operation of the service
 * named by its method and path. A tool's input schema is built from that operation's own declaration
 * (path, query and body schemas: the ones that validate HTTP requests and make the OpenAPI document),
 * and a call runs the operation's own handler (src/mcp/server.ts), so fields, checks, credits and
 * errors are those of the HTTP API by construction.
 *
 * What differs from HTTP is only how values travel: MCP arguments are JSON, so a file part `file`
 * becomes `file_base64` plus `filename` (`file_a` becomes `file_a_base64` plus `file_a_filename`),
 * and a field that carries JSON text (`schema`, `url_headers`) may be sent as the JSON value itself.
 */
import type { TObject, TSchema } from "@sinclair/typebox";
import type { Route } from "../http/route";
import { isFileSchema } from "../http/fields";
import { markdownRoutes, type MarkdownRouteDeps } from "../markdown/routes";
import { screenshotRoutes, type ScreenshotRouteDeps } from "../screenshots/routes";
import { extractRoutes, type ExtractRouteDeps } from "../extract/routes";
import { analyzeRoutes, type AnalyzeRouteDeps } from "../analyze/routes";
import { diffRoutes, type DiffRouteDeps } from "../diff/routes";
import { taskRoutes, type TaskRouteDeps } from "../tasks/routes";

export interface McpToolSpec {
  /** name: the tool name clients call */
  name: string;
  title: string;
  /** operation: "METHOD path" of the HTTP operation the tool runs */
  operation: string;
  /** lead: one sentence put before the operation's own description */
  lead: string;
}

const MCP_TOOL_SPECS: McpToolSpec[] = [
  {
    name: "convert_to_markdown",
    title: "Convert a document or web page to markdown",
    operation: "POST /api/v1/markdown/convert",
    lead: "Converts one document (PDF, DOCX, XLSX, PPTX, HTML, images with OCR, e-mail, EPUB, audio/video metadata, ...) to markdown: give `url`, or the file itself as `file_base64` with its `filename`. The markdown comes back as text, the other facts (title, pages, warnings, credits_used) as JSON after it.",
  },
  {
    name: "screenshot",
    title: "Screenshot a web page",
    operation: "GET /*",
    lead: "Renders `url` in headless Chromium and returns the image (JPEG by default).",
  },
  {
    name: "extract",
    title: "Extract typed fields from a document",
    operation: "POST /api/v1/extract",
    lead: "Reads the fields described by `schema` from a document (`url`, or `file_base64` with `filename`), each with a confidence and a verbatim citation.",
  },
  {
    name: "analyze",
    title: "Answer computed or reasoned questions about a document",
    operation: "POST /api/v1/analyze",
    lead: "Runs the multi-step analysis agent over a document (`url`, or `file_base64` with `filename`) to fill `schema` with computed, reasoned or derived answers.",
  },
  {
    name: "diff",
    title: "Compare two documents",
    operation: "POST /api/v1/diff",
    lead: "Compares an older document (`url_a`, or `file_a_base64` with `file_a_filename`) with a newer one (`url_b`, or `file_b_base64` with `file_b_filename`).",
  },
  {
    name: "task_status",
    title: "Status of an async task",
    operation: "GET /api/v1/jobs/:task_id",
    lead: "The record of a task started with sync=false (extract, analyze, diff): its status and, once completed, its result.",
  },
];

/** McpToolDeps: what the operations behind the tools use of the services. */
export type McpToolDeps = MarkdownRouteDeps & ScreenshotRouteDeps & ExtractRouteDeps & AnalyzeRouteDeps & DiffRouteDeps & TaskRouteDeps;

const ALL_ROUTES: Route<McpToolDeps>[] = [...markdownRoutes, ...screenshotRoutes, ...extractRoutes, ...analyzeRoutes, ...diffRoutes, ...taskRoutes];

/** FileArgument names the two arguments that carry one file part over MCP. */
export interface FileArgument {
  field: string;
  base64: string;
  filename: string;
}

export interface McpTool {
  spec: McpToolSpec;
  route: Route<McpToolDeps>;
  /** description: the tool's lead, then the operation's own description */
  description: string;
  /** inputSchema: the JSON Schema clients see (tools/list) */
  inputSchema: { type: "object"; properties: Record<string, unknown>; required?: string[] };
  /** files: the file parts of the operation and their MCP arguments */
  files: FileArgument[];
  /** jsonFields: fields that carry JSON text; an object or array sent for one is encoded */
  jsonFields: Set<string>;
}

function routeOf(operation: string): Route<McpToolDeps> {
  const route = ALL_ROUTES.find((r) => `${r.op.method} ${r.op.path}` === operation);
  if (!route) throw new Error(`MCP tool: no operation ${operation}`);
  return route;
}

function fileArgumentOf(field: string): FileArgument {
  return field === "file" ? { field, base64: "file_base64", filename: "filename" } : { field, base64: `${field}_base64`, filename: `${field}_filename` };
}

/** plain copies a TypeBox schema as plain JSON Schema: no TypeBox symbols, no keywords of our own. */
function plain(schema: TSchema): Record<string, unknown> {
  const copy = JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;
  delete copy["x-json"];
  return copy;
}

/** buildTool derives one tool from its operation's declaration. */
function buildTool(spec: McpToolSpec): McpTool {
  const route = routeOf(spec.operation);
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  const files: FileArgument[] = [];
  const jsonFields = new Set<string>();
  const sections: (TObject | undefined)[] = [route.op.params, route.op.query, route.op.body];
  for (const section of sections) {
    if (!section) continue;
    // path parameters are always required, whatever their schema says
    const requiredHere = new Set(section === route.op.params ? Object.keys(section.properties) : (section.required ?? []));
    for (const [name, schema] of Object.entries(section.properties) as [string, TSchema][]) {
      if (isFileSchema(schema)) {
        const argument = fileArgumentOf(name);
        files.push(argument);
        properties[argument.base64] = { type: "string", contentEncoding: "base64", description: `${schema.description ?? "the document"} (the file's bytes, base64-encoded)` };
        properties[argument.filename] = { type: "string", minLength: 1, maxLength: 255, description: `name of the file sent as ${argument.base64}, with its extension (e.g. report.pdf): it helps detect the type` };
        continue;
      }
      if (schema["x-json"]) {
        jsonFields.add(name);
        const { type: _type, ...rest } = plain(schema);
        properties[name] = { ...rest, type: ["object", "array", "string"], description: `${schema.description ?? ""} (the JSON value itself, or its text)`.trim() };
      } else properties[name] = plain(schema);
      if (requiredHere.has(name)) required.push(name);
    }
  }
  return {
    spec,
    description: `${spec.lead}\n\n${route.op.description}`,
    route,
    inputSchema: { type: "object", properties, ...(required.length ? { required } : {}) },
    files,
    jsonFields,
  };
}

/** MCP_TOOLS: built once; the declarations do not change while the service runs. */
export const MCP_TOOLS: McpTool[] = MCP_TOOL_SPECS.map(buildTool);

export function mcpToolNamed(name: string): McpTool | undefined {
  return MCP_TOOLS.find((t) => t.spec.name === name);
}
