// A Cloudflare Worker whose state lives in a Durable Object (and, if you prefer, in D1). Each isolate of
// the Worker reaches the same object, so an `add` is won once across all of them.
// wrangler.toml: bind ELICIT_STORE to ElicitStoreObject under new_sqlite_classes, and DB to a D1 database.
import {
  d1Store,
  durableObjectStoreClient,
  ElicitStoreObject,
  type D1Database,
  type DurableObjectNamespace,
} from "mcp-elicit/cloudflare";

interface Env {
  ELICIT_STORE: DurableObjectNamespace;
  DB: D1Database;
}

export { ElicitStoreObject }; // the Durable Object class the binding names

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    // Made per request: a stub belongs to the request that made it. Give the same store to createElicitation.
    const store = durableObjectStoreClient(env.ELICIT_STORE.get(env.ELICIT_STORE.idFromName("store")));
    const order = new URL(request.url).searchParams.get("order") ?? "none";
    const ledger = new URL(request.url).pathname === "/d1" ? d1Store(env.DB) : store; // or D1: its table is made on first use
    const first = await ledger.add(`charged:${order}`, new Date().toISOString(), 3_600_000);
    return new Response(first ? `charged order ${order}\n` : `order ${order} was charged already\n`);
  },
};
