// serveHttp's options (createFetchHandler's, and what listening on Node adds), their defaults and their checks.
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { FleetStore } from "../../store/types.js";
import { checkFleetDpop } from "../auth/dpop.js";
import type { HttpAuthOptions } from "../auth/options.js";
import type { UrlKit } from "../url/url-kit.js";
import { DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_MS, positive as positiveOf, type FetchHandlerOptions } from "./fetch-options.js";

export { DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_MS };
export type { ServerFactory } from "./fetch-options.js";

export interface ServeHttpOptions extends Omit<FetchHandlerOptions, "allowedHosts" | "auth" | "urlKit"> {
  host?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Reject requests whose Host header is not localhost (DNS-rebinding protection; default true for loopback hosts). */
  localhostOnly?: boolean;
  /**
   * A check of your own on every request, after the Host check and before anything else (a shared
   * secret, the Origin a browser sends): it returns false once it has answered the request itself (a
   * 401, a 403), and nothing more is done with it.
   */
  admit?: (req: IncomingMessage, res: ServerResponse) => boolean;
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

export const DEFAULT_BACKLOG = 16_384;
/** Above the 60 s idle timeout of common clients' and proxies' connection pools. */
export const DEFAULT_KEEP_ALIVE_TIMEOUT_MS = 65_000;

const positive = (name: string, value: number | undefined, fallback: number): number => positiveOf("serveHttp", name, value, fallback);

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
