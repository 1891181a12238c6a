/**
 * API keys: `dk_` followed by 32 random base62 characters (about 190 bits). Only the SHA-256 of a
 * key is stored; a key is shown once, when it is created. A fast hash is right here because the
 * keys are random, not chosen by people: there is nothing to guess from the hash.
 */
import { randomBytes, createHash, randomInt } from "node:crypto";
import { StampedCache } from "../store/stampedCache";
import { AppError } from "../errors";
import type { ApiKeyRow, KeyStore, SettingStore } from "../store/backend";
import { PLANS, type Plan } from "../store/states";

/** newSigningSecret makes a key's webhook signing secret (webhooks/secret.ts): whsec_ and 32 random bytes in hex. */
export function newSigningSecret(): string {
  return "whsec_" + randomBytes(32).toString("hex");
}

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
export const KEY_PREFIX = "dk_";
/** LAST_USED_RESOLUTION_MS: how stale last_used_at may get before a request refreshes it */
const LAST_USED_RESOLUTION_MS = 60_000;
/** MAX_CACHED_KEYS bounds the resolver's cache */
const MAX_CACHED_KEYS = 10_000;

function randomBase62(length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}

export function hashKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

/** ApiKeyInfo is a key as shown to operators: never the key itself. */
export interface ApiKeyInfo {
  id: string;
  name: string;
  plan: Plan;
  prefix: string;
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

function toInfo(row: ApiKeyRow): ApiKeyInfo {
  return {
    id: row.id,
    name: row.name,
    plan: row.plan,
    prefix: row.prefix,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
    lastUsedAt: row.last_used_at,
  };
}

export function isPlan(value: string): value is Plan {
  return (PLANS as readonly string[]).includes(value);
}

/** newApiKey makes a key and the row that stores it (its hash, never the key), for either backend to insert. */
export function newApiKey(plan: Plan, name = ""): { key: string; row: Omit<ApiKeyRow, "revoked_at" | "last_used_at">; info: ApiKeyInfo } {
  const key = KEY_PREFIX + randomBase62(32);
  const createdAt = new Date().toISOString();
  const row = {
    id: "key_" + randomBytes(6).toString("hex"),
    name,
    plan,
    prefix: key.slice(0, KEY_PREFIX.length + 6),
    key_hash: hashKey(key),
    created_at: createdAt,
    // every key signs its webhooks with its own secret (src/webhooks/secret.ts)
    webhook_secret: newSigningSecret(),
    webhook_secret_at: createdAt,
  };
  return { key, row, info: toInfo({ ...row, revoked_at: null, last_used_at: null }) };
}

/** keyInfoOf shows a stored key row to operators (never the key) */
export function keyInfoOf(row: ApiKeyRow): ApiKeyInfo {
  return toInfo(row);
}

/** createApiKey makes a key and stores it; the key itself is in the answer only. */
export async function createApiKey(keys: KeyStore, plan: Plan, name = ""): Promise<{ key: string; info: ApiKeyInfo }> {
  const { key, row, info } = newApiKey(plan, name);
  await keys.insert(row);
  return { key, info };
}

export async function listApiKeys(keys: KeyStore): Promise<ApiKeyInfo[]> {
  return (await keys.list()).map(toInfo);
}

/** getApiKey: the key `id` as operators see it, or null */
export async function getApiKey(keys: KeyStore, id: string): Promise<ApiKeyInfo | null> {
  const row = await keys.byId(id);
  return row ? toInfo(row) : null;
}

export async function countApiKeys(keys: KeyStore): Promise<number> {
  return (await keys.list()).length;
}

/** revokeApiKey returns false when the key does not exist; revoking twice is harmless. */
export async function revokeApiKey(keys: KeyStore, id: string): Promise<boolean> {
  if (!(await keys.byId(id))) return false;
  await keys.revoke(id, new Date().toISOString());
  return true;
}

/** BOOTSTRAP_CLAIM: the setting naming the id of the first key, written by the one process that makes it */
export const BOOTSTRAP_CLAIM = "bootstrap-key-id";

/**
 * createBootstrapKey makes the first key (plan pro, name "bootstrap") when the store has none, once:
 * processes that start together on one store (several on a data dir, or machines on one PostgreSQL)
 * each propose an id for the setting BOOTSTRAP_CLAIM, and only the process whose id was stored makes
 * the key. null when there were keys already or another process made it. A store that once had its
 * first key made never gets another from here: a key is revoked, never deleted, so it is not empty again.
 */
export async function createBootstrapKey(backend: { keys: KeyStore; settings: SettingStore }): Promise<{ key: string; info: ApiKeyInfo } | null> {
  if ((await backend.keys.list()).length > 0) return null;
  const made = newApiKey("pro", "bootstrap");
  const claimed = await backend.settings.getOrCreate(BOOTSTRAP_CLAIM, () => made.row.id);
  if (claimed !== made.row.id) return null;
  await backend.keys.insert(made.row);
  return { key: made.key, info: made.info };
}

/** TouchError receives a failed write of a key's last use (logged by the caller; the request went on) */
export type TouchError = (error: unknown) => void;

/** Cached: a key as the resolver holds it: the row, its info as handed out, its last use in unix ms (0 = never) */
interface Cached {
  row: ApiKeyRow;
  info: ApiKeyInfo;
  lastUsedMs: number;
}

/**
 * KeyResolver turns the X-API-Key header into an active key, or throws 401. Rows are cached by the
 * presented key (so a cached key costs no hashing; the process sees the key in every request anyway,
 * only the store must never hold it), and the cache is emptied whenever the store's change stamp of
 * "keys" moves: a key made, revoked or changed by any process or machine (PostgreSQL: its change
 * feed, within a second; SQLite: data_version, from the next event-loop turn on). A cached key is
 * answered without an await (the http-auth bench's fast path); a miss awaits the store. Keys are
 * also cached by id (`byId`: preview links and the anonymous key), under the same stamp.
 *
 * last_used_at is kept to the minute: one write per key per minute, queued and written after the
 * request's turn, never awaited by it; a failed write goes to `onTouchError`.
 */
export class KeyResolver {
  /** cached: rows by presented key (a burst of one new key reads the store once; an unknown key is not kept) */
  private readonly cached: StampedCache<Cached | null>;
  private readonly cachedById: StampedCache<ApiKeyInfo | null>;
  /** touches: last uses to write, by key id (the newest wins) */
  private touches = new Map<string, string>();
  /**
   * usedMs: the last use this process recorded, by key id, kept when the caches are emptied: a row
   * read again before its touch was written still holds the older last_used_at, and must not be
   * touched a second time within the minute.
   */
  private readonly usedMs = new Map<string, number>();
  /** writing: the touches written so far, settled once all of them have ended */
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly backend: { keys: KeyStore; changeStamp(topic: "keys"): string },
    private readonly onTouchError: TouchError = (error) => console.error("docintel: could not record a key's last use:", error),
  ) {
    this.cached = new StampedCache(() => backend.changeStamp("keys"), MAX_CACHED_KEYS);
    this.cachedById = new StampedCache(() => backend.changeStamp("keys"), MAX_CACHED_KEYS);
  }

  /** resolve: the active key presented, or 401; a value when the key was cached, else a promise */
  resolve(presented: string | null): ApiKeyInfo | Promise<ApiKeyInfo> {
    if (!presented) throw new AppError("unauthorized", "Missing API key: send it in the X-API-Key header.");
    const key = presented.trim();
    const entry = this.cached.get(key);
    if (entry) return this.admit(entry);
    return this.load(key).then((loaded) => {
      if (!loaded) throw new AppError("unauthorized", "Invalid API key.");
      return this.admit(loaded);
    });
  }

  /** byId: the key `id` (revoked ones too), or null; cached like `resolve` (a value when cached, else a promise) */
  byId(id: string): ApiKeyInfo | null | Promise<ApiKeyInfo | null> {
    const known = this.cachedById.get(id);
    if (known !== undefined) return known;
    return this.cachedById.load(id, async () => {
      const row = await this.backend.keys.byId(id);
      return row ? toInfo(row) : null;
    });
  }

  /**
   * flushTouches writes the queued last uses now (also run after each turn that queued one), and
   * resolves once every write started before it has ended, the ones a flush after a turn started
   * included (the shutdown and the tests rely on that).
   */
  async flushTouches(): Promise<void> {
    const due = this.touches;
    this.touches = new Map();
    const writes = [...due].map(([id, at]) =>
      this.backend.keys.touch(id, at).catch((error) => {
        this.onTouchError(error);
      }),
    );
    const earlier = this.writing;
    const all = Promise.all([earlier, ...writes]).then(() => undefined);
    this.writing = all;
    await all;
  }

  /** load reads the row of a presented key (by its hash); a key revoked while the row was on its way is not kept (StampedCache) */
  private load(key: string): Promise<Cached | null> {
    return this.cached.load(
      key,
      async () => {
        const row = await this.backend.keys.byHash(hashKey(key));
        if (!row) return null;
        const stored = row.last_used_at ? Date.parse(row.last_used_at) : 0;
        const recorded = this.usedMs.get(row.id) ?? 0;
        if (recorded > stored) row.last_used_at = new Date(recorded).toISOString();
        return { row, info: toInfo(row), lastUsedMs: Math.max(stored, recorded) };
      },
      (entry) => entry !== null,
    );
  }

  private admit(entry: Cached): ApiKeyInfo {
    if (entry.row.revoked_at) throw new AppError("unauthorized", "This API key has been revoked.");
    const now = Date.now();
    if (now - entry.lastUsedMs > LAST_USED_RESOLUTION_MS) {
      entry.row.last_used_at = new Date(now).toISOString();
      entry.lastUsedMs = now;
      entry.info = toInfo(entry.row);
      // bounded: a flood of distinct valid keys cannot grow it without limit
      if (this.usedMs.size >= MAX_CACHED_KEYS) this.usedMs.clear();
      this.usedMs.set(entry.row.id, now);
      if (this.touches.size === 0) setImmediate(() => void this.flushTouches());
      this.touches.set(entry.row.id, entry.row.last_used_at);
    }
    return entry.info;
  }
}
