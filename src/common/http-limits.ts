// Bounds for the loopback page servers (webUI's page for `--web`, the URL kit's pages beside a stdio
// server): a client that sends its headers or body slowly, or opens connection after connection, is
// cut off instead of holding sockets for minutes. Loopback and a secret already keep strangers out;
// these keep one misbehaving local program from tying the server up.
import type { Server, ServerOptions } from "node:http";

export interface PageServerLimits {
  /** Time to receive a request's headers (default 10 s); then 408 and the connection closes. */
  headersTimeoutMs: number;
  /** Time to receive a whole request, body included (default 30 s; answers are a few KB); then 408. */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection stays open (default 5 s). */
  keepAliveTimeoutMs: number;
  /** Open connections at most (default 64: a few tabs, each with its event stream); more are dropped. */
  maxConnections: number;
}

export const DEFAULT_PAGE_SERVER_LIMITS: Readonly<PageServerLimits> = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 64,
};

/** The limits with `overrides` applied, each checked (a positive whole number). */
export function pageServerLimits(overrides: Partial<PageServerLimits> = {}): PageServerLimits {
  const limits = { ...DEFAULT_PAGE_SERVER_LIMITS, ...overrides };
  for (const [name, value] of Object.entries(limits))
    if (!(Number.isInteger(value) && value > 0))
      throw new TypeError(`${name} must be a whole number greater than 0; got ${String(value)}.`);
  return limits;
}

/** Options for http.createServer: the timeouts, checked often enough that they hold to about a second. */
export function pageServerOptions(limits: PageServerLimits): ServerOptions {
  return {
    // Node checks the two timeouts on this interval (default 30 s, which would stretch a 10 s bound to 40 s).
    connectionsCheckingInterval: Math.min(1_000, limits.headersTimeoutMs, limits.requestTimeoutMs),
    headersTimeout: Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs),
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
  };
}

/** Applies what createServer's options cannot carry: the connection cap. */
export function capConnections(server: Server, limits: PageServerLimits): void {
  server.maxConnections = limits.maxConnections;
}
