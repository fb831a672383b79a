// The travel server's tools on Cloudflare Workers, every revision on /mcp: 2026-07-28 calls are
// stateless (their rounds and steps recorded in the store's Durable Object), each 2025-era session
// lives in a Durable Object of its own. Configuration: wrangler.jsonc beside this file.
// In your project the kit comes from "mcp-elicit/server" and "mcp-elicit/cloudflare"; here it comes from
// the sources, as the travel demo's factory does.
import { createElicitation, createFetchHandler, createUrlKit, type FetchHandler } from "../../src/server/index.js";
import {
  durableObjectStoreClient,
  ElicitStoreObject,
  routeSession,
  sessionObjectHandler,
  type DurableObjectIdLike,
  type DurableObjectNamespaceLike,
  type DurableObjectStateLike,
  type DurableObjectStub,
} from "../../src/cloudflare/index.js";
import { durableTravelStores } from "../../src/servers/travel/durable.js";
import { createTravelServer } from "../../src/servers/travel/server.js";

// The bindings, typed by what this file uses (@cloudflare/workers-types' DurableObjectNamespace fits both).
export interface Env {
  ELICIT_STORE: { idFromName(name: string): DurableObjectIdLike; get(id: DurableObjectIdLike): DurableObjectStub };
  MCP_SESSIONS: DurableObjectNamespaceLike;
  MCP_ELICIT_STATE_KEY: string;
  MCP_ELICIT_VAULT_KEY: string;
}

/** The travel tools on the store's Durable Object, and the URL kit whose pages take the payment. */
function travel(env: Env) {
  const store = durableObjectStoreClient(env.ELICIT_STORE.get(env.ELICIT_STORE.idFromName("store")));
  // Local mode (wrangler dev on localhost): Cloudflare's CF-Connecting-IP is the visitor's address. A
  // deployed Worker serves a public hostname, where local mode admits nobody: sign people in there (identity "oidc").
  const urlKit = createUrlKit({ serverName: "mcp-elicit-travel", identity: "loopback", store, vaultKey: env.MCP_ELICIT_VAULT_KEY });
  const kit = createElicitation({ store, stateKey: env.MCP_ELICIT_STATE_KEY, urlKit });
  const { bookings, payments } = durableTravelStores(store);
  return { urlKit, factory: createTravelServer(kit, { store: bookings, url: { kit: urlKit, payments } }) };
}

const peer = (request: Request) => ({ remoteAddress: request.headers.get("cf-connecting-ip") ?? undefined });

// The Durable Object classes the Worker's bindings name: the store, and one object per 2025-era session.
export { ElicitStoreObject };

export class McpSessionObject {
  private readonly handler: FetchHandler;
  constructor(state: DurableObjectStateLike, env: Env) {
    const { urlKit, factory } = travel(env);
    this.handler = sessionObjectHandler(state, factory, { urlKit });
  }
  fetch(request: Request): Promise<Response> {
    return this.handler(request, peer(request));
  }
}

export default {
  // A Durable Object stub belongs to the request that made it, so the Worker makes the kit per request.
  async fetch(request: Request, env: Env): Promise<Response> {
    const { urlKit, factory } = travel(env);
    const handler = createFetchHandler(factory, { urlKit });
    return routeSession(request, { sessions: env.MCP_SESSIONS, handler: (request) => handler(request, peer(request)) });
  },
};
