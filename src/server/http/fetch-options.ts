// createFetchHandler's options, their defaults and their checks (serveHttp's build on them).
import type { McpServer, Server as McpLowLevelServer } from "@modelcontextprotocol/server";
import type { HttpAuthOptions } from "../auth/options.js";
import type { UrlKit } from "../url/url-kit.js";
import type { PeerInfo } from "../url/kit-types.js";

/** Makes the server for a session (2025 eras) or a request (2026-07-28): an McpServer, or the SDK's low-level Server. */
export type ServerFactory = (ctx: { era: "legacy" | "modern" }) => McpServer | McpLowLevelServer | Promise<McpServer | McpLowLevelServer>;

export interface FetchHandlerOptions {
  /** Path of the MCP endpoint (default /mcp). */
  path?: string;
  /**
   * Answer 403 to a request whose Host header names none of these hostnames (DNS-rebinding protection;
   * without ports, IPv6 in brackets). Default: no check, as a platform serves on its own hostnames.
   */
  allowedHosts?: string[];
  onerror?: (error: Error) => void;
  /**
   * Hears, once, at the first request whose server has a tool of a kit that keeps its call ledger in this
   * instance (the default memory store, or any store not shared): on a platform that runs several
   * instances, a 2026-07-28 retry that reaches another one would run the handler's steps again.
   * Default `console.warn`; the warning names the option to set (createElicitation's `store`).
   */
  warn?: (message: string) => void;
  /**
   * A 2025-era session expires after this many milliseconds with no HTTP request or stream open
   * on it, no client request unanswered and no server→client request (elicitation, sampling,
   * roots) pending. Default 15 minutes; `Infinity` keeps sessions until DELETE or close().
   */
  sessionIdleMs?: number;
  /** Most 2025-era sessions at once (default 10,000); a new one past it gets HTTP 503. */
  maxSessions?: number;
  /**
   * The id a new 2025-era session gets (default `crypto.randomUUID()`). It must be unguessable and
   * unique; a Durable Object that holds one session gives its own id (see mcp-elicit/cloudflare).
   */
  sessionIdGenerator?: () => string;
  /**
   * Require OAuth bearer tokens from this authorization server on the endpoint (and serve the
   * protected-resource metadata). Handlers see who is calling as `ctx.principal`. `auth.resource`, the
   * public URL of the endpoint, is required here: the handler does not know its own address. The
   * issuer's metadata is fetched at the first request that needs it.
   */
  auth?: HttpAuthOptions;
  /**
   * URL mode: serve this kit's pages (connect, sign-in, OAuth callback, hosted forms) on the same
   * origin, under /elicit/ (or under the path of the kit's own baseUrl); a kit without a baseUrl gets
   * `<the first request's origin>/elicit/`. The pages are for browsers: no bearer token is asked for them.
   */
  urlKit?: UrlKit;
}

/**
 * Serves one HTTP request; `peer` carries the client's address for the URL kit's loopback identity
 * (@hono/node-server passes its env, `{ incoming }`, there). `close()` ends every session and stream.
 */
export type FetchHandler = ((request: Request, peer?: PeerInfo) => Promise<Response>) & {
  close(): Promise<void>;
  /** 2025-era sessions held now. */
  readonly sessionCount: number;
};

export const DEFAULT_SESSION_IDLE_MS = 15 * 60_000;
export const DEFAULT_MAX_SESSIONS = 10_000;

/** A positive number, or the fallback; `who` names the function in the error. */
export function positive(who: string, name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || Number.isNaN(value) || value <= 0)
    throw new RangeError(`${who}: ${name} must be a positive number, got ${String(value)}`);
  return value;
}
