// The Worker's side of 2025-era sessions on Cloudflare: a session lives in the memory of one isolate, and
// a Worker's requests land on any isolate, so every request of a session goes to one Durable Object. An
// initialize (the start of a 2025 session; 2026-07-28 has none) goes to a new object, whose id begins the
// session id it hands out (see session-object.ts); a request naming a session goes to the object its id
// names. Everything else (2026-07-28, which needs no session; the URL kit's pages; the auth metadata) is
// answered by the Worker's own handler.
import { DEFAULT_MAX_REQUEST_BODY_SIZE } from "@modelcontextprotocol/server";
import type { DurableObjectIdLike, DurableObjectNamespaceLike } from "../store/cloudflare/platform.js";

export interface RouteSessionOptions {
  /** The Durable Object namespace whose objects hold one 2025-era session each (their class uses sessionObjectHandler). */
  sessions: DurableObjectNamespaceLike;
  /** The Worker's own handler (createFetchHandler): every request that neither starts nor names a session. */
  handler: (request: Request) => Promise<Response>;
  /** Largest initialize body looked at (default the SDK's 4 MiB); a larger one goes to `handler`, which refuses it. */
  maxBodyBytes?: number;
}

const NOT_FOUND = "Session not found: it expired or was closed; start a new session with initialize (without Mcp-Session-Id)";

const notFound = () =>
  new Response(JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message: NOT_FOUND }, id: null }), {
    status: 404,
    headers: { "content-type": "application/json" },
  });

/** The object a session id names: the part before its dot (the rest is the object's own secret, checked there). */
function objectOf(sessions: DurableObjectNamespaceLike, sessionId: string): DurableObjectIdLike | undefined {
  const [objectId] = sessionId.split(".", 1);
  if (!objectId || !/^[0-9a-f]{64}$/.test(objectId)) return undefined;
  try {
    return sessions.idFromString(objectId);
  } catch {
    return undefined; // an id of another namespace, or none at all
  }
}

/** Whether the request is a JSON-RPC initialize (read from a clone, so the request itself stays unread). */
async function isInitialize(request: Request, limit: number): Promise<boolean> {
  if (request.method !== "POST" || Number(request.headers.get("content-length")) > limit) return false;
  try {
    const text = await request.clone().text();
    if (text.length > limit) return false;
    const message = JSON.parse(text) as { method?: unknown } | unknown[];
    return !Array.isArray(message) && message?.method === "initialize";
  } catch {
    return false;
  }
}

/**
 * Routes a Worker's request: an initialize to a new Durable Object, a request with Mcp-Session-Id to the
 * object that holds that session (an id no object can have: 404 -32001, as for an expired session), and
 * anything else to `handler`.
 */
export async function routeSession(request: Request, options: RouteSessionOptions): Promise<Response> {
  const { sessions, handler } = options;
  const sessionId = request.headers.get("mcp-session-id");
  if (sessionId !== null) {
    const id = objectOf(sessions, sessionId);
    return id ? sessions.get(id).fetch(request) : notFound();
  }
  if (await isInitialize(request, options.maxBodyBytes ?? DEFAULT_MAX_REQUEST_BODY_SIZE))
    return sessions.get(sessions.newUniqueId()).fetch(request);
  return handler(request);
}
