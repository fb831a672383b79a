// ctx.roots: the client's roots, checked before the tool sees them. On a 2025-era connection whose
// client promised `roots.listChanged`, the list is cached per connection (per McpServer, which the
// kit gets one of per connection or HTTP session) until the client says it changed. A client that
// made no such promise is asked on every call, since nothing would tell us the cache went stale.
import type { McpServer, Root } from "@modelcontextprotocol/server";
import { watchNotifications } from "../../common/sdk-internals.js";
import { InvalidClientResultError } from "../base/input-errors.js";

export interface RootsOptions {
  /** How long to wait for the client, in ms (2025 eras; default: the server's, 10 minutes). */
  timeoutMs?: number;
  /** The key of this request in 2026-07-28 `inputRequests` (default `roots-N`). */
  key?: string;
}

interface RootsCache {
  /** Bumped by every list_changed, so an answer that was in flight across one is not cached. */
  generation: number;
  roots?: Root[];
}

const caches = new WeakMap<McpServer, RootsCache>();

/**
 * Invalidates the connection's roots cache on notifications/roots/list_changed. This watches the
 * server's notification dispatch rather than registering a handler: a handler of ours would replace
 * one the author set before, or be replaced by one set after; watching leaves theirs to run as it is.
 */
export function watchRootsChanges(server: McpServer): void {
  if (caches.has(server)) return;
  const cache: RootsCache = { generation: 0 };
  watchNotifications(server.server, (notification) => {
    if (notification?.method === "notifications/roots/list_changed") {
      cache.generation++;
      cache.roots = undefined;
    }
  });
  caches.set(server, cache);
}

/** The client's roots, from the cache when the client will say when they change, else asked now. */
export async function cachedRoots(server: McpServer, listChanged: boolean, ask: () => Promise<Root[]>): Promise<Root[]> {
  const cache = caches.get(server);
  if (listChanged && cache?.roots) return structuredClone(cache.roots);
  const generation = cache?.generation;
  const roots = await ask();
  if (listChanged && cache && cache.generation === generation) cache.roots = structuredClone(roots);
  return roots;
}

/** Checks the client's answer to roots/list; anything malformed is InvalidClientResultError. */
export function checkRootsResult(result: unknown): Root[] {
  const bad = (problem: string): never => {
    throw new InvalidClientResultError("roots/list", problem);
  };
  const roots = (result as { roots?: unknown } | null)?.roots;
  if (typeof result !== "object" || result === null || !Array.isArray(roots)) return bad(`it has no "roots" array.`);
  return roots.map((root, i) => {
    const r = root as { uri?: unknown; name?: unknown; _meta?: unknown } | null;
    if (typeof r !== "object" || r === null || typeof r.uri !== "string") return bad(`roots[${i}] has no string "uri".`);
    if (r.name !== undefined && typeof r.name !== "string") bad(`roots[${i}].name is not a string.`);
    return { ...(r as Root) };
  });
}
