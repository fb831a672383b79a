// mcp-elicit/store: where a server keeps what must outlive one request.
import "./error-codes.js"; // the codes of the errors this entry can throw join ErrorCode for its users
export type { FleetStore, KeyValueStore } from "./types.js";
export { memoryStore, type MemoryStoreOptions } from "./memory.js";
export { sqliteStore, StoreFileDamagedError, type SqliteBinding, type SqliteStoreOptions } from "./sqlite.js";
export { sqlStore, type SqlStore, type SqlStoreOptions } from "./sql/sql-store.js";
export type { SqlDriver, SqlValue } from "./sql/driver.js";
export { betterSqlite3Driver, type BetterSqlite3Database } from "./sql/better-sqlite3.js";
export { nodeSqliteDriver, type NodeSqliteDatabase } from "./sql/node-sqlite.js";
export { bunSqliteDriver, type BunSqliteDatabase } from "./sql/bun-sqlite.js";
export { redisStore, type RedisEventStoreOptions, type RedisStoreOptions } from "./redis.js";
export { upstashStore, type UpstashStoreOptions } from "./upstash.js";
