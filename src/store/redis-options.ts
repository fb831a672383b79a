// The Redis event store's options, in a module that imports nothing: mcp-elicit/store's declarations
// re-export them, and must not reach node-redis's types (an optional peer a project may not have).

/** What the fleet store's eventStore(options) is given. */
export interface RedisEventStoreOptions {
  /** How long a stream's events are kept after its last event (default 1 hour). */
  ttlMs?: number;
  /** How many of a stream's latest events are kept (default 1000). */
  maxEventsPerStream?: number;
}
