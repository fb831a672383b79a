// The travel server's tools on Cloudflare Workers, every revision on /mcp: 2026-07-28 calls are
// stateless (their rounds and steps recorded in the store's Durable Object), 2025-era sessions each
// live in a Durable Object of their own. Configuration: wrangler.jsonc beside this file.
// In your project the kit comes from "mcp-elicit/server" and "mcp-elicit/cloudflare"; here it comes from
// the sources, as the travel demo's factory does.
import { createElicitation, createFetchHandler, createUrlKit } from "../../src/server/index.js";
import { durableObjectStoreClient, ElicitStoreObject } from "../../src/cloudflare/index.js";
import { durableTravelStores } from "../../src/servers/travel/durable.js";
import { createTravelServer } from "../../src/servers/travel/server.js";

// The Durable Object classes the Worker's bindings name.
export { ElicitStoreObject };

interface DurableObjectNamespace {
  idFromName(name: string): unknown;
  get(id: unknown): { fetch(input: string | Request, init?: RequestInit): Promise<Response> };
}

export interface Env {
  ELICIT_STORE: DurableObjectNamespace;
  MCP_ELICIT_STATE_KEY: string;
  MCP_ELICIT_VAULT_KEY: string;
}

export default {
  // A Durable Object stub belongs to the request that made it, so the kit is made per request.
  async fetch(request: Request, env: Env): Promise<Response> {
    const store = durableObjectStoreClient(env.ELICIT_STORE.get(env.ELICIT_STORE.idFromName("store")));
    // Local mode (wrangler dev on localhost): Cloudflare's CF-Connecting-IP is the visitor's address. A
    // deployed Worker serves a public hostname, where local mode admits nobody: sign people in there (identity "oidc").
    const urlKit = createUrlKit({ serverName: "mcp-elicit-travel", identity: "loopback", store, vaultKey: env.MCP_ELICIT_VAULT_KEY });
    const kit = createElicitation({ store, stateKey: env.MCP_ELICIT_STATE_KEY, urlKit });
    const { bookings, payments } = durableTravelStores(store);
    const handler = createFetchHandler(createTravelServer(kit, { store: bookings, url: { kit: urlKit, payments } }), { urlKit });
    return handler(request, { remoteAddress: request.headers.get("cf-connecting-ip") ?? undefined });
  },
};
