import type { Route } from "../app/route";
import { notBuiltYet } from "../app/route";
import { checkWebhookUrl, requireOneDocument } from "../app/inputs";
import { AsyncAcceptedSchema } from "../app/common";
import { DiffBody } from "./schema";

export const diffRoutes: Route[] = [
  {
    op: {
      method: "POST",
      path: "/api/v1/diff",
      tag: "Diff",
      summary: "Compare two documents",
      description:
        "`file_a`/`url_a` and `file_b`/`url_b` (mixed allowed), any format markdown conversion reads. Block-level alignment (equal, insert, delete, replace, move) with word-level operations, statistics and a similarity score; optional AI annotations. 1 credit.",
      body: DiffBody,
      maxRequestBytes: 101_000_000,
      responses: {
        200: "Diff result",
        202: { description: "Accepted (sync=false)", schema: AsyncAcceptedSchema },
        400: "A document is missing, or a URL is refused or unreachable",
        402: "Not enough credits",
        413: "File over 50 MB",
        501: "Not available in this version yet",
        503: "annotate=true without an AI provider",
      },
    },
    handler: async ({ body, services }) => {
      await requireOneDocument(body, services, "_a");
      await requireOneDocument(body, services, "_b");
      await checkWebhookUrl(body, services);
      notBuiltYet("POST /api/v1/diff");
    },
  },
];
