import { LRUCache } from 'lru-cache';

/**
 * A bounded map whose entries expire: lru-cache keeps the bound (least recently used evicted), and
 * each entry carries its own expiry in our clock, so callers (and tests) can pass the time they
 * reason in rather than lru-cache's monotonic one.
 */
export class TtlCache<V extends NonNullable<unknown>> {
  private readonly entries: LRUCache<string, { value: V; storedAt: number; expiresAt: number }>;

  constructor(maxEntries = 100_000) {
    this.entries = new LRUCache({ max: maxEntries });
  }

  get(key: string, now = Date.now()): { value: V; storedAt: number } | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  set(key: string, value: V, ttlMs: number, now = Date.now()): void {
    if (ttlMs <= 0) return;
    this.entries.set(key, { value, storedAt: now, expiresAt: now + ttlMs });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
