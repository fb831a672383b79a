// The store behind everything a server must remember between requests: the 2026-07-28 call ledger,
// URL flows and the credential vault. Small on purpose, so memory, SQLite and Redis can all be
// exact implementations: string values, a time to live on every key, and one atomic "add if absent".

export interface KeyValueStore {
  /** The value, or undefined when absent or expired. */
  get(key: string): Promise<string | undefined>;
  /** Sets the key only when it is absent (or expired), atomically; true when this call set it. */
  add(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** Sets the key, replacing any value. */
  set(key: string, value: string, ttlMs: number): Promise<void>;
  delete(key: string): Promise<void>;
  /** The live keys that start with `prefix` (any order); for listing what one owner holds, e.g. the credential vault's entries. */
  keys(prefix: string): Promise<string[]>;
  /** Releases files and connections; the store is unusable afterwards. */
  close(): Promise<void>;
}
