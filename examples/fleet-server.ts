// One member of a fleet: run as many as you like (on any machines) behind one load balancer, all on one Redis.
// REDIS_URL=redis://10.0.0.5:6379 MCP_ELICIT_STATE_KEY=<the same 32-byte key everywhere> INSTANCE=a PORT=3001 npx tsx examples/fleet-server.ts
import { McpServer } from "@modelcontextprotocol/server";
import * as z from "zod";
import { form, yesNo } from "mcp-elicit/schema";
import { createElicitation } from "mcp-elicit/server";
import { serveHttp } from "mcp-elicit/node";
import { redisStore } from "mcp-elicit/store";

if (!process.env.REDIS_URL) {
  console.log("Set REDIS_URL (the fleet's Redis) and MCP_ELICIT_STATE_KEY (the same key on every member) to serve.");
  // -> Set REDIS_URL (the fleet's Redis) and MCP_ELICIT_STATE_KEY (the same key on every member) to serve.
  process.exit(0);
}

//#region redisStore
const store = await redisStore(); // $REDIS_URL: the call ledger, URL flows, sessions and stream events
const kit = createElicitation({ store }); // the requestState key ring comes from $MCP_ELICIT_STATE_KEY
//#endregion redisStore

function createServer() {
  const server = new McpServer({ name: "fleet-travel", version: "1.0.0" });
  kit.registerTool(server, "book_trip", { description: "Book a trip", inputSchema: z.object({ destination: z.string() }) },
    async ({ destination }, ctx) => {
      const answer = await ctx.elicit(`Confirm your ${destination} booking`, form({ confirmBooking: yesNo() }));
      if (answer.action !== "accept" || !answer.content.confirmBooking) return { content: [{ type: "text", text: "Nothing was booked." }] };
      // Exactly once across the fleet: the step's result is in Redis, whichever member the next round reaches.
      const ref = await ctx.step("reserve", async () => `${destination.slice(0, 3).toUpperCase()}-${Date.now() % 10_000}`);
      return { content: [{ type: "text", text: `Booked ${ref}` }] };
    });
  return server;
}

const http = await serveHttp(createServer, {
  host: process.env.HOST ?? "127.0.0.1", // other members reach this one at this address (see docs/server/run-a-fleet.md)
  port: Number(process.env.PORT ?? 0),
  fleet: { store, instance: process.env.INSTANCE }, // 2025-era sessions survive this member
});
console.error(`listening ${http.url}`);
// A member that stops cleanly hands its sessions over at once; a killed one, within seconds.
process.on("SIGTERM", () => void http.close().then(() => store.close()).then(() => process.exit(0)));
