// Streamable HTTP for every revision on one URL, as a Web-standard handler (Request → Response) that
// runs unchanged on Workers, Deno, Bun, Vercel-style routes and Node. 2026-07-28 requests go to the
// SDK's stateless createMcpHandler; 2025-era requests get a session each, because only a session
// remembers the client's capabilities and can carry server→client requests (elicitation) on the
// call's stream. Nothing is made before the first request (no timer, no random id, no fetch): Workers
// forbid that in global scope, and a handler made at module scope must still load there.
//
// The pieces: the sessions (session-table.ts), the session a request holds open (request-hold.ts), the
// auth gate (endpoint-auth.ts), the URL kit's pages (mount-pages.ts) and the body (body.ts); `route` below
// sends a request through them. serveHttp (Node) adds its address and a fleet through `hooks`.
import { createMcpHandler, hostHeaderValidationResponse, type AuthInfo, type McpHttpHandler } from "@modelcontextprotocol/server";
import { ownerOf } from "../auth/gate.js";
import type { PeerInfo } from "../url/kit-types.js";
import { instanceWarning, keepsStateInInstance } from "../base/kit-stores.js";
import { readMessage } from "./body.js";
import { EndpointAuth } from "./endpoint-auth.js";
import { pagesRoute } from "./mount-pages.js";
import {
  DEFAULT_MAX_SESSIONS,
  DEFAULT_SESSION_IDLE_MS,
  positive,
  type FetchHandler,
  type FetchHandlerOptions,
  type ServerFactory,
} from "./fetch-options.js";
import { RequestHold } from "./request-hold.js";
import { jsonError } from "./responses.js";
import { SessionTable } from "./session-table.js";
import type { ServingHooks } from "./serving-hooks.js";

const NOT_FOUND = "Session not found: it expired or was closed; start a new session with initialize (without Mcp-Session-Id)";
/**
 * The same answer from a fetch handler that may be one of several instances (createFetchHandler): a
 * 2025-era session lives in the process that opened it, so the request may simply have reached another.
 */
const NOT_FOUND_HERE =
  "Session not found on this instance: it expired or was closed, or it lives on another instance of this server (a 2025-era session lives in the one process that opened it, so a deployment with several instances needs sticky routing to it, a Durable Object per session on Workers, or clients on 2026-07-28); start a new session with initialize (without Mcp-Session-Id)";

/**
 * A Web-standard handler serving the McpServers `factory` builds over Streamable HTTP, every protocol
 * revision on one path (2026-07-28 stateless, 2025 eras a session each), with the auth gate and the URL
 * kit's pages when asked. On Node, `serveHttp` from mcp-elicit/node listens with it.
 *
 * @example
 * ```ts region=examples/fetch-handler.ts#createFetchHandler
 * const handler = createFetchHandler(() => {
 *   const server = new McpServer({ name: "travel", version: "1.0.0" });
 *   kit.registerTool(server, "pick_seat", { description: "Asks for a seat" }, async (_args, ctx) => {
 *     const answer = await ctx.elicit("Pick a seat", form({ seat: choice({ window: "Window", aisle: "Aisle" }) }));
 *     return { content: [{ type: "text", text: answer.action === "accept" ? answer.content.seat : answer.action }] };
 *   });
 *   return server;
 * });
 * export default { fetch: (request: Request) => handler(request) };
 * ```
 */
export function createFetchHandler(factory: ServerFactory, options: FetchHandlerOptions = {}): FetchHandler {
  return fetchServing(factory, options);
}

/** createFetchHandler, for callers inside the kit that know where sessions live (sessionObjectHandler). */
export function fetchServing(
  factory: ServerFactory,
  options: FetchHandlerOptions,
  where: { sessionsHeldHere?: boolean } = {},
): FetchHandler {
  if (options.auth && !options.auth.resource)
    throw new TypeError(
      "createFetchHandler: auth needs auth.resource, the public URL clients connect to (e.g. https://mcp.example.com/mcp): a fetch handler does not know its own address.",
    );
  return createServing(factory, options, { who: "createFetchHandler", ...where });
}

/** The fetch handler behind createFetchHandler, serveHttp and sessionObjectHandler: `hooks` says which entry serves. */
export function createServing(factory: ServerFactory, options: FetchHandlerOptions, hooks: ServingHooks): FetchHandler {
  const { who, fleet } = hooks;
  const path = options.path ?? "/mcp";
  const onerror = (error: Error) => options.onerror?.(error);
  const idleMs = positive(who, "sessionIdleMs", options.sessionIdleMs, DEFAULT_SESSION_IDLE_MS);
  const maxSessions = positive(who, "maxSessions", options.maxSessions, DEFAULT_MAX_SESSIONS);
  const build = warningOnce(factory, options, hooks);
  // serveHttp is one process, a fleet finds a session on its other members, and a Durable Object holds its
  // session's every request: there, not found means gone.
  const notFound = hooks.oneInstance || hooks.sessionsHeldHere || fleet ? NOT_FOUND : NOT_FOUND_HERE;
  const newSessionId = options.sessionIdGenerator ?? (() => crypto.randomUUID());
  const sessions = new SessionTable({ build, newSessionId, idleMs, maxSessions, fleet, onerror, notFound });
  const pages = options.urlKit && pagesRoute(who, options.urlKit, path, options.auth?.issuer);
  const auth = options.auth && new EndpointAuth(options.auth, path, hooks, options.onerror);
  /** The SDK's 2026-07-28 entry, made at the first request that needs it. */
  let modern: McpHttpHandler | undefined;

  async function route(request: Request, peer: PeerInfo | undefined, hold: RequestHold): Promise<Response> {
    if (options.allowedHosts) {
      const refused = hostHeaderValidationResponse(request, options.allowedHosts);
      if (refused) return refused;
    }
    const pathname = new URL(request.url).pathname;
    const page = pages?.(request, pathname, peer);
    if (page) return await page;
    const checked: { response: Response } | { auth?: AuthInfo } = auth ? await auth.check(request, pathname) : {};
    if ("response" in checked) return checked.response;
    if (pathname !== path) return jsonError(404, -32000, `Not found; the MCP endpoint is ${path}`);
    const message = await readMessage(request, onerror);
    if (message instanceof Response) return message;
    const requestOptions = { parsedBody: message.parsed, ...(checked.auth && { authInfo: checked.auth }) };
    if (message.era === "modern") {
      modern ??= createMcpHandler(build, { legacy: "reject", ...(options.onerror ? { onerror: options.onerror } : {}) });
      return await modern.fetch(request, requestOptions);
    }
    const session = await sessions.forRequest(request, ownerOf(checked.auth), message.parsed);
    if (session instanceof Response) return session;
    // A message whose sender has left is still handled (a cancellation, an answer), just not counted as open.
    hold.admit(session);
    const serve = () => session.transport.handleRequest(request, requestOptions);
    // In a fleet, what the request starts knows its stream and token (a lost call finished here runs with the token).
    return await (fleet ? fleet.scope(request, checked.auth, serve) : serve());
  }

  async function handle(request: Request, peer?: PeerInfo): Promise<Response> {
    const hold = new RequestHold(request, (session) => void sessions.close(session));
    // Held from its headers on, so a session cannot expire while a request's body is still arriving.
    const named = request.headers.get("mcp-session-id");
    const early = named === null ? undefined : sessions.find(named);
    if (early) hold.hold(early);
    let response: Response;
    try {
      response = await route(request, peer, hold);
    } catch (error) {
      onerror(error as Error);
      response = jsonError(500, -32603, "Internal error");
    }
    return hold.settle(response);
  }

  // defineProperty, not Object.assign: the count is read when asked, not copied once.
  Object.defineProperty(handle, "sessionCount", { get: () => sessions.count, enumerable: true });
  return Object.assign(handle as typeof handle & { readonly sessionCount: number }, {
    async close() {
      await sessions.closeAll();
      await modern?.close();
    },
  });
}

/** The factory, and a warning (once) when its server keeps a kit's ledger in this instance only (none for one process). */
function warningOnce(factory: ServerFactory, options: FetchHandlerOptions, hooks: ServingHooks): ServerFactory {
  let warned = hooks.oneInstance === true;
  return async (ctx) => {
    const server = await factory(ctx);
    if (!warned && keepsStateInInstance(server)) {
      warned = true;
      (options.warn ?? console.warn)(instanceWarning(hooks.who));
    }
    return server;
  };
}
