// The travel server as a Next.js or Vercel route (app/mcp/route.ts): the same handler answers GET,
// POST and DELETE on /mcp. Instances share the store: Redis ($REDIS_URL) across machines, a SQLite file
// ($MCP_ELICIT_STORE) for instances on one machine.
import { redisStore, sqliteStore } from "../../../../src/store/index.js"; // "mcp-elicit/store" in your project
import { travelHandler } from "../../travel.js";

const store = process.env.REDIS_URL ? redisStore({ url: process.env.REDIS_URL }) : Promise.resolve(sqliteStore(process.env.MCP_ELICIT_STORE ?? "travel.db"));
const handler = store.then(travelHandler);

const route = async (request: Request): Promise<Response> => (await handler)(request);

export { route as GET, route as POST, route as DELETE };
