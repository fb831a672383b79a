// Streamable HTTP for every revision on one URL, as a Web-standard handler (Request → Response) that
// runs unchanged on Workers, Deno, Bun, Vercel-style routes and Node. 2026-07-28 requests go to the
// SDK's stateless createMcpHandler; 2025-era requests get a session each, because only a session
// remembers the client's capabilities and can carry server→client requests (elicitation) on the
// call's stream. Nothing is made before the first request (no timer, no random id, no fetch): Workers
// forbid that in global scope, and a handler made at module scope must still load there.
//
// Sessions are bounded: one whose client went away without DELETE expires after `sessionIdleMs`
// with nothing open or pending on it (one sweep timer, started with the first session, checks them
// all), and at most `maxSessions` exist at once. serveHttp (Node) adds a fleet through `hooks`.
import {
  createMcpHandler,
  hostHeaderValidationResponse,
  isJsonContentType,
  type AuthInfo,
  type JSONRPCMessage,
  type McpHttpHandler,
  type McpServer,
  type Server as McpLowLevelServer,
} from "@modelcontextprotocol/server";
import { createAuthGate, ownerOf, prepareAuth, type AuthGate } from "../auth/gate.js";
import type { IssuerMetadata } from "../auth/discovery.js";
import type { FleetSessions } from "../fleet/sessions.js";
import type { KeyValueStore } from "../../store/types.js";
import type { PeerInfo } from "../url/kit-types.js";
import { instanceWarning, keepsStateInInstance } from "../base/kit-stores.js";
import { readBody } from "./body.js";
import { checkPagesPath, mountPages } from "./mount-pages.js";
import {
  DEFAULT_MAX_SESSIONS,
  DEFAULT_SESSION_IDLE_MS,
  positive,
  type FetchHandler,
  type FetchHandlerOptions,
  type ServerFactory,
} from "./fetch-options.js";
import { afterBody, jsonError } from "./responses.js";
import { TrackedTransport, type Message, type RequestIdMap, type Session } from "../fleet/session.js";
import { unref } from "../../common/unref.js";

const NOT_FOUND = "Session not found: it expired or was closed; start a new session with initialize (without Mcp-Session-Id)";
/**
 * The same answer from a fetch handler that may be one of several instances (createFetchHandler): a
 * 2025-era session lives in the process that opened it, so the request may simply have reached another.
 */
const NOT_FOUND_HERE =
  "Session not found on this instance: it expired or was closed, or it lives on another instance of this server (a 2025-era session lives in the one process that opened it, so a deployment with several instances needs sticky routing to it, a Durable Object per session on Workers, or clients on 2026-07-28); start a new session with initialize (without Mcp-Session-Id)";
/** An answer on an adopted session to a request its dead member sent (its question is asked again under a new id). */
const LATE_ANSWER =
  "Dropped an answer to a request this instance did not send: it was sent by the instance that held the session before it stopped, and any question still needed was asked again under a new id";

/** What serveHttp adds on Node: its address, the issuer metadata it fetched before listening, and its fleet. */
export interface ServingHooks {
  /** Name used in errors: createFetchHandler or serveHttp. */
  who: string;
  /** serveHttp: one process, where a kit's memory is where every retry comes back to (no warning). */
  oneInstance?: boolean;
  /** Every request naming a session reaches this handler (a Durable Object per session): an unknown session is gone, not elsewhere. */
  sessionsHeldHere?: boolean;
  /** Where the endpoint is served (serveHttp's listening address); else the first request's origin and `path`. */
  endpoint?: URL;
  issuerMetadata?: IssuerMetadata;
  fleet?: {
    sessions: FleetSessions;
    store: KeyValueStore;
    /** The ids map of an adopted session (fleet/request-ids.ts). */
    requestIds(): RequestIdMap;
    /** Passes a request to the member holding its session: its answer, or undefined when unreachable. */
    forward(request: Request, target: URL, body: unknown): Promise<Response | undefined>;
    /** Whether the request was already passed on once (it is then answered where it lands). */
    forwarded(request: Request): boolean;
    /** Runs what a request starts in the fleet's scope (its stream and token, for calls finished elsewhere). */
    scope<T>(request: Request, auth: AuthInfo | undefined, handle: () => Promise<T>): Promise<T>;
  };
}

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

export function createServing(factory: ServerFactory, options: FetchHandlerOptions, hooks: ServingHooks): FetchHandler {
  const { who, fleet } = hooks;
  const path = options.path ?? "/mcp";
  const idleMs = positive(who, "sessionIdleMs", options.sessionIdleMs, DEFAULT_SESSION_IDLE_MS);
  const maxSessions = positive(who, "maxSessions", options.maxSessions, DEFAULT_MAX_SESSIONS);
  const onerror = (error: Error) => options.onerror?.(error);
  const newSessionId = options.sessionIdGenerator ?? (() => crypto.randomUUID());
  const kit = options.urlKit;
  if (kit?.baseUrl) checkPagesPath(who, kit, path);
  let warned = hooks.oneInstance === true;
  // serveHttp is one process, a fleet finds a session on its other members, and a Durable Object holds its
  // session's every request: there, not found means gone.
  const notFound = hooks.oneInstance || hooks.sessionsHeldHere || fleet ? NOT_FOUND : NOT_FOUND_HERE;
  /** The factory, and a warning (once) when its server keeps a kit's ledger in this instance only. */
  const build: ServerFactory = async (ctx) => {
    const server = await factory(ctx);
    if (!warned && keepsStateInInstance(server)) {
      warned = true;
      (options.warn ?? console.warn)(instanceWarning(who));
    }
    return server;
  };
  /** The SDK's 2026-07-28 entry, made at the first request that needs it. */
  let modern: McpHttpHandler | undefined;
  let gate: Promise<AuthGate> | undefined;
  /** Initialized sessions by id. */
  const sessions = new Map<string, Session>();
  /** Every session not yet closed, initialized or still answering its initialize. */
  const live = new Set<Session>();
  /** Sessions being made (factory and connect) before they join `live`. */
  let starting = 0;
  let sweep: ReturnType<typeof setInterval> | undefined;
  let closed = false;

  /** The auth gate, made once (a failed issuer lookup is tried again at the next request). */
  function gateFor(request: Request): Promise<AuthGate> {
    const auth = options.auth!;
    gate ??= (async () => {
      const metadata = hooks.issuerMetadata ?? (await prepareAuth(auth));
      const endpoint = hooks.endpoint ?? new URL(path, request.url);
      return createAuthGate(auth, metadata, endpoint, options.onerror, fleet?.store);
    })();
    gate.catch(() => (gate = undefined));
    return gate;
  }

  // serveHttp has the issuer's metadata and its address before it serves: its gate is made now, when
  // the options are read (the DPoP nonce key from the environment, say), not at the first request.
  if (options.auth && hooks.issuerMetadata && hooks.endpoint)
    gate = Promise.resolve(createAuthGate(options.auth, hooks.issuerMetadata, hooks.endpoint, options.onerror, fleet?.store));

  /** One sweep for all sessions, at half the idle time (at most a minute), started with the first session. */
  function startSweep() {
    if (sweep || !Number.isFinite(idleMs) || closed) return;
    sweep = setInterval(
      () => {
        const now = Date.now();
        for (const session of sessions.values()) {
          const { activity } = session.transport;
          if (!activity.busy && now - activity.lastActive >= idleMs) void closeSession(session);
        }
      },
      Math.min(60_000, Math.max(10, Math.floor(idleMs / 2))),
    );
    unref(sweep); // a sweep never keeps a process alive
  }

  /** Closes a session here; `ended` (DELETE, expiry) also forgets it in the fleet, while a member shutting down leaves it for another. */
  function closeSession(session: Session, ended = true): Promise<void> {
    if (session.closed) return Promise.resolve();
    session.closed = true;
    live.delete(session);
    const id = session.transport.sessionId;
    if (id !== undefined && sessions.get(id) === session) {
      sessions.delete(id);
      if (ended) fleet?.sessions.ended(id);
    }
    // McpServer.close() closes the transport too; closing it again is a no-op.
    return Promise.allSettled([session.server.close(), session.transport.close()]).then(() => undefined);
  }

  /** A new session; in a fleet its id is fixed first, since its event store is namespaced by it (an adopted one keeps its recorded id). */
  async function openSession(owner: string | undefined, initialize?: unknown, adoptedId?: string): Promise<Session> {
    const id = adoptedId ?? newSessionId();
    const fleetSessions = fleet?.sessions;
    const transport: TrackedTransport = new TrackedTransport({
      sessionIdGenerator: () => id,
      onsessioninitialized: async (sid) => {
        sessions.set(sid, session);
        // A new session's record exists before its client learns its id.
        if (fleetSessions && adoptedId === undefined) await fleetSessions.started(sid, session);
      },
      onsessionclosed: () => void closeSession(session),
      ...(fleetSessions && { eventStore: fleetSessions.eventStoreFor(id) }),
    });
    if (fleetSessions) transport.activity.calls = fleetSessions.callObserver(id, transport);
    let server: McpServer | McpLowLevelServer | undefined;
    starting++;
    try {
      server = await build({ era: "legacy" });
      await server.connect(transport);
    } catch (error) {
      await Promise.allSettled([server?.close(), transport.close()]);
      throw error;
    } finally {
      starting--;
    }
    const session: Session = { transport, server, closed: false, owner, initialize };
    live.add(session);
    startSweep();
    // Wrap the handlers connect installed (public setters): see every message that arrives, and
    // forget the session however its transport closes.
    const onmessage = transport.onmessage;
    if (adoptedId !== undefined) transport.requestIds = fleet?.requestIds();
    transport.onmessage = (message, extra) => {
      const m = transport.requestIds ? transport.requestIds.inbound(message as Message) : (message as Message);
      if (m === undefined) return void onerror(new Error(LATE_ANSWER));
      transport.activity.inbound(m);
      onmessage?.(m as JSONRPCMessage, extra);
    };
    const onclose = transport.onclose;
    transport.onclose = () => {
      void closeSession(session);
      onclose?.();
    };
    return session;
  }

  const busy = (parsed: unknown) => {
    const id = (parsed as { id?: unknown } | undefined)?.id;
    const message = `Server busy: it holds its limit of ${maxSessions} sessions; try again later`;
    return jsonError(503, -32000, message, typeof id === "string" || typeof id === "number" ? id : null);
  };

  /**
   * A session this member does not hold: adopted here, or the request passed to its live member (a
   * Response), or undefined (unknown: 404). A member that does not answer is passed over once its
   * heartbeat has expired; a request passed on once is answered where it lands.
   */
  async function fromFleet(
    request: Request,
    sid: string,
    owner: string | undefined,
    parsed: unknown,
  ): Promise<Session | Response | undefined> {
    const { sessions: fleetSessions } = fleet!;
    const open = (id: string, recordedOwner: string | undefined) => openSession(recordedOwner, undefined, id);
    let unreachable: string | undefined;
    for (let hop = 0; hop < 3; hop++) {
      // Adopted here meanwhile, by a concurrent request.
      const here = sessions.get(sid);
      if (here) return here.owner === owner ? here : undefined;
      const found = await fleetSessions.lookup(sid, owner, open, () => live.size + starting < maxSessions, unreachable);
      if (found.kind === "adopted") return found.session;
      if (found.kind === "full") return busy(parsed);
      if (found.kind === "unknown" || (found.kind === "elsewhere" && fleet!.forwarded(request))) return undefined;
      if (found.kind === "elsewhere") {
        const answer = await fleet!.forward(request, found.url, parsed);
        if (answer) return answer;
        unreachable = found.instance;
        continue;
      }
      break; // unavailable
    }
    const message = "The server instance holding this session is not answering; try again shortly";
    return jsonError(503, -32000, message, null, { "retry-after": "1" });
  }

  async function handle(request: Request, peer?: PeerInfo): Promise<Response> {
    /** The session this request holds open, released however the request ends. */
    let counted: Session | undefined;
    /** Whether the request got past the checks to its session: only then does its end count as activity. */
    let admitted = false;
    const gone = () => request.signal?.aborted === true;
    const hold = (session: Session) => {
      if (gone() || counted === session) return;
      release();
      counted = session;
      session.transport.activity.open++;
    };
    const release = () => {
      const held = counted;
      if (!held) return;
      counted = undefined;
      const { transport } = held;
      transport.activity.open--;
      if (admitted) transport.activity.touch();
      // A POST without a session id that did not initialize one leaves nothing to keep.
      if (transport.sessionId === undefined) void closeSession(held);
    };
    // The client leaving releases the session too; the listener is removed once the request ends, since a
    // runtime may keep the signal (and so the session) long after (Hono's Node adapter does).
    const finish = () => {
      request.signal?.removeEventListener("abort", finish);
      release();
    };
    request.signal?.addEventListener("abort", finish, { once: true });
    // Held from its headers on, so a session cannot expire while a request's body is still arriving.
    const named = request.headers.get("mcp-session-id");
    const early = named === null ? undefined : sessions.get(named);
    if (early) hold(early);
    let response: Response;
    try {
      response = await route(request, peer, hold, () => (admitted = true));
    } catch (error) {
      onerror(error as Error);
      response = jsonError(500, -32603, "Internal error");
    }
    // Held until the answer's stream ends or is cancelled (an SSE stream stays open).
    if (counted) return afterBody(response, finish);
    finish();
    return response;
  }

  async function route(
    request: Request,
    peer: PeerInfo | undefined,
    hold: (session: Session) => void,
    admit: () => void,
  ): Promise<Response> {
    if (options.allowedHosts) {
      const refused = hostHeaderValidationResponse(request, options.allowedHosts);
      if (refused) return refused;
    }
    const pathname = new URL(request.url).pathname;
    if (kit) {
      if (!kit.baseUrl) mountPages(who, kit, path, new URL("/elicit/", request.url), options.auth?.issuer);
      if (pathname.startsWith(kit.baseUrl!.pathname)) return await kit.fetch(request, peer);
    }
    let authInfo: AuthInfo | undefined;
    if (options.auth) {
      let checked: Awaited<ReturnType<AuthGate["handle"]>>;
      try {
        checked = await (await gateFor(request)).handle(request, pathname);
      } catch (error) {
        onerror(error as Error);
        return jsonError(503, -32000, "The authorization server's metadata could not be fetched; try again shortly", null, {
          "retry-after": "5",
        });
      }
      if ("response" in checked) return checked.response;
      authInfo = checked.auth;
    }
    if (pathname !== path) return jsonError(404, -32000, `Not found; the MCP endpoint is ${path}`);
    const body = await readBody(request);
    if (body.kind === "too-large")
      return jsonError(413, -32000, `Payload Too Large: Request body must not exceed ${body.limit} bytes`, null, { connection: "close" });
    if (body.kind === "unparseable")
      return isJsonContentType(request.headers.get("content-type"))
        ? jsonError(400, -32700, "Parse error: Invalid JSON")
        : jsonError(415, -32000, "Unsupported Media Type: Content-Type must be application/json");
    // A malformed request is answered -32600 with its id (body.ts screens it; a malformed reply goes on as an error reply).
    if ("dropped" in body && body.dropped) onerror(body.dropped); // as the SDK's transport reported it
    if (body.kind === "refuse") return jsonError(200, body.reply.error.code, body.reply.error.message, body.reply.id);
    const { parsed } = body;
    const requestOptions = { parsedBody: parsed, ...(authInfo && { authInfo }) };
    if (body.era === "modern") {
      modern ??= createMcpHandler(build, { legacy: "reject", ...(options.onerror ? { onerror: options.onerror } : {}) });
      return await modern.fetch(request, requestOptions);
    }
    const sid = request.headers.get("mcp-session-id") ?? undefined;
    const owner = ownerOf(authInfo);
    let session = sid ? sessions.get(sid) : undefined;
    // Another user's session id is answered like an unknown one: it does not say the session exists.
    if (session && session.owner !== owner) return jsonError(404, -32001, notFound);
    if (!session && sid && fleet) {
      // maxSessions applies only if this member must adopt the session: passing a request on opens none.
      const found = await fromFleet(request, sid, owner, parsed);
      if (found instanceof Response) return found;
      session = found;
    }
    if (!session) {
      if (sid) return jsonError(404, -32001, notFound);
      if (request.method !== "POST") return jsonError(400, -32000, "Missing session id");
      if (closed || live.size + starting >= maxSessions) return busy(parsed);
      session = await openSession(owner, parsed);
      if (request.signal?.aborted) {
        void closeSession(session);
        return jsonError(499, -32000, "Client closed the request");
      }
    } else if (fleet && sid) fleet.sessions.used(sid, session);
    // A message whose sender has left is still handled (a cancellation, an answer), just not counted as open.
    hold(session);
    admit();
    session.transport.activity.touch();
    const transport = session.transport;
    const serve = () => transport.handleRequest(request, requestOptions);
    // In a fleet, what the request starts knows its stream and token (a lost call finished here runs with the token).
    return await (fleet ? fleet.scope(request, authInfo, serve) : serve());
  }

  // defineProperty, not Object.assign: the count is read when asked, not copied once.
  Object.defineProperty(handle, "sessionCount", { get: () => sessions.size, enumerable: true });
  return Object.assign(handle as typeof handle & { readonly sessionCount: number }, {
    async close() {
      closed = true;
      if (sweep) clearInterval(sweep);
      sweep = undefined;
      await Promise.allSettled([...live].map((session) => closeSession(session, false)));
      await modern?.close();
    },
  });
}
