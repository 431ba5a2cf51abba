/** A bounded in-memory map whose entries expire; oldest entries are evicted first when full. */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; storedAt: number; expiresAt: number }>();

  constructor(private readonly maxEntries = 100_000) {}

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
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, storedAt: now, expiresAt: now + ttlMs });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
