// The travel server's tools (book_trip, pay_for_booking, ...) behind one fetch handler, for runtimes
// that keep a process between requests: Deno, Bun, a Vercel or Next route, Node. Every instance must
// reach the same store, since a retry may land on another instance: a SQLite file for instances on one
// machine, Redis across machines. With that store the kit needs $MCP_ELICIT_STATE_KEY and
// $MCP_ELICIT_VAULT_KEY, the same on every instance.
// In your project the kit comes from "mcp-elicit/server" and "mcp-elicit/store"; here it comes from the
// sources, as the travel demo's factory does.
import { createElicitation, createFetchHandler, createUrlKit, type FetchHandler } from "../../src/server/index.js";
import type { KeyValueStore } from "../../src/store/index.js";
import { durableTravelStores } from "../../src/servers/travel/durable.js";
import { createTravelServer } from "../../src/servers/travel/server.js";

/** Sign-in at an OpenID provider, for a deployment on a public address. */
export interface SignIn {
  /** The OpenID provider: it issues the MCP clients' access tokens, and people sign in there on the pages. */
  issuer: string;
  /** The pages' client at the provider, with redirect URI `<publicUrl>/elicit/login/callback`. */
  clientId: string;
  clientSecret?: string;
  /** Where the deployment is reached, e.g. https://travel.example.com: the endpoint is /mcp, the pages /elicit/. */
  publicUrl: string;
}

export function travelHandler(store: KeyValueStore, signIn?: SignIn): FetchHandler {
  // Without signIn, local mode: the payment page admits a request from this computer (the runtime
  // passes the peer's address). With it, the MCP endpoint takes the provider's bearer tokens, and the
  // payment page admits only the person the call was made for, once signed in at the same provider.
  const urlKit = signIn
    ? createUrlKit({
        serverName: "mcp-elicit-travel",
        identity: "oidc",
        oidc: { issuer: signIn.issuer, clientId: signIn.clientId, ...(signIn.clientSecret ? { clientSecret: signIn.clientSecret } : {}) },
        baseUrl: new URL("/elicit/", signIn.publicUrl),
        store,
      })
    : createUrlKit({ serverName: "mcp-elicit-travel", identity: "loopback", store });
  const kit = createElicitation({ store, urlKit });
  const { bookings, payments } = durableTravelStores(store);
  const auth = signIn && { issuer: signIn.issuer, resource: new URL("/mcp", signIn.publicUrl).href };
  return createFetchHandler(createTravelServer(kit, { store: bookings, url: { kit: urlKit, payments } }), { urlKit, ...(auth && { auth }) });
}
