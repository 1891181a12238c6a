/**
 * src/store/stampedCache.ts: the per-process cache of the keys' rows (key resolver, webhook signing
 * secrets), emptied when the store's change stamp moves.
 */
import { describe, expect, test } from "bun:test";
import { StampedCache } from "../src/store/stampedCache";

/** gated: a read that resolves when the test says so, counting how often the store was read */
function store() {
  let stamp = "1";
  let reads = 0;
  let release: (v: string) => void = () => {};
  return {
    stamp: () => stamp,
    move: () => (stamp = String(Number(stamp) + 1)),
    reads: () => reads,
    read: () => {
      reads++;
      return new Promise<string>((resolve) => (release = resolve));
    },
    release: (v: string) => release(v),
  };
}

describe("StampedCache", () => {
  test("reads of one key in flight are shared, and the value is kept", async () => {
    const s = store();
    const cache = new StampedCache<string>(s.stamp, 10);
    const a = cache.load("k", s.read);
    const b = cache.load("k", s.read);
    s.release("v1");
    expect([await a, await b]).toEqual(["v1", "v1"]);
    expect(s.reads()).toBe(1);
    expect(cache.get("k")).toBe("v1");
  });

  test("a moved stamp empties the cache, and a value read across the move is returned but not kept", async () => {
    const s = store();
    const cache = new StampedCache<string>(s.stamp, 10);
    const first = cache.load("k", s.read);
    s.release("old");
    await first;
    s.move();
    expect(cache.get("k")).toBeUndefined();
    const racing = cache.load("k", s.read);
    s.move(); // the row changed while it was read
    s.release("maybe stale");
    expect(await racing).toBe("maybe stale");
    expect(cache.get("k")).toBeUndefined();
  });

  test("forget drops a key at once and a read of it in flight is not kept; keep() chooses what is kept", async () => {
    const s = store();
    const cache = new StampedCache<string>(s.stamp, 10);
    const inFlight = cache.load("k", s.read);
    cache.forget("k");
    s.release("before the change");
    await inFlight;
    expect(cache.get("k")).toBeUndefined();
    const refused = cache.load("other", s.read, (v) => v !== "unknown");
    s.release("unknown");
    await refused;
    expect(cache.get("other")).toBeUndefined();
  });

  test("past its bound it starts again empty", async () => {
    const cache = new StampedCache<number>(() => "1", 2);
    for (const [k, v] of [["a", 1], ["b", 2], ["c", 3]] as const) await cache.load(k, async () => v);
    expect([cache.get("a"), cache.get("b"), cache.get("c")]).toEqual([undefined, undefined, 3]);
  });
});
