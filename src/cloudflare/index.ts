// mcp-elicit/cloudflare: 2025-era sessions on Cloudflare Workers, one Durable Object per session. The Worker
// routes with routeSession; the Durable Object class serves with sessionObjectHandler. No Cloudflare package
// is needed: the bindings are typed structurally (types.ts).
export { routeSession, type RouteSessionOptions } from "./route.js";
export { sessionObjectHandler } from "./session-object.js";
export type { DurableObjectIdLike, DurableObjectNamespaceLike, DurableObjectStateLike, DurableObjectStubLike } from "./types.js";
