// The default store: one Map per process, entries dropped when read after their expiry and by a
// sweep (unref'd, so it never keeps a process alive). Right for one instance; a fleet needs a shared store.
import type { KeyValueStore } from "./types.js";

export interface MemoryStoreOptions {
  /** How often expired entries are swept (default 60 s). */
  sweepMs?: number;
}

export function memoryStore(options: MemoryStoreOptions = {}): KeyValueStore {
  const entries = new Map<string, { value: string; expires: number }>();
  const live = (key: string) => {
    const entry = entries.get(key);
    if (entry && entry.expires <= Date.now()) entries.delete(key);
    return entry && entry.expires > Date.now() ? entry : undefined;
  };
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [key, entry] of entries) if (entry.expires <= now) entries.delete(key);
  }, options.sweepMs ?? 60_000);
  sweep.unref();
  return {
    async get(key) {
      return live(key)?.value;
    },
    async add(key, value, ttlMs) {
      if (live(key)) return false;
      entries.set(key, { value, expires: Date.now() + ttlMs });
      return true;
    },
    async set(key, value, ttlMs) {
      entries.set(key, { value, expires: Date.now() + ttlMs });
    },
    async delete(key) {
      entries.delete(key);
    },
    async keys(prefix) {
      return [...entries.keys()].filter((key) => key.startsWith(prefix) && live(key));
    },
    async close() {
      clearInterval(sweep);
      entries.clear();
    },
  };
}
