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
 * rotation the next request (a retry of an older delivery too) carries the new signature. Each
 * process caches the secrets (SigningSecrets, below); a rotation reaches the caches of other
 * processes and machines through the store's change announcement, within a second.
 *
 * Storage: the secrets are kept as they are in the store, unlike API keys, which are kept hashed. An
 * API key is checked (a hash suffices); a signing secret must be used to sign, so the server needs
 * it back. Encrypting it with a server key kept in the same data dir would not protect it from
 * anyone who can read that dir, and an operator who wants that can encrypt the disk. A leaked
 * signing secret lets its holder forge webhooks to that one key's receivers; it does not let anyone
 * call the API.
 */
import { newSigningSecret } from "../security/apiKeys";
import { StampedCache } from "../store/stampedCache";
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

/**
 * rotateSigningSecret gives the key a new secret, used from the next request on; null when there is
 * no such key. `cache`: this process's SigningSecrets, which forgets the old secret at once (other
 * processes and machines see the store's change announcement).
 */
export async function rotateSigningSecret(keys: KeyStore, keyId: string, cache?: Pick<SigningSecrets, "forget">): Promise<KeySigningSecret | null> {
  const secret = newSigningSecret();
  const at = new Date().toISOString();
  const rotated = await keys.setWebhookSecret(keyId, secret, at);
  cache?.forget(keyId);
  return rotated ? { own: secret, setAt: at } : null;
}

/** MAX_CACHED_SECRETS bounds SigningSecrets: a process sending for more keys reads some again */
const MAX_CACHED_SECRETS = 10_000;

/**
 * SigningSecrets: the secret that signs a key's webhooks now, cached per key so that a request does
 * not read it from the store each time (on PostgreSQL that read was a round trip per webhook).
 *
 * The cache is emptied whenever the keys' change stamp moves (`backend.changeStamp("keys")`, as the
 * KeyResolver's): on PostgreSQL a NOTIFY from the keys' trigger, which announces a changed
 * `webhook_secret` since migration 9, from any machine (or at the next change poll, 1 s, when a
 * notification was lost); on SQLite every commit of any process. `forget` drops a key at once, for a
 * rotation made by this process. A secret read while a change was seen is used but not kept.
 */
export class SigningSecrets {
  /** cache: key id -> its own secret; null = the shared secret (a key made before per-key secrets, or no such key) */
  private readonly cache: StampedCache<string | null>;

  constructor(
    private readonly backend: { keys: KeyStore; changeStamp(topic: "keys"): string },
    private readonly shared: string,
  ) {
    this.cache = new StampedCache(() => backend.changeStamp("keys"), MAX_CACHED_SECRETS);
  }

  /** of: the secret that signs a delivery of `keyId` now (null: a delivery made before migration 5, the shared secret); a value when cached */
  of(keyId: string | null): string | Promise<string> {
    if (!keyId) return this.shared;
    const own = this.cache.get(keyId);
    if (own !== undefined) return own ?? this.shared;
    return this.cache.load(keyId, async () => (await this.backend.keys.webhookSecret(keyId))?.webhook_secret ?? null).then((secret) => secret ?? this.shared);
  }

  /** forget drops `keyId`'s secret (this process rotated it); the next request reads it again */
  forget(keyId: string): void {
    this.cache.forget(keyId);
  }
}
