// Node's convenience on top of the fetch handler (fetch-handler.ts): listens on a port, answers the
// Host check and `admit` on Node's request, and hands the rest to the handler through
// @hono/node-server's adapter. In a fleet (`fleet`), 2025-era sessions are recorded in the shared
// store and their stream events kept there, so another member adopts a session whose member died,
// and a request for a session another live member holds is passed to it.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { localhostHostValidation } from "@modelcontextprotocol/node";
import { prepareAuth } from "../auth/gate.js";
import { inRequestScope } from "../fleet/events.js";
import { forward, FORWARDED } from "../fleet/forward.js";
import { AdoptedRequestIds } from "../fleet/request-ids.js";
import { FleetSessions } from "../fleet/sessions.js";
import type { PeerInfo } from "../url/kit-types.js";
import type { FleetStore } from "../../store/types.js";
import { createServing } from "./fetch-handler.js";
import { mountPages } from "./mount-pages.js";
import { resolveOptions, type HttpServerHandle, type ResolvedOptions, type ServeHttpOptions, type ServerFactory } from "./options.js";
import type { FetchHandler } from "./fetch-options.js";
import type { ServingFleet } from "./serving-hooks.js";

export { DEFAULT_BACKLOG, DEFAULT_KEEP_ALIVE_TIMEOUT_MS, DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_MS } from "./options.js";
export type { HttpServerHandle, ServeHttpOptions, ServerFactory } from "./options.js";

/** Records of sessions that never expire (sessionIdleMs Infinity) are still dropped after a week unused. */
const MAX_RECORD_TTL_MS = 7 * 24 * 60 * 60_000;

const starting = JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: "Server starting; try again" }, id: null });

/**
 * Serves the McpServers `factory` builds over Streamable HTTP on Node, every protocol revision on one
 * URL (2026-07-28 stateless, 2025 eras a session each); resolves once it listens. The same serving as
 * `createFetchHandler` (mcp-elicit/server), which runs on Workers, Deno and Bun.
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
  const resolved = resolveOptions(options);
  const onerror = (error: Error) => options.onerror?.(error);
  const fleet = resolved.fleet && joinFleet(resolved.fleet, resolved.idleMs, onerror);
  const issuerMetadata = options.auth ? await prepareAuth(options.auth) : undefined;
  /** Set once listening: nothing is served in the moment before (fail closed, the gate needs the address). */
  let listener: ReturnType<typeof getRequestListener> | undefined = undefined;
  const server = await listen(options, resolved, (req, res) => {
    if (!listener) return void res.writeHead(503, { "content-type": "application/json" }).end(starting);
    void listener(req, res);
  });
  const { host, path } = resolved;
  const url = new URL(`http://${host.includes(":") ? `[${host}]` : host}:${(server.address() as AddressInfo).port}${path}`);
  let handler: FetchHandler;
  try {
    if (options.urlKit) mountPages("serveHttp", options.urlKit, path, new URL("/elicit/", url), options.auth?.issuer);
    const hooks = {
      who: "serveHttp",
      oneInstance: true,
      endpoint: url,
      ...(issuerMetadata && { issuerMetadata }),
      ...(fleet && { fleet }),
    };
    handler = createServing(factory, options, hooks);
    await fleet?.sessions.registry.start(url);
  } catch (error) {
    server.close();
    throw error;
  }
  // The peer's address goes along (Hono's env, { incoming }) for the URL kit's loopback identity.
  listener = getRequestListener((request, env) => handler(request, env as PeerInfo), {
    // Keep Node's own Request and Response: the rest of the process uses them.
    overrideGlobalObjects: false,
    errorHandler: (error) => {
      onerror(error as Error);
      return new Response("Internal error", { status: 500 });
    },
  });
  return serverHandle(url, server, handler, fleet);
}

/** What serveHttp resolves to: close() stops heartbeats first (the sessions stay for others to adopt), then every session and connection. */
function serverHandle(url: URL, server: Server, handler: FetchHandler, fleet: ServingFleet | undefined): HttpServerHandle {
  return {
    url,
    server,
    get sessionCount() {
      return handler.sessionCount;
    },
    async close() {
      await fleet?.sessions.registry.stop();
      await handler.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** This process as a member of a fleet: its sessions recorded in the shared store, requests passed to the member holding theirs. */
function joinFleet(fleet: { store: FleetStore; instance?: string }, idleMs: number, onerror: (error: Error) => void): ServingFleet {
  const recordTtlMs = Math.min(idleMs, MAX_RECORD_TTL_MS);
  const sessions = new FleetSessions({ store: fleet.store, instance: fleet.instance, recordTtlMs, onerror });
  return {
    sessions,
    store: fleet.store,
    requestIds: () => new AdoptedRequestIds(),
    forward: (request, target, body) => forward(request, target, body, sessions.registry.instance),
    forwarded: (request) => request.headers.has(FORWARDED),
    scope: (request, auth, handle) => inRequestScope(request, auth, handle),
  };
}

/** Node's HTTP server, listening: Host check and `admit` on Node's request, then `serve`. */
async function listen(
  options: ServeHttpOptions,
  resolved: ResolvedOptions,
  serve: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<Server> {
  const { host, localhostOnly, backlog, keepAliveTimeoutMs, headersTimeoutMs } = resolved;
  const validateHost = localhostHostValidation();
  // TCP keep-alive finds peers that vanished without closing, so their open streams end too.
  const server = createServer(
    {
      keepAlive: true,
      keepAliveInitialDelay: 60_000,
      headersTimeout: headersTimeoutMs,
      requestTimeout: Math.max(300_000, headersTimeoutMs),
    },
    (req, res) => {
      if (localhostOnly && !validateHost(req, res)) return;
      if (options.admit && !options.admit(req, res)) return;
      serve(req, res);
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
  return server;
}
