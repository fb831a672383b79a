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

export function travelHandler(store: KeyValueStore): FetchHandler {
  // Local mode: the payment page admits a request from this computer (the runtime passes the peer's
  // address). A deployment on a public address signs people in instead (identity "oidc").
  const urlKit = createUrlKit({ serverName: "mcp-elicit-travel", identity: "loopback", store });
  const kit = createElicitation({ store, urlKit });
  const { bookings, payments } = durableTravelStores(store);
  return createFetchHandler(createTravelServer(kit, { store: bookings, url: { kit: urlKit, payments } }), { urlKit });
}
