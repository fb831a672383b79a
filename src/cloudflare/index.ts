// mcp-elicit/cloudflare: what a Worker needs to keep state where Cloudflare keeps it.
export { durableObjectStore } from "../store/cloudflare/durable-object-store.js";
export { ElicitStoreObject } from "../store/cloudflare/store-object.js";
export { durableObjectStoreClient } from "../store/cloudflare/store-client.js";
export { d1Store } from "../store/cloudflare/d1-store.js";
export type { DurableObjectState, DurableObjectStorage, DurableObjectStub } from "../store/cloudflare/platform.js";
export { durableObjectSqlDriver, type SqlStorage } from "../store/sql/durable-object-sql.js";
export { d1Driver, type D1Database } from "../store/sql/d1.js";
export type { SqlStore, SqlStoreOptions } from "../store/sql/sql-store.js";
