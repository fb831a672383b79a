// The travel server as a Next.js or Vercel route (app/mcp/route.ts): the same handler answers GET,
// POST and DELETE on /mcp, and the payment pages under /elicit/ (app/elicit/[...path]/route.ts
// re-exports this module). Instances share the store: Redis ($REDIS_URL) across machines, a SQLite file
// ($MCP_ELICIT_STORE) for instances on one machine. On a public address people sign in at your OpenID
// provider: set $OIDC_ISSUER, $OIDC_CLIENT_ID, $OIDC_CLIENT_SECRET and $PUBLIC_URL.
import { redisStore, sqliteStore } from "../../../../src/store/index.js"; // "mcp-elicit/store" in your project
import { travelHandler, type SignIn } from "../../travel.js";

const env = process.env;
const signIn: SignIn | undefined =
  env.OIDC_ISSUER && env.OIDC_CLIENT_ID && env.PUBLIC_URL
    ? { issuer: env.OIDC_ISSUER, clientId: env.OIDC_CLIENT_ID, clientSecret: env.OIDC_CLIENT_SECRET, publicUrl: env.PUBLIC_URL }
    : undefined;
const store = env.REDIS_URL ? redisStore({ url: env.REDIS_URL }) : Promise.resolve(sqliteStore(env.MCP_ELICIT_STORE ?? "travel.db"));
const handler = store.then((shared) => travelHandler(shared, signIn));

const route = async (request: Request): Promise<Response> => (await handler)(request);

export { route as GET, route as POST, route as DELETE };
