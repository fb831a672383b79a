// The Durable Object's side: one object holds one 2025-era session, served by createFetchHandler in the
// object's memory. Its session id is the object's id (so routeSession finds the object again), a dot, and
// a random secret drawn when the session starts: object ids are not meant to be secrets, session ids are.
import { servedInDurableObject } from "../server/base/cross-requests.js";
import { fetchServing } from "../server/http/fetch-handler.js";
import type { FetchHandler, FetchHandlerOptions, ServerFactory } from "../server/http/fetch-options.js";
import type { DurableObjectStateLike } from "../store/cloudflare/platform.js";

/**
 * The fetch handler of a Durable Object class that holds one 2025-era session: make it in the class's
 * constructor and answer `fetch` with it. Options as createFetchHandler's (auth, urlKit, sessionIdleMs...);
 * `maxSessions` is 1 and the session id is made here.
 */
export function sessionObjectHandler(
  state: DurableObjectStateLike,
  factory: ServerFactory,
  options: Omit<FetchHandlerOptions, "sessionIdGenerator" | "maxSessions"> = {},
): FetchHandler {
  // Its servers' questions may be answered by the session's later requests: they all reach this object.
  const inObject: ServerFactory = async (ctx) => {
    const server = await factory(ctx);
    servedInDurableObject(server);
    return server;
  };
  // Every request of the session reaches this object: a session it does not know expired or was closed.
  return fetchServing(
    inObject,
    { ...options, maxSessions: 1, sessionIdGenerator: () => `${state.id.toString()}.${crypto.randomUUID()}` },
    { sessionsHeldHere: true },
  );
}
