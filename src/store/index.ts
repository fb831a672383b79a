// mcp-elicit/store: where a server keeps what must outlive one request.
export type { FleetStore, KeyValueStore } from "./types.js";
export { memoryStore, type MemoryStoreOptions } from "./memory.js";
export { sqliteStore, StoreFileDamagedError, type SqliteStoreOptions } from "./sqlite.js";
export { redisStore, type RedisEventStoreOptions, type RedisStoreOptions } from "./redis.js";
