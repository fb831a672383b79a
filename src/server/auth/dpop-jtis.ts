// The used proof `jti`s of one process, for a server without a store. Every entry lives as long as the
// proof window, so insertion order is expiry order: the oldest are dropped from the front as new ones
// come. The map is capped. When it is full, a new proof is refused (the caller answers 503 with
// Retry-After) instead of evicting a jti that is still live: forgetting a live jti would let its proof
// be replayed, and a refusal only delays an honest client until the oldest entry expires.

/** Default cap: about 15 MB of entries (measured: ~150 bytes each), 800 new proofs a second at the default window. */
export const DEFAULT_MAX_JTIS = 100_000;

export type Spent = "spent" | "replayed" | { full: { retryAfterS: number } };

export class MemoryJtis {
  private readonly seen = new Map<string, number>();
  constructor(readonly max = DEFAULT_MAX_JTIS) {}

  get size(): number {
    return this.seen.size;
  }

  /** Remembers `key` for `ttlMs` unless it is remembered already ("replayed") or the map is full. */
  add(key: string, ttlMs: number, now = Date.now()): Spent {
    for (const [old, until] of this.seen) {
      if (until > now) break;
      this.seen.delete(old);
    }
    const until = this.seen.get(key);
    if (until !== undefined && until > now) return "replayed";
    if (this.seen.size >= this.max) {
      // The oldest entry is the first to expire (every entry has the same lifetime).
      const [oldest = now] = this.seen.values();
      return { full: { retryAfterS: Math.max(1, Math.ceil((oldest - now) / 1000)) } };
    }
    this.seen.set(key, now + ttlMs);
    return "spent";
  }
}
