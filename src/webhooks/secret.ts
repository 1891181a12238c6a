/**
 * Webhook signing secrets. Every API key has its own (`whsec_` + 64 hex digits, 256 bits), made with
 * the key and rotated by the key (POST /api/v1/webhooks/secret/rotate) or the operator (`docintel
 * keys secret KEY_ID --rotate`), so one customer's secret never verifies another customer's webhooks.
 *
 * Keys made before per-key secrets (migration 5) have none (NULL) and sign with the server's shared
 * secret: `--webhook-secret` when given, otherwise generated at first start and kept in the store's
 * settings as `webhook-secret` (SQLite: the file DATA/webhook-secret, mode 0600, as before;
 * PostgreSQL: the settings table, so every machine signs alike); `docintel webhook-secret` shows it.
 * Such a key keeps it until it rotates, so receivers set up before the change keep verifying.
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
import { newSigningSecret } from "../security/apiKeys";
import type { KeyStore, SettingStore } from "../store/backend";

/** WEBHOOK_SECRET_SETTING: the shared secret's setting (SQLite: the file of that name in the data dir) */
export const WEBHOOK_SECRET_SETTING = "webhook-secret";

/**
 * resolveWebhookSecret: the shared secret: `configured` (--webhook-secret) when given, else the
 * store's, made on first use (two processes or machines starting together agree on one).
 */
export async function resolveWebhookSecret(settings: SettingStore, configured?: string): Promise<{ secret: string; source: "flag" | "store" }> {
  if (configured) return { secret: configured, source: "flag" };
  return { secret: await settings.getOrCreate(WEBHOOK_SECRET_SETTING, newSigningSecret), source: "store" };
}

/** KeySigningSecret is what signs a key's webhooks: its own secret, or (own = null) the shared one. */
export interface KeySigningSecret {
  /** own: the key's secret; null = a key made before per-key secrets, signing with the shared secret */
  own: string | null;
  /** setAt: when `own` was made (key creation or last rotation), ISO time; null with the shared secret */
  setAt: string | null;
}

/** keySigningSecret returns a key's secret; null when there is no such key. */
export async function keySigningSecret(keys: KeyStore, keyId: string): Promise<KeySigningSecret | null> {
  const row = await keys.webhookSecret(keyId);
  return row ? { own: row.webhook_secret, setAt: row.webhook_secret_at } : null;
}

/** rotateSigningSecret gives the key a new secret, used from the next request on; null when there is no such key. */
export async function rotateSigningSecret(keys: KeyStore, keyId: string): Promise<KeySigningSecret | null> {
  const secret = newSigningSecret();
  const at = new Date().toISOString();
  return (await keys.setWebhookSecret(keyId, secret, at)) ? { own: secret, setAt: at } : null;
}
