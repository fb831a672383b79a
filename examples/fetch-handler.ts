// One Web-standard handler (Request → Response) on every revision: what a Worker, Deno.serve, Bun.serve or a
// Vercel route serves. Here the client's fetch is the handler itself, so no socket is opened.
// Run: npx tsx examples/fetch-handler.ts
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { McpServer } from "@modelcontextprotocol/server";
import { choice, form } from "mcp-elicit/schema";
import { createElicitation, createFetchHandler } from "mcp-elicit/server";

const kit = createElicitation();
//#region createFetchHandler
const handler = createFetchHandler(() => {
  const server = new McpServer({ name: "travel", version: "1.0.0" });
  kit.registerTool(server, "pick_seat", { description: "Asks for a seat" }, async (_args, ctx) => {
    const answer = await ctx.elicit("Pick a seat", form({ seat: choice({ window: "Window", aisle: "Aisle" }) }));
    return { content: [{ type: "text", text: answer.action === "accept" ? answer.content.seat : answer.action }] };
  });
  return server;
});
export default { fetch: (request: Request) => handler(request) };
//#endregion createFetchHandler

for (const revision of ["2025-11-25", "2026-07-28"] as const) {
  const era = revision === "2026-07-28" ? { versionNegotiation: { mode: { pin: revision } } } : { supportedProtocolVersions: [revision] };
  const client = new Client({ name: "host", version: "1.0.0" }, { capabilities: { elicitation: { form: {} } }, ...era });
  client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { seat: "window" } }));
  const transport = new StreamableHTTPClientTransport(new URL("https://travel.example/mcp"), {
    fetch: (input, init) => handler(new Request(input, init)),
  });
  await client.connect(transport);
  const result = await client.callTool({ name: "pick_seat", arguments: {} });
  console.log(`${revision}: ${(result.content as { text: string }[])[0]!.text} (sessions: ${handler.sessionCount})`);
  if (transport.sessionId) await transport.terminateSession();
  await client.close();
}
await handler.close();
// -> 2025-11-25: window (sessions: 1)
// -> 2026-07-28: window (sessions: 0)
