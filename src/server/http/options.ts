// serveHttp's options, their defaults and their checks.
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { McpServer, Server as McpLowLevelServer } from "@modelcontextprotocol/server";
import type { FleetStore } from "../../store/types.js";
import { checkFleetDpop } from "../auth/dpop.js";
import type { HttpAuthOptions } from "../auth/options.js";
import type { UrlKit } from "../url/url-kit.js";

/** Makes the server for a session (2025 eras) or a request (2026-07-28): an McpServer, or the SDK's low-level Server. */
export type ServerFactory = (ctx: { era: "legacy" | "modern" }) => McpServer | McpLowLevelServer | Promise<McpServer | McpLowLevelServer>;

export interface ServeHttpOptions {
  host?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Path of the MCP endpoint (default /mcp). */
  path?: string;
  /** Reject requests whose Host header is not localhost (DNS-rebinding protection; default true for loopback hosts). */
  localhostOnly?: boolean;
  /**
   * A check of your own on every request, after the Host check and before anything else (a shared
   * secret, the Origin a browser sends): it returns false once it has answered the request itself (a
   * 401, a 403), and nothing more is done with it.
   */
  admit?: (req: IncomingMessage, res: ServerResponse) => boolean;
  onerror?: (error: Error) => void;
  /**
   * A 2025-era session expires after this many milliseconds with no HTTP request or stream open
   * on it, no client request unanswered and no server→client request (elicitation, sampling,
   * roots) pending. Default 15 minutes; `Infinity` keeps sessions until DELETE or close().
   */
  sessionIdleMs?: number;
  /** Most 2025-era sessions at once (default 10,000); a new one past it gets HTTP 503. */
  maxSessions?: number;
  /**
   * Listen backlog: connections the kernel queues before the server accepts them (default 16,384, so
   * 10,000 clients connecting at once are queued rather than refused). Linux caps it at
   * net.core.somaxconn (4,096 by default): past the cap it answers with SYN cookies, and on a busy server
   * some of those connections end in a reset, so raise somaxconn to the largest burst expected.
   */
  backlog?: number;
  /**
   * How long an idle keep-alive connection stays open (default 65 s, above the 60 s idle timeout
   * of common clients' and proxies' pools, so the server never closes a socket a client is about to reuse).
   * Each one holds a file descriptor: `ulimit -n` must exceed the clients seen within this time.
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
export const DEFAULT_BACKLOG = 16_384;
/** Above the 60 s idle timeout of common clients' and proxies' connection pools. */
export const DEFAULT_KEEP_ALIVE_TIMEOUT_MS = 65_000;

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || Number.isNaN(value) || value <= 0)
    throw new RangeError(`serveHttp: ${name} must be a positive number, got ${String(value)}`);
  return value;
}

function finite(name: string, value: number | undefined, fallback: number): number {
  const n = positive(name, value, fallback);
  if (!Number.isFinite(n)) throw new RangeError(`serveHttp: ${name} must be a finite number of milliseconds, got ${n}`);
  return n;
}

export interface ResolvedOptions {
  host: string;
  path: string;
  localhostOnly: boolean;
  idleMs: number;
  maxSessions: number;
  backlog: number;
  keepAliveTimeoutMs: number;
  headersTimeoutMs: number;
  fleet?: { store: FleetStore; instance?: string };
}

export function resolveOptions(options: ServeHttpOptions): ResolvedOptions {
  const host = options.host ?? "127.0.0.1";
  const backlog = positive("backlog", options.backlog, DEFAULT_BACKLOG);
  if (!Number.isInteger(backlog)) throw new RangeError(`serveHttp: backlog must be an integer, got ${backlog}`);
  const keepAliveTimeoutMs = finite("keepAliveTimeoutMs", options.keepAliveTimeoutMs, DEFAULT_KEEP_ALIVE_TIMEOUT_MS);
  const fleet = options.fleet;
  if (fleet !== undefined) {
    const store = (fleet as { store?: Partial<FleetStore> } | null)?.store;
    const missing = (["publish", "subscribe", "eventStore"] as const).filter((name) => typeof store?.[name] !== "function");
    if (!store || missing.length > 0)
      throw new TypeError(
        `serveHttp: fleet.store must be a store several processes share, with publish, subscribe and eventStore (e.g. redisStore() from mcp-elicit/store); ${store ? `this one has no ${missing.join(", ")}` : "none was given"}.`,
      );
    // Left to itself, each member would name its own address as the resource (metadata, token audience),
    // and a client that connected through the balancer would refuse it.
    if (options.auth && !options.auth.resource)
      throw new TypeError(
        "serveHttp: a fleet member with auth needs auth.resource, the public URL clients connect to (the balancer's, e.g. https://mcp.example.com/mcp); otherwise each member advertises its own address.",
      );
    if (options.auth) checkFleetDpop(options.auth.dpop, store as FleetStore);
  }
  return {
    host,
    path: options.path ?? "/mcp",
    localhostOnly: options.localhostOnly ?? ["127.0.0.1", "localhost", "::1"].includes(host),
    idleMs: positive("sessionIdleMs", options.sessionIdleMs, DEFAULT_SESSION_IDLE_MS),
    maxSessions: positive("maxSessions", options.maxSessions, DEFAULT_MAX_SESSIONS),
    backlog,
    keepAliveTimeoutMs,
    headersTimeoutMs: finite("headersTimeoutMs", options.headersTimeoutMs, keepAliveTimeoutMs + 1000),
    ...(fleet && { fleet }),
  };
}
