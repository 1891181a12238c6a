/**
 * StampedCache: a process's cache of values read from the store, emptied whenever the store's change
 * stamp of their topic moves (`StoreBackend.changeStamp`: PostgreSQL's NOTIFY feed, or the poll when a
 * notification was lost; SQLite's data_version). The key resolver and the webhook signing secrets use
 * it for the keys' rows.
 *
 * - Reads of one entry in flight are shared: a burst of requests for one key reads the store once.
 * - A value read while a change was seen (or `forget` was called) is returned but not kept: the row may
 *   have changed after it was read.
 * - Bounded: past `max` entries it starts again empty (a flood of distinct keys cannot grow it).
 */
export class StampedCache<V> {
  private readonly entries = new Map<string, V>();
  private readonly loading = new Map<string, Promise<V>>();
  private stamp = "";
  /** generation: moves when the entries are emptied or one is forgotten; a read begun before is not kept */
  private generation = 0;

  constructor(
    private readonly currentStamp: () => string,
    private readonly max: number,
  ) {}

  /** get: the cached value, or undefined (after emptying the cache when the stamp moved) */
  get(key: string): V | undefined {
    this.check();
    return this.entries.get(key);
  }

  /** load reads `key` with `read` (once for all callers at a time) and keeps the value when `keep(value)` and nothing changed meanwhile */
  load(key: string, read: () => Promise<V>, keep: (value: V) => boolean = () => true): Promise<V> {
    const pending = this.loading.get(key);
    if (pending) return pending;
    this.check();
    const generation = this.generation;
    const loaded = read().then((value) => {
      this.check();
      if (this.generation === generation && keep(value)) {
        if (this.entries.size >= this.max) this.entries.clear();
        this.entries.set(key, value);
      }
      return value;
    });
    const settled = loaded.finally(() => {
      if (this.loading.get(key) === settled) this.loading.delete(key);
    });
    this.loading.set(key, settled);
    return settled;
  }

  /** forget drops `key` now (this process changed it); a read of it in flight is not kept */
  forget(key: string): void {
    this.entries.delete(key);
    this.loading.delete(key);
    this.generation++;
  }

  private check(): void {
    const stamp = this.currentStamp();
    if (stamp === this.stamp) return;
    this.stamp = stamp;
    this.entries.clear();
    this.loading.clear();
    this.generation++;
  }
}
