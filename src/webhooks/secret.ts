/**
 * Webhook signing secrets. Every API key has its own (`whsec_` + 64 hex digits, 256 bits), made with
 * the key and rotated by the key (POST /api/v1/webhooks/secret/rotate) or the operator (`docintel
 * keys secret KEY_ID --rotate`), so one customer's secret never verifies another customer's webhooks.
 *
 * Keys made before per-key secrets (migration 5) have none (NULL) and sign with the server's shared
 * secret: `--webhook-secret` when given, otherwise generated at first start and kept in the data dir
 * (mode 0600); `docintel webhook-secret` shows it. Such a key keeps it until it rotates, so receivers
 * set up before the change keep verifying.
 *
 * A delivery is signed when each request is made, with the key's secret at that moment: after a
 * rotation the next request (a retry of an older delivery too) carries the new signature.
 *
 * Storage: the secrets are kept as they are in the store, unlike API keys, which are kept hashed. An
 * API key is checked (a hash suffices); a signing secret must be used to sign, so the server needs
 * it back. Encrypting it with a server key kept in the same data dir would not protect it from
 * anyone who can read that dir, and an operator who wants that can encrypt the disk. A leaked
 * signing secret lets its holder forge webhooks to that one key's receivers; it does not let anyone
 * call the API.
 */
import { existsSync, readFileSync, writeFileSync, renameSync } from "node:fs";
import { join } from "node:path";
import { keyQueries } from "../security/queries";
import { newSigningSecret } from "../security/apiKeys";
import type { Store } from "../store";

export const WEBHOOK_SECRET_FILE = "webhook-secret";


export function resolveWebhookSecret(dataDir: string, configured?: string): { secret: string; source: "flag" | "file" | "generated" } {
  if (configured) return { secret: configured, source: "flag" };
  const path = join(dataDir, WEBHOOK_SECRET_FILE);
  if (existsSync(path)) return { secret: readFileSync(path, "utf8").trim(), source: "file" };
  const secret = newSigningSecret();
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, secret + "\n", { mode: 0o600 });
  renameSync(tmp, path);
  return { secret, source: "generated" };
}

/** KeySigningSecret is what signs a key's webhooks: its own secret, or (own = null) the shared one. */
export interface KeySigningSecret {
  /** own: the key's secret; null = a key made before per-key secrets, signing with the shared secret */
  own: string | null;
  /** setAt: when `own` was made (key creation or last rotation), ISO time; null with the shared secret */
  setAt: string | null;
}

/** keySigningSecret returns a key's secret; null when there is no such key. */
export function keySigningSecret(store: Store, keyId: string): KeySigningSecret | null {
  const row = keyQueries(store).webhookSecret(keyId);
  return row ? { own: row.webhook_secret, setAt: row.webhook_secret_at } : null;
}

/** rotateSigningSecret gives the key a new secret, used from the next request on; null when there is no such key. */
export function rotateSigningSecret(store: Store, keyId: string): KeySigningSecret | null {
  const secret = newSigningSecret();
  const at = new Date().toISOString();
  return keyQueries(store).setWebhookSecret(keyId, secret, at) ? { own: secret, setAt: at } : null;
}

/** signingSecretFor picks the secret that signs a delivery of `keyId` now: its own, else the shared one. */
export function signingSecretFor(store: Store, keyId: string | null, shared: string): string {
  if (!keyId) return shared; // deliveries enqueued before migration 5
  return keyQueries(store).webhookSecret(keyId)?.webhook_secret ?? shared;
}
