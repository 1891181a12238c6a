/**
 * API keys: `dk_` followed by 32 random base62 characters (about 190 bits). Only the SHA-256 of a
 * key is stored; a key is shown once, when it is created. A fast hash is right here because the
 * keys are random, not chosen by people: there is nothing to guess from the hash.
 */
import { randomBytes, createHash, randomInt } from "node:crypto";
import { AppError } from "../errors";
import type { Store } from "../store";
import { PLANS, type Plan } from "../store/states";
import { keyQueries, type ApiKeyRow } from "./queries";

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

export function createApiKey(store: Store, plan: Plan, name = ""): { key: string; info: ApiKeyInfo } {
  const { key, row, info } = newApiKey(plan, name);
  keyQueries(store).insert(row);
  return { key, info };
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

export function listApiKeys(store: Store): ApiKeyInfo[] {
  return keyQueries(store).list().map(toInfo);
}

export function getApiKey(store: Store, id: string): ApiKeyInfo | null {
  const row = keyQueries(store).byId(id);
  return row ? toInfo(row) : null;
}

export function countApiKeys(store: Store): number {
  return keyQueries(store).count();
}

/** revokeApiKey returns false when the key does not exist; revoking twice is harmless. */
export function revokeApiKey(store: Store, id: string): boolean {
  const q = keyQueries(store);
  if (!q.byId(id)) return false;
  q.revoke(id, new Date().toISOString());
  return true;
}

/**
 * KeyResolver turns the X-API-Key header into an active key, or throws 401. Rows are cached by the
 * presented key (so a cached key costs no hashing; the process sees the key in every request anyway,
 * only the store must never hold it), and the cache is emptied whenever the store's change stamp
 * moves: another connection (the CLI revoking a key, another instance) committed, or this one wrote.
 * A revocation therefore counts from the next event-loop turn on, and a cached row never outlives a
 * change to the store.
 */
export class KeyResolver {
  /** by presented key: the row, its info as handed out, and its last use in unix ms (0 = never) */
  private readonly cached = new Map<string, { row: ApiKeyRow; info: ApiKeyInfo; lastUsedMs: number }>();
  private readonly q: ReturnType<typeof keyQueries>;
  private stamp = "";

  constructor(private readonly store: Store) {
    this.q = keyQueries(store);
  }

  resolve(presented: string | null): ApiKeyInfo {
    if (!presented) throw new AppError("unauthorized", "Missing API key: send it in the X-API-Key header.");
    const stamp = this.store.changeStamp();
    if (stamp !== this.stamp) {
      this.cached.clear();
      this.stamp = stamp;
    }
    const key = presented.trim();
    let entry = this.cached.get(key);
    if (!entry) {
      const row = this.q.byHash(hashKey(key));
      if (!row) throw new AppError("unauthorized", "Invalid API key.");
      entry = { row, info: toInfo(row), lastUsedMs: row.last_used_at ? Date.parse(row.last_used_at) : 0 };
      // bounded: a flood of distinct valid keys cannot grow it without limit
      if (this.cached.size >= MAX_CACHED_KEYS) this.cached.clear();
      this.cached.set(key, entry);
    }
    if (entry.row.revoked_at) throw new AppError("unauthorized", "This API key has been revoked.");
    // last use is kept to the minute: one write per key per minute, not one per request
    const now = Date.now();
    if (now - entry.lastUsedMs > LAST_USED_RESOLUTION_MS) {
      entry.row.last_used_at = new Date(now).toISOString();
      entry.lastUsedMs = now;
      entry.info = toInfo(entry.row);
      this.q.touch(entry.row.id, entry.row.last_used_at);
    }
    return entry.info;
  }
}
