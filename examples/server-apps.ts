// The same tool on a host that shows MCP Apps but cannot be asked (claude.ai, Claude Desktop, ChatGPT): the
// question ends the call as the kit's form app, and the app's answer resumes it. Run: npx tsx examples/server-apps.ts
import { McpServer, InMemoryTransport } from "@modelcontextprotocol/server";
import { Client } from "@modelcontextprotocol/client";
import * as z from "zod";
import { choice, form, yesNo } from "mcp-elicit/schema";
import { createElicitation } from "mcp-elicit/server";

//#region createElicitation
// Apps are on by default: only a caller that declares the UI extension and no elicitation sees the form app.
const elicitation = createElicitation({ apps: true });
//#endregion createElicitation

const server = new McpServer({ name: "travel", version: "1.0.0" });
elicitation.registerTool(server, "book_trip", {
  description: "Book a trip after the traveler confirms",
  inputSchema: z.object({ destination: z.string() }),
}, async ({ destination }, ctx) => {
  const answer = await ctx.elicit(`Confirm your ${destination} booking`, form({
    confirmBooking: yesNo({ description: "Flights + Hotel = $3,000" }),
    seatPreference: choice({ window: "Window", aisle: "Aisle" }).optional(),
  }));
  if (answer.action !== "accept" || !answer.content.confirmBooking) return { content: [{ type: "text", text: "Nothing was booked." }] };
  const ref = await ctx.step("reserve", () => `BCN-${answer.content.seatPreference ?? "any"}`);
  return { content: [{ type: "text", text: `Booked ${ref}` }] };
});

//#region host
// What claude.ai declares: the UI extension with the MCP App type, and no elicitation.
const host = new Client({ name: "app-host", version: "1.0.0" }, {
  capabilities: { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } } },
});
//#endregion host
const [hostSide, serverSide] = InMemoryTransport.createLinkedPair();
await server.connect(serverSide);
await host.connect(hostSide);

const { tools } = await host.listTools();
console.log((tools[0]!._meta as { ui: { resourceUri: string } }).ui.resourceUri); // -> ui://elicit/form-app.html

//#region first-call
// The model's call ends at once: the text is what the model reads, _meta is what the app renders.
const asked = await host.callTool({ name: "book_trip", arguments: { destination: "Barcelona" } });
const question = asked._meta!["mcp-elicit.app"] as { tool: string; arguments: object; state: string; question: { key: string } };
//#endregion first-call
console.log((asked.content as { text: string }[])[0]!.text); // -> The person is being asked to fill in a form, shown with this tool call: "Confirm your Barcelona booking". They answer there, not in the chat; the tool's outcome is added to the conversation when they finish. Do not call the tool again or ask them the same question meanwhile.

//#region answer
// What the app does when the person presses Submit (App.callServerTool through the host).
const done = await host.callTool({
  name: "elicit_answer",
  arguments: {
    tool: question.tool, arguments: question.arguments, state: question.state, key: question.question.key,
    action: "accept", content: { confirmBooking: true, seatPreference: "window" },
  },
});
//#endregion answer
console.log((done.content as { text: string }[])[0]!.text); // -> Booked BCN-window
await host.close();
