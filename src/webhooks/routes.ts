import { Type } from "@sinclair/typebox";
import type { Route } from "../http/route";
import { AppError } from "../errors";
import type { StoreBackend } from "../store/backend";
import type { WebhookDispatcher } from "./dispatcher";
import { keySigningSecret, rotateSigningSecret, type KeySigningSecret } from "./secret";

const tag = "Webhooks";

export const SigningSecretRecord = Type.Object(
  {
    success: Type.Literal(true),
    key_id: Type.String({ description: "the calling key" }),
    secret: Type.Union([Type.String({ description: "whsec_ and 64 hex digits: the HMAC-SHA256 key of X-SVC-Signature" }), Type.Null()], {
      description: "the key's signing secret; null when the key was made before per-key secrets and still signs with the server's shared secret (rotate to get its own)",
    }),
    shared: Type.Boolean({ description: "true: this key's webhooks are signed with the server's shared secret, which the operator hands out" }),
    created_at: Type.Union([Type.String({ description: "when the secret was made (key creation or the last rotation), ISO 8601 UTC" }), Type.Null()]),
  },
  { title: "SigningSecret" },
);

function recordOf(keyId: string, secret: KeySigningSecret | null) {
  if (!secret) throw new AppError("not_found", `No API key ${keyId}.`); // the key was resolved a moment ago: only a concurrent removal gets here
  return { success: true as const, key_id: keyId, secret: secret.own, shared: secret.own === null, created_at: secret.setAt };
}

const SIGNING_DOC =
  "Every webhook of this key (tasks, batches, thumbnail jobs) carries `X-SVC-Signature: sha256=<hex HMAC-SHA256 of the raw body>` keyed with this secret. Each key has its own secret, so no other customer can sign for it.";

/** WebhookRouteDeps: what the signing-secret routes use of the services. */
export interface WebhookRouteDeps {
  backend: Pick<StoreBackend, "keys">;
  /** webhooks: its `secrets` cache forgets a rotated secret at once */
  webhooks: Pick<WebhookDispatcher, "secrets">;
}

export const webhookRoutes: Route<WebhookRouteDeps>[] = [
  {
    op: {
      method: "GET",
      path: "/api/v1/webhooks/secret",
      tag,
      summary: "The calling key's webhook signing secret",
      description: `Beyond the spec. ${SIGNING_DOC} Keys made before per-key secrets sign with the server's shared secret until they rotate: then \`secret\` is null and \`shared\` true.`,
      responses: { 200: { description: "The signing secret", schema: SigningSecretRecord } },
    },
    handler: async ({ ctx, services }) => recordOf(ctx.key!.id, await keySigningSecret(services.backend.keys, ctx.key!.id)),
  },
  {
    op: {
      method: "POST",
      path: "/api/v1/webhooks/secret/rotate",
      tag,
      summary: "Replace the calling key's webhook signing secret",
      description: `Beyond the spec. ${SIGNING_DOC} Answers the new secret, which signs every request from now on: new deliveries and the retries of earlier ones (a delivery is signed when each request is made). To rotate without losing a delivery, let the receiver accept the old and the new secret for a while and answer 5xx (retried) rather than 4xx (dead) to a signature it cannot verify yet; see the README.`,
      responses: { 200: { description: "The new signing secret", schema: SigningSecretRecord } },
    },
    handler: async ({ ctx, services }) => recordOf(ctx.key!.id, await rotateSigningSecret(services.backend.keys, ctx.key!.id, services.webhooks.secrets)),
  },
];
