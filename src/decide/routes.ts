import type { Route } from "../http/route";
import { runNowOrAccept, type EngineDeps } from "../tasks/routes";
import type { AgentDeps } from "../analyze/service";
import type { DecideTaskInput } from "./task";
import { checkWebhookUrl, requireOneDocument, type UrlPolicy } from "../documents/inputs";
import { taskResponses } from "../http/responses";
import { parseTypedSchema } from "../schema/typed";
import { AppError } from "../errors";
import { requireProvider } from "../ai/groq";
import { priceText } from "../credits/costs";
import { DECIDE_LIMITS, DecideBody, DecisionResult, type ContextBlock } from "./schema";

/** parseContext reads the context field: a JSON array of {label, content}, or a JSON string (one block). */
export function parseContext(text: string | undefined): ContextBlock[] {
  if (text === undefined) return [];
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = text; // plain text is one unlabelled block
  }
  const blocks: ContextBlock[] =
    typeof value === "string"
      ? [{ label: "context", content: value }]
      : Array.isArray(value)
        ? value.map((b, i) => {
            if (!b || typeof b !== "object" || typeof b.content !== "string" || (b.label !== undefined && typeof b.label !== "string"))
              throw new AppError("bad_request", `context[${i}]: each block must be {"label": string, "content": string}`);
            return { label: b.label ?? `context ${i + 1}`, content: b.content };
          })
        : (() => {
            throw new AppError("bad_request", 'context: must be a JSON array of {"label", "content"} blocks, or a JSON string');
          })();
  if (blocks.length > DECIDE_LIMITS.contextBlocks) throw new AppError("bad_request", `context: at most ${DECIDE_LIMITS.contextBlocks} blocks, got ${blocks.length}`);
  const chars = blocks.reduce((n, b) => n + b.content.length, 0);
  if (chars > DECIDE_LIMITS.contextChars) throw new AppError("bad_request", `context: at most ${DECIDE_LIMITS.contextChars} characters in all, got ${chars}`);
  return blocks;
}

/** DecideRouteDeps: what the decide route uses of the services. */
export type DecideRouteDeps = UrlPolicy & EngineDeps & Pick<AgentDeps, "provider">;

export const decideRoutes: Route<DecideRouteDeps>[] = [
  {
    op: {
      method: "POST",
      path: "/api/v1/decide",
      tag: "Decide",
      summary: "One coherent decision about a document and/or context",
      description:
        "`instructions` and a typed `schema` (at most 10 fields), plus at least one of `file`, `url` or `context` (`render` chooses how a web page URL becomes text, as in markdown/convert). The agent may investigate the document with the analyze tools (at most 6 calls); with context only the decision is one call. Every field of the decision gets a real value (the response schema allows no nulls) with a confidence, plus one rationale and the sources it checked against the document and context. " + priceText("decide"),
      body: DecideBody,
      responses: taskResponses(
        { description: "Decision result", schema: DecisionResult },
        {
          400: "Invalid schema or context, or no file, url or context",
          413: "File over 50 MB",
          502: "The AI provider failed in a non-retryable way",
          503: "AI provider not configured, overloaded or rate-limited (Retry-After)",
        },
      ),
    },
    handler: async (call) => {
      const { body, services } = call;
      const schema = parseTypedSchema(body.schema, { maxTopLevelFields: DECIDE_LIMITS.fields });
      const context = parseContext(body.context as string | undefined);
      const document = body.file || body.url ? await requireOneDocument(body, services) : undefined;
      if (!document && context.length === 0) throw new AppError("missing_input", "Send at least one of 'file', 'url' or 'context'.");
      await checkWebhookUrl(body, services);
      requireProvider(services.provider, "decide");
      const input: DecideTaskInput = {
        instructions: String(body.instructions),
        schema,
        context,
        file: document?.file,
        url: document?.url,
        urlHeaders: document?.urlHeaders ?? {},
        render: document?.render,
        includeSteps: body.include_steps === true,
      };
      return (await runNowOrAccept(call, "decide", input)).body;
    },
  },
];
