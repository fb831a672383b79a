// The store behind everything a server must remember between requests: the 2026-07-28 call ledger
// today, URL flows and credentials later. Small on purpose, so memory, SQLite and Redis can all be
// exact implementations: string values, a time to live on every key, and one atomic "add if absent".

export interface KeyValueStore {
  /** The value, or undefined when absent or expired. */
  get(key: string): Promise<string | undefined>;
  /** Sets the key only when it is absent (or expired), atomically; true when this call set it. */
  add(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** Sets the key, replacing any value. */
  set(key: string, value: string, ttlMs: number): Promise<void>;
  delete(key: string): Promise<void>;
  /** Releases files and connections; the store is unusable afterwards. */
  close(): Promise<void>;
}
