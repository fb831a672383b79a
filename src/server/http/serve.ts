// Streamable HTTP for every revision on one URL. 2026-07-28 requests go to the SDK's stateless
// createMcpHandler; 2025-era requests get a session each, because only a session remembers the
// client's capabilities and can carry server→client requests (elicitation) on the call's stream.
//
// Sessions are bounded: one whose client went away without DELETE expires after `sessionIdleMs`
// with nothing open or pending on it (one unref'd sweep timer checks them all), and at most
// `maxSessions` exist at once. In a fleet (`fleet`), sessions are recorded in the shared store and
// their stream events kept there, so another member adopts a session whose member died.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  createMcpHandler,
  isJsonContentType,
  type JSONRPCMessage,
  type McpServer,
  type Server as McpLowLevelServer,
} from "@modelcontextprotocol/server";
import { localhostHostValidation, toNodeHandler } from "@modelcontextprotocol/node";
import { createAuthGate, ownerOf, prepareAuth, type AuthGate, type RequestWithAuth } from "../auth/gate.js";
import { inRequestScope } from "../fleet/events.js";
import { forward, FORWARDED } from "../fleet/forward.js";
import { AdoptedRequestIds } from "../fleet/request-ids.js";
import { FleetSessions } from "../fleet/sessions.js";
import { readBody } from "./body.js";
import { resolveOptions, type HttpServerHandle, type ServeHttpOptions, type ServerFactory } from "./options.js";
import { TrackedTransport, type Message, type Session } from "./session.js";
import type { UrlKit } from "../url/url-kit.js";
import type { PeerInfo } from "../url/pages/index.js";

export { DEFAULT_BACKLOG, DEFAULT_KEEP_ALIVE_TIMEOUT_MS, DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_MS } from "./options.js";
export type { HttpServerHandle, ServeHttpOptions, ServerFactory } from "./options.js";

function sendJsonError(res: ServerResponse, status: number, code: number, message: string, id: unknown = null, headers = {}) {
  res
    .writeHead(status, { "content-type": "application/json", ...headers })
    .end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id }));
}

const NOT_FOUND = "Session not found: it expired or was closed; start a new session with initialize (without Mcp-Session-Id)";
/** An answer on an adopted session to a request its dead member sent (its question is asked again under a new id). */
const LATE_ANSWER =
  "Dropped an answer to a request this instance did not send: it was sent by the instance that held the session before it stopped, and any question still needed was asked again under a new id";
/** Records of sessions that never expire (sessionIdleMs Infinity) are still dropped after a week unused. */
const MAX_RECORD_TTL_MS = 7 * 24 * 60 * 60_000;

/**
 * Serves the McpServers `factory` builds over Streamable HTTP, every protocol revision on one URL (2026-07-28
 * stateless, 2025 eras a session each); resolves once it listens.
 *
 * @example
 * ```ts region=examples/server-revisions.ts#serveHttp
 * const http = await serveHttp(() => {
 *   const server = new McpServer({ name: "travel", version: "1.0.0" });
 *   kit.registerTool(server, "pick_seat", { description: "Asks for a seat" }, async (_args, ctx) => {
 *     const answer = await ctx.elicit("Pick a seat", form({ seat: choice({ window: "Window", aisle: "Aisle" }) }));
 *     return { content: [{ type: "text", text: `${ctx.protocol}: ${answer.action === "accept" ? answer.content.seat : answer.action}` }] };
 *   });
 *   return server;
 * }, { port: 0, sessionIdleMs: 15 * 60_000, maxSessions: 10_000 });
 * ```
 */
export async function serveHttp(factory: ServerFactory, options: ServeHttpOptions = {}): Promise<HttpServerHandle> {
  const { host, path, localhostOnly, idleMs, maxSessions, backlog, keepAliveTimeoutMs, headersTimeoutMs, fleet } = resolveOptions(options);
  const onerror = (error: Error) => options.onerror?.(error);
  const fleetSessions = fleet
    ? new FleetSessions({ store: fleet.store, instance: fleet.instance, recordTtlMs: Math.min(idleMs, MAX_RECORD_TTL_MS), onerror })
    : undefined;
  const modern = toNodeHandler(createMcpHandler(factory, { legacy: "reject", ...(options.onerror ? { onerror: options.onerror } : {}) }));
  const validateHost = localhostHostValidation();
  const issuerMetadata = options.auth ? await prepareAuth(options.auth) : undefined;
  const pages = options.urlKit ? await urlKitListener(options.urlKit, options.onerror) : undefined;
  let gate: AuthGate | undefined;
  /** Initialized sessions by id. */
  const sessions = new Map<string, Session>();
  /** Every session not yet closed, initialized or still answering its initialize. */
  const live = new Set<Session>();

  /** Closes a session here; `ended` (DELETE, expiry) also forgets it in the fleet, while a member shutting down leaves it for another. */
  function closeSession(session: Session, ended = true): Promise<void> {
    if (session.closed) return Promise.resolve();
    session.closed = true;
    live.delete(session);
    const id = session.transport.sessionId;
    if (id !== undefined && sessions.get(id) === session) {
      sessions.delete(id);
      if (ended) fleetSessions?.ended(id);
    }
    // McpServer.close() closes the transport too; closing it again is a no-op.
    return Promise.allSettled([session.server.close(), session.transport.close()]).then(() => undefined);
  }

  /** Sessions being made (factory and connect) before they join `live`. */
  let starting = 0;

  /** A new session; in a fleet its id is fixed first, since its event store is namespaced by it (an adopted one keeps its recorded id). */
  async function openSession(owner: string | undefined, initialize?: unknown, adoptedId?: string): Promise<Session> {
    const id = adoptedId ?? randomUUID();
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
      server = await factory({ era: "legacy" });
      await server.connect(transport);
    } catch (error) {
      await Promise.allSettled([server?.close(), transport.close()]);
      throw error;
    } finally {
      starting--;
    }
    const session: Session = { transport, server, closed: false, owner, initialize };
    live.add(session);
    // Wrap the handlers connect installed (public setters): see every message that arrives, and
    // forget the session however its transport closes.
    const onmessage = transport.onmessage;
    if (adoptedId !== undefined) transport.requestIds = new AdoptedRequestIds();
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

  /**
   * A session this member does not hold: adopted here, or the request passed to its live member
   * ("answered"), or undefined (unknown: 404). A member that does not answer is passed over once
   * its heartbeat has expired; a request passed on once is answered where it lands.
   */
  async function fromFleet(
    fleetSessions: FleetSessions,
    req: IncomingMessage,
    res: ServerResponse,
    sid: string,
    owner: string | undefined,
    parsed: unknown,
  ): Promise<Session | "answered" | undefined> {
    const open = (id: string, recordedOwner: string | undefined) => openSession(recordedOwner, undefined, id);
    let unreachable: string | undefined;
    for (let hop = 0; hop < 3; hop++) {
      // Adopted here meanwhile, by a concurrent request.
      const here = sessions.get(sid);
      if (here) return here.owner === owner ? here : undefined;
      const found = await fleetSessions.lookup(sid, owner, open, () => live.size + starting < maxSessions, unreachable);
      if (found.kind === "adopted") return found.session;
      if (found.kind === "full") {
        busy(res, parsed);
        return "answered";
      }
      if (found.kind === "unknown" || (found.kind === "elsewhere" && req.headers[FORWARDED] !== undefined)) return undefined;
      if (found.kind === "elsewhere") {
        if (await forward(req, res, found.url, parsed, fleetSessions.registry.instance)) return "answered";
        unreachable = found.instance;
        continue;
      }
      break; // unavailable
    }
    const message = "The server instance holding this session is not answering; try again shortly";
    sendJsonError(res, 503, -32000, message, null, { "retry-after": "1" });
    return "answered";
  }

  function busy(res: ServerResponse, parsed: unknown) {
    const id = (parsed as { id?: unknown } | undefined)?.id;
    const message = `Server busy: it holds its limit of ${maxSessions} sessions; try again later`;
    sendJsonError(res, 503, -32000, message, typeof id === "string" || typeof id === "number" ? id : null);
  }

  // TCP keep-alive finds peers that vanished without closing, so their open streams end too.
  const server = createServer(
    {
      keepAlive: true,
      keepAliveInitialDelay: 60_000,
      headersTimeout: headersTimeoutMs,
      requestTimeout: Math.max(300_000, headersTimeoutMs),
    },
    async (req, res) => {
      // Listen before any await: a client may leave while the body is read or the session made.
      let gone = false;
      /** The session this request holds open, released however the request ends. */
      let counted: Session | undefined;
      /** Whether the request got past the checks to its session: only then does its end count as activity. */
      let admitted = false;
      const hold = (session: Session) => {
        if (gone || counted === session) return;
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
      res.once("close", () => {
        gone = true;
        release();
      });
      // Held from its headers on, so a session cannot expire while a request's body is still arriving.
      const named = req.headers["mcp-session-id"];
      const early = typeof named === "string" ? sessions.get(named) : undefined;
      if (early) hold(early);
      try {
        if (localhostOnly && !validateHost(req, res)) return;
        if (options.admit && !options.admit(req, res)) return;
        const pathname = new URL(req.url ?? "/", "http://x").pathname;
        if (pages && options.urlKit && pathname.startsWith(options.urlKit.baseUrl?.pathname ?? "/elicit/")) return await pages(req, res);
        if (issuerMetadata) {
          // Fail closed: nothing is served in the moment between listening and the gate being made.
          if (!gate) return sendJsonError(res, 503, -32000, "Server starting; try again");
          if (await gate.handle(req, res, pathname)) return;
        }
        if (pathname !== path) return sendJsonError(res, 404, -32000, `Not found; the MCP endpoint is ${path}`);
        const body = await readBody(req);
        if (body.kind === "too-large")
          return sendJsonError(res, 413, -32000, `Payload Too Large: Request body must not exceed ${body.limit} bytes`, null, {
            connection: "close",
          });
        if (body.kind === "unparseable")
          return isJsonContentType(req.headers["content-type"] ?? null)
            ? sendJsonError(res, 400, -32700, "Parse error: Invalid JSON")
            : sendJsonError(res, 415, -32000, "Unsupported Media Type: Content-Type must be application/json");
        // A malformed request is answered -32600 with its id (body.ts screens it; a malformed reply goes on as an error reply).
        if ("dropped" in body && body.dropped) onerror(body.dropped); // as the SDK's transport reported it
        if (body.kind === "refuse") return sendJsonError(res, 200, body.reply.error.code, body.reply.error.message, body.reply.id);
        const { parsed } = body;
        if (body.era === "modern") return await modern(req, res, parsed);
        const sid = req.headers["mcp-session-id"] as string | undefined;
        const owner = ownerOf(req as RequestWithAuth);
        let session = sid ? sessions.get(sid) : undefined;
        // Another user's session id is answered like an unknown one: it does not say the session exists.
        if (session && session.owner !== owner) return sendJsonError(res, 404, -32001, NOT_FOUND);
        if (!session && sid && fleetSessions) {
          // maxSessions applies only if this member must adopt the session: passing a request on opens none.
          const found = await fromFleet(fleetSessions, req, res, sid, owner, parsed);
          if (found === "answered") return;
          session = found;
          if (gone && session) return;
        }
        if (!session) {
          if (sid) return sendJsonError(res, 404, -32001, NOT_FOUND);
          if (req.method !== "POST") return sendJsonError(res, 400, -32000, "Missing session id");
          if (live.size + starting >= maxSessions) return busy(res, parsed);
          session = await openSession(owner, parsed);
          if (gone) return void closeSession(session);
        } else if (fleetSessions && sid) fleetSessions.used(sid, session);
        // A message whose sender has left is still handled (a cancellation, an answer), just not counted as open.
        hold(session);
        admitted = true;
        session.transport.activity.touch();
        const transport = session.transport;
        // In a fleet, what the request starts knows its stream and token (a lost call finished here runs with the token).
        const handle = () => transport.handleRequest(req, res, parsed);
        await (fleetSessions ? inRequestScope(req, handle) : handle());
      } catch (error) {
        onerror(error as Error);
        if (!res.headersSent && !gone) sendJsonError(res, 500, -32603, "Internal error");
      }
    },
  );
  server.keepAliveTimeout = keepAliveTimeoutMs;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen({ port: options.port ?? 0, host, backlog }, () => {
      server.off("error", reject);
      resolve();
    });
  });
  // One sweep for all sessions, at half the idle time (at most a minute): a session expires
  // between sessionIdleMs and sessionIdleMs plus one sweep period after it was last active.
  const sweep = Number.isFinite(idleMs)
    ? setInterval(
        () => {
          const now = Date.now();
          for (const session of sessions.values()) {
            const { activity } = session.transport;
            if (!activity.busy && now - activity.lastActive >= idleMs) void closeSession(session);
          }
        },
        Math.min(60_000, Math.max(10, Math.floor(idleMs / 2))),
      )
    : undefined;
  sweep?.unref();

  const { port } = server.address() as AddressInfo;
  const url = new URL(`http://${host.includes(":") ? `[${host}]` : host}:${port}${path}`);
  if (options.auth && issuerMetadata) gate = createAuthGate(options.auth, issuerMetadata, url, options.onerror, options.fleet?.store);
  try {
    if (options.urlKit) mountUrlKit(options.urlKit, url, path, options.auth?.issuer);
    await fleetSessions?.registry.start(url);
  } catch (error) {
    server.close();
    throw error;
  }
  return {
    url,
    server,
    get sessionCount() {
      return sessions.size;
    },
    async close() {
      if (sweep) clearInterval(sweep);
      await fleetSessions?.registry.stop();
      await Promise.allSettled([...live].map((session) => closeSession(session, false)));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Gives the kit this server's address when it has none, and checks that its pages and the MCP endpoint do not overlap. */
function mountUrlKit(kit: UrlKit, url: URL, path: string, oidcIssuer: string | undefined): void {
  try {
    // People sign in on the pages at the authorization server that protects the endpoint, unless the kit names one.
    kit.mount(new URL("/elicit/", url), oidcIssuer ? { oidcIssuer } : {});
  } catch (error) {
    throw new TypeError(
      `serveHttp: ${(error as Error).message.replace(/^createUrlKit: /, "")} Give createUrlKit a baseUrl: the https address the pages are reached at.`,
    );
  }
  const prefix = kit.baseUrl!.pathname;
  if (prefix === "/" || path.startsWith(prefix))
    throw new TypeError(
      `serveHttp: the URL kit's pages (${prefix}) would cover the MCP endpoint ${path}; give the pages a path of their own.`,
    );
}

/** The kit's pages as a Node request listener (Hono's adapter, loaded only for a server with a kit). */
async function urlKitListener(kit: UrlKit, onerror?: (error: Error) => void) {
  const { getRequestListener } = await import("@hono/node-server");
  // The peer's address goes along (Hono's env) for the pages' loopback identity.
  return getRequestListener((request, env) => kit.fetch(request, env as PeerInfo), {
    // Keep Node's own Request and Response: the rest of the process uses them.
    overrideGlobalObjects: false,
    errorHandler: (error) => {
      onerror?.(error as Error);
      return new Response("Internal error", { status: 500 });
    },
  });
}
