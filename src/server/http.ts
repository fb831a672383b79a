// Streamable HTTP for every revision on one URL. 2026-07-28 requests go to the SDK's stateless
// createMcpHandler; 2025-era requests get a session each, because only a session remembers the
// client's capabilities and can carry server→client requests (elicitation) on the call's stream.
//
// Sessions are bounded: one whose client went away without DELETE expires after `sessionIdleMs`
// with nothing open or pending on it (one unref'd sweep timer checks them all), and at most
// `maxSessions` exist at once.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createMcpHandler, isLegacyRequest, type JSONRPCMessage, type McpServer, type RequestId } from "@modelcontextprotocol/server";
import { localhostHostValidation, NodeStreamableHTTPServerTransport, toNodeHandler, toWebRequest } from "@modelcontextprotocol/node";
import { createAuthGate, ownerOf, prepareAuth, type AuthGate, type RequestWithAuth } from "./auth/gate.js";
import type { HttpAuthOptions } from "./auth/options.js";
import type { FleetStore } from "../store/types.js";
import type { UrlKit } from "./url/kit.js";
import type { PeerInfo } from "./url/pages/index.js";

export type ServerFactory = (ctx: { era: "legacy" | "modern" }) => McpServer | Promise<McpServer>;

export interface ServeHttpOptions {
  host?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Path of the MCP endpoint (default /mcp). */
  path?: string;
  /** Reject requests whose Host header is not localhost (DNS-rebinding protection; default true for loopback hosts). */
  localhostOnly?: boolean;
  onerror?: (error: Error) => void;
  /**
   * A 2025-era session expires after this many milliseconds with no HTTP request or stream open
   * on it, no client request unanswered and no server→client request (elicitation, sampling,
   * roots) pending. Default 15 minutes; `Infinity` keeps sessions until DELETE or close().
   */
  sessionIdleMs?: number;
  /** Most 2025-era sessions at once (default 10,000); a new one past it gets HTTP 503. */
  maxSessions?: number;
  /** Listen backlog (default 1024; the kernel caps it at net.core.somaxconn). */
  backlog?: number;
  /**
   * How long an idle keep-alive connection stays open (default 65 s, above the 60 s idle timeout
   * of common clients' and proxies' pools, so the server never closes a socket a client is about to reuse).
   */
  keepAliveTimeoutMs?: number;
  /** How long a client may take to send the request headers (default keepAliveTimeoutMs + 1 s). */
  headersTimeoutMs?: number;
  /**
   * Several serveHttp processes behind one address: 2025-era sessions and their stream events live
   * in `store`, so another member resumes a session whose member died. `instance` names this member
   * (default: a random id).
   */
  fleet?: { store: FleetStore; instance?: string };
  /**
   * Require OAuth bearer tokens from this authorization server on the endpoint (and serve the
   * protected-resource metadata). Handlers see who is calling as `ctx.principal`. The issuer's
   * metadata is fetched before the server listens.
   */
  auth?: HttpAuthOptions;
  /**
   * URL mode: serve this kit's pages (connect, sign-in, OAuth callback, hosted forms) on the same
   * origin, under /elicit/ (or under the path of the kit's own baseUrl); a kit without a baseUrl gets
   * `<this server's origin>/elicit/`. The pages are for browsers: no bearer token is asked for them.
   */
  urlKit?: UrlKit;
}

export interface HttpServerHandle {
  url: URL;
  server: Server;
  /** 2025-era sessions held now. */
  readonly sessionCount: number;
  close(): Promise<void>;
}

export const DEFAULT_SESSION_IDLE_MS = 15 * 60_000;
export const DEFAULT_MAX_SESSIONS = 10_000;
export const DEFAULT_BACKLOG = 1024;

type Message = Record<string, unknown>;
const isRequest = (m: Message) => typeof m.method === "string" && (typeof m.id === "string" || typeof m.id === "number");
const isResponse = (m: Message) =>
  m.method === undefined && (typeof m.id === "string" || typeof m.id === "number") && ("result" in m || "error" in m);
const cancelledId = (m: Message) =>
  m.method === "notifications/cancelled" ? (m.params as { requestId?: RequestId } | undefined)?.requestId : undefined;

/**
 * What is open or pending on one session. The transport reports every message both ways (the SDK
 * chains an `onmessage` set before `connect`, and `send` is the transport's public method), so a
 * client request counts until its response is sent or the client cancels it, and a server→client
 * request until its response arrives or the server withdraws it (timeout or cancelled call).
 */
class Activity {
  /** HTTP requests (POST streams, the GET stream) of this session not yet closed. */
  open = 0;
  readonly fromClient = new Set<RequestId>();
  readonly toClient = new Set<RequestId>();
  lastActive = Date.now();

  get busy(): boolean {
    return this.open > 0 || this.fromClient.size > 0 || this.toClient.size > 0;
  }
  touch(): void {
    this.lastActive = Date.now();
  }
  inbound(message: Message): void {
    this.track(message, this.fromClient, this.toClient);
  }
  outbound(message: Message): void {
    this.track(message, this.toClient, this.fromClient);
  }
  /** A message from one side: its requests open on `sent`, its responses close the other side's, its cancellations its own. */
  private track(message: Message, sent: Set<RequestId>, answered: Set<RequestId>): void {
    this.touch();
    if (isRequest(message)) sent.add(message.id as RequestId);
    else if (isResponse(message)) answered.delete(message.id as RequestId);
    else {
      const id = cancelledId(message);
      if (id !== undefined) sent.delete(id);
    }
  }
}

class TrackedTransport extends NodeStreamableHTTPServerTransport {
  readonly activity = new Activity();

  override async send(message: JSONRPCMessage, options?: Parameters<NodeStreamableHTTPServerTransport["send"]>[1]): Promise<void> {
    const m = message as Message;
    this.activity.outbound(m);
    try {
      await super.send(message, options);
    } catch (error) {
      // A request that never left cannot be answered.
      if (isRequest(m)) this.activity.toClient.delete(m.id as RequestId);
      throw error;
    }
  }
}

interface Session {
  transport: TrackedTransport;
  server: McpServer;
  closed: boolean;
  /** With auth: who opened it (issuer and subject); only they may use it. */
  owner?: string;
}

function sendJsonError(res: ServerResponse, status: number, code: number, message: string, id: unknown = null) {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id }));
}

async function readBody(req: IncomingMessage): Promise<{ web: Request; parsed: unknown }> {
  const web = await toWebRequest(req);
  const text = req.method === "POST" ? await web.clone().text() : "";
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined; // the transport answers the parse error
  }
  return { web, parsed };
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || Number.isNaN(value) || value <= 0)
    throw new RangeError(`serveHttp: ${name} must be a positive number, got ${String(value)}`);
  return value;
}

export async function serveHttp(factory: ServerFactory, options: ServeHttpOptions = {}): Promise<HttpServerHandle> {
  const host = options.host ?? "127.0.0.1";
  const path = options.path ?? "/mcp";
  const localhostOnly = options.localhostOnly ?? ["127.0.0.1", "localhost", "::1"].includes(host);
  const idleMs = positive("sessionIdleMs", options.sessionIdleMs, DEFAULT_SESSION_IDLE_MS);
  const maxSessions = positive("maxSessions", options.maxSessions, DEFAULT_MAX_SESSIONS);
  const backlog = positive("backlog", options.backlog, DEFAULT_BACKLOG);
  if (!Number.isInteger(backlog)) throw new RangeError(`serveHttp: backlog must be an integer, got ${backlog}`);
  const modern = toNodeHandler(createMcpHandler(factory, { legacy: "reject", ...(options.onerror ? { onerror: options.onerror } : {}) }));
  const validateHost = localhostHostValidation();
  const issuerMetadata = options.auth ? await prepareAuth(options.auth) : undefined;
  const pages = options.urlKit ? await urlKitListener(options.urlKit, options.onerror) : undefined;
  let gate: AuthGate | undefined;
  /** Initialized sessions by id. */
  const sessions = new Map<string, Session>();
  /** Every session not yet closed, initialized or still answering its initialize. */
  const live = new Set<Session>();

  function closeSession(session: Session): Promise<void> {
    if (session.closed) return Promise.resolve();
    session.closed = true;
    live.delete(session);
    const id = session.transport.sessionId;
    if (id !== undefined && sessions.get(id) === session) sessions.delete(id);
    // McpServer.close() closes the transport too; closing it again is a no-op.
    return Promise.allSettled([session.server.close(), session.transport.close()]).then(() => undefined);
  }

  /** Sessions being made (factory and connect) before they join `live`. */
  let starting = 0;

  async function openSession(): Promise<Session> {
    const transport: TrackedTransport = new TrackedTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, session),
      onsessionclosed: () => void closeSession(session),
    });
    let server: McpServer | undefined;
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
    const session: Session = { transport, server, closed: false };
    live.add(session);
    // Wrap the handlers connect installed (public setters): see every message that arrives, and
    // forget the session however its transport closes.
    const onmessage = transport.onmessage;
    transport.onmessage = (message, extra) => {
      transport.activity.inbound(message as Message);
      onmessage?.(message, extra);
    };
    const onclose = transport.onclose;
    transport.onclose = () => {
      void closeSession(session);
      onclose?.();
    };
    return session;
  }

  // TCP keep-alive finds peers that vanished without closing, so their open streams end too.
  const server = createServer({ keepAlive: true, keepAliveInitialDelay: 60_000 }, async (req, res) => {
    // Listen before any await: a client may leave while the body is read or the session made.
    let gone = false;
    let counted: Session | undefined;
    res.once("close", () => {
      gone = true;
      if (!counted) return;
      const { transport } = counted;
      transport.activity.open--;
      transport.activity.touch();
      // A POST without a session id that did not initialize one leaves nothing to keep.
      if (transport.sessionId === undefined) void closeSession(counted);
    });
    try {
      if (localhostOnly && !validateHost(req, res)) return;
      const pathname = new URL(req.url ?? "/", "http://x").pathname;
      if (pages && options.urlKit && pathname.startsWith(options.urlKit.baseUrl?.pathname ?? "/elicit/")) return await pages(req, res);
      if (issuerMetadata) {
        // Fail closed: nothing is served in the moment between listening and the gate being made.
        if (!gate) return sendJsonError(res, 503, -32000, "Server starting; try again");
        if (await gate.handle(req, res, pathname)) return;
      }
      if (pathname !== path) return sendJsonError(res, 404, -32000, `Not found; the MCP endpoint is ${path}`);
      const { web, parsed } = await readBody(req);
      if (!(await isLegacyRequest(web))) return await modern(req, res, parsed);
      const sid = req.headers["mcp-session-id"] as string | undefined;
      const owner = ownerOf(req as RequestWithAuth);
      let session = sid ? sessions.get(sid) : undefined;
      // Another user's session id is answered like an unknown one: it does not say the session exists.
      if (session && session.owner !== owner) session = undefined;
      if (!session) {
        if (sid)
          return sendJsonError(
            res,
            404,
            -32001,
            "Session not found: it expired or was closed; start a new session with initialize (without Mcp-Session-Id)",
          );
        if (req.method !== "POST") return sendJsonError(res, 400, -32000, "Missing session id");
        if (live.size + starting >= maxSessions) {
          const id = (parsed as { id?: unknown } | undefined)?.id;
          return sendJsonError(
            res,
            503,
            -32000,
            `Server busy: it holds its limit of ${maxSessions} sessions; try again later`,
            typeof id === "string" || typeof id === "number" ? id : null,
          );
        }
        session = await openSession();
        session.owner = owner;
        if (gone) return void closeSession(session);
      }
      // A message whose sender has left is still handled (a cancellation, an answer), just not counted as open.
      if (!gone) {
        counted = session;
        session.transport.activity.open++;
      }
      session.transport.activity.touch();
      await session.transport.handleRequest(req, res, parsed);
    } catch (error) {
      options.onerror?.(error as Error);
      if (!res.headersSent && !gone) sendJsonError(res, 500, -32603, "Internal error");
    }
  });
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
  if (options.auth && issuerMetadata) gate = createAuthGate(options.auth, issuerMetadata, url, options.onerror);
  if (options.urlKit) {
    try {
      mountUrlKit(options.urlKit, url, path, options.auth?.issuer);
    } catch (error) {
      server.close();
      throw error;
    }
  }
  return {
    url,
    server,
    get sessionCount() {
      return sessions.size;
    },
    async close() {
      if (sweep) clearInterval(sweep);
      await Promise.allSettled([...live].map(closeSession));
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
