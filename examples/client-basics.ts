// A host: one SDK Client with safe elicitation, reviewed sampling and roots. Run: npx tsx examples/client-basics.ts
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport, McpServer } from "@modelcontextprotocol/server";
import { attachElicitation, attachRoots, attachSampling } from "mcp-elicit/client";
import { scriptedUI } from "mcp-elicit/scripted";
import { form, yesNo } from "mcp-elicit/schema";
import { createElicitation } from "mcp-elicit/server";

// The server: asks the client's model, then the person, then where it may write.
const kit = createElicitation();
const server = new McpServer({ name: "travel", version: "1.0.0" });
kit.registerTool(server, "plan", { description: "Plan a trip" }, async (_args, ctx) => {
  const pick = await ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "Best of BA-1, IB-2?" } }], maxTokens: 100 });
  const answer = await ctx.elicit("Book the flight the model picked?", form({ book: yesNo() }));
  const [root] = await ctx.roots();
  const text = `model said ${JSON.stringify(pick.content)}; book=${answer.action === "accept" && answer.content.book}; root=${root?.name}`;
  return { content: [{ type: "text", text }] };
});

// The host: a scripted UI stands in for terminalUI() (mcp-elicit/terminal) here; every request is checked before it sees it.
const ui = scriptedUI([
  { sample: { text: "IB-2" } }, // no model configured: the "person" types the answer
  { match: "^Book", action: "accept", content: { book: true } },
]);
const trips = mkdtempSync(join(tmpdir(), "trips-")); // the folder the server may write in
//#region attach
const client = new Client({ name: "host", version: "1.0.0" });
const elicitation = attachElicitation(client, { ui, modes: ["form"] });
attachSampling(client, { ui }); // add `provider: providerFromEnv()` (mcp-elicit/openai) to ask a real model
attachRoots(client, [{ path: trips, name: "Trips" }]);
//#endregion attach

const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await server.connect(serverSide);
await client.connect(clientSide);
// elicitation.callTool is client.callTool plus the -32042 URL-elicitation flow.
const result = await elicitation.callTool({ name: "plan", arguments: {} });
console.log((result.content as { text: string }[])[0]!.text); // -> model said {"type":"text","text":"IB-2"}; book=true; root=Trips
await client.close();
rmSync(trips, { recursive: true });
