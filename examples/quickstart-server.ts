// A tool that asks the person in the middle of the call, on every protocol revision.
// It serves stdio when run: npx elicit call book_trip --args '{"destination":"Barcelona"}' -- npx tsx examples/quickstart-server.ts
import { fileURLToPath } from "node:url";
import { McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import * as z from "zod";
import { choice, form, yesNo } from "mcp-elicit/schema";
import { createElicitation } from "mcp-elicit/server";

const kit = createElicitation();

export function createServer() {
  const server = new McpServer({ name: "quickstart", version: "1.0.0" });
  const input = z.object({ destination: z.string() });
  kit.registerTool(server, "book_trip", { description: "Book a trip", inputSchema: input }, async ({ destination }, ctx) => {
    const answer = await ctx.elicit(`Confirm your ${destination} booking`, form({
      confirmBooking: yesNo({ description: "Flights + Hotel = $3,000" }),
      seatPreference: choice({ window: "Window", aisle: "Aisle" }).optional(),
    }));
    if (answer.action !== "accept" || !answer.content.confirmBooking) return { content: [{ type: "text", text: "Nothing was booked." }] };
    return { content: [{ type: "text", text: `Booked ${destination}, seat: ${answer.content.seatPreference ?? "any"}` }] };
  });
  return server;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) serveStdio(createServer);
