// One handler on every revision, served over Streamable HTTP by serveHttp. Run: npx tsx examples/server-revisions.ts
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { McpServer } from "@modelcontextprotocol/server";
import { choice, form } from "mcp-elicit/schema";
import { createElicitation } from "mcp-elicit/server";
import { serveHttp } from "mcp-elicit/node";

const kit = createElicitation();
//#region serveHttp
const http = await serveHttp(() => {
  const server = new McpServer({ name: "travel", version: "1.0.0" });
  kit.registerTool(server, "pick_seat", { description: "Asks for a seat" }, async (_args, ctx) => {
    const answer = await ctx.elicit("Pick a seat", form({ seat: choice({ window: "Window", aisle: "Aisle" }) }));
    return { content: [{ type: "text", text: `${ctx.protocol}: ${answer.action === "accept" ? answer.content.seat : answer.action}` }] };
  });
  return server;
}, { port: 0, sessionIdleMs: 15 * 60_000, maxSessions: 10_000 });
//#endregion serveHttp

for (const revision of ["2025-06-18", "2025-11-25", "2026-07-28"] as const) {
  const era = revision === "2026-07-28" ? { versionNegotiation: { mode: { pin: revision } } } : { supportedProtocolVersions: [revision] };
  const client = new Client({ name: "host", version: "1.0.0" }, { capabilities: { elicitation: { form: {} } }, ...era });
  client.setRequestHandler("elicitation/create", async (request) => {
    if (request.params.mode === "url") return { action: "decline" };
    console.log(JSON.stringify(request.params.requestedSchema.properties.seat));
    return { action: "accept", content: { seat: "aisle" } };
  });
  const transport = new StreamableHTTPClientTransport(http.url);
  await client.connect(transport);
  const result = await client.callTool({ name: "pick_seat", arguments: {} });
  // 2025 eras hold a session each (server→client requests need one); 2026-07-28 is stateless.
  console.log((result.content as { text: string }[])[0]!.text, `(sessions: ${http.sessionCount})`);
  if (transport.sessionId) await transport.terminateSession(); // DELETE: the session ends now, not when idle
  await client.close();
}
await http.close();
// The seat field as each client received it (2025-06-18 has no titled options), then the result:
// -> {"type":"string","enum":["window","aisle"],"enumNames":["Window","Aisle"]}
// -> 2025-06-18: aisle (sessions: 1)
// -> {"type":"string","oneOf":[{"const":"window","title":"Window"},{"const":"aisle","title":"Aisle"}]}
// -> 2025-11-25: aisle (sessions: 1)
// -> {"type":"string","oneOf":[{"const":"window","title":"Window"},{"const":"aisle","title":"Aisle"}]}
// -> 2026-07-28: aisle (sessions: 0)
