/**
 * The explorer at /docs (Scalar, via @elysiajs/swagger) and the OpenAPI 3 document at /docs/json.
 * The explorer's script is embedded in the binary and served from /docs/assets, so /docs works on a
 * machine without internet.
 */
import { swagger } from "@elysiajs/swagger";
import { Elysia } from "elysia";
// The package's exports map hides its browser bundle, hence the path into node_modules; the
// bundler embeds the file in the compiled binary.
// @ts-ignore: a file import yields its path
import scalarBundlePath from "../../node_modules/@scalar/api-reference/dist/browser/standalone.js" with { type: "file" };
import { CREDIT_COST_TABLE } from "../credits/costs";
import { FREE_MONTHLY_CREDITS, RATE_LIMIT_PER_MINUTE } from "../credits/plans";
import { ERROR_STATUS } from "../errors";
import { INTERFACE_VERSION, VERSION } from "../version";
import { openApiOperation, type Operation } from "../http/operation";
import { ErrorBodySchema, ValidationErrorSchema } from "../http/responses";

export const DOCS_PATH = "/docs";
export const DOCS_ASSET_PATH = "/docs/assets/scalar.js";
/** DOCS_PUBLIC_ROUTES: the GET routes of the explorer, which need no key (the plugin below registers exactly these). */
export const DOCS_PUBLIC_ROUTES = [DOCS_PATH, `${DOCS_PATH}/json`, DOCS_ASSET_PATH];

const description = `Self-hosted document intelligence: screenshots, markdown, thumbnails, typed extraction, analysis,
cross-document analysis, decisions and diffs, with async tasks and signed webhooks. Implements interface ${INTERFACE_VERSION}.

**Authentication**: send your key in the \`X-API-Key\` header, or as \`Authorization: Bearer KEY\`, on every operation except /healthz,
the signed thumbnail URLs and /docs. Missing, invalid or revoked keys get 401. An unknown path is 404 \`not_found\`; a known path with
another method is 405 \`method_not_allowed\` with \`Allow\`. When the operator allows keyless use (--anonymous-plan free),
GET /md/{url} and GET /{url} also answer requests without a key, on a shared budget with a per-address rate limit.

**Rate limits** per key and minute: Free ${RATE_LIMIT_PER_MINUTE.free}, Pro ${RATE_LIMIT_PER_MINUTE.pro}, Enterprise ${RATE_LIMIT_PER_MINUTE.enterprise}. Every authenticated response carries
\`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\`; over the limit: 429 \`rate_limited\` with \`Retry-After\`.

**Credits** are charged only when an operation succeeds; every metered response carries \`credits_used\`.
Free keys get ${FREE_MONTHLY_CREDITS} credits per calendar month (UTC), no carry-over; Pro and Enterprise are metered without a cap.
Not enough credits: 402 \`insufficient_credits\`.

| Operation | Credits |
|---|---|
${CREDIT_COST_TABLE.map(([op, cost]) => `| ${op} | ${cost} |`).join("\n")}

**Errors**: operational errors are \`{success: false, error: <code>, detail: <text>}\`; request validation errors are 422
\`{detail: [{loc, msg, type, input, ctx}]}\`. Uploads over 50 MB get 413 while they stream in.

| error | status |
|---|---|
${Object.entries(ERROR_STATUS).map(([code, status]) => `| ${code} | ${status} |`).join("\n")}
`;

// The plugin copies the description into an HTML attribute unescaped: it must hold no double quote.
if (description.includes('"')) throw new Error("docs description must not contain a double quote");

/** wildcardPaths documents operations whose Elysia path is a wildcard (the plugin skips those). */
function wildcardPaths(operations: Operation[], keylessAllowed: boolean): Record<string, Record<string, unknown>> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations.filter((o) => o.docPath)) {
    paths[op.docPath!] = { ...(paths[op.docPath!] ?? {}), [op.method.toLowerCase()]: openApiOperation(op, keylessAllowed) };
  }
  return paths;
}

/**
 * SCALAR_CONFIG: the explorer without Scalar's cloud features (Ask AI, Generate MCP, the developer
 * toolbar with deploy and share) and without fonts from its CDN, so /docs calls nothing outside
 * this server. Options as documented by @scalar/api-reference 1.72 (ApiReferenceConfiguration).
 */
export const SCALAR_CONFIG = {
  hideDownloadButton: false,
  defaultOpenAllTags: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: "never",
  showToolbar: "never",
  telemetry: false,
  withDefaultFonts: false,
  hideClientButton: false,
  favicon: "/favicon.ico",
} as const;

/**
 * serversOf: the OpenAPI `servers` the snippets use: --public-url when set, else the relative "/",
 * which a browser resolves against the page it shows. The request's Host header is never used.
 */
export function serversOf(publicUrl: string | undefined): { url: string }[] {
  return [{ url: publicUrl ?? "/" }];
}

export function docsPlugin(operations: Operation[], publicUrl?: string, keylessAllowed = false) {
  const tags = [...new Set(operations.map((o) => o.tag))].map((name) => ({ name }));
  return new Elysia({ name: "docintel-docs" })
    .get(DOCS_ASSET_PATH, () => new Response(Bun.file(scalarBundlePath), { headers: { "content-type": "application/javascript; charset=utf-8", "cache-control": "public, max-age=86400" } }), {
      detail: { hide: true },
    })
    .use(
      swagger({
        path: DOCS_PATH,
        specPath: `${DOCS_PATH}/json`,
        provider: "scalar",
        scalarCDN: DOCS_ASSET_PATH,
        scalarConfig: SCALAR_CONFIG as unknown as Record<string, unknown>,
        exclude: [DOCS_ASSET_PATH],
        documentation: {
          info: { title: "docintel", version: VERSION, description },
          servers: serversOf(publicUrl),
          tags,
          security: [{ ApiKey: [] }, { Bearer: [] }],
          components: {
            securitySchemes: { ApiKey: { type: "apiKey", in: "header", name: "X-API-Key" }, Bearer: { type: "http", scheme: "bearer", description: "the same API key as a bearer token" } },
            schemas: { OperationalError: ErrorBodySchema, ValidationError: ValidationErrorSchema } as Record<string, any>,
          },
          paths: wildcardPaths(operations, keylessAllowed) as any,
        },
      }),
    );
}
