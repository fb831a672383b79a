// The store behind everything a server must remember between requests: the 2026-07-28 call ledger,
// URL flows and the credential vault. Small on purpose, so memory, SQLite and Redis can all be
// exact implementations: string values, a time to live on every key, an atomic "add if absent" and an
// atomic "replace if unchanged" (what a lease holder fences its writes with).
import type { EventStore } from "@modelcontextprotocol/server";

export interface KeyValueStore {
  /** The value, or undefined when absent or expired. */
  get(key: string): Promise<string | undefined>;
  /** Sets the key only when it is absent (or expired), atomically; true when this call set it. */
  add(key: string, value: string, ttlMs: number): Promise<boolean>;
  /**
   * Replaces the key's value only while it is still `expected` (live), atomically; `value` undefined
   * deletes it instead. True when this call changed it: of several callers that read the same value
   * and swap it, exactly one wins, and none wins once anyone else wrote the key.
   */
  swap(key: string, expected: string, value: string | undefined, ttlMs: number): Promise<boolean>;
  /** Sets the key, replacing any value. */
  set(key: string, value: string, ttlMs: number): Promise<void>;
  delete(key: string): Promise<void>;
  /** The live keys that start with `prefix` (any order); for listing what one owner holds, e.g. the credential vault's entries. */
  keys(prefix: string): Promise<string[]>;
  /** Releases files and connections; the store is unusable afterwards. */
  close(): Promise<void>;
  /**
   * True for a store that several processes share (Redis): whatever is sealed or signed for it must
   * use keys all of them share, so kits refuse a shared store without an explicit key.
   */
  readonly shared?: boolean;
  /** Sends a message to every process subscribed to `channel` (shared stores; at most once, no history). */
  publish?(channel: string, message: string): Promise<void>;
  /** Calls `listener` for each message on `channel` from any process; resolves to a function that unsubscribes. */
  subscribe?(channel: string, listener: (message: string) => void): Promise<() => Promise<void>>;
}

/** What a fleet of serveHttp instances shares: a store with pub/sub and the SDK's resumable-stream event store. */
export interface FleetStore extends KeyValueStore {
  readonly shared: true;
  publish(channel: string, message: string): Promise<void>;
  subscribe(channel: string, listener: (message: string) => void): Promise<() => Promise<void>>;
  /** The SDK's EventStore for 2025-era streams, so a client that reconnects with Last-Event-ID to another instance resumes. */
  eventStore(options?: { ttlMs?: number; maxEventsPerStream?: number }): EventStore;
}
