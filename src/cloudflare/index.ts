// mcp-elicit/cloudflare: what a Worker needs on Cloudflare. State where Cloudflare keeps it (a Durable
// Object's SQLite, D1), and 2025-era sessions, one Durable Object per session: the Worker routes with
// routeSession; the Durable Object class serves with sessionObjectHandler. No Cloudflare package is
// needed: the bindings are typed structurally.
import "../server/base/error-codes.js"; // the codes of the errors this entry can throw join ErrorCode for its users
export { durableObjectStore } from "../store/cloudflare/durable-object-store.js";
export { ElicitStoreObject } from "../store/cloudflare/store-object.js";
export { durableObjectStoreClient } from "../store/cloudflare/store-client.js";
export { d1Store } from "../store/cloudflare/d1-store.js";
export type { DurableObjectNamespace, DurableObjectState, DurableObjectStorage, DurableObjectStub } from "../store/cloudflare/platform.js";
export { durableObjectSqlDriver, type SqlStorage } from "../store/sql/durable-object-sql.js";
export { d1Driver, type D1Database } from "../store/sql/d1.js";
export type { SqlStore, SqlStoreOptions } from "../store/sql/sql-store.js";
export { upstashStore, type UpstashStoreOptions } from "../store/upstash.js";
export { routeSession, type RouteSessionOptions } from "./route.js";
export { sessionObjectHandler } from "./session-object.js";
export type { DurableObjectIdLike, DurableObjectNamespaceLike, DurableObjectStateLike, DurableObjectStubLike } from "./types.js";
