// A tool that asks the user mid-call, served on every revision. Run: npx tsx examples/server-basics.ts
import { McpServer, InMemoryTransport } from "@modelcontextprotocol/server";
import { Client } from "@modelcontextprotocol/client";
import * as z from "zod";
import { choice, form, yesNo } from "mcp-elicit/schema";
import { createElicitation } from "mcp-elicit/server";

//#region createElicitation
const elicitation = createElicitation({ timeoutMs: 10 * 60_000 }); // once per process: holds the requestState key
//#endregion createElicitation

function createServer() {
  const server = new McpServer({ name: "travel", version: "1.0.0" });
  //#region registerTool
  elicitation.registerTool(server, "book_trip", {
    description: "Book a trip after the traveler confirms",
    inputSchema: z.object({ destination: z.string() }),
  }, async ({ destination }, ctx) => {
    const answer = await ctx.elicit(`Confirm your ${destination} booking`, form({
      confirmBooking: yesNo({ description: "Flights + Hotel = $3,000" }),
      seatPreference: choice({ window: "Window", aisle: "Aisle" }).optional(),
    }));
    if (answer.action !== "accept" || !answer.content.confirmBooking) {
      return { content: [{ type: "text", text: "Nothing was booked." }] };
    }
    // Runs once per call, even when a 2026-07-28 client makes the handler replay.
    const ref = await ctx.step("reserve", () => `BCN-${answer.content.seatPreference ?? "any"}`);
    return { content: [{ type: "text", text: `Booked ${ref} (protocol ${ctx.protocol})` }] };
  });
  //#endregion registerTool
  return server;
}

// A client that answers every form, connected in memory on 2025-11-25.
const client = new Client({ name: "demo-client", version: "1.0.0" }, { capabilities: { elicitation: { form: {} } } });
client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { confirmBooking: true, seatPreference: "window" } }));
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await createServer().connect(serverSide);
await client.connect(clientSide);
const result = await client.callTool({ name: "book_trip", arguments: { destination: "Barcelona" } });
console.log((result.content as { text: string }[])[0]!.text); // -> Booked BCN-window (protocol 2025-11-25)
await client.close();
